"""Integrity of client-sent states: broken states are InvalidState (422), never a crash."""

from __future__ import annotations

import copy
import random

import pytest
from ra_helpers import battle, unit

from rules.errors import InvalidState
from rules.playout import random_steps
from rules.reign_absolute import GAME
from rules.reign_absolute.integrity import _placed_soundly, _places, state_problems


def sound():
    return battle(
        {"ann": "empire", "bob": "elves"},
        {
            "ann": [unit("empire-king", 0, 0, "plus-4-1"), unit("empire-archers-1", 1, 0)],
            "bob": [unit("elves-queen", 5, 0, "cancel-1")],
        },
    )


def broken(change):
    state = copy.deepcopy(sound())
    change(state)
    return state


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda s: s["deck"].append("plus-4-1"), "card_in_two_places"),
        (lambda s: s["deck"].pop(), "missing_card"),
        (lambda s: s["deck"].append("ace-of-spades"), "unknown_card"),
        (lambda s: s["unit_discards"]["ann"].append("empire-king"), "unit_in_two_places"),
        (
            lambda s: s["unit_discards"]["bob"].append(s["unit_discards"]["ann"].pop()),
            "wrong_owner",
        ),
        (lambda s: s["battlefield"]["empire-archers-1"].update(x=0), "cell_twice"),
        (lambda s: s["battlefield"]["empire-archers-1"].update(x=10**9), "bad_cell"),
        (lambda s: s.update(rng="xyz"), "bad_rng"),
        (lambda s: s.update(active_players=["bob"]), "inconsistent_active_players"),
        (lambda s: s.update(eradicated=["bob"]), "inconsistent_eradication"),
        (
            lambda s: (
                s["discard"].extend(s["battlefield"].pop("elves-queen")["reinforcements"]),
                s["unit_discards"]["bob"].append("elves-queen"),
            ),
            "inconsistent_eradication",
        ),
        (lambda s: s.update(phase="finished"), "inconsistent_status"),
        (lambda s: s["turn"].update(stage="reinforcement"), "bad_turn"),
        (lambda s: s.update(doom={"caller": "bob", "to_discard": ["ann"]}), "bad_doom"),
        (lambda s: s.update(bonus_owed=["zed"]), "bad_bonus"),
        (lambda s: s["race_of"].update(bob="empire"), "race_twice"),
        (
            lambda s: s["units"].__setitem__(
                "empire-king", {**s["units"]["empire-king"], "strength": -4}
            ),
            "bad_catalogue",
        ),
        (lambda s: s.update(turn_limit=0), "bad_turn_limit"),
        (  # a turn card is resolved or discarded when drawn, never stored under a unit
            lambda s: (
                s["deck"].remove("another-turn-1"),
                s["battlefield"]["empire-king"]["reinforcements"].append("another-turn-1"),
            ),
            "turn_card_under_unit",
        ),
        (  # cards go under units once every unit is placed
            lambda s: s.update(phase="placement", turn=None, active_players=["ann"]),
            "early_reinforcement",
        ),
    ],
)
def test_corrupted_states_are_refused_with_a_reason(change, code):
    state = broken(change)
    with pytest.raises(InvalidState) as err:
        GAME.check_state(state)
    assert code in [v.code for v in err.value.violations], err.value.violations


def test_sound_states_from_play_pass():
    state = GAME.setup(["ann", "bob", "cat"], 9, {})
    for step in random_steps(GAME, state, random.Random(9)):
        assert state_problems(step.after) == []


def _mutate(value, rng, depth=0):
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        if rng.random() < 0.3 or depth > 4:
            value[key] = rng.choice([None, 0, -1, "zz", [], {}, True, 10**12, ["ann"], {"x": 1}])
        else:
            _mutate(value[key], rng, depth + 1)
    elif isinstance(value, list) and value:
        i = rng.randrange(len(value))
        if rng.random() < 0.4 or depth > 4:
            value[i] = rng.choice([None, 0, "zz", "ann", [], {}, "plus-1-1", "empire-king"])
        else:
            _mutate(value[i], rng, depth + 1)


def test_random_corruptions_never_crash_the_rules():
    rng = random.Random(3)
    bases = []
    state = GAME.setup(["ann", "bob"], 2, {})
    for i, step in enumerate(random_steps(GAME, state, random.Random(2))):
        if i % 9 == 0:
            bases.append(step.after)
    for _ in range(1500):
        state = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.randint(1, 3)):
            _mutate(state, rng)
        try:
            GAME.check_state(state)  # the game's integrity and to_move, as the API checks
        except InvalidState:
            continue
        # A corrupted state that still passes must be playable like any other.
        for m in GAME.legal_moves(state):
            assert GAME.violations(state, m) == []
        GAME.view(state, "ann")
        GAME.score(state)


def test_the_quick_placement_proof_passes_sound_states():
    """Issue 28: ``_placed_soundly`` spares a sound state the walk that names problems; the
    states of play must take it (else it would cost without saving anything)."""
    for players, seed in ((["ann", "bob"], 4), (["ann", "bob", "cat", "dan"], 5)):
        state = GAME.setup(players, seed, {})
        for step in random_steps(GAME, state, random.Random(seed)):
            assert _placed_soundly(step.after, step.after["players"])


@pytest.mark.parametrize("seed", range(3))
def test_the_quick_placement_proof_never_passes_what_the_walk_refuses(seed):
    """Whatever the quick proof passes, the walk (``_places``) passes too: it proves the same
    facts, so no broken state gets through by it. Corruptions aimed at the places (a unit or a
    card moved, doubled, dropped, renamed; a cell moved or repeated; a race swapped) and random
    ones, on states from every phase."""
    rng = random.Random(seed)
    bases = []
    for players in (["ann", "bob"], ["ann", "bob", "cat"]):
        state = GAME.setup(players, seed, {})
        for i, step in enumerate(random_steps(GAME, state, random.Random(seed))):
            if i % 5 == 0:
                bases.append(step.after)
    ids = ["empire-king", "elves-queen", "plus-1-1", "draw-2-1", "cancel-1", "zz", 7, None]

    def aimed(state):
        piles = [state["deck"], state["discard"], *state["unit_decks"].values()]
        piles += [*state["unit_discards"].values()]
        piles += [e["reinforcements"] for e in state["battlefield"].values()]
        pile = rng.choice(piles)
        roll = rng.random()
        if roll < 0.3 and pile:
            pile.pop(rng.randrange(len(pile)))
        elif roll < 0.6:
            pile.append(rng.choice(ids))
        elif roll < 0.7 and state["battlefield"]:
            entry = rng.choice(list(state["battlefield"].values()))
            entry[rng.choice(["x", "y"])] = rng.choice([0, 1, -1, 10**6, True, "1"])
        elif roll < 0.8 and state["battlefield"]:
            entry = rng.choice(list(state["battlefield"].values()))
            entry["owner"] = rng.choice(state["players"] + ["zed"])
        elif roll < 0.9:
            player = rng.choice(state["players"])
            state["race_of"][player] = rng.choice([None, "empire", "elves", "raiders", "nope"])
        elif state["battlefield"]:
            uid = rng.choice(sorted(state["battlefield"]))
            state["battlefield"][rng.choice(ids[:2] + ["x"])] = state["battlefield"].pop(uid)

    passed = 0
    for _ in range(800):
        state = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.randint(1, 2)):
            if rng.random() < 0.3:
                _mutate(state, rng)
                continue
            try:
                aimed(state)
            except (KeyError, TypeError, AttributeError):  # a state _mutate broke beyond aiming
                pass
        players = state["players"]
        try:
            quick = _placed_soundly(state, players)
        except Exception as exc:  # the proof must never raise: pytest names what it raised
            raise AssertionError(f"_placed_soundly raised {exc!r}") from exc
        if quick:
            passed += 1
            assert _places(state, players) == [], state
    assert passed  # some corruptions leave the places sound: the proof was exercised both ways


def _played(want) -> dict:
    """The first state of seeded random three-player games that ``want`` accepts."""
    for seed in range(200):
        state = GAME.setup(["ann", "bob", "cat"], seed, {})
        for step in random_steps(GAME, state, random.Random(seed), concede=0.0):
            if want(step.after):
                return copy.deepcopy(step.after)
    raise AssertionError("no such state in 200 games")


def _codes(state) -> list[str]:
    with pytest.raises(InvalidState) as caught:
        GAME.check_state(state)
    return [v.code for v in caught.value.violations]


def test_dooms_discards_go_round_once_each_from_the_callers_left():
    """Rulings RA 9: each player discards in turn from the caller's left, the caller last. A
    player listed twice was left to move, eradicated, with no legal move, after the first of
    their discards took their Liege."""
    state = _played(lambda s: s["doom"] is not None and len(s["doom"]["to_discard"]) == 3)
    GAME.check_state(state)
    caller = state["doom"]["caller"]
    for order in ([caller, caller, caller], state["doom"]["to_discard"][::-1]):
        crafted = copy.deepcopy(state)
        crafted["doom"]["to_discard"] = order
        crafted["active_players"] = order[:1]
        assert "bad_doom" in _codes(crafted)


@pytest.mark.parametrize("reason", ["last_liege", "turn_limit"])
def test_a_finished_games_outcome_is_the_one_its_board_gives(reason):
    """The outcome of a finished game follows from its end: an eradicated player named the
    winner, other scores or another draw flag are refused (``inconsistent_outcome``)."""
    state = _played(lambda s: s["status"] == "finished" and s["outcome"]["reason"] == reason)
    GAME.check_state(state)
    loser = next(p for p in state["players"] if p not in state["outcome"]["winners"])
    for change in (
        lambda o: o.update(winners=[loser], draw=False),
        lambda o: o["scores"].update({loser: 99}),
        lambda o: o.update(draw=not o["draw"]),
    ):
        crafted = copy.deepcopy(state)
        change(crafted["outcome"])
        assert "inconsistent_outcome" in _codes(crafted)


def test_nothing_steps_past_the_edge_of_the_battlefield():
    """``COORD_LIMIT`` bounds the rulings' unbounded grid, in every state and every move: a unit
    at the edge is listed no move past it, such a move is refused, and every listed move's
    state passes the check (one past the edge used to be listed, applied, and then refused
    as the next request's state)."""
    from rules.errors import IllegalMove
    from rules.reign_absolute.grid import COORD_LIMIT

    state = _played(
        lambda s: s["phase"] == "play" and s["turn"]["stage"] == "action" and not s["bonus_owed"]
    )
    player = state["turn"]["player"]
    uid = sorted(u for u, e in state["battlefield"].items() if e["owner"] == player)[0]
    state["battlefield"][uid].update(x=COORD_LIMIT, y=-COORD_LIMIT)
    GAME.check_state(state)
    listed = GAME.legal_moves(state, player)
    mine = [m for m in listed if m.get("unit") == uid and "x" in m]
    assert mine and all(abs(m["x"]) <= COORD_LIMIT and abs(m["y"]) <= COORD_LIMIT for m in mine)
    for move in listed:
        GAME.check_state(GAME.apply(state, move)[0])
    past = {"player": player, "type": "move", "unit": uid, "x": COORD_LIMIT + 1, "y": -COORD_LIMIT}
    with pytest.raises(IllegalMove):
        GAME.apply(state, past)


def test_an_outcome_names_how_the_game_ended_and_lieges_that_fell_together_share_it():
    """Seed 12 (two players, random moves): both Lieges fall in one combat, and the two share
    the draw in seat order. An unknown reason is refused (it skipped the check), and so is a
    draw of Lieges that fell together claimed by one of them alone, or in another order."""
    state = GAME.setup(["a", "b"], 12, {})
    for step in random_steps(GAME, state, random.Random(12), concede=0.02):
        state = step.after
    assert state["outcome"]["reason"] == "lieges_fell_together"
    assert state["outcome"]["winners"] == ["a", "b"]
    GAME.check_state(state)
    for change in (
        lambda o: o.update(reason="banana"),
        lambda o: o.update(winners=["b"], draw=False),
        lambda o: o.update(winners=["b", "a"]),
    ):
        crafted = copy.deepcopy(state)
        change(crafted["outcome"])
        assert "inconsistent_outcome" in _codes(crafted)
