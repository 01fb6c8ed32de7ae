"""Scores and their breakdown, per reign and in total.

Seed 004 §Game round 3 (acceptance points), §End of a reign (story point), §End of a reign
scoring (pile points, goal points); rulings RtC 8 to 10. Points are counted as they are
scored, so ``score`` works mid-game: the current reign shows what has been scored so far (pile
and goal points come at its end).
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Score, State
from rules.reigns_the_council.content import PILLARS
from rules.reigns_the_council.ending import totals

__all__ = ["breakdown", "score"]

_KINDS = ("acceptance", "story", "pile")


def _player_line(points: dict[str, Any]) -> dict[str, Any]:
    goal = dict(points["goal"])
    line = {k: points[k] for k in _KINDS}
    line["goal"] = goal
    line["goal_total"] = sum(goal.values())
    line["total"] = sum(line[k] for k in _KINDS) + line["goal_total"]
    return line


def breakdown(state: State) -> dict[str, Any]:
    """``reigns``: per reign, its Monarch, how it ended (None while it goes on), the goals
    revealed (after a death, else None) and per player acceptance, story, pile and goal points
    (goal points per pillar). ``totals``: the same summed over reigns (goal points per pillar
    summed over the reigns' goals). ``ranking``: players by total, then seat order; ``winners``
    share the highest total."""
    players = state["players"]
    reigns = []
    sums: dict[str, dict[str, Any]] = {
        p: {"acceptance": 0, "story": 0, "pile": 0, "goal": {}, "goal_total": 0, "total": 0}
        for p in players
    }
    for record in state["reigns"]:
        lines = {p: _player_line(record["points"][p]) for p in players}
        for p in players:
            for k in sums[p]:
                if k == "goal":
                    for pillar, n in lines[p]["goal"].items():
                        sums[p]["goal"][pillar] = sums[p]["goal"].get(pillar, 0) + n
                else:
                    sums[p][k] += lines[p][k]
        reigns.append(
            {
                "reign": record["number"],
                "monarch": record["monarch"],
                "end": record["end"],
                "goals": None if record["goals"] is None else dict(record["goals"]),
                "players": lines,
            }
        )
    for p in players:  # pillars in board order
        sums[p]["goal"] = {
            pillar: sums[p]["goal"][pillar] for pillar in PILLARS if pillar in sums[p]["goal"]
        }
    ranking = sorted(players, key=lambda p: -sums[p]["total"])
    return {"reigns": reigns, "totals": sums, "ranking": ranking}


def score(state: State) -> Score:
    """Final standings once finished, provisional ones (``finished: false``) before. Most points
    wins; players tied on the most share the win (a draw). A finished game's winners and draw
    are its ``outcome``'s: the points' at its end, the other players' when one forfeited on time
    (``rules/forfeit.py``) whatever their points."""
    scores = totals(state)
    best = max(scores.values())
    winners = tuple(p for p in state["players"] if scores[p] == best)
    draw = len(winners) > 1
    outcome = state["outcome"]
    if outcome is not None:
        winners, draw = tuple(outcome["winners"]), outcome["draw"]
    return Score(
        finished=state["status"] == "finished",
        scores=scores,
        winners=winners,
        draw=draw,
        breakdown=breakdown(state),
    )
