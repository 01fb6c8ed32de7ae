"""The rules document and the code agree: every `rule` anchor a violation can point at is a
heading of docs/rules/reign-supreme.md, and every violation code is documented there."""

from __future__ import annotations

import re

from rules.reign_supreme import rulebook
from tests.rules.rules_doc import RulesDoc

DOC = RulesDoc.of("reign-supreme")


def test_every_rule_id_is_a_heading_of_the_rules_doc():
    rule_ids = DOC.rule_ids(rulebook)
    assert len(rule_ids) >= 25
    DOC.assert_headings(rule_ids)


def test_the_code_uses_rule_ids_only_through_the_rulebook():
    assert '"reign-supreme#' not in DOC.source


def test_every_violation_code_is_documented():
    codes = set(re.findall(r'(?:Violation|_v)\(\s*"([a-z_]+)"', DOC.source))
    codes |= set(re.findall(r'code = "([a-z_]+)" if .* else "([a-z_]+)"', DOC.source)[0])
    assert len(codes) > 60
    DOC.assert_documented(codes)


def test_every_statistic_is_in_the_rules_doc():
    from rules.reign_supreme.content import default_armies

    for army, data in default_armies().items():
        for utype, s in data["units"].items():
            row = (
                f"| {utype} | {army} | {s['name']} | {s['movement']} | {s['hp']} | "
                f"{s['attack']} | {s['defence']} | {s['range']} | {s['damage']} | "
                f"{_cell(s['kinds'])} | {_cell(s['abilities'])} | {_cell(s['spells'])} |"
            )
            assert row in DOC.text, row


def _cell(values: list[str]) -> str:
    return ", ".join(values) if values else "–"


def test_the_doc_says_teleport_takes_mines_and_ruins_as_ruling_rs_15_does():
    """RS 15: "Mines and Ruins: any unit that enters the space claims it ... and so does a unit
    that a card, Knockback or Teleport puts there." The Teleport paragraph once said it "takes no
    Mine or Ruin" while §Mines and Ruins said it does (issue 24); the behaviour is tested by
    ``test_rs_rulings_10_15.py::test_a_unit_teleporting_onto_a_ruin_takes_it``."""
    teleport = next(p for p in DOC.text.split("\n- ") if p.startswith("**Teleport**"))
    assert "takes no Mine or Ruin" not in DOC.text
    assert "RS 15" in teleport and "Mine" in teleport
