"""Integrity of a state a client sends back (meaning, not shape).

The schemas have already checked the shape (fields present, JSON types right). This module
checks that the state could have been reached by playing: known cards with valid factions and
values, every card in exactly one place, tokens never negative, and phase, status, active
players, draft, final round and outcome consistent with each other (rules doc §Integrity).
"""

from __future__ import annotations

from typing import Any

from rules.engine import seats_after
from rules.engine_types import STATUSES, State, Violation
from rules.integrity import common_problems, guarded, is_int, raise_problems
from rules.reign_and_ruin import rulebook
from rules.reign_and_ruin.cards import (
    CARDS_PER_PLAYER,
    FACTION_IDS,
    MAX_CARD_ID,
    MAX_DECK,
    MAX_KURGOZ,
    MAX_VALUE,
    MIN_VALUE,
    default_catalog,
)
from rules.reign_and_ruin.draft import PICKS_PER_ROUND, ROUNDS, packet_size
from rules.reign_and_ruin.scoring import outcome
from rules.reign_and_ruin.state import MAX_MOVE_COUNT, SCHEMA_VERSION
from rules.shown_text import LookAlikes, id_violation

__all__ = ["check_state", "state_problems", "phase_problems", "PHASES"]

PHASES = ("draft", "play", "final_round", "finished")
"""The phases of a game, in order: the one list of them (``schemas/`` documents ``phase`` with
it)."""


def _v(code: str, message: str) -> Violation:
    return Violation(code, message, rulebook.INTEGRITY)


def check_state(state: State) -> None:
    """Raise InvalidState listing every problem found; return quietly for a sound state."""
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
    found.extend(_check_scalars(state, players))
    found.extend(_check_cards(state, players))
    for field in ("hands", "armies"):
        mapping = state.get(field)
        if not isinstance(mapping, dict) or set(mapping) != set(players):
            found.append(
                _v("bad_players", f"state.{field} must have exactly one entry per player.")
            )
    if found:
        return found
    found.extend(_check_armies(state, players))
    if found:
        return found
    found.extend(_check_places(state, players))
    if found:
        return found
    found.extend(_PHASE_CHECKS[state["phase"]](state, players))
    if state["phase"] != "draft":
        found.extend(_check_hand_sizes(state, players))
    return found


def _check_hand_sizes(state: State, players: list[str]) -> list[Violation]:
    """After the draft no hand holds more than the seven cards it drafted (seed §2; rulings
    R&R 2): each turn plays a card from the hand, and what an ability brings back to it (a
    Hexen draw, a Crou or Nomora to the hand) only replaces the card played. The bound is also
    what keeps a state's move list small: revive lists each Nomora in hand times each card of
    the discard pile times each place."""
    return [
        _v(
            "hand_too_large",
            f"state.hands.{p} holds {len(state['hands'][p])} cards; after the draft a hand holds "
            f"at most the {CARDS_PER_PLAYER} it drafted.",
        )
        for p in players
        if len(state["hands"][p]) > CARDS_PER_PLAYER
    ]


def _check_scalars(state: State, players: list[str]) -> list[Violation]:
    found: list[Violation] = []
    phase, status = state.get("phase"), state.get("status")
    if phase not in PHASES:
        found.append(_v("bad_phase", f"state.phase must be one of {', '.join(PHASES)}."))
    if status not in STATUSES:
        found.append(_v("bad_status", 'state.status must be "in_progress" or "finished".'))
    elif phase in PHASES and (status == "finished") != (phase == "finished"):
        found.append(
            _v(
                "inconsistent_status",
                'state.status is "finished" exactly when state.phase is "finished".',
            )
        )
    starting = state.get("starting_player")
    if starting not in players and not (starting is None and phase == "draft"):
        found.append(
            _v(
                "unknown_player",
                "state.starting_player must be one of state.players (or null during "
                "the draft, when it is drawn once the draft ends).",
            )
        )
    active = state.get("active_players")
    if (
        not isinstance(active, list)
        or any(p not in players for p in active)
        or len(set(active)) != len(active)
    ):
        found.append(
            _v(
                "bad_active_players",
                "state.active_players must list players of the game, each at most once.",
            )
        )
    return found


def _check_cards(state: State, players: list[str]) -> list[Violation]:
    cards = state.get("cards")
    if not isinstance(cards, dict):
        return [_v("bad_cards", "state.cards must map card ids to {faction, value}.")]
    found: list[Violation] = []
    if cards == default_catalog():  # the common case, known good, compared at C speed
        return found
    if len(cards) > MAX_DECK:
        return [
            _v(
                "deck_too_large",
                f"state.cards holds {len(cards)} cards; a deck holds at most {MAX_DECK}.",
            )
        ]
    given = LookAlikes()
    codes = ("bad_card", "duplicate_card_id")
    for cid, card in cards.items():
        bad_id = id_violation(
            "state.cards id", cid, "card", given, codes, rulebook.INTEGRITY, MAX_CARD_ID
        )
        if bad_id is not None:
            found.append(bad_id)
        elif not isinstance(card, dict) or card.get("faction") not in FACTION_IDS:
            found.append(
                _v("bad_card", f"state.cards.{cid}.faction must be one of the six factions.")
            )
        elif not is_int(card.get("value")) or not MIN_VALUE <= card["value"] <= MAX_VALUE:
            found.append(
                _v(
                    "bad_card",
                    f"state.cards.{cid}.value must be a whole number from "
                    f"{MIN_VALUE} to {MAX_VALUE}.",
                )
            )
    if len(cards) < CARDS_PER_PLAYER * len(players):
        found.append(
            _v(
                "deck_too_small",
                f"state.cards must hold at least {CARDS_PER_PLAYER} cards per player.",
            )
        )
    return found


def _check_armies(state: State, players: list[str]) -> list[Violation]:
    found: list[Violation] = []
    for p in players:
        for i, f in enumerate(state["armies"][p]):
            where = f"state.armies.{p}.{i}"
            if not isinstance(f, dict) or not isinstance(f.get("card"), str):
                found.append(_v("bad_fighter", f"{where} must be {{card, kurgoz, cognitz}}."))
                continue
            if not is_int(f.get("kurgoz")) or not 0 <= f["kurgoz"] <= MAX_KURGOZ:
                found.append(
                    _v(
                        "bad_tokens",
                        f"{where}.kurgoz must be a whole number from 0 to {MAX_KURGOZ}.",
                    )
                )
            if not isinstance(f.get("cognitz"), bool):
                found.append(_v("bad_fighter", f"{where}.cognitz must be true or false."))
    return found


def _places(state: State, players: list[str]) -> list[tuple[str, list[Any]]]:
    """Every place a card can lie, named by its field path, with the ids it holds."""
    places: list[tuple[str, list[Any]]] = [
        ("state.draw_pile", state["draw_pile"]),
        ("state.discard_pile", state["discard_pile"]),
    ]
    for p in players:
        places.append((f"state.hands.{p}", state["hands"][p]))
        places.append((f"state.armies.{p}", [f["card"] for f in state["armies"][p]]))
    draft = state.get("draft")
    if isinstance(draft, dict):
        for part in ("packets", "kept"):
            mapping = draft.get(part)
            if isinstance(mapping, dict):
                for p in players:
                    if isinstance(mapping.get(p), list):
                        places.append((f"state.draft.{part}.{p}", mapping[p]))
    return places


def _check_places(state: State, players: list[str]) -> list[Violation]:
    """Every card of ``cards`` in exactly one place; no unknown card anywhere."""
    cards = state["cards"]
    seen: dict[str, str] = {}
    found: list[Violation] = []
    for where, ids in _places(state, players):
        for cid in ids:
            if not isinstance(cid, str) or cid not in cards:
                found.append(
                    _v("unknown_card", f"{where} holds {cid!r}, which is not in state.cards.")
                )
            elif cid in seen:
                found.append(
                    _v("card_in_two_places", f"Card {cid!r} is in {seen[cid]} and in {where}.")
                )
            else:
                seen[cid] = where
    missing = [cid for cid in cards if cid not in seen]
    if missing:
        shown = ", ".join(repr(c) for c in missing[:5]) + (" ..." if len(missing) > 5 else "")
        found.append(
            _v("missing_card", f"state.cards lists {len(missing)} card(s) found nowhere: {shown}.")
        )
    return found


def _check_draft(state: State, players: list[str]) -> list[Violation]:
    """The draft: round 1 to 3, packets of 7/5/3, 0/2/4 cards kept, picks of 0 or 2 cards from
    the player's own packet, not everyone picked (the packets would have passed), active =
    the players yet to pick; nothing in hands, armies or the discard pile yet."""
    found: list[Violation] = []
    draft = state.get("draft")
    if not isinstance(draft, dict):
        return [_v("inconsistent_draft", "state.draft must be present during the draft.")]
    round_no = draft.get("round")
    if not is_int(round_no) or not 1 <= round_no <= ROUNDS:
        return [_v("bad_draft_round", f"state.draft.round must be 1 to {ROUNDS}.")]
    for part in ("packets", "picks", "kept"):
        if not isinstance(draft.get(part), dict) or set(draft[part]) != set(players):
            return [
                _v("bad_players", f"state.draft.{part} must have exactly one entry per player.")
            ]
    size, kept = packet_size(round_no), PICKS_PER_ROUND * (round_no - 1)
    for p in players:
        if len(draft["packets"][p]) != size:
            found.append(
                _v(
                    "bad_packet_size",
                    f"state.draft.packets.{p} must hold {size} cards in round {round_no}.",
                )
            )
        if len(draft["kept"][p]) != kept:
            found.append(
                _v(
                    "bad_kept_size",
                    f"state.draft.kept.{p} must hold {kept} cards in round {round_no}.",
                )
            )
        picks = draft["picks"][p]
        if picks and (
            len(picks) != PICKS_PER_ROUND
            or len(set(picks)) != PICKS_PER_ROUND
            or any(c not in draft["packets"][p] for c in picks)
        ):
            found.append(
                _v(
                    "bad_picks",
                    f"state.draft.picks.{p} must be empty or two different cards "
                    f"of state.draft.packets.{p}.",
                )
            )
    waiting = [p for p in players if not draft["picks"][p]]
    if not waiting:
        found.append(
            _v(
                "inconsistent_draft",
                "state.draft.picks: once everyone has chosen, the packets pass.",
            )
        )
    if state["active_players"] != waiting:
        found.append(
            _v(
                "inconsistent_active_players",
                "state.active_players must be the players (in seat order) who have not chosen yet.",
            )
        )
    for p in players:
        if state["hands"][p] or state["armies"][p]:
            found.append(
                _v(
                    "inconsistent_phase",
                    f"state.hands.{p} and state.armies.{p} are empty during the draft.",
                )
            )
    if state["discard_pile"]:
        found.append(_v("inconsistent_phase", "state.discard_pile is empty during the draft."))
    found.extend(_nulls(state, "final_round", "outcome"))
    return found


def _nulls(state: State, *fields: str) -> list[Violation]:
    return [
        _v("inconsistent_phase", f"state.{f} must be null in phase {state['phase']!r}.")
        for f in fields
        if state.get(f) is not None
    ]


def _one_active(state: State) -> list[Violation]:
    if len(state["active_players"]) != 1:
        return [
            _v("inconsistent_active_players", "state.active_players must name exactly one player.")
        ]
    return []


def _check_play(state: State, players: list[str]) -> list[Violation]:
    """Play: one active player, no draft, no final round, no outcome, and every hand holds a
    card (the first hand to empty starts the final round)."""
    found = _nulls(state, "draft", "final_round", "outcome") + _one_active(state)
    for p in players:
        if not state["hands"][p]:
            found.append(
                _v(
                    "inconsistent_phase",
                    f"state.hands.{p} is empty, so the final round should have started.",
                )
            )
    return found


def _check_final_round_field(state: State, players: list[str], finished: bool) -> list[Violation]:
    final = state.get("final_round")
    if (
        not isinstance(final, dict)
        or final.get("ended_by") not in players
        or not isinstance(final.get("to_play"), list)
    ):
        return [
            _v(
                "inconsistent_final_round",
                "state.final_round must be {ended_by: a player, to_play: [players]}.",
            )
        ]
    ended_by, to_play = final["ended_by"], final["to_play"]
    found: list[Violation] = []
    order = seats_after(players, ended_by)
    if any(p not in order for p in to_play) or to_play != [p for p in order if p in to_play]:
        found.append(
            _v(
                "inconsistent_final_round",
                "state.final_round.to_play must list other players once each, in seat order "
                "from the seat after ended_by.",
            )
        )
    if finished and to_play:
        found.append(
            _v(
                "inconsistent_final_round",
                "state.final_round.to_play is empty once the game is finished.",
            )
        )
    if not finished and not to_play:
        found.append(
            _v(
                "inconsistent_final_round",
                "state.final_round.to_play is empty, so the game should be over.",
            )
        )
    if len(state["hands"][ended_by]) > 1:
        # R&R 10: the last card's own ability may bring one card back (a Hexen draw, a Crou or
        # Nomora to the hand); nothing else adds to that hand once the final round has begun.
        found.append(
            _v(
                "inconsistent_final_round",
                f"state.hands.{ended_by} holds at most the one card its last play brought back.",
            )
        )
    for p in to_play:
        if p in players and not state["hands"][p]:
            found.append(
                _v(
                    "inconsistent_final_round",
                    f"state.hands.{p} is empty, yet state.final_round.to_play lists that player.",
                )
            )
    return found


def _check_final_round(state: State, players: list[str]) -> list[Violation]:
    """Final round: ``to_play`` in seat order after ``ended_by``, each holding a card; the
    active player is ``to_play[0]``."""
    found = _nulls(state, "draft", "outcome") + _check_final_round_field(
        state, players, finished=False
    )
    if not found and state["active_players"] != state["final_round"]["to_play"][:1]:
        found.append(
            _v(
                "inconsistent_active_players",
                "state.active_players must be [state.final_round.to_play[0]].",
            )
        )
    return found


def _check_finished(state: State, players: list[str]) -> list[Violation]:
    """Finished: nobody active, no draft, the final round done, and the outcome the armies give."""
    found = _nulls(state, "draft") + _check_final_round_field(state, players, finished=True)
    if state["active_players"]:
        found.append(
            _v("inconsistent_active_players", "state.active_players must be empty once finished.")
        )
    if state.get("outcome") != outcome(state):
        found.append(_v("inconsistent_outcome", "state.outcome does not match the armies' totals."))
    return found


_PHASE_CHECKS = {
    "draft": _check_draft,
    "play": _check_play,
    "final_round": _check_final_round,
    "finished": _check_finished,
}


state_problems = guarded(_problems, rulebook.INTEGRITY)


def _phase_problems(state: State) -> list[Violation]:
    return _PHASE_CHECKS[state["phase"]](state, state["players"])


phase_problems = guarded(_phase_problems, rulebook.INTEGRITY)
"""The checks of the state's phase alone, on a state whose other parts are sound: a cheap first
test of each state the forfeit check guesses at (``rules/forfeit.py``). Never raises."""
