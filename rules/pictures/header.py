"""What every picture says first, from the fields every view has: whose view it is, the phase,
who is to move, and the outcome once the game is over (the ``<title>``, the ``<desc>``'s first
sentence and the top line of the picture)."""

from __future__ import annotations

from typing import Any

from rules.pictures.svg import INK, Canvas, seat_colour

__all__ = ["title_of", "status_line", "draw_header", "HEADER_HEIGHT"]

HEADER_HEIGHT = 46


def title_of(game_title: str, view: dict[str, Any]) -> str:
    viewer = view.get("viewer")
    whose = f"{viewer}'s view" if viewer is not None else "the spectator's view"
    return f"{game_title}: {whose}, move {view['move_count']}"


def status_line(view: dict[str, Any]) -> str:
    """``Phase play. To move: bob.`` or ``Finished. Winner: ann (army 31).``"""
    outcome = view.get("outcome")
    if view["status"] == "finished" and outcome:
        winners = ", ".join(outcome.get("winners") or []) or "nobody"
        shared = " (a shared win)" if outcome.get("draw") else ""
        return f"Finished. Winners: {winners}{shared}."
    active = ", ".join(view["active_players"]) or "nobody"
    phase = str(view.get("phase", view["status"])).replace("_", " ")
    return f"Phase {phase}. To move: {active}."


def draw_header(canvas: Canvas, view: dict[str, Any], game_title: str, width: float) -> None:
    """The top band: title and status line, then each player's name in their seat colour."""
    canvas.text(10, 18, title_of(game_title, view), font_weight="bold", font_size=14, limit=120)
    canvas.text(width - 10, 18, status_line(view), text_anchor="end", limit=120)
    x = 10.0
    for player in view["players"]:
        colour = seat_colour(view["players"], player)
        canvas.rect(x, 28, 10, 10, fill=colour)
        mark = " (you)" if player == view.get("viewer") else ""
        mark += " *" if player in view["active_players"] else ""
        label = canvas.text(x + 14, 37, f"{player}{mark}", fill=INK, limit=40)
        x += 24 + 7 * len(label.text or "")
