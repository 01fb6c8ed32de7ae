"""Regenerate the examples of openapi.yaml from the real rules and the real app.

    .venv/bin/python -m tests.contract.examples_gen          # rewrite the examples in place
    .venv/bin/python -m tests.contract.examples_gen --check  # exit 1 if they are out of date

Every example under ``components.examples`` (between the BEGIN/END markers) is built here by
playing a real game (seed 187, players ann and bob, random legal moves until move 11, a play
turn where every play move type is legal for ann) and by asking the app itself for its
answers, errors included. The mid-game state is written once with a YAML anchor and reused by
the request examples that carry it.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "schemas" / "openapi_base.yaml"
BEGIN = "    # BEGIN GENERATED EXAMPLES (tests/contract/examples_gen.py)\n"
END = "    # END GENERATED EXAMPLES\n"
GAME = "reign-and-ruin"
P = f"/v1/games/{GAME}"
SEED = 187
PLAYERS = ["ann", "bob"]
MID_MOVE = 11


def _fresh(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _readable(value: Any, keep: frozenset[int] = frozenset()) -> Any:
    """A copy in reading order: problems as RFC 9457 lists them, moves and events with
    ``player`` and ``type`` first (the server sorts keys; JSON objects are unordered anyway)."""
    if id(value) in keep:
        return value
    if isinstance(value, list):
        return [_readable(v, keep) for v in value]
    if isinstance(value, dict):
        if "title" in value and "status" in value:
            first = [k for k in ("type", "title", "status", "detail", "code") if k in value]
        else:
            first = [k for k in ("player", "type") if isinstance(value.get(k), str)]
        keys = first + [k for k in value if k not in first]
        return {k: _readable(value[k], keep) for k in keys}
    return value


def _pick(moves: list[dict], kind: str, **prefer: Any) -> dict:
    of_kind = [m for m in moves if m["type"] == kind]
    for m in of_kind:
        if all(m.get(k) == v for k, v in prefer.items()):
            return m
    return of_kind[0]


def build() -> dict[str, dict[str, Any]]:
    from api import create_app
    from rules.registry import get_game

    game = get_game(GAME)
    app = create_app({"TESTING": True, "REDIS_URL": None})
    client = app.test_client()

    def ask(method: str, path: str, body: Any = None, raw: bytes | None = None,
            content_type: str = "application/json", status: int = 200) -> Any:
        data = raw if raw is not None else (None if body is None else json.dumps(body))
        headers = {"Content-Type": content_type} if data is not None else {}
        response = client.open(path, method=method, data=data, headers=headers)
        assert response.status_code == status, (path, body, response.status_code, response.get_data()[:500])
        return response.get_json(force=True)

    # -- the game the examples come from -----------------------------------------------------
    setup_request = {"players": PLAYERS, "seed": SEED}
    start = ask("POST", f"{P}/setup", setup_request)["state"]
    chooser = random.Random(SEED)
    state = start
    while state["move_count"] < MID_MOVE:
        state = game.apply(state, chooser.choice(game.legal_moves(state)))[0]
    mid = state
    assert mid["phase"] == "play" and mid["active_players"] == ["ann"]
    final = mid
    while final["status"] != "finished":
        final = game.apply(final, chooser.choice(game.legal_moves(final)))[0]

    legal = ask("POST", f"{P}/legal-moves", {"state": mid, "player": "ann"})
    moves = legal["moves"]
    protected = next(f["card"] for army in mid["armies"].values() for f in army if f["cognitz"])
    unprotected = [f["card"] for f in mid["armies"]["bob"] if not f["cognitz"]] or \
                  [f["card"] for army in mid["armies"].values() for f in army if not f["cognitz"]]
    chosen = {
        "fighter": moves[0] if moves[0]["type"] == "fighter" else _pick(moves, "fighter"),
        "destroy": _pick(moves, "destroy", target=unprotected[0]),
        "draw": _pick(moves, "draw"),
        "double": _pick(moves, "double", target=unprotected[0]),
        "protect": _pick(moves, "protect", target=unprotected[0]),
        "swap": _pick(moves, "swap", to="army"),
        "revive": _pick(moves, "revive", to="army", army="ann"),
    }
    draft_move = ask("POST", f"{P}/legal-moves", {"state": start, "player": "ann"})["moves"][0]
    illegal = dict(chosen["destroy"], target=protected)
    applied = ask("POST", f"{P}/apply", {"state": mid, "move": chosen["destroy"]})

    broken = _fresh(mid)
    broken["hands"]["ann"].append(broken["draw_pile"][0])
    problems = {
        "illegal": ask("POST", f"{P}/apply", {"state": mid, "move": illegal}, status=422),
        "invalid_state": ask("POST", f"{P}/score", {"state": broken}, status=422),
        "invalid_setup": ask("POST", f"{P}/setup", {"players": ["ann"]}, status=422),
        "malformed": ask("POST", f"{P}/apply", raw=b'{"state": {', status=400),
        "validation": ask("POST", f"{P}/apply", {"state": mid, "move": {k: v for k, v in chosen["destroy"].items()
                                                                         if k != "target"}}, status=400),
        "unknown_game": ask("GET", "/v1/games/chess", status=404),
        "too_large": ask("POST", f"{P}/apply", raw=b'{"state": "' + b"x" * (1 << 20) + b'"}', status=413),
        "media_type": ask("POST", f"{P}/apply", raw=b"state=...", content_type="text/plain", status=415),
        "unknown_player": ask("POST", f"{P}/view", {"state": mid, "player": "zed"}, status=422),
    }
    not_legal = ask("POST", f"{P}/validate", {"state": mid, "move": illegal})
    assert not_legal["legal"] is False

    # -- the examples, in document order (the anchors come before their aliases) ---------------
    ex: dict[str, dict[str, Any]] = {}

    shared = frozenset({id(start), id(mid)})

    def add(name: str, summary: str, value: Any, description: str | None = None) -> None:
        entry: dict[str, Any] = {"summary": summary}
        if description:
            entry["description"] = description
        entry["value"] = _readable(value, shared)  # the shared states stay shared (YAML anchors)
        ex[name] = entry

    add("GameList", "The catalogue", ask("GET", "/v1/games"))
    add("GameDetail", "Reign & Ruin with its default deck and factions", ask("GET", P))
    add("SetupRequest", "Two players, fixed seed", setup_request)
    add("SetupRequestWithOptions", "Three players, the previous winner starts",
        {"players": ["ann", "bob", "cat"], "seed": 42, "options": {"starting_player": "cat"}})
    deck = ([{"faction": f, "value": v} for f in ("alfenghast", "hexen", "kurgoz", "cognitz", "crou", "nomora")
             for v in (2, 5)] + [{"faction": "crou", "value": 5}, {"id": "old-king", "faction": "alfenghast", "value": 12}])
    add("SetupRequestCustomDeck", "A custom deck of 14 cards",
        {"players": PLAYERS, "seed": 1, "options": {"deck": deck}},
        "Missing ids are generated: `crou-5`, then `crou-5-2` for the second Crou 5.")
    setup_response = {"state": start}
    add("SetupResponse", "A new game: round 1 of the draft", setup_response)
    add("MidGameState", "A state at move 11 (ann to play; every play move type is legal for her)",
        {"state": mid, "player": "ann"})
    add("LegalMovesResponse", "Ann's legal moves in the mid-game state", legal)
    add("MoveRequestDraft", "draft: keep two cards of your packet (in the new game above)",
        {"state": start, "move": draft_move})
    for kind, move in chosen.items():
        add(f"MoveRequest{kind.capitalize()}", f"{kind}: {_describe(kind, move, mid)}",
            {"state": mid, "move": move})
    add("MoveRequestIllegal", f"An illegal move: destroying the protected fighter {protected}",
        {"state": mid, "move": illegal})
    add("ValidateLegal", "A legal move", {"legal": True, "violations": []})
    add("ValidateIllegal", "An illegal move", not_legal)
    add("ApplyResponse", "After ann's destroy", applied)
    add("ScoreRequest", "Score the mid-game state", {"state": mid})
    add("ScoreResponseProvisional", "Provisional standings at move 11",
        ask("POST", f"{P}/score", {"state": mid}))
    add("ScoreRequestFinished", "Score the finished game", {"state": final})
    add("ScoreResponseFinished", "Final standings", ask("POST", f"{P}/score", {"state": final}))
    add("ViewRequestPlayer", "What ann may see", {"state": mid, "player": "ann"})
    add("ViewRequestSpectator", "What a spectator may see", {"state": mid})
    add("ViewResponsePlayer", "Ann's view: her hand, everyone's hand size",
        ask("POST", f"{P}/view", {"state": mid, "player": "ann"}))
    add("ViewResponseSpectator", "A spectator's view: no hand",
        ask("POST", f"{P}/view", {"state": mid}))
    add("ViewResponseDraft", "Ann's view during the draft: her packet only",
        ask("POST", f"{P}/view", {"state": start, "player": "ann"}))
    add("IllegalMoveProblem", "An illegal move", problems["illegal"])
    add("InvalidStateProblem", "A state with a card in two places", problems["invalid_state"])
    add("UnknownPlayerProblem", "A player who is not in the game", problems["unknown_player"])
    add("InvalidSetupProblem", "Too few players", problems["invalid_setup"])
    add("MalformedJsonProblem", "A body that is not JSON", problems["malformed"])
    add("ValidationErrorProblem", "A move without its target", problems["validation"])
    add("UnknownGameProblem", "No such game", problems["unknown_game"])
    add("PayloadTooLargeProblem", "A body over 1 MiB", problems["too_large"])
    add("UnsupportedMediaTypeProblem", "A text/plain body", problems["media_type"])
    return ex


def _describe(kind: str, move: dict, state: dict) -> str:
    if kind == "fighter":
        return f"play {move['card']} into your own army"
    if kind == "destroy":
        return f"{move['card']} destroys the fighter {move['target']}"
    if kind == "draw":
        return f"{move['card']} draws the top card of the draw pile"
    if kind == "double":
        return f"{move['card']} puts a Kurgoz token on {move['target']}"
    if kind == "protect":
        return f"{move['card']} puts a Cognitz token on {move['target']}"
    if kind == "swap":
        if "take" in move:
            return (f"{move['card']} joins {move['opponent']}'s army, then {move['take']} moves "
                    f"to your {move['to']}")
        return f"{move['card']} joins {move['opponent']}'s army (nothing to take)"
    if kind == "revive":
        where = f"{move['army']}'s army" if move["to"] == "army" else "your hand"
        return f"{move['card']} brings {move['target']} back from the discard pile into {where}"
    return kind


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # anchors only for the shared states
        return not (isinstance(data, dict) and id(data) in _Dumper.shared)

    shared: set[int] = set()


def render(examples: dict[str, dict[str, Any]]) -> str:
    # The same state object appears in several examples: give it one anchor, named.
    names = {}
    for name, key in (("SetupResponse", "state"), ("MidGameState", "state")):
        obj = examples[name]["value"][key]
        names[id(obj)] = name[0].lower() + name[1:]
    _Dumper.shared = set(names)
    text = yaml.dump(examples, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=110,
                     allow_unicode=True)
    # yaml names anchors id001, id002... in order of first appearance
    order = []
    for name, key in (("SetupResponse", "state"), ("MidGameState", "state")):
        order.append(names[id(examples[name]["value"][key])])
    for i, label in enumerate(order, start=1):
        text = text.replace(f"&id{i:03d}", f"&{label}").replace(f"*id{i:03d}", f"*{label}")
    return "".join("    " + line if line.strip() else line for line in text.splitlines(True))


def splice(spec_text: str, block: str) -> str:
    start = spec_text.index(BEGIN) + len(BEGIN)
    end = spec_text.index(END)
    return spec_text[:start] + block + spec_text[end:]


def main(argv: list[str]) -> int:
    text = SPEC.read_text("utf-8")
    new = splice(text, render(build()))
    if "--check" in argv:
        if new != text:
            print("the examples in schemas/openapi_base.yaml are out of date: run python -m tests.contract.examples_gen "
                  "then reign-referee openapi")
            return 1
        return 0
    SPEC.write_text(new, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
