"""Reigns: The Council for the bots: a determinizer and an evaluation.

Hidden from a player (rulings RtC 11; ``rules/reigns_the_council/views.py``): the fronts of
cards in other hands, in the decks, in the discard pile and face down on the table; the other
advisors' goals (until revealed after a death); and the secret choices of the others (the
cards they chose to exchange, the card they pitched, their votes). Public: every back in a
hand or on the table, each deck's size and top back, the pile and the revealed cards.

The view carries no card catalogue, so the bot plays with the default 72 proposals; a game of
any other deck is refused (``refuses``, read on the true state wherever a bot sits, suggests or a
fork draws: a custom deck of 72 cards, or of the default ids, looks default in a view until its
fronts are seen), and a view whose cards do not fit the catalogue cannot be imagined (ValueError).
The unseen proposals are the catalogue minus every front the view shows (the pile, the
revealed cards, the viewer's hand and pitch); a card revealed this round and not in the pile
or pending was rejected and lies on the discard pile. Unseen cards go first to the places
whose back is known (hands, deck tops, the table), each a random unseen card with that back,
then at random to the places whose back is not (deck below the top, discard pile). Others'
goals are random goals other than the viewer's; their secret choices are random (a pitch is
one of their hand's cards, an exchange a random subset of it, a vote a coin flip).

The evaluation (``_outlook``) is the points scored so far plus what the reign is likely to
bring: this round's unresolved proposals move the tracks by their expected change, the chance of
a death grows as a token nears an end space, the Monarch counts the pile and part of the rest
of a full pile, an advisor their goal times the chance of a death and part of their best card in
hand; compared with the best opponent. The rules doc's "Bots" section states it in full.

The expert searches the 3 best moves one move ahead (``expert_width``), and its rollouts (random
moves but the Monarch's choices, ``rollout_greed_at``) stop at the end of the current round
(``rollout_stop``: the next round's first pitch, or the end of the reign), where the evaluation
scores them: short rollouts let the same time buy ten times as many playouts. It imagines the
others as players with aims (``imagine``): each proposal of another advisor, pitched or on the
table, is drawn with a weight that grows with its worth to that advisor's imagined goal, as an
advisor pitches for their goal, and a goal pays only when the Monarch dies. A Monarch who drew
them as random cards of their backs would not see that accepting them pushes the realm towards
an end space.
"""

from __future__ import annotations

import math
import random
from collections.abc import MutableMapping, MutableSequence
from functools import lru_cache
from typing import Any

from rules.bots.sampling import Pool, fresh_chance, spread
from rules.engine_types import PlayerId, State, View
from rules.reigns_the_council import GAME
from rules.reigns_the_council.content import GOALS, TRACK_MAX, TRACK_MIN, default_catalog
from rules.reigns_the_council.ending import totals
from rules.reigns_the_council.rounds import ABDICATION_PILE
from rules.views import SHARED_FIELDS

__all__ = ["BOT"]

_COPIED = (
    "game",
    "schema_version",
    *SHARED_FIELDS,
    "outcome",
    "story_point",
    "tracks",
    "draw_queue",
    "story",
)


_ACCEPTED = 2 / 3
"""The chance an undecided proposal is accepted: a Monarch choosing among the non-empty subsets of
two proposals at random accepts each in two cases of three."""
_PILE_HOPE = 0.5
"""The share of the cards a living Monarch still needs for abdication that the evaluation counts."""
_HAND_HOPE = 0.2
"""The share of the best card in hand (for its holder's goal) that the evaluation counts."""
_DEATH_FLOOR = 0.4
"""The least weight of a goal: most reigns end in a death, even from a calm realm."""
_REIGN_OVER = ("story_vote", "end_vote", "succession", "finished")
_MONARCHS_CHOICE = ("decide", "mind")
"""The phases where the Monarch alone chooses: the rollouts play them greedily."""
_PITCH_SHARPNESS = 2.0
"""How firmly the expert expects an advisor to pitch for their goal: a card is imagined as the
pitch with a weight of ``exp(_PITCH_SHARPNESS * gain)``, its gain for the advisor's goal."""

_Slot = tuple[MutableSequence[str] | MutableMapping[str, str], Any]
"""A place a card lies in an imagined state: a list and an index, or a mapping and a key."""


class _Backs:
    """The unseen cards, grouped by back, dealt from with the bot's generator."""

    def __init__(
        self, ids: list[str], catalog: dict[str, dict[str, Any]], rng: random.Random
    ) -> None:
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
    playouts_per_second = 110
    trials_per_second = 400
    rollout_depth = 60
    greedy_samples = 3
    rollout_greed = 0.0
    expert_width = 3

    def refuses(self, state: State) -> str | None:
        """Why the bots cannot play ``state``: they know only the default deck (module doc),
        and a custom deck's cards would be imagined as the default cards of their ids. Read on
        the true state, since a view shows no front until it is seen: a deck of 72 cards (the
        default count) or of the default ids with other contents looks default at version 0."""
        if state["cards"] == default_catalog():
            return None
        return "the bots play Reigns: The Council with the default deck only"

    def rollout_greed_at(self, state: State) -> float:
        """In a rollout the Monarch's choices (which proposals to accept, whether to change
        their mind) are their greedy move; every other move is random (``rollout_greed``).

        Why: a random Monarch accepts each proposal two times in three, so a pitch that serves
        its advisor at the Monarch's cost looked better to the search than to a real Monarch,
        who weighs it (``bench/bot_bias.py``: the search's switches of pitch gained 0.065 on
        random rollouts, 0.045 on rollouts where everyone plays greedy, over 12 switches; the
        figures and their spread are in ``docs/bots.md``). The
        Monarch chooses among a few moves, so this costs a playout about a third more (4.6 ms
        against 2.8 to 3.5, one game at load 9); greedy rollouts for every move cost 38 ms, too
        much for a search within a second.
        """
        return 1.0 if state["phase"] in _MONARCHS_CHOICE else 0.0

    def rollout_stop(self, start: State, state: State) -> bool:
        """A rollout ends with the round it began in (the reign setup counting as one): at the
        next round's first pitch, or as soon as the reign is over."""
        return state["phase"] in _REIGN_OVER or (
            state["phase"] == "pitch" and _round(state) != _round(start)
        )

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
        state["reigns"] = [
            {
                "number": r["number"],
                "monarch": r["monarch"],
                "end": r["end"],
                "goals": r["goals"],
                "tracks": r["tracks"],
                "points": r["points"],
            }
            for r in view["reigns"]
        ]
        hands: dict[str, list[str]] = {p: [] for p in players}
        for p, hand in view["hands"].items():
            hands[p] = (
                [c["id"] for c in view["hand"]]
                if p == me
                else [unseen.with_back(back) for back in hand["backs"]]
            )
        state["hands"] = hands
        tops = [unseen.with_back(d["top"]) if d["top"] is not None else None for d in view["decks"]]
        state["round"] = self._round(view, rnd, unseen, hands, rng)
        known_discard = list(face_up)
        if rnd is not None:
            pile, pending = set(state["pile"]), rnd["pending"]
            known_discard += [
                r["card"]["id"]
                for r in rnd["revealed"]
                if r["card"]["id"] not in pile
                and r["card"]["id"] not in face_up
                and (pending is None or pending["card"]["id"] != r["card"]["id"])
            ]
        decks = []
        for top, d in zip(tops, view["decks"], strict=True):
            decks.append([] if top is None else [top] + unseen.any(d["count"] - 1))
        state["decks"] = decks
        state["discard"] = unseen.any(view["discard_count"] - len(known_discard)) + known_discard
        state["discard_revealed"] = face_up
        if unseen.left():
            raise ValueError("the bots play Reigns: The Council with the default deck only")
        state["goals"] = self._goals(view, rng)
        state["exchange"] = self._exchange(view, hands, rng)
        state["votes"] = (
            None
            if view["votes"] is None
            else {
                p: (view["votes"].get("mine") if p == me else rng.random() < 0.5) if voted else None
                for p, voted in view["votes"]["voted"].items()
            }
        )
        return fresh_chance(state, rng)

    def imagine(self, view: View, rng: random.Random) -> State:
        """The expert's determinization: :meth:`determinize`, then the others' proposals drawn as
        advisors pitching for their goals would choose them (:func:`_pitch_for_goals`).

        An advisor scores their goal only if the Monarch dies, so advisors pitch cards that push
        their goal's pillars outwards; a Monarch who imagined the face-down proposals as random
        cards of their backs would accept what kills them. Only the view and ``rng`` are used:
        the backs and the tracks are public, the goals are the imagined ones.
        """
        state = self.determinize(view, rng)
        _pitch_for_goals(state, view["viewer"], rng)
        return state

    @staticmethod
    def _round(
        view: View,
        rnd: dict[str, Any] | None,
        unseen: _Backs,
        hands: dict[str, list[str]],
        rng: random.Random,
    ) -> dict[str, Any] | None:
        if rnd is None:
            return None
        me = view["viewer"]
        mine = rnd.get("mine")
        table = {
            p: (mine["id"] if p == me and mine is not None else unseen.with_back(back))
            for p, back in rnd["table"].items()
        }
        pitches: dict[str, str | None] | None = None
        if rnd["pitched"] is not None:
            pitches = {}
            for p, done in rnd["pitched"].items():
                if not done:
                    pitches[p] = None
                elif p == me:
                    assert mine is not None  # a viewer who has pitched sees their own card
                    pitches[p] = mine["id"]
                else:
                    pitches[p] = rng.choice(hands[p])
        return {
            "number": rnd["number"],
            "pitches": pitches,
            "table": table,
            "accepted": rnd["accepted"],
            "revealed": [
                {
                    "advisor": r["advisor"],
                    "card": r["card"]["id"],
                    "decision": r["decision"],
                    "changed": r["changed"],
                }
                for r in rnd["revealed"]
            ],
            "pending": None
            if rnd["pending"] is None
            else {
                "advisor": rnd["pending"]["advisor"],
                "card": rnd["pending"]["card"]["id"],
                "decision": rnd["pending"]["decision"],
            },
            "mind_changed": rnd["mind_changed"],
            "discarded": list(rnd["discarded"]),
        }

    @staticmethod
    def _goals(view: View, rng: random.Random) -> dict[str, str]:
        record = view["reigns"][-1]
        if record["goals"] is not None:
            return dict(record["goals"])
        mine = view.get("goal")
        free = sorted(g for g in GOALS if mine is None or g != mine["id"])
        rng.shuffle(free)
        return {
            p: (mine["id"] if p == view["viewer"] and mine is not None else free.pop())
            for p in view["hands"]
        }

    @staticmethod
    def _exchange(
        view: View, hands: dict[str, list[str]], rng: random.Random
    ) -> dict[str, Any] | None:
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
        value = _outlook(state)
        best_other = max(v for p, v in value.items() if p != player)
        ahead = spread(value[player] - best_other, 6.0)
        votes = state.get("votes")
        if state["phase"] != "end_vote" or not votes or votes.get(player) is not True:
            return ahead
        # An early end needs every vote (rulings RtC 10); the others' votes are unknown to the
        # viewer, so each counts as a coin flip whatever the imagined state says.
        ends = 0.5 ** (len(votes) - 1)
        return ends * _result_now(value, player) + (1 - ends) * ahead


def _pitch_for_goals(state: State, viewer: PlayerId, rng: random.Random) -> None:
    """Redraw, in place, every proposal of another advisor, each card weighted by what it is
    worth to that advisor's goal (``_card_gain`` on today's tracks, ``_PITCH_SHARPNESS``).

    A pitch not yet on the table is one of its advisor's cards. A face-down proposal on the table
    keeps its public back: it is swapped with a card of the same back from a place the viewer
    cannot see into (another hand, a deck, the face-down discard pile, another proposal), so the
    state still gives the viewer the same view.
    """
    rnd = state["round"]
    if rnd is None:
        return
    cards, tracks, goals, hands = state["cards"], state["tracks"], state["goals"], state["hands"]

    def weight(player: PlayerId, card: str) -> float:
        return math.exp(_PITCH_SHARPNESS * _card_gain(GOALS[goals[player]], tracks, cards[card]))

    pitches = rnd["pitches"] or {}
    for p, card in pitches.items():
        if card is not None and p != viewer:
            hand = hands[p]
            pitches[p] = rng.choices(hand, weights=[weight(p, c) for c in hand])[0]
    table = rnd["table"]
    if not table:
        return
    hidden = _hidden_slots(state, viewer)
    for p in [p for p in table if p != viewer]:
        back = cards[table[p]]["back"]
        others = [(table, q) for q in table if q not in (p, viewer)]
        slots = [(table, p)] + [
            (where, key) for where, key in hidden + others if cards[where[key]]["back"] == back
        ]
        where, key = rng.choices(slots, weights=[weight(p, where[key]) for where, key in slots])[0]
        table[p], where[key] = where[key], table[p]


def _hidden_slots(state: State, viewer: PlayerId) -> list[_Slot]:
    """The places off the table whose card the viewer cannot see: the others' hands, the decks
    and the face-down part of the discard pile."""
    face_up = set(state["discard_revealed"])
    slots: list[_Slot] = []
    for p, hand in state["hands"].items():
        if p != viewer:
            slots += [(hand, i) for i in range(len(hand))]
    for deck in state["decks"]:
        slots += [(deck, i) for i in range(len(deck))]
    discard = state["discard"]
    slots += [(discard, i) for i, c in enumerate(discard) if c not in face_up]
    return slots


def _round(state: State) -> int | None:
    return None if state["round"] is None else state["round"]["number"]


def _result_now(value: dict[PlayerId, float], player: PlayerId) -> float:
    """The result for ``player`` if the game ended on these points: a win 1, shared 1/k, else 0."""
    best = max(value.values())
    winners = [p for p, v in value.items() if v == best]
    return 1.0 / len(winners) if player in winners else 0.0


def _outlook(state: State) -> dict[PlayerId, float]:
    """Points scored so far (seed §Reign scoring) plus what the reign is likely to bring.

    The proposals still to resolve this round move the tracks by their expected change (an
    undecided one is accepted with probability ``_ACCEPTED``); a Monarch whose tokens end
    nearer the end spaces is likelier to die. The Monarch counts the pile, the expected pile
    cards to come and, while alive, part of the rest of a full pile (12 cards: abdication);
    an advisor counts their goal on the projected tracks times the chance of a death (the goals
    score only then), plus part of the best card still in hand for their goal.
    """
    value: dict[PlayerId, float] = {p: float(v) for p, v in totals(state).items()}
    if state["phase"] in _REIGN_OVER:
        return value
    cards, tracks, goals = state["cards"], dict(state["tracks"]), state["goals"]
    king = state["reigns"][-1]["monarch"]
    pile = float(len(state["pile"]))
    coming = _unresolved(state)
    expected = {p: 0.0 for p in tracks}
    for owner, card, accepted, scored in coming:
        info = cards[card]
        for pillar, change in info["accept"].items():
            expected[pillar] += accepted * change
        for pillar, change in info["reject"].items():
            expected[pillar] += (1 - accepted) * change
        pile += accepted
        if not scored:
            value[owner] += accepted
    projected = {p: max(TRACK_MIN, min(TRACK_MAX, tracks[p] + expected[p])) for p in tracks}
    death = _death_chance(projected)
    value[king] += pile + (1 - death) * _PILE_HOPE * max(0.0, ABDICATION_PILE - pile)
    today = tuple(tracks.items())
    default = cards is default_catalog()  # the bot's own states always are (``determinize``)
    for p, goal_id in goals.items():
        goal = GOALS[goal_id]
        value[p] += (_DEATH_FLOOR + (1 - _DEATH_FLOOR) * death) * _goal_value(goal, projected)
        leaving = _leaving(state, p)
        gains = [
            _default_gain(goal_id, today, c) if default else _card_gain(goal, tracks, cards[c])
            for c in state["hands"][p]
            if c not in leaving
        ]
        if gains:
            value[p] += _HAND_HOPE * max(0.0, max(gains))
    return value


def _unresolved(state: State) -> list[tuple[PlayerId, str, float, bool]]:
    """This round's proposals not yet resolved: (advisor, card, chance it is accepted, whether
    its acceptance point is already decided). A pitch not yet made is not counted."""
    rnd = state["round"]
    if rnd is None:
        return []
    found = []
    for p, card in (rnd["pitches"] or {}).items():
        if card is not None:
            found.append((p, card, _ACCEPTED, False))
    accepted = rnd["accepted"]
    for p, card in rnd["table"].items():
        if accepted is None:
            found.append((p, card, _ACCEPTED, False))
        else:
            found.append((p, card, 1.0 if p in accepted else 0.0, True))
    pending = rnd["pending"]
    if pending is not None:
        found.append(
            (
                pending["advisor"],
                pending["card"],
                1.0 if pending["decision"] == "accepted" else 0.0,
                True,
            )
        )
    return found


def _leaving(state: State, player: PlayerId) -> set[str]:
    """Cards still in ``player``'s hand that are on their way out: the pitch (it stays in the
    hand, marked, until all have pitched) and the cards chosen for the exchange."""
    leaving = set()
    rnd = state["round"]
    if rnd is not None and rnd["pitches"] and rnd["pitches"].get(player):
        leaving.add(rnd["pitches"][player])
    if state["exchange"] and state["exchange"].get(player):
        leaving.update(state["exchange"][player])
    return leaving


def _death_chance(tracks: dict[str, float]) -> float:
    """How likely the Monarch dies this reign, guessed from the token nearest an end space."""
    nearest = max(abs(v) for v in tracks.values())
    return 1.0 if nearest >= TRACK_MAX else (nearest / TRACK_MAX) ** 2


def _goal_value(goal: dict[str, int], tracks: dict[str, float]) -> float:
    """``goal_points`` on tracks that may hold expected (fractional) positions."""
    return sum(max(0.0, side * tracks[pillar]) for pillar, side in goal.items())


@lru_cache(maxsize=1 << 14)
def _default_gain(goal_id: str, tracks: tuple[tuple[str, int], ...], card: str) -> float:
    """:func:`_card_gain` of the default proposal ``card`` for goal ``goal_id`` on ``tracks``
    (the tracks' items). Kept because every evaluation asks it of every card in every hand while
    the tracks move only when a proposal resolves: a greedy pass over an exchange (up to 128
    subsets of the hand, each evaluated on 3 imagined states) asked the same few cards thousands
    of times, half its time, and the clock cut it at 50 ms."""
    return _card_gain(GOALS[goal_id], dict(tracks), default_catalog()[card])


def _card_gain(goal: dict[str, int], tracks: dict[str, int], info: dict[str, Any]) -> float:
    """What pitching this card is expected to add to the goal's value on today's tracks (only
    the goal's pillars count, so only they are moved)."""
    gain = 0.0
    for pillar, side in goal.items():
        now = tracks[pillar]
        before = max(0, side * now)
        for zone, weight in ((info["accept"], _ACCEPTED), (info["reject"], 1 - _ACCEPTED)):
            change = zone.get(pillar)
            if change:
                gain += weight * (
                    max(0, side * max(TRACK_MIN, min(TRACK_MAX, now + change))) - before
                )
    return gain


BOT = ReignsTheCouncilBot()
