"""Playing a card: as a fighter, or for its faction's ability.

Seed §4 Play cards and §Card Abilities; rulings R&R 4 to R&R 9. Each turn the active player
plays exactly one card of their hand, either as a fighter in their own army or for its
faction's ability (move types ``destroy``, ``draw``, ``double``, ``protect``, ``swap``,
``revive``). An ability may only be used when it can take effect (rulings R&R 6), and no
ability can target a fighter with a Cognitz token (rulings R&R 5).

This module is on the hot path of random playouts, so legal plays are listed as actions (tuples,
``rules.reign_and_ruin.actions``) that carry where their target lies, a client's move is checked
with targeted look-ups (never by listing all legal moves), an action is resolved without being
checked again, and a play copies only the containers it changes (copy-on-write; states are never
mutated).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine_types import Action, Event, Move, PlayerId, State, Violation
from rules.reign_and_ruin import rulebook
from rules.reign_and_ruin.actions import Place
from rules.reign_and_ruin.cards import ABILITY_FACTION, FACTIONS, MAX_KURGOZ
from rules.reign_and_ruin.turns import end_turn

__all__ = [
    "PLAY_TYPES",
    "DESTINATIONS",
    "TOKENS",
    "play_actions",
    "play_violations",
    "check_play",
    "apply_play",
]

PLAY_TYPES = ("fighter", "destroy", "draw", "double", "protect", "swap", "revive")
_NAME = {f["id"]: f["name"] for f in FACTIONS}
_ALLOWED_FIELDS: dict[str, frozenset[str]] = {
    "fighter": frozenset({"player", "type", "card"}),
    "destroy": frozenset({"player", "type", "card", "target"}),
    "draw": frozenset({"player", "type", "card"}),
    "double": frozenset({"player", "type", "card", "target"}),
    "protect": frozenset({"player", "type", "card", "target"}),
    "swap": frozenset({"player", "type", "card", "opponent", "take", "to"}),
    "revive": frozenset({"player", "type", "card", "target", "to", "army"}),
}
_ABILITY_PHRASE = {
    "destroy": "destroy a fighter",
    "draw": "draw a card",
    "double": "double a fighter",
    "protect": "protect a fighter",
    "swap": "swap with a fighter",
    "revive": "revive a card",
}
DESTINATIONS = ("army", "hand")
"""Where a taken fighter goes: into the taker's army or hand."""
TOKENS = ("kurgoz", "cognitz")
"""The tokens a fighter can carry (``token_placed``): Kurgoz (doubles its worth, stacks) and
Cognitz (protects it)."""
_MIN_FIELDS = {
    "fighter": 3,
    "destroy": 4,
    "draw": 3,
    "double": 4,
    "protect": 4,
    "swap": 4,
    "revive": 5,
}
"""Fields every move of the type has; a move with more may carry one it does not take."""
_NONE: list[Violation] = []
"""The shared empty result of a check that found nothing (never appended to)."""


def _unprotected(state: State) -> list[str]:
    """Ids of every fighter without a Cognitz token, in seat order then army order."""
    armies = state["armies"]
    return [f["card"] for p in state["players"] for f in armies[p] if not f["cognitz"]]


def _doublable(state: State) -> list[str]:
    """Ids of the unprotected fighters that may take one more Kurgoz token (below MAX_KURGOZ)."""
    armies = state["armies"]
    return [
        f["card"]
        for p in state["players"]
        for f in armies[p]
        if not f["cognitz"] and f["kurgoz"] < MAX_KURGOZ
    ]


def _locate(state: State, target: Any) -> tuple[PlayerId, int] | None:
    """Owner and army index of the fighter ``target``, or None when no army holds it."""
    armies = state["armies"]
    for owner in state["players"]:
        for i, f in enumerate(armies[owner]):
            if f["card"] == target:
                return owner, i
    return None


# -- legal moves -------------------------------------------------------------------------------


def play_actions(state: State, p: PlayerId) -> list[Action]:
    """Every legal play of the active player ``p``, as actions: for each card of the hand, in
    hand order, the fighter play, then each legal use of its ability (targets in seat and army
    order; Crou: opponents in seat order, then each takeable fighter to army then to hand;
    Nomora: discard order, to hand then to each army in seat order). The armies are surveyed
    once per state (:func:`_survey`), for every card that needs it. Plain loops: most cards
    have only a few uses, too few to repay a list comprehension's own call. Each action is
    added by ``actions.append(...)`` itself, not through a local alias of the bound method:
    Python 3.11 runs that call as one specialised instruction (issue 28)."""
    cards = state["cards"]
    players = state["players"]
    actions: list[Action] = []
    places: list[Place] | None = None
    for c in state["hands"][p]:
        actions.append(("fighter", p, c))
        faction = cards[c]["faction"]
        if faction == "hexen":
            if state["draw_pile"]:
                actions.append(("draw", p, c))
            continue
        if faction == "nomora":
            for t in state["discard_pile"]:
                actions.append(("revive", p, c, t, None))  # None: to the hand
                for a in players:
                    actions.append(("revive", p, c, t, a))
            continue
        if places is None:
            places = _survey(state)
        if faction == "alfenghast" or faction == "cognitz":
            kind = "destroy" if faction == "alfenghast" else "protect"
            for place in places:
                actions.append((kind, p, c, place))
        elif faction == "kurgoz":
            for place in places:
                if place[3] < MAX_KURGOZ:
                    actions.append(("double", p, c, place))
        else:  # crou
            _add_swaps(actions, p, c, players, places)
    return actions


def _add_swaps(
    actions: list[Action], p: PlayerId, c: str, players: list[PlayerId], places: list[Place]
) -> None:
    """Add Crou ``c``'s swaps to ``actions``: per opponent of ``p`` in seat order, each
    unprotected fighter of their army taken to army then to hand, or the bare swap when there is
    none."""
    for o in players:
        if o == p:
            continue
        took = False
        for place in places:
            if place[1] == o:
                actions.append(("swap", p, c, place, "army"))
                actions.append(("swap", p, c, place, "hand"))
                took = True
        if not took:
            actions.append(("swap", p, c, o))


def _survey(state: State) -> list[Place]:
    """The place of every unprotected fighter, in seat then army order: what Alfenghast,
    Cognitz, Kurgoz (below MAX_KURGOZ tokens) and Crou may target."""
    armies = state["armies"]
    places: list[Place] = []
    for owner in state["players"]:
        i = 0  # a plain loop: about five fighters in all, too few to repay a comprehension
        for f in armies[owner]:
            if not f["cognitz"]:
                places.append((f["card"], owner, i, f["kurgoz"]))
            i += 1
    return places


# -- violations --------------------------------------------------------------------------------


def play_violations(state: State, move: Move, p: PlayerId) -> list[Violation]:
    """Why the active player ``p`` may not make the play ``move`` (phase and turn already checked).

    Checks, in order: fields the move type does not take, the card is in the player's hand,
    the card's faction has this ability, then the ability's own conditions.
    """
    return check_play(state, move, p)[0]


def check_play(state: State, move: Move, p: PlayerId) -> tuple[list[Violation], Any]:
    """:func:`play_violations` plus what the checks found (the target's place in its army), so
    that :func:`apply_play` need not search for it again."""
    kind = move["type"]
    found: list[Violation] = []
    if len(move) > _MIN_FIELDS[kind]:  # only then can a field be one too many
        allowed = _ALLOWED_FIELDS[kind]
        found = [
            Violation("unexpected_field", f"A {kind} move takes no {key!r}.", rulebook.MOVES)
            for key in move
            if key not in allowed
        ]
    card = move.get("card")
    if card.__class__ is not str or card not in state["hands"][p]:
        found.append(Violation("card_not_in_hand", "That card is not in your hand.", rulebook.TURN))
        return found, None
    if kind == "fighter":
        return found, None
    faction = state["cards"][card]["faction"]
    needed = ABILITY_FACTION[kind]
    if faction != needed:
        found.append(
            Violation(
                "wrong_faction",
                f"Only a {_NAME[needed]} card can {_ABILITY_PHRASE[kind]}; {card} is "
                f"{_NAME[faction]}.",
                rulebook.FACTION_RULE[needed],
            )
        )
        return found, None
    problems, where = _CHECKS[kind](state, move, p, card)
    if problems:
        found.extend(problems)
    return found, where


def _check_fighter_target(
    state: State, move: Move, p: PlayerId, card: str
) -> tuple[list[Violation], tuple[PlayerId, int] | None]:
    """Alfenghast, Kurgoz and Cognitz: ``target`` is an unprotected fighter in any army (your
    own counts). With no unprotected fighter anywhere the ability cannot be used (rulings R&R 5,
    6)."""
    target = move.get("target")
    where = _locate(state, target) if target.__class__ is str else None
    doubling = move["type"] == "double"
    fighter = state["armies"][where[0]][where[1]] if where is not None else None
    at_limit = doubling and fighter is not None and fighter["kurgoz"] >= MAX_KURGOZ
    if fighter is not None and not fighter["cognitz"] and not at_limit:
        return _NONE, where
    faction = ABILITY_FACTION[move["type"]]
    if not (_doublable(state) if doubling else _unprotected(state)):
        return [
            Violation(
                "no_target",
                f"There is no unprotected fighter in any army, so {_NAME[faction]}'s ability "
                "cannot be used; play the card as a fighter.",
                rulebook.ABILITIES,
            )
        ], None
    if fighter is not None and not fighter["cognitz"]:  # so, at the token limit
        return [
            Violation(
                "token_limit",
                f"{target} already carries {MAX_KURGOZ} Kurgoz tokens, "
                f"the most a fighter can hold.",
                rulebook.KURGOZ,
            )
        ], None
    if where is not None:
        return [
            Violation(
                "target_protected",
                f"{target} has a Cognitz token: it is immune to every ability.",
                rulebook.PROTECTION,
            )
        ], None
    if target is None:
        return [
            Violation("missing_field", "Name the fighter to target (target).", rulebook.MOVES)
        ], None
    return [
        Violation(
            "unknown_target",
            f"There is no fighter {target!r} in any army.",
            rulebook.FACTION_RULE[faction],
        )
    ], None


def _check_draw(state: State, move: Move, p: PlayerId, card: str) -> tuple[list[Violation], None]:
    """Hexen: "If the draw pile is empty, this ability cannot be used." (seed §Hexen)"""
    if not state["draw_pile"]:
        return [
            Violation(
                "draw_pile_empty",
                "The draw pile is empty, so Hexen's ability cannot be used.",
                rulebook.HEXEN,
            )
        ], None
    return _NONE, None


def _check_swap(
    state: State, move: Move, p: PlayerId, card: str
) -> tuple[list[Violation], int | None]:
    """Crou: join an opponent's army; then, exactly when that army holds an unprotected fighter
    other than this Crou, take one into your army or hand (rulings R&R 7). Found: the index of
    the fighter to take in the opponent's army."""
    opponent = move.get("opponent")
    armies = state["armies"]
    if opponent.__class__ is not str or opponent not in armies:
        return [
            Violation(
                "unknown_opponent", f"There is no player {opponent!r} in this game.", rulebook.CROU
            )
        ], None
    if opponent == p:
        return [
            Violation("own_army", "Crou joins an opponent's army, not your own.", rulebook.CROU)
        ], None
    take = move.get("take")
    to = move.get("to")
    army = armies[opponent]
    if (
        take is not None and to.__class__ is str and to in DESTINATIONS
    ):  # the usual, legal-looking case
        for i, f in enumerate(army):
            if f["card"] == take and not f["cognitz"]:
                return _NONE, i
    if not any(not f["cognitz"] for f in army):
        if take is not None or to is not None:
            return [
                Violation(
                    "nothing_to_take",
                    f"{opponent}'s army has no unprotected fighter to take, so leave out "
                    f"take and to.",
                    rulebook.CROU,
                )
            ], None
        return _NONE, None
    found: list[Violation] = []
    if take is None:
        found.append(
            Violation(
                "take_required",
                f"{opponent}'s army holds an unprotected fighter: choose one to take "
                f"(take) and where it goes (to: army or hand).",
                rulebook.CROU,
            )
        )
    else:
        fighter = next((f for f in army if f["card"] == take), None)
        if fighter is None:
            message = (
                "You cannot take the Crou you are playing."
                if take == card
                else f"There is no fighter {take!r} in {opponent}'s army."
            )
            found.append(Violation("take_not_in_army", message, rulebook.CROU))
        elif fighter["cognitz"]:
            found.append(
                Violation(
                    "target_protected",
                    f"{take} has a Cognitz token: Crou cannot take it.",
                    rulebook.PROTECTION,
                )
            )
    if to is None:
        if take is not None:
            found.append(
                Violation(
                    "missing_field",
                    "Say where the fighter goes (to: army or hand).",
                    rulebook.MOVES,
                )
            )
    elif to.__class__ is not str or to not in DESTINATIONS:
        found.append(
            Violation("invalid_destination", 'to must be "army" or "hand".', rulebook.CROU)
        )
    return found, None


def _check_revive(state: State, move: Move, p: PlayerId, card: str) -> tuple[list[Violation], None]:
    """Nomora: any card of the discard pile (not this Nomora) into any army as a fighter, or
    into your hand (rulings R&R 6, R&R 8)."""
    discard = state["discard_pile"]
    if not discard:
        return [
            Violation(
                "discard_pile_empty",
                "The discard pile is empty, so Nomora's ability cannot be used.",
                rulebook.NOMORA,
            )
        ], None
    found: list[Violation] = []
    target = move.get("target")
    if target.__class__ is not str or target not in discard:
        message = (
            "A Nomora cannot revive itself: it is discarded only after it resolves."
            if target == card
            else f"Card {target!r} is not in the discard pile."
        )
        found.append(Violation("not_in_discard", message, rulebook.NOMORA))
    to = move.get("to")
    army = move.get("army")
    if to == "hand":
        if army is not None:
            found.append(
                Violation(
                    "unexpected_field",
                    "A card revived into your hand takes no army.",
                    rulebook.MOVES,
                )
            )
    elif to == "army":
        if army is None:
            found.append(
                Violation("missing_field", "Say which army the card joins (army).", rulebook.MOVES)
            )
        elif army.__class__ is not str or army not in state["armies"]:
            found.append(
                Violation(
                    "unknown_army", f"There is no player {army!r} in this game.", rulebook.NOMORA
                )
            )
    else:
        found.append(
            Violation("invalid_destination", 'to must be "army" or "hand".', rulebook.NOMORA)
        )
    return found, None


_CHECKS: dict[str, Callable[[State, Move, PlayerId, str], tuple[list[Violation], Any]]] = {
    "destroy": _check_fighter_target,
    "double": _check_fighter_target,
    "protect": _check_fighter_target,
    "draw": _check_draw,
    "swap": _check_swap,
    "revive": _check_revive,
}


# -- resolution --------------------------------------------------------------------------------


def apply_play(state: State, action: Action) -> tuple[State, list[Event]]:
    """Resolve a legal play ``action`` (``rules.reign_and_ruin.actions``: listed by
    :func:`play_actions`, or made from a move that passed :func:`check_play`) and pass the turn
    on.

    The card leaves the hand; the play resolves; then :func:`end_turn` decides who plays next or
    whether the final round starts or the game ends.
    """
    kind = action[0]
    p = action[1]
    card = action[2]
    new = state.copy()
    new["move_count"] = state["move_count"] + 1
    hands = state["hands"].copy()
    hand = hands[p].copy()
    hand.remove(card)
    emptied = not hand  # R&R 10: this card empties the hand, whatever its ability brings back
    hands[p] = hand
    new["hands"] = hands
    events: list[Event] = []
    if kind != "fighter":
        events.append({"type": "ability_used", "player": p, "card": card, "ability": kind})
    _RESOLVE[kind](state, new, action, p, card, hand, events)
    end_turn(new, p, events, emptied)
    return new, events


def _fighter(card: str) -> dict[str, Any]:
    """``card`` as a fighter entering an army: without tokens, whether played (seed §4 A),
    a Crou joining or a fighter taken (rulings R&R 7: "tokens on it are removed") or revived
    (R&R 8: "without tokens")."""
    return {"card": card, "kurgoz": 0, "cognitz": False}


def _play_fighter(
    state: State,
    new: State,
    action: Action,
    p: PlayerId,
    card: str,
    hand: list[str],
    events: list[Event],
) -> None:
    """Seed §4 A: place the card face up as a fighter in your own army."""
    armies = state["armies"].copy()
    armies[p] = [*armies[p], _fighter(card)]
    new["armies"] = armies
    events.append({"type": "fighter_played", "player": p, "card": card})


def _destroy(
    state: State,
    new: State,
    action: Action,
    p: PlayerId,
    card: str,
    hand: list[str],
    events: list[Event],
) -> None:
    """Alfenghast: discard this card, then discard the target fighter; its tokens return to the
    supply (seed §Alfenghast, §Kurgoz; rulings R&R 9)."""
    target, owner, i, _ = action[3]
    armies = state["armies"].copy()
    army = armies[owner].copy()
    fighter = army.pop(i)
    armies[owner] = army
    new["armies"] = armies
    new["discard_pile"] = [*state["discard_pile"], card, target]
    events.append(
        {
            "type": "fighter_destroyed",
            "player": p,
            "owner": owner,
            "card": target,
            "kurgoz_returned": fighter["kurgoz"],
            "cognitz_returned": fighter["cognitz"],
        }
    )


def _draw(
    state: State,
    new: State,
    action: Action,
    p: PlayerId,
    card: str,
    hand: list[str],
    events: list[Event],
) -> None:
    """Hexen: discard this card and put the top card of the draw pile into your hand."""
    new["discard_pile"] = [*state["discard_pile"], card]
    pile = state["draw_pile"]
    top = pile[0]
    new["draw_pile"] = pile[1:]
    hand.append(top)
    events.append({"type": "card_drawn", "player": p, "card": top})


def _place_token(
    state: State,
    new: State,
    action: Action,
    p: PlayerId,
    card: str,
    hand: list[str],
    events: list[Event],
) -> None:
    """Kurgoz: one more Kurgoz token on the target (tokens stack, rulings R&R 9).
    Cognitz: a Cognitz token on the target, which becomes immune to every ability (R&R 5)."""
    kind = action[0]
    target, owner, i, _ = action[3]
    armies = state["armies"].copy()
    army = armies[owner].copy()
    fighter = army[i].copy()
    if kind == "double":
        token = "kurgoz"
        fighter["kurgoz"] += 1
    else:
        token = "cognitz"
        fighter["cognitz"] = True
    army[i] = fighter
    armies[owner] = army
    new["armies"] = armies
    new["discard_pile"] = [*state["discard_pile"], card]
    events.append(
        {
            "type": "token_placed",
            "player": p,
            "owner": owner,
            "card": target,
            "token": token,
            "kurgoz": fighter["kurgoz"],
        }
    )


def _swap(
    state: State,
    new: State,
    action: Action,
    p: PlayerId,
    card: str,
    hand: list[str],
    events: list[Event],
) -> None:
    """Crou: this card joins the opponent's army as a fighter; then the chosen unprotected
    fighter leaves that army for your army or your hand, its tokens returned (rulings R&R 7)."""
    if len(action) == 5:
        take, opponent, i, _ = action[3]
    else:
        opponent = action[3]
    armies = state["armies"].copy()
    army = [*armies[opponent], _fighter(card)]
    events.append({"type": "fighter_joined", "player": p, "army": opponent, "card": card})
    if len(action) == 5:
        to = action[4]
        fighter = army.pop(i)
        if to == "army":
            armies[p] = [*armies[p], _fighter(take)]
        else:
            hand.append(take)
        events.append(
            {
                "type": "fighter_taken",
                "player": p,
                "owner": opponent,
                "card": take,
                "to": to,
                "kurgoz_returned": fighter["kurgoz"],
            }
        )
    armies[opponent] = army
    new["armies"] = armies


def _revive(
    state: State,
    new: State,
    action: Action,
    p: PlayerId,
    card: str,
    hand: list[str],
    events: list[Event],
) -> None:
    """Nomora: the chosen discard card goes into an army as a fighter without tokens, or into
    your hand; then this Nomora is discarded (rulings R&R 8)."""
    target = action[3]
    discard = state["discard_pile"].copy()
    discard.remove(target)
    discard.append(card)
    new["discard_pile"] = discard
    army = action[4]
    if army is None:
        hand.append(target)
        events.append({"type": "card_revived", "player": p, "card": target, "to": "hand"})
    else:
        armies = state["armies"].copy()
        armies[army] = [*armies[army], _fighter(target)]
        new["armies"] = armies
        events.append(
            {"type": "card_revived", "player": p, "card": target, "to": "army", "army": army}
        )


_RESOLVE: dict[
    str, Callable[[State, State, Action, PlayerId, str, list[str], list[Event]], None]
] = {
    "fighter": _play_fighter,
    "destroy": _destroy,
    "draw": _draw,
    "double": _place_token,
    "protect": _place_token,
    "swap": _swap,
    "revive": _revive,
}
