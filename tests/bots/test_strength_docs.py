"""The strength benchmark's generated docs (issue 28): ``bench/bot_strength.py report`` writes
``docs/bot_strength.json`` and, from it alone, the plot and the table in ``docs/bots.md``; they
must not drift apart. Its records count only for the code they were played with."""

from __future__ import annotations

import gc
import json
import re
from pathlib import Path

from tests import bench_scripts

ROOT = Path(__file__).resolve().parents[2]


def _results() -> dict:
    return json.loads((ROOT / "docs/bot_strength.json").read_text("utf-8"))["results"]


def test_the_plot_is_what_the_json_gives():
    bench = bench_scripts.load("bot_strength")
    assert (ROOT / "docs/bot_strength.svg").read_text("utf-8") == bench.svg(_results()), (
        "docs/bot_strength.svg is stale: run `.venv/bin/python bench/bot_strength.py report`"
    )


def test_the_table_in_the_docs_is_what_the_json_gives():
    bench = bench_scripts.load("bot_strength")
    text = (ROOT / "docs/bots.md").read_text("utf-8")
    assert text == bench.with_table(text, _results()), (
        "the table in docs/bots.md is stale: run `.venv/bin/python bench/bot_strength.py report`"
    )


def test_the_longest_answers_the_prose_gives_are_the_jsons():
    """The prose under the table states the longest answers in words, which ``report`` does not
    write: per game at 50 ms, and the longest of all at 1000 ms (whole milliseconds)."""
    results = _results()
    text = " ".join((ROOT / "docs/bots.md").read_text("utf-8").split())
    found = re.search(
        r"The longest were (\d+), (\d+), (\d+) and (\d+) ms at 50 ms \(Reign Absolute, Reign & "
        r"Ruin, Reign Supreme, the Council\) and (\d+) ms at 1000 ms",
        text,
    )
    assert found, "docs/bots.md no longer states the longest answers"
    games = ("reign-absolute", "reign-and-ruin", "reign-supreme", "reigns-the-council")
    whole = lambda ms: int(ms + 0.5)  # noqa: E731
    at_50 = [whole(results[g]["50"]["max_answer_ms"]) for g in games]
    at_1000 = whole(max(results[g]["1000"]["max_answer_ms"] for g in games))
    assert [int(n) for n in found.groups()] == [*at_50, at_1000]


def test_the_json_covers_every_game_and_budget():
    results = _results()
    bench = bench_scripts.load("bot_strength")
    assert sorted(results) == sorted(bench.GAMES)
    for points in results.values():
        assert sorted(map(int, points)) == sorted(bench.BUDGETS)


def _report_freezing(task: tuple[str, int, int, str]) -> dict:
    """A stand-in for ``play_one`` that reports what its worker process has frozen."""
    game, time_ms, index, level = task
    record = {"game": game, "time_ms": time_ms, "index": index, "level": level, "seconds": 0.0}
    return dict(record, frozen=gc.get_freeze_count())


def test_strength_workers_play_with_what_they_inherited_frozen(tmp_path, monkeypatch):
    """A worker inherits every past record of the process that starts it: unfrozen, a full
    collection walked them inside an answer being timed (``freeze_inherited``)."""
    bench = bench_scripts.load("bot_strength")
    raw = tmp_path / "bot_strength.jsonl"
    monkeypatch.setattr(bench, "RAW", raw)
    monkeypatch.setattr(bench, "play_one", _report_freezing)
    assert bench.run(["reign-and-ruin"], [50], count=1, workers=1) == 2  # expert and control
    records = [json.loads(line) for line in raw.read_text("utf-8").splitlines()]
    assert len(records) == 2
    assert all(r["frozen"] > 0 for r in records)


def test_only_the_current_codes_records_count(tmp_path, monkeypatch):
    bench = bench_scripts.load("bot_strength")
    raw = tmp_path / "bot_strength.jsonl"
    monkeypatch.setattr(bench, "RAW", raw)
    record = {"game": "reign-absolute", "time_ms": 50, "seats": 2, "share": 1.0}
    lines = [
        dict(record, code="an older code", index=0, share=0.0),
        dict(record, code=bench.code_key("reign-absolute"), index=0),
        dict(record, code="an older code", index=1),
    ]
    raw.write_text("".join(json.dumps(r) + "\n" for r in lines), "utf-8")
    assert [r["index"] for r in bench.load()[("reign-absolute", 50, "expert")]] == [0]
    assert bench.load()[("reign-absolute", 50, "expert")][0]["share"] == 1.0


def _game(index: int, share: float, **more) -> dict:
    return dict(
        index=index,
        share=share,
        seats=2,
        answer_ms=[1.0],
        incomplete=0,
        switches=0,
        finished=True,
        **more,
    )


def test_a_point_pairs_the_experts_games_with_greedys_in_its_seat():
    bench = bench_scripts.load("bot_strength")
    control = [_game(i, 1.0 if i % 3 == 0 else 0.0) for i in range(100)]
    same = bench.point([dict(g) for g in control], control)
    assert same["difference"] == 0 and same["difference_95"] == [0, 0]
    assert same["differing_games"] == 0 and same["not_weaker"] and same["clearly_not_weaker"]
    assert same["expert_share"] == same["greedy_share"] == 0.34  # below 1/2, as greedy is here
    # the expert loses ten of greedy's wins and wins nothing greedy lost: weaker, clearly
    worse = [_game(i, 0.0 if i % 3 == 0 and i < 30 else g["share"]) for i, g in enumerate(control)]
    verdict = bench.point(worse, control)
    assert verdict["differing_games"] == 10 and verdict["difference"] == -0.1
    assert not verdict["not_weaker"] and verdict["difference_95"][1] < 0
    # one loss in a hundred is within the noise: not ruled out, but below greedy
    once = bench.point([_game(0, 0.0)] + control[1:], control)
    assert once["not_weaker"] and not once["clearly_not_weaker"]
    # only game numbers both played are compared
    assert bench.point(control[:10], control[5:])["games"] == 5


def test_the_control_plays_greedy_in_the_experts_seat_of_the_same_game():
    bench = bench_scripts.load("bot_strength")
    for game_id in bench.GAMES:
        for index in range(4):
            _, experts, seat, seed, state = bench.set_up_game(game_id, index, "expert")
            _, greedy, control_seat, control_seed, control_state = bench.set_up_game(
                game_id, index, "greedy"
            )
            assert experts[seat] == "expert" and list(experts.values()).count("expert") == 1
            assert set(greedy.values()) == {"greedy"}
            assert (control_seat, control_seed, control_state) == (seat, seed, state)
        seats = {bench.set_up_game(game_id, i)[2] for i in range(3)}
        assert len(seats) == 2 + (game_id == "reigns-the-council")  # rotated game by game


def test_a_games_records_are_keyed_to_its_own_code_and_the_shared_code():
    bench = bench_scripts.load("bot_strength")
    keys = {g: bench.code_key(g) for g in bench.GAMES}
    assert len(set(keys.values())) == len(keys)
    assert keys["reign-absolute"] == bench.code_key("reign-absolute")  # a digest, no clock


def test_a_report_with_nothing_new_keeps_the_docs_as_they_are(tmp_path, monkeypatch):
    """``bench.py`` reports after every run; when no game was played, the JSON keeps the time
    and load of the run that played them (the docs say when that was)."""
    bench = bench_scripts.load("bot_strength")
    for name in ("RAW", "OUT_JSON", "OUT_SVG", "OUT_MD"):
        monkeypatch.setattr(bench, name, tmp_path / name)
    bench.OUT_MD.write_text("text\n" + "".join(bench.MARKERS), "utf-8")
    key = bench.code_key("reign-absolute")
    records = [
        dict(_game(i, 1.0, level=level), code=key, game="reign-absolute", time_ms=50)
        for i in range(3)
        for level in ("expert", "greedy")
    ]
    bench.RAW.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    monkeypatch.setattr(bench.time, "strftime", lambda *args: "first")
    assert bench.report(say=lambda text: None)["when"] == "first"
    monkeypatch.setattr(bench.time, "strftime", lambda *args: "second")
    assert bench.report(say=lambda text: None)["when"] == "first"
    assert json.loads(bench.OUT_JSON.read_text("utf-8"))["when"] == "first"
    with bench.RAW.open("a") as raw:  # one more game and its control: a new report
        raw.write("".join(json.dumps(dict(r, index=3)) + "\n" for r in records[:2]))
    assert bench.report(say=lambda text: None)["when"] == "second"
