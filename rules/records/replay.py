"""Replay a record from its start and answer the first version that differs (issue 26).

The one replay of the service: ``POST /v1/games/{game}/replay``, ``reign-referee verify FILE``,
the seeded corpus of ``tests/records/`` and the sessions' takebacks and forks (the state at an
earlier version) all step through :func:`step`.

A record replays when its seed is revealed and matches the commitment (``fairness``), the start
(setup with ``players``, ``options`` and the seed, or a fork's ``start``) has ``start_digest``,
and each entry, in order, is version ``v`` = its place, applies (``Game.apply``, or a takeback:
the state of ``to_version``, within the information horizon, proposed and accepted as a session
takes one back: :func:`_check_consent`), gives exactly the recorded events and a state whose
digest is ``state_digest``. ``at`` and ``clock`` are times: not replayed.

A replay is linear in its entries: a takeback's horizon check looks up the highest barrier
before it (``rules.records.horizon.LastBarriers``, each version checked once for being a barrier)
instead of walking back over every version it passes, and its consent check the last version
each seat decided (``rules.records.horizon.LastDecisions``, each entry read once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine import Game
from rules.engine_types import Event, State
from rules.errors import RulesError
from rules.forfeit import FORFEIT, forfeit
from rules.records.digest import canonical, commitment, state_digest
from rules.records.horizon import CLOCK, LastBarriers, LastDecisions
from rules.records.record import TAKEBACK

__all__ = [
    "Difference",
    "NotReplayable",
    "Checks",
    "start_state",
    "step",
    "replay_states",
    "replay",
]

_SHOWN = 300
"""Characters of a move or event list quoted in a difference's detail."""


@dataclass(frozen=True, slots=True)
class Difference:
    """Where a record stops matching its replay: the first version that differs, and how.
    ``withheld``: the record withholds from its reader what the replay needs (the seed, a fork's
    start, or an entry that is what the reader saw of a move while the game ran), so nothing
    is shown to differ: it cannot be checked until the game is over."""

    version: int
    detail: str
    withheld: bool = False


@dataclass(frozen=True, slots=True)
class Checks:
    """Shape checks the rules assume have passed (``schemas/`` in the API; rules never import
    it): each returns why its argument is malformed, or None. The defaults accept everything."""

    move: Callable[[Any], str | None] = lambda move: None
    state: Callable[[Any], str | None] = lambda state: None
    options: Callable[[Any], str | None] = lambda options: None


class NotReplayable(Exception):
    """An entry (or the start) that cannot be replayed; ``difference`` says where and why."""

    def __init__(self, version: int, detail: str, withheld: bool = False) -> None:
        super().__init__(detail)
        self.difference = Difference(version, detail, withheld)


def _quote(value: Any) -> str:
    text = canonical(value).decode()
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def start_state(game: Game, record: Mapping[str, Any], checks: Checks = Checks()) -> State:
    """Version 0 of ``record``: a fork's ``start``, else the setup its players, options and
    revealed seed give. Raises ``NotReplayable`` (version 0) when there is none.

    A record that is not a fork's may carry ``start`` too (a session created before records
    kept a start digest); it must then be that very setup: a start the seed did not deal would
    let a record stack the deck and still replay "from the seed".

    A game replays only under the rules it was played by: a record of another ``schema_version``
    (a session begun before this referee's rules changed) is not replayable here, and says so
    rather than differing at some digest."""
    if record["schema_version"] != game.schema_version:
        raise NotReplayable(
            0,
            f"The game was played under version {record['schema_version']} of {game.title}'s "
            f"rules, and this referee plays version {game.schema_version}: a game replays only "
            "under the rules it was played by.",
        )
    if record.get("forked_from") is not None:
        return _fork_start(game, record, checks)
    dealt = _dealt(game, record, checks)
    if record.get("start") is not None and canonical(record["start"]) != canonical(dealt):
        raise NotReplayable(
            0,
            "The start state is not the one setup gives these players, options and seed (a "
            "record that is not a fork's starts where its seed does).",
        )
    return dealt


def _fork_start(game: Game, record: Mapping[str, Any], checks: Checks) -> State:
    """A fork's version 0, its ``start``: shaped as the game's states, passing their checks,
    and with the record's players."""
    start = record.get("start")
    if start is None:
        raise NotReplayable(
            0,
            "A fork's record holds its start (version 0) only once the game is finished: only "
            "a finished game's whole record replays.",
            withheld=True,
        )
    why = checks.state(start)
    if why is not None:
        raise NotReplayable(0, f"The start state is malformed: {why}")
    try:
        game.check_state(start)
    except RulesError as err:
        raise NotReplayable(0, f"The start state fails its integrity checks: {err}") from None
    if list(start["players"]) != list(record["players"]):
        raise NotReplayable(0, "The start state's players are not the record's players.")
    return start


def _dealt(game: Game, record: Mapping[str, Any], checks: Checks) -> State:
    """The setup ``record``'s players, options and revealed seed give."""
    seed = record["fairness"].get("seed")
    if seed is None:
        raise NotReplayable(
            0,
            "The seed is not revealed: only a finished game's whole record replays.",
            withheld=True,
        )
    why = checks.options(record["options"])
    if why is not None:
        raise NotReplayable(0, f"The options are malformed: {why}")
    try:
        return game.setup(list(record["players"]), seed, dict(record["options"]))
    except RulesError as err:
        raise NotReplayable(0, f"Setup refuses these players, seed and options: {err}") from None


def step(
    game: Game,
    states: Sequence[State],
    entry: Mapping[str, Any],
    checks: Checks = Checks(),
    *,
    last_barriers: LastBarriers,
    last_decisions: LastDecisions,
) -> tuple[State, list[Event]]:
    """The state and events of ``entry``, applied after ``states`` (``states[v]``: version
    ``v``). ``last_barriers`` and ``last_decisions`` are over these same ``states`` and the
    entries that made them, kept for the whole replay so that every takeback's checks reuse what
    was already found. Raises ``NotReplayable`` at the entry's version when it cannot be applied:
    a takeback that would pass a barrier (the information horizon) is refused naming the highest
    one passed, one no session could have made (its proposer, move or consent: see
    :func:`_check_consent`) saying why, and an entry that is no takeback but carries a
    ``takeback`` is refused too (only ``takeback_entry`` writes one)."""
    version = len(states)
    state = states[-1]
    move = entry["move"]
    if entry.get("by") == TAKEBACK:
        to = (entry.get("takeback") or {}).get("to_version")
        if type(to) is not int or not 0 <= to < version - 1:
            raise NotReplayable(version, f"A takeback must go to an earlier version, not {to!r}.")
        # it passes versions to + 1 .. version - 1: refused when the highest barrier among
        # them, the highest at or below version - 1, is above to
        back, reason = last_barriers.at_or_below(version - 1)
        if back > to:
            raise NotReplayable(
                version,
                f"The takeback to version {to} goes back past version {back} ({reason}): "
                "past the information horizon.",
            )
        # the horizon first: a takeback past a barrier is refused for that, whoever consented
        _check_consent(entry, version, to, state["players"], last_decisions.undone(to, version - 1))
        return states[to], []
    if "takeback" in entry:
        raise NotReplayable(
            version, 'Only a takeback entry ("by": "takeback") carries a "takeback".'
        )
    if entry.get("by") == CLOCK and move.get("type") in (FORFEIT, CLOCK_PAUSE):
        return _clock_step(game, state, entry, version)
    why = checks.move(move)
    if why is not None:
        raise NotReplayable(version, f"The move is not a move of {game.id}: {why}")
    if entry["player"] != move.get("player"):
        raise NotReplayable(version, "The entry's player is not its move's player.")
    try:
        return game.apply(state, move)
    except RulesError as err:
        raise NotReplayable(version, f"The move does not apply: {err}") from None
    except Exception as err:  # a move the shape checks let through but the rules choke on
        raise NotReplayable(version, f"The move does not apply ({type(err).__name__}).") from None


def _check_consent(
    entry: Mapping[str, Any], version: int, to: int, players: Sequence[str], undone: set[str]
) -> None:
    """Raises ``NotReplayable`` at ``version`` unless the takeback ``entry`` (to version ``to``)
    is one a session could have made (``rules.records.record.takeback_entry``; ``api.records``,
    docs/records.md "Takeback with consent"): proposed by a seat of the game (``players``), its
    move ``{"player": <proposer>, "type": "takeback"}``, and its ``accepted_by`` the proposer
    first, then other seats of the game, each once: exactly the proposer and the seats whose
    decisions it undoes (``undone``: the players of the moves it passes, and the seats that
    proposed and accepted the takebacks it passes, ``rules.records.horizon.undone_seats``). A
    takeback lands only when all of them accepted it (bot seats accept as it is proposed), and
    waits on no one else.

    What the record cannot tell is not checked: which seats are bots (the record does not say),
    so neither that the proposer is not one (a bot proposes nothing: it holds no seat token) nor
    the order after the proposer (the service lists the bots it undoes first, then the seats it
    waited on, each in seat order); nor that the seats it waited on were told and answered (their
    answers are not recorded: ``accepted_by`` is the record's word for them)."""
    proposer = entry["player"]
    if proposer not in players:
        raise NotReplayable(
            version, f"The takeback's proposer {_quote(proposer)} is not a player of the game."
        )
    expected = {"player": proposer, "type": TAKEBACK}
    if entry["move"] != expected:
        raise NotReplayable(
            version, f"A takeback's move is {_quote(expected)}, not {_quote(entry['move'])}."
        )
    accepted = list(entry["takeback"]["accepted_by"])
    if not accepted or accepted[0] != proposer:
        raise NotReplayable(
            version,
            f"A takeback's accepted_by begins with its proposer, {_quote(proposer)}: "
            f"{_quote(accepted)} does not.",
        )
    strangers = [seat for seat in accepted if seat not in players]
    if strangers:
        raise NotReplayable(
            version,
            f"The takeback's accepted_by names {_quote(strangers)}, not players of the game.",
        )
    if len(set(accepted)) != len(accepted):
        raise NotReplayable(
            version, f"The takeback's accepted_by {_quote(accepted)} names a seat twice."
        )
    needed = undone | {proposer}
    missing = [seat for seat in players if seat in needed and seat not in accepted]
    if missing:
        raise NotReplayable(
            version,
            f"The takeback to version {to} undoes decisions of {_quote(missing)} (their moves, or "
            f"takebacks they proposed or accepted), and its accepted_by {_quote(accepted)} lacks "
            "them: a takeback lands only with the consent of every seat whose decisions it undoes.",
        )
    uninvolved = [seat for seat in accepted if seat not in needed]
    if uninvolved:
        raise NotReplayable(
            version,
            f"The takeback to version {to} undoes no decision of {_quote(uninvolved)}, whom its "
            f"accepted_by names: a takeback waits only on the seats whose decisions it undoes.",
        )


CLOCK_PAUSE = "timeout"
"""The move type of a ``pause`` timeout: the clocks pause, the state stays as it was."""


def _clock_step(
    game: Game, state: State, entry: Mapping[str, Any], version: int
) -> tuple[State, list[Event]]:
    """A timeout the clock made (issue 25): a ``pause`` leaves the state as it was; a forfeit is
    replayed by ``rules.forfeit`` itself (the game's ``concede`` where legal, else the forfeit),
    which must give the very move recorded. A ``bot`` timeout is an ordinary move."""
    move = entry["move"]
    if move["type"] == CLOCK_PAUSE:
        _check_pause(game, state, entry, version)
        return state, []
    try:
        new, events, made = forfeit(game, state, entry["player"])
    except (ValueError, RulesError) as err:
        raise NotReplayable(version, f"The forfeit does not apply: {err}") from None
    if made != move:
        raise NotReplayable(version, f"The forfeit is {made!r}, not the recorded {move!r}.")
    return new, events


def _check_pause(game: Game, state: State, entry: Mapping[str, Any], version: int) -> None:
    """Raises ``NotReplayable`` unless the pause ``entry`` is one a session could have made: the
    clock's move ``{"player": <seat>, "type": "timeout"}`` for a seat the game waits on, the only
    seats whose clocks run (``api.clock_keeper``; README "Turn clocks")."""
    seat = entry["player"]
    if entry["move"] != {"player": seat, "type": CLOCK_PAUSE}:
        raise NotReplayable(
            version,
            f"A pause is the clock's move {_quote({'player': seat, 'type': CLOCK_PAUSE})}, "
            f"not {_quote(entry['move'])}.",
        )
    if seat not in game.waiting_on(state):
        raise NotReplayable(
            version,
            f"The clocks paused for {_quote(seat)}, whom the game did not wait on: only the "
            "clocks of the seats the game waits on run out.",
        )


def replay_states(
    game: Game,
    start: State,
    entries: Sequence[Mapping[str, Any]],
    checks: Checks = Checks(),
) -> Iterator[tuple[State, list[Event]]]:
    """Each entry's state and events in turn, from ``start`` (version 0). Raises ``NotReplayable``
    where an entry does not apply; compares nothing (``replay`` does)."""
    states: list[State] = [start]
    last_barriers = LastBarriers(game, states, entries)  # grows with states
    last_decisions = LastDecisions(entries, start["players"])
    for entry in entries:
        state, events = step(
            game, states, entry, checks, last_barriers=last_barriers, last_decisions=last_decisions
        )
        states.append(state)
        yield state, events


def replay(game: Game, record: Mapping[str, Any], checks: Checks = Checks()) -> Difference | None:
    """None when ``record`` replays exactly; else the first version that differs and why."""
    try:
        _replay(game, record, checks)
    except NotReplayable as differs:
        return differs.difference
    return None


def _replay(game: Game, record: Mapping[str, Any], checks: Checks) -> None:
    if record["game"] != game.id:
        raise NotReplayable(0, f"This is a record of {record['game']!r}, not of {game.id}.")
    fairness = record["fairness"]
    salt, seed = fairness.get("salt"), fairness.get("seed")
    if seed is not None and salt is not None:
        if commitment(salt, seed) != fairness.get("seed_commitment"):
            raise NotReplayable(0, "The revealed seed and salt do not match the seed commitment.")
    start = start_state(game, record, checks)
    digested: dict[int, tuple[State, str]] = {}
    if _digest(start, digested) != record["start_digest"]:
        raise NotReplayable(0, "The start state differs from the recorded start_digest.")
    entries = record["entries"]
    for i, entry in enumerate(entries):
        if entry["version"] != i + 1:
            raise NotReplayable(
                i + 1, f"Entry {i} should be version {i + 1}, not {entry['version']}."
            )
    before = start
    replayed = replay_states(game, start, entries, checks)
    for entry in entries:
        version = entry["version"]
        try:
            state, events = next(replayed)
            if canonical(events) != canonical(entry["events"]):
                raise NotReplayable(
                    version,
                    f"The events differ: recorded {_quote(entry['events'])}, "
                    f"replayed {_quote(events)}.",
                )
            if entry["state_digest"] is None:
                raise NotReplayable(version, DIGEST_WITHHELD, withheld=True)
            if _digest(state, digested) != entry["state_digest"]:
                raise NotReplayable(version, "The state differs from the recorded state_digest.")
        except NotReplayable:
            if _seen_by_a_reader(game, before, entry, record["players"]):
                raise NotReplayable(version, SEEN_BY_A_READER, withheld=True) from None
            raise
        before = state


DIGEST_WITHHELD = (
    "The record of an open game shows no state digests while the game runs (its seed is public, "
    "so a digest would let a reader test guesses at other seats' secret choices); only a "
    "finished game's whole record replays."
)
"""The detail of an entry whose ``state_digest`` is null (``rules.records.record``)."""
SEEN_BY_A_READER = (
    "This entry is what a reader saw of a move (the game's view of it for one seat, or for the "
    "public), not the move itself: while the game runs, a record shows each reader only what "
    "they saw. Only a finished game's whole record replays."
)
"""The detail of an entry :func:`_seen_by_a_reader`. An open session or a fork shows its seed
from the start, so its running record gets past version 0 and stops at the first entry redacted
for its reader (a Reign & Ruin pick, a drawn Council card): redacted, not untrue."""


def _seen_by_a_reader(
    game: Game, before: State, entry: Mapping[str, Any], players: Sequence[str]
) -> bool:
    """Whether ``entry``, which does not replay after ``before``, is one reader's view of a move
    legal there: its move is that move's ``view_move`` and its events the ``view_event`` of the
    events the move makes, for one of ``players`` or the public, and one of them is not whole.
    Asked once, of the first entry that differs; it applies only the player's legal moves whose
    view is the recorded move (all of them at most)."""
    if entry.get("by") == TAKEBACK:  # takebacks are public
        return False
    recorded = entry["move"]
    recorded_events = canonical(entry["events"])
    try:
        candidates = game.legal_moves(before, entry["player"])
    except RulesError:
        return False
    for move in candidates:
        readers = [r for r in (None, *players) if game.view_move(move, r) == recorded]
        if not readers:
            continue
        try:
            _, events = game.apply(before, move)
        except RulesError:
            continue
        whole = move == recorded and canonical(events) == recorded_events
        for reader in readers:
            seen = canonical([game.view_event(e, reader) for e in events])
            if seen == recorded_events and not whole:
                return True
    return False


def _digest(state: State, digested: dict[int, tuple[State, str]]) -> str:
    """``state_digest(state)``, computed once per state object. A takeback's state is an earlier
    version's very object and a pause's the one before it: a record stuffed with thousands of
    them (a 1 MB one holds 4,600) would otherwise digest the same large state once per entry,
    seconds for Reign Supreme. ``digested`` maps ``id(state)`` to the state and its digest: the
    state is held, so its id is not reused by another while the replay runs. A state is never
    changed once made (``Game.apply`` returns a new one), so the same object has the same digest.
    """
    seen = digested.get(id(state))
    if seen is not None and seen[0] is state:
        return seen[1]
    digest = state_digest(state)
    digested[id(state)] = (state, digest)
    return digest
