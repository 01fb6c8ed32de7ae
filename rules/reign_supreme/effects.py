"""Effects with a duration on the Action Board (seed: Global Cooldowns - "Effects: Cards and other
abilities may have durations on them which can be managed under Effects"; ruling RS 7).

A card that lasts puts an entry on the board of the player who played it
(``state["boards"][p]["effects"]``): ``{"effect": kind, "unit": uid, "left": n, "value": v}``.
The Cooldown phase (:mod:`cooldown`) takes one notch off ``left`` at the start of every
player's turn and drops the entry at 0, so ``left = 1`` lasts "this turn" and ``left`` = the
turns that start before the player's own next one lasts "until your next turn" (:func:`duration`;
a defeat shortens it by the loser's turns, :func:`skip_the_defeated`). ``value`` is the card's amount,
always positive (Weaken *subtracts* its value). Effects stack: two entries add up.

| kind | read by | what it does |
| --- | --- | --- |
| ``offence`` | combat | +value to the unit's offence |
| ``defence`` | combat | +value to the unit's defence (not Siege: "no armor modifications") |
| ``weaken`` | combat | −value to the unit's offence; an **affliction** (Healing's cure removes it) |
| ``haste`` | movement | +value spaces of movement |
| ``ambush`` | combat | +value to the unit's offence, used up by its next melee or shooting attack |
| ``flaming_oil`` | combat | the unit's next shooting attack also deals value to every unit next to its target; used up by that shot, and does nothing with Volley ("The Flaming Oil card does not stack with the mangonel ability") |
"""  # noqa: E501 - a Markdown table above keeps one row a line

from __future__ import annotations

from typing import Any

from rules.engine_types import Event, PlayerId, State

EFFECT_KINDS = ("offence", "defence", "weaken", "haste", "ambush", "flaming_oil")
"""Every kind of effect an Action Board may hold."""
AFFLICTIONS = ("weaken",)
"""Effects that are afflictions (cured by Healing); Ensnare is a unit flag, handled by spells."""

__all__ = [
    "EFFECT_KINDS",
    "AFFLICTIONS",
    "offence_modifiers",
    "defence_modifiers",
    "movement_bonus",
    "after_attack",
    "oil_splash",
    "afflicted",
    "cure",
    "remove_unit_effects",
    "add_effect",
    "entries",
    "duration",
    "skip_the_defeated",
]


def entries(state: State, uid: str, kind: str | None = None) -> list[dict[str, Any]]:
    """Every effect on unit ``uid`` (of ``kind``, when given), from every player's board in seat
    order. (A loop rather than a comprehension: asked of every unit at every listing, and the
    boards seldom hold any effect.)"""
    boards = state["boards"]
    found = []
    for p in state["players"]:
        for e in boards[p]["effects"]:
            if e["unit"] == uid and (kind is None or e["effect"] == kind):
                found.append(e)
    return found


def duration(state: State, player: PlayerId, turns: int) -> int:
    """``left`` for an effect ``player`` starts now that lasts ``turns`` (rules doc, Durations):
    1 ("this turn") for 0; else the turns that start until the start of ``player``'s ``turns``-th
    next turn, one Cooldown phase each: those of the seats after the turn player's, round to
    ``player`` (a whole round in ``player``'s own turn), then a whole round per further turn.
    Played outside one's own turn (ruling RS 10), "until your next turn" so ends at the start of
    one's own next turn, not a round after the turn it was played in."""
    if turns <= 0:
        return 1
    ahead = _turns_ahead(state)
    if player not in ahead:  # out of the game: the effect leaves with its board
        return 1
    return ahead.index(player) + 1 + (turns - 1) * len(ahead)


def skip_the_defeated(state: State, loser: PlayerId) -> None:
    """``loser`` leaves the game in this turn (call it before they are marked defeated): their
    turns no longer start, so every effect ends at the start of the same turn as before, or of
    the first turn after it when that turn was the loser's. Mutates ``state``."""
    if state["turn"] is None:  # before Combat: no effect has started yet
        return
    ahead = _turns_ahead(state)
    for board in state["boards"].values():
        for e in board["effects"]:
            before_its_end = (ahead[i % len(ahead)] for i in range(e["left"] - 1))
            e["left"] -= sum(1 for p in before_its_end if p == loser)


def _turns_ahead(state: State) -> list[PlayerId]:
    """The players still in the game in the order their next turns start: those seated after
    the turn player, round to the turn player (who may have just left the game: conceded, say,
    while an answer to their move was still being resolved)."""
    players = state["players"]
    at = players.index(state["turn"]) + 1
    return [p for p in players[at:] + players[:at] if p not in state["defeated"]]


def add_effect(
    state: State, player: str, kind: str, uid: str, left: int, value: int
) -> dict[str, Any]:
    """Put an effect on ``player``'s Action Board; returns the entry."""
    entry = {"effect": kind, "unit": uid, "left": left, "value": value}
    state["boards"][player]["effects"].append(entry)
    return entry


def offence_modifiers(state: State, uid: str) -> list[dict[str, Any]]:
    """The unit's offence modifiers from effects, ``{"source": kind, "value"}`` each: Offence and
    Ambush add their value, Weaken takes it off."""
    out = []
    for e in entries(state, uid):
        if e["effect"] in ("offence", "ambush"):
            out.append({"source": e["effect"], "value": e["value"]})
        elif e["effect"] == "weaken":
            out.append({"source": "weaken", "value": -e["value"]})
    return out


def defence_modifiers(state: State, uid: str) -> list[dict[str, Any]]:
    """The unit's defence modifiers from Defence effects (combat leaves them out for Siege)."""
    return [{"source": "defence", "value": e["value"]} for e in entries(state, uid, "defence")]


def movement_bonus(state: State, uid: str) -> int:
    """Extra spaces of movement from Haste effects."""
    bonus = 0
    for e in entries(state, uid, "haste"):
        bonus += e["value"]
    return bonus


def _drop(state: State, uid: str, kinds: tuple[str, ...]) -> list[Event]:
    events: list[Event] = []
    for p in state["players"]:
        board = state["boards"][p]
        keep = []
        for e in board["effects"]:
            if e["unit"] == uid and e["effect"] in kinds:
                events.append(
                    {"type": "effect_ended", "player": p, "unit": uid, "effect": e["effect"]}
                )
            else:
                keep.append(e)
        board["effects"] = keep
    return events


def after_attack(state: State, uid: str, mode: str) -> None:
    """After unit ``uid`` attacked (``mode`` melee or shoot): its Ambush is used up, and so is its
    Flaming Oil after a shot (with or without Volley)."""
    _drop(state, uid, ("ambush", "flaming_oil") if mode == "shoot" else ("ambush",))


def oil_splash(state: State, uid: str) -> int:
    """The damage a shot by ``uid`` deals to every unit next to its target from Flaming Oil (0
    without). Combat asks only for shots that did not declare Volley."""
    return sum(e["value"] for e in entries(state, uid, "flaming_oil"))


def afflicted(state: State, uid: str) -> bool:
    """Whether the unit suffers an affliction effect (Weaken)."""
    return any(e["effect"] in AFFLICTIONS for e in entries(state, uid))


def cure(state: State, uid: str) -> list[Event]:
    """Remove the unit's afflictions: an ``effect_ended`` event for each."""
    return _drop(state, uid, AFFLICTIONS)


def remove_unit_effects(state: State, uid: str) -> None:
    """A unit leaves the game: its effects go with it."""
    for board in state["boards"].values():
        board["effects"] = [e for e in board["effects"] if e.get("unit") != uid]
