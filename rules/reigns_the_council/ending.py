"""The end of a reign (death or abdication), its scoring, the story point, the early-end vote,
and the end of the game.

Seed 004 §End of a reign, §End of a reign scoring, §A new Monarch!; rulings RtC 8 (death and
story point), RtC 9 (abdication), RtC 10 (early end, winners). Naming the next Monarch starts a
new reign, so it lives with the reign's setup (:func:`rules.reigns_the_council.reign.apply_name`):
this module never reaches up to :mod:`reign` or :mod:`rounds`.
"""

from __future__ import annotations

from rules.engine import end_game
from rules.engine_types import Event, Outcome, PlayerId, State
from rules.reigns_the_council.content import GOALS, PILLARS, TRACK_MAX, TRACK_MIN, goal_points
from rules.reigns_the_council.seats import advisors, monarch

__all__ = [
    "POINT_KINDS",
    "REIGN_ENDS",
    "GAME_END_REASONS",
    "death",
    "abdicate",
    "apply_story_vote",
    "apply_end_vote",
    "totals",
    "outcome",
]

POINT_KINDS = ("acceptance", "story", "pile", "goal")
"""What points are scored for (seed §Game round 3, §End of a reign scoring)."""
REIGN_ENDS = ("death", "abdication")
"""How a reign ends (seed §End of a reign; RtC 8, 9)."""
GAME_END_REASONS = ("game_end", "early_end")
"""Why the game ended: everyone has reigned, or every player voted to end early (RtC 10)."""


def death(new: State, advisor: PlayerId, card: str, events: list[Event]) -> None:
    """A token reached an end space after ``advisor``'s card resolved: the Monarch dies, and
    the cards still face down on the table are discarded without effect (unrevealed). The
    advisor scores the story point at once (``story_point: "auto"``), or the other players vote
    on it (``"vote"``: phase ``story_vote``, all of them at once)."""
    rnd = new["round"]
    # in board order, never the state's key order: a session stores its states with sorted keys,
    # and a replay from setup has them in board order (a death on army and church together read
    # ["army", "church"] live and ["church", "army"] replayed: the finished game failed verify)
    tracks = new["tracks"]
    ended = [p for p in PILLARS if tracks[p] in (TRACK_MIN, TRACK_MAX)]
    events.append(
        {
            "type": "monarch_died",
            "monarch": monarch(new),
            "advisor": advisor,
            "card": card,
            "pillars": ended,
        }
    )
    left = [p for p in advisors(new) if p in rnd["table"]]
    if left:
        for p in left:
            new["discard"].append(rnd["table"].pop(p))
        rnd["discarded"] = left
        events.append({"type": "proposals_discarded", "advisors": list(left)})
    if new["story_point"] == "vote":
        voters = [p for p in new["players"] if p != advisor]
        new["story"] = {"advisor": advisor}
        new["votes"] = {p: None for p in voters}
        new["phase"] = "story_vote"
        new["active_players"] = voters
        events.append({"type": "story_vote_started", "advisor": advisor})
        return
    _story_point(new, advisor, True, events)
    _close_reign(new, "death", events)


def _story_point(new: State, advisor: PlayerId, awarded: bool, events: list[Event]) -> None:
    if awarded:
        new["reigns"][-1]["points"][advisor]["story"] += 1
        events.append({"type": "points_scored", "player": advisor, "points": 1, "reason": "story"})


def apply_story_vote(new: State, player: PlayerId, approve: bool, events: list[Event]) -> None:
    """``player`` approves or refuses the death story. When everyone has voted, the storyteller
    scores 1 if at least one other player approves (seed: "only give the point if at least
    another player laughs"), and the reign closes."""
    new["votes"][player] = approve
    new["active_players"] = [p for p in new["active_players"] if p != player]
    events.append({"type": "story_vote_cast", "player": player, "approve": approve})
    if new["active_players"]:
        return
    votes = dict(new["votes"])
    advisor = new["story"]["advisor"]
    awarded = any(votes.values())
    events.append(
        {"type": "story_vote_result", "advisor": advisor, "votes": votes, "awarded": awarded}
    )
    new["votes"] = None
    new["story"] = None
    _story_point(new, advisor, awarded, events)
    _close_reign(new, "death", events)


def abdicate(new: State, events: list[Event]) -> None:
    """The pile holds 12 or more at the end of a round: the Monarch retires to the Riviera; the
    advisors score nothing for their goals (seed §End of a reign)."""
    events.append({"type": "monarch_abdicated", "monarch": monarch(new), "pile": len(new["pile"])})
    _close_reign(new, "abdication", events)


def _close_reign(new: State, cause: str, events: list[Event]) -> None:
    """End-of-reign scoring (seed §End of a reign scoring): the Monarch scores 1 per card in
    their pile; after a death each advisor reveals their goal and scores, for each of its two
    pillars, the points of the token's space when it lies in the goal's zone. Then the game
    ends if everyone has reigned, otherwise everyone votes on ending early."""
    record = new["reigns"][-1]
    record["end"] = cause
    record["tracks"] = dict(new["tracks"])
    ruler = record["monarch"]
    pile = len(new["pile"])
    record["points"][ruler]["pile"] = pile
    events.append({"type": "points_scored", "player": ruler, "points": pile, "reason": "pile"})
    if cause == "death":
        goals = dict(new["goals"])
        record["goals"] = goals
        events.append({"type": "goals_revealed", "goals": dict(goals)})
        for p in advisors(new):
            by_pillar = goal_points(GOALS[goals[p]], new["tracks"])
            record["points"][p]["goal"] = by_pillar
            events.append(
                {
                    "type": "points_scored",
                    "player": p,
                    "points": sum(by_pillar.values()),
                    "reason": "goal",
                    "pillars": dict(by_pillar),
                }
            )
    events.append(
        {
            "type": "reign_ended",
            "reign": record["number"],
            "monarch": ruler,
            "cause": cause,
            "points": {p: _reign_total(pts) for p, pts in record["points"].items()},
        }
    )
    reigned = {r["monarch"] for r in new["reigns"]}
    if len(reigned) == len(new["players"]):
        _finish(new, "game_end", events)
        return
    new["votes"] = {p: None for p in new["players"]}
    new["phase"] = "end_vote"
    new["active_players"] = list(new["players"])
    events.append({"type": "end_vote_started"})


def apply_end_vote(new: State, player: PlayerId, end: bool, events: list[Event]) -> None:
    """``player`` votes to end the game now or to go on. When everyone has voted: if all voted
    to end, the game ends; otherwise the outgoing Monarch names the next one."""
    new["votes"][player] = end
    new["active_players"] = [p for p in new["active_players"] if p != player]
    events.append({"type": "end_vote_cast", "player": player, "end": end})
    if new["active_players"]:
        return
    votes = dict(new["votes"])
    ended = all(votes.values())
    events.append({"type": "end_vote_result", "votes": votes, "ended": ended})
    new["votes"] = None
    if ended:
        _finish(new, "early_end", events)
        return
    new["phase"] = "succession"
    new["active_players"] = [monarch(new)]


def _reign_total(points: dict) -> int:
    return points["acceptance"] + points["story"] + points["pile"] + sum(points["goal"].values())


def totals(state: State) -> dict[PlayerId, int]:
    """Every player's points so far, over all reigns (scoring tokens are kept between reigns)."""
    result = {p: 0 for p in state["players"]}
    for record in state["reigns"]:
        for p, pts in record["points"].items():
            result[p] += _reign_total(pts)
    return result


def outcome(state: State, reason: str) -> dict:
    """The ``outcome`` of a finished game: most points wins; ties share the win (rulings RtC 10)."""
    scores = totals(state)
    best = max(scores.values())
    winners = tuple(p for p in state["players"] if scores[p] == best)
    return Outcome(winners, len(winners) > 1, scores, reason).to_dict()


def _finish(new: State, reason: str, events: list[Event]) -> None:
    """The game is over: ``reason`` is ``"game_end"`` (everyone has reigned) or ``"early_end"``
    (every player voted to end)."""
    new["draw_queue"] = []
    over = end_game(new, outcome(new, reason))
    over["reason"] = reason
    events.append(over)
