"""The rules document and the code agree: every `rule` anchor a violation can point at is a
heading of docs/rules/reign-and-ruin.md, and every violation code is documented there."""

from __future__ import annotations

import re
from pathlib import Path

from rules.reign_and_ruin import rulebook

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "rules" / "reign-and-ruin.md").read_text("utf-8")
SOURCE = "".join(p.read_text("utf-8") for p in (ROOT / "rules" / "reign_and_ruin").glob("*.py"))


def github_slug(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors() -> set[str]:
    return {github_slug(m) for m in re.findall(r"^#{1,6} (.+)$", DOC, flags=re.M)}


def test_every_rule_id_is_a_heading_of_the_rules_doc():
    rule_ids = {
        v
        for k, v in vars(rulebook).items()
        if isinstance(v, str) and v.startswith("reign-and-ruin#")
    }
    rule_ids |= set(rulebook.FACTION_RULE.values())
    assert len(rule_ids) >= 20
    missing = sorted(r for r in rule_ids if r.split("#", 1)[1] not in anchors())
    assert not missing, missing


def test_the_code_uses_rule_ids_only_through_the_rulebook():
    assert '"reign-and-ruin#' not in SOURCE.replace('GAME_ID = "reign-and-ruin"', "")


def test_every_violation_code_is_documented():
    codes = set(re.findall(r'(?:Violation|_v)\(\s*"([a-z_]+)"', SOURCE))
    assert len(codes) > 40
    undocumented = sorted(c for c in codes if f"`{c}`" not in DOC)
    assert not undocumented, undocumented


def test_required_anchors_exist():
    for anchor in (
        "hexen",
        "protection",
        "draft",
        "turn",
        "final-round",
        "scoring",
        "tie-breaks",
        "setup",
        "players",
        "hidden-information",
        "integrity",
        "crou",
        "nomora",
        "alfenghast",
        "kurgoz",
        "cognitz",
    ):
        assert anchor in anchors(), anchor
