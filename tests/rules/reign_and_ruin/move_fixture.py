"""The exact legal moves and apply results of a few hundred seeded random Reign & Ruin states.

``test_rr_move_fixture.py`` compares them with ``fixtures/moves.json``, which
``make_move_fixture.py`` writes. For each sampled state the record holds: the legal moves of
everyone and of each player (order included), the result of applying every legal move (state
and events), and the answer to a few illegal variants of a legal move (violations, or the
result when the variant happens to be legal). JSON is written without sorting keys, so even a
change of key order shows. Each state's record is kept as a short digest.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from rules.errors import IllegalMove
from rules.playout import random_steps
from rules.reign_and_ruin import GAME

__all__ = ["GAMES", "STATES_PER_GAME", "sample_states", "state_record", "digest"]

GAMES = 60
STATES_PER_GAME = 5
_CUSTOM_DECK = [
    {"faction": f, "value": v}
    for f in ("alfenghast", "hexen", "kurgoz", "cognitz", "crou", "nomora")
    for v in (1, 2, 3, 5, 8)
]


def _setup_args(i: int) -> tuple[list[str], int, dict[str, Any]]:
    """Game ``i``'s players, seed and options: 2 to 4 players, some with a chosen starting
    player, some with a custom deck."""
    players = ["ann", "bob", "cat", "dan"][: 2 + i % 3]
    options: dict[str, Any] = {}
    if i % 5 == 1:
        options["starting_player"] = players[-1]
    if i % 7 == 3:
        options["deck"] = _CUSTOM_DECK
    return players, 1000 + 17 * i, options


def sample_states() -> list[dict[str, Any]]:
    """``STATES_PER_GAME`` states spread over each of ``GAMES`` random games (setup included)."""
    states: list[dict[str, Any]] = []
    for i in range(GAMES):
        players, seed, options = _setup_args(i)
        start = GAME.setup(players, seed, options)
        steps = list(random_steps(GAME, start, random.Random(seed)))
        chain = [start] + [s.after for s in steps]
        picks = random.Random(i).sample(range(len(chain)), STATES_PER_GAME - 1)
        states.extend(chain[j] for j in sorted(picks + [len(chain) - 2]))
    return states


def _answer(state: dict[str, Any], move: dict[str, Any]) -> Any:
    """What ``apply`` answers: the state and events, or the violations."""
    try:
        after, events = GAME.apply(state, move)
    except IllegalMove as err:
        return {"violations": [v.to_dict() for v in err.violations]}
    return {"state": after, "events": events}


def _variants(state: dict[str, Any], move: dict[str, Any]) -> list[dict[str, Any]]:
    """Illegal (or differently legal) versions of ``move``: other player, unknown card, an
    extra field, every other move type, a target or destination changed or dropped."""
    players = state["players"]
    other = players[(players.index(move["player"]) + 1) % len(players)]
    out = [
        {**move, "player": other},
        {**move, "card": "nope"},
        {**move, "extra": 1},
        {**move, "player": "zed"},
    ]
    out.extend({**move, "type": t} for t in GAME.move_types if t != move["type"])
    for key in ("target", "take", "to", "army", "opponent", "cards"):
        if key in move:
            out.append({k: v for k, v in move.items() if k != key})
            out.append({**move, key: "nope"})
    return out


def state_record(state: dict[str, Any]) -> dict[str, Any]:
    """Everything the fixture fixes about ``state``."""
    legal = GAME.legal_moves(state)
    per_player = {p: GAME.legal_moves(state, p) for p in state["players"] + ["zed"]}
    applied = [_answer(state, m) for m in legal]
    variants = [_answer(state, v) for v in (_variants(state, legal[0]) if legal else [])]
    return {"legal": legal, "per_player": per_player, "applied": applied, "variants": variants}


def digest(record: dict[str, Any]) -> str:
    """A short digest of the record's JSON, keys in their own order."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]
