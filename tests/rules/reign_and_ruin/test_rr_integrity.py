"""Integrity of client-sent states (rules doc §Integrity): broken states are refused with
InvalidState, whose violations name the field and point at reign-and-ruin#integrity."""

from __future__ import annotations

import copy

import pytest
from rr_helpers import apply, fighter, move, play_state

from rules.errors import InvalidState
from rules.reign_and_ruin import GAME


def refused(state) -> list[str]:
    with pytest.raises(InvalidState) as caught:
        GAME.check_state(state)
    for v in caught.value.violations:
        assert v.rule == "reign-and-ruin#integrity"
        assert "state" in v.message
    return [v.code for v in caught.value.violations]


def play():
    return play_state(
        {"ann": ["hexen-1", "crou-2"], "bob": ["kurgoz-3", "nomora-4"]},
        {"bob": [fighter("hexen-9", kurgoz=1)]},
        discard=["crou-9"],
    )


def draft():
    state = GAME.setup(["ann", "bob", "cat"], 8, {})
    state, _ = GAME.apply(state, GAME.legal_moves(state, "bob")[0])
    return state


def finished():
    state = play_state({"ann": ["hexen-1"], "bob": ["hexen-3"]})
    state, _ = apply(state, move("ann", "fighter", card="hexen-1"))
    state, _ = apply(state, move("bob", "fighter", card="hexen-3"))
    return state


def edit(state, fn):
    state = copy.deepcopy(state)
    fn(state)
    return state


def test_sound_states_pass():
    for state in (play(), draft(), finished(), GAME.setup(["a", "b", "c", "d"], 1, {})):
        GAME.check_state(state)


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda s: s.update(game="reign-absolute"), "wrong_game"),
        (lambda s: s.update(schema_version=1), "schema_version"),
        (lambda s: s.update(players=["ann"]), "bad_players"),
        (lambda s: s.update(players=["ann", "ann"]), "bad_players"),
        (lambda s: s["hands"].update(cat=[]), "bad_players"),
        (lambda s: s["draw_pile"].append("hexen-1"), "card_in_two_places"),
        (lambda s: s["hands"]["ann"].append("nomora-4"), "card_in_two_places"),
        (lambda s: s["armies"]["ann"].append(fighter("crou-9")), "card_in_two_places"),
        (lambda s: s["hands"]["ann"].append("dragon-1"), "unknown_card"),
        (lambda s: s["draw_pile"].pop(), "missing_card"),
        (lambda s: s["armies"]["bob"].clear(), "missing_card"),
        (lambda s: s["cards"].update({"hexen-1": {"faction": "elves", "value": 1}}), "bad_card"),
        (lambda s: s["cards"].update({"hexen-1": {"faction": "hexen", "value": 0}}), "bad_card"),
        (lambda s: s["armies"]["bob"][0].update(kurgoz=-1), "bad_tokens"),
        (lambda s: s["armies"]["bob"][0].update(kurgoz=31), "bad_tokens"),
        (lambda s: s.update(seed=-1), "bad_seed"),
        (lambda s: s.update(seed=2**63), "bad_seed"),
        (lambda s: s.update(status="finished"), "inconsistent_status"),
        (lambda s: s.update(phase="ended"), "bad_phase"),
        (lambda s: s.update(move_count=-1), "bad_move_count"),
        (lambda s: s.update(move_count=2**53), "bad_move_count"),
        (lambda s: s.update(rng="0123456789ABCDEF"), "bad_rng"),
        (lambda s: s.update(rng="0123"), "bad_rng"),
        (lambda s: s.update(seed="7"), "bad_seed"),
        (lambda s: s.update(starting_player="zed"), "unknown_player"),
        (lambda s: s.update(active_players=["ann", "bob"]), "inconsistent_active_players"),
        (lambda s: s.update(active_players=[]), "inconsistent_active_players"),
        (lambda s: s.update(active_players=["zed"]), "bad_active_players"),
        (
            lambda s: s.update(
                outcome={"winners": ["ann"], "draw": False, "scores": {}, "reason": "game_end"}
            ),
            "inconsistent_phase",
        ),
        (
            lambda s: s.update(final_round={"ended_by": "ann", "to_play": ["bob"]}),
            "inconsistent_phase",
        ),
        (
            lambda s: s.update(draft={"round": 1, "packets": {}, "picks": {}, "kept": {}}),
            "inconsistent_phase",
        ),
    ],
)
def test_broken_play_states(change, code):
    assert code in refused(edit(play(), change))


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda s: s.update(draft=None), "missing_card"),
        (
            lambda s: (
                [s["hands"][p].extend(s["draft"]["packets"][p]) for p in s["players"]]
                and s.update(draft=None)
            ),
            "inconsistent_draft",
        ),
        (lambda s: s["draft"].update(round=4), "bad_draft_round"),
        (lambda s: s["draft"].update(round=2), "bad_packet_size"),
        (
            lambda s: s["draft"]["kept"]["ann"].append(s["draft"]["packets"]["ann"].pop()),
            "bad_packet_size",
        ),
        (
            lambda s: s["draft"]["picks"].update(
                ann=[s["draft"]["packets"]["bob"][0], s["draft"]["packets"]["bob"][1]]
            ),
            "bad_picks",
        ),
        (lambda s: s["draft"]["picks"].update(ann=[s["draft"]["packets"]["ann"][0]]), "bad_picks"),
        (lambda s: s.update(active_players=["ann", "bob", "cat"]), "inconsistent_active_players"),
        (lambda s: s["hands"]["ann"].append(s["draw_pile"].pop()), "inconsistent_phase"),
        (lambda s: s["discard_pile"].append(s["draw_pile"].pop()), "inconsistent_phase"),
        (lambda s: s["draft"]["packets"]["ann"].append(s["draw_pile"].pop()), "bad_packet_size"),
        (
            lambda s: s["draft"]["packets"]["ann"].append(s["draft"]["packets"]["cat"][0]),
            "card_in_two_places",
        ),
    ],
)
def test_broken_draft_states(change, code):
    assert code in refused(edit(draft(), change))


def test_everyone_picked_without_passing_is_refused():
    state = draft()
    for p in ("ann", "cat"):
        state["draft"]["picks"][p] = state["draft"]["packets"][p][:2]
    state["active_players"] = []
    assert "inconsistent_draft" in refused(state)


def test_broken_final_round_states():
    state = play_state({"ann": ["hexen-1"], "bob": ["hexen-3"], "cat": ["hexen-5"]})
    state, _ = apply(state, move("ann", "fighter", card="hexen-1"))
    assert state["final_round"] == {"ended_by": "ann", "to_play": ["bob", "cat"]}
    assert "inconsistent_final_round" in refused(
        edit(state, lambda s: s["final_round"].update(to_play=["cat", "bob"]))
    )
    assert "inconsistent_final_round" in refused(
        edit(state, lambda s: s["final_round"].update(to_play=["ann", "bob"]))
    )
    assert "inconsistent_final_round" in refused(
        edit(state, lambda s: s["final_round"].update(ended_by="zed"))
    )
    assert "inconsistent_final_round" in refused(
        edit(state, lambda s: s["final_round"].update(to_play=[]))
    )
    assert "inconsistent_active_players" in refused(
        edit(state, lambda s: s.update(active_players=["cat"]))
    )
    # R&R 10: the player who ended it holds at most the one card their last play brought back
    assert "inconsistent_final_round" in refused(
        edit(
            state, lambda s: s["hands"]["ann"].extend([s["draw_pile"].pop(), s["draw_pile"].pop()])
        )
    )
    assert "inconsistent_phase" in refused(
        edit(state, lambda s: s.update(final_round=None, phase="play"))
    )


def test_broken_finished_states():
    state = finished()
    assert "inconsistent_outcome" in refused(
        edit(state, lambda s: s["outcome"].update(winners=["ann"]))
    )
    assert "inconsistent_outcome" in refused(edit(state, lambda s: s.update(outcome=None)))
    assert "inconsistent_active_players" in refused(
        edit(state, lambda s: s.update(active_players=["ann"]))
    )
    assert "inconsistent_final_round" in refused(edit(state, lambda s: s.update(final_round=None)))


def test_unreadable_state_is_refused_not_crashing():
    for change in (
        lambda s: s.pop("draw_pile"),
        lambda s: s["armies"]["bob"].append("hexen-5"),
        lambda s: s.update(cards=[]),
        lambda s: s.update(hands=None),
    ):
        assert refused(edit(play(), change))


def test_violations_name_the_field():
    state = edit(play(), lambda s: s["draw_pile"].append("hexen-1"))
    with pytest.raises(InvalidState) as caught:
        GAME.check_state(state)
    message = caught.value.violations[0].message
    assert "state.hands.ann" in message and "state.draw_pile" in message


def test_no_hand_holds_more_than_it_drafted():
    """After the draft a hand holds at most its 7 drafted cards (each turn plays one, and an
    ability only replaces it): a crafted hand of 8 is refused, in play and in the final round,
    so a revive's listing (Nomora in hand x discard pile x places) stays bounded."""
    seven = [f"nomora-{v}" for v in range(1, 8)]
    state = play_state({"ann": seven, "bob": ["hexen-1"]}, draw=["nomora-8"], discard=["crou-9"])
    GAME.check_state(state)
    eight = edit(state, lambda s: s["hands"]["ann"].append(s["draw_pile"].pop(0)))
    assert refused(eight) == ["hand_too_large"]
    final = play_state(
        {"ann": ["hexen-2"], "bob": seven},
        draw=["nomora-8"],
        final_round={"ended_by": "ann", "to_play": ["bob"]},
        active="bob",
    )
    GAME.check_state(final)
    assert refused(edit(final, lambda s: s["hands"]["bob"].append(s["draw_pile"].pop(0)))) == [
        "hand_too_large"
    ]
