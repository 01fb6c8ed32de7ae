"""Benchmark: does one rude client delay everyone else? (a burst, and answers never read)

    .venv/bin/python bench/rude_clients.py [--tree DIR] [--burst 100] [--unread 300]
                                           [--flood 9000] [--stuffed 500]

Starts the service as the README does (``reign-referee serve``: gunicorn, 2 workers, embedded
Redis) with the code of this checkout, or of ``--tree`` (another checkout, to compare), on a free
port. Two measuring clients (from 127.0.0.1, each request on a new connection) time ``GET
/healthz`` and a Reign & Ruin ``apply`` side by side, as ``bench/slow_clients.py`` does, in three
phases:

1. baseline: nothing else going on;
2. burst: another client (its own process, from 127.0.0.2) sends ``--burst`` expert
   ``suggest``s at once (``time_ms`` 3000, each its own seed), again and again;
3. unread: another client (its own process, from 127.0.0.2) holds ``--unread`` connections, each
   asking four times for ``/openapi.yaml`` (928 KB) and reading nothing (more connections than
   the service has threads); at the end it reads, to count the connections the server closed;
4. idle: another client (the same way) holds ``--flood`` connections that send nothing (more
   than the two workers' ``WORKER_CONNECTIONS``), each opened again once the server closes it;
5. stuffed: another client (the same way) opens ``--stuffed`` connections and sends each all but
   the last byte of a 1 MiB body.

The RSS column is the peak resident memory of the server's workers and embedded Redis during the
phase (sampled twice a second).

Every request of the measuring clients has a 5 s timeout (counted as a failure), and every phase
lasts at most ``--phase-seconds``. Prints a table. Loopback only; the rude client's process
shares the machine's two cores with the server.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from slow_clients import GAME, first_position, measure, summary

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.served import CHECKOUT, free_port, referee_env, start_serve, stop  # noqa: E402

RUDE = "127.0.0.2"
PIPELINED = 4
SUGGEST_MS = 3000


def start_server(tree: Path, data_dir: str) -> tuple[subprocess.Popen, int]:
    """``reign-referee serve`` (the README's command) with the code of ``tree``."""
    port = free_port()
    env = referee_env(REFEREE_DATA_DIR=data_dir, LOG_LEVEL="warning", PYTHONPATH=str(tree))
    return start_serve(port, env=env, command=CHECKOUT, cwd=tree, ready="/readyz"), port


# -- the rude client (its own process) ---------------------------------------------------------
def _suggest(port: int, body: bytes, answers: dict[str, int]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(RUDE, 0))
    try:
        conn.request(
            "POST", f"/v1/games/{GAME}/suggest", body, {"Content-Type": "application/json"}
        )
        status = str(conn.getresponse().status)
    except (OSError, http.client.HTTPException):
        status = "failed"
    finally:
        conn.close()
    answers[status] = answers.get(status, 0) + 1


def burst_process(port: int, count: int, suggest: dict, stop: Any, report: Any) -> None:
    """``count`` suggests at once, again and again until ``stop`` is set."""
    answers: dict[str, int] = {}
    seed = 0
    while not stop.is_set():
        threads = []
        for _ in range(count):
            seed += 1
            body = json.dumps(dict(suggest, seed=seed)).encode()
            threads.append(threading.Thread(target=_suggest, args=(port, body, answers)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    report.send(answers)


def spec_bytes(port: int) -> int:
    """The bytes of the spec's body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", "/openapi.yaml")
        return len(conn.getresponse().read())
    finally:
        conn.close()


def unread_process(port: int, count: int, stop: Any, report: Any) -> None:
    """``count`` connections that ask for the spec ``PIPELINED`` times and never read."""
    ask = b"GET /openapi.yaml HTTP/1.1\r\nHost: bench\r\n\r\n" * PIPELINED
    held: list[socket.socket] = []
    opened = 0
    while not stop.is_set():
        while len(held) < count:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.bind((RUDE, 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(ask)
            held.append(sock)
            opened += 1
        time.sleep(0.2)
    # Now read them all: a connection the server gave up on ends (closed at its deadline); one
    # it still holds keeps sending answers, or goes quiet without ending.
    poller = selectors.DefaultSelector()
    got = dict.fromkeys(held, 0)
    for sock in held:
        sock.setblocking(False)
        poller.register(sock, selectors.EVENT_READ)
    while poller.get_map():
        events = poller.select(timeout=2.0)
        if not events:
            break  # quiet for 2 s: the rest are still held
        for key, _ in events:
            try:
                data = key.fileobj.recv(1 << 20)
            except OSError:
                data = b""
            got[key.fileobj] += len(data)
            if not data:
                poller.unregister(key.fileobj)
    whole = PIPELINED * spec_bytes(port)
    cut_off = sum(1 for n in got.values() if n < whole)
    for sock in held:
        sock.close()
    report.send({"connections": opened, "cut off before their last answer": cut_off})


def stuffed_process(port: int, count: int, stop: Any, report: Any) -> None:
    """``count`` connections that each send all but the last byte of a ``MAX_BODY_BYTES`` body."""
    body = b"x" * (1 << 20)
    head = (
        f"POST /v1/games/{GAME}/apply HTTP/1.1\r\nHost: bench\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((RUDE, 0))
        sock.connect(("127.0.0.1", port))
        sock.setblocking(False)
        held.append([sock, memoryview(head + body[:-1])])
    while not stop.is_set():  # keep sending what the server reads
        for entry in held:
            if entry[1]:
                try:
                    entry[1] = entry[1][entry[0].send(entry[1]) :]
                except (BlockingIOError, OSError):
                    pass
        time.sleep(0.05)
    unsent = sum(len(view) for _, view in held)
    for sock, _ in held:
        sock.close()
    report.send(
        {
            "connections": count,
            "MiB sent": round((count * (len(head) + len(body)) - unsent) / (1 << 20)),
        }
    )


def flood_process(port: int, count: int, stop: Any, report: Any) -> None:
    """``count`` idle connections, each opened again once the server has closed it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 256)), hard))

    def opened() -> socket.socket:
        sock = socket.socket()
        sock.bind((RUDE, 0))
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
        return sock

    held = [opened() for _ in range(count)]
    reopened = 0
    while not stop.is_set():
        time.sleep(0.5)
        for i, sock in enumerate(held):
            try:
                while sock.recv(65536):  # an answer (a 429, a 408), then the end
                    pass
            except (BlockingIOError, InterruptedError):
                continue  # still open
            except OSError:
                pass
            sock.close()
            held[i] = opened()
            reopened += 1
    for sock in held:
        sock.close()
    report.send({"connections": count, "opened again once closed": reopened})


def workers_rss(server: subprocess.Popen) -> int:
    """The resident memory of the server's processes but the master (its workers and the
    embedded Redis), in MiB."""
    total = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines())
        except (OSError, ValueError):
            continue
        if fields.get("PPid", "").strip() == str(server.pid):
            total += int(fields.get("VmRSS", "0 kB").split()[0])
    return total // 1024


def rude_phase(target: Any, args: tuple, measured: Any) -> tuple[Any, dict]:
    """Run ``target(*args, stop, report)`` in its own process while ``measured()`` runs."""
    stop = multiprocessing.Event()
    here, there = multiprocessing.Pipe()
    rude = multiprocessing.Process(target=target, args=(*args, stop, there), daemon=True)
    rude.start()
    time.sleep(1.0)  # the rude client is under way
    results = measured()
    stop.set()
    report = here.recv() if here.poll(SUGGEST_MS / 1000 + 70) else {"report": "none"}
    rude.join(10)
    return results, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--burst", type=int, default=100)
    parser.add_argument("--unread", type=int, default=300)
    parser.add_argument("--stuffed", type=int, default=500)
    parser.add_argument("--flood", type=int, default=9000)
    parser.add_argument("--requests", type=int, default=300, help="per endpoint and phase")
    parser.add_argument("--phase-seconds", type=float, default=20.0)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-rude-") as data_dir:
        proc, port = start_server(args.tree.resolve(), data_dir)
        try:
            state, apply_body = first_position(port)
            suggest = {"state": state, "player": "ann", "level": "expert", "time_ms": SUGGEST_MS}

            def measured() -> Any:
                peak = [workers_rss(proc)]
                done = threading.Event()

                def sample() -> None:
                    while not done.wait(0.5):
                        peak.append(workers_rss(proc))

                sampler = threading.Thread(target=sample, daemon=True)
                sampler.start()
                results = measure(port, args.requests, args.phase_seconds, apply_body, None)
                done.set()
                sampler.join()
                results["rss"] = max(peak)
                return results

            rows.append(("baseline", measured(), {}))
            rows.append(
                (
                    f"burst of {args.burst} suggests",
                    *rude_phase(burst_process, (port, args.burst, suggest), measured),
                )
            )
            rows.append(
                (
                    f"{args.unread} unread x{PIPELINED}",
                    *rude_phase(unread_process, (port, args.unread), measured),
                )
            )
            rows.append(
                (
                    f"{args.flood} idle connections",
                    *rude_phase(flood_process, (port, args.flood), measured),
                )
            )
            rows.append(
                (
                    f"{args.stuffed} bodies unfinished",
                    *rude_phase(stuffed_process, (port, args.stuffed), measured),
                )
            )
        finally:
            stop(proc, 20)
    print(f"\nserved from {args.tree.resolve()}")
    print(
        f"{'phase':<28} {'endpoint':<8} {'n':>4} {'fail':>4} "
        f"{'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'RSS MiB':>8}"
    )
    for label, result, _ in rows:
        for name in ("healthz", "apply"):
            r = result[name]
            p50, p99, top = summary(r["times"])
            print(
                f"{label:<28} {name:<8} {len(r['times']):>4} {r['failures']:>4} {p50:>8} "
                f"{p99:>8} {top:>8} {result['rss']:>8}"
            )
    for label, _, report in rows[1:]:
        print(f"{label}: the rude client saw {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
