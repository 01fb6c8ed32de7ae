"""Hidden information (rulings R&R 12): what each player and a spectator may see."""

from __future__ import annotations

import json

from rr_helpers import apply, fighter, move, play_state

from api.jsonio import dumps
from rules.reign_and_ruin import GAME

PLAYERS = ["ann", "bob", "cat"]
VIEW_KEYS = {
    "game",
    "schema_version",
    "viewer",
    "players",
    "status",
    "phase",
    "active_players",
    "to_move",
    "move_count",
    "outcome",
    "cards",
    "starting_player",
    "draw_pile_count",
    "discard_pile",
    "armies",
    "final_round",
    "hand_counts",
    "draft",
}


def shown_ids(view):
    """Every string in the view except the public card catalogue (which lists all ids)."""
    rest = {k: v for k, v in view.items() if k != "cards"}
    return json.dumps(rest)


def assert_hidden(view, ids):
    text = shown_ids(view)
    leaked = [c for c in ids if f'"{c}"' in text]
    assert not leaked, leaked


def test_draft_view_shows_only_your_own_packet_picks_and_kept():
    state = GAME.setup(PLAYERS, 21, {"starting_player": "ann"})
    for p in PLAYERS:  # round 1 done: everyone has kept two
        state, _ = apply(state, GAME.legal_moves(state, p)[0])
    state, _ = apply(state, GAME.legal_moves(state, "bob")[3])  # bob has picked in round 2
    draft = state["draft"]
    view = GAME.view(state, "ann")
    assert set(view) == VIEW_KEYS | {"hand"}
    assert view["viewer"] == "ann"
    assert view["draft"] == {
        "round": 2,
        "packet": draft["packets"]["ann"],
        "picks": [],
        "kept": draft["kept"]["ann"],
        "packet_counts": {"ann": 5, "bob": 5, "cat": 5},
        "picked": {"ann": False, "bob": True, "cat": False},
        "kept_counts": {"ann": 2, "bob": 2, "cat": 2},
    }
    hidden = (
        draft["packets"]["bob"]
        + draft["packets"]["cat"]
        + draft["kept"]["bob"]
        + draft["kept"]["cat"]
        + state["draw_pile"]
    )
    assert_hidden(view, hidden)
    text = dumps(view).decode()
    assert state["rng"] not in text and '"seed"' not in text and '"rng"' not in text
    assert 'draw_pile"' not in text
    bob = GAME.view(state, "bob")
    assert bob["draft"]["picks"] == draft["picks"]["bob"]
    assert_hidden(GAME.view(state, "cat"), draft["picks"]["bob"] + draft["kept"]["bob"])


def test_play_view_shows_your_hand_and_counts_only():
    state = play_state(
        {
            "ann": ["hexen-1", "crou-2"],
            "bob": ["kurgoz-3", "nomora-4", "cognitz-5"],
            "cat": ["alfenghast-6"],
        },
        {"bob": [fighter("hexen-9", kurgoz=1, cognitz=True)]},
        discard=["crou-9"],
    )
    view = GAME.view(state, "ann")
    assert view["hand"] == ["hexen-1", "crou-2"]
    assert view["hand_counts"] == {"ann": 2, "bob": 3, "cat": 1}
    assert view["draw_pile_count"] == len(state["draw_pile"])
    assert view["discard_pile"] == ["crou-9"]
    assert view["armies"]["bob"] == [fighter("hexen-9", kurgoz=1, cognitz=True)]
    assert view["draft"] is None
    assert view["cards"] == state["cards"]
    assert_hidden(view, ["kurgoz-3", "nomora-4", "cognitz-5", "alfenghast-6"] + state["draw_pile"])


def test_spectator_sees_no_hand():
    state = play_state({"ann": ["hexen-1", "crou-2"], "bob": ["kurgoz-3"]})
    for viewer in (None, "zed"):
        view = GAME.view(state, viewer)
        assert view["viewer"] is None
        assert "hand" not in view
        assert set(view) == VIEW_KEYS
        assert_hidden(view, ["hexen-1", "crou-2", "kurgoz-3"] + state["draw_pile"])
    draft = GAME.setup(PLAYERS, 3, {})
    view = GAME.view(draft, None)
    assert set(view["draft"]) == {"round", "packet_counts", "picked", "kept_counts"}
    assert_hidden(view, [c for p in PLAYERS for c in draft["draft"]["packets"][p]])


def test_a_view_is_a_new_object():
    state = play_state({"ann": ["hexen-1", "crou-2"], "bob": ["kurgoz-3"]}, {"ann": ["hexen-5"]})
    before = dumps(state)
    view = GAME.view(state, "ann")
    view["hand"].append("x")
    view["armies"]["ann"][0]["kurgoz"] = 9
    view["cards"]["hexen-1"]["value"] = 99
    assert dumps(state) == before


def test_finished_view_shows_the_outcome():
    state = play_state({"ann": ["hexen-1"], "bob": ["hexen-3"]})
    state, _ = apply(state, move("ann", "fighter", card="hexen-1"))
    state, _ = apply(state, move("bob", "fighter", card="hexen-3"))
    view = GAME.view(state, None)
    assert view["outcome"] == state["outcome"] and view["status"] == "finished"


def test_private_events_are_redacted_for_others():
    drawn = {"type": "card_drawn", "player": "ann", "card": "hexen-4"}
    assert GAME.view_event(drawn, "ann") == drawn
    assert GAME.view_event(drawn, "bob") == {"type": "card_drawn", "player": "ann"}
    assert GAME.view_event(drawn, None) == {"type": "card_drawn", "player": "ann"}
    kept = {"type": "last_card_kept", "player": "bob", "card": "crou-1"}
    assert GAME.view_event(kept, "ann") == {"type": "last_card_kept", "player": "bob"}
    assert GAME.view_event(kept, "bob") == kept
    pick = {"type": "draft_pick", "player": "cat", "cards": ["a", "b"]}
    assert GAME.view_event(pick, "ann") == {"type": "draft_pick", "player": "cat"}
    assert GAME.view_event(pick, "cat") == pick
    public = {
        "type": "fighter_destroyed",
        "player": "ann",
        "owner": "bob",
        "card": "hexen-1",
        "kurgoz_returned": 1,
        "cognitz_returned": False,
    }
    assert GAME.view_event(public, None) == public
    shown = GAME.view_event(pick, "cat")
    shown["cards"].append("c")
    assert pick["cards"] == ["a", "b"]


def test_real_events_redact_drawn_cards():
    state = play_state({"ann": ["hexen-1", "crou-2"], "bob": ["kurgoz-3"]}, draw=["nomora-9"])
    _, events = GAME.apply(state, move("ann", "draw", card="hexen-1"))
    for_bob = [GAME.view_event(e, "bob") for e in events]
    assert "nomora-9" not in json.dumps(for_bob)
    assert "nomora-9" in json.dumps([GAME.view_event(e, "ann") for e in events])


def test_a_drawn_starting_player_stays_unknown_until_the_draft_ends():
    """Issue 16 item 9, seed §2 then §3 ("Determine starting player" comes after the draft),
    rulings R&R 3. Without ``options.starting_player`` nobody, the state included, knows the
    starting player during the draft: every view shows null and no event names one; it is
    drawn as the draft ends, announced by ``draft_finished`` and shown from then on. A given
    starting player (the previous game's winner, known at the table) is shown from the start."""
    for seed in range(6):
        players = ["ann", "bob", "cat", "dan"][: 2 + seed % 3]
        state = GAME.setup(players, seed, {})
        assert state["starting_player"] is None
        GAME.check_state(state)
        while state["phase"] == "draft":
            for viewer in players + [None]:
                assert GAME.view(state, viewer)["starting_player"] is None
            state, events = GAME.apply(state, GAME.legal_moves(state)[0])
            GAME.check_state(state)
            if state["phase"] == "draft":
                assert state["starting_player"] is None
                assert {e["type"] for e in events} <= {"draft_pick", "packets_passed"}, events
        starting = state["starting_player"]
        assert starting in players and state["active_players"] == [starting]
        assert {"type": "draft_finished", "starting_player": starting} in events
        for viewer in players + [None]:
            assert GAME.view(state, viewer)["starting_player"] == starting
    given = GAME.setup(["ann", "bob", "cat"], 1, {"starting_player": "cat"})
    assert all(GAME.view(given, v)["starting_player"] == "cat" for v in ("ann", "bob", "cat", None))


def test_a_state_may_lack_the_starting_player_only_during_the_draft():
    import pytest

    from rules.errors import InvalidState

    state = GAME.setup(["ann", "bob"], 3, {})
    GAME.check_state(state)
    while state["phase"] == "draft":
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    with pytest.raises(InvalidState) as err:
        GAME.check_state(dict(state, starting_player=None))
    assert [v.code for v in err.value.violations] == ["unknown_player"]
