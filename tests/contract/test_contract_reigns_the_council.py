"""Reigns: The Council played over HTTP, every request and response validated against
openapi.yaml (openapi-core through ``Contract.call``), plus what the schema cannot say: legal
moves only for the active players, views hiding what they must, illegal moves and broken
states answered 422, scores explained."""
from __future__ import annotations

import copy
import random

import pytest

from rules.registry import get_game

from .oapi import spec_dict

GAME = "reigns-the-council"
P = f"/v1/games/{GAME}"
MOVE_TYPES = {"draw", "exchange", "pitch", "decide", "reveal", "change_mind", "keep_decision", "story_vote",
              "end_vote", "name_monarch"}


class Tally:
    def __init__(self) -> None:
        self.moves: set[str] = set()
        self.events: set[str] = set()
        self.reasons: set[str] = set()
        self.phases: set[str] = set()


def _mutate(move: dict) -> dict | None:
    """A move of the right shape that names something that does not exist."""
    for key, bad in (("card", "no-such-card"), ("advisor", "nobody"), ("monarch", "nobody"), ("deck", 9)):
        if key in move:
            return dict(move, **{key: bad})
    if "cards" in move:
        return dict(move, cards=move["cards"] + ["no-such-card"])
    return None


def play_game(contract, players: list[str], seed: int, options: dict | None, tally: Tally, chooser_seed: int,
              full_every: int = 60) -> dict:
    """Set up and play one game to the end through the API. Every exchange of a "full" step
    goes through openapi-core (about 35 ms each with a whole state in the request and the
    response): every ``full_every``-th step (sampled), and every step whose move type or events were
    not seen validated yet, so every move and event type is checked against the spec at least
    once. Sampled steps also validate the move and try an illegal neighbour. A view of each role
    is checked the first time each phase is reached; every view and the score at the end. The other steps go through the same app without the spec check. Returns the
    final state."""
    rng = random.Random(chooser_seed)
    raw = contract.client

    def post(action: str, body: dict, full: bool) -> dict:
        if full:
            return contract.post(GAME, action, body, expect=200).json
        response = raw.post(f"{P}/{action}", json=body)
        assert response.status_code == 200, response.get_data()[:300]
        return response.get_json()

    body = {"players": players, "seed": seed, **({"options": options} if options is not None else {})}
    state = contract.post(GAME, "setup", body, expect=200).json["state"]
    assert state["players"] == players and state["seed"] == seed
    for step in range(4000):
        if state["status"] == "finished":
            break
        moves = post("legal-moves", {"state": state}, False)["moves"]
        assert moves and {m["player"] for m in moves} == set(state["active_players"])
        move = rng.choice(moves)
        after, events = get_game(GAME).apply(state, move)  # to know whether this step shows something new
        sampled = step % full_every == 0
        full = sampled or move["type"] not in tally.moves or not {e["type"] for e in events} <= tally.events
        tally.moves.add(move["type"])
        if sampled:
            contract.post(GAME, "legal-moves", {"state": state}, expect=200)
            verdict = contract.post(GAME, "validate", {"state": state, "move": move}, expect=200).json
            assert verdict == {"legal": True, "violations": []}
            bad = _mutate(move)
            if bad is not None and bad not in moves:
                problem = contract.post(GAME, "apply", {"state": state, "move": bad}, expect=422).json
                assert problem["code"] == "illegal_move"
                assert all(v["rule"].startswith("reigns-the-council#") for v in problem["violations"])
        result = post("apply", {"state": state, "move": move}, full)
        assert result["events"] == events
        tally.events.update(e["type"] for e in result["events"])
        if result["state"]["phase"] not in tally.phases:  # every view of every phase, once
            tally.phases.add(result["state"]["phase"])
            _check_views(contract, result["state"], roles_only=True)
        state = result["state"]
    else:
        pytest.fail("not finished after 4000 moves")
    assert result["outcome"] == state["outcome"]
    tally.reasons.add(state["outcome"]["reason"])
    score = contract.post(GAME, "score", {"state": state}, expect=200).json
    assert score["finished"] is True and score["scores"] == state["outcome"]["scores"]
    for p in players:
        assert score["breakdown"]["totals"][p]["total"] == score["scores"][p]
    _check_views(contract, state)
    assert contract.post(GAME, "legal-moves", {"state": state}, expect=200).json == {"moves": []}
    return state


def _check_views(contract, state: dict, roles_only: bool = False) -> None:
    """Every player's view and the spectator's, or with ``roles_only`` one of each role: the
    Monarch, the first advisor, a spectator."""
    ruler = state["reigns"][-1]["monarch"]
    players = state["players"]
    viewers = [ruler, players[(players.index(ruler) + 1) % len(players)]] if roles_only else list(players)
    for viewer in [*viewers, None]:
        body = {"state": state} if viewer is None else {"state": state, "player": viewer}
        view = contract.post(GAME, "view", body, expect=200).json["view"]
        assert view["viewer"] == viewer and "rng" not in view and "seed" not in view
        if viewer is None or viewer == ruler:
            assert "hand" not in view and "goal" not in view
        else:
            assert [c["id"] for c in view["hand"]] == state["hands"][viewer]
            assert view["goal"]["id"] == state["goals"][viewer]
        text = str(view)
        for p, hand in state["hands"].items():
            if p != viewer:
                assert not any(f"'{c}'" in text for c in hand), "another hand's card id in a view"


def test_catalogue_lists_the_council(contract):
    games = contract.call("GET", "/v1/games", expect=200).json["games"]
    info = next(g for g in games if g["id"] == GAME)
    assert (info["min_players"], info["max_players"]) == (3, 4)
    assert set(info["move_types"]) == MOVE_TYPES
    detail = contract.call("GET", P, expect=200).json
    assert len(detail["content"]["deck"]) == 72 and len(detail["content"]["goals"]) == 24


def test_full_games_conform(contract):
    tally = Tally()
    play_game(contract, ["ann", "bob", "cat"], 11, None, tally, chooser_seed=1)
    play_game(contract, ["n", "e", "s", "w"], 12, {"story_point": "vote", "first_monarch": "s"}, tally,
              chooser_seed=2)
    deck = ([{"back": ["church", "army"], "accept": {"church": 1, "army": -1}, "reject": {"army": 2}}] * 10
            + [{"id": "tax", "title": "Tax the mills", "back": ["people", "wealth"], "accept": {"wealth": -2},
                "reject": {"people": 1}}] + [{"back": ["people"], "accept": {"people": 2}, "reject": {"people": -1}}] * 15)
    play_game(contract, ["ann", "bob", "cat"], 12, {"deck": deck}, tally, chooser_seed=12)
    assert tally.moves == MOVE_TYPES, MOVE_TYPES - tally.moves
    documented = set(spec_dict()["components"]["schemas"]["ReignsTheCouncilEvent"]["discriminator"]["mapping"])
    assert tally.events <= documented
    missing = documented - tally.events
    assert missing <= {"story_vote_started", "story_vote_cast", "story_vote_result", "decks_rebuilt",
                       "monarch_abdicated"}, missing


@pytest.fixture(scope="module")
def pitching(contract_app):
    from rules.registry import get_game

    game = get_game(GAME)
    state = game.setup(["ann", "bob", "cat"], 3, {"first_monarch": "ann"})
    rng = random.Random(3)
    while state["phase"] != "pitch":
        state, _ = game.apply(state, rng.choice(game.legal_moves(state)))
    return state


def test_illegal_moves_are_422_with_violations(contract, pitching):
    cat_card = pitching["hands"]["cat"][0]
    problem = contract.post(GAME, "apply", {"state": pitching, "move": {"player": "bob", "type": "pitch",
                                                                         "card": cat_card}}, expect=422).json
    assert problem["violations"][0]["code"] == "card_not_in_hand"
    assert cat_card not in problem["detail"], "an error never names another player's card"
    problem = contract.post(GAME, "apply", {"state": pitching, "move": {"player": "ann", "type": "decide",
                                                                         "accept": []}}, expect=422).json
    assert problem["violations"][0]["code"] == "wrong_phase"


def test_malformed_moves_are_400(contract, pitching):
    for move in ({"player": "bob", "type": "pitch"}, {"player": "bob", "type": "pitch", "card": 3},
                 {"player": "bob", "type": "draw", "deck": "0"}, {"player": "ann", "type": "end_vote", "end": 1}):
        problem = contract.post(GAME, "apply", {"state": pitching, "move": move}, expect=400,
                                valid_request=False).json
        assert problem["errors"]


def test_broken_states_are_422(contract, pitching):
    broken = copy.deepcopy(pitching)
    broken["discard"].append(broken["hands"]["bob"][0])
    problem = contract.post(GAME, "legal-moves", {"state": broken}, expect=422).json
    assert problem["code"] == "invalid_state"
    assert problem["violations"][0]["code"] == "card_in_two_places"
    broken = copy.deepcopy(pitching)
    broken["tracks"]["army"] = 9  # outside the documented range: the spec calls the request invalid
    problem = contract.post(GAME, "score", {"state": broken}, expect=422, valid_request=False).json
    assert problem["code"] == "invalid_state"
    broken = copy.deepcopy(pitching)
    broken["tracks"] = {"army": "x"}
    contract.post(GAME, "score", {"state": broken}, expect=400, valid_request=False)


def test_bad_setup_is_422(contract):
    for options in ({"story_point": "sometimes"}, {"first_monarch": "zed"}, {"deck": [{"back": ["church"],
                                                                                         "accept": {}, "reject": {}}]}):
        problem = contract.post(GAME, "setup", {"players": ["a", "b", "c"], "options": options},
                                expect={400, 422}, valid_request=False).json
        assert problem["status"] in (400, 422)
    problem = contract.post(GAME, "setup", {"players": ["a", "b"]}, expect=422).json
    assert problem["violations"][0]["code"] == "player_count"
