"""The game record: a documented, versioned JSON record of one game (``docs/records.md``).

``{"format": "reign-referee-record", "format_version": 1, "game", "schema_version", "options",
"players", "fairness", "forked_from", "start_digest", "start"?, "entries": [...]}``; each entry
``{"version", "player", "by"?, "move", "events", "at", "clock"?, "state_digest", "takeback"?}``
is the move (or takeback) that made ``version`` and the digest of the state it made.

A record is redacted for its reader exactly as a session's history is: moves through the game's
``view_move``, events through ``view_event`` (a seat sees what it saw at each point; no seat: the
public record). Once the game is finished the record is *whole*: every move and event as it
happened, with the revealed seed in ``fairness``, so that anyone can replay it (``replay``). The
state digests are shown to everyone at every point (``rules.records.digest``: they hide the
state, which holds the secret seed), except while an *open* game runs: its seed is public, so a
digest would let a reader test guesses at what the other seats chose in secret (a pick, a pitch,
a vote) until one matched. Its running record shows ``state_digest`` null.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine import Game
from rules.engine_types import Event, Move, PlayerId, State
from rules.records.digest import state_digest

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "TAKEBACK",
    "make_entry",
    "takeback_entry",
    "redact_entry",
    "entry_views",
    "make_record",
]

FORMAT = "reign-referee-record"
FORMAT_VERSION = 1
"""Bumped when the record's own shape changes (a game's rules change bumps its states'
``schema_version`` instead, which the record also names)."""
TAKEBACK = "takeback"
"""``by`` of a takeback entry (and its move's ``type``)."""


def make_entry(
    version: int,
    player: PlayerId,
    move: Move,
    events: list[Event],
    at: str,
    state: State,
    by: str | None = None,
) -> dict[str, Any]:
    """The entry of the move that made ``version``, ``state`` being the state it made."""
    entry: dict[str, Any] = {
        "version": version,
        "player": player,
        "move": move,
        "events": events,
        "at": at,
        "state_digest": state_digest(state),
    }
    if by is not None:
        entry["by"] = by
    return entry


def takeback_entry(
    version: int,
    player: PlayerId,
    to_version: int,
    takeback_id: str,
    accepted_by: Sequence[PlayerId],
    at: str,
    state: State,
) -> dict[str, Any]:
    """The entry of an accepted takeback: version ``version`` whose state is ``to_version``'s
    (``state``). ``player`` proposed it; ``accepted_by`` are the seats that accepted (the proposer
    first). The history only grows: nothing is removed, the takeback is one more entry."""
    entry = make_entry(version, player, {"player": player, "type": TAKEBACK}, [], at, state)
    entry["by"] = TAKEBACK
    entry["takeback"] = {
        "takeback_id": takeback_id,
        "to_version": to_version,
        "accepted_by": list(accepted_by),
    }
    return entry


def redact_entry(
    game: Game, entry: Mapping[str, Any], viewer: PlayerId | None, whole: bool = False
) -> dict[str, Any]:
    """``entry`` as ``viewer`` may see it (``whole``: unredacted, for a finished game)."""
    shown: dict[str, Any] = {
        "version": entry["version"],
        "player": entry["player"],
        "move": dict(entry["move"]) if whole else game.view_move(entry["move"], viewer),
        "events": (
            [dict(e) for e in entry["events"]]
            if whole
            else [game.view_event(e, viewer) for e in entry["events"]]
        ),
        "at": entry["at"],
        "state_digest": entry["state_digest"],
    }
    for optional in ("by", "clock", "takeback"):  # takebacks and clocks are public
        if optional in entry:
            shown[optional] = entry[optional]
    return shown


def entry_views(
    game: Game, entry: Mapping[str, Any], players: Sequence[PlayerId]
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """``entry`` whole, as the public sees it, and as each of ``players`` sees it, in their order.
    A view depends on the entry and the viewer only (``view_move``, ``view_event``), never on
    a later state: what a seat saw of a version is fixed once the version is written, so a
    session keeps these views from the commit on (``api.session_store``) and a record is read,
    not redacted again."""
    return (
        redact_entry(game, entry, None, whole=True),
        redact_entry(game, entry, None),
        [redact_entry(game, entry, player) for player in players],
    )


def make_record(
    game: Game,
    *,
    players: Sequence[PlayerId],
    options: Mapping[str, Any],
    fairness: Mapping[str, Any],
    start: State | None,
    entries: Sequence[Mapping[str, Any]],
    viewer: PlayerId | None,
    whole: bool,
    forked_from: Mapping[str, Any] | None = None,
    start_digest: str | None = None,
    schema_version: int | None = None,
) -> dict[str, Any]:
    """The record of a game that began at ``start`` (version 0) and went through ``entries``,
    redacted for ``viewer`` unless ``whole``. A fork's whole record carries its ``start`` state
    (it did not begin at setup); an unforked game replays from ``players``, ``options`` and the
    revealed seed. ``start_digest`` and ``schema_version``, when known, spare ``start`` (None
    then, for a game that is not a fork)."""
    if start is not None:
        start_digest = state_digest(start)
        schema_version = start["schema_version"]
    if start_digest is None or schema_version is None:
        raise ValueError("a record needs its start, or its start digest and schema version")
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.id,
        "schema_version": schema_version,
        "options": dict(options),
        "players": list(players),
        "fairness": dict(fairness),
        "forked_from": dict(forked_from) if forked_from is not None else None,
        "start_digest": start_digest,
        "entries": [redact_entry(game, e, viewer, whole) for e in entries],
    }
    if fairness["open"] and not whole:  # its seed is public: see the module's docstring
        for entry in record["entries"]:
            entry["state_digest"] = None
    if whole and forked_from is not None and start is not None:
        record["start"] = start
    return record
