"""The largest accepted body of every endpoint of every game, timed (issue 13: bounded cost).

    .venv/bin/python bench/largest_bodies.py [--game reign-and-ruin] [--states 8] [--oversize]

For each game it builds the setup options at every documented limit (the longest custom deck,
the most races, the biggest scenario...) for the most players, then times, through the Flask
test client in this one process (parse, shapes, integrity, rules, serialise; no network):

- ``POST /setup`` and ``POST /v1/sessions`` with those options;
- ``legal-moves``, ``validate``, ``apply``, ``view`` and ``score`` on states sampled along a random
  game played with that content (the worst time over the samples is reported);
- a session move (``POST /v1/sessions/{id}/moves`` with an Idempotency-Key) on a real Redis
  (the embedded one, in a temporary directory).

With ``--oversize`` it also times bodies just under ``MAX_BODY_BYTES`` that go one past a limit
(a 30,000-card deck...), which must be refused with a 422 quickly. The goal (issue 13): every
answer well within one second on the project's 2-core machine. Numbers are printed as a table.
This is a measurement, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.playout import random_steps  # noqa: E402
from rules.registry import GAMES, get_game  # noqa: E402

MIB = 1 << 20


# -- the largest accepted options, per game ----------------------------------------------------------
def _rr_options(players: list[str]) -> dict[str, Any]:
    from rules.reign_and_ruin.cards import MAX_DECK

    # One card repeated: the worst case for generated ids ("hexen-4", "hexen-4-2", ...).
    return {
        "deck": [{"faction": "hexen", "value": 4}] * (MAX_DECK // 2)
        + [
            {"faction": f, "value": 1 + i % 9}
            for i, f in zip(
                range(MAX_DECK - MAX_DECK // 2),
                ["alfenghast", "hexen", "kurgoz", "cognitz", "crou", "nomora"] * MAX_DECK,
            )
        ]
    }


def _ra_options(players: list[str]) -> dict[str, Any]:
    from rules.reign_absolute.content import (
        MAX_ABILITIES,
        MAX_CARDS,
        MAX_RACES,
        MAX_UNITS,
        default_cards,
    )

    ability = {"effect": "strength", "amount": 1, "when": "attacking"}
    races = []
    for r in range(MAX_RACES):
        units = [
            {
                "id": f"r{r}-u{u}",
                "name": f"Unit {u}",
                "strength": 1 + u % 9,
                "liege": u == 0,
                "abilities": [ability] * MAX_ABILITIES,
            }
            for u in range(MAX_UNITS)
        ]
        races.append({"id": f"race{r}", "name": f"Race {r}", "units": units})
    base = default_cards()
    cards = [dict(base[i % len(base)], id=f"card-{i}") for i in range(MAX_CARDS)]
    return {"races": races, "reinforcements": cards}


def _rs_options(players: list[str]) -> dict[str, Any]:
    from rules.reign_supreme.cards import MAX_COPIES, MAX_DEFINITIONS
    from rules.reign_supreme.content import (
        ARMY_IDS,
        MAX_BOARD,
        MAX_COORD,
        MAX_LIST,
        UNIT_TYPES,
        default_armies,
        default_cards,
        default_scenarios,
    )

    scenario = default_scenarios()["skirmish"]
    box = [
        [q, r] for q in range(-MAX_COORD, MAX_COORD + 1) for r in range(-MAX_COORD, MAX_COORD + 1)
    ]
    box.sort(key=lambda h: (max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])), h))
    per_kingdom = MAX_BOARD // 8
    midfield, rest = box[: MAX_BOARD - 4 * per_kingdom], box[MAX_BOARD - 4 * per_kingdom :]
    kingdoms = [
        {"id": f"k{i}", "hexes": rest[i * per_kingdom : (i + 1) * per_kingdom]} for i in range(4)
    ]
    scenario.update(
        midfield=midfield,
        kingdoms=kingdoms,
        mines=midfield[:10],
        ruins=midfield[10:20],
        castles=False,
        deployment=False,
        initial_units=None,
        victory="last_standing",
        cards=True,
    )
    scenario.pop("seating", None)
    base_cards = default_cards()
    cards = [
        dict(base_cards[i % len(base_cards)], id=f"card_{i}", copies=MAX_COPIES)
        for i in range(MAX_DEFINITIONS)
    ]
    armies = default_armies()
    rosters = {
        army: {
            "title": army,
            "units": {
                t: dict(next(iter(armies[army]["units"].values())), name=t) for t in UNIT_TYPES
            },
        }
        for army in ARMY_IDS
    }
    for army in ARMY_IDS:  # every type of its own default statistics where the army has one
        rosters[army]["units"].update({t: s for t, s in armies[army]["units"].items()})
    lists = {
        p: ["assault"]
        + ["archer", "wizard", "knight", "priest"] * ((MAX_LIST - 1) // 4)
        + ["infantry"] * ((MAX_LIST - 1) % 4)
        for p in players
    }
    return {
        "scenario": scenario,
        "setup": "auto",
        "cards": cards,
        "rosters": rosters,
        "armies": dict(zip(players, ARMY_IDS)),
        "army_lists": lists,
    }


def _rtc_options(players: list[str]) -> dict[str, Any]:
    from rules.reigns_the_council.content import MAX_DECK, default_deck

    base = default_deck()
    return {
        "deck": [
            {k: v for k, v in base[i % len(base)].items() if k != "id"} for i in range(MAX_DECK)
        ]
    }


LARGEST: dict[str, Callable[[list[str]], dict[str, Any]]] = {
    "reign-and-ruin": _rr_options,
    "reign-absolute": _ra_options,
    "reign-supreme": _rs_options,
    "reigns-the-council": _rtc_options,
}


def _oversize(game_id: str) -> dict[str, Any]:
    """Options one way past a limit, about 1 MiB of JSON: must be a quick 422."""
    if game_id == "reign-and-ruin":
        return {"deck": [{"faction": "hexen", "value": 4}] * 34_000}
    if game_id == "reigns-the-council":
        card = {"back": ["church"], "accept": {"church": 1}, "reject": {"church": -1}}
        return {"deck": [card] * 15_000}
    if game_id == "reign-absolute":
        return {
            "reinforcements": [
                {
                    "id": f"c{i}",
                    "name": "x",
                    "kind": "turn",
                    "number": 1,
                    "effect": {"effect": "another_turn"},
                }
                for i in range(12_000)
            ]
        }
    return {
        "scenario": dict(
            _rs_options([])["scenario"],
            midfield=[[i % 101 - 50, i // 101 % 101 - 50] for i in range(80_000)],
        )
    }


def _stuffed(
    game_id: str, state: dict[str, Any], target: int = MIB - 40_000
) -> list[tuple[str, dict[str, Any]]]:
    """Copies of ``state`` with one collection grown consistently to about ``target`` bytes of
    JSON (more cards in the catalogue *and* in a pile, more units...): each must be refused
    (422) quickly by the integrity check, whatever limit it passes."""

    def grow(name: str, add: Callable[[dict[str, Any], int], None]) -> tuple[str, dict[str, Any]]:
        s = json.loads(json.dumps(state))
        add(s, 1)
        one = len(json.dumps(s)) - len(json.dumps(state))
        s = json.loads(json.dumps(state))
        add(s, max(1, (target - len(json.dumps(state))) // max(one, 1)))
        return name, s

    def cards_and(
        pile: Callable[[dict[str, Any]], list[str]],
    ) -> Callable[[dict[str, Any], int], None]:
        def add(s: dict[str, Any], n: int) -> None:
            some = next(iter(s["cards"].values()))
            for i in range(n):
                s["cards"][f"x{i}"] = some
                pile(s).append(f"x{i}")

        return add

    if game_id == "reign-and-ruin":
        return [grow("state.cards + draw_pile", cards_and(lambda s: s["draw_pile"]))]
    if game_id == "reign-absolute":
        return [grow("state.cards + deck", cards_and(lambda s: s["deck"]))]
    if game_id == "reigns-the-council":
        return [grow("state.cards + decks.0", cards_and(lambda s: s["decks"][0]))]

    def units(s: dict[str, Any], n: int) -> None:
        some = next(iter(s["units"].values()))
        s["units"].update({f"x{i}": dict(some, at=None) for i in range(n)})

    def midfield(s: dict[str, Any], n: int) -> None:
        s["scenario"]["midfield"].extend([[60 + i % 1000, i // 1000] for i in range(n)])

    return [grow("state.units", units), grow("state.scenario.midfield", midfield)]


# -- timing ---------------------------------------------------------------------------------------
REPEAT = 3
"""Stateless requests are timed this many times; the median counts (the machine is shared)."""


def _timed(
    client: Any,
    method: str,
    url: str,
    body: Any,
    headers: dict[str, str] | None = None,
    repeat: int = 1,
) -> tuple[float, int, int, Any]:
    data = json.dumps(body, separators=(",", ":")).encode()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.open(
            url,
            method=method,
            data=data,
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        times.append(time.perf_counter() - started)
    return statistics.median(times), response.status_code, len(data), response.get_json(silent=True)


def measure(
    game_id: str, samples: int, oversize: bool, client: Any
) -> list[tuple[str, float, int, int]]:
    game = get_game(game_id)
    players = [f"p{i + 1}" for i in range(game.max_players)]
    options = LARGEST[game_id](players)
    rows: list[tuple[str, float, int, int]] = []
    base = f"/v1/games/{game_id}"
    t, status, size, answer = _timed(
        client,
        "POST",
        f"{base}/setup",
        {"players": players, "seed": 1, "options": options},
        repeat=REPEAT,
    )
    rows.append(("setup", t, status, size))
    if status != 200:
        print(f"{game_id}: setup refused: {json.dumps(answer)[:500]}", file=sys.stderr)
        return rows
    state = answer["state"]
    chooser = random.Random(7)
    steps = list(random_steps(game, state, chooser))
    picks = (
        [steps[int(i * (len(steps) - 1) / max(samples - 1, 1))] for i in range(samples)]
        if steps
        else []
    )
    worst: dict[str, tuple[float, int, int]] = {}

    def note(name: str, result: tuple[float, int, int, Any]) -> None:
        t, status, size, _ = result
        if name not in worst or t > worst[name][0] or status >= 500:
            worst[name] = (t, status, max(size, worst.get(name, (0, 0, 0))[2]))

    for step in picks:
        s, move = step.before, step.move
        note(
            "legal-moves",
            _timed(client, "POST", f"{base}/legal-moves", {"state": s}, repeat=REPEAT),
        )
        note(
            "validate",
            _timed(client, "POST", f"{base}/validate", {"state": s, "move": move}, repeat=REPEAT),
        )
        note(
            "apply",
            _timed(client, "POST", f"{base}/apply", {"state": s, "move": move}, repeat=REPEAT),
        )
        note(
            "view",
            _timed(
                client, "POST", f"{base}/view", {"state": s, "player": players[0]}, repeat=REPEAT
            ),
        )
        note("score", _timed(client, "POST", f"{base}/score", {"state": s}, repeat=REPEAT))
    rows.extend((name, *worst[name]) for name in worst)
    # Sessions: create with the largest content, then one move with an Idempotency-Key.
    t, status, size, created = _timed(
        client,
        "POST",
        "/v1/sessions",
        {"game": game_id, "players": players, "open": True, "seed": 1, "options": options},
    )
    rows.append(("sessions: create", t, status, size))
    if status == 201:
        sid = created["session_id"]
        session_state = game.setup(players, 1, options)
        move = game.legal_moves(session_state, None)[0]
        token = created["seats"][move["player"]]
        t, status, size, _ = _timed(
            client,
            "POST",
            f"/v1/sessions/{sid}/moves",
            {"move": move},
            {"Authorization": f"Bearer {token}", "Idempotency-Key": "bench-1"},
        )
        rows.append(("sessions: move", t, status, size))
        started = time.perf_counter()
        response = client.get(f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {token}"})
        rows.append(("sessions: read", time.perf_counter() - started, response.status_code, 0))
    if oversize:
        move = steps[0].move if steps else {}
        for name, stuffed in _stuffed(game_id, state):
            t, status, size, _ = _timed(
                client, "POST", f"{base}/apply", {"state": stuffed, "move": move}, repeat=REPEAT
            )
            rows.append((f"apply, {name}", t, status, size))
        t, status, size, _ = _timed(
            client,
            "POST",
            f"{base}/setup",
            {"players": players, "seed": 1, "options": _oversize(game_id)},
            repeat=REPEAT,
        )
        rows.append(("setup, over the limit", t, status, size))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    ap.add_argument(
        "--states", type=int, default=8, help="states sampled along the random game (default 8)"
    )
    ap.add_argument(
        "--oversize", action="store_true", help="also time over-the-limit bodies (must be 422)"
    )
    args = ap.parse_args()
    from api import create_app

    with tempfile.TemporaryDirectory() as data_dir:
        app = create_app(
            {
                "TESTING": True,
                "REFEREE_DATA_DIR": data_dir,
                "REDIS_URL": None,
                "SESSION_CREATE_LIMIT": "",
            }
        )
        client = app.test_client()
        app.extensions["referee_store"].client()  # start the embedded Redis before timing anything
        print(f"{'game':20} {'endpoint':24} {'seconds':>8} {'status':>6} {'body bytes':>11}")
        for game_id in args.game or sorted(GAMES):
            for name, seconds, status, size in measure(game_id, args.states, args.oversize, client):
                print(f"{game_id:20} {name:24} {seconds:8.3f} {status:6d} {size:11,d}", flush=True)
        from api.store import start_embedded, stop_embedded

        stop_embedded(start_embedded(data_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
