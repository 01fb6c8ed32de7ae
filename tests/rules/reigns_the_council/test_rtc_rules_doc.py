"""The rules document and the code agree: every `rule` anchor a violation can point at is a
heading of docs/rules/reigns-the-council.md, and every violation code is documented there."""

from __future__ import annotations

import re

from rules.reigns_the_council import rulebook
from tests.rules.rules_doc import RulesDoc

DOC = RulesDoc.of("reigns-the-council")


def test_every_rule_id_is_a_heading_of_the_rules_doc():
    rule_ids = DOC.rule_ids(rulebook)
    assert len(rule_ids) >= 25
    DOC.assert_headings(rule_ids)


def test_the_code_uses_rule_ids_only_through_the_rulebook():
    assert '"reigns-the-council#' not in DOC.source


def test_every_violation_code_is_documented():
    flat = " ".join(DOC.source.split())
    codes = set(re.findall(r'(?:Violation\(|_v\(|found,)\s*"([a-z_]+)"', flat))
    codes |= {"player_count", "duplicate_player"}
    assert len(codes) > 50
    DOC.assert_documented(codes)


def test_every_move_type_and_decision_is_documented():
    from rules.reigns_the_council import GAME

    for kind in GAME.move_types:
        assert f"`{kind}`" in DOC.text, kind
    assert DOC.text.count("**Decision") >= 12
