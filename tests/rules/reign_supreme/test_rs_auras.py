"""Auras (rules doc §Auras; seed: Special Rule Terminology - Aura; Special Abilities - Command,
Supply, Enchant, Silence, Stealth; Castle - units next to the Gate have Stealth).

ann = Resistance, bob = Greenskin (statistics in test_rs_abilities.py); general (Command),
provisioner (Supply, Counterattack), enchanter (Enchant), warder (Silence), assassin (Stealth).
"""

from __future__ import annotations

from rs_helpers import attacks, codes, destinations, move, of_type, play, position, refresh

from rules.reign_supreme import GAME
from rules.reign_supreme.auras import engaged_pairs, silence_sources, silenced, stealthy
from rules.reign_supreme.board import geometry, occupancy
from rules.reign_supreme.content import default_roster
from rules.reign_supreme.state import clone

PASS = {"player": "bob", "type": "pass"}


def atk(unit: str, target: str, mode: str = "melee", player: str = "ann", **flags: bool) -> dict:
    return move(player, "attack", unit=unit, target=target, mode=mode, **flags)


def pos(lists: dict, at: dict, **options) -> dict:
    """A position as if the turn had started with every unit where it stands."""
    s = clone(position(lists, at, **options))
    s["engaged"] = engaged_pairs(s, occupancy(s))
    refresh(s)
    GAME.check_state(s)
    return s


def offence(events: list) -> list:
    return of_type(events, "attacked")[0]["offence"]


# -- Command ---------------------------------------------------------------------------------------
def test_command_gives_adjacent_allies_one_more_offence():
    s = pos(
        {"ann": ["infantry", "general"], "bob": ["footman"]},
        {"u1": [0, 0], "u2": [-1, 0], "u3": [1, 0]},
    )
    s, events = play(s, atk("u1", "u3"))
    assert offence(events) == [{"source": "command", "value": 1}]
    assert of_type(events, "attacked")[0]["damage"] == 3 + 1 - 1


def test_command_auras_do_not_stack():
    s = pos(
        {"ann": ["infantry", "general", "general"], "bob": ["footman"]},
        {"u1": [0, 0], "u2": [-1, 0], "u3": [-1, 1], "u4": [1, 0]},
    )
    s, events = play(s, atk("u1", "u4"))
    assert offence(events) == [{"source": "command", "value": 1}]
    assert s["units"]["u4"]["pins"] == 3 + 1 - 1


def test_an_enemy_command_aura_does_not_help():
    s = pos(
        {"ann": ["infantry"], "bob": ["footman", "general"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [0, 1]},
    )
    s, events = play(s, atk("u1", "u2"))
    assert offence(events) == [] and s["units"]["u2"]["pins"] == 3 - 1


def test_command_is_lost_when_the_unit_moves_out_of_the_aura():
    s = pos(
        {"ann": ["infantry", "general"], "bob": ["footman"]},
        {"u1": [-1, 0], "u2": [-2, 0], "u3": [1, 0]},
    )
    s, events = play(s, move("ann", "move", unit="u1", to=[0, 0]), atk("u1", "u3"))
    assert offence(events) == [] and s["units"]["u3"]["pins"] == 3 - 1


def test_command_counts_for_a_counterattack():
    s = pos(
        {"ann": ["knight"], "bob": ["infantry", "general"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [2, 0]},
    )
    s, events = play(s, atk("u1", "u2"), move("bob", "counterattack", unit="u2"))
    [c] = of_type(events, "counterattacked")
    assert c["offence"] == [{"source": "command", "value": 1}] and c["damage"] == 4 + 1 - 2


# -- Supply ----------------------------------------------------------------------------------------
def test_supply_gives_the_unit_and_adjacent_allies_one_more_defence_without_stacking():
    s = pos(
        {"ann": ["knight"], "bob": ["footman", "provisioner", "provisioner"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [2, 0], "u4": [2, -1]},
    )
    s, events = play(s, atk("u1", "u2"))
    e = of_type(events, "attacked")[0]
    assert e["defence"] == [{"source": "armour", "value": 1}, {"source": "supply", "value": 1}]
    assert e["damage"] == 4 - 1 - 1


def test_a_supply_unit_has_its_own_aura():
    s = pos({"ann": ["knight"], "bob": ["provisioner"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, events = play(s, atk("u1", "u2"), PASS)
    assert of_type(events, "attacked")[0]["defence"] == [
        {"source": "armour", "value": 1},
        {"source": "supply", "value": 1},
    ]
    assert s["units"]["u2"]["pins"] == 4 - 2


def test_siege_takes_supply_but_no_other_defence_modifier():
    """bob's Trebuchet in bob's Castle, next to a Provisioner: the Castle's +1 does not count for
    Siege, the Supply aura does."""
    s = pos(
        {"ann": ["knight"], "bob": ["trebuchet", "provisioner"]},
        {"u1": [-6, 1], "u2": [-7, 1], "u3": [-8, 1]},
        scenario="standard",
    )
    assert [-7, 1] in s["kingdoms"]["bob"]["castle"]
    s, events = play(s, atk("u1", "u2"))
    e = of_type(events, "attacked")[0]
    assert e["defence"] == [{"source": "supply", "value": 1}] and e["damage"] == 4 - 1


# -- Enchant ---------------------------------------------------------------------------------------
def test_enchant_gives_melee_at_two_spaces():
    s = pos(
        {"ann": ["knight", "enchanter"], "bob": ["footman"]},
        {"u1": [0, 0], "u2": [-1, 0], "u3": [2, 0]},
    )
    assert attacks(s, "u1") == {("u3", "melee")}
    s, events = play(s, atk("u1", "u3"))
    assert of_type(events, "attacked")[0]["damage"] == 4 - 1
    s = pos(
        {"ann": ["knight", "enchanter"], "bob": ["footman"]},
        {"u1": [0, 0], "u2": [-2, 0], "u3": [2, 0]},
    )
    assert codes(s, atk("u1", "u3")) == ["not_adjacent"]


def test_enchant_adds_one_to_shooting_range():
    where = {
        "u1": [-2, 0],
        "u2": [-3, 0],
        "u3": [2, 0],
    }  # the Skirmisher (range 3) is 4 from the target
    s = pos({"ann": ["skirmisher", "enchanter"], "bob": ["footman"]}, where)
    assert ("u3", "shoot") in attacks(s, "u1")
    s, events = play(s, atk("u1", "u3", "shoot"))
    assert of_type(events, "attacked")[0]["damage"] == 2 - 1
    s = pos({"ann": ["skirmisher", "enchanter"], "bob": ["footman"]}, dict(where, u2=[-3, 3]))
    assert codes(s, atk("u1", "u3", "shoot")) == ["out_of_range"]


def test_a_shooter_that_moved_can_still_melee_at_two_in_an_enchant_aura():
    s = pos(
        {"ann": ["archer", "enchanter"], "bob": ["footman"]},
        {"u1": [-1, 1], "u2": [-1, 0], "u3": [2, 0]},
    )
    s, _ = play(s, move("ann", "move", unit="u1", to=[0, 0]))
    assert attacks(s, "u1") == {("u3", "melee")}
    assert codes(s, atk("u1", "u3", "shoot")) == ["moved_this_turn"]
    s, events = play(s, atk("u1", "u3"))
    assert of_type(events, "attacked")[0]["damage"] == 3 - 1


def test_enchant_does_not_change_spells():
    """A Priest next to an Enchanter still heals only at 1 space."""
    s = pos(
        {"ann": ["priest", "enchanter", "knight"], "bob": ["footman"]},
        {"u1": [0, 0], "u2": [-1, 0], "u3": [2, 0], "u4": [-3, 3]},
    )
    s["units"]["u3"]["pins"] = 3
    assert [m for m in GAME.legal_moves(s) if m["type"] == "cast"] == []
    assert codes(s, move("ann", "cast", unit="u1", spell="healing", target="u3")) == [
        "bad_spell_target"
    ]


# -- Silence ---------------------------------------------------------------------------------------
def test_silence_aura_reaches_three_spaces_and_only_stops_enemies():
    s = pos({"ann": ["wizard"], "bob": ["warder"]}, {"u1": [0, 0], "u2": [3, 0]})
    assert silence_sources(s) == [((3, 0), "bob")]
    assert silenced(s, (0, 0), "ann") is True and silenced(s, (-1, 0), "ann") is False
    assert silenced(s, (0, 0), "bob") is False


def test_silence_is_read_from_each_games_own_rosters():
    """Whether a unit type has Silence is its game's roster's to say: two games whose rosters
    differ there are told apart, in either order (auras keeps the answer per rosters)."""
    s = pos({"ann": ["wizard"], "bob": ["warder"]}, {"u1": [0, 0], "u2": [3, 0]})
    army = s["units"]["u2"]["army"]
    units = {kind: dict(unit) for kind, unit in default_roster(army).items()}
    units["warder"]["abilities"] = []
    quiet = clone(s)
    quiet["rosters"] = {army: {"title": "Quiet", "units": units}}
    assert silence_sources(s) == [((3, 0), "bob")]
    assert silence_sources(quiet) == []
    assert silence_sources(s) == [((3, 0), "bob")]


def test_two_silence_units_within_three_spaces_cancel_each_other():
    s = pos({"ann": ["warder"], "bob": ["warder"]}, {"u1": [0, 0], "u2": [3, 0]})
    assert silence_sources(s) == [] and silenced(s, (1, 0), "ann") is False
    s = pos(
        {"ann": ["warder"], "bob": ["warder", "warder"]},
        {"u1": [-3, 0], "u2": [1, 0], "u3": [2, 0]},
    )
    assert silence_sources(s) == [((-3, 0), "ann")]  # bob's two cancel; ann's is 4 away from them
    s = pos({"ann": ["warder"], "bob": ["warder"]}, {"u1": [-1, 0], "u2": [3, 0]})
    assert sorted(silence_sources(s)) == [((-1, 0), "ann"), ((3, 0), "bob")]


def test_no_spell_is_cast_from_an_enemy_silence():
    s = pos({"ann": ["wizard"], "bob": ["warder"]}, {"u1": [0, 0], "u2": [3, 0]})
    assert codes(s, move("ann", "cast", unit="u1", spell="teleport", target=[-2, 0])) == [
        "silenced"
    ]
    assert [m for m in GAME.legal_moves(s) if m["type"] == "cast"] == []
    # a second Silence unit within 3 spaces of the first: both auras are lost, the spell is cast
    s = pos(
        {"ann": ["wizard"], "bob": ["warder", "warder"]},
        {"u1": [0, 0], "u2": [3, 0], "u3": [3, -2]},
    )
    s, events = play(
        s, move("ann", "cast", unit="u1", spell="teleport", target=[-2, 0]), PASS
    )  # no Counterspell
    assert s["units"]["u1"]["at"] == [-2, 0]


# -- Stealth ---------------------------------------------------------------------------------------
def test_a_stealth_unit_is_attacked_only_by_an_enemy_engaged_since_the_start_of_the_turn():
    s = pos(
        {"ann": ["knight", "archer"], "bob": ["assassin"]},
        {"u1": [-2, 0], "u2": [-3, 3], "u3": [1, 0]},
    )
    assert attacks(s, "u2") == set()
    assert codes(s, atk("u2", "u3", "shoot")) == ["stealth_target"]
    s, _ = play(s, move("ann", "move", unit="u1", to=[0, 0]))
    assert attacks(s, "u1") == set()
    assert codes(s, atk("u1", "u3")) == ["stealth_target"]
    s = pos(
        {"ann": ["knight", "archer"], "bob": ["assassin"]},
        {"u1": [0, 0], "u2": [-3, 3], "u3": [1, 0]},
    )
    assert attacks(s, "u1") == {("u3", "melee")}
    s, events = play(s, atk("u1", "u3"))
    assert of_type(events, "attacked")[0]["damage"] == 4


def test_stealth_is_lost_by_an_enemy_that_leaves_the_melee_and_comes_back():
    """ "Unless it was engaged in and remained engaged in Melee since the beginning of the turn":
    ann's Cavalry (Move Freely) rides round the Assassin next to it, or away and back when bob's
    Footman blocks the way round."""
    s = pos({"ann": ["cavalry"], "bob": ["assassin"]}, {"u1": [0, 0], "u2": [1, 0]})
    assert attacks(s, "u1") == {("u2", "melee")}
    s, events = play(s, move("ann", "move", unit="u1", to=[2, -1]))
    assert of_type(events, "unit_moved")[0]["path"] == [
        [0, 0],
        [1, -1],
        [2, -1],
    ]  # next to it all the way
    assert attacks(s, "u1") == {("u2", "melee")}
    s = pos(
        {"ann": ["cavalry"], "bob": ["assassin", "footman"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [1, -1]},
    )
    s, events = play(s, move("ann", "move", unit="u1", to=[2, -1]))
    assert of_type(events, "unit_moved")[0]["path"] == [[0, 0], [0, -1], [1, -2], [2, -2], [2, -1]]
    assert attacks(s, "u1") == {("u3", "melee")}
    assert codes(s, atk("u1", "u2")) == ["stealth_target"]


def test_units_next_to_a_gate_have_stealth_on_either_side_while_it_stands():
    """Standard scenario: bob's Gate stands between [-6, 0] (in the Castle) and [-5, 0]."""
    s = pos(
        {"ann": ["knight"], "bob": ["infantry", "footman"]},
        {"u1": [-3, 0], "u2": [-5, 0], "u3": [-6, 0]},
        scenario="standard",
    )
    geo = geometry(s)
    assert stealthy(s, geo, s["units"]["u2"]) and stealthy(s, geo, s["units"]["u3"])
    s, _ = play(s, move("ann", "move", unit="u1", to=[-4, 0]))
    assert codes(s, atk("u1", "u2")) == ["stealth_target"]
    s["walls"] = [w for w in s["walls"] if w["owner"] != "bob"]  # the Gate destroyed
    assert not stealthy(s, geo, s["units"]["u2"])
    assert attacks(s, "u1") == {("u2", "melee")}


def test_enemies_move_around_a_stealth_unit_not_in_melee():
    """On a two-row strip, ann's Infantry (movement 2) can only reach [3, -1] through [2, -1]; both
    lie next to bob's unit on [2, 0]. An ordinary unit stops it there; an Assassin not in melee
    this turn does not."""
    strip = {
        "id": "strip",
        "castles": False,
        "cards": False,
        "deployment": False,
        "initial_units": None,
        "army_list": "skirmish",
        "victory": "last_standing",
        "mines": [],
        "ruins": [],
        "midfield": [[q, 0] for q in range(0, 5)] + [[q, -1] for q in range(1, 6)],
        "kingdoms": [
            {"id": "west", "hexes": [[-2, 0], [-1, 0]]},
            {"id": "east", "hexes": [[6, -1], [7, -1]]},
        ],
    }
    where = {"u1": [1, -1], "u2": [2, 0]}
    s = pos({"ann": ["infantry"], "bob": ["footman"]}, where, scenario=strip)
    assert (3, -1) not in destinations(s, "u1")
    assert codes(s, move("ann", "move", unit="u1", to=[3, -1])) == ["melee_lock"]
    s = pos({"ann": ["infantry"], "bob": ["assassin"]}, where, scenario=strip)
    assert (3, -1) in destinations(s, "u1")
    s, events = play(s, move("ann", "move", unit="u1", to=[3, -1]))
    assert of_type(events, "unit_moved")[0]["path"] == [[1, -1], [2, -1], [3, -1]]
