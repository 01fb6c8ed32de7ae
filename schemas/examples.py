"""The examples of ``openapi.yaml``, generated from the real rules and the real app.

    reign-referee examples          # rewrite the examples block of schemas/openapi_base.yaml
    reign-referee examples --check  # exit 1 if it is out of date (a test checks it too)
    reign-referee openapi           # then write openapi.yaml

Every example between the BEGIN/END markers of ``schemas/openapi_base.yaml`` is built here by
asking the app itself (``ask``: one HTTP call, handed in by the caller, so that ``schemas`` never
imports ``api``), errors included:

* Reign & Ruin, hand-picked: seed 187, players ann and bob, random legal moves until move 11, a
  play turn where every play move type is legal for ann; every problem the service answers.
* an open Reign & Ruin session (seed 7, ann and bob): created, ann's legal moves, her first one
  posted with ``If-Match``, then the session and its history as bob sees them; the random session
  id, tokens, salt and times are replaced by fixed stand-ins (``SESSION_STAND_INS``; the
  commitment by the one to the stand-in salt), and the legal moves
  are cut to the first three. A session request per game;
* every other game: a setup of its fewest players, seed 1, the state it deals, its first legal
  move and the app's answers to setup, legal-moves, validate, apply, score and view
  (``<Game>SetupRequest`` ... ``<Game>ViewResponse``; ``schemas.openapi`` refers the game's
  operations to them).

A state used by several examples is written once with a YAML anchor.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from rules.records import FORMAT, FORMAT_VERSION, commitment, make_entry, state_digest
from rules.registry import GAMES, get_game
from schemas.openapi import game_prefix

__all__ = ["Ask", "BASE", "BEGIN", "END", "build", "render", "splice", "refresh"]

Ask = Callable[..., Any]
"""``ask(method, path, body=None, raw=None, content_type="application/json", status=200,
headers=None)``: the app's JSON answer to one request, which must have ``status``."""

BASE = Path(__file__).resolve().parent / "openapi_base.yaml"
BEGIN = "    # BEGIN GENERATED EXAMPLES (reign-referee examples)\n"
END = "    # END GENERATED EXAMPLES\n"
GAME = "reign-and-ruin"
P = f"/v1/games/{GAME}"
SEED = 187
PLAYERS = ["ann", "bob"]
MID_MOVE = 11
SEATS = ["ann", "bob", "cat", "dan", "eve", "fay"]
SESSION_SEED = 7
SESSION_STAND_INS = {
    "session_id": "mGy9_2iusRS5D2UA9lxI9g",
    "admin_token": "AdminToken-0123456789abcdefghijklmnopqrstuvwxyz",
    "ann": "AnnSeatToken-0123456789abcdefghijklmnopqrstuvw",
    "bob": "BobSeatToken-0123456789abcdefghijklmnopqrstuvw",
    "at": "2026-11-21T18:00:00.000Z",
    "fork_session_id": "fOrK_2iusRS5D2UA9lxI9g",
    "takeback_id": "tAkEbAcK-0123456789ab",
    "salt": "5a17c0ffee5a17c0ffee5a17c0ffee00",
}
"""What stands in the examples for a real session's random id and tokens and its clock."""


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


def build(ask: Ask) -> dict[str, dict[str, Any]]:
    """Every generated example, name -> ``{summary, description?, value}``, in document order."""
    game = get_game(GAME)

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
    unprotected = [f["card"] for f in mid["armies"]["bob"] if not f["cognitz"]] or [
        f["card"] for army in mid["armies"].values() for f in army if not f["cognitz"]
    ]
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
        "validation": ask(
            "POST",
            f"{P}/apply",
            {"state": mid, "move": {k: v for k, v in chosen["destroy"].items() if k != "target"}},
            status=400,
        ),
        "unknown_game": ask("GET", "/v1/games/chess", status=404),
        "too_large": ask(
            "POST", f"{P}/apply", raw=b'{"state": "' + b"x" * (1 << 20) + b'"}', status=413
        ),
        "media_type": ask(
            "POST", f"{P}/apply", raw=b"state=...", content_type="text/plain", status=415
        ),
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
    add(
        "SetupRequestWithOptions",
        "Three players, the previous winner starts",
        {"players": ["ann", "bob", "cat"], "seed": 42, "options": {"starting_player": "cat"}},
    )
    deck = [
        {"faction": f, "value": v}
        for f in ("alfenghast", "hexen", "kurgoz", "cognitz", "crou", "nomora")
        for v in (2, 5)
    ] + [{"faction": "crou", "value": 5}, {"id": "old-king", "faction": "alfenghast", "value": 12}]
    add(
        "SetupRequestCustomDeck",
        "A custom deck of 14 cards",
        {"players": PLAYERS, "seed": 1, "options": {"deck": deck}},
        "Missing ids are generated: `crou-5`, then `crou-5-2` for the second Crou 5.",
    )
    setup_response = {"state": start}
    add("SetupResponse", "A new game: round 1 of the draft", setup_response)
    add(
        "MidGameState",
        "A state at move 11 (ann to play; every play move type is legal for her)",
        {"state": mid, "player": "ann"},
    )
    add("LegalMovesResponse", "Ann's legal moves in the mid-game state", legal)
    add(
        "MoveRequestDraft",
        "draft: keep two cards of your packet (in the new game above)",
        {"state": start, "move": draft_move},
    )
    for kind, move in chosen.items():
        add(
            f"MoveRequest{kind.capitalize()}",
            f"{kind}: {_describe(kind, move, mid)}",
            {"state": mid, "move": move},
        )
    add(
        "MoveRequestIllegal",
        f"An illegal move: destroying the protected fighter {protected}",
        {"state": mid, "move": illegal},
    )
    add("ValidateLegal", "A legal move", {"legal": True, "violations": []})
    add("ValidateIllegal", "An illegal move", not_legal)
    add("ApplyResponse", "After ann's destroy", applied)
    add("ScoreRequest", "Score the mid-game state", {"state": mid})
    add(
        "ScoreResponseProvisional",
        "Provisional standings at move 11",
        ask("POST", f"{P}/score", {"state": mid}),
    )
    add("ScoreRequestFinished", "Score the finished game", {"state": final})
    add("ScoreResponseFinished", "Final standings", ask("POST", f"{P}/score", {"state": final}))
    add("ViewRequestPlayer", "What ann may see", {"state": mid, "player": "ann"})
    add("ViewRequestSpectator", "What a spectator may see", {"state": mid})
    add(
        "ViewResponsePlayer",
        "Ann's view: her hand, everyone's hand size",
        ask("POST", f"{P}/view", {"state": mid, "player": "ann"}),
    )
    add(
        "ViewResponseSpectator",
        "A spectator's view: no hand",
        ask("POST", f"{P}/view", {"state": mid}),
    )
    add(
        "ViewResponseDraft",
        "Ann's view during the draft: her packet only",
        ask("POST", f"{P}/view", {"state": start, "player": "ann"}),
    )
    add("IllegalMoveProblem", "An illegal move", problems["illegal"])
    add("InvalidStateProblem", "A state with a card in two places", problems["invalid_state"])
    add("UnknownPlayerProblem", "A player who is not in the game", problems["unknown_player"])
    add("InvalidSetupProblem", "Too few players", problems["invalid_setup"])
    add("MalformedJsonProblem", "A body that is not JSON", problems["malformed"])
    add("ValidationErrorProblem", "A move without its target", problems["validation"])
    add("UnknownGameProblem", "No such game", problems["unknown_game"])
    add("PayloadTooLargeProblem", "A body over 1 MiB", problems["too_large"])
    add("UnsupportedMediaTypeProblem", "A text/plain body", problems["media_type"])
    ex.update(_session_examples(ask))
    ex.update(_record_session_examples(ask))
    for game_id in GAMES:
        if game_id != GAME:
            ex.update(_game_examples(ask, game_id))
    ex.update(_replay_examples(ask))
    return ex


RECORD_SALT = "5a17" * 8
"""The stand-in salt of the replay examples' records (the commitment to it is real)."""


def _replay_examples(ask: Ask) -> dict[str, dict[str, Any]]:
    """For every game, the whole record of an open game that has just been set up (seed 1, its
    fewest players) and the app's verdict; for Reign & Ruin also a tampered record of one move."""
    out: dict[str, dict[str, Any]] = {}
    for game_id, game in GAMES.items():
        p, path = game_prefix(game_id), f"/v1/games/{game_id}"
        players = SEATS[: game.min_players]
        start = game.setup(players, 1, {})
        fairness = {
            "open": True,
            "seed_commitment": commitment(RECORD_SALT, 1),
            "seed": 1,
            "salt": RECORD_SALT,
        }
        record = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": game_id,
            "schema_version": start["schema_version"],
            "options": {},
            "players": players,
            "fairness": fairness,
            "forked_from": None,
            "start_digest": state_digest(start),
            "entries": [],
        }
        request = {"record": record}
        out[p + "ReplayRequest"] = {
            "summary": f"The record of an open {game.title} game just set up (seed 1)",
            "value": request,
        }
        out[p + "ReplayResponse"] = {
            "summary": "It replays",
            "value": ask("POST", f"{path}/replay", request),
        }
        if game_id != GAME:
            continue
        move = game.legal_moves(start, players[0])[0]
        after, events = game.apply(start, move)
        entry = make_entry(1, players[0], move, events, SESSION_STAND_INS["at"], after)
        other = game.legal_moves(start, players[0])[1]
        tampered = dict(record, entries=[dict(entry, move=other)])
        out[p + "ReplayRequestTampered"] = {
            "summary": f"A record whose first move was changed to another pick ({other['cards']})",
            "value": {"record": tampered},
        }
        out[p + "ReplayResponseTampered"] = {
            "summary": "It differs at version 1",
            "value": ask("POST", f"{path}/replay", {"record": tampered}),
        }
    return out


def _record_session_examples(ask: Ask) -> dict[str, dict[str, Any]]:
    """A record, a fork and a takeback from real sessions, their random ids, tokens, seeds and
    times replaced by stand-ins: a Reign & Ruin session after Ann's first move (its record as Bob
    sees it, and Ann's fork of it at version 1), and a Reign Supreme session of six set-up
    placements, where the last seat to move proposes taking back the other's last placement and
    its own, and the other accepts."""
    create = {"game": GAME, "players": PLAYERS, "open": True, "seed": SESSION_SEED}
    created = ask("POST", "/v1/sessions", create, status=201)
    sid, seats = created["session_id"], created["seats"]
    base = f"/v1/sessions/{sid}"

    def seat(player: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {seats[player]}"}

    move = ask("GET", f"{base}/legal-moves", headers=seat("ann"))["moves"][0]
    ask("POST", f"{base}/moves", {"move": move}, headers=seat("ann"))
    record = ask("GET", f"{base}/record", headers=seat("bob"))
    fork_request = {"version": 1, "as": "ann"}
    forked = ask("POST", f"{base}/fork", fork_request, headers=seat("ann"), status=201)
    admin = {"Authorization": f"Bearer {created['admin_token']}"}
    fork_admin = {"Authorization": f"Bearer {forked['admin_token']}"}
    ask("DELETE", f"/v1/sessions/{forked['session_id']}", headers=fork_admin, status=204)
    ask("DELETE", base, headers=admin, status=204)

    rs_create = {"game": "reign-supreme", "players": PLAYERS, "open": True, "seed": SESSION_SEED}
    rs = ask("POST", "/v1/sessions", rs_create, status=201)
    rs_base = f"/v1/sessions/{rs['session_id']}"
    movers = []
    for _ in range(6):
        for player, token in sorted(rs["seats"].items()):
            auth = {"Authorization": f"Bearer {token}"}
            moves = ask("GET", f"{rs_base}/legal-moves", headers=auth)["moves"]
            if moves:
                ask("POST", f"{rs_base}/moves", {"move": moves[0]}, headers=auth)
                movers.append(player)
                break
    last = movers[-1]
    other = next(p for p in reversed(movers) if p != last)
    to_version = len(movers) - movers[::-1].index(other) - 1
    takeback_request = {"to_version": to_version}
    proposed = ask(
        "POST",
        f"{rs_base}/takebacks",
        takeback_request,
        headers={"Authorization": f"Bearer {rs['seats'][last]}"},
        status=201,
    )
    answer_request = {"answer": "accept"}
    accepted = ask(
        "POST",
        f"{rs_base}/takebacks/{proposed['takeback_id']}",
        answer_request,
        headers={"Authorization": f"Bearer {rs['seats'][other]}"},
    )
    rs_admin = {"Authorization": f"Bearer {rs['admin_token']}"}
    ask("DELETE", rs_base, headers=rs_admin, status=204)

    seeds = {SESSION_SEED: SESSION_SEED, forked["fairness"]["seed"]: 1234567}
    """The fork's seed is drawn at random: it stands in as 1234567."""
    replaced = {
        sid: SESSION_STAND_INS["session_id"],
        forked["session_id"]: SESSION_STAND_INS["fork_session_id"],
        forked["admin_token"]: SESSION_STAND_INS["admin_token"],
        proposed["takeback_id"]: SESSION_STAND_INS["takeback_id"],
        **{token: SESSION_STAND_INS[p] for p, token in forked["seats"].items()},
    }

    def fair(value: dict[str, Any]) -> dict[str, Any]:
        """An open session's fairness with the stand-in salt (and seed), committed to again."""
        seed = seeds[value["seed"]]
        salt = SESSION_STAND_INS["salt"]
        return dict(value, seed=seed, salt=salt, seed_commitment=commitment(salt, seed))

    def stand_in(value: Any) -> Any:
        if isinstance(value, list):
            return [stand_in(v) for v in value]
        if isinstance(value, dict):
            return {
                k: SESSION_STAND_INS["at"]
                if k == "at"
                else fair(v)
                if k == "fairness"
                else stand_in(v)
                for k, v in value.items()
            }
        return replaced.get(value, value) if isinstance(value, str) else value

    examples = {
        "SessionRecordExample": (
            "The record as Bob sees it after Ann's first move: her picks are hidden from him",
            record,
        ),
        "ForkRequestExample": (
            "Ann forks the game at version 1, from what she knows",
            fork_request,
        ),
        "SessionForkedExample": (
            "The fork: a token for every seat; the others' packets drawn afresh",
            forked,
        ),
        "TakebackRequestExample": (
            f"Reign Supreme, version {len(movers)}: {last} proposes going back to version "
            f"{to_version} (undoing {other}'s last placement and its own)",
            takeback_request,
        ),
        "SessionTakebackProposedExample": (f"It waits on {other}", proposed),
        "TakebackAnswerRequestExample": (f"{other} accepts", answer_request),
        "SessionTakebackAcceptedExample": (
            f"Accepted: version {accepted['version']} has version {to_version}'s state",
            accepted,
        ),
    }
    return {
        name: {"summary": summary, "value": _readable(stand_in(value))}
        for name, (summary, value) in examples.items()
    }


def _session_examples(ask: Ask) -> dict[str, dict[str, Any]]:
    """A real Reign & Ruin session, its secrets and clock replaced by ``SESSION_STAND_INS``, and a
    request to start a session of every game."""
    create = {"game": GAME, "players": PLAYERS, "open": True, "seed": SESSION_SEED}
    created = ask("POST", "/v1/sessions", create, status=201)
    sid, seats = created["session_id"], created["seats"]
    fairness = created["fairness"]
    base = f"/v1/sessions/{sid}"

    def seat(player: str, **more: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {seats[player]}", **more}

    legal = ask("GET", f"{base}/legal-moves", headers=seat("ann"))
    move = {"move": legal["moves"][0]}
    moved = ask("POST", f"{base}/moves", move, headers=seat("ann", **{"If-Match": '"0"'}))
    snapshot = ask("GET", base, headers=seat("bob"))
    history = ask("GET", f"{base}/history", headers=seat("bob"))
    ask("DELETE", base, headers={"Authorization": f"Bearer {created['admin_token']}"}, status=204)
    replaced = {
        sid: SESSION_STAND_INS["session_id"],
        created["admin_token"]: SESSION_STAND_INS["admin_token"],
        **{token: SESSION_STAND_INS[p] for p, token in seats.items()},
        fairness["salt"]: SESSION_STAND_INS["salt"],  # and the commitment to the stand-in salt
        fairness["seed_commitment"]: hashlib.sha256(
            f"{SESSION_STAND_INS['salt']}:{SESSION_SEED}".encode()
        ).hexdigest(),
    }

    def stand_in(value: Any) -> Any:
        if isinstance(value, list):
            return [stand_in(v) for v in value]
        if isinstance(value, dict):
            return {
                k: SESSION_STAND_INS["at"] if k == "at" else stand_in(v) for k, v in value.items()
            }
        return replaced.get(value, value) if isinstance(value, str) else value

    shown = dict(legal, moves=legal["moves"][:3])
    examples = {
        "SessionCreatedExample": (
            "A new two-seat open Reign & Ruin session with seed 7 (the tokens and salt stand in "
            "for random ones)",
            created,
        ),
        "SessionLegalMovesExample": (
            f"Ann's legal moves at version 0 (the first three of {len(legal['moves'])})",
            shown,
        ),
        "SessionMoveRequestExample": ('Ann\'s first legal move, sent with If-Match: "0"', move),
        "SessionMoveResponseExample": ("The answer to Ann's move, as Ann may see it", moved),
        "SessionSnapshotExample": (
            "Bob's seat after Ann's move: what she kept is hidden from him",
            snapshot,
        ),
        "SessionHistoryExample": (
            "History as Bob sees it: Ann's move shows only its player and type",
            history,
        ),
    }
    out = {
        name: {"summary": summary, "value": _readable(stand_in(value))}
        for name, (summary, value) in examples.items()
    }
    out.update(_clock_examples(ask))
    for game_id, game in GAMES.items():
        out[game_prefix(game_id) + "CreateSessionExample"] = {
            "summary": f"{game.title}, {game.min_players} seats",
            "value": {"game": game_id, "players": SEATS[: game.min_players]},
        }
    return out


CLOCKED = {
    "clock": {"type": "fischer", "initial_seconds": 300, "increment_seconds": 5},
    "on_timeout": {"action": "bot", "level": "greedy"},
    "grace_seconds": 30,
}
"""The clock of the clocked session example: 5 minutes plus 5 seconds a move, a greedy bot
plays a move for a seat out of time, 30 seconds of grace."""


def _clock_examples(ask: Ask) -> dict[str, dict[str, Any]]:
    """A clocked Reign & Ruin session: its creation request, and the admin's pause then add-time
    (paused, so the times do not run; each rounded up to the second, which hides the
    milliseconds the clock ran between creation and pause)."""
    create = {"game": GAME, "players": PLAYERS, **CLOCKED}
    created = ask("POST", "/v1/sessions", create, status=201)
    base = f"/v1/sessions/{created['session_id']}"
    admin = {"Authorization": f"Bearer {created['admin_token']}"}
    ask("POST", f"{base}/clock", {"action": "pause"}, headers=admin)
    add = {"action": "add_time", "player": "bob", "seconds": 60}
    answer = ask("POST", f"{base}/clock", add, headers=admin)
    ask("DELETE", base, headers=admin, status=204)
    clock = dict(
        answer["clock"],
        remaining_ms={
            p: -(-ms // 1000) * 1000 for p, ms in answer["clock"]["remaining_ms"].items()
        },
    )
    # a fair session: its commitment is to a secret seed, drawn afresh each run
    fairness = dict(
        answer["fairness"], seed_commitment=commitment(SESSION_STAND_INS["salt"], SESSION_SEED)
    )
    answer = dict(
        answer, session_id=SESSION_STAND_INS["session_id"], clock=clock, fairness=fairness
    )
    return {
        "ClockedCreateSessionExample": {
            "summary": "A session with a Fischer clock (5 min + 5 s), a bot for a seat out of time",
            "value": create,
        },
        "SessionClockRequestExample": {
            "summary": "Give Bob a minute more (admin token)",
            "value": add,
        },
        "SessionClockAnswerExample": {
            "summary": "The clock after the admin paused it and gave Bob a minute",
            "value": answer,
        },
    }


def _game_examples(ask: Ask, game_id: str) -> dict[str, dict[str, Any]]:
    """A game's examples from real play: a setup, the state it deals, its first legal move, and
    what the app answers to each operation on them."""
    game, p, path = GAMES[game_id], game_prefix(game_id), f"/v1/games/{game_id}"
    players = SEATS[: game.min_players]
    setup = {"players": players, "seed": 1}
    state = ask("POST", f"{path}/setup", setup)["state"]
    move = ask("POST", f"{path}/legal-moves", {"state": state})["moves"][0]
    player = move["player"]
    with_player = {"state": state, "player": player}
    with_move = {"state": state, "move": move}
    examples = {
        "SetupRequest": (f"A {game.title} game of {len(players)}, seed 1", setup),
        "SetupResponse": ("The state it deals", {"state": state}),
        "StateRequest": ("The state that setup deals", {"state": state}),
        "StatePlayerRequest": (f"The state that setup deals, for {player}", with_player),
        "LegalMovesResponse": (
            f"{player}'s legal moves",
            ask("POST", f"{path}/legal-moves", with_player),
        ),
        "MoveRequest": (f"{player}'s first legal move in that state", with_move),
        "ValidateResponse": ("It is legal", ask("POST", f"{path}/validate", with_move)),
        "ApplyResponse": (
            "The state after it, and what happened",
            ask("POST", f"{path}/apply", with_move),
        ),
        "ScoreResponse": ("Provisional standings", ask("POST", f"{path}/score", {"state": state})),
        "ViewResponse": (f"What {player} may see", ask("POST", f"{path}/view", with_player)),
    }
    return {
        p + name: {"summary": summary, "value": value}
        for name, (summary, value) in examples.items()
    }


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
            return (
                f"{move['card']} joins {move['opponent']}'s army, then {move['take']} moves "
                f"to your {move['to']}"
            )
        return f"{move['card']} joins {move['opponent']}'s army (nothing to take)"
    if kind == "revive":
        where = f"{move['army']}'s army" if move["to"] == "army" else "your hand"
        return f"{move['card']} brings {move['target']} back from the discard pile into {where}"
    return kind


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # anchors only for the shared states
        return not (isinstance(data, dict) and id(data) in _Dumper.shared)

    shared: set[int] = set()


def _shared_states(examples: dict[str, dict[str, Any]]) -> dict[int, str]:
    """State objects found in several examples -> the anchor name (the first example's, in
    lowerCamelCase: ``midGameState``)."""
    seen: dict[int, str] = {}
    count: dict[int, int] = {}
    for name, example in examples.items():
        value = example["value"]
        state = value.get("state") if isinstance(value, dict) else None
        if isinstance(state, dict):
            seen.setdefault(id(state), name[0].lower() + name[1:])
            count[id(state)] = count.get(id(state), 0) + 1
    return {key: label for key, label in seen.items() if count[key] > 1}


def render(examples: dict[str, dict[str, Any]]) -> str:
    """The block's YAML text, indented for ``components.examples``."""
    names = _shared_states(examples)
    _Dumper.shared = set(names)
    text = yaml.dump(
        examples,
        Dumper=_Dumper,
        sort_keys=False,
        default_flow_style=None,
        width=110,
        allow_unicode=True,
    )
    # yaml names anchors id001, id002... in order of first appearance, which is the examples' order
    for i, label in enumerate(names.values(), start=1):
        text = text.replace(f"&id{i:03d}", f"&{label}").replace(f"*id{i:03d}", f"*{label}")
    return "".join("    " + line if line.strip() else line for line in text.splitlines(True))


def splice(spec_text: str, block: str) -> str:
    """``spec_text`` with ``block`` between the markers."""
    start = spec_text.index(BEGIN) + len(BEGIN)
    end = spec_text.index(END)
    return spec_text[:start] + block + spec_text[end:]


def refresh(ask: Ask, check: bool = False) -> bool:
    """Rewrite the block of ``schemas/openapi_base.yaml`` (``check``: only compare); True when it
    was already up to date."""
    text = BASE.read_text("utf-8")
    new = splice(text, render(build(ask)))
    if new != text and not check:
        BASE.write_text(new, "utf-8")
    return new == text
