"""Legal moves, violations and ``apply``: the dispatch over set-up, deployment and combat.

Moves (every move also has ``player`` and ``type``):

- ``place`` ``{unit, to}``: set-up, a waiting unit onto an empty space of your Kingdom;
- ``deploy`` ``{unit, to}``: Deployment phase, a waiting unit onto an empty Castle space;
- ``end_deployment``: stop deploying, go to the Combat phase;
- ``move`` ``{unit, to}``: Combat phase, a unit moves up to its movement;
- ``attack`` ``{unit, target, mode}``: Combat phase, ``mode`` ``"melee"`` or ``"shoot"``;
- ``pack`` / ``unpack`` ``{unit}``: a Packed unit starts packing or unpacking (or reverses);
- ``end_turn``: end your Combat phase and your turn;
- ``concede``: leave the game (ruling RS 8).

Nothing here raises anything but :class:`~rules.errors.IllegalMove`.
"""
from __future__ import annotations

from typing import Any

from rules.engine_types import Event, Move, PlayerId, State, Violation
from rules.errors import IllegalMove
from rules.reign_supreme import rulebook
from rules.reign_supreme.board import Geometry, geometry, occupancy, reachable, path_to, stats
from rules.reign_supreme.combat import attack_modes, attack_options, can_attack, resolve_attack
from rules.reign_supreme.hexes import Hex, as_json
from rules.reign_supreme.state import MAX_MOVE_COUNT, PACKING_NOTCHES, clone
from rules.reign_supreme.turns import (after_placement, check_end, defeat, deploy_spaces, end_turn,
                                       placement_spaces, to_place)
from rules.rng import Rng

__all__ = ["legal_moves", "violations", "apply", "MOVE_TYPES"]

MOVE_TYPES = ("place", "deploy", "end_deployment", "move", "attack", "pack", "unpack", "end_turn", "concede")
_FIELDS = {
    "place": ("unit", "to"), "deploy": ("unit", "to"), "end_deployment": (), "move": ("unit", "to"),
    "attack": ("unit", "target", "mode"), "pack": ("unit",), "unpack": ("unit",), "end_turn": (), "concede": (),
}
_PHASE_OF = {"place": "setup", "deploy": "deployment", "end_deployment": "deployment", "move": "combat",
             "attack": "combat", "pack": "combat", "unpack": "combat", "end_turn": "combat"}
_PHASE_RULE = {"setup": rulebook.SETUP, "deployment": rulebook.DEPLOYMENT, "combat": rulebook.COMBAT}
_PHASE_WORDS = {"setup": "set-up", "deployment": "the Deployment phase", "combat": "the Combat phase"}


def _v(code: str, message: str, rule: str) -> Violation:
    return Violation(code, message, rule)


# -- what a unit may do ------------------------------------------------------------------------------
def _can_move(state: State, unit: dict[str, Any]) -> bool:
    """Movement comes first: a unit on the board that has not moved, attacked or otherwise acted
    this turn, and (Packed units) is packed."""
    if unit["at"] is None or unit["moved"] or unit["attacked"] or unit["done"]:
        return False
    return unit.get("packing", "packed") == "packed"


def _packing_move(unit: dict[str, Any]) -> str | None:
    """``pack``, ``unpack`` or None: what a Packed unit may start (or reverse) now."""
    state_ = unit.get("packing")
    if state_ is None or unit["at"] is None or unit["done"]:
        return None
    if state_ == "packed":
        return None if unit["attacked"] else "unpack"
    if state_ == "unpacked":
        return "pack"
    return "unpack" if state_ == "packing" else "pack"


def _unit_moves(state: State, geo: Geometry, occ: dict[Hex, str], player: PlayerId, uid: str) -> list[Move]:
    units = state["units"]
    unit = units[uid]
    out: list[Move] = []
    if _can_move(state, unit):
        speed = stats(state, unit)["movement"]
        if speed > 0:
            dests, _ = reachable(state, geo, occ, uid, speed)
            out.extend({"player": player, "type": "move", "unit": uid, "to": as_json(h)} for h in sorted(dests))
    if can_attack(state, unit):
        out.extend({"player": player, "type": "attack", "unit": uid, "target": tid, "mode": mode}
                   for tid, mode in attack_options(state, occ, unit))
    kind = _packing_move(unit)
    if kind is not None:
        out.append({"player": player, "type": kind, "unit": uid})
    return out


def legal_moves(state: State, player: PlayerId | None = None) -> list[Move]:
    """Every legal move of ``player``, or of all active players when None; ``[]`` for anyone
    not active and once the game is over."""
    if state["status"] == "finished":
        return []
    active = state["active_players"]
    chosen = active if player is None else ([player] if player in active else [])
    out: list[Move] = []
    for p in chosen:
        out.extend(_moves_of(state, p))
    return out


def _moves_of(state: State, p: PlayerId) -> list[Move]:
    geo = geometry(state)
    phase = state["phase"]
    out: list[Move] = []
    units = state["units"]
    if phase == "setup":
        spaces = placement_spaces(state, geo, p)
        for uid, u in units.items():
            if u["owner"] == p and u["at"] is None:
                out.extend({"player": p, "type": "place", "unit": uid, "to": as_json(h)} for h in spaces)
    elif phase == "deployment":
        spaces = deploy_spaces(state, geo, p)
        for uid, u in units.items():
            if u["owner"] == p and u["at"] is None:
                out.extend({"player": p, "type": "deploy", "unit": uid, "to": as_json(h)} for h in spaces)
        out.append({"player": p, "type": "end_deployment"})
    elif phase == "combat":
        occ = occupancy(state)
        for uid, u in units.items():
            if u["owner"] == p and u["at"] is not None:
                out.extend(_unit_moves(state, geo, occ, p, uid))
        out.append({"player": p, "type": "end_turn"})
    out.append({"player": p, "type": "concede"})
    return out


# -- violations --------------------------------------------------------------------------------------
def violations(state: State, move: Move) -> list[Violation]:
    """Why ``move`` is illegal in ``state``; ``[]`` when it is legal.

    Checked in order, stopping at the first failing level: the player is in the game and not
    defeated; the game is not over; the move type exists and has exactly its fields; the player
    is active; the move fits the phase; then the move's own rules.
    """
    return _check(state, move)[0]


def _check(state: State, move: Move) -> tuple[list[Violation], Any]:
    p = move.get("player")
    if p.__class__ is not str or p not in state["players"]:
        return [_v("unknown_player", f"There is no player {p!r} in this game.", rulebook.PLAYERS)], None
    if state["status"] == "finished":
        return [_v("game_finished", "The game is over; no more moves can be made.", rulebook.VICTORY)], None
    kind = move.get("type")
    if kind.__class__ is not str or kind not in _FIELDS:
        return [_v("unknown_move_type", f"Reign Supreme has no move type {kind!r}.", rulebook.MOVES)], None
    allowed = ("player", "type", *_FIELDS[kind])
    found = [_v("unexpected_field", f"A {kind} move takes no {key!r}.", rulebook.MOVES) for key in move
             if key not in allowed]
    found += [_v("missing_field", f"A {kind} move needs {key!r}.", rulebook.MOVES) for key in _FIELDS[kind]
              if key not in move]
    if found:
        return found, None
    if p in state["defeated"]:
        return [_v("defeated", "You are out of the game.", rulebook.VICTORY)], None
    if p not in state["active_players"]:
        return [_v("not_your_turn", f"It is {state['turn']}'s turn.", rulebook.TURN)], None
    if kind == "concede":
        return [], None
    phase = state["phase"]
    needed = _PHASE_OF[kind]
    if phase != needed:
        return [_v("wrong_phase", f"A {kind} move belongs to {_PHASE_WORDS[needed]}; it is now "
                   f"{_PHASE_WORDS.get(phase, phase)}.", _PHASE_RULE[needed])], None
    if kind in ("end_deployment", "end_turn"):
        return [], None
    return _CHECKS[kind](state, move, p)


def _hex_of(value: Any) -> Hex | None:
    if value.__class__ is list and len(value) == 2 and all(type(x) is int for x in value):
        return (value[0], value[1])
    return None


def _own_unit(state: State, uid: Any, p: PlayerId, rule: str) -> tuple[dict[str, Any] | None, list[Violation]]:
    unit = state["units"].get(uid) if uid.__class__ is str else None
    if unit is None:
        return None, [_v("unknown_unit", f"There is no unit {uid!r} in play.", rule)]
    if unit["owner"] != p:
        return None, [_v("not_your_unit", f"Unit {uid} belongs to {unit['owner']}.", rule)]
    return unit, []


def _check_place(state: State, move: Move, p: PlayerId) -> tuple[list[Violation], Any]:
    kind = move["type"]
    rule = rulebook.SETUP if kind == "place" else rulebook.DEPLOYMENT
    unit, found = _own_unit(state, move["unit"], p, rule)
    if found:
        return found, None
    if unit["at"] is not None:
        return [_v("already_on_board", f"Unit {move['unit']} is already on the board.", rule)], None
    h = _hex_of(move["to"])
    if h is None:
        return [_v("bad_space", "'to' must be a space [q, r].", rule)], None
    geo = geometry(state)
    if kind == "place":
        if to_place(state, p) <= 0:
            return [_v("setup_done", "You have set up all the units you may.", rule)], None
        if h not in geo.kingdoms[p]:
            return [_v("outside_kingdom", "Units are set up in your own Kingdom.", rule)], None
        if h in occupancy(state):
            return [_v("space_taken", "Another unit stands on that space.", rulebook.BOARD)], None
        return [], h
    if h not in deploy_spaces(state, geo, p):
        if h in occupancy(state):
            return [_v("space_taken", "Another unit stands on that space.", rulebook.BOARD)], None
        return [_v("not_a_deployment_space", "Units deploy to an empty space of your Castle (or of a Castle you "
                   "captured), and not while an enemy unit is in that Kingdom.", rule)], None
    return [], h


def _check_move(state: State, move: Move, p: PlayerId) -> tuple[list[Violation], Any]:
    rule = rulebook.MOVEMENT
    unit, found = _own_unit(state, move["unit"], p, rule)
    if found:
        return found, None
    if unit["at"] is None:
        return [_v("not_on_board", f"Unit {move['unit']} is not on the board.", rule)], None
    if unit["done"] and not unit["moved"] and not unit["attacked"] and unit.get("packing") in (None, "packed"):
        return [_v("freshly_deployed", "A unit cannot act in the turn it is deployed.", rulebook.DEPLOYMENT)], None
    if unit["moved"]:
        return [_v("already_moved", "This unit has already moved this turn.", rule)], None
    if unit["attacked"]:
        return [_v("attacked_already", "A unit moves before it attacks, not after.", rulebook.COMBAT)], None
    if not _can_move(state, unit):
        if unit.get("packing") is not None:
            return [_v("not_packed", "A Packed unit moves only while packed.", rulebook.PACKED)], None
        return [_v("unit_done", "This unit has already acted this turn.", rulebook.COMBAT)], None
    h = _hex_of(move["to"])
    if h is None:
        return [_v("bad_space", "'to' must be a space [q, r].", rule)], None
    geo = geometry(state)
    if h not in geo.board:
        return [_v("off_board", "That space is not on the board.", rulebook.BOARD)], None
    occ = occupancy(state)
    if h in occ:
        return [_v("space_taken", "Another unit stands on that space.", rulebook.BOARD)], None
    speed = stats(state, unit)["movement"]
    dests, tree = reachable(state, geo, occ, move["unit"], speed)
    if h not in dests:
        if h in reachable(state, geo, occ, move["unit"], speed, move_freely=True)[0]:
            return [_v("melee_lock", "A unit in melee cannot move to another space and still be in melee: "
                       "it stops when it comes next to an enemy, or steps away from every enemy.",
                       rulebook.MELEE)], None
        return [_v("out_of_reach", f"That space is beyond this unit's movement of {speed} "
                   "(enemy units block the way).", rule)], None
    return [], path_to(tree, h)


def _check_attack(state: State, move: Move, p: PlayerId) -> tuple[list[Violation], Any]:
    rule = rulebook.ATTACKS
    unit, found = _own_unit(state, move["unit"], p, rule)
    if found:
        return found, None
    target = state["units"].get(move["target"]) if move["target"].__class__ is str else None
    if target is None or target["at"] is None:
        return [_v("unknown_target", f"There is no unit {move['target']!r} on the board.", rule)], None
    if target["owner"] == p:
        return [_v("own_unit", "You cannot attack your own units.", rule)], None
    mode = move["mode"]
    if mode not in ("melee", "shoot"):
        return [_v("bad_mode", "mode must be 'melee' or 'shoot'.", rule)], None
    if not can_attack(state, unit):
        if unit["at"] is None:
            return [_v("not_on_board", f"Unit {move['unit']} is not on the board.", rule)], None
        if unit["attacked"]:
            return [_v("attacked_already", "A unit attacks at most once per turn.", rule)], None
        if unit["moved"] and unit.get("packing") is None:
            return [_v("switched_units", "A unit moves and then attacks before you switch to another unit; this "
                       "unit's turn ended when another of your units acted.", rulebook.COMBAT)], None
        if unit["done"]:
            return [_v("unit_done", "This unit cannot attack this turn.", rulebook.COMBAT)], None
        return [_v("not_unpacked", "A Packed unit attacks only once unpacked.", rulebook.PACKED)], None
    occ = occupancy(state)
    if mode in attack_modes(state, occ, unit, move["target"]):
        return [], None
    return [_attack_refusal(state, occ, unit, target, mode)], None


def _attack_refusal(state: State, occ: dict[Hex, str], unit: dict[str, Any], target: dict[str, Any],
                    mode: str) -> Violation:
    from rules.reign_supreme.board import in_melee
    from rules.reign_supreme.hexes import distance

    s = stats(state, unit)
    d = distance((unit["at"][0], unit["at"][1]), (target["at"][0], target["at"][1]))
    if mode == "melee":
        if "siege" in s["kinds"]:
            return _v("siege_no_melee", "Siege units have no melee attack.", rulebook.ATTACKS)
        return _v("not_adjacent", "A melee attack needs the target next to the attacker.", rulebook.ATTACKS)
    if "shooting" not in s["kinds"]:
        return _v("cannot_shoot", "Only Shooting units shoot.", rulebook.SHOOTING)
    if d <= 1:
        return _v("adjacent_target", "Shooting units may not shoot at adjacent units.", rulebook.SHOOTING)
    if d > s["range"]:
        return _v("out_of_range", f"The target is {d} spaces away; this unit's range is {s['range']}.",
                  rulebook.SHOOTING)
    if unit["moved"]:
        return _v("moved_this_turn", "A Shooting unit cannot shoot after moving this turn.", rulebook.SHOOTING)
    if in_melee(state, occ, (unit["at"][0], unit["at"][1]), unit["owner"]):
        return _v("shooter_in_melee", "A Shooting unit in melee cannot shoot (unless it is Siege).",
                  rulebook.SHOOTING)
    return _v("cannot_attack", "This attack is not possible.", rulebook.ATTACKS)


def _check_packing(state: State, move: Move, p: PlayerId) -> tuple[list[Violation], Any]:
    rule = rulebook.PACKED
    unit, found = _own_unit(state, move["unit"], p, rule)
    if found:
        return found, None
    if unit.get("packing") is None:
        return [_v("not_packed_unit", "Only Packed units pack and unpack.", rule)], None
    if _packing_move(unit) != move["type"]:
        code = "cannot_pack" if move["type"] == "pack" else "cannot_unpack"
        return [_v(code, f"This unit cannot {move['type']} now (it is "
                   f"{unit['packing']}{', and has acted' if unit['done'] else ''}).", rule)], None
    return [], None


_CHECKS = {"place": _check_place, "deploy": _check_place, "move": _check_move, "attack": _check_attack,
           "pack": _check_packing, "unpack": _check_packing}


# -- apply ---------------------------------------------------------------------------------------------
def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The state after ``move`` and the events, in order. Never mutates ``state``.

    Raises IllegalMove with the violations when the move is illegal.
    """
    found, where = _check(state, move)
    if found:
        raise IllegalMove(found)
    new = clone(state)
    new["move_count"] = min(MAX_MOVE_COUNT, state["move_count"] + 1)
    rng = Rng.parse(new["rng"])
    geo = geometry(new)
    p = move["player"]
    kind = move["type"]
    events: list[Event] = []
    if kind == "concede":
        events.extend(_concede(new, geo, rng, p))
    elif kind == "place":
        unit = new["units"][move["unit"]]
        unit["at"] = as_json(where)
        events.append({"type": "unit_placed", "player": p, "unit": move["unit"], "at": unit["at"]})
        if to_place(new, p) == 0:
            events.extend(after_placement(new, geo, rng))
    elif kind == "deploy":
        unit = new["units"][move["unit"]]
        unit["at"] = as_json(where)
        unit["done"] = True
        new["boards"][p]["deploys"] -= 1
        events.append({"type": "unit_deployed", "player": p, "unit": move["unit"], "at": unit["at"],
                       "deploys_left": new["boards"][p]["deploys"]})
        if not _still_deploying(new, geo, p):
            events.extend(_to_combat(new, p))
    elif kind == "end_deployment":
        events.extend(_to_combat(new, p))
    elif kind == "move":
        _switch_to(new, p, move["unit"])
        events.extend(_move(new, geo, p, move["unit"], where))
    elif kind == "attack":
        _switch_to(new, p, move["unit"])
        events.extend(resolve_attack(new, geo, p, move["unit"], move["target"], move["mode"]))
        events.extend(check_end(new, geo))
    elif kind in ("pack", "unpack"):
        _switch_to(new, p, move["unit"])
        events.extend(_packing(new, p, move["unit"], kind))
    elif kind == "end_turn":
        events.extend(end_turn(new, geo, rng))
    new["rng"] = str(rng)
    return new, events


def _switch_to(state: State, p: PlayerId, uid: str) -> None:
    """Seed, Combat Phase: "Players must move and then attack before switching units". When
    ``uid`` acts, every other unit of ``p`` that has already acted this turn is done."""
    for other_id, other in state["units"].items():
        if other_id != uid and other["owner"] == p and (other["moved"] or other["attacked"]):
            other["done"] = True


def _still_deploying(state: State, geo: Geometry, p: PlayerId) -> bool:
    from rules.reign_supreme.turns import can_deploy

    return can_deploy(state, geo, p)


def _to_combat(state: State, p: PlayerId) -> list[Event]:
    state["phase"] = "combat"
    return [{"type": "phase_started", "player": p, "phase": "combat"}]


def _concede(state: State, geo: Geometry, rng: Rng, p: PlayerId) -> list[Event]:
    """Ruling RS 8: conceding takes the player out; their units leave the board."""
    was_turn = state["turn"] == p
    events = defeat(state, p, "concede")
    if state["phase"] == "setup":
        events.extend(check_end(state, geo))
        if state["status"] != "finished" and was_turn:
            events.extend(after_placement(state, geo, rng))
        return events
    events.extend(check_end(state, geo))
    if state["status"] != "finished" and was_turn:
        events.extend(end_turn(state, geo, rng))
    return events


def _move(state: State, geo: Geometry, p: PlayerId, uid: str, path: list[Hex]) -> list[Event]:
    """Move along ``path``; take a Mine or Ruin ended on; take a Throne ended on."""
    unit = state["units"][uid]
    dest = path[-1]
    unit["at"] = as_json(dest)
    unit["moved"] = True
    events: list[Event] = [{"type": "unit_moved", "player": p, "unit": uid, "from": as_json(path[0]),
                            "to": as_json(dest), "path": [as_json(h) for h in path]}]
    for key, spots in (("mines", geo.mines), ("ruins", geo.ruins)):
        for i, spot in enumerate(spots):
            if spot == dest and state["control"][key][i] != p:
                before = state["control"][key][i]
                state["control"][key][i] = p
                events.append({"type": "mine_taken" if key == "mines" else "ruin_taken", "player": p,
                               "at": as_json(dest), "from": before})
    if state["scenario"]["victory"] == "throne":
        loser = geo.thrones.get(dest)
        if loser is not None and loser != p and loser not in state["defeated"]:
            events.append({"type": "throne_captured", "player": p, "loser": loser, "at": as_json(dest)})
            events.extend(defeat(state, loser, "throne_captured", by=p))
    events.extend(check_end(state, geo))
    return events


def _packing(state: State, p: PlayerId, uid: str, kind: str) -> list[Event]:
    """Seed, Packed: the Packing pin goes from the unit onto the Action Board (5 notches); the
    unit can neither move nor attack until it completes. A unit already packing reverses."""
    unit = state["units"][uid]
    board = state["boards"][p]
    to = "unpacked" if kind == "unpack" else "packed"
    pin = next((x for x in board["packing"] if x["unit"] == uid), None)
    if pin is None:
        board["packing"].append({"unit": uid, "to": to, "notch": 0})
        notch = 0
    else:
        pin["to"] = to
        pin["notch"] = PACKING_NOTCHES - pin["notch"]
        notch = pin["notch"]
    unit["packing"] = "unpacking" if to == "unpacked" else "packing"
    unit["done"] = True
    return [{"type": "packing_started", "player": p, "unit": uid, "to": to, "notch": notch}]
