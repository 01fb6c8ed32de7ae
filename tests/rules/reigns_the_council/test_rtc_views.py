"""Hidden information, for every role: an advisor, the Monarch, a spectator (rulings RtC 11).

An advisor sees their hand's fronts and goal; everyone sees hand backs, the top back of each
deck, pitched backs, revealed cards, tracks and scores; the Monarch never sees pitched fronts
before the reveal. Card ids are only shown with their fronts, so an id of a hidden card must
never appear where it is hidden. Secret simultaneous choices leak through no view, event or
error message."""

from __future__ import annotations

import json
import random

from rtc_helpers import apply, draw_all, fresh, give, move, pitch, to_pitch

from rules.playout import random_steps
from rules.reigns_the_council import GAME
from rules.reigns_the_council.content import GOALS


def text(obj) -> str:
    return json.dumps(obj)


def hidden_ids(state: dict, viewer: str | None) -> set[str]:
    """Card ids ``viewer`` may not see: decks, discard, other hands, face-down table cards
    (their own pitch excepted)."""
    ids = {c for d in state["decks"] for c in d} | (
        set(state["discard"]) - set(state["discard_revealed"])
    )
    for p, hand in state["hands"].items():
        if p != viewer:
            ids |= set(hand)
    rnd = state["round"]
    if rnd is not None:
        ids |= {c for p, c in rnd["table"].items() if p != viewer}
    # a revealed card that went to the discard pile is public knowledge
    if rnd is not None:
        ids -= {r["card"] for r in rnd["revealed"]}
    return ids


def assert_hides(state: dict, viewer: str | None) -> dict:
    shown = GAME.view(state, viewer)
    dumped = text(shown)
    leaked = [c for c in hidden_ids(state, viewer) if f'"{c}"' in dumped]
    assert not leaked, (viewer, leaked)
    assert "rng" not in shown and "seed" not in shown and "draw_queue" in shown
    current = text(
        {k: v for k, v in shown.items() if k != "reigns"}
    )  # past reigns show revealed goals
    for p, goal in state["goals"].items():
        if p != viewer and state["reigns"][-1]["goals"] is None:
            assert goal not in current, (viewer, p)
            assert all(goal not in text(r) for r in shown["reigns"] if r["goals"] is None)
    return shown


def test_advisor_sees_own_fronts_and_goal_and_only_backs_of_others():
    state = to_pitch(fresh(4))
    bob = GAME.view(state, "bob")
    assert bob["role"] == "advisor" and bob["viewer"] == "bob"
    assert [c["id"] for c in bob["hand"]] == state["hands"]["bob"]
    assert bob["hand"][0]["accept"] == state["cards"][state["hands"]["bob"][0]]["accept"]
    assert bob["goal"]["id"] == state["goals"]["bob"]
    assert bob["hands"]["cat"] == {
        "count": 7,
        "backs": [state["cards"][c]["back"] for c in state["hands"]["cat"]],
    }
    assert "ann" not in bob["hands"]
    assert bob["decks"] == [
        {"count": len(d), "top": state["cards"][d[0]]["back"]} for d in state["decks"]
    ]
    assert_hides(state, "bob")


def test_monarch_and_spectator_see_no_hand_and_no_goal():
    state = to_pitch(fresh(3))
    for viewer, role in (("ann", "monarch"), (None, None)):
        shown = assert_hides(state, viewer)
        assert shown["role"] == role and "hand" not in shown and "goal" not in shown


def test_pitches_stay_secret_until_everyone_has_pitched():
    state = give(to_pitch(fresh(4)), "bob", ["p01"])
    state, events = apply(state, move("bob", "pitch", card="p01"))
    for viewer in ("ann", "cat", "dan", None):
        shown = assert_hides(state, viewer)
        assert shown["round"]["pitched"] == {"bob": True, "cat": False, "dan": False}
        assert shown["hands"]["bob"]["count"] == 7, "the pitched card still counts in the hand"
        assert "p01" not in text(shown)
        assert GAME.view_event(events[0], viewer) == {"type": "proposal_pitched", "player": "bob"}
    mine = GAME.view(state, "bob")
    assert mine["round"]["mine"]["id"] == "p01"
    assert GAME.view_event(events[0], "bob")["card"] == "p01"
    assert GAME.view_move(move("bob", "pitch", card="p01"), "cat") == {
        "player": "bob",
        "type": "pitch",
    }
    assert GAME.view_move(move("bob", "pitch", card="p01"), "bob")["card"] == "p01"


def test_the_monarch_sees_pitched_backs_never_fronts_before_the_reveal():
    state = pitch(to_pitch(fresh(3)), {"bob": "p01", "cat": "p29"})
    shown = assert_hides(state, "ann")
    assert shown["round"]["table"] == {"bob": ["church"], "cat": ["church", "army"]}
    assert "p01" not in text(shown) and "p29" not in text(shown)
    state, _ = apply(state, move("ann", "decide", accept=["bob"]))
    state, _ = apply(state, move("ann", "reveal", advisor="cat"))
    shown = assert_hides(state, "ann")
    assert shown["round"]["pending"]["card"]["id"] == "p29" and "p01" not in text(shown)
    state, _ = apply(state, move("ann", "keep_decision"))
    for viewer in ("ann", "bob", "cat", None):
        shown = assert_hides(state, viewer)
        assert shown["round"]["revealed"][0]["card"]["id"] == "p29"


def test_exchange_choices_are_secret_until_everyone_has_chosen():
    state = draw_all(fresh(3))
    card = state["hands"]["bob"][0]
    state, events = apply(state, move("bob", "exchange", cards=[card]))
    for viewer in ("ann", "cat", None):
        shown = assert_hides(state, viewer)
        assert shown["exchange"] == {"chosen": {"bob": True, "cat": False}}
        assert GAME.view_event(events[0], viewer) == {"type": "exchange_chosen", "player": "bob"}
    assert GAME.view(state, "bob")["exchange"]["mine"] == [card]
    state, events = apply(state, move("cat", "exchange", cards=[]))
    done = [e for e in events if e["type"] == "cards_exchanged"]
    assert [GAME.view_event(e, "cat") for e in done][0] == {
        "type": "cards_exchanged",
        "player": "bob",
        "count": 1,
    }


def test_votes_are_secret_until_everyone_has_voted():
    from test_rtc_endings import ended_reign

    state = ended_reign()
    state, events = apply(state, move("bob", "end_vote", end=True))
    assert GAME.view(state, "cat")["votes"] == {"voted": {"ann": False, "bob": True, "cat": False}}
    assert GAME.view(state, "bob")["votes"]["mine"] is True
    assert GAME.view_event(events[0], "cat") == {"type": "end_vote_cast", "player": "bob"}


def test_drawn_cards_and_dealt_goals_are_private_in_events():
    state = fresh(3)
    state, events = apply(state, move("bob", "draw", deck=1))
    assert GAME.view_event(events[0], "cat") == {
        "type": "card_drawn",
        "player": "bob",
        "deck": 1,
        "back": events[0]["back"],
    }
    setup_events = []
    import copy

    from rules.reigns_the_council.reign import start_reign
    from rules.rng import Rng

    start_reign(copy.deepcopy(state), "bob", Rng(1), setup_events)
    dealt = [e for e in setup_events if e["type"] == "goal_dealt"]
    assert dealt and all(
        "goal" not in GAME.view_event(e, "bob") for e in dealt if e["player"] != "bob"
    )


def test_error_messages_never_name_another_players_cards():
    state = to_pitch(fresh(3))
    bob_card = state["hands"]["bob"][0]
    for m in (
        move("cat", "pitch", card=bob_card),
        move("cat", "exchange", cards=[bob_card]),
        move("ann", "pitch", card=bob_card),
    ):
        for v in GAME.violations(state, m):
            assert bob_card not in v.message
    state, _ = apply(state, move("bob", "pitch", card=bob_card))
    for v in GAME.violations(state, move("cat", "pitch", card=bob_card)):
        assert bob_card not in v.message and "bob" not in v.message


def test_views_hide_what_they_must_throughout_random_games():
    for seed in range(12):
        state = GAME.setup(
            ["ann", "bob", "cat", "dan"][: 3 + seed % 2], seed, {"story_point": "vote"}
        )
        for i, step in enumerate(random_steps(GAME, state, random.Random(seed))):
            if i % 7:
                continue
            for viewer in step.after["players"] + [None]:
                assert_hides(step.after, viewer)
                for e in step.events:
                    shown = GAME.view_event(e, viewer)
                    if (
                        e["type"]
                        in (
                            "proposal_pitched",
                            "exchange_chosen",
                            "end_vote_cast",
                            "story_vote_cast",
                            "card_drawn",
                            "goal_dealt",
                            "cards_exchanged",
                        )
                        and e["player"] != viewer
                    ):
                        assert len(shown) < len(e)


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(set(map(str, obj)), *(_strings(v) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(_strings(v) for v in obj))
    return set()


def test_nobody_learns_a_card_goal_or_vote_they_may_not_know_in_views_histories_and_errors():
    """Whole games, every role: each player's knowledge is tracked from what they may see (the
    cards they drew, every revealed card, their own goal, revealed goals); no view, redacted event,
    redacted move (a session's history) or violation message addressed to them holds a card id or
    goal id outside it, nor another player's secret vote before the result."""
    goal_ids = set(GOALS)
    for seed in range(6):
        players = ["ann", "bob", "cat", "dan"][: 3 + seed % 2]
        state = GAME.setup(players, seed, {"story_point": "vote"})
        card_ids = set(state["cards"])
        known = {p: set() for p in [*players, None]}
        goals_known = {
            p: {state["goals"][p]} if p in state["goals"] else set() for p in [*players, None]
        }
        chooser = random.Random(seed)
        for i, step in enumerate(random_steps(GAME, state, chooser)):
            for e in step.events:  # learn first: what an event reveals, it reveals to its reader
                if e["type"] == "card_drawn":
                    known[e["player"]].add(e["card"])
                elif e["type"] == "proposal_revealed":
                    for p in known:
                        known[p].add(e["card"])
                elif e["type"] == "goal_dealt":
                    goals_known[e["player"]].add(e["goal"])
                elif e["type"] == "goals_revealed":
                    for p in goals_known:
                        goals_known[p].update(e["goals"].values())
            for viewer in [*players, None]:
                seen = [GAME.view_move(step.move, viewer)] + [
                    GAME.view_event(e, viewer) for e in step.events
                ]
                if i % 5 == 0 or step.after["phase"] in (
                    "decide",
                    "mind",
                    "story_vote",
                    "end_vote",
                ):
                    seen.append(GAME.view(step.after, viewer))
                found = set().union(*map(_strings, seen))
                assert not (found & card_ids) - known[viewer], (
                    viewer,
                    step.move,
                    (found & card_ids) - known[viewer],
                )
                assert not (found & goal_ids) - goals_known[viewer], (viewer, step.move)
                for e in step.events:
                    if e["type"] in ("story_vote_cast", "end_vote_cast") and e["player"] != viewer:
                        assert set(GAME.view_event(e, viewer)) == {"type", "player"}
                if (
                    step.move["type"] in ("pitch", "exchange", "story_vote", "end_vote")
                    and step.move["player"] != viewer
                ):
                    assert GAME.view_move(step.move, viewer) == {
                        "player": step.move["player"],
                        "type": step.move["type"],
                    }
            # Errors: another player's cards named in a move by someone else are never echoed.
            if step.after["status"] == "in_progress":
                for p in players:
                    for other, hand in step.after["hands"].items():
                        if other == p or not hand:
                            continue
                        for m in (
                            {"player": p, "type": "pitch", "card": hand[0]},
                            {"player": p, "type": "exchange", "cards": hand[:2]},
                        ):
                            for v in GAME.violations(step.after, m):
                                assert not _strings(v.message.split()) & card_ids - known[p], v
                                assert not any(c in v.message for c in hand if c not in known[p]), v


def test_a_rejected_card_revealed_in_an_earlier_round_stays_public_in_the_discard_pile():
    """Rulings RtC 11 ("Revealed cards are public"), issue 16 item 10: the discard pile's revealed
    part is shown, card by card with its front, to everyone and in later rounds too; exchanged
    cards in the same pile stay face down."""
    state = draw_all(fresh(3))
    exchanged = state["hands"]["cat"][-1]
    for p in list(state["active_players"]):
        state, _ = apply(state, move(p, "exchange", cards=[exchanged] if p == "cat" else []))
    state = draw_all(state)
    state = pitch(state, {"bob": "p03", "cat": "p07"})
    state, _ = apply(state, move("ann", "decide", accept=["cat"]))
    for adv in ("bob", "cat"):
        state, _ = apply(state, move("ann", "reveal", advisor=adv))
        state, _ = apply(state, move("ann", "keep_decision"))
    state = draw_all(state)
    assert state["round"]["number"] == 2 and state["round"]["revealed"] == []
    assert state["discard"] == [exchanged, "p03"] and state["discard_revealed"] == ["p03"]
    for viewer in ("ann", "bob", "cat", None):
        shown = GAME.view(state, viewer)
        assert shown["discard_count"] == 2
        assert shown["discard_revealed"] == [
            {
                "id": "p03",
                **{k: GAME_CARD(state, "p03")[k] for k in ("title", "back", "accept", "reject")},
            }
        ]
        if viewer != "cat":
            assert exchanged not in text(shown), viewer
    # A rebuild shuffles the face-up cards back into the decks, face down.
    emptied = dict(
        state, decks=[[], [], []], discard=state["discard"] + [c for d in state["decks"] for c in d]
    )
    from rules.reigns_the_council.decks import rebuild_if_empty
    from rules.rng import Rng

    rebuild_if_empty(emptied, Rng.from_seed(1), [])
    assert emptied["discard"] == [] and emptied["discard_revealed"] == []


def GAME_CARD(state: dict, card: str) -> dict:
    return state["cards"][card]


def test_the_revealed_part_of_the_discard_is_checked_on_states_sent_back():
    state = draw_all(fresh(3))
    for p in list(state["active_players"]):
        state, _ = apply(state, move(p, "exchange", cards=[]))
    state = draw_all(state)
    state = pitch(state, {"bob": "p03", "cat": "p07"})
    state, _ = apply(state, move("ann", "decide", accept=["cat"]))
    state, _ = apply(state, move("ann", "reveal", advisor="bob"))
    state, _ = apply(state, move("ann", "keep_decision"))
    assert state["discard_revealed"] == ["p03"]
    import pytest

    from rules.errors import InvalidState

    for bad, code in (
        (dict(state, discard_revealed=[]), "bad_round"),
        (dict(state, discard_revealed=["p03", "p03"]), "bad_discard_revealed"),
        (dict(state, discard_revealed=["p07"]), "bad_discard_revealed"),
    ):
        with pytest.raises(InvalidState) as err:
            GAME.check_state(bad)
        assert code in [v.code for v in err.value.violations], err.value.violations
