"""``api.jsonio.loads_body``: integral floats arrive as integers, and the byte scan that decides
whether to look for them (``may_hold_float``) misses no float token."""

from __future__ import annotations

import random
import re

from api import jsonio

FLOAT_TOKEN = re.compile(rb"(?:^|[:,\[ \t\n\r])-?[0-9]+[.eE]")
"""The scan's definition, as a regular expression: a digit run that starts where a JSON value may
start (after an optional minus sign) and is followed by a fraction or an exponent."""


def test_the_scan_finds_exactly_the_float_tokens_of_its_definition():
    chooser = random.Random(7)
    alphabet = b'0123456789.eE-:,[ \t\n\r"ax{}'
    for _ in range(50_000):
        data = bytes(chooser.choice(alphabet) for _ in range(chooser.randint(0, 14)))
        assert jsonio.may_hold_float(data) == bool(FLOAT_TOKEN.search(data)), data


def test_integral_floats_become_integers_and_hex_strings_are_left_alone():
    body = (
        b'{"seed": 5.0, "n": [1e3, -2E0, 2.5], "rng": "c0012a2ab4e0c6f1", "x": {"y": '
        b"12400387691.0}}"
    )
    value = jsonio.loads_body(body)
    assert value == {
        "seed": 5,
        "n": [1000, -2, 2.5],
        "rng": "c0012a2ab4e0c6f1",
        "x": {"y": 12400387691},
    }
    assert [type(v) for v in value["n"]] == [int, int, float] and type(value["seed"]) is int
    assert not jsonio.may_hold_float(b'{"rng": "c0012a2ab4e0c6f1", "count": 12}')


def test_dumps_is_canonical_sorted_compact_utf8():
    """Equal values give equal bytes (the known-state digest and the tests' comparisons rely on
    it): keys sorted at every depth, no spaces, UTF-8 rather than escapes."""
    assert (
        jsonio.dumps({"b": 1, "a": [1, {"d": 2, "c": "é"}]})
        == '{"a":[1,{"c":"é","d":2}],"b":1}'.encode()
    )
