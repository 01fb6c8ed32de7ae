"""Game records (issue 26): export, verify, fork and take back, never past what a player may know.

Pure Python over the games' own functions, as floors (a module imports only those above it):

- ``digest``: the state digest every record entry carries, and the seed commitment it is checked
  against;
- ``record``: the record format, its entries, and a record redacted for one caller (the games'
  ``view_move`` and ``view_event``);
- ``replay``: a record replayed from its start, answering the first version that differs;
- ``horizon``: the information horizon, the earliest version a takeback may return to, and
  the seats whose consent a takeback needs (``undone_seats``; in a replay, ``LastDecisions``);
- ``fork``: the state a fork starts from (the true one of a finished game, or one seat's
  knowledge with the hidden parts drawn afresh).

The format is documented in ``docs/records.md``.
"""

from rules.records.digest import commitment, state_digest
from rules.records.fork import fork_state
from rules.records.horizon import LastBarriers, LastDecisions, barrier, horizon, undone_seats
from rules.records.record import (
    FORMAT,
    FORMAT_VERSION,
    TAKEBACK,
    entry_views,
    make_entry,
    make_record,
    redact_entry,
    takeback_entry,
)
from rules.records.replay import (
    Checks,
    Difference,
    NotReplayable,
    replay,
    replay_states,
    start_state,
    step,
)

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "TAKEBACK",
    "Checks",
    "Difference",
    "LastBarriers",
    "LastDecisions",
    "NotReplayable",
    "barrier",
    "commitment",
    "fork_state",
    "horizon",
    "undone_seats",
    "entry_views",
    "make_entry",
    "make_record",
    "redact_entry",
    "replay",
    "replay_states",
    "start_state",
    "state_digest",
    "step",
    "takeback_entry",
]
