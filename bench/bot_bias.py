"""Benchmark: do the expert's switches hold up against greedy players? (issue 28, part 3)

    .venv/bin/python bench/bot_bias.py [--game reigns-the-council] [--games 6] [--time-ms 1000]
        [--continuations 12] [--workers 2]

Plays ``--games`` games of one expert seat against greedy seats (as ``bench/bot_strength.py``,
but with the playout budget in full: no clock) and, at every decision where the expert leaves
the greedy move for a challenger, measures that switch three ways, each a paired difference
(challenger minus greedy move) for the expert's seat:

- ``search``: the gain the expert's own search estimated (its reason);
- ``greedy_rollouts``: the same search's imagined states, but rollouts in which every player
  plays the greedy level's move (``rollout_greed`` 1), to the same horizon;
- ``actual``: the true state, played to the end ``--continuations`` times by greedy seats
  (each continuation's seeds the same after both moves), the result 1 / 1/k / 0.

A search that is right on average has ``search`` and ``actual`` of one sign. Prints one JSON
line per switch and a summary (means and standard errors) to stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_strength import set_up_game  # noqa: E402  (the same games, set up the same way)

from rules.bots import core, suggest  # noqa: E402


def _never() -> float:
    return -math.inf


def _to_end(bot: Any, state: dict, player: str, seed: int, time_ms: int) -> float:
    game = bot.game
    for _ in range(20_000):
        if state["status"] == "finished":
            break
        mover = state["active_players"][0]
        chosen = suggest(
            bot,
            game.view(state, mover),
            mover,
            "greedy",
            seed + state["move_count"],
            time_ms,
            _never,
        )
        state, _ = game.apply(state, chosen.move)
    value = core.outcome_value(state, player)
    return 0.0 if value is None else value


class _Greedy:
    """The bot with greedy rollouts (every rollout move the mover's best one move ahead)."""

    def __init__(self, bot: Any) -> None:
        self._bot = bot
        self.rollout_greed = 1.0

    def rollout_greed_at(self, state: dict) -> float:
        return 1.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)


def probe(task: tuple[str, int, int, int]) -> list[dict[str, Any]]:
    game_id, index, time_ms, continuations = task
    bot, level_of, seed, state = set_up_game(game_id, index)
    game = bot.game
    found = []
    while state["status"] != "finished":
        player = state["active_players"][0]
        view = game.view(state, player)
        s = seed * 100_003 + state["move_count"]
        chosen = suggest(bot, view, player, level_of[player], s, time_ms, _never)
        if level_of[player] == "expert" and chosen.reason.startswith("beat the greedy"):
            greedy = suggest(bot, view, player, "greedy", s, time_ms, _never).move
            gain = float(chosen.reason.split(" by ")[1].split(" ")[0])
            actual = []
            for k in range(continuations):
                after = [game.apply(state, m)[0] for m in (greedy, chosen.move)]
                g, c = (_to_end(bot, a, player, 7_000_000 + 1000 * k, time_ms) for a in after)
                actual.append(c - g)
            rng = random.Random(s)
            imagine = getattr(bot, "imagine", None) or bot.determinize
            rolled = []
            for _ in range(24):
                sample, rs = imagine(view, rng), rng.getrandbits(64)
                g, c = (
                    core._playout(_Greedy(bot), sample, m, player, rs)
                    for m in (greedy, chosen.move)
                )
                rolled.append(c - g)
            found.append(
                {
                    "game": game_id,
                    "index": index,
                    "move_count": state["move_count"],
                    "phase": state.get("phase"),
                    "greedy": greedy,
                    "challenger": chosen.move,
                    "search": gain,
                    "greedy_rollouts": statistics.mean(rolled),
                    "actual": statistics.mean(actual),
                }
            )
        state, _ = game.apply(state, chosen.move)
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="reigns-the-council")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--time-ms", type=int, default=1000)
    ap.add_argument("--continuations", type=int, default=12)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    tasks = [
        (args.game, i, args.time_ms, args.continuations)
        for i in range(args.first, args.first + args.games)
    ]
    rows: list[dict[str, Any]] = []
    with multiprocessing.Pool(args.workers) as pool:
        for found in pool.imap_unordered(probe, tasks):
            for row in found:
                print(json.dumps(row), flush=True)
            rows += found
    for key in ("search", "greedy_rollouts", "actual"):
        values = [r[key] for r in rows]
        if len(values) > 1:
            se = statistics.stdev(values) / math.sqrt(len(values))
            print(f"{key}: mean {statistics.mean(values):+.3f} (SE {se:.3f}) over {len(values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
