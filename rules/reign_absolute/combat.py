"""Combat: an Attack Action resolved, step by step, with an event for each step.

Seed, Attack Action and Attack Example; rulings RA 8. In order:

1. ``combat_started``: the attacker moves onto the defender's cell.
2. ``units_revealed``: both units and every reinforcement under them, face up, for everyone.
3. Start-of-combat abilities, attacker first (``ability_triggered``); a ``draw`` ability draws
   cards into the combat. Then each Draw 2 that was under a unit at the reveal draws its two
   cards, attacker's first. Every drawn card resolves at once (``combat_card_drawn``): a turn
   card is discarded without effect; a combat card joins the unit that drew it, and a drawn
   Draw 2 draws two more at once.
4. Cancels apply together (``reinforcements_cancelled``): a Cancel on one side voids every
   reinforcement of the other side, so two opposing Cancels void both sides entirely.
5. ``combat_totals``: base strength + ability modifiers + counted reinforcements
   (attack-only bonuses for the attacker only, defence-only for the defender only).
6. The lower total is defeated, equal totals defeat both (``unit_defeated``); a winning
   attacker moves in (``unit_advanced``); every reinforcement of both units is discarded
   (``reinforcements_discarded``); a defeated Liege eradicates its owner.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, PlayerId, State
from rules.reign_absolute.deck import draw_card
from rules.reign_absolute.flow import check_victory, eradicate
from rules.reign_absolute.grid import neighbours
from rules.rng import Rng

__all__ = [
    "SIDES",
    "CARD_STATUSES",
    "DRAW_RESULTS",
    "resolve_attack",
    "applies",
    "ability_modifier",
]

SIDES = ("attacker", "defender")
"""The two sides of a combat, as events name them."""
CARD_STATUSES = ("counted", "cancelled", "wrong_role", "no_strength")
"""Why a reinforcement card did or did not add to its side's total (``combat_totals``)."""
DRAW_RESULTS = ("joined", "discarded")
"""What became of a card drawn into a combat: a combat card joins its side, a turn card is
discarded."""


_WHEN_OF_ROLE = {"attacker": "attacking", "defender": "defending"}


def applies(when: str, role: str) -> bool:
    """A bonus marked ``when`` (always, attacking, defending) counts for the unit in ``role``
    ("attacker" or "defender")."""
    return when == "always" or when == _WHEN_OF_ROLE[role]


def ability_modifier(
    state: State, uid: str, role: str, cell: tuple[int, int]
) -> tuple[int, list[dict[str, Any]]]:
    """The strength the unit's own abilities add in ``role`` ("attacker"/"defender"), and each
    ability's part.

    ``strength``: a fixed amount; ``strength_per_adjacent_friend``: the amount times the
    friendly units orthogonally next to ``cell`` (the unit's own cell when combat starts).
    """
    unit = state["units"][uid]
    owner = state["battlefield"][uid]["owner"]
    total = 0
    parts: list[dict[str, Any]] = []
    friends: int | None = None
    for ability in unit["abilities"]:
        kind = ability["effect"]
        if kind == "draw" or not applies(ability["when"], role):
            continue
        if kind == "strength":
            value = ability["amount"]
        else:
            if friends is None:
                around = set(neighbours(cell))
                friends = sum(
                    1
                    for other, e in state["battlefield"].items()
                    if other != uid and e["owner"] == owner and (e["x"], e["y"]) in around
                )
            value = ability["amount"] * friends
        total += value
        parts.append({"effect": kind, "value": value})
    return total, parts


def _draw_into(
    state: State, rng: Rng, side: dict[str, Any], count: int, source: str, events: list[Event]
) -> None:
    """Draw ``count`` cards into the combat for ``side``; each resolves at once (a turn card is
    discarded, a combat card joins the side, a drawn Draw 2 draws two more right away)."""
    for _ in range(count):
        card = draw_card(state, rng, events)
        if card is None:
            events.append({"type": "deck_empty", "player": side["player"]})
            return
        info = state["cards"][card]
        joins = info["kind"] != "turn"
        (side["cards"] if joins else state["discard"]).append(card)
        events.append(
            {
                "type": "combat_card_drawn",
                "side": side["role"],
                "player": side["player"],
                "card": card,
                "source": source,
                "result": "joined" if joins else "discarded",
            }
        )
        if joins and info["effect"]["effect"] == "draw":
            _draw_into(state, rng, side, info["effect"]["count"], card, events)


def _total(state: State, side: dict[str, Any], cancelled: bool) -> dict[str, Any]:
    """One side's total, explained card by card."""
    role = side["role"]
    cards = []
    card_bonus = 0
    for card in side["cards"]:
        effect = state["cards"][card]["effect"]
        value = 0
        if effect["effect"] == "strength":
            value = effect["amount"]
        counted = not cancelled and effect["effect"] == "strength" and applies(effect["when"], role)
        why = (
            "cancelled"
            if cancelled
            else (
                "counted"
                if counted
                else ("no_strength" if effect["effect"] != "strength" else "wrong_role")
            )
        )
        if counted:
            card_bonus += value
        cards.append({"card": card, "value": value if counted else 0, "status": why})
    base = state["units"][side["unit"]]["strength"]
    total = base + side["ability_bonus"] + card_bonus
    return {
        "player": side["player"],
        "unit": side["unit"],
        "base": base,
        "abilities": side["ability_parts"],
        "ability_bonus": side["ability_bonus"],
        "cards": cards,
        "card_bonus": card_bonus,
        "cancelled": cancelled,
        "total": total,
    }


def resolve_attack(
    state: State,
    rng: Rng,
    player: PlayerId,
    uid: str,
    target: tuple[int, int],
    defender: str,
    events: list[Event],
) -> None:
    """Resolve ``uid`` attacking the unit ``defender`` at ``target`` (mutates the working copy)."""
    battlefield = state["battlefield"]
    a_entry, d_entry = battlefield[uid], battlefield[defender]
    a_cell = (a_entry["x"], a_entry["y"])
    d_owner = d_entry["owner"]
    sides = []
    for role, u, entry, cell in (
        ("attacker", uid, a_entry, a_cell),
        ("defender", defender, d_entry, target),
    ):
        bonus, parts = ability_modifier(state, u, role, cell)
        sides.append(
            {
                "role": role,
                "player": entry["owner"],
                "unit": u,
                "cell": cell,
                "cards": list(entry["reinforcements"]),
                "ability_bonus": bonus,
                "ability_parts": parts,
            }
        )
    attacker, defending = sides
    events.append(
        {
            "type": "combat_started",
            "player": player,
            "from": _xy(a_cell),
            "to": _xy(target),
            "defender": d_owner,
        }
    )
    events.append(
        {
            "type": "units_revealed",
            "attacker": {
                "player": player,
                "unit": uid,
                "x": a_cell[0],
                "y": a_cell[1],
                "reinforcements": list(attacker["cards"]),
            },
            "defender": {
                "player": d_owner,
                "unit": defender,
                "x": target[0],
                "y": target[1],
                "reinforcements": list(defending["cards"]),
            },
        }
    )
    # 3. Start-of-combat abilities, attacker first; then the Draw 2s under the units.
    for side in sides:
        for ability in state["units"][side["unit"]]["abilities"]:
            if ability["effect"] == "draw" and applies(ability["when"], side["role"]):
                events.append(
                    {
                        "type": "ability_triggered",
                        "side": side["role"],
                        "player": side["player"],
                        "unit": side["unit"],
                        "effect": "draw",
                        "count": ability["count"],
                    }
                )
                _draw_into(state, rng, side, ability["count"], side["unit"], events)
    for side, under in (
        (attacker, list(a_entry["reinforcements"])),
        (defending, list(d_entry["reinforcements"])),
    ):
        for card in under:
            effect = state["cards"][card]["effect"]
            if effect["effect"] == "draw":
                _draw_into(state, rng, side, effect["count"], card, events)
    # 4. Cancels, all together.
    a_cancel = [c for c in attacker["cards"] if state["cards"][c]["effect"]["effect"] == "cancel"]
    d_cancel = [c for c in defending["cards"] if state["cards"][c]["effect"]["effect"] == "cancel"]
    if a_cancel:
        events.append(
            {
                "type": "reinforcements_cancelled",
                "side": "defender",
                "player": d_owner,
                "by": a_cancel,
            }
        )
    if d_cancel:
        events.append(
            {
                "type": "reinforcements_cancelled",
                "side": "attacker",
                "player": player,
                "by": d_cancel,
            }
        )
    a_total = _total(state, attacker, bool(d_cancel))
    d_total = _total(state, defending, bool(a_cancel))
    if a_total["total"] > d_total["total"]:
        winner: str | None = "attacker"
    elif a_total["total"] < d_total["total"]:
        winner = "defender"
    else:
        winner = None
    events.append(
        {"type": "combat_totals", "attacker": a_total, "defender": d_total, "winner": winner}
    )
    # 6. Defeats, advance, discards, eradication.
    used = attacker["cards"] + defending["cards"]
    fallen_units = []
    if winner != "defender":
        fallen_units.append((d_owner, defender, target, "defender"))
    if winner != "attacker":
        fallen_units.append((player, uid, a_cell, "attacker"))
    del battlefield[uid]
    if winner != "defender":
        del battlefield[defender]
    for owner, u, cell, role in fallen_units:
        state["unit_discards"][owner].append(u)
        events.append(
            {
                "type": "unit_defeated",
                "player": owner,
                "unit": u,
                "side": role,
                "x": cell[0],
                "y": cell[1],
                "liege": state["units"][u]["liege"],
            }
        )
    if winner == "attacker":
        battlefield[uid] = {"x": target[0], "y": target[1], "owner": player, "reinforcements": []}
        events.append(
            {
                "type": "unit_advanced",
                "player": player,
                "unit": uid,
                "from": _xy(a_cell),
                "to": _xy(target),
            }
        )
    elif winner == "defender":
        battlefield[defender] = {
            **battlefield[defender],
            "reinforcements": [],
        }  # shared with the old state
    state["discard"].extend(used)
    events.append({"type": "reinforcements_discarded", "cards": used})
    lieges = [(owner, u) for owner, u, _, _ in fallen_units if state["units"][u]["liege"]]
    fallen = [owner for owner, _ in lieges]
    for owner, _ in lieges:
        other = d_owner if owner == player else player
        eradicate(state, owner, other, events)
    if fallen:
        check_victory(state, fallen, events)


def _xy(cell: tuple[int, int]) -> dict[str, int]:
    return {"x": cell[0], "y": cell[1]}
