"""Hypothesis fuzzing of the session endpoints on a real session: random bodies, query strings
and headers (Authorization, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID) never give a
5xx, and every error is a problem+json 4xx. Nothing a refused request carries changes the session."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import create_app

GAME = "reign-and-ruin"
FUZZ = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(tmp_path_factory.mktemp("fuzz")),
        }
    )
    client = app.test_client()
    created = client.post(
        "/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 1}
    ).get_json()
    return client, created


def _ok(resp) -> None:
    assert resp.status_code < 500, resp.get_data(as_text=True)[:300]
    if resp.status_code >= 400:
        assert resp.mimetype == "application/problem+json"
        assert resp.get_json()["status"] == resp.status_code


@FUZZ
@given(
    body=st.one_of(
        json_values,
        st.fixed_dictionaries({"move": json_values}),
        st.fixed_dictionaries(
            {
                "move": st.fixed_dictionaries(
                    {"player": st.just("ann"), "type": st.just("draft")},
                    optional={"cards": json_values},
                ),
                "expected_version": json_values,
            }
        ),
    ),
    if_match=st.none() | header_text | st.just('"0"'),
    key=st.none() | header_text,
)
def test_fuzzed_moves(fuzzed, body, if_match, key):
    client, created = fuzzed
    path = f"/v1/sessions/{created['session_id']}"
    headers = {"Authorization": f"Bearer {created['seats']['ann']}"}
    if if_match is not None:
        headers["If-Match"] = if_match
    if key is not None:
        headers["Idempotency-Key"] = key
    before = client.get(path).get_json()["version"]
    resp = client.post(
        path + "/moves",
        data=json.dumps(body),
        headers={**headers, "Content-Type": "application/json"},
    )
    _ok(resp)
    after = client.get(path).get_json()["version"]
    assert after == before + (
        1 if resp.status_code == 200 and "Idempotent-Replayed" not in resp.headers else 0
    )


@FUZZ
@given(
    auth=st.none() | header_text,
    none_match=st.none() | header_text,
    last_id=st.none() | header_text,
    query=st.dictionaries(st.sampled_from(["after", "limit", "token"]), header_text, max_size=3),
    session_id=st.none() | st.text(max_size=70),
)
def test_fuzzed_reads(fuzzed, auth, none_match, last_id, query, session_id):
    client, created = fuzzed
    sid = created["session_id"] if session_id is None else quote(session_id, safe="")
    headers = {}
    if auth is not None:
        headers["Authorization"] = auth
    if none_match is not None:
        headers["If-None-Match"] = none_match
    for tail in ("", "/legal-moves", "/history"):
        _ok(client.get(f"/v1/sessions/{sid}{tail}", headers=headers, query_string=query))
    if last_id is not None:
        headers["Last-Event-ID"] = last_id
    resp = client.get(f"/v1/sessions/{sid}/events", headers=headers, query_string=query)
    _ok(resp)
    resp.close()
    _ok(client.delete(f"/v1/sessions/{sid}x", headers=headers))
