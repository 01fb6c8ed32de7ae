"""Schemathesis hooks for the stateful phase (loaded by ``schemathesis.toml``, so by a plain
``st run <server>/openapi.yaml`` from the repository root, and by test_contract_schemathesis).

The links of ``openapi.yaml`` carry what a runtime expression can name: the session id, and from
``sessionLegalMoves`` to ``submitSessionMove`` the first listed move and the version's ETag. The
tokens are not link parameters: ``seats`` is keyed by the generated player ids, which no runtime
expression can name, and schemathesis counts a token a link supplies as a generated (invalid)
one. So this hook remembers the tokens of every session created, and the auth provider below
gives ``deleteSession`` the admin token, ``sessionLegalMoves`` each seat's token in turn and
``submitSessionMove`` the token of the move's player (or of the seat that last listed its moves):
schemathesis then also checks that the same
requests without a token, or with a wrong one, are refused.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import schemathesis

TOKENS: dict[str, dict[str, Any]] = {}
"""Session id -> ``{"admin": token, "seats": {player: token}, "turns": a cycle of the seat tokens,
the active players' first}``."""
_AUTHENTICATED = re.compile(r"^/v1/sessions/\{session_id\}(/legal-moves|/moves)?$")
_SEEDED = re.compile(r"^/v1/sessions/\{session_id\}/moves$")
"""The operation whose generated (not linked) requests go to a session this run created."""


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    if (
        case.operation.method.upper() == "POST"
        and case.operation.path == "/v1/sessions"
        and response.status_code == 201
    ):
        body = response.json()
        seats = body["seats"]
        # the players who move first come first, so that the first moves listed are not []
        active = [p for p in body["view"].get("active_players") or [] if p in seats]
        order = active + [p for p in seats if p not in active]
        TOKENS[body["session_id"]] = {
            "admin": body["admin_token"],
            "seats": seats,
            "turns": itertools.cycle([seats[p] for p in order]),
        }


SEATED_SESSIONS = False
"""Set by the stateful test while it runs: its generated session creations then seat players
whose ids the service accepts (below), so that most of them make a session for the links to
follow. Everywhere else (``test_api_conforms``, ``st run``) creation bodies stay as generated."""


@schemathesis.hook
def map_body(context: Any, body: Any) -> Any:
    """In the stateful test, a generated ``POST /v1/sessions`` body seats ``p0``, ``p1``...
    instead of ids outside the safe set (``rules.player_ids``: a random Unicode string seldom is
    one), is an open session with its own seed, and has no bot seats and no clock: bots and
    timeouts move a session on their own time, which would make the run depend on the wall clock
    rather than on its seed alone (both are tested in tests/sessions)."""
    operation = context.operation
    if (
        not SEATED_SESSIONS
        or operation is None
        or operation.method.upper() != "POST"
        or operation.path != "/v1/sessions"
        or not isinstance(body, dict)
        or not isinstance(body.get("players"), list)
    ):
        return body
    body = {**body, "players": [f"p{i}" for i in range(len(body["players"]))]}
    # An open session with a seed of its own: else the service draws it (fairness), the game
    # dealt (who starts, which moves are legal) differs from run to run, and so do the links the
    # run can follow from it; a session operation then went unreached in one CI run in many.
    body["open"] = True
    body["seed"] = body.get("seed", 1)
    for timed in ("bots", "clock", "on_timeout", "grace_seconds"):
        body.pop(timed, None)
    return body


@schemathesis.hook
def map_path_parameters(
    context: Any, path_parameters: dict[str, Any] | None
) -> dict[str, Any] | None:
    """Generated requests to post a session move name a session this run created (the newest), so
    they reach the session's rules (a 409, 412 or 422 for a random move) rather than a 404 for a
    random id: schemathesis' "known IDs" advice for its missing-test-data warning. A session id
    that a link supplied is left alone. Every other operation keeps its generated id: their
    unknown-session answers are tested so, and an event stream of a real session stays open
    (`MAX_STREAM_SECONDS`), which would make every generated stream request last that long."""
    operation = context.operation
    if (
        not path_parameters
        or not TOKENS
        or path_parameters.get("session_id") in TOKENS
        or not _SEEDED.match(operation.path)
    ):
        return path_parameters
    return {**path_parameters, "session_id": next(reversed(TOKENS))}


@schemathesis.auth(refresh_interval=None).apply_to(path_regex=_AUTHENTICATED.pattern)
class SessionToken:
    """The token a session operation needs, for the sessions this run created."""

    def get(self, case: Any, context: Any) -> dict[str, dict[str, Any]]:
        return TOKENS

    def set(self, case: Any, data: dict[str, dict[str, Any]], context: Any) -> None:
        tokens = data.get((case.path_parameters or {}).get("session_id"))
        method = case.operation.method.upper()
        if tokens is None or (method == "GET" and not case.operation.path.endswith("/legal-moves")):
            return
        if method == "DELETE":
            token = tokens["admin"]
        elif method == "GET":  # legal moves: each seat in turn
            token = tokens["last"] = next(tokens["turns"])
        else:  # a move: its player's seat; else (the link fills the move in after this) the seat
            move = (
                case.body.get("move") if isinstance(case.body, dict) else None
            )  # that just listed moves
            player = move.get("player") if isinstance(move, dict) else None
            token = tokens["seats"].get(player) if isinstance(player, str) else None
            token = token or tokens.get("last") or next(tokens["turns"])
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
