"""The rules document and the code agree: every `rule` anchor is a heading of
docs/rules/reign-absolute.md, and every violation code is documented there."""

from __future__ import annotations

import re

from rules.reign_absolute import rulebook
from tests.rules.rules_doc import RulesDoc

DOC = RulesDoc.of("reign-absolute")


def test_every_rule_id_is_a_heading_of_the_rules_doc():
    rule_ids = DOC.rule_ids(rulebook)
    assert len(rule_ids) >= 20
    DOC.assert_headings(rule_ids)


def test_the_code_uses_rule_ids_only_through_the_rulebook():
    assert '"reign-absolute#' not in DOC.source


def test_every_violation_code_is_documented():
    codes = set(re.findall(r'(?:Violation|_v)\(\s*"([a-z_]+)"', DOC.source)) | {
        "player_count",
        "duplicate_player",
    }
    assert len(codes) > 50
    DOC.assert_documented(codes)


def test_every_move_type_is_documented():
    from rules.reign_absolute.moves import MOVE_TYPES

    for kind in MOVE_TYPES:
        assert f"`{kind}`" in DOC.text, kind
