"""A fixed number of random-playout steps of one game, for instruction counts.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
        .venv/bin/python bench/steps.py reign-supreme --steps 300

The same steps as ``bench/bench.py``'s in-process playouts (``workloads.play_for``: same chooser,
same seed), but a fixed count instead of a fixed time, so that callgrind's instruction counts
compare two versions of the rules independently of the machine's load. Imports and the warm-up
steps (caches of geometry and search trees filled) happen before ``--steps`` are played, so
a run's total minus that of a run with ``--steps 0`` is the steps alone.

Garbage collection is off during the steps (after a collection at the warm-up's end): a full
collection walks every object the process holds, at points that shift with any change to the
rules, so with it on, two runs of the same code differed by up to 30 M instructions in 8,000 M
(issue 28). Run both runs with the same ``PYTHONHASHSEED`` (``PYTHONHASHSEED=0``): string
hashes order sets, and so the work."""

from __future__ import annotations

import argparse
import gc
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workloads import CONCEDE, GAME_IDS, random_players  # noqa: E402

from rules.playout import choose_action  # noqa: E402
from rules.registry import get_game  # noqa: E402


def play(game_id: str, steps: int, seed: int = 1) -> int:
    """Play ``steps`` steps of ``play_for``'s playouts; returns the number of games begun."""
    game = get_game(game_id)
    concede = CONCEDE.get(game_id, 1.0)
    chooser = random.Random(seed)
    done = games = 0
    while done < steps:
        state = game.setup(random_players(game, chooser), chooser.randrange(1 << 32), {})
        games += 1
        while state["status"] != "finished" and done < steps:
            legal = game.legal_actions(state)
            if concede >= 1.0:
                action = chooser.choice(legal)
            else:
                action = choose_action(game, legal, chooser, concede)
            state, _ = game.apply_action(state, action)
            done += 1
    return games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=GAME_IDS)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=50)
    args = ap.parse_args()
    play(args.game, args.warmup, seed=2)
    gc.collect()
    gc.disable()
    games = play(args.game, args.steps)
    print(f"{args.game}: {args.steps} steps, {games} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
