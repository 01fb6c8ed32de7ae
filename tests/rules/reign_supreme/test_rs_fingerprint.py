"""A fingerprint of the engine's outputs over seeded random games: any change of a legal-move list
(its order included), of a state after a move (its key order included), of the events, or of the
violations of moves near legal ones changes the digest (issue 28: the engine is made faster, and
its answers must stay byte-identical).

The digest was recorded before the speed work began. A deliberate change of the rules changes it
too: record the new one with ``python tests/rules/reign_supreme/test_rs_fingerprint.py`` and say
why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from rules.errors import IllegalMove
from rules.playout import choose_move
from rules.reign_supreme import GAME
from rules.reign_supreme.content import UNIT_TYPES

NAMES = ["ann", "bob", "cat", "dan"]
GAMES = 20
"""Seeded games: 2, 3 and 4 players, standard and skirmish, manual and auto set-up, and in most
games armies of unit types drawn from all nineteen (ten, five in a skirmish), so every ability
takes part."""
EXPECTED = "1bfbde1dfe39fd768a34a00042eb67f692c8aa1667d039d7c24c5f69c8470cec"


def _options(i: int, players: list[str], seed: int) -> dict[str, Any]:
    options: dict[str, Any] = {
        "scenario": ("standard", "skirmish")[i % 2],
        "setup": "manual" if i % 5 == 0 else "auto",
        "round_limit": 5 if i % 2 == 0 else 4,
    }
    if i % 3:
        r = random.Random(seed)
        options["army_lists"] = {p: r.sample(UNIT_TYPES, 10 if i % 2 == 0 else 5) for p in players}
    return options


def _near(move: dict[str, Any], state: dict[str, Any], rng: random.Random) -> list[dict]:
    """Moves near a legal one: another player, unit, target, mode or space."""
    out = [{**move, "player": p} for p in state["players"] if p != move["player"]]
    ids = list(state["units"])
    if "unit" in move:
        out.append({**move, "unit": rng.choice(ids)})
    if "target" in move:
        out.append({**move, "target": rng.choice(ids)})
    if "mode" in move:
        out.append({**move, "mode": "shoot" if move["mode"] == "melee" else "melee"})
    if "to" in move:
        q, r = move["to"]
        out += [{**move, "to": [q + dq, r + dr]} for dq, dr in ((3, 0), (0, -4), (1, 1))]
    return out


def _text(value: Any) -> bytes:
    """JSON with the keys in their own order (not sorted): key order is part of the output."""
    return json.dumps(value, separators=(",", ":"), default=list).encode()


def _said(found: Any) -> list[list[str]]:
    return [[v.code, v.message, v.rule] for v in found]


def fingerprint() -> tuple[str, int]:
    """The digest of every step of the seeded games, and the number of states seen."""
    digest = hashlib.sha256()
    states = 0
    for i in range(GAMES):
        players = NAMES[: 2 + i % 3]
        seed = 1000 + i * 7919
        state = GAME.setup(players, seed, _options(i, players, seed))
        digest.update(_text(state))
        chooser = random.Random(seed)
        rng = random.Random(-seed)
        previous: list[dict[str, Any]] = []
        while state["status"] != "finished":
            states += 1
            legal = GAME.legal_moves(state)
            digest.update(_text(legal))
            for p in state["players"]:
                digest.update(_text(GAME.legal_moves(state, p)))
            move = choose_move(legal, chooser, 0.002)
            stale = [m for m in previous[:: max(1, len(previous) // 4)] if m not in legal]
            for other in _near(move, state, rng) + stale:
                found = GAME.violations(state, other)
                digest.update(_text([other, _said(found)]))
                if found:
                    try:
                        GAME.apply(state, other)
                    except IllegalMove as refused:
                        digest.update(_text(_said(refused.violations)))
                    else:
                        raise AssertionError(f"{other} has violations but applied")
            after, events = GAME.apply(state, move)
            digest.update(_text([move, after, events]))
            previous, state = legal, after
    return digest.hexdigest(), states


def test_outputs_are_unchanged() -> None:
    digest, states = fingerprint()
    assert states >= 300
    assert digest == EXPECTED


if __name__ == "__main__":
    print(fingerprint())
