"""apply is pure: the same state and move give the same result, and the input is never changed;
a refused move changes nothing (architecture: Determinism)."""

from __future__ import annotations

import copy
import random

import pytest

from api.jsonio import dumps
from rules.errors import IllegalMove
from rules.reign_supreme import GAME


@pytest.mark.parametrize(
    "options", [{}, {"scenario": "skirmish"}, {"setup": "auto", "round_limit": 3}]
)
def test_apply_is_pure_and_deterministic(options):
    state = GAME.setup(["ann", "bob", "cat"], 5, options)
    chooser = random.Random(5)
    for _ in range(120):
        if state["status"] == "finished":
            break
        legal = [m for m in GAME.legal_moves(state) if m["type"] != "concede"]
        move = chooser.choice(legal)
        before = copy.deepcopy(state)
        a, ea = GAME.apply(state, move)
        b, eb = GAME.apply(state, move)
        assert state == before, "apply changed its input"
        assert dumps(a) == dumps(b) and dumps(ea) == dumps(eb)
        with pytest.raises(IllegalMove):
            GAME.apply(state, {**move, "player": "zed"})
        assert state == before
        state = a


def test_same_seed_same_game():
    def run(seed):
        s = GAME.setup(["ann", "bob"], seed, {"setup": "auto", "round_limit": 2})
        chooser = random.Random(1)
        while s["status"] != "finished":
            s, _ = GAME.apply(
                s, chooser.choice([m for m in GAME.legal_moves(s) if m["type"] != "concede"])
            )
        return dumps(s)

    assert run(8) == run(8)
