"""The scripts of ``bench/`` as modules, for the tests of what they compute (ratios, the strength
docs). ``bench/`` is no package: its scripts import their neighbours (``bot_strength``,
``workloads``) by their bare names, so its folder is on ``sys.path`` only while a script loads,
and no other test sees those names."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["load"]

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load(script: str) -> ModuleType:
    """``bench/<script>.py``, loaded once per process under the name ``bench_<script>``."""
    name = f"bench_{script}"
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{script}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look a module up by its name
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    finally:
        sys.path.remove(str(BENCH))
    return module
