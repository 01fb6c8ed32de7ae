"""Hidden information through sessions, for every registered game: no seat's view, history or
event stream holds another seat's private information.

Game-independent definition: what player ``o`` privately knows in a state is every string in
``view(state, o)`` that is not in the spectator view. A document delivered to seat ``s`` (its
view, a history entry, a streamed event) leaks when it holds a string that the spectator's copy
of the same document does not hold, that some other seat privately knows, and that ``s`` does
not privately know itself.
"""

from __future__ import annotations

import copy
import random

import pytest
from sessions_served import EventReader, bearer, http

from rules.registry import GAMES, get_game

STEPS = 40


def strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(strings(v) for v in obj)) if obj else set()
    return set()


def private(game, state, player) -> set[str]:
    return strings(game.view(state, player)) - strings(game.view(state, None))


def leaks(delivered, spectator_copy, seat, players, game, states) -> set[str]:
    others = set().union(*(private(game, st, o) for st in states for o in players if o != seat))
    own = set().union(*(private(game, st, seat) for st in states))
    return (strings(delivered) - strings(spectator_copy)) & (others - own)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_no_seat_sees_another_seats_secrets(served, game_id):
    game = get_game(game_id)
    players = ["north", "east", "south", "west"][
        : max(game.min_players, 3 if game.max_players >= 3 else 2)
    ]
    status, _, created = http(
        served.base,
        "POST",
        "/v1/sessions",
        {"game": game_id, "players": players, "open": True, "seed": 8},
    )
    assert status == 201, created
    sid, seats = created["session_id"], created["seats"]
    path = f"/v1/sessions/{sid}"
    readers = {
        p: EventReader(served.base, path + "/events", bearer(seats[p])).start() for p in players
    }
    readers[None] = EventReader(served.base, path + "/events").start()
    state = game.setup(players, 8, {})
    states = [state]
    rng = random.Random(game_id)
    for _ in range(STEPS):
        move = rng.choice(game.legal_moves(state))
        if game.apply(copy.deepcopy(state), move)[0]["status"] == "finished":
            break  # secrets are kept until the end; after it the history is whole (fairness)
        status, _, answer = http(
            served.base,
            "POST",
            path + "/moves",
            {"move": move},
            headers=bearer(seats[move["player"]]),
        )
        assert status == 200, answer
        state, _ = game.apply(state, move)
        states.append(state)
        spectator = http(served.base, "GET", path)[2]["view"]
        assert spectator == game.view(state, None)
        for seat in players:
            view = http(served.base, "GET", path, headers=bearer(seats[seat]))[2]["view"]
            assert view == game.view(state, seat)
            assert not leaks(view, spectator, seat, players, game, [state]), seat
    moves = len(states) - 1
    assert moves > 0
    spectator_history = http(served.base, "GET", path + "/history")[2]["entries"]
    for seat in players:
        history = http(served.base, "GET", path + "/history", headers=bearer(seats[seat]))[2][
            "entries"
        ]
        assert len(history) == moves
        for entry, public in zip(history, spectator_history):
            around = states[entry["version"] - 1 : entry["version"] + 1]
            assert not leaks(entry, public, seat, players, game, around), (seat, entry["version"])
        reader = readers[seat]
        assert reader.wait_for(lambda r: len(r.events()) == moves), (seat, len(reader.events()))
        assert [e["data"] for e in reader.events()] == history  # the stream says what history says
    assert readers[None].wait_for(lambda r: len(r.events()) == moves)
    assert [e["data"] for e in readers[None].events()] == spectator_history
    for reader in readers.values():
        reader.close()
