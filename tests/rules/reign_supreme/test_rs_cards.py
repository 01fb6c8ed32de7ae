"""Cards: the default set, each effect primitive in a custom set, when cards are played, answers to
them, and card conservation (rules doc §Cards; seed Starting the Game, The Turn, Volley; RS 7)."""

from __future__ import annotations

from typing import Any

import pytest
from rs_helpers import codes, destinations, move, of_type, play, position, refresh

from rules.errors import InvalidSetup
from rules.reign_supreme import GAME
from rules.reign_supreme.effects import duration
from rules.reign_supreme.hexes import distance
from rules.reign_supreme.state import card_catalog, clone, json_copy

# An open board of radius 5 with cards and nothing else: Kingdoms far to either side.
FIELD = {
    "id": "field",
    "castles": False,
    "cards": True,
    "deployment": False,
    "initial_units": None,
    "army_list": "skirmish",
    "victory": "last_standing",
    "mines": [],
    "ruins": [],
    "midfield": [
        [q, r] for q in range(-5, 6) for r in range(-5, 6) if distance((q, r), (0, 0)) <= 5
    ],
    "kingdoms": [
        {"id": "west", "hexes": [[-9, r] for r in range(10)]},
        {"id": "east", "hexes": [[9, r] for r in range(-9, 1)]},
    ],
}
# Default armies: ann Resistance, bob Greenskin.


def at(lists: dict[str, list[str]], where: dict[str, Any], **options: Any) -> dict[str, Any]:
    options.setdefault("scenario", FIELD)
    return position(lists, where, **options)


def give(
    state: dict[str, Any], player: str, *cards: str, pins: dict[str, int] | None = None
) -> dict[str, Any]:
    """A copy of ``state`` where ``player`` holds ``cards`` (taken from wherever they were) and the
    units of ``pins`` carry those pins."""
    s = clone(state)
    for cid in cards:
        for pile in [*s["decks"].values(), *s["discards"].values(), *s["hands"].values()]:
            if cid in pile:
                pile.remove(cid)
        s["hands"][player].append(cid)
    for uid, n in (pins or {}).items():
        s["units"][uid]["pins"] = n
    refresh(s)
    GAME.check_state(s)
    return s


def card(player: str, cid: str, target: Any = None) -> dict[str, Any]:
    return move(player, "play", card=cid, target=target)


def everywhere(s: dict[str, Any]) -> list[str]:
    return sorted(
        [
            *s["decks"]["spell"],
            *s["decks"]["tactics"],
            *s["discards"]["spell"],
            *s["discards"]["tactics"],
            *(c for h in s["hands"].values() for c in h),
        ]
    )


def pair(
    spell: dict[str, Any] | None = None, tactics: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """A custom set of one card in each deck (the one under test and a filler)."""
    filler = {
        "deck": "spell",
        "name": "Filler",
        "text": "",
        "copies": 1,
        "target": "none",
        "range": None,
        "effect": {"kind": "reinforce", "amount": 0},
    }
    return [
        {"id": "s_card", **json_copy(filler), **(spell or {}), "deck": "spell"},
        {"id": "t_card", **json_copy(filler), **(tactics or {}), "deck": "tactics"},
    ]


def custom(
    cid: str, target: str, effect: dict[str, Any], rng: int | None = None, deck: str = "spell"
) -> list:
    body = {
        "name": cid.title(),
        "text": f"custom {cid}",
        "copies": 1,
        "target": target,
        "range": rng,
        "effect": effect,
    }
    return pair(spell=body) if deck == "spell" else pair(tactics=body)


def end_turn(s: dict[str, Any], player: str) -> tuple[dict[str, Any], list]:
    return play(s, move(player, "end_turn"))


# -- the default set -------------------------------------------------------------------------------
def test_the_default_set_has_six_spell_and_six_tactics_cards_flaming_oil_among_them():
    from rules.reign_supreme.content import default_cards

    cards = default_cards()
    assert sorted(c["deck"] for c in cards).count("spell") == 6
    assert sorted(c["deck"] for c in cards).count("tactics") == 6
    assert {c["id"]: c["effect"]["kind"] for c in cards}["flaming_oil"] == "flaming_oil"


def test_fireball_deals_four_to_an_enemy_within_four_of_your_units():
    s = give(
        at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [4, 0]}),
        "ann",
        "fireball-1",
    )
    s, events = play(s, card("ann", "fireball-1", "u2"))
    assert events == [
        {
            "type": "card_played",
            "player": "ann",
            "card": "fireball-1",
            "name": "Fireball",
            "target": "u2",
        },
        {
            "type": "card_hit",
            "player": "ann",
            "card": "fireball-1",
            "unit": "u2",
            "owner": "bob",
            "damage": 4,
            "pins": 4,
            "hp": 10,
        },
    ]
    assert s["units"]["u2"]["pins"] == 4  # magic: armour 2 does not count
    assert "fireball-1" in s["discards"]["spell"] and "fireball-1" not in s["hands"]["ann"]
    far = give(
        at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [5, 0]}),
        "ann",
        "fireball-1",
    )
    assert codes(far, card("ann", "fireball-1", "u2")) == ["out_of_card_range"]
    assert codes(far, card("ann", "fireball-1", "u1")) == ["bad_card_target"]
    assert codes(far, card("ann", "fireball-1")) == ["card_needs_target"]
    assert codes(far, card("ann", "fireball-1", "u9")) == ["unknown_target"]


def test_lightning_hits_its_target_for_three_and_every_adjacent_unit_for_one_allies_included():
    s = at(
        {"ann": ["infantry", "footman"], "bob": ["infantry", "footman"]},
        {"u1": [-3, 0], "u2": [2, 0], "u3": [3, 0], "u4": [4, 0]},
    )
    s, events = play(give(s, "ann", "lightning-1"), card("ann", "lightning-1", "u3"))
    assert of_type(events, "card_hit")[0]["damage"] == 3
    assert sorted((e["unit"], e["damage"], e["source"]) for e in of_type(events, "splashed")) == [
        ("u2", 1, "lightning"),
        ("u4", 1, "lightning"),
    ]
    assert [s["units"][u]["pins"] for u in ("u1", "u2", "u3", "u4")] == [0, 1, 3, 1]


def test_mend_removes_three_pins_from_your_non_mechanical_unit():
    s = at(
        {"ann": ["infantry", "shock_trooper"], "bob": ["infantry"]},
        {"u1": [0, 0], "u2": [1, 1], "u3": [4, 0]},
    )
    s = give(s, "ann", "mend-1", pins={"u1": 5, "u2": 5, "u3": 5})
    assert codes(s, card("ann", "mend-1", "u2")) == [
        "bad_card_target"
    ]  # Mechanical: repaired, not healed
    assert codes(s, card("ann", "mend-1", "u3")) == ["bad_card_target"]  # not yours
    s, events = play(s, card("ann", "mend-1", "u1"))
    assert of_type(events, "card_healed") == [
        {
            "type": "card_healed",
            "player": "ann",
            "card": "mend-1",
            "unit": "u1",
            "owner": "ann",
            "pins_removed": 3,
            "pins": 2,
        }
    ]
    fresh = give(at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]}), "ann", "mend-1")
    assert codes(fresh, card("ann", "mend-1", "u1")) == ["no_pins"]


def test_haste_gives_two_more_spaces_this_turn_only():
    s = give(at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]}), "ann", "haste-1")
    assert max(distance(h, (0, 0)) for h in destinations(s, "u1")) == 2
    s, events = play(s, card("ann", "haste-1", "u1"))
    assert of_type(events, "effect_added") == [
        {
            "type": "effect_added",
            "player": "ann",
            "card": "haste-1",
            "unit": "u1",
            "owner": "ann",
            "effect": "haste",
            "value": 2,
            "left": 1,
        }
    ]
    assert max(distance(h, (0, 0)) for h in destinations(s, "u1")) == 4
    s, events = end_turn(s, "ann")
    assert {"type": "effect_ended", "player": "ann", "unit": "u1", "effect": "haste"} in events
    assert s["boards"]["ann"]["effects"] == []


def test_curse_of_weakness_makes_an_enemy_deal_two_less_until_your_next_turn():
    s = give(
        at({"ann": ["footman"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [1, 0]}),
        "ann",
        "weakness-1",
    )
    s, _ = play(s, card("ann", "weakness-1", "u2"))
    assert s["boards"]["ann"]["effects"] == [
        {"effect": "weaken", "unit": "u2", "left": 2, "value": 2}
    ]
    s, _ = end_turn(s, "ann")
    s, events = play(s, move("bob", "attack", unit="u2", target="u1", mode="melee"))
    hit = of_type(events, "attacked")[0]
    assert {"source": "weaken", "value": -2} in hit["offence"]
    assert hit["damage"] == 5 - 2 - 1  # knight attack 5, weakened 2, footman armour 1
    s, events = end_turn(s, "bob")
    assert {"type": "effect_ended", "player": "ann", "unit": "u2", "effect": "weaken"} in events


def test_stone_skin_makes_your_unit_take_two_less_until_your_next_turn():
    s = give(
        at({"ann": ["footman"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [1, 0]}),
        "ann",
        "stoneskin-1",
    )
    s, _ = play(s, card("ann", "stoneskin-1", "u1"))
    s, _ = end_turn(s, "ann")
    s, events = play(s, move("bob", "attack", unit="u2", target="u1", mode="melee"))
    hit = of_type(events, "attacked")[0]
    assert hit["defence"] == [{"source": "armour", "value": 1}, {"source": "defence", "value": 2}]
    assert hit["damage"] == 2


def test_flaming_oil_makes_the_next_shot_hit_every_unit_next_to_the_target_for_one():
    s = at(
        {"ann": ["archer"], "bob": ["archer", "archer", "archer"]},
        {"u1": [0, 0], "u2": [3, 0], "u3": [4, 0], "u4": [0, 3]},
    )
    s, _ = play(give(s, "ann", "flaming_oil-1"), card("ann", "flaming_oil-1", "u1"))
    assert s["boards"]["ann"]["effects"] == [
        {"effect": "flaming_oil", "unit": "u1", "left": 1, "value": 1}
    ]
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="shoot"))
    assert [(e["unit"], e["damage"], e["source"]) for e in of_type(events, "splashed")] == [
        ("u3", 1, "flaming_oil")
    ]
    assert s["boards"]["ann"]["effects"] == []  # used up by that shot
    s, events = play(
        s, move("ann", "attack", unit="u1", target="u4", mode="shoot")
    )  # Double Attack
    assert of_type(events, "splashed") == []


def test_flaming_oil_does_not_stack_with_the_mangonels_volley():
    """Seed, Volley: "The Flaming Oil card does not stack with the mangonel ability". ann's Goblin
    Catapult (attack 4) volleys at a Pikeman (armour 3): the Dwarf Maceman next to it (armour 1)
    takes the volley's 3, not 3 + 1."""
    s = at(
        {"ann": ["mangonel"], "bob": ["infantry", "footman"]},
        {"u1": [0, 0], "u2": [3, 0], "u3": [4, 0]},
        armies={"ann": "greenskin", "bob": "resistance"},
    )
    s, _ = play(give(s, "ann", "flaming_oil-1"), card("ann", "flaming_oil-1", "u1"))
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="shoot", volley=True))
    splashed = of_type(events, "splashed")
    assert [(e["unit"], e["damage"], e["source"]) for e in splashed] == [("u3", 3, "volley")]
    assert s["units"]["u3"]["pins"] == 3 and s["units"]["u2"]["pins"] == 1
    assert s["boards"]["ann"]["effects"] == []  # the Volley shot used the oil up
    # the same shot without Volley: the oil's 1 instead
    s = at(
        {"ann": ["mangonel"], "bob": ["infantry", "footman"]},
        {"u1": [0, 0], "u2": [3, 0], "u3": [4, 0]},
        armies={"ann": "greenskin", "bob": "resistance"},
    )
    s, _ = play(give(s, "ann", "flaming_oil-1"), card("ann", "flaming_oil-1", "u1"))
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="shoot"))
    assert [(e["unit"], e["damage"], e["source"]) for e in of_type(events, "splashed")] == [
        ("u3", 1, "flaming_oil")
    ]


def test_forced_march_lets_a_unit_that_has_moved_and_not_attacked_move_again():
    s = give(
        at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [5, 0]}),
        "ann",
        "forced_march-1",
    )
    assert codes(s, card("ann", "forced_march-1", "u1")) == ["not_moved"]
    s, _ = play(s, move("ann", "move", unit="u1", to=[2, 0]))
    assert destinations(s, "u1") == set()
    s, events = play(s, card("ann", "forced_march-1", "u1"))
    assert of_type(events, "unit_may_move_again") == [
        {"type": "unit_may_move_again", "player": "ann", "card": "forced_march-1", "unit": "u1"}
    ]
    s, _ = play(s, move("ann", "move", unit="u1", to=[4, 0]))
    assert s["units"]["u1"]["at"] == [4, 0] and s["units"]["u1"]["steps"] == 2


def test_forced_march_judges_charging_on_the_fresh_movement_alone():
    """docs/rules/reign-supreme.md, ``forced_march``: the movement the card gives is fresh, and
    Charging ("if it moves up to and attacks an enemy unit ... not applied if the unit did not
    move before it attacked or if it was in melee to an enemy unit when it started moving") is
    judged on it alone."""

    def charging(s: dict[str, Any]) -> list[Any]:
        s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee"))
        while s["pending"] is not None:  # nobody answers the declaration
            s, more = play(s, move(s["active_players"][0], "pass"))
            events += more
        return of_type(events, "attacked")[0]["offence"]

    def knight_at(x: int) -> dict[str, Any]:
        return give(
            at({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [x, 0], "u2": [3, 0]}),
            "ann",
            "forced_march-1",
        )

    charged, _ = play(knight_at(0), move("ann", "move", unit="u1", to=[2, 0]))
    assert charging(charged) == [{"source": "charging", "value": 1}]
    # charged into contact, then the card, and no step more: it did not move before it attacked
    marched, _ = play(charged, card("ann", "forced_march-1", "u1"))
    assert charging(marched) == []
    # broke away from melee, then the card, and back into contact: the fresh movement began
    # out of melee
    broke_away, _ = play(knight_at(2), move("ann", "move", unit="u1", to=[0, 0]))
    back, _ = play(
        broke_away,
        card("ann", "forced_march-1", "u1"),
        move("ann", "move", unit="u1", to=[2, 0]),
    )
    assert charging(back) == [{"source": "charging", "value": 1}]


def test_forced_march_is_refused_for_a_unit_that_attacked():
    s = give(
        at({"ann": ["infantry"], "bob": ["archer"]}, {"u1": [0, 0], "u2": [2, 0]}),
        "ann",
        "forced_march-1",
    )
    s, _ = play(
        s,
        move("ann", "move", unit="u1", to=[1, 0]),
        move("ann", "attack", unit="u1", target="u2", mode="melee"),
    )
    assert codes(s, card("ann", "forced_march-1", "u1")) == ["attacked_already"]


def test_ambush_adds_two_to_the_next_attack_only():
    s = at(
        {"ann": ["archer"], "bob": ["archer", "archer"]}, {"u1": [0, 0], "u2": [3, 0], "u3": [0, 3]}
    )
    s, _ = play(give(s, "ann", "ambush-1"), card("ann", "ambush-1", "u1"))
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="shoot"))
    first = of_type(events, "attacked")[0]
    assert first["offence"] == [{"source": "ambush", "value": 2}] and first["damage"] == 5
    s, events = play(s, move("ann", "attack", unit="u1", target="u3", mode="shoot"))
    assert of_type(events, "attacked")[0]["damage"] == 3
    assert codes(give(s, "ann", "ambush-2"), card("ann", "ambush-2", "u1")) == [
        "unit_cannot_attack"
    ]


def test_rally_moves_the_reinforcement_pin_three_notches():
    s = position(
        {
            "ann": ["infantry", "infantry", "knight", "archer", "priest"],
            "bob": ["infantry", "footman", "footman", "knight", "cavalry"],
        },
        scenario="standard",
    )
    s = give(s, "ann", "rally-1")
    before = s["boards"]["ann"]["reinforcement_pin"]
    s, events = play(s, card("ann", "rally-1"))
    assert of_type(events, "reinforcement_pin_moved") == [
        {
            "type": "reinforcement_pin_moved",
            "player": "ann",
            "reinforcement_pin": before - 3,
            "deploys_gained": 0,
        }
    ]
    no_pin = give(at({"ann": ["infantry"], "bob": ["infantry"]}, {}), "ann", "rally-1")
    assert codes(no_pin, card("ann", "rally-1")) == ["no_reinforcement_pin"]
    assert codes(no_pin, card("ann", "rally-1", "u1")) == ["bad_card_target"]


def test_field_repairs_removes_three_pins_from_your_siege_or_mechanical_unit():
    s = at(
        {"ann": ["trebuchet", "shock_trooper", "infantry"], "bob": ["infantry"]},
        {"u1": [0, 0], "u2": [0, 2], "u3": [2, 0]},
    )
    s = give(s, "ann", "field_repairs-1", "field_repairs-2", pins={"u1": 4, "u2": 2, "u3": 4})
    assert codes(s, card("ann", "field_repairs-1", "u3")) == ["bad_card_target"]
    s, events = play(s, card("ann", "field_repairs-1", "u1"), card("ann", "field_repairs-2", "u2"))
    assert [
        (e["unit"], e["pins_removed"], e["pins"]) for e in of_type(events, "card_repaired")
    ] == [("u1", 3, 1), ("u2", 2, 0)]


def test_sabotage_puts_two_pins_on_an_enemy_siege_unit_or_takes_two_off_a_wall():
    s = at(
        {"ann": ["infantry"], "bob": ["mangonel", "infantry"]},
        {"u1": [0, 0], "u2": [3, 0], "u3": [4, 0]},
        armies={"ann": "resistance", "bob": "greenskin"},
    )
    s = give(s, "ann", "sabotage-1")
    assert codes(s, card("ann", "sabotage-1", "u3")) == ["bad_card_target"]  # not Siege
    s, events = play(s, card("ann", "sabotage-1", "u2"))
    assert of_type(events, "card_hit")[0]["damage"] == 2 and s["units"]["u2"]["pins"] == 2
    std = give(
        position({"ann": ["infantry"] * 5, "bob": ["infantry"] * 5}, scenario="standard"),
        "ann",
        "sabotage-2",
    )
    gate = next(w for w in std["walls"] if w["owner"] == "bob")
    own = next(w for w in std["walls"] if w["owner"] == "ann")
    assert codes(std, card("ann", "sabotage-2", own["id"])) == ["bad_card_target"]
    std, events = play(std, card("ann", "sabotage-2", gate["id"]))
    assert of_type(events, "wall_sabotaged") == [
        {
            "type": "wall_sabotaged",
            "player": "ann",
            "card": "sabotage-2",
            "wall": gate["id"],
            "kind": "gate",
            "damage": 2,
            "hp": 18,
        }
    ]


# -- targeting rules -------------------------------------------------------------------------------
def test_an_enemy_stealth_unit_cannot_be_targeted_by_a_card():
    s = at(
        {"ann": ["infantry"], "bob": ["assassin", "infantry"]},
        {"u1": [0, 0], "u2": [2, 0], "u3": [3, 0]},
        armies={"ann": "resistance", "bob": "demon"},
    )
    s = give(s, "ann", "fireball-1")
    assert codes(s, card("ann", "fireball-1", "u2")) == ["stealth_target"]
    assert {m["target"] for m in GAME.legal_moves(s, "ann") if m["type"] == "play"} == {"u3"}


def test_a_spell_card_cannot_be_played_into_an_enemy_silence_aura_and_a_tactics_card_can():
    s = at(
        {"ann": ["infantry", "archer"], "bob": ["warder"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [3, 0]},
        armies={"ann": "resistance", "bob": "demon"},
    )
    s = give(s, "ann", "haste-1", "ambush-1")
    assert codes(s, card("ann", "haste-1", "u1")) == ["silenced"]
    s, events = play(s, card("ann", "ambush-1", "u2"))
    assert of_type(events, "effect_added")[0]["effect"] == "ambush"


# -- when cards are played -------------------------------------------------------------------------
def test_cards_are_played_in_any_combat_phase_and_not_while_an_answer_is_pending():
    """Ruling RS 10: bob may play a card in ann's Combat phase, but not one that acts on a unit's
    activation (Haste); nobody plays one while an answer is awaited."""
    s = at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s = give(s, "ann", "haste-1")
    s = give(s, "bob", "haste-2")
    s = clone(s)
    catalog = card_catalog(s["cards"])
    for cid in [c for c in s["hands"]["bob"] if c != "haste-2"]:
        s["hands"]["bob"].remove(cid)
        s["discards"][catalog[cid]["deck"]].append(cid)
    refresh(s)
    GAME.check_state(s)
    # bob holds a card, so he is active (the hand count is public, the hand is not), but his only
    # card is a Haste: he may only concede
    assert s["active_players"] == ["ann", "bob"]
    assert GAME.legal_moves(s, "bob") == [move("bob", "concede")]
    assert codes(s, card("bob", "haste-2", "u2")) == ["own_turn_card"]
    s = give(s, "bob", "haste-2", "stoneskin-1")
    assert s["active_players"] == ["ann", "bob"]
    assert {m["card"] for m in GAME.legal_moves(s, "bob") if m["type"] == "play"} == {"stoneskin-1"}
    assert codes(s, card("ann", "haste-2", "u1")) == ["not_in_hand"]
    s, _ = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee"))
    assert s["active_players"] == ["bob"] and s["pending"] is not None  # bob may counterattack
    assert not [m for m in GAME.legal_moves(s) if m["type"] == "play"]
    assert codes(s, card("bob", "haste-2", "u2")) == ["answer_pending"]
    assert codes(s, card("ann", "haste-1", "u1")) == ["not_your_turn"]
    manual = GAME.setup(["ann", "bob"], 1, {"first_player": "ann"})
    assert manual["phase"] == "setup"
    assert codes(manual, card("ann", manual["hands"]["ann"][0], None)) == ["wrong_phase"]


def test_a_spell_card_can_be_counterspelled_and_stays_discarded():
    """bob's Void Warder stands 4 spaces from the Fireball's target (outside its own Silence) and
    counters it; the card is still spent."""
    s = at(
        {"ann": ["infantry"], "bob": ["infantry", "warder"]},
        {"u1": [-3, 0], "u2": [1, 0], "u3": [5, 0]},
        armies={"ann": "resistance", "bob": "demon"},
    )
    s = give(s, "ann", "fireball-1")
    before = everywhere(s)
    s, events = play(s, card("ann", "fireball-1", "u2"))
    assert s["active_players"] == ["bob"]
    answer = move("bob", "cast", unit="u3", spell="counterspell", target=[1, 0])
    assert answer in GAME.legal_moves(s)
    s, events = play(s, answer)
    assert of_type(events, "spell_countered") == [
        {
            "type": "spell_countered",
            "player": "bob",
            "unit": "u3",
            "countered": {"kind": "card", "player": "ann", "card": "fireball-1"},
        }
    ]
    assert of_type(events, "card_hit") == [] and s["units"]["u2"]["pins"] == 0
    assert "fireball-1" in s["discards"]["spell"] and everywhere(s) == before
    assert (
        s["active_players"] == ["ann", "bob"] and s["pending"] is None
    )  # bob holds other cards (RS 10)


def test_a_tactics_card_cannot_be_counterspelled():
    s = at(
        {"ann": ["infantry"], "bob": ["infantry", "warder"]},
        {"u1": [0, 0], "u2": [5, 0], "u3": [3, 0]},
        armies={"ann": "resistance", "bob": "demon"},
    )
    s, events = play(give(s, "ann", "ambush-1"), card("ann", "ambush-1", "u1"))
    assert s["pending"] is None and of_type(events, "effect_added")


def test_a_targeted_unit_teleported_away_makes_the_card_fizzle():
    s = at(
        {"ann": ["infantry"], "bob": ["wizard"]},
        {"u1": [0, 0], "u2": [3, 0]},
        armies={"ann": "resistance", "bob": "greenskin"},
    )
    s, _ = play(give(s, "ann", "fireball-1"), card("ann", "fireball-1", "u2"))
    assert s["active_players"] == ["bob"]
    s, events = play(s, move("bob", "cast", unit="u2", spell="teleport", target=[5, 0]))
    assert of_type(events, "teleported") and of_type(events, "card_fizzled") == [
        {"type": "card_fizzled", "player": "ann", "card": "fireball-1", "reason": "evaded"}
    ]
    assert s["units"]["u2"]["pins"] == 0


def test_every_card_is_always_in_exactly_one_place():
    s = at(
        {"ann": ["infantry", "archer"], "bob": ["infantry", "archer"]},
        {"u1": [0, 0], "u2": [-3, 0], "u3": [3, 0], "u4": [4, 0]},
    )
    catalog = sorted(card_catalog(s["cards"]))
    assert everywhere(s) == catalog
    s = give(s, "ann", "fireball-1", "lightning-2", "haste-1", "ambush-2")
    s, _ = play(
        s,
        card("ann", "fireball-1", "u3"),
        card("ann", "lightning-2", "u4"),
        card("ann", "haste-1", "u1"),
        card("ann", "ambush-2", "u2"),
    )
    assert everywhere(s) == catalog
    assert {"fireball-1", "lightning-2", "haste-1"} <= set(s["discards"]["spell"])
    assert "ambush-2" in s["discards"]["tactics"]


def test_a_played_card_is_public_and_a_hand_stays_private():
    s = give(
        at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [4, 0]}),
        "ann",
        "fireball-1",
    )
    s, events = play(s, card("ann", "fireball-1", "u2"))
    assert GAME.view_event(events[0], "bob") == events[0]
    view = GAME.view(s, "bob")
    assert "fireball-1" in view["discards"]["spell"]
    assert all(c not in str(view.get("hand")) for c in s["hands"]["ann"])


# -- custom cards: one per primitive ---------------------------------------------------------------
def test_custom_damage_with_splash_and_a_kill():
    cards = custom("bolt", "enemy_unit", {"kind": "damage", "amount": 7, "splash": 2}, rng=2)
    s = at(
        {"ann": ["infantry"], "bob": ["archer", "archer"]},
        {"u1": [0, 0], "u2": [2, 0], "u3": [3, 0]},
        cards=cards,
    )
    assert codes(give(s, "ann", "s_card-1"), card("ann", "s_card-1", "u3")) == ["out_of_card_range"]
    s, events = play(give(s, "ann", "s_card-1"), card("ann", "s_card-1", "u2"))
    assert (
        of_type(events, "unit_destroyed")[0]["unit"] == "u2"
        and of_type(events, "unit_destroyed")[0]["by"] == "s_card"
    )
    assert [(e["unit"], e["damage"]) for e in of_type(events, "splashed")] == [("u3", 2)]
    assert s["kills"]["ann"] == 1 and s["units"]["u3"]["pins"] == 2


def test_custom_heal_on_any_unit():
    cards = custom("balm", "any_unit", {"kind": "heal", "amount": 1})
    s = at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [4, 0]}, cards=cards)
    s, events = play(give(s, "ann", "s_card-1", pins={"u2": 3}), card("ann", "s_card-1", "u2"))
    assert of_type(events, "card_healed")[0]["pins"] == 2


def test_custom_repair():
    cards = custom("weld", "own_unit", {"kind": "repair", "amount": 5}, deck="tactics")
    s = at({"ann": ["shock_trooper"], "bob": ["infantry"]}, {"u1": [0, 0]}, cards=cards)
    s, events = play(give(s, "ann", "t_card-1", pins={"u1": 6}), card("ann", "t_card-1", "u1"))
    assert of_type(events, "card_repaired")[0]["pins"] == 1


def test_custom_offence_lasts_the_turns_it_says():
    cards = custom("fury", "own_unit", {"kind": "offence", "amount": 3, "turns": 2})
    s = at({"ann": ["infantry"], "bob": ["archer"]}, {"u1": [0, 0], "u2": [1, 0]}, cards=cards)
    s, _ = play(give(s, "ann", "s_card-1"), card("ann", "s_card-1", "u1"))
    assert s["boards"]["ann"]["effects"] == [
        {"effect": "offence", "unit": "u1", "left": 4, "value": 3}
    ]
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee"))
    assert of_type(events, "attacked")[0]["damage"] == 3 + 3


def test_custom_defence_for_this_turn_only():
    cards = custom("guard", "own_unit", {"kind": "defence", "amount": 1, "turns": 0})
    s = at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]}, cards=cards)
    s, _ = play(give(s, "ann", "s_card-1"), card("ann", "s_card-1", "u1"))
    assert s["boards"]["ann"]["effects"] == [
        {"effect": "defence", "unit": "u1", "left": 1, "value": 1}
    ]
    s, _ = end_turn(s, "ann")
    assert s["boards"]["ann"]["effects"] == []


def test_custom_weaken_is_an_affliction_that_healing_cures():
    from rules.reign_supreme import effects

    cards = custom("hex", "enemy_unit", {"kind": "weaken", "amount": 5, "turns": 1})
    s = at(
        {"ann": ["infantry"], "bob": ["infantry", "priest"]},
        {"u1": [0, 0], "u2": [3, 0], "u3": [4, 0]},
        cards=cards,
    )
    s, _ = play(give(s, "ann", "s_card-1"), card("ann", "s_card-1", "u2"))
    assert effects.afflicted(s, "u2") and effects.offence_modifiers(s, "u2") == [
        {"source": "weaken", "value": -5}
    ]
    s, _ = end_turn(s, "ann")
    s, events = play(s, move("bob", "cast", unit="u3", spell="healing", target="u2", cure=True))
    assert {"type": "effect_ended", "player": "ann", "unit": "u2", "effect": "weaken"} in events
    assert not effects.afflicted(s, "u2") and s["boards"]["ann"]["effects"] == []


def test_custom_haste():
    cards = custom("dash", "own_unit", {"kind": "haste", "amount": 1})
    s = at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]}, cards=cards)
    s, _ = play(give(s, "ann", "s_card-1"), card("ann", "s_card-1", "u1"))
    assert max(distance(h, (0, 0)) for h in destinations(s, "u1")) == 3


def test_custom_ambush():
    cards = custom("strike", "own_unit", {"kind": "ambush", "amount": 4}, deck="tactics")
    s = at({"ann": ["infantry"], "bob": ["archer"]}, {"u1": [0, 0], "u2": [1, 0]}, cards=cards)
    s, _ = play(give(s, "ann", "t_card-1"), card("ann", "t_card-1", "u1"))
    s, events = play(s, move("ann", "attack", unit="u1", target="u2", mode="melee"))
    assert of_type(events, "attacked")[0]["damage"] == 3 + 4
    assert s["boards"]["ann"]["effects"] == []


def test_custom_flaming_oil():
    cards = custom("pitch", "own_unit", {"kind": "flaming_oil", "amount": 3}, deck="tactics")
    s = at(
        {"ann": ["archer", "infantry"], "bob": ["archer", "archer"]},
        {"u1": [0, 0], "u2": [-2, 0], "u3": [3, 0], "u4": [3, 1]},
        cards=cards,
    )
    assert codes(give(s, "ann", "t_card-1"), card("ann", "t_card-1", "u2")) == [
        "bad_card_target"
    ]  # not Shooting
    s, _ = play(give(s, "ann", "t_card-1"), card("ann", "t_card-1", "u1"))
    s, events = play(s, move("ann", "attack", unit="u1", target="u3", mode="shoot"))
    assert [(e["unit"], e["damage"]) for e in of_type(events, "splashed")] == [("u4", 3)]


def test_custom_forced_march():
    cards = custom("onward", "own_unit", {"kind": "forced_march", "amount": 0}, deck="tactics")
    s = at({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0]}, cards=cards)
    s, _ = play(give(s, "ann", "t_card-1"), move("ann", "move", unit="u1", to=[0, 5]))
    s, _ = play(s, card("ann", "t_card-1", "u1"), move("ann", "move", unit="u1", to=[0, 0]))
    assert s["units"]["u1"]["at"] == [0, 0] and s["units"]["u1"]["steps"] == 5


def test_custom_reinforce_past_zero_gains_deployments():
    cards = custom("muster", "none", {"kind": "reinforce", "amount": 10}, deck="tactics")
    s = position(
        {"ann": ["infantry"] * 5, "bob": ["infantry"] * 5}, scenario="standard", cards=cards
    )
    before = s["boards"]["ann"]["reinforcement_pin"]
    s, events = play(give(s, "ann", "t_card-1"), card("ann", "t_card-1"))
    assert (
        s["boards"]["ann"]["reinforcement_pin"] == before
        and of_type(events, "reinforcement_pin_moved")[0]["deploys_gained"] == 2
    )
    assert s["boards"]["ann"]["deploys"] == 2


def test_custom_sabotage_destroys_a_palisade():
    cards = custom("saw", "enemy_siege_or_wall", {"kind": "sabotage", "amount": 5}, deck="tactics")
    s = at({"ann": ["infantry"], "bob": ["infantry"]}, {"u1": [0, 0]}, cards=cards)
    s = clone(s)
    s["walls"] = [
        {"id": "w1", "kind": "palisade", "owner": "bob", "edge": [[2, 0], [3, 0]], "hp": 4}
    ]
    s["wall_serial"] = 1
    s, events = play(give(s, "ann", "t_card-1"), card("ann", "t_card-1", "w1"))
    assert [e["type"] for e in events] == ["card_played", "wall_sabotaged", "wall_destroyed"]
    assert s["walls"] == []


# -- custom set validation -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "change, field",
    [
        (lambda c: c[0].update(copies=5), "copies"),
        (lambda c: c[0].update(copies=0), "copies"),
        (lambda c: c[1].update(id="s_card"), "id"),
        (lambda c: c[0].update(id="Bad-Id"), "id"),
        (lambda c: c[0].update(deck="tactics"), "each deck"),
        (lambda c: c[0].update(deck="magic"), "deck"),
        (lambda c: c[0].update(target="everyone"), "target"),
        (lambda c: c[0]["effect"].update(kind="explode"), "effect.kind"),
        (lambda c: c[0]["effect"].update(amount=21), "effect.amount"),
        (lambda c: c[0]["effect"].update(amount=-1), "effect.amount"),
        (lambda c: c[0]["effect"].update(colour="red"), "effect"),
        (lambda c: c[0].update(range=-1), "range"),
        (lambda c: c[0].pop("name"), "name"),
        (lambda c: c[0].update(flavour="x"), "flavour"),
        (lambda c: c[0].update(target="enemy_unit"), "effect.kind reinforce needs"),
        (lambda c: c.clear(), "list of 1 to"),
    ],
)
def test_a_custom_card_set_is_validated(change, field):
    cards = pair()
    change(cards)
    with pytest.raises(InvalidSetup) as err:
        GAME.setup(["ann", "bob"], 1, {"cards": cards})
    assert [v.code for v in err.value.violations] == ["bad_cards"]
    assert field in err.value.violations[0].message


def test_a_custom_card_set_replaces_the_default_one():
    cards = custom("bolt", "enemy_unit", {"kind": "damage", "amount": 1})
    s = GAME.setup(["ann", "bob"], 1, {"cards": cards, "setup": "auto"})
    assert s["cards"] == cards and everywhere(s) == ["s_card-1", "t_card-1"]


# -- durations (rules doc, Durations: "until the start of your n-th next turn") --------------------
def test_until_your_next_turn_played_outside_your_turn_ends_at_the_start_of_your_next_turn():
    # before, left was n x players wherever it was played: Curse of Weakness played in bob's turn
    # still weakened bob's counterattack in ann's next turn
    s = give(
        at({"ann": ["footman"], "bob": ["knight"]}, {"u1": [0, 0], "u2": [1, 0]}, first="bob"),
        "ann",
        "weakness-1",
    )
    s, events = play(s, card("ann", "weakness-1", "u2"))  # ruling RS 10: in bob's turn
    assert of_type(events, "effect_added")[0]["left"] == 1
    s, events = end_turn(s, "bob")
    assert {"type": "effect_ended", "player": "ann", "unit": "u2", "effect": "weaken"} in events
    assert s["turn"] == "ann" and s["boards"]["ann"]["effects"] == []


THREE = {"ann": ["infantry"], "bob": ["infantry"], "cat": ["infantry"]}
THREE_AT = {"u1": [0, 0], "u2": [3, 0], "u3": [-3, 3]}


def test_a_duration_counts_the_turns_that_start_before_yours_in_a_larger_game():
    cards = custom("fury", "own_unit", {"kind": "offence", "amount": 3, "turns": 2})
    s = position(THREE, THREE_AT, scenario="standard", first="bob", cards=cards)
    s, events = play(give(s, "ann", "s_card-1"), card("ann", "s_card-1", "u1"))
    # in bob's turn: cat's and ann's turns start before ann's next one, then a whole round
    assert of_type(events, "effect_added")[0]["left"] == 2 + 3
    ends = []
    while not ends:
        s, events = end_turn(s, s["turn"])
        ends = of_type(events, "effect_ended")
    assert s["turn"] == "ann" and s["round"] == 2  # the start of ann's second turn from now


def test_a_defeat_does_not_stretch_a_duration_by_the_losers_turns():
    # ann plays "until your next turn" in her own turn (left 3: bob's, cat's and her own turn
    # starts); cat concedes before their turn: it still ends at the start of ann's next turn
    cards = custom("fury", "own_unit", {"kind": "offence", "amount": 3, "turns": 1})
    s = position(THREE, THREE_AT, scenario="standard", cards=cards)
    s = give(s, "ann", "s_card-1")
    s = give(s, "cat", "t_card-1")  # holding a card, cat may act (and concede) in ann's turn
    s, events = play(s, card("ann", "s_card-1", "u1"))
    assert of_type(events, "effect_added")[0]["left"] == 3
    s, _ = play(s, move("cat", "concede"))
    assert s["boards"]["ann"]["effects"][0]["left"] == 2
    s, events = end_turn(s, "ann")
    assert s["turn"] == "bob" and not of_type(events, "effect_ended")
    s, events = end_turn(s, "bob")
    assert s["turn"] == "ann" and of_type(events, "effect_ended")


def test_a_duration_counts_from_a_turn_player_who_has_just_left_the_game():
    # a lasting card answering the turn player's move resolves after that player conceded: the
    # next turns are those of the seats after theirs (before, duration looked the turn player up
    # among the players still in and raised: a 500 for a legal concede, a clock stuck on it)
    state = {"players": ["ann", "bob", "cat", "dan"], "defeated": ["dan"], "turn": "dan"}
    assert [duration(state, p, 1) for p in ("ann", "bob", "cat")] == [1, 2, 3]
    assert duration(state, "bob", 2) == 2 + 3
    assert duration(state, "dan", 1) == 1  # out of the game: its board's effects leave with it
