"""Golden playthroughs: seeded games recorded by ``make_golden.py``, replayed move by move and
compared byte for byte, so an unintended change of the rules is caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.jsonio import dumps
from rules.reign_absolute import GAME

GOLDEN = sorted((Path(__file__).resolve().parent / "golden").glob("*.json"))


def test_golden_files_exist():
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_playthrough_replays_exactly(path):
    record = json.loads(path.read_text("utf-8"))
    state = GAME.setup(record["players"], record["seed"], record["options"])
    assert dumps(state) == dumps(record["setup"]), "setup changed"
    for i, step in enumerate(record["steps"]):
        assert step["move"] in GAME.legal_moves(state), f"move {i} is no longer listed"
        state, events = GAME.apply(state, step["move"])
        assert dumps(events) == dumps(step["events"]), f"events of move {i} changed"
        assert dumps(
            {k: v for k, v in state.items() if k not in ("races", "units", "cards")}
        ) == dumps(step["state"]), f"state after move {i} changed"
        assert (
            state["units"] == record["setup"]["units"]
            and state["cards"] == record["setup"]["cards"]
        )
    assert state["status"] == "finished"
    GAME.check_state(state)
