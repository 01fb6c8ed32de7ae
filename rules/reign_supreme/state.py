"""The state's constants and the low-level helpers every module shares: copying a state, a unit's
fresh turn record, the card catalogue. The lowest floor of the package's state handling: it
imports only content; a new game is built by :mod:`rules.reign_supreme.setup`.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import State
from rules.reign_supreme.content import default_cards


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON value (lists, dicts, scalars)."""
    if type(value) is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [json_copy(v) for v in value]
    return value


__all__ = [
    "SCHEMA_VERSION",
    "MAX_MOVE_COUNT",
    "MAX_ROUND_LIMIT",
    "SPELL_PIN_START",
    "TACTICS_PIN_START",
    "REINFORCEMENT_PIN_START",
    "PIN_RESET",
    "PACKING_NOTCHES",
    "PACKING_ENDS",
    "DEPLOYS_PER_PIN",
    "THRONE_CAPTURE_DEPLOYS",
    "MAX_DEPLOYS",
    "CARDS_PER_DECK_AT_START",
    "clone",
    "successor",
    "card_catalog",
    "catalog_of",
    "fresh_turn_flags",
    "json_copy",
]

SCHEMA_VERSION = 6
"""6: a defeated player's Kingdom is no enemy Kingdom for the Tactics pin
(``cooldown.in_enemy_kingdom``); 5: an effect played outside one's own turn lasts until the start
of one's own next turn (``effects.duration``); 4: ``to_move``; 3: Castle walls, roster damage
types, several active players in a Combat phase (issue 16)."""
MAX_MOVE_COUNT = 2**53 - 1
MAX_ROUND_LIMIT = 200
SPELL_PIN_START = 5
TACTICS_PIN_START = 10
REINFORCEMENT_PIN_START = 10
PIN_RESET = 10
PACKING_NOTCHES = 5
PACKING_ENDS = ("packed", "unpacked")
"""Where a Packing pin takes its unit (the ``to`` of a pin, ``now`` when it completes)."""
DEPLOYS_PER_PIN = 2
THRONE_CAPTURE_DEPLOYS = 3
MAX_DEPLOYS = 99
"""Deployments a player keeps at most (rules doc, Deployment phase: a service limit). No army can
use more: a player has at most 20 units (``content.MAX_LIST``), 80 with the hand-overs of a
four-player game, and deployments earned go on accruing while nothing waits to use them."""
CARDS_PER_DECK_AT_START = 2


def card_catalog(cards: list[dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """Card instance id (``<card>-<copy>``) -> the card definition, for ``cards`` (a game's card
    set, ``state["cards"]``; the default set when None)."""
    out = {}
    for card in default_cards() if cards is None else cards:
        for n in range(1, card["copies"] + 1):
            out[f"{card['id']}-{n}"] = card
    return out


class LastSeen:
    """A dict of what is worked out from one part of a state alone (its card set, its rosters),
    kept while that part is the last one asked about, compared by identity: a game's states
    share such a part (no move changes it), and every listing asks. A new part, as the service
    parses one per request, starts an empty dict; the part must never be changed in place."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[Any, dict[Any, Any]] = (None, {})

    def kept(self, part: Any) -> dict[Any, Any]:
        """The dict kept for ``part`` (each user its own keys)."""
        last = self._last  # read once: another thread may ask meanwhile
        if last[0] is not part:
            last = self._last = (part, {})
        return last[1]


_CATALOGS = LastSeen()


def catalog_of(state: State) -> dict[str, dict[str, Any]]:
    """:func:`card_catalog` of ``state["cards"]``, to read only: kept for the last cards list
    seen (:class:`LastSeen`; every listing and every card played asks)."""
    cards = state["cards"]
    kept = _CATALOGS.kept(cards)
    found = kept.get("catalog")
    if found is None:
        found = kept["catalog"] = card_catalog(cards)
    return found


def fresh_turn_flags() -> dict[str, Any]:
    """A unit's per-turn record at the start of its owner's turn: nothing done yet.

    ``moved`` (has moved), ``steps`` (spaces moved), ``charge`` (started its movement out of
    melee: Charging may apply), ``bonus`` (extra movement this turn: Construction, cards),
    ``attacked``/``attacks``/``mode`` (attacks made and their type), ``on_the_move`` (its last
    attack was a Flanking attack while moving), ``knocked`` (Knockback used), ``acted`` (did
    anything: the unit-switching rule), ``done`` (its activation is over)."""
    return {
        "moved": False,
        "steps": 0,
        "charge": False,
        "bonus": 0,
        "attacked": False,
        "attacks": 0,
        "mode": None,
        "on_the_move": False,
        "knocked": False,
        "acted": False,
        "done": False,
    }


def clone(state: State) -> State:
    """A copy of ``state`` whose changing parts can be edited freely. The scenario, kingdoms,
    armies and rosters never change during a game and are shared."""
    new = successor(state)
    new["walls"] = [dict(w) for w in state["walls"]]
    return new


def successor(state: State) -> State:
    """:func:`clone` but for the walls, which it shares with ``state``: the state a move builds,
    which changes a wall only through :func:`walls.own_walls` (copy on write; few moves change
    walls, and what is worked out from them is kept per list, :func:`walls.blocked_edges`).

    Every step of a playout copies a state, so it is built with ``copy()``, and with plain
    loops where the containers are few (the boards, the per-player lists), not comprehensions,
    each of which is a function call of its own."""
    new = state.copy()
    new["players"] = state["players"].copy()
    new["active_players"] = state["active_players"].copy()
    new["units"] = {uid: u.copy() for uid, u in state["units"].items()}
    new["engaged"] = _item_copies(state["engaged"])
    pending = state["pending"]
    new["pending"] = None if pending is None else json_copy(pending)
    boards = {}
    for p, b in state["boards"].items():
        b = boards[p] = b.copy()
        b["packing"] = _item_copies(b["packing"])
        b["spells"] = _item_copies(b["spells"])
        b["effects"] = _item_copies(b["effects"])
    new["boards"] = boards
    new["control"] = _list_copies(state["control"])
    new["kills"] = state["kills"].copy()
    new["defeated"] = state["defeated"].copy()
    new["zones"] = _list_copies(state["zones"])
    new["decks"] = _list_copies(state["decks"])
    new["discards"] = _list_copies(state["discards"])
    new["hands"] = _list_copies(state["hands"])
    return new


def _list_copies(lists: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """A copy of ``lists`` (key -> list) with each list copied (one level down)."""
    out = {}
    for key, value in lists.items():
        out[key] = value.copy()
    return out


def _item_copies(items: list[Any]) -> list[Any]:
    """A copy of ``items`` (a list of dicts, or of lists) with each item copied (one level
    down); most such lists of a state are empty."""
    return [item.copy() for item in items] if items else []
