"""Bots: a suggested move for any seat, decided from that seat's view only.

``suggest`` is the core (:mod:`rules.bots.core`); ``BOTS`` maps each game id to its small
per-game module (a determinizer and an evaluation). Pure Python, no IO.
"""

from __future__ import annotations

from rules.bots.core import (
    DEFAULT_TIME_MS,
    LEVELS,
    MAX_TIME_MS,
    GameBot,
    NoMoveToSuggest,
    Suggestion,
    refusal,
    suggest,
)
from rules.bots.reign_absolute import BOT as REIGN_ABSOLUTE
from rules.bots.reign_and_ruin import BOT as REIGN_AND_RUIN
from rules.bots.reign_supreme import BOT as REIGN_SUPREME
from rules.bots.reigns_the_council import BOT as REIGNS_THE_COUNCIL

__all__ = [
    "BOTS",
    "LEVELS",
    "DEFAULT_TIME_MS",
    "MAX_TIME_MS",
    "GameBot",
    "NoMoveToSuggest",
    "Suggestion",
    "refusal",
    "suggest",
]

BOTS: dict[str, GameBot] = {
    bot.game.id: bot for bot in (REIGN_AND_RUIN, REIGN_ABSOLUTE, REIGN_SUPREME, REIGNS_THE_COUNCIL)
}
