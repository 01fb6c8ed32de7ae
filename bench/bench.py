"""Benchmarks, in one run: in-process playout speed, HTTP throughput against a same-bytes echo,
and the expert bot's strength against greedy.

    .venv/bin/python bench/bench.py [--games ID ...] [--seconds 5] [--rounds 3] [--clients 4]
                                    [--port 8014] [--echo-port 8114] [--unseen-port 8214]
                                    [--load wrk|python] [--skip-http]
                                    [--strength-games 100] [--strength-workers 2]
                                    [--skip-strength]

1. In-process: random playouts of every game (``legal_actions`` + ``apply_action`` per step,
   the game's Python interface in its internal move form, ``rules.playout.random_action_steps``;
   Reign Supreme never concedes), and, when ``open_spiel`` is installed (``pip install -e
   '.[bench]'``), OpenSpiel's pure-Python ``python_liars_poker`` and ``python_kuhn_poker`` played
   the same way (``legal_actions`` + ``apply_action`` per step, chance outcomes drawn by their
   probabilities, each a step), each round right after Reign & Ruin. Rounds alternate between
   workloads, each round in a process of its own (:func:`apart`); figures are medians; Reign &
   Ruin's ratio to ``python_liars_poker`` (issue 28) is the median of the rounds' own ratios.
2. HTTP: the service (``wsgi:app``) and the echo (``bench/echo_app.py``, which only parses a body
   and sends it back) under the gunicorn settings of ``reign-referee serve``. For every game,
   ``apply`` and ``legal-moves`` are each compared with the echo fed THE SAME bodies (mid-game
   states from random playouts), in alternating rounds at ``--clients`` concurrent connections:
   an echo round, then per round the endpoint, the unseen service and the echo again.
   Reported: requests/s (median of rounds), p50 and p99 latency (of the median round), the ratio
   endpoint/echo (the median over rounds of each round's requests/s against the echo rounds on
   either side of it, :func:`paired_ratio`), any non-200 answer (there should be none) and the
   rounds left out as stalled (:data:`STALLED`: the machine lost most of a round). The
   service remembers the states it has checked (``api/known_states.py``), so the repeated bodies
   are known after their first round, as a client's states are when it sends back what the
   service answered; a second service with ``KNOWN_STATES=0`` ("unseen") shows every request as
   the first sight of its state.

3. Bot strength (``bench/bot_strength.py``, issue 28): for every game and each ``time_ms`` of
   50, 100, 300 and 1000, ``--strength-games`` games of one expert seat against greedy seats,
   seats rotated, and the same games with greedy in the expert's seat (the control it is
   compared with, game by game), in ``--strength-workers`` processes, with a progress line and
   an estimate of
   the time left on stderr. Its records are kept in ``bench/results/bot_strength.jsonl`` under
   a digest of ``rules/``, so an interrupted run resumes where it stopped, a run with unchanged
   rules plays nothing again, and a record of other code is never counted. It writes
   ``docs/bot_strength.json``, ``docs/bot_strength.svg`` and the table in ``docs/bots.md``. A
   full run (1,600 games and their controls) takes 10 to 15 minutes on two workers of a quiet
   two-core machine
   (``docs/bots.md`` says what the last one took); it runs after the HTTP part, so its
   workers do not disturb those figures.

Load comes from ``wrk`` when it is on PATH (``apt-get install -y wrk``; ``bench/load.lua``),
else from Python client processes, which cost the server more CPU (say which in any report).
Either way the client shares the machine's cores with the server, so compare ratios, not
absolute figures, across machines. Progress goes to stderr; the results table to stdout and to
``bench/results/<UTC time>.json`` and ``bench/results/latest.json``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot_strength  # noqa: E402
from workloads import GAME_IDS, play_for, request_bodies  # noqa: E402

from api.cli import gunicorn_options  # noqa: E402  (the serve command's own settings)

ENDPOINTS = ("apply", "legal-moves")
BODIES_PER_ENDPOINT = 200
GOALS = {"apply": 0.75, "legal-moves": 0.60, "apply_p99_ms": 10.0}
"""Issue 14's goals (states seen before), shown beside the figures."""
GOALS_UNSEEN = {"apply": 0.60, "legal-moves": 0.50}
"""Issue 28's goals for states never seen (the ``unseen`` column)."""

_started = time.perf_counter()


def progress(message: str) -> None:
    print(f"[{time.perf_counter() - _started:6.0f} s] {message}", file=sys.stderr, flush=True)


# -- in-process --------------------------------------------------------------------------------
def openspiel_games() -> dict[str, Callable[[float], dict]]:
    """OpenSpiel's pure-Python games, when ``open_spiel`` is installed; else nothing."""
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker, liars_poker  # noqa: F401  (registers them)
    except ImportError:
        return {}

    def runner(name: str) -> Callable[[float], dict]:
        def run(seconds: float) -> dict:
            game = pyspiel.load_game(name)
            chooser = random.Random(1)
            steps = games = 0
            started = time.perf_counter()
            deadline = started + seconds
            while time.perf_counter() < deadline:
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                        action = chooser.choices(outcomes, probs)[0]
                    else:
                        action = chooser.choice(state.legal_actions())
                    state.apply_action(action)
                    steps += 1
                games += 1
            elapsed = time.perf_counter() - started
            return {
                "steps": steps,
                "games": games,
                "seconds": round(elapsed, 2),
                "steps_per_second": round(steps / elapsed),
            }

        return run

    return {
        f"openspiel:{name}": runner(name) for name in ("python_liars_poker", "python_kuhn_poker")
    }


_FORK = multiprocessing.get_context("fork")


def apart(run: Callable[[float], dict], seconds: float) -> dict:
    """``run(seconds)`` in a child forked for it, which has imported every game and played none.

    Every round of every workload is played so, each from the same heap. Played one after
    another in one process, each ran on whatever the rounds before had left there. In two runs
    one after the other (7 rounds of 5 s, 2-core VM), every one of our games was 8 to 10% slower
    in the one process than apart, OpenSpiel's games about 4% (Reign & Ruin 153,828 steps/s
    against 171,064; Liar's Poker 165,086 against 171,819): a figure of the order the games were
    played in, not of the rules. The work was the same (callgrind: 1,343 M instructions for
    20,000 Reign & Ruin steps, after the other games or not); it ran slower, most likely on the
    layout of a heap the others had churned, and the playouts that allocate most lost most.
    Forked, the workload itself need not be pickled."""
    receiving, sending = _FORK.Pipe(duplex=False)
    child = _FORK.Process(target=_send_result, args=(sending, run, seconds))
    child.start()
    sending.close()  # so that the child's death ends the wait below
    try:
        return receiving.recv()
    except EOFError:
        child.join()  # its end of the pipe closes before it has exited: wait for its exit code
        raise RuntimeError(f"a workload's process died (exit code {child.exitcode})") from None
    finally:
        receiving.close()
        child.join()


def _send_result(sending: Connection, run: Callable[[float], dict], seconds: float) -> None:
    sending.send(run(seconds))


COMPARED = ("reign-and-ruin", "openspiel:python_liars_poker")
"""Issue 28's in-process comparison: Reign & Ruin against OpenSpiel's pure-Python Liar's Poker."""


def inprocess(games: list[str], seconds: float, rounds: int) -> dict:
    """Steps per second of every game's random playouts and OpenSpiel's, in rounds. OpenSpiel's
    games run right after Reign & Ruin in each round, and :data:`COMPARED`'s ratio is the median
    of the rounds' own ratios (:func:`paired_ratio`'s reasoning: this machine's speed drifts
    between the first game of a round and the last). Each round of each workload runs in a
    process of its own (:func:`apart`), so that none runs on the heap another left."""
    workloads: dict[str, Callable[[float], dict]] = {}
    for g in games:
        workloads[g] = lambda s, g=g: play_for(g, s)
        if g == COMPARED[0]:
            workloads.update(openspiel_games())
    if not any(name.startswith("openspiel:") for name in workloads):
        progress("open_spiel is not installed (pip install -e '.[bench]'): no OpenSpiel comparison")
    runs: dict[str, list[dict]] = {name: [] for name in workloads}
    for r in range(rounds):
        for name, run in workloads.items():
            progress(f"in-process round {r + 1}/{rounds}: {name} for {seconds:g} s")
            runs[name].append(apart(run, seconds))
    results: dict = {}
    for name, measured in runs.items():
        rates = [m["steps_per_second"] for m in measured]
        results[name] = {"steps_per_second": round(statistics.median(rates)), "rounds": rates}
    game, baseline = COMPARED
    if game in results and baseline in results:
        ratios = [
            mine / theirs
            for mine, theirs in zip(
                results[game]["rounds"], results[baseline]["rounds"], strict=True
            )
        ]
        results[game]["ratio_to"] = {baseline: round(statistics.median(ratios), 3)}
    return results


# -- HTTP --------------------------------------------------------------------------------------
def start_gunicorn(app_path: str, port: int, **env_vars: str) -> subprocess.Popen:
    opts = gunicorn_options(host="127.0.0.1", port=port)
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        app_path,
        "--bind",
        opts["bind"],
        "--workers",
        str(opts["workers"]),
        "--worker-class",
        opts["worker_class"],
        "--threads",
        str(opts["threads"]),
        "--keep-alive",
        str(opts["keepalive"]),
        "--log-level",
        "warning",
    ]
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'bench'}", **env_vars)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn for {app_path} exited (is port {port} free?)")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"gunicorn for {app_path} did not start on port {port}")


def wrk_round(url: str, body_file: str, seconds: float, clients: int) -> dict:
    cmd = [
        "wrk",
        f"-t{min(2, clients)}",
        f"-c{clients}",
        f"-d{max(1, round(seconds))}s",
        "--latency",
        "-s",
        str(ROOT / "bench" / "load.lua"),
        url,
        "--",
        body_file,
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    result = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    elapsed = result["duration_us"] / 1e6
    return {
        "requests_per_second": round(result["requests"] / elapsed, 1),
        "p50_ms": round(result["p50_us"] / 1000, 2),
        "p99_ms": round(result["p99_us"] / 1000, 2),
        "errors": result["non_2xx"] + result["socket_errors"],
    }


def _python_client(
    port: int, path: str, bodies: list[bytes], seconds: float, offset: int, out
) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    latencies: list[float] = []
    errors = 0
    i = offset
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        sent = time.perf_counter()
        conn.request("POST", path, body=bodies[i % len(bodies)], headers=headers)
        resp = conn.getresponse()
        resp.read()
        latencies.append(time.perf_counter() - sent)
        errors += resp.status != 200
        i += 1
    out.put((latencies, errors))


def python_round(port: int, path: str, bodies: list[bytes], seconds: float, clients: int) -> dict:
    out: multiprocessing.Queue = multiprocessing.Queue()
    procs = [
        multiprocessing.Process(
            target=_python_client,
            args=(port, path, bodies, seconds, k * len(bodies) // clients, out),
        )
        for k in range(clients)
    ]
    started = time.perf_counter()
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    elapsed = time.perf_counter() - started
    latencies = sorted(x for lat, _ in results for x in lat)
    return {
        "requests_per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": _percentile_ms(latencies, 0.50),
        "p99_ms": _percentile_ms(latencies, 0.99),
        "errors": sum(e for _, e in results),
    }


def _percentile_ms(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted latencies in seconds, in milliseconds."""
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)


def http_ratios(
    games: list[str], seconds: float, rounds: int, clients: int, ports: dict[str, int], load: str
) -> dict:
    servers = {
        "service": start_gunicorn("wsgi:app", ports["service"]),
        "unseen": start_gunicorn("wsgi:app", ports["unseen"], KNOWN_STATES="0"),
        "echo": start_gunicorn("echo_app:app", ports["echo"]),
    }
    results: dict[str, dict] = {}
    tmp = tempfile.TemporaryDirectory(prefix="bench-")
    try:
        for game in games:
            for endpoint in ENDPOINTS:
                progress(f"HTTP {game} {endpoint}: building {BODIES_PER_ENDPOINT} mid-game bodies")
                bodies = request_bodies(game, endpoint, BODIES_PER_ENDPOINT)
                body_file = Path(tmp.name) / f"{game}-{endpoint}.jsonl"
                body_file.write_bytes(b"\n".join(bodies) + b"\n")
                targets = {
                    "echo": (ports["echo"], "/echo"),
                    endpoint: (ports["service"], f"/v1/games/{game}/{endpoint}"),
                    "unseen": (ports["unseen"], f"/v1/games/{game}/{endpoint}"),
                }

                # body_file and bodies of this round, bound now (measure is only called within it)
                def measure(
                    port: int,
                    path: str,
                    secs: float,
                    body_file: Path = body_file,
                    bodies: list[bytes] = bodies,
                ) -> dict:
                    if load == "wrk":
                        return wrk_round(
                            f"http://127.0.0.1:{port}{path}", str(body_file), secs, clients
                        )
                    return python_round(port, path, bodies, secs, clients)

                for port, path in targets.values():
                    measure(port, path, 1.0)  # warm up every worker
                runs: dict[str, list[dict]] = {name: [] for name in targets}
                # echo, then each round's endpoint and unseen followed by an echo round: every
                # service round has an echo round on either side (paired_ratio)
                sequence = [("echo", 0)] + [
                    (name, r) for r in range(1, rounds + 1) for name in (endpoint, "unseen", "echo")
                ]
                for name, r in sequence:
                    port, path = targets[name]
                    runs[name].append(measure(port, path, seconds))
                    m = runs[name][-1]
                    progress(
                        f"HTTP {game} {name} round {r}/{rounds}: "
                        f"{m['requests_per_second']:,.0f} req/s, p99 {m['p99_ms']} ms, "
                        f"{m['errors']} errors"
                    )
                row: dict = {"mean_body_bytes": round(sum(map(len, bodies)) / len(bodies))}
                row["ratio"] = paired_ratio(runs[endpoint], runs["echo"])
                row["ratio_unseen"] = paired_ratio(runs["unseen"], runs["echo"])
                for name, measured in runs.items():
                    row[name if name in ("echo", "unseen") else "endpoint"] = dict(
                        median_round(measured),
                        rounds=[m["requests_per_second"] for m in measured],
                        errors=sum(m["errors"] for m in measured),
                    )
                results[f"{game} {endpoint}"] = row
    finally:
        tmp.cleanup()
        for proc in servers.values():
            proc.terminate()
        for proc in servers.values():
            proc.wait(timeout=30)
    return results


def median_round(measured: list[dict]) -> dict:
    """The round of median throughput (its latencies are reported with it)."""
    return sorted(measured, key=lambda m: m["requests_per_second"])[len(measured) // 2]


STALLED = 2 / 3
"""A round whose requests/s fall below this share of the median round of its kind (the same
target fed the same bodies) did not measure what its kind measures, and is left out of the
ratios. Seen on 2026-11-27: of a run's 176 HTTP rounds, 9 (echo and service alike, one at a
time) ran at 29 to 47% of their kind's median rate, every other one at 82 to 119%. Their cause
was the server's: all four connections of the round in one worker, served on one core (fixed
since, ``api.buffered_worker.ACCEPT_PAUSE_SECONDS``); a round that still falls so low ran on a
stalled machine, and the ``stalled`` column counts it."""


def steady(rates: list[float]) -> list[float | None]:
    """``rates`` with each stalled round (:data:`STALLED`) as None."""
    floor = STALLED * statistics.median(rates)
    return [rate if rate >= floor else None for rate in rates]


def paired_ratio(service: list[dict], echo: list[dict]) -> float:
    """The median over rounds of service round ``r``'s requests/s over the mean of the echo
    rounds just before and just after it (``echo`` has one round more than ``service``), stalled
    rounds (:func:`steady`) left out: a stalled service round has no ratio, and a service round
    beside a stalled echo round is compared with the other echo round alone.

    Why paired: this machine's throughput drifts between rounds, so a median service round over
    a median echo round, taken minutes apart, may compare two machines; a round against the
    echo rounds on either side of it compares like with like. Why stalled rounds are left out:
    an echo round at 40% of its rate made each service round beside it look 40% faster than it
    was (a run's Reign Supreme apply read 73% of the echo, its steady rounds 53%)."""
    served = steady([m["requests_per_second"] for m in service])
    echoed = steady([m["requests_per_second"] for m in echo])
    ratios = []
    for r, rate in enumerate(served):
        beside = [e for e in (echoed[r], echoed[r + 1]) if e is not None]
        if rate is not None and beside:
            ratios.append(rate / (sum(beside) / len(beside)))
    return round(statistics.median(ratios), 3)


def stalled_rounds(row: dict) -> int:
    """How many rounds of an HTTP row's echo, endpoint and unseen runs :func:`steady` left out."""
    return sum(steady(row[name]["rounds"]).count(None) for name in ("echo", "endpoint", "unseen"))


# -- report ------------------------------------------------------------------------------------
def table(report: dict) -> str:
    lines = ["in-process (steps/s, median of rounds)"]
    for name, r in report["inprocess"].items():
        lines.append(f"  {name:32s} {r['steps_per_second']:>9,}   rounds {r['rounds']}")
        for other, ratio in r.get("ratio_to", {}).items():
            lines.append(f"  {'':32s} {ratio:.3f}x {other} (median of the rounds' ratios)")
    if report.get("http"):
        lines += [
            "",
            f"HTTP at {report['clients']} clients, load from {report['load']} (goals: apply >= "
            f"{GOALS['apply']:.0%} of echo, legal-moves >= {GOALS['legal-moves']:.0%}, apply "
            f"p99 < {GOALS['apply_p99_ms']:g} ms; unseen: apply >= {GOALS_UNSEEN['apply']:.0%}, "
            f"legal-moves >= {GOALS_UNSEEN['legal-moves']:.0%})",
            f"  {'game endpoint':36s} {'body':>7s} {'echo/s':>8s} {'req/s':>8s} {'ratio':>6s} "
            f"{'p50 ms':>7s} {'p99 ms':>7s} {'echo p99':>8s} {'unseen':>7s} {'p99':>6s} errors "
            "stalled",
        ]
        # Ratios to a tenth of a point: whole points would show 0.746 as 75%, a goal met.
        for name, row in report["http"].items():
            e, s, u = row["echo"], row["endpoint"], row["unseen"]
            lines.append(
                f"  {name:36s} {row['mean_body_bytes']:>7,} {e['requests_per_second']:>8,.0f} "
                f"{s['requests_per_second']:>8,.0f} {row['ratio']:>6.1%} {s['p50_ms']:>7.2f} "
                f"{s['p99_ms']:>7.2f} {e['p99_ms']:>8.2f} {row['ratio_unseen']:>7.1%} "
                f"{u['p99_ms']:>6.2f} {s['errors'] + e['errors'] + u['errors']:>6} "
                f"{stalled_rounds(row):>7}"
            )
    if report.get("strength"):
        lines += [
            "",
            "bot strength ("
            f"{report['strength']['games_played_now']} games played in this run, "
            f"{report['strength']['minutes']} min; also docs/bots.md)",
            bot_strength.table(report["strength"]["results"]).rstrip("\n"),
        ]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", choices=GAME_IDS, default=list(GAME_IDS))
    ap.add_argument("--seconds", type=float, default=5.0, help="length of each measured round")
    ap.add_argument(
        "--rounds", type=int, default=3, help="alternating rounds (figures are medians)"
    )
    ap.add_argument("--clients", type=int, default=4, help="concurrent HTTP connections")
    ap.add_argument("--port", type=int, default=8014, help="the service's port")
    ap.add_argument("--echo-port", type=int, default=8114, help="the echo's port")
    ap.add_argument(
        "--unseen-port", type=int, default=8214, help="the port of the service with KNOWN_STATES=0"
    )
    ap.add_argument(
        "--load", choices=("wrk", "python"), default="wrk" if shutil.which("wrk") else "python"
    )
    ap.add_argument("--skip-http", action="store_true", help="no HTTP figures")
    ap.add_argument(
        "--strength-games", type=int, default=100, help="bot strength: games per (game, budget)"
    )
    ap.add_argument("--strength-workers", type=int, default=2, help="bot strength: processes")
    ap.add_argument("--skip-strength", action="store_true", help="no bot strength figures")
    args = ap.parse_args()
    report: dict = {
        "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "seconds": args.seconds,
        "rounds": args.rounds,
        "clients": args.clients,
        "load": args.load,
    }
    report["inprocess"] = inprocess(args.games, args.seconds, args.rounds)
    if not args.skip_http:
        report["http"] = http_ratios(
            args.games,
            args.seconds,
            args.rounds,
            args.clients,
            {"service": args.port, "echo": args.echo_port, "unseen": args.unseen_port},
            args.load,
        )
    if not args.skip_strength:
        progress("bot strength: expert against greedy seats (bench/bot_strength.py)")
        strength_started = time.perf_counter()
        played = bot_strength.run(
            list(bot_strength.GAMES),
            list(bot_strength.BUDGETS),
            args.strength_games,
            workers=args.strength_workers,
            say=progress,
        )
        written = bot_strength.report(say=lambda text: None)
        report["strength"] = {
            "games_played_now": played,
            "minutes": round((time.perf_counter() - strength_started) / 60, 1),
            "code": written["code"],
            "results": written["results"],
        }
    report["load_average_after"] = os.getloadavg()
    print(table(report))
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(report, indent=2) + "\n"
    (out / f"{report['time'].replace(':', '')}.json").write_text(text)
    (out / "latest.json").write_text(text)
    progress(f"written to {out / 'latest.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
