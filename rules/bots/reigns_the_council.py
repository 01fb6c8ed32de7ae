"""Reigns: The Council for the bots: a determinizer and an evaluation.

Hidden from a player (rulings RtC 11; ``rules/reigns_the_council/views.py``): the fronts of
cards in other hands, in the decks, in the discard pile and face down on the table; the other
advisors' goals (until revealed after a death); and the secret choices of the others (the
cards they chose to exchange, the card they pitched, their votes). Public: every back in a
hand or on the table, each deck's size and top back, the pile and the revealed cards.

The view carries no card catalogue, so the bot plays with the default 72 proposals; a state
whose cards do not fit it (a custom deck) cannot be imagined and is refused (ValueError).
The unseen proposals are the catalogue minus every front the view shows (the pile, the
revealed cards, the viewer's hand and pitch); a card revealed this round and not in the pile
or pending was rejected and lies on the discard pile. Unseen cards go first to the places
whose back is known (hands, deck tops, the table), each a random unseen card with that back,
then at random to the places whose back is not (deck below the top, discard pile). Others'
goals are random goals other than the viewer's; their secret choices are random (a pitch is
one of their hand's cards, an exchange a random subset of it, a vote a coin flip).

The evaluation is the points scored so far (seed §Reign scoring, ``game.score``), plus what the
reign's end would bring on today's board: most of a point per card in the Monarch's pile, half
of what each advisor's goal would score after a death; compared with the best opponent.
"""
from __future__ import annotations

import random
from typing import Any

from rules.bots.sampling import Pool, fresh_chance, spread
from rules.engine_types import PlayerId, State, View
from rules.reigns_the_council import GAME
from rules.reigns_the_council.content import GOALS, default_catalog, goal_points

__all__ = ["BOT"]

_COPIED = ("game", "schema_version", "players", "status", "phase", "active_players", "move_count", "outcome",
           "story_point", "tracks", "draw_queue", "story")


class _Backs:
    """The unseen cards, grouped by back, dealt from with the bot's generator."""

    def __init__(self, ids: list[str], catalog: dict[str, dict[str, Any]], rng: random.Random) -> None:
        self._catalog = catalog
        self._pool = Pool(ids, rng)

    def with_back(self, back: list[str]) -> str:
        return self._pool.take_where(lambda c: self._catalog[c]["back"] == back)

    def any(self, count: int) -> list[str]:
        return self._pool.take(count)

    def left(self) -> int:
        return self._pool.left()


class ReignsTheCouncilBot:
    game = GAME
    playouts_per_second = 30
    rollout_depth = 60
    greedy_samples = 3
    rollout_greed = 0.0

    def determinize(self, view: View, rng: random.Random) -> State:
        me = view["viewer"]
        catalog = default_catalog()
        players = view["players"]
        rnd = view["round"]
        face_up = [c["id"] for c in view["discard_revealed"]]  # public for good (rulings RtC 11)
        shown = [c["id"] for c in view["pile"]] + [c["id"] for c in view.get("hand", ())] + face_up
        if rnd is not None:
            shown += [r["card"]["id"] for r in rnd["revealed"]]
            if rnd["pending"] is not None:
                shown.append(rnd["pending"]["card"]["id"])
            if rnd.get("mine") is not None:
                shown.append(rnd["mine"]["id"])
        if any(c not in catalog for c in shown):
            raise ValueError("the bots play Reigns: The Council with the default deck only")
        unseen = _Backs([c for c in catalog if c not in set(shown)], catalog, rng)
        state: State = {k: view[k] for k in _COPIED}
        state["cards"] = catalog
        state["pile"] = [c["id"] for c in view["pile"]]
        state["reigns"] = [{"number": r["number"], "monarch": r["monarch"], "end": r["end"], "goals": r["goals"],
                            "tracks": r["tracks"], "points": r["points"]} for r in view["reigns"]]
        hands: dict[str, list[str]] = {p: [] for p in players}
        for p, hand in view["hands"].items():
            hands[p] = ([c["id"] for c in view["hand"]] if p == me
                        else [unseen.with_back(back) for back in hand["backs"]])
        state["hands"] = hands
        tops = [unseen.with_back(d["top"]) if d["top"] is not None else None for d in view["decks"]]
        state["round"] = self._round(view, rnd, unseen, hands, rng)
        known_discard = list(face_up)
        if rnd is not None:
            pile, pending = set(state["pile"]), rnd["pending"]
            known_discard += [r["card"]["id"] for r in rnd["revealed"] if r["card"]["id"] not in pile
                              and r["card"]["id"] not in face_up
                              and (pending is None or pending["card"]["id"] != r["card"]["id"])]
        decks = []
        for top, d in zip(tops, view["decks"]):
            decks.append([] if top is None else [top] + unseen.any(d["count"] - 1))
        state["decks"] = decks
        state["discard"] = unseen.any(view["discard_count"] - len(known_discard)) + known_discard
        state["discard_revealed"] = face_up
        if unseen.left():
            raise ValueError("the bots play Reigns: The Council with the default deck only")
        state["goals"] = self._goals(view, rng)
        state["exchange"] = self._exchange(view, hands, rng)
        state["votes"] = None if view["votes"] is None else {
            p: (view["votes"].get("mine") if p == me else rng.random() < 0.5) if voted else None
            for p, voted in view["votes"]["voted"].items()}
        return fresh_chance(state, rng)

    @staticmethod
    def _round(view: View, rnd: dict[str, Any] | None, unseen: _Backs, hands: dict[str, list[str]],
               rng: random.Random) -> dict[str, Any] | None:
        if rnd is None:
            return None
        me = view["viewer"]
        mine = rnd.get("mine")
        table = {p: (mine["id"] if p == me and mine is not None else unseen.with_back(back))
                 for p, back in rnd["table"].items()}
        pitches = None
        if rnd["pitched"] is not None:
            pitches = {}
            for p, done in rnd["pitched"].items():
                if not done:
                    pitches[p] = None
                elif p == me:
                    pitches[p] = mine["id"]
                else:
                    pitches[p] = rng.choice(hands[p])
        return {"number": rnd["number"], "pitches": pitches, "table": table, "accepted": rnd["accepted"],
                "revealed": [{"advisor": r["advisor"], "card": r["card"]["id"], "decision": r["decision"],
                              "changed": r["changed"]} for r in rnd["revealed"]],
                "pending": None if rnd["pending"] is None else {
                    "advisor": rnd["pending"]["advisor"], "card": rnd["pending"]["card"]["id"],
                    "decision": rnd["pending"]["decision"]},
                "mind_changed": rnd["mind_changed"], "discarded": list(rnd["discarded"])}

    @staticmethod
    def _goals(view: View, rng: random.Random) -> dict[str, str]:
        record = view["reigns"][-1]
        if record["goals"] is not None:
            return dict(record["goals"])
        mine = view.get("goal")
        free = sorted(g for g in GOALS if mine is None or g != mine["id"])
        rng.shuffle(free)
        return {p: (mine["id"] if p == view["viewer"] and mine is not None else free.pop())
                for p in view["hands"]}

    @staticmethod
    def _exchange(view: View, hands: dict[str, list[str]], rng: random.Random) -> dict[str, Any] | None:
        exchange = view["exchange"]
        if exchange is None:
            return None
        chosen: dict[str, Any] = {}
        for p, done in exchange["chosen"].items():
            if not done:
                chosen[p] = None
            elif p == view["viewer"]:
                chosen[p] = list(exchange["mine"])
            else:
                chosen[p] = [c for c in hands[p] if rng.random() < 0.5]
        return chosen

    def evaluate(self, state: State, player: PlayerId) -> float:
        value: dict[str, float] = dict(GAME.score(state).scores)
        if state["status"] != "finished":
            tracks = state["tracks"]
            value[state["reigns"][-1]["monarch"]] += 0.8 * len(state["pile"])
            for p, goal in state["goals"].items():
                value[p] += 0.5 * sum(goal_points(GOALS[goal], tracks).values())
        best_other = max(v for p, v in value.items() if p != player)
        return spread(value[player] - best_other, 6.0)


BOT = ReignsTheCouncilBot()
