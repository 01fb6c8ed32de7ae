"""Legal moves, violations and ``apply``: the dispatch over every phase.

Each phase has exactly one kind of decision (rules doc §Moves):

========== ================================ =====================================
phase      who is active                    move types
========== ================================ =====================================
deal       the advisor first in draw_queue  ``draw`` {deck}
exchange   advisors who have not chosen     ``exchange`` {cards}
redraw     the advisor first in draw_queue  ``draw`` {deck}
pitch      advisors who have not pitched    ``pitch`` {card}
decide     the Monarch                      ``decide`` {accept}
reveal     the Monarch                      ``reveal`` {advisor}
mind       the Monarch                      ``change_mind``, ``keep_decision``
refill     the advisor first in draw_queue  ``draw`` {deck}
story_vote the others, not yet voted        ``story_vote`` {approve}
end_vote   players who have not voted       ``end_vote`` {end}
succession the outgoing Monarch             ``name_monarch`` {monarch}
========== ================================ =====================================

Moves arrive shape-checked by the schemas, but any value may still be wrong. Nothing here
raises anything but :class:`~rules.errors.IllegalMove`, and no message tells a player anything
they may not see (another player's cards, pitch or vote).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engine_types import Event, Move, PlayerId, State, Violation
from rules.errors import IllegalMove
from rules.integrity import is_int
from rules.reigns_the_council import ending, reign, rounds, rulebook, seats
from rules.reigns_the_council.state import CHANGES, clone
from rules.rng import Rng

__all__ = ["MOVE_TYPES", "legal_moves", "violations", "apply"]

MOVE_TYPES = (
    "draw",
    "exchange",
    "pitch",
    "decide",
    "reveal",
    "change_mind",
    "keep_decision",
    "story_vote",
    "end_vote",
    "name_monarch",
)
_PHASES_OF = {
    "draw": ("deal", "redraw", "refill"),
    "exchange": ("exchange",),
    "pitch": ("pitch",),
    "decide": ("decide",),
    "reveal": ("reveal",),
    "change_mind": ("mind",),
    "keep_decision": ("mind",),
    "story_vote": ("story_vote",),
    "end_vote": ("end_vote",),
    "name_monarch": ("succession",),
}
_FIELDS = {
    "draw": "deck",
    "exchange": "cards",
    "pitch": "card",
    "decide": "accept",
    "reveal": "advisor",
    "change_mind": None,
    "keep_decision": None,
    "story_vote": "approve",
    "end_vote": "end",
    "name_monarch": "monarch",
}
"""Move type -> its one parameter (None: no parameter)."""
_ALLOWED: dict[str, frozenset[str]] = {
    kind: frozenset({"player", "type"} if field is None else {"player", "type", field})
    for kind, field in _FIELDS.items()
}
"""Move type -> the fields a move of that type may have."""
_PHASE_RULE = {
    "deal": rulebook.DRAWING,
    "redraw": rulebook.EXCHANGE,
    "refill": rulebook.DRAWING,
    "exchange": rulebook.EXCHANGE,
    "pitch": rulebook.PITCHING,
    "decide": rulebook.DECISION,
    "reveal": rulebook.REVEAL,
    "mind": rulebook.CHANGE_OF_MIND,
    "story_vote": rulebook.STORY_POINT,
    "end_vote": rulebook.EARLY_END,
    "succession": rulebook.SUCCESSION,
    "finished": rulebook.WINNERS,
}
_PHASE_TASK = {
    "deal": "the advisors are drawing their seven cards (a draw move)",
    "redraw": "the advisors are drawing after the exchange (a draw move)",
    "refill": "the advisors are drawing at the end of the round (a draw move)",
    "exchange": "the advisors are choosing cards to exchange (an exchange move)",
    "pitch": "the advisors are pitching their proposals (a pitch move)",
    "decide": "the Monarch is accepting or rejecting the proposals (a decide move)",
    "reveal": "the Monarch is revealing the proposals (a reveal move)",
    "mind": "the Monarch may change their mind about the revealed proposal "
    "(change_mind or keep_decision)",
    "story_vote": "the players are voting on the story point (a story_vote move)",
    "end_vote": "the players are voting on ending the game (an end_vote move)",
    "succession": "the outgoing Monarch is naming the next one (a name_monarch move)",
}


# -- legal moves ----------------------------------------------------------------------------------
_MASKS: dict[int, list[tuple[int, ...]]] = {}


def _subsets(items: list[str]) -> list[list[str]]:
    """Every subset of ``items`` (in their order), by increasing bit mask: [], [a], [b], [a,
    b]..."""
    n = len(items)
    masks = _MASKS.get(n)
    if masks is None:
        masks = _MASKS[n] = [tuple(i for i in range(n) if mask >> i & 1) for mask in range(1 << n)]
    return [[items[i] for i in mask] for mask in masks]


def _moves_of(state: State, p: PlayerId) -> list[Move]:
    phase = state["phase"]
    if phase in ("deal", "redraw", "refill"):
        return [{"player": p, "type": "draw", "deck": i} for i, d in enumerate(state["decks"]) if d]
    if phase == "exchange":
        return [{"player": p, "type": "exchange", "cards": s} for s in _subsets(state["hands"][p])]
    if phase == "pitch":
        return [{"player": p, "type": "pitch", "card": c} for c in state["hands"][p]]
    if phase == "decide":
        order = [a for a in seats.advisors(state) if a in state["round"]["table"]]
        return [{"player": p, "type": "decide", "accept": s} for s in _subsets(order)[1:]]
    if phase == "reveal":
        return [{"player": p, "type": "reveal", "advisor": a} for a in rounds.revealable(state)]
    if phase == "mind":
        return [{"player": p, "type": "change_mind"}, {"player": p, "type": "keep_decision"}]
    if phase == "story_vote":
        return [
            {"player": p, "type": "story_vote", "approve": True},
            {"player": p, "type": "story_vote", "approve": False},
        ]
    if phase == "end_vote":
        return [
            {"player": p, "type": "end_vote", "end": True},
            {"player": p, "type": "end_vote", "end": False},
        ]
    if phase == "succession":
        reigned = {r["monarch"] for r in state["reigns"]}
        return [
            {"player": p, "type": "name_monarch", "monarch": q}
            for q in state["players"]
            if q not in reigned
        ]
    return []


def legal_moves(state: State, player: PlayerId | None = None) -> list[Move]:
    """Every legal move of ``player``, or of all active players (in ``active_players`` order)
    when None. Inactive or unknown players, and everyone once the game is over, get ``[]``."""
    active = state["active_players"]
    if player is not None:
        return _moves_of(state, player) if player in active else []
    moves: list[Move] = []
    for p in active:
        moves.extend(_moves_of(state, p))
    return moves


# -- violations -----------------------------------------------------------------------------------
def violations(state: State, move: Move) -> list[Violation]:
    """Why ``move`` is illegal in ``state``; ``[]`` when it is legal.

    Checked in order, stopping at the first failing level: the player is in the game; the game
    is not over; the move type exists and takes exactly its parameters; it fits the phase; the
    player is active; then the move's own rules.
    """
    p = move.get("player")
    if p.__class__ is not str or p not in state["hands"]:
        return [
            Violation("unknown_player", f"There is no player {p!r} in this game.", rulebook.PLAYERS)
        ]
    if state["status"] == "finished":
        return [
            Violation(
                "game_finished", "The game is over; no more moves can be made.", rulebook.WINNERS
            )
        ]
    kind = move.get("type")
    if kind.__class__ is not str or kind not in _FIELDS:
        return [
            Violation(
                "unknown_move_type",
                f"Reigns: The Council has no move type {str(kind)[:40]!r}.",
                rulebook.MOVES,
            )
        ]
    field = _FIELDS[kind]
    allowed = _ALLOWED[kind]
    if not allowed.issuperset(move):
        extra = sorted(str(k) for k in move if k not in allowed)
        return [
            Violation(
                "unexpected_field", f"A {kind} move takes no {extra[0][:40]!r}.", rulebook.MOVES
            )
        ]
    if field is not None and field not in move:
        return [Violation("missing_field", f"A {kind} move needs {field!r}.", rulebook.MOVES)]
    phase = state["phase"]
    if phase not in _PHASES_OF[kind]:
        return [
            Violation(
                "wrong_phase",
                f"This is not the time for a {kind} move: "
                f"{_PHASE_TASK.get(phase, 'the game is in another phase')}.",
                _PHASE_RULE.get(phase, rulebook.MOVES),
            )
        ]
    if p not in state["active_players"]:
        return [_not_active(state, p)]
    return _CHECKS[kind](state, move, p)


def _not_active(state: State, p: PlayerId) -> Violation:
    """Why ``p`` may not move now, without revealing anybody's secret choice."""
    phase = state["phase"]
    rule = _PHASE_RULE[phase]
    pending = {
        "exchange": state["exchange"],
        "pitch": (state["round"] or {}).get("pitches"),
        "story_vote": state["votes"],
        "end_vote": state["votes"],
    }.get(phase)
    if pending is not None and p in pending:
        return Violation(
            "already_chosen", "You have already made your choice; wait for the others.", rule
        )
    if phase in ("deal", "redraw", "refill"):
        return Violation(
            "not_your_turn", f"It is {state['active_players'][0]}'s turn to draw.", rule
        )
    if phase in ("decide", "reveal", "mind"):
        return Violation("not_monarch", "Only the Monarch makes this decision.", rule)
    if phase == "succession":
        return Violation("not_monarch", "Only the outgoing Monarch names the next one.", rule)
    if phase == "story_vote":
        return Violation(
            "storyteller", "The storyteller does not vote on their own story point.", rule
        )
    return Violation(
        "not_advisor", "The Monarch does not take part in this; only the advisors do.", rule
    )


def _check_draw(state: State, move: Move, p: PlayerId) -> list[Violation]:
    deck = move["deck"]
    if not is_int(deck) or not 0 <= deck < len(state["decks"]):
        return [Violation("unknown_deck", "Choose deck 0, 1 or 2.", rulebook.DRAWING)]
    if not state["decks"][deck]:
        return [
            Violation(
                "empty_deck", f"Deck {deck} is empty; draw from another deck.", rulebook.DRAWING
            )
        ]
    return []


def _check_exchange(state: State, move: Move, p: PlayerId) -> list[Violation]:
    cards = move["cards"]
    if cards.__class__ is not list or any(c.__class__ is not str for c in cards):
        return [
            Violation(
                "bad_cards", "Name the cards to exchange as a list of card ids.", rulebook.EXCHANGE
            )
        ]
    if len(set(cards)) != len(cards):
        return [
            Violation("duplicate_card", "Name each card to exchange only once.", rulebook.EXCHANGE)
        ]
    hand = state["hands"][p]
    if any(c not in hand for c in cards):
        return [
            Violation(
                "card_not_in_hand",
                "You can only exchange cards from your own hand.",
                rulebook.EXCHANGE,
            )
        ]
    return []


def _check_pitch(state: State, move: Move, p: PlayerId) -> list[Violation]:
    card = move["card"]
    if card.__class__ is not str or card not in state["hands"][p]:
        return [
            Violation(
                "card_not_in_hand",
                "You can only pitch a card from your own hand.",
                rulebook.PITCHING,
            )
        ]
    return []


def _check_decide(state: State, move: Move, p: PlayerId) -> list[Violation]:
    accept = move["accept"]
    if accept.__class__ is not list or any(a.__class__ is not str for a in accept):
        return [
            Violation(
                "bad_accept", "List the advisors whose proposals you accept.", rulebook.DECISION
            )
        ]
    if len(set(accept)) != len(accept):
        return [Violation("duplicate_advisor", "Name each advisor only once.", rulebook.DECISION)]
    table = state["round"]["table"]
    if any(a not in table for a in accept):
        return [
            Violation(
                "no_such_proposal",
                "You can only accept proposals pitched to you this round.",
                rulebook.DECISION,
            )
        ]
    if not accept:
        return [
            Violation(
                "must_accept_one", "You must accept at least one proposal.", rulebook.DECISION
            )
        ]
    return []


def _check_reveal(state: State, move: Move, p: PlayerId) -> list[Violation]:
    advisor = move["advisor"]
    rnd = state["round"]
    if advisor.__class__ is not str or advisor not in rnd["table"]:
        return [
            Violation(
                "no_such_proposal",
                "There is no face-down proposal of that advisor to reveal.",
                rulebook.REVEAL,
            )
        ]
    if advisor not in rounds.revealable(state):
        return [
            Violation(
                "rejected_first",
                "Reveal every rejected proposal before the accepted ones.",
                rulebook.REVEAL,
            )
        ]
    return []


def _check_none(state: State, move: Move, p: PlayerId) -> list[Violation]:
    return []


def _check_bool(rule: str) -> Callable[[State, Move, PlayerId], list[Violation]]:
    def check(state: State, move: Move, p: PlayerId) -> list[Violation]:
        field = _FIELDS[move["type"]]
        value = None if field is None else move[field]
        if value is not True and value is not False:
            return [Violation("bad_vote", "Vote true or false.", rule)]
        return []

    return check


def _check_name(state: State, move: Move, p: PlayerId) -> list[Violation]:
    successor = move["monarch"]
    if successor.__class__ is not str or successor not in state["hands"]:
        return [
            Violation(
                "unknown_player",
                f"There is no player {str(successor)[:64]!r} in this game.",
                rulebook.SUCCESSION,
            )
        ]
    if any(r["monarch"] == successor for r in state["reigns"]):
        return [
            Violation(
                "already_reigned",
                f"{successor} has already been the Monarch; nobody reigns twice.",
                rulebook.SUCCESSION,
            )
        ]
    return []


_CHECKS = {
    "draw": _check_draw,
    "exchange": _check_exchange,
    "pitch": _check_pitch,
    "decide": _check_decide,
    "reveal": _check_reveal,
    "change_mind": _check_none,
    "keep_decision": _check_none,
    "story_vote": _check_bool(rulebook.STORY_POINT),
    "end_vote": _check_bool(rulebook.EARLY_END),
    "name_monarch": _check_name,
}


# -- apply ----------------------------------------------------------------------------------------
def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The state after ``move`` and the events, in order. Never mutates ``state``.

    Raises IllegalMove with the violations when the move is illegal.
    """
    found = violations(state, move)
    if found:
        raise IllegalMove(found)
    new = clone(state, CHANGES[move["type"]])  # copy only what this kind of move changes
    new["move_count"] = state["move_count"] + 1
    events: list[Event] = []
    p = move["player"]
    kind = move["type"]
    if kind not in _CHANCE:
        _apply_certain(new, move, p, kind, events)
        return new, events
    rng = Rng.parse(state["rng"])
    if kind == "draw":
        reign.apply_draw(new, p, move["deck"], rng, events)
    elif kind == "exchange":
        reign.apply_exchange(new, p, move["cards"], rng, events)
    elif kind == "reveal":
        rounds.apply_reveal(new, move["advisor"], rng, events)
    elif kind == "change_mind" or kind == "keep_decision":
        rounds.apply_mind(new, kind == "change_mind", rng, events)
    else:
        reign.apply_name(new, move["monarch"], rng, events)
    new["rng"] = str(rng)
    return new, events


_CHANCE = frozenset({"draw", "exchange", "reveal", "change_mind", "keep_decision", "name_monarch"})
"""Moves that may shuffle (a deck rebuilt, a new reign): only these read and write the generator."""


def _apply_certain(new: State, move: Move, p: PlayerId, kind: str, events: list[Event]) -> None:
    """The moves that involve no chance: pitching, deciding, voting."""
    if kind == "pitch":
        rounds.apply_pitch(new, p, move["card"], events)
    elif kind == "decide":
        rounds.apply_decide(new, move["accept"], events)
    elif kind == "story_vote":
        ending.apply_story_vote(new, p, move["approve"], events)
    else:
        ending.apply_end_vote(new, p, move["end"], events)
