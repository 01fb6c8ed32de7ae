"""``reign-referee verify FILE`` replays a record with the replay of ``/replay``: exit 0 when it
replays, 1 at the first difference (named), 2 when the file is not a finished game's record
(unless it replays as it stands: an open session's running record with nothing hidden)."""

from __future__ import annotations

import io
import json

from api import cli
from rules.records import redact_entry
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
