"""Forfeit: a seat loses the game without a move of its own (a session clock's timeout).

Pure, like every rule: the state in, the state after and what happened out. The forfeit is a move
of the clock, recorded in a session's history as ``{"player", "type"}`` with ``"by": "clock"``,
and replayed by this same function, so a replay reproduces it.

- A game with a ``concede`` move the seat may make now (Reign Supreme, ruling RS 8) forfeits by
  that move: the seat is defeated as if it had conceded, and a game of three or more goes on
  without it.
- A game without one (Reign & Ruin, Reign Absolute, Reigns: The Council) ends at once: the
  seat loses, and every other player shares the win (``draw`` when several), with
  ``outcome.reason`` ``"forfeit"`` and the provisional scores of the moment. The game cannot go
  on without a seat, and a timeout is the forfeiting seat's loss rather than anyone's victory
  over the others, so nobody else is ranked above another by it.
"""

from __future__ import annotations

from rules.engine import Game
from rules.engine_types import Event, Move, PlayerId, State

__all__ = ["FORFEIT", "REASON", "forfeit_move", "forfeit"]

FORFEIT = "forfeit"
"""The move type of a forfeit in a game without ``concede``."""
REASON = "forfeit"
"""``outcome.reason`` of a game ended by a forfeit."""


def forfeit_move(game: Game, state: State, player: PlayerId) -> Move:
    """The move that forfeits for ``player``: the game's ``concede`` when it is legal now, else
    ``{"player", "type": "forfeit"}``."""
    concede = {"player": player, "type": "concede"}
    if concede in game.legal_moves(state, player):
        return concede
    return {"player": player, "type": FORFEIT}


def forfeit(game: Game, state: State, player: PlayerId) -> tuple[State, list[Event], Move]:
    """``player`` loses: the state after, its events and the move recorded. Never mutates
    ``state``. ValueError when ``player`` is not in the game or the game is over."""
    if player not in state["players"]:
        raise ValueError(f"{player!r} is not a player of this game")
    if state["status"] == "finished":
        raise ValueError("the game is over")
    move = forfeit_move(game, state, player)
    if move["type"] != FORFEIT:
        new, events = game.apply(state, move)
        return new, events, move
    others = [p for p in state["players"] if p != player]
    scores = dict(game.score(state).scores)
    new = dict(state)
    new["status"] = "finished"
    if "phase" in new:
        new["phase"] = "finished"
    new["active_players"] = []
    if "to_move" in new:
        new["to_move"] = []
    if isinstance(new.get("move_count"), int):
        new["move_count"] = new["move_count"] + 1
    new["outcome"] = {
        "winners": others,
        "draw": len(others) > 1,
        "scores": scores,
        "reason": REASON,
    }
    return new, [], move
