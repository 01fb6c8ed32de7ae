"""Integrity: corrupted states are refused with 422 reasons, never a crash (rules doc
§Integrity)."""

from __future__ import annotations

import copy
import random

import pytest
from rs_helpers import position

from rules.errors import InvalidSetup, InvalidState
from rules.playout import random_steps
from rules.reign_supreme import GAME
from rules.reign_supreme.content import default_roster, default_scenarios
from rules.reign_supreme.hexes import distance
from rules.reign_supreme.integrity import state_problems


def problems(state):
    return [v.code for v in state_problems(state)]


@pytest.fixture(scope="module")
def mid():
    s = GAME.setup(["ann", "bob", "cat"], 9, {"setup": "auto"})
    chooser = random.Random(2)
    for _ in range(40):
        legal = [m for m in GAME.legal_moves(s) if m["type"] != "concede"]
        s, _ = GAME.apply(s, chooser.choice(legal))
    return s


def corrupt(state, fn):
    s = copy.deepcopy(state)
    fn(s)
    return problems(s)


def test_a_sound_state_passes(mid):
    assert problems(mid) == []
    GAME.check_state(mid)


def test_a_state_waiting_for_an_answer_passes_and_a_wrong_responder_is_refused():
    """A declaration waiting for bob's answer is sound only with bob active."""
    s = position({"ann": ["knight"], "bob": ["infantry"]}, {"u1": [0, 0], "u2": [1, 0]})
    s, _ = GAME.apply(
        s, {"player": "ann", "type": "attack", "unit": "u1", "target": "u2", "mode": "melee"}
    )
    assert s["pending"] is not None and s["active_players"] == ["bob"]
    assert problems(s) == []
    wrong = copy.deepcopy(s)
    wrong["active_players"] = ["ann"]
    assert problems(wrong) == ["bad_pending"]
    asked = copy.deepcopy(s)
    asked["pending"]["stack"][0]["asked"] = ["bob"]  # bob has answered: nobody is left to ask
    assert problems(asked) == ["bad_pending"]


def _waiting_on_bob(spell: str, caster: str, target) -> dict:
    """ann's Wizard (u1), Battlemage (u2) and Priest (u3) beside bob's Warder (u4); ann has
    declared ``spell`` by ``caster`` at ``target`` and bob is asked to answer."""
    s = position(
        {"ann": ["wizard", "battlemage", "priest"], "bob": ["warder"]},
        {"u1": [0, 0], "u2": [1, 0], "u3": [0, 1], "u4": [2, -2]},
    )
    at = target if spell in ("blast", "cone", "arc") else list(s["units"][caster]["at"])
    if spell == "healing" and isinstance(target, str):
        at = list(s["units"][target]["at"])
    cast = {"player": "ann", "type": "cast", "unit": caster, "spell": spell, "target": target}
    entry = {"kind": "spell", "player": "ann", "asked": [], "unit": caster, "at": at, "move": cast}
    s["pending"] = {"stack": [entry]}
    s["active_players"] = s["to_move"] = ["bob"]
    return s


@pytest.mark.parametrize(
    "spell, caster, target",
    [
        ("teleport", "u1", None),
        ("teleport", "u1", "u4"),
        ("teleport", "u1", [40, 0]),  # off the board
        ("healing", "u3", [0, 0]),
        ("blast", "u2", "u4"),
        ("blast", "u2", None),
    ],
)
def test_a_declared_spell_needs_a_target_of_its_shape(spell, caster, target):
    """Teleport and the combat spells aim at a space of the board, Healing at a unit: a pending
    declaration with another target made bob's answer crash (a 500) or teleport a Wizard to
    ``["u", "4"]``."""
    assert problems(_waiting_on_bob(spell, caster, target)) == ["bad_pending"]


def test_a_played_card_needs_a_target_of_its_kind():
    """A Fireball on the stack aimed at nothing (or at a space) passed the check, and bob's
    answer crashed its resolution (a 500): a card with a target names a unit or a wall."""
    from test_rs_cards import at, card, give, play

    s = at(
        {"ann": ["infantry"], "bob": ["infantry", "warder"]},
        {"u1": [-3, 0], "u2": [1, 0], "u3": [5, 0]},
        armies={"ann": "resistance", "bob": "demon"},
    )
    s, _ = play(give(s, "ann", "fireball-1"), card("ann", "fireball-1", "u2"))
    assert problems(s) == []
    for bad in (None, [1, 0]):
        aimed = copy.deepcopy(s)
        for entry in aimed["pending"]["stack"]:
            if entry["kind"] == "card":
                entry["move"]["target"] = bad
        assert problems(aimed) == ["bad_pending"]


@pytest.mark.parametrize(
    "spell, caster, target",
    [("teleport", "u1", [-1, 0]), ("healing", "u3", "u1"), ("blast", "u2", [2, -1])],
)
def test_a_declared_spell_with_a_target_of_its_shape_passes(spell, caster, target):
    state = _waiting_on_bob(spell, caster, target)
    assert problems(state) == []
    GAME.apply(state, {"player": "bob", "type": "pass"})


@pytest.mark.parametrize(
    "fn,code",
    [
        (lambda s: s.update(game="chess"), "wrong_game"),
        (lambda s: s.update(rng="xyz"), "bad_rng"),
        (lambda s: s.update(seed=-1), "bad_seed"),
        (lambda s: s.update(players=["ann"]), "bad_players"),
        (lambda s: s["units"]["u1"].update(at=[99, 0]), "off_board"),
        (lambda s: s["units"]["u1"].update(pins=99), "bad_pins"),
        (lambda s: s["units"]["u1"].update(pins=-1), "bad_pins"),
        (lambda s: s["units"]["u1"].update(type="dragon"), "unknown_unit_type"),
        (lambda s: s["units"]["u1"].update(owner="zed"), "unknown_owner"),
        (lambda s: s["units"].update(x9=dict(s["units"]["u1"])), "bad_unit_id"),
        (lambda s: s["units"]["u2"].update(at=list(s["units"]["u1"]["at"])), "two_units_one_space"),
        (lambda s: s["boards"]["ann"].update(spell_pin=0), "bad_pin"),
        (
            lambda s: s["boards"]["ann"]["effects"].append(
                {"effect": "flaming_oil", "unit": "u1", "left": 2, "value": -3}
            ),
            "bad_effect",
        ),
        (lambda s: s["boards"]["ann"].update(deploys=-1), "bad_pin"),
        (
            lambda s: s["boards"]["ann"]["packing"].append(
                {"unit": "u1", "to": "packed", "notch": 1}
            ),
            "bad_packing_pin",
        ),
        (
            lambda s: s["boards"]["ann"]["spells"].append(
                {"unit": "u1", "spell": "cone", "left": 9}
            ),
            "bad_spell_pin",
        ),
        (lambda s: s["control"].update(mines=["zed", None, None]), "bad_control"),
        (lambda s: s["control"].update(mines=[None]), "bad_control"),
        (lambda s: s["hands"]["ann"].append(s["hands"]["bob"][0]), "card_in_two_places"),
        (lambda s: s["hands"]["ann"].append("joker-1"), "unknown_card"),
        (lambda s: s["decks"]["spell"].pop(), "missing_cards"),
        (lambda s: s.update(pending={"attack": 1}), "bad_pending"),
        (lambda s: s.update(round=0), "bad_round"),
        (lambda s: s.update(phase="finished"), "bad_phase"),
        (lambda s: s.update(active_players=["bob", "ann"]), "bad_turn"),
        (lambda s: s.update(defeated=["zed"]), "bad_defeated"),
        (lambda s: s["kingdoms"]["ann"].update(castle=None), "bad_board"),
        (lambda s: s["scenario"].update(round_limit=0), "bad_scenario"),
        (lambda s: s["armies"].update(ann="elves"), "unknown_army"),
        (lambda s: s["zones"].update(ann=["bob"]), "bad_zones"),
        (
            lambda s: s.update(outcome={"winners": [], "draw": True, "scores": {}, "reason": "x"}),
            "bad_outcome",
        ),
        (
            lambda s: [
                s["units"].pop(u) for u in [k for k, v in s["units"].items() if v["owner"] == "bob"]
            ],
            "no_units",
        ),
        (lambda s: s["units"]["u1"].update(army="elves"), "unknown_army"),
        (lambda s: s["units"]["u1"].update(attacks=1, mode=None), "bad_unit_turn"),
        (
            lambda s: s["units"]["u1"].update(attacks=3, mode="melee", attacked=True),
            "bad_unit_turn",
        ),
        (lambda s: s["units"]["u1"].update(steps=-1), "bad_unit_turn"),
        (lambda s: s["walls"][0].update(hp=21), "bad_walls"),
        (lambda s: s["walls"][0].update(hp=0), "bad_walls"),
        (lambda s: s["walls"][0].update(owner="zed"), "bad_walls"),
        (lambda s: s["walls"][0].update(kind="moat"), "bad_walls"),
        (lambda s: s["walls"][0].update(edge=[[0, 0], [5, 5]]), "bad_walls"),
        (lambda s: s["walls"].append(dict(s["walls"][0], id="w9")), "bad_walls"),
        (lambda s: s.update(wall_serial=-1), "bad_walls"),
        (
            lambda s: s["walls"].extend(
                {
                    "id": f"w{9 + i}",
                    "kind": "palisade",
                    "owner": "ann",
                    "hp": 4,
                    "edge": [[i - 4, 0], [i - 4, 1]],
                }
                for i in range(11)
            ),
            "bad_walls",
        ),
        (lambda s: s.update(engaged=[["u1", "u1"]]), "bad_engaged"),
        (lambda s: s.update(engaged=[["u1", "u99"]]), "bad_engaged"),
        (lambda s: s.update(pending={"stack": []}), "bad_pending"),
        (
            lambda s: s.update(
                pending={
                    "stack": [
                        {
                            "kind": "attack",
                            "player": "ann",
                            "asked": [],
                            "move": {
                                "player": "ann",
                                "type": "attack",
                                "unit": "u1",
                                "target": "u2",
                                "mode": "melee",
                            },
                        }
                    ]
                }
            ),
            "bad_pending",
        ),
        (lambda s: s.update(cards=[{"id": "x"}]), "bad_cards"),
        (
            lambda s: s["boards"]["ann"]["effects"].append(
                {"effect": "offence", "unit": "u1", "left": 1, "value": 999}
            ),
            "bad_effect",
        ),
    ],
)
def test_corruptions_are_named(mid, fn, code):
    found = corrupt(mid, fn)
    assert code in found, found


def _castle_wall(state):
    return next(w for w in state["walls"] if w["kind"] == "castle_wall")


def _inner_castle_edge(state):
    """Two adjacent spaces of one Castle (no Castle wall may stand between them)."""
    castle = [tuple(h) for h in next(iter(state["kingdoms"].values()))["castle"]]
    a = castle[0]
    b = next(h for h in castle if distance(a, h) == 1)
    return [list(a), list(b)]


@pytest.mark.parametrize(
    "change",
    [
        lambda s: _castle_wall(s).update(edge=[[40, 0], [40, 1]]),  # off the board
        lambda s: _castle_wall(s).update(edge=_inner_castle_edge(s)),  # inside a Castle
        lambda s: _castle_wall(s).update(edge=[[0, 0]]),
        lambda s: _castle_wall(s).update(edge=[[0, 0], [0, 0]]),
        lambda s: _castle_wall(s).update(id=f"w{s['wall_serial'] + 1}"),  # never dealt
        lambda s: _castle_wall(s).update(id="w01"),
        lambda s: _castle_wall(s).update(id=s["walls"][-1]["id"]),  # another wall's id
        lambda s: _castle_wall(s).update(hp=True),
        lambda s: _castle_wall(s).update(kind="palisade", hp=4, edge=[[0, 0], [0, 2]]),  # apart
        lambda s: s["walls"][1].update(edge=s["walls"][0]["edge"]),  # two walls on one edge
    ],
)
def test_each_wall_condition_is_checked(mid, change):
    assert "bad_walls" in corrupt(mid, change)


def _gate_out_of_bounds(k):
    k["gate"][1] = [2**62, 0]  # far beyond MAX_COORD


def _gate_inside_the_castle(k):
    """Both hexes of the Gate Castle spaces: an outer one and the Throne."""
    k["gate"] = [list(k["gate"][0]), list(k["throne"])]


def _gate_not_adjacent(k):
    """The outside hex two steps from the Castle space, straight on (a board space)."""
    (q, r), (q2, r2) = k["gate"]
    k["gate"][1] = [2 * q2 - q, 2 * r2 - r]


def _castle_hex_twice(k):
    k["castle"].append(list(k["castle"][0]))


_LAYOUT_CHANGES = [
    _gate_out_of_bounds,
    _gate_inside_the_castle,
    _gate_not_adjacent,
    _castle_hex_twice,
]


@pytest.mark.parametrize("change", _LAYOUT_CHANGES)
def test_a_kingdom_set_up_would_refuse_is_a_bad_board(mid, change):
    """A state's Kingdoms are checked as set-up checks a scenario's (content.check_layout): each
    Kingdom set-up refuses (bad_scenario, 422 invalid_setup) is refused in a state (bad_board,
    422 invalid_state); a state used to pass with these."""
    assert corrupt(mid, lambda s: change(s["kingdoms"]["ann"])) == ["bad_board"]
    s = copy.deepcopy(mid)
    change(s["kingdoms"]["ann"])
    with pytest.raises(InvalidState):
        GAME.check_state(s)
    scenario = default_scenarios()["standard"]
    seat = scenario["seating"]["3"][0]
    assert seat == mid["kingdoms"]["ann"]["id"]
    change(next(k for k in scenario["kingdoms"] if k["id"] == seat))
    with pytest.raises(InvalidSetup) as err:
        GAME.setup(["ann", "bob", "cat"], 9, {"scenario": scenario, "setup": "auto"})
    assert {v.code for v in err.value.violations} == {"bad_scenario"}
    assert problems(mid) == []  # the sound layout is still sound (remembered apart)


def _caster(state, player):
    """A living unit of ``player`` with a field spell, and that spell."""
    for uid, u in state["units"].items():
        spells = default_roster(u["army"])[u["type"]]["spells"]
        if u["owner"] == player and spells:
            return uid, spells[0]
    raise AssertionError("no caster")


@pytest.mark.parametrize("pins", [1, 2])
def test_a_spell_has_at_most_one_cooldown(mid, pins):
    """One cooldown of a unit's spell is sound; a second never happens (a spell is cast only
    when ready) and is refused as bad_spell_pin."""
    uid, spell = _caster(mid, "ann")

    def cool(s):
        board = s["boards"]["ann"]
        board["spells"] = [e for e in board["spells"] if (e["unit"], e["spell"]) != (uid, spell)]
        board["spells"].extend({"unit": uid, "spell": spell, "left": 2} for _ in range(pins))

    assert corrupt(mid, cool) == ([] if pins == 1 else ["bad_spell_pin"])


def test_a_card_set_found_sound_is_only_taken_for_an_equal_one(mid):
    """The card set's own check is remembered for sets found sound (by their content): a set
    that differs only by ``true`` for a ``1`` (Lightning's splash), or ``1.0``, is still checked,
    and refused."""
    assert problems(mid) == []  # the default set, found sound (and remembered)
    for odd in (True, 1.0):
        s = copy.deepcopy(mid)
        card = next(c for c in s["cards"] if c["id"] == "lightning")
        assert card["effect"]["splash"] == 1
        card["effect"]["splash"] = odd
        assert problems(s) == ["bad_cards"], odd
    assert problems(mid) == []


def test_a_card_set_found_wrong_is_found_wrong_again(mid):
    s = copy.deepcopy(mid)
    s["cards"][0]["range"] = -1
    assert problems(s) == ["bad_cards"]
    assert problems(s) == ["bad_cards"]


@pytest.mark.parametrize("uid", ["u\u00b2", "u\u0661", "u" + "9" * 5000, "u01", "u", "U1", "u1 "])
def test_unit_ids_must_be_u_and_ascii_digits(mid, uid):
    """ "u²" passes str.isdigit() but not int(): such a state used to pass integrity and crash a
    concede (a 500 over HTTP). Every odd id is refused as bad_unit_id, and the state is a 422."""
    s = copy.deepcopy(mid)
    s["units"] = {(uid if k == "u1" else k): v for k, v in s["units"].items()}
    assert "bad_unit_id" in problems(s)
    with pytest.raises(InvalidState):
        GAME.check_state(s)


def test_packed_state_must_fit_the_kind():
    s = position({"ann": ["trebuchet"], "bob": ["infantry"]})
    assert corrupt(s, lambda x: x["units"]["u1"].pop("packing")) == ["bad_packing"]
    assert corrupt(s, lambda x: x["units"]["u2"].update(packing="packed")) == ["bad_packing"]
    assert "bad_packing_pin" in corrupt(s, lambda x: x["units"]["u1"].update(packing="packing"))


def test_odd_values_never_crash():
    """Every field of a state replaced by odd values: integrity answers with named problems, never
    by falling back on ``malformed_state`` for a state the schema lets through (that fallback only
    guards against a crash), and a state it passes can be played, viewed and scored."""
    from schemas.reign_supreme import StateSchema

    s = position({"ann": ["knight"], "bob": ["infantry"]})
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node[:3]):
                walk(v, path + [i])

    walk(s, [])
    odd = [None, 0, -5, 10**20, "", "u1", [], {}, [1, 2], True, "ann"]
    shape_valid = passed = 0
    for path in paths[1:]:
        for value in odd:
            t = copy.deepcopy(s)
            node = t
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            if StateSchema().validate(t):
                continue  # a 400 before the rules see it
            shape_valid += 1
            found = problems(t)
            assert "malformed_state" not in found, (path, value)
            if not found:
                passed += 1
                GAME.legal_moves(t)
                GAME.score(t)
                GAME.view(t, "ann")
    assert shape_valid > 200 and passed > 50


def test_finished_games_pass():
    s = GAME.setup(["ann", "bob"], 5, {"scenario": "skirmish"})
    *_, step = random_steps(GAME, s, random.Random(5))  # the last step: the game is over
    GAME.check_state(step.after)
    with pytest.raises(InvalidState):
        GAME.check_state(dict(step.after, status="in_progress"))


@pytest.mark.parametrize("part", ["castle", "throne", "gate"])
def test_a_kingdom_without_its_castle_is_named_by_the_part_missing(mid, part):
    """With castles, each Kingdom's Castle, Throne and Gate are check_layout's to require (as
    set-up requires them), once: the problem names the part, not the whole Kingdom again."""
    s = copy.deepcopy(mid)
    s["kingdoms"]["ann"][part] = None
    found = state_problems(s)
    assert {v.code for v in found} == {"bad_board"}
    assert f"state.kingdoms.ann.{part}" in found[0].message
    assert not any("exactly when" in v.message or "uses no castles" in v.message for v in found)


def test_a_castle_in_a_scenario_without_castles_is_a_bad_board():
    s = GAME.setup(["ann", "bob"], 9, {"setup": "auto", "scenario": "skirmish"})
    assert problems(s) == []
    s["kingdoms"]["ann"]["throne"] = [0, 0]
    assert [(v.code, v.message) for v in state_problems(s)] == [
        (
            "bad_board",
            "ann's Kingdom has a castle, throne or gate, but the scenario uses no castles.",
        )
    ]
