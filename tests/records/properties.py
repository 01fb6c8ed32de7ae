"""The property of issue 26: random takebacks and forks across the four games never let a seat
see anything it had not seen before (pure, at the rules level; ``test_records_property.py`` runs
a few thousand, ``bench/records.py --property 100000`` the full count).

A sample is a game, a random line of it, a current version ``n`` and then

- a **takeback** to a random earlier version ``to``. The horizon (``rules.records.barrier``)
  must refuse it exactly when a barrier lies in ``(to, n]``. An allowed one restores
  ``states[to]``, whose view each seat has seen (it was at ``to``); and, checked independently
  of the horizon's own reasons, each seat that saw every move of ``(to, n]`` whole learnt nothing
  in between: replaying those moves on a state drawn afresh from its view at ``to`` gives it the
  same view at ``n`` as the true game (anything hidden that had shown itself would differ);
- a **fork** as a random seat at a random version ``v <= n`` of the running game: the fork shows
  that seat exactly its view at ``v``, and the fork is the same whatever the hidden truth behind
  that view (drawn afresh, with the same generator), so no view of the fork says anything about
  the true hidden cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rules.bots import BOTS
from rules.records import barrier, fork_state
from rules.records.digest import canonical
from rules.registry import get_game
from tests.records.games import GAME_IDS, PLAYERS, play

REFUSED = "refused"
"""A fork the game's determinizer refused (``POST /fork`` answers 422 ``fork_unavailable``)."""


@dataclass
class Line:
    """One random game: its states, entries, each seat's view digests and its barriers."""

    game_id: str
    seed: int
    states: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    views: list[dict[str | None, bytes]] = field(default_factory=list)
    earliest: list[int] = field(default_factory=list)
    """``earliest[n]``: the first version a takeback at version ``n`` may return to."""


def line(game_id: str, seed: int, moves: int) -> Line:
    game = get_game(game_id)
    states, entries = play(game_id, seed, moves)
    out = Line(game_id, seed, states, entries)
    viewers: list[str | None] = [*PLAYERS[game_id], None]
    out.views = [{p: canonical(game.view(s, p)) for p in viewers} for s in states]
    out.earliest = [0]
    for entry in entries:
        v = entry["version"]
        barred = barrier(game, states[v - 1], states[v], entry) is not None
        out.earliest.append(v if barred else out.earliest[-1])
    return out


def lines(per_game: int = 2, moves: int = 80) -> list[Line]:
    return [line(g, seed, moves) for g in GAME_IDS for seed in range(1, per_game + 1)]


def _takeback(ln: Line, n: int, to: int, rng: random.Random) -> str | None:
    game = get_game(ln.game_id)
    allowed = to >= ln.earliest[n]
    if not allowed:
        return None  # refused: nothing changes
    for p in PLAYERS[ln.game_id]:
        seen = {ln.views[u][p] for u in range(n + 1)}
        if canonical(game.view(ln.states[to], p)) not in seen:
            return f"{p} sees a view it never saw after a takeback {n} -> {to}"
        undone = ln.entries[to:n]
        if any(game.view_move(e["move"], p) != e["move"] for e in undone):
            continue  # some move of (to, n] was not shown to p whole: nothing to replay
        state = BOTS[ln.game_id].determinize(game.view(ln.states[to], p), rng)
        try:
            for e in undone:
                state, _ = game.apply(state, e["move"])
        except Exception as err:  # the legality of a move depended on what p could not see
            return f"{ln.game_id}: {p} could tell {n} -> {to} from its view ({err})"
        if canonical(game.view(state, p)) != ln.views[n][p]:
            return f"{ln.game_id}: {p} learnt something hidden in ({to}, {n}] yet may go back"
    return None


def _fork(ln: Line, v: int, seat: str, rng: random.Random) -> str | None:
    game = get_game(ln.game_id)
    truth = ln.states[v]
    view = canonical(game.view(truth, seat))
    seed = rng.getrandbits(64)
    try:
        forked = fork_state(game, truth, seat, random.Random(seed))
    except ValueError:  # the determinizer refuses the view: the API answers 422, no fork
        return REFUSED
    if canonical(game.view(forked, seat)) != view:
        return f"{ln.game_id}: the fork shows {seat} another view than at {v}"
    other_truth = BOTS[ln.game_id].determinize(game.view(truth, seat), rng)
    if fork_state(game, other_truth, seat, random.Random(seed)) != forked:
        return f"{ln.game_id}: the fork as {seat} at {v} depends on the hidden truth"
    return None


def check(
    samples: int, seed: int = 0, pool: list[Line] | None = None
) -> tuple[int, int, list[str], list[str]]:
    """Run ``samples`` random takebacks and forks (half each); the takebacks that were allowed,
    the forks made, every failure, and where a fork was refused."""
    pool = pool if pool is not None else lines()
    rng = random.Random(seed)
    failures: list[str] = []
    refused: list[str] = []
    allowed = forks = 0
    for i in range(samples):
        ln = rng.choice(pool)
        n = rng.randrange(1, len(ln.entries) + 1)
        if i % 2 == 0:
            # takebacks are mostly short: half go back one to four versions, half anywhere
            back = rng.randint(1, min(4, n)) if rng.random() < 0.5 else rng.randint(1, n)
            to = n - back
            failure = _takeback(ln, n, to, rng)
            allowed += to >= ln.earliest[n]
        else:
            if ln.states[n]["status"] == "finished":
                continue
            v = rng.randrange(0, n + 1)
            seat = rng.choice(PLAYERS[ln.game_id])
            failure = _fork(ln, v, seat, rng)
            forks += 1
            if failure == REFUSED:
                refused.append(f"{ln.game_id} seed {ln.seed} version {v} as {seat}")
                continue
        if failure is not None:
            failures.append(failure)
    return allowed, forks, failures, refused
