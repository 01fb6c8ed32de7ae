"""Integrity: corrupted states are refused with 422 reasons, never a crash (rules doc
§Integrity)."""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest
from rs_helpers import position

from rules.errors import InvalidState
from rules.playout import random_steps
from rules.reign_supreme import GAME, integrity
from rules.reign_supreme.board import geometry
from rules.reign_supreme.cards import check_cards
from rules.reign_supreme.content import default_cards
from rules.reign_supreme.integrity import state_problems
from rules.reign_supreme.walls import edge_key


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


# -- the quick proofs (issue 28) ------------------------------------------------------------------
_PARTS = (
    (integrity._units_sound, integrity._unit_problems),
    (integrity._walls_sound, integrity._wall_problems),
    (integrity._cards_sound, integrity._card_problems),
)


def _played(players, seed, options, steps=150, every=1):
    """States of a random game (no concessions, so it lasts), every ``every``-th of its first
    ``steps``; each also as the service writes it (sorted keys), as a client sends it back."""
    state = GAME.setup(players, seed, options)
    found = []
    game = itertools.islice(random_steps(GAME, state, random.Random(seed), concede=0.0), steps)
    for i, step in enumerate(game):
        if i % every == 0:
            found.append(step.after)
            found.append(json.loads(json.dumps(step.after, sort_keys=True)))
    return found


def _custom_cards():
    cards = default_cards()
    cards[0]["copies"] = 1
    cards[-1]["copies"] = 3
    return cards


_GAMES = (
    (["ann", "bob"], 4, {}),  # manual set-up: the setup phase's rule on Kingdoms
    (["ann", "bob", "cat", "dan"], 5, {"setup": "auto"}),
    (["ann", "bob", "cat"], 6, {"scenario": "skirmish", "setup": "auto"}),  # no castles, no cards
    (["ann", "bob"], 7, {"setup": "auto", "cards": _custom_cards()}),
)


def test_the_default_card_set_is_sound():
    """The quick card proof takes the default set on sight: it must be one ``check_cards``
    passes."""
    assert check_cards(default_cards()) == []


@pytest.mark.parametrize("players, seed, options", _GAMES)
def test_the_quick_proofs_pass_sound_states(players, seed, options):
    """A sound state, as the rules play it or as the service writes it, takes every quick proof
    (else it would cost without saving anything)."""
    for state in _played(players, seed, options):
        assert [proof(state) for proof, _ in _PARTS] == [True, True, True]


_ODD = [None, 0, 1, 2, 3, -1, 4, 20, 21, 99, 100, True, False, 1.0, 2.5, 10**12, "", "zz"]
_ODD += ["u1", "w1", "w0", "ann", "bob", "zed", "melee", "spell", "packed", "packing", "gate"]
_ODD += ["palisade", "castle_wall", "resistance", "infantry", [], {}, [0, 0], [1, 0], [0, 0, 0]]
_ODD += [[[0, 0], [0, 1]], [[0, 0]], (0, 0), [True, 0], [0.0, 1.0], [[0, 0], [0, 1], [1, 0]]]


def _retyped(value):
    """``value`` as another type that ``==`` takes for it (``1`` as ``true`` or ``1.0``, a list as
    a tuple, a hex with a float), which the walks refuse by type."""
    if type(value) is bool:
        return int(value)
    if type(value) is int:
        return {0: False, 1: True}.get(value, float(value))
    if type(value) is list and value:
        return [_retyped(value[0]), *value[1:]] if type(value[0]) in (int, list) else tuple(value)
    if type(value) is dict and value:
        first = sorted(value)[0]
        return {**value, first: _retyped(value[first])}
    return value


_UNIT_FIELDS = ["owner", "army", "type", "pins", "steps", "bonus", "attacks", "mode"]
_UNIT_FIELDS += ["attacked", "at", "at", "packing", "moved"]  # where units stand: most of all


def _spoil(rng, state, record, keys=None):
    """One field of ``record`` (one of ``keys``, else any) given an odd value, a value from
    elsewhere in the state (sound there, maybe not here) or its own value retyped."""
    key = rng.choice(keys or sorted(record))
    units, walls = list(state["units"].values()), state["walls"]
    roll = rng.random()
    if roll < 0.25 and key in record:
        record[key] = _retyped(record[key])
    elif roll < 0.4 and units:
        record[key] = copy.deepcopy(rng.choice(list(rng.choice(units).values())))
    elif roll < 0.5 and walls:
        record[key] = copy.deepcopy(rng.choice(list(rng.choice(walls).values())))
    else:
        record[key] = copy.deepcopy(rng.choice(_ODD))


def _board_hex(rng, state):
    spaces = state["scenario"]["midfield"] + [
        h for k in state["kingdoms"].values() for h in k["hexes"]
    ]
    return list(rng.choice(spaces))


def _aim_at_units(rng, state):
    units = state["units"]
    uid = rng.choice(sorted(units))
    unit = units[uid]
    roll = rng.random()
    if roll < 0.5:
        _spoil(rng, state, unit, _UNIT_FIELDS)
    elif roll < 0.6:
        unit.pop(rng.choice(sorted(unit)))
    elif roll < 0.7:
        new = rng.choice(["u0", "x1", "u01", "u1000000", uid + " ", "u\u00b2", "u999"])
        units[new] = units.pop(uid)
    elif roll < 0.85:
        unit["at"] = _board_hex(rng, state)  # maybe taken, maybe outside the Kingdom
    elif roll < 0.95:
        units["u999"] = copy.deepcopy(unit)
    else:
        state["defeated"] = [unit["owner"]]


def _aim_at_walls(rng, state):
    walls = state["walls"]
    roll = rng.random()
    if roll < 0.1:
        state["wall_serial"] = rng.choice([-1, 0, 1, 35, 999_999, 10**6, True, 2.0, None])
        return
    wall = rng.choice(walls) if walls else None
    if wall is None or roll >= 0.8:
        _add_palisades(rng, state)
    elif roll < 0.5:
        _spoil(rng, state, wall)
    elif roll < 0.6:
        wall.pop(rng.choice(sorted(wall)))
    elif roll < 0.7:
        a, b = wall["edge"]
        wall["edge"] = rng.choice(
            [[b, a], [a, a], [a, [a[0] + 1, a[1]]], [a, _board_hex(rng, state)], [a + b[:1], b[1:]]]
        )
    elif roll < 0.8:
        serial = state["wall_serial"] + 1
        state["wall_serial"] = serial
        walls.append(dict(copy.deepcopy(wall), id=f"w{serial}"))
        if rng.random() < 0.5:  # an edge of its own: is it adjacent, on the board, a castle's?
            a = _board_hex(rng, state)
            walls[-1]["edge"] = [a, [a[0] + rng.choice([0, 1]), a[1] + rng.choice([-1, 0, 1])]]


def _add_palisades(rng, state):
    """Palisades (or a Gate, a Castle wall) of one owner on free edges of the board: too many?
    allowed there?"""
    walls = state["walls"]
    owner = rng.choice(state["players"])
    kind = rng.choice(["palisade", "palisade", "gate", "castle_wall"])
    taken = {edge_key(*(tuple(h) for h in w["edge"])) for w in walls}
    free = sorted(
        {edge_key(a, b) for a, near in geometry(state).adjacent.items() for b in near} - taken
    )
    for a, b in rng.sample(free, rng.choice([1, 5, 11])):
        serial = state["wall_serial"] + 1
        state["wall_serial"] = serial
        walls.append(
            {
                "id": f"w{serial}",
                "kind": kind,
                "owner": owner,
                "hp": 4,
                "edge": [list(a), list(b)],
            }
        )


def _aim_at_cards(rng, state):
    piles = [*state["decks"].values(), *state["discards"].values(), *state["hands"].values()]
    pile = rng.choice(piles)
    known = [c for p in piles for c in p] or ["fireball-1"]
    roll = rng.random()
    if roll < 0.2 and pile:
        pile.pop(rng.randrange(len(pile)))
    elif roll < 0.4:
        pile.append(rng.choice(known + ["fireball-3", "zz-1", 7, None]))
    elif roll < 0.55 and pile:
        rng.choice(piles).append(pile.pop())
    elif roll < 0.75 and state["cards"]:
        card = rng.choice(state["cards"])
        _spoil(rng, state, card if rng.random() < 0.6 else card["effect"])
    elif roll < 0.85:
        state[rng.choice(["decks", "discards"])] = rng.choice(
            [{"spell": []}, {"spell": [], "tactics": [], "x": []}, [], {"spell": [], "tactics": 7}]
        )
    elif roll < 0.95:
        state["defeated"] = [rng.choice(state["players"])]
    else:
        state["scenario"]["cards"] = not state["scenario"]["cards"]


def _mutate(value, rng, depth=0):
    """Anything anywhere: one value deep in the state replaced by an odd one."""
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        if rng.random() < 0.3 or depth > 5:
            value[key] = copy.deepcopy(rng.choice(_ODD))
        else:
            _mutate(value[key], rng, depth + 1)
    elif isinstance(value, list) and value:
        i = rng.randrange(len(value))
        if rng.random() < 0.4 or depth > 5:
            value[i] = copy.deepcopy(rng.choice(_ODD))
        else:
            _mutate(value[i], rng, depth + 1)


@pytest.fixture(scope="module")
def bases():
    return [s for players, seed, options in _GAMES for s in _played(players, seed, options, 120, 6)]


@pytest.mark.parametrize("seed", range(3))
def test_the_quick_proofs_never_pass_what_the_walks_refuse(bases, seed, monkeypatch):
    """Whatever a quick proof passes, its walk passes too, without failing to read the state (so
    no broken state gets through by a proof), and every state gets exactly the violations it got
    from the walks alone. Corruptions aimed at units, walls and cards (a field given an odd
    value or another's, a key dropped, an id renamed, a space taken twice, a wall or Palisades
    added, a card moved, doubled, dropped or changed) and random ones anywhere, on states from
    set-up to late play, written by the rules or by the service."""
    rng = random.Random(seed)
    passed = [0, 0, 0]
    refused = 0
    for _ in range(800):
        state = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.randint(1, 2)):
            aim = rng.choice([_aim_at_units, _aim_at_walls, _aim_at_cards, None])
            try:
                _mutate(state, rng) if aim is None else aim(rng, state)
            except (KeyError, TypeError, AttributeError, ValueError, IndexError):
                pass  # a state broken beyond aiming: it is checked all the same
        for i, (proof, walk) in enumerate(_PARTS):
            try:
                quick = proof(state)
            except Exception as exc:  # a proof must never raise: pytest names what it raised
                raise AssertionError(f"{proof.__name__} raised {exc!r}") from exc
            if quick:
                passed[i] += 1
                assert walk(state) == [], (proof.__name__, state)
        found = state_problems(state)
        with monkeypatch.context() as walks_only:
            for proof, _ in _PARTS:
                walks_only.setattr(integrity, proof.__name__, lambda state: False)
            assert state_problems(state) == found
        refused += bool(found)
    # Both ways exercised: each proof passed some corrupted states, and most were refused.
    assert min(passed) > 50 and refused > 400, (passed, refused)
