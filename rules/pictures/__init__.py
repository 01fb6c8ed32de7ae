"""Pictures of views: ``render(view)`` draws a game as one player (or a spectator) knows it, as
an SVG document (issue 27; docs/architecture.md, Pictures).

A painter takes a *view* (``game.view(state, player)``), never a state: it cannot draw what the
view does not hold, so the hidden-information rules of the views are the pictures' too. One
module per game, sharing the SVG vocabulary of :mod:`rules.pictures.svg`; pure Python like the
rest of ``rules/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.pictures import reign_absolute, reign_and_ruin, reign_supreme, reigns_the_council

__all__ = ["render", "PAINTERS", "MEDIA_TYPE"]

MEDIA_TYPE = "image/svg+xml"

PAINTERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "reign-and-ruin": reign_and_ruin.paint,
    "reign-absolute": reign_absolute.paint,
    "reign-supreme": reign_supreme.paint,
    "reigns-the-council": reigns_the_council.paint,
}
"""Game id -> the function drawing one of its views."""


def render(view: dict[str, Any]) -> str:
    """The SVG picture of ``view`` (the game is ``view["game"]``); KeyError for a game without
    a painter."""
    return PAINTERS[view["game"]](view)
