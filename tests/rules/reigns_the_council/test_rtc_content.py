"""Content as data: the pillars and tracks, the 72 proposals, the 24 secret goals (rulings RtC
2 to 4), and the deck's balance."""

from __future__ import annotations

import random
from itertools import combinations

from rules.playout import random_steps
from rules.reigns_the_council import GAME
from rules.reigns_the_council.content import (
    GOALS,
    PILLARS,
    TRACK_MAX,
    TRACK_MIN,
    card_problems,
    default_catalog,
    goal_points,
    space_points,
)


def test_four_pillars_and_tracks_from_minus_five_to_plus_five():
    assert PILLARS == ("church", "army", "people", "wealth")
    assert (TRACK_MIN, TRACK_MAX) == (-5, 5)
    content = GAME.content()
    assert [p["id"] for p in content["pillars"]] == list(PILLARS)
    assert content["track"] == {"min": -5, "max": 5, "start": 0}


def test_spaces_score_by_distance_and_end_spaces_score_five():
    assert [space_points(v) for v in range(-5, 6)] == [5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5]


def test_default_deck_has_72_sound_cards_with_truthful_backs():
    cards = default_catalog()
    assert len(cards) == 72 and len(GAME.content()["deck"]) == 72
    for cid, card in cards.items():
        assert card_problems(cid, card, with_id=False) == []
        assert set(card["back"]) == set(card["accept"]) | set(card["reject"])
        assert card["accept"] != card["reject"] and card["title"]
    titles = [c["title"] for c in cards.values()]
    assert len(set(titles)) == 72


def test_every_pillar_moves_both_ways_on_acceptance_and_on_rejection():
    cards = default_catalog().values()
    for pillar in PILLARS:
        for zone in ("accept", "reject"):
            signs = {c[zone][pillar] > 0 for c in cards if pillar in c[zone]}
            assert signs == {True, False}, (pillar, zone)


def test_24_goals_cover_every_pair_of_pillars_with_every_direction():
    assert len(GOALS) == 24
    wanted = {
        (a, sa, b, sb) for a, b in combinations(PILLARS, 2) for sa in (1, -1) for sb in (1, -1)
    }
    got = {(a, g[a], b, g[b]) for g in GOALS.values() for a, b in [sorted(g, key=PILLARS.index)]}
    assert got == wanted


def test_goal_points_count_only_tokens_on_the_goal_side():
    goal = GOALS["weak-church-strong-army"]
    tracks = {"church": -2, "army": 5, "people": 3, "wealth": -4}
    assert goal_points(goal, tracks) == {"church": 2, "army": 5}
    assert goal_points(goal, {**tracks, "church": 3, "army": 0}) == {"church": 0, "army": 0}


def test_the_deck_is_balanced_so_reigns_last_several_rounds():
    """Under random play, reigns last several rounds on average, few end in the first round,
    and both deaths and abdications happen."""
    lengths, ends = [], {"death": 0, "abdication": 0}
    for seed in range(120):
        state = GAME.setup(["ann", "bob", "cat", "dan"][: 3 + seed % 2], seed, {})
        for step in random_steps(GAME, state, random.Random(seed)):
            for e in step.events:
                if e["type"] == "reign_ended":
                    lengths.append(step.before["round"]["number"])
                    ends[e["cause"]] += 1
    mean = sum(lengths) / len(lengths)
    assert 3.5 <= mean <= 8, mean
    assert sum(1 for n in lengths if n == 1) / len(lengths) < 0.1
    assert ends["death"] > 0 and ends["abdication"] > 0
