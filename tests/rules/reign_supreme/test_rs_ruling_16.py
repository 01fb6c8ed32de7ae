"""Ruling RS 16 (`shared/docs/rulings.md`, Reign Supreme 16; rules doc §Packed units and
§Construction): "a packing pin that reaches the end of the Action Board at any other time (a
Construction unit moving it in a Combat phase) gives the unit back its attack or its movement
only after the next Cooldown phase, as the text says of every completed pin ("after the next
cooldown")."""

from __future__ import annotations

from rs_helpers import move, of_type, play, position

from rules.reign_supreme import GAME
from rules.reign_supreme.integrity import state_problems
from rules.reign_supreme.state import PACKING_NOTCHES, clone


def construct(unit: str, action: str, target: object) -> dict:
    return move("ann", "construct", unit=unit, action=action, target=target)


def _unpacking_next_turn(notch: int) -> dict:
    """ann's Combat phase: two Engineers (u1, u2) next to her Trebuchet (u3), which started
    unpacking in her previous turn; its Packing pin stands at ``notch``."""
    s = position(
        {"ann": ["engineer", "engineer", "trebuchet"], "bob": ["knight"]},
        {"u1": [0, 0], "u2": [2, 0], "u3": [1, 0], "u4": [-3, 3]},
    )
    s, _ = play(s, move("ann", "unpack", unit="u3"), move("ann", "end_turn"))
    s, _ = play(s, move("bob", "end_turn"))
    assert s["turn"] == "ann" and s["phase"] == "combat" and not s["units"]["u3"]["done"]
    s = clone(s)
    s["boards"]["ann"]["packing"][0]["notch"] = notch
    GAME.check_state(s)
    return s


def test_a_pin_construction_completes_in_a_combat_phase_waits_for_the_next_cooldown():
    s = _unpacking_next_turn(PACKING_NOTCHES - 1)
    s, events = play(s, construct("u1", "speed_packing", "u3"))
    assert events == [
        {
            "type": "constructed",
            "player": "ann",
            "unit": "u1",
            "action": "speed_packing",
            "target": "u3",
            "notch": PACKING_NOTCHES,
        }
    ]
    assert of_type(events, "packing_done") == []
    # The pin stays at the end of the board; the Trebuchet is still unpacking: no attack yet.
    assert s["boards"]["ann"]["packing"] == [{"unit": "u3", "to": "unpacked", "notch": 5}]
    assert s["units"]["u3"]["packing"] == "unpacking"
    GAME.check_state(s)
    moves = GAME.legal_moves(s, "ann")
    assert not [m for m in moves if m.get("unit") == "u3" and m["type"] in ("attack", "move")]
    # A completed pin cannot be moved further by the other Engineer.
    assert not [m for m in moves if m["type"] == "construct" and m["target"] == "u3"]
    codes = [v.code for v in GAME.violations(s, construct("u2", "speed_packing", "u3"))]
    assert codes == ["bad_construction_target"]
    # The next Cooldown phase (bob's turn begins) completes it.
    s, events = play(s, move("ann", "end_turn"))
    assert of_type(events, "packing_done") == [
        {"type": "packing_done", "player": "ann", "unit": "u3", "now": "unpacked"}
    ]
    assert s["units"]["u3"]["packing"] == "unpacked" and s["boards"]["ann"]["packing"] == []
    GAME.check_state(s)


def test_a_pin_short_of_the_end_moves_one_notch_as_before():
    s = _unpacking_next_turn(2)
    s, events = play(
        s, construct("u1", "speed_packing", "u3"), construct("u2", "speed_packing", "u3")
    )
    assert [e["notch"] for e in of_type(events, "constructed")] == [3, 4]
    assert s["units"]["u3"]["packing"] == "unpacking"


def test_a_pin_waiting_at_the_end_beyond_it_is_refused_by_integrity():
    s = _unpacking_next_turn(PACKING_NOTCHES - 1)
    s, _ = play(s, construct("u1", "speed_packing", "u3"))
    broken = clone(s)
    broken["boards"]["ann"]["packing"][0]["notch"] = PACKING_NOTCHES + 1
    assert "bad_packing_pin" in [v.code for v in state_problems(broken)]
