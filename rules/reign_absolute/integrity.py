"""Integrity of a state a client sends back (meaning, not shape).

The schemas have already checked the shape. This module checks that the state could have been
reached by playing (rules doc, "Integrity"): valid catalogues, every unit and every card in
exactly one place, units only in their owner's places, one unit per cell, cells in range,
eradicated players without units and everyone else with a Liege in play, and phase, turn,
Doom, bonus, active players and outcome consistent with each other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.engine import seats_after
from rules.engine_types import STATUSES, State, Violation
from rules.integrity import common_problems, guarded, is_int, raise_problems
from rules.reign_absolute import rulebook
from rules.reign_absolute.content import build_cards, build_races, default_catalogs
from rules.reign_absolute.flow import END_REASONS, bonus_cells, scores, turn_limit_winners
from rules.reign_absolute.grid import COORD_LIMIT, neighbours, occupancy
from rules.reign_absolute.state import (
    MAX_MOVE_COUNT,
    MAX_TURN_LIMIT,
    MIN_TURN_LIMIT,
    SCHEMA_VERSION,
)

__all__ = ["check_state", "state_problems", "PHASES", "phase_problems"]

PHASES = ("race_selection", "placement", "play", "finished")
"""The phases of a game, in order: the one list of them (``schemas/`` documents ``phase`` with
it)."""
_DEFAULT = default_catalogs()


def _v(code: str, message: str) -> Violation:
    return Violation(code, message, rulebook.INTEGRITY)


def check_state(state: State) -> None:
    """Raise InvalidState listing the problems found; return quietly for a sound state."""
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
    found.extend(_scalars(state, players))
    for field in ("race_of", "unit_decks", "unit_discards"):
        if not isinstance(state.get(field), dict) or set(state[field]) != set(players):
            found.append(
                _v("bad_players", f"state.{field} must have exactly one entry per player.")
            )
    if found:
        return found
    found.extend(_catalogues(state, players))
    if found:
        return found
    if not _placed_soundly(state, players):
        found.extend(_places(state, players))
        if found:
            return found
    found.extend(_reinforcements(state))
    if found:
        return found
    return _phase(state, players)


def _reinforcements(state: State) -> list[Violation]:
    """The cards under units, on a state whose cards are each in one place: combat cards only,
    and none before play. Seed: Another Turn and Supply Drop "are not placed under Unit cards
    ... they cannot be stored for later use"; cards go under units only once every unit is placed
    (a post-Setup task, then play), so none lies under one in race selection or placement."""
    cards = state["cards"]
    under = [c for entry in state["battlefield"].values() for c in entry["reinforcements"]]
    if under and state["phase"] in ("race_selection", "placement"):
        return [
            _v(
                "early_reinforcement",
                f"No card lies under a unit in phase {state['phase']!r}: cards go under units "
                "once every unit is placed.",
            )
        ]
    if any(cards[c]["kind"] != "combat" for c in under):
        return [
            _v(
                "turn_card_under_unit",
                "Only combat cards lie under units: a turn card is resolved or discarded when "
                "drawn, never stored.",
            )
        ]
    return []


def _scalars(state: State, players: list[str]) -> list[Violation]:
    found: list[Violation] = []
    phase, status = state.get("phase"), state.get("status")
    if phase not in PHASES:
        found.append(_v("bad_phase", f"state.phase must be one of {', '.join(PHASES)}."))
    if status not in STATUSES or (
        phase in PHASES and (status == "finished") != (phase == "finished")
    ):
        found.append(
            _v("inconsistent_status", 'state.status is "finished" exactly when state.phase is.')
        )
    limit = state.get("turn_limit")
    if not is_int(limit) or not MIN_TURN_LIMIT <= limit <= MAX_TURN_LIMIT:
        found.append(
            _v(
                "bad_turn_limit",
                f"state.turn_limit must be a whole number from {MIN_TURN_LIMIT} "
                f"to {MAX_TURN_LIMIT}.",
            )
        )
    active = state.get("active_players")
    if not isinstance(active, list) or any(p not in players for p in active) or len(active) > 1:
        found.append(
            _v(
                "bad_active_players",
                "state.active_players must list at most one player of the game.",
            )
        )
    eradicated = state.get("eradicated")
    if (
        not isinstance(eradicated, list)
        or any(p not in players for p in eradicated)
        or len(set(eradicated)) != len(eradicated)
    ):
        found.append(
            _v(
                "bad_eradicated",
                "state.eradicated must list players of the game, each at most once.",
            )
        )
    return found


def _catalogues(state: State, players: list[str]) -> list[Violation]:
    """The races, units and cards are a valid content set (the default, or custom content that
    passes the same checks as ``options``)."""
    races, units, cards = state.get("races"), state.get("units"), state.get("cards")
    if races == _DEFAULT["races"] and units == _DEFAULT["units"] and cards == _DEFAULT["cards"]:
        return []
    if not isinstance(races, dict) or not isinstance(units, dict) or not isinstance(cards, dict):
        return [_v("bad_catalogue", "state.races, state.units and state.cards must be objects.")]
    spec = []
    for rid, race in races.items():
        if (
            not isinstance(race, dict)
            or not isinstance(race.get("units"), list)
            or set(race) != {"name", "units", "actions", "setup"}
        ):
            return [
                _v("bad_catalogue", f"state.races.{rid} must be {{name, units, actions, setup}}.")
            ]
        members = []
        for uid in race["units"]:
            unit = units.get(uid) if isinstance(uid, str) else None
            if not isinstance(unit, dict) or unit.get("race") != rid:
                return [
                    _v(
                        "bad_catalogue",
                        f"state.races.{rid}.units lists {uid!r}, which is not a unit of "
                        f"that race in state.units.",
                    )
                ]
            members.append({"id": uid, **{k: v for k, v in unit.items() if k != "race"}})
        spec.append(
            {
                "id": rid,
                "name": race.get("name"),
                "units": members,
                "actions": race.get("actions"),
                "setup": race.get("setup"),
            }
        )
    listed = sum(len(r["units"]) for r in spec)
    if listed != len(units):
        return [
            _v("bad_catalogue", "Every unit of state.units must be listed by exactly one race.")
        ]
    _, problems = build_races(spec, len(players))
    _, card_problems = build_cards(
        [{"id": cid, **c} if isinstance(c, dict) else c for cid, c in cards.items()]
    )
    return [_v("bad_catalogue", f"state content: {v.message}") for v in problems + card_problems]


def _placed_soundly(state: State, players: list[str]) -> bool:
    """Whether :func:`_places` would find nothing, proven with a few set operations (at C speed)
    instead of its walk, which names each problem. Issue 28: that walk, one call and one message
    text per unit and card, was a third of checking a state never seen before; a sound state,
    nearly every state a client sends, needs no names. ``False`` proves nothing: the walk then
    gives the verdict, so every problem is refused as before and with the same violations.

    The facts are those of :func:`_places`: each chosen race is a race of the game and played
    by one player; each unit in a player's deck, discard pile or on the battlefield under their
    name is a unit of their race (so in ``state.units``), and in one place only; each cell is a
    pair of whole numbers within ``COORD_LIMIT`` and holds one unit; every card of
    ``state.cards`` is in exactly one place (a reinforcement under a unit, the deck, the discard
    pile or the card being dealt with); after race selection every unit of a chosen race is
    somewhere. Anything unexpected (a wrong type, a missing key) gives ``False``."""
    try:
        units, cards, races = state["units"], state["cards"], state["races"]
        race_of, battlefield = state["race_of"], state["battlefield"]
        if type(battlefield) is not dict or type(cards) is not dict:
            return False
        chosen = [race_of[p] for p in players if race_of[p] is not None]
        if len(set(chosen)) != len(chosen) or any(r not in races for r in chosen):
            return False
        held: dict[str, list[Any]] = {}
        for p in players:
            deck, discards = state["unit_decks"][p], state["unit_discards"][p]
            if type(deck) is not list or type(discards) is not list:
                return False
            held[p] = deck + discards
        placed_cards: list[Any] = []
        cells = set()
        for uid, entry in battlefield.items():
            x, y, reinforcements = entry["x"], entry["y"], entry["reinforcements"]
            if (
                type(x) is not int
                or type(y) is not int
                or not -COORD_LIMIT <= x <= COORD_LIMIT
                or not -COORD_LIMIT <= y <= COORD_LIMIT
                or type(reinforcements) is not list
            ):
                return False
            cells.add((x, y))
            held[entry["owner"]].append(uid)  # an owner who is no player: KeyError
            placed_cards += reinforcements
        if len(cells) != len(battlefield):
            return False
        placed_units: set[Any] = set()
        count = 0
        for p, mine in held.items():
            if mine and {race_of[p]} != {units[u]["race"] for u in mine}:
                return False
            placed_units.update(mine)
            count += len(mine)
        if len(placed_units) != count or None in chosen:
            return False
        if state["phase"] != "race_selection" and any(
            not placed_units.issuperset(races[r]["units"]) for r in chosen
        ):
            return False
        deck, discard, turn = state["deck"], state["discard"], state.get("turn")
        if type(deck) is not list or type(discard) is not list:
            return False
        placed_cards += deck
        placed_cards += discard
        if isinstance(turn, dict) and turn.get("drawn") is not None:
            placed_cards.append(turn["drawn"])
        return len(placed_cards) == len(cards) and set(placed_cards) == cards.keys()
    except (KeyError, TypeError, AttributeError):
        return False


def _places(state: State, players: list[str]) -> list[Violation]:
    """Every unit and card in exactly one place; units only where their owner's are; one unit
    per cell; cells in range."""
    found: list[Violation] = []
    units, cards = state["units"], state["cards"]
    race_of = state["race_of"]
    races = state["races"]
    owner_of_race = {}
    for p in players:
        r = race_of[p]
        if r is not None:
            if r not in races:
                return [
                    _v(
                        "unknown_race",
                        f"state.race_of.{p} is {r!r}, which is not a race of the game.",
                    )
                ]
            if r in owner_of_race:
                return [_v("race_twice", f"Race {r!r} is played by two players.")]
            owner_of_race[r] = p
    seen_units: dict[str, str] = {}
    seen_cards: dict[str, str] = {}

    def unit_at(uid: Any, where: str, owner: str) -> None:
        if not isinstance(uid, str) or uid not in units:
            found.append(_v("unknown_unit", f"{where} holds {uid!r}, which is not in state.units."))
        elif uid in seen_units:
            found.append(
                _v("unit_in_two_places", f"Unit {uid!r} is in {seen_units[uid]} and in {where}.")
            )
        else:
            seen_units[uid] = where
            if owner_of_race.get(units[uid]["race"]) != owner:
                found.append(
                    _v(
                        "wrong_owner",
                        f"{where} holds {uid!r}, which is not a unit of {owner}'s race.",
                    )
                )

    def card_at(cid: Any, where: str) -> None:
        if not isinstance(cid, str) or cid not in cards:
            found.append(_v("unknown_card", f"{where} holds {cid!r}, which is not in state.cards."))
        elif cid in seen_cards:
            found.append(
                _v("card_in_two_places", f"Card {cid!r} is in {seen_cards[cid]} and in {where}.")
            )
        else:
            seen_cards[cid] = where

    for p in players:
        for uid in state["unit_decks"][p]:
            unit_at(uid, f"state.unit_decks.{p}", p)
        for uid in state["unit_discards"][p]:
            unit_at(uid, f"state.unit_discards.{p}", p)
    cells: dict[tuple[int, int], str] = {}
    battlefield = state["battlefield"]
    if not isinstance(battlefield, dict):
        return [_v("bad_battlefield", "state.battlefield must map unit ids to cells.")]
    for uid, entry in battlefield.items():
        where = f"state.battlefield.{uid}"
        owner = entry.get("owner")
        if owner not in players:
            found.append(_v("unknown_player", f"{where}.owner must be a player of the game."))
            continue
        unit_at(uid, where, owner)
        x, y = entry.get("x"), entry.get("y")
        if not is_int(x) or not is_int(y) or abs(x) > COORD_LIMIT or abs(y) > COORD_LIMIT:
            found.append(
                _v(
                    "bad_cell",
                    f"{where} must have whole-number x and y within {COORD_LIMIT} of the middle.",
                )
            )
            continue
        if (x, y) in cells:
            found.append(
                _v("cell_twice", f"Cell ({x}, {y}) holds both {cells[(x, y)]!r} and {uid!r}.")
            )
        cells[(x, y)] = uid
        for cid in entry["reinforcements"]:
            card_at(cid, f"{where}.reinforcements")
    for cid in state["deck"]:
        card_at(cid, "state.deck")
    for cid in state["discard"]:
        card_at(cid, "state.discard")
    turn = state.get("turn")
    if isinstance(turn, dict) and turn.get("drawn") is not None:
        card_at(turn["drawn"], "state.turn.drawn")
    if found:
        return found
    for p in players:
        r = race_of[p]
        if r is None or state["phase"] == "race_selection":
            continue
        missing = [u for u in races[r]["units"] if u not in seen_units]
        if missing:
            found.append(
                _v(
                    "missing_unit",
                    f"{len(missing)} unit(s) of {p}'s race are nowhere: {missing[0]!r}...",
                )
            )
    missing_cards = [c for c in cards if c not in seen_cards]
    if missing_cards:
        found.append(
            _v(
                "missing_card",
                f"{len(missing_cards)} card(s) of state.cards are nowhere: {missing_cards[0]!r}...",
            )
        )
    return found


def _phase(state: State, players: list[str]) -> list[Violation]:
    phase = state["phase"]
    race_of = state["race_of"]
    active = state["active_players"]
    battlefield = state["battlefield"]
    eradicated = state["eradicated"]
    found: list[Violation] = []
    if phase == "race_selection":
        waiting = [p for p in players if race_of[p] is None]
        if not waiting or active != waiting[:1]:
            found.append(
                _v(
                    "inconsistent_phase",
                    "During race selection the first player (seat order) "
                    "without a race is the only active player.",
                )
            )
        if (
            battlefield
            or state["eradicated"]
            or state["first_player"] is not None
            or state["discard"]
        ):
            found.append(
                _v("inconsistent_phase", "Nothing is drawn or placed before every race is chosen.")
            )
        if any(state["unit_decks"][p] or state["unit_discards"][p] for p in players):
            found.append(
                _v(
                    "inconsistent_phase",
                    "The race decks are shuffled only once every race is chosen.",
                )
            )
        return (
            found + _nulls(state, "placer", "turn", "doom", "outcome") + _empty(state, "bonus_owed")
        )
    if any(race_of[p] is None for p in players) or state["first_player"] not in players:
        return [
            _v(
                "inconsistent_phase",
                "Every player has a race and the first player is known after race selection.",
            )
        ]
    if phase == "placement":
        placer = state["placer"]
        if placer not in players or not state["unit_decks"][placer] or active != [placer]:
            found.append(
                _v(
                    "inconsistent_phase",
                    "During placement the placer, whose deck holds a unit, is active.",
                )
            )
        if eradicated or any(state["unit_discards"][p] for p in players):
            found.append(_v("inconsistent_phase", "Nothing is defeated during placement."))
        return found + _nulls(state, "turn", "doom", "outcome") + _empty(state, "bonus_owed")
    if any(state["unit_decks"][p] for p in players):
        found.append(_v("inconsistent_phase", "Every unit is placed once placement is over."))
    found.extend(_nulls(state, "placer"))
    for p in players:
        mine = [u for u, e in battlefield.items() if e["owner"] == p]
        has_liege = any(state["units"][u]["liege"] for u in mine)
        if p in eradicated and mine:
            found.append(
                _v("inconsistent_eradication", f"{p} is eradicated but still has units in play.")
            )
        if p not in eradicated and not has_liege:
            found.append(
                _v("inconsistent_eradication", f"{p} has no Liege in play, so must be eradicated.")
            )
    if found:
        return found
    left = [p for p in players if p not in eradicated]
    if phase == "finished":
        outcome = state.get("outcome")
        if active or not isinstance(outcome, dict) or not isinstance(outcome.get("winners"), list):
            return [_v("inconsistent_outcome", "A finished game has an outcome and nobody active.")]
        if any(w not in players for w in outcome["winners"]) or not outcome["winners"]:
            return [
                _v("inconsistent_outcome", "state.outcome.winners must name players of the game.")
            ]
        if len(left) > 1 and outcome.get("reason") != "turn_limit":
            return [
                _v(
                    "inconsistent_outcome",
                    "The game ends early only when at most one Liege is left.",
                )
            ]
        return (
            _outcome_problems(state, outcome, left)
            + _nulls(state, "doom")
            + _empty(state, "bonus_owed")
        )
    found.extend(_nulls(state, "outcome"))
    if len(left) < 2:
        found.append(_v("inconsistent_outcome", "With at most one Liege left the game is over."))
    turn = state.get("turn")
    if not isinstance(turn, dict) or turn.get("player") not in players:
        return found + [_v("bad_turn", "state.turn must name the player whose turn it is.")]
    if not is_int(turn.get("number")) or not 1 <= turn["number"] <= state["turn_limit"]:
        found.append(_v("bad_turn", "state.turn.number must be from 1 to state.turn_limit."))
    stage = turn.get("stage")
    if stage not in ("action", "reinforcement", "doom"):
        found.append(_v("bad_turn", "state.turn.stage must be action, reinforcement or doom."))
    for key in ("draws_left", "extra_turns"):
        if not is_int(turn.get(key)) or not 0 <= turn[key] <= 1000:
            found.append(_v("bad_turn", f"state.turn.{key} must be a whole number from 0 to 1000."))
    if not isinstance(turn.get("marching"), bool):
        found.append(_v("bad_turn", "state.turn.marching must be true or false."))
    if found:
        return found
    return _decision(state, players, turn)


def _decision(state: State, players: list[str], turn: dict[str, Any]) -> list[Violation]:
    """The pending decision (bonus, Doom, turn stage) and the active player agree."""
    active = state["active_players"]
    eradicated = state["eradicated"]
    owed = state["bonus_owed"]
    doom = state["doom"]
    current = turn["player"]
    drawn = turn["drawn"]
    if current in eradicated and not owed:
        return [
            _v(
                "bad_turn",
                "The player whose turn it is must still be in the game (unless the bonus "
                "for eradicating them is still to be placed).",
            )
        ]
    if not isinstance(owed, list) or any(p not in players or p in eradicated for p in owed):
        return [_v("bad_bonus", "state.bonus_owed must list players still in the game.")]
    if doom is not None:
        order = doom.get("to_discard") if isinstance(doom, dict) else None
        if (
            not isinstance(order, list)
            or doom.get("caller") != current
            or not order
            or any(p not in players or p in eradicated for p in order)
            or not _in_seat_order(order, seats_after(players, current) + [current])
            or turn["stage"] != "doom"
        ):
            return [
                _v(
                    "bad_doom",
                    "state.doom must be {caller: the current player, to_discard: players still "
                    "in the game, each once, in seat order from the caller's left and the caller "
                    "last} during the Doom stage.",
                )
            ]
    elif turn["stage"] == "doom":
        return [_v("bad_doom", "The Doom stage needs state.doom.")]
    if owed:
        if not state["unit_discards"][owed[0]]:
            return [
                _v(
                    "bad_bonus",
                    "A bonus is owed only to a player with a unit in their discard pile.",
                )
            ]
        if not bonus_cells(state, owed[0]):
            return [
                _v(
                    "bad_bonus",
                    "A bonus is owed only to a player with a free cell next to their units.",
                )
            ]
        expected = owed[:1]
    elif doom is not None:
        expected = doom["to_discard"][:1]
    else:
        expected = [current]
        if turn["stage"] == "action":
            if drawn is not None or turn["marching"] or turn["draws_left"]:
                return [_v("bad_turn", "Nothing is drawn during the Action Phase.")]
        elif drawn is None and not turn["marching"]:
            return [
                _v(
                    "bad_turn",
                    "In the Reinforcement Phase a card is being dealt with or a Forced March "
                    "is due.",
                )
            ]
        elif drawn is not None and turn["marching"]:
            return [_v("bad_turn", "A Forced March is made before the next card is drawn.")]
        elif turn["marching"] and not any(steps_of(state, current)):
            return [
                _v(
                    "bad_turn",
                    "A Forced March is due only when one of the player's units can move.",
                )
            ]
    if active != expected:
        return [_v("inconsistent_active_players", f"state.active_players must be {expected}.")]
    return []


def steps_of(state: State, player: str) -> Iterator[bool]:
    """Whether each of ``player``'s units has an empty neighbour (a Move is possible)."""
    occupied = occupancy(state["battlefield"])
    for e in state["battlefield"].values():
        if e["owner"] == player:
            yield any(n not in occupied for n in neighbours((e["x"], e["y"])))


def _nulls(state: State, *fields: str) -> list[Violation]:
    return [
        _v("inconsistent_phase", f"state.{f} must be null in phase {state['phase']!r}.")
        for f in fields
        if state.get(f) is not None
    ]


def _empty(state: State, *fields: str) -> list[Violation]:
    return [
        _v("inconsistent_phase", f"state.{f} must be empty in phase {state['phase']!r}.")
        for f in fields
        if state.get(f)
    ]


state_problems = guarded(_problems, rulebook.INTEGRITY)


def _phase_problems(state: State) -> list[Violation]:
    return _phase(state, state["players"])


phase_problems = guarded(_phase_problems, rulebook.INTEGRITY)
"""The checks of the state's phase alone, on a state whose other parts are sound: a cheap first
test of each state the forfeit check guesses at (``rules/forfeit.py``). Never raises."""


def _in_seat_order(order: list[Any], seats: list[str]) -> bool:
    """Whether ``order`` lists some of ``seats``, each once, in their order: Doom's discards
    (rulings RA 9) go round from the caller's left and end with the caller, and a discard or an
    eradication only takes players off the list."""
    remaining = iter(seats)
    return all(player in remaining for player in order)


def _in_seats(state: State, players: set[str]) -> list[str]:
    return [p for p in state["players"] if p in players]


def _outcome_problems(state: State, outcome: dict[str, Any], left: list[str]) -> list[Violation]:
    """A finished game's outcome is the one its end gives (``flow.finish``): the last Liege
    wins; Lieges that fell together share a draw among the eradicated; at the turn limit, the
    tie-break of the players still in the game. The scores are the units in play, and a draw is
    anything but one winner. A forfeit's outcome is ``rules/forfeit.py``'s to check."""
    reason, winners = outcome.get("reason"), outcome["winners"]
    if reason == "forfeit":
        return []
    if reason == "last_liege":
        fits = winners == left
    elif reason == "lieges_fell_together":
        # the Lieges that fell together were the last to go, and share the draw in seat order
        fallen = set(state["eradicated"][-len(winners) :])
        fits = not left and set(winners) == fallen and winners == _in_seats(state, fallen)
    elif reason == "turn_limit":
        fits = bool(left) and winners == turn_limit_winners(state)
    else:
        return [
            _v(
                "inconsistent_outcome",
                f"state.outcome.reason must be one of {', '.join(END_REASONS)} or forfeit.",
            )
        ]
    if (
        not fits
        or outcome.get("scores") != scores(state)
        or outcome.get("draw") != (len(winners) != 1)
    ):
        return [
            _v(
                "inconsistent_outcome",
                f"state.outcome is not the one a game that ended by {reason} gives: its winners, "
                "draw and scores (the units in play) follow from the board.",
            )
        ]
    return []
