"""The games this service adjudicates. Add a game here and every endpoint serves it."""

from __future__ import annotations

from rules.bots import BOTS, LEVELS
from rules.engine import Game
from rules.errors import UnknownGame
from rules.reign_absolute import GAME as REIGN_ABSOLUTE
from rules.reign_and_ruin import GAME as REIGN_AND_RUIN
from rules.reign_supreme import GAME as REIGN_SUPREME
from rules.reigns_the_council import GAME as REIGNS_THE_COUNCIL

__all__ = ["GAMES", "get_game"]

GAMES: dict[str, Game] = {
    game.id: game for game in (REIGN_AND_RUIN, REIGN_ABSOLUTE, REIGN_SUPREME, REIGNS_THE_COUNCIL)
}

for _game in GAMES.values():  # a game with a bot (rules.bots) plays at every level
    _game.bot_levels = LEVELS if _game.id in BOTS else ()
del _game


def get_game(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None
