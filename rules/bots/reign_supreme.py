"""Reign Supreme for the bots: a determinizer and an evaluation.

Hidden from a player (ruling RS 9; ``rules/reign_supreme/views.py``): the order of the Spell
and Tactics decks and the other players' hands; the board, every unit and every Action Board
are public. The cards no view shows are the card set's copies minus the discards and the
viewer's hand: each deck gets as many of its own kind as its public count, and the rest are
dealt into the other hands (their sizes are public).

The evaluation is the victory measure (seed §Victory, ``game.score``): strength, the hit
points a player's living units have left, compared with the strongest opponent, plus a
little for kills, Mines and Ruins held.
"""

from __future__ import annotations

import random

from rules.bots.sampling import Pool, fresh_chance, spread
from rules.engine_types import PlayerId, State, View
from rules.reign_supreme import GAME
from rules.reign_supreme.state import card_catalog

__all__ = ["BOT"]

_VIEW_ONLY = ("viewer", "deck_counts", "hand_counts", "hand")


class ReignSupremeBot:
    game = GAME
    playouts_per_second = 7
    trials_per_second = 800
    rollout_depth = 4
    greedy_samples = 1
    rollout_greed = 1.0

    def determinize(self, view: View, rng: random.Random) -> State:
        me = view["viewer"]
        state: State = {k: v for k, v in view.items() if k not in _VIEW_ONLY}
        catalog = card_catalog(view["cards"]) if view["cards"] else {}
        seen = set(view.get("hand", ()))
        for pile in view["discards"].values():
            seen.update(pile)
        unseen = [c for c in catalog if c not in seen]
        decks = {}
        rest: list[str] = []
        for kind, count in view["deck_counts"].items():
            pool = Pool((c for c in unseen if catalog[c]["deck"] == kind), rng)
            decks[kind] = pool.take(count)
            rest += pool.take(pool.left())
        others = Pool(rest, rng)
        state["decks"] = decks
        state["hands"] = {
            p: list(view["hand"]) if p == me else others.take(n)
            for p, n in view["hand_counts"].items()
        }
        return fresh_chance(state, rng)

    def evaluate(self, state: State, player: PlayerId) -> float:
        strength = GAME.score(state).scores
        extra = {
            p: state["kills"][p]
            + 2 * (state["control"]["mines"].count(p) + state["control"]["ruins"].count(p))
            for p in strength
        }
        value = {p: strength[p] + extra[p] for p in strength}
        best_other = max(v for p, v in value.items() if p != player)
        return spread(value[player] - best_other, 30.0)


BOT = ReignSupremeBot()
