"""The information horizon: how far back a takeback may go (issue 26; contract, "Records").

A takeback returns the game to an earlier version. It must never give anyone a second try with
knowledge they did not have the first time, so it may not go back past a *barrier*: an entry
after which some seat knows something it could not know before. An entry is a barrier when

- **chance**: the generator advanced (``rng`` changed): a shuffle, a draw or a die was made, and
  taking it back would let the mover draw again;
- **simultaneous**: it was made while the game waited on several seats (``Game.waiting_on``: a
  draft pick, an exchange, a pitch, a vote): the others chose without seeing it, and taking back
  would let one of them choose again knowing what the others did;
- **private**: one of its events is shown differently to different seats (``view_event``): a
  card drawn, a pick, a goal dealt, a secret vote: someone learnt something only they may know
  (except ``KNOWN_TO_MOVER``: events private to the mover about what the mover already saw, a
  face-down unit of its own moving);
- **reveal**: one of its events shows publicly what was hidden before (``REVEALS``, per game: a
  card played from a hand, a unit turned face up in combat, a proposal revealed);
- **finished**: it ended the game, and with it the seed and every hidden card are revealed;
- **clock**: the session's clock made it (``"by": "clock"``: a forfeit, a bot's move for a seat
  whose time ran out, a pause): time that ran out stays run out, as a game lost on time is lost
  (lichess), and a takeback must not hand a seat back the time a timeout took.

Board Game Arena gives its developers the same rule for their undo. Takeback entries are never
barriers themselves: the state they return to is one every seat has seen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine import Game
from rules.engine_types import State
from rules.records.record import TAKEBACK

__all__ = [
    "REVEALS",
    "KNOWN_TO_MOVER",
    "LastBarriers",
    "LastDecisions",
    "barrier",
    "decided_by",
    "horizon",
    "undone_seats",
]

REVEALS: dict[str, frozenset[str]] = {
    # a card leaves a hidden hand for the table (rulings R&R 12; docs/rules/reign-and-ruin.md)
    "reign-and-ruin": frozenset({"fighter_played", "ability_used", "fighter_joined"}),
    # face-down units and their reinforcements are shown in combat, a turn card is shown or
    # discarded face up, a Doom discard or a post-Setup task names a card; a card is drawn from
    # the top of a deck whose order was hidden (a turn card is shown to everyone as it is drawn,
    # without the generator advancing: found by the property test of tests/records)
    "reign-absolute": frozenset(
        {
            "first_player_draw",
            "reinforcement_drawn",
            "combat_card_drawn",
            "combat_started",
            "units_revealed",
            "ability_triggered",
            "unit_defeated",
            "reinforcements_cancelled",
            "reinforcements_discarded",
            "turn_card_played",
            "turn_card_discarded",
            "doom_discard",
            "setup_task",
        }
    ),
    # a Spell or Tactics card leaves a hand (RS 15); a defeated player's hand goes face up to
    # the discard piles, or to the player who took their Throne (RS 8: with three seats or
    # more the game goes on, so a defeat is no end of the game to stop a takeback)
    "reign-supreme": frozenset({"card_played", "player_defeated"}),
    # a face-down proposal is revealed, goals are shown after a death, secret votes are counted
    "reigns-the-council": frozenset(
        {
            "proposal_revealed",
            "proposal_resolved",
            "goals_revealed",
            "story_vote_result",
            "end_vote_result",
        }
    ),
}
"""Game id -> the event types that make public what was hidden before."""

CLOCK = "clock"
"""``by`` of an entry the session's clock made (``api.clock_keeper``)."""

KNOWN_TO_MOVER: dict[str, frozenset[str]] = {
    # the mover's own face-down unit moves: only its owner sees which unit, and it knew already
    "reign-absolute": frozenset({"unit_moved"}),
}
"""Game id -> private event types that tell their own player nothing new (not barriers)."""


def barrier(game: Game, before: State, after: State, entry: Mapping[str, Any]) -> str | None:
    """Why the entry that took ``before`` to ``after`` is a barrier (``clock``, ``chance``,
    ``simultaneous``, ``private``, ``reveal``, ``finished``), or None when it is not."""
    if entry.get("by") == "takeback":
        return None
    if entry.get("by") == CLOCK:
        return "clock"
    if after.get("rng") != before.get("rng"):
        return "chance"
    if len(game.waiting_on(before)) > 1:
        return "simultaneous"
    events = entry["events"]
    viewers: list[str | None] = [*before["players"], None]
    known = KNOWN_TO_MOVER.get(game.id, frozenset())
    for event in events:
        if event.get("type") in known and event.get("player") == entry["player"]:
            continue
        if any(game.view_event(event, viewer) != event for viewer in viewers):
            return "private"
    reveals = REVEALS.get(game.id, frozenset())
    if any(event.get("type") in reveals for event in events):
        return "reveal"
    if after["status"] == "finished":
        return "finished"
    return None


def horizon(
    game: Game, states: Sequence[State], entries: Sequence[Mapping[str, Any]]
) -> tuple[int, str | None]:
    """The earliest version a takeback may return to, and why not earlier (the last barrier's
    reason; None when nothing bars going back to version 0). ``states[v]`` is the state at
    version ``v``; ``entries[v - 1]`` made it."""
    for entry in reversed(entries):
        version = entry["version"]
        reason = barrier(game, states[version - 1], states[version], entry)
        if reason is not None:
            return version, reason
    return 0, None


class LastBarriers:
    """The highest barrier at or below each version of a history being replayed: what a
    takeback entry is checked against (``rules.records.replay.step``).

    A takeback from version ``v`` back to ``to`` passes versions ``to + 1`` to ``v - 1``, and is
    refused when one of them is a barrier, naming the highest: exactly when the highest barrier
    at or below ``v - 1`` is above ``to``. Walking back over the versions passed for every
    takeback made replay quadratic: a record (or a session) of n takebacks to version 0 cost
    n²/2 barrier checks, seconds for a 1 MB record. Here each version's barrier is checked once,
    in order, the first time a takeback reaches it, and remembered with the highest barrier
    below it, so a takeback's check is a look-up and a history's checks are at most one per
    entry. Versions no takeback reaches are never checked: a record without takebacks pays
    nothing.

    ``states[v]`` is the state at version ``v`` and ``entries[v - 1]`` made it. Both are read,
    never copied, so the replay may append to them as it goes; a version is checked only once
    its state is there.
    """

    def __init__(
        self, game: Game, states: Sequence[State], entries: Sequence[Mapping[str, Any]]
    ) -> None:
        self._game = game
        self._states = states
        self._entries = entries
        # _last[v]: the highest barrier at or below version v and why; (0, None) for none
        # (version 0 is the start: no entry made it)
        self._last: list[tuple[int, str | None]] = [(0, None)]

    def at_or_below(self, version: int) -> tuple[int, str | None]:
        """The highest barrier at or below ``version`` (an existing version) and its reason;
        ``(0, None)`` when there is none. Checks only the versions not checked before."""
        last = self._last
        while len(last) <= version:
            made = len(last)
            states = self._states
            reason = barrier(self._game, states[made - 1], states[made], self._entries[made - 1])
            last.append(last[-1] if reason is None else (made, reason))
        return last[version]


def decided_by(entry: Mapping[str, Any]) -> list[str]:
    """The seats that decided ``entry``: a move's player, and for a takeback the seats that
    proposed and accepted it (``takeback.accepted_by``, the proposer first). Undoing the entry
    undoes their decision (:func:`undone_seats`)."""
    if entry.get("by") == TAKEBACK:
        return [entry["player"], *entry["takeback"]["accepted_by"]]
    return [entry["player"]]


def undone_seats(undone: Sequence[Mapping[str, Any]]) -> set[str]:
    """The seats whose decisions a takeback undoing the entries ``undone`` takes back, so the
    seats it waits on (other than its proposer; bots accept): a move's player, and for an earlier
    takeback the seats that proposed and accepted it (``takeback.accepted_by``, the proposer
    first). Going back past an accepted takeback puts back the moves it took back, or cancels it:
    that is those seats' decision to undo, as a move is its player's (docs/records.md,
    "Takeback with consent"). A clock's entry is never undone: it is a barrier."""
    seats: set[str] = set()
    for entry in undone:
        seats.update(decided_by(entry))
    return seats


class LastDecisions:
    """The seats whose decisions each takeback entry of a history being replayed undoes
    (:func:`undone_seats` of the entries it passes), so whose consent it needed
    (``rules.records.replay.step``).

    A takeback from version ``v`` back to ``to`` undoes versions ``to + 1`` to ``v - 1``: the
    seats that decided one of them are exactly those whose last decision at or below ``v - 1`` is
    above ``to``. Each entry is read once, in order, the first time a takeback reaches past it,
    and each seat's last decision kept, so a takeback's seats cost one look-up per seat, never a
    walk back over the versions it passes (which made a record of n takebacks to version 0 cost
    n²/2 entries read, as the barrier checks of :class:`LastBarriers` did).

    ``entries[v - 1]`` made version ``v``; read, never copied, so the replay may append to it as
    it goes. Asked in order: a takeback is never asked about after one at a later version. Only
    ``players``, the game's seats, are kept: a look-up costs at most one step per seat however
    many names the entries no takeback may pass carry (a clock's pause is not replayed, so its
    player is not checked)."""

    def __init__(self, entries: Sequence[Mapping[str, Any]], players: Sequence[str]) -> None:
        self._entries = entries
        self._players = frozenset(players)
        self._last: dict[str, int] = {}  # seat -> the last version read that it decided
        self._read = 0  # versions 1 .. _read are in _last

    def undone(self, to: int, version: int) -> set[str]:
        """:func:`undone_seats` of versions ``to + 1`` to ``version`` (entries that exist), for
        a ``version`` at or above every one asked before."""
        if version < self._read:
            raise ValueError(f"asked about version {version} after version {self._read}")
        while self._read < version:
            self._read += 1
            for seat in decided_by(self._entries[self._read - 1]):
                if seat in self._players:
                    self._last[seat] = self._read
        return {seat for seat, last in self._last.items() if last > to}
