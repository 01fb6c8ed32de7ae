"""Rule ids: the anchors of ``docs/rules/reign-supreme.md`` that violations point at.

Every :class:`~rules.engine_types.Violation` of this game carries one of these as its ``rule``,
written ``reign-supreme#<anchor>``; each anchor is an explicit heading of the rules document.
"""

from __future__ import annotations

GAME_ID = "reign-supreme"
TITLE = "Reign Supreme"


def rule(anchor: str) -> str:
    """The ``rule`` reference for a heading anchor of the rules document."""
    return f"{GAME_ID}#{anchor}"


PLAYERS = rule("players")
OPTIONS = rule("options")
SCENARIOS = rule("scenarios")
BOARD = rule("board")
ROSTERS = rule("rosters")
ARMY_LISTS = rule("army-lists")
SETUP = rule("setup")
MOVES = rule("moves")
TURN = rule("turn")
COOLDOWN = rule("cooldown-phase")
DEPLOYMENT = rule("deployment-phase")
COMBAT = rule("combat-phase")
OUTSIDE_YOUR_TURN = rule("outside-your-own-turn")
MOVEMENT = rule("movement")
MELEE = rule("melee")
ATTACKS = rule("attacks")
SHOOTING = rule("shooting")
DAMAGE = rule("damage")
PACKED = rule("packed-units")
ACTION_BOARD = rule("action-board")
DURATION_CONTROL = rule("duration-control")
MINES_AND_RUINS = rule("mines-and-ruins")
CASTLES = rule("castles")
RESPONSES = rule("answers")
ABILITIES = rule("special-abilities")
AURAS = rule("auras")
SPELLS = rule("field-spells")
WALLS = rule("gates-and-palisades")
CONSTRUCTION = rule("construction")
VICTORY = rule("victory")
ROUND_LIMIT = rule("round-limit")
CONCEDE = rule("concede")
CARDS = rule("cards")
HIDDEN = rule("hidden-information")
INTEGRITY = rule("integrity")
