"""Generated blocks of ``openapi.yaml``: each game's ``make_openapi.py`` builds its component
schemas (with examples taken from real play) as data, and writes them between its own BEGIN/END
comment lines with :func:`render` and :func:`splice`. Examples are written in YAML flow style,
one compact JSON-like block each; schemas in block style."""
from __future__ import annotations

import json
from typing import Any

import yaml

__all__ = ["ref", "nullable", "render", "splice"]

REF = "#/components/schemas/"


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"oneOf": [{"type": "null"}, schema]}


class _Flow(list):
    """A list written in YAML flow style."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # no &anchors: every schema is written out
        return True


_Dumper.add_representer(_Flow, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))


def _flow_examples(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (_Flow(json.loads(json.dumps(v))) if k == "examples" else _flow_examples(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_flow_examples(v) for v in node]
    return node


def render(schemas: dict[str, Any], begin: str, end: str) -> str:
    """The schemas as YAML indented under ``components.schemas``, between the marker lines."""
    text = yaml.dump(_flow_examples(schemas), Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=110,
                     allow_unicode=True)
    body = "".join("    " + line + "\n" if line else "\n" for line in text.splitlines())
    return begin + body + end


def splice(text: str, block: str, begin: str, end: str) -> str:
    """``text`` with ``block`` in place of the old block, or right before ``  examples:`` the first time."""
    if begin in text:
        return text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    at = text.index("\n  examples:\n") + 1
    return text[:at] + block + text[at:]
