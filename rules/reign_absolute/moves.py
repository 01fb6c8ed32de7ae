"""Legal moves, violations and ``apply``: every decision a player makes is a move.

The decision due now (:func:`decision`) follows from the state: choosing a race, placing a
unit, the Action Phase (``move``, ``attack``, ``doom``, ``pass``, or the race's own
``race_action``, :mod:`rules.reign_absolute.race_rules`), a Doom discard, the
eradication bonus unit, placing a drawn combat card (``reinforce``), resolving or discarding a
drawn turn card, and the Forced March step. Forced steps in between (draws, combat, turn
changes) happen inside ``apply`` (:func:`rules.reign_absolute.flow.advance`).

Messages never name a hidden unit or card of another player: a unit id that is not the
mover's own on the battlefield gets the same answer whatever it is.
"""

from __future__ import annotations

from rules.engine import seats_after
from rules.engine_types import Event, Move, PlayerId, State, Violation
from rules.errors import IllegalMove
from rules.integrity import is_int
from rules.reign_absolute import rulebook
from rules.reign_absolute.combat import resolve_attack
from rules.reign_absolute.flow import advance, bonus_cells, check_victory, eradicate, new_turn
from rules.reign_absolute.grid import (
    MIDDLE,
    STEPS,
    empty_cells_next_to,
    in_bounds,
    near_the_edge,
    neighbours,
    occupancy,
)
from rules.reign_absolute.race_rules import (
    action_moves,
    apply_race_action,
    post_setup_tasks,
    race_actions,
)
from rules.reign_absolute.state import clone, start_battle
from rules.rng import Rng

__all__ = [
    "MOVE_TYPES",
    "MOVE_FIELDS",
    "decision",
    "legal_moves",
    "violations",
    "apply",
    "placement_cells",
]

MOVE_FIELDS: dict[str, tuple[str, ...]] = {
    "choose_race": ("race",),
    "place": ("x", "y"),
    "move": ("unit", "x", "y"),
    "attack": ("unit", "x", "y"),
    "doom": (),
    "pass": (),
    "doom_discard": ("unit",),
    "bonus_unit": ("unit", "x", "y"),
    "reinforce": ("unit",),
    "play_turn_card": (),
    "discard_turn_card": (),
    "march": ("unit", "x", "y"),
    "race_action": ("action", "unit", "x", "y"),
}
"""Move type -> its parameters (besides ``player`` and ``type``)."""
MOVE_TYPES = tuple(MOVE_FIELDS)

_DECISION_TYPES = {
    "choose_race": ("choose_race",),
    "place": ("place",),
    "action": ("move", "attack", "doom", "pass", "race_action"),
    "doom_discard": ("doom_discard",),
    "bonus_unit": ("bonus_unit",),
    "reinforce": ("reinforce",),
    "turn_card": ("play_turn_card", "discard_turn_card"),
    "march": ("march",),
}
_DECISION_WORDS = {
    "choose_race": ("choose a race", rulebook.RACE_SELECTION),
    "place": ("place a unit", rulebook.PLACEMENT),
    "action": (
        "take an action (move, attack, doom, your race's own action or pass)",
        rulebook.TURN,
    ),
    "doom_discard": ("discard a unit for Doom", rulebook.DOOM),
    "bonus_unit": ("place the bonus unit from the unit discard pile", rulebook.ERADICATION),
    "reinforce": ("put the drawn combat reinforcement under a unit", rulebook.REINFORCEMENT_PHASE),
    "turn_card": ("resolve or discard the drawn turn reinforcement", rulebook.TURN_CARDS),
    "march": ("make the Forced March move", rulebook.TURN_CARDS),
}


# -- what is due ---------------------------------------------------------------------------------
def decision(state: State) -> str | None:
    """The kind of decision the active player faces now; None once the game is finished."""
    if state["status"] == "finished":
        return None
    phase = state["phase"]
    if phase == "race_selection":
        return "choose_race"
    if phase == "placement":
        return "place"
    if state["bonus_owed"]:
        return "bonus_unit"
    if state["doom"] is not None:
        return "doom_discard"
    turn = state["turn"]
    if turn["stage"] == "action":
        return "action"
    if turn["marching"]:
        return "march"
    return "reinforce" if state["cards"][turn["drawn"]]["kind"] == "combat" else "turn_card"


def placement_cells(state: State, player: PlayerId) -> list[tuple[int, int]]:
    """Rulings RA 5: the first player's first unit goes to the middle; every other player's
    first unit next to an enemy unit; later units next to one of the placer's own units, or,
    when no such cell is free, next to any unit."""
    battlefield = state["battlefield"]
    if not battlefield:
        return [MIDDLE]
    occupied = occupancy(battlefield)
    mine = [(e["x"], e["y"]) for e in battlefield.values() if e["owner"] == player]
    if not mine:
        return empty_cells_next_to(list(occupied), occupied)
    cells = empty_cells_next_to(mine, occupied)
    return cells or empty_cells_next_to(list(occupied), occupied)


def _own_units(state: State, player: PlayerId) -> list[str]:
    return sorted([u for u, e in state["battlefield"].items() if e["owner"] == player])


def _steps(state: State, player: PlayerId) -> tuple[list[Move], list[Move]]:
    """Every Move (to an empty neighbour) and Attack (into an enemy neighbour) of ``player``:
    for each of their units in id order, its neighbours in the order of ``grid.neighbours``."""
    battlefield = state["battlefield"]
    occupied = occupancy(battlefield)
    moves: list[Move] = []
    attacks: list[Move] = []
    for uid in _own_units(state, player):
        entry = battlefield[uid]
        ux = entry["x"]
        uy = entry["y"]
        edge = near_the_edge((ux, uy))
        for dx, dy in STEPS:
            x = ux + dx
            y = uy + dy
            if edge and not in_bounds((x, y)):
                continue
            other = occupied.get((x, y))
            if other is None:
                moves.append({"player": player, "type": "move", "unit": uid, "x": x, "y": y})
            elif battlefield[other]["owner"] != player:
                attacks.append({"player": player, "type": "attack", "unit": uid, "x": x, "y": y})
    return moves, attacks


def _turn_card_resolvable(state: State, player: PlayerId) -> bool:
    card = state["turn"]["drawn"]
    if state["cards"][card]["effect"]["effect"] == "forced_march":
        return bool(_steps(state, player)[0])
    return True


def _moves_for(state: State, player: PlayerId) -> list[Move]:
    kind = decision(state)
    if kind == "choose_race":
        taken = set(r for r in state["race_of"].values() if r is not None)
        return [
            {"player": player, "type": "choose_race", "race": r}
            for r in state["races"]
            if r not in taken
        ]
    if kind == "place":
        return [
            {"player": player, "type": "place", "x": x, "y": y}
            for x, y in placement_cells(state, player)
        ]
    if kind == "action":
        moves, attacks = _steps(state, player)
        return (
            moves
            + attacks
            + action_moves(state, player)
            + [{"player": player, "type": "doom"}, {"player": player, "type": "pass"}]
        )
    if kind in ("doom_discard", "reinforce"):
        return [{"player": player, "type": kind, "unit": u} for u in _own_units(state, player)]
    if kind == "bonus_unit":
        cells = bonus_cells(state, player)
        return [
            {"player": player, "type": "bonus_unit", "unit": u, "x": x, "y": y}
            for u in sorted(state["unit_discards"][player])
            for x, y in cells
        ]
    if kind == "turn_card":
        found = [{"player": player, "type": "discard_turn_card"}]
        if _turn_card_resolvable(state, player):
            found.insert(0, {"player": player, "type": "play_turn_card"})
        return found
    if kind == "march":
        moves, _ = _steps(state, player)
        return [{**m, "type": "march"} for m in moves]
    return []


def legal_moves(state: State, player: PlayerId | None = None) -> list[Move]:
    """Every legal move of ``player`` (or of the active player); ``[]`` for anyone else."""
    active = state["active_players"]
    if player is None:
        player = active[0] if active else None
    if player is None or player not in active:
        return []
    return _moves_for(state, player)


# -- violations ----------------------------------------------------------------------------------
def _specific(state: State, move: Move, p: PlayerId) -> list[Violation]:
    """The precise reason a move of the right kind is refused (or ``[]`` if none is found)."""
    kind = move["type"]
    battlefield = state["battlefield"]
    if kind == "choose_race":
        race = move["race"]
        if not isinstance(race, str) or race not in state["races"]:
            return [
                Violation(
                    "unknown_race",
                    f"There is no race {race!r} in this game.",
                    rulebook.RACE_SELECTION,
                )
            ]
        return [
            Violation(
                "race_taken",
                f"Another player already plays {state['races'][race]['name']}: every "
                "player plays a different race.",
                rulebook.RACE_SELECTION,
            )
        ]
    if "x" in MOVE_FIELDS[kind] and not (is_int(move["x"]) and is_int(move["y"])):
        return [Violation("bad_cell", "x and y must be whole numbers.", rulebook.MOVES)]
    if kind == "race_action" and (
        not isinstance(move["action"], str) or move["action"] not in race_actions(state, p)
    ):
        race = state["races"][state["race_of"][p]]["name"]
        return [
            Violation(
                "unknown_action",
                f"{race} have no action {str(move['action'])[:64]!r}.",
                rulebook.RACE_ACTIONS,
            )
        ]
    if kind == "place":
        cell = (move["x"], move["y"])
        if cell in occupancy(battlefield):
            return [
                Violation(
                    "cell_occupied",
                    f"Cell ({cell[0]}, {cell[1]}) already holds a unit.",
                    rulebook.PLACEMENT,
                )
            ]
        if not battlefield:
            return [
                Violation(
                    "must_place_in_middle",
                    "The first unit goes in the middle, (0, 0).",
                    rulebook.PLACEMENT,
                )
            ]
        if not any(e["owner"] == p for e in battlefield.values()):
            return [
                Violation(
                    "must_place_next_to_enemy",
                    "Your first unit goes next to an enemy unit.",
                    rulebook.PLACEMENT,
                )
            ]
        return [
            Violation(
                "must_place_next_to_own",
                "Place the unit next to one of your own units (next to any "
                "unit only when no cell next to yours is free).",
                rulebook.PLACEMENT,
            )
        ]
    if "unit" in MOVE_FIELDS[kind]:
        uid = move["unit"]
        if kind == "bonus_unit":
            if uid not in state["unit_discards"][p]:
                return [
                    Violation(
                        "not_in_discard",
                        f"{uid!r} is not in your unit discard pile.",
                        rulebook.ERADICATION,
                    )
                ]
            return [
                Violation(
                    "bad_bonus_cell",
                    "The bonus unit goes on an empty cell next to one of your units.",
                    rulebook.ERADICATION,
                )
            ]
        entry = battlefield.get(uid) if isinstance(uid, str) else None
        if entry is None or entry["owner"] != p:
            return [
                Violation(
                    "not_your_unit", f"You have no unit {uid!r} on the battlefield.", rulebook.MOVES
                )
            ]
        if kind in ("move", "attack", "march"):
            cell = (move["x"], move["y"])
            if cell not in neighbours((entry["x"], entry["y"])):
                return [
                    Violation(
                        "not_adjacent",
                        "A unit moves or attacks only to an orthogonally adjacent cell.",
                        rulebook.MOVE if kind != "attack" else rulebook.ATTACK,
                    )
                ]
            other = occupancy(battlefield).get(cell)
            if kind != "attack" and other is not None:
                return [
                    Violation(
                        "cell_occupied",
                        f"Cell ({cell[0]}, {cell[1]}) is not empty: attack an enemy "
                        "there instead, or move elsewhere.",
                        rulebook.MOVE,
                    )
                ]
            if kind == "attack" and (other is None or battlefield[other]["owner"] == p):
                return [
                    Violation(
                        "no_enemy_there",
                        f"There is no enemy unit at ({cell[0]}, {cell[1]}).",
                        rulebook.ATTACK,
                    )
                ]
        if kind == "race_action":
            effect = race_actions(state, p)[move["action"]]["effect"]
            if effect["effect"] == "swap":
                words = "one of your units orthogonally next to it, to trade cells with"
            else:
                words = f"an empty cell 2 to {effect['distance']} cells away in a straight line"
            return [
                Violation(
                    "bad_action_target",
                    f"({move['x']}, {move['y']}) is not a target of this action: name {words}.",
                    rulebook.RACE_ACTIONS,
                )
            ]
    if kind == "play_turn_card":
        return [
            Violation(
                "cannot_resolve",
                "None of your units can move, so Forced March cannot be resolved; discard it.",
                rulebook.TURN_CARDS,
            )
        ]
    return []


def violations(state: State, move: Move) -> list[Violation]:
    """Why ``move`` is illegal now; ``[]`` when it is one of the legal moves.

    Checked in order: the player is in the game; the game is not over; the move type exists;
    it is this player's decision; the move type fits the decision due; the move has exactly
    its parameters; then the move's own rules.
    """
    p = move.get("player")
    if not isinstance(p, str) or p not in state["race_of"]:
        return [
            Violation("unknown_player", f"There is no player {p!r} in this game.", rulebook.PLAYERS)
        ]
    if state["status"] == "finished":
        return [
            Violation(
                "game_finished", "The game is over; no more moves can be made.", rulebook.VICTORY
            )
        ]
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        return [
            Violation(
                "unknown_move_type", f"Reign Absolute has no move type {kind!r}.", rulebook.MOVES
            )
        ]
    current = decision(state)
    active = state["active_players"]
    if p not in active:
        words, rule = _DECISION_WORDS[current]  # type: ignore[index]
        if p in state["eradicated"]:
            return [
                Violation(
                    "eradicated",
                    "You have been eradicated: you have no more moves.",
                    rulebook.ERADICATION,
                )
            ]
        return [Violation("not_your_turn", f"It is {active[0]}'s move: they must {words}.", rule)]
    if kind not in _DECISION_TYPES[current]:  # type: ignore[index]
        words, rule = _DECISION_WORDS[current]  # type: ignore[index]
        return [Violation("wrong_step", f"Not now: you must {words}.", rule)]
    expected = {"player", "type", *MOVE_FIELDS[kind]}
    if set(move) != expected:
        wanted = ", ".join(MOVE_FIELDS[kind]) or "no parameters"
        return [Violation("bad_move_fields", f"A {kind} move takes {wanted}.", rulebook.MOVES)]
    if "x" in expected and not (is_int(move["x"]) and is_int(move["y"])):
        return [Violation("bad_cell", "x and y must be whole numbers.", rulebook.MOVES)]
    if _is_legal(state, move, p, kind):
        return []
    return _specific(state, move, p) or [
        Violation("not_allowed", "That move is not allowed now.", rulebook.MOVES)
    ]


def _is_legal(state: State, move: Move, p: PlayerId, kind: str) -> bool:
    """Whether ``move`` (of the decision due, with exactly its fields, whole-number cells) is
    one of :func:`legal_moves`: the same rules, asked of the one move instead of listing all."""
    if kind in ("doom", "pass", "discard_turn_card"):
        return True
    if kind == "play_turn_card":
        return _turn_card_resolvable(state, p)
    if kind == "choose_race":
        race = move["race"]
        return (
            type(race) is str and race in state["races"] and race not in state["race_of"].values()
        )
    if kind == "place":
        return (move["x"], move["y"]) in placement_cells(state, p)
    if kind == "bonus_unit":
        return move["unit"] in state["unit_discards"][p] and (move["x"], move["y"]) in bonus_cells(
            state, p
        )
    if kind == "race_action":
        return move in action_moves(state, p)
    uid = move["unit"]
    battlefield = state["battlefield"]
    entry = battlefield.get(uid) if type(uid) is str else None
    if entry is None or entry["owner"] != p:
        return False
    if kind in ("doom_discard", "reinforce"):
        return True
    x, y = move["x"], move["y"]
    if abs(x - entry["x"]) + abs(y - entry["y"]) != 1 or not in_bounds((x, y)):
        return False
    other = occupancy(battlefield).get((x, y))
    if kind == "attack":
        return other is not None and battlefield[other]["owner"] != p
    return other is None  # move, march


# -- apply ---------------------------------------------------------------------------------------
def _remove_unit(state: State, uid: str) -> list[str]:
    """Take ``uid`` off the battlefield into its owner's unit discard; return its cards,
    which go to the reinforcement discard."""
    entry = state["battlefield"].pop(uid)
    state["unit_discards"][entry["owner"]].append(uid)
    state["discard"].extend(entry["reinforcements"])
    return entry["reinforcements"]


def _step_unit(state: State, move: Move, p: PlayerId) -> Event:
    """Move ``move["unit"]`` to ``move``'s square and return the ``unit_moved`` event that
    tells it: the one way a unit moves (rules doc ``#move``; a march card's extra move,
    ``#turn-cards``, moves it alike and its event adds ``march``)."""
    uid, x, y = move["unit"], move["x"], move["y"]
    entry = state["battlefield"][uid]
    state["battlefield"][uid] = {**entry, "x": x, "y": y}  # entries are shared with the old state
    return {
        "type": "unit_moved",
        "player": p,
        "unit": uid,
        "from": {"x": entry["x"], "y": entry["y"]},
        "to": {"x": x, "y": y},
    }


def _apply_choose_race(
    state: State, rng: Rng, move: Move, p: PlayerId, events: list[Event]
) -> None:
    state["race_of"][p] = move["race"]
    events.append({"type": "race_chosen", "player": p, "race": move["race"]})
    waiting = [q for q in state["players"] if state["race_of"][q] is None]
    if waiting:
        state["active_players"] = [waiting[0]]
    else:
        start_battle(state, rng, events)


def _apply_place(state: State, rng: Rng, move: Move, p: PlayerId, events: list[Event]) -> None:
    uid = state["unit_decks"][p].pop(0)
    state["battlefield"][uid] = {"x": move["x"], "y": move["y"], "owner": p, "reinforcements": []}
    events.append({"type": "unit_placed", "player": p, "unit": uid, "x": move["x"], "y": move["y"]})
    players = state["players"]
    i = players.index(p)
    for k in range(1, len(players) + 1):
        q = players[(i + k) % len(players)]
        if state["unit_decks"][q]:
            state["placer"] = q
            state["active_players"] = [q]
            return
    state["placer"] = None
    state["phase"] = "play"
    first = state["first_player"]
    state["turn"] = new_turn(first, 1)
    events.append({"type": "placement_finished"})
    post_setup_tasks(state, rng, events)
    events.append({"type": "turn_started", "player": first, "number": 1, "another_turn": False})


def _apply_action(state: State, rng: Rng, move: Move, p: PlayerId, events: list[Event]) -> None:
    kind = move["type"]
    turn = state["turn"]
    if kind == "doom":
        order = [q for q in seats_after(state["players"], p) if q not in state["eradicated"]] + [p]
        state["doom"] = {"caller": p, "to_discard": order}
        turn["stage"] = "doom"
        events.append({"type": "doom_called", "player": p, "order": list(order)})
        return
    turn["stage"] = "reinforcement"
    turn["draws_left"] = 1
    if kind == "pass":
        events.append({"type": "passed", "player": p})
    elif kind == "race_action":
        apply_race_action(state, move, events)
    elif kind == "move":
        events.append(_step_unit(state, move, p))
    else:
        target = (move["x"], move["y"])
        defender = occupancy(state["battlefield"])[target]
        resolve_attack(state, rng, p, move["unit"], target, defender, events)


def _apply_doom_discard(
    state: State, rng: Rng, move: Move, p: PlayerId, events: list[Event]
) -> None:
    doom = state["doom"]
    doom["to_discard"].pop(0)
    uid = move["unit"]
    entry = state["battlefield"][uid]
    cell = {"x": entry["x"], "y": entry["y"]}
    cards = _remove_unit(state, uid)
    liege = state["units"][uid]["liege"]
    events.append(
        {
            "type": "doom_discard",
            "player": p,
            "unit": uid,
            **cell,
            "cards": list(cards),
            "liege": liege,
        }
    )
    if liege:
        caller = doom["caller"]
        eradicate(state, p, caller if caller != p else None, events)
        check_victory(state, [p], events)


def _apply_bonus(state: State, rng: Rng, move: Move, p: PlayerId, events: list[Event]) -> None:
    state["bonus_owed"].pop(0)
    uid = move["unit"]
    state["unit_discards"][p].remove(uid)
    state["battlefield"][uid] = {"x": move["x"], "y": move["y"], "owner": p, "reinforcements": []}
    events.append(
        {"type": "bonus_unit_placed", "player": p, "unit": uid, "x": move["x"], "y": move["y"]}
    )


def _apply_reinforce(state: State, rng: Rng, move: Move, p: PlayerId, events: list[Event]) -> None:
    turn = state["turn"]
    card = turn["drawn"]
    turn["drawn"] = None
    old = state["battlefield"][move["unit"]]
    entry = {**old, "reinforcements": old["reinforcements"] + [card]}  # shared with the old state
    state["battlefield"][move["unit"]] = entry
    events.append(
        {
            "type": "reinforcement_placed",
            "player": p,
            "unit": move["unit"],
            "card": card,
            "x": entry["x"],
            "y": entry["y"],
            "count": len(entry["reinforcements"]),
        }
    )


def _apply_turn_card(state: State, rng: Rng, move: Move, p: PlayerId, events: list[Event]) -> None:
    turn = state["turn"]
    card = turn["drawn"]
    turn["drawn"] = None
    state["discard"].append(card)
    if move["type"] == "discard_turn_card":
        events.append({"type": "turn_card_discarded", "player": p, "card": card})
        return
    effect = state["cards"][card]["effect"]["effect"]
    events.append({"type": "turn_card_played", "player": p, "card": card, "effect": effect})
    if effect == "another_turn":
        turn["extra_turns"] += 1
    elif effect == "supply_drop":
        turn["draws_left"] += 1
    else:
        turn["marching"] = True


def _apply_march(state: State, rng: Rng, move: Move, p: PlayerId, events: list[Event]) -> None:
    state["turn"]["marching"] = False
    moved = _step_unit(state, move, p)
    moved["march"] = True
    events.append(moved)


_APPLY = {
    "choose_race": _apply_choose_race,
    "place": _apply_place,
    "move": _apply_action,
    "attack": _apply_action,
    "doom": _apply_action,
    "pass": _apply_action,
    "doom_discard": _apply_doom_discard,
    "bonus_unit": _apply_bonus,
    "reinforce": _apply_reinforce,
    "play_turn_card": _apply_turn_card,
    "discard_turn_card": _apply_turn_card,
    "march": _apply_march,
    "race_action": _apply_action,
}


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The state after ``move`` and the events, in order. Never mutates ``state``.

    Raises IllegalMove (changing nothing) when the move is illegal.
    """
    found = violations(state, move)
    if found:
        raise IllegalMove(found)
    new = clone(state)
    rng = Rng.parse(state["rng"])
    events: list[Event] = []
    p = move["player"]
    _APPLY[move["type"]](new, rng, move, p, events)
    if new["phase"] in ("play", "finished"):
        advance(new, rng, events)
    new["rng"] = str(rng)
    new["move_count"] = state["move_count"] + 1
    return new, events
