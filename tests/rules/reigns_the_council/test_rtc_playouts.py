"""Random playouts: thousands of complete games under uniformly random legal moves, with the
invariants checked at every step: every card in exactly one place, tokens within -5..+5, each
player reigns at most once, only active players have moves, and every game ends (api-contract:
legal moves complete and exact; rulings RtC 2, 10)."""

from __future__ import annotations

import json
import random

import pytest

from api.jsonio import dumps
from rules.errors import IllegalMove
from rules.reigns_the_council import GAME
from rules.reigns_the_council.content import TRACK_MAX, TRACK_MIN

NAMES = ["ann", "bob", "cat", "dan"]
SMALL_DECK = (
    [{"back": ["church", "army"], "accept": {"church": 1, "army": -1}, "reject": {"army": 2}}] * 10
    + [{"back": ["people"], "accept": {"people": 2}, "reject": {"people": -1}}] * 10
    + [{"back": ["people", "wealth"], "accept": {"wealth": -2}, "reject": {"people": 1}}] * 12
)


def game_setups(count: int, offset: int = 0):
    for i in range(count):
        seed = offset + i * 7919
        n = 3 + i % 2
        options: dict = {}
        if i % 5 == 1:
            options["story_point"] = "vote"
        if i % 10 == 3:
            options["deck"] = SMALL_DECK  # 32 cards: the decks run out and are rebuilt often
        yield NAMES[:n], seed, options


def invariants(state: dict) -> None:
    """The cheap invariants, checked at every step (check_state checks them all, and more)."""
    places = [*state["decks"], state["discard"], state["pile"], *state["hands"].values()]
    count = sum(map(len, places))
    seen = set().union(*places)
    rnd = state["round"]
    if rnd is not None:
        table = rnd["table"].values()
        count += len(table)
        seen.update(table)
        if rnd["pending"] is not None:
            count += 1
            seen.add(rnd["pending"]["card"])
    cards = state["cards"]
    assert count == len(seen) == len(cards) and seen <= cards.keys(), (
        "every card in exactly one place"
    )
    assert all(TRACK_MIN <= v <= TRACK_MAX for v in state["tracks"].values())
    monarchs = [r["monarch"] for r in state["reigns"]]
    assert len(set(monarchs)) == len(monarchs), "each player reigns at most once"


def test_two_thousand_random_games_keep_every_invariant():
    lengths = []
    reasons = {"game_end": 0, "early_end": 0}
    for g, (players, seed, options) in enumerate(game_setups(2000)):
        state = GAME.setup(players, seed, options)
        GAME.check_state(state)
        chooser = random.Random(seed)
        full = g % 25 == 0  # one game in 25: check_state, JSON round trips, every player's moves
        steps = 0
        while state["status"] != "finished":
            active = state["active_players"]
            legal = GAME.legal_moves(state)
            assert legal and {m["player"] for m in legal} == set(active)
            m = chooser.choice(legal)
            if full:
                for p in players:
                    assert bool(GAME.legal_moves(state, p)) == (p in active)
                assert GAME.violations(state, m) == []
            after, events = GAME.apply(state, m)
            assert events and after["move_count"] == state["move_count"] + 1
            invariants(after)
            if full:
                if steps % 10 == 0:  # as a client would send it back: sorted keys, dict order lost
                    after = json.loads(dumps(after))
                GAME.check_state(after)
            state = after
            steps += 1
            assert steps < 4000, "every game ends"
        GAME.check_state(state)
        assert state["active_players"] == [] and GAME.legal_moves(state) == []
        assert events[-1]["type"] == "game_over"
        assert state["outcome"]["scores"] == GAME.score(state).scores
        reasons[state["outcome"]["reason"]] += 1
        lengths.append(steps)
    assert reasons["game_end"] > 1500 and reasons["early_end"] > 0
    assert max(lengths) < 4000


def mutations(state: dict, m: dict, rng: random.Random) -> list[dict]:
    """Moves near a legal one: other players, types, parameters, extra and missing fields."""
    ids = list(state["cards"])
    players = state["players"]
    out = [{**m, "player": p} for p in players + ["zed"] if p != m["player"]]
    out += [{**m, "type": t} for t in GAME.move_types if t != m["type"]]
    out.append({**m, "extra": 1})
    if "card" in m:
        out += [{**m, "card": c} for c in rng.sample(ids, 5)]
    if "cards" in m:
        out += [{**m, "cards": m["cards"] + [c]} for c in rng.sample(ids, 5)]
        out.append({**m, "cards": m["cards"] + m["cards"][:1]})
    if "deck" in m:
        out += [{**m, "deck": d} for d in (-1, 0, 1, 2, 3, True, "0")]
    if "accept" in m:
        out += [
            {**m, "accept": a} for a in ([], players, m["accept"] + ["zed"], m["accept"][:1] * 2)
        ]
    if "advisor" in m:
        out += [{**m, "advisor": a} for a in players + ["zed"]]
    if "monarch" in m:
        out += [{**m, "monarch": a} for a in players + ["zed"]]
    for key in ("approve", "end"):
        if key in m:
            out += [{**m, key: v} for v in (1, None, "yes")]
    for key in ("deck", "card", "cards", "accept", "advisor", "monarch", "approve", "end"):
        if key in m:
            out.append({k: v for k, v in m.items() if k != key})
    return out


def canonical(m: dict) -> str:
    if isinstance(m.get("cards"), list) and all(isinstance(c, str) for c in m["cards"]):
        m = {**m, "cards": sorted(m["cards"])}  # the order of an exchange's cards does not matter
    if isinstance(m.get("accept"), list) and all(isinstance(c, str) for c in m["accept"]):
        m = {**m, "accept": sorted(m["accept"])}  # nor that of a decision's advisors
    return dumps(m)


def test_listed_moves_all_apply_and_unlisted_moves_are_refused():
    rng = random.Random(5)
    refused = 0
    for players, seed, options in game_setups(20, offset=1):
        state = GAME.setup(players, seed, options)
        chooser = random.Random(seed)
        while state["status"] != "finished":
            legal = GAME.legal_moves(state)
            listed = {canonical(m) for m in legal}
            assert len(listed) == len(legal), "a move is listed twice"
            for m in rng.sample(legal, min(12, len(legal))):
                assert GAME.violations(state, m) == [], m
                GAME.apply(state, m)
            for m in rng.sample(legal, min(2, len(legal))):
                for near in mutations(state, m, rng):
                    found = GAME.violations(state, near)
                    if canonical(near) in listed:
                        assert found == [], (near, found)
                        continue
                    assert found, near
                    assert all(
                        v.rule.startswith("reigns-the-council#") and v.message for v in found
                    )
                    with pytest.raises(IllegalMove):
                        GAME.apply(state, near)
                    refused += 1
            state, _ = GAME.apply(state, chooser.choice(legal))
    assert refused > 2500
