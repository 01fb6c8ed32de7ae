"""The worst replay a client can ask for, per game, timed (``POST /v1/games/{game}/replay``).

    .venv/bin/python bench/replay_cost.py [--game reign-supreme] [--content largest|default]
        [--pick cheap|dear] [--unbounded] [--save DIR] [--url http://127.0.0.1:8850]

For each game it sets up the largest options ``bench/largest_bodies.py`` knows (``--content
default``: no options) for four seats, then plays as long as it can without finishing the game,
choosing among up to 40 sampled legal moves (never ``concede``):

- ``--pick cheap``: the move whose entry is the fewest bytes (the most entries in the 1 MiB body,
  ``MAX_BODY_BYTES``): the worst case without a bound on entries;
- ``--pick dear`` (the default): the move whose ``apply`` took longest: the worst case once the
  entries are bounded (``api.records.MAX_REPLAY_STATE_BYTES``).

It stops at the 1 MiB body, at the most entries ``/replay`` accepts for the start state (unless
``--unbounded``), or when every sampled move finishes the game. The record is whole and true (a
finished game's, seed revealed): the replay must answer ``valid: true``. The request is timed
through the Flask test client in this one process (CPU and wall, best of ``--rounds``), and, with
``--url``, against a served instance (wall). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from largest_bodies import LARGEST  # noqa: E402

from api.records import MAX_REPLAY_STATE_BYTES, most_entries  # noqa: E402
from rules.records import commitment, make_entry, make_record  # noqa: E402
from rules.records.digest import canonical  # noqa: E402
from rules.registry import get_game  # noqa: E402

MIB = 1 << 20
SALT = "5a17" * 8
SAMPLE = 40


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def worst_record(
    game_id: str, content: str, pick: str, bounded: bool, seed: int = 1
) -> tuple[bytes, int, int]:
    """The body of the worst ``/replay`` request, its entries and its start state's bytes."""
    game = get_game(game_id)
    players = ["a", "b", "c", "d"]
    options = LARGEST[game_id](players) if content == "largest" else {}
    state = game.setup(players, seed, options)
    start_bytes = len(canonical(state))
    most = most_entries(start_bytes) if bounded else 1 << 30
    fairness = {
        "open": True,
        "seed_commitment": commitment(SALT, seed),
        "seed": seed,
        "salt": SALT,
    }
    record = make_record(
        game,
        players=players,
        options=options,
        fairness=fairness,
        start=state,
        entries=[],
        viewer=None,
        whole=True,
    )
    size = len(_dumps({"record": record}))
    chooser = random.Random(seed)
    entries: list[dict[str, Any]] = []
    while len(entries) < most:
        legal = [m for m in game.legal_moves(state) if m.get("type") != "concede"]
        best: tuple[float, dict[str, Any], dict[str, Any], list[Any]] | None = None
        for move in chooser.sample(legal, min(SAMPLE, len(legal))):
            started = time.perf_counter()
            after, events = game.apply(state, move)
            took = time.perf_counter() - started
            if after["status"] == "finished":
                continue
            score = len(_dumps(move)) + len(_dumps(events)) if pick == "cheap" else -took
            if best is None or score < best[0]:
                best = (score, move, after, events)
        if best is None:
            break
        _, move, after, events = best
        entry = make_entry(len(entries) + 1, move["player"], move, events, "", after)
        grown = len(_dumps(entry)) + 1
        if size + grown > MIB - 1024:
            break
        size += grown
        entries.append(entry)
        state = after
    record["entries"] = entries
    return _dumps({"record": record}), len(entries), start_bytes


def _in_process(game_id: str, body: bytes, rounds: int) -> tuple[int, Any, float, float]:
    from api import create_app

    client = create_app().test_client()
    best_cpu = best_wall = float("inf")
    status, answer = 0, None
    for _ in range(rounds):
        cpu, wall = time.process_time(), time.perf_counter()
        response = client.post(
            f"/v1/games/{game_id}/replay", data=body, content_type="application/json"
        )
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
        status, answer = response.status_code, response.get_json()
    return status, answer, best_cpu, best_wall


def _served(url: str, game_id: str, body: bytes, rounds: int) -> tuple[int, float]:
    best, status = float("inf"), 0
    for _ in range(rounds):
        request = urllib.request.Request(
            f"{url}/v1/games/{game_id}/replay",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                response.read()
                status = response.status
        except urllib.error.HTTPError as err:
            err.read()
            status = err.code
        best = min(best, time.perf_counter() - started)
    return status, best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=sorted(LARGEST))
    ap.add_argument("--content", choices=("largest", "default"), default="largest")
    ap.add_argument("--pick", choices=("cheap", "dear"), default="dear")
    ap.add_argument("--unbounded", action="store_true", help="do not stop at the bound")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--save", help="a directory to write each body into")
    ap.add_argument("--url", help="also time a served instance")
    args = ap.parse_args()
    print(
        f"MAX_REPLAY_STATE_BYTES {MAX_REPLAY_STATE_BYTES:,}; content {args.content}, "
        f"pick {args.pick}{', unbounded' if args.unbounded else ''}"
    )
    for game_id in args.game or sorted(LARGEST):
        body, entries, start_bytes = worst_record(
            game_id, args.content, args.pick, not args.unbounded
        )
        if args.save:
            Path(args.save, f"{game_id}-{args.content}-{args.pick}.json").write_bytes(body)
        status, answer, cpu, wall = _in_process(game_id, body, args.rounds)
        verdict = answer.get("code") or answer.get("valid")
        line = (
            f"{game_id:19} start {start_bytes:7,} B  {entries:5,} entries (most "
            f"{most_entries(start_bytes):5,})  body {len(body):9,} B  in process: {status} "
            f"{verdict}, CPU {cpu:6.3f} s, wall {wall:6.3f} s"
        )
        if args.url:
            served_status, served_wall = _served(args.url, game_id, body, args.rounds)
            line += f"  served: {served_status}, wall {served_wall:6.3f} s"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
