"""Playing cards (seed: Starting the Game - "Each player draws two Spell Cards and two Tactic Cards.
These are held by the player and not shown to other players until they are played"; The Turn -
"Any player can play cards only this phase" (Combat); Card Spells; Volley; ruling RS 7).

The text names only Flaming Oil, so the service defines the cards (``data/cards.json``, or a
custom set in ``options.cards``) out of **effect primitives**. A card definition is::

    {"id", "deck": "spell"|"tactics", "name", "text", "copies": 1-4,
     "target": "own_unit"|"enemy_unit"|"any_unit"|"enemy_siege_or_wall"|"none",
     "range": int|null, "effect": {"kind": primitive, "amount": 0-20, ...}}

``range`` (when not null): the target must be within that many spaces of one of the player's
units. Primitives (what the target must be, besides ``target``):

- ``damage``: ``amount`` pins on the target (magic: no offence or defence modifiers), and with
  ``splash`` that many on every other unit next to it, allies included;
- ``heal``: removes ``amount`` pins; not Mechanical or Siege units ("cannot be healed");
- ``repair``: removes ``amount`` pins from a Siege or Mechanical unit ("can be repaired ... with
  cards");
- ``offence`` / ``defence`` / ``weaken``: +``amount`` offence / +``amount`` defence / −``amount``
  offence (an affliction) for ``turns`` (0: this turn; n: until the start of your n-th next turn);
- ``haste``: +``amount`` movement this turn (a unit whose activation is not over);
- ``ambush``: +``amount`` offence on the unit's next attack this turn (a unit that can attack);
- ``flaming_oil``: the unit's next shot this turn also deals ``amount`` to every unit next to
  its target, not with Volley (a Shooting unit that can still shoot);
- ``forced_march``: a unit that has moved and not attacked may move again (its movement is
  fresh; "Some Cards ... can cause other units to move ... and do not prevent Shooting");
- ``reinforce``: moves the player's Reinforcement pin ``amount`` notches (deployment scenarios);
- ``sabotage``: ``amount`` pins on an enemy Siege unit, or ``amount`` hit points off an enemy
  Gate or Palisade.

A card is played during any Combat phase while nothing waits for an answer, by the turn player or
(ruling RS 10) any other player, except that cards acting on a unit's activation this turn
(:data:`OWN_TURN_EFFECTS`) are played only in your own:
``{"type": "play", "card": "<id>-<copy>", "target": unit id | wall id | null}``. It goes to its
deck's discard pile at once (:func:`declare`); opponents may Counterspell a Spell card and the
owner of a targeted unit may Teleport it away (:mod:`responses`); then :func:`resolve` applies
it, or it fizzles if its target is gone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rules.engine_types import Event, Move, PlayerId, State, Violation
from rules.reign_supreme import effects, rulebook
from rules.reign_supreme.board import Geometry, geometry, occupancy, stats
from rules.reign_supreme.combat import can_attack, hit
from rules.reign_supreme.cooldown import advance_reinforcement
from rules.reign_supreme.hexes import Hex, as_hex, neighbours
from rules.reign_supreme.state import catalog_of
from rules.reign_supreme.survey import Survey, id_key
from rules.reign_supreme.walls import memo, own_wall, wall_by_id, wall_spaces
from rules.shown_text import LookAlikes, taken, text_problem

__all__ = [
    "DECKS",
    "check_cards",
    "card_moves",
    "OWN_TURN_EFFECTS",
    "check_play",
    "declare",
    "resolve",
    "TARGETS",
    "PRIMITIVES",
    "MAX_AMOUNT",
    "MAX_COPIES",
    "MAX_TURNS",
    "MAX_DEFINITIONS",
    "FIZZLE_REASONS",
]

FIZZLE_REASONS = ("evaded", "target_gone", "bad_target", "player_out")
"""Why a played card found nothing to act on (``card_fizzled``)."""

DECKS = ("spell", "tactics")
"""The two card decks (and a card definition's ``deck``)."""
TARGETS = ("own_unit", "enemy_unit", "any_unit", "enemy_siege_or_wall", "none")
PRIMITIVES: dict[str, dict[str, Any]] = {
    "damage": {"targets": ("enemy_unit", "any_unit"), "extra": ("splash",)},
    "heal": {"targets": ("own_unit", "any_unit"), "extra": ()},
    "repair": {"targets": ("own_unit", "any_unit"), "extra": ()},
    "offence": {"targets": ("own_unit", "any_unit"), "extra": ("turns",)},
    "defence": {"targets": ("own_unit", "any_unit"), "extra": ("turns",)},
    "weaken": {"targets": ("enemy_unit", "any_unit"), "extra": ("turns",)},
    "haste": {"targets": ("own_unit",), "extra": ()},
    "ambush": {"targets": ("own_unit",), "extra": ()},
    "flaming_oil": {"targets": ("own_unit",), "extra": ()},
    "forced_march": {"targets": ("own_unit",), "extra": ()},
    "reinforce": {"targets": ("none",), "extra": ()},
    "sabotage": {"targets": ("enemy_siege_or_wall",), "extra": ()},
}
"""Each effect primitive: the ``target`` kinds it takes and its optional extra fields."""
MAX_AMOUNT = 20
MAX_COPIES = 4
MAX_TURNS = 3
MAX_RANGE = 100
MAX_DEFINITIONS = 50
_FIELDS = ("id", "deck", "name", "text", "copies", "target", "range", "effect")
_ID = re.compile(r"[a-z][a-z0-9_]{0,31}", re.ASCII)
_EXTRA_LIMIT = {"splash": MAX_AMOUNT, "turns": MAX_TURNS}


def _v(code: str, message: str, rule: str = rulebook.CARDS) -> Violation:
    return Violation(code, message, rule)


def _int(value: Any, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi


# -- custom card sets ------------------------------------------------------------------------------
def check_cards(cards: Any) -> list[Violation]:
    """Problems of a card set (``options.cards``, the format of ``data/cards.json``): 1 to 50
    definitions with exactly the fields above, ids of lower-case letters, digits and ``_`` no two
    alike (:mod:`rules.shown_text`), names and texts without control characters,
    1 to 4 copies, a known target and primitive that fit each other, amounts 0 to 20, and cards
    in both decks. Each problem is a ``bad_cards`` naming the field."""
    bad = "bad_cards"
    if type(cards) is not list or not 1 <= len(cards) <= MAX_DEFINITIONS:
        return [
            _v(bad, f"options.cards must be a list of 1 to {MAX_DEFINITIONS} card definitions.")
        ]
    found: list[Violation] = []
    ids = LookAlikes()
    decks: set[str] = set()
    for i, card in enumerate(cards):
        at = f"options.cards[{i}]"
        if type(card) is not dict:
            found.append(_v(bad, f"{at} must be an object."))
            continue
        found.extend(
            _v(bad, f"{at} has an unknown field {key[:40]!r}.")
            for key in card
            if key not in _FIELDS
        )
        found.extend(_v(bad, f"{at}.{key} is missing.") for key in _FIELDS if key not in card)
        cid = card.get("id")
        if type(cid) is str and _ID.fullmatch(cid) is not None:
            other = ids.like(cid)
            if other is not None:
                found.append(_v(bad, f"{at}.id {cid!r} {taken(cid, other, 'another card')}."))
            ids.add(cid)
        elif "id" in card:
            found.append(
                _v(
                    bad,
                    f"{at}.id must be 1 to 32 lower-case letters, digits or '_', starting with "
                    "a letter.",
                )
            )
        if card.get("deck") in DECKS:
            decks.add(card["deck"])
        elif "deck" in card:
            found.append(_v(bad, f"{at}.deck must be 'spell' or 'tactics'."))
        if "name" in card and (type(card["name"]) is not str or not 1 <= len(card["name"]) <= 60):
            found.append(_v(bad, f"{at}.name must be a string of 1 to 60 characters."))
        elif "name" in card and (problem := text_problem(card["name"])) is not None:
            found.append(_v(bad, f"{at}.name {problem}."))
        if "text" in card and (type(card["text"]) is not str or len(card["text"]) > 500):
            found.append(_v(bad, f"{at}.text must be a string of at most 500 characters."))
        elif "text" in card and (problem := text_problem(card["text"])) is not None:
            found.append(_v(bad, f"{at}.text {problem}."))
        if "copies" in card and not _int(card["copies"], 1, MAX_COPIES):
            found.append(_v(bad, f"{at}.copies must be a whole number from 1 to {MAX_COPIES}."))
        target = card.get("target")
        if type(target) is not str:
            target = None
        if "target" in card and target not in TARGETS:
            found.append(_v(bad, f"{at}.target must be one of {', '.join(TARGETS)}."))
        if card.get("range") is not None and not _int(card["range"], 0, MAX_RANGE):
            found.append(
                _v(bad, f"{at}.range must be null or a whole number from 0 to {MAX_RANGE}.")
            )
        if "effect" in card:
            found.extend(_check_effect(card["effect"], target, f"{at}.effect"))
    if not found and decks != {"spell", "tactics"}:
        found.append(
            _v(bad, "options.cards needs at least one card in each deck (spell and tactics).")
        )
    return found


def _check_effect(effect: Any, target: Any, at: str) -> list[Violation]:
    bad = "bad_cards"
    if type(effect) is not dict:
        return [_v(bad, f'{at} must be an object {{"kind", "amount", ...}}.')]
    kind = effect.get("kind")
    if type(kind) is not str or kind not in PRIMITIVES:
        return [_v(bad, f"{at}.kind must be one of {', '.join(PRIMITIVES)}.")]
    spec = PRIMITIVES[kind]
    found = [
        _v(bad, f"{at} has an unknown field {key[:40]!r} for {kind}.")
        for key in effect
        if key not in ("kind", "amount", *spec["extra"])
    ]
    if not _int(effect.get("amount"), 0, MAX_AMOUNT):
        found.append(_v(bad, f"{at}.amount must be a whole number from 0 to {MAX_AMOUNT}."))
    for key in spec["extra"]:
        if key in effect and not _int(effect[key], 0, _EXTRA_LIMIT[key]):
            found.append(
                _v(bad, f"{at}.{key} must be a whole number from 0 to {_EXTRA_LIMIT[key]}.")
            )
    if target is not None and target in TARGETS and target not in spec["targets"]:
        found.append(_v(bad, f"{at}.kind {kind} needs the target {' or '.join(spec['targets'])}."))
    return found


# -- who and what may be targeted ------------------------------------------------------------------
_Candidate = tuple[str, dict[str, Any] | None, dict[str, Any] | None]
"""A target named by id, with the unit or wall :func:`_find` finds for it."""


class _Ctx:
    """What every target check of one player needs, worked out once (from a listing's
    :class:`~rules.reign_supreme.survey.Survey`)."""

    __slots__ = (
        "survey",
        "player",
        "_own",
        "_own_units",
        "_visible_enemies",
        "_targetable",
        "_placeable",
    )

    def __init__(self, survey: Survey, player: PlayerId) -> None:
        self.survey = survey
        self.player = player
        self._own: list[Hex] | None = None
        self._own_units: list[_Candidate] | None = None
        self._visible_enemies: list[_Candidate] | None = None
        self._targetable: dict[str, list[_Candidate]] = {}
        self._placeable: dict[tuple[str, int | None, bool], list[_Candidate]] = {}

    @property
    def own_units(self) -> list[_Candidate]:
        """The player's units on the board, by id (:attr:`Survey.ids_on_board`'s order)."""
        found = self._own_units
        if found is None:
            units = self.survey.units
            found = self._own_units = [
                (uid, units[uid], None)
                for uid in sorted(self.survey.on_board_of(self.player), key=id_key)
            ]
        return found

    @property
    def visible_enemies(self) -> list[_Candidate]:
        """The other players' units on the board that are not hidden from the player
        (:func:`_hidden`: Stealth), by id. Asked only for a card on an enemy."""
        found = self._visible_enemies
        if found is None:
            p, survey = self.player, self.survey
            units, is_stealthy = survey.units, survey.is_stealthy
            found = self._visible_enemies = [
                (uid, unit, None)
                for uid in survey.ids_on_board
                if (unit := units[uid])["owner"] != p and not is_stealthy(uid)
            ]
        return found

    def targetable(self, state: State, kind: str) -> list[_Candidate]:
        """The targets of ``kind``, a card's ``target`` kind (:func:`_fits`), that are not
        hidden (:func:`_hidden`), with what :func:`_find` finds for each: the units on the
        board by id, then (for ``enemy_siege_or_wall``) the walls. Kept per kind: the cards of
        a hand share kinds."""
        found = self._targetable.get(kind)
        if found is None:
            if kind == "own_unit":
                found = self.own_units
            elif kind == "enemy_unit":
                found = self.visible_enemies
            elif kind == "any_unit":  # both sides, by id again
                found = sorted(self.own_units + self.visible_enemies, key=lambda c: id_key(c[0]))
            else:  # enemy_siege_or_wall: an enemy Siege unit (its statistics), then the walls
                assert kind == "enemy_siege_or_wall"  # a card without a target has none
                stats_of = self.survey.stats
                found = [c for c in self.visible_enemies if "siege" in stats_of[c[0]]["kinds"]]
                found += self._enemy_walls(state)
            self._targetable[kind] = found
        return found

    def _enemy_walls(self, state: State) -> list[_Candidate]:
        """The walls :func:`_find` finds by their ids that :func:`_fits`
        ``enemy_siege_or_wall`` and that are not hidden (:func:`_hidden`), in state order."""
        p, units, walls = self.player, self.survey.units, state["walls"]
        kept = memo(walls)
        ids = kept.get("card_wall_ids")
        if ids is None:
            ids = kept["card_wall_ids"] = frozenset(w["id"] for w in walls)
        if units.keys().isdisjoint(ids):
            # No unit has a wall's id (unit ids are u<n>, wall ids w<n>), so each wall is found
            # as the first of its id, and fits when it is another player's: that depends on the
            # walls alone, so it is kept with them (walls.memo: a wall changes only on a new
            # list), and a listing need not ask again of every Castle wall.
            key = ("card_enemy_walls", p)
            found = kept.get(key)
            if found is None:
                first = self.survey.walls_by_id
                found = kept[key] = [
                    (w["id"], None, first[w["id"]]) for w in walls if first[w["id"]]["owner"] != p
                ]
            return found
        found = []
        for w in walls:
            unit, wall = _find(state, w["id"], self.survey.walls_by_id)
            if _fits("enemy_siege_or_wall", p, state, unit, wall) and not _hidden(
                self, w["id"], unit, wall
            ):
                found.append((w["id"], unit, wall))
        return found

    def placeable(
        self, state: State, kind: str, reach: int | None, spell: bool
    ) -> list[_Candidate]:
        """Those of :meth:`targetable` ``kind`` that a card of range ``reach`` (a Spell card:
        ``spell``) reaches where they stand (:func:`_place_refusal` is None), in that order.
        Kept per kind, range and deck, all that :func:`_place_refusal` reads of a card: the
        cards of a hand that share them (the Spell cards on an enemy unit, the Tactics cards on
        your own) have the same. Its refusals for range and Silence are asked only where they
        can refuse a target (most cards have no range, and the board seldom an enemy Silence)."""
        key = (kind, reach, spell)
        found = self._placeable.get(key)
        if found is None:
            found = self.targetable(state, kind)
            if reach is not None:
                found = [c for c in found if _in_reach(self, reach, *c)]
            if spell and self.silence_anywhere:
                found = [c for c in found if not _in_silence(self, *c)]
            self._placeable[key] = found
        return found

    @property
    def silence_anywhere(self) -> bool:
        """Another player has an active Silence aura: else no space is silenced for the player
        (:meth:`Survey.silenced`)."""
        p = self.player
        return any(owner != p for _, owner in self.survey.silence)

    @property
    def own(self) -> list[Hex]:
        """The spaces of the player's units, read at the first question (a hand of cards for
        another player's turn often has none to play, or none with a range)."""
        found = self._own
        if found is None:
            units = self.survey.units
            found = self._own = [
                as_hex(units[uid]["at"]) for uid in self.survey.on_board_of(self.player)
            ]
        return found

    def silenced(self, h: Hex) -> bool:
        return self.survey.silenced(h, self.player)

    def within(self, spaces: tuple[Hex, ...], reach: int) -> bool:
        """One of the player's units stands within ``reach`` spaces of one of ``spaces``: the
        three cube coordinates (q, r, q + r) differ by at most ``reach`` (:func:`hexes.distance`
        is the largest difference), which refuses most units at the first."""
        own = self.own
        for q, r in spaces:
            s = q + r
            for oq, or_ in own:
                if -reach <= q - oq <= reach and -reach <= r - or_ <= reach:
                    if -reach <= s - oq - or_ <= reach:
                        return True
        return False


_TARGET_WORDS = {
    "own_unit": "one of your units on the board",
    "enemy_unit": "an enemy unit on the board",
    "any_unit": "a unit on the board",
    "enemy_siege_or_wall": "an enemy Siege unit or wall (Gate, Castle wall, Palisade)",
}


def _find(
    state: State, target: Any, walls: dict[str, dict[str, Any]] | None = None
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(unit, wall) named by ``target``: a unit on the board, else a wall; (None, None) if
    neither. ``walls``: the walls by id (:attr:`Survey.walls_by_id`), when at hand."""
    if target.__class__ is not str:
        return None, None
    unit = state["units"].get(target)
    if unit is not None and unit["at"] is not None:
        return unit, None
    return None, wall_by_id(state, target) if walls is None else walls.get(target)


def _fits(
    kind: str,
    p: PlayerId,
    state: State,
    unit: dict[str, Any] | None,
    wall: dict[str, Any] | None,
) -> bool:
    """The target is of ``kind``, a card's ``target`` kind: a unit of the side it takes
    (:func:`_side_fits`), a Siege unit for ``enemy_siege_or_wall``; or an enemy wall for
    ``enemy_siege_or_wall``."""
    if unit is not None:
        return _side_fits(kind, unit["owner"] != p) and (
            kind != "enemy_siege_or_wall" or "siege" in stats(state, unit)["kinds"]
        )
    return wall is not None and kind == "enemy_siege_or_wall" and wall["owner"] != p


def _side_fits(kind: str, enemy: bool) -> bool:
    """A unit of this side, another player's (``enemy``) or the player's own, may be a target of
    ``kind``: either for ``any_unit``, another player's for ``enemy_unit`` and
    ``enemy_siege_or_wall``, the player's own for the others."""
    return kind == "any_unit" or enemy == (kind in ("enemy_unit", "enemy_siege_or_wall"))


_REFUSALS: dict[str, tuple[str, str, str]] = {
    "unknown_target": (
        "unknown_target",
        "There is no unit or wall {target!r} on the board.",
        rulebook.CARDS,
    ),
    "wrong_kind": ("bad_card_target", "{name} targets {what}.", rulebook.CARDS),
    "stealth_target": (
        "stealth_target",
        "A Stealth unit cannot be specifically targeted.",
        rulebook.AURAS,
    ),
    "out_of_card_range": (
        "out_of_card_range",
        "{name} reaches only {reach} spaces from one of your units.",
        rulebook.CARDS,
    ),
    "silenced": (
        "silenced",
        "No spell can be cast into an enemy Silence aura.",
        rulebook.AURAS,
    ),
    "no_reinforcement_pin": (
        "no_reinforcement_pin",
        "Without a Deployment phase there is no Reinforcement pin to move.",
        rulebook.CARDS,
    ),
    "not_healable": (
        "bad_card_target",
        "Mechanical and Siege units cannot be healed (they are repaired).",
        rulebook.CARDS,
    ),
    "not_repairable": (
        "bad_card_target",
        "Only Siege and Mechanical units are repaired.",
        rulebook.CARDS,
    ),
    "no_pins": ("no_pins", "That unit has no pins to remove.", rulebook.CARDS),
    "unit_done": ("unit_done", "That unit's activation is over this turn.", rulebook.COMBAT),
    "not_shooting": ("bad_card_target", "Flaming Oil goes on a Shooting unit.", rulebook.CARDS),
    "unit_cannot_attack": (
        "unit_cannot_attack",
        "That unit cannot make another such attack this turn.",
        rulebook.CARDS,
    ),
    "attacked_already": (
        "attacked_already",
        "Forced March needs a unit that has not attacked.",
        rulebook.COMBAT,
    ),
    "not_moved": (
        "not_moved",
        "Forced March lets a unit that has moved move again; this one has not moved.",
        rulebook.CARDS,
    ),
    "ensnared": ("ensnared", "An Ensnared unit cannot move this turn.", rulebook.ABILITIES),
    "not_packed": ("not_packed", "A Packed unit moves only while packed.", rulebook.PACKED),
}
"""Each refusal of a card's target (:func:`_refusal`): its violation code, message (formatted
with the card's ``name``, its target kind in words ``what``, its ``reach`` and the ``target``
named) and rule. A listing only asks whether a target is refused, so the refusals are keys,
and the message is written only for a move that is checked (:func:`_violation`)."""


def _violation(key: str, card: dict[str, Any], target: Any) -> Violation:
    """The violation of refusal ``key`` (:data:`_REFUSALS`) of ``card`` at ``target``."""
    code, text, rule = _REFUSALS[key]
    return _v(
        code,
        text.format(
            name=card["name"],
            what=_TARGET_WORDS.get(card["target"]),
            reach=card["range"],
            target=str(target)[:40],
        ),
        rule,
    )


def _unmet(
    state: State,
    card: dict[str, Any],
    p: PlayerId,
    unit: dict[str, Any] | None,
    s: dict[str, Any] | None = None,
) -> str | None:
    """What the primitive asks of its target beyond the card's ``target`` kind, as the key of
    the refusal (:data:`_REFUSALS`; None: fine): a Reinforcement pin for ``reinforce``, else what
    :data:`_UNIT_NEEDS` asks of a target unit. ``s``: the unit's statistics, when at hand."""
    kind = card["effect"]["kind"]
    if kind == "reinforce":
        if state["boards"][p]["reinforcement_pin"] is None:
            return "no_reinforcement_pin"
        return None
    needs = _UNIT_NEEDS.get(kind)
    if needs is None or unit is None:
        return None
    return needs(state, unit, stats(state, unit) if s is None else s)


def _heal_needs(state: State, unit: dict[str, Any], s: dict[str, Any]) -> str | None:
    """Heal: not a Mechanical or Siege unit ("cannot be healed"), and one with pins."""
    kinds = s["kinds"]
    if "mechanical" in kinds or "siege" in kinds:
        return "not_healable"
    return "no_pins" if unit["pins"] == 0 else None


def _repair_needs(state: State, unit: dict[str, Any], s: dict[str, Any]) -> str | None:
    """Repair: a Siege or Mechanical unit ("can be repaired ... with cards"), with pins."""
    kinds = s["kinds"]
    if "mechanical" not in kinds and "siege" not in kinds:
        return "not_repairable"
    return "no_pins" if unit["pins"] == 0 else None


def _haste_needs(state: State, unit: dict[str, Any], s: dict[str, Any]) -> str | None:
    """Haste: a unit whose activation is not over."""
    return "unit_done" if unit["done"] else None


def _ambush_needs(state: State, unit: dict[str, Any], s: dict[str, Any]) -> str | None:
    """Ambush: a unit that can attack (:func:`~rules.reign_supreme.combat.can_attack`)."""
    return None if can_attack(state, unit) else "unit_cannot_attack"


def _flaming_oil_needs(state: State, unit: dict[str, Any], s: dict[str, Any]) -> str | None:
    """Flaming Oil: a Shooting unit that can still shoot (it can attack, and has made no other
    kind of attack this turn)."""
    if "shooting" not in s["kinds"]:
        return "not_shooting"
    if not can_attack(state, unit) or unit["mode"] not in (None, "shoot"):
        return "unit_cannot_attack"
    return None


def _forced_march_needs(state: State, unit: dict[str, Any], s: dict[str, Any]) -> str | None:
    """Forced March: a unit that has moved and not attacked, neither Ensnared nor unpacked."""
    if unit["attacked"]:
        return "attacked_already"
    if not unit["moved"]:
        return "not_moved"
    if unit["ensnared"]:
        return "ensnared"
    if unit.get("packing", "packed") != "packed":
        return "not_packed"
    return None


_UNIT_NEEDS: dict[str, Callable[[State, dict[str, Any], dict[str, Any]], str | None]] = {
    "heal": _heal_needs,
    "repair": _repair_needs,
    "haste": _haste_needs,
    "ambush": _ambush_needs,
    "flaming_oil": _flaming_oil_needs,
    "forced_march": _forced_march_needs,
}
"""What each primitive asks of its target unit beyond the card's ``target`` kind (its unit and
statistics -> the refusal's key, or None). The others (damage, offence, defence, weaken,
sabotage) ask nothing: :func:`_unmet` refuses none of their targets."""


def _target_problem(state: State, ctx: _Ctx, card: dict[str, Any], target: Any) -> Violation | None:
    """Why ``card`` cannot be played at ``target`` now (None: it can)."""
    p = ctx.player
    if card["target"] == "none":
        if target is not None:
            return _v("bad_card_target", f"{card['name']} takes no target: give target null.")
        key = _unmet(state, card, p, None)
    elif target is None:
        return _v(
            "card_needs_target", f"{card['name']} needs a target: {_TARGET_WORDS[card['target']]}."
        )
    else:
        key = _refusal(state, ctx, card, target, *_find(state, target))
    return None if key is None else _violation(key, card, target)


def _refusal(
    state: State,
    ctx: _Ctx,
    card: dict[str, Any],
    target: Any,
    unit: dict[str, Any] | None,
    wall: dict[str, Any] | None,
) -> str | None:
    """Why ``card`` cannot be played at ``target`` (not None), with what :func:`_find` found for
    it: the key of the refusal (:data:`_REFUSALS`), or None. A target of the card's kind
    (:func:`_fits`) is refused for where it stands (:func:`_place_refusal`), then for what the
    effect asks of it (:func:`_unmet`)."""
    if unit is None and wall is None:
        return "unknown_target"
    if not _fits(card["target"], ctx.player, state, unit, wall):
        return "wrong_kind"
    return _place_refusal(
        ctx, card["range"], card["deck"] == "spell", target, unit, wall
    ) or _unmet(state, card, ctx.player, unit, None if unit is None else ctx.survey.stats[target])


def _place_refusal(
    ctx: _Ctx,
    reach: int | None,
    spell: bool,
    target: Any,
    unit: dict[str, Any] | None,
    wall: dict[str, Any] | None,
) -> str | None:
    """Why a card of range ``reach`` (a Spell card: ``spell``) cannot reach a target of its kind
    where it stands: an enemy Stealth unit (:func:`_hidden`), out of the card's range of the
    player's units (:func:`_in_reach`), or (a Spell card) within an enemy Silence
    (:func:`_in_silence`). The key of the first refusal (:data:`_REFUSALS`), or None."""
    if _hidden(ctx, target, unit, wall):
        return "stealth_target"
    if reach is not None and not _in_reach(ctx, reach, target, unit, wall):
        return "out_of_card_range"
    if spell and _in_silence(ctx, target, unit, wall):
        return "silenced"
    return None


def _spaces(unit: dict[str, Any] | None, wall: dict[str, Any] | None) -> tuple[Hex, ...]:
    """The space of a target unit, or the two of a target wall."""
    if unit is not None:
        at = unit["at"]
        return ((at[0], at[1]),)
    assert wall is not None  # refused by _refusal when neither is on the board
    return wall_spaces(wall)


def _hidden(
    ctx: _Ctx, target: Any, unit: dict[str, Any] | None, wall: dict[str, Any] | None
) -> bool:
    """An enemy Stealth unit: "cannot be specifically targeted" (seed, Stealth)."""
    return unit is not None and unit["owner"] != ctx.player and ctx.survey.is_stealthy(target)


def _in_reach(
    ctx: _Ctx, reach: int, target: Any, unit: dict[str, Any] | None, wall: dict[str, Any] | None
) -> bool:
    """The target (a space of a wall) is within ``reach`` spaces of one of the player's units."""
    return ctx.within(_spaces(unit, wall), reach)


def _in_silence(
    ctx: _Ctx, target: Any, unit: dict[str, Any] | None, wall: dict[str, Any] | None
) -> bool:
    """The target (a space of a wall) is within an enemy Silence: "Spells cannot be cast ...
    into a silence aura"."""
    return any(map(ctx.silenced, _spaces(unit, wall)))


def _catalog(state: State) -> dict[str, dict[str, Any]]:
    return catalog_of(state)


OWN_TURN_EFFECTS = ("haste", "ambush", "flaming_oil", "forced_march")
"""Effects on a unit's activation this turn: their cards are played only in your own Combat phase
(**Decision**: in another player's turn your units have no activation for them to act on)."""


def _may_play(state: State, player: PlayerId) -> bool:
    """Seed: "Any player can play cards only this phase" (Combat); ruling RS 10: in every Combat
    phase, whoever's, while no declaration awaits answers."""
    return (
        state["status"] == "in_progress"
        and state["phase"] == "combat"
        and state["pending"] is None
        and player not in state["defeated"]
    )


def _off_turn_ok(state: State, player: PlayerId, card: dict[str, Any]) -> bool:
    return state["turn"] == player or card["effect"]["kind"] not in OWN_TURN_EFFECTS


def card_moves(state: State, player: PlayerId, survey: Survey) -> list[Move]:
    """Every ``play`` move ``player`` may make now: in any Combat phase, nothing pending (in
    another player's, no card of :data:`OWN_TURN_EFFECTS`); each card of the hand (hand order)
    at each legal target (units by id, then walls), or null."""
    if not _may_play(state, player) or not state["hands"][player]:
        return []
    catalog = survey.catalog
    ctx = _Ctx(survey, player)
    # The two copies of a card are one definition (the catalog's same dict): the targets of
    # the second are those of the first.
    targets_of: dict[int, list[str | None]] = {}
    out: list[Move] = []
    for cid in state["hands"][player]:
        card = catalog[cid]
        targets = targets_of.get(id(card))
        if targets is None:
            targets = targets_of[id(card)] = _targets(state, ctx, card)
        out += [{"player": player, "type": "play", "card": cid, "target": t} for t in targets]
    return out


def _targets(state: State, ctx: _Ctx, card: dict[str, Any]) -> list[str | None]:
    """Where ``card`` may be played now (:func:`_target_problem` is None): nowhere for a card of
    :data:`OWN_TURN_EFFECTS` outside the player's turn; null for a card without a target; else
    each target of its kind (:meth:`_Ctx.placeable`) that is not refused."""
    if not _off_turn_ok(state, ctx.player, card):
        return []
    if card["target"] == "none":
        return [None] if _unmet(state, card, ctx.player, None) is None else []
    # :func:`_refusal`'s refusals of a target of the card's kind: where it stands, shared by
    # the cards of the same kind, range and deck (:meth:`_Ctx.placeable`), then what the effect
    # asks of it (:func:`_unmet`: only :data:`_UNIT_NEEDS` asks anything of a unit).
    found = ctx.placeable(state, card["target"], card["range"], card["deck"] == "spell")
    needs = _UNIT_NEEDS.get(card["effect"]["kind"])
    if needs is None:
        return [t for t, _, _ in found]
    stats_of = ctx.survey.stats
    return [t for t, unit, _ in found if unit is None or needs(state, unit, stats_of[t]) is None]


def check_play(state: State, move: Move) -> list[Violation]:
    """Why a ``play`` move is illegal ([] when it is legal): ``not_in_hand``, ``own_turn_card``
    (outside your turn, ruling RS 10), then the target (``card_needs_target``, ``unknown_target``,
    ``bad_card_target``, ``stealth_target``, ``out_of_card_range``, ``silenced``) and what the
    effect needs (``no_pins``, ``unit_done``, ``unit_cannot_attack``, ``attacked_already``,
    ``not_moved``, ``ensnared``, ``not_packed``, ``no_reinforcement_pin``)."""
    p = move["player"]
    if not _may_play(state, p):
        return [
            _v(
                "not_your_turn",
                "Cards are played in a Combat phase, while nothing waits for an answer.",
                rulebook.COMBAT,
            )
        ]
    cid = move["card"]
    if cid.__class__ is not str or cid not in state["hands"][p]:
        return [_v("not_in_hand", f"You hold no card {str(cid)[:40]!r}.")]
    card = _catalog(state)[cid]
    if not _off_turn_ok(state, p, card):
        return [
            _v(
                "own_turn_card",
                f"{card['name']} acts on a unit's activation: it is played only in your own "
                "Combat phase.",
                rulebook.OUTSIDE_YOUR_TURN,
            )
        ]
    problem = _target_problem(state, _Ctx(Survey(state, geometry(state)), p), card, move["target"])
    return [] if problem is None else [problem]


# -- playing ---------------------------------------------------------------------------------------
def declare(state: State, geo: Geometry, move: Move) -> tuple[dict[str, Any], list[Event]]:
    """The card is played: from the hand to its deck's discard pile at once (even if it is then
    countered), a public ``card_played`` event, and the pending entry to resolve."""
    p, cid, target = move["player"], move["card"], move["target"]
    card = _catalog(state)[cid]
    state["hands"][p].remove(cid)
    state["discards"][card["deck"]].append(cid)
    unit, wall = _find(state, target) if target is not None else (None, None)
    at = (
        list(unit["at"])
        if unit is not None
        else (list(wall["edge"][0]) if wall is not None else None)
    )
    entry = {
        "kind": "card",
        "player": p,
        "move": dict(move),
        "asked": [],
        "spell": card["deck"] == "spell",
        "at": at,
        "target_unit": target if unit is not None else None,
    }
    return entry, [
        {"type": "card_played", "player": p, "card": cid, "name": card["name"], "target": target}
    ]


def resolve(state: State, geo: Geometry, entry: dict[str, Any]) -> list[Event]:
    """Carry out a card nobody countered: its effect, if the target is still there and still fits
    (else ``card_fizzled``); a target that teleported away makes it fizzle too."""
    move = entry["move"]
    p, cid, target = entry["player"], move["card"], move["target"]
    card = _catalog(state)[cid]
    fizzle = {"type": "card_fizzled", "player": p, "card": cid}
    if entry.get("evaded"):
        return [{**fizzle, "reason": "evaded"}]
    if p in state["defeated"]:
        return [{**fizzle, "reason": "player_out"}]
    unit, wall = _find(state, target) if target is not None else (None, None)
    if target is not None:
        if unit is None and wall is None:
            return [{**fizzle, "reason": "target_gone"}]
        if (
            not _fits(card["target"], p, state, unit, wall)
            or _unmet(state, card, p, unit) is not None
        ):
            return [{**fizzle, "reason": "bad_target"}]
    elif _unmet(state, card, p, None) is not None:
        return [{**fizzle, "reason": "bad_target"}]
    return _APPLY[card["effect"]["kind"]](state, p, cid, card, target, unit, wall)


def _card_hit(
    state: State, p: PlayerId, cid: str, card: dict[str, Any], uid: str, amount: int
) -> list[Event]:
    unit = state["units"][uid]
    hp = stats(state, unit)["hp"]
    events: list[Event] = [
        {
            "type": "card_hit",
            "player": p,
            "card": cid,
            "unit": uid,
            "owner": unit["owner"],
            "damage": amount,
            "pins": min(hp, unit["pins"] + amount),
            "hp": hp,
        }
    ]
    return events + hit(state, p, uid, amount, card["id"])


def _damage(
    state: State,
    p: PlayerId,
    cid: str,
    card: dict[str, Any],
    target: str,
    unit: dict[str, Any],
    wall: Any,
) -> list[Event]:
    """``amount`` pins on the target, then ``splash`` on every other unit next to its space."""

    centre = as_hex(unit["at"])
    events = _card_hit(state, p, cid, card, target, card["effect"]["amount"])
    splash = card["effect"].get("splash", 0)
    if splash:
        occ = occupancy(state)
        for n in neighbours(centre):
            vid = occ.get(n)
            if vid is None or vid == target:
                continue
            events.append(
                {
                    "type": "splashed",
                    "player": p,
                    "unit": vid,
                    "owner": state["units"][vid]["owner"],
                    "source": card["id"],
                    "damage": splash,
                }
            )
            events.extend(hit(state, p, vid, splash, card["id"]))
    return events


def _mend(
    state: State,
    p: PlayerId,
    cid: str,
    card: dict[str, Any],
    target: str,
    unit: dict[str, Any],
    wall: Any,
) -> list[Event]:
    """Heal and Repair: take up to ``amount`` pins off the unit."""
    removed = min(unit["pins"], card["effect"]["amount"])
    unit["pins"] -= removed
    kind = "card_healed" if card["effect"]["kind"] == "heal" else "card_repaired"
    return [
        {
            "type": kind,
            "player": p,
            "card": cid,
            "unit": target,
            "owner": unit["owner"],
            "pins_removed": removed,
            "pins": unit["pins"],
        }
    ]


def _lasting(
    state: State,
    p: PlayerId,
    cid: str,
    card: dict[str, Any],
    target: str,
    unit: dict[str, Any],
    wall: Any,
) -> list[Event]:
    """An effect on the Action Board: offence, defence and weaken for ``turns``; haste, ambush
    and flaming oil for this turn."""
    effect = card["effect"]
    left = (
        effects.duration(state, p, effect.get("turns", 0))
        if effect["kind"] in ("offence", "defence", "weaken")
        else 1
    )
    effects.add_effect(state, p, effect["kind"], target, left, effect["amount"])
    return [
        {
            "type": "effect_added",
            "player": p,
            "card": cid,
            "unit": target,
            "owner": unit["owner"],
            "effect": effect["kind"],
            "value": effect["amount"],
            "left": left,
        }
    ]


def _forced_march(
    state: State,
    p: PlayerId,
    cid: str,
    card: dict[str, Any],
    target: str,
    unit: dict[str, Any],
    wall: Any,
) -> list[Event]:
    """The unit's movement is fresh: it has not moved, its activation is open again."""
    unit["moved"] = False
    unit["steps"] = 0
    unit["charge"] = False
    unit["done"] = False
    return [{"type": "unit_may_move_again", "player": p, "card": cid, "unit": target}]


def _reinforce(
    state: State, p: PlayerId, cid: str, card: dict[str, Any], target: Any, unit: Any, wall: Any
) -> list[Event]:

    board = state["boards"][p]
    gained = advance_reinforcement(board, card["effect"]["amount"])
    return [
        {
            "type": "reinforcement_pin_moved",
            "player": p,
            "reinforcement_pin": board["reinforcement_pin"],
            "deploys_gained": gained,
        }
    ]


def _sabotage(
    state: State,
    p: PlayerId,
    cid: str,
    card: dict[str, Any],
    target: str,
    unit: dict[str, Any] | None,
    wall: dict[str, Any] | None,
) -> list[Event]:
    """Pins on an enemy Siege unit, or hit points off an enemy wall (destroyed at 0)."""
    amount = card["effect"]["amount"]
    if unit is not None:
        return _card_hit(state, p, cid, card, target, amount)
    assert wall is not None
    wall = own_wall(state, wall)
    wall["hp"] = max(0, wall["hp"] - amount)
    events: list[Event] = [
        {
            "type": "wall_sabotaged",
            "player": p,
            "card": cid,
            "wall": wall["id"],
            "kind": wall["kind"],
            "damage": amount,
            "hp": wall["hp"],
        }
    ]
    if wall["hp"] == 0:
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
    return events


_APPLY = {
    "damage": _damage,
    "heal": _mend,
    "repair": _mend,
    "offence": _lasting,
    "defence": _lasting,
    "weaken": _lasting,
    "haste": _lasting,
    "ambush": _lasting,
    "flaming_oil": _lasting,
    "forced_march": _forced_march,
    "reinforce": _reinforce,
    "sabotage": _sabotage,
}
