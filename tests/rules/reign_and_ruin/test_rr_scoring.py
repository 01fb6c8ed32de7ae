"""Army totals, faction series and tie-breaks (seed §5; rulings R&R 11)."""

from __future__ import annotations

from rr_helpers import fighter, play_state

from rules.reign_and_ruin import GAME
from rules.reign_and_ruin.scoring import army_breakdown

HANDS2 = {"ann": ["crou-9"], "bob": ["crou-8"]}


def breakdown(army):
    state = play_state({"ann": ["crou-9"], "bob": ["crou-8"]}, {"ann": army})
    return army_breakdown(state["cards"], state["armies"]["ann"])


def test_the_seeds_worked_example_totals_44():
    """Lisa: Alfenghast 3, 5 and 6 (one Kurgoz token on the 6) and a Hexen 4 → 12+5+3=20, ×2=40,
    +4=44."""
    state = play_state(
        {"lisa": ["crou-9"], "max": ["crou-8"]},
        {"lisa": ["alfenghast-3", "alfenghast-5", fighter("alfenghast-6", kurgoz=1), "hexen-4"]},
    )
    score = GAME.score(state)
    assert score.scores["lisa"] == 44
    assert score.breakdown["players"]["lisa"] == {
        "fighters": [
            {"card": "alfenghast-3", "faction": "alfenghast", "value": 3, "kurgoz": 0, "worth": 3},
            {"card": "alfenghast-5", "faction": "alfenghast", "value": 5, "kurgoz": 0, "worth": 5},
            {"card": "alfenghast-6", "faction": "alfenghast", "value": 6, "kurgoz": 1, "worth": 12},
            {"card": "hexen-4", "faction": "hexen", "value": 4, "kurgoz": 0, "worth": 4},
        ],
        "series": [
            {
                "faction": "alfenghast",
                "cards": ["alfenghast-3", "alfenghast-5", "alfenghast-6"],
                "sum": 20,
                "value": 40,
            }
        ],
        "total": 44,
        "best_series": 40,
        "fighter_count": 4,
    }
    assert score.finished is False


def test_kurgoz_doubles_once_per_token():
    result = breakdown(
        [fighter("hexen-5", kurgoz=1), fighter("crou-3", kurgoz=2), fighter("nomora-1", kurgoz=3)]
    )
    assert [f["worth"] for f in result["fighters"]] == [10, 12, 8]
    assert result["total"] == 30


def test_two_fighters_of_a_faction_are_no_series_but_four_are():
    assert breakdown(["hexen-1", "hexen-2"])["total"] == 3
    assert breakdown(["hexen-1", "hexen-2"])["series"] == []
    four = breakdown(["hexen-1", "hexen-2", "hexen-3", "hexen-4"])
    assert four["series"] == [
        {
            "faction": "hexen",
            "cards": ["hexen-1", "hexen-2", "hexen-3", "hexen-4"],
            "sum": 10,
            "value": 20,
        }
    ]
    assert four["total"] == 20


def test_two_series_in_one_army_and_best_series():
    result = breakdown(
        ["hexen-1", "kurgoz-9", "hexen-2", "kurgoz-8", "hexen-3", "kurgoz-7", "crou-5"]
    )
    assert [(s["faction"], s["sum"], s["value"]) for s in result["series"]] == [
        ("hexen", 6, 12),
        ("kurgoz", 24, 48),
    ]
    assert result["total"] == 12 + 48 + 5
    assert result["best_series"] == 48
    assert breakdown(["crou-5"])["best_series"] == 0


def test_series_are_listed_in_the_factions_rule_text_order_not_the_armys():
    result = breakdown(
        ["kurgoz-9", "kurgoz-8", "kurgoz-7", "crou-5", "hexen-1", "hexen-2", "hexen-3"]
    )
    assert [s["faction"] for s in result["series"]] == ["hexen", "kurgoz"]


def test_highest_total_wins():
    state = play_state(HANDS2, {"ann": ["hexen-9"], "bob": ["hexen-8"]})
    score = GAME.score(state)
    assert (score.winners, score.draw, score.breakdown["tie_break"]) == (("ann",), False, None)
    assert score.breakdown["ranking"] == ["ann", "bob"]


def test_tie_broken_by_highest_series_a_player_without_series_counting_zero():
    # ann: Hexen 1+2+3 doubled = 12, plus 0; bob: a single 12 worth (Kurgoz 6 doubled), no series
    state = play_state(
        HANDS2, {"ann": ["hexen-1", "hexen-2", "hexen-3"], "bob": [fighter("kurgoz-6", kurgoz=1)]}
    )
    score = GAME.score(state)
    assert score.scores == {"ann": 12, "bob": 12}
    assert score.breakdown["players"]["bob"]["best_series"] == 0
    assert (score.winners, score.draw, score.breakdown["tie_break"]) == (
        ("ann",),
        False,
        "best_series",
    )


def test_tie_broken_by_the_bigger_single_series():
    # ann: Hexen series 1+2+3 → 12, Kurgoz series 1+2+3 → 12: 24; bob: Crou 2+4+6 → 24
    state = play_state(
        HANDS2,
        {
            "ann": ["hexen-1", "hexen-2", "hexen-3", "kurgoz-1", "kurgoz-2", "kurgoz-3"],
            "bob": ["crou-2", "crou-4", "crou-6"],
        },
    )
    score = GAME.score(state)
    assert score.scores == {"ann": 24, "bob": 24}
    assert (score.winners, score.breakdown["tie_break"]) == (("bob",), "best_series")
    assert score.breakdown["ranking"] == ["bob", "ann"]


def test_tie_broken_by_most_fighters():
    state = play_state(HANDS2, {"ann": ["hexen-9"], "bob": ["hexen-4", "kurgoz-5"]})
    score = GAME.score(state)
    assert score.scores == {"ann": 9, "bob": 9}
    assert (score.winners, score.draw, score.breakdown["tie_break"]) == (
        ("bob",),
        False,
        "fighter_count",
    )


def test_still_tied_is_a_shared_draw():
    state = play_state(
        {"ann": ["crou-9"], "bob": ["crou-8"], "cat": ["crou-7"]},
        {"ann": ["hexen-9"], "bob": ["kurgoz-9"], "cat": ["hexen-1"]},
    )
    score = GAME.score(state)
    assert (score.winners, score.draw, score.breakdown["tie_break"]) == (
        ("ann", "bob"),
        True,
        "draw",
    )
    assert score.breakdown["ranking"] == ["ann", "bob", "cat"]


def test_three_way_tie_narrowed_by_series_then_fighters():
    # all total 24; ann and cat share the best series (24), cat has more fighters
    state = play_state(
        {"ann": ["crou-9"], "bob": ["crou-8"], "cat": ["crou-7"]},
        {
            "ann": ["hexen-2", "hexen-4", "hexen-6"],
            "bob": [fighter("kurgoz-6", kurgoz=2)],
            "cat": ["nomora-1", "nomora-2", "nomora-3", "nomora-6"],
        },
    )
    score = GAME.score(state)
    assert score.scores == {"ann": 24, "bob": 24, "cat": 24}
    assert (score.winners, score.breakdown["tie_break"]) == (("cat",), "fighter_count")
    assert score.breakdown["ranking"] == ["cat", "ann", "bob"]


def test_empty_armies_are_a_draw_of_everyone_mid_game():
    score = GAME.score(play_state(HANDS2))
    assert score.finished is False
    assert (score.scores, score.winners, score.draw) == ({"ann": 0, "bob": 0}, ("ann", "bob"), True)


def test_score_of_a_finished_game_matches_its_outcome():
    state = play_state({"ann": ["hexen-1"], "bob": ["hexen-3"]}, {"bob": ["hexen-2"]})
    state, _ = GAME.apply(state, {"player": "ann", "type": "fighter", "card": "hexen-1"})
    state, _ = GAME.apply(state, {"player": "bob", "type": "fighter", "card": "hexen-3"})
    score = GAME.score(state)
    assert score.finished is True
    assert score.to_dict()["scores"] == state["outcome"]["scores"] == {"ann": 1, "bob": 5}
    assert list(score.winners) == state["outcome"]["winners"] == ["bob"]
