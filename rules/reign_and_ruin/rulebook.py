"""Rule ids: the anchors of ``docs/rules/reign-and-ruin.md`` that violations point at.

Every :class:`~rules.engine_types.Violation` of this game carries one of these as its ``rule``,
written ``reign-and-ruin#<anchor>``; each anchor is an explicit heading anchor in the rules
document, so a client can link a violation straight to the rule it breaks.
"""

from __future__ import annotations

GAME_ID = "reign-and-ruin"
TITLE = "Reign & Ruin"


def rule(anchor: str) -> str:
    """The ``rule`` reference for a heading anchor of the rules document."""
    return f"{GAME_ID}#{anchor}"


PLAYERS = rule("players")
OPTIONS = rule("options")
DECK = rule("deck")
SETUP = rule("setup")
DRAFT = rule("draft")
STARTING_PLAYER = rule("starting-player")
TURN = rule("turn")
MOVES = rule("moves")
ABILITIES = rule("abilities")
PROTECTION = rule("protection")
TOKENS = rule("tokens")
ALFENGHAST = rule("alfenghast")
HEXEN = rule("hexen")
KURGOZ = rule("kurgoz")
COGNITZ = rule("cognitz")
CROU = rule("crou")
NOMORA = rule("nomora")
FINAL_ROUND = rule("final-round")
SCORING = rule("scoring")
TIE_BREAKS = rule("tie-breaks")
HIDDEN = rule("hidden-information")
INTEGRITY = rule("integrity")

FACTION_RULE = {
    "alfenghast": ALFENGHAST,
    "hexen": HEXEN,
    "kurgoz": KURGOZ,
    "cognitz": COGNITZ,
    "crou": CROU,
    "nomora": NOMORA,
}
"""The rule anchor of each faction's ability."""
