"""Write ``fixtures/moves.json``, checked by ``test_rr_move_fixture.py`` (see ``move_fixture``).

Regenerate ONLY after an intended rule change, and review why each digest changed:

    .venv/bin/python tests/rules/reign_and_ruin/make_move_fixture.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.rules.reign_and_ruin.move_fixture import (  # noqa: E402
    digest,
    sample_states,
    state_record,
)

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "moves.json"


def main() -> None:
    digests = [digest(state_record(s)) for s in sample_states()]
    FIXTURE.write_text(json.dumps({"digests": digests}, indent=0) + "\n", "utf-8")
    print(f"{FIXTURE}: {len(digests)} states")


if __name__ == "__main__":
    main()
