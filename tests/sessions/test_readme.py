"""The README runs (issue 24, item 5): each of its ```sh blocks, pasted top to bottom into one
bash shell, works against a served instance (the ``served`` fixture: ``reign-referee serve``
on a free port; the README's ``http://127.0.0.1:8000`` is replaced by its address).

Each block runs with ``bash -eu`` in a fresh directory (where ``.venv`` points at this
interpreter's virtual environment, as in the repository root), within a time limit; its exit
status must be 0 and its output must hold the block's key lines. Blocks that install things,
need Docker or wrk, or run long in-process statistics are skipped, each for the reason listed in
``SKIPPED``; a block neither run nor skipped fails the test, so a new block is never forgotten.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
README_BASE = "http://127.0.0.1:8000"
BLOCK_SECONDS = 600
"""Only a guard against a hung block, never a performance check: on an idle machine the slowest
block (a whole game against an expert bot) takes seconds, on a shared and loaded one minutes."""

SKIPPED = {
    "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/reign-referee serve": (
        "installs, then serves in the foreground (the test serves the same way itself)"
    ),
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m": (
        "installs and runs this very test suite"
    ),
    ".venv/bin/reign-referee simulate reign-and-ruin --games 1000": (
        "in-process statistics of a thousand games: long, and no service involved"
    ),
    ".venv/bin/reign-referee simulate reign-and-ruin --bots expert,random": (
        "bot statistics over hundreds of expert games: minutes, and no service involved"
    ),
    "docker build": "needs Docker",
    ".venv/bin/pip install -q -e '.[bench]' && sudo apt-get install -y wrk": (
        "installs the bench extra and wrk, then benchmarks for minutes"
    ),
    ".venv/bin/python bench/largest_bodies.py": "a benchmark that starts its own services",
    ".venv/bin/python bench/slow_clients.py": "a benchmark that starts its own service",
    ".venv/bin/python bench/rude_clients.py": "a benchmark that starts its own service",
    ".venv/bin/python bench/session_bytes.py": "a benchmark of hundreds of moves per game",
    ".venv/bin/python bench/render.py": "a benchmark (pictures, and the table in Chromium)",
    ".venv/bin/python bench/clocks.py": "a benchmark of 1,000 clocked sessions (and two instances)",
}
"""Blocks not run, by their first line's beginning, each with its reason."""


def sh_blocks(text: str) -> list[str]:
    """The README's ```sh blocks, in order."""
    return re.findall(r"^```sh\n(.*?)^```$", text, flags=re.M | re.S)


def _skip_reason(block: str) -> str | None:
    first = block.lstrip().splitlines()[0]
    return next((why for start, why in SKIPPED.items() if first.startswith(start)), None)


def _checks(block: str) -> list[str]:
    """What the output of ``block`` must hold."""
    if "/v1/sessions > session.json" in block and "events?after=0" in block:
        return [  # the sessions walkthrough
            '"seed": null',
            "HTTP/1.1 200 OK",
            'ETag: "0.',  # step 3 shows the ETag it names (version 0, as ann sees it)
            "Idempotent-Replayed: true",
            "HTTP/1.1 304",
            "verified: reign-and-ruin: seed_commitment",
            "HTTP/1.1 204",
            "spectator.events:",
        ]
    if "/takebacks" in block:  # records, takebacks, forks, verify and replay
        return [
            '"status": "pending"',
            '"status": "accepted", "version": 7',
            '"to_version"',
            '"open": true',
            "verified: reign-supreme: seed_commitment",
            '"valid":true',
        ]
    if '"bots": {"bob": "expert"}' in block and "/v1/sessions" in block:
        return ['"winners"']  # the bot game in a session
    if "/render" in block:
        return ['<title id="picture-title">Reign &amp; Ruin: ann\'s view']  # a picture
    if '"clock": {"type": "fischer"' in block:
        return ["'running': ['ann', 'bob']", '"remaining_ms"']  # the clocked session
    if '"open": true, "seed": 7}' in block:
        return ["'open': True", "'seed': 7"]
    if "/suggest" in block:
        return ['"move"', '"winners"']
    if "/setup" in block:
        return ['"winners"', "illegal_move"]
    return []


def test_the_readme_lists_its_blocks():
    blocks = sh_blocks(README.read_text("utf-8"))
    assert len(blocks) >= 8
    run = [b for b in blocks if _skip_reason(b) is None]
    assert all(_checks(b) for b in run), [b.splitlines()[0] for b in run if not _checks(b)]
    assert len(run) >= 5


def test_ci_runs_exactly_the_readmes_test_command():
    """``.ci/run`` may install system packages (Chromium, which the browser tests skip without),
    then runs the README's test command and nothing else of the project's: a step CI needed and
    the README lacked would be a green CI that a new user's copy of the README cannot repeat."""
    tests_command = next(b for b in sh_blocks(README.read_text("utf-8")) if "-m pytest" in b)
    lines = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert lines[-1] == tests_command.strip()
    others = "\n".join(lines[:-1])
    assert not re.search(r"\b(pip|pytest|python3?|venv|reign-referee)\b", others), others


@pytest.mark.slow  # the longest block plays a whole game against an expert bot
@pytest.mark.parametrize(
    "index", range(len(sh_blocks(README.read_text("utf-8")))), ids=lambda i: f"block{i}"
)
def test_readme_block_runs(served, tmp_path, index):
    block = sh_blocks(README.read_text("utf-8"))[index]
    reason = _skip_reason(block)
    if reason is not None:
        pytest.skip(reason)
    (tmp_path / ".venv").symlink_to(Path(sys.executable).parent.parent)
    script = block.replace(README_BASE, served.base)
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        ["bash", "-eu", "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=BLOCK_SECONDS,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    for expected in _checks(block):
        assert expected.lower() in output.lower(), (expected, output[-3000:])
