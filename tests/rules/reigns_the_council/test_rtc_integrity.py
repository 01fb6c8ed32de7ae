"""Integrity: a corrupted state is refused with InvalidState (422), never a crash (rules doc
§Integrity)."""

from __future__ import annotations

import copy
import random

import pytest
from rtc_helpers import apply, fresh, move, pitch, to_pitch

from rules.errors import InvalidState
from rules.playout import random_steps
from rules.reigns_the_council import GAME
from rules.reigns_the_council.integrity import state_problems


def sample_states() -> list[dict]:
    """One state of every phase, from random games (story votes included)."""
    found: dict[str, dict] = {}
    for seed in range(30):
        state = GAME.setup(
            ["ann", "bob", "cat", "dan"][: 3 + seed % 2], seed, {"story_point": "vote"}
        )
        for step in random_steps(GAME, state, random.Random(seed)):
            found.setdefault(step.after["phase"], step.after)
        if len(found) == 12:
            break
    assert len(found) == 12, sorted(found)
    return list(found.values())


STATES = sample_states()


def broken(state: dict, change) -> dict:
    state = copy.deepcopy(state)
    change(state)
    return state


def problem_codes(state: dict) -> list[str]:
    with pytest.raises(InvalidState) as exc:
        GAME.check_state(state)
    return [v.code for v in exc.value.violations]


@pytest.mark.parametrize("state", STATES, ids=lambda s: s["phase"])
def test_states_of_every_phase_are_sound(state):
    GAME.check_state(state)


def _abdicated(record: dict) -> dict:
    """A past reign of the same Monarch that ended by abdication."""
    points = copy.deepcopy(record["points"])
    points[record["monarch"]]["pile"] = 12
    return dict(
        record,
        end="abdication",
        points=points,
        tracks={"church": 0, "army": 0, "people": 0, "wealth": 0},
    )


def test_a_card_in_two_places_or_missing_or_unknown():
    state = to_pitch(fresh(3))
    card = state["hands"]["bob"][0]
    assert problem_codes(broken(state, lambda s: s["discard"].append(card))) == [
        "card_in_two_places"
    ]
    assert problem_codes(broken(state, lambda s: s["hands"]["bob"].pop())) == ["missing_card"]
    assert "unknown_card" in problem_codes(broken(state, lambda s: s["pile"].append("nope")))


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda s: s["tracks"].update(church=6), "bad_tracks"),
        (lambda s: s["tracks"].update(church=True), "bad_tracks"),
        (lambda s: s["tracks"].pop("army"), "bad_tracks"),
        (lambda s: s["tracks"].update(army=5), "inconsistent_tracks"),
        (lambda s: s.update(players=["ann", "bob"]), "bad_players"),
        (lambda s: s.update(players=["ann", "ann", "bob"]), "bad_players"),
        (lambda s: s.update(phase="nap"), "bad_phase"),
        (lambda s: s.update(status="finished"), "inconsistent_status"),
        (lambda s: s.update(rng="xyz"), "bad_rng"),
        (lambda s: s.update(seed=-1), "bad_seed"),
        (lambda s: s.update(move_count=-1), "bad_move_count"),
        (lambda s: s.update(story_point="never"), "bad_story_point"),
        (lambda s: s.update(game="reign-and-ruin"), "wrong_game"),
        (lambda s: s.update(schema_version=1), "schema_version"),
        (lambda s: s["hands"]["ann"].append(s["hands"]["bob"].pop()), "monarch_hand"),
        (lambda s: s["goals"].update(bob="no-such-goal"), "bad_goals"),
        (lambda s: s["goals"].update(ann="strong-church-strong-army"), "bad_goals"),
        (lambda s: s["goals"].update(cat=s["goals"]["bob"]), "bad_goals"),
        (lambda s: s.update(active_players=["ann"]), "inconsistent_active_players"),
        (lambda s: s.update(active_players=["zed"]), "bad_active_players"),
        (lambda s: s["round"]["pitches"].update(bob=s["hands"]["cat"][0]), "bad_round"),
        (lambda s: s["round"].update(number=0), "bad_round"),
        (lambda s: s["round"].pop("table"), "bad_round"),
        (lambda s: s.update(decks=[[], []]), "bad_decks"),
        (
            lambda s: s.update(reigns=[_abdicated(s["reigns"][0]), dict(s["reigns"][0], number=2)]),
            "reigned_twice",
        ),
        (lambda s: s["reigns"][0].update(number=3), "bad_reigns"),
        (lambda s: s["reigns"][0]["points"]["ann"].update(acceptance=1), "bad_points"),
        (lambda s: s["reigns"][0]["points"]["bob"].update(pile=1), "bad_points"),
        (lambda s: s["reigns"][0]["points"]["bob"].update(story=-1), "bad_points"),
        (lambda s: s["reigns"][0].update(end="death"), "bad_reigns"),
        (lambda s: s.update(votes={"ann": None}), "inconsistent_phase"),
        (lambda s: s.update(draw_queue=["bob"]), "inconsistent_draw_queue"),
        (lambda s: s["hands"]["bob"].append(s["decks"][0].pop()), "bad_hand_size"),
        (
            lambda s: s.update(outcome={"winners": [], "draw": False, "scores": {}, "reason": "x"}),
            "inconsistent_phase",
        ),
    ],
)
def test_corruptions_of_a_pitch_state_are_refused(change, code):
    state = to_pitch(fresh(3))
    assert code in problem_codes(broken(state, change))


def test_corrupted_custom_cards_are_refused():
    state = to_pitch(fresh(3))
    assert "bad_card" in problem_codes(
        broken(
            state,
            lambda s: s.update(
                cards={
                    **s["cards"],
                    "p01": {"title": "", "back": ["church"], "accept": {"army": 1}, "reject": {}},
                }
            ),
        )
    )
    assert "deck_size" in problem_codes(
        broken(state, lambda s: s.update(cards={"p01": s["cards"]["p01"]}))
    )


def test_reveal_order_and_change_of_mind_records_are_checked():
    state = pitch(to_pitch(fresh(3)), {"bob": "p01", "cat": "p07"})
    state, _ = apply(state, move("ann", "decide", accept=["bob"]))
    state, _ = apply(state, move("ann", "reveal", advisor="cat"))
    assert state["phase"] == "mind"
    GAME.check_state(state)
    assert "bad_round" in problem_codes(broken(state, lambda s: s["round"].update(number=2)))
    assert "bad_round" in problem_codes(
        broken(state, lambda s: s["round"]["pending"].update(decision="accepted"))
    )
    state, _ = apply(state, move("ann", "change_mind"))
    assert "bad_round" in problem_codes(
        broken(state, lambda s: s["round"].update(mind_changed=False))
    )
    assert "bad_round" in problem_codes(
        broken(state, lambda s: s["round"].update(accepted=["cat"]))
    )


def test_finished_state_outcome_must_match_points():
    state = (
        STATES[-1]
        if STATES[-1]["status"] == "finished"
        else next(s for s in STATES if s["status"] == "finished")
    )
    assert "inconsistent_outcome" in problem_codes(
        broken(state, lambda s: s["outcome"].update(winners=["zed"]))
    )


def _shake(value, rng: random.Random, depth: int = 0):
    """A random shape-preserving corruption of JSON data: swap, drop or duplicate things."""
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        value[key] = (
            _shake(value[key], rng, depth + 1)
            if rng.random() < 0.7
            else rng.choice([None, 0, -3, 99, "x", [], {}, True, 2**70])
        )
    elif isinstance(value, list) and value:
        i = rng.randrange(len(value))
        r = rng.random()
        if r < 0.3:
            value.append(value[i])
        elif r < 0.5:
            value.pop(i)
        else:
            value[i] = _shake(value[i], rng, depth + 1)
    elif isinstance(value, int) and not isinstance(value, bool):
        return value + rng.choice([-7, -1, 1, 7])
    elif isinstance(value, str):
        return rng.choice([value + "x", "", "bob", "p01"])
    return value


def test_random_corruptions_never_crash():
    rng = random.Random(11)
    refused = 0
    for state in STATES:
        for _ in range(150):
            bad = copy.deepcopy(state)
            bad = {k: v for k, v in bad.items()} if isinstance(bad, dict) else bad
            for _ in range(rng.randint(1, 3)):
                _shake(bad, rng)
            found = state_problems(bad)  # must not raise
            if found:
                refused += 1
                assert all(v.rule == "reigns-the-council#integrity" for v in found)
    assert refused > 500


def test_mind_changed_is_refused_before_the_monarch_has_decided():
    state = pitch(to_pitch(fresh(3)), {"bob": "p01", "cat": "p07"})
    GAME.check_state(state)
    assert "bad_round" in problem_codes(
        broken(state, lambda s: s["round"].update(mind_changed=True))
    )


def test_states_that_pass_the_checks_never_crash_the_rules():
    """Randomly corrupted states of every phase that keep the schema's shape: either the
    integrity check refuses them, or every player's legal moves, views and the score work, every
    listed move applies, and its result passes the check too (so a state accepted once never
    leads to a crash or a stuck game later)."""
    from marshmallow import ValidationError

    from schemas.reigns_the_council import StateSchema

    rng = random.Random(12)
    accepted = 0
    for _ in range(1500):
        bad = copy.deepcopy(rng.choice(STATES))
        for _ in range(rng.randint(1, 2)):
            _shake(bad, rng)
        try:
            StateSchema().load(bad)
        except ValidationError:
            continue
        try:
            GAME.check_state(bad)  # the game's integrity and to_move, as the API checks
        except InvalidState:
            continue
        accepted += 1
        legal = GAME.legal_moves(bad)
        assert {m["player"] for m in legal} == set(bad["active_players"])
        assert bool(legal) == (bad["status"] == "in_progress")
        for p in [*bad["players"], None]:
            GAME.view(bad, p)
        GAME.score(bad)
        for m in legal[:8]:
            after, _ = GAME.apply(bad, m)
            GAME.check_state(after)
    assert accepted > 100


@pytest.mark.parametrize("phase", ["refill", "story_vote", "end_vote", "succession", "finished"])
def test_revealed_cards_of_the_last_round_are_checked_in_every_phase(phase):
    """The view shows the last round's revealed cards with their fronts: an unknown or misplaced
    card id there is a 422, not a crash."""
    state = next((s for s in STATES if s["phase"] == phase and s["round"]["revealed"]), None)
    assert state is not None, phase
    GAME.check_state(state)
    assert "bad_round" in problem_codes(
        broken(state, lambda s: s["round"]["revealed"][0].update(card="cat"))
    )
    assert "bad_round" in problem_codes(
        broken(
            state,
            lambda s: s["round"]["revealed"][0].update(
                card=next(
                    c
                    for c in s["cards"]
                    if c not in s["pile"] and c != s["round"]["revealed"][0]["card"]
                ),
                decision="accepted",
            ),
        )
    )


def _phase(name: str) -> dict:
    return copy.deepcopy(next(s for s in STATES if s["phase"] == name))


@pytest.mark.parametrize("phase", ["pitch", "reveal"])
def test_a_reign_going_on_has_no_story_point_yet(phase):
    """A story point is scored when a reign ends (rules doc, Story points): one given while it
    goes on would be scored twice by the reveal that ends it, in a state the check refuses, so
    that the service's answer held a state it refuses itself."""
    state = _phase(phase)
    advisor = next(p for p in state["players"] if p != state["reigns"][-1]["monarch"])
    assert "bad_points" in problem_codes(
        broken(state, lambda s: s["reigns"][-1]["points"][advisor].update(story=1))
    )


@pytest.mark.parametrize("phase", ["reveal", "mind"])
def test_advisors_hold_one_card_less_while_the_proposals_are_revealed(phase):
    """Each advisor pitched one of their cards and draws only once every card is resolved: a
    hand of another size is refused, not left to the next round's check."""
    state = _phase(phase)
    advisor = next(p for p in state["players"] if p != state["reigns"][-1]["monarch"])
    assert "bad_hand_size" in problem_codes(
        broken(state, lambda s: s["hands"][advisor].append(s["decks"][0].pop()))
    )
    assert "bad_hand_size" in problem_codes(
        broken(state, lambda s: s["decks"][0].append(s["hands"][advisor].pop()))
    )
