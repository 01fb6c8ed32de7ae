"""Integrity checks every game shares: the common fields of a client-sent state
(``../shared/docs/api-contract.md``, "Core ideas" and "Integrity"), and the guard that turns
any unreadable state into a violation instead of a crash.

Each game's own ``integrity`` module starts with :func:`common_problems`, then checks its own
fields, and is wrapped by :func:`guarded`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeGuard

from rules.engine_types import State, Violation
from rules.errors import InvalidState
from rules.player_ids import id_problem, look_alikes
from rules.rng import MAX_SEED

__all__ = [
    "HEX_DIGITS",
    "is_int",
    "is_seed",
    "common_problems",
    "to_move_problems",
    "guarded",
    "raise_problems",
    "player_id_violations",
]

HEX_DIGITS = frozenset("0123456789abcdef")


def is_int(value: object) -> TypeGuard[int]:
    """A JSON integer (``true`` is not 1 here); a type guard, so where it holds ``value`` is an
    int."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_seed(value: object) -> TypeGuard[int]:
    """A seed of the generator every game draws its chance from (``rules.rng``): a JSON integer
    from 0 to ``MAX_SEED``."""
    return is_int(value) and 0 <= value <= MAX_SEED


def common_problems(
    state: State,
    *,
    game_id: str,
    schema_version: int,
    min_players: int,
    max_players: int,
    max_move_count: int,
    rule: str,
) -> tuple[list[Violation], bool]:
    """The problems of the fields every state has: ``game``, ``schema_version``, ``players``,
    ``move_count``, ``seed`` and ``rng``. Also says whether ``players`` is sound (nothing else
    can be checked without it)."""
    found: list[Violation] = []
    if state.get("game") != game_id:
        found.append(Violation("wrong_game", f"state.game must be {game_id!r}.", rule))
    if state.get("schema_version") != schema_version:
        found.append(
            Violation("schema_version", f"state.schema_version must be {schema_version}.", rule)
        )
    players = state.get("players")
    players_ok = (
        isinstance(players, list)
        and all(isinstance(p, str) for p in players)
        and min_players <= len(players) <= max_players
        and len(set(players)) == len(players)
    )
    if not players_ok:
        found.append(
            Violation(
                "bad_players",
                f"state.players must list {min_players} to {max_players} different player ids.",
                rule,
            )
        )
    elif isinstance(players, list):  # as players_ok says; the type checker asks again
        unsafe = player_id_violations(players, "state.players", rule)
        found.extend(unsafe)
        players_ok = not unsafe
    count = state.get("move_count")
    if not is_int(count) or not 0 <= count <= max_move_count:
        found.append(
            Violation(
                "bad_move_count",
                f"state.move_count must be a whole number from 0 to {max_move_count}.",
                rule,
            )
        )
    seed = state.get("seed")
    if not is_seed(seed):
        found.append(
            Violation("bad_seed", f"state.seed must be a whole number from 0 to {MAX_SEED}.", rule)
        )
    rng = state.get("rng")
    if not isinstance(rng, str) or len(rng) != 16 or not set(rng) <= HEX_DIGITS:
        found.append(
            Violation("bad_rng", "state.rng must be 16 lowercase hexadecimal digits.", rule)
        )
    return found, players_ok


def player_id_violations(players: Sequence[str], where: str, rule: str) -> list[Violation]:
    """The one check of player ids, for a setup's players (``where`` ``players``) and a state's
    (``state.players``) alike: the contract's "Player ids follow the same rules wherever players
    are given". Each id stable under PRECIS ``UsernameCasePreserved`` (RFC 8265: no control,
    format or space characters, NFC: ``invalid_player_id``), and no two the same seat by case or
    confusable characters (Unicode TR 39 skeletons: ``duplicate_player``); ``rules.player_ids``.
    A state unchecked could bring ids setup refuses (a bidi override, a Cyrillic look-alike of
    another seat) into every view, event and picture drawn from it."""
    found = [
        Violation("invalid_player_id", f"{where}.{i} {player[:64]!r} {problem}.", rule)
        for i, player in enumerate(players)
        if (problem := id_problem(player)) is not None
    ]
    for i, j in look_alikes(players):
        if players[i] == players[j]:
            why = f"is given twice ({where}.{j})"
        else:
            why = (
                f"is the same seat as {where}.{j} {players[j][:64]!r}: they differ only by case "
                "or by confusable characters (Unicode TR 39)"
            )
        found.append(Violation("duplicate_player", f"{where}.{i} {players[i][:64]!r} {why}.", rule))
    return found


def to_move_problems(state: State, waiting: list[str], rule: str) -> list[Violation]:
    """``state.to_move`` must be exactly ``waiting``: the players the rules say the game waits
    on (``Game.waiting_on``), in ``active_players`` order. It is derived, never chosen, so a
    client cannot make the state wait on someone else (contract, Fairness)."""
    if state.get("to_move") == waiting:
        return []
    return [
        Violation(
            "bad_to_move",
            f"state.to_move must be {json.dumps(waiting)}: the players the game waits on.",
            rule,
        )
    ]


def guarded(
    problems: Callable[[State], list[Violation]], rule: str
) -> Callable[[State], list[Violation]]:
    """``problems`` made total: a state it cannot read (a missing key, a wrong type deep inside)
    is one ``malformed_state`` violation, never an exception. The message names the kind of
    problem only: it must not echo hidden parts of the state."""

    def state_problems(state: State) -> list[Violation]:
        try:
            return problems(state)
        except (KeyError, TypeError, AttributeError, ValueError, IndexError, RecursionError) as exc:
            return [
                Violation(
                    "malformed_state", f"The state cannot be read ({type(exc).__name__}).", rule
                )
            ]

    state_problems.__doc__ = (
        "Every integrity problem of ``state`` (``[]`` when sound). Never raises."
    )
    return state_problems


def raise_problems(found: list[Violation]) -> None:
    """Raise :class:`~rules.errors.InvalidState` listing ``found``, if there is anything in it."""
    if found:
        raise InvalidState(found)
