"""``reign-referee verify FILE`` replays a record with the replay of ``/replay``: exit 0 when it
replays, 1 at the first difference (named), 2 when the file is not a finished game's record."""

from __future__ import annotations

import io
import json

from api import cli
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
