"""A new game: options, scenario, armies, cards and the first decisions.

Seed, Starting the Game: each player sets up their units on their side of the board (in a game
with a deployment phase, 5 units of their choice); shuffle the Tactics and Spell cards, each
player draws two of each; Spell pin at 5 and Tactics pin at 10 when cards are used, and a
Reinforcement pin at 10 with a deployment phase. "Decide randomly who goes first."
Rulings RS 1-3, 7, 8, 12.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine import check_seed, unknown_options
from rules.engine_types import PlayerId, State, Violation
from rules.errors import InvalidSetup
from rules.reign_supreme import rulebook
from rules.reign_supreme.actors import refresh_actors
from rules.reign_supreme.board import geometry
from rules.reign_supreme.cards import check_cards
from rules.reign_supreme.content import (
    ARMY_IDS,
    MAX_ROSTERS,
    check_army_list,
    check_roster,
    check_scenario,
    default_armies,
    default_cards,
    default_roster,
    default_scenarios,
)
from rules.reign_supreme.state import (
    CARDS_PER_DECK_AT_START,
    MAX_ROUND_LIMIT,
    REINFORCEMENT_PIN_START,
    SCHEMA_VERSION,
    SPELL_PIN_START,
    TACTICS_PIN_START,
    card_catalog,
    fresh_turn_flags,
    json_copy,
)
from rules.reign_supreme.turns import auto_setup
from rules.reign_supreme.walls import GATE_HP, castle_wall_edges
from rules.rng import Rng
from rules.shown_text import LookAlikes, taken

__all__ = ["DEFAULT_OPTIONS", "SETUP_MODES", "new_game"]

SETUP_MODES = ("manual", "auto")
"""How the first units are placed: by the players, one move each, or in list order."""

DEFAULT_OPTIONS: dict[str, Any] = {
    "scenario": "standard",
    "armies": None,
    "army_lists": None,
    "rosters": None,
    "round_limit": 30,
    "first_player": None,
    "setup": "manual",
    "cards": None,
}
"""``scenario``: ``"standard"``, ``"skirmish"`` or a custom scenario object. ``armies``: player ->
army id (default: Resistance, Greenskin, Undead, Demon in seat order). ``army_lists``: player ->
list of unit types (default: the army's list for the scenario). ``rosters``: army id -> custom
roster (replaces or adds an army). ``round_limit``: rounds before the game ends (1 to 200).
``first_player``: who goes first (default: drawn). ``setup``: ``"manual"`` (players place
their units, one move each) or ``"auto"`` (units are placed in list order on the Kingdom's
spaces nearest the Throne/centre). ``cards``: a custom card set replacing the default one
(rules doc §Cards)."""


def _v(code: str, message: str, rule: str = rulebook.OPTIONS) -> Violation:
    return Violation(code, message, rule)


def _resolve(players: Sequence[PlayerId], options: dict[str, Any]) -> dict[str, Any]:
    """Validated options, with every default filled in. Raises InvalidSetup."""
    found = unknown_options(rulebook.TITLE, options, DEFAULT_OPTIONS, rulebook.OPTIONS)
    opts = {**DEFAULT_OPTIONS, **{k: v for k, v in options.items() if v is not None}}
    n = len(players)
    scenario = opts["scenario"]
    if isinstance(scenario, str):
        shipped = default_scenarios()
        if scenario not in shipped:
            found.append(
                _v(
                    "unknown_scenario",
                    f"There is no scenario {scenario!r}; the scenarios are "
                    f"{', '.join(shipped)}, or give a scenario object.",
                    rulebook.SCENARIOS,
                )
            )
            scenario = shipped["standard"]
        else:
            scenario = shipped[scenario]
    else:
        found.extend(check_scenario(scenario, n))
    rosters: dict[str, Any] = {}
    custom = opts["rosters"] or {}
    if not isinstance(custom, dict):
        found.append(
            _v("bad_roster", "options.rosters must map army ids to rosters.", rulebook.ROSTERS)
        )
        custom = {}
    if len(custom) > MAX_ROSTERS:  # counted before any is checked: each check costs
        found.append(
            _v(
                "bad_roster",
                f"options.rosters holds at most {MAX_ROSTERS} rosters, not {len(custom)}.",
                rulebook.ROSTERS,
            )
        )
        custom = {}
    given = LookAlikes()
    for army, roster in custom.items():
        problems = check_roster(army, roster)
        other = given.like(army)
        if not problems and other is not None:  # army ids are keys: never equal
            problems = [
                _v(
                    "bad_roster",
                    f"options.rosters.{army} {taken(army, other, 'another roster')}.",
                    rulebook.ROSTERS,
                )
            ]
        given.add(army)
        found.extend(problems)
        if not problems:
            rosters[army] = {"title": roster.get("title", army), "units": roster["units"]}
    known_armies = set(ARMY_IDS) | set(rosters)
    armies = opts["armies"]
    if armies is None:
        armies = {p: ARMY_IDS[i % len(ARMY_IDS)] for i, p in enumerate(players)}
    elif (
        not isinstance(armies, dict)
        or set(armies) != set(players)
        or any(not isinstance(a, str) or a not in known_armies for a in armies.values())
    ):
        found.append(
            _v(
                "bad_armies",
                "options.armies must give every player one army: "
                f"{', '.join(sorted(known_armies))}.",
                rulebook.ROSTERS,
            )
        )
        armies = {p: ARMY_IDS[i % len(ARMY_IDS)] for i, p in enumerate(players)}
    lists = opts["army_lists"] or {}
    if not isinstance(lists, dict) or any(p not in players for p in lists):
        found.append(
            _v(
                "bad_army_list",
                "options.army_lists must map players of this game to lists.",
                rulebook.ARMY_LISTS,
            )
        )
        lists = {}
    key = scenario.get("army_list", "standard") if isinstance(scenario, dict) else "standard"
    army_lists: dict[str, list[str]] = {}
    for p in players:
        army = armies[p]
        roster = rosters[army]["units"] if army in rosters else default_roster(army)
        if p in lists:
            found.extend(check_army_list(p, lists[p], roster))
            army_lists[p] = list(lists[p]) if isinstance(lists[p], list) else []
        elif army in rosters:
            # By id, not the options' key order: an object's keys have no order in JSON, and a
            # session stores its options with sorted keys, from which its replay sets up again.
            army_lists[p] = sorted(rosters[army]["units"])[:10]
        else:
            army_lists[p] = list(default_armies()[army]["lists"].get(key, []))
    limit = opts["round_limit"]
    if type(limit) is not int or not 1 <= limit <= MAX_ROUND_LIMIT:
        found.append(
            _v(
                "bad_round_limit",
                f"options.round_limit must be a whole number from 1 to {MAX_ROUND_LIMIT}.",
                rulebook.ROUND_LIMIT,
            )
        )
    first = opts["first_player"]
    if first is not None and first not in players:
        found.append(
            _v(
                "unknown_first_player",
                f"options.first_player must be one of the players ({', '.join(players)}).",
                rulebook.TURN,
            )
        )
    if opts["setup"] not in SETUP_MODES:
        found.append(
            _v("bad_setup_option", "options.setup must be 'manual' or 'auto'.", rulebook.SETUP)
        )
    card_set = opts["cards"]
    if card_set is None:
        card_set = default_cards()
    else:
        found.extend(check_cards(card_set))
    if found:
        raise InvalidSetup(found)
    kingdoms = _seat(scenario, players)
    for p in players:
        if len(army_lists[p]) > len(kingdoms[p]["hexes"]):
            found.append(
                _v(
                    "army_too_big",
                    f"{p}'s army of {len(army_lists[p])} units does not fit in a "
                    f"Kingdom of {len(kingdoms[p]['hexes'])} spaces.",
                    rulebook.ARMY_LISTS,
                )
            )
    if found:
        raise InvalidSetup(found)
    return {
        "scenario": scenario,
        "rosters": rosters,
        "armies": armies,
        "army_lists": army_lists,
        "round_limit": limit,
        "first_player": first,
        "setup": opts["setup"],
        "kingdoms": kingdoms,
        "cards": card_set,
    }


def _seat(scenario: dict[str, Any], players: Sequence[PlayerId]) -> dict[PlayerId, dict[str, Any]]:
    """Each player's Kingdom: ``seating[n]`` of the scenario, else its first n kingdoms."""
    by_id = {k["id"]: k for k in scenario["kingdoms"]}
    seating = scenario.get("seating")
    ids = (
        seating[str(len(players))]
        if seating
        else [k["id"] for k in scenario["kingdoms"]][: len(players)]
    )
    out = {}
    for p, kid in zip(players, ids, strict=True):
        k = by_id[kid]
        castles = scenario["castles"]
        out[p] = {
            "id": kid,
            "hexes": [list(h) for h in k["hexes"]],
            "castle": [list(h) for h in k["castle"]] if castles else None,
            "throne": list(k["throne"]) if castles else None,
            "gate": [list(h) for h in k["gate"]] if castles else None,
        }
    return out


def new_game(players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
    """The state at the start of set-up (or, with ``setup: "auto"``, of the first turn)."""
    check_seed(seed, rulebook.SETUP)
    if not isinstance(options, dict):
        raise InvalidSetup([_v("bad_options", "options must be an object.")])
    o = _resolve(players, options)
    players = list(players)
    rng = Rng.from_seed(seed)
    first = o["first_player"] if o["first_player"] is not None else rng.choice(players)
    sc = o["scenario"]
    cards = sc["cards"]
    units: dict[str, dict[str, Any]] = {}
    n = 0
    for p in players:
        army = o["armies"][p]
        roster = o["rosters"][army]["units"] if army in o["rosters"] else default_roster(army)
        for utype in o["army_lists"][p]:
            n += 1
            unit: dict[str, Any] = {
                "owner": p,
                "army": army,
                "type": utype,
                "at": None,
                "pins": 0,
                **fresh_turn_flags(),
                "ensnared": False,
                "countered": False,
            }
            if "packed" in roster[utype]["kinds"]:
                unit["packing"] = "packed"
            units[f"u{n}"] = unit
    decks: dict[str, list[str]] = {"spell": [], "tactics": []}
    hands: dict[str, list[str]] = {p: [] for p in players}
    if cards:
        for cid, card in card_catalog(o["cards"]).items():
            decks[card["deck"]].append(cid)
        rng.shuffle(decks["spell"])
        rng.shuffle(decks["tactics"])
        for p in players:
            for deck in ("spell", "tactics"):
                hands[p].extend(decks[deck][:CARDS_PER_DECK_AT_START])
                del decks[deck][:CARDS_PER_DECK_AT_START]
    walls = _castle_walls(o["kingdoms"], sc["midfield"]) if sc["castles"] else []
    state: State = {
        "game": rulebook.GAME_ID,
        "schema_version": SCHEMA_VERSION,
        "players": players,
        "status": "in_progress",
        "active_players": [first],
        "move_count": 0,
        "outcome": None,
        "seed": seed,
        "rng": "",
        "scenario": {
            "id": sc.get("id", "custom"),
            "castles": sc["castles"],
            "cards": cards,
            "deployment": sc["deployment"],
            "initial_units": sc["initial_units"],
            "victory": sc["victory"],
            "round_limit": o["round_limit"],
            "midfield": [list(h) for h in sc["midfield"]],
            "mines": [list(h) for h in sc["mines"]],
            "ruins": [list(h) for h in sc["ruins"]],
        },
        "kingdoms": o["kingdoms"],
        "armies": dict(o["armies"]),
        "rosters": o["rosters"],
        "units": units,
        "first_player": first,
        "round": 1,
        "phase": "setup",
        "turn": first,
        "pending": None,
        "walls": walls,
        "wall_serial": len(walls),
        "engaged": [],
        "boards": {
            p: {
                "spell_pin": SPELL_PIN_START if cards else None,
                "tactics_pin": TACTICS_PIN_START if cards else None,
                "reinforcement_pin": REINFORCEMENT_PIN_START if sc["deployment"] else None,
                "deploys": 0,
                "packing": [],
                "spells": [],
                "effects": [],
            }
            for p in players
        },
        "control": {"mines": [None] * len(sc["mines"]), "ruins": [None] * len(sc["ruins"])},
        "kills": {p: 0 for p in players},
        "defeated": [],
        "zones": {p: [] for p in players},
        "cards": json_copy(o["cards"]) if cards else [],
        "decks": decks,
        "discards": {"spell": [], "tactics": []},
        "hands": hands,
    }
    state["rng"] = str(rng)
    if o["setup"] == "auto":
        state, _ = auto_setup(state)
        refresh_actors(state, geometry(state))
    return state


def _castle_walls(
    kingdoms: dict[PlayerId, dict[str, Any]], midfield: list[list[int]]
) -> list[dict[str, Any]]:
    """Seed, Castle and Gates; ruling RS 12: each Castle's Gate, on the edge the scenario gives,
    and a Castle wall on every other outer edge of the Castle that meets a board space, each of
    20 hit points and owned by the Kingdom's player. Ids ``w1``, ``w2``... : the Gates in seat
    order, then each Castle's walls in seat order, edges sorted (inside space first)."""
    board = {(h[0], h[1]) for h in midfield} | {
        (h[0], h[1]) for k in kingdoms.values() for h in k["hexes"]
    }
    out = [
        {"id": "", "kind": "gate", "owner": p, "edge": [list(h) for h in k["gate"]], "hp": GATE_HP}
        for p, k in kingdoms.items()
    ]
    for p, k in kingdoms.items():
        castle = {(h[0], h[1]) for h in k["castle"]}
        gate = ((k["gate"][0][0], k["gate"][0][1]), (k["gate"][1][0], k["gate"][1][1]))
        out.extend(
            {"id": "", "kind": "castle_wall", "owner": p, "edge": [list(a), list(b)], "hp": GATE_HP}
            for a, b in castle_wall_edges(castle, gate, board)
        )
    for n, wall in enumerate(out, start=1):
        wall["id"] = f"w{n}"
    return out
