"""A game's rules document (``docs/rules/<game>.md``) beside its code (``rules/<package>/``), for
each game's ``test_*_rules_doc.py``: the `rule` anchors a violation can point at must be
headings of the document, and the violation codes must be named in it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def github_slug(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@dataclass(frozen=True)
class RulesDoc:
    game_id: str
    text: str
    """The rules document."""
    source: str
    """The code of the game's rules package, its modules in name order."""

    @classmethod
    def of(cls, game_id: str) -> RulesDoc:
        package = ROOT / "rules" / game_id.replace("-", "_")
        return cls(
            game_id,
            (ROOT / "docs" / "rules" / f"{game_id}.md").read_text("utf-8"),
            "".join(p.read_text("utf-8") for p in sorted(package.glob("*.py"))),
        )

    def anchors(self) -> set[str]:
        return {github_slug(m) for m in re.findall(r"^#{1,6} (.+)$", self.text, flags=re.M)}

    def rule_ids(self, rulebook: ModuleType) -> set[str]:
        """The rule ids the rulebook names (its strings ``<game id>#<anchor>``)."""
        prefix = f"{self.game_id}#"
        return {v for v in vars(rulebook).values() if isinstance(v, str) and v.startswith(prefix)}

    def assert_headings(self, rule_ids: Iterable[str]) -> None:
        """Every rule id's anchor is a heading of the document."""
        anchors = self.anchors()
        missing = sorted(r for r in rule_ids if r.split("#", 1)[1] not in anchors)
        assert not missing, missing

    def assert_documented(self, codes: Iterable[str]) -> None:
        """The document names every violation code (as code: `` `code` ``)."""
        undocumented = sorted(c for c in codes if f"`{c}`" not in self.text)
        assert not undocumented, undocumented
