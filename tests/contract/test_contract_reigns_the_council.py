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
MOVE_TYPES = {
    "draw",
    "exchange",
    "pitch",
    "decide",
    "reveal",
    "change_mind",
    "keep_decision",
    "story_vote",
    "end_vote",
    "name_monarch",
}


class Tally:
    def __init__(self) -> None:
        self.moves: set[str] = set()
        self.events: set[str] = set()
        self.reasons: set[str] = set()
        self.phases: set[str] = set()


def _mutate(move: dict) -> dict | None:
    """A move of the right shape that names something that does not exist."""
    for key, bad in (
        ("card", "no-such-card"),
        ("advisor", "nobody"),
        ("monarch", "nobody"),
        ("deck", 9),
    ):
        if key in move:
            return dict(move, **{key: bad})
    if "cards" in move:
        return dict(move, cards=move["cards"] + ["no-such-card"])
    return None


def play_game(
    contract,
    players: list[str],
    seed: int,
    options: dict | None,
    tally: Tally,
    chooser_seed: int,
    full_every: int = 60,
) -> dict:
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

    body = {
        "players": players,
        "seed": seed,
        **({"options": options} if options is not None else {}),
    }
    state = contract.post(GAME, "setup", body, expect=200).json["state"]
    assert state["players"] == players and state["seed"] == seed
    for step in range(4000):
        if state["status"] == "finished":
            break
        moves = post("legal-moves", {"state": state}, False)["moves"]
        assert moves and {m["player"] for m in moves} == set(state["active_players"])
        move = rng.choice(moves)
        after, events = get_game(GAME).apply(
            state, move
        )  # to know whether this step shows something new
        sampled = step % full_every == 0
        full = (
            sampled
            or move["type"] not in tally.moves
            or not {e["type"] for e in events} <= tally.events
        )
        tally.moves.add(move["type"])
        if sampled:
            contract.post(GAME, "legal-moves", {"state": state}, expect=200)
            verdict = contract.post(
                GAME, "validate", {"state": state, "move": move}, expect=200
            ).json
            assert verdict == {"legal": True, "violations": []}
            bad = _mutate(move)
            if bad is not None and bad not in moves:
                problem = contract.post(
                    GAME, "apply", {"state": state, "move": bad}, expect=422
                ).json
                assert problem["code"] == "illegal_move"
                assert all(
                    v["rule"].startswith("reigns-the-council#") for v in problem["violations"]
                )
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
    viewers = (
        [ruler, players[(players.index(ruler) + 1) % len(players)]] if roles_only else list(players)
    )
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
    play_game(
        contract,
        ["n", "e", "s", "w"],
        12,
        {"story_point": "vote", "first_monarch": "s"},
        tally,
        chooser_seed=2,
    )
    deck = (
        [{"back": ["church", "army"], "accept": {"church": 1, "army": -1}, "reject": {"army": 2}}]
        * 10
        + [
            {
                "id": "tax",
                "title": "Tax the mills",
                "back": ["people", "wealth"],
                "accept": {"wealth": -2},
                "reject": {"people": 1},
            }
        ]
        + [{"back": ["people"], "accept": {"people": 2}, "reject": {"people": -1}}] * 15
    )
    play_game(contract, ["ann", "bob", "cat"], 12, {"deck": deck}, tally, chooser_seed=12)
    assert tally.moves == MOVE_TYPES, MOVE_TYPES - tally.moves
    documented = set(
        spec_dict()["components"]["schemas"]["ReignsTheCouncilEvent"]["discriminator"]["mapping"]
    )
    assert tally.events <= documented
    missing = documented - tally.events
    assert missing <= {
        "story_vote_started",
        "story_vote_cast",
        "story_vote_result",
        "decks_rebuilt",
        "monarch_abdicated",
    }, missing


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
    problem = contract.post(
        GAME,
        "apply",
        {"state": pitching, "move": {"player": "bob", "type": "pitch", "card": cat_card}},
        expect=422,
    ).json
    assert problem["violations"][0]["code"] == "card_not_in_hand"
    assert cat_card not in problem["detail"], "an error never names another player's card"
    problem = contract.post(
        GAME,
        "apply",
        {"state": pitching, "move": {"player": "ann", "type": "decide", "accept": []}},
        expect=422,
    ).json
    assert problem["violations"][0]["code"] == "wrong_phase"


def test_malformed_moves_are_400(contract, pitching):
    for move in (
        {"player": "bob", "type": "pitch"},
        {"player": "bob", "type": "pitch", "card": 3},
        {"player": "bob", "type": "draw", "deck": "0"},
        {"player": "ann", "type": "end_vote", "end": 1},
    ):
        problem = contract.post(
            GAME, "apply", {"state": pitching, "move": move}, expect=400, valid_request=False
        ).json
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
    """A value outside an option's vocabulary is a shape error (400); a value of the right shape
    that the rules refuse is 422 ``invalid_setup`` naming each problem."""
    problem = contract.post(
        GAME,
        "setup",
        {"players": ["a", "b", "c"], "options": {"story_point": "sometimes"}},
        expect=400,
        valid_request=False,
    ).json
    assert "options.story_point" in str(problem["errors"])
    for options, codes in (
        ({"first_monarch": "zed"}, {"unknown_first_monarch"}),
        ({"deck": [{"back": ["church"], "accept": {}, "reject": {}}]}, {"deck_size", "bad_card"}),
    ):
        problem = contract.post(
            GAME,
            "setup",
            {"players": ["a", "b", "c"], "options": options},
            expect=422,
            valid_request=False,
        ).json
        assert problem["code"] == "invalid_setup"
        assert {v["code"] for v in problem["violations"]} == codes
    problem = contract.post(
        GAME, "setup", {"players": ["a", "b"]}, expect=422, valid_request=False
    ).json
    assert problem["violations"][0]["code"] == "player_count"


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(set(map(str, obj)), *(_strings(v) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(_strings(v) for v in obj))
    return set()


def test_session_histories_hide_cards_goals_pitches_and_votes(contract_app):
    """A whole session game (story point by vote) played through seat tokens; then each seat's
    and the spectator's history holds no card id or goal id that reader may not know (their own
    draws, revealed cards, their own goal, goals revealed after a death), and another player's
    exchange, pitch or vote shows only who moved and the move's type."""
    from rules.reigns_the_council.content import GOALS

    game = get_game(GAME)
    client = contract_app.test_client()
    players = ["ann", "bob", "cat"]
    created = client.post(
        "/v1/sessions",
        json={
            "game": GAME,
            "players": players,
            "open": True,
            "seed": 21,
            "options": {"story_point": "vote"},
        },
    ).get_json()
    path, seats = f"/v1/sessions/{created['session_id']}", created["seats"]
    state = game.setup(players, 21, {"story_point": "vote"})
    card_ids, goal_ids = set(state["cards"]), set(GOALS)
    known = {p: set() for p in [*players, None]}
    goals = {p: {state["goals"][p]} if p in state["goals"] else set() for p in [*players, None]}
    rng = random.Random(21)
    knowledge: dict[int, tuple[dict, dict]] = {}  # version -> what each reader may know by then
    while True:
        move = rng.choice(game.legal_moves(state))
        if game.apply(copy.deepcopy(state), move)[0]["status"] == "finished":
            final_move = move
            break  # the histories are read before the last move: after it they are whole
        seat = {"Authorization": f"Bearer {seats[move['player']]}"}
        answer = client.post(path + "/moves", json={"move": move}, headers=seat)
        assert answer.status_code == 200, answer.get_data()[:300]
        state, events = game.apply(state, move)
        assert answer.get_json()["events"] == [game.view_event(e, move["player"]) for e in events]
        for e in events:
            if e["type"] == "card_drawn":
                known[e["player"]].add(e["card"])
            elif e["type"] == "proposal_revealed":
                for p in known:
                    known[p].add(e["card"])
            elif e["type"] == "goal_dealt":
                goals[e["player"]].add(e["goal"])
            elif e["type"] == "goals_revealed":
                for p in goals:
                    goals[p].update(e["goals"].values())
        knowledge[state["move_count"]] = (
            {p: set(v) for p, v in known.items()},
            {p: set(v) for p, v in goals.items()},
        )
    assert {r["end"] for r in state["reigns"]} & {"death"}, (
        "a death, so goals and story votes are seen"
    )
    for reader in [*players, None]:
        headers = {} if reader is None else {"Authorization": f"Bearer {seats[reader]}"}
        entries, after = [], 0
        while True:
            page = client.get(f"{path}/history?after={after}", headers=headers).get_json()
            entries += page["entries"]
            if not page["more"]:
                break
            after = page["entries"][-1]["version"]
        assert len(entries) == state["move_count"] > 100
        for entry in entries:
            found = _strings(entry)
            cards_known, goals_known = knowledge[entry["version"]]
            assert not (found & card_ids) - cards_known[reader], (reader, entry["version"])
            assert not (found & goal_ids) - goals_known[reader], (reader, entry["version"])
            move = entry["move"]
            if (
                move["type"] in ("exchange", "pitch", "story_vote", "end_vote")
                and move["player"] != reader
            ):
                assert move == {"player": move["player"], "type": move["type"]}
            for e in entry["events"]:
                if e["type"] in ("story_vote_cast", "end_vote_cast") and e["player"] != reader:
                    assert set(e) == {"type", "player"}
        view = client.get(path, headers=headers).get_json()["view"]
        assert view == game.view(state, reader)
    last = client.post(
        path + "/moves",
        json={"move": final_move},
        headers={"Authorization": f"Bearer {seats[final_move['player']]}"},
    ).get_json()
    assert last["to_move"] == [] and last["fairness"]["seed"] == 21, last
    whole = client.get(f"{path}/history?after={state['move_count']}").get_json()["entries"]
    assert whole[-1]["move"] == final_move  # once finished, the history is whole for everyone


def _corrupt(value, rng: random.Random):
    """One random change deep inside JSON data: a value replaced, an entry dropped or doubled."""
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        r = rng.random()
        if r < 0.6:
            value[key] = _corrupt(value[key], rng)
        elif r < 0.7:
            value.pop(key)
        else:
            value[key] = rng.choice([None, 0, -3, 99, "x", [], {}, True, 1.5, 2**64, "bob", "p01"])
    elif isinstance(value, list) and value:
        i = rng.randrange(len(value))
        r = rng.random()
        if r < 0.2:
            value.append(copy.deepcopy(value[i]))
        elif r < 0.4:
            value.pop(i)
        else:
            value[i] = _corrupt(value[i], rng)
    elif isinstance(value, bool):
        return not value
    elif isinstance(value, int):
        return value + rng.choice([-7, -1, 1, 7, 2**63])
    elif isinstance(value, str):
        return rng.choice([value + "x", "", "bob", "p01", "mind"])
    return value


def test_corrupted_requests_are_4xx_never_5xx(contract_app):
    """States and moves of every phase with random parts changed, sent to every stateless
    endpoint: a 2xx or a 4xx problem, never a crash."""
    import json

    from rules.playout import random_steps

    game = get_game(GAME)
    client = contract_app.test_client()
    samples = []
    for seed in range(4):
        state = game.setup(
            ["ann", "bob", "cat", "dan"][: 3 + seed % 2], seed, {"story_point": "vote"}
        )
        for i, step in enumerate(random_steps(game, state, random.Random(seed))):
            if i % 20 == 0 or step.before["phase"] in ("mind", "story_vote", "succession"):
                samples.append((step.before, step.legal))
    rng = random.Random(8)
    statuses: dict[int, int] = {}
    for _ in range(400):
        state, legal = rng.choice(samples)
        action = rng.choice(["legal-moves", "validate", "apply", "score", "view"])
        body: dict = {"state": copy.deepcopy(state)}
        if action in ("validate", "apply"):
            body["move"] = dict(rng.choice(legal))
        elif action in ("legal-moves", "view"):
            body["player"] = rng.choice(state["players"])
        for _ in range(rng.randint(1, 2)):
            _corrupt(body, rng)
        response = client.post(
            f"{P}/{action}", data=json.dumps(body), content_type="application/json"
        )
        assert response.status_code < 500, (action, response.get_data()[:300])
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
    assert statuses.get(400, 0) > 50 and statuses.get(422, 0) > 20 and statuses.get(200, 0) > 20, (
        statuses
    )
