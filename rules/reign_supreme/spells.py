"""Field spells (seed: Spells - Field Spells, Spell Cooldowns; Special Rule Terminology - Area of
Effect; Special Abilities - Silence; Castle).

"Field Spells are Special Abilities that have cooldowns ... When a Field Spell is cast, pull the
Pin from the unit and place it on the Action Board. When it has completed its cooldown, return
the Pin to the unit." A spell is ready when its unit has no pin for it on the Action Board.

| spell | range | cooldown | what it does |
| --- | --- | --- | --- |
| Teleport | 4 | 5 | the caster moves itself up to 4 spaces to an empty space; also an answer to an attack |
| Healing | 1 | 2 | removes 2 pins from the caster or an adjacent non-Mechanical, non-Siege unit, or instead removes its afflictions |
| Counterspell | 4 | 5 | an answer: stops a spell cast in range; the countered caster still eats the cooldown |
| Blast | 1 | 4 | 5 damage to every unit within 3 spaces of the caster in a straight line |
| Cone | 1 | 4 | 4 damage to the target space and the 3 spaces behind it |
| Arc | 1 | 4 | 4 damage to the target space and the 2 spaces next to both it and the caster |

Blast, Cone and Arc are Combat Field Spells: the unit's attack for the turn ("a unit can only do
one type of attack per turn"), cast "during the casting unit's move" (its activation in its own
Combat phase); their damage meets each unit's defence like any attack. "Spells cannot be cast
from or into a silence aura": not from a space, nor at a target, within an enemy's active
Silence; the Area of Effect reaches in. "Area of Effect spells cannot be cast from the outside
into the Castle": a caster outside a Castle cannot target a space in it, and the area stops at
its walls.
"""  # noqa: E501 - a Markdown table above keeps one row a line

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rules.engine_types import Event, Move, PlayerId, State, Violation
from rules.reign_supreme import effects, rulebook
from rules.reign_supreme.auras import has, prune_engaged, silenced
from rules.reign_supreme.board import Geometry, occupancy, stats
from rules.reign_supreme.combat import can_attack, damage, hit
from rules.reign_supreme.content import spell_table
from rules.reign_supreme.hexes import Hex, as_hex, as_json, disc, distance, hex_of, neighbours
from rules.reign_supreme.holdings import claim
from rules.reign_supreme.survey import Survey

__all__ = [
    "ready",
    "cast_moves",
    "can_cast",
    "check_cast",
    "declare_cast",
    "resolve_cast",
    "area",
    "teleport_spaces",
    "counterspell_answers",
    "teleport_answers",
    "COMBAT_SPELLS",
    "FIELD_SPELLS",
]

COMBAT_SPELLS = ("blast", "cone", "arc")
FIELD_SPELLS = ("teleport", "healing")
"""Field spells a unit casts by choice outside its activation too (ruling RS 10; Counterspell is
only ever an answer)."""
_TABLE = spell_table()


def _v(code: str, message: str, rule: str = rulebook.SPELLS) -> Violation:
    return Violation(code, message, rule)


def ready(state: State, uid: str, spell: str) -> bool:
    """The unit has the spell and its pin is not on the Action Board (cooling down)."""
    unit = state["units"][uid]
    if spell not in stats(state, unit)["spells"]:
        return False
    return not any(
        e["unit"] == uid and e["spell"] == spell for e in state["boards"][unit["owner"]]["spells"]
    )


def area(geo: Geometry, spell: str, caster: Hex, target: Hex) -> list[Hex]:
    """The spaces a combat spell aimed at adjacent space ``target`` affects (board spaces, the
    target first), before the Castle rule."""
    d = (target[0] - caster[0], target[1] - caster[1])
    if spell == "blast":
        spaces = [(caster[0] + k * d[0], caster[1] + k * d[1]) for k in (1, 2, 3)]
    elif spell == "cone":
        spaces = [target] + [n for n in neighbours(target) if distance(n, caster) == 2]
    else:
        spaces = [target] + [n for n in neighbours(target) if distance(n, caster) == 1]
    return [h for h in spaces if h in geo.board]


def _outside_castle(geo: Geometry, caster: Hex, h: Hex) -> bool:
    """Space ``h`` is in a Castle the caster does not stand in."""
    owner = geo.castle_owner.get(h)
    return owner is not None and geo.castle_owner.get(caster) != owner


def affected(geo: Geometry, spell: str, caster: Hex, target: Hex) -> list[Hex]:
    return [h for h in area(geo, spell, caster, target) if not _outside_castle(geo, caster, h)]


def teleport_spaces(state: State, survey: Survey, uid: str) -> list[Hex]:
    """Where ``uid`` may teleport: an empty board space 1 to 4 spaces away, not within an enemy
    Silence, not another player's Throne (**Decision**: a Throne is captured by moving onto it,
    and "Teleport is not considered to be movement"). Sorted."""
    return list(_teleport_spaces(state, survey, uid))


def _teleport_spaces(state: State, survey: Survey, uid: str) -> Iterator[Hex]:
    """:func:`teleport_spaces`, one at a time (sorted), so that a question whether there is one
    (:func:`can_cast`) stops at the first. They come sorted without a sort: :func:`hexes.disc`
    lists its offsets in order, and adding the same space to each keeps that order."""
    unit = state["units"][uid]
    here = as_hex(unit["at"])
    reach = _TABLE["teleport"]["range"]
    geo, occ = survey.geo, survey.occ
    owner = unit["owner"]
    q, r = here
    for dq, dr in disc(reach):  # the spaces within reach, and here
        h = (q + dq, r + dr)
        if (
            h in geo.board
            and h != here
            and h not in occ
            and geo.thrones.get(h, owner) == owner
            and not survey.silenced(h, owner)
        ):
            yield h


def _heal_targets(state: State, survey: Survey, uid: str) -> list[tuple[str, bool]]:
    """(target, cure) pairs for Healing by ``uid``: itself or an adjacent unit of any side that is
    not Mechanical or Siege ("cannot be healed") nor an enemy with Stealth not engaged with it (it
    "cannot specifically target stealthed unit", as attacks and cards); healing needs pins to
    remove, a cure an affliction."""
    units = state["units"]
    unit = units[uid]
    here = as_hex(unit["at"])
    reach = _TABLE["healing"]["range"]
    out = []
    for tid in survey.near(here, reach):  # those within reach (and maybe farther), state order
        t = units[tid]
        # What there is to heal or cure, asked first: most units have neither.
        heal = t["pins"] > 0
        cure = t["ensnared"] or effects.afflicted(state, tid)
        if not (heal or cure) or distance(here, as_hex(t["at"])) > reach:
            continue
        if any(k in survey.stats[tid]["kinds"] for k in ("mechanical", "siege")):
            continue
        if (
            t["owner"] != unit["owner"]
            and survey.is_stealthy(tid)
            and not survey.is_engaged(uid, tid)
        ):
            continue
        if survey.silenced(as_hex(t["at"]), unit["owner"]):
            continue
        if heal:
            out.append((tid, False))
        if cure:
            out.append((tid, True))
    return out


def _combat_targets(state: State, survey: Survey, uid: str) -> list[Hex]:
    unit = state["units"][uid]
    here = as_hex(unit["at"])
    geo, occ = survey.geo, survey.occ
    owner = unit["owner"]
    out = []
    for h in neighbours(here):
        if h not in geo.board or survey.silenced(h, owner) or _outside_castle(geo, here, h):
            continue
        other = occ.get(h)
        # Stealth: "may not be directly attacked unless previously engaged in Melee" (as attacks).
        if (
            other is not None
            and state["units"][other]["owner"] != owner
            and survey.is_stealthy(other)
            and not survey.is_engaged(uid, other)
        ):
            continue
        out.append(h)
    return sorted(out)


def cast_moves(state: State, survey: Survey, p: PlayerId, uid: str) -> list[Move]:
    """Every spell ``uid`` may cast now: in its player's own Combat phase during its activation,
    or (ruling RS 10) in another player's Combat phase a ready Teleport or Healing, whatever the
    unit did in its own turn."""
    return list(_casts(state, survey, p, uid))


def can_cast(state: State, survey: Survey, p: PlayerId, uid: str) -> bool:
    """Whether :func:`cast_moves` lists any cast of ``uid``: found with the first (who may act
    outside their turn asks after every move, ruling RS 10, and needs no more)."""
    return next(_casts(state, survey, p, uid), None) is not None


def _casts(state: State, survey: Survey, p: PlayerId, uid: str) -> Iterator[Move]:
    """:func:`cast_moves`, one at a time."""
    unit = state["units"][uid]
    own_turn = state["turn"] == p
    spells = survey.stats[uid]["spells"]
    if (
        not spells  # most units: asked first, as it is the cheapest question
        or unit["at"] is None
        or (own_turn and unit["done"])
        or survey.silenced(as_hex(unit["at"]), p)
    ):
        return
    for spell in spells:
        if not ready(state, uid, spell) or (not own_turn and spell not in FIELD_SPELLS):
            continue
        if spell == "healing":
            for tid, cure in _heal_targets(state, survey, uid):
                m = {"player": p, "type": "cast", "unit": uid, "spell": spell, "target": tid}
                yield {**m, "cure": True} if cure else m
            continue
        spaces: Iterable[Hex]
        if spell == "teleport":
            spaces = _teleport_spaces(state, survey, uid)
        elif spell in COMBAT_SPELLS and can_attack(state, unit) and unit["mode"] in (None, "spell"):
            spaces = _combat_targets(state, survey, uid)
        else:
            continue
        for h in spaces:
            yield {"player": p, "type": "cast", "unit": uid, "spell": spell, "target": as_json(h)}


def check_cast(state: State, geo: Geometry, move: Move) -> list[Violation]:
    """Why a ``cast`` (not an answer) is illegal ([] when it is legal), in the player's own Combat
    phase or, ruling RS 10, in another player's."""
    p = move["player"]
    uid, spell = move["unit"], move["spell"]
    unit = state["units"][uid]
    if spell.__class__ is not str or spell not in _TABLE:  # a list or an object cannot be looked up
        return [_v("unknown_spell", f"There is no field spell {str(spell)[:40]!r}.")]
    if spell not in stats(state, unit)["spells"]:
        return [_v("no_such_spell", f"Unit {uid} cannot cast {spell}.")]
    if spell == "counterspell":
        return [
            _v(
                "counterspell_is_an_answer",
                "Counterspell is cast only as an answer to a spell.",
                rulebook.RESPONSES,
            )
        ]
    if unit["at"] is None:
        return [_v("not_on_board", f"Unit {uid} is not on the board.")]
    own_turn = state["turn"] == p
    if not own_turn and spell not in FIELD_SPELLS:
        return [
            _v(
                "combat_spell_own_move",
                "Blast, Cone and Arc are cast only during the casting unit's move, in "
                "its own Combat phase; outside your turn you may cast Teleport or Healing.",
                rulebook.OUTSIDE_YOUR_TURN,
            )
        ]
    if own_turn and unit["done"]:
        return [_v("unit_done", "This unit's activation is over this turn.", rulebook.COMBAT)]
    if not ready(state, uid, spell):
        return [_v("spell_cooling_down", f"{spell} is cooling down on the Action Board.")]
    survey = Survey(state, geo)  # the Silence auras, worked out once for the three questions
    if survey.silenced(as_hex(unit["at"]), p):
        return [
            _v(
                "silenced",
                "No spell can be cast from within an enemy Silence aura.",
                rulebook.AURAS,
            )
        ]
    if spell in COMBAT_SPELLS and (
        not can_attack(state, unit) or unit["mode"] not in (None, "spell")
    ):
        return [
            _v(
                "cannot_attack",
                "A combat spell is the unit's attack: one type of attack per turn.",
                rulebook.ATTACKS,
            )
        ]
    if move.get("cure") and spell != "healing":
        return [_v("unexpected_field", "Only Healing takes 'cure'.", rulebook.MOVES)]
    into = _target_space(state, move)
    if into is not None and survey.silenced(into, p):
        return [_v("silenced", "No spell can be cast into an enemy Silence aura.", rulebook.AURAS)]
    listed = {_key(m) for m in cast_moves(state, survey, p, uid) if m["spell"] == spell}
    key = _key(move)
    if key is None or key not in listed:
        return [
            _v(
                "bad_spell_target",
                f"{spell} cannot be cast at {move['target']!r} "
                f"{'(to remove an affliction) ' if move.get('cure') else ''}from here.",
            )
        ]
    return []


def _target_space(state: State, move: Move) -> Hex | None:
    """The space a cast is aimed at (Healing: its target unit's space), or None if malformed."""
    t = move["target"]
    if move["spell"] == "healing":
        unit = state["units"].get(t) if t.__class__ is str else None
        return None if unit is None or unit["at"] is None else as_hex(unit["at"])
    return hex_of(t)


def _key(move: Move) -> tuple[Any, ...] | None:
    """What tells a cast from the others listed: its spell, its target (a space as a tuple) and
    whether it cures; None for a target no cast can have (an object, a list other than two
    integers), which could not be a set's member either."""
    t = move["target"]
    if t.__class__ is list:
        t = hex_of(t)
        if t is None:
            return None
    elif t.__class__ is dict:
        return None
    return (move["spell"], t, bool(move.get("cure")))


def _cool(state: State, uid: str, spell: str) -> None:
    unit = state["units"][uid]
    state["boards"][unit["owner"]]["spells"].append(
        {"unit": uid, "spell": spell, "left": _TABLE[spell]["cooldown"]}
    )


def declare_cast(
    state: State, move: Move, activation: bool = True
) -> tuple[dict[str, Any], list[Event]]:
    """The caster commits: the pin goes on the Action Board (even if the spell is then countered:
    "the player must eat the cooldown"); a combat spell uses the unit's attack. ``activation``:
    the cast is part of the unit's activation in its own Combat phase (not an answer, nor a cast
    in another player's turn), so the unit has acted. Returns the pending entry and the
    ``spell_cast`` event."""
    uid, spell = move["unit"], move["spell"]
    unit = state["units"][uid]
    _cool(state, uid, spell)
    if activation:
        unit["acted"] = True
    if spell in COMBAT_SPELLS:
        unit["attacked"] = True
        unit["attacks"] += 1
        unit["mode"] = "spell"
    target = move["target"]
    if spell == "teleport":
        at = list(unit["at"])
    elif spell == "healing":
        at = list(state["units"][target]["at"])
    elif spell == "counterspell":
        at = target
    else:
        at = list(target)
    entry = {
        "kind": "spell",
        "player": move["player"],
        "move": dict(move),
        "asked": [],
        "unit": uid,
        "at": at,
    }
    event = {
        "type": "spell_cast",
        "player": move["player"],
        "unit": uid,
        "spell": spell,
        "target": target,
    }
    if move.get("cure"):
        event["cure"] = True
    return entry, [event]


def resolve_cast(
    state: State, geo: Geometry, entry: dict[str, Any], below: dict[str, Any] | None
) -> list[Event]:
    """Carry out a spell nobody countered. ``below`` is the entry this one answers, if any (a
    Teleport in answer to an attack voids it; a Counterspell cancels it, done by the caller)."""
    move = entry["move"]
    p = entry["player"]
    uid, spell, target = move["unit"], move["spell"], move["target"]
    units = state["units"]
    caster = units.get(uid)
    if caster is None or caster["at"] is None:
        return [
            {
                "type": "spell_fizzled",
                "player": p,
                "unit": uid,
                "spell": spell,
                "reason": "caster_gone",
            }
        ]
    if spell == "teleport":
        dest = (target[0], target[1])
        if dest in occupancy(state):
            return [
                {
                    "type": "spell_fizzled",
                    "player": p,
                    "unit": uid,
                    "spell": spell,
                    "reason": "space_taken",
                }
            ]
        start = caster["at"]
        caster["at"] = [dest[0], dest[1]]
        caster["ensnared"] = False
        prune_engaged(state)
        if below is not None and below["kind"] == "attack" and below["move"]["target"] == uid:
            below["evaded"] = True
        elif below is not None and below["kind"] in ("spell", "card"):
            below["evaded"] = uid
        return [
            {"type": "teleported", "player": p, "unit": uid, "from": start, "to": caster["at"]},
            *claim(state, geo, uid, [dest]),
        ]
    if spell == "healing":
        t = units.get(target)
        if t is None or t["at"] is None:
            return [
                {
                    "type": "spell_fizzled",
                    "player": p,
                    "unit": uid,
                    "spell": spell,
                    "reason": "target_gone",
                }
            ]
        if move.get("cure"):
            t["ensnared"] = False
            return [
                {"type": "cured", "player": p, "unit": target, "owner": t["owner"]},
                *effects.cure(state, target),
            ]
        healed = min(t["pins"], _TABLE["healing"]["heals"])
        t["pins"] -= healed
        return [
            {
                "type": "healed",
                "player": p,
                "unit": target,
                "owner": t["owner"],
                "pins_removed": healed,
                "pins": t["pins"],
            }
        ]
    here = as_hex(caster["at"])
    events: list[Event] = []
    occ = occupancy(state)
    for h in affected(geo, spell, here, (target[0], target[1])):
        vid = occ.get(h)
        # A unit that teleported away in answer escaped the spell ("causing no damage or
        # effect"), even if it landed elsewhere in the area.
        if vid is None or vid not in units or vid == entry.get("evaded"):
            continue
        result = damage(state, geo, uid, vid, "spell", base=_TABLE[spell]["damage"])
        events.append(
            {
                "type": "spell_hit",
                "player": p,
                "unit": uid,
                "spell": spell,
                "target": vid,
                "owner": units[vid]["owner"],
                "at": as_json(h),
                **result,
            }
        )
        events.extend(hit(state, p, vid, result["damage"], spell))
    if not events:
        events.append({"type": "spell_hit_nothing", "player": p, "unit": uid, "spell": spell})
    return events


# -- answers ---------------------------------------------------------------------------------------
def teleport_answers(
    state: State, geo: Geometry, entry: dict[str, Any], responder: PlayerId
) -> list[Move]:
    """Teleport as a defensive answer: "after another ability or attack has been declared against
    him ... but before the attack or ability can affect the unit". The unit attacked (or standing
    on a combat spell's target space) belongs to ``responder`` and has Teleport ready, outside
    enemy Silence."""
    move = entry["move"]
    uid = None
    if entry["kind"] == "attack":
        uid = move["target"]
    elif entry["kind"] == "spell" and move["spell"] in COMBAT_SPELLS:
        uid = occupancy(state).get((move["target"][0], move["target"][1]))
    elif entry["kind"] == "card" and entry.get("target_unit") is not None:
        uid = entry["target_unit"]
    if uid is None or uid not in state["units"]:
        return []
    unit = state["units"][uid]
    if (
        unit["owner"] != responder
        or unit["at"] is None
        or not ready(state, uid, "teleport")
        or silenced(state, as_hex(unit["at"]), responder)
    ):
        return []
    return [
        {
            "player": responder,
            "type": "cast",
            "unit": uid,
            "spell": "teleport",
            "target": as_json(h),
        }
        for h in teleport_spaces(state, Survey(state, geo), uid)
    ]


def counterspell_answers(
    state: State, geo: Geometry, entry: dict[str, Any], responder: PlayerId
) -> list[Move]:
    """Counterspell: "can be cast at any direct spell cast in range of the caster, or the caster
    itself": a ready Counterspell unit of ``responder`` within 4 spaces of the spell's caster or
    of its target, not inside an enemy Silence ("it can still be cast in the vicinity of another
    Warder": two Silences cancel). Spells only (field spells, spell cards, counterspells), not
    another player's own."""
    if entry["kind"] not in ("spell", "card") or entry["player"] == responder:
        return []
    if entry["kind"] == "card" and not entry.get("spell"):
        return []
    units = state["units"]
    wards = [
        wid
        for wid, w in units.items()
        if w["owner"] == responder
        and w["at"] is not None
        and has(state, w, "counterspell")
        and ready(state, wid, "counterspell")
    ]
    if not wards:
        # Asked first: most players have no ready Counterspell, and every player is asked after
        # every spell and card (the spaces' Silence below is worked out only for those who do).
        return []
    survey = Survey(state, geo)  # the Silence auras, worked out once for every space asked
    caster = units.get(entry.get("unit")) if entry.get("unit") else None
    places = [as_hex(caster["at"])] if caster is not None and caster["at"] is not None else []
    if entry.get("at") is not None:
        places.append((entry["at"][0], entry["at"][1]))
    if places:
        # Cast at the spell's caster or at its target, but not into an enemy Silence.
        places = [h for h in places if not survey.silenced(h, responder)]
        if not places:
            return []
    reach = _TABLE["counterspell"]["range"]
    out: list[Move] = []
    for wid in wards:
        here = as_hex(units[wid]["at"])
        if survey.silenced(here, responder):
            continue
        if places and not any(distance(here, h) <= reach for h in places):
            continue
        out.append(
            {
                "player": responder,
                "type": "cast",
                "unit": wid,
                "spell": "counterspell",
                "target": entry["at"],
            }
        )
    return out
