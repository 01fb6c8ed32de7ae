"""Random playouts: 200 standard and 300 skirmish games, with the contract's invariants checked at
every step (one unit per space, pins below hit points on living units, only active players move,
listed moves apply, integrity holds, every game ends).

To fit the time budget these runs use a short round limit (``round_limit`` 6 standard, 4 skirmish)
and
a chooser that concedes rarely (a uniform chooser concedes within a few dozen moves); full-length
games under the default options (round limit 30) are played by
``test_full_length_default_games_end``. contract_check plays uniformly random games over HTTP.
"""

from __future__ import annotations

import random

import pytest

from rules.errors import IllegalMove
from rules.playout import choose_move
from rules.reign_supreme import GAME
from rules.reign_supreme.board import stats
from rules.reign_supreme.content import UNIT_TYPES

NAMES = ["ann", "bob", "cat", "dan"]


RARELY = 0.002
"""How often the random players consider conceding (``rules.playout.choose_move``; issue 16 item
7)."""


def choose(legal: list[dict], chooser: random.Random, concede: float = RARELY) -> dict:
    """Uniform among the moves, conceding only rarely."""
    return choose_move(legal, chooser, concede)


def invariants(state: dict) -> None:
    seen = set()
    for uid, u in state["units"].items():
        assert u["pins"] < stats(state, u)["hp"], (uid, u)
        if u["at"] is not None:
            h = tuple(u["at"])
            assert h not in seen, f"two units on {h}"
            seen.add(h)
    active = state["active_players"]
    if state["status"] == "finished":
        assert active == [] and GAME.legal_moves(state) == []
    elif state["pending"] is not None or state["phase"] != "combat":
        assert len(active) == 1
    else:  # ruling RS 10: the turn player first, then whoever may act outside their turn
        assert active[0] == state["turn"] and len(set(active)) == len(active)


def near(move: dict, state: dict, rng: random.Random) -> list[dict]:
    """Moves near a legal one: another player, another unit or target, another space, another
    mode."""
    out = [{**move, "player": p} for p in state["players"] if p != move["player"]]
    ids = list(state["units"])
    if "unit" in move:
        out.append({**move, "unit": rng.choice(ids)})
        out.append({**move, "unit": "u999"})
    if "target" in move:
        out.append({**move, "target": rng.choice(ids)})
    if "mode" in move:
        out.append({**move, "mode": "shoot" if move["mode"] == "melee" else "melee"})
    if "to" in move:
        q, r = move["to"]
        out += [{**move, "to": [q + dq, r + dr]} for dq, dr in ((3, 0), (0, -4), (1, 1))]
    return out


def mixed_lists(players: list[str], seed: int) -> dict[str, list[str]]:
    """Ten unit types per player drawn from all nineteen, so that across games every ability,
    aura, kind and spell takes part (the default lists have no Engineer, for one)."""
    r = random.Random(seed)
    return {p: r.sample(UNIT_TYPES, 10) for p in players}


def run(
    scenario: str,
    games: int,
    round_limit: int | None,
    offset: int,
    mixed: bool = False,
    concede: float = RARELY,
) -> dict:
    lengths, reasons = [], {}
    seen: set[str] = set()
    rng = random.Random(offset)
    for i in range(games):
        players = NAMES[: 2 + i % 3]
        seed = offset + i * 7919
        options = {"scenario": scenario, "setup": "manual" if i % 4 == 0 else "auto"}
        if mixed and i % 5:
            options["army_lists"] = mixed_lists(players, seed)
        if round_limit is not None:
            options["round_limit"] = round_limit
        state = GAME.setup(players, seed, options)
        GAME.check_state(state)
        chooser = random.Random(seed)
        steps = 0
        while state["status"] != "finished":
            invariants(state)
            legal = GAME.legal_moves(state)
            assert legal and {m["player"] for m in legal} == set(state["active_players"])
            move = choose(legal, chooser, concede)
            assert GAME.violations(state, move) == []
            if steps % 25 == 0:
                listed = legal
                for other in near(move, state, rng):
                    if other not in listed:
                        assert GAME.violations(state, other), other
                        with pytest.raises(IllegalMove):
                            GAME.apply(state, other)
            after, events = GAME.apply(state, move)
            assert events and after["move_count"] == state["move_count"] + 1
            seen.update(e["type"] for e in events)
            if steps % 3 == 0 or after["status"] == "finished":
                GAME.check_state(after)  # full integrity every third step (invariants() every step)
            state = after
            steps += 1
            assert steps < 4000
        invariants(state)
        assert state["outcome"]["scores"] == GAME.score(state).scores
        assert state["outcome"]["winners"] or state["outcome"]["draw"]
        reasons[state["outcome"]["reason"]] = reasons.get(state["outcome"]["reason"], 0) + 1
        lengths.append(steps)
    return {"lengths": lengths, "reasons": reasons, "seen": seen}


PART_TWO_EVENTS = {
    "attacked",
    "counterattacked",
    "attack_cancelled",
    "ensnared",
    "knocked_back",
    "splashed",
    "spell_cast",
    "spell_hit",
    "teleported",
    "healed",
    "spell_countered",
    "constructed",
    "wall_attacked",
    "passed",
    "packing_done",
    "unit_deployed",
    "card_played",
}
"""Events the 200 standard games must produce between them: every part of the rules takes part."""


@pytest.mark.slow
def test_two_hundred_standard_games_keep_every_invariant():
    """The standard scenario with everything enabled (castles, Gates, cards, deployment), armies
    of ten unit types drawn from all nineteen in four games of five. (200 games: with rare
    concessions the games now last to their round limit, so 500 no longer fit the CI budget.)"""
    result = run("standard", 200, 6, 11, mixed=True)
    assert len(result["lengths"]) == 200
    assert result["reasons"].get("round_limit", 0) > 40
    assert PART_TWO_EVENTS <= result["seen"], PART_TWO_EVENTS - result["seen"]


@pytest.mark.slow
def test_three_hundred_skirmish_games_keep_every_invariant():
    """Skirmishes with concessions at 2% of moves: a concession leaves the last player standing, so
    the games also cover that ending (random armies seldom wipe each other out in 4 rounds)."""
    result = run("skirmish", 300, 4, 23, concede=0.02)
    assert len(result["lengths"]) == 300
    assert result["reasons"].get("last_standing", 0) > 0
    assert result["reasons"].get("round_limit", 0) > 0


def test_full_length_default_games_end():
    """Default options (round limit 30): standard with 2, 3, 4 players and a skirmish."""
    for players, options in (
        (NAMES[:2], {}),
        (NAMES[:3], {}),
        (NAMES[:4], {}),
        (NAMES[:2], {"scenario": "skirmish"}),
    ):
        state = GAME.setup(players, 99, options)
        chooser = random.Random(99)
        steps = 0
        while state["status"] != "finished":
            state, _ = GAME.apply(state, choose(GAME.legal_moves(state), chooser))
            steps += 1
            if steps % 50 == 0:
                invariants(state)
                GAME.check_state(state)
        assert steps < 4000
        invariants(state)


def test_uniformly_random_games_end_quickly():
    """Every listed move equally likely, concede included (as contract_check plays)."""
    for seed in range(60):
        state = GAME.setup(
            NAMES[: 2 + seed % 3], seed, {"scenario": ("standard", "skirmish")[seed % 2]}
        )
        chooser = random.Random(seed)
        steps = 0
        while state["status"] != "finished":
            state, _ = GAME.apply(state, chooser.choice(GAME.legal_moves(state)))
            steps += 1
        assert steps < 4000
