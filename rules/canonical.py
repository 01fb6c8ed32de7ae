"""Canonical JSON: sorted keys, no spaces. Two equal states serialise to the same bytes."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["dumps"]


def dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
