"""Standings: who won, and the tie-break at the round limit (ruling RS 8; rules doc §Victory,
§Round limit).

A player's **strength** is the hit points their living units have left (hit points minus pins),
on the board and waiting to deploy; a defeated player's strength is 0. When the game ends by the
scenario's condition the last player in the game wins. At the round limit the players still in
the game are ranked by strength, then by kills (enemy units they destroyed); players still
tied share the win (a draw).
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Outcome, PlayerId, Score, State
from rules.reign_supreme.board import stats

__all__ = ["strength", "outcome", "score", "TIE_BREAKS"]

TIE_BREAKS = ("kills", "draw")
"""How a tie on strength was settled: by kills, or not at all (a draw)."""


def strength(state: State, player: PlayerId) -> int:
    """Hit points left on ``player``'s living units (0 once defeated)."""
    if player in state["defeated"]:
        return 0
    return sum(
        stats(state, u)["hp"] - u["pins"] for u in state["units"].values() if u["owner"] == player
    )


def _ranking(state: State) -> list[PlayerId]:
    alive = [p for p in state["players"] if p not in state["defeated"]]
    alive.sort(key=lambda p: (-strength(state, p), -state["kills"][p]))
    out = [p for p in reversed(state["defeated"])]
    return alive + out


def _leaders(state: State) -> tuple[list[PlayerId], str | None]:
    alive = [p for p in state["players"] if p not in state["defeated"]]
    if len(alive) <= 1:
        return alive, None
    best = max(strength(state, p) for p in alive)
    tied = [p for p in alive if strength(state, p) == best]
    if len(tied) == 1:
        return tied, None
    most = max(state["kills"][p] for p in tied)
    by_kills = [p for p in tied if state["kills"][p] == most]
    if len(by_kills) == 1:
        return by_kills, "kills"
    return by_kills, "draw"


def outcome(state: State, reason: str) -> Outcome:
    """The outcome of a game ending now for ``reason`` (``last_standing`` or ``round_limit``)."""
    winners, _ = _leaders(state)
    scores = {p: strength(state, p) for p in state["players"]}
    return Outcome(tuple(winners), len(winners) != 1, scores, reason)


def score(state: State) -> Score:
    """Final or provisional standings with a breakdown per player."""
    finished = state["status"] == "finished"
    if finished and state["outcome"] is not None:
        winners = list(state["outcome"]["winners"])
        draw = state["outcome"]["draw"]
    else:
        winners, _ = _leaders(state)
        draw = len(winners) != 1
    _, tie_break = _leaders(state)
    players: dict[str, Any] = {}
    for p in state["players"]:
        mine = [u for u in state["units"].values() if u["owner"] == p]
        players[p] = {
            "strength": strength(state, p),
            "units_on_board": sum(1 for u in mine if u["at"] is not None),
            "units_waiting": sum(1 for u in mine if u["at"] is None),
            "kills": state["kills"][p],
            "mines": state["control"]["mines"].count(p),
            "ruins": state["control"]["ruins"].count(p),
            "defeated": p in state["defeated"],
        }
    scores = {p: players[p]["strength"] for p in state["players"]}
    breakdown = {
        "players": players,
        "ranking": _ranking(state),
        "tie_break": tie_break,
        "round": state["round"],
        "round_limit": state["scenario"]["round_limit"],
    }
    return Score(finished, scores, tuple(winners), draw, breakdown)
