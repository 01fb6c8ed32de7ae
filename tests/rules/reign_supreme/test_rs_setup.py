"""Scenarios, rosters, army lists, options and set-up (rules doc §Scenarios, §Rosters,
§Army lists, §Options, §Setup)."""

from __future__ import annotations

import pytest
from rs_helpers import codes, move, of_type, play

from rules.errors import InvalidSetup
from rules.reign_supreme import GAME
from rules.reign_supreme.content import MAX_ROSTERS, UNIT_TYPES, default_armies, default_scenarios
from rules.reign_supreme.hexes import distance, neighbours


def setup_codes(players, options):
    with pytest.raises(InvalidSetup) as err:
        GAME.setup(players, 1, options)
    return [v.code for v in err.value.violations]


def test_four_armies_of_all_nineteen_unit_types_with_one_assault():
    armies = default_armies()
    assert sorted(armies) == ["demon", "greenskin", "resistance", "undead"]
    assert len(UNIT_TYPES) == 19
    for army in armies.values():
        assert list(army["units"]) == list(UNIT_TYPES)
        for stats in army["units"].values():
            assert set(stats) == {
                "name",
                "movement",
                "hp",
                "attack",
                "defence",
                "range",
                "damage",
                "kinds",
                "abilities",
                "spells",
            }
        for units in army["lists"].values():
            assert units.count("assault") <= 1
        assert len(army["lists"]["standard"]) == 10 and len(army["lists"]["skirmish"]) == 6


def test_unit_types_carry_the_seeds_kinds_abilities_and_spells():
    units = default_armies()["resistance"]["units"]
    assert "counterattack" in units["infantry"]["abilities"]
    assert units["trebuchet"]["kinds"] == ["shooting", "siege", "packed"]
    assert "mechanical" in units["shock_trooper"]["kinds"] and units["shock_trooper"]["spells"] == [
        "arc"
    ]
    assert units["assassin"]["kinds"] == ["stealth"]
    assert units["assault"]["spells"] == ["cone"] and "knockback" in units["assault"]["abilities"]
    assert units["warder"]["spells"] == ["counterspell"] and units["wizard"]["spells"] == [
        "teleport"
    ]


def test_standard_scenario_castles_are_seven_spaces_around_the_throne():
    sc = default_scenarios()["standard"]
    assert sc["castles"] and sc["cards"] and sc["deployment"] and sc["initial_units"] == 5
    mid = {tuple(h) for h in sc["midfield"]}
    assert len(mid) == 61 and {tuple(h) for h in sc["mines"] + sc["ruins"]} <= mid
    for k in sc["kingdoms"]:
        throne = tuple(k["throne"])
        assert {tuple(h) for h in k["castle"]} == {throne, *neighbours(throne)}
        gate = tuple(k["gate"][0])
        assert distance(gate, (0, 0)) < distance(throne, (0, 0))  # the Gate faces the Midfield


def test_seating_and_board_for_each_player_count():
    for n in (2, 3, 4):
        s = GAME.setup(["ann", "bob", "cat", "dan"][:n], 1, {})
        ids = [s["kingdoms"][p]["id"] for p in s["players"]]
        assert ids == default_scenarios()["standard"]["seating"][str(n)]
        assert len(s["units"]) == 10 * n


def test_manual_set_up_places_units_in_your_own_kingdom_in_seat_order():
    s = GAME.setup(["ann", "bob"], 1, {"scenario": "skirmish", "first_player": "bob"})
    assert s["phase"] == "setup" and s["active_players"] == ["bob"]
    legal = GAME.legal_moves(s)
    kingdom = s["kingdoms"]["bob"]["hexes"]
    bob_units = [u for u, x in s["units"].items() if x["owner"] == "bob"]
    assert len([m for m in legal if m["type"] == "place"]) == len(bob_units) * len(kingdom)
    assert codes(
        s, move("bob", "place", unit=bob_units[0], to=s["kingdoms"]["ann"]["hexes"][0])
    ) == ["outside_kingdom"]
    assert codes(s, move("bob", "place", unit="u1", to=kingdom[0])) == ["not_your_unit"]
    assert codes(s, move("bob", "end_turn")) == ["wrong_phase"]
    for i, uid in enumerate(bob_units):
        s, events = play(s, move("bob", "place", unit=uid, to=kingdom[i]))
    assert s["turn"] == "ann" and s["phase"] == "setup"
    assert codes(s, move("ann", "place", unit="u1", to=s["kingdoms"]["ann"]["hexes"][0])) == []
    for i, uid in enumerate([u for u, x in s["units"].items() if x["owner"] == "ann"]):
        s, events = play(s, move("ann", "place", unit=uid, to=s["kingdoms"]["ann"]["hexes"][i]))
    assert of_type(events, "setup_finished") and s["phase"] == "combat" and s["turn"] == "bob"


def test_deployment_scenarios_set_up_five_units_and_the_rest_waits():
    s = GAME.setup(["ann", "bob"], 1, {"first_player": "ann"})
    hexes = s["kingdoms"]["ann"]["hexes"]
    for i in range(5):
        s, _ = play(s, move("ann", "place", unit=f"u{i + 1}", to=hexes[i]))
    assert s["turn"] == "bob"
    assert sum(1 for u in s["units"].values() if u["owner"] == "ann" and u["at"] is None) == 5


def test_auto_set_up_starts_the_first_turn():
    s = GAME.setup(["ann", "bob"], 1, {"setup": "auto", "first_player": "ann"})
    assert s["phase"] == "combat" and s["turn"] == "ann" and s["round"] == 1
    assert s["units"]["u1"]["at"] == s["kingdoms"]["ann"]["throne"]
    GAME.check_state(s)


def test_setup_is_deterministic_and_the_first_player_is_drawn():
    a = GAME.setup(["ann", "bob", "cat"], 42, {})
    assert a == GAME.setup(["ann", "bob", "cat"], 42, {})
    firsts = {GAME.setup(["ann", "bob", "cat"], seed, {})["first_player"] for seed in range(30)}
    assert firsts == {"ann", "bob", "cat"}


def test_cards_are_dealt_two_of_each_deck():
    s = GAME.setup(["ann", "bob"], 1, {})
    from rules.reign_supreme.state import card_catalog

    catalog = card_catalog()
    for p in ("ann", "bob"):
        decks = [catalog[c]["deck"] for c in s["hands"][p]]
        assert sorted(decks) == ["spell", "spell", "tactics", "tactics"]
    assert len(s["decks"]["spell"]) == 12 - 4


def test_options_are_validated():
    assert setup_codes(["a", "b"], {"colour": "red"}) == ["unknown_option"]
    assert setup_codes(["a", "b"], {"scenario": "huge"}) == ["unknown_scenario"]
    assert setup_codes(["a", "b"], {"round_limit": 0}) == ["bad_round_limit"]
    assert setup_codes(["a", "b"], {"first_player": "zed"}) == ["unknown_first_player"]
    assert setup_codes(["a", "b"], {"armies": {"a": "elves", "b": "demon"}}) == ["bad_armies"]
    assert setup_codes(["a", "b"], {"army_lists": {"a": ["assault", "assault"]}}) == [
        "too_many_assaults"
    ]
    assert setup_codes(["a", "b"], {"army_lists": {"a": ["dragon"]}}) == ["unknown_unit_type"]
    assert setup_codes(["a", "b"], {"setup": "later"}) == ["bad_setup_option"]
    assert setup_codes(
        ["a", "b"], {"scenario": "skirmish", "army_lists": {"a": ["infantry"] * 8}}
    ) == ["army_too_big"]
    with pytest.raises(InvalidSetup):
        GAME.setup(["a"], 1, {})


def test_custom_scenarios_are_validated():
    good = default_scenarios()["skirmish"]
    s = GAME.setup(["a", "b"], 1, {"scenario": good})
    assert s["scenario"]["id"] == "skirmish"
    bad = dict(good, mines=[[40, 40]])
    assert "bad_scenario" in setup_codes(["a", "b"], {"scenario": bad})
    overlap = dict(
        good,
        kingdoms=[
            good["kingdoms"][0],
            dict(good["kingdoms"][1], hexes=good["kingdoms"][0]["hexes"]),
        ],
        seating=None,
    )
    assert "bad_scenario" in setup_codes(
        ["a", "b"], {"scenario": {k: v for k, v in overlap.items() if v is not None}}
    )
    assert "bad_scenario" in setup_codes(["a", "b"], {"scenario": dict(good, victory="throne")})
    castle = default_scenarios()["standard"]
    broken = dict(castle, kingdoms=[dict(k, castle=k["castle"][:6]) for k in castle["kingdoms"]])
    assert "bad_scenario" in setup_codes(["a", "b"], {"scenario": broken})
    assert "bad_scenario" in setup_codes(["a", "b"], {"scenario": 5})
    assert "bad_scenario" in setup_codes(
        ["a", "b", "c"], {"scenario": dict(good, seating={"3": ["k1"]})}
    )


def test_custom_rosters_replace_an_army():
    roster = {
        "title": "Gnomes",
        "units": {
            "assault": {
                "name": "Steam Golem",
                "movement": 2,
                "hp": 20,
                "attack": 6,
                "defence": 3,
                "range": 1,
                "damage": "blunt",
                "kinds": ["mechanical"],
                "abilities": [],
                "spells": [],
            },
            "infantry": {
                "name": "Gnome Pikes",
                "movement": 2,
                "hp": 5,
                "attack": 2,
                "defence": 1,
                "range": 1,
                "damage": "piercing",
                "kinds": [],
                "abilities": ["counterattack"],
                "spells": [],
            },
        },
    }
    s = GAME.setup(
        ["a", "b"],
        1,
        {
            "rosters": {"gnomes": roster},
            "armies": {"a": "gnomes", "b": "demon"},
            "scenario": "skirmish",
            "setup": "auto",
        },
    )
    assert [u["type"] for u in s["units"].values() if u["owner"] == "a"] == ["assault", "infantry"]
    assert GAME.score(s).scores["a"] == 25
    GAME.check_state(s)
    bad = {"units": {"infantry": dict(roster["units"]["infantry"], hp=0)}}
    assert set(setup_codes(["a", "b"], {"rosters": {"gnomes": bad}})) == {
        "bad_roster",
        "bad_unit_stats",
    }


def test_a_custom_roster_without_a_list_fields_its_types_by_id_whatever_the_key_order():
    """Decision (rules doc, Army lists): the first 10 unit types of the roster by id. A session
    stores its options with sorted keys and its replay sets up from them, so the key order the
    client wrote must not decide which unit is ``u1`` (a hunt: an honest record failed at
    version 0)."""
    demon = default_armies()["demon"]
    written = dict(reversed(demon["units"].items()))  # keys as a client might write them
    assert list(written) != sorted(written)
    states = [
        GAME.setup(
            ["a", "b"],
            1,
            {
                "rosters": {"mine": {"title": "Mine", "units": units}},
                "armies": {"a": "mine", "b": "demon"},
            },
        )
        for units in (written, dict(sorted(written.items())))
    ]
    assert states[0] == states[1]
    fielded = [u["type"] for u in states[0]["units"].values() if u["owner"] == "a"]
    assert fielded == sorted(written)[:10]


def test_at_most_12_custom_rosters_counted_before_any_is_checked():
    """A hunt's setup of 88,000 empty rosters cost 1.4 s of checks before its 422: the rosters are
    now counted first, and the one violation says how many there may be."""
    many = {f"a{n}": {} for n in range(MAX_ROSTERS + 1)}
    with pytest.raises(InvalidSetup) as refused:
        GAME.setup(["a", "b"], 1, {"rosters": many})
    assert [v.code for v in refused.value.violations] == ["bad_roster"]
    assert f"at most {MAX_ROSTERS} rosters, not {MAX_ROSTERS + 1}" in str(refused.value)
    demon = default_armies()["demon"]["units"]
    enough = {f"a{n}": {"units": demon} for n in range(MAX_ROSTERS)}
    state = GAME.setup(["a", "b"], 1, {"rosters": enough, "armies": {"a": "a0", "b": "a11"}})
    assert len(state["rosters"]) == MAX_ROSTERS
