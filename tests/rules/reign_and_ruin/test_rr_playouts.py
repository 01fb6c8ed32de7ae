"""Random playouts: thousands of complete games under uniformly random legal moves, with the
contract's invariants checked at every step (api-contract: legal moves complete and exact,
integrity, every game ends)."""

from __future__ import annotations

import random

import pytest

from api.jsonio import dumps
from rules.errors import IllegalMove
from rules.playout import random_steps
from rules.reign_and_ruin import GAME

NAMES = ["ann", "bob", "cat", "dan"]
CUSTOM_DECK = [
    {"faction": f, "value": v}
    for f in ("alfenghast", "hexen", "kurgoz", "cognitz", "crou", "nomora")
    for v in (1, 1, 4, 12)
]


def game_setups(count: int, offset: int = 0):
    for i in range(count):
        seed = offset + i * 7919
        n = 2 + i % 3
        options = {"deck": CUSTOM_DECK} if i % 10 == 9 and n <= 3 else {}
        yield NAMES[:n], seed, options


def test_two_thousand_random_games_keep_every_invariant():
    lengths = []
    finals = {"draw": 0, "win": 0}
    for players, seed, options in game_setups(2000):
        state = GAME.setup(players, seed, options)
        GAME.check_state(state)
        count = 0
        for step in random_steps(GAME, state, random.Random(seed), max_steps=2000):
            before, m = step.before, step.move
            active = before["active_players"]
            assert active and m["player"] in active
            assert all(x["player"] in active for x in step.legal)
            for p in players:
                mine = GAME.legal_moves(before, p)
                assert bool(mine) == (p in active), (p, active)
            assert GAME.violations(before, m) == []
            GAME.check_state(step.after)  # cards conserved, phase consistent
            assert step.after["move_count"] == before["move_count"] + 1
            assert step.events
            count += 1
        final = step.after
        assert final["status"] == "finished" and final["active_players"] == []
        assert GAME.legal_moves(final) == []
        assert step.events[-1]["type"] == "game_over"
        assert final["outcome"]["scores"] == GAME.score(final).scores
        finals["draw" if final["outcome"]["draw"] else "win"] += 1
        lengths.append(count)
    assert min(lengths) >= 8  # at least the draft and one card each
    assert finals["win"] > 0


def canonical(m: dict) -> str:
    if m.get("type") == "draft" and isinstance(m.get("cards"), list):
        try:
            m = {**m, "cards": sorted(m["cards"])}
        except TypeError:
            pass
    return dumps(m)


def mutations(state: dict, m: dict, rng: random.Random) -> list[dict]:
    """Moves near a legal one: other players, cards, targets, destinations, types, fields."""
    ids = list(state["cards"])
    players = state["players"]
    out = [{**m, "player": p} for p in players + ["zed"] if p != m["player"]]
    out += [{**m, "type": t} for t in GAME.move_types if t != m["type"]]
    out.append({**m, "extra": 1})
    for key in ("card", "target", "take"):
        if key in m:
            out += [{**m, key: c} for c in rng.sample(ids, 6)]
            out.append({k: v for k, v in m.items() if k != key})
    if "cards" in m:
        out += [{**m, "cards": [m["cards"][0], c]} for c in rng.sample(ids, 6)]
        out.append({**m, "cards": m["cards"][::-1]})  # same move, other order: still legal
    if m["type"] == "swap":
        out += [{**m, "opponent": p} for p in players + ["zed"]]
        out.append({k: v for k, v in m.items() if k not in ("take", "to")})
        out += [{**m, "take": f["card"], "to": "army"} for p in players for f in state["armies"][p]]
    if "to" in m:
        out += [{**m, "to": to} for to in ("army", "hand", "deck")]
        out.append({k: v for k, v in m.items() if k != "to"})
    if m["type"] == "revive":
        out += [{**m, "to": "army", "army": p} for p in players + ["zed"]]
        out.append({**m, "to": "hand", "army": players[0]})
    if m["type"] in ("fighter", "draw"):
        out.append({**m, "target": ids[0]})
    return out


def test_listed_moves_all_apply_and_unlisted_moves_are_refused():
    rng = random.Random(5)
    checked = refused = 0
    for players, seed, options in game_setups(150, offset=1):
        state = GAME.setup(players, seed, options)
        chooser = random.Random(seed)
        while state["status"] != "finished":
            legal = GAME.legal_moves(state)
            listed = {canonical(m) for m in legal}
            assert len(listed) == len(legal), "a move is listed twice"
            for m in legal:
                assert GAME.violations(state, m) == [], m
                after, events = GAME.apply(state, m)
                assert after["move_count"] == state["move_count"] + 1
            for m in rng.sample(legal, min(4, len(legal))):
                for near in mutations(state, m, rng):
                    found = GAME.violations(state, near)
                    if canonical(near) in listed or (
                        near["type"] == "draft" and canonical(near) in listed
                    ):
                        assert found == [], (near, found)
                    else:
                        assert found, near
                        assert all(
                            v.rule.startswith("reign-and-ruin#") and v.message for v in found
                        )
                        with pytest.raises(IllegalMove):
                            GAME.apply(state, near)
                        refused += 1
                    checked += 1
            state, _ = GAME.apply(state, chooser.choice(legal))
    assert refused > 10_000 and checked > refused
