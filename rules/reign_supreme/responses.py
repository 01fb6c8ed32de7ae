"""Answers in the middle of a turn: Counterattack, defensive Teleport and Counterspell (seed:
Special Rule Terminology - Defensive Ability; Special Abilities - Counterattack; Field Spells -
Teleport, Counterspell).

An attack, a spell or a card is first **declared** (its cost is paid at once: the attack is
used, the spell's pin goes on the Action Board, the card is discarded) and put on the
``pending`` stack. Before it takes effect, the players who can answer it are asked, one at a
time (``active_players`` is that player; the turn does not change):

- against an attack on their unit, its owner may **counterattack** (melee attacks; worked out
  before the attack: if the attacker dies the attack does nothing) or **teleport** the unit
  away (the attack then does nothing to it), or pass;
- against a combat spell aimed at their unit's space, its owner may teleport the unit away;
- against any spell (field spell, spell card, Teleport answer, Counterspell), every other
  player with a ready Counterspell in range may **counterspell** it, in seat order from the
  caster's left; a counterspell is itself a spell and can be countered.

Each player answers each declaration at most once. When nobody else can answer the top of the
stack, it takes effect (a Counterspell removes the declaration it counters) and the one below
is looked at again; when the stack is empty the turn player is active again.

``pending`` is ``{"stack": [entry, ...]}``; an entry is ``{"kind": "attack"|"spell"|"card",
"player", "move", "asked": [players who answered or passed], ...}``.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, Move, PlayerId, State
from rules.reign_supreme import cards, combat, spells
from rules.reign_supreme.board import Geometry

__all__ = ["start", "answers", "answer", "advance", "responder", "PENDING_KINDS"]

PENDING_KINDS = ("attack", "spell", "card")
"""What a pending entry declares: an attack (``combat``), a field spell (``spells``) or a card
(``cards``)."""


def start(state: State, geo: Geometry, entry: dict[str, Any]) -> list[Event]:
    """Put a declaration on a new stack and ask for answers (or resolve it at once)."""
    state["pending"] = {"stack": [entry]}
    return advance(state, geo)


def _order(state: State, after: PlayerId) -> list[PlayerId]:
    players = state["players"]
    i = players.index(after)
    return [players[(i + k) % len(players)] for k in range(1, len(players) + 1)]


def answers(state: State, geo: Geometry, entry: dict[str, Any], player: PlayerId) -> list[Move]:
    """Every answer ``player`` may give to ``entry`` (not counting ``pass``)."""
    if player in state["defeated"] or player in entry["asked"]:
        return []
    out: list[Move] = []
    if entry["kind"] == "attack":
        uid = combat.counterattack_possible(state, geo, entry)
        if uid is not None and state["units"][uid]["owner"] == player:
            out.append({"player": player, "type": "counterattack", "unit": uid})
    if entry["player"] != player:
        out.extend(spells.teleport_answers(state, geo, entry, player))
        out.extend(spells.counterspell_answers(state, geo, entry, player))
    return out


def responder(state: State, geo: Geometry) -> PlayerId | None:
    """Who must answer the top of the stack now, or None when nobody can."""
    entry = state["pending"]["stack"][-1]
    for p in _order(state, entry["player"]):
        if answers(state, geo, entry, p):
            return p
    return None


def answer(state: State, geo: Geometry, move: Move) -> list[Event]:
    """Apply an answer (``counterattack``, ``cast`` or ``pass``) by the active responder."""
    stack = state["pending"]["stack"]
    entry = stack[-1]
    p = move["player"]
    entry["asked"].append(p)
    events: list[Event] = []
    if move["type"] == "pass":
        events.append({"type": "passed", "player": p})
    elif move["type"] == "counterattack":
        evs, attacker_died = combat.counterattack(state, geo, entry)
        events.extend(evs)
        if attacker_died:
            stack.pop()
            events.append(
                {
                    "type": "attack_cancelled",
                    "player": entry["player"],
                    "unit": entry["move"]["unit"],
                    "target": entry["move"]["target"],
                    "reason": "attacker_gone",
                }
            )
    else:
        new_entry, evs = spells.declare_cast(state, move, activation=False)
        events.extend(evs)
        stack.append(new_entry)
    return events + advance(state, geo)


def advance(state: State, geo: Geometry) -> list[Event]:
    """Ask the next player who can answer, or resolve the top of the stack, until someone must
    answer or the stack is empty (then the turn player is active again)."""
    events: list[Event] = []
    stack = state["pending"]["stack"]
    while stack:
        who = responder(state, geo)
        if who is not None:
            state["active_players"] = [who]
            return events
        entry = stack.pop()
        below = stack[-1] if stack else None
        if entry["kind"] == "spell" and entry["move"]["spell"] == "counterspell":
            if below is not None:
                stack.pop()
                events.append(
                    {
                        "type": "spell_countered",
                        "player": entry["player"],
                        "unit": entry["move"]["unit"],
                        "countered": _summary(below),
                    }
                )
            continue
        if entry["kind"] == "attack":
            events.extend(combat.resolve_attack(state, geo, entry))
        elif entry["kind"] == "spell":
            events.extend(spells.resolve_cast(state, geo, entry, below))
        else:
            events.extend(cards.resolve(state, geo, entry))
    state["pending"] = None
    state["active_players"] = [state["turn"]]
    return events


def _summary(entry: dict[str, Any]) -> dict[str, Any]:
    move = entry["move"]
    out = {"kind": entry["kind"], "player": entry["player"]}
    for key in ("unit", "spell", "card"):
        if key in move:
            out[key] = move[key]
    return out
