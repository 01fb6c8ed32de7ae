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
- ``expert``: the greedy move, left only on evidence from a determinized Monte Carlo search
  ("perfect information Monte Carlo"). It first makes the greedy level's own choice (the same
  imagined states and generator, so with no time to search it plays exactly greedy's move).
  Then, budget permitting, it searches the greedy move and the next best ``width - 1`` moves
  one move ahead (at most ``EXPERT_WIDTH``, or the game's ``expert_width``, and only as many as
  get ``MIN_ROUNDS`` playouts each, :func:`search_width`) in *rounds*: each round imagines one
  new state and plays every candidate still in the race from it, each playout's rollout with
  the same generator seed (common random numbers), so a challenger's result minus the greedy
  move's is a *paired difference* from which the hidden cards and the dice mostly cancel out. A
  challenger whose differences' upper confidence bound falls below 0 drops out. The expert plays
  a challenger only when, after at least ``MIN_ROUNDS`` rounds, the lower confidence bound of its
  mean difference (``SWITCH_Z`` standard errors, variance floored at ``VARIANCE_FLOOR``) is above
  0; among several, the highest mean; else the greedy move (:func:`challenger`). A playout plays
  on for at most ``rollout_depth`` moves (never ``concede``) and scores the result (1 win, 1/k
  shared win, 0 loss; the evaluation when the rollout is cut short). A rollout move is the
  mover's best one move ahead by the evaluation with probability ``rollout_greed``, else a
  random one: uniformly random opponents punish nothing. A game may cut its rollouts earlier at
  a break of its own (``rollout_stop``) and imagine the unseen with a model of the other players
  (``imagine``, the search's states; the greedy pass keeps ``determinize``); see
  :class:`GameBot`.

  Why this rule: a search too short to tell the candidates apart used to pick among them
  nearly at random (the Reign Absolute expert at 100 ms lost to greedy's level of play). Now
  the greedy move is the null hypothesis; a false switch needs a challenger to look better by
  ``SWITCH_Z`` standard errors (one-sided 0.6%, under 5% across 7 challengers), and a short
  budget simply means no switch, so the expert is greedy at worst (up to its rollouts' bias).

Reproducibility: the search budget is a playout count, ``playouts_for(time_ms, trials)``: what
is left of ``SEARCH_SHARE`` of ``time_ms`` once the greedy pass's trials are paid for, at fixed
rates per game (``trials_per_second``, ``playouts_per_second``, calibrated on a busy two-core
machine), not the wall clock, so the same
request gives the same move on any machine. ``time_ms`` is also an upper bound: on a machine
too slow to finish the budget in time, or in a state whose playouts cost far more than the
rates assume, the search stops early (:class:`_Pace`; a playout the deadline passes in is
abandoned), answers with what it has, and says so (``complete: false``); only such answers can
differ between runs.
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
SEARCH_SHARE = 0.8
"""The share of ``time_ms`` the budget plans to use (greedy pass and search); the rest is left
for what the budget does not count (imagining the first state, listing the legal moves) and for
a machine slower than the calibration."""
MIN_ROUNDS = 8
"""Paired playouts a challenger needs before it may replace the greedy move (or be dropped)."""
SWITCH_Z = 2.5
"""Standard errors by which a challenger's mean gain over the greedy move must clear 0: one-sided
0.6% per challenger, so under 5% for all 7 challengers of an 8-wide search together (Bonferroni)
when none is truly better."""
VARIANCE_FLOOR = 0.01
"""The least variance of a paired difference the test assumes (a standard deviation of 0.1), so
a few identical differences are not taken for certainty."""
WORK_SHARE = 0.9
"""The share of ``time_ms`` within which a bot's own work must end: the rest is for what it
does not see (the caller's view of the state, serializing the answer)."""


class _Pace:
    """The wall-clock limit of one answer: work stops before a step that would end past
    ``WORK_SHARE`` of ``time_ms``, the step's cost predicted from the steps so far.

    Why a prediction: checking only whether the deadline has passed lets the last step start
    just before it and end one step late; a Reign Supreme search playout costs up to a quarter
    of a second, a move of its greedy pass a millisecond with 45 of them. So each look at the
    clock also times the step since the previous look, and a step starts only if the longest
    one timed so far (since ``begin``; the first includes imagining the first state and listing
    the moves, so the guess errs early) still fits.

    A prediction can still be wrong: nothing predicts the first playout of a search (``begin``
    forgets the greedy pass's steps), and a playout can cost many times the ones before it (a
    rollout reaching a player with thousands of moves values every one of them at a greedy
    step: 282,000 in one Reign & Ruin playout, 13 s at ``time_ms`` 1000). So a playout also
    looks at the clock (:meth:`overdue`) before each unit of its work, one move applied and
    valued or one listing of the legal moves, and is abandoned once the deadline has passed:
    the work ends at most one unit late, whatever the state.
    """

    __slots__ = ("_clock", "_deadline", "_last", "_longest")

    def __init__(
        self, clock: Callable[[], float], time_ms: int, started: float | None = None
    ) -> None:
        self._clock = clock
        self._last = clock()
        since = self._last if started is None else started
        self._deadline = since + WORK_SHARE * time_ms / 1000.0
        self._longest = 0.0

    def begin(self) -> None:
        """A new kind of step follows (the search after the greedy pass): forget the old steps'
        length, keep the time of the last look."""
        self._longest = 0.0

    def room(self) -> bool:
        """Look at the clock: true when one more step like the longest so far ends in time."""
        now = self._clock()
        step = now - self._last
        if step > self._longest:  # false for a stub clock's nan or -inf steps
            self._longest = step
        self._last = now
        return not now + self._longest > self._deadline

    def overdue(self) -> bool:
        """Look at the clock inside a step: true once the deadline has passed. It times no step,
        so the step's own length (a whole playout) is what :meth:`room` predicts from."""
        return self._clock() > self._deadline  # false for a stub clock's nan or -inf


class _OutOfTime(Exception):
    """The deadline passed in the middle of a playout (:func:`_keep_to`): the playout is
    abandoned, its round dropped, and the search answers with the rounds it finished."""


def _keep_to(pace: _Pace | None) -> None:
    """Raise :class:`_OutOfTime` when ``pace``'s deadline has passed (None: no deadline, as for
    the benchmarks' playouts). Called before each unit of a playout's work."""
    if pace is not None and pace.overdue():
        raise _OutOfTime


class GameBot(Protocol):
    """What the core needs from one game: ``rules/bots/<game>.py`` implements it."""

    @property
    def game(self) -> Game:
        """The game the bot plays (read-only, so a bot's own Game subclass fits)."""
        ...

    playouts_per_second: int
    """Expert search playouts per second of ``time_ms`` (the deterministic budget)."""
    trials_per_second: int
    """One-move-ahead trials (a move applied and evaluated) per second: the greedy pass's cost,
    which the expert's budget counts."""
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
    # ``refuses(state: State) -> str | None``, why the bot cannot play a game whose true state is
    # ``state`` (content it does not know), read by :func:`refusal`;
    # ``expert_width: int``, the game's own EXPERT_WIDTH;
    # ``rollout_stop(start: State, state: State) -> bool``, true when a rollout that began at
    # ``start`` should stop at ``state`` (before ``rollout_depth`` moves) and be scored by the
    # evaluation, e.g. at a natural break of the game where the evaluation is reliable;
    # ``rollout_greed_at(state: State) -> float``, ``rollout_greed`` state by state, so that a
    # rollout can be greedy only where it matters and is cheap (the Council's Monarch); and
    # ``imagine(view: View, rng: random.Random) -> State``, the expert's determinization in
    # place of ``determinize``: one that also draws the others' hidden choices as players
    # pursuing their own aims would make them, from the view and ``rng`` only.


def refusal(bot: GameBot, state: State) -> str | None:
    """Why ``bot`` cannot play the game whose true state is ``state`` (its ``refuses``), None
    when it can. Asked wherever the true state is at hand before a bot sits, suggests or a fork
    draws from a view: a view may not show what the bot does not know."""
    refuses = getattr(bot, "refuses", None)
    return None if refuses is None else refuses(state)


@dataclass(frozen=True, slots=True)
class Suggestion:
    move: Move
    level: str
    playouts: int
    """Determinized games the bot looked at (greedy: move trials; expert: search playouts;
    random: 0)."""
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
    started: float | None = None,
) -> Suggestion:
    """A legal move for ``player`` chosen at ``level`` from ``view`` (``game.view(state, player)``).

    ``time_ms`` counts from ``started``, a reading of ``clock`` (the arrival of the request the
    answer is for: reading and checking it spent part of ``time_ms`` already), else from now.

    Raises :class:`NoMoveToSuggest` when the player has nothing to do, ValueError for an unknown
    level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    pace = _Pace(clock, time_ms, started)
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
        return _greedy(bot, view, player, moves, first, rng, pace)
    return _expert(bot, view, player, moves, first, rng, pace, time_ms)


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
    pace: _Pace,
) -> tuple[list[float], bool]:
    """Each move's mean value one move ahead over ``samples``, in move order; the list is cut
    short (and the flag false) when the next move would not end in time (``pace``); the first
    move is always tried, so there is an answer."""
    values: list[float] = []
    for move in moves:
        if values and not pace.room():
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
    pace: _Pace,
) -> Suggestion:
    samples = _samples(bot.determinize, view, first, rng, bot.greedy_samples)
    values, complete = _one_ahead(bot, player, moves, samples, pace)
    best_value = max(values)
    move = moves[_greedy_pick(values, rng)]
    return Suggestion(
        move,
        "greedy",
        len(values) * len(samples),
        len(moves),
        complete,
        f"the best position one move ahead (evaluation {best_value:.2f})",
    )


def _rollout_move(
    bot: GameBot,
    state: State,
    moves: list[Move],
    rng: random.Random,
    pace: _Pace | None = None,
) -> State:
    """The next state of a rollout: with probability ``bot.rollout_greed`` the mover's best move
    one move ahead by the evaluation (the greedy level's choice; ties: the first), else a random
    one; a game's ``rollout_greed_at(state)``, when it has one, sets that probability state by
    state. The greedy choice looks at ``pace`` before valuing each move (:func:`_keep_to`): one
    step may have thousands of moves to value."""
    game = bot.game
    greed_at = getattr(bot, "rollout_greed_at", None)
    greed = bot.rollout_greed if greed_at is None else greed_at(state)
    if len(moves) == 1 or rng.random() >= greed:
        return game.apply(state, rng.choice(moves))[0]
    best_state, best_value = state, -math.inf
    for move in moves:
        _keep_to(pace)
        after, value = _after(bot, state, move, move["player"])
        if value > best_value:
            best_state, best_value = after, value
    return best_state


def _rollout(
    bot: GameBot,
    state: State,
    player: PlayerId,
    rng: random.Random,
    pace: _Pace | None = None,
) -> float:
    """Play on from ``state`` (the module doc) and score the result for ``player``; raises
    :class:`_OutOfTime` when ``pace``'s deadline passes, looked at before each step (listing
    the moves), each move valued and the final evaluation."""
    game = bot.game
    start, stop = state, getattr(bot, "rollout_stop", None)
    for _ in range(bot.rollout_depth):
        result = outcome_value(state, player)
        if result is not None:
            return result
        if stop is not None and stop(start, state):
            break
        _keep_to(pace)
        moves = game.legal_moves(state)
        if not moves:
            break
        playable = [m for m in moves if m.get("type") != "concede"] or moves
        state = _rollout_move(bot, state, playable, rng, pace)
    result = outcome_value(state, player)
    if result is not None:
        return result
    _keep_to(pace)
    return bot.evaluate(state, player)


def playouts_for(bot: GameBot, time_ms: int, trials: int = 0) -> int:
    """The expert's deterministic search budget for ``time_ms``: the playouts that fit in
    ``SEARCH_SHARE`` of it once the greedy pass's ``trials`` one-move-ahead trials are paid for
    (at ``bot.trials_per_second``), at ``bot.playouts_per_second``; never below 0."""
    left_ms = SEARCH_SHARE * time_ms - 1000.0 * trials / bot.trials_per_second
    return max(0, int(left_ms * bot.playouts_per_second // 1000))


def search_width(bot: GameBot, budget: int, moves: int) -> int:
    """How many candidates (the greedy move included) the expert searches with ``budget``
    playouts: at most the game's width, and only as many as get ``MIN_ROUNDS`` playouts each;
    below 2 there is no search and the greedy move is played."""
    width = min(getattr(bot, "expert_width", EXPERT_WIDTH), moves, budget // MIN_ROUNDS)
    return width if width >= 2 else 0


def mean_and_margin(diffs: Sequence[float]) -> tuple[float, float]:
    """The mean of paired differences and its one-sided confidence margin: ``SWITCH_Z``
    standard errors (sample variance, floored at ``VARIANCE_FLOOR``)."""
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, SWITCH_Z * math.sqrt(max(var, VARIANCE_FLOOR) / n)


def lower_bound(diffs: Sequence[float]) -> float:
    """The lower confidence bound of the mean of paired differences."""
    mean, margin = mean_and_margin(diffs)
    return mean - margin


def upper_bound(diffs: Sequence[float]) -> float:
    """The upper confidence bound of the mean of paired differences."""
    mean, margin = mean_and_margin(diffs)
    return mean + margin


def challenger(diffs: Sequence[Sequence[float]]) -> int | None:
    """The candidate to play instead of the greedy move, from each challenger's paired
    differences (its playout result minus the greedy move's, same imagined state and rollout
    seed): among those with at least ``MIN_ROUNDS`` of them whose lower bound is above 0, the
    highest mean (ties: the first); None when no challenger has that evidence."""
    best, best_mean = None, 0.0
    for i, d in enumerate(diffs):
        if len(d) < MIN_ROUNDS or lower_bound(d) <= 0:
            continue
        mean = sum(d) / len(d)
        if best is None or mean > best_mean:
            best, best_mean = i, mean
    return best


def _expert(
    bot: GameBot,
    view: View,
    player: PlayerId,
    moves: list[Move],
    first: State,
    rng: random.Random,
    pace: _Pace,
    time_ms: int,
) -> Suggestion:
    samples = _samples(bot.determinize, view, first, rng, bot.greedy_samples)
    values, complete = _one_ahead(bot, player, moves, samples, pace)
    g = _greedy_pick(values, rng)
    budget = playouts_for(bot, time_ms, len(moves) * len(samples)) if complete else 0
    width = search_width(bot, budget, len(values))
    if not width:
        return Suggestion(
            moves[g], "expert", 0, len(moves), complete, "the greedy move (no time to search)"
        )
    ranked = sorted((i for i in range(len(values)) if i != g), key=lambda i: (-values[i], i))
    others = [moves[i] for i in ranked[: width - 1]]
    diffs, playouts, complete = _search(bot, view, player, moves[g], others, rng, budget, pace)
    pick = challenger(diffs)
    if pick is None:
        return Suggestion(
            moves[g],
            "expert",
            playouts,
            len(moves),
            complete,
            f"the greedy move: no other beat it in {playouts} paired playouts",
        )
    gain = sum(diffs[pick]) / len(diffs[pick])
    return Suggestion(
        others[pick],
        "expert",
        playouts,
        len(moves),
        complete,
        f"beat the greedy move by {gain:.2f} over {len(diffs[pick])} paired playouts",
    )


def _search(
    bot: GameBot,
    view: View,
    player: PlayerId,
    greedy_move: Move,
    others: list[Move],
    rng: random.Random,
    budget: int,
    pace: _Pace,
) -> tuple[list[list[float]], int, bool]:
    """Rounds of paired playouts (see the module doc) within ``budget`` playouts: each
    challenger's differences from the greedy move, the playouts made, and false when the
    clock cut the search (``pace``: the next playout would not end in time, or the deadline
    passed during one, which is then abandoned; an unfinished round is dropped)."""
    pace.begin()
    imagine = getattr(bot, "imagine", None) or bot.determinize
    diffs: list[list[float]] = [[] for _ in others]
    alive = list(range(len(others)))
    playouts = 0
    while alive and playouts + 1 + len(alive) <= budget:
        if not pace.room():
            return diffs, playouts, False
        sample, seed = imagine(view, rng), rng.getrandbits(64)
        try:
            base = _playout(bot, sample, greedy_move, player, seed, pace)
            results = []
            for i in alive:
                if not pace.room():
                    return diffs, playouts, False
                results.append(_playout(bot, sample, others[i], player, seed, pace) - base)
        except _OutOfTime:
            return diffs, playouts, False
        playouts += 1 + len(alive)
        for i, d in zip(alive, results, strict=True):
            diffs[i].append(d)
        alive = [i for i in alive if len(diffs[i]) < MIN_ROUNDS or upper_bound(diffs[i]) >= 0]
    return diffs, playouts, True


def _playout(
    bot: GameBot,
    sample: State,
    move: Move,
    player: PlayerId,
    seed: int,
    pace: _Pace | None = None,
) -> float:
    """One playout: ``move`` on the imagined ``sample``, then a rollout with its own generator
    seeded ``seed`` (the same for every candidate of a round: common random numbers); raises
    :class:`_OutOfTime` when ``pace``'s deadline passes during it."""
    after, _ = bot.game.apply(sample, move)
    return _rollout(bot, after, player, random.Random(seed), pace)


def _greedy_pick(values: Sequence[float], rng: random.Random) -> int:
    """The index of the best value (ties: a random one of them, drawn with ``rng``)."""
    best_value = max(values)
    return rng.choice([i for i, v in enumerate(values) if v >= best_value - 1e-12])
