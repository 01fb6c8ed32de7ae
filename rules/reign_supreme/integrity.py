"""Integrity of a state a client sends back (meaning, not shape): rules doc §Integrity.

The schemas have already checked the shape. This checks that the state could have been reached
by playing: known players, armies and unit types; units on board spaces, one per space, pins
below hit points; Action Board pins in range; every card in exactly one place; Mines and Ruins
owned by players; phase, turn, active players, status and outcome consistent.
"""

from __future__ import annotations

import marshal
import re
from typing import Any

from rules.engine_types import STATUSES, State, Violation
from rules.integrity import common_problems, guarded, is_int, raise_problems
from rules.reign_supreme import rulebook
from rules.reign_supreme.actors import combat_actors
from rules.reign_supreme.board import geometry, layout_key
from rules.reign_supreme.cards import check_cards
from rules.reign_supreme.content import (
    ARMY_IDS,
    MAX_BOARD,
    MAX_COORD,
    MAX_LIST,
    SPELLS,
    check_layout,
    check_roster,
    default_roster,
    scenario_id_problems,
)
from rules.reign_supreme.effects import EFFECT_KINDS
from rules.reign_supreme.hexes import Hex, as_hex, distance
from rules.reign_supreme.responses import responder
from rules.reign_supreme.state import (
    MAX_DEPLOYS,
    MAX_MOVE_COUNT,
    MAX_ROUND_LIMIT,
    PACKING_ENDS,
    PACKING_NOTCHES,
    PIN_RESET,
    SCHEMA_VERSION,
    card_catalog,
)
from rules.reign_supreme.turns import PLAYING_PHASES, can_deploy, to_place
from rules.reign_supreme.walls import MAX_HP, PALISADE_LIMIT, WALL_KINDS, edge_key

__all__ = ["check_state", "state_problems", "PHASES", "PACKING"]

_UNIT_ID = re.compile(r"u[1-9][0-9]{0,5}", re.ASCII)
"""Unit ids as the rules give them: ``u`` and a number in ASCII digits (``"u²"`` is not one)."""
PHASES = ("setup", *PLAYING_PHASES, "finished")
"""The phases of a game, in order: the one list of them (``schemas/`` documents ``phase`` with
it)."""
PACKING = ("packed", "unpacked", "packing", "unpacking")
"""A siege engine's packing state: packed or unpacked, or on its way to one (a move in flight)."""
_MAX_LEFT = 99


def _v(code: str, message: str) -> Violation:
    return Violation(code, message, rulebook.INTEGRITY)


def _hex(value: Any) -> tuple[int, int] | None:
    if type(value) is list and len(value) == 2:
        q, r = value
        if (
            type(q) is int
            and type(r) is int
            and -MAX_COORD <= q <= MAX_COORD
            and -MAX_COORD <= r <= MAX_COORD
        ):
            return (q, r)
    return None


def check_state(state: State) -> None:
    """Raise InvalidState listing every problem found; return quietly for a sound state."""
    raise_problems(state_problems(state))


def _problems(state: State) -> list[Violation]:
    found, players_ok = common_problems(
        state,
        game_id=rulebook.GAME_ID,
        schema_version=SCHEMA_VERSION,
        min_players=2,
        max_players=4,
        max_move_count=MAX_MOVE_COUNT,
        rule=rulebook.INTEGRITY,
    )
    if not players_ok:
        return found
    players = state["players"]
    pset = set(players)
    for key in ("kingdoms", "armies", "boards", "kills", "zones", "hands"):
        if set(state[key]) != pset:
            found.append(
                _v("bad_player_keys", f"state.{key} must have exactly one entry per player.")
            )
    if found:
        return found
    found.extend(_board_layout_problems(state))
    found.extend(_control_problems(state))
    if found:
        return found
    found.extend(_army_problems(state))
    if found:
        return found
    found.extend(_unit_problems(state))
    found.extend(_wall_problems(state))
    found.extend(_board_problems(state))
    found.extend(_card_problems(state))
    if found:
        return found
    found.extend(_engaged_problems(state))
    found.extend(_turn_problems(state))
    return found


_LAYOUT_MEMO: dict[bytes, list[Violation]] = {}


def _board_layout_problems(state: State) -> list[Violation]:
    """The scenario and Kingdom checks, remembered per layout: they depend only on the scenario
    and the Kingdoms, which never change during a game (the key is ``board.layout_key``)."""
    key = layout_key(state)
    found = _LAYOUT_MEMO.get(key)
    if found is None:
        found = _scenario_problems(state)
        if len(_LAYOUT_MEMO) > 64:
            _LAYOUT_MEMO.clear()
        _LAYOUT_MEMO[key] = found
    return list(found)


def _control_problems(state: State) -> list[Violation]:
    found: list[Violation] = []
    sc = state["scenario"]
    for key in ("mines", "ruins"):
        if len(state["control"][key]) != len(sc[key]):
            found.append(
                _v("bad_control", f"state.control.{key} must have one entry per {key[:-1]}.")
            )
        elif any(o is not None and o not in state["players"] for o in state["control"][key]):
            found.append(_v("bad_control", f"state.control.{key} names someone not in the game."))
    return found


def _scenario_problems(state: State) -> list[Violation]:
    """The scenario and the seated Kingdoms (rules doc §Integrity): the victory condition, round
    limit and deployment as set-up gives them, at most MAX_BOARD spaces, a Castle, Throne and
    Gate exactly when the scenario uses castles, and the board's geometry as set-up accepts it:
    :func:`content.check_layout`, the one statement of it (hexes within MAX_COORD, distinct and
    disjoint spaces, Mines and Ruins in the Midfield, each Castle its Throne and the 6 spaces
    around it, listed once, with a Gate from an outer Castle space to an adjacent board space
    outside it), its problems named ``bad_board``."""
    found: list[Violation] = []
    sc = state["scenario"]
    if sc["victory"] not in ("last_standing", "throne") or (
        sc["victory"] == "throne" and not sc["castles"]
    ):
        found.append(
            _v(
                "bad_scenario",
                "state.scenario.victory must be 'last_standing' or 'throne' (with castles).",
            )
        )
    if not is_int(sc["round_limit"]) or not 1 <= sc["round_limit"] <= MAX_ROUND_LIMIT:
        found.append(
            _v("bad_scenario", f"state.scenario.round_limit must be 1 to {MAX_ROUND_LIMIT}.")
        )
    found.extend(
        scenario_id_problems(
            ("state.scenario.id", sc["id"]),
            [(f"state.kingdoms.{p}.id", k["id"]) for p, k in state["kingdoms"].items()],
            rulebook.INTEGRITY,
        )
    )
    if sc["deployment"]:
        if (
            not sc["castles"]
            or not is_int(sc["initial_units"])
            or not 1 <= sc["initial_units"] <= MAX_LIST
        ):
            found.append(
                _v("bad_scenario", "Deployment needs castles and initial_units from 1 to 20.")
            )
    elif sc["initial_units"] is not None:
        found.append(
            _v("bad_scenario", "state.scenario.initial_units must be null without deployment.")
        )
    size = len(sc["midfield"]) + sum(len(k["hexes"]) for k in state["kingdoms"].values())
    if size > MAX_BOARD:
        return found + [
            _v(
                "board_too_large",
                f"The board has {size} spaces; a scenario has at most {MAX_BOARD}.",
            )
        ]
    if not sc["castles"]:  # with castles, check_layout requires each Kingdom's (_check_castle)
        found.extend(
            _v(
                "bad_board",
                f"{p}'s Kingdom has a castle, throne or gate, but the scenario uses no castles.",
            )
            for p, k in state["kingdoms"].items()
            if any(k[part] is not None for part in ("castle", "throne", "gate"))
        )
    layout = check_layout(
        sc["midfield"],
        [(f"state.kingdoms.{p}", k) for p, k in state["kingdoms"].items()],
        sc["mines"],
        sc["ruins"],
        bool(sc["castles"]),
        "state.scenario",
    )
    return found + [_v("bad_board", v.message) for v in layout]


def _roster(state: State, army: str) -> dict[str, Any]:
    custom = state["rosters"].get(army)
    return custom["units"] if custom is not None else default_roster(army)


def _army_problems(state: State) -> list[Violation]:
    found: list[Violation] = []
    for army, roster in state["rosters"].items():
        if check_roster(army, roster):
            found.append(_v("bad_roster", f"state.rosters.{army} is not a valid roster."))
    for p, army in state["armies"].items():
        if army not in ARMY_IDS and army not in state["rosters"]:
            found.append(_v("unknown_army", f"{p}'s army {army!r} is not known."))
    return found


def _unit_problems(state: State) -> list[Violation]:
    found: list[Violation] = []
    geo = geometry(state)
    seen: dict[tuple[int, int], str] = {}
    defeated = set(state["defeated"])
    for uid, u in state["units"].items():
        if _UNIT_ID.fullmatch(uid) is None:
            found.append(
                _v(
                    "bad_unit_id",
                    f"Unit id {uid[:20]!r} is not of the form u<number> (u1 to u999999).",
                )
            )
            continue
        owner = u["owner"]
        if owner not in state["armies"]:
            found.append(_v("unknown_owner", f"Unit {uid} belongs to nobody in the game."))
            continue
        if owner in defeated:
            found.append(_v("defeated_units", f"Unit {uid} belongs to a defeated player."))
        if u["army"] not in ARMY_IDS and u["army"] not in state["rosters"]:
            found.append(_v("unknown_army", f"Unit {uid}'s army is not known."))
            continue
        roster = _roster(state, u["army"])
        stats = roster.get(u["type"])
        if stats is None:
            found.append(
                _v("unknown_unit_type", f"Unit {uid}'s type {u['type'][:30]!r} is not in its army.")
            )
            continue
        if not is_int(u["pins"]) or not 0 <= u["pins"] < stats["hp"]:
            found.append(
                _v(
                    "bad_pins",
                    f"Unit {uid} has {u['pins']} pins; a living unit has 0 to {stats['hp'] - 1}.",
                )
            )
        if (
            not all(is_int(u[k]) and 0 <= u[k] <= _MAX_LEFT for k in ("steps", "bonus"))
            or not is_int(u["attacks"])
            or not 0 <= u["attacks"] <= 2
            or u["mode"] not in (None, "melee", "shoot", "spell")
            or (u["attacks"] == 0) != (u["mode"] is None)
            or u["attacked"] != (u["attacks"] > 0)
        ):
            found.append(
                _v(
                    "bad_unit_turn",
                    f"Unit {uid}'s record of this turn (steps, attacks, mode) is not consistent.",
                )
            )
        packed = "packed" in stats["kinds"]
        if packed != ("packing" in u) or (packed and u["packing"] not in PACKING):
            found.append(_v("bad_packing", f"Unit {uid}'s packing state does not fit its kind."))
        if u["at"] is not None:
            h = _hex(u["at"])
            if h is None or h not in geo.board:
                found.append(_v("off_board", f"Unit {uid} stands off the board."))
            elif h in seen:
                found.append(
                    _v("two_units_one_space", f"Units {seen[h]} and {uid} stand on the same space.")
                )
            else:
                seen[h] = uid
            if state["phase"] == "setup" and h is not None and h not in geo.kingdoms.get(owner, ()):
                found.append(_v("bad_setup", f"Unit {uid} is set up outside its owner's Kingdom."))
    return found


def _board_problems(state: State) -> list[Violation]:
    found: list[Violation] = []
    sc = state["scenario"]
    units = state["units"]
    for p, b in state["boards"].items():
        for key, used in (
            ("spell_pin", sc["cards"]),
            ("tactics_pin", sc["cards"]),
            ("reinforcement_pin", sc["deployment"]),
        ):
            pin = b[key]
            if (pin is None) == bool(used) or (
                pin is not None and (not is_int(pin) or not 1 <= pin <= PIN_RESET)
            ):
                found.append(
                    _v("bad_pin", f"{p}'s {key} must be 1 to {PIN_RESET} when used, else null.")
                )
        if not is_int(b["deploys"]) or not 0 <= b["deploys"] <= MAX_DEPLOYS:
            found.append(_v("bad_pin", f"{p}'s deploys must be 0 to {MAX_DEPLOYS}."))
        pinned = set()
        for pin in b["packing"]:
            u = units.get(pin["unit"])
            if (
                u is None
                or u["owner"] != p
                or pin["unit"] in pinned
                or pin["to"] not in PACKING_ENDS
                or not is_int(pin["notch"])
                or not 0 <= pin["notch"] <= PACKING_NOTCHES  # at the end: waits (RS 16)
                or u.get("packing") != ("packing" if pin["to"] == "packed" else "unpacking")
            ):
                found.append(
                    _v("bad_packing_pin", f"{p} has a Packing pin that fits no packing unit.")
                )
            pinned.add(pin["unit"])
        transit = {
            uid
            for uid, u in units.items()
            if u["owner"] == p and u.get("packing") in ("packing", "unpacking")
        }
        if transit != pinned:
            found.append(
                _v(
                    "bad_packing_pin",
                    f"Every packing or unpacking unit of {p} needs one Packing pin.",
                )
            )
        found.extend(_spell_pin_problems(state, p, b["spells"]))
        for entry in b["effects"]:
            if (
                (entry["unit"] is not None and entry["unit"] not in units)
                or not is_int(entry["left"])
                or not 1 <= entry["left"] <= _MAX_LEFT
                or not is_int(entry["value"])
                or not 0 <= entry["value"] <= _MAX_LEFT  # a card's amount, never negative
                or entry["effect"] not in EFFECT_KINDS
            ):
                found.append(_v("bad_effect", f"{p} has an effect with a bad unit or duration."))
    for p, n in state["kills"].items():
        if not is_int(n) or not 0 <= n <= 10_000:
            found.append(_v("bad_kills", f"{p}'s kills must be 0 or more."))
    return found


def _spell_pin_problems(state: State, player: str, pins: list[dict[str, Any]]) -> list[Violation]:
    """``player``'s spell cooldowns (rules doc §Action Board, §Field spells, §Integrity): each is
    the pin of a spell of one of the player's units, with 1 to 99 turns left, and a unit's spell
    has at most one: a spell is cast only when its pin is off the Action Board
    (:func:`spells.ready`), so a second pin for it could never have been put there."""
    found: list[Violation] = []
    units = state["units"]
    cooling: set[tuple[str, str]] = set()
    for entry in pins:
        u = units.get(entry["unit"])
        if (
            u is None
            or u["owner"] != player
            or not is_int(entry["left"])
            or not 1 <= entry["left"] <= _MAX_LEFT
            or entry["spell"] not in _roster(state, u["army"])[u["type"]]["spells"]
        ):
            found.append(
                _v("bad_spell_pin", f"{player} has a spell cooldown that fits no unit's spell.")
            )
        pin = (entry["unit"], entry["spell"])
        if pin in cooling:
            found.append(
                _v(
                    "bad_spell_pin",
                    f"{player} has two cooldowns of unit {pin[0]}'s {pin[1]}: a spell has one "
                    "pin, put on the Action Board only when the spell is ready.",
                )
            )
        cooling.add(pin)
    return found


_SOUND_CARD_SETS: dict[bytes, None] = {}
"""Card sets :func:`cards.check_cards` found sound, by their content (:func:`_sound_card_set`)."""


def _sound_card_set(cards: list[Any]) -> bool:
    """Whether :func:`cards.check_cards` finds nothing wrong with the card set ``cards``,
    remembered per set as the layout checks are (:func:`_board_layout_problems`): a game's card
    set never changes (only set-up writes it), and checking the default set's definitions took
    as long as the rest of this module's checks (issue 28: 150 µs of a Reign Supreme state's
    400). The key is the set's content written by ``marshal``, which writes values losslessly
    (``true`` apart from ``1``, ``1.0`` apart from ``1``; format 2 writes no back-references), so
    only an equal set is taken for one found sound; sets found wrong are not remembered."""
    try:
        key = marshal.dumps(cards, 2)
    except ValueError:  # nested past marshal's depth limit, or not values JSON can hold
        return not check_cards(cards)
    if key in _SOUND_CARD_SETS:
        return True
    if check_cards(cards):
        return False
    if len(_SOUND_CARD_SETS) > 64:
        _SOUND_CARD_SETS.clear()
    _SOUND_CARD_SETS[key] = None
    return True


def _card_problems(state: State) -> list[Violation]:
    if (
        type(state["cards"]) is not list
        or (state["cards"] and not _sound_card_set(state["cards"]))
        or (not state["scenario"]["cards"] and state["cards"])
    ):
        return [_v("bad_cards", "state.cards must be a valid card set (empty without cards).")]
    found: list[Violation] = []
    catalog = card_catalog(state["cards"])
    places: dict[str, str] = {}
    for where, cards in (
        [(f"decks.{k}", v) for k, v in state["decks"].items()]
        + [(f"discards.{k}", v) for k, v in state["discards"].items()]
        + [(f"hands.{p}", h) for p, h in state["hands"].items()]
    ):
        for card in cards:
            if card not in catalog:
                found.append(
                    _v("unknown_card", f"There is no card {card[:40]!r} in state.{where}.")
                )
            elif card in places:
                found.append(
                    _v(
                        "card_in_two_places",
                        f"A card is both in state.{places[card]} and state.{where}.",
                    )
                )
            else:
                places[card] = where
            if (
                where.startswith(("decks", "discards"))
                and card in catalog
                and catalog[card]["deck"] != where[-5:]
                and not (where.endswith("tactics") and catalog[card]["deck"] == "tactics")
            ):
                found.append(
                    _v("card_in_wrong_deck", f"A card in state.{where} belongs to the other deck.")
                )
    if set(state["decks"]) != {"spell", "tactics"} or set(state["discards"]) != {
        "spell",
        "tactics",
    }:
        found.append(
            _v("bad_decks", "There are exactly two decks and two discard piles: spell and tactics.")
        )
    if state["scenario"]["cards"]:
        if not found and len(places) != len(catalog):
            found.append(
                _v(
                    "missing_cards",
                    "Some cards are missing from the decks, discard piles and hands.",
                )
            )
    elif places:
        found.append(_v("cards_without_cards", "This scenario is played without cards."))
    for p in state["defeated"]:
        if p in state["hands"] and state["hands"][p]:
            found.append(_v("defeated_hand", f"{p} is out of the game and holds no cards."))
    return found


def _turn_problems(state: State) -> list[Violation]:
    found: list[Violation] = []
    players = state["players"]
    defeated = state["defeated"]
    if len(set(defeated)) != len(defeated) or not set(defeated) <= set(players):
        return [_v("bad_defeated", "state.defeated must list distinct players of the game.")]
    for p, zones in state["zones"].items():
        if len(set(zones)) != len(zones) or any(z not in defeated or z == p for z in zones):
            found.append(
                _v("bad_zones", f"{p}'s captured zones must be distinct defeated players.")
            )
    if state["first_player"] not in players:
        found.append(_v("bad_first_player", "state.first_player must be a player."))
    sc = state["scenario"]
    if not is_int(state["round"]) or not 1 <= state["round"] <= sc["round_limit"]:
        found.append(_v("bad_round", f"state.round must be 1 to {sc['round_limit']}."))
    phase, status = state["phase"], state["status"]
    if (
        phase not in PHASES
        or status not in STATUSES
        or (status == "finished") != (phase == "finished")
    ):
        return found + [_v("bad_phase", "state.phase and state.status do not agree.")]
    alive = [p for p in players if p not in defeated]
    if status == "finished":
        if (
            state["active_players"]
            or state["turn"] is not None
            or not isinstance(state["outcome"], dict)
        ):
            found.append(_v("bad_finish", "A finished game has an outcome and nobody active."))
        elif not set(state["outcome"]["winners"]) <= set(alive) or set(
            state["outcome"]["scores"]
        ) != set(players):
            found.append(
                _v("bad_outcome", "The outcome's winners must be players still in the game.")
            )
        return found
    if state["outcome"] is not None:
        found.append(_v("bad_outcome", "A game in progress has no outcome."))
    turn = state["turn"]
    if state["pending"] is not None:
        return found + _pending_problems(state)
    if len(alive) < 2 or turn not in alive or state["active_players"][:1] != [turn]:
        return found + [
            _v(
                "bad_turn",
                "The player whose turn it is (still in the game) is active first, and "
                "at least two players are in the game.",
            )
        ]

    if phase == "setup":
        if to_place(state, turn) == 0:
            found.append(_v("bad_setup", "The player setting up has nothing left to place."))
    else:
        standing = {u["owner"] for u in state["units"].values() if u["at"] is not None}
        if any(p not in standing for p in alive):
            found.append(
                _v(
                    "no_units",
                    "Every player still in the game has a unit on the board after set-up.",
                )
            )
        if phase == "deployment" and not can_deploy(state, geometry(state), turn):
            found.append(_v("bad_phase", "The Deployment phase needs a unit that can deploy."))
    if found:
        return found
    expected = combat_actors(state, geometry(state)) if phase == "combat" else [turn]
    if state["active_players"] != expected:
        found.append(
            _v(
                "bad_turn",
                "The active players are the turn player and, in a Combat phase, every other "
                "player who can act outside their turn (rules doc §Outside your own turn).",
            )
        )
    return found


_WALL_ID = re.compile(r"w[1-9][0-9]{0,5}", re.ASCII)
_ENTRY_KEYS = {
    "attack": {"kind", "player", "move", "asked", "evaded"},
    "spell": {"kind", "player", "move", "asked", "unit", "at", "evaded"},
    "card": {"kind", "player", "move", "asked", "spell", "at", "target_unit", "evaded"},
}
_MOVE_KEYS = {
    "attack": (
        {"player", "type", "unit", "target", "mode"},
        {"knockback", "volley", "on_the_move"},
    ),
    "spell": ({"player", "type", "unit", "spell", "target"}, {"cure"}),
    "card": ({"player", "type", "card", "target"}, set()),
}
_MOVE_TYPE = {"attack": "attack", "spell": "cast", "card": "play"}


def _wall_problems(state: State) -> list[Violation]:
    geo = geometry(state)
    serial = state["wall_serial"]
    if not is_int(serial) or not 0 <= serial <= 999_999:
        return [_v("bad_walls", "state.wall_serial must be 0 to 999999.")]
    found: list[Violation] = []
    players = set(state["players"])
    castles = bool(state["scenario"]["castles"])
    ids: set[str] = set()
    edges: set[tuple[Hex, Hex]] = set()
    palisades: dict[str, int] = {}
    for w in state["walls"]:
        wid, kind, edge, hp = w["id"], w["kind"], w["edge"], w["hp"]
        a, b = (_hex(edge[0]), _hex(edge[1])) if len(edge) == 2 else (None, None)
        key = edge_key(a, b) if a is not None and b is not None else None
        if (
            key is None
            or a not in geo.board
            or b not in geo.adjacent[a]  # a board space next to a
            or key in edges
            or _WALL_ID.fullmatch(wid) is None
            or wid in ids
            or int(wid[1:]) > serial
            or kind not in WALL_KINDS
            or w["owner"] not in players
            or not is_int(hp)
            or not 1 <= hp <= MAX_HP[kind]
            or (kind != "palisade" and not castles)
            or (kind == "castle_wall" and (a in geo.castle_owner) == (b in geo.castle_owner))
        ):
            found.append(
                _v(
                    "bad_walls",
                    f"Wall {wid[:20]!r} is not a Gate, Castle wall or Palisade with an "
                    "owner, an edge between two adjacent board spaces (a Castle wall: on a "
                    "Castle's outer edge), a unique id and 1 to its most hit points.",
                )
            )
            continue
        ids.add(wid)
        edges.add(key)
        if kind == "palisade":
            palisades[w["owner"]] = palisades.get(w["owner"], 0) + 1
    # A player builds at most PALISADE_LIMIT, and holds more only by capturing a Throne in a game
    # of three or more: the loser's walls pass to the capturer, up to a limit's worth per loser.
    handed_over = len(state["defeated"]) if len(state["players"]) >= 3 else 0
    most = PALISADE_LIMIT * (1 + handed_over)
    if any(n > most for n in palisades.values()):
        found.append(_v("bad_walls", f"A player has more than {most} Palisades."))
    return found


def _engaged_problems(state: State) -> list[Violation]:
    units = state["units"]
    for pair in state["engaged"]:
        if (
            len(pair) != 2
            or pair[0] >= pair[1]
            or any(uid not in units or units[uid]["at"] is None for uid in pair)
        ):
            return [
                _v("bad_engaged", "state.engaged lists pairs [a, b] (a < b) of units on the board.")
            ]
        a, b = units[pair[0]], units[pair[1]]
        if a["owner"] == b["owner"] or distance(as_hex(a["at"]), as_hex(b["at"])) != 1:
            return [_v("bad_engaged", "state.engaged pairs are enemy units next to each other.")]
    return []


def _pending_problems(state: State) -> list[Violation]:
    """A pending stack: well-formed declarations by players in the game, and the active player is
    the one who must answer the top of it."""

    bad = [
        _v(
            "bad_pending",
            "state.pending must be {'stack': [declarations]} with the player who must answer "
            "active, during a Combat phase.",
        )
    ]
    pending = state["pending"]
    if (
        state["phase"] != "combat"
        or set(pending) != {"stack"}
        or type(pending["stack"]) is not list
        or not 1 <= len(pending["stack"]) <= 64
    ):
        return bad
    players = state["players"]
    for entry in pending["stack"]:
        if type(entry) is not dict or entry.get("kind") not in _ENTRY_KEYS:
            return bad
        kind = entry["kind"]
        if not {"kind", "player", "move", "asked"} <= set(entry) <= _ENTRY_KEYS[kind]:
            return bad
        move, asked = entry["move"], entry["asked"]
        if (
            entry["player"] not in players
            or type(asked) is not list
            or len(set(map(str, asked))) != len(asked)
            or any(p not in players for p in asked)
            or type(move) is not dict
        ):
            return bad
        required, optional = _MOVE_KEYS[kind]
        if (
            not required <= set(move) <= required | optional
            or move["type"] != _MOVE_TYPE[kind]
            or move["player"] != entry["player"]
            or any(type(move[k]) is not bool for k in optional if k in move)
        ):
            return bad
        if not _entry_values_ok(state, entry):
            return bad
    if state["turn"] not in players or len([p for p in players if p not in state["defeated"]]) < 2:
        return bad
    who = responder(state, geometry(state))
    if who is None or state["active_players"] != [who]:
        return bad
    return []


def _entry_values_ok(state: State, entry: dict[str, Any]) -> bool:
    move = entry["move"]
    kind = entry["kind"]
    if "evaded" in entry and type(entry["evaded"]) not in (bool, str):
        return False
    units = state["units"]
    # A player who concedes while the stack waits on an answer leaves it with their units: their
    # own declarations lose their unit, and others' lose their target. Such entries stay (their
    # resolution fizzles: ``target_gone``, ``player_out``), so a unit may be missing once someone
    # is defeated: the declarer's own only when the declarer is.
    declarer_out = entry["player"] in state["defeated"]
    if kind == "attack":
        if (
            type(move["unit"]) is not str
            or type(move["target"]) is not str
            or move["mode"] not in ("melee", "shoot")
        ):
            return False
        attacker = units.get(move["unit"])
        target = units.get(move["target"]) or next(
            (w for w in state["walls"] if w["id"] == move["target"]), None
        )
        return (
            attacker["owner"] == entry["player"] if attacker is not None else declarer_out
        ) and (
            target["owner"] != entry["player"] if target is not None else bool(state["defeated"])
        )
    if kind == "spell" and (
        type(move["unit"]) is not str
        or (move["unit"] not in units and not declarer_out)
        or (move["unit"] in units and units[move["unit"]]["owner"] != entry["player"])
    ):
        return False
    target = move["target"]
    at_ok = entry.get("at") is None or _hex(entry["at"]) is not None
    if kind == "spell":
        return (
            type(move["unit"]) is str
            and entry.get("unit") == move["unit"]
            and move["spell"] in SPELLS
            and _spell_target_ok(state, move["spell"], target, entry.get("at"))
            and at_ok
            and "at" in entry
        )
    catalog = card_catalog(state["cards"])
    return (
        type(move["card"]) is str
        and move["card"] in catalog
        and (target is None if catalog[move["card"]]["target"] == "none" else type(target) is str)
        and at_ok
        and type(entry.get("spell")) is bool
        and (entry.get("target_unit") is None or type(entry["target_unit"]) is str)
    )


def _spell_target_ok(state: State, spell: str, target: Any, at: Any) -> bool:
    """A declared spell's target has its spell's shape (``spells.declare_cast``): Healing a
    unit, Counterspell the place of what it answers (``at``, none for a spell with no place),
    Teleport, Blast, Cone and Arc a space of the board."""
    if spell == "healing":
        return type(target) is str
    if spell == "counterspell":
        return target == at and (target is None or _hex(target) is not None)
    space = _hex(target)
    return space is not None and space in geometry(state).board


state_problems = guarded(_problems, rulebook.INTEGRITY)
