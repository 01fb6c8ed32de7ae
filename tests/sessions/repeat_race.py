"""Run the racing test many times in a row against one served instance (issue 13: a race test
must pass every time, also under load), e.g. with ``stress --cpu 2`` running beside it:

    .venv/bin/python tests/sessions/repeat_race.py --runs 50

Each run is exactly ``test_racing_processes_apply_each_move_exactly_once`` (fresh sessions, fresh
racer processes); only ``reign-referee serve`` is shared, as it is within one pytest session.
Prints one line per run and exits non-zero if any run failed. A tool, not a test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from sessions_served import Served  # noqa: E402
from test_sessions_served import test_racing_processes_apply_each_move_exactly_once as race  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=50)
    args = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp) / "data", Path(tmp) / "serve.log").start()
        try:
            for run in range(1, args.runs + 1):
                started = time.monotonic()
                try:
                    race(served)
                    print(f"run {run}: passed in {time.monotonic() - started:.1f} s", flush=True)
                except Exception:
                    failed += 1
                    print(f"run {run}: FAILED\n{traceback.format_exc()}", flush=True)
        finally:
            served.stop()
    print(f"{args.runs - failed} of {args.runs} runs passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
