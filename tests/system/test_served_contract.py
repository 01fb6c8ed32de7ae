"""The service as a user starts it: ``reign-referee serve``, then the shared contract checker.

This is the issue's "done when": the README's serve command starts the service with nothing
else installed (embedded Redis included), and ``../shared/tools/contract_check.py`` passes
against it for every registered game, sessions included (``--sessions``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rules.registry import GAMES

pytestmark = pytest.mark.slow  # the shared checker plays 20 games and sessions of each game

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_CHECK = ROOT.parent / "shared" / "tools" / "contract_check.py"
SERVE = Path(sys.executable).with_name("reign-referee")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``reign-referee serve`` on a free port, with REDIS_URL unset (embedded Redis)."""
    if not SERVE.exists():
        pytest.fail(f"the console command is not installed at {SERVE}; run the README's setup")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["REFEREE_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
    proc = subprocess.Popen(
        [str(SERVE), "serve", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"serve exited early:\n{proc.stdout.read()}")
        try:
            if _get(base + "/healthz")[0] == 200:
                break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("serve did not answer /healthz within 60 s")
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_serve_starts_with_embedded_store(served):
    status, body = _get(served + "/readyz")
    assert status == 200, body
    assert body["store"] == "ok"


@pytest.mark.skipif(
    not CONTRACT_CHECK.exists(), reason="../shared/tools/contract_check.py is not beside the repo"
)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_contract_check_passes(served, game_id):
    result = subprocess.run(
        [
            sys.executable,
            str(CONTRACT_CHECK),
            "--base-url",
            served,
            "--game",
            game_id,
            "--games",
            "20",
            "--sessions",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    last = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert last.endswith(" 0 failed") and not last.startswith("0 passed"), last
