"""Takebacks in a replay: the same verdicts as walking back over every version passed, at most one
barrier check per entry (``rules.records.horizon.LastBarriers``).

A takeback from version ``v`` to ``to`` is refused when a barrier lies in ``to + 1 .. v - 1``,
naming the highest. The replay once walked back over those versions for every takeback, so a
record of n takebacks to version 0 cost n²/2 barrier checks (a 1 MB record: seconds). The
verdicts are compared with that walk, kept here as the reference, on fixed cases and on seeded
random records of the four games; the work is counted in calls of ``barrier``, not timed.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules.engine import Game
from rules.playout import choose_move
from rules.records import (
    TAKEBACK,
    Checks,
    NotReplayable,
    barrier,
    horizon,
    make_entry,
    make_record,
    replay,
    replay_states,
    takeback_entry,
)
from rules.registry import get_game
from tests.records.games import AT, GAME_IDS, PLAYERS, consent, fairness

# the modules themselves (the package exports functions of the same names)
horizon_module = importlib.import_module("rules.records.horizon")
replay_module = importlib.import_module("rules.records.replay")

SUPREME = "reign-supreme"
_STEP = replay_module.step  # the step under test, kept before any test patches it


def _walking_step(
    done: Sequence[Mapping[str, Any]],
    game: Game,
    states: Sequence[dict[str, Any]],
    entry: Mapping[str, Any],
    checks: Checks,
    **kept: Any,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The reference: ``step`` as it was, a takeback walking back over every version it passes
    and checking each for a barrier (``done[v - 1]``, the record's entries, made version ``v``);
    any other entry as ``step`` does it now."""
    version = len(states)
    if entry.get("by") == TAKEBACK:
        to = (entry.get("takeback") or {}).get("to_version")
        if type(to) is not int or not 0 <= to < version - 1:
            raise NotReplayable(version, f"A takeback must go to an earlier version, not {to!r}.")
        for back in range(version - 1, to, -1):
            reason = barrier(game, states[back - 1], states[back], done[back - 1])
            if reason is not None:
                raise NotReplayable(
                    version,
                    f"The takeback to version {to} goes back past version {back} ({reason}): "
                    "past the information horizon.",
                )
        return states[to], []
    return _STEP(game, states, entry, checks, **kept)


def _reference_replay(
    monkeypatch: pytest.MonkeyPatch, game: Game, record: dict[str, Any]
) -> replay_module.Difference | None:
    """``replay`` with the walking step in place of ``step``."""
    with monkeypatch.context() as patch:
        patch.setattr(replay_module, "step", functools.partial(_walking_step, record["entries"]))
        return replay(game, record)


def _record(game_id: str, start: dict[str, Any], entries: list[dict[str, Any]], seed: int):
    return make_record(
        get_game(game_id),
        players=PLAYERS[game_id],
        options={},
        fairness=fairness(seed),
        start=start,
        entries=entries,
        viewer=None,
        whole=True,
    )


def _with_takebacks(game_id: str, seed: int, entries_wanted: int, wild: float) -> dict[str, Any]:
    """A seeded random record: random legal moves with random takebacks among them (chains of
    them too). A takeback goes back within the horizon, except at the rate ``wild`` (then to any
    version: perhaps past a barrier, and one time in five to no earlier version at all); a
    replay stops at the first that is refused."""
    game = get_game(game_id)
    rng = random.Random(seed)
    states = [game.setup(PLAYERS[game_id], seed, {})]
    entries: list[dict[str, Any]] = []
    while len(entries) < entries_wanted:
        version = len(entries) + 1
        state = states[-1]
        if version > 2 and rng.random() < 0.3:
            earliest, _ = horizon(game, states, entries)
            pick = rng.random()
            if pick < wild / 5:
                to = version - 1  # not an earlier version
            elif pick < wild:
                to = rng.randrange(version - 1)  # anywhere: perhaps past a barrier
            elif earliest <= version - 2:
                to = rng.randint(earliest, version - 2)  # within the horizon
            else:
                continue  # no room within the horizon: draw again
            seat = rng.choice(PLAYERS[game_id])
            back_to = states[to] if to < version - 1 else state
            accepted = consent(game_id, seat, entries[to:])
            entries.append(takeback_entry(version, seat, to, f"t{version}", accepted, AT, back_to))
            states.append(back_to)
            continue
        if state["status"] == "finished":
            break
        move = choose_move(game.legal_moves(state), rng, concede=0.0)
        state, events = game.apply(state, move)
        entries.append(make_entry(version, move["player"], move, events, AT, state))
        states.append(state)
    return _record(game_id, states[0], entries, seed)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_records_with_takebacks_have_the_walks_verdicts(game_id, monkeypatch):
    game = get_game(game_id)
    refused = 0
    for seed in range(1, 13):
        wild = 0.0 if seed % 2 else 0.3  # every other record has only takebacks allowed
        record = _with_takebacks(game_id, seed, 70, wild)
        expected = _reference_replay(monkeypatch, game, record)
        assert replay(game, record) == expected, (game_id, seed)
        if wild == 0.0:
            assert expected is None, (game_id, seed, expected)
        else:
            refused += expected is not None and "takeback" in expected.detail
    assert refused >= 3  # refusals were really compared


def _supreme_line(moves: int = 20) -> tuple[Game, int, list[dict], list[dict], list[int]]:
    """A random Reign Supreme game (no takebacks) whose first move is no barrier, with at least
    two barriers and a version above the last that is none: its game, seed, states, entries and
    barrier versions."""
    game = get_game(SUPREME)
    for seed in range(1, 80):
        rng = random.Random(seed)
        states = [game.setup(PLAYERS[SUPREME], seed, {})]
        entries = []
        while len(entries) < moves:
            move = choose_move(game.legal_moves(states[-1]), rng, concede=0.0)
            state, events = game.apply(states[-1], move)
            entries.append(make_entry(len(entries) + 1, move["player"], move, events, AT, state))
            states.append(state)
        barriers = [
            e["version"]
            for e in entries
            if barrier(game, states[e["version"] - 1], states[e["version"]], e) is not None
        ]
        if len(barriers) >= 2 and barriers[0] > 1 and barriers[-1] < moves - 1:
            return game, seed, states, entries, barriers
    raise AssertionError("no Reign Supreme line with two barriers and room after them")


def _takebacks_after(line, *targets: int) -> dict[str, Any]:
    """The record of ``line`` followed by takebacks to ``targets``, in turn."""
    game, seed, states, entries, _ = line
    entries = list(entries)
    for to in targets:
        version = len(entries) + 1
        accepted = consent(SUPREME, "ann", entries[to:])
        entries.append(takeback_entry(version, "ann", to, f"t{version}", accepted, AT, states[to]))
    return _record(SUPREME, states[0], entries, seed)


@pytest.fixture(scope="module")
def line():
    return _supreme_line()


def test_a_takeback_not_across_a_barrier_replays(line, monkeypatch):
    game, *_, barriers = line
    record = _takebacks_after(line, barriers[-1])
    assert replay(game, record) is None
    assert _reference_replay(monkeypatch, game, record) is None


def test_a_takeback_across_barriers_names_the_highest_passed(line, monkeypatch):
    game, _, states, entries, barriers = line
    record = _takebacks_after(line, barriers[0] - 1)  # passes every barrier
    back = barriers[-1]
    reason = barrier(game, states[back - 1], states[back], entries[back - 1])
    detail = (
        f"The takeback to version {barriers[0] - 1} goes back past version {back} ({reason}): "
        "past the information horizon."
    )
    version = len(entries) + 1
    assert replay(game, record) == replay_module.Difference(version, detail)
    assert _reference_replay(monkeypatch, game, record) == replay_module.Difference(version, detail)


def test_a_chain_of_takebacks_passes_the_takebacks_and_stops_at_a_barrier(line, monkeypatch):
    game, _, _, entries, barriers = line
    # back to the last barrier, again from there (over the first takeback), then past it
    record = _takebacks_after(line, barriers[-1], barriers[-1], barriers[-1] - 1)
    difference = replay(game, record)
    assert difference == _reference_replay(monkeypatch, game, record)
    assert difference.version == len(entries) + 3
    assert f"goes back past version {barriers[-1]} (" in difference.detail


def test_takebacks_to_version_0_and_to_no_earlier_version(line, monkeypatch):
    game, seed, states, entries, _ = line  # its first move is no barrier
    start = states[0]
    accepted = consent(SUPREME, "ann", entries[:1])
    takebacks = [takeback_entry(v, "ann", 0, f"t{v}", accepted, AT, start) for v in range(2, 12)]
    assert replay(game, _record(SUPREME, start, entries[:1] + takebacks, seed)) is None
    takebacks.append(takeback_entry(12, "ann", 11, "t12", accepted, AT, start))
    record = _record(SUPREME, start, entries[:1] + takebacks, seed)
    detail = "A takeback must go to an earlier version, not 11."
    assert replay(game, record) == replay_module.Difference(12, detail)
    assert _reference_replay(monkeypatch, game, record) == replay_module.Difference(12, detail)


# -- the work: barrier checks counted --------------------------------------------------------
@pytest.fixture
def barrier_calls(monkeypatch) -> list[int]:
    """Counts the barrier checks of the replay (one element per call), wherever in
    ``rules.records`` they are made from."""
    calls: list[int] = []

    def counted(*args: Any) -> str | None:
        calls.append(1)
        return barrier(*args)

    for module in (horizon_module, replay_module):
        if hasattr(module, "barrier"):
            monkeypatch.setattr(module, "barrier", counted)
    return calls


@pytest.mark.parametrize("takebacks", [10, 400])
def test_takebacks_to_version_0_check_each_version_once(line, barrier_calls, takebacks):
    """The auditor's record, smaller: a move and then takebacks, each back to version 0 (the
    walk made n²/2 checks: 80,000 for 400)."""
    game, _, states, entries, barriers = line
    first = barriers[0] - 1  # versions 0 .. first have no barrier
    moves = entries[:first]
    accepted = consent(SUPREME, "ann", moves)  # each takeback passes the moves and the takebacks
    record = _record(
        SUPREME,
        states[0],
        moves
        + [
            takeback_entry(v, "ann", 0, f"t{v}", accepted, AT, states[0])
            for v in range(first + 1, first + 1 + takebacks)
        ],
        line[1],
    )
    assert replay(game, record) is None
    assert len(barrier_calls) <= len(record["entries"])


def test_a_session_of_takebacks_checks_each_version_once(line, barrier_calls):
    """A session's earlier states (``api.records``: forks, takeback proposals) are replayed by
    ``replay_states``: its takebacks cost the same, one check per entry at most."""
    game, _, states, entries, barriers = line
    history = list(entries)
    for _ in range(300):
        version = len(history) + 1
        accepted = consent(SUPREME, "ann", history[barriers[-1] :])
        history.append(takeback_entry(version, "ann", barriers[-1], "t", accepted, AT, states[0]))
    replayed = [state for state, _ in replay_states(game, states[0], history)]
    assert replayed[-1] is replayed[barriers[-1] - 1]
    assert len(barrier_calls) <= len(history)


def test_a_record_without_takebacks_checks_no_barrier(line, barrier_calls):
    game, seed, states, entries, _ = line
    assert replay(game, _record(SUPREME, states[0], entries, seed)) is None
    assert barrier_calls == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_records_check_each_version_once(game_id, barrier_calls):
    game = get_game(game_id)
    for seed in range(1, 5):
        record = _with_takebacks(game_id, seed, 120, wild=0.1)
        barrier_calls.clear()  # the record's making checked barriers too
        replay(game, record)
        assert len(barrier_calls) <= len(record["entries"])


# -- the digests: a state a takeback or a pause returns is digested once ----------------------
@pytest.fixture
def digests(monkeypatch) -> list[int]:
    """Counts the state digests of the replay (one element per call)."""
    calls: list[int] = []
    digest = replay_module.state_digest

    def counted(state: dict[str, Any]) -> str:
        calls.append(1)
        return digest(state)

    monkeypatch.setattr(replay_module, "state_digest", counted)
    return calls


def test_takebacks_and_pauses_digest_no_state_again(line, digests):
    """Their states are earlier versions' very objects: a record of a move, 200 takebacks to
    version 0 and 200 pauses (barriers: the takebacks go first) digests two states (versions 0
    and 1), not 402; each entry's digest is still compared."""
    game, seed, states, entries, _ = line
    waited = game.waiting_on(states[0])[0]  # a clock runs out only for a seat waited on
    pause = {"player": waited, "type": "timeout"}
    accepted = consent(SUPREME, "ann", entries[:1])
    record_entries = (
        entries[:1]
        + [takeback_entry(v, "ann", 0, f"t{v}", accepted, AT, states[0]) for v in range(2, 202)]
        + [make_entry(v, waited, pause, [], AT, states[0], by="clock") for v in range(202, 402)]
    )
    record = _record(SUPREME, states[0], record_entries, seed)
    assert replay(game, record) is None
    assert len(digests) == 2
    record["entries"][300]["state_digest"] = record["entries"][0]["state_digest"]  # version 1's
    difference = replay(game, record)
    assert difference.version == 301 and "state_digest" in difference.detail


# -- a pause: the clock's move for a seat the game waits on ---------------------------------------
def test_a_pause_replays_only_for_a_seat_the_game_waits_on(line):
    """A pause is the clock's move for a seat whose time ran out, and a clock runs only for the
    seats the game waits on (``api.clock_keeper``): a record whose pause names another seat, or
    carries more than the clock's move, does not replay."""
    game, seed, states, entries, _ = line
    waited = game.waiting_on(states[1])
    other = next(p for p in states[1]["players"] if p not in waited)

    def with_pause(seat: str, **more: Any) -> dict[str, Any]:
        pause = {"player": seat, "type": "timeout", **more}
        entry = make_entry(2, seat, pause, [], AT, states[1], by="clock")
        return _record(SUPREME, states[0], [entries[0], entry], seed)

    assert replay(game, with_pause(waited[0])) is None
    difference = replay(game, with_pause(other))
    assert difference is not None and difference.version == 2
    assert f'paused for "{other}", whom the game did not wait on' in difference.detail
    difference = replay(game, with_pause(waited[0], unit="u1"))
    assert difference is not None and difference.version == 2
    assert "A pause is the clock's move" in difference.detail
