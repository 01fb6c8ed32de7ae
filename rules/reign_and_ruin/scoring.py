"""Army totals, faction series, ranking and tie-breaks.

Seed §5 Determine winner; rulings R&R 11: a fighter is worth its value doubled once per Kurgoz
token. Three or more fighters of one faction in an army form a series: the sum of their
(already doubled) values is doubled. Highest total wins. Ties: the highest single series value
(a player without a series counts 0), then the most fighters, else a draw shared by those still
tied.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Outcome, PlayerId, Score, State
from rules.reign_and_ruin.cards import FACTIONS

__all__ = ["TIE_BREAKS", "SERIES_MIN", "army_breakdown", "rank", "standings", "score", "outcome"]

TIE_BREAKS = ("best_series", "fighter_count", "draw")
"""The last tie-break criterion a ranking needed (rulings R&R 11); ``draw``: still tied after
both."""
SERIES_MIN = 3
"""Seed §5: three or more fighters of the same faction form a faction series."""
_FACTION_ORDER = tuple(f["id"] for f in FACTIONS)


def army_breakdown(cards: dict[str, dict[str, Any]], army: list[dict[str, Any]]) -> dict[str, Any]:
    """One army's total, explained.

    ``fighters``: each fighter's ``worth`` = value × 2 per Kurgoz token (seed §Kurgoz: "A
    fighter's value may be doubled this way more than once"). ``series``: per faction with three
    or more fighters, the ``sum`` of their worths and its double ``value`` (seed §5), in the
    factions' rule-text order. ``total`` = worth of fighters outside series + series values.
    ``best_series`` is the highest series value, 0 without a series (rulings R&R 11).
    """
    fighters: list[dict[str, Any]] = []
    by_faction: dict[str, list[tuple[str, int]]] = {}
    total = 0
    for fighter in army:
        card = fighter["card"]
        info = cards[card]
        worth = info["value"] << fighter["kurgoz"]
        fighters.append(
            {
                "card": card,
                "faction": info["faction"],
                "value": info["value"],
                "kurgoz": fighter["kurgoz"],
                "worth": worth,
            }
        )
        by_faction.setdefault(info["faction"], []).append((card, worth))
        total += worth
    series: list[dict[str, Any]] = []
    for faction in _FACTION_ORDER:
        members = by_faction.get(faction, ())
        if len(members) >= SERIES_MIN:
            subtotal = sum(w for _, w in members)
            series.append(
                {
                    "faction": faction,
                    "cards": [c for c, _ in members],
                    "sum": subtotal,
                    "value": 2 * subtotal,
                }
            )
            total += subtotal  # the series doubles a sum already counted once
    return {
        "fighters": fighters,
        "series": series,
        "total": total,
        "best_series": max((s["value"] for s in series), default=0),
        "fighter_count": len(army),
    }


def rank(
    players: list[PlayerId], keys: dict[PlayerId, tuple[int, int, int]]
) -> tuple[list[PlayerId], list[PlayerId], str | None]:
    """Ranking, winners and tie-break from each player's ``(total, best_series, fighter_count)``.

    Ranking: total, then best series value, then fighter count, all descending; players still
    equal keep seat order. Winners: the players with the highest total, narrowed by best series,
    then by fighter count; several left is a shared draw. ``tie_break`` names the last
    criterion that was needed: None (no tie), ``"best_series"``, ``"fighter_count"``, or
    ``"draw"`` when they are still tied after both (rulings R&R 11).
    """
    ranking = sorted(players, key=lambda p: (-keys[p][0], -keys[p][1], -keys[p][2]))
    top = max(keys[p][0] for p in players)
    leaders = [p for p in players if keys[p][0] == top]
    tie_break = None
    for index, criterion in ((1, "best_series"), (2, "fighter_count")):
        if len(leaders) == 1:
            break
        tie_break = criterion
        best = max(keys[p][index] for p in leaders)
        leaders = [p for p in leaders if keys[p][index] == best]
    if len(leaders) > 1:
        tie_break = "draw"
    return ranking, leaders, tie_break


def standings(state: State) -> tuple[dict[str, Any], list[PlayerId], bool]:
    """The breakdown of every army (with ``ranking`` and ``tie_break``), the winners in seat
    order, and whether it is a draw."""
    players = state["players"]
    cards = state["cards"]
    per = {p: army_breakdown(cards, state["armies"][p]) for p in players}
    keys = {p: (per[p]["total"], per[p]["best_series"], per[p]["fighter_count"]) for p in players}
    ranking, winners, tie_break = rank(players, keys)
    return {"players": per, "ranking": ranking, "tie_break": tie_break}, winners, len(winners) > 1


def score(state: State) -> Score:
    """Final standings once finished, provisional ones (``finished: false``) before."""
    breakdown, winners, draw = standings(state)
    totals = {p: breakdown["players"][p]["total"] for p in state["players"]}
    return Score(
        finished=state["status"] == "finished",
        scores=totals,
        winners=tuple(winners),
        draw=draw,
        breakdown=breakdown,
    )


def outcome(state: State) -> dict[str, Any]:
    """The ``outcome`` object of a finished game (``reason: "game_end"``)."""
    breakdown, winners, draw = standings(state)
    totals = {p: breakdown["players"][p]["total"] for p in state["players"]}
    return Outcome(tuple(winners), draw, totals).to_dict()
