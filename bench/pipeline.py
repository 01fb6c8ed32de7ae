"""Where one HTTP request's time goes, stage by stage, per game, in process.

    .venv/bin/python bench/pipeline.py [--games reign-supreme ...] [--count 60] [--repeat 3]

For each game and for ``apply`` and ``legal-moves`` it takes the bodies ``bench/bench.py`` sends
(``bench/workloads.py``) and times, with direct timers, each stage ``api/games.py`` runs on them:
JSON parse (``jsonio.loads_body``), envelope + move shape check (``schemas``), the known-state
digests (``api/known_states.py``: of the state's bytes in the body, and for ``apply`` of the new
state's bytes in the answer), the state's shape check and integrity (``game.check_state``: run
only on a state's first sight), the rules call, the answer's JSON serialization
(``jsonio.dumps``, ``jsonio.answer``). It then posts the same bodies through the whole Flask app
(``app.test_client()``) twice, with the states known (as after their first request) and with
``KNOWN_STATES=0`` (every state unseen), and through the echo app (``bench/echo_app.py``);
"Flask/Werkzeug" is the known-state request minus its stages (it includes the test client's own
cost, which the echo pays too). Best of ``--repeat`` rounds, µs
per request. Each row ends with echo/whole were the rules call free: the most work on the rules
alone could reach. Prints a table and writes ``bench/results/pipeline-<UTC time>.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import GAME_IDS, request_bodies  # noqa: E402

import schemas  # noqa: E402
from api import create_app, jsonio  # noqa: E402
from api.known_states import KnownStates, state_span  # noqa: E402
from rules.registry import get_game  # noqa: E402
from schemas import requests as envelopes  # noqa: E402

STAGES = ("parse", "shape", "known digests", "state checks", "rules", "serialize")
FIRST_SIGHT_ONLY = ("state checks",)


def _stages(game_id: str, endpoint: str, bodies: list[bytes]) -> dict[str, float]:
    """Seconds spent in each stage over ``bodies``, calling the pipeline's own functions."""
    game = get_game(game_id)
    shapes = schemas.for_game(game_id)
    envelope = envelopes.MOVE if endpoint == "apply" else envelopes.STATE_PLAYER
    known = KnownStates(1)
    spent = dict.fromkeys(STAGES, 0.0)
    clock = time.perf_counter
    for data in bodies:
        t0 = clock()
        body = jsonio.loads_body(data)
        t1 = clock()
        body = schemas.load(envelope, body)
        if endpoint == "apply":
            shapes.load_move(body["move"])
        t2 = clock()
        span = state_span(data, body)
        known.digest(game_id, None if span is None else data[span])
        t3 = clock()
        shapes.load_state(body["state"])
        game.check_state(body["state"])
        t4 = clock()
        if endpoint == "apply":
            new_state, events = game.apply(body["state"], body["move"])
        else:
            moves = game.legal_moves(body["state"], body.get("player"))
        t5 = clock()
        if endpoint == "apply":  # written once: the answer's bytes are also its digest's
            text = jsonio.dumps(new_state)
            t6 = clock()
            known.digest(game_id, text)
            t7 = clock()
            jsonio.answer(
                {
                    "state": text,
                    "events": jsonio.dumps(events),
                    "outcome": jsonio.dumps(new_state.get("outcome")),
                }
            )
        else:
            t6 = t7 = clock()
            jsonio.dumps({"moves": moves})
        t8 = clock()
        spent["parse"] += t1 - t0
        spent["shape"] += t2 - t1
        spent["known digests"] += (t3 - t2) + (t7 - t6)
        spent["state checks"] += t4 - t3
        spent["rules"] += t5 - t4
        spent["serialize"] += (t6 - t5) + (t8 - t7)
    return spent


def _whole(client, url: str, bodies: list[bytes]) -> float:
    started = time.perf_counter()
    for data in bodies:
        resp = client.post(url, data=data, content_type="application/json")
        assert resp.status_code == 200, resp.get_data()[:300]
    return time.perf_counter() - started


def measure(game_id: str, endpoint: str, count: int, repeat: int, app, unseen, echo) -> dict:
    bodies = request_bodies(game_id, endpoint, count)
    url = f"/v1/games/{game_id}/{endpoint}"
    _whole(app, url, bodies)  # warm caches outside the timing; the states are now known
    _whole(unseen, url, bodies[:10])
    best_stages: dict[str, float] | None = None
    best_whole = best_unseen = best_echo = float("inf")
    for _ in range(repeat):
        spent = _stages(game_id, endpoint, bodies)
        if best_stages is None or sum(spent.values()) < sum(best_stages.values()):
            best_stages = spent
        best_whole = min(best_whole, _whole(app, url, bodies))
        best_unseen = min(best_unseen, _whole(unseen, url, bodies))
        best_echo = min(best_echo, _whole(echo, "/echo", bodies))
    n = len(bodies)
    us = {name: best_stages[name] / n * 1e6 for name in STAGES}
    whole = best_whole / n * 1e6
    us["flask/werkzeug"] = max(
        whole - sum(v for k, v in us.items() if k not in FIRST_SIGHT_ONLY), 0.0
    )
    return {
        "game": game_id,
        "endpoint": endpoint,
        "requests": n,
        "body_bytes": sum(map(len, bodies)) // n,
        "whole_us": round(whole, 1),
        "unseen_us": round(best_unseen / n * 1e6, 1),
        "echo_us": round(best_echo / n * 1e6, 1),
        "stages_us": {k: round(v, 1) for k, v in us.items()},
        "rules_free_ratio": round(
            rules_free_ratio(best_echo, best_whole, us["rules"] * n / 1e6), 3
        ),
        "rules_free_unseen_ratio": round(
            rules_free_ratio(best_echo, best_unseen, us["rules"] * n / 1e6), 3
        ),
    }


def rules_free_ratio(echo: float, whole: float, rules: float) -> float:
    """echo/whole were the rules call free: the most any work on the rules alone can reach (issue
    28). Below a goal, the rest of the request (JSON, digests, Flask) stands in the way too."""
    return echo / (whole - rules)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(GAME_IDS), choices=GAME_IDS)
    ap.add_argument("--endpoints", nargs="*", default=["apply", "legal-moves"])
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from echo_app import app as echo_app

    app = create_app({"TESTING": True}).test_client()
    unseen = create_app({"TESTING": True, "KNOWN_STATES": 0}).test_client()
    echo = echo_app.test_client()
    rows = []
    for game_id in args.games:
        for endpoint in args.endpoints:
            row = measure(game_id, endpoint, args.count, args.repeat, app, unseen, echo)
            rows.append(row)
            whole, first = row["whole_us"], row["unseen_us"]
            print(
                "\n"
                f"{game_id} {endpoint}: {whole:.0f} µs/request whole with its state known, "
                f"echo {row['echo_us']:.0f} µs (echo/whole {row['echo_us'] / whole:.0%}); "
                f"unseen {first:.0f} µs (echo/whole {row['echo_us'] / first:.0%}); "
                f"{row['body_bytes']} B bodies",
                flush=True,
            )
            for name, us in row["stages_us"].items():
                note = "  (first sight only)" if name in FIRST_SIGHT_ONLY else ""
                print(f"  {name:16s} {us:9.1f} µs  {us / whole:6.1%}{note}", flush=True)
            print(
                f"  with the rules free: echo/whole {row['rules_free_ratio']:.0%}, "
                f"unseen {row['rules_free_unseen_ratio']:.0%}",
                flush=True,
            )
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    (out / f"pipeline-{stamp}.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
