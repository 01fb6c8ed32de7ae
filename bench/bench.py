"""Benchmarks, in one run: in-process playout speed and HTTP ``apply`` throughput.

    .venv/bin/python bench/bench.py [--game reign-and-ruin] [--seconds 10] [--clients 4]

1. In-process: random playouts, counting steps (``legal_moves`` + ``apply``) per second.
2. HTTP: requests per second for ``POST /v1/games/{game}/apply`` on mid-game states, against a
   minimal Flask app echoing a 5 KB JSON body (``bench/echo_app.py``), both served by gunicorn
   with the same settings as ``reign-referee serve``, in alternating rounds (medians reported).
   The ratio apply/echo is the figure of merit.

Load comes from client processes on this machine (loopback only), so the client competes with
the server for the same cores; the ratio is fair because both servers are measured alike.
Numbers are printed and written to ``bench/results/latest.json``.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.cli import gunicorn_options  # noqa: E402  (the serve command's own settings)
from rules.playout import random_steps  # noqa: E402
from rules.registry import get_game  # noqa: E402


# -- in-process --------------------------------------------------------------------------------
def inprocess_steps_per_second(game_id: str, seconds: float, seed: int = 1) -> dict:
    game = get_game(game_id)
    chooser = random.Random(seed)
    steps = games = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        players = [f"p{i}" for i in range(chooser.randint(game.min_players, game.max_players))]
        state = game.setup(players, chooser.randrange(1 << 32), {})
        for _ in random_steps(game, state, chooser):
            steps += 1
        games += 1
    elapsed = time.perf_counter() - started
    return {"steps": steps, "games": games, "seconds": round(elapsed, 2),
            "steps_per_second": round(steps / elapsed)}


# -- HTTP --------------------------------------------------------------------------------------
def mid_game_bodies(game_id: str, count: int, seed: int = 2) -> list[bytes]:
    """Request bodies ``{"state", "move"}`` from the middle of random games."""
    game = get_game(game_id)
    chooser = random.Random(seed)
    bodies: list[bytes] = []
    while len(bodies) < count:
        players = [f"p{i}" for i in range(chooser.randint(game.min_players, game.max_players))]
        steps = list(random_steps(game, game.setup(players, chooser.randrange(1 << 32), {}), chooser))
        for step in steps[len(steps) // 3: 2 * len(steps) // 3: 3]:
            bodies.append(json.dumps({"state": step.before, "move": step.move}).encode())
    return bodies[:count]


def echo_body(size: int = 5 * 1024) -> bytes:
    """A JSON document of about ``size`` bytes, shaped like a game state (nested lists of ids)."""
    doc = {"players": ["p0", "p1", "p2"], "piles": {}}
    i = 0
    while len(json.dumps(doc)) < size:
        doc["piles"].setdefault(f"pile-{i % 8}", []).append(f"card-{i}")
        i += 1
    return json.dumps(doc).encode()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(app_path: str, port: int) -> subprocess.Popen:
    opts = gunicorn_options(host="127.0.0.1", port=port)
    cmd = [sys.executable, "-m", "gunicorn", app_path, "--bind", opts["bind"],
           "--workers", str(opts["workers"]), "--worker-class", opts["worker_class"],
           "--threads", str(opts["threads"]), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"gunicorn for {app_path} did not start")


def _client(port: int, path: str, bodies: list[bytes], seconds: float, out) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    done = errors = i = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        conn.request("POST", path, body=bodies[i % len(bodies)], headers=headers)
        resp = conn.getresponse()
        resp.read()
        if resp.status == 200:
            done += 1
        else:
            errors += 1
        i += 1
    out.put((done, errors))


def requests_per_second(port: int, path: str, bodies: list[bytes], seconds: float, clients: int) -> dict:
    _client_round(port, path, bodies, 1.0, clients)  # warm up every worker
    done, errors, elapsed = _client_round(port, path, bodies, seconds, clients)
    return {"requests": done, "errors": errors, "seconds": round(elapsed, 2),
            "requests_per_second": round(done / elapsed, 1),
            "mean_body_bytes": round(sum(map(len, bodies)) / len(bodies))}


def _client_round(port: int, path: str, bodies: list[bytes], seconds: float, clients: int):
    out: multiprocessing.Queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_client, args=(port, path, bodies, seconds, out))
             for _ in range(clients)]
    started = time.perf_counter()
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    elapsed = time.perf_counter() - started
    return sum(r[0] for r in results), sum(r[1] for r in results), elapsed


def http_ratio(game_id: str, seconds: float, clients: int, rounds: int = 3) -> dict:
    """Both servers run side by side; rounds alternate echo and apply so that any drift in the
    machine's speed hits both alike, and each figure is the median of its rounds."""
    targets = {
        "echo": ("bench.echo_app:app", "/echo", [echo_body()]),
        "apply": ("wsgi:app", f"/v1/games/{game_id}/apply", mid_game_bodies(game_id, 200)),
    }
    servers = {name: (free_port(), app_path) for name, (app_path, _, _) in targets.items()}
    procs = [start_gunicorn(app_path, port) for port, app_path in servers.values()]
    try:
        runs: dict[str, list[dict]] = {name: [] for name in targets}
        for _ in range(rounds):
            for name, (_, path, bodies) in targets.items():
                runs[name].append(requests_per_second(servers[name][0], path, bodies, seconds, clients))
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)
    results: dict = {}
    for name, measured in runs.items():
        measured.sort(key=lambda r: r["requests_per_second"])
        results[name] = dict(measured[len(measured) // 2],
                             rounds=[r["requests_per_second"] for r in measured])
    results["apply_over_echo"] = round(
        results["apply"]["requests_per_second"] / results["echo"]["requests_per_second"], 3)
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="reign-and-ruin")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3, help="alternating echo/apply rounds (medians)")
    args = ap.parse_args()
    report = {"game": args.game, "python": sys.version.split()[0], "cpus": os.cpu_count()}
    report["inprocess"] = inprocess_steps_per_second(args.game, args.seconds)
    print(f"in-process: {report['inprocess']['steps_per_second']:,} steps/s "
          f"({report['inprocess']['games']} games)", flush=True)
    report["http"] = http_ratio(args.game, args.seconds, args.clients, args.rounds)
    h = report["http"]
    print(f"http echo:  {h['echo']['requests_per_second']:,} req/s ({h['echo']['mean_body_bytes']} B bodies)")
    print(f"http apply: {h['apply']['requests_per_second']:,} req/s ({h['apply']['mean_body_bytes']} B bodies, "
          f"{h['apply']['errors']} errors)")
    print(f"apply / echo = {h['apply_over_echo']:.0%} (medians of rounds: echo {h['echo']['rounds']}, "
          f"apply {h['apply']['rounds']})")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "latest.json").write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
