"""The seeded corpus: finished games of every game, their whole records kept in ``corpus/``.

``python -m tests.records.corpus`` writes them again (after a rules change that bumps a game's
``schema_version``; ``test_records_corpus.py`` says when). Each file is the record of
``tests.records.games.record_of(game, seed)``: random legal moves from a fixed seed.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.records.games import record_of

CORPUS = Path(__file__).resolve().parent / "corpus"
SEEDS = {
    "reign-absolute": (16, 12),
    "reign-and-ruin": (3, 5),
    "reign-supreme": (8, 17),
    "reigns-the-council": (16, 12),
}
"""Game id -> the seeds of its recorded games (finished within a few hundred moves)."""


def path_of(game_id: str, seed: int) -> Path:
    return CORPUS / f"{game_id}-{seed}.json"


def write() -> list[Path]:
    """Write every record of the corpus; the paths written."""
    CORPUS.mkdir(exist_ok=True)
    written = []
    for game_id, seeds in SEEDS.items():
        for seed in seeds:
            record = record_of(game_id, seed)
            assert record["entries"] and record["fairness"]["seed"] == seed
            path = path_of(game_id, seed)
            path.write_text(json.dumps(record, sort_keys=True, indent=1) + "\n", "utf-8")
            written.append(path)
    return written


if __name__ == "__main__":
    for path in write():
        print(path)
