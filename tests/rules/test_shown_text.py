"""Custom content's ids and names, as every game shows them to its players (``rules.shown_text``):
ids from the player ids' safe set and no two alike; names without control or format characters.
Each game's setup applies the rule, with its own violation codes."""

from __future__ import annotations

import copy
import json

import pytest

from rules.errors import InvalidSetup, InvalidState
from rules.registry import get_game
from rules.shown_text import LookAlikes, text_problem

CYRILLIC_E = "\u0435"
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
ZWSP = "\u200b"  # ZERO WIDTH SPACE


def setup_problems(game_id: str, options: dict, players: tuple[str, ...] = ("ann", "bob")):
    with pytest.raises(InvalidSetup) as caught:
        get_game(game_id).setup(list(players), 1, options)
    return [(v.code, v.message) for v in caught.value.violations]


def content(game_id: str) -> dict:
    return copy.deepcopy(get_game(game_id).content())


# -- the rule itself -------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Steam Golem", "Gnome King", "Ωmega's Fire", "李", "+1", ""])
def test_names_may_be_any_printable_text(text):
    assert text_problem(text) is None


@pytest.mark.parametrize(
    "text, code_point",
    [
        ("line one\nline two", "U+000A"),
        (f"King{RLO}gnoK", "U+202E"),
        (f"King{ZWSP}", "U+200B"),
        ("nul\x00", "U+0000"),
        ("private\ue000", "U+E000"),
        ("unassigned\U000e0080", "U+E0080"),
        ("Build a cathedral\u2028Monarch: you lose", "U+2028"),  # a line separator (Zl)
        ("one\u2029two", "U+2029"),  # a paragraph separator (Zp)
    ],
)
def test_names_may_not_hold_control_format_or_unassigned_characters(text, code_point):
    problem = text_problem(text)
    assert problem is not None and code_point in problem


def test_look_alikes_tell_which_earlier_id_a_new_one_would_be_taken_for():
    given = LookAlikes()
    given.add("hexen-4")
    given.add("kurgoz-1")
    assert given.like("hexen-4") == "hexen-4"
    assert given.like("Hexen-4") == "hexen-4"
    assert given.like(f"h{CYRILLIC_E}xen-4") == "hexen-4"
    assert given.like("kurgoz-l") == "kurgoz-1"  # l and 1 are confusable
    assert given.like("hexen-5") is None


@pytest.mark.parametrize("first, second", [("lan", "ian"), ("ian", "lan")])
def test_an_id_like_two_earlier_ones_is_named_after_the_earliest(first, second):
    """``Ian`` looks like both ``lan`` (I and l) and ``ian`` (its case fold), which do not look
    like each other: the message names the one given first, whatever order its keys come in."""
    given = LookAlikes()
    given.add(first)
    assert given.like(second) is None
    given.add(second)
    assert given.like("Ian") == first


# -- Reign & Ruin: options.deck --------------------------------------------------------------------
def _rr_deck(*ids: str | None) -> list[dict]:
    deck = [{"faction": "kurgoz", "value": v} for v in range(1, 15)]
    for card, card_id in zip(deck, ids, strict=False):
        if card_id is not None:
            card["id"] = card_id
    return deck


def test_rr_a_card_id_that_looks_like_another_is_refused_naming_both():
    found = setup_problems("reign-and-ruin", {"deck": _rr_deck("dragon", f"drag{chr(0x43E)}n")})
    assert [code for code, _ in found] == ["duplicate_card_id"]
    assert "options.deck.1.id" in found[0][1] and "'dragon'" in found[0][1]
    assert "TR 39" in found[0][1]


@pytest.mark.parametrize("card_id", [f"hexen{RLO}4", "two words", "new\nline", "\uff48exen"])
def test_rr_a_card_id_outside_the_safe_set_is_refused(card_id):
    assert [code for code, _ in setup_problems("reign-and-ruin", {"deck": _rr_deck(card_id)})] == [
        "bad_card_id"
    ]


def test_rr_a_generated_id_skips_an_explicit_id_it_would_look_like():
    deck = _rr_deck(None, "Kurgoz-1")  # the first card would get "kurgoz-1"
    state = get_game("reign-and-ruin").setup(["ann", "bob"], 1, {"deck": deck})
    assert "Kurgoz-1" in state["cards"] and "kurgoz-1" not in state["cards"]
    assert state["cards"]["kurgoz-1-2"] == {"faction": "kurgoz", "value": 1}


# -- Reigns: The Council: options.deck -------------------------------------------------------------
NAMES = ("ann", "bob", "cat")
"""The Council's fewest players: a Monarch and two advisors."""


def _rtc_deck(changes: dict[int, dict] | None = None) -> list[dict]:
    """The first 40 cards of the default deck, card ``i`` updated with ``changes[i]``."""
    deck = content("reigns-the-council")["deck"][:40]
    for index, change in (changes or {}).items():
        deck[index].update(change)
    return deck


def test_rtc_a_card_id_that_looks_like_another_is_refused():
    deck = _rtc_deck({0: {"id": "p01"}, 1: {"id": "P01"}})
    codes = [code for code, _ in setup_problems("reigns-the-council", {"deck": deck}, NAMES)]
    assert codes == ["duplicate_card_id"]


def test_rtc_a_card_id_outside_the_safe_set_is_refused():
    deck = _rtc_deck({0: {"id": f"p{ZWSP}01"}})
    codes = [code for code, _ in setup_problems("reigns-the-council", {"deck": deck}, NAMES)]
    assert codes == ["bad_card_id"]


def test_rtc_a_title_with_a_bidi_override_is_refused_naming_the_field():
    deck = _rtc_deck({3: {"title": f"Tax the {RLO}hcruhc"}})
    found = setup_problems("reigns-the-council", {"deck": deck}, NAMES)
    assert found == [
        (
            "bad_card",
            "options.deck.3.title holds a control, format, separator or unassigned character at "
            "position 8 (U+202E).",
        )
    ]


def test_rtc_a_generated_id_skips_an_explicit_id_it_would_look_like():
    deck = [{k: v for k, v in card.items() if k != "id"} for card in _rtc_deck()]
    deck[5]["id"] = "CARD-1"  # the first card would get "card-1"
    state = get_game("reigns-the-council").setup(list(NAMES), 1, {"deck": deck})
    assert "CARD-1" in state["cards"] and "card-1" not in state["cards"]
    assert "card-41" in state["cards"]  # card-<n + deck size>


# -- a stateless client's state: the same rule for the ids of its custom cards --------------------
def _renamed(state: dict, old: str, new: str) -> dict:
    """``state`` with card id ``old`` renamed ``new`` everywhere (catalogue key and places)."""
    text = json.dumps(state)
    assert text.count(json.dumps(old)) >= 2  # in the catalogue and in one place
    return json.loads(text.replace(json.dumps(old), json.dumps(new)))


def state_problems(game_id: str, state: dict) -> list[tuple[str, str]]:
    with pytest.raises(InvalidState) as caught:
        get_game(game_id).check_state(state)
    return [(v.code, v.message) for v in caught.value.violations]


@pytest.mark.parametrize(
    "game_id, options, players, old",
    [
        ("reign-and-ruin", {"deck": _rr_deck("dragon", "wyvern")}, ("ann", "bob"), "wyvern"),
        (
            "reigns-the-council",
            {"deck": _rtc_deck({0: {"id": "dragon"}, 1: {"id": "wyvern"}})},
            NAMES,
            "wyvern",
        ),
    ],
)
@pytest.mark.parametrize(
    "new, code, said",
    [
        (f"drag{chr(0x43E)}n", "duplicate_card_id", "'dragon'"),
        ("DRAGON", "duplicate_card_id", "'dragon'"),
        (f"wy{RLO}vern", "bad_card", "state.cards id"),
        ("two words", "bad_card", "state.cards id"),
        ("w" * 65, "bad_card", "1 to 64 characters"),
    ],
)
def test_a_state_may_not_bring_in_a_card_id_setup_would_refuse(
    game_id, options, players, old, new, code, said
):
    """A stateless client sends its own state: a card id renamed there is checked as setup
    checks it, so a view, a record or a picture never shows an id no setup would accept."""
    state = get_game(game_id).setup(list(players), 1, options)
    get_game(game_id).check_state(state)  # sound as set up
    found = state_problems(game_id, _renamed(state, old, new))
    assert [c for c, _ in found] == [code]
    assert said in found[0][1]
    assert RLO not in found[0][1]  # the message shows the id escaped


# -- Reign Absolute: options.races and options.reinforcements --------------------------------------
def _ra_codes(options: dict) -> list[str]:
    return [code for code, _ in setup_problems("reign-absolute", options)]


def test_ra_race_unit_action_and_card_ids_may_not_look_alike():
    races = content("reign-absolute")["races"]
    races[1]["id"] = races[0]["id"].upper()
    assert _ra_codes({"races": races}) == ["duplicate_race"]
    races = content("reign-absolute")["races"]
    first = next(u["id"] for u in races[0]["units"] if "e" in u["id"])
    follower = next(u for u in races[1]["units"] if not u["liege"])
    follower["id"] = first.replace("e", CYRILLIC_E, 1)
    assert _ra_codes({"races": races}) == ["duplicate_unit"]
    races = content("reign-absolute")["races"]
    dwarves = races[4]
    assert dwarves["actions"], "the Dwarves show race actions"
    dwarves["actions"].append(dict(dwarves["actions"][0], id=dwarves["actions"][0]["id"].title()))
    assert _ra_codes({"races": races}) == ["bad_action"]
    cards = content("reign-absolute")["reinforcements"]
    cards[1]["id"] = cards[0]["id"].upper()
    assert _ra_codes({"reinforcements": cards}) == ["duplicate_card"]


def test_ra_ids_outside_the_safe_set_and_names_with_control_characters_are_refused():
    races = content("reign-absolute")["races"]
    races[0]["id"] = f"empire{ZWSP}"
    assert _ra_codes({"races": races}) == ["bad_race"]
    races = content("reign-absolute")["races"]
    races[0]["units"][2]["name"] = "Archers\nand more"
    found = setup_problems("reign-absolute", {"races": races})
    assert found[0][0] == "bad_unit" and "options.races.0.units.2.name" in found[0][1]
    cards = content("reign-absolute")["reinforcements"]
    cards[0]["name"] = f"{RLO}1+"
    assert _ra_codes({"reinforcements": cards}) == ["bad_card"]


# -- Reign Supreme: options.cards, options.rosters, options.scenario ------------------------------
def _rs_codes(options: dict) -> list[str]:
    return [code for code, _ in setup_problems("reign-supreme", options)]


def test_rs_card_ids_may_not_look_alike():
    cards = content("reign-supreme")["cards"]
    cards[1]["id"] = cards[0]["id"] + "_l"
    cards[2]["id"] = cards[0]["id"] + "_1"
    found = setup_problems("reign-supreme", {"cards": cards})
    assert [code for code, _ in found] == ["bad_cards"]
    assert "options.cards[2].id" in found[0][1] and "TR 39" in found[0][1]


def test_rs_card_names_and_texts_may_not_hold_control_characters():
    cards = content("reign-supreme")["cards"]
    cards[0]["name"] = f"Fire{ZWSP}ball"
    cards[1]["text"] = "Deal 4.\nThen deal 40."
    found = setup_problems("reign-supreme", {"cards": cards})
    assert [m for _, m in found] == [
        "options.cards[0].name holds a control, format, separator or unassigned character at "
        "position 4 (U+200B).",
        "options.cards[1].text holds a control, format, separator or unassigned character at "
        "position 7 (U+000A).",
    ]


def _roster(title: str = "Gnomes") -> dict:
    demon = content("reign-supreme")["armies"]["demon"]
    return {"title": title, "units": demon["units"]}


def test_rs_a_roster_replaces_an_army_by_its_own_id_but_may_not_look_like_one():
    game = get_game("reign-supreme")
    state = game.setup(["ann", "bob"], 1, {"rosters": {"demon": _roster()}})
    assert state["rosters"]["demon"]["title"] == "Gnomes"
    assert _rs_codes({"rosters": {"Demon": _roster()}}) == ["bad_roster"]
    assert _rs_codes({"rosters": {f"d{CYRILLIC_E}mon": _roster()}}) == ["bad_roster"]
    assert _rs_codes({"rosters": {"gnomes": _roster(), "GNOMES": _roster()}}) == ["bad_roster"]
    assert _rs_codes({"rosters": {"gnome king": _roster()}}) == ["bad_roster"]
    assert _rs_codes({"rosters": {"g" * 65: _roster()}}) == ["bad_roster"]


def test_rs_roster_titles_unit_names_and_scenario_texts_may_not_hold_control_characters():
    assert _rs_codes({"rosters": {"gnomes": _roster(f"Gnomes{RLO}")}}) == ["bad_roster"]
    roster = _roster()
    roster["units"] = dict(roster["units"], assault=dict(roster["units"]["assault"], name="A\tB"))
    assert _rs_codes({"rosters": {"gnomes": roster}}) == ["bad_unit_stats"]
    scenario = content("reign-supreme")["scenarios"]["skirmish"]
    assert _rs_codes({"scenario": dict(scenario, description="Two\x1bkingdoms")}) == [
        "bad_scenario"
    ]


def test_rs_roster_titles_and_unit_names_are_bounded():
    state = get_game("reign-supreme").setup(
        ["ann", "bob"], 1, {"rosters": {"g": _roster("G" * 60)}}
    )
    assert state["rosters"]["g"]["title"] == "G" * 60
    assert _rs_codes({"rosters": {"gnomes": _roster("G" * 61)}}) == ["bad_roster"]
    roster = _roster()
    roster["units"] = dict(roster["units"], assault=dict(roster["units"]["assault"], name="A" * 61))
    assert _rs_codes({"rosters": {"gnomes": roster}}) == ["bad_unit_stats"]


def _skirmish(**changes) -> dict:
    return dict(content("reign-supreme")["scenarios"]["skirmish"], **changes)


def test_rs_kingdom_ids_may_not_look_alike_or_leave_the_safe_set():
    for look_alike in ("K1", "kl"):  # by case; l and 1 are confusable (TR 39)
        kingdoms = copy.deepcopy(_skirmish()["kingdoms"])
        kingdoms[1]["id"] = look_alike
        found = setup_problems("reign-supreme", {"scenario": _skirmish(kingdoms=kingdoms)})
        assert [code for code, _ in found] == ["bad_scenario"]
        assert "options.scenario.kingdoms.1.id" in found[0][1] and "'k1'" in found[0][1]
    kingdoms = copy.deepcopy(_skirmish()["kingdoms"])
    kingdoms[2]["id"] = f"k{RLO}3"
    found = setup_problems("reign-supreme", {"scenario": _skirmish(kingdoms=kingdoms)})
    assert [code for code, _ in found] == ["bad_scenario"]
    assert "options.scenario.kingdoms.2.id" in found[0][1]


def test_rs_a_scenario_id_is_an_id_and_its_name_and_description_are_bounded():
    assert _rs_codes({"scenario": _skirmish(id="my skirmish")}) == ["bad_scenario"]
    assert _rs_codes({"scenario": _skirmish(id="x" * 65)}) == ["bad_scenario"]
    assert _rs_codes({"scenario": _skirmish(name="n" * 61)}) == ["bad_scenario"]
    assert _rs_codes({"scenario": _skirmish(description="d" * 1001)}) == ["bad_scenario"]
    state = get_game("reign-supreme").setup(
        ["ann", "bob"],
        1,
        {"scenario": _skirmish(id="x" * 64, name="n" * 60, description="d" * 1000)},
    )
    assert state["status"] == "in_progress"  # at the limits: accepted


@pytest.mark.parametrize(
    "change, said",
    [
        (lambda s: s["kingdoms"]["bob"].update(id="K1"), "state.kingdoms.bob.id 'K1' looks like"),
        (lambda s: s["kingdoms"]["bob"].update(id=f"k{RLO}4"), "state.kingdoms.bob.id"),
        (lambda s: s["scenario"].update(id="my skirmish"), "state.scenario.id"),
        (lambda s: s["scenario"].update(id="s" * 65), "state.scenario.id"),
    ],
)
def test_rs_a_state_may_not_bring_in_a_scenario_or_kingdom_id_setup_would_refuse(change, said):
    """As for the other games' card ids: a stateless client's state is held to setup's rule."""
    state = get_game("reign-supreme").setup(["ann", "bob"], 1, {"scenario": "skirmish"})
    get_game("reign-supreme").check_state(state)  # sound as set up
    assert state["kingdoms"]["ann"]["id"] == "k1"
    change(state)
    found = state_problems("reign-supreme", state)
    assert [c for c, _ in found] == ["bad_scenario"]
    assert said in found[0][1]
