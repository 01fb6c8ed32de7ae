"""What one session costs in Redis (issue 23 item 4), per game, after 0, 50 and 500 moves.

    .venv/bin/python bench/session_bytes.py [--moves 0 50 500] [--seed 1] [--games ...]

Plays one random game per game (``rules.playout.choose_move``, never conceding, the game's
fewest players) through the session store itself (``api.session_store.SessionStore``: the same
create, Lua commit and keys as the service), every move with an Idempotency-Key of its own, as
clients should send them, on an embedded Redis in a temporary directory. At each count of moves
it sums ``MEMORY USAGE`` (``SAMPLES 0``: every element counted) over every key of the session,
and prints it beside the JSON bytes of the state and of the history (what a session is made of),
the remembered keys' share, the record views' share (issue 26: each version as the public and
each seat see it, kept at commit time), what the 32 whole answers remembered before issue 23 came to
(their JSON, for comparison), and how many such sessions fit in 1 GiB of Redis memory. A game
that ends before a count is reported at its final length (marked ``end``).

A measurement, not a test: figures depend on the game's random course (``--seed``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api import jsonio  # noqa: E402
from api.session_store import SessionStore, history_entry, now  # noqa: E402
from api.store import Store, start_embedded, stop_embedded  # noqa: E402
from rules.playout import choose_move  # noqa: E402
from rules.registry import GAMES, get_game  # noqa: E402

GIB = 1024**3
OLD_ANSWERS = 32
"""Whole answers a session remembered before issue 23 (``MAX_REMEMBERED_ANSWERS``)."""


def session_bytes(store: SessionStore, session_id: str) -> dict[str, int]:
    """``MEMORY USAGE`` of each existing key of the session, by its last part."""
    client = store.store.client()
    usage = {}
    for key in store.keys(session_id):
        used = client.memory_usage(key, samples=0)
        if used is not None:
            usage[key.rsplit(":", 1)[1]] = int(used)
    return usage


def measure_game(
    store: SessionStore, game_id: str, counts: list[int], seed: int
) -> list[dict[str, Any]]:
    """Rows of figures for one random game, one per count of moves (or its end, if sooner)."""
    game = get_game(game_id)
    players = [f"p{i}" for i in range(1, game.min_players + 1)]
    state = game.setup(players, seed, {})
    session_id, _, _ = store.create(state, now())
    chooser = random.Random(seed)
    history_json = 0
    answers: list[int] = []  # JSON bytes of each move's whole answer, as kept before issue 23
    rows = []
    version = 0
    wanted = sorted(counts)
    while wanted:
        finished = state["status"] == "finished"
        if version == wanted[0] or finished:
            usage = session_bytes(store, session_id)
            total = sum(usage.values())
            rows.append(
                {
                    "game": game_id,
                    "players": len(players),
                    "moves": version,
                    "ended": finished,
                    "redis_bytes": total,
                    "by_key": usage,
                    "state_json": len(jsonio.dumps(state)),
                    "history_json": history_json,
                    "old_answers_json": sum(answers[-OLD_ANSWERS:]),
                    "sessions_per_gib": GIB // total,
                }
            )
            if finished:
                break
            wanted.pop(0)
            continue
        move = choose_move(game.legal_moves(state), chooser, concede=0.0)
        player = move["player"]
        after, events = game.apply(state, move)
        entry = history_entry(version + 1, player, move, events, after)
        key = str(uuid.uuid4())
        digest = uuid.uuid4().hex  # stands for the request's digest: the same size
        result = store.commit(session_id, version, after, entry, entry["at"], (player, key), digest)
        assert getattr(result, "version", None) == version + 1, result
        history_json += len(jsonio.dumps(entry))
        answers.append(
            len(
                jsonio.dumps(
                    {
                        "fingerprint": digest * 2,
                        "body": {
                            "game": game_id,
                            "version": version + 1,
                            "events": [game.view_event(e, player) for e in events],
                            "view": game.view(after, player),
                            "outcome": after.get("outcome"),
                        },
                    }
                )
            )
        )
        state = after
        version += 1
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[0, 50, 500])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="+", default=sorted(GAMES), choices=sorted(GAMES))
    parser.add_argument(
        "--json", type=Path, default=ROOT / "bench" / "results" / "session_bytes.json"
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="session-bytes-") as data_dir:
        server = start_embedded(data_dir, appendfsync="no")  # memory does not depend on fsync
        try:
            store = SessionStore(Store(None, data_dir, appendfsync="no"), ttl_seconds=604_800)
            rows = [
                row
                for game_id in args.games
                for row in measure_game(store, game_id, args.moves, args.seed)
            ]
        finally:
            stop_embedded(server)

    header = (
        f"{'game':<20} {'moves':>9} {'Redis B':>9} {'state B':>8} {'history B':>10} "
        f"{'keys B':>7} {'views B':>8} {'32 answers B':>12} {'per GiB':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        keys = row["by_key"].get("idempotency", 0) + row["by_key"].get("idempotency_at", 0)
        views = sum(b for k, b in row["by_key"].items() if k == "public" or k.isdigit())
        moves = f"{row['moves']}{' end' if row['ended'] else ''}"
        print(
            f"{row['game']:<20} {moves:>9} {row['redis_bytes']:>9,} {row['state_json']:>8,} "
            f"{row['history_json']:>10,} {keys:>7,} {views:>8,} {row['old_answers_json']:>12,} "
            f"{row['sessions_per_gib']:>9,}"
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=1))
    print(f"\nwritten to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
