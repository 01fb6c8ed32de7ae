"""``bench/bench.py``'s HTTP ratio (issue 28): each service round against the echo rounds on
either side of it, the median of those ratios; a drift of the machine between rounds cancels."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    """``bench/bench.py`` as a module; its folder is on ``sys.path`` only while it imports its
    neighbours (``bot_strength``, ``workloads``), so no other test sees them."""
    spec = importlib.util.spec_from_file_location("bench_main", ROOT / "bench/bench.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return module


def _rounds(*rates: float) -> list[dict]:
    return [{"requests_per_second": rate} for rate in rates]


def test_each_round_is_compared_with_the_echo_rounds_beside_it():
    bench = _bench()
    # the machine doubles its speed between rounds: the service is 3/4 of the echo throughout
    echo = _rounds(1000, 2000, 1000, 2000)
    service = _rounds(1125, 1125, 1125)  # each against the mean of its neighbours, 1500
    assert bench.paired_ratio(service, echo) == 0.75
    # medians of rounds taken apart would say 1125 / 1500 only by luck of the order; here the
    # third service round ran on a machine twice as slow as its echo neighbours say: it is out
    assert bench.paired_ratio(_rounds(1125, 1125, 300), echo) == 0.75


def test_the_ratio_is_the_median_of_the_rounds():
    bench = _bench()
    echo = _rounds(100, 100, 100, 100)
    assert bench.paired_ratio(_rounds(50, 70, 90), echo) == 0.7
    with pytest.raises(IndexError):  # every service round needs an echo round after it
        bench.paired_ratio(_rounds(50, 70, 90), _rounds(100, 100, 100))
