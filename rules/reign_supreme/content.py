"""Default content as data (``data/*.json``) and the validation of custom content.

Seed: "Units ... contain stats which signify the capabilities of the unit"; ruling RS 1 and 3:
the text leaves statistics, boards and cards to the players, so the service ships a documented
standard scenario, a skirmish scenario, four armies (Resistance, Greenskin, Undead, Demon) of all
nineteen unit types, and a card set, and accepts custom scenarios, rosters and army lists in
``options``. Every problem with custom content is a Violation naming it (422 invalid_setup).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeGuard

from rules.engine_types import Violation
from rules.integrity import is_int
from rules.reign_supreme import rulebook
from rules.reign_supreme.hexes import distance, neighbours
from rules.shown_text import LookAlikes, id_problem, id_violation, taken, text_problem

__all__ = [
    "UNIT_TYPES",
    "KINDS",
    "ABILITIES",
    "SPELLS",
    "VICTORIES",
    "ARMY_IDS",
    "default_armies",
    "default_scenarios",
    "default_cards",
    "spell_table",
    "check_roster",
    "check_scenario",
    "scenario_id_problems",
    "check_layout",
    "check_army_list",
    "MAX_COORD",
    "MAX_STAT",
    "MAX_LIST",
    "MAX_HEXES",
    "MAX_BOARD",
    "MAX_KINGDOMS",
    "MAX_ROSTERS",
    "ARMY_LIST_KEYS",
    "DAMAGE_TYPES",
    "MAGICAL_DAMAGE",
    "board_size",
]

_DATA = Path(__file__).resolve().parent / "data"

UNIT_TYPES: tuple[str, ...] = (
    "infantry",
    "footman",
    "knight",
    "cavalry",
    "skirmisher",
    "archer",
    "wizard",
    "battlemage",
    "priest",
    "provisioner",
    "general",
    "enchanter",
    "trebuchet",
    "mangonel",
    "assassin",
    "assault",
    "shock_trooper",
    "engineer",
    "warder",
)
"""The nineteen unit types of the seed's Units section, in its order."""
KINDS = ("shooting", "siege", "mechanical", "packed", "stealth")
"""Kind flags: how the rules treat a unit (Shooting, Siege, Mechanical, Packed, Stealth)."""
ABILITIES = (
    "counterattack",
    "ensnare",
    "charging",
    "flanking",
    "double_attack",
    "knockback",
    "command",
    "supply",
    "enchant",
    "silence",
    "volley",
    "construction",
)
"""Special abilities and auras of the seed (their effects are part 2 of the game)."""
SPELLS = ("teleport", "healing", "counterspell", "blast", "cone", "arc")
"""Field spells of the seed (their effects are part 2 of the game)."""
DAMAGE_TYPES = ("slashing", "piercing", "blunt", "magic")
"""The type of damage a unit's attack deals (``damage`` in its roster entry; ruling RS 14). The
seed names Slashing, Magic and Blunt (Blast, Cone, Arc); Piercing is the service's own, for lances,
pikes, arrows and knives."""
MAGICAL_DAMAGE = ("magic",)
"""Damage types that make an attack magical: "No enemy magical attacks can be performed inside the
[Silence] aura" (seed, Silence; ruling RS 14)."""
ARMY_IDS = ("resistance", "greenskin", "undead", "demon")
ARMY_LIST_KEYS = ("standard", "skirmish")
STATS = ("movement", "hp", "attack", "defence", "range")
MAX_STAT = 99
MAX_COORD = 50
MAX_LIST = 20
MAX_HEXES = 1000
"""Service limit on the hexes of one list of a scenario (the Midfield, a Kingdom, Mines, Ruins)."""
MAX_BOARD = 1000
"""Service limit on the spaces of a scenario, Midfield and every Kingdom slot together (the
standard scenario has 175): it bounds the work of every request on that board (rules doc,
Scenarios)."""
MAX_KINGDOMS = 12
MAX_ROSTERS = 12
"""Service limit on the custom rosters of one game (rules doc, Rosters): a game of at most four
players uses at most four, and each roster is checked and kept in the state, so without a limit
a million-byte setup of 88,000 empty rosters cost 1.4 s of checks before its 422 (a hunt)."""
MAX_ARMY_ID = 64
"""Service limit on the length of a custom roster's army id (rules doc, Rosters), as on card ids
of the other games."""
MAX_SCENARIO_ID = 64
"""Service limit on the length of a custom scenario's id and its kingdoms' ids (rules doc,
Scenarios), as on army ids."""
SCENARIO_TEXT_LIMITS = {"name": 60, "description": 1000}
ROSTER_TEXT_LIMIT = 60
"""The most characters of a custom roster's title and of a unit's name (the default ones are at
most 21): shown on every player's screen and picture, they are names, not texts."""
"""Service limits on the length of a custom scenario's name (as a card's) and description (the
standard scenario's has 409 characters)."""
VICTORIES = ("last_standing", "throne")


def _load(name: str) -> Any:
    return json.loads((_DATA / name).read_text("utf-8"))


_ARMIES: dict[str, Any] = _load("armies.json")
_SCENARIOS: dict[str, Any] = _load("scenarios.json")
_CARDS: list[dict[str, Any]] = _load("cards.json")
_SPELLS: dict[str, Any] = _load("spells.json")


def default_armies() -> dict[str, Any]:
    """The four default armies: ``{army: {"title", "units": {type: stats}, "lists": {...}}}`` (a
    copy)."""
    return json.loads(json.dumps(_ARMIES))


def default_scenarios() -> dict[str, Any]:
    """The shipped scenarios, ``standard`` and ``skirmish`` (a copy)."""
    return json.loads(json.dumps(_SCENARIOS))


def default_cards() -> list[dict[str, Any]]:
    """The default card set: 6 spell and 6 tactics cards, two copies each (a copy)."""
    return json.loads(json.dumps(_CARDS))


def spell_table() -> dict[str, Any]:
    """Each field spell's range and cooldown (Spells section of the seed; a copy)."""
    return json.loads(json.dumps(_SPELLS))


@cache
def default_roster(army: str) -> dict[str, Any]:
    """The unit statistics of a default army, by unit type (shared; never mutate)."""
    return _ARMIES[army]["units"]


def _v(code: str, message: str, rule: str = rulebook.OPTIONS) -> Violation:
    return Violation(code, message, rule)


# -- rosters ---------------------------------------------------------------------------------------
@cache
def _default_armies() -> LookAlikes:
    found = LookAlikes()
    for army in ARMY_IDS:
        found.add(army)
    return found


def army_id_problem(army: str) -> str | None:
    """Why ``army`` may not be a custom roster's army id (the end of a sentence), or None: 1 to
    :data:`MAX_ARMY_ID` characters from the safe set of :mod:`rules.shown_text`, and not like a
    default army's id unless it is that id (the roster then replaces that army)."""
    if not 1 <= len(army) <= MAX_ARMY_ID:
        return f"is not 1 to {MAX_ARMY_ID} characters"
    problem = id_problem(army)
    if problem is not None:
        return problem
    other = _default_armies().like(army)
    if other is not None and other != army:
        return taken(army, other, "a default army")
    return None


def check_roster(army: str, roster: Any) -> list[Violation]:
    """Problems of a custom roster ``{"title": str, "units": {type: stats}}`` for ``army``.

    Each unit gives ``name``, ``movement`` (0..99), ``hp`` (1..99), ``attack``, ``defence``,
    ``range`` (0..99, range at least 1), ``damage`` (its attack's damage type, ruling RS 14),
    ``kinds``, ``abilities`` and ``spells`` from the fixed vocabularies.
    The roster must define the Assault (one Assault per army, ruling RS 3).
    """
    rule = rulebook.ROSTERS
    problem = army_id_problem(army)
    if problem is not None:
        return [
            _v(
                "bad_roster",
                f"options.rosters has an army id {army[:MAX_ARMY_ID]!r} that {problem}.",
                rule,
            )
        ]
    where = f"options.rosters.{army}"
    if type(roster) is not dict or type(roster.get("units")) is not dict or not roster["units"]:
        return [
            _v("bad_roster", f"{where} must be an object with a non-empty 'units' object.", rule)
        ]
    found: list[Violation] = []
    for key in roster:
        if key not in ("title", "units"):
            found.append(_v("bad_roster", f"{where} has an unknown field {key!r}.", rule))
    if "title" in roster and type(roster["title"]) is not str:
        found.append(_v("bad_roster", f"{where}.title must be a string.", rule))
    elif "title" in roster and (problem := _name_problem(roster["title"])) is not None:
        found.append(_v("bad_roster", f"{where}.title {problem}.", rule))
    if "assault" not in roster["units"]:
        found.append(_v("bad_roster", f"{where} must define its one Assault unit.", rule))
    for utype, stats in roster["units"].items():
        at = f"{where}.units.{utype}"
        if utype not in UNIT_TYPES:
            found.append(
                _v(
                    "unknown_unit_type",
                    f"{at}: there is no unit type {utype!r}; the types are "
                    f"{', '.join(UNIT_TYPES)}.",
                    rule,
                )
            )
            continue
        found.extend(_check_stats(at, stats, rule))
    return found


def _name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a roster's title or a unit's name: too long, or not to be shown."""
    if len(name) > ROSTER_TEXT_LIMIT:
        return f"is {len(name)} characters long; at most {ROSTER_TEXT_LIMIT}"
    return text_problem(name)


def _check_stats(at: str, stats: Any, rule: str) -> list[Violation]:
    if type(stats) is not dict:
        return [_v("bad_unit_stats", f"{at} must be an object.", rule)]
    found: list[Violation] = []
    allowed = set(STATS) | {"name", "damage", "kinds", "abilities", "spells"}
    for key in stats:
        if key not in allowed:
            found.append(_v("bad_unit_stats", f"{at} has an unknown field {key!r}.", rule))
    name = stats.get("name")
    if type(name) is not str or not name:
        found.append(_v("bad_unit_stats", f"{at}.name must be a non-empty string.", rule))
    elif (problem := _name_problem(name)) is not None:
        found.append(_v("bad_unit_stats", f"{at}.name {problem}.", rule))
    for stat in STATS:
        value = stats.get(stat)
        low = 1 if stat in ("hp", "range") else 0
        if not is_int(value) or not low <= value <= MAX_STAT:
            found.append(
                _v(
                    "bad_unit_stats",
                    f"{at}.{stat} must be a whole number from {low} to {MAX_STAT}.",
                    rule,
                )
            )
    if stats.get("damage") not in DAMAGE_TYPES:
        found.append(
            _v(
                "bad_unit_stats",
                f"{at}.damage must name the attack's damage type: {', '.join(DAMAGE_TYPES)}.",
                rule,
            )
        )
    for field, vocabulary in (("kinds", KINDS), ("abilities", ABILITIES), ("spells", SPELLS)):
        value = stats.get(field)
        if (
            type(value) is not list
            or any(type(x) is not str or x not in vocabulary for x in value)
            or len(set(value)) != len(value)
        ):
            found.append(
                _v(
                    "bad_unit_stats",
                    f"{at}.{field} must be a list of distinct values from: "
                    f"{', '.join(vocabulary)}.",
                    rule,
                )
            )
    return found


def check_army_list(player: str, units: Any, roster: dict[str, Any]) -> list[Violation]:
    """Problems of an army list: 1 to 20 unit types of the army's roster, at most one Assault."""
    rule = rulebook.ARMY_LISTS
    at = f"options.army_lists.{player}"
    if (
        type(units) is not list
        or not 1 <= len(units) <= MAX_LIST
        or any(type(u) is not str for u in units)
    ):
        return [_v("bad_army_list", f"{at} must be a list of 1 to {MAX_LIST} unit types.", rule)]
    found = [
        _v("unknown_unit_type", f"{at}: the army has no unit type {u!r}.", rule)
        for u in sorted(set(units))
        if u not in roster
    ]
    if units.count("assault") > 1:
        found.append(_v("too_many_assaults", f"{at}: an army fields only one Assault.", rule))
    return found


# -- scenarios -------------------------------------------------------------------------------------
def _hex_ok(value: Any) -> TypeGuard[list[int]]:
    return (
        type(value) is list
        and len(value) == 2
        and is_int(value[0])
        and is_int(value[1])
        and abs(value[0]) <= MAX_COORD
        and abs(value[1]) <= MAX_COORD
    )


def _hex_list(
    value: Any, at: str, found: list[Violation], allow_empty: bool = True
) -> list[tuple[int, int]]:
    rule = rulebook.SCENARIOS
    if type(value) is not list or len(value) > MAX_HEXES or (not allow_empty and not value):
        found.append(
            _v(
                "bad_scenario",
                f"{at} must be a list of [q, r] hexes{'' if allow_empty else ' (at least one)'}.",
                rule,
            )
        )
        return []
    out = []
    for item in value:
        if not _hex_ok(item):
            found.append(
                _v(
                    "bad_scenario",
                    f"{at}: {item!r} is not a hex [q, r] with coordinates "
                    f"from -{MAX_COORD} to {MAX_COORD}.",
                    rule,
                )
            )
            return []
        out.append((item[0], item[1]))
    if len(set(out)) != len(out):
        found.append(_v("bad_scenario", f"{at} lists a hex twice.", rule))
    return out


_SCENARIO_FIELDS = (
    "id",
    "name",
    "description",
    "midfield",
    "kingdoms",
    "seating",
    "mines",
    "ruins",
    "castles",
    "cards",
    "deployment",
    "initial_units",
    "army_list",
    "victory",
)


def scenario_id_problems(
    scenario_id: tuple[str, Any] | None, kingdom_ids: Sequence[tuple[str, Any]], rule: str
) -> list[Violation]:
    """A scenario's id and its Kingdoms' ids, each given as ``(where, id)`` (rules doc,
    Scenarios): 1 to :data:`MAX_SCENARIO_ID` characters of the safe set, and no two Kingdoms' ids
    alike (by case or confusable characters), all ``bad_scenario``. Setup's check and the state
    check both call it, so a stateless state holds no id a setup would refuse."""
    codes = ("bad_scenario", "bad_scenario")
    found = []
    if scenario_id is not None:
        where, value = scenario_id
        found.append(
            id_violation(where, value, "scenario", LookAlikes(), codes, rule, MAX_SCENARIO_ID)
        )
    given = LookAlikes()
    found.extend(
        id_violation(where, value, "kingdom", given, codes, rule, MAX_SCENARIO_ID)
        for where, value in kingdom_ids
    )
    return [v for v in found if v is not None]


def check_scenario(scenario: Any, n_players: int) -> list[Violation]:
    """Problems of a scenario object (the format of ``data/scenarios.json``) for ``n_players``.

    The board's geometry is :func:`check_layout`'s (the Midfield and every Kingdom lists of
    distinct hexes, pairwise disjoint; Mines and Ruins in the Midfield; with castles, every
    Kingdom holds a Castle of 7 spaces, its Throne and the 6 around it, and a Gate from a Castle
    space to a space outside it); there is a Kingdom for every seat (``seating[n]`` names them,
    else the first ``n``); deployment needs castles and ``initial_units``; the victory condition
    is ``last_standing`` or ``throne`` (which needs castles).
    """
    rule = rulebook.SCENARIOS
    if type(scenario) is not dict:
        return [
            _v(
                "bad_scenario",
                "options.scenario must be 'standard', 'skirmish' or a scenario object.",
                rule,
            )
        ]
    found: list[Violation] = []
    for key in scenario:
        if key not in _SCENARIO_FIELDS:
            found.append(
                _v("bad_scenario", f"options.scenario has an unknown field {key!r}.", rule)
            )
    for key, longest in SCENARIO_TEXT_LIMITS.items():
        text = scenario.get(key, "")
        if type(text) is not str or len(text) > longest:
            found.append(
                _v(
                    "bad_scenario",
                    f"options.scenario.{key} must be a string of at most {longest} characters.",
                    rule,
                )
            )
        elif (problem := text_problem(text)) is not None:
            found.append(_v("bad_scenario", f"options.scenario.{key} {problem}.", rule))
    for key in ("castles", "cards", "deployment"):
        if type(scenario.get(key)) is not bool:
            found.append(_v("bad_scenario", f"options.scenario.{key} must be true or false.", rule))
    if scenario.get("army_list") not in ARMY_LIST_KEYS:
        found.append(
            _v(
                "bad_scenario",
                "options.scenario.army_list must be 'standard' or 'skirmish' "
                "(which default army list each army fields).",
                rule,
            )
        )
    if scenario.get("victory") not in VICTORIES:
        found.append(
            _v(
                "bad_scenario",
                "options.scenario.victory must be 'last_standing' or 'throne'.",
                rule,
            )
        )
    castles = scenario.get("castles") is True
    if scenario.get("victory") == "throne" and not castles:
        found.append(_v("bad_scenario", "A Throne victory needs castles.", rule))
    initial = scenario.get("initial_units")
    if scenario.get("deployment") is True:
        if not castles:
            found.append(
                _v(
                    "bad_scenario",
                    "Deployment needs castles: the Castle is the deployment zone.",
                    rule,
                )
            )
        if not is_int(initial) or not 1 <= initial <= MAX_LIST:
            found.append(
                _v(
                    "bad_scenario",
                    f"options.scenario.initial_units must be 1 to {MAX_LIST} with deployment.",
                    rule,
                )
            )
    elif initial is not None:
        found.append(
            _v(
                "bad_scenario",
                "options.scenario.initial_units must be null without deployment.",
                rule,
            )
        )
    size = board_size(scenario)
    if size > MAX_BOARD:  # refused before any hex is looked at: bounded cost
        return found + [
            _v(
                "board_too_large",
                f"options.scenario has {size} spaces (Midfield and Kingdoms); "
                f"a scenario has at most {MAX_BOARD}.",
                rule,
            )
        ]
    kingdoms = scenario.get("kingdoms")
    ids: list[str] = []
    placed: list[tuple[str, dict[str, Any]]] = []
    if type(kingdoms) is not list or not kingdoms or len(kingdoms) > MAX_KINGDOMS:
        found.append(
            _v(
                "bad_scenario",
                f"options.scenario.kingdoms must be a list of 1 to {MAX_KINGDOMS} kingdoms.",
                rule,
            )
        )
        kingdoms = []
    for i, kingdom in enumerate(kingdoms):
        at = f"options.scenario.kingdoms.{i}"
        if type(kingdom) is not dict or type(kingdom.get("id")) is not str:
            found.append(_v("bad_scenario", f"{at} must be an object with a string id.", rule))
            continue
        for key in kingdom:
            if key not in ("id", "hexes", "castle", "throne", "gate"):
                found.append(_v("bad_scenario", f"{at} has an unknown field {key!r}.", rule))
        ids.append(kingdom["id"])
        placed.append((at, kingdom))
    found.extend(
        scenario_id_problems(
            ("options.scenario.id", scenario["id"]) if "id" in scenario else None,
            [(f"{at}.id", kingdom["id"]) for at, kingdom in placed],
            rule,
        )
    )
    found.extend(
        check_layout(
            scenario.get("midfield"),
            placed,
            scenario.get("mines"),
            scenario.get("ruins"),
            castles,
            "options.scenario",
        )
    )
    seating = scenario.get("seating")
    if seating is not None:
        seats = seating.get(str(n_players)) if type(seating) is dict else None
        if (
            type(seats) is not list
            or len(seats) != n_players
            or len(set(map(str, seats))) != n_players
            or any(s not in ids for s in seats)
        ):
            found.append(
                _v(
                    "bad_scenario",
                    f'options.scenario.seating["{n_players}"] must name {n_players} '
                    "distinct kingdoms.",
                    rule,
                )
            )
    elif len(ids) < n_players:
        found.append(
            _v(
                "bad_scenario",
                f"The scenario has {len(ids)} kingdoms for {n_players} players.",
                rule,
            )
        )
    return found


def check_layout(
    midfield: Any,
    kingdoms: Sequence[tuple[str, dict[str, Any]]],
    mines: Any,
    ruins: Any,
    castles: bool,
    where: str,
) -> list[Violation]:
    """Problems of a board's geometry (rules doc §Scenarios), the one statement of it: for a new
    game's scenario (:func:`check_scenario`) and for the scenario and Kingdoms of a state sent
    back (rules doc §Integrity), so a state holds only a board that set-up accepts.

    The Midfield and every Kingdom's ``hexes`` are non-empty lists of distinct hexes with
    coordinates from -MAX_COORD to MAX_COORD, pairwise disjoint; Mines and Ruins are distinct
    Midfield spaces, none both; with ``castles``, every Kingdom has its Castle and Gate
    (:func:`_check_castle`). ``kingdoms`` are ``(where the Kingdom is, the Kingdom)`` pairs;
    ``where`` names the scenario in the messages. Every problem is ``bad_scenario``.
    """
    rule = rulebook.SCENARIOS
    found: list[Violation] = []
    mid = _hex_list(midfield, f"{where}.midfield", found, allow_empty=False)
    midset = set(mid)
    taken = set(mid)
    for at, kingdom in kingdoms:
        hexes = _hex_list(kingdom.get("hexes"), f"{at}.hexes", found, allow_empty=False)
        if taken & set(hexes):
            found.append(
                _v("bad_scenario", f"{at} overlaps the Midfield or another Kingdom.", rule)
            )
        taken |= set(hexes)
        if castles:
            found.extend(_check_castle(kingdom, set(hexes), midset, at))
    sites: list[set[tuple[int, int]]] = []
    for key, value in (("mines", mines), ("ruins", ruins)):
        spots = _hex_list(value, f"{where}.{key}", found)
        if not set(spots) <= midset:
            found.append(
                _v("bad_scenario", f"Every one of {where}.{key} must lie in the Midfield.", rule)
            )
        sites.append(set(spots))
    if sites[0] & sites[1]:
        found.append(_v("bad_scenario", "A space cannot be both a Mine and a Ruin.", rule))
    return found


def board_size(scenario: dict[str, Any]) -> int:
    """The spaces a scenario lists, Midfield and Kingdoms together (counting list items; not
    checked for sense: a cheap bound taken before anything else is looked at)."""

    def length(value: Any) -> int:
        return len(value) if type(value) is list else 0

    kingdoms = scenario.get("kingdoms")
    size = length(scenario.get("midfield"))
    if type(kingdoms) is list:
        size += sum(length(k.get("hexes")) for k in kingdoms if type(k) is dict)
    return size


def _check_castle(
    kingdom: dict[str, Any], hexes: set[tuple[int, int]], midfield: set[tuple[int, int]], at: str
) -> list[Violation]:
    """A Castle: the Throne and the 6 spaces round it, inside the Kingdom, and a Gate joining an
    outer Castle space to a space of the same Kingdom or of the Midfield. Every other outer edge
    is a Castle wall (ruling RS 12), so the Gate must open onto the board whatever kingdoms are
    seated: it is the only way in and out."""
    rule = rulebook.SCENARIOS
    found: list[Violation] = []
    castle = _hex_list(kingdom.get("castle"), f"{at}.castle", found)
    throne = kingdom.get("throne")
    if not _hex_ok(throne):
        return found + [_v("bad_scenario", f"{at}.throne must be a hex [q, r].", rule)]
    t = (throne[0], throne[1])
    if set(castle) != {t, *neighbours(t)} or not set(castle) <= hexes:
        found.append(
            _v(
                "bad_scenario",
                f"{at}.castle must be the 7 spaces of the Throne and the 6 around it, "
                "all inside the Kingdom.",
                rule,
            )
        )
    gate = kingdom.get("gate")
    if type(gate) is not list or len(gate) != 2 or not all(_hex_ok(g) for g in gate):
        found.append(
            _v(
                "bad_scenario",
                f"{at}.gate must be two hexes: a Castle space and the space outside "
                "it that the Gate faces.",
                rule,
            )
        )
    else:
        inside, outside = (gate[0][0], gate[0][1]), (gate[1][0], gate[1][1])
        if (
            inside not in castle
            or inside == t
            or outside in castle
            or distance(inside, outside) != 1
        ):
            found.append(
                _v(
                    "bad_scenario",
                    f"{at}.gate must join an outer Castle space to a space outside the Castle.",
                    rule,
                )
            )
        elif outside not in hexes and outside not in midfield:
            found.append(
                _v(
                    "bad_scenario",
                    f"{at}.gate must open onto a space of its Kingdom or of the Midfield: "
                    "the Castle's other outer edges are walls.",
                    rule,
                )
            )
    return found
