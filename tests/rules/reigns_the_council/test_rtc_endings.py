"""The end of a reign: death (with the story point), abdication, end-of-reign scoring, the
next Monarch, the early-end vote, and the end of the game (seed §End of a reign, §End of a
reign scoring, §A new Monarch!; rulings RtC 8 to 10)."""

from __future__ import annotations

import copy

import pytest
from rtc_helpers import apply, codes, first, fresh, move, pitch, set_tracks, to_pitch, types

from rules.reigns_the_council import GAME
from rules.reigns_the_council.ending import death

# p01 church: accept +1, reject -1; p02 church: accept -1, reject +1;
# p07 army: accept +1, reject -1;   p13 people: accept +1, reject -1.


def with_goals(state: dict, **goals: str) -> dict:
    state = copy.deepcopy(state)
    state["goals"].update(goals)
    GAME.check_state(state)
    return state


def with_pile(state: dict, n: int) -> dict:
    """``n`` cards from the decks put into the Monarch's pile (as if accepted earlier)."""
    state = copy.deepcopy(state)
    for _ in range(n):
        deck = next(d for d in state["decks"] if d)
        state["pile"].append(deck.pop())
    GAME.check_state(state)
    return state


def dying_round(story_point: str = "auto") -> dict:
    """Four players, ann reigns; church at -4; bob pitches p01, cat p07, dan p13; ann rejects
    bob and cat, accepts dan; revealing bob's card (black zone church -1) kills her."""
    state = to_pitch(fresh(4, story_point=story_point))
    state = pitch(state, {"bob": "p01", "cat": "p07", "dan": "p13"})
    state = set_tracks(state, church=-4, army=2)
    state = with_goals(
        state,
        bob="weak-church-strong-army",
        cat="strong-church-weak-people",
        dan="weak-army-strong-wealth",
    )
    state = with_pile(state, 3)
    state, _ = apply(state, move("ann", "decide", accept=["dan"]))
    return state


def test_death_in_the_middle_of_a_round_discards_the_later_cards_without_effect():
    state = dying_round()
    state, events = apply(state, move("ann", "reveal", advisor="bob"))
    state, events = apply(state, move("ann", "keep_decision"))
    assert first(events, "monarch_died") == {
        "type": "monarch_died",
        "monarch": "ann",
        "advisor": "bob",
        "card": "p01",
        "pillars": ["church"],
    }
    assert first(events, "proposals_discarded") == {
        "type": "proposals_discarded",
        "advisors": ["cat", "dan"],
    }
    assert state["tracks"] == {"church": -5, "army": 2, "people": 0, "wealth": 0}, (
        "p07 and p13 had no effect"
    )
    assert {"p07", "p13"} <= set(state["discard"]) and state["round"]["table"] == {}
    record = state["reigns"][0]
    assert record["end"] == "death" and record["tracks"] == state["tracks"]
    assert record["points"]["bob"] == {
        "acceptance": 0,
        "story": 1,
        "pile": 0,
        "goal": {"church": 5, "army": 2},
    }
    assert record["points"]["cat"]["goal"] == {"church": 0, "people": 0}
    assert record["points"]["dan"] == {
        "acceptance": 1,
        "story": 0,
        "pile": 0,
        "goal": {"army": 0, "wealth": 0},
    }
    assert record["points"]["ann"]["pile"] == 3, (
        "the Monarch scores only the cards already in the pile"
    )
    assert record["goals"] == {
        "bob": "weak-church-strong-army",
        "cat": "strong-church-weak-people",
        "dan": "weak-army-strong-wealth",
    }
    assert GAME.score(state).scores == {"ann": 3, "bob": 8, "cat": 0, "dan": 1}
    assert types(events)[-2:] == ["reign_ended", "end_vote_started"]
    assert state["phase"] == "end_vote" and state["active_players"] == ["ann", "bob", "cat", "dan"]


def test_the_seeds_scoring_example_five_plus_two_is_seven():
    """Seed §An example of scoring: a goal's token on the end space scores 5, the other token
    two spaces into its zone scores 2: 7 points."""
    state = dying_round()
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, _ = apply(state, move("ann", "keep_decision"))
    breakdown = GAME.score(state).breakdown
    bob = breakdown["reigns"][0]["players"]["bob"]
    assert bob["goal"] == {"church": 5, "army": 2} and bob["goal_total"] == 7
    assert bob["story"] == 1 and bob["total"] == 8
    assert breakdown["totals"]["bob"] == {
        "acceptance": 0,
        "story": 1,
        "pile": 0,
        "goal": {"church": 5, "army": 2},
        "goal_total": 7,
        "total": 8,
    }


def test_the_card_that_kills_may_be_an_accepted_one_and_its_advisor_tells_the_story():
    state = to_pitch(fresh(3))
    state = pitch(state, {"bob": "p02", "cat": "p07"})
    state = set_tracks(state, church=-4)
    state, _ = apply(state, move("ann", "decide", accept=["bob", "cat"]))
    state, _ = apply(state, move("ann", "reveal", advisor="cat"))
    state, _ = apply(state, move("ann", "keep_decision"))
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, events = apply(state, move("ann", "keep_decision"))
    assert first(events, "monarch_died")["advisor"] == "bob"
    assert state["reigns"][0]["points"]["bob"]["story"] == 1
    assert state["reigns"][0]["points"]["ann"]["pile"] == 2, (
        "the killing card was accepted, into the pile"
    )


@pytest.mark.parametrize(
    "votes, awarded",
    [((False, False, False), False), ((False, True, False), True), ((True, True, True), True)],
)
def test_story_point_by_vote_of_the_other_players(votes, awarded):
    state = dying_round("vote")
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, events = apply(state, move("ann", "keep_decision"))
    assert state["phase"] == "story_vote" and state["active_players"] == ["ann", "cat", "dan"]
    assert "reign_ended" not in types(events)
    assert codes(state, move("bob", "story_vote", approve=True)) == ["storyteller"]
    for voter, vote in zip(("cat", "ann", "dan"), votes, strict=True):
        assert GAME.legal_moves(state, voter) == [
            move(voter, "story_vote", approve=True),
            move(voter, "story_vote", approve=False),
        ]
        state, events = apply(state, move(voter, "story_vote", approve=vote))
    assert first(events, "story_vote_result")["awarded"] is awarded
    assert state["reigns"][0]["points"]["bob"]["story"] == (1 if awarded else 0)
    assert state["phase"] == "end_vote" and state["reigns"][0]["end"] == "death"


def test_abdication_at_twelve_at_the_end_of_the_round_without_goal_points():
    state = to_pitch(fresh(4))
    state = with_pile(state, 10)
    state = pitch(state, {"bob": "p01", "cat": "p07", "dan": "p13"})
    state, _ = apply(state, move("ann", "decide", accept=["bob", "cat", "dan"]))
    for adv in ("bob", "cat"):
        state, _ = apply(state, move("ann", "reveal", advisor=adv))
        state, events = apply(state, move("ann", "keep_decision"))
    assert len(state["pile"]) == 12 and state["phase"] == "reveal", (
        "the reign ends at the end of the round"
    )
    state, _ = apply(state, move("ann", "reveal", advisor="dan"))
    state, events = apply(state, move("ann", "keep_decision"))
    assert first(events, "monarch_abdicated") == {
        "type": "monarch_abdicated",
        "monarch": "ann",
        "pile": 13,
    }
    assert "goals_revealed" not in types(events)
    record = state["reigns"][0]
    assert record["end"] == "abdication" and record["goals"] is None
    assert record["points"]["ann"]["pile"] == 13
    assert all(record["points"][p]["goal"] == {} for p in ("bob", "cat", "dan"))
    assert GAME.score(state).scores == {"ann": 13, "bob": 1, "cat": 1, "dan": 1}
    assert state["phase"] == "end_vote"


def test_exactly_twelve_in_the_pile_at_the_end_of_the_round_abdicates():
    state = to_pitch(fresh(3))
    state = with_pile(state, 11)
    state = pitch(state, {"bob": "p01", "cat": "p07"})
    state, _ = apply(state, move("ann", "decide", accept=["bob"]))
    for adv in ("cat", "bob"):
        state, _ = apply(state, move("ann", "reveal", advisor=adv))
        state, events = apply(state, move("ann", "keep_decision"))
    assert first(events, "monarch_abdicated") == {
        "type": "monarch_abdicated",
        "monarch": "ann",
        "pile": 12,
    }
    assert (
        state["reigns"][0]["end"] == "abdication"
        and state["reigns"][0]["points"]["ann"]["pile"] == 12
    )
    assert state["phase"] == "end_vote"


def test_a_death_on_the_card_that_reaches_twelve_is_a_death_not_an_abdication():
    """The death ends the reign at once, before the end of the round: goals score, the Monarch
    scores the 12 cards of the pile, the storyteller their point."""
    state = to_pitch(fresh(3))
    state = with_pile(state, 11)
    state = pitch(state, {"bob": "p01", "cat": "p07"})
    state = set_tracks(state, church=4)
    state = with_goals(state, bob="strong-church-weak-army", cat="weak-church-weak-army")
    state, _ = apply(state, move("ann", "decide", accept=["bob"]))
    state, _ = apply(state, move("ann", "reveal", advisor="cat"))
    state, _ = apply(state, move("ann", "keep_decision"))
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, events = apply(state, move("ann", "keep_decision"))
    assert "monarch_died" in types(events) and "monarch_abdicated" not in types(events)
    record = state["reigns"][0]
    assert record["end"] == "death" and record["tracks"] == {
        "church": 5,
        "army": -1,
        "people": 0,
        "wealth": 0,
    }
    assert record["points"]["ann"]["pile"] == 12
    assert record["points"]["bob"] == {
        "acceptance": 1,
        "story": 1,
        "pile": 0,
        "goal": {"church": 5, "army": 1},
    }
    assert record["points"]["cat"] == {
        "acceptance": 0,
        "story": 0,
        "pile": 0,
        "goal": {"church": 0, "army": 1},
    }


def test_a_change_of_mind_can_kill_and_its_advisor_tells_the_story():
    state = to_pitch(fresh(3))
    state = pitch(state, {"bob": "p01", "cat": "p07"})
    state = set_tracks(state, church=4)
    state, _ = apply(state, move("ann", "decide", accept=["cat"]))
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, events = apply(state, move("ann", "change_mind"))  # rejected -> accepted: church +1 = 5
    assert first(events, "monarch_died")["advisor"] == "bob"
    assert first(events, "proposals_discarded") == {
        "type": "proposals_discarded",
        "advisors": ["cat"],
    }
    assert state["reigns"][0]["points"]["bob"]["story"] == 1
    assert state["reigns"][0]["points"]["ann"]["pile"] == 1 and state["pile"] == ["p01"]


def test_below_twelve_the_reign_goes_on():
    state = to_pitch(fresh(3))
    state = with_pile(state, 10)
    state = pitch(state, {"bob": "p01", "cat": "p07"})
    state, _ = apply(state, move("ann", "decide", accept=["bob"]))
    for adv in ("cat", "bob"):
        state, _ = apply(state, move("ann", "reveal", advisor=adv))
        state, _ = apply(state, move("ann", "keep_decision"))
    assert len(state["pile"]) == 11 and state["phase"] == "refill"


def ended_reign(n: int = 3) -> dict:
    state = to_pitch(fresh(n))
    state = with_pile(state, 11)
    hands = state["hands"]
    state = pitch(state, {p: hands[p][0] for p in state["goals"]})
    state, _ = apply(state, move("ann", "decide", accept=list(state["goals"])))
    while state["phase"] in ("reveal", "mind"):
        state, _ = apply(state, GAME.legal_moves(state)[-1])
    assert state["phase"] == "end_vote"
    return state


def test_every_player_voting_to_end_ends_the_game_early():
    state = ended_reign()
    for p in ("ann", "bob"):
        state, events = apply(state, move(p, "end_vote", end=True))
        assert events == [{"type": "end_vote_cast", "player": p, "end": True}]
    state, events = apply(state, move("cat", "end_vote", end=True))
    assert first(events, "end_vote_result") == {
        "type": "end_vote_result",
        "ended": True,
        "votes": {"ann": True, "bob": True, "cat": True},
    }
    assert state["status"] == "finished" and state["outcome"]["reason"] == "early_end"
    assert GAME.legal_moves(state) == []
    assert codes(state, move("ann", "name_monarch", monarch="bob")) == ["game_finished"]


def test_one_vote_to_go_on_lets_the_outgoing_monarch_name_the_next():
    state = ended_reign()
    for p, vote in (("ann", True), ("bob", False), ("cat", True)):
        state, _ = apply(state, move(p, "end_vote", end=vote))
    assert state["phase"] == "succession" and state["active_players"] == ["ann"]
    assert GAME.legal_moves(state) == [
        move("ann", "name_monarch", monarch=p) for p in ("bob", "cat")
    ]
    assert codes(state, move("ann", "name_monarch", monarch="ann")) == ["already_reigned"]
    assert codes(state, move("ann", "name_monarch", monarch="zed")) == ["unknown_player"]
    assert codes(state, move("bob", "name_monarch", monarch="cat")) == ["not_monarch"]
    state, events = apply(state, move("ann", "name_monarch", monarch="cat"))
    assert types(events)[:2] == ["monarch_named", "reign_started"]
    assert state["reigns"][-1]["monarch"] == "cat" and list(state["goals"]) == ["ann", "bob"]
    assert state["tracks"] == {"church": 0, "army": 0, "people": 0, "wealth": 0}
    assert state["pile"] == [] and state["discard"] == [] and state["hands"]["cat"] == []
    assert sum(len(d) for d in state["decks"]) == 72
    assert state["phase"] == "deal" and state["active_players"] == ["ann"]


def test_the_game_ends_when_everyone_has_reigned_and_ties_share_the_win():
    state = ended_reign()
    for successor in ("bob", "cat"):
        for p in ("ann", "bob", "cat"):
            state, _ = apply(state, move(p, "end_vote", end=False))
        ruler = state["reigns"][-1]["monarch"]
        state, _ = apply(state, move(ruler, "name_monarch", monarch=successor))
        state = to_pitch(state)
        state = with_pile(state, 11)
        hands = state["hands"]
        state = pitch(state, {p: hands[p][0] for p in state["goals"]})
        state, _ = apply(state, move(successor, "decide", accept=list(state["goals"])))
        while state["phase"] in ("reveal", "mind"):
            state, events = apply(state, GAME.legal_moves(state)[-1])
    assert state["status"] == "finished" and state["outcome"]["reason"] == "game_end"
    assert [r["monarch"] for r in state["reigns"]] == ["ann", "bob", "cat"]
    # Each reign: the Monarch abdicates with 11 + 2 = 13 cards, each advisor scores 1 acceptance
    # point; so everyone ends on 13 + 1 + 1 = 15 and all three share the win.
    assert state["outcome"] == {
        "winners": ["ann", "bob", "cat"],
        "draw": True,
        "scores": {"ann": 15, "bob": 15, "cat": 15},
        "reason": "game_end",
    }
    assert first(events, "game_over") == {
        "type": "game_over",
        "winners": ["ann", "bob", "cat"],
        "draw": True,
        "scores": {"ann": 15, "bob": 15, "cat": 15},
        "reason": "game_end",
    }
    score = GAME.score(state)
    assert score.finished and list(score.winners) == ["ann", "bob", "cat"] and score.draw is True


def test_tied_scores_share_the_win():
    from rules.reigns_the_council.ending import outcome

    state = ended_reign()
    state = copy.deepcopy(state)
    for p in ("ann", "bob", "cat"):
        state["reigns"][0]["points"][p]["acceptance"] = 0 if p == "ann" else 7
    state["reigns"][0]["points"]["ann"]["pile"] = 7
    result = outcome(state, "game_end")
    assert result["winners"] == ["ann", "bob", "cat"] and result["draw"] is True
    score = GAME.score(state)
    assert list(score.winners) == ["ann", "bob", "cat"] and score.draw is True
    # Two tied on the most share the win; the third does not.
    state["reigns"][0]["points"]["cat"]["acceptance"] = 6
    result = outcome(state, "game_end")
    assert result["winners"] == ["ann", "bob"] and result["draw"] is True
    score = GAME.score(state)
    assert list(score.winners) == ["ann", "bob"] and score.draw is True
    # A single best score wins alone: no draw.
    state["reigns"][0]["points"]["bob"]["acceptance"] = 8
    result = outcome(state, "game_end")
    assert result["winners"] == ["bob"] and result["draw"] is False
    score = GAME.score(state)
    assert list(score.winners) == ["bob"] and score.draw is False
    assert score.breakdown["ranking"][0] == "bob"


def test_the_pillars_a_death_names_are_in_board_order_whatever_the_states_key_order():
    # a session stores its states with sorted keys and a replay from setup has them in board
    # order: a death on army and church together named ["army", "church"] live and
    # ["church", "army"] replayed, and the honest finished game failed verify
    state = copy.deepcopy(dying_round())
    state["tracks"] = {"army": 5, "church": -5, "people": 0, "wealth": 0}  # sorted, as stored
    events: list = []
    death(state, "bob", "p01", events)
    assert events[0]["type"] == "monarch_died" and events[0]["pillars"] == ["church", "army"]
