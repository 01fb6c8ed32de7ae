"""Where the time goes: cProfile of one game's in-process playouts or of one endpoint.

    .venv/bin/python bench/hotspots.py reign-supreme [--what playout|apply|legal-moves]
                                                    [--seconds 5] [--sort tottime] [--top 25]

``playout``: random playouts as ``bench/bench.py`` times them (``legal_actions`` +
``apply_action``).
``apply`` / ``legal-moves``: the same bodies ``bench/bench.py`` sends, posted through the whole
Flask request pipeline in-process (``app.test_client()``), without gunicorn or sockets.
Prints the top functions and the share of a few landmarks (parse, shape check, ``check_state``,
the rules call, serialization) of the total.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workloads import GAME_IDS, play_for, request_bodies  # noqa: E402


def _cumulative(stats: pstats.Stats, path_end: str, name: str) -> float:
    return sum(
        v[3] for (path, _, fn), v in stats.stats.items() if path.endswith(path_end) and fn == name
    )


def profile_http(game_id: str, endpoint: str, seconds: float) -> tuple[cProfile.Profile, int]:
    from api import create_app

    app = create_app({"TESTING": True})
    client = app.test_client()
    bodies = request_bodies(game_id, endpoint, 200)
    url = f"/v1/games/{game_id}/{endpoint}"
    for body in bodies[:20]:  # warm caches and imports outside the profile
        client.post(url, data=body, content_type="application/json")
    prof = cProfile.Profile()
    done = 0
    deadline = time.perf_counter() + seconds
    prof.enable()
    while time.perf_counter() < deadline:
        resp = client.post(url, data=bodies[done % len(bodies)], content_type="application/json")
        assert resp.status_code == 200, resp.get_data()[:300]
        done += 1
    prof.disable()
    return prof, done


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=GAME_IDS)
    ap.add_argument("--what", choices=("playout", "apply", "legal-moves"), default="playout")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument(
        "--sort", default="tottime", help="pstats sort key (tottime, cumulative, ncalls)"
    )
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    if args.what == "playout":
        prof = cProfile.Profile()
        prof.enable()
        result = play_for(args.game, args.seconds)
        prof.disable()
        unit = f"{result['steps']} steps"
    else:
        prof, done = profile_http(args.game, args.what, args.seconds)
        unit = f"{done} requests"
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    total = stats.total_tt
    print(f"{args.game} {args.what}: {unit} in {total:.2f} s of profiled time")
    package = args.game.replace("-", "_")
    landmarks = [
        ("parse body (orjson)", "api/jsonio.py", "loads"),
        ("envelope + shape check (schemas)", "schemas/fields.py", "load"),
        ("check_state", f"rules/{package}/integrity.py", "check_state"),
        ("legal_moves", f"rules/{package}/moves.py", "legal_moves"),
        ("apply", f"rules/{package}/moves.py", "apply"),
        ("legal_actions", f"rules/{package}/moves.py", "legal_actions"),
        ("resolve (apply_action)", f"rules/{package}/moves.py", "resolve"),
        ("serialize (orjson)", "api/jsonio.py", "dumps"),
    ]
    for label, path_end, name in landmarks:
        cum = _cumulative(stats, path_end, name)
        if cum:
            print(f"  {label:34s} {cum:7.2f} s  {cum / total:6.1%}")
    stats.sort_stats(args.sort).print_stats(args.top)
    print("\n".join(out.getvalue().splitlines()[4:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
