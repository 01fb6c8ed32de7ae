"""The habits that keep the code readable, checked in the README's test command (issue 23).

ruff (lint and format, configured in ``pyproject.toml``: line length 100, rules E, F, W, I, UP,
B) over the whole tree, and mypy over ``rules/``, ``api/`` and ``schemas/`` (``[tool.mypy]``:
``rules`` and ``schemas`` with every function typed). Each runs from this venv, as a developer
runs it, and a failure shows the tool's own report.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str) -> None:
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"$ {' '.join(args)}\n{result.stdout}{result.stderr}"


@pytest.mark.parametrize(
    "command",
    [("check", "."), ("format", "--check", ".")],
    ids=["lint", "format"],
)
def test_ruff(command: tuple[str, ...]) -> None:
    _run(str(BIN / "ruff"), *command)


@pytest.mark.slow
def test_mypy() -> None:
    """Types of the service's code (slow: a cold mypy takes tens of seconds on a loaded machine;
    its cache in .mypy_cache makes later runs quick)."""
    _run(sys.executable, "-m", "mypy")
