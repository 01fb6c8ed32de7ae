"""A plain install works anywhere (issue 23, "installs anywhere").

The wheel is built from a clean copy of the project, installed (not editable) into a fresh venv
in a temporary directory, and its ``reign-referee serve`` is started with the working directory
an empty folder: nothing can come from the source tree. It must carry every package and data
file, set up every game, serve ``/openapi.yaml`` (the repository's generated spec, byte for byte)
and the ``/docs`` page with every asset that page loads.

Slow on purpose (marked ``slow``): installing the wheel with its dependencies into a new venv
takes 20 to 40 s on a loaded machine; pip resolves them from its cache and the configured
indexes, as a user's install would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.ops import OPENAPI_PATH
from rules.registry import GAMES
from tests.served import free_port, referee_env, start_serve, stop

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "rules", "schemas")
# What a build needs; the copy leaves out tests, venvs and any stale build/ (setuptools reuses
# build/lib, so a file deleted from the tree could still reach a wheel built in place).
BUILD_INPUTS = ("pyproject.toml", "README.md", "wsgi.py", *PACKAGES)


def _run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, f"{args} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pip wheel --no-deps`` of a clean copy of the build inputs, with this venv's setuptools
    (the test extra pins the build requirement; an isolated build would fetch it again)."""
    src = tmp_path_factory.mktemp("src")
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        else:
            shutil.copy2(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("wheel")
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(src),
        ]
    )
    (built,) = out.glob("reign_referee-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel and its dependencies (pip of this venv installs into it)."""
    target = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(target)])
    python = target / "bin" / "python"
    _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile"]
        + [str(wheel)]
    )
    return target


def _request(url: str, body: Any = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    req = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


@pytest.fixture(scope="module")
def served(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The venv's ``reign-referee serve`` on a free port, cwd an empty directory, embedded Redis."""
    port = free_port()
    proc = start_serve(
        port,
        env=referee_env(drop=("REDIS_URL", "PYTHONPATH", "VIRTUAL_ENV", "REFEREE_DATA_DIR")),
        log=tmp_path_factory.mktemp("log") / "serve.log",
        command=[str(venv / "bin" / "reign-referee")],
        cwd=tmp_path_factory.mktemp("empty"),
        timeout=120,
    )
    yield f"http://127.0.0.1:{port}"
    stop(proc, 30)


def test_the_wheel_carries_every_package_and_data_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [
        str(path.relative_to(ROOT))
        for top in PACKAGES
        for path in sorted((ROOT / top).rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
        if str(path.relative_to(ROOT)) not in names
    ]
    assert not missing, f"files of the packages missing from the wheel: {missing}"
    assert "wsgi.py" in names  # `gunicorn wsgi:app` from an install


def test_the_installed_package_is_the_wheel_not_the_source_tree(venv: Path) -> None:
    result = _run(
        [str(venv / "bin" / "python"), "-c", "import api, rules; print(api.__file__)"],
        cwd=venv,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert Path(result.stdout.strip()).is_relative_to(venv), result.stdout


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_sets_up_and_starts_a_session(served: str, game_id: str) -> None:
    status, body = _request(f"{served}/v1/games/{game_id}")
    assert status == 200, body
    info = json.loads(body)
    assert info["content"], "the game's default content (data/*.json) is served"
    players = [f"p{i}" for i in range(info["min_players"])]
    status, body = _request(f"{served}/v1/games/{game_id}/setup", {"players": players, "seed": 1})
    assert status == 200, body
    assert json.loads(body)["state"]["game"] == game_id
    status, body = _request(f"{served}/v1/sessions", {"game": game_id, "players": players})
    assert status == 201, body
    assert json.loads(body)["game"] == game_id


def test_the_spec_is_served_from_the_package(served: str) -> None:
    status, body = _request(served + "/openapi.yaml")
    assert status == 200, body[:500]
    assert body == OPENAPI_PATH.read_bytes()
    assert body == (ROOT / "openapi.yaml").read_bytes()


def test_the_docs_page_and_its_assets_are_served(served: str) -> None:
    status, body = _request(served + "/docs")  # urllib follows the 308 to /docs/
    assert status == 200, body[:500]
    html = body.decode()
    assets = re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', html)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets), html
    for asset in assets:
        status, data = _request(served + asset)
        assert status == 200 and data, asset
    assert '"url": "/openapi.yaml"' in html
