"""The internal move form ("actions") and its conversion to and from the public move dicts.

Legal moves are listed and resolved as tuples, which are cheaper to build than dicts; a move
dict is made only at the API's edge (:func:`public_move`), and a client's move becomes an
action only after its checks (:func:`action_of`). Every action starts with the move type and the
player; the rest is the move's parameters plus where its checks found the fighter it acts on:

==========================================  =================================================
``("draft", player, first, second)``        the two cards in packet order
``("fighter", player, card)``
``("draw", player, card)``
``(kind, player, card, place)``             ``kind`` destroy, double or protect
``("swap", player, card, place, to)``       the fighter at ``place`` goes ``to`` army or hand
``("swap", player, card, opponent)``        nothing to take from the opponent's army
``("revive", player, card, target, army)``  ``army`` None: into the player's hand
==========================================  =================================================

A :data:`Place` is where a fighter stands: ``(card, owner, index, kurgoz)``, the fighter
``armies[owner][index]`` and its Kurgoz tokens, as the legal plays surveyed them
(``abilities._survey``), shared by every action that targets that fighter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine_types import Action, Move, PlayerId, State

__all__ = ["Place", "public_move", "public_moves", "action_of"]

Place = tuple[str, PlayerId, int, int]
"""A fighter's card, owner, index in that army, and Kurgoz tokens."""


def _draft_move(action: Action) -> Move:
    return {"player": action[1], "type": "draft", "cards": [action[2], action[3]]}


def _card_move(action: Action) -> Move:
    return {"player": action[1], "type": action[0], "card": action[2]}


def _target_move(action: Action) -> Move:
    return {"player": action[1], "type": action[0], "card": action[2], "target": action[3][0]}


def _swap_move(action: Action) -> Move:
    if len(action) == 4:
        return {"player": action[1], "type": "swap", "card": action[2], "opponent": action[3]}
    take, opponent, _, _ = action[3]
    return {
        "player": action[1],
        "type": "swap",
        "card": action[2],
        "opponent": opponent,
        "take": take,
        "to": action[4],
    }


def _revive_move(action: Action) -> Move:
    if action[4] is None:
        return {
            "player": action[1],
            "type": "revive",
            "card": action[2],
            "target": action[3],
            "to": "hand",
        }
    return {
        "player": action[1],
        "type": "revive",
        "card": action[2],
        "target": action[3],
        "to": "army",
        "army": action[4],
    }


_PUBLIC: dict[str, Callable[[Action], Move]] = {
    "draft": _draft_move,
    "fighter": _card_move,
    "draw": _card_move,
    "destroy": _target_move,
    "double": _target_move,
    "protect": _target_move,
    "swap": _swap_move,
    "revive": _revive_move,
}


def public_move(action: Action) -> Move:
    """The move dict of ``action``, with the keys in the order the API has always listed them."""
    return _PUBLIC[action[0]](action)


def public_moves(actions: list[Action]) -> list[Move]:
    """:func:`public_move` of each action, in order (one call per move: the API lists them all)."""
    public = _PUBLIC
    return [public[a[0]](a) for a in actions]


def action_of(state: State, move: Move, where: Any) -> Action:
    """The action of a move that passed every check in ``state``; ``where`` is what the checks
    found (``moves._check``): the target's ``(owner, index)``, or the index of the fighter a
    Crou takes. Fields a move may give as null (``take``, ``to``, ``army``) are left out."""
    armies = state["armies"]
    kind = move["type"]
    p = move["player"]
    if kind == "draft":
        a, b = move["cards"]
        packet = state["draft"]["packets"][p]
        return ("draft", p, a, b) if packet.index(a) < packet.index(b) else ("draft", p, b, a)
    card = move["card"]
    if kind == "fighter" or kind == "draw":
        return (kind, p, card)
    if kind == "swap":
        if move.get("take") is None:
            return ("swap", p, card, move["opponent"])
        opponent = move["opponent"]
        place = (move["take"], opponent, where, armies[opponent][where]["kurgoz"])
        return ("swap", p, card, place, move["to"])
    if kind == "revive":
        army = None if move["to"] == "hand" else move["army"]
        return ("revive", p, card, move["target"], army)
    owner, index = where
    return (kind, p, card, (move["target"], owner, index, armies[owner][index]["kurgoz"]))
