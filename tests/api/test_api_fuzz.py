"""Hypothesis fuzzing: no client input, however malformed, produces a 5xx.

Every answer is either a 2xx or an RFC 9457 problem with a 4xx status. Bodies are random JSON
values in every field (deep nesting, huge integers, floats and booleans where integers belong,
unicode, nulls), raw garbage bytes, and valid states and moves with one random part replaced
or removed (which gets past the shape checks into the rules' integrity checks).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import create_app
from rules.playout import random_steps
from rules.registry import get_game

GAME = "reign-and-ruin"
BASE = f"/v1/games/{GAME}"
ENDPOINTS = ["setup", "legal-moves", "validate", "apply", "score", "view"]
FIELDS = {
    "setup": ["players", "seed", "options"],
    "legal-moves": ["state", "player"],
    "validate": ["state", "move"],
    "apply": ["state", "move"],
    "score": ["state"],
    "view": ["state", "player"],
}

FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(tmp_path_factory.mktemp("fuzz-data")),
        }
    )
    return app.test_client()


def _samples() -> list[tuple[dict, list[dict]]]:
    """(state, legal moves) from several points of a few random games, 2 to 4 players."""
    game = get_game(GAME)
    out = []
    for seed, players in ((1, ["a", "b"]), (2, ["ann", "bob", "cat"]), (3, ["w", "x", "y", "z"])):
        chooser = random.Random(seed)
        steps = list(random_steps(game, game.setup(players, seed, {}), chooser))
        for i in (0, len(steps) // 4, len(steps) // 2, len(steps) - 1):
            out.append((steps[i].before, steps[i].legal))
        out.append((steps[-1].after, []))
    return out


SAMPLES = _samples()
CARD_IDS = sorted(SAMPLES[0][0]["cards"])

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**300), max_value=10**300),
    st.sampled_from([0, 1, -1, 2**63 - 1, 2**63, -(2**63), 2**64, 10**4000]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, 1.0, -0.0, 1e308, 2.5]),
    st.text(max_size=20),
    st.text(alphabet=st.characters(), max_size=80),
    st.sampled_from(
        [
            "",
            "a",
            "ann",
            "a" * 65,
            "\u0000",
            "\ud800",
            "🐉",
            "draft",
            "fighter",
            "hand",
            "army",
            "in_progress",
            "finished",
            "play",
            "draft",
        ]
        + CARD_IDS[:6]
    ),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=10), inner, max_size=6)
    ),
    max_leaves=30,
)


def deep(depth: int) -> Any:
    value: Any = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def check_answer(resp) -> None:
    assert resp.status_code < 500, resp.get_data(as_text=True)[:2000]
    if resp.status_code >= 400:
        assert resp.mimetype == "application/problem+json"
        body = json.loads(resp.get_data())
        assert body["status"] == resp.status_code
        assert {"type", "title", "detail", "code"} <= set(body)
    else:
        json.loads(resp.get_data())


def post_json(client, endpoint: str, body: Any):
    # ensure_ascii keeps lone surrogates encodable, as a client's JSON library would.
    return client.post(f"{BASE}/{endpoint}", data=json.dumps(body), content_type="application/json")


@FUZZ
@given(endpoint=st.sampled_from(ENDPOINTS), body=json_values)
def test_any_json_body(fuzz_client, endpoint, body):
    check_answer(post_json(fuzz_client, endpoint, body))


@FUZZ
@given(endpoint=st.sampled_from(ENDPOINTS), data=st.data())
def test_random_values_in_every_field(fuzz_client, endpoint, data):
    body = {}
    for name in FIELDS[endpoint]:
        if data.draw(st.integers(0, 4)):
            body[name] = data.draw(json_values, label=name)
    if data.draw(st.integers(0, 5)) == 0:
        body[data.draw(st.text(max_size=8), label="extra")] = data.draw(json_values)
    check_answer(post_json(fuzz_client, endpoint, body))


@FUZZ
@given(
    raw=st.binary(max_size=300),
    content_type=st.sampled_from(
        [
            "application/json",
            "application/json; charset=utf-8",
            "text/plain",
            "application/x-json+json",
            "",
        ]
    ),
)
def test_raw_bytes(fuzz_client, raw, content_type):
    for endpoint in ENDPOINTS:
        resp = fuzz_client.post(
            f"{BASE}/{endpoint}",
            data=raw,
            headers={"Content-Type": content_type} if content_type else {},
        )
        check_answer(resp)


@pytest.mark.parametrize("depth", [50, 500, 990, 5000, 100_000])
def test_deep_nesting_everywhere(fuzz_client, depth):
    value = deep(depth)
    for endpoint in ENDPOINTS:
        for name in FIELDS[endpoint]:
            try:
                text = json.dumps({name: value})
            except RecursionError:
                text = f'{{"{name}": ' + "[" * depth + "]" * depth + "}"
            resp = fuzz_client.post(
                f"{BASE}/{endpoint}", data=text, content_type="application/json"
            )
            check_answer(resp)


# -- valid documents with one part broken ----------------------------------------------------------
def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(paths(v, prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, prefix + (i,)))
    return out


def replaced(doc: Any, path: tuple, new: Any, delete: bool) -> Any:
    if not path:
        return new
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return doc


plausible = st.one_of(
    json_values,
    st.sampled_from(CARD_IDS),
    st.sampled_from(["a", "b", "ann", "bob", "w", "z", "nobody"]),
    st.integers(-3, 12),
    st.lists(st.sampled_from(CARD_IDS), max_size=8),
    st.sampled_from(["draft", "play", "final_round", "finished", "in_progress", None, [], {}]),
    st.fixed_dictionaries(
        {"card": st.sampled_from(CARD_IDS), "kurgoz": st.integers(-1, 3), "cognitz": st.booleans()}
    ),
)


@st.composite
def broken_state(draw):
    state, legal = draw(st.sampled_from(SAMPLES))
    broken = state
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(broken)))
        delete = bool(path) and draw(st.integers(0, 4)) == 0
        broken = replaced(broken, path, draw(plausible), delete)
    return state, broken, legal


@FUZZ
@given(
    sample=broken_state(),
    endpoint=st.sampled_from(["legal-moves", "validate", "apply", "score", "view"]),
    data=st.data(),
)
def test_states_with_a_broken_part(fuzz_client, sample, endpoint, data):
    state, broken, legal = sample
    body: dict[str, Any] = {"state": broken}
    if endpoint in ("validate", "apply"):
        body["move"] = (
            data.draw(st.sampled_from(legal))
            if legal
            else {"player": "a", "type": "draw", "card": "x"}
        )
    elif data.draw(st.booleans()):
        body["player"] = data.draw(
            st.sampled_from(broken.get("players") or ["a"])
            if isinstance(broken, dict)
            and isinstance(broken.get("players"), list)
            and broken["players"]
            else st.just("a")
        )
    check_answer(post_json(fuzz_client, endpoint, body))


@st.composite
def broken_move(draw):
    state, legal = draw(st.sampled_from([s for s in SAMPLES if s[1]]))
    move = draw(st.sampled_from(legal))
    path = draw(st.sampled_from(paths(move)))
    delete = bool(path) and draw(st.integers(0, 3)) == 0
    if draw(st.integers(0, 5)) == 0:
        path, delete = (draw(st.text(max_size=6)),), False
    return state, replaced(move, path, draw(plausible), delete)


@FUZZ
@given(sample=broken_move(), endpoint=st.sampled_from(["validate", "apply"]))
def test_moves_with_a_broken_part(fuzz_client, sample, endpoint):
    state, move = sample
    check_answer(post_json(fuzz_client, endpoint, {"state": state, "move": move}))


@FUZZ
@given(state_sample=st.sampled_from([s for s in SAMPLES if s[1]]), data=st.data())
def test_plausible_moves_of_every_type(fuzz_client, state_sample, data):
    """Well-shaped moves with plausible ids: legal or a 422, never a crash."""
    state, legal = state_sample
    players = state["players"]
    move = {
        "player": data.draw(st.sampled_from(players + ["nobody"])),
        "type": data.draw(st.sampled_from(get_game(GAME).move_types)),
    }
    ids = st.sampled_from(CARD_IDS + ["nope"])
    for name in ("card", "target", "take"):
        if data.draw(st.booleans()):
            move[name] = data.draw(ids)
    if data.draw(st.booleans()):
        move["cards"] = data.draw(st.lists(ids, max_size=3))
    for name in ("opponent", "army"):
        if data.draw(st.booleans()):
            move[name] = data.draw(st.sampled_from(players + ["nobody"]))
    if data.draw(st.booleans()):
        move["to"] = data.draw(st.sampled_from(["army", "hand"]))
    for endpoint in ("validate", "apply"):
        check_answer(post_json(fuzz_client, endpoint, {"state": state, "move": move}))


@FUZZ
@given(data=st.data())
def test_setup_with_plausible_options(fuzz_client, data):
    players = data.draw(st.lists(st.text(min_size=1, max_size=64), min_size=0, max_size=6))
    options: dict[str, Any] = {}
    if data.draw(st.booleans()):
        options["starting_player"] = data.draw(
            st.one_of(st.none(), st.sampled_from(players or ["x"]), st.text())
        )
    if data.draw(st.booleans()):
        card = st.fixed_dictionaries(
            {
                "faction": st.sampled_from(
                    ["hexen", "crou", "nomora", "kurgoz", "cognitz", "alfenghast", "elves"]
                ),
                "value": st.integers(-2, 120),
            },
            optional={"id": st.text(max_size=12)},
        )
        options["deck"] = data.draw(st.one_of(st.none(), st.lists(card, max_size=40)))
    body = {"players": players, "options": options}
    if data.draw(st.booleans()):
        body["seed"] = data.draw(st.integers(0, 2**63 - 1))
    check_answer(post_json(fuzz_client, "setup", body))
