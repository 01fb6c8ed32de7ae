"""Integrity of a state a client sends back (meaning, not shape).

The schemas have already checked the shape. This module checks that the state could have been
reached by playing (rules doc §Integrity): known cards and goals, every card in exactly one
place, tokens within -5..+5, each player reigning at most once, hand sizes, and phase, active
players, draw queue, pending choices, reveals, votes, reign records and outcome consistent with
each other. It never raises anything but InvalidState.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine import seats_after
from rules.engine_types import STATUSES, State, Violation
from rules.integrity import common_problems, is_int, raise_problems
from rules.reigns_the_council import rulebook
from rules.reigns_the_council.content import (
    DECK_COUNT,
    GOALS,
    HAND_SIZE,
    MAX_CARD_ID,
    MAX_DECK,
    PILLARS,
    TRACK_MAX,
    TRACK_MIN,
    card_problems,
    default_catalog,
    goal_points,
    min_deck_size,
)
from rules.reigns_the_council.ending import REIGN_ENDS, outcome
from rules.reigns_the_council.rounds import ABDICATION_PILE, DECISIONS
from rules.reigns_the_council.state import MAX_MOVE_COUNT, SCHEMA_VERSION, STORY_MODES
from rules.shown_text import LookAlikes, id_violation

__all__ = ["check_state", "state_problems", "phase_problems", "PHASES"]

PHASES = (
    "deal",
    "exchange",
    "redraw",
    "pitch",
    "decide",
    "reveal",
    "mind",
    "refill",
    "story_vote",
    "end_vote",
    "succession",
    "finished",
)
_DRAW_PHASES = ("deal", "redraw", "refill")
_ROUND_PHASES = (
    "pitch",
    "decide",
    "reveal",
    "mind",
    "refill",
    "story_vote",
    "end_vote",
    "succession",
    "finished",
)
_MAX_POINTS = 1000
_RECORD_KEYS = {"number", "monarch", "end", "goals", "tracks", "points"}
_POINT_KEYS = {"acceptance", "story", "pile", "goal"}
_ROUND_KEYS = {
    "number",
    "pitches",
    "table",
    "accepted",
    "revealed",
    "pending",
    "mind_changed",
    "discarded",
}


class _Bad(Exception):
    """Internal: stop checking at the first problem found in a part the rest depends on."""


def _v(code: str, message: str) -> Violation:
    return Violation(code, message, rulebook.INTEGRITY)


def check_state(state: State) -> None:
    """Raise InvalidState listing the problems found; return quietly for a sound state."""
    raise_problems(state_problems(state))


def state_problems(state: State) -> list[Violation]:
    """Every integrity problem of ``state`` found (``[]`` when sound). Never raises."""
    return _collected(_problems, state)


def phase_problems(state: State) -> list[Violation]:
    """The checks of the state's phase alone, on a state whose other parts are sound: a cheap
    first test of each state the forfeit check guesses at (``rules/forfeit.py``). Never raises."""
    return _collected(_check_this_phase, state)


def _check_this_phase(state: State, found: list[Violation]) -> None:
    _check_phase(state, state["players"], found)


def _collected(checks: Callable[[State, list[Violation]], None], state: State) -> list[Violation]:
    """The problems ``checks`` finds in ``state``; a state it cannot read is ``malformed_state``."""
    found: list[Violation] = []
    try:
        checks(state, found)
    except _Bad:
        pass
    except (KeyError, TypeError, AttributeError, ValueError, IndexError, RecursionError) as exc:
        found.append(_v("malformed_state", f"The state cannot be read ({type(exc).__name__})."))
    return found


def _need(ok: bool, found: list[Violation], code: str, message: str) -> None:
    """Record a problem the rest of the checks depend on, and stop."""
    if not ok:
        found.append(_v(code, message))
        raise _Bad


def _problems(state: State, found: list[Violation]) -> None:
    _need(isinstance(state, dict), found, "malformed_state", "The state must be an object.")
    common, _ = common_problems(
        state,
        game_id=rulebook.GAME_ID,
        schema_version=SCHEMA_VERSION,
        min_players=3,
        max_players=4,
        max_move_count=MAX_MOVE_COUNT,
        rule=rulebook.INTEGRITY,
    )
    found.extend(common)
    if common:
        raise _Bad
    players = state["players"]
    _check_scalars(state, players, found)
    _check_cards(state, players, found)
    _check_tracks(state, found)
    _check_reigns(state, players, found)
    _check_containers(state, players, found)
    _check_places(state, players, found)
    _check_phase(state, players, found)


def _check_scalars(state: State, players: list[str], found: list[Violation]) -> None:
    phase, status = state.get("phase"), state.get("status")
    _need(phase in PHASES, found, "bad_phase", f"state.phase must be one of {', '.join(PHASES)}.")
    _need(
        status in STATUSES and (status == "finished") == (phase == "finished"),
        found,
        "inconsistent_status",
        'state.status is "finished" exactly when state.phase is "finished".',
    )
    _need(
        state.get("story_point") in STORY_MODES,
        found,
        "bad_story_point",
        'state.story_point must be "auto" or "vote".',
    )
    active = state.get("active_players")
    _need(
        isinstance(active, list)
        and all(p in players for p in active)
        and len(set(active)) == len(active),
        found,
        "bad_active_players",
        "state.active_players must list players of the game, each at most once.",
    )


def _check_cards(state: State, players: list[str], found: list[Violation]) -> None:
    cards: Any = state.get("cards")  # unchecked JSON until the checks below
    _need(
        isinstance(cards, dict),
        found,
        "bad_cards",
        "state.cards must map card ids to proposal cards.",
    )
    if cards is default_catalog() or cards == default_catalog():
        return
    _need(
        min_deck_size(len(players)) <= len(cards) <= MAX_DECK,
        found,
        "deck_size",
        f"state.cards must hold {min_deck_size(len(players))} to {MAX_DECK} cards for "
        f"{len(players)} players.",
    )
    problems: list[Violation] = []
    given = LookAlikes()
    codes = ("bad_card", "duplicate_card_id")
    for cid, card in cards.items():
        bad_id = id_violation(
            "state.cards id", cid, "card", given, codes, rulebook.INTEGRITY, MAX_CARD_ID
        )
        if bad_id is not None:
            problems.append(bad_id)
        else:
            where = f"state.cards.{cid}"
            problems.extend(_v("bad_card", p) for p in card_problems(where, card, with_id=False))
        if len(problems) >= 20:
            break
    if problems:
        found.extend(problems[:20])
        raise _Bad


def _check_tracks(state: State, found: list[Violation]) -> None:
    tracks: Any = state.get("tracks")  # unchecked JSON until the checks below
    _need(
        isinstance(tracks, dict)
        and set(tracks) == set(PILLARS)
        and all(is_int(v) and TRACK_MIN <= v <= TRACK_MAX for v in tracks.values()),
        found,
        "bad_tracks",
        f"state.tracks must give each pillar ({', '.join(PILLARS)}) a whole number from "
        f"{TRACK_MIN} to {TRACK_MAX}.",
    )


def _check_points(where: str, points: Any, found: list[Violation]) -> None:
    # Checked for every player of every reign on every request: the messages are written only
    # when a check fails.
    if not (isinstance(points, dict) and set(points) == _POINT_KEYS):
        _need(False, found, "bad_points", f"{where} must be {{acceptance, story, pile, goal}}.")
    for k in ("acceptance", "story", "pile"):
        if not (is_int(points[k]) and 0 <= points[k] <= _MAX_POINTS):
            _need(
                False,
                found,
                "bad_points",
                f"{where}.{k} must be a whole number from 0 to {_MAX_POINTS}.",
            )
    goal = points["goal"]
    if not (
        isinstance(goal, dict)
        and all(p in PILLARS and is_int(v) and 0 <= v <= TRACK_MAX for p, v in goal.items())
    ):
        _need(
            False,
            found,
            "bad_points",
            f"{where}.goal must map pillars to points from 0 to {TRACK_MAX}.",
        )


def _check_reigns(state: State, players: list[str], found: list[Violation]) -> None:
    """One record per reign so far, numbered from 1; each player reigns at most once; only the
    last reign may still be going on; points, goals and tracks as its end implies."""
    reigns: Any = state.get("reigns")  # unchecked JSON until the checks below
    _need(
        isinstance(reigns, list) and 1 <= len(reigns) <= len(players),
        found,
        "bad_reigns",
        "state.reigns must hold one record per reign so far (at least one, at most one per "
        "player).",
    )
    seen: set[str] = set()
    for i, record in enumerate(reigns):
        where = f"state.reigns.{i}"
        _need(
            isinstance(record, dict) and set(record) == _RECORD_KEYS,
            found,
            "bad_reigns",
            f"{where} must be {{number, monarch, end, goals, tracks, points}}.",
        )
        _need(record["number"] == i + 1, found, "bad_reigns", f"{where}.number must be {i + 1}.")
        ruler = record["monarch"]
        _need(
            ruler in players and ruler not in seen,
            found,
            "reigned_twice",
            f"{where}.monarch must be a player who has not reigned before; nobody reigns twice.",
        )
        seen.add(ruler)
        end = record["end"]
        _need(
            end in (None, *REIGN_ENDS) and (end is not None or i == len(reigns) - 1),
            found,
            "bad_reigns",
            f'{where}.end must be "death" or "abdication" (null only for the current reign).',
        )
        points = record["points"]
        _need(
            isinstance(points, dict) and set(points) == set(players),
            found,
            "bad_points",
            f"{where}.points must have exactly one entry per player.",
        )
        for p in players:
            _check_points(f"{where}.points.{p}", points[p], found)
        order = seats_after(players, ruler)
        mon = points[ruler]
        _need(
            mon["acceptance"] == 0 and mon["story"] == 0 and not mon["goal"],
            found,
            "bad_points",
            f"{where}.points.{ruler}: the Monarch scores only pile points.",
        )
        _need(
            all(points[p]["pile"] == 0 for p in order),
            found,
            "bad_points",
            f"{where}.points: only the Monarch scores pile points.",
        )
        if end is None:
            _need(
                record["goals"] is None
                and record["tracks"] is None
                and mon["pile"] == 0
                and all(not points[p]["goal"] and points[p]["story"] == 0 for p in order),
                found,
                "bad_points",
                f"{where}: a reign going on has no end tracks, revealed goals, pile, goal or "
                "story points yet.",
            )
            continue
        tracks = record["tracks"]
        _need(
            isinstance(tracks, dict)
            and set(tracks) == set(PILLARS)
            and all(is_int(v) and TRACK_MIN <= v <= TRACK_MAX for v in tracks.values()),
            found,
            "bad_reigns",
            f"{where}.tracks must give each pillar a whole number from {TRACK_MIN} to {TRACK_MAX}.",
        )
        at_end = any(v in (TRACK_MIN, TRACK_MAX) for v in tracks.values())
        if end == "abdication":
            _need(
                record["goals"] is None
                and not at_end
                and mon["pile"] >= ABDICATION_PILE
                and all(not points[p]["goal"] and points[p]["story"] == 0 for p in order),
                found,
                "bad_reigns",
                f"{where}: after an abdication no token is on an end space, the pile held "
                f"{ABDICATION_PILE} or more, and no goal or story points are scored.",
            )
            continue
        goals = record["goals"]
        _need(
            at_end
            and isinstance(goals, dict)
            and set(goals) == set(order)
            and all(g in GOALS for g in goals.values())
            and len(set(goals.values())) == len(goals),
            found,
            "bad_reigns",
            f"{where}: after a death a token is on an end space and each advisor's "
            f"different goal is revealed.",
        )
        _need(
            all(points[p]["goal"] == goal_points(GOALS[goals[p]], tracks) for p in order)
            and sum(points[p]["story"] for p in order) <= 1,
            found,
            "bad_points",
            f"{where}: goal points must be those of the revealed goals, and at most one story "
            "point.",
        )


def _ids(value: Any, where: str, found: list[Violation]) -> list[str]:
    _need(
        isinstance(value, list) and all(isinstance(c, str) for c in value),
        found,
        "bad_places",
        f"{where} must be a list of card ids.",
    )
    return value


def _check_containers(state: State, players: list[str], found: list[Violation]) -> None:
    decks: Any = state.get("decks")  # unchecked JSON until the checks below
    _need(
        isinstance(decks, list) and len(decks) == DECK_COUNT,
        found,
        "bad_decks",
        f"state.decks must be a list of {DECK_COUNT} decks.",
    )
    for i, deck in enumerate(decks):
        _ids(deck, f"state.decks.{i}", found)
    _ids(state.get("discard"), "state.discard", found)
    _ids(state.get("discard_revealed"), "state.discard_revealed", found)
    _ids(state.get("pile"), "state.pile", found)
    hands: Any = state.get("hands")  # unchecked JSON until the checks below
    _need(
        isinstance(hands, dict) and set(hands) == set(players),
        found,
        "bad_players",
        "state.hands must have exactly one entry per player.",
    )
    for p in players:
        _ids(hands[p], f"state.hands.{p}", found)
    ruler = state["reigns"][-1]["monarch"]
    _need(not hands[ruler], found, "monarch_hand", "The Monarch holds no proposal cards.")
    queue = state.get("draw_queue")
    _need(
        isinstance(queue, list) and all(p in players and p != ruler for p in queue),
        found,
        "bad_draw_queue",
        "state.draw_queue must list advisors.",
    )
    goals = state.get("goals")
    order = seats_after(players, ruler)
    _need(
        isinstance(goals, dict)
        and set(goals) == set(order)
        and all(g in GOALS for g in goals.values())
        and len(set(goals.values())) == len(goals),
        found,
        "bad_goals",
        "state.goals must give each advisor a different known secret goal.",
    )
    rnd = state.get("round")
    if rnd is not None:
        _need(
            isinstance(rnd, dict) and set(rnd) == _ROUND_KEYS,
            found,
            "bad_round",
            "state.round must be null or {number, pitches, table, accepted, revealed, pending, "
            "mind_changed, discarded}.",
        )
        _need(
            is_int(rnd["number"]) and 1 <= rnd["number"] <= _MAX_POINTS,
            found,
            "bad_round",
            "state.round.number must be a whole number from 1.",
        )
        _need(
            isinstance(rnd["table"], dict)
            and all(p in order and isinstance(c, str) for p, c in rnd["table"].items()),
            found,
            "bad_round",
            "state.round.table must map advisors to card ids.",
        )
        pending = rnd["pending"]
        _need(
            pending is None
            or (
                isinstance(pending, dict)
                and set(pending) == {"advisor", "card", "decision"}
                and pending["advisor"] in order
                and isinstance(pending["card"], str)
                and pending["decision"] in DECISIONS
            ),
            found,
            "bad_round",
            "state.round.pending must be null or {advisor, card, decision}.",
        )
        _need(
            isinstance(rnd["revealed"], list)
            and all(
                isinstance(r, dict)
                and set(r) == {"advisor", "card", "decision", "changed"}
                and r["advisor"] in order
                and isinstance(r["card"], str)
                and r["decision"] in DECISIONS
                and isinstance(r["changed"], bool)
                for r in rnd["revealed"]
            ),
            found,
            "bad_round",
            "state.round.revealed must list {advisor, card, decision, changed} of advisors.",
        )
        _need(
            isinstance(rnd["mind_changed"], bool),
            found,
            "bad_round",
            "state.round.mind_changed must be a boolean.",
        )
        _need(
            isinstance(rnd["discarded"], list) and all(p in order for p in rnd["discarded"]),
            found,
            "bad_round",
            "state.round.discarded must list advisors.",
        )
        accepted = rnd["accepted"]
        _need(
            accepted is None
            or (
                isinstance(accepted, list)
                and all(p in order for p in accepted)
                and len(set(accepted)) == len(accepted)
            ),
            found,
            "bad_round",
            "state.round.accepted must be null or a list of advisors.",
        )


def _check_places(state: State, players: list[str], found: list[Violation]) -> None:
    """Every card of ``cards`` in exactly one place: a deck, the discard pile, a hand, the
    Monarch's pile, face down on the table, or revealed and awaiting the Monarch's mind."""
    cards = state["cards"]
    places: list[tuple[str, list[str]]] = [
        (f"state.decks.{i}", d) for i, d in enumerate(state["decks"])
    ]
    places += [("state.discard", state["discard"]), ("state.pile", state["pile"])]
    places += [(f"state.hands.{p}", state["hands"][p]) for p in players]
    rnd = state["round"]
    if rnd is not None:
        places.append(("state.round.table", list(rnd["table"].values())))
        if rnd["pending"] is not None:
            places.append(("state.round.pending", [rnd["pending"]["card"]]))
    seen: dict[str, str] = {}
    problems: list[Violation] = []
    for where, ids in places:
        for cid in ids:
            if cid not in cards:
                problems.append(
                    _v("unknown_card", f"{where} holds {cid[:64]!r}, which is not in state.cards.")
                )
            elif cid in seen:
                problems.append(
                    _v("card_in_two_places", f"Card {cid!r} is in {seen[cid]} and in {where}.")
                )
            else:
                seen[cid] = where
            if len(problems) >= 10:
                break
    if len(seen) != len(cards) and not problems:
        problems.append(
            _v(
                "missing_card",
                f"{len(cards) - len(seen)} card(s) of state.cards are found nowhere.",
            )
        )
    if problems:
        found.extend(problems)
        raise _Bad
    discard = state["discard"]
    face_up = state["discard_revealed"]
    _need(
        len(set(face_up)) == len(face_up) and [c for c in discard if c in face_up] == face_up,
        found,
        "bad_discard_revealed",
        "state.discard_revealed must list cards of state.discard, each once, in "
        "discard order: the rejected proposals that went there face up.",
    )


def _active(state: State, expected: list[str], found: list[Violation], what: str) -> None:
    _need(
        state["active_players"] == expected,
        found,
        "inconsistent_active_players",
        f"state.active_players must be {what}.",
    )


def _check_phase(state: State, players: list[str], found: list[Violation]) -> None:
    phase = state["phase"]
    record = state["reigns"][-1]
    ruler = record["monarch"]
    order = seats_after(players, ruler)
    hands = state["hands"]
    tracks = state["tracks"]
    rnd = state["round"]
    queue = state["draw_queue"]
    at_end = any(v in (TRACK_MIN, TRACK_MAX) for v in tracks.values())
    over = phase in ("end_vote", "succession", "finished")
    _need(
        (record["end"] is not None) == over,
        found,
        "inconsistent_phase",
        "state.reigns' last record must be ended exactly when the phase is end_vote, "
        "succession or finished.",
    )
    _need(
        over or (at_end == (phase == "story_vote")),
        found,
        "inconsistent_tracks",
        "A token stands on an end space exactly when the Monarch has died.",
    )
    if over:
        _need(
            record["tracks"] == tracks,
            found,
            "inconsistent_tracks",
            "The tracks must be as they were when the reign ended.",
        )
    _need(
        (rnd is not None) == (phase in _ROUND_PHASES),
        found,
        "inconsistent_phase",
        f"state.round must be present exactly in the phases {', '.join(_ROUND_PHASES)}.",
    )
    _need(
        (state["exchange"] is not None) == (phase == "exchange"),
        found,
        "inconsistent_phase",
        "state.exchange must be present exactly in the exchange phase.",
    )
    _need(
        (state["votes"] is not None) == (phase in ("story_vote", "end_vote")),
        found,
        "inconsistent_phase",
        "state.votes must be present exactly during a vote.",
    )
    _need(
        (state["story"] is not None) == (phase == "story_vote"),
        found,
        "inconsistent_phase",
        "state.story must be present exactly during the story vote.",
    )
    _need(
        bool(queue) == (phase in _DRAW_PHASES),
        found,
        "inconsistent_draw_queue",
        "state.draw_queue is non-empty exactly in the draw phases (deal, redraw, refill).",
    )
    _need(
        (state["outcome"] is not None) == (phase == "finished"),
        found,
        "inconsistent_phase",
        "state.outcome is set exactly when the game is finished.",
    )
    if phase in _DRAW_PHASES:
        _active(state, [queue[0]], found, "[state.draw_queue[0]]")
        _need(
            any(state["decks"]),
            found,
            "inconsistent_decks",
            "Some deck must hold a card when a player must draw.",
        )
    if phase in ("deal", "exchange", "redraw"):
        _need(
            all(v == 0 for v in tracks.values()) and not state["pile"],
            found,
            "inconsistent_phase",
            "Before the first round the tokens are at the centre and the pile is empty.",
        )
        owed = {p: queue.count(p) for p in order}
        _need(
            all(len(hands[p]) + owed[p] == HAND_SIZE for p in order),
            found,
            "bad_hand_size",
            f"Each advisor holds {HAND_SIZE} cards once they have drawn the cards they are owed.",
        )
        if phase == "deal":
            full = _round_robin(order, {p: HAND_SIZE for p in order})
            _need(
                queue == full[len(full) - len(queue) :],
                found,
                "inconsistent_draw_queue",
                "state.draw_queue must take one card per advisor in turn, in seat order from the "
                "Monarch's left.",
            )
    if phase == "exchange":
        chosen = state["exchange"]
        _need(
            isinstance(chosen, dict) and set(chosen) == set(order),
            found,
            "bad_exchange",
            "state.exchange must have one entry per advisor.",
        )
        for p, cards in chosen.items():
            _need(
                cards is None
                or (
                    isinstance(cards, list)
                    and len(set(cards)) == len(cards)
                    and all(c in hands[p] for c in cards)
                ),
                found,
                "bad_exchange",
                f"state.exchange.{p} must be null or distinct cards of that advisor's hand.",
            )
        _active(
            state,
            [p for p in order if chosen[p] is None],
            found,
            "the advisors (seat order from the Monarch's left) who have not chosen",
        )
        _need(
            bool(state["active_players"]),
            found,
            "bad_exchange",
            "Once everyone has chosen, the exchange happens.",
        )
    if phase in _ROUND_PHASES:
        _check_round(state, order, ruler, found)
    if phase == "story_vote":
        story = state["story"]
        _need(
            isinstance(story, dict) and set(story) == {"advisor"} and story["advisor"] in order,
            found,
            "bad_story",
            "state.story must be {advisor} naming an advisor.",
        )
        voters = [p for p in players if p != story["advisor"]]
        _check_votes(state, voters, found)
    if phase == "end_vote":
        _check_votes(state, list(players), found)
    if phase in ("end_vote", "succession"):
        _need(
            len(state["reigns"]) < len(players),
            found,
            "inconsistent_phase",
            "Once everyone has reigned the game is over.",
        )
    if phase == "succession":
        _active(state, [ruler], found, "[the outgoing Monarch]")
    if phase == "finished":
        _active(state, [], found, "empty once the game is finished")
        reason = "game_end" if len(state["reigns"]) == len(players) else "early_end"
        _need(
            state["outcome"] == outcome(state, reason),
            found,
            "inconsistent_outcome",
            "state.outcome does not match the points scored.",
        )


def _round_robin(order: list[str], owed: dict[str, int]) -> list[str]:
    queue: list[str] = []
    left = dict(owed)
    while any(left.values()):
        for p in order:
            if left[p]:
                queue.append(p)
                left[p] -= 1
    return queue


def _check_votes(state: State, voters: list[str], found: list[Violation]) -> None:
    votes = state["votes"]
    _need(
        isinstance(votes, dict)
        and set(votes) == set(voters)
        and all(v is None or isinstance(v, bool) for v in votes.values()),
        found,
        "bad_votes",
        "state.votes must map each voter to null or a boolean.",
    )
    _active(
        state, [p for p in voters if votes[p] is None], found, "the voters who have not voted yet"
    )
    _need(
        bool(state["active_players"]),
        found,
        "bad_votes",
        "Once everyone has voted, the vote is counted.",
    )


def _check_round(state: State, order: list[str], ruler: str, found: list[Violation]) -> None:
    """The round's record against the phase: pitches, the table, the decision, the reveals, the
    pending change of mind and the hands."""
    phase = state["phase"]
    rnd = state["round"]
    hands = state["hands"]
    table = rnd["table"]
    accepted = rnd["accepted"]
    revealed = rnd["revealed"]
    pending = rnd["pending"]
    if phase == "pitch":
        pitches = rnd["pitches"]
        _need(
            isinstance(pitches, dict) and set(pitches) == set(order),
            found,
            "bad_round",
            "state.round.pitches must have one entry per advisor.",
        )
        _need(
            all(c is None or (isinstance(c, str) and c in hands[p]) for p, c in pitches.items()),
            found,
            "bad_round",
            "A pitched card stays in its advisor's hand until everyone has pitched.",
        )
        _need(
            not table
            and accepted is None
            and not revealed
            and pending is None
            and not rnd["discarded"]
            and not rnd["mind_changed"],
            found,
            "bad_round",
            "Nothing is on the table while advisors pitch.",
        )
        _need(
            all(len(hands[p]) == HAND_SIZE for p in order),
            found,
            "bad_hand_size",
            f"Each advisor holds {HAND_SIZE} cards when pitching.",
        )
        _active(
            state,
            [p for p in order if pitches[p] is None],
            found,
            "the advisors who have not pitched yet",
        )
        _need(
            bool(state["active_players"]),
            found,
            "bad_round",
            "Once everyone has pitched, the Monarch decides.",
        )
        return
    _need(
        rnd["pitches"] is None,
        found,
        "bad_round",
        "state.round.pitches is null once everyone has pitched.",
    )
    placed = (
        list(table) + [r["advisor"] for r in revealed] + ([pending["advisor"]] if pending else [])
    )
    placed += rnd["discarded"]
    _need(
        sorted(placed) == sorted(order),
        found,
        "bad_round",
        "Each advisor's proposal is face down, revealed, awaiting the Monarch's mind or "
        "discarded unrevealed.",
    )
    if phase == "decide":
        _need(
            accepted is None
            and not revealed
            and pending is None
            and len(table) == len(order)
            and not rnd["mind_changed"],
            found,
            "bad_round",
            "While the Monarch decides, every proposal lies face down and nothing is decided.",
        )
        _active(state, [ruler], found, "[the Monarch]")
        _need(
            all(len(hands[p]) == HAND_SIZE - 1 for p in order),
            found,
            "bad_hand_size",
            f"Each advisor holds {HAND_SIZE - 1} cards after pitching.",
        )
        return
    _need(
        isinstance(accepted, list) and bool(accepted),
        found,
        "bad_round",
        "state.round.accepted must name at least one advisor once the Monarch has decided.",
    )
    changed = [r for r in revealed if r["changed"]]
    _need(
        len(changed) == (1 if rnd["mind_changed"] else 0)
        and (not rnd["mind_changed"] or rnd["number"] == 1),
        found,
        "bad_round",
        "The Monarch changes their mind at most once, in the first round of a reign.",
    )
    for r in revealed:
        original = "accepted" if r["advisor"] in accepted else "rejected"
        _need(
            (r["decision"] != original) == r["changed"],
            found,
            "bad_round",
            "A revealed proposal's decision is the Monarch's, reversed only when they changed "
            "their mind.",
        )
    if pending is not None:
        _need(
            pending["decision"] == ("accepted" if pending["advisor"] in accepted else "rejected"),
            found,
            "bad_round",
            "state.round.pending.decision must be the Monarch's decision.",
        )
    shown = [r["advisor"] for r in revealed] + ([pending["advisor"]] if pending else [])
    if any(a in accepted for a in shown):
        _need(
            all(a in accepted for a in table)
            and all(
                a in accepted for a in shown[shown.index(next(a for a in shown if a in accepted)) :]
            ),
            found,
            "bad_round",
            "The rejected proposals are revealed before the accepted ones.",
        )
    cards = [r["card"] for r in revealed]
    _need(
        len(set(cards)) == len(cards)
        and all(c in state["cards"] for c in cards)
        and all(
            (c in state["pile"]) == (r["decision"] == "accepted")
            for c, r in zip(cards, revealed, strict=True)
        ),
        found,
        "bad_round",
        "Each revealed proposal is a different known card; the accepted ones are in the "
        "Monarch's pile, the rejected ones are not.",
    )
    _need(
        (pending is not None) == (phase == "mind"),
        found,
        "bad_round",
        "A revealed card awaits the Monarch's mind exactly in the mind phase.",
    )
    if phase == "mind":
        _need(
            rnd["number"] == 1 and not rnd["mind_changed"],
            found,
            "bad_round",
            "The Monarch may change their mind only in the first round, and only once.",
        )
    if phase in ("reveal", "mind"):
        _active(state, [ruler], found, "[the Monarch]")
        _need(
            all(len(hands[p]) == HAND_SIZE - 1 for p in order),
            found,
            "bad_hand_size",
            f"Each advisor holds {HAND_SIZE - 1} cards while the proposals are revealed (they "
            "draw once every card is resolved).",
        )
        _need(
            bool(table) or pending is not None,
            found,
            "bad_round",
            "Once every card is resolved the round ends.",
        )
        _need(
            not rnd["discarded"],
            found,
            "bad_round",
            "No proposal is discarded unrevealed while the Monarch lives.",
        )
        for r in revealed:
            _need(
                r["card"]
                in (state["pile"] if r["decision"] == "accepted" else state["discard_revealed"]),
                found,
                "bad_round",
                "Revealed accepted cards go to the Monarch's pile, rejected ones face up to the "
                "discard pile.",
            )
    if phase == "refill":
        _need(
            not table and not rnd["discarded"] and len(state["pile"]) < ABDICATION_PILE,
            found,
            "bad_round",
            "The advisors draw only after every card is resolved, with fewer than "
            f"{ABDICATION_PILE} in the pile.",
        )
        queue = state["draw_queue"]
        _need(
            queue == order[len(order) - len(queue) :],
            found,
            "inconsistent_draw_queue",
            "At the end of a round each advisor draws one card, in seat order from the "
            "Monarch's left.",
        )
        drawn = order[: len(order) - len(queue)]
        _need(
            all(len(hands[p]) == HAND_SIZE - (0 if p in drawn else 1) for p in order),
            found,
            "bad_hand_size",
            "Each advisor holds 6 cards before their end-of-round draw and 7 after.",
        )
    if phase in ("story_vote", "end_vote", "succession", "finished"):
        _need(
            not table and pending is None,
            found,
            "bad_round",
            "No card is left on the table once the reign is over.",
        )
