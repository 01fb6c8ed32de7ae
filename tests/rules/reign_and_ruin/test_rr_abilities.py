"""Playing cards: fighters and each faction's ability, with targets, protection, and when an
ability cannot be used (seed §4 and §Card Abilities; rulings R&R 4 to R&R 9)."""

from __future__ import annotations

import pytest
from rr_helpers import apply, codes, event_types, fighter, first, move, play_state

from rules.errors import IllegalMove
from rules.reign_and_ruin import GAME
from rules.reign_and_ruin.scoring import army_breakdown


def moves_of(state, kind, card=None):
    return [
        m
        for m in GAME.legal_moves(state)
        if m["type"] == kind and (card is None or m["card"] == card)
    ]


# -- fighters ----------------------------------------------------------------------------------


def test_fighter_joins_own_army_and_turn_passes():
    state = play_state({"ann": ["hexen-4", "crou-1"], "bob": ["kurgoz-2"]})
    new, events = apply(state, move("ann", "fighter", card="hexen-4"))
    assert new["armies"]["ann"] == [fighter("hexen-4")]
    assert new["hands"]["ann"] == ["crou-1"]
    assert new["active_players"] == ["bob"]
    assert new["move_count"] == state["move_count"] + 1
    assert events == [
        {"type": "fighter_played", "player": "ann", "card": "hexen-4"},
        {"type": "turn_started", "player": "bob"},
    ]


def test_any_card_can_be_played_as_a_fighter():
    hand = ["alfenghast-1", "hexen-1", "kurgoz-1", "cognitz-1", "crou-1", "nomora-1"]
    state = play_state({"ann": hand, "bob": ["hexen-9"]})
    fighters = {m["card"] for m in moves_of(state, "fighter")}
    assert fighters == set(hand)


def test_a_card_not_in_your_hand_cannot_be_played_and_is_not_named():
    state = play_state({"ann": ["hexen-4", "crou-1"], "bob": ["kurgoz-2", "hexen-5"]})
    found = GAME.violations(state, move("ann", "fighter", card="kurgoz-2"))
    assert [v.code for v in found] == ["card_not_in_hand"]
    assert "kurgoz-2" not in found[0].message and "bob" not in found[0].message
    with pytest.raises(IllegalMove):
        GAME.apply(state, move("ann", "fighter", card="kurgoz-2"))


def test_ability_of_another_faction_is_refused():
    state = play_state({"ann": ["hexen-4", "crou-1"], "bob": ["kurgoz-2"]}, {"bob": ["nomora-5"]})
    found = GAME.violations(state, move("ann", "destroy", card="hexen-4", target="nomora-5"))
    assert [v.code for v in found] == ["wrong_faction"]
    assert found[0].rule == "reign-and-ruin#alfenghast"


# -- Alfenghast --------------------------------------------------------------------------------


def test_alfenghast_destroys_an_opposing_fighter_and_returns_its_tokens():
    state = play_state(
        {"ann": ["alfenghast-3", "crou-1"], "bob": ["kurgoz-2"]},
        {"bob": [fighter("nomora-5", kurgoz=2), "hexen-1"]},
        discard=["cognitz-9"],
    )
    new, events = apply(state, move("ann", "destroy", card="alfenghast-3", target="nomora-5"))
    assert new["armies"]["bob"] == [fighter("hexen-1")]
    assert new["discard_pile"][-3:] == ["cognitz-9", "alfenghast-3", "nomora-5"]
    assert new["hands"]["ann"] == ["crou-1"]
    assert event_types(events) == ["ability_used", "fighter_destroyed", "turn_started"]
    assert events[0] == {
        "type": "ability_used",
        "player": "ann",
        "card": "alfenghast-3",
        "ability": "destroy",
    }
    assert events[1] == {
        "type": "fighter_destroyed",
        "player": "ann",
        "owner": "bob",
        "card": "nomora-5",
        "kurgoz_returned": 2,
        "cognitz_returned": False,
    }


def test_alfenghast_may_destroy_your_own_fighter():
    state = play_state(
        {"ann": ["alfenghast-3", "crou-1"], "bob": ["kurgoz-2"]}, {"ann": ["hexen-7"]}
    )
    assert [m["target"] for m in moves_of(state, "destroy")] == ["hexen-7"]
    new, _ = apply(state, move("ann", "destroy", card="alfenghast-3", target="hexen-7"))
    assert new["armies"]["ann"] == []


def test_alfenghast_cannot_destroy_a_protected_fighter():
    state = play_state(
        {"ann": ["alfenghast-3", "crou-1"], "bob": ["kurgoz-2"]},
        {"bob": [fighter("nomora-5", cognitz=True), "hexen-1"]},
    )
    found = GAME.violations(state, move("ann", "destroy", card="alfenghast-3", target="nomora-5"))
    assert [(v.code, v.rule) for v in found] == [("target_protected", "reign-and-ruin#protection")]
    assert [m["target"] for m in moves_of(state, "destroy")] == ["hexen-1"]


def test_alfenghast_unusable_without_an_unprotected_fighter():
    state = play_state(
        {"ann": ["alfenghast-3", "crou-1"], "bob": ["kurgoz-2"]},
        {"bob": [fighter("nomora-5", cognitz=True)]},
    )
    assert moves_of(state, "destroy") == []
    assert codes(state, move("ann", "destroy", card="alfenghast-3", target="nomora-5")) == [
        "no_target"
    ]
    empty = play_state({"ann": ["alfenghast-3", "crou-1"], "bob": ["kurgoz-2"]})
    assert moves_of(empty, "destroy") == []
    assert codes(empty, move("ann", "destroy", card="alfenghast-3", target="nomora-5")) == [
        "no_target"
    ]


def test_alfenghast_target_must_be_a_fighter_on_the_table():
    state = play_state(
        {"ann": ["alfenghast-3", "crou-1"], "bob": ["kurgoz-2"]}, {"bob": ["hexen-1"]}
    )
    found = GAME.violations(state, move("ann", "destroy", card="alfenghast-3", target="kurgoz-2"))
    assert [v.code for v in found] == ["unknown_target"]
    # the message repeats the id the player gave, but does not say where that card really is
    assert "hand" not in found[0].message and "bob" not in found[0].message
    assert codes(state, move("ann", "destroy", card="alfenghast-3", target="no-such-card")) == [
        "unknown_target"
    ]


# -- Hexen -------------------------------------------------------------------------------------


def test_hexen_draws_the_top_card():
    state = play_state(
        {"ann": ["hexen-4", "crou-1"], "bob": ["kurgoz-2"]}, draw=["nomora-9", "alfenghast-9"]
    )
    new, events = apply(state, move("ann", "draw", card="hexen-4"))
    assert new["hands"]["ann"] == ["crou-1", "nomora-9"]
    assert new["draw_pile"][0] == "alfenghast-9"
    assert len(new["draw_pile"]) == len(state["draw_pile"]) - 1
    assert new["discard_pile"][-1] == "hexen-4"
    assert events[:2] == [
        {"type": "ability_used", "player": "ann", "card": "hexen-4", "ability": "draw"},
        {"type": "card_drawn", "player": "ann", "card": "nomora-9"},
    ]


def test_hexen_unusable_on_an_empty_draw_pile():
    state = play_state({"ann": ["hexen-4", "crou-1"], "bob": ["kurgoz-2"]}, leftover="discard")
    assert state["draw_pile"] == []
    assert moves_of(state, "draw") == []
    found = GAME.violations(state, move("ann", "draw", card="hexen-4"))
    assert [(v.code, v.rule) for v in found] == [("draw_pile_empty", "reign-and-ruin#hexen")]
    assert moves_of(state, "fighter", "hexen-4")  # it can still be played as a fighter


# -- Kurgoz ------------------------------------------------------------------------------------


def test_kurgoz_tokens_stack_on_any_fighter():
    state = play_state(
        {"ann": ["kurgoz-1", "kurgoz-2"], "bob": ["crou-1", "crou-2"]}, {"bob": ["hexen-5"]}
    )
    state, events = apply(state, move("ann", "double", card="kurgoz-1", target="hexen-5"))
    assert state["armies"]["bob"] == [fighter("hexen-5", kurgoz=1)]
    assert first(events, "token_placed") == {
        "type": "token_placed",
        "player": "ann",
        "owner": "bob",
        "card": "hexen-5",
        "token": "kurgoz",
        "kurgoz": 1,
    }
    assert state["discard_pile"][-1] == "kurgoz-1"
    state, _ = apply(state, move("bob", "fighter", card="crou-1"))
    state, events = apply(state, move("ann", "double", card="kurgoz-2", target="hexen-5"))
    assert state["armies"]["bob"][0] == fighter("hexen-5", kurgoz=2)
    assert first(events, "token_placed")["kurgoz"] == 2
    assert (
        army_breakdown(state["cards"], state["armies"]["bob"])["fighters"][0]["worth"] == 20
    )  # 5 × 2 × 2


def test_kurgoz_cannot_double_a_protected_fighter():
    state = play_state(
        {"ann": ["kurgoz-1", "crou-1"], "bob": ["crou-2"]},
        {"ann": [fighter("hexen-5", cognitz=True)]},
    )
    assert moves_of(state, "double") == []
    assert codes(state, move("ann", "double", card="kurgoz-1", target="hexen-5")) == ["no_target"]
    state = play_state(
        {"ann": ["kurgoz-1", "crou-1"], "bob": ["crou-2"]},
        {"ann": [fighter("hexen-5", cognitz=True), "hexen-6"]},
    )
    assert codes(state, move("ann", "double", card="kurgoz-1", target="hexen-5")) == [
        "target_protected"
    ]


def test_kurgoz_stops_at_the_token_limit():
    """Rules doc, Kurgoz: a fighter holds at most 30 tokens (service limit)."""
    state = play_state(
        {"ann": ["kurgoz-1", "crou-1"], "bob": ["crou-2"]},
        {"bob": [fighter("hexen-5", kurgoz=30), fighter("hexen-6", kurgoz=29)]},
    )
    assert [m["target"] for m in moves_of(state, "double")] == ["hexen-6"]
    assert codes(state, move("ann", "double", card="kurgoz-1", target="hexen-5")) == ["token_limit"]
    state, _ = apply(state, move("ann", "double", card="kurgoz-1", target="hexen-6"))
    assert state["armies"]["bob"][1]["kurgoz"] == 30
    full = play_state(
        {"ann": ["kurgoz-1", "crou-1"], "bob": ["crou-2"]}, {"bob": [fighter("hexen-5", kurgoz=30)]}
    )
    assert moves_of(full, "double") == []
    assert codes(full, move("ann", "double", card="kurgoz-1", target="hexen-5")) == ["no_target"]
    # Alfenghast and Cognitz still reach a fighter at the limit.
    assert codes(full, move("ann", "fighter", card="kurgoz-1")) == []


# -- Cognitz -----------------------------------------------------------------------------------


def test_cognitz_protects_a_fighter_keeping_its_kurgoz_tokens():
    state = play_state(
        {"ann": ["cognitz-1", "crou-1"], "bob": ["crou-2"]}, {"ann": [fighter("hexen-5", kurgoz=1)]}
    )
    new, events = apply(state, move("ann", "protect", card="cognitz-1", target="hexen-5"))
    assert new["armies"]["ann"] == [fighter("hexen-5", kurgoz=1, cognitz=True)]
    assert first(events, "token_placed") == {
        "type": "token_placed",
        "player": "ann",
        "owner": "ann",
        "card": "hexen-5",
        "token": "cognitz",
        "kurgoz": 1,
    }
    assert new["discard_pile"][-1] == "cognitz-1"


def test_cognitz_cannot_protect_a_protected_fighter_including_your_own():
    state = play_state(
        {"ann": ["cognitz-1", "crou-1"], "bob": ["crou-2"]},
        {"ann": [fighter("hexen-5", cognitz=True)]},
    )
    assert moves_of(state, "protect") == []
    assert codes(state, move("ann", "protect", card="cognitz-1", target="hexen-5")) == ["no_target"]


def test_protected_fighter_is_immune_to_every_ability():
    armies = {"ann": ["hexen-6"], "bob": [fighter("nomora-5", cognitz=True)]}
    hand = ["alfenghast-1", "kurgoz-1", "cognitz-1", "crou-1", "nomora-1"]
    state = play_state({"ann": hand, "bob": ["crou-2"]}, armies, discard=["hexen-9"])
    for kind, card in (
        ("destroy", "alfenghast-1"),
        ("double", "kurgoz-1"),
        ("protect", "cognitz-1"),
    ):
        assert codes(state, move("ann", kind, card=card, target="nomora-5")) == ["target_protected"]
    assert codes(
        state, move("ann", "swap", card="crou-1", opponent="bob", take="nomora-5", to="army")
    ) == ["nothing_to_take"]
    legal = GAME.legal_moves(state)
    assert not any(m.get("target") == "nomora-5" or m.get("take") == "nomora-5" for m in legal)


# -- Crou --------------------------------------------------------------------------------------


def test_crou_with_nothing_to_take_just_joins_the_opponent():
    state = play_state({"ann": ["crou-4", "hexen-1"], "bob": ["kurgoz-2"]})
    assert moves_of(state, "swap") == [move("ann", "swap", card="crou-4", opponent="bob")]
    new, events = apply(state, move("ann", "swap", card="crou-4", opponent="bob"))
    assert new["armies"]["bob"] == [fighter("crou-4")]
    assert new["armies"]["ann"] == []
    assert "crou-4" not in new["discard_pile"]
    assert events[:2] == [
        {"type": "ability_used", "player": "ann", "card": "crou-4", "ability": "swap"},
        {"type": "fighter_joined", "player": "ann", "army": "bob", "card": "crou-4"},
    ]
    assert "fighter_taken" not in event_types(events)


def test_crou_take_and_to_must_be_absent_when_nothing_can_be_taken():
    state = play_state(
        {"ann": ["crou-4", "hexen-1"], "bob": ["kurgoz-2"]},
        {"bob": [fighter("hexen-7", cognitz=True)]},
    )
    assert moves_of(state, "swap") == [move("ann", "swap", card="crou-4", opponent="bob")]
    found = GAME.violations(
        state, move("ann", "swap", card="crou-4", opponent="bob", take="hexen-7", to="hand")
    )
    assert [(v.code, v.rule) for v in found] == [("nothing_to_take", "reign-and-ruin#crou")]
    assert codes(state, move("ann", "swap", card="crou-4", opponent="bob", to="hand")) == [
        "nothing_to_take"
    ]


def test_crou_must_take_when_something_can_be_taken():
    state = play_state({"ann": ["crou-4", "hexen-1"], "bob": ["kurgoz-2"]}, {"bob": ["nomora-6"]})
    assert codes(state, move("ann", "swap", card="crou-4", opponent="bob")) == ["take_required"]
    assert codes(state, move("ann", "swap", card="crou-4", opponent="bob", take="nomora-6")) == [
        "missing_field"
    ]
    assert codes(
        state, move("ann", "swap", card="crou-4", opponent="bob", take="nomora-6", to="pocket")
    ) == ["invalid_destination"]


def test_crou_takes_a_fighter_into_your_army_without_its_tokens():
    state = play_state(
        {"ann": ["crou-4", "hexen-1"], "bob": ["kurgoz-2"]},
        {"bob": [fighter("nomora-6", kurgoz=2), "hexen-9"]},
    )
    new, events = apply(
        state, move("ann", "swap", card="crou-4", opponent="bob", take="nomora-6", to="army")
    )
    assert new["armies"]["bob"] == [fighter("hexen-9"), fighter("crou-4")]
    assert new["armies"]["ann"] == [fighter("nomora-6")]
    assert first(events, "fighter_taken") == {
        "type": "fighter_taken",
        "player": "ann",
        "owner": "bob",
        "card": "nomora-6",
        "to": "army",
        "kurgoz_returned": 2,
    }


def test_crou_takes_a_fighter_into_your_hand():
    state = play_state({"ann": ["crou-4", "hexen-1"], "bob": ["kurgoz-2"]}, {"bob": ["nomora-6"]})
    new, events = apply(
        state, move("ann", "swap", card="crou-4", opponent="bob", take="nomora-6", to="hand")
    )
    assert new["hands"]["ann"] == ["hexen-1", "nomora-6"]
    assert new["armies"]["bob"] == [fighter("crou-4")]
    assert first(events, "fighter_taken")["to"] == "hand"


def test_crou_cannot_take_a_protected_fighter_or_itself():
    state = play_state(
        {"ann": ["crou-4", "hexen-1"], "bob": ["kurgoz-2"]},
        {"bob": [fighter("nomora-6", cognitz=True), "hexen-9"]},
    )
    found = GAME.violations(
        state, move("ann", "swap", card="crou-4", opponent="bob", take="nomora-6", to="army")
    )
    assert [(v.code, v.rule) for v in found] == [("target_protected", "reign-and-ruin#protection")]
    found = GAME.violations(
        state, move("ann", "swap", card="crou-4", opponent="bob", take="crou-4", to="army")
    )
    assert [v.code for v in found] == ["take_not_in_army"]
    assert "Crou you are playing" in found[0].message
    assert {m["take"] for m in moves_of(state, "swap")} == {"hexen-9"}


def test_crou_joins_an_opponent_only():
    state = play_state(
        {"ann": ["crou-4", "hexen-1"], "bob": ["kurgoz-2"], "cat": ["hexen-2"]},
        {"ann": ["hexen-9"], "cat": ["nomora-1"]},
    )
    assert codes(
        state, move("ann", "swap", card="crou-4", opponent="ann", take="hexen-9", to="army")
    ) == ["own_army"]
    assert codes(state, move("ann", "swap", card="crou-4", opponent="zed")) == ["unknown_opponent"]
    assert moves_of(state, "swap") == [
        move("ann", "swap", card="crou-4", opponent="bob"),
        move("ann", "swap", card="crou-4", opponent="cat", take="nomora-1", to="army"),
        move("ann", "swap", card="crou-4", opponent="cat", take="nomora-1", to="hand"),
    ]


def test_crou_counts_for_the_army_it_joins():
    state = play_state({"ann": ["crou-9", "hexen-1"], "bob": ["kurgoz-2"]})
    new, _ = apply(state, move("ann", "swap", card="crou-9", opponent="bob"))
    assert GAME.score(new).scores == {"ann": 0, "bob": 9}


# -- Nomora ------------------------------------------------------------------------------------


def test_nomora_unusable_on_an_empty_discard_pile():
    state = play_state({"ann": ["nomora-4", "hexen-1"], "bob": ["kurgoz-2"]})
    assert state["discard_pile"] == []
    assert moves_of(state, "revive") == []
    found = GAME.violations(
        state, move("ann", "revive", card="nomora-4", target="hexen-2", to="hand")
    )
    assert [(v.code, v.rule) for v in found] == [("discard_pile_empty", "reign-and-ruin#nomora")]


def test_nomora_revives_into_any_army_without_tokens_then_is_discarded():
    state = play_state(
        {"ann": ["nomora-4", "hexen-1"], "bob": ["kurgoz-2"]}, discard=["kurgoz-9", "hexen-8"]
    )
    new, events = apply(
        state, move("ann", "revive", card="nomora-4", target="kurgoz-9", to="army", army="bob")
    )
    assert new["armies"]["bob"] == [fighter("kurgoz-9")]
    assert new["discard_pile"] == ["hexen-8", "nomora-4"]
    assert events[:2] == [
        {"type": "ability_used", "player": "ann", "card": "nomora-4", "ability": "revive"},
        {"type": "card_revived", "player": "ann", "card": "kurgoz-9", "to": "army", "army": "bob"},
    ]
    own, _ = apply(
        state, move("ann", "revive", card="nomora-4", target="hexen-8", to="army", army="ann")
    )
    assert own["armies"]["ann"] == [fighter("hexen-8")]


def test_nomora_revives_into_your_hand():
    state = play_state({"ann": ["nomora-4", "hexen-1"], "bob": ["kurgoz-2"]}, discard=["kurgoz-9"])
    new, events = apply(state, move("ann", "revive", card="nomora-4", target="kurgoz-9", to="hand"))
    assert new["hands"]["ann"] == ["hexen-1", "kurgoz-9"]
    assert new["discard_pile"] == ["nomora-4"]
    assert first(events, "card_revived") == {
        "type": "card_revived",
        "player": "ann",
        "card": "kurgoz-9",
        "to": "hand",
    }


def test_nomora_cannot_revive_itself():
    state = play_state({"ann": ["nomora-4", "hexen-1"], "bob": ["kurgoz-2"]}, discard=["kurgoz-9"])
    found = GAME.violations(
        state, move("ann", "revive", card="nomora-4", target="nomora-4", to="hand")
    )
    assert [v.code for v in found] == ["not_in_discard"]
    assert "itself" in found[0].message
    assert not any(m["target"] == "nomora-4" for m in moves_of(state, "revive"))


def test_nomora_legal_moves_cover_every_discard_card_and_destination():
    state = play_state(
        {"ann": ["nomora-4", "hexen-1"], "bob": ["kurgoz-2"]}, discard=["kurgoz-9", "nomora-1"]
    )
    expected = []
    for t in ("kurgoz-9", "nomora-1"):
        expected.append(move("ann", "revive", card="nomora-4", target=t, to="hand"))
        expected += [
            move("ann", "revive", card="nomora-4", target=t, to="army", army=a)
            for a in ("ann", "bob")
        ]
    assert moves_of(state, "revive") == expected


def test_nomora_destination_checks():
    state = play_state({"ann": ["nomora-4", "hexen-1"], "bob": ["kurgoz-2"]}, discard=["kurgoz-9"])
    assert codes(state, move("ann", "revive", card="nomora-4", target="kurgoz-9", to="army")) == [
        "missing_field"
    ]
    assert codes(
        state, move("ann", "revive", card="nomora-4", target="kurgoz-9", to="army", army="zed")
    ) == ["unknown_army"]
    assert codes(
        state, move("ann", "revive", card="nomora-4", target="kurgoz-9", to="hand", army="bob")
    ) == ["unexpected_field"]
    assert codes(state, move("ann", "revive", card="nomora-4", target="kurgoz-9", to="table")) == [
        "invalid_destination"
    ]
    assert codes(state, move("ann", "revive", card="nomora-4", target="hexen-1", to="hand")) == [
        "not_in_discard"
    ]


def test_revived_fighter_leaves_its_tokens_behind():
    """A destroyed fighter's tokens went back to the supply; revived, it enters with none."""
    state = play_state(
        {"ann": ["alfenghast-1", "nomora-4"], "bob": ["kurgoz-2", "hexen-3"]},
        {"bob": [fighter("hexen-9", kurgoz=3)]},
    )
    state, events = apply(state, move("ann", "destroy", card="alfenghast-1", target="hexen-9"))
    assert first(events, "fighter_destroyed")["kurgoz_returned"] == 3
    state, _ = apply(state, move("bob", "fighter", card="kurgoz-2"))
    state, _ = apply(
        state, move("ann", "revive", card="nomora-4", target="hexen-9", to="army", army="ann")
    )
    assert state["armies"]["ann"] == [fighter("hexen-9")]


# -- fields ------------------------------------------------------------------------------------


def test_fields_a_move_type_does_not_take_are_refused():
    state = play_state({"ann": ["hexen-4", "crou-1"], "bob": ["kurgoz-2"]}, {"bob": ["hexen-1"]})
    assert codes(state, move("ann", "fighter", card="hexen-4", target="hexen-1")) == [
        "unexpected_field"
    ]
    assert codes(state, move("ann", "draw", card="hexen-4", army="bob")) == ["unexpected_field"]


def test_odd_values_are_refused_without_errors():
    state = play_state(
        {"ann": ["crou-4", "nomora-1"], "bob": ["kurgoz-2"]},
        {"bob": ["hexen-1"]},
        discard=["hexen-2"],
    )
    odd = [None, 3, 2.5, True, [], ["crou-4"], {}, {"a": 1}, "", "CROU-4"]
    for value in odd:
        for m in (
            move("ann", "fighter", card=value),
            move("ann", "swap", card="crou-4", opponent=value),
            move("ann", "swap", card="crou-4", opponent="bob", take=value, to="army"),
            move("ann", "swap", card="crou-4", opponent="bob", take="hexen-1", to=value),
            move("ann", "revive", card="nomora-1", target=value, to="hand"),
            move("ann", "revive", card="nomora-1", target="hexen-2", to=value),
            move("ann", "revive", card="nomora-1", target="hexen-2", to="army", army=value),
            move(value, "fighter", card="crou-4"),
            move("ann", value, card="crou-4"),
        ):
            assert GAME.violations(state, m), m
            with pytest.raises(IllegalMove):
                GAME.apply(state, m)
