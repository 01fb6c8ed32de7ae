"""``bench/listing_reuse.py`` (issue 28): the ceiling of an incremental Reign Supreme listing. Its
parts must be the whole listing, or the ceiling would leave some of the listing's work out."""

from __future__ import annotations

import random
from collections import Counter

from rules.playout import random_action_steps
from rules.registry import get_game
from tests import bench_scripts


def _key(move: dict) -> str:
    return repr(sorted(move.items()))


def test_the_parts_are_the_whole_combat_listing():
    reuse = bench_scripts.load("listing_reuse")
    game = get_game("reign-supreme")
    state = game.setup(["p0", "p1"], 7, {})
    compared = 0
    for step in random_action_steps(game, state, random.Random(7), concede=0.0):
        before = step.before
        if before["phase"] != "combat" or before["pending"] is not None:
            continue
        parts = reuse.timed_parts(before)
        turn = before["turn"]
        listed = [move for found in parts.moves.values() for move in found]
        listed += [{"player": turn, "type": "end_turn"}, {"player": turn, "type": "concede"}]
        assert Counter(map(_key, listed)) == Counter(map(_key, game.legal_moves(before)))
        compared += 1
        if compared == 60:
            break
    assert compared == 60


def test_the_ceiling_makes_the_unchanged_share_of_the_listing_free():
    reuse = bench_scripts.load("listing_reuse")
    tally = reuse.Tally(
        steps=100,
        seconds=1.0,
        apply_seconds=0.2,
        combat_listing=0.6,
        parts_seconds=0.8,  # timed apart: the timers add their own cost
        unchanged_seconds=0.4,
    )
    assert reuse.free_share(tally) == 0.5
    assert reuse.ceiling_seconds(tally) == 0.7  # half of the plain listings' 0.6 s is free
