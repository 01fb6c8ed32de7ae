"""A state's key order never matters (api-contract: ``apply`` is a pure function of the state and
the move). A session stores its states with sorted keys (``api.jsonio``) while setup and a replay
make them in the rules' own order, so an output that followed the key order differed between a
live game and its replay: a Council death named its pillars in the other order, and the honest
finished game failed ``verify``, and a Council reign of a custom deck was dealt from the key
order."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.registry import GAMES, get_game

SEATS = {"reigns-the-council": ["ann", "bob", "cat"]}


def _sorted_copy(state: dict) -> dict:
    return json.loads(json.dumps(state, sort_keys=True))


def _reversed_copy(value: Any) -> Any:
    """``value`` with every object's keys in reverse order (players too: seats ``p0``, ``p1`` sort
    in seat order, so a sorted copy alone never reorders them)."""
    if type(value) is dict:
        return {key: _reversed_copy(value[key]) for key in reversed(value)}
    if type(value) is list:
        return [_reversed_copy(item) for item in value]
    return value


CUSTOM_DECK = [{"back": ["church"], "accept": {"church": 1}, "reject": {"church": -1}}] * 25
"""A Council deck of 25 cards with the default ids ``card-1`` to ``card-25``, which sort another
way as keys (``card-10`` before ``card-2``): a reign was dealt from the key order."""
TYING_DECK = [
    {**card, "id": f"x{zero}{n}"}
    for zero, card in (("", CUSTOM_DECK[0]), ("0", CUSTOM_DECK[0]))
    for n in range(1, 14)
]
"""26 cards whose ids tie in natural order (``x1`` and ``x01``): the tie was broken by the key
order (a hunt found an honest session with such a deck fail its own replay)."""
CASES = [(game_id, {}) for game_id in sorted(GAMES)] + [
    ("reigns-the-council", {"deck": CUSTOM_DECK}),
    ("reigns-the-council", {"deck": TYING_DECK}),
]


def _first(moves: list[dict], chooser: random.Random) -> dict:
    """The first move listed: a player who always does the first thing listed reaches positions
    that random play seldom does."""
    return moves[0]


def _any(moves: list[dict], chooser: random.Random) -> dict:
    return chooser.choice(moves)


@pytest.mark.parametrize("reorder", [_sorted_copy, _reversed_copy])
@pytest.mark.parametrize("pick", [_any, _first])
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_apply_gives_the_same_state_and_events_whatever_the_key_order(
    game_id, options, pick, reorder
):
    game = get_game(game_id)
    steps = 0
    for seed in range(60):
        chooser = random.Random(seed)
        state = game.setup(SEATS.get(game_id, ["ann", "bob"]), seed, options)
        while state["status"] != "finished":
            move = pick([m for m in game.legal_moves(state) if m["type"] != "concede"], chooser)
            after, events = game.apply(state, move)
            again, events_again = game.apply(reorder(state), move)
            assert json.dumps([again, events_again], sort_keys=True) == json.dumps(
                [after, events], sort_keys=True
            ), (game_id, seed, move)
            state = after
            steps += 1
        if steps >= 400:
            break
    assert steps >= 400


def test_the_council_deals_from_a_total_natural_order_of_its_ids():
    """Digits compare as numbers, an id before the same id with more after it, and ids the same
    in natural order by the ids themselves (a tie-break that compared a number with a letter
    made a deck of ``king`` and ``king2`` a 500)."""
    from rules.reigns_the_council.reign import _natural

    ids = ["king2", "x1", "card-10", "king", "x01", "card-2", "card-"]
    assert sorted(ids, key=_natural) == ["card-", "card-2", "card-10", "king", "king2", "x01", "x1"]
    deck = [{**CUSTOM_DECK[0], "id": "king"}, {**CUSTOM_DECK[0], "id": "king2"}] + CUSTOM_DECK[2:]
    state = get_game("reigns-the-council").setup(SEATS["reigns-the-council"], 1, {"deck": deck})
    assert {"king", "king2"} <= set(state["cards"])
