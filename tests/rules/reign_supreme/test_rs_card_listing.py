"""The card-play listing and the check of a ``play`` move agree (rules doc §Cards): in random
games with a card set of every primitive and target kind, ``cards.card_moves`` lists exactly the
``play`` moves that ``cards.check_play`` finds legal, in hand order and then target order (null,
units by id, walls). The listing decides a target's refusals in its own order and skips what a
card kind can never refuse (``cards._UNIT_NEEDS``), so this is its proof against the checked
path."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.playout import choose_move
from rules.reign_supreme import GAME
from rules.reign_supreme.board import geometry
from rules.reign_supreme.cards import card_moves, check_play
from rules.reign_supreme.content import UNIT_TYPES
from rules.reign_supreme.survey import Survey, id_key

NAMES = ["ann", "bob", "cat", "dan"]


def _card(
    cid: str, deck: str, target: str, rng: int | None, kind: str, amount: int, **extra: int
) -> dict[str, Any]:
    return {
        "id": cid,
        "deck": deck,
        "name": cid.title(),
        "text": "",
        "copies": 2,
        "target": target,
        "range": rng,
        "effect": {"kind": kind, "amount": amount, **extra},
    }


CARDS = [
    _card("bolt", "spell", "enemy_unit", 3, "damage", 2, splash=1),
    _card("smite", "spell", "any_unit", None, "damage", 1),
    _card("mend", "spell", "any_unit", None, "heal", 2),
    _card("rouse", "spell", "own_unit", 2, "haste", 1),
    _card("curse", "spell", "enemy_unit", None, "weaken", 1, turns=1),
    _card("bless", "spell", "any_unit", 4, "offence", 1, turns=0),
    _card("fix", "tactics", "any_unit", 2, "repair", 2),
    _card("oil", "tactics", "own_unit", None, "flaming_oil", 1),
    _card("march", "tactics", "own_unit", None, "forced_march", 0),
    _card("trap", "tactics", "own_unit", None, "ambush", 1),
    _card("rally", "tactics", "none", None, "reinforce", 1),
    _card("sap", "tactics", "enemy_siege_or_wall", None, "sabotage", 1),
    _card("shield", "tactics", "any_unit", 1, "defence", 1, turns=1),
    _card("sap_far", "spell", "enemy_siege_or_wall", 3, "sabotage", 2),
]
"""Every primitive, every target kind, with and without a range, in both decks."""


def checked_plays(state: dict[str, Any], player: str) -> list[dict[str, Any]]:
    """Every ``play`` move of ``player`` that :func:`check_play` finds legal: each card of the
    hand (hand order) at null, each unit by id (off the board too) and each wall."""
    units = sorted(state["units"], key=id_key)
    targets: list[Any] = [None, *units, *(w["id"] for w in state["walls"]), "nowhere"]
    found = []
    for cid in state["hands"][player]:
        for target in targets:
            m = {"player": player, "type": "play", "card": cid, "target": target}
            if check_play(state, m) == []:
                found.append(m)
    return found


@pytest.mark.parametrize("seed", range(6))
def test_listing_is_what_the_check_allows(seed: int) -> None:
    rng = random.Random(seed)
    players = NAMES[: 2 + seed % 3]
    options: dict[str, Any] = {"scenario": "standard", "round_limit": 4, "cards": CARDS}
    options["army_lists"] = {p: rng.sample(UNIT_TYPES, 10) for p in players}
    state = GAME.setup(players, seed, options)
    compared = listed = 0
    while state["status"] != "finished":
        if state["phase"] == "combat" and state["pending"] is None:
            survey = Survey(state, geometry(state))
            for p in state["players"]:
                if p in state["defeated"]:
                    continue
                plays = card_moves(state, p, survey)
                assert plays == checked_plays(state, p)
                compared += 1
                listed += len(plays)
        state, _ = GAME.apply(state, choose_move(GAME.legal_moves(state), rng, 0.002))
    assert compared > 50 and listed > 50
