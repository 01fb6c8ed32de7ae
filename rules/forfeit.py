"""Forfeit: a seat loses the game without a move of its own (a session clock's timeout).

Pure, like every rule: the state in, the state after and what happened out. The forfeit is a move
of the clock, recorded in a session's history as ``{"player", "type"}`` with ``"by": "clock"``,
and replayed by this same function, so a replay reproduces it.

- A game with a ``concede`` move the seat may make now (Reign Supreme, ruling RS 8) forfeits by
  that move: the seat is defeated as if it had conceded, and a game of three or more goes on
  without it.
- A game without one (Reign & Ruin, Reign Absolute, Reigns: The Council) ends at once: the
  seat loses, and every other player still in the game (``Game.in_the_game``: in Reign
  Absolute, not eradicated) shares the win (``draw`` when several), with
  ``outcome.reason`` ``"forfeit"`` and the provisional scores of the moment. The game cannot go
  on without a seat, and a timeout is the forfeiting seat's loss rather than anyone's victory
  over the others, so nobody else is ranked above another by it.

Such a state keeps the board as it stood but not the phase it stood in nor who was active, so a
game's own integrity checks, written per phase, would refuse it (they did: a Council state was
"finished" with its reign still running). :func:`check_integrity` checks it for what it is instead:
exactly what :func:`forfeit` makes of a sound state of the game in progress
(:func:`forfeited_problems`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.engine import Game
from rules.engine_types import Event, Move, PlayerId, State, Violation
from rules.errors import RulesError
from rules.integrity import is_int, raise_problems

__all__ = [
    "FORFEIT",
    "REASON",
    "forfeit_move",
    "forfeit",
    "ended_by_forfeit",
    "forfeited_problems",
    "check_integrity",
]

FORFEIT = "forfeit"
"""The move type of a forfeit in a game without ``concede``."""
REASON = "forfeit"
"""``outcome.reason`` of a game ended by a forfeit."""


def forfeit_move(game: Game, state: State, player: PlayerId) -> Move:
    """The move that forfeits for ``player``: the game's ``concede`` when it is legal now, else
    ``{"player", "type": "forfeit"}``."""
    concede = {"player": player, "type": "concede"}
    # Asked of the one move, not of the whole list: a game's list may be long (Reign & Ruin's
    # revives), and a game without concede has none to look for.
    if "concede" in game.move_types and not game.violations(state, concede):
        return concede
    return {"player": player, "type": FORFEIT}


def forfeit(game: Game, state: State, player: PlayerId) -> tuple[State, list[Event], Move]:
    """``player`` loses: the state after, its events and the move recorded. Never mutates
    ``state``. ValueError when ``player`` is not in the game or the game is over."""
    if player not in state["players"]:
        raise ValueError(f"{player!r} is not a player of this game")
    if state["status"] == "finished":
        raise ValueError("the game is over")
    if player not in game.in_the_game(state):
        raise ValueError(f"{player!r} is out of the game already")
    move = forfeit_move(game, state, player)
    if move["type"] != FORFEIT:
        new, events = game.apply(state, move)
        return new, events, move
    others = [p for p in game.in_the_game(state) if p != player]
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


def ended_by_forfeit(state: State) -> bool:
    """Whether ``state`` says a forfeit ended it (``outcome.reason`` ``"forfeit"``)."""
    outcome = state.get("outcome") if isinstance(state, dict) else None
    return isinstance(outcome, dict) and outcome.get("reason") == REASON


def _who_may_have_been_active(players: list[PlayerId]) -> list[list[PlayerId]]:
    """Every list of distinct players in seat order from some seat, one player first (most
    phases wait on one), then two, and so on: whom a game in progress may have listed as active."""
    found: list[list[PlayerId]] = []
    for start in range(len(players)):
        ring = players[start:] + players[:start]
        for mask in range(1, 1 << len(players)):
            chosen = [p for i, p in enumerate(ring) if mask >> i & 1]
            if chosen not in found:
                found.append(chosen)
    return sorted(found, key=len)


Problems = Callable[[State], list[Violation]]
"""A check of a state that lists its problems (``[]``: sound) and never raises."""


def forfeited_problems(
    game: Game, state: State, phases: Sequence[str], phase_problems: Problems
) -> list[Violation]:
    """Why ``state``, which says a forfeit ended it, is not what :func:`forfeit` makes of a sound
    state of ``game`` in progress; ``[]`` when it is.

    The forfeit kept everything but ``status``, ``phase``, ``active_players``, ``to_move``,
    ``move_count`` and ``outcome``. So the state it ended is this one with one move fewer, no
    outcome, in one of ``phases`` (the game's phases; ``finished`` is not one a game is played
    in), with some players active. Each such guess is first put to the checks of its phase alone
    (``phase_problems``: they refuse nearly every wrong guess, and cost little however large the
    game's content); one that passes them must pass the game's own checks
    (:meth:`Game.check_state`), and forfeiting it for the one player not among the winners must
    make exactly the state. Bounded: at most ``len(phases)`` times 49 guesses (4 seats), and the
    whole check of the few the phase checks pass (issue found by a fuzz: the whole check of every
    guess cost up to 0.9 s for a state with a 300-card custom Council deck, and 15 s with four
    such requests at once)."""
    players = state.get("players")
    outcome = state["outcome"]
    winners = outcome.get("winners")
    move_count = state.get("move_count")
    if (
        isinstance(players, list)
        and game.min_players <= len(players) <= game.max_players
        and all(isinstance(p, str) for p in players)
        and len(set(players)) == len(players)
        and isinstance(winners, list)
        and is_int(move_count)
        and move_count >= 1
    ):
        losers = [p for p in _in_the_game(game, state) if p not in winners]
        in_progress = [phase for phase in phases if phase != "finished"]
        for phase in in_progress if len(losers) == 1 else ():
            for active in _who_may_have_been_active(players):
                before = {
                    **state,
                    "status": "in_progress",
                    "phase": phase,
                    "active_players": active,
                    "outcome": None,
                    "move_count": move_count - 1,
                }
                if phase_problems(before):
                    continue
                before["to_move"] = game.waiting_on(before)
                if _ends_in(game, before, losers[0], state):
                    return []
    return [
        Violation(
            "inconsistent_forfeit",
            "A state a forfeit ended must be what the forfeit makes of a sound state of the game "
            "in progress: the same board, status and phase finished, nobody active, one move "
            "more, and an outcome in which every other player wins (rules/forfeit.py).",
            f"{game.id}#integrity",
        )
    ]


def _in_the_game(game: Game, state: State) -> list[PlayerId]:
    """``game.in_the_game(state)`` of a state not yet checked: none when its fields are not the
    shapes the game reads (the checks then refuse it)."""
    try:
        return game.in_the_game(state)
    except (KeyError, TypeError, ValueError):
        return []


def _ends_in(game: Game, before: State, loser: PlayerId, state: State) -> bool:
    """Whether ``before`` is sound and ``loser``'s forfeit in it makes exactly ``state``."""
    try:
        game.check_state(before)
        after, _, move = forfeit(game, before, loser)
    except RulesError:
        return False
    return move["type"] == FORFEIT and after == state


def check_integrity(
    game: Game,
    state: State,
    check: Callable[[State], None],
    phases: Sequence[str],
    phase_problems: Problems,
) -> None:
    """A game's integrity check (``Game.check_integrity``) for a game that ends by a forfeit:
    its own ``check``, or :func:`forfeited_problems` for a state a forfeit ended. Raises
    :class:`~rules.errors.InvalidState`."""
    if ended_by_forfeit(state):
        raise_problems(forfeited_problems(game, state, phases, phase_problems))
    else:
        check(state)
