"""Arbitrary moves never crash the rules: ``violations`` returns a list, and ``apply`` either
succeeds (only for a move with no violations) or raises IllegalMove."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.playout import random_steps
from rules.reign_and_ruin import GAME
from tests.rules.fuzzing import json_values, judged_without_crashing


def sample_states():
    states = []
    for seed, n in ((1, 2), (2, 3), (3, 4)):
        state = GAME.setup(["ann", "bob", "cat", "dan"][:n], seed, {})
        for i, step in enumerate(random_steps(GAME, state, random.Random(seed))):
            if i % 5 == 0:
                states.append(step.before)
        states.append(step.after)  # a finished game too
    return states


STATES = sample_states()
IDS = sorted(STATES[0]["cards"]) + ["", "zed"]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False),
    st.sampled_from(IDS),
    st.sampled_from(["ann", "bob", "cat", "dan", "army", "hand"]),
    st.text(max_size=4),
)
values = json_values(scalars)
moves = st.fixed_dictionaries(
    {
        "player": st.one_of(st.sampled_from(["ann", "bob", "cat", "dan", "zed"]), values),
        "type": st.one_of(st.sampled_from(list(GAME.move_types)), values),
    },
    optional={
        k: st.one_of(st.sampled_from(IDS), values)
        for k in ("card", "target", "take", "opponent", "army", "to", "cards", "extra")
    },
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(STATES) - 1), move=moves)
def test_any_move_is_judged_without_crashing(index, move):
    judged_without_crashing(GAME, STATES[index], move)
