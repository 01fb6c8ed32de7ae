"""Races, unit cards and reinforcement cards as data, with their validation.

Rulings RA 2 and RA 3. The default content is ``data/races.json`` (Empire, Raiders, Elves,
Orcs) and ``data/reinforcements.json``; clients may replace either through ``options.races`` /
``options.reinforcements``. Unit abilities and card effects are built from a small set of
documented *effect primitives* (rules doc, "Effect primitives"):

Unit abilities (each ``{"effect", ..., "when"}``, ``when`` one of ``always``, ``attacking``,
``defending``; they act only in combat, in that role):

- ``strength`` ``amount``: + amount to the unit's combat total (Empire Archers: +4 attacking).
- ``strength_per_adjacent_friend`` ``amount``: + amount per friendly unit orthogonally next to
  the unit's cell when combat starts (Empire King's defence).
- ``draw`` ``count``: at the start of combat, draw count reinforcement cards into the combat
  (Elf Enchantress draws 2).

Reinforcement card effects: combat cards ``strength`` (``amount``, ``when``), ``cancel``,
``draw`` (``count``); turn cards ``another_turn``, ``forced_march``, ``supply_drop``.

Race actions (seed, Action Phase: "Some Races have additional Actions available to them";
rulings RA 6), each ``{"id", "name", "effect"}`` on the race, taken instead of Move, Attack or
Doom (``race_action`` ``{action, unit, x, y}``):

- ``swap``: the unit and one of your units orthogonally next to it trade cells, each with its
  reinforcements (``x``, ``y``: the other unit's cell).
- ``leap`` ``distance`` (2..3): the unit moves 2 to ``distance`` cells in a straight line,
  over any units, to an empty cell.

Setup requirements (seed, Setup: "Certain Races have specific Setup requirements"), each
``{"effect", ...}`` on the race:

- ``place_first`` ``unit``: after the race deck is shuffled, that unit goes on top: it is the
  race's first unit placed.
- ``reinforced_unit`` ``unit``, ``count`` (1..3): a post-Setup task: once every unit is placed,
  ``count`` reinforcement cards are drawn and put face down under that unit (a turn card drawn
  is discarded without effect, as in combat).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeGuard

from rules.engine_types import Violation
from rules.integrity import is_int
from rules.reign_absolute import rulebook
from rules.shown_text import LookAlikes, id_violation, text_problem

__all__ = [
    "CARD_KINDS",
    "WHEN",
    "ABILITY_EFFECTS",
    "COMBAT_EFFECTS",
    "TURN_EFFECTS",
    "ACTION_EFFECTS",
    "SETUP_EFFECTS",
    "SETUP_TASKS",
    "MAX_LEAP",
    "MAX_STRENGTH",
    "MAX_AMOUNT",
    "MAX_DRAW",
    "MAX_NUMBER",
    "default_races",
    "default_cards",
    "build_races",
    "build_cards",
    "race_catalog",
    "unit_catalog",
    "card_catalog",
    "default_catalogs",
]

_DATA = Path(__file__).resolve().parent / "data"

WHEN = ("always", "attacking", "defending")
ABILITY_EFFECTS = ("strength", "strength_per_adjacent_friend", "draw")
COMBAT_EFFECTS = ("strength", "cancel", "draw")
TURN_EFFECTS = ("another_turn", "forced_march", "supply_drop")
CARD_KINDS = ("combat", "turn")
"""A reinforcement card is a combat card or a turn card."""
ACTION_EFFECTS = ("swap", "leap")
SETUP_TASKS = ("reinforced_unit",)
"""The effects done once every unit is placed (``setup_task``)."""
SETUP_EFFECTS = ("place_first", *SETUP_TASKS)
MIN_LEAP, MAX_LEAP = 2, 3
MAX_ACTIONS = 4
MAX_SETUP = 4
MAX_STRENGTH = 99
MAX_AMOUNT = 20
MAX_DRAW = 3
MAX_NUMBER = 99
MAX_UNITS = 30
MAX_ABILITIES = 4
MAX_RACES = 8
MIN_CARDS, MAX_CARDS = 8, 200
MAX_TEXT = 64


@lru_cache(maxsize=1)
def _races_json() -> str:
    return (_DATA / "races.json").read_text("utf-8")


@lru_cache(maxsize=1)
def _cards_json() -> str:
    return (_DATA / "reinforcements.json").read_text("utf-8")


def default_races() -> list[dict[str, Any]]:
    """A fresh copy of the four default races (data/races.json)."""
    return json.loads(_races_json())


def default_cards() -> list[dict[str, Any]]:
    """A fresh copy of the default reinforcement deck (data/reinforcements.json)."""
    return json.loads(_cards_json())


def _v(code: str, message: str, rule: str = rulebook.RACES) -> Violation:
    return Violation(code, message, rule)


def _text(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and 1 <= len(value) <= MAX_TEXT


def _shown_problem(
    where: str,
    item: dict[str, Any],
    kind: str,
    given: LookAlikes,
    codes: tuple[str, str],
    rule: str,
) -> Violation | None:
    """Why the name or the id of ``item`` (both strings of 1 to ``MAX_TEXT`` characters) may not
    be shown to the players (:mod:`rules.shown_text`): ``codes[0]`` for a name with a control
    character, else :func:`rules.shown_text.id_violation` of its id among ``given``, the ids of
    its ``kind`` so far (its id is then one of ``given``)."""
    problem = text_problem(item["name"])
    if problem is not None:
        return _v(codes[0], f"{where}.name {problem}.", rule)
    return id_violation(f"{where}.id", item["id"], kind, given, codes, rule, MAX_TEXT)


def _check_effect(
    effect: Any, where: str, allowed: tuple[str, ...], rule: str, needs_when: bool
) -> list[Violation]:
    """One effect primitive: a known ``effect`` with exactly its parameters, in range."""
    if not isinstance(effect, dict) or effect.get("effect") not in allowed:
        return [
            _v(
                "bad_effect",
                f"{where} must be an object whose effect is one of {', '.join(allowed)}.",
                rulebook.EFFECTS,
            )
        ]
    kind = effect["effect"]
    params: dict[str, tuple[int, int] | tuple[str, ...]] = {}
    if kind in ("strength", "strength_per_adjacent_friend"):
        params["amount"] = (-MAX_AMOUNT, MAX_AMOUNT)
    if kind in ("draw", "reinforced_unit"):
        params["count"] = (1, MAX_DRAW)
    if kind == "leap":
        params["distance"] = (MIN_LEAP, MAX_LEAP)
    if kind in ("place_first", "reinforced_unit"):
        params["unit"] = ()
    if needs_when or kind == "strength":
        params["when"] = WHEN
    found: list[Violation] = []
    for key in effect:
        if key != "effect" and key not in params:
            found.append(_v("bad_effect", f"{where} ({kind}) takes no {key!r}.", rulebook.EFFECTS))
    for key, allowed_values in params.items():
        value = effect.get(key)
        if not allowed_values:  # a unit id, checked by the caller against the race's units
            if not _text(value):
                found.append(
                    _v(
                        "bad_effect",
                        f"{where}.{key} must be a unit id of the race.",
                        rulebook.EFFECTS,
                    )
                )
        elif isinstance(allowed_values[0], str):
            if value not in allowed_values:
                found.append(
                    _v(
                        "bad_effect",
                        f"{where}.{key} must be one of {', '.join(allowed_values)}.",
                        rulebook.EFFECTS,
                    )
                )
        elif not is_int(value) or not allowed_values[0] <= value <= allowed_values[1]:
            found.append(
                _v(
                    "bad_effect",
                    f"{where}.{key} must be a whole number from {allowed_values[0]} "
                    f"to {allowed_values[1]}.",
                    rulebook.EFFECTS,
                )
            )
    return found


def build_races(spec: Any, player_count: int) -> tuple[list[dict[str, Any]], list[Violation]]:
    """Validate a list of races (``options.races`` or the default) and return it normalised.

    A race is ``{"id", "name", "units": [unit], "actions": [action], "setup": [requirement]}``
    (``actions`` and ``setup`` optional, default ``[]``); a unit is ``{"id", "name", "strength",
    "liege", "abilities"}`` (``abilities`` optional, default ``[]``). Ids are unique across all
    races; each race has exactly one Liege; there must be a race for every player. An action is
    ``{"id", "name", "effect"}`` with an action primitive, ids unique within the race; a setup
    requirement is a setup primitive naming a unit of the same race, at most one
    ``place_first``.
    """
    if not isinstance(spec, list) or not 1 <= len(spec) <= MAX_RACES:
        return [], [_v("bad_races", f"options.races must be a list of 1 to {MAX_RACES} races.")]
    found: list[Violation] = []
    races: list[dict[str, Any]] = []
    race_ids = LookAlikes()
    unit_ids = LookAlikes()
    for i, race in enumerate(spec):
        where = f"options.races.{i}"
        if not isinstance(race, dict) or set(race) - {"id", "name", "units", "actions", "setup"}:
            found.append(
                _v(
                    "bad_race",
                    f"{where} must be an object with id, name, units, actions and setup only.",
                )
            )
            continue
        rid = race.get("id")
        if not _text(rid) or not _text(race.get("name")):
            found.append(
                _v(
                    "bad_race",
                    f"{where}.id and .name must be strings of 1 to {MAX_TEXT} characters.",
                )
            )
            continue
        shown = _shown_problem(
            where, race, "race", race_ids, ("bad_race", "duplicate_race"), rulebook.RACES
        )
        if shown is not None:
            found.append(shown)
            continue
        units = race.get("units")
        if not isinstance(units, list) or not 1 <= len(units) <= MAX_UNITS:
            found.append(_v("bad_race", f"{where}.units must list 1 to {MAX_UNITS} unit cards."))
            continue
        clean_units: list[dict[str, Any]] = []
        lieges = 0
        for j, unit in enumerate(units):
            uwhere = f"{where}.units.{j}"
            if not isinstance(unit, dict) or set(unit) - {
                "id",
                "name",
                "strength",
                "liege",
                "abilities",
            }:
                found.append(
                    _v(
                        "bad_unit",
                        f"{uwhere} must be an object with id, name, strength, liege and abilities.",
                    )
                )
                continue
            uid = unit.get("id")
            if not _text(uid) or not _text(unit.get("name")):
                found.append(
                    _v(
                        "bad_unit",
                        f"{uwhere}.id and .name must be strings of 1 to {MAX_TEXT} characters.",
                    )
                )
                continue
            shown = _shown_problem(
                uwhere, unit, "unit", unit_ids, ("bad_unit", "duplicate_unit"), rulebook.RACES
            )
            if shown is not None:
                found.append(shown)
                continue
            strength = unit.get("strength")
            if not is_int(strength) or not 0 <= strength <= MAX_STRENGTH:
                found.append(
                    _v(
                        "bad_unit",
                        f"{uwhere}.strength must be a whole number from 0 to {MAX_STRENGTH}.",
                    )
                )
            liege = unit.get("liege", False)
            if not isinstance(liege, bool):
                found.append(_v("bad_unit", f"{uwhere}.liege must be true or false."))
            lieges += liege is True
            abilities = unit.get("abilities", [])
            if not isinstance(abilities, list) or len(abilities) > MAX_ABILITIES:
                found.append(
                    _v("bad_unit", f"{uwhere}.abilities must list at most {MAX_ABILITIES} effects.")
                )
                abilities = []
            for k, ability in enumerate(abilities):
                found.extend(
                    _check_effect(
                        ability,
                        f"{uwhere}.abilities.{k}",
                        ABILITY_EFFECTS,
                        rulebook.EFFECTS,
                        needs_when=True,
                    )
                )
            clean_units.append(
                {
                    "id": uid,
                    "name": unit["name"],
                    "strength": strength,
                    "liege": liege is True,
                    "abilities": abilities,
                }
            )
        if lieges != 1:
            found.append(
                _v("liege_count", f"Race {rid!r} must have exactly one Liege, not {lieges}.")
            )
        actions, problems = _check_actions(race.get("actions", []), where)
        found.extend(problems)
        setup, problems = _check_setup(race.get("setup", []), where, {u["id"] for u in clean_units})
        found.extend(problems)
        races.append(
            {
                "id": rid,
                "name": race["name"],
                "units": clean_units,
                "actions": actions,
                "setup": setup,
            }
        )
    if not found and len(races) < player_count:
        found.append(
            _v(
                "not_enough_races",
                f"Every player plays a different race: {player_count} players "
                f"need {player_count} races, not {len(races)}.",
            )
        )
    return races, found


def _check_actions(spec: Any, where: str) -> tuple[list[dict[str, Any]], list[Violation]]:
    """A race's own actions: ``{"id", "name", "effect"}``, ids unique within the race."""
    rule = rulebook.RACE_ACTIONS
    if not isinstance(spec, list) or len(spec) > MAX_ACTIONS:
        return [], [
            _v("bad_action", f"{where}.actions must list at most {MAX_ACTIONS} actions.", rule)
        ]
    found: list[Violation] = []
    ids = LookAlikes()
    for k, action in enumerate(spec):
        awhere = f"{where}.actions.{k}"
        if not isinstance(action, dict) or set(action) != {"id", "name", "effect"}:
            found.append(
                _v(
                    "bad_action",
                    f"{awhere} must be an object with exactly id, name and effect.",
                    rule,
                )
            )
            continue
        if not _text(action["id"]) or not _text(action["name"]):
            found.append(
                _v(
                    "bad_action",
                    f"{awhere}.id and .name must be strings of 1 to {MAX_TEXT} characters.",
                    rule,
                )
            )
            continue
        shown = _shown_problem(
            awhere, action, "action of this race", ids, ("bad_action", "bad_action"), rule
        )
        if shown is not None:
            found.append(shown)
        found.extend(
            _check_effect(
                action["effect"], f"{awhere}.effect", ACTION_EFFECTS, rule, needs_when=False
            )
        )
    return (
        [{"id": a["id"], "name": a["name"], "effect": a["effect"]} for a in spec]
        if not found
        else []
    ), found


def _check_setup(
    spec: Any, where: str, units: set[str]
) -> tuple[list[dict[str, Any]], list[Violation]]:
    """A race's setup requirements, each naming a unit of the race; at most one ``place_first``."""
    rule = rulebook.RACE_SETUP
    if not isinstance(spec, list) or len(spec) > MAX_SETUP:
        return [], [
            _v("bad_setup", f"{where}.setup must list at most {MAX_SETUP} requirements.", rule)
        ]
    found: list[Violation] = []
    for k, requirement in enumerate(spec):
        swhere = f"{where}.setup.{k}"
        problems = _check_effect(requirement, swhere, SETUP_EFFECTS, rule, needs_when=False)
        if not problems and requirement["unit"] not in units:
            problems = [
                _v(
                    "bad_setup",
                    f"{swhere}.unit {requirement['unit']!r} is not a unit of this race.",
                    rule,
                )
            ]
        found.extend(problems)
    if not found and sum(r["effect"] == "place_first" for r in spec) > 1:
        found.append(_v("bad_setup", f"{where}.setup may name at most one place_first unit.", rule))
    return (list(spec) if not found else []), found


def build_cards(spec: Any) -> tuple[list[dict[str, Any]], list[Violation]]:
    """Validate a reinforcement deck (``options.reinforcements`` or the default).

    A card is ``{"id", "name", "kind": "combat"|"turn", "number", "effect"}``; ids unique;
    ``number`` (the random number used to pick the first player) 0 to 99.
    """
    rule = rulebook.REINFORCEMENT_DECK
    if not isinstance(spec, list) or not MIN_CARDS <= len(spec) <= MAX_CARDS:
        return [], [
            _v(
                "bad_reinforcements",
                f"options.reinforcements must list {MIN_CARDS} to {MAX_CARDS} cards.",
                rule,
            )
        ]
    found: list[Violation] = []
    cards: list[dict[str, Any]] = []
    ids = LookAlikes()
    for i, card in enumerate(spec):
        where = f"options.reinforcements.{i}"
        if not isinstance(card, dict) or set(card) != {"id", "name", "kind", "number", "effect"}:
            found.append(
                _v(
                    "bad_card",
                    f"{where} must be an object with exactly id, name, kind, number and effect.",
                    rule,
                )
            )
            continue
        cid = card["id"]
        if not _text(cid) or not _text(card["name"]):
            found.append(
                _v(
                    "bad_card",
                    f"{where}.id and .name must be strings of 1 to {MAX_TEXT} characters.",
                    rule,
                )
            )
            continue
        shown = _shown_problem(where, card, "card", ids, ("bad_card", "duplicate_card"), rule)
        if shown is not None:
            found.append(shown)
            continue
        if not is_int(card["number"]) or not 0 <= card["number"] <= MAX_NUMBER:
            found.append(
                _v(
                    "bad_card",
                    f"{where}.number must be a whole number from 0 to {MAX_NUMBER}.",
                    rule,
                )
            )
        kind = card["kind"]
        if kind == "combat":
            found.extend(
                _check_effect(
                    card["effect"], f"{where}.effect", COMBAT_EFFECTS, rule, needs_when=False
                )
            )
        elif kind == "turn":
            found.extend(
                _check_effect(
                    card["effect"], f"{where}.effect", TURN_EFFECTS, rule, needs_when=False
                )
            )
        else:
            found.append(_v("bad_card", f'{where}.kind must be "combat" or "turn".', rule))
        cards.append(
            {
                "id": cid,
                "name": card["name"],
                "kind": kind,
                "number": card["number"],
                "effect": card["effect"],
            }
        )
    return cards, found


def race_catalog(races: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``state.races``: race id -> ``{"name", "units": [unit ids], "actions", "setup"}``."""
    return {
        r["id"]: {
            "name": r["name"],
            "units": [u["id"] for u in r["units"]],
            "actions": r["actions"],
            "setup": r["setup"],
        }
        for r in races
    }


def unit_catalog(races: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``state.units``: unit id -> ``{"race", "name", "strength", "liege", "abilities"}``."""
    return {
        u["id"]: {
            "race": r["id"],
            "name": u["name"],
            "strength": u["strength"],
            "liege": u["liege"],
            "abilities": u["abilities"],
        }
        for r in races
        for u in r["units"]
    }


def card_catalog(cards: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``state.cards``: card id -> ``{"name", "kind", "number", "effect"}``."""
    return {
        c["id"]: {
            "name": c["name"],
            "kind": c["kind"],
            "number": c["number"],
            "effect": c["effect"],
        }
        for c in cards
    }


@lru_cache(maxsize=1)
def _default_catalogs_json() -> str:
    races, _ = build_races(default_races(), 0)
    cards, _ = build_cards(default_cards())
    return json.dumps(
        {"races": race_catalog(races), "units": unit_catalog(races), "cards": card_catalog(cards)}
    )


def default_catalogs() -> dict[str, Any]:
    """A fresh copy of ``{"races", "units", "cards"}`` as the default content puts them in a
    state."""
    return json.loads(_default_catalogs_json())
