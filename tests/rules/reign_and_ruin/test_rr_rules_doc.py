"""The rules document and the code agree: every `rule` anchor a violation can point at is a
heading of docs/rules/reign-and-ruin.md, and every violation code is documented there."""

from __future__ import annotations

import re

from rules.reign_and_ruin import rulebook
from tests.rules.rules_doc import RulesDoc

DOC = RulesDoc.of("reign-and-ruin")


def test_every_rule_id_is_a_heading_of_the_rules_doc():
    rule_ids = DOC.rule_ids(rulebook)
    rule_ids |= set(rulebook.FACTION_RULE.values())
    assert len(rule_ids) >= 20
    DOC.assert_headings(rule_ids)


def test_the_code_uses_rule_ids_only_through_the_rulebook():
    assert '"reign-and-ruin#' not in DOC.source.replace('GAME_ID = "reign-and-ruin"', "")


def test_every_violation_code_is_documented():
    codes = set(re.findall(r'(?:Violation|_v)\(\s*"([a-z_]+)"', DOC.source))
    assert len(codes) > 40
    DOC.assert_documented(codes)


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
        assert anchor in DOC.anchors(), anchor
