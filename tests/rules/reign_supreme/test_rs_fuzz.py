"""Arbitrary moves never crash the rules: ``violations`` returns a list, and ``apply`` either
succeeds (only for a move with no violations) or raises IllegalMove."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.reign_supreme import GAME
from tests.rules.fuzzing import json_values, judged_without_crashing


def sample_states():
    states = []
    for seed, n, options in (
        (1, 2, {"scenario": "skirmish"}),
        (2, 3, {"round_limit": 2}),
        (3, 4, {"setup": "auto", "round_limit": 2}),
    ):
        state = GAME.setup(["ann", "bob", "cat", "dan"][:n], seed, options)
        chooser = random.Random(seed)
        i = 0
        while state["status"] != "finished":
            if i % 7 == 0:
                states.append(state)
            legal = [m for m in GAME.legal_moves(state) if m["type"] != "concede"]
            state, _ = GAME.apply(state, chooser.choice(legal))
            i += 1
        states.append(state)
    return states


STATES = sample_states()
PLAYERS = ["ann", "bob", "cat", "dan", "zed"]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-12, 12),
    st.floats(allow_nan=False),
    st.sampled_from(["u1", "u2", "u7", "u30", "", "melee", "shoot", "ann"]),
    st.text(max_size=4),
)
values = json_values(scalars)
hexes = st.lists(st.integers(-10, 10), min_size=2, max_size=2)
moves = st.fixed_dictionaries(
    {
        "player": st.one_of(st.sampled_from(PLAYERS), values),
        "type": st.one_of(st.sampled_from(list(GAME.move_types)), values),
    },
    optional={
        "unit": st.one_of(st.sampled_from(["u1", "u2", "u5", "u12", "u40"]), values),
        "target": st.one_of(st.sampled_from(["u1", "u3", "u11", "u21"]), values),
        "to": st.one_of(hexes, values),
        "mode": st.one_of(st.sampled_from(["melee", "shoot"]), values),
        "extra": values,
    },
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(STATES) - 1), move=moves)
def test_any_move_is_judged_without_crashing(index, move):
    state = STATES[index]
    if judged_without_crashing(GAME, state, move):
        assert move in GAME.legal_moves(state)
