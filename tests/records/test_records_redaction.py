"""A record redacted for a seat shows what that seat saw at each point; the public one what a
spectator saw; a whole record everything."""

from __future__ import annotations

import pytest

from rules.records import make_record, redact_entry
from rules.records.digest import canonical
from rules.registry import get_game
from tests.records.games import GAME_IDS, PLAYERS, fairness, play


def _record(game_id, viewer, whole=False):
    states, entries = play(game_id, 6, 80)
    record = make_record(
        get_game(game_id),
        players=PLAYERS[game_id],
        options={},
        fairness=fairness(6, revealed=whole, open_=False),  # a fair session's
        start=states[0],
        entries=entries,
        viewer=viewer,
        whole=whole,
    )
    return states, entries, record


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_entry_is_the_history_as_the_viewer_saw_it(game_id):
    game = get_game(game_id)
    for viewer in [*PLAYERS[game_id], None]:
        _, entries, record = _record(game_id, viewer)
        assert record["fairness"]["seed"] is None
        assert "start" not in record
        for entry, shown in zip(entries, record["entries"], strict=True):
            assert shown["move"] == game.view_move(entry["move"], viewer)
            assert shown["events"] == [game.view_event(e, viewer) for e in entry["events"]]
            assert shown["state_digest"] == entry["state_digest"]


def test_no_private_card_of_another_seat_is_in_a_seat_record():
    """Council: every drawn card is private to its drawer; ann's record names only hers."""
    game_id = "reigns-the-council"
    _, entries, record = _record(game_id, "ann")
    drawn_by_others = {
        e["card"]
        for entry in entries
        for e in entry["events"]
        if e["type"] == "card_drawn" and e["player"] != "ann"
    }
    assert drawn_by_others
    text = canonical(record["entries"]).decode()
    seen_by_ann = canonical(
        [
            e
            for entry in entries
            for e in entry["events"]
            if e.get("player") == "ann" or e["type"] not in ("card_drawn", "proposal_pitched")
        ]
    ).decode()
    leaked = [c for c in drawn_by_others if f'"{c}"' in text and f'"{c}"' not in seen_by_ann]
    assert leaked == []


def test_the_whole_record_shows_every_move_and_event():
    game = get_game("reign-and-ruin")
    _, entries, record = _record("reign-and-ruin", None, whole=True)
    assert record["fairness"]["seed"] == 6
    assert record["entries"] == [redact_entry(game, e, None, whole=True) for e in entries]
    assert [e["move"] for e in record["entries"]] == [e["move"] for e in entries]
