"""Rule ids: the anchors of ``docs/rules/reign-absolute.md`` that violations point at.

Every :class:`~rules.engine_types.Violation` of this game carries one of these as its ``rule``,
written ``reign-absolute#<anchor>``; each anchor is a heading of the rules document.
"""

from __future__ import annotations

GAME_ID = "reign-absolute"
TITLE = "Reign Absolute"


def rule(anchor: str) -> str:
    """The ``rule`` reference for a heading anchor of the rules document."""
    return f"{GAME_ID}#{anchor}"


PLAYERS = rule("players")
OPTIONS = rule("options")
RACES = rule("races")
RACE_ACTIONS = rule("race-actions")
RACE_SETUP = rule("race-setup-requirements")
EFFECTS = rule("effect-primitives")
REINFORCEMENT_DECK = rule("reinforcement-deck")
SETUP = rule("setup")
RACE_SELECTION = rule("race-selection")
FIRST_PLAYER = rule("first-player")
PLACEMENT = rule("placement")
TURN = rule("turn")
MOVE = rule("move")
ATTACK = rule("attack")
COMBAT = rule("combat")
DOOM = rule("doom")
REINFORCEMENT_PHASE = rule("reinforcement-phase")
TURN_CARDS = rule("turn-cards")
ERADICATION = rule("eradication")
VICTORY = rule("victory")
TURN_LIMIT = rule("turn-limit")
HIDDEN = rule("hidden-information")
INTEGRITY = rule("integrity")
MOVES = rule("moves")
