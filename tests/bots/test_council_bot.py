"""The Council bots' evaluation (docs/rules/reigns-the-council.md, "Bots"): what greedy plays and
what the expert starts its search from. Each test fails if one of its terms is lost."""
from __future__ import annotations

from rules.bots import BOTS
from rules.reigns_the_council.content import GOALS
from rules.reigns_the_council.ending import totals
from tests.bots.positions import random_line

BOT = BOTS["reigns-the-council"]
GAME = BOT.game


def _first(phase: str, seed: int = 1):
    for s in range(seed, seed + 40):
        for state in random_line("reigns-the-council", s, 400):
            if state["phase"] == phase:
                return state
    raise AssertionError(f"no {phase} position")


def _goal_gain(state, player, card):
    """How far the card pushes the tracks towards ``player``'s goal, accepted or rejected."""
    goal, info = GOALS[state["goals"][player]], state["cards"][card]
    return sum(side * (2 * info["accept"].get(p, 0) + info["reject"].get(p, 0)) for p, side in goal.items())


def test_a_pitch_towards_the_advisors_goal_is_worth_more():
    """After a pitch nothing public changes, yet the evaluation tells pitches apart by where the
    card is expected to move the tracks for the pitcher's goal."""
    state = _first("pitch")
    player = state["active_players"][0]
    hand = sorted(state["hands"][player], key=lambda c: _goal_gain(state, player, c))
    worst, best = hand[0], hand[-1]
    assert _goal_gain(state, player, best) > _goal_gain(state, player, worst)

    def value(card):
        after, _ = GAME.apply(state, {"player": player, "type": "pitch", "card": card})
        return BOT.evaluate(after, player)
    assert value(best) > value(worst)


def test_an_exchange_that_throws_away_the_best_card_is_worth_less():
    state = _first("exchange")
    player = state["active_players"][0]
    hand = sorted(state["hands"][player], key=lambda c: _goal_gain(state, player, c))

    def value(cards):
        after, _ = GAME.apply(state, {"player": player, "type": "exchange", "cards": cards})
        return BOT.evaluate(after, player)
    assert value([hand[0]]) > value([hand[-1]])


def test_only_a_leader_wants_the_game_to_end_early():
    """Voting to end is worth the result of ending now, if the others agree (½ each): more than
    going on for the leader, less for anyone else."""
    state = _first("end_vote", seed=3)
    scores = totals(state)
    leader = max(scores, key=scores.get)
    trailer = min(scores, key=scores.get)
    assert scores[leader] > max(v for p, v in scores.items() if p != leader)

    def value(player, end):
        after, _ = GAME.apply(state, {"player": player, "type": "end_vote", "end": end})
        return BOT.evaluate(after, player)
    assert value(leader, True) > value(leader, False)
    assert value(trailer, False) > value(trailer, True)


def test_a_monarch_values_accepting_more_while_the_realm_is_calm():
    """At the start of a reign no token is near an end space: each accepted proposal is a pile
    card for the Monarch (and one acceptance point for one advisor)."""
    state = next(s for s in (_first("decide", seed=k) for k in range(1, 30))
                 if max(abs(v) for v in s["tracks"].values()) <= 1 and len(s["round"]["table"]) >= 2)
    king = state["active_players"][0]
    advisors = list(state["round"]["table"])

    def value(accept):
        after, _ = GAME.apply(state, {"player": king, "type": "decide", "accept": accept})
        return BOT.evaluate(after, king)
    assert value(advisors) > value(advisors[:1])
