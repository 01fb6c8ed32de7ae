"""``rules.forfeit``: a seat loses without a move of its own, in every game (issue 25)."""

from __future__ import annotations

import copy
import random

import pytest

from rules.errors import InvalidState
from rules.forfeit import FORFEIT, forfeit
from rules.records import commitment, make_record
from rules.registry import GAMES, get_game
from tests.contract.oapi import check_component

SEATS = {"reigns-the-council": ["ann", "bob", "cy"]}


def _new(game_id: str, players: list[str] | None = None):
    game = get_game(game_id)
    players = players or SEATS.get(game_id, ["ann", "bob"])
    return game, game.setup(players, 7, {})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_forfeit_makes_the_seat_lose_and_every_view_still_shows_the_game(game_id):
    game, state = _new(game_id)
    seat = game.waiting_on(state)[0]
    new, events, move = forfeit(game, state, seat)
    assert new["status"] == "finished" and game.waiting_on(new) == []
    assert seat not in new["outcome"]["winners"] and new["outcome"]["winners"]
    assert game.legal_moves(new) == []
    assert state["status"] == "in_progress"  # the state given is not changed
    prefix = "".join(part.title() for part in game_id.split("-"))
    for viewer in [None, *new["players"]]:
        check_component(f"{prefix}View", game.view(new, viewer))
    if move["type"] == FORFEIT:
        assert move == {"player": seat, "type": FORFEIT} and events == []
        assert new["outcome"]["reason"] == "forfeit"
    else:
        assert move == {"player": seat, "type": "concede"} and events


def test_a_game_without_concede_ends_with_the_others_sharing_the_win():
    game, state = _new("reign-and-ruin", ["ann", "bob", "cy"])
    seat = game.waiting_on(state)[0]
    new, _, _ = forfeit(game, state, seat)
    others = [p for p in ["ann", "bob", "cy"] if p != seat]
    assert new["outcome"]["winners"] == others and new["outcome"]["draw"] is True


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_forfeit_asks_about_concede_alone_not_the_whole_move_list(game_id, monkeypatch):
    """A long move list (a Reign & Ruin revive lists Nomora x discard pile x places) must not be
    built to learn whether ``concede`` is legal: a forfeit, and the check of every state a
    forfeit ended, asks about that one move."""
    game, state = _new(game_id)
    seat = game.waiting_on(state)[0]
    expected = forfeit(game, state, seat)

    def no_listing(*args, **kwargs):
        raise AssertionError("the whole move list was built")

    monkeypatch.setattr(game, "legal_moves", no_listing)
    assert forfeit(game, state, seat) == expected


def test_a_player_already_out_does_not_win_by_anothers_forfeit():
    """Reign Absolute, three seats: one is eradicated ("A player wins when they have the only
    remaining Liege Unit in play", seed 001), then another runs out of time. The one left wins
    alone; the eradicated seat shared the win before. The state passes the game's checks."""
    game = get_game("reign-absolute")
    for seed in range(200):
        chooser = random.Random(seed)
        state = game.setup(["ann", "bob", "cy"], seed, {})
        while state["status"] != "finished" and not state["eradicated"]:
            state, _ = game.apply(state, chooser.choice(game.legal_moves(state)))
        if state["status"] != "finished":
            break
    out = state["eradicated"]
    seat = game.waiting_on(state)[0]
    new, _, _ = forfeit(game, state, seat)
    assert new["outcome"]["winners"] == [p for p in state["players"] if p not in [*out, seat]]
    assert new["outcome"]["draw"] is False
    game.check_state(new)
    assert game.score(new).winners == tuple(new["outcome"]["winners"])
    with pytest.raises(ValueError, match="out of the game"):  # nobody's clock runs for them
        forfeit(game, state, out[0])


def test_reign_supreme_forfeits_by_conceding_and_a_larger_game_goes_on():
    game, state = _new("reign-supreme", ["ann", "bob", "cy"])
    seat = game.waiting_on(state)[0]
    new, events, move = forfeit(game, state, seat)
    assert move["type"] == "concede" and new["status"] == "in_progress"
    assert seat not in game.waiting_on(new)
    assert any(e["type"] == "player_defeated" and e["player"] == seat for e in events)


def test_forfeit_refuses_a_stranger_and_a_finished_game():
    game, state = _new("reign-and-ruin")
    with pytest.raises(ValueError):
        forfeit(game, state, "zed")
    done, _, _ = forfeit(game, state, "ann")
    with pytest.raises(ValueError):
        forfeit(game, done, "bob")


# -- a state a forfeit ended is a sound state ------------------------------------------------
NO_CONCEDE = ["reign-absolute", "reign-and-ruin", "reigns-the-council"]


def _forfeited_in_play(game_id: str, seed: int, players: list[str]):
    """A game played ``seed``'s random number of random moves (no concede), then forfeited by a
    random seat while still running; None when it ended first."""
    game = get_game(game_id)
    chooser = random.Random(seed)
    state = game.setup(players, seed, {})
    for _ in range(chooser.randrange(300)):
        if state["status"] == "finished":
            return None
        moves = [m for m in game.legal_moves(state) if m["type"] != "concede"]
        state, _ = game.apply(state, chooser.choice(moves))
    if state["status"] == "finished":
        return None
    return game, state, forfeit(game, state, chooser.choice(game.in_the_game(state)))[0]


@pytest.mark.parametrize("game_id", NO_CONCEDE)
def test_a_state_a_forfeit_ended_in_any_phase_passes_the_games_own_checks(game_id):
    # before, the checks refused most of them: a Council reign still running though "finished",
    # a Reign Absolute placer left over, a Reign & Ruin outcome not the armies' totals
    phases = set()
    for seed in range(40):
        played = _forfeited_in_play(game_id, seed, ["ann", "bob", "cy", "dee"])
        if played is None:
            continue
        game, before, ended = played
        phases.add(before["phase"])
        game.check_state(ended)
        assert ended["outcome"]["reason"] == "forfeit"
    assert len(phases) >= 2, phases  # forfeited in more than one phase


@pytest.mark.parametrize("game_id", NO_CONCEDE)
@pytest.mark.parametrize(
    "change",
    [
        lambda s: s["outcome"].update(winners=s["players"][:1]),  # not every other player
        lambda s: s["outcome"]["scores"].update({s["players"][0]: 999}),
        lambda s: s["outcome"].update(draw=not s["outcome"]["draw"]),
        lambda s: s.update(active_players=s["players"][:1]),
        lambda s: s.update(phase=s["phase"] + "x"),
        lambda s: s.update(status="in_progress"),
    ],
)
def test_a_state_that_claims_a_forfeit_it_did_not_come_from_is_refused(game_id, change):
    game, _, ended = next(
        played
        for seed in range(20)
        if (played := _forfeited_in_play(game_id, seed, ["ann", "bob", "cy"])) is not None
    )
    changed = copy.deepcopy(ended)
    change(changed)
    with pytest.raises(InvalidState) as refused:
        game.check_state(changed)
    assert {v.code for v in refused.value.violations} <= {"inconsistent_forfeit", "bad_status"}


def test_a_board_a_forfeit_ended_is_still_checked():
    game, _, ended = next(
        played
        for seed in range(20)
        if (played := _forfeited_in_play("reigns-the-council", seed, ["ann", "bob", "cy"]))
        is not None
    )
    changed = copy.deepcopy(ended)
    changed["tracks"]["army"] = 99  # off the track: refused whatever the phase
    with pytest.raises(InvalidState) as refused:
        game.check_state(changed)
    assert [v.code for v in refused.value.violations] == ["inconsistent_forfeit"]


@pytest.mark.parametrize("game_id", NO_CONCEDE)
def test_the_service_takes_back_a_state_a_forfeit_ended(client, game_id):
    # a clock's forfeit (issue 25) ends a session in such a state: a fork of the finished game
    # starts from it, and its record and the stateless endpoints check it
    _, _, ended = next(
        played
        for seed in range(20)
        if (played := _forfeited_in_play(game_id, seed, ["ann", "bob", "cy"])) is not None
    )
    for endpoint in ("score", "view", "legal-moves", "render"):
        resp = client.post(f"/v1/games/{game_id}/{endpoint}", json={"state": ended})
        assert resp.status_code == 200, (endpoint, resp.get_json())
    record = make_record(
        get_game(game_id),
        players=ended["players"],
        options={},
        fairness={
            "open": True,
            "seed_commitment": commitment("0" * 32, 1),
            "seed": 1,
            "salt": "0" * 32,
        },
        start=ended,
        entries=[],
        viewer=None,
        whole=True,
        forked_from={"session_id": "s" * 22, "version": 9},
    )
    resp = client.post(f"/v1/games/{game_id}/replay", json={"record": record})
    assert resp.get_json() == {"valid": True}


@pytest.mark.parametrize("game_id", NO_CONCEDE)
def test_score_of_a_game_a_forfeit_ended_names_its_outcomes_winners(client, game_id):
    # before, Reign & Ruin and the Council ranked the armies or points again: the seat that
    # forfeited on time won /score when it led, though the outcome named the others
    game = get_game(game_id)
    chooser = random.Random(5)
    state = game.setup(["ann", "bob", "cy"], 5, {})
    led_alone = 0
    for _ in range(400):
        if state["status"] == "finished":
            state = game.setup(["ann", "bob", "cy"], chooser.randrange(1000), {})
        leaders = game.score(state).winners
        if len(leaders) == 1 and chooser.random() < 0.2:
            ended = forfeit(game, state, leaders[0])[0]
            resp = client.post(f"/v1/games/{game_id}/score", json={"state": ended})
            answer = resp.get_json()
            assert answer["finished"] is True
            assert answer["winners"] == ended["outcome"]["winners"] == answer["leaders"]
            assert leaders[0] not in answer["winners"]
            assert answer["draw"] is (len(answer["winners"]) > 1)
            led_alone += 1
        moves = [m for m in game.legal_moves(state) if m["type"] != "concede"]
        state, _ = game.apply(state, chooser.choice(moves))
    assert led_alone >= 5


@pytest.mark.parametrize("game_id", NO_CONCEDE)
def test_only_the_guesses_their_phase_allows_get_the_whole_check(game_id, monkeypatch):
    # before, every guess (phases x 49 seatings) got the game's whole check: 0.9 s for a state
    # with a 300-card custom Council deck, 15 s with four such requests at once
    game = get_game(game_id)
    whole_checks = []
    check_state = type(game).check_state

    def counted(self, state):
        whole_checks.append(state["phase"])
        return check_state(self, state)

    monkeypatch.setattr(type(game), "check_state", counted)
    checked = 0
    for seed in range(60):
        if checked >= 10:
            break
        played = _forfeited_in_play(game_id, seed, ["ann", "bob", "cy", "dee"])
        if played is None:
            continue
        _, _, ended = played
        changed = copy.deepcopy(ended)
        changed["outcome"]["scores"][changed["players"][0]] += 1
        for state, sound in ((ended, True), (changed, False)):
            whole_checks.clear()
            if sound:
                game.check_integrity(state)
            else:
                with pytest.raises(InvalidState):
                    game.check_integrity(state)
            assert len(whole_checks) <= 4, whole_checks
            checked += 1
    assert checked >= 10
