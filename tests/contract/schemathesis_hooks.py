"""Schemathesis hooks for the stateful phase (loaded by ``schemathesis.toml``, so by a plain
``st run <server>/openapi.yaml`` from the repository root, and by test_contract_schemathesis).

The links of ``openapi.yaml`` carry what a runtime expression can name: the session id, and from
``sessionLegalMoves`` to ``submitSessionMove`` the first listed move and the version's ETag. The
tokens are not link parameters: ``seats`` is keyed by the generated player ids, which no runtime
expression can name, and schemathesis counts a token a link supplies as a generated (invalid)
one. So this hook remembers the tokens of every session created, and the auth provider below
gives ``deleteSession`` the admin token, ``sessionLegalMoves`` each seat's token in turn and
``submitSessionMove`` the token of the move's player (or of the seat that last listed its moves): schemathesis then also checks that the same
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


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    if case.operation.method.upper() == "POST" and case.operation.path == "/v1/sessions" \
            and response.status_code == 201:
        body = response.json()
        seats = body["seats"]
        # the players who move first come first, so that the first moves listed are not []
        active = [p for p in body["view"].get("active_players") or [] if p in seats]
        order = active + [p for p in seats if p not in active]
        TOKENS[body["session_id"]] = {"admin": body["admin_token"], "seats": seats,
                                      "turns": itertools.cycle([seats[p] for p in order])}


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
            move = case.body.get("move") if isinstance(case.body, dict) else None  # that just listed moves
            player = move.get("player") if isinstance(move, dict) else None
            token = tokens["seats"].get(player) if isinstance(player, str) else None
            token = token or tokens.get("last") or next(tokens["turns"])
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
