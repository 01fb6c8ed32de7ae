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

__all__ = [
    "TIE_BREAKS",
    "SERIES_MIN",
    "tally",
    "army_breakdown",
    "rank",
    "winners",
    "standings",
    "score",
    "outcome",
]

TIE_BREAKS = ("best_series", "fighter_count", "draw")
"""The last tie-break criterion a ranking needed (rulings R&R 11); ``draw``: still tied after
both."""
SERIES_MIN = 3
"""Seed §5: three or more fighters of the same faction form a faction series."""
_FACTION_ORDER = tuple(f["id"] for f in FACTIONS)


Fighter = tuple[str, str, int, int, int]
"""A fighter as scored: card, faction, value, Kurgoz tokens, worth."""
Series = tuple[str, list[str], int, int]
"""A faction series: faction, its cards, the sum of their worths, its value."""
RankKey = tuple[int, int, int]
"""What ranks an army (:func:`rank`): its total, its best series value, its fighter count."""


def tally(
    cards: dict[str, dict[str, Any]], army: list[dict[str, Any]]
) -> tuple[list[Fighter], list[Series], RankKey]:
    """One army's fighters and series as scored, and its :data:`RankKey`.

    A fighter's worth is its value × 2 per Kurgoz token (seed §Kurgoz: "A fighter's value may
    be doubled this way more than once"). Each faction with three or more fighters forms a
    series, in the factions' rule-text order: its value is the sum of their worths doubled
    (seed §5). The total is the worth of every fighter plus the sum of each series once more
    (a series doubles a sum already counted once). The best series value is 0 without a series
    (rulings R&R 11). Tuples, not the breakdown's dicts: the outcome at the end of every game
    needs only the figures (building the breakdown there was 2.4% of a random playout's
    instructions; issue 28)."""
    fighters: list[Fighter] = []
    by_faction: dict[str, list[Fighter]] = {}
    total = 0
    for fighter in army:
        card = fighter["card"]
        info = cards[card]
        faction = info["faction"]
        value = info["value"]
        kurgoz = fighter["kurgoz"]
        worth = value << kurgoz
        scored = (card, faction, value, kurgoz, worth)
        fighters.append(scored)
        if faction in by_faction:
            by_faction[faction].append(scored)
        else:
            by_faction[faction] = [scored]
        total += worth
    series: list[Series] = []
    best = 0
    # A faction with SERIES_MIN fighters leaves at least SERIES_MIN - 1 fighters over the count
    # of factions; with fewer over, no faction has a series.
    if len(army) - len(by_faction) >= SERIES_MIN - 1:
        for faction in _FACTION_ORDER:  # series are listed in the factions' rule-text order
            members = by_faction.get(faction)
            if members is not None and len(members) >= SERIES_MIN:
                subtotal = 0
                for f in members:
                    subtotal += f[4]
                series.append((faction, [f[0] for f in members], subtotal, 2 * subtotal))
                total += subtotal  # the series doubles a sum already counted once
                if 2 * subtotal > best:
                    best = 2 * subtotal
    return fighters, series, (total, best, len(army))


def army_breakdown(cards: dict[str, dict[str, Any]], army: list[dict[str, Any]]) -> dict[str, Any]:
    """One army's total, explained: its :func:`tally` as the score's breakdown.

    ``fighters``: each fighter's card, faction, value, Kurgoz tokens and ``worth``. ``series``:
    per series its faction, ``cards``, ``sum`` of worths and ``value``. ``total``,
    ``best_series`` and ``fighter_count``: its :data:`RankKey`.
    """
    return _explained(tally(cards, army))


def _explained(tallied: tuple[list[Fighter], list[Series], RankKey]) -> dict[str, Any]:
    fighters, series, (total, best, count) = tallied
    return {
        "fighters": [
            {"card": c, "faction": f, "value": v, "kurgoz": k, "worth": w}
            for c, f, v, k, w in fighters
        ],
        "series": [
            {"faction": f, "cards": members, "sum": subtotal, "value": value}
            for f, members, subtotal, value in series
        ],
        "total": total,
        "best_series": best,
        "fighter_count": count,
    }


def rank(
    players: list[PlayerId], keys: dict[PlayerId, RankKey]
) -> tuple[list[PlayerId], list[PlayerId], str | None]:
    """Ranking, winners and tie-break from each player's ``(total, best_series, fighter_count)``.

    Ranking: total, then best series value, then fighter count, all descending; players still
    equal keep seat order. Winners: :func:`winners`. ``tie_break`` names the last criterion
    that was needed: None (no tie), ``"best_series"``, ``"fighter_count"``, or ``"draw"`` when
    they are still tied after both (rulings R&R 11).
    """
    ranking = sorted(players, key=keys.__getitem__, reverse=True)  # stable: ties keep seats
    leaders = winners(players, keys)
    return ranking, leaders, _tie_break(players, keys, leaders)


def winners(players: list[PlayerId], keys: dict[PlayerId, RankKey]) -> list[PlayerId]:
    """The winners, in seat order: the players with the highest total, narrowed to those with
    the best series value, then to those with the most fighters; several left share a draw
    (rulings R&R 11). A :data:`RankKey` lists the criteria in that order, so the narrowing is
    exactly the players whose key is the highest (tuples compare criterion by criterion)."""
    top = max(keys.values())
    return [p for p in players if keys[p] == top]


def _tie_break(
    players: list[PlayerId], keys: dict[PlayerId, RankKey], leaders: list[PlayerId]
) -> str | None:
    """The last criterion :func:`winners` needed: ``"draw"`` when several players share the
    win, else the first criterion at which the winner's key stands alone (None: its total)."""
    if len(leaders) > 1:
        return "draw"
    top = keys[leaders[0]]
    tied = [p for p in players if keys[p][0] == top[0]]  # the highest total
    if len(tied) == 1:
        return None
    if sum(1 for p in tied if keys[p][1] == top[1]) == 1:
        return "best_series"
    return "fighter_count"


def standings(state: State) -> tuple[dict[str, Any], list[PlayerId], bool]:
    """The breakdown of every army (with ``ranking`` and ``tie_break``), the winners in seat
    order, and whether it is a draw."""
    players = state["players"]
    cards = state["cards"]
    tallied = {p: tally(cards, state["armies"][p]) for p in players}
    per = {p: _explained(tallied[p]) for p in players}
    ranking, leaders, tie_break = rank(players, {p: tallied[p][2] for p in players})
    return {"players": per, "ranking": ranking, "tie_break": tie_break}, leaders, len(leaders) > 1


def score(state: State) -> Score:
    """Final standings once finished, provisional ones (``finished: false``) before. A finished
    game's winners and draw are its ``outcome``'s: the armies' once the last round ends, the
    other players' when one forfeited on time (``rules/forfeit.py``) whatever their armies."""
    breakdown, leaders, draw = standings(state)
    totals = {p: breakdown["players"][p]["total"] for p in state["players"]}
    outcome = state["outcome"]
    if outcome is not None:
        leaders, draw = outcome["winners"], outcome["draw"]
    return Score(
        finished=state["status"] == "finished",
        scores=totals,
        winners=tuple(leaders),
        draw=draw,
        breakdown=breakdown,
    )


def outcome(state: State) -> dict[str, Any]:
    """The ``outcome`` object of a finished game (``reason: "game_end"``): the winners and
    totals of :func:`standings`, without the breakdown or the ranking."""
    players = state["players"]
    cards = state["cards"]
    armies = state["armies"]
    keys = {p: tally(cards, armies[p])[2] for p in players}
    won = winners(players, keys)
    totals = {p: keys[p][0] for p in players}
    return Outcome(tuple(won), len(won) > 1, totals).to_dict()
