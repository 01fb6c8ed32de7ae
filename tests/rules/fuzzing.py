"""Fuzzing a game's rules with arbitrary moves (each game's ``test_*_fuzz.py``): JSON-like
values built from a game's scalars, and the one property every judged move must have."""

from __future__ import annotations

from collections.abc import Iterator
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


ODD_VALUES: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    2**63,
    1.5,
    "",
    "z" * 300,
    [],
    [0, 0],
    [[0, 0]],
    {},
    {"a": 1},
)
"""A value of every JSON type, some of the right type but out of range: what any field of a
client's move may hold, whatever the field is for."""


def moves_with_an_odd_field(game: Game, state: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """For one listed move of each type in ``state`` (the first listed), that move with one
    field, in turn each of its own and one it does not take, set to each of :data:`ODD_VALUES`;
    moves whose checks get past the player, the type and the phase, which arbitrary moves seldom
    do (a Reign Supreme ``cast`` whose ``spell`` was a list once crashed its check)."""
    first_of_type: dict[str, dict[str, Any]] = {}
    for move in game.legal_moves(state):
        first_of_type.setdefault(move["type"], move)
    for move in first_of_type.values():
        for field in [*move, "unexpected"]:
            for value in ODD_VALUES:
                yield {**move, field: value}
