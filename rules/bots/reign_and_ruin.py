"""Reign & Ruin for the bots: a determinizer and an evaluation.

Hidden from a player (rulings R&R 12; ``rules/reign_and_ruin/views.py``): the draw pile's
order, other hands, and in the draft the other packets, picks and kept cards. Their sizes are
public, and so is the card catalogue, so the unseen cards are the catalogue minus every card
the view shows; they are dealt at random into the hidden places of the right sizes. A player
who has chosen this round holds two picks inside their packet (the packet loses them when the
round ends), so their picks are two of their sampled packet.

The evaluation is the army total (seed §5, ``game.score``) plus half the face value of the
cards still in hand or kept in the draft (cards to come), compared with the best opponent.
"""

from __future__ import annotations

import random
from typing import Any

from rules.bots.sampling import Pool, fresh_chance, spread
from rules.engine_types import PlayerId, State, View
from rules.reign_and_ruin import GAME
from rules.views import shared_fields

__all__ = ["BOT"]


class ReignAndRuinBot:
    game = GAME
    playouts_per_second = 25
    trials_per_second = 1000
    rollout_depth = 200
    greedy_samples = 3
    rollout_greed = 0.5

    def determinize(self, view: View, rng: random.Random) -> State:
        me = view["viewer"]
        players = view["players"]
        draft = view["draft"]
        seen = set(view["discard_pile"]) | set(view.get("hand", ()))
        seen |= {f["card"] for p in players for f in view["armies"][p]}
        if draft is not None:
            seen |= set(draft["packet"]) | set(draft["picks"]) | set(draft["kept"])
        pool = Pool((c for c in view["cards"] if c not in seen), rng)
        hands = {
            p: list(view["hand"]) if p == me else pool.take(view["hand_counts"][p]) for p in players
        }
        state_draft: dict[str, Any] | None = None
        if draft is not None:
            packets, picks, kept = {}, {}, {}
            for p in players:
                if p == me:
                    packets[p], picks[p], kept[p] = (
                        list(draft["packet"]),
                        list(draft["picks"]),
                        list(draft["kept"]),
                    )
                    continue
                packets[p] = pool.take(draft["packet_counts"][p])
                picks[p] = packets[p][:2] if draft["picked"][p] else []
                kept[p] = pool.take(draft["kept_counts"][p])
            state_draft = {
                "round": draft["round"],
                "packets": packets,
                "picks": picks,
                "kept": kept,
            }
        state: State = {
            "game": view["game"],
            "schema_version": view["schema_version"],
            **shared_fields(view),
            "outcome": view["outcome"],
            "cards": view["cards"],
            # null during the draft, as in the view: the rules draw it from the (fresh) generator
            # when the draft ends, so imagined games still start with any player
            "starting_player": view.get("starting_player"),
            "draw_pile": pool.take(view["draw_pile_count"]),
            "discard_pile": list(view["discard_pile"]),
            "draft": state_draft,
            "hands": hands,
            "armies": {p: [dict(f) for f in view["armies"][p]] for p in players},
            "final_round": view["final_round"],
        }
        return fresh_chance(state, rng)

    def evaluate(self, state: State, player: PlayerId) -> float:
        totals = dict(GAME.score(state).scores)
        cards = state["cards"]
        draft = state["draft"]
        for p in totals:
            coming = list(state["hands"][p])
            if draft is not None:
                coming += draft["kept"][p] + draft["picks"][p]
            totals[p] += sum(cards[c]["value"] for c in coming) / 2
        best_other = max(v for p, v in totals.items() if p != player)
        return spread(totals[player] - best_other, 20.0)


BOT = ReignAndRuinBot()
