"""``api.clock``: the arithmetic of session clocks, driven with a time of our own (no waiting)."""

from __future__ import annotations

from api import clock as clocks

T0 = 1_700_000_000_000
PER_MOVE = {"type": "per_move", "seconds": 30}
FISCHER = {"type": "fischer", "initial_seconds": 60, "increment_seconds": 5}
CORRESPONDENCE = {"type": "correspondence", "days": 2}
FORFEIT = {"action": "forfeit"}


def _start(control, waiting=("ann",), on_timeout=FORFEIT, grace=0):
    return clocks.start(control, on_timeout, grace, ["ann", "bob"], list(waiting), T0)


def test_per_move_runs_for_the_waited_on_seat_and_starts_again_in_full_after_its_move():
    clock = _start(PER_MOVE)
    assert clocks.deadlines(clock) == {"ann": T0 + 30_000}
    assert clocks.remaining_at(clock, T0 + 12_345) == {"ann": 17_655, "bob": 30_000}
    moved = clocks.after_move(clock, "ann", ["bob"], 1, T0 + 20_000)
    assert moved["running"] == ["bob"] and moved["version"] == 1
    assert moved["remaining_ms"] == {"ann": 30_000, "bob": 30_000}
    assert clocks.deadlines(moved) == {"bob": T0 + 50_000}
    again = clocks.after_move(moved, "bob", ["bob"], 2, T0 + 21_000)  # several moves in a turn
    assert clocks.deadlines(again) == {"bob": T0 + 51_000}


def test_correspondence_is_days_per_move():
    clock = _start(CORRESPONDENCE)
    assert clocks.deadlines(clock) == {"ann": T0 + 2 * 86_400_000}


def test_fischer_charges_the_time_used_and_adds_the_increment_after_each_move():
    clock = _start(FISCHER)
    moved = clocks.after_move(clock, "ann", ["bob"], 1, T0 + 10_000)
    assert moved["remaining_ms"] == {"ann": 55_000, "bob": 60_000}
    back = clocks.after_move(moved, "bob", ["ann"], 2, T0 + 40_000)
    assert back["remaining_ms"] == {"ann": 55_000, "bob": 35_000}
    assert clocks.deadlines(back) == {"ann": T0 + 95_000}


def test_simultaneous_seats_run_together_and_a_seat_still_waited_on_keeps_its_deadline():
    for control in (PER_MOVE, FISCHER):
        clock = _start(control, waiting=("ann", "bob"))
        first = clocks.deadlines(clock)
        assert set(first) == {"ann", "bob"}
        moved = clocks.after_move(clock, "ann", ["bob"], 1, T0 + 7_000)
        assert clocks.deadlines(moved) == {"bob": first["bob"]}


def test_due_lists_the_seats_out_of_time_earliest_first():
    clock = _start(FISCHER, waiting=("ann", "bob"))
    clock = clocks.add_time(clock, "ann", 1, T0)
    assert clocks.due(clock, T0 + 59_999) == []
    assert clocks.due(clock, T0 + 60_000) == ["bob"]
    assert clocks.due(clock, T0 + 99_000) == ["bob", "ann"]
    assert clocks.next_deadline(clock) == T0 + 60_000


def test_a_forfeit_leaves_the_seat_at_zero_and_bot_or_pause_start_its_clock_again():
    fischer = _start(FISCHER)
    out = clocks.after_timeout(fischer, "ann", [], 1, T0 + 60_000)
    assert out["remaining_ms"]["ann"] == 0 and out["running"] == []
    bot = _start(FISCHER, on_timeout={"action": "bot", "level": "random"})
    played = clocks.after_timeout(bot, "ann", ["ann"], 1, T0 + 60_000)
    assert played["remaining_ms"]["ann"] == 60_000 and not played["paused"]
    assert clocks.deadlines(played) == {"ann": T0 + 120_000}
    paused = clocks.after_timeout(
        _start(PER_MOVE, on_timeout={"action": "pause"}), "ann", ["ann"], 1, T0 + 30_000
    )
    assert (
        paused["paused"] and clocks.deadlines(paused) == {} and clocks.due(paused, T0 + 10**9) == []
    )
    assert paused["remaining_ms"]["ann"] == 30_000


def test_grace_is_given_once_per_seat():
    clock = _start(PER_MOVE, grace=10)
    graced = clocks.with_grace(clock, "ann", T0 + 30_500)
    assert graced is not None and clocks.deadlines(graced) == {"ann": T0 + 40_000}
    assert clocks.with_grace(graced, "ann", T0 + 40_000) is None
    assert clocks.with_grace(_start(PER_MOVE), "ann", T0 + 30_000) is None  # no grace asked


def test_pause_stops_every_clock_and_resume_goes_on_with_the_time_left():
    clock = _start(FISCHER)
    paused = clocks.pause(clock, T0 + 10_000)
    assert clocks.remaining_at(paused, T0 + 500_000) == {"ann": 50_000, "bob": 60_000}
    assert clocks.pause(paused, T0 + 20_000) == paused
    resumed = clocks.resume(paused, T0 + 100_000)
    assert clocks.deadlines(resumed) == {"ann": T0 + 150_000}
    assert clocks.resume(resumed, T0 + 100_000) == resumed


def test_add_time_moves_a_running_deadline():
    clock = clocks.add_time(_start(PER_MOVE), "ann", 15, T0 + 1_000)
    assert clocks.deadlines(clock) == {"ann": T0 + 45_000}


def test_public_shows_time_left_running_seats_deadlines_and_paused():
    clock = _start(PER_MOVE)
    assert clocks.public(clock, T0 + 1_000) == {
        "remaining_ms": {"ann": 29_000, "bob": 30_000},
        "running": ["ann"],
        "deadlines": {"ann": "2023-11-14T22:13:50.000Z"},
        "paused": False,
    }
    paused = clocks.public(clocks.pause(clock, T0 + 1_000), T0 + 9_000)
    assert paused is not None and paused["running"] == [] and paused["deadlines"] == {}
    assert paused["remaining_ms"]["ann"] == 29_000 and paused["paused"] is True
    assert clocks.public(None, T0) is None


def test_a_bot_timeout_without_a_move_pauses_instead():
    bot = _start(PER_MOVE, on_timeout={"action": "bot", "level": "random"})
    paused = clocks.after_timeout(bot, "ann", ["ann"], 1, T0 + 30_000, action="pause")
    assert paused["paused"] and clocks.due(paused, T0 + 10**9) == []


def test_fischer_pays_the_increment_only_for_a_move_on_the_movers_running_clock():
    clock = _start(FISCHER)
    # paused (by the admin, or a pause timeout): the move cost no time and earns none
    paused = clocks.pause(clock, T0 + 10_000)
    moved = clocks.after_move(paused, "ann", ["ann"], 1, T0 + 20_000)
    assert moved["remaining_ms"] == {"ann": 50_000, "bob": 60_000}
    # off its turn (a Reign Supreme card in ann's turn): bob's clock does not run, no increment
    off_turn = clocks.after_move(clock, "bob", ["ann"], 1, T0 + 10_000)
    assert off_turn["remaining_ms"] == {"ann": 50_000, "bob": 60_000}
    assert clocks.deadlines(off_turn) == {"ann": T0 + 60_000}


def test_a_takeback_keeps_the_admins_add_time_since_its_version_for_every_seat():
    clock = clocks.after_move(_start(FISCHER), "ann", ["bob"], 1, T0 + 10_000)  # ann 55 s
    clock = clocks.add_time(clock, "bob", 100, T0 + 20_000)  # at version 1: bob 150 s
    clock = clocks.add_time(clock, "ann", 100, T0 + 20_000)
    assert clocks.added_since(clock, 1) == {"ann": 100_000, "bob": 100_000}
    assert clocks.added_since(clock, 2) == {}
    # ann takes her move back to version 0 (60 s each then) having spent 10 s since
    back = clocks.after_takeback(
        clock, "ann", 0, {"ann": 60_000, "bob": 60_000}, 10_000, ["ann"], 2, T0 + 20_000
    )
    assert back["remaining_ms"] == {"ann": 150_000, "bob": 160_000}
    # a takeback to a version made after the add-time finds it in that version's time already
    later = clocks.after_takeback(
        back, "ann", 2, {"ann": 150_000, "bob": 160_000}, 0, ["ann"], 3, T0 + 20_000
    )
    assert later["remaining_ms"] == {"ann": 150_000, "bob": 160_000}


def test_a_takeback_never_leaves_another_seat_with_less_time_than_it_has_now():
    clock = _start(FISCHER, waiting=("bob",))
    moved = clocks.after_move(clock, "bob", ["bob"], 1, T0 + 1_000)  # bob 59 s + 5 s
    assert moved["remaining_ms"]["bob"] == 64_000
    back = clocks.after_takeback(
        moved, "ann", 0, {"ann": 60_000, "bob": 60_000}, 0, ["bob"], 2, T0 + 1_000
    )
    assert back["remaining_ms"] == {"ann": 60_000, "bob": 64_000}


# -- downtime: nobody's time (README "Turn clocks", "Downtime") ----------------------------------
def test_a_downtime_moves_every_running_deadline_on_by_its_length():
    clock = _start(FISCHER, waiting=("ann", "bob"), grace=10)
    clock = clocks.add_time(clock, "bob", 5, T0)  # ann's deadline T0 + 60 s, bob's T0 + 65 s
    # the last poll 20 s in, the service back 35 s later: both deadlines passed meanwhile
    moved = clocks.past_downtime(clock, T0 + 20_000, T0 + 55_000)
    assert moved is not None
    assert clocks.deadlines(moved) == {"ann": T0 + 95_000, "bob": T0 + 100_000}
    assert clocks.remaining_at(moved, T0 + 55_000) == {"ann": 40_000, "bob": 45_000}
    assert clocks.due(moved, T0 + 94_999) == []
    # a grace counts from the moved deadline; the clock keeps its version
    graced = clocks.with_grace(moved, "ann", T0 + 95_500)
    assert graced is not None and clocks.deadlines(graced)["ann"] == T0 + 105_000
    assert moved["version"] == clock["version"] and moved["graced"] == []


def test_a_downtime_moves_a_clock_once_and_leaves_a_paused_one_be():
    clock = _start(PER_MOVE)
    moved = clocks.past_downtime(clock, T0 + 10_000, T0 + 50_000)
    assert moved is not None and clocks.deadlines(moved) == {"ann": T0 + 70_000}
    assert clocks.past_downtime(moved, T0 + 10_000, T0 + 50_000) is None  # a second walk
    later = clocks.past_downtime(moved, T0 + 60_000, T0 + 80_000)  # the next downtime
    assert later is not None and clocks.deadlines(later) == {"ann": T0 + 90_000}
    assert clocks.past_downtime(clocks.pause(clock, T0 + 1_000), T0 + 10_000, T0 + 50_000) is None
    nobody = clocks.after_timeout(clock, "ann", [], 1, T0 + 30_000)  # a finished game
    assert clocks.past_downtime(nobody, T0 + 40_000, T0 + 90_000) is None


def test_a_clock_written_after_the_last_poll_counts_no_time_until_the_service_is_back():
    # a move a worker answered after its timekeeper stopped (SIGTERM), just before the downtime
    moved = clocks.after_move(_start(PER_MOVE), "ann", ["bob"], 1, T0 + 12_000)
    back = clocks.past_downtime(moved, T0 + 10_000, T0 + 50_000)
    assert back is not None and clocks.deadlines(back) == {"bob": T0 + 80_000}
    # a clock written once the service was back (from the end on) was refereed
    after = clocks.after_move(_start(PER_MOVE), "ann", ["bob"], 1, T0 + 50_000)
    assert clocks.past_downtime(after, T0 + 10_000, T0 + 50_000) is None
