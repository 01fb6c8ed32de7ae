"""Setup: players, first Monarch, options, custom decks, the first reign's setup (seed §Game
setup; rulings RtC 1, 3, 5)."""

from __future__ import annotations

import pytest
from rtc_helpers import NAMES, fresh

from api.jsonio import dumps
from rules.errors import InvalidSetup
from rules.reigns_the_council import GAME
from rules.reigns_the_council.content import GOALS, default_deck


def vcodes(exc) -> list[str]:
    return [v.code for v in exc.value.violations]


@pytest.mark.parametrize("n", [2, 5])
def test_three_to_four_players(n):
    with pytest.raises(InvalidSetup) as exc:
        GAME.setup([f"p{i}" for i in range(n)], 1, {})
    assert vcodes(exc) == ["player_count"]


def test_first_monarch_from_options():
    state = GAME.setup(NAMES[:4], 9, {"first_monarch": "cat"})
    assert state["reigns"][0]["monarch"] == "cat"
    assert set(state["goals"]) == {"dan", "ann", "bob"}


def test_first_monarch_drawn_by_the_generator():
    monarchs = {GAME.setup(NAMES[:4], seed, {})["reigns"][0]["monarch"] for seed in range(40)}
    assert monarchs == set(NAMES[:4])


def test_setup_is_deterministic():
    assert dumps(GAME.setup(NAMES[:3], 77, {})) == dumps(GAME.setup(NAMES[:3], 77, {}))
    assert dumps(GAME.setup(NAMES[:3], 77, {})) != dumps(GAME.setup(NAMES[:3], 78, {}))


def test_reign_setup_goals_three_decks_tracks_and_first_drawer():
    state = fresh(4, seed=3)
    assert state["phase"] == "deal" and state["tracks"] == {
        "church": 0,
        "army": 0,
        "people": 0,
        "wealth": 0,
    }
    assert sorted(len(d) for d in state["decks"]) == [24, 24, 24]
    assert list(state["goals"]) == ["bob", "cat", "dan"]
    assert len(set(state["goals"].values())) == 3 and all(
        g in GOALS for g in state["goals"].values()
    )
    assert state["active_players"] == ["bob"]
    assert state["draw_queue"] == ["bob", "cat", "dan"] * 7
    assert state["hands"]["ann"] == [] and state["pile"] == [] and state["discard"] == []


@pytest.mark.parametrize(
    "options, code",
    [
        ({"first_monarch": "zed"}, "unknown_first_monarch"),
        ({"story_point": "maybe"}, "bad_story_point"),
        ({"colour": "red"}, "unknown_option"),
        ({"deck": "all"}, "bad_deck"),
        ({"deck": default_deck()[:20]}, "deck_size"),
        (
            {"deck": [{"back": ["church"], "accept": {"army": 1}, "reject": {"church": -1}}] * 40},
            "bad_card",
        ),
        (
            {
                "deck": [
                    {"back": ["church", "army"], "accept": {"church": 1}, "reject": {"church": -1}}
                ]
                * 40
            },
            "bad_card",
        ),
        (
            {
                "deck": [
                    {"back": ["army", "church"], "accept": {"church": 1, "army": 1}, "reject": {}}
                ]
                * 40
            },
            "bad_card",
        ),
        (
            {
                "deck": [{"back": ["church"], "accept": {"church": 0}, "reject": {"church": -1}}]
                * 40
            },
            "bad_card",
        ),
        (
            {
                "deck": [{"back": ["church"], "accept": {"church": 9}, "reject": {"church": -1}}]
                * 40
            },
            "bad_card",
        ),
        (
            {
                "deck": [
                    {
                        "id": "x",
                        "back": ["church"],
                        "accept": {"church": 1},
                        "reject": {"church": -1},
                    }
                ]
                * 40
            },
            "duplicate_card_id",
        ),
        (
            {
                "deck": [
                    {
                        "back": ["church"],
                        "accept": {"church": 1},
                        "reject": {"church": -1},
                        "colour": 1,
                    }
                ]
                * 40
            },
            "bad_card",
        ),
        ({"deck": [7] * 40}, "bad_card"),
    ],
)
def test_bad_options_are_invalid_setup(options, code):
    with pytest.raises(InvalidSetup) as exc:
        GAME.setup(NAMES[:3], 1, options)
    assert code in vcodes(exc)
    assert all(v.rule.startswith("reigns-the-council#") for v in exc.value.violations)


def test_custom_deck_gets_ids_and_plays():
    deck = [
        {"back": ["church"], "accept": {"church": 1}, "reject": {"church": -1}} for _ in range(30)
    ]
    deck[0]["id"] = "card-2"
    state = GAME.setup(NAMES[:3], 1, {"deck": deck})
    assert (
        len(state["cards"]) == 30 and "card-2" in state["cards"] and "card-1" not in state["cards"]
    )
    assert sorted(len(d) for d in state["decks"]) == [10, 10, 10]
    GAME.check_state(state)


def test_minimum_deck_size_depends_on_player_count():
    """7 per advisor plus 11: 25 cards for three players, 32 for four."""
    card = {"back": ["church"], "accept": {"church": 1}, "reject": {"church": -1}}
    for n, smallest in ((3, 25), (4, 32)):
        assert len(GAME.setup(NAMES[:n], 1, {"deck": [card] * smallest})["cards"]) == smallest
        with pytest.raises(InvalidSetup) as exc:
            GAME.setup(NAMES[:n], 1, {"deck": [card] * (smallest - 1)})
        assert vcodes(exc) == ["deck_size"]
    with pytest.raises(InvalidSetup) as exc:
        GAME.setup(NAMES[:3], 1, {"deck": [card] * 301})
    assert vcodes(exc) == ["deck_size"]


def test_info_lists_options_and_move_types():
    info = GAME.info()
    assert info["options"] == {"first_monarch": None, "story_point": "auto", "deck": None}
    assert info["min_players"] == 3 and info["max_players"] == 4
    assert set(info["move_types"]) == {
        "draw",
        "exchange",
        "pitch",
        "decide",
        "reveal",
        "change_mind",
        "keep_decision",
        "story_vote",
        "end_vote",
        "name_monarch",
    }
