"""Setup: players, options, the deck, dealing, the starting player (seed §1, §3; rulings R&R 1,
3)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from api.jsonio import dumps
from rules.errors import InvalidSetup
from rules.registry import get_game
from rules.reign_and_ruin import GAME
from rules.reign_and_ruin.cards import FACTIONS, default_catalog
from rules.reign_and_ruin.integrity import state_problems


def setup_codes(players, options=None, seed=1):
    with pytest.raises(InvalidSetup) as caught:
        GAME.setup(players, seed, options or {})
    return [v.code for v in caught.value.violations]


def test_registered_with_its_catalogue_entry():
    assert get_game("reign-and-ruin") is GAME
    info = GAME.info()
    assert info == {
        "id": "reign-and-ruin",
        "title": "Reign & Ruin",
        "min_players": 2,
        "max_players": 4,
        "options": {"starting_player": None, "deck": None},
        "move_types": [
            "draft",
            "fighter",
            "destroy",
            "draw",
            "double",
            "protect",
            "swap",
            "revive",
        ],
        "bot_levels": ["random", "greedy", "expert"],
    }


def test_default_deck_is_six_factions_of_values_one_to_nine():
    content = GAME.content()
    deck = content["deck"]
    assert len(deck) == 54
    assert Counter(c["faction"] for c in deck) == {
        f: 9 for f in ("alfenghast", "hexen", "kurgoz", "cognitz", "crou", "nomora")
    }
    for faction in {c["faction"] for c in deck}:
        assert sorted(c["value"] for c in deck if c["faction"] == faction) == list(range(1, 10))
    assert all(c["id"] == f"{c['faction']}-{c['value']}" for c in deck)
    assert [f["id"] for f in content["factions"]] == [
        "alfenghast",
        "hexen",
        "kurgoz",
        "cognitz",
        "crou",
        "nomora",
    ]
    assert {f["ability"] for f in content["factions"]} == set(GAME.move_types) - {
        "draft",
        "fighter",
    }
    assert all(f["ability_name"] and f["description"] for f in content["factions"])


def test_content_is_a_fresh_copy():
    GAME.content()["deck"].clear()
    GAME.content()["factions"][0]["name"] = "changed"
    assert len(GAME.content()["deck"]) == 54
    assert FACTIONS[0]["name"] == "Alfenghast"


def test_each_game_holds_a_card_map_of_its_own():
    """The default deck's ``cards`` map is copied from one kept template: a state changed in
    place (a client of the Python interface may) changes neither the template nor the next
    game."""
    first = GAME.setup(["ann", "bob"], 1, {})
    first["cards"]["alfenghast-1"]["value"] = 9
    first["cards"].pop("hexen-1")
    second = GAME.setup(["ann", "bob"], 1, {})
    assert second["cards"]["alfenghast-1"] == {"faction": "alfenghast", "value": 1}
    assert len(second["cards"]) == 54
    assert second["cards"] == default_catalog()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_seven_each_rest_to_the_draw_pile(n):
    players = ["ann", "bob", "cat", "dan"][:n]
    state = GAME.setup(players, 5, {})
    GAME.check_state(state)
    assert state["phase"] == "draft" and state["status"] == "in_progress"
    assert state["active_players"] == players
    assert state["draft"]["round"] == 1
    assert [len(state["draft"]["packets"][p]) for p in players] == [7] * n
    assert len(state["draw_pile"]) == 54 - 7 * n
    dealt = [c for p in players for c in state["draft"]["packets"][p]] + state["draw_pile"]
    assert sorted(dealt) == sorted(state["cards"])
    assert state["hands"] == {p: [] for p in players}
    assert state["armies"] == {p: [] for p in players}
    assert state["seed"] == 5 and len(state["rng"]) == 16
    assert state["move_count"] == 0 and state["outcome"] is None and state["final_round"] is None


def test_the_deck_is_shuffled_by_the_seed():
    a = GAME.setup(["ann", "bob"], 1, {})
    b = GAME.setup(["ann", "bob"], 2, {})
    assert a["draft"]["packets"] != b["draft"]["packets"]
    assert dumps(a) == dumps(GAME.setup(["ann", "bob"], 1, {}))


def test_starting_player_from_the_option():
    for who in ("ann", "bob", "cat"):
        state = GAME.setup(["ann", "bob", "cat"], 9, {"starting_player": who})
        assert state["starting_player"] == who


def _after_the_draft(state):
    while state["phase"] == "draft":
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    return state


def test_starting_player_drawn_at_random_by_the_seed():
    """Drawn when the draft ends (seed §3 follows §2), by the state's generator."""
    seen = Counter(
        _after_the_draft(GAME.setup(["ann", "bob", "cat"], seed, {}))["starting_player"]
        for seed in range(300)
    )
    assert set(seen) == {"ann", "bob", "cat"}
    assert all(60 < n < 140 for n in seen.values()), seen
    explicit_none = GAME.setup(["ann", "bob", "cat"], 4, {"starting_player": None, "deck": None})
    assert dumps(explicit_none) == dumps(GAME.setup(["ann", "bob", "cat"], 4, {}))


def test_player_count_and_duplicates():
    assert setup_codes(["ann"]) == ["player_count"]
    assert setup_codes(["a", "b", "c", "d", "e"]) == ["player_count"]
    assert setup_codes(["ann", "ann"]) == ["duplicate_player"]


def test_unknown_starting_player():
    assert setup_codes(["ann", "bob"], {"starting_player": "zed"}) == ["unknown_starting_player"]


def test_seed_must_be_a_whole_number_in_range():
    assert setup_codes(["ann", "bob"], seed="7") == ["bad_seed"]
    assert setup_codes(["ann", "bob"], seed=True) == ["bad_seed"]
    assert setup_codes(["ann", "bob"], seed=-5) == ["bad_seed"]
    assert setup_codes(["ann", "bob"], seed=2**63) == ["bad_seed"]
    assert GAME.setup(["ann", "bob"], 2**63 - 1, {})["seed"] == 2**63 - 1
    assert GAME.setup(["ann", "bob"], 0, {})["seed"] == 0


def test_unknown_option():
    assert setup_codes(["ann", "bob"], {"first_player": "ann"}) == ["unknown_option"]


def test_custom_deck_with_generated_ids():
    deck = (
        [{"faction": "hexen", "value": 4}] * 3
        + [{"faction": "crou", "value": 12, "id": "big-crou"}]
        + [{"faction": "nomora", "value": v} for v in range(1, 12)]
    )
    state = GAME.setup(["ann", "bob"], 3, {"deck": deck})
    GAME.check_state(state)
    assert set(state["cards"]) == {"hexen-4", "hexen-4-2", "hexen-4-3", "big-crou"} | {
        f"nomora-{v}" for v in range(1, 12)
    }
    assert state["cards"]["big-crou"] == {"faction": "crou", "value": 12}
    assert len(state["draw_pile"]) == 15 - 14


def test_generated_ids_skip_ids_given_explicitly():
    deck = [{"faction": "hexen", "value": 4}, {"faction": "hexen", "value": 5, "id": "hexen-4"}] + [
        {"faction": "kurgoz", "value": 1}
    ] * 12
    state = GAME.setup(["ann", "bob"], 3, {"deck": deck})
    assert state["cards"]["hexen-4"] == {"faction": "hexen", "value": 5}
    assert state["cards"]["hexen-4-2"] == {"faction": "hexen", "value": 4}
    assert {f"kurgoz-1-{n}" for n in range(2, 13)} | {"kurgoz-1"} <= set(state["cards"])


def test_deck_too_small():
    deck = [{"faction": "hexen", "value": v} for v in range(1, 14)]
    assert setup_codes(["ann", "bob"], {"deck": deck}) == ["deck_too_small"]
    assert GAME.setup(["ann", "bob"], 1, {"deck": deck + [{"faction": "crou", "value": 1}]})
    assert setup_codes(["a", "b", "c", "d"], {"deck": deck * 2}) == ["deck_too_small"]


@pytest.mark.parametrize(
    "card, code",
    [
        ({"faction": "elves", "value": 3}, "unknown_faction"),
        ({"faction": "hexen", "value": 0}, "bad_value"),
        ({"faction": "hexen", "value": 100}, "bad_value"),
        ({"faction": "hexen", "value": 2.5}, "bad_value"),
        ({"faction": "hexen", "value": True}, "bad_value"),
        ({"faction": "hexen", "value": 3, "id": ""}, "bad_card_id"),
        ({"faction": "hexen", "value": 3, "id": "x" * 65}, "bad_card_id"),
        ({"faction": "hexen", "value": 3, "id": "hexen-4" + "\u200b" * 58}, "bad_card_id"),
        ({"faction": "hexen", "value": 3, "colour": "blue"}, "bad_card"),
    ],
)
def test_bad_custom_cards(card, code):
    deck = [{"faction": "kurgoz", "value": v} for v in range(1, 15)] + [card]
    assert setup_codes(["ann", "bob"], {"deck": deck}) == [code]


def test_a_card_id_may_have_64_characters():
    deck = [{"faction": "kurgoz", "value": v, "id": f"{v:064d}"} for v in range(1, 15)]
    state = GAME.setup(["ann", "bob"], 1, {"deck": deck})
    assert sorted(state["cards"]) == sorted(card["id"] for card in deck)
    GAME.check_state(state)


def test_a_state_with_a_longer_card_id_is_refused():
    deck = [{"faction": "kurgoz", "value": v, "id": f"{v:064d}"} for v in range(1, 15)]
    state = GAME.setup(["ann", "bob"], 1, {"deck": deck})
    longer = "9" * 65
    text = json.dumps(state).replace(f"{1:064d}", longer)
    assert "bad_card" in [v.code for v in state_problems(json.loads(text))]


def test_duplicate_card_ids():
    deck = [
        {"faction": "kurgoz", "value": v, "id": "same" if v < 3 else f"k{v}"} for v in range(1, 15)
    ]
    assert setup_codes(["ann", "bob"], {"deck": deck}) == ["duplicate_card_id"]


def test_every_problem_is_reported_at_once():
    found = setup_codes(
        ["ann", "bob"],
        {"starting_player": "zed", "colour": 1, "deck": [{"faction": "elves", "value": 0}]},
    )
    assert sorted(found) == sorted(
        [
            "unknown_option",
            "unknown_starting_player",
            "unknown_faction",
            "bad_value",
            "deck_too_small",
        ]
    )
