"""How deep random Reign Supreme games reach: per 100 games, Throne captures, walls destroyed,
deployments, concessions and how games end (issue 16, item 7).

Plays ``--games`` standard games under the default options (round limit 30, castles with their
walls, cards, deployment), 2, 3 and 4 players in turn, seeds ``--seed``, ``--seed + 1``..., with
``rules.playout.choose_move`` at the given ``--concede`` rate (1: uniform, as contract_check
plays; 0.002: the playout tests' rare concession; 0: never). Prints one table. Not a test: a
measurement, run by hand:

    .venv/bin/python tests/rules/reign_supreme/playout_depth.py --games 100 --concede 0.002
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from rules.playout import random_steps  # noqa: E402
from rules.reign_supreme import GAME  # noqa: E402

NAMES = ["ann", "bob", "cat", "dan"]


def measure(games: int, seed: int, concede: float, scenario: str = "standard") -> dict:
    counts: Counter[str] = Counter()
    lengths = []
    for i in range(games):
        players = NAMES[: 2 + i % 3]
        state = GAME.setup(players, seed + i, {"scenario": scenario})
        steps = 0
        for step in random_steps(GAME, state, random.Random(seed + i), concede=concede):
            steps += 1
            for e in step.events:
                if e["type"] == "throne_captured":
                    counts["throne captures"] += 1
                elif e["type"] == "wall_destroyed":
                    counts[f"{e['kind']}s destroyed"] += 1
                elif e["type"] == "unit_deployed":
                    counts["units deployed"] += 1
                elif e["type"] == "player_defeated":
                    counts[f"players out: {e['reason']}"] += 1
                elif e["type"] == "game_over":
                    counts[f"games ended: {e['reason']}"] += 1
            state = step.after
        lengths.append(steps)
        counts["rounds played"] += state["round"]
    return {"counts": counts, "lengths": lengths}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concede", type=float, default=0.002)
    ap.add_argument("--scenario", default="standard")
    args = ap.parse_args()
    started = time.perf_counter()
    result = measure(args.games, args.seed, args.concede, args.scenario)
    per = 100 / args.games
    print(
        f"{args.games} {args.scenario} games (2/3/4 players in turn), concede rate {args.concede}, "
        f"seeds {args.seed}..{args.seed + args.games - 1}, {time.perf_counter() - started:.0f} s"
    )
    for key, n in sorted(result["counts"].items()):
        print(f"  {key:32} {n * per:8.1f} per 100 games")
    lengths = result["lengths"]
    print(
        f"  {'moves per game':32} median {statistics.median(lengths):.0f}, min {min(lengths)}, "
        f"max {max(lengths)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
