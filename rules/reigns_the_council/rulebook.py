"""Rule ids: the anchors of ``docs/rules/reigns-the-council.md`` that violations point at.

Every :class:`~rules.engine_types.Violation` of this game carries one of these as its ``rule``,
written ``reigns-the-council#<anchor>``; each anchor is an explicit heading anchor of the rules
document.
"""

from __future__ import annotations

GAME_ID = "reigns-the-council"
TITLE = "Reigns: The Council"


def rule(anchor: str) -> str:
    """The ``rule`` reference for a heading anchor of the rules document."""
    return f"{GAME_ID}#{anchor}"


PLAYERS = rule("players")
OPTIONS = rule("options")
TRACKS = rule("tracks")
PROPOSALS = rule("proposals")
GOALS = rule("secret-goals")
FIRST_MONARCH = rule("first-monarch")
REIGN_SETUP = rule("reign-setup")
DRAWING = rule("drawing")
EXCHANGE = rule("exchange")
PITCHING = rule("pitching")
DECISION = rule("decision")
ACCEPTANCE_POINTS = rule("acceptance-points")
REVEAL = rule("reveal")
CHANGE_OF_MIND = rule("change-of-mind")
DEATH = rule("death")
STORY_POINT = rule("story-point")
ABDICATION = rule("abdication")
REIGN_SCORING = rule("reign-scoring")
REFILL = rule("refilling-the-decks")
SUCCESSION = rule("succession")
EARLY_END = rule("early-end")
WINNERS = rule("winners")
MOVES = rule("moves")
HIDDEN = rule("hidden-information")
INTEGRITY = rule("integrity")
