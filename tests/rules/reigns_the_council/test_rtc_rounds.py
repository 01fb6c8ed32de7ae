"""A round: secret pitching, the Monarch's decision, acceptance points, reveal order, the first
round's change of mind, the end-of-round draws (seed §Game round; rulings RtC 6, 7)."""

from __future__ import annotations

import copy

from rtc_helpers import apply, codes, first, fresh, give, move, pitch, set_tracks, to_pitch, types

from rules.reigns_the_council import GAME

# Default deck cards used below (data/deck.json):
# p01 church: accept +1, reject -1       p03 church: accept +2, reject -1
# p07 army:   accept +1, reject -1       p09 army:   accept +2, reject -1
# p13 people: accept +1, reject -1       p19 wealth: accept +1, reject -1


def round_one(n: int = 3, **options) -> dict:
    return to_pitch(fresh(n, **options))


def test_pitching_is_simultaneous_and_secret_until_everyone_has_pitched():
    state = give(round_one(), "bob", ["p01"])
    state = give(state, "cat", ["p07"])
    assert state["active_players"] == ["bob", "cat"]
    assert GAME.legal_moves(state, "bob") == [
        move("bob", "pitch", card=c) for c in state["hands"]["bob"]
    ]
    state, events = apply(state, move("bob", "pitch", card="p01"))
    assert events == [{"type": "proposal_pitched", "player": "bob", "card": "p01"}]
    assert state["active_players"] == ["cat"] and "p01" in state["hands"]["bob"]
    assert codes(state, move("bob", "pitch", card=state["hands"]["bob"][1])) == ["already_chosen"]
    assert codes(state, move("ann", "pitch", card="p07")) == ["not_advisor"]
    assert codes(state, move("cat", "pitch", card="p01")) == ["card_not_in_hand"]
    state, events = apply(state, move("cat", "pitch", card="p07"))
    assert first(events, "proposals_on_table") == {
        "type": "proposals_on_table",
        "backs": {"bob": ["church"], "cat": ["army"]},
    }
    assert state["round"]["table"] == {"bob": "p01", "cat": "p07"}
    assert "p01" not in state["hands"]["bob"] and len(state["hands"]["bob"]) == 6
    assert state["phase"] == "decide" and state["active_players"] == ["ann"]


def test_the_monarch_must_accept_at_least_one_and_accepted_advisors_score_one():
    state = pitch(round_one(4), {"bob": "p01", "cat": "p07", "dan": "p13"})
    legal = GAME.legal_moves(state)
    assert len(legal) == 7 and move("ann", "decide", accept=[]) not in legal
    assert codes(state, move("ann", "decide", accept=[])) == ["must_accept_one"]
    assert codes(state, move("ann", "decide", accept=["ann"])) == ["no_such_proposal"]
    assert codes(state, move("ann", "decide", accept=["bob", "bob"])) == ["duplicate_advisor"]
    assert codes(state, move("bob", "decide", accept=["bob"])) == ["not_monarch"]
    state, events = apply(state, move("ann", "decide", accept=["dan", "bob"]))
    assert first(events, "proposals_decided") == {
        "type": "proposals_decided",
        "accepted": ["bob", "dan"],
        "rejected": ["cat"],
    }
    assert [e for e in events if e["type"] == "points_scored"] == [
        {"type": "points_scored", "player": p, "points": 1, "reason": "acceptance"}
        for p in ("bob", "dan")
    ]
    assert GAME.score(state).scores == {"ann": 0, "bob": 1, "cat": 0, "dan": 1}


def test_rejected_cards_are_revealed_first_in_the_monarchs_order_then_accepted():
    state = pitch(round_one(4), {"bob": "p01", "cat": "p07", "dan": "p13"})
    state, _ = apply(state, move("ann", "decide", accept=["bob"]))
    assert GAME.legal_moves(state) == [
        move("ann", "reveal", advisor="cat"),
        move("ann", "reveal", advisor="dan"),
    ]
    assert codes(state, move("ann", "reveal", advisor="bob")) == ["rejected_first"]
    assert codes(state, move("ann", "reveal", advisor="ann")) == ["no_such_proposal"]
    state, events = apply(state, move("ann", "reveal", advisor="dan"))
    assert first(events, "proposal_revealed")["card"] == "p13"
    state, events = apply(state, move("ann", "keep_decision"))
    assert first(events, "proposal_resolved")["zone"] == "black"
    assert state["tracks"]["people"] == -1 and state["discard"][-1] == "p13"
    state, _ = apply(state, move("ann", "reveal", advisor="cat"))
    state, _ = apply(state, move("ann", "keep_decision"))
    assert state["tracks"]["army"] == -1
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, events = apply(state, move("ann", "keep_decision"))
    assert state["tracks"] == {"church": 1, "army": -1, "people": -1, "wealth": 0}
    assert state["pile"] == ["p01"]
    assert state["phase"] == "refill" and state["active_players"] == ["bob"]


def test_change_of_mind_accepted_to_rejected_applies_the_black_zone_and_discards():
    state = pitch(round_one(), {"bob": "p03", "cat": "p07"})
    state, _ = apply(state, move("ann", "decide", accept=["bob", "cat"]))
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    assert state["phase"] == "mind"
    assert GAME.legal_moves(state) == [move("ann", "change_mind"), move("ann", "keep_decision")]
    state, events = apply(state, move("ann", "change_mind"))
    assert first(events, "mind_changed") == {
        "type": "mind_changed",
        "advisor": "bob",
        "card": "p03",
        "decision": "rejected",
    }
    assert state["tracks"]["church"] == -1 and "p03" in state["discard"] and state["pile"] == []
    assert GAME.score(state).scores["bob"] == 1, "the acceptance point stands"
    # Once only: the next reveal resolves at once.
    state, events = apply(state, move("ann", "reveal", advisor="cat"))
    assert "proposal_resolved" in types(events) and state["phase"] == "refill"
    assert state["pile"] == ["p07"]


def test_change_of_mind_rejected_to_accepted_applies_the_white_zone_into_the_pile():
    state = pitch(round_one(), {"bob": "p03", "cat": "p07"})
    state, _ = apply(state, move("ann", "decide", accept=["cat"]))
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, events = apply(state, move("ann", "change_mind"))
    assert first(events, "proposal_resolved")["zone"] == "white"
    assert state["tracks"]["church"] == 2 and state["pile"] == ["p03"]
    assert GAME.score(state).scores == {"ann": 0, "bob": 0, "cat": 1}, (
        "a late acceptance scores no point"
    )
    assert state["round"]["revealed"][0] == {
        "advisor": "bob",
        "card": "p03",
        "decision": "accepted",
        "changed": True,
    }


def test_no_change_of_mind_after_the_first_round():
    state = pitch(round_one(), {"bob": "p03", "cat": "p07"})
    state, _ = apply(state, move("ann", "decide", accept=["bob", "cat"]))
    for adv in ("bob", "cat"):
        state, _ = apply(state, move("ann", "reveal", advisor=adv))
        state, _ = apply(state, move("ann", "keep_decision"))
    for p in ("bob", "cat"):
        state, _ = apply(state, move(p, "draw", deck=0))
    assert state["round"]["number"] == 2
    state = pitch(state, {"bob": "p01", "cat": "p09"})
    state, _ = apply(state, move("ann", "decide", accept=["bob"]))
    state, events = apply(state, move("ann", "reveal", advisor="cat"))
    assert state["phase"] == "reveal" and "proposal_resolved" in types(events)
    assert codes(state, move("ann", "change_mind")) == ["wrong_phase"]


def test_end_of_round_each_advisor_draws_one_choosing_the_deck():
    state = pitch(round_one(4), {"bob": "p01", "cat": "p07", "dan": "p13"})
    state, _ = apply(state, move("ann", "decide", accept=["bob", "cat", "dan"]))
    for adv in ("bob", "cat", "dan"):
        state, _ = apply(state, move("ann", "reveal", advisor=adv))
        state, _ = apply(state, move("ann", "keep_decision"))
    assert state["draw_queue"] == ["bob", "cat", "dan"]
    for p, d in (("bob", 2), ("cat", 0), ("dan", 1)):
        assert state["active_players"] == [p]
        top = state["decks"][d][0]
        state, _ = apply(state, move(p, "draw", deck=d))
        assert state["hands"][p][-1] == top and len(state["hands"][p]) == 7
    assert state["phase"] == "pitch" and state["round"]["number"] == 2


def test_deck_exhaustion_continues_with_the_others_then_the_discard_is_reshuffled():
    deck = [
        {"back": ["wealth"], "accept": {"wealth": 1}, "reject": {"wealth": -1}} for _ in range(13)
    ]
    deck += [
        {"back": ["church"], "accept": {"church": 1}, "reject": {"church": -1}} for _ in range(12)
    ]
    state = to_pitch(fresh(3, seed=4, deck=deck))  # 25 cards: 14 in hands, 11 left in the decks
    rounds = 0
    rebuilt = False
    while not rebuilt:
        rounds += 1
        hands = state["hands"]
        state = pitch(state, {"bob": hands["bob"][0], "cat": hands["cat"][0]})
        state, _ = apply(state, move("ann", "decide", accept=["bob"]))
        for adv in ("cat", "bob"):
            state, _ = apply(state, move("ann", "reveal", advisor=adv))
            if state["phase"] == "mind":
                state, _ = apply(state, move("ann", "keep_decision"))
        if state["status"] != "in_progress" or state["phase"] != "refill":
            break
        while state["phase"] == "refill":
            live = [i for i, d in enumerate(state["decks"]) if d]
            assert GAME.legal_moves(state) == [
                move(state["active_players"][0], "draw", deck=i) for i in live
            ]
            discard = sorted(state["discard"])
            state, events = apply(state, move(state["active_players"][0], "draw", deck=live[0]))
            if "decks_rebuilt" in types(events):
                rebuilt = True
                assert sorted(c for d in state["decks"] for c in d) == discard
                assert state["discard"] == [] and first(events, "decks_rebuilt")["sizes"] in (
                    [n // 3 + (i < n % 3) for i in range(3)] for n in [len(discard)]
                )
    assert rebuilt, "the decks ran out and were rebuilt from the discard pile"


def test_rebuild_happens_before_end_of_round_draws_when_the_decks_are_empty():
    state = pitch(round_one(), {"bob": "p01", "cat": "p07"})
    state = copy.deepcopy(state)
    rest = [c for d in state["decks"] for c in d]
    state["decks"] = [[], [], []]
    state["discard"].extend(rest)
    GAME.check_state(state)
    state, _ = apply(state, move("ann", "decide", accept=["bob", "cat"]))
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, _ = apply(state, move("ann", "keep_decision"))
    state, events = apply(state, move("ann", "reveal", advisor="cat"))
    state, events = apply(state, move("ann", "keep_decision"))
    assert "decks_rebuilt" in types(events) and state["phase"] == "refill"
    assert sum(len(d) for d in state["decks"]) == len(rest)


def test_tokens_never_move_past_the_end_spaces():
    state = set_tracks(pitch(round_one(), {"bob": "p05", "cat": "p07"}), church=4)
    state, _ = apply(state, move("ann", "decide", accept=["bob"]))
    state, _ = apply(state, move("ann", "reveal", advisor="cat"))
    state, _ = apply(state, move("ann", "keep_decision"))
    state, events = apply(state, move("ann", "reveal", advisor="bob"))
    state, events = apply(state, move("ann", "keep_decision"))
    assert state["tracks"]["church"] == 5 and "monarch_died" in types(events)


def test_wrong_phase_messages_read_as_plain_english():
    """Issue 16 item 11: the wrong_phase text once said "the the Monarch" and "the the players".
    A random game visits every phase; in each, a move of every other type gets a message that
    names who is acting, with no word doubled."""
    import random
    import re

    from rules.reigns_the_council.moves import _PHASES_OF

    state = fresh(4, seed=3, story_point="vote")
    chooser = random.Random(3)
    seen: set[str] = set()
    while state["status"] != "finished":
        phase = state["phase"]
        if phase not in seen:
            seen.add(phase)
            for kind, phases in _PHASES_OF.items():
                if phase in phases:
                    continue
                found = GAME.violations(
                    state,
                    {
                        "player": state["active_players"][0],
                        "type": kind,
                        **(
                            {} if kind in ("change_mind", "keep_decision") else {_field(kind): None}
                        ),
                    },
                )
                wrong = [v for v in found if v.code == "wrong_phase"]
                assert wrong, (phase, kind, found)
                assert not re.search(r"\b(\w+) \1\b", wrong[0].message, re.IGNORECASE), wrong[
                    0
                ].message
                assert re.search(
                    r": the (advisors|Monarch|players|outgoing Monarch) ", wrong[0].message
                )
        state, _ = GAME.apply(state, chooser.choice(GAME.legal_moves(state)))
    assert {"deal", "exchange", "redraw", "pitch", "decide", "reveal", "mind", "refill"} <= seen


def _field(kind: str) -> str:
    from rules.reigns_the_council.moves import _FIELDS

    return _FIELDS[kind]
