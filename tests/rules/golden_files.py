"""Writing golden playthrough files (each game's ``make_golden.py``): one seeded game per file,
laid out with one line per top-level field and per step, so that a rule change diffs to exactly
the steps it touches."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["compact", "render", "write_golden"]


def compact(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def render(record: dict[str, Any]) -> str:
    """JSON with one line per top-level field and per step."""
    head = [f" {json.dumps(k)}: {compact(v)}" for k, v in sorted(record.items()) if k != "steps"]
    steps = ",\n".join(f"  {compact(step)}" for step in record["steps"])
    return "{\n" + ",\n".join(head) + ',\n "steps": [\n' + steps + "\n ]\n}\n"


def write_golden(
    golden_dir: Path,
    games: dict[str, dict[str, Any]],
    play: Callable[[dict[str, Any]], dict[str, Any]],
) -> None:
    """Play every spec of ``games`` with ``play`` and write ``<golden_dir>/<name>.json``."""
    golden_dir.mkdir(exist_ok=True)
    for name, spec in games.items():
        path = golden_dir / f"{name}.json"
        record = play(spec)
        path.write_text(render(record), "utf-8")
        print(f"{path}: {len(record['steps'])} moves")
