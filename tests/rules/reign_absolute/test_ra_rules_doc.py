"""The rules document and the code agree: every `rule` anchor is a heading of
docs/rules/reign-absolute.md, and every violation code is documented there."""

from __future__ import annotations

import re
from pathlib import Path

from rules.reign_absolute import rulebook

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "rules" / "reign-absolute.md").read_text("utf-8")
SOURCE = "".join(p.read_text("utf-8") for p in (ROOT / "rules" / "reign_absolute").glob("*.py"))


def github_slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors() -> set[str]:
    return {github_slug(m) for m in re.findall(r"^#{1,6} (.+)$", DOC, flags=re.M)}


def test_every_rule_id_is_a_heading_of_the_rules_doc():
    rule_ids = {
        v for v in vars(rulebook).values() if isinstance(v, str) and v.startswith("reign-absolute#")
    }
    assert len(rule_ids) >= 20
    missing = sorted(r for r in rule_ids if r.split("#", 1)[1] not in anchors())
    assert not missing, missing


def test_the_code_uses_rule_ids_only_through_the_rulebook():
    assert '"reign-absolute#' not in SOURCE


def test_every_violation_code_is_documented():
    codes = set(re.findall(r'(?:Violation|_v)\(\s*"([a-z_]+)"', SOURCE)) | {
        "player_count",
        "duplicate_player",
    }
    assert len(codes) > 50
    undocumented = sorted(c for c in codes if f"`{c}`" not in DOC)
    assert not undocumented, undocumented


def test_every_move_type_is_documented():
    from rules.reign_absolute.moves import MOVE_TYPES

    for kind in MOVE_TYPES:
        assert f"`{kind}`" in DOC, kind
