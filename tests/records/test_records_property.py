"""Issue 26's property: random takebacks and forks across the four games never let a seat see
anything it had not seen before (``tests/records/properties.py`` says what is checked).

The suite runs ``RECORDS_PROPERTY_SAMPLES`` samples (default 600, a few seconds) over one short
line per game; ``python bench/records.py --property 100000`` runs the issue's full count over
longer lines. The samples are seeded: a run is the same every time."""

from __future__ import annotations

import os

from tests.records.properties import check, lines

SAMPLES = int(os.environ.get("RECORDS_PROPERTY_SAMPLES", "600"))


def test_no_takeback_or_fork_shows_a_seat_anything_new():
    allowed, forks, failures, refused = check(SAMPLES, seed=26, pool=lines(per_game=1, moves=60))
    assert failures == []
    assert refused == []  # every fork was made (no determinizer refused a view)
    assert allowed >= SAMPLES // 40 and forks >= SAMPLES // 3  # both kinds were really tried
