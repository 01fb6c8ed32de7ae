"""How far incremental legal-move listing could take Reign Supreme's random playouts (issue 28).

    .venv/bin/python bench/listing_reuse.py [--seconds 20]

Issue 28 asks for 10,000 steps/s in process and proposes a listing that reuses what a move did
not change. This measures the best any such listing could do, before anyone builds one. It plays
the random playouts ``bench/bench.py`` times (``workloads.play_for``: same chooser, same seed) and,
for each Combat state with nothing pending, times the listing in its parts:

- each unit of the player whose turn it is (``moves._unit_moves``);
- that player's cards (``cards.card_moves``);
- the other players' moves (``actors.off_turn_moves`` and ``concede``);
- what is left: the survey's own work, ``end_turn``, ``concede``, joining the lists.

A part whose moves are exactly those of the same part in the previous state of the same turn is
one an ideal incremental listing would not recompute. The bound counts the time of those parts
as free. It also counts their share of the survey as free, and it counts nothing for knowing
which parts are unchanged. So no real incremental listing can beat it: it is a ceiling, not a
forecast. Steps outside Combat and ``apply`` are counted at their measured cost.

Prints the share of parts and of time unchanged, and steps per second now and at the ceiling.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workloads import CONCEDE, random_players  # noqa: E402

from rules.engine_types import Move, State  # noqa: E402
from rules.playout import choose_action  # noqa: E402
from rules.registry import get_game  # noqa: E402
from rules.reign_supreme import cards, moves  # noqa: E402
from rules.reign_supreme.actors import off_turn_moves  # noqa: E402
from rules.reign_supreme.board import geometry  # noqa: E402
from rules.reign_supreme.survey import Survey  # noqa: E402

GAME = "reign-supreme"
GOAL = 10_000
"""Issue 28's goal, steps per second."""


@dataclass
class Parts:
    """One Combat listing, part by part: the moves of each part and the seconds it took."""

    turn: str
    moves: dict[str, list[Move]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class Tally:
    steps: int = 0
    seconds: float = 0.0
    """All steps' listing and apply, as timed plainly (no parts)."""
    apply_seconds: float = 0.0
    combat_listing: float = 0.0
    """The plain listing time of the Combat states compared with their previous state."""
    parts_seconds: float = 0.0
    """The same states' listing timed part by part."""
    unchanged_seconds: float = 0.0
    parts: dict[str, list[int]] = field(default_factory=dict)
    """Per kind of part: [unchanged, compared]."""


def timed_parts(state: State) -> Parts:
    """The Combat listing of ``state`` (nothing pending), timed part by part."""
    clock = time.perf_counter
    started = clock()
    survey = Survey(state, geometry(state))
    turn = state["turn"]
    parts = Parts(turn)
    for uid, unit in state["units"].items():
        if unit["owner"] == turn and unit["at"] is not None:
            t = clock()
            parts.moves[f"unit {uid}"] = moves._unit_moves(state, survey, turn, uid)
            parts.seconds[f"unit {uid}"] = clock() - t
    t = clock()
    parts.moves["cards"] = cards.card_moves(state, turn, survey)
    parts.seconds["cards"] = clock() - t
    t = clock()
    parts.moves["others"] = [
        move
        for p in state["active_players"]
        if p != turn
        for move in [*off_turn_moves(state, survey, p), {"player": p, "type": "concede"}]
    ]
    parts.seconds["others"] = clock() - t
    parts.seconds["rest"] = clock() - started - sum(parts.seconds.values())
    return parts


def kind(part: str) -> str:
    return "unit" if part.startswith("unit ") else part


def measure(seconds: float) -> Tally:
    game = get_game(GAME)
    concede = CONCEDE.get(GAME, 1.0)
    chooser = random.Random(1)
    tally = Tally()
    clock = time.perf_counter
    deadline = clock() + seconds
    while clock() < deadline:
        state = game.setup(random_players(game, chooser), chooser.randrange(1 << 32), {})
        previous: Parts | None = None
        while state["status"] != "finished" and clock() < deadline:
            t = clock()
            legal = game.legal_actions(state)
            listed = clock() - t
            parts = None
            if state["phase"] == "combat" and state["pending"] is None:
                parts = timed_parts(state)
                if previous is not None and previous.turn == parts.turn:
                    tally.combat_listing += listed
                    tally.parts_seconds += sum(parts.seconds.values())
                    for part, found in parts.moves.items():
                        counts = tally.parts.setdefault(kind(part), [0, 0])
                        counts[1] += 1
                        if previous.moves.get(part) == found:
                            counts[0] += 1
                            tally.unchanged_seconds += parts.seconds[part]
            previous = parts
            action = choose_action(game, legal, chooser, concede)
            t = clock()
            state, _ = game.apply_action(state, action)
            applied = clock() - t
            tally.apply_seconds += applied
            tally.seconds += listed + applied
            tally.steps += 1
    return tally


def free_share(tally: Tally) -> float:
    """The share of the compared Combat listings' time spent on parts that did not change."""
    return tally.unchanged_seconds / tally.parts_seconds


def ceiling_seconds(tally: Tally) -> float:
    """The steps' time were the unchanged parts free: the parts were timed apart (which adds the
    timers' own cost), so their unchanged share is applied to the plain listings' time."""
    return tally.seconds - tally.combat_listing * free_share(tally)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="of playouts (default 20)")
    args = ap.parse_args()
    tally = measure(args.seconds)
    if not tally.parts_seconds:
        print("no Combat state was compared: play for longer", file=sys.stderr)
        return 1
    best = ceiling_seconds(tally)
    print(f"{GAME}: {tally.steps:,} steps in {tally.seconds:.1f} s of listing and apply")
    for name, (same, compared) in sorted(tally.parts.items()):
        print(
            f"  {name:8s} unchanged from the previous state: {same:,} of {compared:,}"
            f" ({same / compared:.0%})"
        )
    print(f"  time of the unchanged parts: {free_share(tally):.0%} of the Combat listings compared")
    print(
        f"  a step at the ceiling: {best / tally.steps * 1e6:.0f} µs, of which apply"
        f" {tally.apply_seconds / tally.steps * 1e6:.0f} µs (the goal's step: {1e6 / GOAL:.0f} µs)"
    )
    print(
        f"  steps/s now {tally.steps / tally.seconds:,.0f}; ceiling of an ideal incremental"
        f" listing {tally.steps / best:,.0f} (goal {GOAL:,})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
