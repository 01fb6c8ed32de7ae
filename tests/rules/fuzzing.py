"""Fuzzing a game's rules with arbitrary moves (each game's ``test_*_fuzz.py``): JSON-like
values built from a game's scalars, and the one property every judged move must have."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from rules.engine import Game
from rules.errors import IllegalMove


def json_values(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Small JSON-like values: the scalars, and short lists and objects of them."""
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
        ),
        max_leaves=5,
    )


def judged_without_crashing(game: Game, state: dict[str, Any], move: Any) -> bool:
    """Whether ``move`` was legal, after checking that the rules judged it consistently:
    ``violations`` returns a list, and ``apply`` either succeeds, only for a move with no
    violations and into a sound state, or raises IllegalMove with exactly those violations."""
    found = game.violations(state, move)
    assert isinstance(found, list)
    try:
        after, _events = game.apply(state, move)
    except IllegalMove as err:
        assert found and list(err.violations) == found
        return False
    assert found == []
    game.check_state(after)
    return True
