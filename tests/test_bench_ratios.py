"""``bench/bench.py``'s ratios (issue 28): an HTTP service round against the echo rounds on
either side of it, the median of those ratios; Reign & Ruin against OpenSpiel's Liar's Poker
round by round. A drift of the machine between rounds cancels."""

from __future__ import annotations

import os

import pytest

from tests import bench_scripts


def _rounds(*rates: float) -> list[dict]:
    return [{"requests_per_second": rate} for rate in rates]


def test_each_round_is_compared_with_the_echo_rounds_beside_it():
    bench = bench_scripts.load("bench")
    # the machine doubles its speed between rounds: the service is 3/4 of the echo throughout
    echo = _rounds(1000, 2000, 1000, 2000)
    service = _rounds(1125, 1125, 1125)  # each against the mean of its neighbours, 1500
    assert bench.paired_ratio(service, echo) == 0.75
    # medians of rounds taken apart would say 1125 / 1500 only by luck of the order; here the
    # third service round ran on a machine twice as slow as its echo neighbours say: it is out
    assert bench.paired_ratio(_rounds(1125, 1125, 300), echo) == 0.75


def test_a_stalled_echo_round_does_not_make_the_service_beside_it_look_faster():
    """A run's Reign Supreme apply: two echo rounds at less than half their rate. Against the
    mean of its neighbours, every service round beside one looked 40% faster (the median of the
    rounds then read 0.69); against the steady echo rounds alone it is 0.5."""
    bench = bench_scripts.load("bench")
    echo = _rounds(4000, 1800, 4000, 4000, 4000, 1800, 4000, 4000)
    service = _rounds(*[2000] * 7)
    assert bench.paired_ratio(service, echo) == 0.5
    assert bench.steady([4000, 1800, 4000]) == [4000, None, 4000]


def test_a_stalled_service_round_has_no_ratio():
    bench = bench_scripts.load("bench")
    echo = _rounds(100, 100, 100, 100)
    assert bench.paired_ratio(_rounds(70, 20, 80), echo) == 0.75  # the median of 0.7 and 0.8


def test_the_ratio_is_the_median_of_the_rounds():
    bench = bench_scripts.load("bench")
    echo = _rounds(100, 100, 100, 100)
    assert bench.paired_ratio(_rounds(50, 70, 90), echo) == 0.7
    with pytest.raises(IndexError):  # every service round needs an echo round after it
        bench.paired_ratio(_rounds(50, 70, 90), _rounds(100, 100, 100))


def test_reign_and_ruin_is_compared_with_liars_poker_round_by_round(monkeypatch):
    bench = bench_scripts.load("bench")
    speeds = iter([100, 90, 7, 50, 45, 3, 80, 100, 9])  # per round: R&R, Liar's, Kuhn's
    workload = lambda seconds: {"steps_per_second": next(speeds)}  # noqa: E731
    monkeypatch.setattr(bench, "play_for", lambda game, seconds: workload(seconds))
    monkeypatch.setattr(
        bench,
        "openspiel_games",
        lambda: {
            "openspiel:python_liars_poker": workload,
            "openspiel:python_kuhn_poker": workload,
        },
    )
    monkeypatch.setattr(bench, "progress", lambda text: None)
    monkeypatch.setattr(bench, "apart", lambda run, seconds: run(seconds))  # one shared iterator
    results = bench.inprocess(["reign-and-ruin"], 0.0, 3)
    assert results["reign-and-ruin"]["rounds"] == [100, 50, 80]
    assert results["openspiel:python_liars_poker"]["rounds"] == [90, 45, 100]
    # 100/90, 50/45 and 80/100: the median of the rounds' ratios, not 80/90 of the medians
    assert results["reign-and-ruin"]["ratio_to"] == {"openspiel:python_liars_poker": 1.111}


def test_each_round_of_a_workload_runs_in_a_process_of_its_own_from_the_same_heap():
    """``apart``: a round runs in another process, which starts from the bench's heap as it was
    before any round, whatever the rounds before it left (here, a count they raised)."""
    bench = bench_scripts.load("bench")
    left_behind: list[int] = []

    def workload(seconds: float) -> dict:
        left_behind.append(os.getpid())
        return {"pid": os.getpid(), "left_behind": len(left_behind), "seconds": seconds}

    first = bench.apart(workload, 0.5)
    second = bench.apart(workload, 0.25)
    assert first["seconds"] == 0.5 and second["seconds"] == 0.25
    assert first["left_behind"] == second["left_behind"] == 1
    assert os.getpid() not in (first["pid"], second["pid"])
    assert first["pid"] != second["pid"]
    assert left_behind == []


def test_a_workload_whose_process_dies_is_an_error_not_a_hang():
    bench = bench_scripts.load("bench")
    with pytest.raises(RuntimeError, match="exit code 3"):
        bench.apart(lambda seconds: os._exit(3), 0.0)


def test_the_table_counts_the_stalled_rounds_of_each_row():
    """The ``stalled`` column: the rounds of a row's echo, endpoint and unseen runs that
    :func:`steady` left out of its ratios, so a reader sees on how many rounds a ratio stands."""
    bench = bench_scripts.load("bench")

    def run(*rates: float) -> dict:
        return {
            "rounds": list(rates),
            "requests_per_second": sorted(rates)[len(rates) // 2],
            "p50_ms": 1.0,
            "p99_ms": 2.0,
            "errors": 0,
        }

    row = {
        "mean_body_bytes": 1000,
        "echo": run(4000, 1800, 4000, 4000),  # one stalled
        "endpoint": run(2000, 2000, 600),  # one stalled
        "unseen": run(1500, 1500, 1500),
        "ratio": 0.5,
        "ratio_unseen": 0.375,
    }
    assert bench.stalled_rounds(row) == 2
    report = {"inprocess": {}, "http": {"demo apply": row}, "clients": 4, "load": "wrk"}
    header, line = bench.table(report).splitlines()[-2:]
    assert header.split()[-1] == "stalled"
    assert line.split()[-1] == "2" and line.split()[-2] == "0"  # errors, then stalled


def test_the_rules_free_ceiling_takes_the_rules_call_out_of_the_service_alone():
    pipeline = bench_scripts.load("pipeline")
    # 180 µs of echo against 360 µs, 100 of them the rules call: 180 / 260 at best
    assert pipeline.rules_free_ratio(180.0, 360.0, 100.0) == 180.0 / 260.0


def test_the_table_shows_a_ratio_just_under_its_goal_as_under_it():
    """Whole points rounded 0.746 to 75%, which read as the 75% goal met; a tenth of a point
    shows it short."""
    bench = bench_scripts.load("bench")
    run = {"rounds": [1.0], "requests_per_second": 1.0, "p50_ms": 1.0, "p99_ms": 2.0, "errors": 0}
    row = {
        "mean_body_bytes": 1000,
        "echo": run,
        "endpoint": run,
        "unseen": run,
        "ratio": 0.746,
        "ratio_unseen": 0.6,
    }
    report = {"inprocess": {}, "http": {"demo apply": row}, "clients": 4, "load": "wrk"}
    line = bench.table(report).splitlines()[-1]
    assert "74.6%" in line.split() and "60.0%" in line.split()
