"""Records (issue 26): how fast a long game's record is exported, and the takeback/fork property.

    python bench/records.py                       # export of a 500-move game's record
    python bench/records.py --moves 500 --runs 60 --game reign-supreme
    python bench/records.py --property 100000     # the issue's full property run (minutes)

The export: a finished random game of at least ``--moves`` moves (Reign Supreme, never
conceding) is written into a session of the in-process app (its embedded Redis in a temporary
directory) through ``SessionStore.commit``, the same compare-and-set every move goes through,
then ``GET /v1/sessions/{id}/record`` is timed through the Flask test client (the Redis reads,
the redaction and the JSON) as a seat and as a spectator, while the game is still running
(redacted) and once finished (whole): wall clock, and this process's CPU time (on a loaded
machine the wall clock mostly measures waiting for a core; Redis's own CPU is not in it). The
goal is under 50 ms.

``--property N`` runs ``tests/records/properties.check`` with N samples over three lines of 120
moves per game and prints the allowed takebacks, forks and failures (there must be none).

Figures from a shared, loaded machine vary with the load: compare runs made side by side.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api import create_app  # noqa: E402
from api.session_store import now  # noqa: E402
from rules.records import make_entry  # noqa: E402
from tests.records.games import PLAYERS, play  # noqa: E402


def _long_game(game_id: str, moves: int) -> tuple[list[dict], list[dict]]:
    """States and entries of the first seeded random game of at least ``moves`` moves."""
    for seed in range(1, 200):
        states, entries = play(game_id, seed)
        if len(entries) >= moves:
            return states, entries
    raise SystemExit(f"no {game_id} game of {moves} moves in 200 seeds")


def export(game_id: str, moves: int, runs: int) -> None:
    states, entries = _long_game(game_id, moves)
    with tempfile.TemporaryDirectory(prefix="bench-records-") as data:
        app = create_app({"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": data})
        store = app.extensions["referee_sessions"]
        client = app.test_client()
        origin = {"options": {}, "start_digest": entries[0]["state_digest"]}
        session_id, seats, _ = store.create(states[0], now(), origin=origin)
        for entry, state in zip(entries[:-1], states[1:-1], strict=True):
            entry = make_entry(
                entry["version"], entry["player"], entry["move"], entry["events"], now(), state
            )
            store.commit(session_id, entry["version"] - 1, state, entry, entry["at"], None, None)
        print(f"{game_id}: {len(entries)} moves; GET /v1/sessions/{{id}}/record, {runs} runs each")
        _time(client, session_id, seats, runs, f"running, {len(entries) - 1} entries")
        last = entries[-1]
        store.commit(session_id, last["version"] - 1, states[-1], last, now(), None, None)
        _time(client, session_id, seats, runs, f"finished, {len(entries)} entries (whole)")
        app.extensions["referee_bot_seats"].stop()


def _time(client, session_id: str, seats: dict[str, str], runs: int, label: str) -> None:
    seat = sorted(seats)[0]
    for who, headers in (
        (f"seat {seat}", {"Authorization": f"Bearer {seats[seat]}"}),
        ("spectator", {}),
    ):
        wall, cpu = [], []
        size = 0
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            resp = client.get(f"/v1/sessions/{session_id}/record", headers=headers)
            cpu.append((time.process_time() - start_cpu) * 1000)
            wall.append((time.perf_counter() - start) * 1000)
            assert resp.status_code == 200, resp.get_data()[:300]
            size = len(resp.get_data())
        print(
            f"  {label}, {who} ({size / 1024:.0f} KiB): wall p50 {_p(wall, 50):.1f} ms, "
            f"p99 {_p(wall, 99):.1f} ms; CPU p50 {_p(cpu, 50):.1f} ms, p99 {_p(cpu, 99):.1f} ms"
        )


def _p(values: list[float], pct: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def prop(samples: int) -> int:
    from tests.records.properties import check, lines

    start = time.perf_counter()
    pool = lines(per_game=3, moves=120)
    allowed, forks, failures, refused = check(samples, seed=2026, pool=pool)
    print(
        f"{samples} samples over {len(pool)} lines ({', '.join(sorted(PLAYERS))}): "
        f"{samples - forks} takebacks ({allowed} allowed by the horizon), {forks} forks "
        f"({len(refused)} refused by a determinizer), {len(failures)} failures, "
        f"{time.perf_counter() - start:.0f} s"
    )
    for failure in failures[:20]:
        print("  FAIL", failure)
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="reign-supreme")
    ap.add_argument("--moves", type=int, default=500)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--property", type=int, default=0, help="run the property with N samples")
    args = ap.parse_args()
    if args.property:
        return prop(args.property)
    export(args.game, args.moves, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
