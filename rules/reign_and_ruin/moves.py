"""Legal moves, violations and ``apply`` for every phase: the dispatch over draft and play.

Moves are listed and resolved as actions (``rules.reign_and_ruin.actions``): ``legal_actions``
and ``resolve`` are the internal form the playouts use; ``legal_moves`` and ``apply`` are the
API's, made of them (a move dict per action listed; a client's move checked, then made an
action).

Moves arrive shape-checked by the schemas, but every value may still be wrong (an unknown id, a
card of someone else, a value of an unexpected type). Nothing here raises anything but
:class:`~rules.errors.IllegalMove`.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Action, Event, Move, PlayerId, State, Violation
from rules.errors import IllegalMove
from rules.reign_and_ruin import rulebook
from rules.reign_and_ruin.abilities import PLAY_TYPES, apply_play, check_play, play_actions
from rules.reign_and_ruin.actions import action_of, public_moves
from rules.reign_and_ruin.draft import apply_draft, draft_actions, draft_violations

__all__ = ["legal_actions", "legal_moves", "violations", "apply", "resolve", "actions_without"]

_DRAFT_FIELDS = frozenset({"player", "type", "cards"})
_PLAY_TYPES = frozenset(PLAY_TYPES)


def legal_actions(state: State, player: PlayerId | None = None) -> list[Action]:
    """Every legal move of ``player``, or of all active players (seat order) when None, as
    actions.

    Only active players have moves: an unknown or inactive player gets ``[]``, and so does
    everyone once the game is finished.
    """
    active = state["active_players"]
    if player is not None:
        if player not in active:
            return []
        chosen = (player,)
    else:
        chosen = active
    if state["phase"] == "draft":
        return draft_actions(state, chosen)
    if len(chosen) == 1:
        return play_actions(state, chosen[0])
    return []


def legal_moves(state: State, player: PlayerId | None = None) -> list[Move]:
    """:func:`legal_actions` as move dicts, in the same order."""
    return public_moves(legal_actions(state, player))


def actions_without(actions: list[Action], move_type: str) -> list[Action]:
    """The ``actions`` of any move type but ``move_type``, in order."""
    return [a for a in actions if a[0] != move_type]


def violations(state: State, move: Move) -> list[Violation]:
    """Why ``move`` is illegal in ``state``; ``[]`` when it is legal.

    Checked in order, stopping at the first failing level: the player is in the game; the game
    is not over; the move fits the phase (a ``draft`` move in the draft, a play afterwards);
    it is this player's turn; then the move's own rules.
    """
    return _check(state, move)[0]


def _check(state: State, move: Move) -> tuple[list[Violation], Any]:
    """The violations of ``move`` and, for a legal play, what its checks found (see check_play)."""
    p = move.get("player")
    if p.__class__ is not str or p not in state["hands"]:
        return [
            Violation("unknown_player", f"There is no player {p!r} in this game.", rulebook.PLAYERS)
        ], None
    if state["status"] == "finished":
        return [
            Violation(
                "game_finished",
                "The game is over; no more moves can be made.",
                rulebook.FINAL_ROUND,
            )
        ], None
    kind = move.get("type")
    phase = state["phase"]
    if kind == "draft":
        if phase != "draft":
            return [
                Violation(
                    "wrong_phase",
                    "The draft is over: play a card from your hand instead.",
                    rulebook.DRAFT,
                )
            ], None
        found = (
            [
                Violation("unexpected_field", f"A draft move takes no {key!r}.", rulebook.MOVES)
                for key in move
                if key not in _DRAFT_FIELDS
            ]
            if len(move) > 3
            else []
        )
        found.extend(draft_violations(state, move, p))
        return found, None
    if kind.__class__ is not str or kind not in _PLAY_TYPES:
        return [
            Violation(
                "unknown_move_type", f"Reign & Ruin has no move type {kind!r}.", rulebook.MOVES
            )
        ], None
    if phase == "draft":
        return [
            Violation(
                "wrong_phase",
                "The draft is still going on: choose two cards from your packet (a draft move).",
                rulebook.DRAFT,
            )
        ], None
    if state["active_players"][0] != p:
        return [_not_your_turn(state, p)], None
    return check_play(state, move, p)


def _not_your_turn(state: State, p: PlayerId) -> Violation:
    """The right words for a player who may not play now, in the play phase or final round."""
    final = state["final_round"]
    current = state["active_players"][0]
    if final is not None:
        if p == final["ended_by"]:
            return Violation(
                "not_your_turn",
                "You have played your last card; the others each play one more card.",
                rulebook.FINAL_ROUND,
            )
        if p not in final["to_play"]:
            return Violation(
                "not_your_turn", "You have no more plays in the final round.", rulebook.FINAL_ROUND
            )
        return Violation("not_your_turn", f"It is {current}'s turn.", rulebook.FINAL_ROUND)
    return Violation("not_your_turn", f"It is {current}'s turn.", rulebook.TURN)


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The state after ``move`` and the events, in order. Never mutates ``state``.

    Raises IllegalMove with the violations when the move is illegal.
    """
    found, where = _check(state, move)
    if found:
        raise IllegalMove(found)
    return resolve(state, action_of(state, move, where))


def resolve(state: State, action: Action) -> tuple[State, list[Event]]:
    """The state after a legal ``action`` and the events, in order, without checking it again.
    Never mutates ``state``."""
    if action[0] == "draft":
        return apply_draft(state, action)
    return apply_play(state, action)
