"""A seat's earlier move at a state the session is in again (after a takeback).

A takeback returns a session to a state it was in; playing on from there may bring it to more
states it was in. A bot seat that is due in such a state must make the move it made there
before (README "Bot seats", "Reproducible"): its seed comes from its view, but a greedy or
expert search is cut by the clock (``SESSION_BOT_TIME_MS``, a busy machine), so searching again
may choose another move, and a person could take the bot's reply back until it chose a worse
one. The history says what it chose: entry ``v`` (version ``v``) was made at the state of
version ``v - 1``, whose digest is entry ``v - 1``'s ``state_digest`` (version 0: the record's
``start_digest``). Equal digests are equal states (SHA-256 of the canonical state,
``rules.records.digest``), so the move found is legal there: it was applied to that very state.

This is record logic, a pure function of the entries (the format of ``rules.records.record``),
kept here with the other readings of a history (``horizon``, ``replay``) rather than in
``api.bot_seats``, which only reads the entries when a takeback has landed and passes them on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine_types import Move, PlayerId

__all__ = ["earlier_move"]


def earlier_move(
    entries: Sequence[Mapping[str, Any]],
    start_digest: str | None,
    digest: str,
    player: PlayerId,
) -> Move | None:
    """The move ``player`` made the last time the session was at the state whose digest is
    ``digest``: the latest entry of ``player``'s own (no ``by``) made at that state, reading
    ``entries`` (versions 1 on) after a session that began at ``start_digest``. None when it never
    moved there.

    Only the seat's own moves count: a move the clock made for it (``by: "clock"``, a forfeit, a
    pause, or the bot's move made in a hurry when its time ran out) is the timeout's answer, not
    the seat's choice, and a takeback entry is nobody's move. A bot seat's answers at one state
    are all the same once each is read from here; in a history written before that held they
    may differ, and the latest is the one its table saw last. A
    version whose digest was not kept (a session created before records; ``start_digest`` None)
    matches nothing: the bot chooses again there, as it did before."""
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        if entry["player"] != player or "by" in entry:
            continue
        before = start_digest if index == 0 else entries[index - 1].get("state_digest")
        if before is not None and before == digest:
            return dict(entry["move"])
    return None
