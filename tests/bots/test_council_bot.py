"""The Council bots' evaluation (docs/rules/reigns-the-council.md, "Bots"): what greedy plays and
what the expert starts its search from. Each test fails if one of its terms is lost."""

from __future__ import annotations

import random

from rules.bots import BOTS
from rules.bots.reigns_the_council import _REIGN_OVER, _card_gain, _round
from rules.reigns_the_council.content import GOALS, default_catalog
from rules.reigns_the_council.ending import totals
from tests.bots.positions import positions, random_line

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
    return sum(
        side * (2 * info["accept"].get(p, 0) + info["reject"].get(p, 0)) for p, side in goal.items()
    )


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
    state = next(
        s
        for s in (_first("decide", seed=k) for k in range(1, 30))
        if max(abs(v) for v in s["tracks"].values()) <= 1 and len(s["round"]["table"]) >= 2
    )
    king = state["active_players"][0]
    advisors = list(state["round"]["table"])

    def value(accept):
        after, _ = GAME.apply(state, {"player": king, "type": "decide", "accept": accept})
        return BOT.evaluate(after, king)

    assert value(advisors) > value(advisors[:1])


def test_a_rollout_stops_at_the_end_of_the_round_it_began_in():
    """The expert's rollouts are cut where the evaluation is most reliable: at the next round's
    first pitch (the reign setup counting as a round), or once the reign is over."""
    for seed in range(1, 6):
        line = list(random_line("reigns-the-council", seed, 400))
        for i, start in enumerate(line):
            if start["phase"] in ("deal", "pitch", "refill"):
                for later in line[i:]:
                    stop = BOT.rollout_stop(start, later)
                    over = later["phase"] in ("story_vote", "end_vote", "succession", "finished")
                    next_round = later["phase"] == "pitch" and _round(later) != _round(start)
                    assert stop == (over or next_round)
                    if stop:
                        break
                else:
                    continue
                assert later is not start


def test_the_expert_searches_the_three_best_and_stops_its_rollouts(monkeypatch):
    """The Council's expert keeps only ``expert_width`` candidates and its rollouts end with the
    round: a search from a pitch never sees a state of the next round."""
    from rules.bots import core

    state = _first("pitch")
    player = state["active_players"][0]
    seen = []
    real = BOT.rollout_stop

    def spy(start, now):
        seen.append(now)
        return real(start, now)

    monkeypatch.setattr(BOT, "rollout_stop", spy)
    searched = []
    real_search = core._search
    monkeypatch.setattr(
        core,
        "_search",
        lambda b, v, p, greedy, others, *a: (
            searched.append(len(others) + 1) or real_search(b, v, p, greedy, others, *a)
        ),
    )
    core.suggest(
        BOT, GAME.view(state, player), player, "expert", 1, 1000, clock=lambda: float("-inf")
    )
    assert BOT.expert_width == 3 and searched == [3]
    assert seen and all(
        _round(s) == _round(state) or s["phase"] in ("pitch",) + _REIGN_OVER for s in seen
    )


def _table_gain(state, player):
    """What the advisor's proposal on the table is worth to that advisor's goal."""
    card = state["round"]["table"][player]
    return _card_gain(GOALS[state["goals"][player]], state["tracks"], state["cards"][card])


def test_the_expert_imagines_proposals_pitched_for_their_advisors_goals():
    """``imagine`` (the expert's determinization) draws a face-down proposal as its advisor
    would pitch it, for their (imagined) goal; ``determinize`` (greedy's) draws any card of its
    back. Both give the viewer the same view and a valid state."""
    for seed in range(1, 5):
        state = _first("decide", seed)
        monarch = state["reigns"][-1]["monarch"]
        view = GAME.view(state, monarch)
        plain, informed = [], []
        for i in range(150):
            imagined = BOT.imagine(view, random.Random(i))
            GAME.check_state(imagined)
            assert GAME.view(imagined, monarch) == view
            informed += [_table_gain(imagined, p) for p in imagined["round"]["table"]]
            guessed = BOT.determinize(view, random.Random(i))
            plain += [_table_gain(guessed, p) for p in guessed["round"]["table"]]
        assert sum(informed) / len(informed) > sum(plain) / len(plain) + 0.15, (
            seed,
            informed,
            plain,
        )


def test_an_advisor_imagines_another_advisors_pitch_from_that_advisors_hand():
    """A pitch made but not yet on the table is one of its advisor's own cards, drawn for their
    goal, in a state that still gives the viewer their view."""
    for seed in range(1, 30):
        line = random_line("reigns-the-council", seed, 400)
        state = next(
            (
                s
                for s in line
                if s["phase"] == "pitch"
                and sum(c is not None for c in s["round"]["pitches"].values()) == 1
            ),
            None,
        )
        if state is not None:
            break
    assert state is not None, "no pitch position with exactly one pitch made"
    (pitcher,) = [p for p, c in state["round"]["pitches"].items() if c is not None]
    viewer = state["active_players"][0]
    view = GAME.view(state, viewer)
    gains = {"imagine": [], "determinize": []}
    for i in range(200):
        for how in gains:
            imagined = getattr(BOT, how)(view, random.Random(i))
            assert GAME.view(imagined, viewer) == view
            card = imagined["round"]["pitches"][pitcher]
            assert card in imagined["hands"][pitcher]
            gains[how].append(
                _card_gain(
                    GOALS[imagined["goals"][pitcher]], imagined["tracks"], imagined["cards"][card]
                )
            )
    assert sum(gains["imagine"]) > sum(gains["determinize"]) + 0.1 * 200


def test_the_monarchs_expert_suggestion_is_blind_to_the_proposals_fronts():
    """Two states whose face-down proposals differ in front but not in back give the Monarch's
    expert the same suggestion: ``imagine`` redraws the proposals from the view alone."""
    from rules.bots import core

    state = _first("decide", 2)
    monarch = state["reigns"][-1]["monarch"]
    view = GAME.view(state, monarch)
    twin = BOT.determinize(view, random.Random(11))
    assert GAME.view(twin, monarch) == view and twin["round"]["table"] != state["round"]["table"]
    suggestions = [
        core.suggest(
            BOT, GAME.view(s, monarch), monarch, "expert", 4, 300, clock=lambda: float("-inf")
        )
        for s in (state, twin)
    ]
    assert suggestions[0] == suggestions[1]


def test_only_the_expert_imagines_the_others_aims(monkeypatch):
    """The expert's search draws its imagined states with ``imagine`` (one a round); greedy, and
    the expert's own greedy pass, keep ``determinize``."""
    from rules.bots import core

    state = _first("decide", 3)
    monarch = state["reigns"][-1]["monarch"]
    calls = []
    real = BOT.imagine
    monkeypatch.setattr(BOT, "imagine", lambda view, rng: calls.append(1) or real(view, rng))
    never = lambda: float("-inf")  # noqa: E731
    core.suggest(BOT, GAME.view(state, monarch), monarch, "greedy", 1, 100, clock=never)
    assert calls == []
    core.suggest(BOT, GAME.view(state, monarch), monarch, "expert", 1, 1, clock=never)
    assert calls == []  # no time to search: greedy's move, from greedy's imagined states
    picked = core.suggest(BOT, GAME.view(state, monarch), monarch, "expert", 1, 1000, clock=never)
    assert picked.playouts > 0 and calls


def test_a_rollout_plays_the_monarchs_choice_greedily_and_the_rest_at_random():
    """``rollout_greed_at``: in the decide phase the rollout move is the Monarch's best one move
    ahead whatever the generator; in a pitch it is a random legal move."""
    from rules.bots.core import _rollout_move

    line = [s for seed in (1, 2, 3) for s in positions("reigns-the-council", seed=seed, every=1)]
    decide = next(s for s in line if s["phase"] == "decide" and len(GAME.legal_moves(s)) > 1)
    moves = GAME.legal_moves(decide)
    mover = moves[0]["player"]
    values = [BOT.evaluate(GAME.apply(decide, m)[0], mover) for m in moves]
    best = GAME.apply(decide, moves[values.index(max(values))])[0]
    assert all(_rollout_move(BOT, decide, moves, random.Random(s)) == best for s in range(5))
    pitch = next(s for s in line if s["phase"] == "pitch" and len(GAME.legal_moves(s)) > 2)
    moves = GAME.legal_moves(pitch)
    after = [GAME.apply(pitch, m)[0] for m in moves]
    chosen = [_rollout_move(BOT, pitch, moves, random.Random(s)) for s in range(20)]
    assert all(c in after for c in chosen) and len({after.index(c) for c in chosen}) > 1


def test_the_kept_card_gains_are_the_card_gains():
    """``_default_gain`` keeps the gains of the default proposals (the bot's states share that
    catalogue): over positions of several games the evaluation is the same as on a copy of the
    state whose catalogue is an equal map, where every gain is worked out anew."""
    import copy

    line = [s for seed in (1, 2) for s in positions("reigns-the-council", seed=seed, every=3)]
    assert len({tuple(s["tracks"].values()) for s in line}) > 5
    for state in line:
        assert state["cards"] is default_catalog()
        anew = copy.deepcopy(state)
        for player in state["players"]:
            assert BOT.evaluate(state, player) == BOT.evaluate(anew, player)
