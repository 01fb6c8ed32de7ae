"""The rules document and the code agree: every `rule` anchor a violation can point at is a
heading of docs/rules/reigns-the-council.md, and every violation code is documented there."""

from __future__ import annotations

import re
from pathlib import Path

from rules.reigns_the_council import rulebook

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "rules" / "reigns-the-council.md").read_text("utf-8")
SOURCE = "".join(
    p.read_text("utf-8") for p in sorted((ROOT / "rules" / "reigns_the_council").glob("*.py"))
)


def github_slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors() -> set[str]:
    return {github_slug(m) for m in re.findall(r"^#{1,6} (.+)$", DOC, flags=re.M)}


def test_every_rule_id_is_a_heading_of_the_rules_doc():
    rule_ids = {
        v
        for v in vars(rulebook).values()
        if isinstance(v, str) and v.startswith("reigns-the-council#")
    }
    assert len(rule_ids) >= 25
    missing = sorted(r for r in rule_ids if r.split("#", 1)[1] not in anchors())
    assert not missing, missing


def test_the_code_uses_rule_ids_only_through_the_rulebook():
    assert '"reigns-the-council#' not in SOURCE


def test_every_violation_code_is_documented():
    flat = " ".join(SOURCE.split())
    codes = set(re.findall(r'(?:Violation\(|_v\(|found,)\s*"([a-z_]+)"', flat))
    codes |= {"player_count", "duplicate_player"}
    assert len(codes) > 50
    undocumented = sorted(c for c in codes if f"`{c}`" not in DOC)
    assert not undocumented, undocumented


def test_every_move_type_and_decision_is_documented():
    from rules.reigns_the_council import GAME

    for kind in GAME.move_types:
        assert f"`{kind}`" in DOC, kind
    assert DOC.count("**Decision") >= 12
