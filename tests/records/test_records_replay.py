"""A whole record replays from its setup; a tampered one is refused at the version tampered with."""

from __future__ import annotations

import copy

import pytest

from rules.records import (
    FORMAT,
    FORMAT_VERSION,
    TAKEBACK,
    horizon,
    make_record,
    replay,
    state_digest,
    takeback_entry,
)
from rules.records.replay import DIGEST_WITHHELD, SEEN_BY_A_READER, Checks
from rules.registry import get_game
from tests.records.games import AT, GAME_IDS, PLAYERS, fairness, play, record_of

GAME = "reigns-the-council"


@pytest.fixture(scope="module")
def council():
    return record_of(GAME, 4, max_moves=60)


def test_a_whole_record_replays(council):
    assert council["format"] == FORMAT and council["format_version"] == FORMAT_VERSION
    assert len(council["entries"]) == 60
    assert replay(get_game(GAME), council) is None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_replays(game_id):
    assert replay(get_game(game_id), record_of(game_id, 3, max_moves=40)) is None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_record_of_other_rules_says_so(game_id):
    """A session begun before this referee's rules changed keeps its states' ``schema_version``:
    its record replays only under those rules, and the difference says which, at version 0."""
    game = get_game(game_id)
    record = record_of(game_id, 3, max_moves=10)
    assert record["schema_version"] == game.schema_version  # the game's version is its states'
    record["schema_version"] = game.schema_version - 1
    difference = replay(game, record)
    assert difference is not None and difference.version == 0
    assert (
        f"played under version {game.schema_version - 1} of {game.title}'s rules"
        in difference.detail
    )
    assert f"this referee plays version {game.schema_version}" in difference.detail


def test_a_changed_move_is_the_first_difference(council):
    tampered = copy.deepcopy(council)
    game = get_game(GAME)
    states, entries = play(GAME, 4, 60)
    # the 20th move replaced by another legal move of the same state
    other = next(m for m in game.legal_moves(states[19]) if m != entries[19]["move"])
    tampered["entries"][19]["move"] = other
    tampered["entries"][19]["player"] = other["player"]
    difference = replay(game, tampered)
    assert difference is not None and difference.version == 20


def test_a_changed_event_or_digest_is_the_first_difference(council):
    game = get_game(GAME)
    tampered = copy.deepcopy(council)
    tampered["entries"][7]["events"].append({"type": "game_over"})
    assert replay(game, tampered).version == 8
    tampered = copy.deepcopy(council)
    tampered["entries"][30]["state_digest"] = "0" * 64
    difference = replay(game, tampered)
    assert difference.version == 31 and "state_digest" in difference.detail


def test_a_wrong_seed_or_commitment_differs_at_version_0(council):
    game = get_game(GAME)
    tampered = copy.deepcopy(council)
    tampered["fairness"]["seed"] += 1
    assert "commitment" in replay(game, tampered).detail
    assert not replay(game, tampered).withheld
    tampered = copy.deepcopy(council)
    tampered["fairness"]["seed"] = tampered["fairness"]["salt"] = None
    difference = replay(game, tampered)
    assert difference.version == 0 and "not revealed" in difference.detail
    assert difference.withheld


def test_entries_out_of_order_differ_where_the_order_breaks(council):
    tampered = copy.deepcopy(council)
    del tampered["entries"][5]
    assert replay(get_game(GAME), tampered).version == 6


def test_a_move_the_shape_checks_refuse_differs_there(council):
    checks = Checks(move=lambda move: "bad" if move.get("type") == "pitch" else None)
    difference = replay(get_game(GAME), council, checks)
    first_pitch = next(e for e in council["entries"] if e["move"]["type"] == "pitch")
    assert difference.version == first_pitch["version"]


def test_a_redacted_move_does_not_replay(council):
    tampered = copy.deepcopy(council)
    tampered["entries"][0]["move"] = {"player": tampered["entries"][0]["player"], "type": "draw"}
    assert replay(get_game(GAME), tampered).version == 1


def _running_record(game_id: str, seed: int, moves: int, reader: str | None) -> dict:
    return record_of(game_id, seed, max_moves=moves, reader=reader, whole=False)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("reader", [None, "ann"])
def test_a_running_record_redacted_for_its_reader_is_withheld_not_untrue(game_id, reader):
    # an open game's running record (a fork's): its first entry stops the replay, withheld
    # either way: redacted for its reader (a hidden pick, a drawn card), or whole but without
    # its state digest, which an open game's running record does not show
    record = _running_record(game_id, 2, 80, reader)
    difference = replay(get_game(game_id), record)
    assert difference is not None and difference.version == 1 and difference.withheld
    whole = record_of(game_id, 2, max_moves=80)
    redacted = record["entries"][0] != dict(whole["entries"][0], state_digest=None)
    assert difference.detail == (SEEN_BY_A_READER if redacted else DIGEST_WITHHELD)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_open_games_running_record_shows_no_state_digest(game_id):
    # its seed is public: with the digests a reader tried each move the other seat could have
    # made in secret until one gave the digest shown (a Reign & Ruin pick, a Council pitch)
    for reader in [None, *PLAYERS[game_id]]:
        record = _running_record(game_id, 2, 40, reader)
        assert {e["state_digest"] for e in record["entries"]} == {None}
    assert all(e["state_digest"] for e in record_of(game_id, 2, max_moves=40)["entries"])
    states, entries = play(game_id, 2, 40)
    fair = make_record(  # a fair session's seed is secret: its digests test nothing
        get_game(game_id),
        players=PLAYERS[game_id],
        options={},
        fairness=fairness(2, revealed=False, open_=False),
        start=states[0],
        entries=entries,
        viewer="ann",
        whole=False,
    )
    assert all(e["state_digest"] for e in fair["entries"])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_changed_entry_of_a_running_record_differs_and_is_not_excused(game_id):
    game = get_game(game_id)
    states, entries = play(game_id, 2, 30)
    changed = next(
        (i, m)
        for i, e in enumerate(entries)
        for m in game.legal_moves(states[i], e["player"])
        if m != e["move"]
    )
    record = record_of(game_id, 2, max_moves=30)
    record["entries"][changed[0]]["move"] = changed[1]
    difference = replay(game, record)
    assert difference.version == changed[0] + 1 and not difference.withheld
    record = record_of(game_id, 2, max_moves=30)
    record["entries"][5]["events"].append({"type": "game_over"})
    difference = replay(game, record)
    assert difference.version == 6 and not difference.withheld


def test_a_running_forks_record_without_its_start_is_withheld_at_version_0():
    record = _running_record("reign-supreme", 2, 12, None)
    record["forked_from"] = {"session_id": "s" * 22, "version": 4}
    difference = replay(get_game("reign-supreme"), record)
    assert difference.version == 0 and difference.withheld
    assert difference.detail.startswith("A fork's record holds its start (version 0) only once")


def _line_with_room():
    """A Reign Supreme line (public moves) whose last moves are no barrier, and its horizon."""
    game = get_game("reign-supreme")
    for seed in range(1, 50):
        states, entries = play("reign-supreme", seed, 20)
        earliest, _ = horizon(game, states, entries)
        if 0 < earliest < 19:
            return game, seed, states, earliest
    raise AssertionError("no line with room for a takeback")  # pragma: no cover


def _takeback_record(to_version):
    game, seed, states, _ = _line_with_room()
    record = record_of("reign-supreme", seed, max_moves=20)
    record["entries"].append(
        takeback_entry(21, "ann", to_version, "t1", ["ann", "bob"], AT, states[to_version])
    )
    return game, record


def test_a_takeback_within_the_horizon_replays():
    earliest = _line_with_room()[3]
    game, record = _takeback_record(earliest)
    assert record["entries"][-1]["by"] == TAKEBACK
    assert replay(game, record) is None


def test_a_takeback_past_the_horizon_is_refused():
    earliest = _line_with_room()[3]
    game, record = _takeback_record(earliest - 1)
    difference = replay(game, record)
    assert difference.version == 21 and "horizon" in difference.detail


def test_a_takeback_to_the_wrong_state_differs():
    earliest = _line_with_room()[3]
    game, record = _takeback_record(earliest)
    record["entries"][-1]["state_digest"] = state_digest({"not": "it"})
    assert replay(game, record).version == 21
