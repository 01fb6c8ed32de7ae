"""The bot core: a suggested move for one seat, decided from that seat's view only.

A bot never sees the state. :func:`suggest` takes ``game.view(state, player)``; whatever the
view hides (hands, deck order, face-down units, the generator), the bot imagines by sampling
a full state consistent with the view (a *determinization*, :meth:`GameBot.determinize`) with
its own generator, ``random.Random(seed)``. So two states with the same view give the same
suggestion for the same seed, and nothing hidden can influence it.

Levels (``LEVELS``):

- ``random``: a uniformly random legal move.
- ``greedy``: one move ahead: every legal move is applied to a few determinizations and the
  one whose result the game's evaluation (:meth:`GameBot.evaluate`) likes best is played.
- ``expert``: determinized Monte Carlo search ("perfect information Monte Carlo" with UCB1 at
  the root). The legal moves are first scored one move ahead as ``greedy`` scores them, and
  the best ``EXPERT_WIDTH`` are searched (so games with hundreds of moves per decision still
  get several playouts per candidate); each candidate's mean starts from that score, counted
  as ``PRIOR_PLAYOUTS`` playouts, so a search too short to tell the candidates apart leans
  towards the greedy move instead of a random one. Each playout samples a new
  determinization, picks a candidate by UCB1, then plays on for at most ``rollout_depth``
  moves (never ``concede``) and scores the result (1 win, 1/k shared win, 0 loss; the
  evaluation when the rollout is cut short). A rollout move is the mover's best one move
  ahead by the evaluation with probability ``rollout_greed``, else a random one: uniformly
  random opponents punish nothing, so random rollouts could not tell a good move from a bad
  one (the expert only tied greedy in Reign & Ruin with them). The move most often chosen is
  played. A game may search its own number of candidates (``expert_width``), cut its
  rollouts earlier at a break of its own (``rollout_stop``) and imagine the unseen with a
  model of the other players (``imagine``); see :class:`GameBot`.

Reproducibility: the search budget is a playout count, ``playouts_for(time_ms)`` (a fixed
rate per game, calibrated low on a busy two-core machine), not the wall clock, so the same
request gives the same move on any machine. ``time_ms`` is also an upper bound: on a machine
too slow to finish the budget in time the search stops early, answers with what it has, and
says so (``complete: false``); only such answers can differ between runs.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rules.engine import Game
from rules.engine_types import Move, PlayerId, State, View

__all__ = [
    "LEVELS",
    "DEFAULT_TIME_MS",
    "MAX_TIME_MS",
    "GameBot",
    "Suggestion",
    "NoMoveToSuggest",
    "suggest",
    "outcome_value",
]

LEVELS: tuple[str, ...] = ("random", "greedy", "expert")
DEFAULT_TIME_MS = 1000
"""``time_ms`` when a request gives none."""
MAX_TIME_MS = 10_000
"""The largest ``time_ms`` a request may ask for."""
EXPERT_WIDTH = 8
"""Candidate moves the expert searches: the best by the one-move-ahead evaluation."""
EXPLORATION = 0.7
"""UCB1's exploration constant for values in [0, 1]."""
PRIOR_PLAYOUTS = 3
"""Playouts the one-move-ahead score of a candidate counts for in its mean."""


class GameBot(Protocol):
    """What the core needs from one game: ``rules/bots/<game>.py`` implements it."""

    @property
    def game(self) -> Game:
        """The game the bot plays (read-only, so a bot's own Game subclass fits)."""
        ...

    playouts_per_second: int
    """Expert playouts per second of ``time_ms`` (the deterministic budget)."""
    rollout_depth: int
    """Moves a rollout plays before the evaluation scores it."""
    greedy_samples: int
    """Determinizations each greedy candidate is tried on (hidden draws make one sample noisy)."""
    rollout_greed: float
    """How often a rollout move is the mover's best one move ahead rather than a random one."""

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state, consistent with ``view``, whose hidden parts are drawn with ``rng``."""

    def evaluate(self, state: State, player: PlayerId) -> float:
        """How good ``state`` is for ``player``, in [0, 1] (0.5: even)."""

    # Optional, read with getattr (a game without them keeps the defaults):
    # ``expert_width: int``, the game's own EXPERT_WIDTH;
    # ``rollout_stop(start: State, state: State) -> bool``, true when a rollout that began at
    # ``start`` should stop at ``state`` (before ``rollout_depth`` moves) and be scored by the
    # evaluation, e.g. at a natural break of the game where the evaluation is reliable; and
    # ``imagine(view: View, rng: random.Random) -> State``, the expert's determinization in
    # place of ``determinize``: one that also draws the others' hidden choices as players
    # pursuing their own aims would make them, from the view and ``rng`` only.


@dataclass(frozen=True, slots=True)
class Suggestion:
    move: Move
    level: str
    playouts: int
    """Determinized games the bot looked at (greedy: move trials; random: 0)."""
    considered: int
    """Legal moves it chose among."""
    complete: bool
    """False when ``time_ms`` ran out before the budget: such an answer may differ between runs."""
    reason: str


class NoMoveToSuggest(Exception):
    """``player`` has no legal move but conceding in this state (not their turn, or the game is
    over)."""


def outcome_value(state: State, player: PlayerId) -> float | None:
    """A finished game's result for ``player``: 1 alone among the winners, 1/k sharing a win
    with k-1 others, 0 otherwise; None while the game goes on."""
    outcome = state.get("outcome")
    if state.get("status") != "finished" or not outcome:
        return None
    winners = outcome.get("winners") or []
    return 1.0 / len(winners) if player in winners else 0.0


def suggest(
    bot: GameBot,
    view: View,
    player: PlayerId,
    level: str,
    seed: int,
    time_ms: int,
    clock: Callable[[], float] = time.monotonic,
) -> Suggestion:
    """A legal move for ``player`` chosen at ``level`` from ``view`` (``game.view(state, player)``).

    Raises :class:`NoMoveToSuggest` when the player has nothing to do, ValueError for an unknown
    level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    deadline = clock() + time_ms / 1000.0
    rng = random.Random(seed)
    first = bot.determinize(view, rng)
    # A bot never concedes: a Reign Supreme player listed outside their own turn (ruling RS 10)
    # may have nothing else to do, and conceding is never the hint a player asks for.
    moves = [m for m in bot.game.legal_moves(first, player) if m["type"] != "concede"]
    if not moves:
        raise NoMoveToSuggest(player)
    if len(moves) == 1:
        return Suggestion(moves[0], level, 0, 1, True, "the only legal move")
    if level == "random":
        return Suggestion(rng.choice(moves), level, 0, len(moves), True, "a random legal move")
    if level == "greedy":
        return _greedy(bot, view, player, moves, first, rng, deadline, clock)
    return _expert(
        bot, view, player, moves, first, rng, deadline, clock, playouts_for(bot, time_ms)
    )


def playouts_for(bot: GameBot, time_ms: int) -> int:
    """The expert's deterministic budget for ``time_ms``: at least one playout per move."""
    return max(1, bot.playouts_per_second * time_ms // 1000)


def _after(bot: GameBot, state: State, move: Move, player: PlayerId) -> tuple[State, float]:
    """The state after ``move`` and its value for ``player``: the result once the game is over,
    else the evaluation."""
    after, _ = bot.game.apply(state, move)
    result = outcome_value(after, player)
    return after, bot.evaluate(after, player) if result is None else result


def _samples(
    draw: Callable[[View, random.Random], State],
    view: View,
    first: State,
    rng: random.Random,
    count: int,
) -> list[State]:
    return [first] + [draw(view, rng) for _ in range(count - 1)]


def _one_ahead(
    bot: GameBot,
    player: PlayerId,
    moves: list[Move],
    samples: list[State],
    deadline: float,
    clock: Callable[[], float],
) -> tuple[list[float], bool]:
    """Each move's mean value one move ahead over ``samples``, in move order; the list is cut
    short (and the flag false) when the deadline passes."""
    values: list[float] = []
    for move in moves:
        if values and clock() > deadline:
            return values, False
        values.append(
            sum(_after(bot, sample, move, player)[1] for sample in samples) / len(samples)
        )
    return values, True


def _greedy(
    bot: GameBot,
    view: View,
    player: PlayerId,
    moves: list[Move],
    first: State,
    rng: random.Random,
    deadline: float,
    clock: Callable[[], float],
) -> Suggestion:
    samples = _samples(bot.determinize, view, first, rng, bot.greedy_samples)
    values, complete = _one_ahead(bot, player, moves, samples, deadline, clock)
    best_value = max(values)
    best = [i for i, v in enumerate(values) if v >= best_value - 1e-12]
    move = moves[rng.choice(best)]
    return Suggestion(
        move,
        "greedy",
        len(values) * len(samples),
        len(moves),
        complete,
        f"the best position one move ahead (evaluation {best_value:.2f})",
    )


def _rollout_move(bot: GameBot, state: State, moves: list[Move], rng: random.Random) -> State:
    """The next state of a rollout: with probability ``bot.rollout_greed`` the mover's best move
    one move ahead by the evaluation (the greedy level's choice; ties: the first), else a random
    one."""
    game = bot.game
    if len(moves) == 1 or rng.random() >= bot.rollout_greed:
        return game.apply(state, rng.choice(moves))[0]
    best_state, best_value = state, -math.inf
    for move in moves:
        after, value = _after(bot, state, move, move["player"])
        if value > best_value:
            best_state, best_value = after, value
    return best_state


def _rollout(bot: GameBot, state: State, player: PlayerId, rng: random.Random) -> float:
    game = bot.game
    start, stop = state, getattr(bot, "rollout_stop", None)
    for _ in range(bot.rollout_depth):
        result = outcome_value(state, player)
        if result is not None:
            return result
        if stop is not None and stop(start, state):
            break
        moves = game.legal_moves(state)
        if not moves:
            break
        playable = [m for m in moves if m.get("type") != "concede"] or moves
        state = _rollout_move(bot, state, playable, rng)
    result = outcome_value(state, player)
    return bot.evaluate(state, player) if result is None else result


def _expert(
    bot: GameBot,
    view: View,
    player: PlayerId,
    moves: list[Move],
    first: State,
    rng: random.Random,
    deadline: float,
    clock: Callable[[], float],
    budget: int,
) -> Suggestion:
    game = bot.game
    considered = len(moves)
    imagine = getattr(bot, "imagine", None)
    if imagine is None:
        imagine = bot.determinize
    else:
        first = imagine(view, rng)
    values, complete = _one_ahead(
        bot, player, moves, _samples(imagine, view, first, rng, bot.greedy_samples), deadline, clock
    )
    ranked = sorted(range(len(values)), key=lambda i: (-values[i], i))
    kept = sorted(ranked[: getattr(bot, "expert_width", EXPERT_WIDTH)])
    moves = [moves[i] for i in kept]
    visits = [0] * len(moves)
    totals = [0.0] * len(moves)
    priors = [values[i] for i in kept]
    playouts = 0
    sample = first
    while playouts < budget:
        if playouts and clock() > deadline:
            complete = False
            break
        if playouts:
            sample = imagine(view, rng)
        i = _ucb_pick(visits, totals, priors, playouts)
        after, _ = game.apply(sample, moves[i])
        totals[i] += _rollout(bot, after, player, rng)
        visits[i] += 1
        playouts += 1
    best = max(
        range(len(moves)), key=lambda i: (visits[i], _mean(totals[i], visits[i], priors[i]), -i)
    )
    mean = totals[best] / visits[best] if visits[best] else 0.0
    return Suggestion(
        moves[best],
        "expert",
        playouts,
        considered,
        complete,
        f"chosen in {visits[best]} of {playouts} playouts, winning {mean:.0%} of them",
    )


def _ucb_pick(
    visits: Sequence[int], totals: Sequence[float], priors: Sequence[float], played: int
) -> int:
    """The untried move first (in legal-move order), else the highest UCB1 bound, each mean
    starting from the move's one-move-ahead value worth ``PRIOR_PLAYOUTS`` playouts."""
    for i, n in enumerate(visits):
        if n == 0:
            return i
    log_n = math.log(played)
    return max(
        range(len(visits)),
        key=lambda i: (
            _mean(totals[i], visits[i], priors[i]) + EXPLORATION * math.sqrt(log_n / visits[i])
        ),
    )


def _mean(total: float, visits: int, prior: float) -> float:
    """A candidate's mean value: its playouts' results and its one-move-ahead score counted as
    ``PRIOR_PLAYOUTS`` playouts."""
    return (total + PRIOR_PLAYOUTS * prior) / (visits + PRIOR_PLAYOUTS)
