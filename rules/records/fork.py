"""The state a fork starts from (issue 26, "Fork").

A fork of a finished game starts from the true state at the chosen version: the game is over,
its seed and every card are revealed. A fork of a game still running starts from one seat's
knowledge only: the seat's view at that version, its hidden parts drawn afresh by the game's
determinizer (``rules.bots``, the same the bots imagine with), consistent with that view. The
true state is never read past the view, so the fork cannot hold the true hidden cards except by
the chance of drawing them; and a fork is never redrawn until it differs from the truth, since
that would tell the seat what the truth is not.
"""

from __future__ import annotations

import copy
import random

from rules.bots import BOTS, refusal
from rules.engine import Game
from rules.engine_types import PlayerId, State

__all__ = ["fork_state"]


def fork_state(game: Game, state: State, seat: PlayerId | None, rng: random.Random) -> State:
    """The start of a fork of ``state``: a copy of it when ``seat`` is None (a finished game),
    else a state drawn with ``rng`` from ``seat``'s view of it, with a fresh seed and generator.
    ValueError when the game has no determinizer or it refuses the view (a custom deck)."""
    if seat is None:
        return copy.deepcopy(state)
    bot = BOTS.get(game.id)
    if bot is None:
        raise ValueError(f"{game.id} cannot draw hidden parts afresh (no determinizer)")
    why = refusal(bot, state)
    if why is not None:
        raise ValueError(why)
    return bot.determinize(game.view(state, seat), rng)
