"""The default rosters against the seed's Units section (rules doc §Rosters, "Reading the seed's
words"). The seed states no numbers, only kinds, abilities, spells, adjectives and comparisons;
each of them is checked here for every army, so a transcription error in ``data/armies.json``
fails a test."""

from __future__ import annotations

import pytest

from rules.reign_supreme.content import ARMY_IDS, UNIT_TYPES, default_armies

ARMIES = default_armies()

# Seed, Units: "(Shooting)" marks five types; the Trebuchet is Packed and Siege (Construction:
# "a Mechanical or Siege (but not an unpacked Trebuchet)"), the Mangonel is the other engine;
# the Shock Trooper "is Mechanical"; the Assassin is "the only unit that comes equipped with
# Stealth".
KINDS = {
    "skirmisher": ["shooting"],
    "archer": ["shooting"],
    "wizard": ["shooting"],
    "trebuchet": ["shooting", "siege", "packed"],
    "mangonel": ["shooting", "siege"],
    "assassin": ["stealth"],
    "shock_trooper": ["mechanical"],
}
ABILITIES = {
    "infantry": ["counterattack"],
    "footman": ["ensnare"],
    "knight": ["charging"],
    "cavalry": ["flanking"],
    "skirmisher": ["flanking"],
    "archer": ["double_attack"],
    "provisioner": ["supply", "counterattack"],
    "general": ["command", "knockback"],
    "enchanter": ["enchant"],
    "mangonel": ["volley"],
    "assault": ["charging", "knockback"],
    "shock_trooper": ["double_attack"],
    "engineer": ["construction"],
    "warder": ["silence"],
}
SPELLS = {
    "wizard": ["teleport"],
    "battlemage": ["blast"],
    "priest": ["healing"],
    "assault": ["cone"],
    "shock_trooper": ["arc"],
    "warder": ["counterspell"],
}


def units(army: str) -> dict:
    return ARMIES[army]["units"]


@pytest.mark.parametrize("army", ARMY_IDS)
def test_kinds_abilities_and_spells_are_the_seeds(army):
    u = units(army)
    assert list(u) == list(UNIT_TYPES)
    for t in UNIT_TYPES:
        assert u[t]["kinds"] == KINDS.get(t, []), t
        assert u[t]["abilities"] == ABILITIES.get(t, []), t
        assert u[t]["spells"] == SPELLS.get(t, []), t
        if "shooting" not in u[t]["kinds"]:
            assert u[t]["range"] == 1, t


@pytest.mark.parametrize("army", ARMY_IDS)
def test_movement_follows_the_seeds_comparisons(army):
    u = units(army)
    mv = {t: s["movement"] for t, s in u.items()}
    # Cavalry: "the most mobile unit in the game"
    for other in ARMY_IDS:
        assert all(mv["cavalry"] > s["movement"] for t, s in units(other).items() if t != "cavalry")
    # Infantry "slow moving"; Footmen "more specialized and mobile" than Infantry; Knights "fast
    # moving"
    assert all(mv["infantry"] <= mv[t] for t, s in u.items() if "siege" not in s["kinds"])
    assert mv["infantry"] < mv["footman"] < mv["knight"]
    # Archer: "not as mobile as either" the Skirmisher ("very mobile") or the Wizard
    assert mv["archer"] < mv["skirmisher"] and mv["archer"] < mv["wizard"]
    # Trebuchet "will get to the fight faster than a Mangonel"
    assert mv["trebuchet"] > mv["mangonel"]
    # Assault "of medium speed"
    assert mv["infantry"] < mv["assault"] < mv["knight"]


@pytest.mark.parametrize("army", ARMY_IDS)
def test_range_and_attack_follow_the_seeds_comparisons(army):
    u = units(army)
    rng = {t: s["range"] for t, s in u.items()}
    atk = {t: s["attack"] for t, s in u.items()}
    # Archer "a much more capable range unit than the skirmisher"; "their long range compensates"
    # for being less mobile than the Skirmisher and the Wizard
    assert rng["archer"] > rng["skirmisher"] and rng["archer"] > rng["wizard"]
    # Wizard "long-range", "very powerful": tears through Infantry "much more effectively than
    # Archers"
    assert rng["wizard"] > rng["skirmisher"] and atk["wizard"] > atk["archer"]
    # Trebuchet "the ultimate long range unit"; the Mangonel's "range and damage is not that of a
    # trebuchet"
    for other in ARMY_IDS:
        assert all(
            rng["trebuchet"] > s["range"] for t, s in units(other).items() if t != "trebuchet"
        )
    assert rng["mangonel"] < rng["trebuchet"] and atk["mangonel"] < atk["trebuchet"]
    # "terrible fighters", "poor warrior", "fragile and weak", "little in the way of offensive"
    for t in ("engineer", "enchanter", "priest", "warder"):
        assert atk[t] <= 1, t


@pytest.mark.parametrize("army", ARMY_IDS)
def test_armour_and_hit_points_follow_the_seeds_words(army):
    u = units(army)
    dfc = {t: s["defence"] for t, s in u.items()}
    hp = {t: s["hp"] for t, s in u.items()}
    # armour scale (rules doc): none 0, good 2+, heavy 3
    for t in ("skirmisher", "cavalry", "archer", "wizard", "priest", "enchanter"):
        assert dfc[t] == 0, (
            t
        )  # "poorly armored", "lack strong armor", "armor will not save them", frail/fragile
    for t in ("infantry", "battlemage", "assault", "shock_trooper"):
        assert dfc[t] >= 2, t  # "plate armor", "good armor", "good armor", "well armored"
    assert dfc["warder"] == max(dfc.values()) >= 3  # "heavy armor"
    assert dfc["infantry"] > dfc["footman"]  # Infantry "hold like no other unit"
    assert dfc["cavalry"] < dfc["knight"]
    # Infantry "high hit points": only the Assault and the Shock Trooper ("tough") have more
    assert all(
        hp["infantry"] >= hp[t] for t in u if t not in ("infantry", "assault", "shock_trooper")
    )
    # Assault "good hit points", "one of the most powerful units in the game"
    assert hp["assault"] == max(hp.values())
    # Battlemage "a much hardier version of the Wizard"
    assert hp["battlemage"] > hp["wizard"] and dfc["battlemage"] > dfc["wizard"]
    # frail / very fragile / will quickly crumple
    for t in ("wizard", "priest", "enchanter"):
        assert hp[t] <= 4, t


def test_one_assault_in_every_default_list():
    for army in ARMIES.values():
        for units_ in army["lists"].values():
            assert units_.count("assault") <= 1
        assert army["lists"]["standard"].count("assault") == 1
