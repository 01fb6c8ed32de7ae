"""A seat's earlier move at a state the session is in again (``rules.records.earlier_move``): the
move a bot seat makes again after a takeback rather than search anew."""

from __future__ import annotations

from typing import Any

from rules.records import earlier_move


def _entry(version: int, player: str, made: str | None, **extra: Any) -> dict[str, Any]:
    """An entry of ``player``'s move ``m<version>`` that made the state digested ``made``."""
    entry = {
        "version": version,
        "player": player,
        "move": {"player": player, "type": f"m{version}"},
    }
    if made is not None:
        entry["state_digest"] = made
    return {**entry, **extra}


def test_the_move_made_at_a_state_is_found_by_the_digest_of_the_state_before_it():
    """Entry ``v`` was made at the state entry ``v - 1`` made; entry 1 at the start."""
    entries = [_entry(1, "bob", "a"), _entry(2, "ann", "b"), _entry(3, "bob", "c")]
    assert earlier_move(entries, "s", "s", "bob") == {"player": "bob", "type": "m1"}
    assert earlier_move(entries, "s", "b", "bob") == {"player": "bob", "type": "m3"}
    assert earlier_move(entries, "s", "a", "bob") is None  # ann moved there, not bob
    assert earlier_move(entries, "s", "c", "bob") is None  # never moved there


def test_after_a_takeback_the_latest_move_of_the_seat_at_the_state_is_made_again():
    """A history in which the seat answered one state twice (before this was kept, a search cut
    short could answer otherwise): the latest answer is the one its table saw last."""
    entries = [
        _entry(1, "ann", "a"),
        _entry(2, "bob", "b"),
        _entry(3, "ann", "a", by="takeback", takeback={"to_version": 1}),
        _entry(4, "bob", "b2"),
    ]
    assert earlier_move(entries, "s", "a", "bob") == {"player": "bob", "type": "m4"}


def test_moves_the_seat_did_not_choose_are_not_made_again():
    """The clock's move for the seat (its time ran out) and a takeback entry are not the
    seat's choice: the bot chooses again there."""
    entries = [
        _entry(1, "ann", "a"),
        _entry(2, "bob", "b", by="clock"),
        _entry(3, "bob", "a", by="takeback", takeback={"to_version": 1}),
    ]
    assert earlier_move(entries, "s", "a", "bob") is None


def test_versions_without_a_kept_digest_match_nothing():
    """A session created before records kept no digests (nor a start digest): nothing is found,
    and the bot chooses as it did before."""
    entries = [_entry(1, "bob", None), _entry(2, "bob", None)]
    assert earlier_move(entries, None, "s", "bob") is None
    assert earlier_move(entries, "s", "s", "bob") == {"player": "bob", "type": "m1"}
