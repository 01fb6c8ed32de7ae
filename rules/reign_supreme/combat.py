"""Attacks, damage and the offensive and defensive abilities (seed: Combat Phase - Attack; Special
Rule Terminology - Melee, Shooting, Shot; Special Abilities; Units - Gates, Palisades; ruling RS 4).

A unit makes one type of attack per turn (melee, shooting or a combat spell), once, or twice
with **Double Attack** ("add an attack of the same type; attacks can target different units"):

- **melee** against an enemy within 1 space (2 in an Enchant aura), by any unit except Siege;
- **shoot** (Shooting units) against an enemy at 2 up to the unit's range (+1 with Enchant),
  only if the unit has not moved this turn (unless Flanking: then it is an attack while
  moving), never while in melee unless Siege.

A Stealth unit "may not be directly attacked unless previously engaged in Melee": only an enemy
unit that has stood next to it since the start of the turn may attack it.

Damage is attack plus offence modifiers minus defence modifiers, never below 0, kept as pins.
Offence: +1 on a Throne, +1 in a Command aura, +1 **Charging** (melee after moving up to the
target, not having started the move in melee; Stealth units get it too), −1 for a **Flanking**
attack while moving, +2/+3 **Knockback** against a Mechanical/Siege target, and card effects.
Defence: armour, +1 in a Castle, +1 in a Supply aura, card effects; a Siege target takes only
the aura's.
"""

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, PlayerId, State
from rules.reign_supreme import effects
from rules.reign_supreme.auras import has, in_aura, prune_engaged, range_bonus, silenced, stealthy
from rules.reign_supreme.board import Geometry, occupancy, stats
from rules.reign_supreme.content import MAGICAL_DAMAGE
from rules.reign_supreme.cooldown import advance_reinforcement
from rules.reign_supreme.hexes import DIRECTIONS, Hex, as_hex, distance, neighbours
from rules.reign_supreme.holdings import claim
from rules.reign_supreme.survey import Survey
from rules.reign_supreme.walls import (
    crosses_wall,
    edge_distance,
    far_side,
    memo,
    own_wall,
    wall_by_id,
)

__all__ = [
    "attack_options",
    "can_attack",
    "max_attacks",
    "damage",
    "declare_attack",
    "resolve_attack",
    "counterattack_possible",
    "counterattack",
    "hit",
    "marched",
    "magic_silenced",
    "push_space",
    "MELEE_RANGE",
    "KNOCKBACK_DAMAGE",
    "remove_unit",
    "ATTACK_MODES",
    "TURN_MODES",
    "CANCEL_REASONS",
]

ATTACK_MODES = ("melee", "shoot")
"""The two kinds of attack a unit may declare."""
TURN_MODES = (*ATTACK_MODES, "spell")
"""The type of attack a unit made this turn (one type per turn): an attack mode or a field spell."""
CANCEL_REASONS = ("attacker_gone", "evaded", "target_gone")
"""Why a declared attack did not land (``attack_cancelled``)."""

MELEE_RANGE = 1
KNOCKBACK_DAMAGE = {"siege": 3, "mechanical": 2}
"""Knockback "does not move Siege or Mechanical units, but instead deals 2 additional damage";
the Siege section: "If a Siege unit is hit with Knockback, it takes 3 damage" (its own rule
wins for Siege)."""
_FLAGS = ("knockback", "volley", "on_the_move")


def marched(unit: dict[str, Any]) -> bool:
    """Whether ``unit`` has moved by its own movement this turn, which stops it Shooting (unless
    it has Flanking). Seed, Movement: "Some Cards and units with Construction can cause other
    units to move. These abilities are not considered movement and do not prevent Shooting";
    ruling RS 11: a step paid with a movement point that Construction gave (``bonus``) is not
    the unit's movement. **Decision:** those points are spent first, so a unit has marched only
    when it took more steps than Construction gave it."""
    return unit["steps"] > unit["bonus"]


def max_attacks(state: State, unit: dict[str, Any], s: dict[str, Any] | None = None) -> int:
    """2 with Double Attack, else 1. ``s``: the unit's statistics, when at hand."""
    return 2 if has(state, unit, "double_attack", s) else 1


def magic_silenced(state: State, unit: dict[str, Any]) -> bool:
    """Seed, Silence: "No enemy magical attacks can be performed inside the aura, but can be dealt
    from the outside into the aura." Ruling RS 14: a unit whose attack deals magical damage
    (its roster ``damage``; in the default rosters the Wizard and the Battlemage) cannot attack
    while it stands within an enemy's active Silence; its target may stand in one."""
    return stats(state, unit)["damage"] in MAGICAL_DAMAGE and silenced(
        state, as_hex(unit["at"]), unit["owner"]
    )


def can_attack(state: State, unit: dict[str, Any], s: dict[str, Any] | None = None) -> bool:
    """Whether ``unit`` may still attack this turn: on the board, its activation not over, attacks
    left (two with Double Attack), and (Packed units) unpacked. (A magical attacker in an enemy
    Silence makes no attack either: :func:`attack_options` lists none.) ``s``: the unit's
    statistics, when at hand (a listing asks of every unit)."""
    if unit["at"] is None or unit["done"]:
        return False
    attacks = unit["attacks"]
    if attacks and attacks >= max_attacks(state, unit, s):  # none made: one left, at least
        return False
    return unit.get("packing", "unpacked") == "unpacked"


def attack_options(state: State, survey: Survey, uid: str) -> list[dict[str, Any]]:
    """Every attack ``uid`` may make now: ``{"target", "mode"}`` plus each optional declaration
    (``knockback``, ``volley``, ``on_the_move``) that is true. Targets in id order, units then
    walls. The unit must be able to attack (:func:`can_attack`)."""
    units = state["units"]
    unit = units[uid]
    s = survey.stats[uid]
    owner = unit["owner"]
    at = unit["at"]
    here = (at[0], at[1])
    if s["damage"] in MAGICAL_DAMAGE and survey.silenced(here, owner):  # magic_silenced
        return []
    kinds = s["kinds"]
    siege = "siege" in kinds
    flanking = "flanking" in s["abilities"]
    fixed = unit["mode"]
    reach = 1 if here in survey.aura(owner, "enchant") else 0  # range_bonus (Survey.aura)
    melee_ok = not siege and fixed in (None, "melee")
    shoot_ok = (
        "shooting" in kinds
        and fixed in (None, "shoot")
        and (not marched(unit) or flanking)
        and (siege or not survey.in_melee(owner, here))
    )
    if not melee_ok and not shoot_ok:
        return []
    melee_reach = MELEE_RANGE + reach
    shoot_reach = s["range"] + reach
    farthest = max(melee_reach if melee_ok else 0, shoot_reach if shoot_ok else 0)
    if farthest == MELEE_RANGE and not _adjacent_target(survey, owner, here):
        return []
    out: list[dict[str, Any]] = []
    q, r = here
    for tid, (tq, tr) in survey.enemies(owner):  # in state order
        dq, dr = q - tq, r - tr
        d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # hexes.distance, inlined: asked per pair
        if d > farthest:  # out of reach: whatever else holds, no attack on it
            continue
        hidden = survey.is_stealthy(tid)
        if hidden and not survey.is_engaged(uid, tid):
            continue
        target = units[tid]
        if melee_ok and d <= melee_reach:
            out.extend(_with_flags(s, unit, target, hidden, tid, "melee"))
        if shoot_ok and 2 <= d <= shoot_reach:
            out.extend(_with_flags(s, unit, target, hidden, tid, "shoot"))
    walls = _wall_targets(
        survey, owner, here, melee_reach if melee_ok else 0, shoot_reach if shoot_ok else 0
    )
    for wid, mode in walls:
        out.extend(_with_flags(s, unit, None, False, wid, mode))
    return out


def _adjacent_target(survey: Survey, owner: PlayerId, here: Hex) -> bool:
    """Whether a unit of ``owner`` on ``here`` that reaches 1 space has anything to attack there:
    an enemy unit next to it, or an enemy wall on one of whose two spaces it stands
    (:func:`walls.edge_distance` is 1 only there). Most units that may attack reach 1 and have
    neither, which :meth:`Survey.in_melee` and a look-up tell: :func:`attack_options` then skips
    its search of the units and walls near ``here``, which would find no target either."""
    if survey.in_melee(owner, here):
        return True
    return here in survey.enemy_wall_spaces(owner)


def _wall_targets(
    survey: Survey, owner: PlayerId, here: Hex, melee_reach: int, shoot_reach: int
) -> list[tuple[str, str]]:
    """The (wall id, mode) attacks on walls from ``here`` by a unit of ``owner`` that reaches
    ``melee_reach`` in melee and ``shoot_reach`` shooting (0: it may not), walls in state order,
    melee before shoot. It depends on the walls alone besides its arguments, so it is kept per
    walls list (:func:`walls.memo`; at most one entry per player, space and pair of reaches):
    a unit asks again from the same space in state after state."""
    kept = memo(survey.state["walls"])
    key = ("wall_targets", owner, here, melee_reach, shoot_reach)
    found = kept.get(key)
    if found is None:
        found = []
        for wid, a, b in survey.walls_near(owner, here, max(melee_reach, shoot_reach)):
            d = edge_distance(here, a, b)
            if d <= melee_reach:
                found.append((wid, "melee"))
            if 2 <= d <= shoot_reach:
                found.append((wid, "shoot"))
        kept[key] = found
    return found


def _with_flags(
    s: dict[str, Any],
    unit: dict[str, Any],
    target: dict[str, Any] | None,
    hidden: bool,
    tid: str,
    mode: str,
) -> list[dict[str, Any]]:
    """The declarations possible for one attack by ``unit`` (statistics ``s``) on ``target``
    (None: a wall; ``hidden``: it has Stealth): each flag that may be true doubles the choices;
    a Flanking unit that has moved can only shoot while moving."""
    choices: dict[str, tuple[bool, ...]] = {}
    if target is not None and "knockback" in s["abilities"] and not unit["knocked"] and not hidden:
        choices["knockback"] = (False, True)
    if target is not None and mode == "shoot" and "volley" in s["abilities"]:
        choices["volley"] = (False, True)
    if "flanking" in s["abilities"] and not hidden:
        choices["on_the_move"] = (True,) if (mode == "shoot" and marched(unit)) else (False, True)
    elif mode == "shoot" and marched(unit):
        return []
    out: list[dict[str, Any]] = [{"target": tid, "mode": mode}]
    for flag in _FLAGS:
        values = choices.get(flag)
        if values is None:
            continue
        out = [{**o, flag: True} if v else dict(o) for o in out for v in values]
    return out


# -- damage ----------------------------------------------------------------------------------------
def offence_modifiers(
    state: State,
    geo: Geometry,
    occ: dict[Hex, str],
    uid: str,
    target: dict[str, Any] | None,
    mode: str,
    *,
    on_the_move: bool = False,
    counter: bool = False,
) -> list[dict[str, Any]]:
    """The attacker's offence modifiers, each ``{"source", "value"}``."""
    unit = state["units"][uid]
    out = []
    if as_hex(unit["at"]) in geo.thrones:
        out.append({"source": "throne", "value": 1})
    if in_aura(state, occ, unit, "command"):
        out.append({"source": "command", "value": 1})
    if (
        mode == "melee"
        and not counter
        and unit["steps"] > 0
        and unit["charge"]
        and (has(state, unit, "charging") or stealthy(state, geo, unit))
        and target is not None
        and not stealthy(state, geo, target)
    ):
        out.append({"source": "charging", "value": 1})
    if on_the_move:
        out.append({"source": "flanking", "value": -1})
    out.extend(effects.offence_modifiers(state, uid))
    return out


def defence_modifiers(
    state: State, geo: Geometry, occ: dict[Hex, str], tid: str
) -> list[dict[str, Any]]:
    """The target's defence modifiers. "Siege units have no armor modifications ... Siege units
    do gain bonuses from auras": a Siege target keeps only Supply."""
    target = state["units"][tid]
    t = stats(state, target)
    out = []
    siege = "siege" in t["kinds"]
    if not siege:
        if t["defence"]:
            out.append({"source": "armour", "value": t["defence"]})
        if as_hex(target["at"]) in geo.castle_owner:
            out.append({"source": "castle", "value": 1})
    if in_aura(state, occ, target, "supply"):
        out.append({"source": "supply", "value": 1})
    if not siege:
        out.extend(effects.defence_modifiers(state, tid))
    return out


def damage(
    state: State,
    geo: Geometry,
    uid: str,
    tid: str,
    mode: str,
    *,
    base: int | None = None,
    knockback: bool = False,
    on_the_move: bool = False,
    counter: bool = False,
) -> dict[str, Any]:
    """The damage unit ``uid`` deals to unit ``tid``: ``{"attack", "offence", "defence",
    "damage"}``.
    ``base`` replaces the attack statistic (a combat spell's damage)."""
    occ = occupancy(state)
    units = state["units"]
    attacker, target = units[uid], units[tid]
    attack = stats(state, attacker)["attack"] if base is None else base
    offence = offence_modifiers(
        state, geo, occ, uid, target, mode, on_the_move=on_the_move, counter=counter
    )
    if knockback:
        kinds = stats(state, target)["kinds"]
        extra = max((v for k, v in KNOCKBACK_DAMAGE.items() if k in kinds), default=0)
        if extra:
            offence.append({"source": "knockback", "value": extra})
    defence = defence_modifiers(state, geo, occ, tid)
    total = attack + sum(m["value"] for m in offence) - sum(m["value"] for m in defence)
    return {"attack": attack, "offence": offence, "defence": defence, "damage": max(0, total)}


def wall_damage(state: State, uid: str) -> int:
    """Gates "receive no modifiers when taking damage except for +1 damage from Artillery"
    (Siege attackers); Palisades "work just like Gates" (ruling RS 13) and so do Castle walls
    (ruling RS 12): the attacker's attack, +1 if it is Siege, nothing else."""
    s = stats(state, state["units"][uid])
    return s["attack"] + (1 if "siege" in s["kinds"] else 0)


# -- pins and death --------------------------------------------------------------------------------
def remove_unit(state: State, uid: str) -> None:
    """Take a unit off the game with its Action Board pins and effects."""
    owner = state["units"][uid]["owner"]
    del state["units"][uid]
    b = state["boards"][owner]
    b["packing"] = [x for x in b["packing"] if x["unit"] != uid]
    b["spells"] = [x for x in b["spells"] if x["unit"] != uid]
    effects.remove_unit_effects(state, uid)
    prune_engaged(state)


def hit(state: State, player: PlayerId, tid: str, amount: int, source: str) -> list[Event]:
    """Put ``amount`` pins on unit ``tid`` (dealt by ``player``); a unit whose pins reach its hit
    points is destroyed, and ``player`` scores the kill if it was an enemy's (a killing blow
    also moves their Reinforcement pin). Returns ``unit_destroyed`` events (none if it lives)."""

    target = state["units"][tid]
    hp = stats(state, target)["hp"]
    target["pins"] = min(hp, target["pins"] + amount)
    if target["pins"] < hp:
        return []
    at, owner = target["at"], target["owner"]
    remove_unit(state, tid)
    events: list[Event] = [
        {
            "type": "unit_destroyed",
            "player": player,
            "unit": tid,
            "owner": owner,
            "unit_type": target["type"],
            "at": at,
            "by": source,
        }
    ]
    if owner != player:
        state["kills"][player] += 1
        board = state["boards"][player]
        gained = advance_reinforcement(board, 1)
        if board["reinforcement_pin"] is not None:
            events.append(
                {
                    "type": "reinforcement_pin_moved",
                    "player": player,
                    "reinforcement_pin": board["reinforcement_pin"],
                    "deploys_gained": gained,
                }
            )
    return events


# -- declaring and resolving -----------------------------------------------------------------------
def declare_attack(state: State, p: PlayerId, move: dict[str, Any]) -> dict[str, Any]:
    """The attacker commits: the attack is used (and its type fixed for a second one), Knockback is
    used for the turn, a Flanking unit attacking while moving may move on. Returns the pending
    entry to resolve (answers may come first)."""
    unit = state["units"][move["unit"]]
    unit["attacked"] = True
    unit["attacks"] += 1
    unit["mode"] = move["mode"]
    unit["acted"] = True
    if move.get("knockback"):
        unit["knocked"] = True
    unit["on_the_move"] = bool(move.get("on_the_move"))
    declared = {k: v for k, v in move.items() if k not in _FLAGS or v}
    return {"kind": "attack", "player": p, "move": declared, "asked": []}


def counterattack_possible(state: State, geo: Geometry, entry: dict[str, Any]) -> str | None:
    """The unit that may counterattack this declared attack, or None. Seed, Counterattack: a melee
    attack only; the attacked unit has Counterattack, has not counterattacked this turn, is not
    packed or in transit, and the attacker is within its melee range; Stealth attackers cannot
    be counterattacked."""
    move = entry["move"]
    if entry["kind"] != "attack" or move["mode"] != "melee" or entry.get("evaded"):
        return None
    units = state["units"]
    attacker, target = units.get(move["unit"]), units.get(move["target"])
    if attacker is None or target is None or attacker["at"] is None or target["at"] is None:
        return None
    if (
        not has(state, target, "counterattack")
        or target["countered"]
        or "siege" in stats(state, target)["kinds"]
    ):
        return None
    if (
        target.get("packing", "unpacked") != "unpacked"
        or stealthy(state, geo, attacker)
        or magic_silenced(state, target)
    ):
        return None
    occ = occupancy(state)
    if distance(as_hex(target["at"]), as_hex(attacker["at"])) > MELEE_RANGE + range_bonus(
        state, occ, target
    ):
        return None
    return move["target"]


def counterattack(state: State, geo: Geometry, entry: dict[str, Any]) -> tuple[list[Event], bool]:
    """ "The Counterattack is worked out before the initial attack, and no damage is done by the
    original attacker if the unit is killed." Returns the events and whether the attacker died."""
    move = entry["move"]
    tid, aid = move["target"], move["unit"]
    units = state["units"]
    defender = units[tid]
    defender["countered"] = True
    result = damage(state, geo, tid, aid, "melee", counter=True)
    events: list[Event] = [
        {
            "type": "counterattacked",
            "player": defender["owner"],
            "unit": tid,
            "target": aid,
            "owner": units[aid]["owner"],
            **result,
        }
    ]
    hp = stats(state, units[aid])["hp"]
    events[0]["pins"] = min(hp, units[aid]["pins"] + result["damage"])
    events[0]["hp"] = hp
    dead = events[0]["pins"] >= hp
    events.extend(hit(state, defender["owner"], aid, result["damage"], "counterattack"))
    return events, dead


def push_space(state: State, geo: Geometry, attacker: Hex, target: Hex) -> Hex | None:
    """Knockback: the space "back one space" from the attacker: the neighbour of the target in
    the hex direction closest to the attacker-to-target line (ties: the first in the direction
    order east, north-east, north-west, west, south-west, south-east). None when there is no
    room: off the board, taken, or across a wall."""
    dq, dr = target[0] - attacker[0], target[1] - attacker[1]
    ds = -dq - dr

    def score(d: Hex) -> int:
        return d[0] * dq + d[1] * dr + (-d[0] - d[1]) * ds

    best = max(DIRECTIONS, key=score)
    space = (target[0] + best[0], target[1] + best[1])
    if (
        space not in geo.board
        or space in occupancy(state)
        or crosses_wall(state, target, space) is not None
    ):
        return None
    return space


def _splash(
    state: State, player: PlayerId, centre: Hex, skip: set[str], amount_for: Any, source: str
) -> list[Event]:
    """Damage every unit on a space next to ``centre`` (allies included), but not ``skip``."""
    occ = occupancy(state)
    events: list[Event] = []
    for n in neighbours(centre):
        vid = occ.get(n)
        if vid is None or vid in skip or vid not in state["units"]:
            continue
        amount = amount_for(vid)
        events.append(
            {
                "type": "splashed",
                "player": player,
                "unit": vid,
                "owner": state["units"][vid]["owner"],
                "source": source,
                "damage": amount,
            }
        )
        events.extend(hit(state, player, vid, amount, source))
    return events


def resolve_attack(state: State, geo: Geometry, entry: dict[str, Any]) -> list[Event]:
    """Carry out a declared attack once every answer is in (mutates ``state``)."""
    move = entry["move"]
    p = entry["player"]
    uid, tid = move["unit"], move["target"]
    units = state["units"]
    attacker = units.get(uid)
    base = {"type": "attack_cancelled", "player": p, "unit": uid, "target": tid}
    if attacker is None or attacker["at"] is None:
        return [{**base, "reason": "attacker_gone"}]
    if entry.get("evaded"):
        return [{**base, "reason": "evaded"}]
    if tid in units:
        if units[tid]["at"] is None:
            return [{**base, "reason": "target_gone"}]
        return _attack_unit(state, geo, entry)
    wall = wall_by_id(state, tid)
    if wall is None:
        return [{**base, "reason": "target_gone"}]
    return _attack_wall(state, geo, entry, wall)


def _attack_unit(state: State, geo: Geometry, entry: dict[str, Any]) -> list[Event]:
    move = entry["move"]
    p = entry["player"]
    uid, tid, mode = move["unit"], move["target"], move["mode"]
    units = state["units"]
    attacker, target = units[uid], units[tid]
    knock = bool(move.get("knockback"))
    result = damage(
        state, geo, uid, tid, mode, knockback=knock, on_the_move=bool(move.get("on_the_move"))
    )
    hp = stats(state, target)["hp"]
    owner = target["owner"]
    centre = as_hex(target["at"])
    hidden = stealthy(state, geo, target)
    events: list[Event] = [
        {
            "type": "attacked",
            "player": p,
            "unit": uid,
            "target": tid,
            "owner": owner,
            "mode": mode,
            **result,
            "pins": min(hp, target["pins"] + result["damage"]),
            "hp": hp,
        }
    ]
    events.extend(hit(state, p, tid, result["damage"], mode))
    alive = tid in units
    oil = effects.oil_splash(state, uid) if mode == "shoot" else 0
    if move.get("volley"):
        # Seed, Volley: "all adjacent units to the target take damage as well, including allies".
        events.extend(
            _splash(
                state,
                p,
                centre,
                {uid, tid},
                lambda vid: damage(state, geo, uid, vid, mode)["damage"],
                "volley",
            )
        )
    elif oil:
        events.extend(_splash(state, p, centre, {uid, tid}, lambda vid: oil, "flaming_oil"))
    effects.after_attack(state, uid, mode)
    if alive and tid in units:
        if knock and not any(k in stats(state, target)["kinds"] for k in KNOCKBACK_DAMAGE):
            space = push_space(state, geo, as_hex(attacker["at"]), centre) if uid in units else None
            if space is None:
                events.append({"type": "knockback_blocked", "player": p, "unit": tid})
            else:
                target["at"] = [space[0], space[1]]
                target["ensnared"] = False
                prune_engaged(state)
                events.append(
                    {
                        "type": "knocked_back",
                        "player": p,
                        "unit": tid,
                        "from": list(centre),
                        "to": list(space),
                    }
                )
                events.extend(claim(state, geo, tid, [space]))
        if has(state, attacker, "ensnare") and not hidden:
            target["ensnared"] = True
            events.append({"type": "ensnared", "player": p, "unit": tid, "owner": owner})
    return events


def _attack_wall(
    state: State, geo: Geometry, entry: dict[str, Any], wall: dict[str, Any]
) -> list[Event]:
    move = entry["move"]
    p = entry["player"]
    uid = move["unit"]
    attacker = state["units"][uid]
    amount = wall_damage(state, uid)
    wall = own_wall(state, wall)
    before = wall["hp"]
    wall["hp"] = max(0, before - amount)
    events: list[Event] = [
        {
            "type": "wall_attacked",
            "player": p,
            "unit": uid,
            "wall": wall["id"],
            "kind": wall["kind"],
            "mode": move["mode"],
            "damage": amount,
            "hp": wall["hp"],
        }
    ]
    effects.after_attack(state, uid, move["mode"])
    if wall["hp"] > 0:
        return events
    state["walls"].remove(wall)
    events.append(
        {
            "type": "wall_destroyed",
            "player": p,
            "wall": wall["id"],
            "kind": wall["kind"],
            "owner": wall["owner"],
            "edge": wall["edge"],
        }
    )
    rest = amount - before
    if wall["kind"] == "palisade" and rest > 0:
        # Seed, Palisades: "the remaining damage reach[es] through and damage[s] an enemy unit on
        # the other side"; it still meets that unit's defence.
        space = far_side(wall, as_hex(attacker["at"]))
        occ = occupancy(state)
        vid = occ.get(space) if space is not None else None
        if vid is not None and state["units"][vid]["owner"] != p:
            defence = defence_modifiers(state, geo, occ, vid)
            through = max(0, rest - sum(m["value"] for m in defence))
            events.append(
                {
                    "type": "reached_through",
                    "player": p,
                    "unit": vid,
                    "owner": state["units"][vid]["owner"],
                    "rest": rest,
                    "defence": defence,
                    "damage": through,
                }
            )
            events.extend(hit(state, p, vid, through, "reach_through"))
    return events
