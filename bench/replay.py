"""Record states of random games once, then replay them against any tree: same answers, and how
fast.

    # with the base tree's rules first on the path (a `git archive` of main, say):
    PYTHONPATH=/tmp/base python bench/replay.py record reign-supreme /tmp/rs.pkl --steps 3000
    python bench/replay.py check reign-supreme /tmp/rs.pkl      # this tree: same answers?
    python bench/replay.py time reign-supreme /tmp/rs.pkl --rounds 5

``check`` compares ``legal_moves`` and ``apply`` (state and events) on every recorded state with
what the recording tree answered, and that neither changed its input: a speed change must give
the same answers. ``time`` replays the same states (CPU time, best of rounds), so two trees are
compared on identical work; run the two trees at the same time on a shared machine so both see
the same load (issue 14). The file is a pickle: only load files you wrote.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import time

from workloads import CONCEDE, random_players

from rules.playout import choose_move
from rules.registry import get_game


def record(game_id: str, path: str, steps: int, seed: int) -> None:
    game = get_game(game_id)
    chooser = random.Random(seed)
    concede = CONCEDE.get(game_id, 1.0)
    records: list[bytes] = []
    while len(records) < steps:
        state = game.setup(random_players(game, chooser), chooser.randrange(1 << 32), {})
        while state["status"] != "finished" and len(records) < steps:
            legal = game.legal_moves(state)
            move = choose_move(legal, chooser, concede)
            after, events = game.apply(state, move)
            records.append(pickle.dumps((state, move, legal, after, events)))
            state = after
    with open(path, "wb") as f:
        pickle.dump(records, f)


def _load(path: str) -> list[tuple]:
    with open(path, "rb") as f:
        return [pickle.loads(r) for r in pickle.load(f)]


def check(game_id: str, path: str) -> int:
    game = get_game(game_id)
    bad = 0
    records = _load(path)
    for state, move, legal, after, events in records:
        before = copy.deepcopy(state)
        new_legal = game.legal_moves(state)
        new_after, new_events = game.apply(state, move)
        same = (new_legal == legal, new_after == after, new_events == events, state == before)
        if not all(same):
            bad += 1
            if bad <= 3:
                print("differs (legal, after, events, input unchanged):", same, move)
    print(f"{game_id}: {len(records)} states, {bad} differ")
    return 1 if bad else 0


def timing(game_id: str, path: str, rounds: int) -> None:
    game = get_game(game_id)
    records = _load(path)
    best_legal = best_apply = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for r in records:
            game.legal_moves(r[0])
        best_legal = min(best_legal, time.process_time() - started)
        started = time.process_time()
        for r in records:
            game.apply(r[0], r[1])
        best_apply = min(best_apply, time.process_time() - started)
    n = len(records)
    print(
        f"{game_id}: legal_moves {n / best_legal:,.0f}/s, apply {n / best_apply:,.0f}/s, "
        f"step {n / (best_legal + best_apply):,.0f}/s (CPU time, best of {rounds}, {n} states)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("record", "check", "time"))
    ap.add_argument("game")
    ap.add_argument("path")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    if args.what == "record":
        record(args.game, args.path, args.steps, args.seed)
        return 0
    if args.what == "check":
        return check(args.game, args.path)
    timing(args.game, args.path, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
