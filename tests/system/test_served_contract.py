"""The service as a user starts it: ``reign-referee serve``, then the shared contract checker.

This is the issue's "done when": the README's serve command starts the service with nothing
else installed (embedded Redis included), and ``../shared/tools/contract_check.py`` passes
against it for every registered game, sessions included (``--sessions``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from rules.registry import GAMES
from tests.served import SERVE, free_port, referee_env, start_serve, stop

pytestmark = pytest.mark.slow  # the shared checker plays 20 games and sessions of each game

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_CHECK = ROOT.parent / "shared" / "tools" / "contract_check.py"


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``reign-referee serve`` on a free port, with REDIS_URL unset (embedded Redis)."""
    if not Path(SERVE[0]).exists():
        pytest.fail(f"the console command is not installed at {SERVE[0]}; run the README's setup")
    port = free_port()
    env = referee_env(REFEREE_DATA_DIR=str(tmp_path_factory.mktemp("data")))
    log = tmp_path_factory.mktemp("log") / "serve.log"
    proc = start_serve(port, env=env, log=log)
    yield f"http://127.0.0.1:{port}"
    stop(proc, 30)


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
