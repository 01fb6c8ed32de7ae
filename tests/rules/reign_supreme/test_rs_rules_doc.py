"""The rules document and the code agree: every `rule` anchor a violation can point at is a
heading of docs/rules/reign-supreme.md, and every violation code is documented there."""

from __future__ import annotations

import re
from pathlib import Path

from rules.reign_supreme import rulebook

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "rules" / "reign-supreme.md").read_text("utf-8")
SOURCE = "".join(p.read_text("utf-8") for p in (ROOT / "rules" / "reign_supreme").glob("*.py"))


def github_slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors() -> set[str]:
    return {github_slug(m) for m in re.findall(r"^#{1,6} (.+)$", DOC, flags=re.M)}


def test_every_rule_id_is_a_heading_of_the_rules_doc():
    rule_ids = {
        v
        for k, v in vars(rulebook).items()
        if isinstance(v, str) and v.startswith("reign-supreme#")
    }
    assert len(rule_ids) >= 25
    missing = sorted(r for r in rule_ids if r.split("#", 1)[1] not in anchors())
    assert not missing, missing


def test_the_code_uses_rule_ids_only_through_the_rulebook():
    assert '"reign-supreme#' not in SOURCE


def test_every_violation_code_is_documented():
    codes = set(re.findall(r'(?:Violation|_v)\(\s*"([a-z_]+)"', SOURCE))
    codes |= set(re.findall(r'code = "([a-z_]+)" if .* else "([a-z_]+)"', SOURCE)[0])
    assert len(codes) > 60
    undocumented = sorted(c for c in codes if f"`{c}`" not in DOC)
    assert not undocumented, undocumented


def test_every_statistic_is_in_the_rules_doc():
    from rules.reign_supreme.content import default_armies

    for army, data in default_armies().items():
        for utype, s in data["units"].items():
            row = (
                f"| {utype} | {army} | {s['name']} | {s['movement']} | {s['hp']} | "
                f"{s['attack']} | {s['defence']} | {s['range']} | {s['damage']} | "
                f"{_cell(s['kinds'])} | {_cell(s['abilities'])} | {_cell(s['spells'])} |"
            )
            assert row in DOC, row


def _cell(values: list[str]) -> str:
    return ", ".join(values) if values else "–"


def test_the_doc_says_teleport_takes_mines_and_ruins_as_ruling_rs_15_does():
    """RS 15: "Mines and Ruins: any unit that enters the space claims it ... and so does a unit
    that a card, Knockback or Teleport puts there." The Teleport paragraph once said it "takes no
    Mine or Ruin" while §Mines and Ruins said it does (issue 24); the behaviour is tested by
    ``test_rs_rulings_10_15.py::test_a_unit_teleporting_onto_a_ruin_takes_it``."""
    teleport = next(p for p in DOC.split("\n- ") if p.startswith("**Teleport**"))
    assert "takes no Mine or Ruin" not in DOC
    assert "RS 15" in teleport and "Mine" in teleport
