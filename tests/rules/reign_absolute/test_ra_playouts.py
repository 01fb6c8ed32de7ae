"""Random playouts: 1,000 complete games under uniformly random legal moves, with the
contract's invariants checked at every step (every card in one place, one unit per cell,
legal moves exact, every game ends)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from api.jsonio import dumps
from rules.errors import IllegalMove
from rules.playout import random_steps
from rules.reign_absolute import GAME

NAMES = ["ann", "bob", "cat", "dan"]


def setups(count: int, offset: int = 0):
    for i in range(count):
        seed = offset + i * 7919
        n = 2 + i % 3
        yield NAMES[:n], seed


def invariants(state) -> None:
    """Every card and unit in exactly one place, one unit per cell (cheap, at every step)."""
    places = list(state["deck"]) + list(state["discard"])
    for entry in state["battlefield"].values():
        places.extend(entry["reinforcements"])
    if state["turn"] is not None and state["turn"]["drawn"] is not None:
        places.append(state["turn"]["drawn"])
    assert len(places) == len(state["cards"]) and set(places) == state["cards"].keys(), (
        "a card is missing or in two places"
    )
    cells = {(e["x"], e["y"]) for e in state["battlefield"].values()}
    assert len(cells) == len(state["battlefield"]), "two units on one cell"
    units = list(state["battlefield"])
    for p in state["players"]:
        units += state["unit_decks"][p] + state["unit_discards"][p]
    if state["phase"] != "race_selection":
        chosen = {u for p in state["players"] for u in state["races"][state["race_of"][p]]["units"]}
        assert len(units) == len(chosen) and set(units) == chosen, (
            "a unit is missing or in two places"
        )


def test_a_thousand_random_games_keep_every_invariant():
    reasons = Counter()
    kinds = Counter()
    for players, seed in setups(1000):
        state = GAME.setup(players, seed, {})
        for i, step in enumerate(random_steps(GAME, state, random.Random(seed), max_steps=3000)):
            before, m, after = step.before, step.move, step.after
            assert m["player"] in before["active_players"] and len(before["active_players"]) == 1
            assert after["move_count"] == before["move_count"] + 1 and step.events
            invariants(after)
            if i % 40 == 0:
                GAME.check_state(after)  # the full integrity check, on a sample of steps
                for p in players:
                    assert bool(GAME.legal_moves(before, p)) == (p in before["active_players"])
            kinds[m["type"]] += 1
        final = step.after
        GAME.check_state(final)
        assert final["status"] == "finished" and final["active_players"] == []
        assert GAME.legal_moves(final) == [] and step.events[-1]["type"] == "game_over"
        assert final["outcome"]["scores"] == GAME.score(final).scores
        reasons[final["outcome"]["reason"]] += 1
    assert reasons["last_liege"] > 900
    for kind in (
        "choose_race",
        "place",
        "move",
        "attack",
        "doom",
        "pass",
        "doom_discard",
        "bonus_unit",
        "reinforce",
        "play_turn_card",
        "discard_turn_card",
        "march",
    ):
        assert kinds[kind] > 0, kind


def mutations(state, m, rng):
    """Moves near a legal one: other players, types, units, cells, missing and extra fields."""
    ids = list(state["units"]) + ["nobody"]
    out = [{**m, "player": p} for p in state["players"] + ["zed"] if p != m["player"]]
    out += [{**m, "type": t} for t in GAME.move_types if t != m["type"]]
    out.append({**m, "extra": 1})
    if "unit" in m:
        out += [{**m, "unit": u} for u in rng.sample(ids, 5)]
        out.append({k: v for k, v in m.items() if k != "unit"})
    if "x" in m:
        out += [
            {**m, "x": m["x"] + dx, "y": m["y"] + dy}
            for dx, dy in ((1, 0), (0, 1), (-1, -1), (2, 0))
        ]
        out.append({**m, "x": m["x"] + 9973})
        out.append({**m, "x": str(m["x"])})
        out.append({**m, "x": m["x"] == 1 or m["x"] == 0})  # a boolean is never a coordinate
    if "race" in m:
        out += [{**m, "race": r} for r in list(state["races"]) + ["gnomes"]]
    return out


def test_listed_moves_apply_and_unlisted_moves_are_refused():
    rng = random.Random(5)
    refused = 0
    for players, seed in setups(10, offset=1):
        state = GAME.setup(players, seed, {})
        chooser = random.Random(seed)
        while state["status"] != "finished":
            legal = GAME.legal_moves(state)
            listed = {dumps(m) for m in legal}
            assert len(listed) == len(legal)
            for m in rng.sample(legal, min(2, len(legal))):
                assert GAME.violations(state, m) == []
                for near in mutations(state, m, rng):
                    found = GAME.violations(state, near)
                    if dumps(near) in listed:
                        assert found == []
                    else:
                        assert found and all(
                            v.rule.startswith("reign-absolute#") and v.message for v in found
                        )
                        with pytest.raises(IllegalMove):
                            GAME.apply(state, near)
                        refused += 1
            state, _ = GAME.apply(state, chooser.choice(legal))
    assert refused > 1200
