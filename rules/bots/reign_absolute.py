"""Reign Absolute for the bots: a determinizer and an evaluation.

Hidden from a player (rulings RA 12; ``rules/reign_absolute/views.py``): which enemy unit
stands on each enemy-held cell and the cards under it (their number is public), the order of
every unit deck (the viewer's own included, except the next unit during their placement), the
reinforcement deck's order, and a combat card another player has just drawn. The races'
compositions and the card catalogue are public, so:

- a player's unseen units are their race's units minus those the view places (their discard
  pile, and for the viewer their own cells); they are dealt at random onto that player's
  cells of the battlefield and into their unit deck (sizes public);
- the unseen cards are the catalogue minus the discard, the viewer's own reinforcements and a
  drawn card shown; a hidden drawn card is a random unseen combat card, the rest are dealt
  into the deck and under the enemy units (counts public).

The turn's ``draws_left`` is not in the view: a decision is only ever due with no draw left
(every draw is made before a choice is asked for), so it is 0.

The evaluation follows the victory rule (the last Liege standing; at the turn limit, units in
play, then strength in play): eradicated counts heavily, then units and strength in play,
compared with the strongest opponent.
"""

from __future__ import annotations

import random
from typing import Any

from rules.bots.sampling import Pool, fresh_chance, spread
from rules.engine_types import PlayerId, State, View
from rules.reign_absolute import GAME
from rules.views import SHARED_FIELDS

__all__ = ["BOT"]

_COPIED = (
    "game",
    "schema_version",
    *SHARED_FIELDS,
    "outcome",
    "turn_limit",
    "races",
    "units",
    "cards",
    "race_of",
    "first_player",
    "first_player_draws",
    "unit_discards",
    "discard",
    "eradicated",
    "placer",
    "doom",
    "bonus_owed",
)


class ReignAbsoluteBot:
    game = GAME
    playouts_per_second = 20
    trials_per_second = 1000
    rollout_depth = 8
    greedy_samples = 3
    rollout_greed = 1.0

    def determinize(self, view: View, rng: random.Random) -> State:
        me = view["viewer"]
        players = view["players"]
        state: State = {k: view[k] for k in _COPIED}
        cells = view["battlefield"]
        battlefield: dict[str, dict[str, Any]] = {}
        unit_decks: dict[str, list[str]] = {}
        for p in players:
            race = view["race_of"][p]
            units = view["races"][race]["units"] if race is not None else []
            placed = set(view["unit_discards"][p])
            if p == me:
                placed |= {c["unit"] for c in cells if c["owner"] == p}
            pool = Pool((u for u in units if u not in placed), rng)
            if p == me and view.get("next_unit"):
                nxt = view["next_unit"]
                pool.take_where(nxt.__eq__)
                unit_decks[p] = [nxt] + pool.take(view["unit_deck_counts"][p] - 1)
            elif p != me:
                for c in cells:
                    if c["owner"] == p:
                        battlefield[pool.take(1)[0]] = {
                            "x": c["x"],
                            "y": c["y"],
                            "owner": p,
                            "reinforcements": [],
                        }
                unit_decks[p] = pool.take(view["unit_deck_counts"][p])
            else:
                unit_decks[p] = pool.take(view["unit_deck_counts"][p])
        seen = set(view["discard"])
        for c in cells:
            if c["owner"] == me:
                seen.update(c["reinforcements"])
        turn = view["turn"]
        drawn = turn["drawn"] if turn is not None else None
        if drawn is not None and "card" in drawn:
            seen.add(drawn["card"])
        cards = Pool((c for c in view["cards"] if c not in seen), rng)
        state_turn = None
        if turn is not None:
            card = None
            if drawn is not None:
                card = drawn.get("card") or cards.take_where(
                    lambda c: view["cards"][c]["kind"] == drawn["kind"]
                )
            state_turn = {
                "player": turn["player"],
                "number": turn["number"],
                "stage": turn["stage"],
                "draws_left": 0,
                "drawn": card,
                "marching": turn["marching"],
                "extra_turns": turn["extra_turns"],
            }
        for c in cells:
            if c["owner"] == me:
                battlefield[c["unit"]] = {
                    "x": c["x"],
                    "y": c["y"],
                    "owner": me,
                    "reinforcements": list(c["reinforcements"]),
                }
        for entry in battlefield.values():
            if entry["owner"] != me:
                cell = next(c for c in cells if c["x"] == entry["x"] and c["y"] == entry["y"])
                # only combat cards lie under units: a turn card is never stored (integrity)
                entry["reinforcements"] = [
                    cards.take_where(lambda c: view["cards"][c]["kind"] == "combat")
                    for _ in range(cell["reinforcement_count"])
                ]
        state["battlefield"] = battlefield
        state["unit_decks"] = unit_decks
        state["deck"] = cards.take(view["deck_count"])
        state["turn"] = state_turn
        return fresh_chance(state, rng)

    def evaluate(self, state: State, player: PlayerId) -> float:
        standing = GAME.score(state).breakdown["players"]
        value = {
            p: (-60 if s["eradicated"] else 0) + 3 * s["units_in_play"] + s["strength_in_play"]
            for p, s in standing.items()
        }
        best_other = max(v for p, v in value.items() if p != player)
        return spread(value[player] - best_other, 20.0)


BOT = ReignAbsoluteBot()
