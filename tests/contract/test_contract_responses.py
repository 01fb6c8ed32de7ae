"""Whole games played over HTTP, every request and response validated against openapi.yaml.

Each exchange goes through ``Contract.call``: openapi-core checks the request (when it is
meant to be valid) and the response (status documented, content type, body schema). On top
of the schema, a few things the schema cannot say are checked against docs/architecture.md
and the shared API contract (a view hides the hand of a spectator, the legal-move list is
for the active players only, an illegal move gets a 422 with violations...).
"""

from __future__ import annotations

import copy
import random

import pytest

from rules.registry import GAMES
from schemas.openapi import game_prefix

from .oapi import component_validator, spec_dict

GAME = "reign-and-ruin"
P = f"/v1/games/{GAME}"
MOVE_TYPES = {"draft", "fighter", "destroy", "draw", "double", "protect", "swap", "revive"}


def _mutate(move: dict, rng: random.Random) -> dict | None:
    """A move of the right shape that names a card nobody has."""
    keys = [k for k in ("card", "target", "take") if k in move]
    if move["type"] == "draft":
        return dict(move, cards=[move["cards"][0], "no-such-card-1"])
    if not keys:
        return None
    return dict(move, **{rng.choice(keys): "no-such-card-1"})


class Tally:
    def __init__(self) -> None:
        self.moves: set[str] = set()
        self.events: set[str] = set()
        self.swaps_without_take = 0
        self.revive_to: set[str] = set()
        self.tie_breaks: set[object] = set()


def play_game(
    contract,
    players: list[str],
    seed: int,
    options: dict | None = None,
    tally: Tally | None = None,
    chooser_seed: int = 0,
) -> dict:
    """Set up and play one game to the end through the API; returns the final state."""
    tally = tally or Tally()
    rng = random.Random(chooser_seed)
    body = {"players": players, "seed": seed}
    if options is not None:
        body["options"] = options
    state = contract.post(GAME, "setup", body, expect=200).json["state"]
    assert state["players"] == players
    assert state["seed"] == seed
    again = contract.post(GAME, "setup", body, expect=200).json["state"]
    assert again == state, "setup is not deterministic"

    for step in range(2000):
        if state["status"] == "finished":
            break
        assert state["phase"] != "finished"
        active = state["active_players"]
        moves = contract.post(GAME, "legal-moves", {"state": state}, expect=200).json["moves"]
        assert moves, f"no legal moves for active players {active}"
        assert {m["player"] for m in moves} == set(active)
        if state["phase"] == "draft":  # draft.cards are listed in packet order
            for m in moves:
                packet = state["draft"]["packets"][m["player"]]
                assert packet.index(m["cards"][0]) < packet.index(m["cards"][1]), m
        if step % 7 == 0:
            for player in players:
                own = contract.post(
                    GAME, "legal-moves", {"state": state, "player": player}, expect=200
                ).json["moves"]
                assert own == [m for m in moves if m["player"] == player]
        move = rng.choice(moves)
        tally.moves.add(move["type"])
        if move["type"] == "swap" and "take" not in move:
            tally.swaps_without_take += 1
        if move["type"] == "revive":
            tally.revive_to.add(move["to"])

        verdict = contract.post(GAME, "validate", {"state": state, "move": move}, expect=200).json
        assert verdict == {"legal": True, "violations": []}
        bad = _mutate(move, rng)
        if bad is not None and bad not in moves:
            verdict = contract.post(
                GAME, "validate", {"state": state, "move": bad}, expect=200
            ).json
            assert verdict["legal"] is False and verdict["violations"]
            problem = contract.post(GAME, "apply", {"state": state, "move": bad}, expect=422).json
            assert problem["code"] == "illegal_move" and problem["violations"]

        result = contract.post(GAME, "apply", {"state": state, "move": move}, expect=200).json
        tally.events.update(e["type"] for e in result["events"])
        assert result["events"], f"a move that happened has no events: {move}"
        new = result["state"]
        assert new["move_count"] == state["move_count"] + 1
        assert (new["status"] == "finished") == (new["phase"] == "finished")
        if new["status"] == "finished":
            assert result["outcome"] is not None and result["outcome"] == new["outcome"]
            assert new["active_players"] == []
        else:
            assert result["outcome"] is None and new["outcome"] is None

        if step % 5 == 0:
            _check_views(contract, state)
        if step % 9 == 0:
            score = contract.post(GAME, "score", {"state": state}, expect=200).json
            assert score["finished"] is False
        state = new
    else:
        pytest.fail(f"not finished after 2000 moves (players {players}, seed {seed})")

    score = contract.post(GAME, "score", {"state": state}, expect=200).json
    assert score["finished"] is True
    assert score["winners"] == state["outcome"]["winners"]
    assert score["draw"] == state["outcome"]["draw"]
    assert score["scores"] == state["outcome"]["scores"]
    breakdown = score["breakdown"]
    assert sorted(breakdown["players"]) == sorted(players)
    assert sorted(breakdown["ranking"]) == sorted(players)
    for player, detail in breakdown["players"].items():
        assert detail["total"] == score["scores"][player]
        assert detail["fighter_count"] == len(state["armies"][player]) == len(detail["fighters"])
    tally.tie_breaks.add(breakdown["tie_break"])
    _check_views(contract, state)
    assert contract.post(GAME, "legal-moves", {"state": state}, expect=200).json == {"moves": []}
    return state


def _check_views(contract, state: dict) -> None:
    spectator = contract.post(GAME, "view", {"state": state}, expect=200).json["view"]
    assert spectator["viewer"] is None
    assert "hand" not in spectator
    assert spectator["draw_pile_count"] == len(state["draw_pile"])
    assert spectator["hand_counts"] == {p: len(h) for p, h in state["hands"].items()}
    if state["draft"] is None:
        assert spectator["draft"] is None
    else:
        assert not {"packet", "picks", "kept"} & set(spectator["draft"])
    for player in state["players"]:
        view = contract.post(GAME, "view", {"state": state, "player": player}, expect=200).json[
            "view"
        ]
        assert view["viewer"] == player
        assert view["hand"] == state["hands"][player]
        assert view["armies"] == state["armies"] and view["discard_pile"] == state["discard_pile"]
        if state["draft"] is not None:
            draft = state["draft"]
            assert view["draft"]["packet"] == draft["packets"][player]
            assert view["draft"]["picks"] == draft["picks"][player]
            assert view["draft"]["kept"] == draft["kept"][player]
            assert view["draft"]["picked"] == {p: bool(draft["picks"][p]) for p in state["players"]}


# -- the catalogue and the operations endpoints ----------------------------------------------------
def test_catalogue(contract):
    games = contract.call("GET", "/v1/games", expect=200).json["games"]
    assert GAME in [g["id"] for g in games]  # other registered games are checked by their own tests
    info = next(g for g in games if g["id"] == GAME)
    assert (info["min_players"], info["max_players"]) == (2, 4)
    assert set(info["move_types"]) == MOVE_TYPES
    detail = contract.call("GET", P, expect=200).json
    assert {k: v for k, v in detail.items() if k != "content"} == info


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_each_games_catalogue_entry_is_its_own_schema(contract, game_id):
    """Each game's entry and detail are valid as that game's ``GameInfo`` (``GameDetail``), with
    its own options and content, and as no other game's (the spec's ``oneOf`` by ``id``)."""
    games = contract.call("GET", "/v1/games", expect=200).json["games"]
    (info,) = [g for g in games if g["id"] == game_id]
    detail = contract.call("GET", f"/v1/games/{game_id}", expect=200).json
    for name, answer in (("GameInfo", info), ("GameDetail", detail)):
        for other in GAMES:
            errors = list(component_validator(game_prefix(other) + name).iter_errors(answer))
            assert (errors == []) == (other == game_id), (name, other, errors[:1])


def test_unknown_game_is_404_everywhere(contract):
    contract.call("GET", "/v1/games/no-such-game", expect=404, valid_request=False)
    for action in ("setup", "legal-moves", "validate", "apply", "score", "view"):
        problem = contract.call(
            "POST",
            f"/v1/games/no-such-game/{action}",
            {"players": ["a", "b"]},
            expect=404,
            valid_request=False,
        ).json
        assert problem["code"] in ("unknown_game", "not_found")


def test_operations_endpoints(contract):
    contract.call("GET", "/healthz", expect=200)
    contract.call("GET", "/readyz", expect={200, 503})
    served = contract.call("GET", "/openapi.yaml", expect=200)
    assert served.response.get_data() == (contract_spec_bytes())
    redirect = contract.call("GET", "/docs", expect=308)
    assert redirect.response.headers["Location"].endswith("/docs/")
    page = contract.call("GET", "/docs/", expect=200)
    assert b"swagger" in page.response.get_data().lower()


def contract_spec_bytes() -> bytes:
    from .oapi import SPEC_PATH

    return SPEC_PATH.read_bytes()


# -- whole games ----------------------------------------------------------------------------------
def test_full_games_conform(contract):
    tally = Tally()
    finals = []
    for i, players in enumerate(
        (
            ["ann", "bob"],
            ["ann", "bob", "cat"],
            ["n", "e", "s", "w"],
            ["ann", "bob"],
            ["x" * 64, "y"],
            ["ann", "bob", "cat"],
        )
    ):
        finals.append(play_game(contract, players, seed=1000 + i, tally=tally, chooser_seed=i))
    assert tally.moves == MOVE_TYPES, f"move types never played: {MOVE_TYPES - tally.moves}"
    documented = set(
        spec_dict()["components"]["schemas"]["ReignAndRuinEvent"]["discriminator"]["mapping"]
    )
    assert tally.events <= documented
    assert documented == tally.events, (
        f"event types never seen in these games: {documented - tally.events}"
    )
    assert tally.swaps_without_take and tally.revive_to == {"army", "hand"}


def test_custom_options_game_conforms(contract):
    deck = [
        {"faction": f, "value": v}
        for f in ("alfenghast", "hexen", "kurgoz", "cognitz", "crou", "nomora")
        for v in (1, 5, 99)
    ]
    deck += [{"faction": "crou", "value": 5}, {"id": "special", "faction": "nomora", "value": 42}]
    final = play_game(
        contract, ["ann", "bob"], seed=0, options={"starting_player": "bob", "deck": deck}
    )
    assert final["starting_player"] == "bob"
    assert {"crou-5", "crou-5-2", "special"} <= set(final["cards"])
    final = play_game(
        contract,
        ["ann", "bob"],
        seed=9223372036854775807,
        options={"starting_player": None, "deck": None},
    )
    assert len(final["cards"]) == 54


def test_setup_without_seed(contract):
    state = contract.post(GAME, "setup", {"players": ["ann", "bob"]}, expect=200).json["state"]
    assert 0 <= state["seed"] <= 9223372036854775807


# -- errors ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def midgame(contract_app):
    """A state a few moves into the play phase (via the rules, not under test here)."""
    from rules.registry import get_game

    game = get_game(GAME)
    state = game.setup(["ann", "bob"], 7, {})
    rng = random.Random(7)
    while state["phase"] == "draft" or state["move_count"] < 10:
        state, _ = game.apply(state, rng.choice(game.legal_moves(state)))
    return state


def test_malformed_json_is_400(contract):
    problem = contract.post(
        GAME, "apply", None, raw=b"{not json", valid_request=False, expect=400
    ).json
    assert problem["status"] == 400


def test_missing_and_wrong_fields_are_400_with_errors(contract, midgame):
    move = {"player": "ann", "type": "fighter", "card": "hexen-4"}
    cases = [
        ("apply", {"move": move}, "state"),
        ("apply", {"state": midgame}, "move"),
        ("legal-moves", {"state": [1, 2]}, "state"),
        ("setup", {"players": "ann"}, "players"),
        ("setup", {"players": ["ann", 3]}, "players.1"),
        ("setup", {"players": ["ann", "bob"], "seed": "7"}, "seed"),
        ("setup", {"players": ["ann", "bob"], "seed": -1}, "seed"),
        ("setup", {"players": ["ann", "bob"], "seed": 1 << 63}, "seed"),
        ("setup", {"players": ["ann", ""]}, "players.1"),
        ("setup", {"players": ["ann", "bob"], "colour": "red"}, "colour"),
        ("setup", {"players": ["ann", "bob"], "options": {"colour": "red"}}, "options.colour"),
        ("score", {"state": midgame, "player": "ann"}, "player"),
        ("apply", {"state": midgame, "move": dict(move, type="no_such_move_type")}, "move.type"),
        ("apply", {"state": midgame, "move": {"player": "ann", "type": "fighter"}}, "move.card"),
        ("apply", {"state": midgame, "move": dict(move, extra=1)}, "move.extra"),
        (
            "validate",
            {"state": dict(midgame, hands={"ann": [5], "bob": []}), "move": move},
            "state.hands.ann.0",
        ),
        ("view", {"state": {k: v for k, v in midgame.items() if k != "rng"}}, "state.rng"),
    ]
    for action, body, field in cases:
        problem = contract.post(GAME, action, body, valid_request=False, expect=400).json
        assert problem["code"] == "invalid_body", problem
        assert field in problem["errors"], (
            f"{action} {body if action == 'setup' else ''}: {problem}"
        )


def test_wrong_method_is_405(contract):
    ex = contract.call("GET", f"{P}/apply", expect=405)
    assert "POST" in ex.response.headers.get("Allow", "")
    contract.call("DELETE", "/v1/games", expect=405)


def test_unknown_path_is_404(contract):
    contract.call("GET", "/v1/no-such-thing", expect=404)
    contract.call("POST", f"{P}/no-such-action", {"state": {}}, expect=404)


def test_large_body_is_413(contract):
    raw = b'{"state": "' + b"x" * (1 << 20) + b'"}'
    contract.post(GAME, "apply", None, raw=raw, valid_request=False, expect=413)


def test_not_json_is_415(contract):
    contract.post(
        GAME,
        "apply",
        None,
        raw=b"state=1",
        content_type="text/plain",
        valid_request=False,
        expect=415,
    )
    contract.post(
        GAME,
        "setup",
        None,
        raw=b'{"players": ["a", "b"]}',
        content_type=None,
        valid_request=False,
        expect=415,
    )


def test_illegal_move_is_422(contract, midgame):
    from rules.registry import get_game

    game = get_game(GAME)
    legal = game.legal_moves(midgame)
    mover = midgame["active_players"][0]
    other = next(p for p in midgame["players"] if p != mover)
    # the other player's card, played out of turn
    card = (midgame["hands"][other] or midgame["hands"][mover])[0]
    move = {"player": other, "type": "fighter", "card": card}
    assert move not in legal
    problem = contract.post(GAME, "apply", {"state": midgame, "move": move}, expect=422).json
    assert problem["code"] == "illegal_move"
    assert problem["type"] == "https://reign-referee.dev/problems/illegal-move"
    verdict = contract.post(GAME, "validate", {"state": midgame, "move": move}, expect=200).json
    assert verdict["legal"] is False and verdict["violations"] == problem["violations"]


def test_broken_state_is_422(contract, midgame):
    broken = copy.deepcopy(midgame)
    mover = broken["active_players"][0]
    broken["hands"][mover].append(broken["draw_pile"][0])  # a card in two places
    for action, body in (
        ("legal-moves", {"state": broken}),
        ("score", {"state": broken}),
        ("view", {"state": broken}),
        (
            "apply",
            {
                "state": broken,
                "move": {"player": mover, "type": "fighter", "card": broken["hands"][mover][0]},
            },
        ),
    ):
        problem = contract.post(GAME, action, body, expect=422).json
        assert problem["code"] == "invalid_state" and problem["violations"], problem
    for field, value in (
        ("rng", "XYZ"),
        ("move_count", -1),
        ("schema_version", 99),
        ("phase", "lunch"),
    ):
        body = {"state": dict(midgame, **{field: value})}
        contract.post(GAME, "score", body, valid_request=False, expect={400, 422})


def test_bad_setup_is_422(contract):
    for body in (
        {"players": ["solo"]},
        {"players": ["a", "a", "b"]},
        {"players": list("abcde")},
        {"players": ["a", "b"], "options": {"starting_player": "zed"}},
        {"players": ["a", "b"], "options": {"deck": [{"faction": "hexen", "value": 1}] * 13}},
        {"players": ["a", "b"], "options": {"deck": [{"faction": "elves", "value": 1}] * 14}},
        {"players": ["a", "b"], "options": {"deck": [{"faction": "hexen", "value": 100}] * 14}},
    ):
        problem = contract.post(GAME, "setup", body, valid_request=False, expect=422).json
        assert problem["code"] == "invalid_setup" and problem["violations"], problem


def test_unknown_player_is_rejected(contract, midgame):
    for action, body in (
        ("legal-moves", {"state": midgame, "player": "nobody"}),
        ("view", {"state": midgame, "player": "nobody"}),
    ):
        problem = contract.post(GAME, action, body, expect={400, 422}).json
        assert problem["violations"] or problem.get("errors"), problem
    move = {"player": "nobody", "type": "fighter", "card": midgame["hands"]["ann"][0]}
    contract.post(GAME, "apply", {"state": midgame, "move": move}, expect=422)


# -- the spec is strict enough to catch a wrong response -------------------------------------------
def _response_errors(
    path: str, body: dict, status: int = 200, mimetype: str = "application/json"
) -> list:
    import json as _json

    from openapi_core.testing import MockRequest, MockResponse

    from .oapi import HOST, openapi

    request = MockRequest(HOST, "POST", path, data=b"{}", content_type="application/json")
    response = MockResponse(_json.dumps(body).encode(), status_code=status, content_type=mimetype)
    return list(openapi().iter_response_errors(request, response))


def test_spec_catches_wrong_responses(contract, midgame):
    from rules.registry import get_game

    move = get_game(GAME).legal_moves(midgame)[0]
    applied = contract.post(GAME, "apply", {"state": midgame, "move": move}, expect=200).json
    view = contract.post(GAME, "view", {"state": midgame, "player": "ann"}, expect=200).json
    spectator = contract.post(GAME, "view", {"state": midgame}, expect=200).json
    score = contract.post(GAME, "score", {"state": midgame}, expect=200).json
    start = contract.post(GAME, "setup", {"players": ["ann", "bob"], "seed": 1}, expect=200).json[
        "state"
    ]
    draft_view = contract.post(GAME, "view", {"state": start, "player": "ann"}, expect=200).json
    draft_spectator = contract.post(GAME, "view", {"state": start}, expect=200).json
    for path, body in (
        (f"{P}/apply", applied),
        (f"{P}/view", view),
        (f"{P}/view", spectator),
        (f"{P}/view", draft_view),
        (f"{P}/view", draft_spectator),
        (f"{P}/score", score),
    ):
        assert not _response_errors(path, body)

    def broken(base: dict, change) -> dict:
        copy_ = copy.deepcopy(base)
        change(copy_)
        return copy_

    wrong = {
        "apply: unknown state field": (
            f"{P}/apply",
            broken(applied, lambda b: b["state"].update(colour="red")),
        ),
        "apply: missing outcome": (f"{P}/apply", broken(applied, lambda b: b.pop("outcome"))),
        "apply: bad rng": (f"{P}/apply", broken(applied, lambda b: b["state"].update(rng="xyz"))),
        "apply: bad phase": (
            f"{P}/apply",
            broken(applied, lambda b: b["state"].update(phase="lunch")),
        ),
        "apply: fighter without cognitz": (
            f"{P}/apply",
            broken(
                applied,
                lambda b: b["state"]["armies"]["ann"].append({"card": "hexen-1", "kurgoz": 0}),
            ),
        ),
        "apply: unknown event": (
            f"{P}/apply",
            broken(applied, lambda b: b["events"].append({"type": "party"})),
        ),
        "apply: event missing field": (
            f"{P}/apply",
            broken(
                applied, lambda b: b["events"].append({"type": "fighter_played", "player": "ann"})
            ),
        ),
        "view: seed leaked": (f"{P}/view", broken(view, lambda b: b["view"].update(seed=7))),
        "view: draw pile leaked": (
            f"{P}/view",
            broken(view, lambda b: b["view"].update(draw_pile=[])),
        ),
        "view: hand for a spectator": (
            f"{P}/view",
            broken(spectator, lambda b: b["view"].update(hand=[])),
        ),
        "view: no hand for a player": (f"{P}/view", broken(view, lambda b: b["view"].pop("hand"))),
        "view: spectator sees a packet": (
            f"{P}/view",
            broken(draft_spectator, lambda b: b["view"]["draft"].update(packet=[])),
        ),
        "view: player without packet": (
            f"{P}/view",
            broken(draft_view, lambda b: b["view"]["draft"].pop("packet")),
        ),
        "validate: illegal without violations": (
            f"{P}/validate",
            {"legal": False, "violations": []},
        ),
        "validate: legal with violations": (
            f"{P}/validate",
            {
                "legal": True,
                "violations": [{"code": "x", "message": "m", "rule": "reign-and-ruin#moves"}],
            },
        ),
        "score: tie_break unknown": (
            f"{P}/score",
            broken(score, lambda b: b["breakdown"].update(tie_break="coin")),
        ),
        "score: fighter without worth": (
            f"{P}/score",
            broken(
                score,
                lambda b: (
                    [
                        f.pop("worth")
                        for d in b["breakdown"]["players"].values()
                        for f in d["fighters"]
                    ]
                    or b["breakdown"]["players"]["ann"]["fighters"].append(
                        {"card": "x", "faction": "hexen", "value": 1, "kurgoz": 0}
                    )
                ),
            ),
        ),
    }
    for what, (path, body) in wrong.items():
        assert _response_errors(path, body), f"the spec accepts a wrong response ({what})"
    problem = {
        "type": "https://reign-referee.dev/problems/illegal-move",
        "title": "Illegal move",
        "status": 422,
        "detail": "x",
        "code": "illegal_move",
    }
    assert _response_errors(f"{P}/apply", problem, 422, "application/problem+json"), (
        "422 without violations"
    )
    assert _response_errors(
        f"{P}/apply",
        dict(problem, violations=[{"code": "x", "message": "m"}]),
        422,
        "application/problem+json",
    ), "violation without rule"
    assert _response_errors(f"{P}/apply", applied, 201), "undocumented status"


# -- extreme but well-shaped input never gets a 5xx ------------------------------------------------
def _with(state: dict, change) -> dict:
    state = copy.deepcopy(state)
    change(state)
    return state


def _first_fighter(state: dict) -> dict:
    return next(f for army in state["armies"].values() for f in army)


EXTREME = {
    "move_count 10**30": lambda s: s.update(move_count=10**30),
    "kurgoz 60": lambda s: _first_fighter(s).update(kurgoz=60),
    "kurgoz 14000": lambda s: _first_fighter(s).update(kurgoz=14000),
    "64-char player ids": lambda s: None,
}


@pytest.mark.parametrize("what", sorted(EXTREME))
def test_extreme_values_get_no_5xx(contract, midgame, what):
    state = _with(midgame, EXTREME[what])
    for action in ("legal-moves", "score", "view"):
        contract.post(GAME, action, {"state": state}, valid_request=False, expect={200, 400, 422})
    move = get_legal(midgame)[0]
    contract.post(
        GAME, "apply", {"state": state, "move": move}, valid_request=False, expect={200, 400, 422}
    )


@pytest.mark.parametrize(("seed", "status"), [(-1, 422), (1 << 63, 422), (1 << 64, 400)])
def test_out_of_range_seed_in_state_is_rejected(contract, midgame, seed, status):
    """In range for JSON but not for a seed: integrity (422). Beyond 64 bits the body parser reads
    the number as a float, so it is not an integer at all: a shape error (400)."""
    state = _with(midgame, lambda s: s.update(seed=seed))
    contract.post(GAME, "score", {"state": state}, valid_request=False, expect=status)


def test_huge_kurgoz_count_is_rejected_not_a_crash(contract, midgame):
    state = _with(midgame, lambda s: _first_fighter(s).update(kurgoz=15000))
    contract.post(GAME, "score", {"state": state}, valid_request=False, expect=422)


def get_legal(state: dict) -> list[dict]:
    from rules.registry import get_game

    return get_game(GAME).legal_moves(state)
