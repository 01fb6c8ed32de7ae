"""Legal moves (order included) and apply results of a few hundred seeded random states are
exactly what ``fixtures/moves.json`` recorded (``move_fixture``): the engine's internal move
form and its shortcuts change nothing a client sees."""

from __future__ import annotations

import json
from pathlib import Path

from tests.rules.reign_and_ruin.move_fixture import (
    GAMES,
    STATES_PER_GAME,
    digest,
    sample_states,
    state_record,
)

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "moves.json"


def test_every_sampled_state_answers_as_recorded():
    recorded = json.loads(FIXTURE.read_text("utf-8"))["digests"]
    states = sample_states()
    assert len(states) == len(recorded) == GAMES * STATES_PER_GAME
    changed = [i for i, s in enumerate(states) if digest(state_record(s)) != recorded[i]]
    assert not changed, f"states whose moves or results changed: {changed[:20]}"
