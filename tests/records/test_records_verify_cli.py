"""``reign-referee verify FILE`` replays a record with the replay of ``/replay``: exit 0 when it
replays, 1 at the first difference (named), 2 when the file is not a finished game's record
(unless it replays as it stands: an open session's running record with nothing hidden)."""

from __future__ import annotations

import io
import json

from api import cli
from rules.records import redact_entry
from rules.records.digest import commitment
from rules.registry import get_game
from tests.records.corpus import path_of


def test_a_corpus_record_verifies(capsys):
    assert cli.main(["verify", str(path_of("reign-and-ruin", 3))]) == 0
    assert capsys.readouterr().out.startswith("verified: reign-and-ruin: seed_commitment ")


def test_a_tampered_record_names_its_first_difference(tmp_path, capsys):
    record = json.loads(path_of("reigns-the-council", 16).read_text("utf-8"))
    record["entries"][11]["state_digest"] = "f" * 64
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith("NOT VERIFIED at version 12: ")


def test_what_is_not_a_finished_record_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("{}"))
    assert cli.main(["verify", "-"]) == 2
    assert "not a reign-referee-record" in capsys.readouterr().err
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == 2
    (tmp_path / "bad.json").write_text("{", "utf-8")
    assert cli.main(["verify", str(tmp_path / "bad.json")]) == 2
    record = json.loads(path_of("reign-and-ruin", 3).read_text("utf-8"))
    record["fairness"].update(seed=None, salt=None)
    (tmp_path / "running.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "running.json")]) == 2
    assert "not finished" in capsys.readouterr().err


def test_a_running_open_record_that_does_not_replay_exits_2_not_1(tmp_path, capsys):
    # an open session's record while the game runs: the seed is shown, the picks are redacted
    record = json.loads(path_of("reign-and-ruin", 3).read_text("utf-8"))
    game = get_game("reign-and-ruin")
    record["entries"] = [redact_entry(game, e, None) for e in record["entries"][:4]]
    (tmp_path / "running.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "running.json")]) == 2
    err = capsys.readouterr().err
    assert "the game is not finished: its record withholds what version 1 needs" in err


def test_a_changed_running_record_is_not_verified(tmp_path, capsys):
    record = json.loads(path_of("reign-and-ruin", 3).read_text("utf-8"))
    record["entries"] = record["entries"][:4]
    record["entries"][2]["state_digest"] = "0" * 64
    (tmp_path / "changed.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "changed.json")]) == 1
    assert capsys.readouterr().out.startswith("NOT VERIFIED at version 3: ")


def test_a_running_record_that_replays_as_it_stands_verifies_that_far(tmp_path, capsys):
    record = json.loads(path_of("reign-and-ruin", 3).read_text("utf-8"))
    record["entries"] = record["entries"][:4]  # whole entries, cut before the end
    (tmp_path / "cut.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "cut.json")]) == 0
    out = capsys.readouterr().out
    assert "all 4 versions replay" in out and "to the end of the game" not in out


def test_a_start_the_seed_did_not_deal_is_not_verified(tmp_path, capsys):
    """A record that is not a fork's replays from the setup its seed deals: one that carries
    another start (seed 3's deal, with its own digests) under seed 42 stacks the deck, and is
    refused at version 0, however well its entries replay from that start."""
    record = json.loads(path_of("reign-and-ruin", 3).read_text("utf-8"))
    game = get_game("reign-and-ruin")
    record["start"] = game.setup(record["players"], 3, record["options"])
    salt = "0" * 32
    record["fairness"] = dict(record["fairness"], seed=42, salt=salt)
    record["fairness"]["seed_commitment"] = commitment(salt, 42)
    (tmp_path / "stacked.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "stacked.json")]) == 1
    out = capsys.readouterr().out
    assert out.startswith("NOT VERIFIED at version 0: The start state is not the one setup gives")
    # with its own seed the same start is the setup, and the record verifies
    record["fairness"] = json.loads(path_of("reign-and-ruin", 3).read_text("utf-8"))["fairness"]
    (tmp_path / "honest.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "honest.json")]) == 0


def test_a_fork_verifies_from_its_start_with_the_records_players(tmp_path, capsys):
    record = json.loads(path_of("reign-and-ruin", 3).read_text("utf-8"))
    game = get_game("reign-and-ruin")
    record["start"] = game.setup(record["players"], 3, record["options"])
    record["forked_from"] = {"session_id": "s1", "version": 4}
    (tmp_path / "fork.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "fork.json")]) == 0
    assert "replay from the fork's start (version 4 of session s1" in capsys.readouterr().out
    record["players"] = ["mallory", *record["players"][1:]]
    (tmp_path / "renamed.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "renamed.json")]) == 1
    assert "players are not the record's players" in capsys.readouterr().out


def test_a_records_text_cannot_steer_the_terminal(tmp_path, capsys):
    """An event's text is quoted in the verdict: its 8-bit escape (U+009B, CSI) and bidi
    override come out as ``\\u`` escapes, not as characters a terminal acts on."""
    record = json.loads(path_of("reign-and-ruin", 3).read_text("utf-8"))
    record["entries"][1]["events"][0]["note"] = "\x9b2K\x1b[8m\u202eok"
    (tmp_path / "steer.json").write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(tmp_path / "steer.json")]) == 1
    out = capsys.readouterr().out
    assert out.startswith("NOT VERIFIED at version 2: ") and "\\u009b2K" in out
    assert all(c.isprintable() for c in out.rstrip("\n"))


def test_a_record_of_other_rules_cannot_be_checked_here(tmp_path, capsys):
    """A game played under another version of its rules (its ``schema_version``: begun before
    the referee's rules changed) is not this verifier's to check: exit 2 naming both versions,
    not a "NOT VERIFIED" that calls an honest game forged."""
    record = json.loads(path_of("reign-supreme", 8).read_text("utf-8"))
    record["schema_version"] -= 1
    path = tmp_path / "older.json"
    path.write_text(json.dumps(record), "utf-8")
    assert cli.main(["verify", str(path)]) == 2
    captured = capsys.readouterr()
    assert "NOT VERIFIED" not in captured.out
    version = get_game("reign-supreme").schema_version
    assert (
        f"played under version {version - 1} of Reign Supreme's rules, and this verifier plays "
        f"version {version}" in captured.err
    )
