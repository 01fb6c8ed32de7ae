"""Records of random games for the record tests, the seeded corpus and ``bench/records.py``.

A game is played with random legal moves (``rules.playout.choose_move``, rarely conceding so that
games last), each move recorded as a session would (``rules.records.make_entry``), with fixed
stand-in times, so the same seed gives the same record byte for byte.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from rules.playout import choose_move
from rules.records import commitment, make_entry, make_record, undone_seats
from rules.registry import get_game

PLAYERS = {
    "reign-and-ruin": ["ann", "bob", "cat"],
    "reign-absolute": ["ann", "bob"],
    "reign-supreme": ["ann", "bob"],
    "reigns-the-council": ["ann", "bob", "cat"],
}
"""The seats of each game's recorded games."""
GAME_IDS = sorted(PLAYERS)
SALT = "5a17" * 8
"""The corpus' stand-in salt (32 hex digits): the commitment is real, the salt is fixed."""
AT = "2026-01-01T00:00:00.000Z"


def consent(game_id: str, proposer: str, passed: list[dict[str, Any]]) -> list[str]:
    """The ``accepted_by`` of a takeback by ``proposer`` that passes the entries ``passed``, as a
    session of human seats writes it: the proposer, then each other seat whose decisions it
    undoes (``rules.records.undone_seats``), in seat order."""
    undone = undone_seats(passed)
    return [proposer] + [p for p in PLAYERS[game_id] if p in undone and p != proposer]


def fairness(seed: int, revealed: bool = True, open_: bool = True) -> dict[str, Any]:
    return {
        "open": open_,
        "seed_commitment": commitment(SALT, seed),
        "seed": seed if revealed else None,
        "salt": SALT if revealed else None,
    }


def play(game_id: str, seed: int, max_moves: int = 10_000) -> tuple[list[dict], list[dict]]:
    """The states (``states[v]``: version ``v``) and entries of one random game. The states are
    kept as copies: ``apply`` must never change a state it was given, and a rules bug that does
    (Reign Absolute's post-Setup task on this branch's base, fixed on branch ``rulesexact``)
    must not rewrite the recorded past under the tests."""
    game = get_game(game_id)
    state = game.setup(PLAYERS[game_id], seed, {})
    chooser = random.Random(seed)
    states, entries = [state], []
    while state["status"] != "finished" and len(entries) < max_moves:
        move = choose_move(game.legal_moves(state), chooser, concede=0.01)
        state, events = game.apply(state, move)
        entries.append(make_entry(len(entries) + 1, move["player"], move, events, AT, state))
        states.append(copy.deepcopy(state))
    return states, entries


def record_of(
    game_id: str, seed: int, max_moves: int = 10_000, reader: str | None = None, whole: bool = True
) -> dict[str, Any]:
    """The whole record of one random game, or (``whole`` false) as ``reader`` sees it while the
    game runs, as an open session or a fork answers it (its seed revealed from the start)."""
    states, entries = play(game_id, seed, max_moves)
    return record_from(game_id, seed, states[0], entries, reader, whole)


def record_from(
    game_id: str,
    seed: int,
    start: dict[str, Any],
    entries: list[dict[str, Any]],
    reader: str | None = None,
    whole: bool = True,
) -> dict[str, Any]:
    """The record of a game of ``PLAYERS[game_id]`` set up with ``seed`` and no options, from
    its ``start`` and ``entries``: whole, or (``whole`` false) as ``reader`` sees it."""
    return make_record(
        get_game(game_id),
        players=PLAYERS[game_id],
        options={},
        fairness=fairness(seed),
        start=start,
        entries=entries,
        viewer=reader,
        whole=whole,
    )
