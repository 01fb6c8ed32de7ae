"""Benchmark: the costs behind each bot's budget rates (``trials_per_second``,
``playouts_per_second``), measured on this machine.

    .venv/bin/python bench/bot_rates.py [--only reign-absolute,...] [--seeds 7,8]

For each game, greedy-vs-greedy games (two players; the Council three; Reign Supreme the
skirmish scenario, 8 rounds) are played from each seed; at every decision with a choice it
times the greedy pass per one-move-ahead trial, and at every third one the search playouts
(3 imagined states × the first 3 moves, paired as the expert plays them), per playout. Prints
one JSON line per game: mean, p90 and max in ms, and the rates the p90 gives (1000 / p90) and
0.8 of them, what ``docs/bots.md`` chose. Run the four games at once to calibrate under load.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.bots import BOTS, core  # noqa: E402

SEATS = {"reigns-the-council": 3}
OPTIONS = {"reign-supreme": {"scenario": "skirmish", "round_limit": 8}}


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def measure(game_id: str, seeds: list[int]) -> dict[str, float | str]:
    """Per-trial and per-playout times (seconds) along greedy games of ``game_id``."""
    bot = BOTS[game_id]
    game = bot.game
    imagine = getattr(bot, "imagine", None) or bot.determinize
    players = [f"p{k}" for k in range(SEATS.get(game_id, 2))]
    trials: list[float] = []
    playouts: list[float] = []
    for seed in seeds:
        state = game.setup(players, seed, dict(OPTIONS.get(game_id, {})))
        k = 0
        while state["status"] != "finished":
            player = state["active_players"][0]
            view = game.view(state, player)
            k += 1
            rng = random.Random(k)
            first = bot.determinize(view, rng)
            moves = [m for m in game.legal_moves(first, player) if m["type"] != "concede"]
            if len(moves) == 1:
                state, _ = game.apply(state, moves[0])
                continue
            samples = core._samples(bot.determinize, view, first, rng, bot.greedy_samples)
            started = time.perf_counter()
            never = core._Pace(lambda: 0.0, 1)  # no deadline: constant clock
            values, _ = core._one_ahead(bot, player, moves, samples, never)
            trials.append((time.perf_counter() - started) / (len(moves) * len(samples)))
            if k % 3 == 0:
                started = time.perf_counter()
                for _ in range(3):
                    sample, rollout_seed = imagine(view, rng), rng.getrandbits(64)
                    for move in moves[:3]:
                        core._playout(bot, sample, move, player, rollout_seed)
                playouts.append((time.perf_counter() - started) / (3 * len(moves[:3])))
            state, _ = game.apply(state, moves[core._greedy_pick(values, rng)])
    trial_p90, playout_p90 = 1000 * _p90(trials), 1000 * _p90(playouts)
    return {
        "game": game_id,
        "trial_mean_ms": round(1000 * statistics.mean(trials), 3),
        "trial_p90_ms": round(trial_p90, 3),
        "trials_per_second_at_p90": round(1000 / trial_p90),
        "playout_mean_ms": round(1000 * statistics.mean(playouts), 2),
        "playout_p90_ms": round(playout_p90, 2),
        "playout_max_ms": round(1000 * max(playouts), 2),
        "playouts_per_second_at_p90": round(1000 / playout_p90, 1),
        "suggested_playouts_per_second": math.floor(0.8 * 1000 / playout_p90),
        "current_playouts_per_second": bot.playouts_per_second,
        "current_trials_per_second": bot.trials_per_second,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--seeds", default="7,8")
    args = ap.parse_args()
    games = args.only.split(",") if args.only else sorted(BOTS)
    for game_id in games:
        print(json.dumps(measure(game_id, [int(s) for s in args.seeds.split(",")])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
