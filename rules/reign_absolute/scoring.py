"""Standings, final or provisional.

There are no points in Reign Absolute: the last player with a Liege in play wins (rulings RA
11). ``scores`` is each player's number of units in play (0 once eradicated), which is also the
first criterion of the turn-limit tie-break; the ``breakdown`` says how the game was (or would
now be) decided.
"""

from __future__ import annotations

from rules.engine_types import Score, State
from rules.reign_absolute.flow import alive, scores, strength_in_play, turn_limit_winners

__all__ = ["score"]


def score(state: State) -> Score:
    """Final standings from ``outcome``; mid-game, the players still in the game lead, ranked by
    the turn-limit tie-break (units in play, then total base strength in play)."""
    counts = scores(state)
    strength = strength_in_play(state)
    players = state["players"]
    breakdown_players = {
        p: {
            "eradicated": p in state["eradicated"],
            "units_in_play": counts[p],
            "strength_in_play": strength[p],
            "units_in_discard": len(state["unit_discards"][p]),
        }
        for p in players
    }
    ranking = sorted(players, key=lambda p: (p in state["eradicated"], -counts[p], -strength[p]))
    outcome = state["outcome"]
    if outcome is not None:
        return Score(
            True,
            dict(outcome["scores"]),
            tuple(outcome["winners"]),
            outcome["draw"],
            {"players": breakdown_players, "ranking": ranking, "decided_by": outcome["reason"]},
        )
    if state["phase"] == "play" and alive(state):
        leaders = turn_limit_winners(state)
    else:
        leaders = []
    return Score(
        False,
        counts,
        tuple(leaders),
        len(leaders) > 1,
        {"players": breakdown_players, "ranking": ranking, "decided_by": None},
    )
