"""Set-up, the turn and its phases, defeat and the end of the game.

Seed, Starting the Game and The Turn: players set up their units in their own Kingdom, then
take turns in seat order from a randomly chosen first player; each turn is a Cooldown phase
(for every player), a Deployment phase (deployment scenarios) and a Combat phase. Seed,
Castle: a player whose Throne an enemy unit moves onto loses at once. Rulings RS 5 and 8:
the scenario's victory condition, a round limit with a tie-break, and ``concede``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from rules.engine_types import Event, PlayerId, State
from rules.reign_supreme.auras import engaged_pairs, prune_engaged
from rules.reign_supreme.board import Geometry, geometry, occupancy
from rules.reign_supreme.combat import remove_unit
from rules.reign_supreme.cooldown import cooldown_phase, earn_deploys
from rules.reign_supreme.effects import skip_the_defeated
from rules.reign_supreme.hexes import Hex, as_json, distance
from rules.reign_supreme.scoring import outcome
from rules.reign_supreme.state import THRONE_CAPTURE_DEPLOYS, card_catalog, clone, fresh_turn_flags
from rules.reign_supreme.survey import id_key
from rules.reign_supreme.walls import own_walls
from rules.rng import Rng

__all__ = [
    "DEFEAT_REASONS",
    "END_REASONS",
    "PLAYING_PHASES",
    "to_place",
    "placement_spaces",
    "after_placement",
    "auto_setup",
    "begin_turn",
    "deploy_spaces",
    "can_deploy",
    "end_turn",
    "defeat",
    "check_end",
    "finish",
    "in_game",
]

DEFEAT_REASONS = ("concede", "no_units", "throne_captured")
"""Why a player is out: they conceded (RS 8), lost their last unit, or lost their Throne."""
END_REASONS = ("last_standing", "round_limit")
"""Why the game ended: one player (or none) is left, or the last round is over."""
PLAYING_PHASES = ("deployment", "combat")
"""The phases of a turn (``phase_started``): Deployment, then Combat."""


def in_game(state: State) -> list[PlayerId]:
    """Players not defeated, in seat order."""
    return [p for p in state["players"] if p not in state["defeated"]]


# -- set-up ----------------------------------------------------------------------------------------
def to_place(state: State, player: PlayerId) -> int:
    """How many more units ``player`` must set up: all of them, or in deployment scenarios
    ``initial_units`` (5 in the standard scenario; fewer if the army is smaller)."""
    mine = [u for u in state["units"].values() if u["owner"] == player]
    placed = sum(1 for u in mine if u["at"] is not None)
    wanted = len(mine)
    if state["scenario"]["deployment"]:
        wanted = min(wanted, state["scenario"]["initial_units"])
    return max(0, wanted - placed)


def placement_spaces(state: State, geo: Geometry, player: PlayerId) -> list[Hex]:
    """The empty spaces of ``player``'s Kingdom, sorted (q, then r)."""
    occ = occupancy(state)
    return sorted(h for h in geo.kingdoms[player] if h not in occ)


def _next_placer(state: State, after: PlayerId | None) -> PlayerId | None:
    players = state["players"]
    first = players.index(state["first_player"])
    order = [players[(first + k) % len(players)] for k in range(len(players))]
    if after is not None:
        order = order[order.index(after) :]
    for p in order:
        if p not in state["defeated"] and to_place(state, p) > 0:
            return p
    return None


def after_placement(state: State, geo: Geometry, rng: Rng) -> list[Event]:
    """Pass set-up to the next player who still has units to place, or start the first turn."""
    nxt = _next_placer(state, state["turn"] if state["turn"] in state["players"] else None)
    if nxt is not None:
        state["turn"] = nxt
        state["active_players"] = [nxt]
        return []
    events: list[Event] = [{"type": "setup_finished"}]
    events.extend(check_end(state, geo))
    if state["status"] == "finished":
        return events
    first = state["first_player"]
    if first in state["defeated"]:
        first = _next_seat(state, first)
    events.extend(begin_turn(state, geo, rng, first))
    return events


def _auto_spaces(geo: Geometry, state: State, player: PlayerId) -> list[Hex]:
    """Kingdom spaces in auto set-up order: nearest the Throne (without castles, the Kingdom's
    central space: the one nearest all its others) first, then by coordinates."""
    kingdom = geo.kingdoms[player]
    throne = state["kingdoms"][player]["throne"]
    if throne is not None:
        centre = (throne[0], throne[1])
    else:
        total = _distance_totals(kingdom)
        centre = min(kingdom, key=lambda h: (total(h), h))
    return sorted(kingdom, key=lambda h: (distance(h, centre), h))


def _distance_totals(spaces: Collection[Hex]) -> Callable[[Hex], int]:
    """A function giving, for a space of ``spaces``, twice the sum of its distances to all of
    them, in O(n log n) instead of O(n²): a hex distance is half the sum of the absolute
    differences of the three cube coordinates q, r and -q-r, so the sum splits by coordinate."""
    axes = ([q for q, _ in spaces], [r for _, r in spaces], [-q - r for q, r in spaces])
    tables = [_absolute_deviations(values) for values in axes]

    def total(h: Hex) -> int:
        q, r = h
        return tables[0][q] + tables[1][r] + tables[2][-q - r]

    return total


def _absolute_deviations(values: list[int]) -> dict[int, int]:
    """For each distinct ``v`` of ``values``: the sum over ``values`` of ``|v - x|``."""
    ordered = sorted(values)
    n, below_sum, out = len(ordered), 0, {}
    total_sum = sum(ordered)
    for i, v in enumerate(ordered):
        if v not in out:  # i values lie below v (all of them smaller), n - i at or above it
            out[v] = v * i - below_sum + (total_sum - below_sum) - v * (n - i)
        below_sum += v
    return out


def auto_setup(state: State) -> tuple[State, list[Event]]:
    """``setup: "auto"``: every player's first units, in list order, on the Kingdom spaces
    nearest its Throne; then the first turn starts."""
    state = clone(state)
    geo = geometry(state)
    rng = Rng.parse(state["rng"])
    events: list[Event] = []
    occ = occupancy(state)
    for p in state["players"]:
        spaces = [h for h in _auto_spaces(geo, state, p) if h not in occ]
        count = to_place(state, p)
        for uid, u in state["units"].items():
            if count == 0:
                break
            if u["owner"] == p and u["at"] is None:
                h = spaces.pop(0)
                u["at"] = as_json(h)
                occ[h] = uid
                count -= 1
                events.append({"type": "unit_placed", "player": p, "unit": uid, "at": u["at"]})
    state["turn"] = None
    events.extend(after_placement(state, geo, rng))
    state["rng"] = str(rng)
    return state, events


# -- turns -----------------------------------------------------------------------------------------
def _next_seat(state: State, player: PlayerId) -> PlayerId:
    players = state["players"]
    i = players.index(player)
    for k in range(1, len(players) + 1):
        p = players[(i + k) % len(players)]
        if p not in state["defeated"]:
            return p
    return player


def _offset(state: State, player: PlayerId) -> int:
    players = state["players"]
    return (players.index(player) - players.index(state["first_player"])) % len(players)


def begin_turn(state: State, geo: Geometry, rng: Rng, player: PlayerId) -> list[Event]:
    """Start ``player``'s turn: their units are ready to act again, every player's Cooldown
    phase, then the Deployment phase if they can deploy, else the Combat phase."""

    state["turn"] = player
    state["active_players"] = [player]
    for u in state["units"].values():
        u["countered"] = False
        if u["owner"] == player:
            u.update(fresh_turn_flags())
    state["engaged"] = engaged_pairs(state, occupancy(state))
    events: list[Event] = [{"type": "turn_started", "player": player, "round": state["round"]}]
    events.extend(cooldown_phase(state, geo, rng))
    if can_deploy(state, geo, player):
        state["phase"] = "deployment"
    else:
        state["phase"] = "combat"
    events.append({"type": "phase_started", "player": player, "phase": state["phase"]})
    return events


def deploy_spaces(state: State, geo: Geometry, player: PlayerId) -> list[Hex]:
    """Empty Castle spaces ``player`` may deploy to: their own Castle unless an enemy unit is
    in their Kingdom, and the Castle of each player whose Throne they captured unless another
    player's unit is in that Kingdom (seed: Deployment Phase, Castle). Sorted."""
    if not state["scenario"]["deployment"]:
        return []
    occ = occupancy(state)
    units = state["units"]
    out: list[Hex] = []
    for zone in [player, *state["zones"][player]]:
        castle = geo.castles.get(zone)
        if castle is None:
            continue
        kingdom = geo.kingdoms[zone]
        blocked = any(h in kingdom and units[uid]["owner"] != player for h, uid in occ.items())
        if not blocked:
            out.extend(h for h in castle if h not in occ)
    return sorted(set(out))


def can_deploy(state: State, geo: Geometry, player: PlayerId) -> bool:
    """Deployment is possible: a deployment scenario, a unit waiting, a deployment earned by the
    Reinforcement pin (or a Throne capture), and a free space in an unblocked zone."""
    if not state["scenario"]["deployment"] or state["boards"][player]["deploys"] <= 0:
        return False
    if not any(u["owner"] == player and u["at"] is None for u in state["units"].values()):
        return False
    return bool(deploy_spaces(state, geo, player))


def end_turn(state: State, geo: Geometry, rng: Rng) -> list[Event]:
    """End the current turn: the next player in seat order who is still in the game starts
    theirs; passing the first player's seat starts a new round; after the last round the game
    ends (round limit)."""
    current = state["turn"]
    events: list[Event] = [{"type": "turn_ended", "player": current}]
    units = state["units"]
    ensnared = [uid for uid, u in units.items() if u["owner"] == current and u["ensnared"]]
    # In unit-id order, not the state's key order: a session stores its states with sorted keys
    # (u10 before u2), its replay steps on states in the rules' own order.
    for uid in sorted(ensnared, key=id_key):
        # Seed, Ensnare: "immobilize a unit it attacks for their next turn" - that turn is over.
        units[uid]["ensnared"] = False
        events.append({"type": "ensnare_ended", "player": current, "unit": uid})
    nxt = _next_seat(state, current)
    if _offset(state, nxt) <= _offset(state, current):
        if state["round"] >= state["scenario"]["round_limit"]:
            events.extend(finish(state, "round_limit"))
            return events
        state["round"] += 1
    events.extend(begin_turn(state, geo, rng, nxt))
    return events


# -- defeat and the end ----------------------------------------------------------------------------
def defeat(state: State, loser: PlayerId, reason: str, by: PlayerId | None = None) -> list[Event]:
    """``loser`` is out of the game. After a Throne capture their cards and Mines and Ruins pass
    to the capturer, who may deploy 3 free units in the captured Castle (seed, Castle); in a game
    of three or more players the capturer also "assumes control over all remaining units of the
    opponent they have defeated" (seed, Victory Conditions), with their Action Board pins and
    walls. Otherwise the loser's units leave the board, their cards go to the discard piles and
    their Mines and Ruins become unowned."""

    skip_the_defeated(state, loser)
    state["defeated"].append(loser)
    theirs = sorted((uid for uid, u in state["units"].items() if u["owner"] == loser), key=id_key)
    board = state["boards"][loser]
    hand_over = by is not None and len(state["players"]) >= 3
    if hand_over:
        gainer = state["boards"][by]
        for uid in theirs:
            unit = state["units"][uid]
            unit["owner"] = by
            unit.update(fresh_turn_flags())
            unit["done"] = True
        gainer["packing"].extend(board["packing"])
        gainer["spells"].extend(board["spells"])
        for w in own_walls(state):
            if w["owner"] == loser:
                w["owner"] = by

        prune_engaged(state)
    else:
        for uid in theirs:
            remove_unit(state, uid)
    board["packing"], board["spells"] = [], []
    for e in board["effects"]:
        if not hand_over or e["unit"] is None or e["unit"] not in state["units"]:
            continue
        state["boards"][by]["effects"].append(e)
    board["effects"] = []
    hand = state["hands"][loser]
    state["hands"][loser] = []
    for key in ("mines", "ruins"):
        state["control"][key] = [by if o == loser else o for o in state["control"][key]]
    if by is not None:
        state["hands"][by].extend(hand)
        earn_deploys(state["boards"][by], THRONE_CAPTURE_DEPLOYS)
        state["zones"][by].extend([loser, *state["zones"][loser]])
        state["zones"][loser] = []
    else:
        for card in hand:
            state["discards"][_card_deck(state, card)].append(card)
    event: dict[str, Any] = {
        "type": "player_defeated",
        "player": loser,
        "reason": reason,
        "units_removed": [] if hand_over else theirs,
    }
    if by is not None:
        event["by"] = by
        event["cards_passed"] = len(hand)
    if hand_over:
        event["units_handed_over"] = theirs
    return [event]


def _card_deck(state: State, card: str) -> str:
    return card_catalog(state["cards"])[card]["deck"]


def check_end(state: State, geo: Geometry) -> list[Event]:
    """After set-up, a player with no unit left on the board is defeated (ruling RS 8: the last
    player with units on the board wins). When one player (or none) is left, the game ends."""
    events: list[Event] = []
    if state["phase"] != "setup":
        standing = {u["owner"] for u in state["units"].values() if u["at"] is not None}
        for p in in_game(state):
            if p not in standing:
                events.extend(defeat(state, p, "no_units"))
    if len(in_game(state)) <= 1:
        events.extend(finish(state, "last_standing"))
    return events


def finish(state: State, reason: str) -> list[Event]:
    """End the game: ``status`` finished, nobody active, the outcome recorded."""
    state["status"] = "finished"
    state["phase"] = "finished"
    state["active_players"] = []
    state["turn"] = None
    state["pending"] = None
    result = outcome(state, reason)
    state["outcome"] = result.to_dict()
    return [
        {
            "type": "game_over",
            "winners": list(result.winners),
            "draw": result.draw,
            "scores": dict(result.scores),
            "reason": reason,
        }
    ]
