"""Helpers shared by the API tests (imported as ``helpers_api``)."""

from __future__ import annotations

import json
import random
from typing import Any

GAME = "reign-and-ruin"
BASE = f"/v1/games/{GAME}"
PLAYERS = ["ann", "bob", "cat"]


def post(
    client,
    path: str,
    body: Any = None,
    *,
    raw: bytes | None = None,
    content_type: str = "application/json",
    **kwargs,
):
    data = raw if raw is not None else json.dumps(body)
    return client.post(path, data=data, content_type=content_type, **kwargs)


def assert_problem(resp, status: int, code: str | None = None) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)[:500]
    assert resp.mimetype == "application/problem+json", resp.headers
    body = resp.get_json(force=True)
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert body["type"].startswith("https://reign-referee.dev/problems/")
    assert isinstance(body["code"], str)
    if code is not None:
        assert body["code"] == code, body
        assert body["type"].endswith("/" + code.replace("_", "-"))
    return body


def setup_state(client, players=None, seed: int = 7, options: dict | None = None) -> dict:
    body: dict[str, Any] = {"players": players or PLAYERS, "seed": seed}
    if options is not None:
        body["options"] = options
    resp = post(client, BASE + "/setup", body)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()["state"]


def play_until(client, state: dict, predicate, seed: int = 1, max_steps: int = 500) -> dict:
    """Random legal moves over HTTP until ``predicate(state)`` holds."""
    chooser = random.Random(seed)
    for _ in range(max_steps):
        if predicate(state):
            return state
        moves = post(client, BASE + "/legal-moves", {"state": state}).get_json()["moves"]
        resp = post(client, BASE + "/apply", {"state": state, "move": chooser.choice(moves)})
        assert resp.status_code == 200, resp.get_json()
        state = resp.get_json()["state"]
    raise AssertionError("predicate never held")
