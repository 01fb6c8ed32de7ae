"""Who may act now, and what a player may do outside their own turn (ruling RS 10).

Seed, Field Spells: "A unit can cast a Field Spell during any Combat Phase, but Combat Field
Spells (Blast/Cone/Arc) can only be cast during the casting unit's move"; The Turn: "Any player
can play cards only this phase". Ruling RS 10: during every Combat phase, every player, not only
the turn player, may cast a field spell other than Blast, Cone and Arc with a unit whose spell is
ready, and may play a card, at any moment when no declaration awaits answers. Nobody is waited
for: the turn player may go on at any time, and the others' chance lasts until that Combat phase
ends.

So in a Combat phase with nothing pending, ``active_players`` is the turn player first, then, in
seat order from the turn player's left, every other player still in the game who has a spell to
cast now or holds a card (:func:`combat_actors`; read from public information only). They are never
waited for: the game goes on with the turn player's
moves, and their chance ends with the turn player's ``end_turn``.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.engine import seats_after
from rules.engine_types import Move, PlayerId, State
from rules.reign_supreme.board import Geometry, stats
from rules.reign_supreme.cards import card_moves
from rules.reign_supreme.spells import FIELD_SPELLS, can_cast, cast_moves, ready
from rules.reign_supreme.survey import Survey

__all__ = ["off_turn_moves", "combat_actors", "refresh_actors", "waiting_on"]


def _casters(state: State, player: PlayerId, survey: Survey | None = None) -> Iterator[str]:
    """``player``'s units on the board with Teleport or Healing ready (in ``state["units"]``
    order). ``survey``:
    a Survey of ``state`` when one is at hand with its statistics (a listing's); without one,
    each unit's statistics are looked up alone (most units have no such spell)."""
    units = state["units"]
    if survey is None:
        stats_of = None
        ids = [uid for uid, u in units.items() if u["owner"] == player and u["at"] is not None]
    else:
        stats_of, ids = survey.stats, survey.on_board_of(player)
    for uid in ids:
        spells = (stats(state, units[uid]) if stats_of is None else stats_of[uid])["spells"]
        if spells and any(ready(state, uid, s) for s in FIELD_SPELLS if s in spells):
            yield uid


def off_turn_moves(state: State, survey: Survey, player: PlayerId) -> list[Move]:
    """``player``'s moves in another player's Combat phase (nothing pending): Teleport or Healing
    with each of their units whose spell is ready (in ``state["units"]`` order), then their
    cards."""
    return [
        m for uid in _casters(state, player, survey) for m in cast_moves(state, survey, player, uid)
    ] + card_moves(state, player, survey)


def _may_act(state: State, survey: Survey, player: PlayerId) -> bool:
    """``player`` has a Teleport or Healing to cast now, or holds a card. **Decision:** holding a
    card is enough, whether or not one can be played now: the hand count is public but the hand
    is not, and ``active_players`` is public, so it must not tell which cards a player holds
    (such a player may then have nothing but ``concede`` to do, and is not waited for either).
    ``survey``: a Survey of ``state``, asked only once a unit with such a spell is found."""
    return bool(state["hands"][player]) or any(
        can_cast(state, survey, player, uid) for uid in _casters(state, player)
    )


def combat_actors(state: State, geo: Geometry) -> list[PlayerId]:
    """The active players of a Combat phase with nothing pending: the turn player, then each other
    player still in the game (seat order from the turn player's left) who may act
    (:func:`_may_act`)."""
    turn = state["turn"]
    others = seats_after(state["players"], turn)
    survey = Survey(state, geo)  # one for every player asked; it surveys only what is asked
    return [turn] + [p for p in others if p not in state["defeated"] and _may_act(state, survey, p)]


def refresh_actors(state: State, geo: Geometry) -> None:
    """Set ``active_players`` for a Combat phase with nothing pending (mutates ``state``); any
    other state keeps its own."""
    if state["status"] == "in_progress" and state["phase"] == "combat" and state["pending"] is None:
        state["active_players"] = combat_actors(state, geo)


def waiting_on(state: State) -> list[PlayerId]:
    """The one player the game waits on: ``active_players[0]`` (the turn player, or the player a
    declaration asks). The others listed in a Combat phase (RS 10) may act but "are never waited
    for: the game goes on with the turn player's moves"; ``[]`` once finished."""
    if state["status"] == "finished":
        return []
    return list(state["active_players"][:1])
