"""Golden playthroughs, for every game: seeded games recorded in ``<game>/golden/*.json`` and
replayed move by move by the game's ``test_*_golden.py``, compared byte for byte, so an unintended
change of the rules is caught.

A file holds one game of the test module's ``GAMES``: its setup arguments (``players``,
``seed``, ``options``, ``chooser_seed``), the state after setup, and for every move (chosen by
``random.Random(chooser_seed)`` among the legal moves) the move, its events and the state after
it. What a game leaves out of the stored states to keep its files small is said once, by its
``GOLDEN`` (a :class:`Golden`), which both writes and replays the files. They are laid out with
one line per top-level field and per step, so that a rule change diffs to exactly the steps it
touches.

Regenerate ONLY after an intended rule change, and review the diff:

    cd /work/main && .venv/bin/python -m tests.rules.golden_files reign-absolute [...]
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from api.jsonio import dumps
from rules.engine import Game

__all__ = ["Golden", "compact", "render"]


def compact(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def render(record: dict[str, Any]) -> str:
    """JSON with one line per top-level field and per step."""
    head = [f" {json.dumps(k)}: {compact(v)}" for k, v in sorted(record.items()) if k != "steps"]
    steps = ",\n".join(f"  {compact(step)}" for step in record["steps"])
    return "{\n" + ",\n".join(head) + ',\n "steps": [\n' + steps + "\n ]\n}\n"


@dataclass(frozen=True)
class Golden:
    """How one game's golden files are played, stored and replayed.

    ``catalogues``: state fields no move changes; a step's state leaves them out (the setup
    holds them) and the replay checks that they stay as set up. ``never``: move types the chooser
    never picks (a concession would end a game at its first move). ``state_every``: above 1, a
    step stores the SHA-256 of the state (canonical JSON) and the whole state only every
    ``state_every``-th move and after the last one.
    """

    game: Game
    directory: Path
    games: dict[str, dict[str, Any]]
    """The recorded games by file name: their setup arguments and ``chooser_seed``."""
    catalogues: tuple[str, ...] = ()
    never: tuple[str, ...] = ()
    state_every: int = 1

    @property
    def paths(self) -> list[Path]:
        return sorted(self.directory.glob("*.json"))

    def _stored(self, state: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in state.items() if k not in self.catalogues}

    def _keeps_state(self, index: int, last: int) -> bool:
        return (index + 1) % self.state_every == 0 or index == last

    def play(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Play one game with the spec's chooser and record every step."""
        setup = state = self.game.setup(spec["players"], spec["seed"], spec["options"])
        chooser = random.Random(spec["chooser_seed"])
        steps: list[dict[str, Any]] = []
        states = []
        while state["status"] != "finished":
            legal = [m for m in self.game.legal_moves(state) if m["type"] not in self.never]
            move = chooser.choice(legal)
            state, events = self.game.apply(state, move)
            steps.append({"move": move, "events": events})
            states.append(state)
        for i, (step, after) in enumerate(zip(steps, states, strict=True)):
            if self.state_every > 1:
                step["sha256"] = hashlib.sha256(compact(after).encode("utf-8")).hexdigest()
            if self._keeps_state(i, len(steps) - 1):
                step["state"] = self._stored(after)
        return {**spec, "setup": setup, "steps": steps}

    def write(self) -> None:
        """Play every game of ``games`` and write it to ``<directory>/<name>.json``."""
        self.directory.mkdir(exist_ok=True)
        for name, spec in self.games.items():
            path = self.directory / f"{name}.json"
            record = self.play(spec)
            path.write_text(render(record), "utf-8")
            print(f"{path}: {len(record['steps'])} moves")

    def replay(self, path: Path) -> None:
        """Replay the file's moves; every move still legal, every event list and every stored
        state (and digest) the same byte for byte; the game finished and its state sound."""
        record = json.loads(path.read_text("utf-8"))
        spec = self.games[path.stem]
        assert {k: record[k] for k in spec} == spec, "the file is not the game of its spec"
        setup = record["setup"]
        state = self.game.setup(record["players"], record["seed"], record["options"])
        assert dumps(state) == dumps(setup), "setup changed"
        last = len(record["steps"]) - 1
        for i, step in enumerate(record["steps"]):
            assert step["move"] in self.game.legal_moves(state), f"move {i} is no longer listed"
            state, events = self.game.apply(state, step["move"])
            assert dumps(events) == dumps(step["events"]), f"events of move {i} changed"
            for field in self.catalogues:
                assert state[field] == setup[field], f"move {i} changed the catalogue {field}"
            if self.state_every > 1:
                assert hashlib.sha256(dumps(state)).hexdigest() == step["sha256"], (
                    f"state after move {i} changed"
                )
            assert ("state" in step) == self._keeps_state(i, last), f"step {i} stores its state"
            if "state" in step:
                assert dumps(self._stored(state)) == dumps(step["state"]), (
                    f"state after move {i} changed"
                )
        assert state["status"] == "finished"
        self.game.check_state(state)


def main(game_ids: list[str]) -> None:
    """Write the golden files of the named games (``reign-absolute`` ...)."""
    for game_id in game_ids:
        folder = Path(__file__).resolve().parent / game_id.replace("-", "_")
        (test,) = folder.glob("test_*_golden.py")
        module = importlib.import_module(f"tests.rules.{folder.name}.{test.stem}")
        module.GOLDEN.write()


if __name__ == "__main__":
    main(sys.argv[1:])
