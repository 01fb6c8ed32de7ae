"""The Action Board and the Cooldown phase (seed: Cooldown Phase, Action Board, Spell
Cooldowns, Global Cooldowns, Duration Control; ruling RS 5).

Each player's board (``state["boards"][p]``) holds:

- ``spells``: field-spell pins on cooldown, ``{"unit", "spell", "left"}``; the pin goes back to
  the unit (the spell is ready) when ``left`` reaches 0;
- ``packing``: Packing pins, ``{"unit", "to": "packed"|"unpacked", "notch"}``, 5 notches;
- ``effects``: effect durations, ``{"effect", "unit", "left"}``, removed at 0;
- ``spell_pin`` / ``tactics_pin`` (Duration Control, cards only): count down from 5 and 10;
  at 0 they are reset to 10 and the player draws a Spell or Tactics card;
- ``reinforcement_pin`` (deployment scenarios): counts down from 10; at 0 it is reset to 10 and
  the player may deploy 2 more units (``deploys``).

Every Cooldown phase (at the start of every player's turn) moves every pin of every player
still in the game one notch; each controlled Ruin moves the Spell pin, each controlled Mine
the Tactics pin, and each Mine or Ruin the Reinforcement pin one notch more; a player with a
unit in an enemy Kingdom moves the Tactics (Supply) pin one notch more.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, PlayerId, State
from rules.reign_supreme.board import Geometry
from rules.reign_supreme.state import DEPLOYS_PER_PIN, MAX_DEPLOYS, PACKING_NOTCHES, PIN_RESET
from rules.rng import Rng

__all__ = [
    "cooldown_phase",
    "draw_card",
    "advance_reinforcement",
    "earn_deploys",
    "controlled",
    "in_enemy_kingdom",
]


def controlled(state: State, player: PlayerId) -> tuple[int, int]:
    """(Mines, Ruins) that ``player`` controls."""
    control = state["control"]
    return control["mines"].count(player), control["ruins"].count(player)


def in_enemy_kingdom(state: State, geo: Geometry, player: PlayerId) -> bool:
    """Whether any of ``player``'s units stands in an enemy Kingdom (seed, Cooldown: "If the
    player has units in an enemy Kingdom, move the Supply Pin over one additional notch"): the
    Kingdom of another player still in the game. A defeated player is nobody's enemy, and their
    Kingdom, captured or not, earns nothing."""
    defeated = state["defeated"]
    for u in state["units"].values():
        if u["owner"] == player and u["at"] is not None:
            owner = geo.kingdom_of.get((u["at"][0], u["at"][1]))
            if owner is not None and owner != player and owner not in defeated:
                return True
    return False


def draw_card(state: State, rng: Rng, player: PlayerId, deck: str) -> list[Event]:
    """``player`` draws the top card of the ``deck`` ("spell" or "tactics"). An empty deck is
    refilled by shuffling its discard pile; with both empty nothing is drawn."""
    pile = state["decks"][deck]
    if not pile and state["discards"][deck]:
        pile.extend(state["discards"][deck])
        state["discards"][deck].clear()
        rng.shuffle(pile)
    if not pile:
        return [{"type": "deck_empty", "player": player, "deck": deck}]
    card = pile.pop(0)
    state["hands"][player].append(card)
    return [{"type": "card_drawn", "player": player, "deck": deck, "card": card}]


def advance_reinforcement(board: dict[str, Any], notches: int) -> int:
    """Move the Reinforcement pin ``notches`` towards 0; each time it reaches 0 it is reset to 10
    and 2 more units may be deployed. Returns the deployments gained."""
    if board["reinforcement_pin"] is None or notches <= 0:
        return 0
    pin = board["reinforcement_pin"] - notches
    earned = 0
    while pin <= 0:
        pin += PIN_RESET
        earned += DEPLOYS_PER_PIN
    board["reinforcement_pin"] = pin
    return earn_deploys(board, earned)


def earn_deploys(board: dict[str, Any], earned: int) -> int:
    """Add ``earned`` deployments to ``board``, keeping at most ``MAX_DEPLOYS`` (more than any
    army can use); returns those added."""
    gained = min(earned, MAX_DEPLOYS - board["deploys"])
    board["deploys"] += gained
    return gained


def _tick(entries: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Entries with ``left`` one lower: (still running, finished)."""
    running: list[dict[str, Any]] = []
    done: list[dict[str, Any]] = []
    for e in entries:
        e["left"] -= 1
        (done if e["left"] <= 0 else running).append(e)
    return running, done


def cooldown_phase(state: State, geo: Geometry, rng: Rng) -> list[Event]:
    """Every player still in the game moves every pin (seat order). Mutates ``state``."""
    events: list[Event] = []
    defeated = state["defeated"]
    units = state["units"]
    for p in state["players"]:
        if p in defeated:
            continue
        b = state["boards"][p]
        mines, ruins = controlled(state, p)
        enemy_kingdom = in_enemy_kingdom(state, geo, p)
        b["spells"], ready = _tick(b["spells"])
        for e in ready:
            events.append(
                {"type": "spell_ready", "player": p, "unit": e["unit"], "spell": e["spell"]}
            )
        b["effects"], ended = _tick(b["effects"])
        for e in ended:
            events.append(
                {"type": "effect_ended", "player": p, "unit": e["unit"], "effect": e["effect"]}
            )
        still = []
        for pin in b["packing"]:
            pin["notch"] += 1
            if pin["notch"] >= PACKING_NOTCHES:
                if pin["unit"] in units:
                    units[pin["unit"]]["packing"] = pin["to"]
                events.append(
                    {"type": "packing_done", "player": p, "unit": pin["unit"], "now": pin["to"]}
                )
            else:
                still.append(pin)
        b["packing"] = still
        draws: list[str] = []
        if b["spell_pin"] is not None:
            b["spell_pin"] -= 1 + ruins
            while b["spell_pin"] <= 0:
                b["spell_pin"] += PIN_RESET
                draws.append("spell")
        if b["tactics_pin"] is not None:
            b["tactics_pin"] -= 1 + mines + (1 if enemy_kingdom else 0)
            while b["tactics_pin"] <= 0:
                b["tactics_pin"] += PIN_RESET
                draws.append("tactics")
        gained = advance_reinforcement(b, 1 + mines + ruins)
        events.append(
            {
                "type": "cooldown",
                "player": p,
                "mines": mines,
                "ruins": ruins,
                "in_enemy_kingdom": enemy_kingdom,
                "spell_pin": b["spell_pin"],
                "tactics_pin": b["tactics_pin"],
                "reinforcement_pin": b["reinforcement_pin"],
                "deploys_gained": gained,
            }
        )
        for deck in draws:
            events.extend(draw_card(state, rng, p, deck))
    return events
