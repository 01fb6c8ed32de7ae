"""Instructions per request (callgrind): a measure of one endpoint that the machine's load leaves
alone, for before/after comparisons on a shared machine.

    .venv/bin/python bench/instructions.py reign-absolute [--endpoint apply|legal-moves]
                                           [--mode seen unseen echo] [--requests 15] [--tree DIR]

Posts the bodies ``bench/bench.py`` sends (``bench/workloads.py``) through the whole Flask app
in process (``app.test_client()``), under ``valgrind --tool=callgrind``, after one request per
body outside the count (so in ``seen`` mode every state is known, as in ``bench.py``'s service
column); ``unseen`` is ``KNOWN_STATES=0``, ``echo`` is ``bench/echo_app.py``. Only the timed
loop is counted: it runs inside ``exec``, and callgrind dumps its counters on entering and leaving
that function (``--dump-before``/``--dump-after=builtin_exec``). ``--tree`` measures another
checkout (say a worktree of ``main``) with this one's bodies and interpreter. Slow: a minute or
more per mode (valgrind runs Python some 50 times slower), mostly start-up and warm-up.

Valgrind hides the CPU's SHA extensions, so OpenSSL's SHA-256 (the known-state digests) runs its
portable code there, about 28 instructions a byte: under callgrind the digests weigh several times
what they cost natively. Compare trees that digest alike, or time the digest natively.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workloads import GAME_IDS, request_bodies  # noqa: E402

_CHILD = """
import sys
tree, game, endpoint, mode, count, bodies_file = sys.argv[1:]
sys.path[:0] = [tree, tree + "/bench"]
bodies = open(bodies_file, "rb").read().split(b"\\n")[:-1]
if mode == "echo":
    from echo_app import app
    url = "/echo"
else:
    from api import create_app
    config = {"TESTING": True, "REDIS_URL": None, "KNOWN_STATES": 0 if mode == "unseen" else 4096}
    app = create_app(config)
    url = f"/v1/games/{game}/{endpoint}"
client = app.test_client()
for body in bodies:
    assert client.post(url, data=body, content_type="application/json").status_code == 200
exec(
    "for i in range(int(count)):\\n"
    "    body = bodies[i % len(bodies)]\\n"
    "    answer = client.post(url, data=body, content_type='application/json')\\n"
    "    assert answer.status_code == 200\\n"
)
"""


def instructions(tree: Path, game: str, endpoint: str, mode: str, count: int, bodies: Path) -> int:
    """Instructions per request of ``count`` requests (the last ``exec`` callgrind saw)."""
    with tempfile.TemporaryDirectory(prefix="instructions-") as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--dump-before=builtin_exec",
            "--dump-after=builtin_exec",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-c",
            _CHILD,
            str(tree),
            game,
            endpoint,
            mode,
            str(count),
            str(bodies),
        ]
        env = dict(os.environ, PYTHONPATH=str(tree))
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        parts = sorted(Path(tmp).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
        last = [p for p in parts if "dump-after=builtin_exec" in p.read_text()[:2000]][-1]
        for line in last.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1]) // count
    raise RuntimeError("callgrind wrote no totals")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=GAME_IDS)
    ap.add_argument("--endpoint", choices=("apply", "legal-moves"), default="apply")
    ap.add_argument("--mode", nargs="+", choices=("seen", "unseen", "echo"), default=["seen"])
    ap.add_argument("--requests", type=int, default=15, help="counted requests per mode")
    ap.add_argument("--bodies", type=int, default=100, help="distinct bodies, warmed first")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install -y valgrind)", file=sys.stderr)
        return 1
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as bodies:
        bodies.write(b"\n".join(request_bodies(args.game, args.endpoint, args.bodies)) + b"\n")
        bodies.flush()
        for mode in args.mode:
            per = instructions(
                args.tree.resolve(),
                args.game,
                args.endpoint,
                mode,
                args.requests,
                Path(bodies.name),
            )
            print(f"{args.game} {args.endpoint} {mode} ({args.tree}): {per:,} instructions/request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
