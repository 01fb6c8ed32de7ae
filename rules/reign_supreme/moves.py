"""Legal moves, violations and ``apply``: the dispatch over set-up, deployment and combat.

Moves (every move also has ``player`` and ``type``):

- ``place`` ``{unit, to}``: set-up, a waiting unit onto an empty space of your Kingdom;
- ``deploy`` ``{unit, to}``: Deployment phase, a waiting unit onto an empty Castle space;
- ``end_deployment``: stop deploying, go to the Combat phase;
- ``move`` ``{unit, to}``: Combat phase, a unit moves up to its movement;
- ``attack`` ``{unit, target, mode}``: Combat phase, ``mode`` ``"melee"`` or ``"shoot"``;
- ``pack`` / ``unpack`` ``{unit}``: a Packed unit starts packing or unpacking (or reverses);
- ``cast`` ``{unit, spell, target, cure?}``: a field spell (or, answering, Teleport or
  Counterspell);
- ``construct`` ``{unit, action, target}``: a Construction unit's action;
- ``play`` ``{card, target}``: play a card from your hand;
- ``counterattack`` ``{unit}`` and ``pass``: answers to a pending declaration;
- ``end_turn``: end your Combat phase and your turn;
- ``concede``: leave the game (ruling RS 8).

Nothing here raises anything but :class:`~rules.errors.IllegalMove`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.engine_types import Event, Move, PlayerId, State, Violation
from rules.errors import IllegalMove
from rules.reign_supreme import cards, responses, rulebook
from rules.reign_supreme.actors import off_turn_moves, refresh_actors
from rules.reign_supreme.auras import engaged, prune_engaged, range_bonus, stealthy
from rules.reign_supreme.board import Geometry, geometry, in_melee, occupancy, stats
from rules.reign_supreme.combat import (
    ATTACK_MODES,
    attack_options,
    can_attack,
    declare_attack,
    magic_silenced,
    marched,
    max_attacks,
)
from rules.reign_supreme.construction import apply_construct, check_construct, construct_moves
from rules.reign_supreme.hexes import Hex, as_json, distance, hex_of
from rules.reign_supreme.holdings import claim
from rules.reign_supreme.movement import path_to, reachable
from rules.reign_supreme.spells import cast_moves, check_cast, declare_cast
from rules.reign_supreme.state import MAX_MOVE_COUNT, PACKING_NOTCHES, successor
from rules.reign_supreme.survey import Survey
from rules.reign_supreme.turns import (
    after_placement,
    can_deploy,
    check_end,
    defeat,
    deploy_spaces,
    end_turn,
    placement_spaces,
    to_place,
)
from rules.reign_supreme.walls import wall_by_id, wall_distance
from rules.rng import Rng

__all__ = ["legal_moves", "violations", "apply", "resolve", "MOVE_TYPES"]

MOVE_TYPES = (
    "place",
    "deploy",
    "end_deployment",
    "move",
    "attack",
    "pack",
    "unpack",
    "cast",
    "construct",
    "play",
    "counterattack",
    "pass",
    "end_turn",
    "concede",
)
_FIELDS = {
    "place": ("unit", "to"),
    "deploy": ("unit", "to"),
    "end_deployment": (),
    "move": ("unit", "to"),
    "attack": ("unit", "target", "mode"),
    "pack": ("unit",),
    "unpack": ("unit",),
    "cast": ("unit", "spell", "target"),
    "construct": ("unit", "action", "target"),
    "play": ("card", "target"),
    "counterattack": ("unit",),
    "pass": (),
    "end_turn": (),
    "concede": (),
}
_OPTIONAL = {"attack": ("knockback", "volley", "on_the_move"), "cast": ("cure",)}
_ANSWERS = ("counterattack", "pass", "cast")
_OFF_TURN = ("cast", "play")
"""Moves a player may make in another player's Combat phase (ruling RS 10; ``concede`` aside)."""
_PHASE_OF = {
    "place": "setup",
    "deploy": "deployment",
    "end_deployment": "deployment",
    "move": "combat",
    "attack": "combat",
    "pack": "combat",
    "unpack": "combat",
    "cast": "combat",
    "construct": "combat",
    "play": "combat",
    "counterattack": "combat",
    "pass": "combat",
    "end_turn": "combat",
}
_PHASE_RULE = {
    "setup": rulebook.SETUP,
    "deployment": rulebook.DEPLOYMENT,
    "combat": rulebook.COMBAT,
}
_PHASE_WORDS = {
    "setup": "set-up",
    "deployment": "the Deployment phase",
    "combat": "the Combat phase",
}


def _v(code: str, message: str, rule: str) -> Violation:
    return Violation(code, message, rule)


# -- what a unit may do ----------------------------------------------------------------------------
def speed_left(state: State, survey: Survey, uid: str) -> int:
    """Spaces ``uid`` may still move this turn: its movement, plus Construction and card bonuses,
    minus the spaces already moved. ``survey``: a Survey of ``state``."""
    unit = state["units"][uid]
    return (
        survey.stats[uid]["movement"] + unit["bonus"] + survey.movement_bonus(uid) - unit["steps"]
    )


def _moves_freely(survey: Survey, uid: str) -> bool:
    """Move Freely: Flanking and Stealth units ignore the movement restrictions of melee (seed,
    Flanking and Stealth), read off the Survey."""
    return "flanking" in survey.stats[uid]["abilities"] or survey.is_stealthy(uid)


def _can_move(state: State, survey: Survey, uid: str) -> bool:
    """Movement comes first: a unit on the board whose activation is not over, not Ensnared,
    (Packed units) packed, that has not moved or attacked yet, or (Flanking) attacked while
    moving, with movement left (:func:`_move_speed`)."""
    return _move_speed(state, survey, uid) > 0


def _move_speed(state: State, survey: Survey, uid: str) -> int:
    """The spaces ``uid`` may move now (:func:`_can_move`): its :func:`speed_left` if it may
    move yet, else 0."""
    unit = state["units"][uid]
    if unit["at"] is None or unit["done"] or unit["ensnared"]:
        return 0
    if unit.get("packing", "packed") != "packed":
        return 0
    if unit["attacked"]:
        if not unit["on_the_move"]:
            return 0
    elif unit["moved"]:
        return 0
    speed = speed_left(state, survey, uid)
    return speed if speed > 0 else 0


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


def _unit_moves(state: State, survey: Survey, player: PlayerId, uid: str) -> list[Move]:
    """Every move of ``player``'s unit ``uid`` on the board in their own Combat phase: moves,
    attacks, packing, casts and construction, in that order. The unit's activation is not over
    (``done``: then it has none, and :func:`_moves_of` does not ask)."""
    unit = state["units"][uid]
    out: list[Move] = []
    s = survey.stats[uid]
    speed = _move_speed(state, survey, uid)
    if speed > 0:
        # moves_freely: Flanking or Stealth
        free = _moves_freely(survey, uid)
        dests, _ = reachable(state, survey, uid, speed, free)  # sorted
        _add_moves(out, {"player": player, "type": "move", "unit": uid, "to": None}, dests)
    if can_attack(state, unit, s):
        out += [
            {"player": player, "type": "attack", "unit": uid, **option}
            for option in attack_options(state, survey, uid)
        ]
    kind = _packing_move(unit) if "packing" in unit else None  # only Packed units have one
    if kind is not None:
        out.append({"player": player, "type": kind, "unit": uid})
    # Casts and construction, asked only of the units with a spell or Construction (each lists
    # nothing else, and most units have neither).
    if s["spells"]:
        out += cast_moves(state, survey, player, uid)
    if "construction" in s["abilities"]:
        out += construct_moves(state, survey.geo, player, uid)
    return out


def _add_moves(out: list[Move], move: Move, spaces: Iterable[Hex]) -> None:
    """Add to ``out`` a copy of ``move`` for each of ``spaces``, with ``"to"`` that space (``[q,
    r]``). Copies of one dict, ``"to"`` set on each, take a quarter fewer instructions than a
    dict display each: a listing makes dozens of such moves (every space a unit may move to)."""
    for q, r in spaces:
        m = move.copy()
        m["to"] = [q, r]
        out.append(m)


_listed: Survey | None = None
"""The Survey of the last listing. :func:`resolve` applies a move listed for that very state (a
playout, a bot trying each of its moves), so it finds there the board it would survey again; a
Survey holds its state, so ``is`` cannot mistake another state for it."""


def legal_moves(state: State, player: PlayerId | None = None) -> list[Move]:
    """Every legal move of ``player``, or of all active players when None; ``[]`` for anyone
    not active and once the game is over."""
    if state["status"] == "finished":
        return []
    active = state["active_players"]
    chosen = active if player is None else ([player] if player in active else [])
    geo = geometry(state)
    survey = Survey(state, geo)  # one survey for every player listed: it reads the state only
    global _listed
    _listed = survey
    out: list[Move] = []
    for p in chosen:
        out.extend(_moves_of(state, survey, p))
    return out


def _moves_of(state: State, survey: Survey, p: PlayerId) -> list[Move]:
    geo = survey.geo
    phase = state["phase"]
    out: list[Move] = []
    units = state["units"]
    if state["pending"] is not None:
        out.extend(responses.answers(state, geo, state["pending"]["stack"][-1], p))
        out.append({"player": p, "type": "pass"})
    elif phase == "setup":
        spaces = placement_spaces(state, geo, p)
        for uid, u in units.items():
            if u["owner"] == p and u["at"] is None:
                _add_moves(out, {"player": p, "type": "place", "unit": uid, "to": None}, spaces)
    elif phase == "deployment":
        spaces = deploy_spaces(state, geo, p)
        for uid, u in units.items():
            if u["owner"] == p and u["at"] is None:
                _add_moves(out, {"player": p, "type": "deploy", "unit": uid, "to": None}, spaces)
        out.append({"player": p, "type": "end_deployment"})
    elif phase == "combat" and p != state["turn"]:
        out.extend(off_turn_moves(state, survey, p))
    elif phase == "combat":
        for uid in survey.on_board_of(p):
            # a unit whose activation is over has no move: a third of the units, once their
            # player has moved on to other units
            if not units[uid]["done"]:
                out += _unit_moves(state, survey, p, uid)
        out.extend(cards.card_moves(state, p, survey))
        out.append({"player": p, "type": "end_turn"})
    out.append({"player": p, "type": "concede"})
    return out


# -- violations ------------------------------------------------------------------------------------
def violations(state: State, move: Move) -> list[Violation]:
    """Why ``move`` is illegal in ``state``; ``[]`` when it is legal.

    Checked in order, stopping at the first failing level: the player is in the game and not
    defeated; the game is not over; the move type exists and has exactly its fields; the player
    is active; the move fits the phase; then the move's own rules.
    """
    return _check(state, move, Survey(state, geometry(state)))[0]


def _check(state: State, move: Move, survey: Survey) -> tuple[list[Violation], Any]:
    """:func:`violations` of ``move``, and what the checks found that :func:`_resolve` needs
    (:func:`_where`). ``survey``: a Survey of ``state``, which :func:`apply` then resolves with
    (a check reads the state only), so that what a check surveyed is not worked out again."""
    p = move.get("player")
    if p.__class__ is not str or p not in state["players"]:
        return [
            _v("unknown_player", f"There is no player {p!r} in this game.", rulebook.PLAYERS)
        ], None
    if state["status"] == "finished":
        return [
            _v("game_finished", "The game is over; no more moves can be made.", rulebook.VICTORY)
        ], None
    kind = move.get("type")
    if kind.__class__ is not str or kind not in _FIELDS:
        return [
            _v("unknown_move_type", f"Reign Supreme has no move type {kind!r}.", rulebook.MOVES)
        ], None
    allowed = ("player", "type", *_FIELDS[kind], *_OPTIONAL.get(kind, ()))
    found = [
        _v("unexpected_field", f"A {kind} move takes no {key!r}.", rulebook.MOVES)
        for key in move
        if key not in allowed
    ]
    found += [
        _v("missing_field", f"A {kind} move needs {key!r}.", rulebook.MOVES)
        for key in _FIELDS[kind]
        if key not in move
    ]
    found += [
        _v("bad_flag", f"{key!r} must be true or false.", rulebook.MOVES)
        for key in _OPTIONAL.get(kind, ())
        if key in move and move[key].__class__ is not bool
    ]
    if found:
        return found, None
    if p in state["defeated"]:
        return [_v("defeated", "You are out of the game.", rulebook.VICTORY)], None
    if p not in state["active_players"]:
        return [_v("not_your_turn", f"It is {state['turn']}'s turn.", rulebook.TURN)], None
    if kind == "concede":
        return [], None
    if state["pending"] is not None:
        return _check_answer(state, move, p, survey)
    if kind in ("counterattack", "pass"):
        return [
            _v("nothing_to_answer", "Nothing is waiting for an answer.", rulebook.RESPONSES)
        ], None
    phase = state["phase"]
    if p != state["turn"] and kind not in _OFF_TURN:
        return [
            _v(
                "not_your_turn",
                f"It is {state['turn']}'s turn: outside your own turn you may only cast Teleport "
                "or Healing, play a card or concede.",
                rulebook.OUTSIDE_YOUR_TURN,
            )
        ], None
    needed = _PHASE_OF[kind]
    if phase != needed:
        return [
            _v(
                "wrong_phase",
                f"A {kind} move belongs to {_PHASE_WORDS[needed]}; it is now "
                f"{_PHASE_WORDS.get(phase, phase)}.",
                _PHASE_RULE[needed],
            )
        ], None
    if kind in ("end_deployment", "end_turn"):
        return [], None
    return _CHECKS[kind](state, move, p, survey)


def _own_unit(
    state: State, uid: Any, p: PlayerId, rule: str
) -> tuple[dict[str, Any] | None, list[Violation]]:
    unit = state["units"].get(uid) if uid.__class__ is str else None
    if unit is None:
        return None, [_v("unknown_unit", f"There is no unit {uid!r} in play.", rule)]
    if unit["owner"] != p:
        return None, [_v("not_your_unit", f"Unit {uid} belongs to {unit['owner']}.", rule)]
    return unit, []


def _check_place(
    state: State, move: Move, p: PlayerId, survey: Survey
) -> tuple[list[Violation], Any]:
    kind = move["type"]
    rule = rulebook.SETUP if kind == "place" else rulebook.DEPLOYMENT
    unit, found = _own_unit(state, move["unit"], p, rule)
    if unit is None:  # then found says why
        return found, None
    if unit["at"] is not None:
        return [_v("already_on_board", f"Unit {move['unit']} is already on the board.", rule)], None
    h = hex_of(move["to"])
    if h is None:
        return [_v("bad_space", "'to' must be a space [q, r].", rule)], None
    geo = survey.geo
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
        return [
            _v(
                "not_a_deployment_space",
                "Units deploy to an empty space of your Castle (or of a Castle you "
                "captured), and not while an enemy unit is in that Kingdom.",
                rule,
            )
        ], None
    return [], h


def _check_move(
    state: State, move: Move, p: PlayerId, survey: Survey
) -> tuple[list[Violation], Any]:
    rule = rulebook.MOVEMENT
    unit, found = _own_unit(state, move["unit"], p, rule)
    if unit is None:  # then found says why
        return found, None
    uid = move["unit"]
    if unit["at"] is None:
        return [_v("not_on_board", f"Unit {uid} is not on the board.", rule)], None
    if unit["done"] and not unit["acted"]:
        return [
            _v(
                "freshly_deployed",
                "A unit cannot act in the turn it is deployed (or handed over).",
                rulebook.DEPLOYMENT,
            )
        ], None
    if unit["ensnared"]:
        return [_v("ensnared", "An Ensnared unit cannot move this turn.", rulebook.ABILITIES)], None
    if unit["attacked"] and not unit["on_the_move"]:
        return [
            _v(
                "attacked_already",
                "A unit moves before it attacks, not after (unless it has Flanking and "
                "attacked while moving).",
                rulebook.COMBAT,
            )
        ], None
    if unit["moved"] and not unit["attacked"]:
        return [_v("already_moved", "This unit has already moved this turn.", rule)], None
    geo = survey.geo
    if not _can_move(state, survey, uid):
        if unit.get("packing") not in (None, "packed"):
            return [
                _v("not_packed", "A Packed unit moves only while packed.", rulebook.PACKED)
            ], None
        if not unit["done"] and speed_left(state, survey, uid) <= 0:
            return [_v("out_of_reach", "This unit has no movement left this turn.", rule)], None
        return [_v("unit_done", "This unit has already acted this turn.", rulebook.COMBAT)], None
    h = hex_of(move["to"])
    if h is None:
        return [_v("bad_space", "'to' must be a space [q, r].", rule)], None
    if h not in geo.board:
        return [_v("off_board", "That space is not on the board.", rulebook.BOARD)], None
    if h in survey.occ:
        return [_v("space_taken", "Another unit stands on that space.", rulebook.BOARD)], None
    speed = speed_left(state, survey, uid)
    free = _moves_freely(survey, uid)
    dests, tree = reachable(state, survey, uid, speed, free)
    if h not in dests:
        if not free and h in reachable(state, survey, uid, speed, move_freely=True)[0]:
            return [
                _v(
                    "melee_lock",
                    "A unit in melee cannot move to another space and still be in melee: "
                    "it stops when it comes next to an enemy, or steps away from every enemy.",
                    rulebook.MELEE,
                )
            ], None
        return [
            _v(
                "out_of_reach",
                f"That space is beyond this unit's {speed} spaces of movement left "
                "(enemy units and other players' walls block the way).",
                rule,
            )
        ], None
    return [], path_to(tree, h)


def _check_attack(
    state: State, move: Move, p: PlayerId, survey: Survey
) -> tuple[list[Violation], Any]:
    rule = rulebook.ATTACKS
    unit, found = _own_unit(state, move["unit"], p, rule)
    if unit is None:  # then found says why
        return found, None
    tid = move["target"]
    target = state["units"].get(tid) if tid.__class__ is str else None
    wall = wall_by_id(state, tid) if target is None else None
    if (target is None or target["at"] is None) and wall is None:
        return [_v("unknown_target", f"There is no unit or wall {tid!r} on the board.", rule)], None
    victim = target if target is not None else wall
    assert victim is not None  # refused just above when neither is on the board
    if victim["owner"] == p:
        return [_v("own_unit", "You cannot attack your own units or walls.", rule)], None
    mode = move["mode"]
    if mode not in ATTACK_MODES:
        return [_v("bad_mode", "mode must be 'melee' or 'shoot'.", rule)], None
    if not can_attack(state, unit):
        if unit["at"] is None:
            return [_v("not_on_board", f"Unit {move['unit']} is not on the board.", rule)], None
        if unit["attacks"] >= max_attacks(state, unit):
            return [
                _v(
                    "attacked_already",
                    "A unit attacks once per turn (twice with Double Attack).",
                    rule,
                )
            ], None
        if unit["done"] and unit["acted"] and unit.get("packing") is None:
            return [
                _v(
                    "switched_units",
                    "A unit moves and then attacks before you switch to another unit; this "
                    "unit's turn ended when another of your units acted.",
                    rulebook.COMBAT,
                )
            ], None
        if unit["done"]:
            return [_v("unit_done", "This unit cannot attack this turn.", rulebook.COMBAT)], None
        return [
            _v("not_unpacked", "A Packed unit attacks only once unpacked.", rulebook.PACKED)
        ], None
    if unit["mode"] is not None and unit["mode"] != mode:
        return [
            _v(
                "one_attack_type",
                f"This unit already made a {unit['mode']} attack this turn: one type of "
                "attack per turn.",
                rule,
            )
        ], None
    geo = survey.geo
    occ = survey.occ
    options = [
        o
        for o in attack_options(state, survey, move["unit"])
        if o["target"] == tid and o["mode"] == mode
    ]
    if not options:
        return [_attack_refusal(state, geo, occ, unit, move["unit"], tid, target, wall, mode)], None
    wanted = {k: True for k in ("knockback", "volley", "on_the_move") if move.get(k)}
    if any({k: True for k in o if k not in ("target", "mode")} == wanted for o in options):
        return [], None
    return [_flag_refusal(options, wanted)], None


def _flag_refusal(options: list[dict[str, Any]], wanted: dict[str, bool]) -> Violation:
    possible = {k for o in options for k in o if k not in ("target", "mode")}
    for flag, code, message in (
        (
            "knockback",
            "no_knockback",
            "Knockback needs the Knockback ability, once per turn, and not against a Stealth unit.",
        ),
        ("volley", "no_volley", "Volley is declared only by a Volley unit's shot at a unit."),
        (
            "on_the_move",
            "not_flanking",
            "Only a Flanking unit attacks while moving, and not a Stealth unit.",
        ),
    ):
        if wanted.get(flag) and flag not in possible:
            return _v(code, message, rulebook.ABILITIES)
    return _v(
        "must_attack_on_the_move",
        "A Flanking unit that has moved can shoot only while moving (on_the_move: true).",
        rulebook.ABILITIES,
    )


def _attack_refusal(
    state: State,
    geo: Geometry,
    occ: dict[Hex, str],
    unit: dict[str, Any],
    uid: str,
    tid: str,
    target: dict[str, Any] | None,
    wall: dict[str, Any] | None,
    mode: str,
) -> Violation:

    s = stats(state, unit)
    here = (unit["at"][0], unit["at"][1])
    if magic_silenced(state, unit):
        return _v(
            "silenced_attack",
            "This unit's attack is magical: it cannot be made from inside an enemy "
            "Silence aura (it may be made from outside into one).",
            rulebook.AURAS,
        )
    if target is not None and stealthy(state, geo, target) and not engaged(state, uid, tid):
        return _v(
            "stealth_target",
            "A Stealth unit may be attacked only by an enemy engaged in melee with it "
            "since the start of the turn.",
            rulebook.AURAS,
        )
    if target is not None:
        d = distance(here, (target["at"][0], target["at"][1]))
    else:
        assert wall is not None  # the caller found a unit or a wall
        d = wall_distance(here, wall)
    bonus = range_bonus(state, occ, unit)
    if mode == "melee":
        if "siege" in s["kinds"]:
            return _v("siege_no_melee", "Siege units have no melee attack.", rulebook.ATTACKS)
        return _v(
            "not_adjacent",
            "A melee attack needs the target next to the attacker (2 spaces in an Enchant "
            "aura; a wall: standing on one of its spaces).",
            rulebook.ATTACKS,
        )
    if "shooting" not in s["kinds"]:
        return _v("cannot_shoot", "Only Shooting units shoot.", rulebook.SHOOTING)
    if d <= 1:
        return _v(
            "adjacent_target", "Shooting units may not shoot at adjacent units.", rulebook.SHOOTING
        )
    if d > s["range"] + bonus:
        return _v(
            "out_of_range",
            f"The target is {d} spaces away; this unit's range is {s['range'] + bonus}.",
            rulebook.SHOOTING,
        )
    if marched(unit):
        return _v(
            "moved_this_turn",
            "A Shooting unit cannot shoot after moving this turn.",
            rulebook.SHOOTING,
        )
    if in_melee(state, occ, here, unit["owner"]):
        return _v(
            "shooter_in_melee",
            "A Shooting unit in melee cannot shoot (unless it is Siege).",
            rulebook.SHOOTING,
        )
    return _v("cannot_attack", "This attack is not possible.", rulebook.ATTACKS)


def _check_packing(
    state: State, move: Move, p: PlayerId, survey: Survey
) -> tuple[list[Violation], Any]:
    rule = rulebook.PACKED
    unit, found = _own_unit(state, move["unit"], p, rule)
    if unit is None:  # then found says why
        return found, None
    if unit.get("packing") is None:
        return [_v("not_packed_unit", "Only Packed units pack and unpack.", rule)], None
    if _packing_move(unit) != move["type"]:
        code = "cannot_pack" if move["type"] == "pack" else "cannot_unpack"
        return [
            _v(
                code,
                f"This unit cannot {move['type']} now (it is "
                f"{unit['packing']}{', and has acted' if unit['done'] else ''}).",
                rule,
            )
        ], None
    return [], None


def _check_answer(
    state: State, move: Move, p: PlayerId, survey: Survey
) -> tuple[list[Violation], Any]:
    """While a declaration waits for answers, the player asked may only answer it or pass."""
    kind = move["type"]
    if kind not in _ANSWERS:
        return [
            _v(
                "answer_pending",
                "A declaration is waiting for your answer: counterattack, cast Teleport "
                "or Counterspell, or pass.",
                rulebook.RESPONSES,
            )
        ], None
    if kind == "pass":
        return [], None
    listed = responses.answers(state, survey.geo, state["pending"]["stack"][-1], p)
    if _canon(move) in [_canon(m) for m in listed]:
        return [], None
    return [
        _v(
            "bad_answer",
            "That is not an answer you can give now (the unit must be the one attacked for "
            "Counterattack and Teleport, or a ready Counterspell in range).",
            rulebook.RESPONSES,
        )
    ], None


def _canon(move: Move) -> Move:
    return {k: v for k, v in move.items() if v is not False}


def _check_cast(
    state: State, move: Move, p: PlayerId, survey: Survey
) -> tuple[list[Violation], Any]:
    unit, found = _own_unit(state, move["unit"], p, rulebook.SPELLS)
    if unit is None:  # then found says why
        return found, None
    return check_cast(state, survey.geo, move), None


def _check_construct(
    state: State, move: Move, p: PlayerId, survey: Survey
) -> tuple[list[Violation], Any]:
    unit, found = _own_unit(state, move["unit"], p, rulebook.CONSTRUCTION)
    if unit is None:  # then found says why
        return found, None
    return check_construct(state, survey.geo, move), None


def _check_play(
    state: State, move: Move, p: PlayerId, survey: Survey
) -> tuple[list[Violation], Any]:
    return cards.check_play(state, move), None


_CHECKS = {
    "place": _check_place,
    "deploy": _check_place,
    "move": _check_move,
    "attack": _check_attack,
    "pack": _check_packing,
    "unpack": _check_packing,
    "cast": _check_cast,
    "construct": _check_construct,
    "play": _check_play,
}


# -- apply -----------------------------------------------------------------------------------------
def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The state after ``move`` and the events, in order. Never mutates ``state``.

    Raises IllegalMove with the violations when the move is illegal.
    """
    survey = Survey(state, geometry(state))
    found, where = _check(state, move, survey)
    if found:
        raise IllegalMove(found)
    return _resolve(state, move, where, survey)


def resolve(state: State, move: Move) -> tuple[State, list[Event]]:
    """:func:`apply` of a move that :func:`legal_moves` listed for this very ``state``
    (``Game.apply_action``), without checking it again (issue 28: the checks cost a random
    playout more than half of ``apply``). Only what the checks would have found is worked out:
    the space of a ``place`` or ``deploy``, the path of a ``move``."""
    survey = _listed  # read once: another thread may list meanwhile
    if survey is None or survey.state is not state:
        survey = Survey(state, geometry(state))
    return _resolve(state, move, _where(state, survey, move), survey)


def _where(state: State, survey: Survey, move: Move) -> Any:
    """What :func:`_check` finds for a legal ``move`` and ``_resolve`` needs: the space set up or
    deployed to, the path moved along (the search of :func:`_check_move`), else None."""
    kind = move["type"]
    if kind == "place" or kind == "deploy":
        return (move["to"][0], move["to"][1])
    if kind == "move":
        uid = move["unit"]
        free = _moves_freely(survey, uid)
        _, tree = reachable(state, survey, uid, speed_left(state, survey, uid), free)
        return path_to(tree, (move["to"][0], move["to"][1]))
    return None


def _resolve(state: State, move: Move, where: Any, survey: Survey) -> tuple[State, list[Event]]:
    """The state after the legal ``move`` and the events; ``where`` is what its checks found,
    ``survey`` a Survey of ``state`` (which stays as it is: the moves change its copy)."""
    new = successor(state)
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
        events.append(
            {
                "type": "unit_deployed",
                "player": p,
                "unit": move["unit"],
                "at": unit["at"],
                "deploys_left": new["boards"][p]["deploys"],
            }
        )
        if not _still_deploying(new, geo, p):
            events.extend(_to_combat(new, p))
    elif kind == "end_deployment":
        events.extend(_to_combat(new, p))
    elif kind == "move":
        _switch_to(new, p, move["unit"])
        events.extend(_move(new, geo, p, move["unit"], where, survey))
    elif kind == "attack":
        _switch_to(new, p, move["unit"])
        entry = declare_attack(new, p, move)
        events.append(
            {"type": "attack_declared", **{k: v for k, v in entry["move"].items() if k != "type"}}
        )
        events.extend(responses.start(new, geo, entry))
        events.extend(_settle(new, geo, rng))
    elif kind in ("pack", "unpack"):
        _switch_to(new, p, move["unit"])
        events.extend(_packing(new, p, move["unit"], kind))
    elif kind == "construct":
        _switch_to(new, p, move["unit"])
        events.extend(apply_construct(new, geo, move))
    elif kind == "cast" and new["pending"] is None:
        own_turn = p == new["turn"]
        if own_turn:
            _switch_to(new, p, move["unit"])
        entry, declared = declare_cast(new, move, activation=own_turn)
        events.extend(declared)
        events.extend(responses.start(new, geo, entry))
        events.extend(_settle(new, geo, rng))
    elif kind == "play":
        entry, declared = cards.declare(new, geo, move)
        events.extend(declared)
        events.extend(responses.start(new, geo, entry))
        events.extend(_settle(new, geo, rng))
    elif kind in _ANSWERS:
        events.extend(responses.answer(new, geo, move))
        events.extend(_settle(new, geo, rng))
    elif kind == "end_turn":
        events.extend(end_turn(new, geo, rng))
    refresh_actors(new, geo)
    new["rng"] = str(rng)
    return new, events


def _switch_to(state: State, p: PlayerId, uid: str) -> None:
    """Seed, Combat Phase: "Players must move and then attack before switching units". When
    ``uid`` acts, every other unit of ``p`` that has already acted this turn is done."""
    for other_id, other in state["units"].items():
        if other_id != uid and other["owner"] == p and other["acted"]:
            other["done"] = True


def _settle(state: State, geo: Geometry, rng: Rng) -> list[Event]:
    """After anything that may destroy units: players left without units are out, the game may
    end, and a turn player who is out hands the turn on once nothing waits for an answer."""
    events = check_end(state, geo)
    if state["status"] == "finished" or state["pending"] is not None:
        return events
    if state["turn"] in state["defeated"]:
        events.extend(end_turn(state, geo, rng))
    return events


def _still_deploying(state: State, geo: Geometry, p: PlayerId) -> bool:
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
    if state["status"] != "finished" and state["pending"] is not None:
        events.extend(responses.advance(state, geo))
        events.extend(_settle(state, geo, rng))
    elif state["status"] != "finished" and was_turn:
        events.extend(end_turn(state, geo, rng))
    return events


def _move(
    state: State, geo: Geometry, p: PlayerId, uid: str, path: list[Hex], before: Survey
) -> list[Event]:
    """Move along ``path``; take every Mine and Ruin on the way (ruling RS 15); take a Throne
    ended on. ``before``: a Survey of ``state`` as it was before the move (the one the move was
    listed or checked with)."""
    unit = state["units"][uid]
    dest = path[-1]
    if not unit["moved"]:
        unit["charge"] = not before.in_melee(p, path[0])  # board.in_melee
    unit["at"] = as_json(dest)
    unit["moved"] = True
    unit["acted"] = True
    unit["steps"] += len(path) - 1
    prune_engaged(
        state, uid, path
    )  # leaving the melee on the way ends an engagement (seed, Stealth)
    events: list[Event] = [
        {
            "type": "unit_moved",
            "player": p,
            "unit": uid,
            "from": as_json(path[0]),
            "to": as_json(dest),
            "path": [as_json(h) for h in path],
        }
    ]
    events.extend(claim(state, geo, uid, path[1:]))
    if state["scenario"]["victory"] == "throne":
        loser = geo.thrones.get(dest)
        if loser is not None and loser != p and loser not in state["defeated"]:
            events.append(
                {"type": "throne_captured", "player": p, "loser": loser, "at": as_json(dest)}
            )
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
    unit["acted"] = True
    return [{"type": "packing_started", "player": p, "unit": uid, "to": to, "notch": notch}]
