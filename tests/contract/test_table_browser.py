"""``/table`` in a real browser (issue 27): headless Chromium driven by Playwright. For each game
one person's seat plays a whole game against bot seats through the table only (the lobby form,
the seat link, the move buttons, pressed with the keyboard) until the game is over. Whenever the
page shows the version the store holds, the page's whole DOM (board picture, buttons, event log)
is searched for anything of the state that the seat's view does not hold: another seat's hidden
cards are never in the page. A screenshot of each finished game is kept in ``tests/artifacts/``
(``REFEREE_ARTIFACTS`` to move it; gitignored). Skipped when Chromium or Playwright is missing.

Short games by the games' own options (docs/rules): Reign Supreme one round with automatic
set-up, Reign Absolute four turns with races given; bots at ``random``, 20 ms a move. A game that
runs well leaves no script or console error in the page.

What the page says when things go wrong: an ``/events`` stream the server refuses (the page
reopens it later and catches up), a session deleted or expired (no more moves, clocks stopped),
a takeback declined or made stale by another move (its proposer is told)."""

from __future__ import annotations

import os
import re
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from rules.registry import get_game

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("REFEREE_ARTIFACTS") or ROOT / "tests" / "artifacts")
STEP_MS = 60_000
"""Patience for one answer or bot reply: generous, for shared CI machines (never a timing
assertion: a slow machine only waits longer)."""
MAX_MOVES = 400

pytestmark = [
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="no Chromium at /usr/bin/chromium (Debian: apt-get install chromium)",
    ),
    pytest.mark.slow,  # a browser, a page per game
]

GAMES = {
    "reign-and-ruin": (2, {}),
    "reign-absolute": (2, {"turn_limit": 4, "races_by_player": {"ann": "empire", "bob": "orcs"}}),
    "reign-supreme": (2, {"round_limit": 1, "setup": "auto"}),
    "reigns-the-council": (3, {}),
}
"""Game -> seats and options; seat 1 (ann) is the person, the others bots."""
PREFERRED = ("end_deployment", "end_turn", "pass", "keep_decision")
"""Move types the person picks when offered, to keep games short; otherwise the first move."""
CATALOGUES = {
    "reign-and-ruin": ("cards",),
    "reign-absolute": ("units", "cards", "races"),
    "reign-supreme": ("cards",),
    "reigns-the-council": (),
}
"""Content lists every view shows whole (as in tests/rules/pictures): left out on both sides."""


def strings(obj, keys: bool = False) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        found = set(obj) if keys else set()
        return found.union(*(strings(v, keys) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(strings(v, keys) for v in obj))
    return set()


def located(doc) -> dict:
    return {k: v for k, v in doc.items() if k not in CATALOGUES[doc["game"]]}


def _unexpected(errors: list[str], *statuses: int) -> list[str]:
    """``errors`` of a page (its script's, its console's) less the browser's own line for a
    request answered with one of ``statuses``, which the table handles and says so."""
    said = [f"the server responded with a status of {s} " for s in statuses]
    return [
        e for e in errors if not any(e.startswith(f"Failed to load resource: {x}") for x in said)
    ]


@contextmanager
def _serving(referee_data_dir, **settings):
    """The app on a free port of a threaded werkzeug server, with ``settings`` (by their
    environment names) over the embedded store's; its app and base URL."""
    from werkzeug.serving import make_server

    from api import create_app

    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "SESSION_BOT_TIME_MS": 20,
            **settings,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)
        app.extensions["referee_bot_seats"].stop()
        app.extensions["referee_clocks"].stop()


@pytest.fixture(scope="module")
def served(referee_data_dir):
    with _serving(referee_data_dir) as app_and_base:
        yield app_and_base


@pytest.fixture(scope="module")
def served_one_stream(referee_data_dir):
    """An instance that lets one client address hold a single ``/events`` stream (429
    ``too_many_client_streams`` beyond), and notices a hung-up stream within a heartbeat or
    two (a second each): werkzeug, unlike gunicorn, sees a client gone only when a write fails."""
    with _serving(referee_data_dir, MAX_STREAMS_PER_CLIENT=1, HEARTBEAT_SECONDS=1) as app_and_base:
        yield app_and_base


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


def _hidden_in_page(app, session_id: str, seat: str, shown_version: int, html: str) -> list[str]:
    """Strings of the stored state that ``seat``'s view lacks and the page holds; None when the
    store is no longer at the version the page shows (nothing to compare then)."""
    store = app.extensions["referee_sessions"]
    session = store.load(session_id)
    if session.version != shown_version:
        return None
    game = get_game(session.game)
    hidden = strings(located(session.state)) - strings(
        located(game.view(session.state, seat)), True
    )
    found = [
        s for s in hidden if len(s) >= 2 and re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", html)
    ]
    return found if store.load(session_id).version == shown_version else None


FOCUS_A_MOVE = """preferred => {
    const buttons = [...document.querySelectorAll('#move-groups button:not([disabled])')];
    const button = preferred.map(k => buttons.find(b => b.dataset.type === k)).find(Boolean)
        || buttons[0];
    if (!button) return 'none';
    const group = button.closest('details');
    if (!group.open) { group.querySelector('summary').focus(); return 'folded'; }
    button.focus();
    return 'move';
}"""
"""Focus the move to press (a preferred type if offered, else the first), or the summary of its
group when the group is folded. One script, so a redraw cannot fall between choice and focus."""


def _press_a_move(page) -> bool:
    """With the keyboard, as a person would: Enter on a folded group's summary opens it, Enter on
    a move's button plays it. False when the moves were redrawn away before one was pressed."""
    for _ in range(10):
        focused = page.evaluate(FOCUS_A_MOVE, list(PREFERRED))
        if focused == "none":
            return False  # redrawn meanwhile with nothing to press: the caller waits again
        page.keyboard.press("Enter")
        if focused == "move":
            return True
    raise AssertionError("the move groups kept folding")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_person_plays_a_whole_game_against_bots_through_the_table(served, browser, game_id):
    import json

    app, base = served
    seats, options = GAMES[game_id]
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(STEP_MS)
    outside: list[str] = []
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(base) else None,
    )
    errors: list[str] = []  # the script's own and the console's: none in a game that runs well
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(base + "/table")
        page.wait_for_selector(f"#game option[value='{game_id}']", state="attached")
        page.select_option("#game", game_id)
        page.select_option("#count", str(seats))
        page.fill("#options", json.dumps(options))
        page.get_by_role("button", name="Create the session").click()
        page.get_by_role("link", name="Play as ann").click()  # the seat link: token in fragment
        page.wait_for_selector("#board svg")
        session_id = re.search(r"session=([^&]+)", page.url).group(1)
        moves = compared = 0
        pressed = False
        while True:
            state = page.wait_for_function(
                """() => {
                    const status = document.querySelector('#status').textContent;
                    if (status.includes('The game is over')) return 'over';
                    const ready = document.querySelector('#move-groups button:not([disabled])');
                    return ready && status.startsWith('Version') ? 'move' : false;
                }""",
                timeout=STEP_MS,
            ).json_value()
            shown = page.locator("#status").inner_text()
            version = int(m.group(1)) if (m := re.match(r"Version (\d+)", shown)) else None
            html = page.content()
            if state == "over":
                version = app.extensions["referee_sessions"].load(session_id).version
            leaked = _hidden_in_page(app, session_id, "ann", version, html)
            if leaked is not None:
                assert not leaked, (game_id, version, sorted(leaked)[:5])
                compared += 1
            if state == "over":
                break
            assert moves < MAX_MOVES, f"{game_id}: no end after {moves} moves"
            if pressed:  # the buttons were redrawn, and the keyboard focus stayed in the panel
                assert page.evaluate(
                    "document.getElementById('moves').contains(document.activeElement)"
                )
            pressed = _press_a_move(page)
            moves += 1
            page.wait_for_function(  # the page has moved past the version it showed
                "v => !document.querySelector('#status').textContent.startsWith(`Version ${v}.`)",
                arg=version,
            )
        assert moves > 0 and compared > 0
        stored = app.extensions["referee_sessions"].load(session_id)
        assert stored.state["status"] == "finished"
        page.wait_for_function(  # the /events stream brought every move to the log
            "n => document.querySelectorAll('#log li').length === n", arg=stored.version
        )
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"table-{game_id}.png"), full_page=True)
        assert not outside, outside[:3]
        assert not _unexpected(errors, 412), errors[:3]  # 412: a bot moved first (status)
    finally:
        page.close()


def test_the_table_paints_the_lobby_and_a_spectators_board(served, browser):
    """A spectator link shows the board and no move buttons; nothing is asked of other hosts."""
    app, base = served
    page = browser.new_page()
    page.set_default_timeout(STEP_MS)
    try:
        page.goto(base + "/table")
        page.wait_for_selector("#game option", state="attached")
        assert page.locator("#seats .seat").count() >= 2
        page.get_by_role("button", name="Create the session").click()
        page.get_by_role("link", name="Watch (spectator)").click()
        page.wait_for_selector("#board svg")
        title = page.locator("#board svg > title").text_content()
        assert "the spectator's view" in title
        assert page.locator("#move-groups button").count() == 0
        assert "Spectators do not move." in page.locator("#move-groups").inner_text()
    finally:
        page.close()


def _call(base: str, token: str, method: str, path: str, body=None, version=None) -> dict:
    """One request of a seat that plays through the HTTP API, not the table."""
    import json
    import urllib.request

    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=STEP_MS / 1000) as answer:
        return json.loads(answer.read())


def _api_move(base: str, token: str, session_id: str, wanted: str) -> int:
    """The API seat plays its first legal move of type ``wanted`` (else its first); the version."""
    path = f"/v1/sessions/{session_id}"
    legal = _call(base, token, "GET", f"{path}/legal-moves")
    move = next((m for m in legal["moves"] if m["type"] == wanted), legal["moves"][0])
    return _call(base, token, "POST", f"{path}/moves", {"move": move}, legal["version"])["version"]


def _shows_version(page, version: int) -> None:
    page.wait_for_function(
        "v => document.querySelector('#status').textContent.startsWith(`Version ${v}.`)",
        arg=version,
    )


def test_a_clocked_table_counts_down_and_takes_back_with_consent(served, browser):
    """Clocks and takebacks at the table. Reign Supreme with a Fischer clock and two people: ann
    at the table, bob through the HTTP API. Bob's time counts down on ann's page; ann proposes
    taking back bob's move and bob accepts; bob proposes taking back ann's move and ann accepts
    at the table, with the keyboard; the log shows both takebacks. Every wait is on the page's
    state (a countdown is seen to change, never timed)."""
    import json

    _, base = served
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(STEP_MS)
    try:
        page.goto(base + "/table")
        page.wait_for_selector("#game option[value='reign-supreme']", state="attached")
        page.select_option("#game", "reign-supreme")
        page.select_option("#count", "2")
        page.get_by_label("Seat 2: who plays").select_option("")  # bob: a person, not a bot
        options = {"setup": "auto", "round_limit": 1, "first_player": "bob"}
        page.fill("#options", json.dumps(options))
        page.get_by_label("Time control").select_option("fischer")
        page.get_by_label("Seconds for each seat").fill("600")
        page.get_by_label("Fischer increment").fill("5")
        page.get_by_role("button", name="Create the session").click()
        bob_link = page.get_by_role("link", name="Play as bob").get_attribute("href")
        bob = re.search(r"token=([^&]+)", bob_link).group(1)
        page.get_by_role("link", name="Play as ann").click()
        session_id = re.search(r"session=([^&]+)", page.url).group(1)

        # Bob moves first: his clock runs on ann's page, and counts down.
        running = page.locator("#clock-list li.running[data-player='bob']")
        first = running.inner_text()
        assert re.fullmatch(r"bob: \d+:\d\d \(to move\)", first), first
        page.wait_for_function(
            "t => document.querySelector('#clock-list li.running')?.textContent !== t", arg=first
        )
        assert page.locator("#clock-list li[data-player='ann']").inner_text() == "ann: 10:00"

        # Ann takes back bob's second move; bob (API) accepts.
        _api_move(base, bob, session_id, "move")
        _shows_version(page, _api_move(base, bob, session_id, "move"))
        page.get_by_label("Go back to version").fill("1")
        page.get_by_label("Go back to version").press("Enter")  # submits the form
        page.wait_for_function(
            "() => document.querySelector('#takeback-status').textContent.includes('waits on bob')"
        )
        pending = _call(base, bob, "GET", f"/v1/sessions/{session_id}")["takeback"]
        assert pending["proposed_by"] == "ann" and pending["waiting_on"] == ["bob"]
        path = f"/v1/sessions/{session_id}/takebacks/{pending['takeback_id']}"
        assert _call(base, bob, "POST", path, {"answer": "accept"})["status"] == "accepted"
        _shows_version(page, 3)
        _shows(page, "#takeback-status", "Your takeback was accepted: back to version 1.")

        # Bob ends his turn, ann moves at the table; bob proposes taking it back, ann accepts.
        _shows_version(page, _api_move(base, bob, session_id, "end_turn"))
        page.locator("#move-groups button[data-type='move']").first.press("Enter")
        _shows_version(page, 5)
        proposal = {"to_version": 4}
        assert _call(base, bob, "POST", f"/v1/sessions/{session_id}/takebacks", proposal)[
            "waiting_on"
        ] == ["ann"]
        accept = page.get_by_role("button", name="Accept the takeback")
        accept.wait_for()  # shown when the stream announces the proposal
        assert (
            "bob proposes going back to version 4" in page.locator("#takeback-offer").inner_text()
        )
        accept.focus()
        page.keyboard.press("Enter")
        _shows_version(page, 6)
        page.wait_for_function("() => document.querySelectorAll('#log li.takeback').length === 2")
        log = page.locator("#log").inner_text()
        assert "Takeback to version 1, proposed by ann, accepted by ann, bob" in log, log
        assert "Takeback to version 4, proposed by bob, accepted by bob, ann" in log, log
        assert page.locator("#takeback-offer").is_hidden()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table-clock-takeback.png"), full_page=True)
    finally:
        page.close()


def test_a_seat_out_of_time_forfeits_and_the_table_says_so(served, browser):
    """A one-second per-move clock that ann lets run out: the clock forfeits for her, the log
    and the clock section say so, and the game is over (she loses)."""
    _, base = served
    page = browser.new_page()
    page.set_default_timeout(STEP_MS)
    try:
        page.goto(base + "/table")
        page.wait_for_selector("#game option[value='reign-and-ruin']", state="attached")
        page.select_option("#game", "reign-and-ruin")
        page.get_by_label("Time control").select_option("per_move")
        page.get_by_label("Seconds for each seat").fill("1")
        page.get_by_role("button", name="Create the session").click()
        page.get_by_role("link", name="Play as ann").click()
        page.wait_for_selector("#clock-list li[data-player='ann']")  # may be over already
        page.wait_for_function(
            "() => document.querySelector('#status').textContent.includes('The game is over')"
        )
        page.wait_for_selector("#log li.clock")
        assert "ann ran out of time: forfeit" in page.locator("#clock-note").inner_text()
        assert "Winner: bob" in page.locator("#status").inner_text()
        assert page.locator("#clock-list li[data-player='ann']").inner_text() == "ann: 0:00"
    finally:
        page.close()


# -- a stream refused, a session gone, a takeback answered: what the page says ------------------
def _people_session(base: str, game: str, **extra) -> dict:
    """A session of ann and bob, both people (no bots), made through the HTTP API."""
    from tests.served import http

    body = {"game": game, "players": ["ann", "bob"], **extra}
    status, _, created = http(base, "POST", "/v1/sessions", body)
    assert status == 201, created
    return created


def _open_seat(browser, base: str, created: dict, seat: str | None, errors: list[str]):
    """A page at the table: ``seat``'s link, or the spectator's (None); its script errors and
    console errors go to ``errors``."""
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(STEP_MS)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    token = f"&token={created['seats'][seat]}" if seat else ""
    page.goto(f"{base}/table#session={created['session_id']}{token}")
    return page


def _shows(page, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => document.querySelector(s).textContent.includes(t)", arg=[selector, text]
    )


SUPREME = {"options": {"setup": "auto", "round_limit": 1, "first_player": "bob"}}
"""Reign Supreme, bob first: his first moves (unit moves) can be taken back (README)."""


def test_a_refused_stream_says_so_and_catches_up_once_a_slot_frees(served_one_stream, browser):
    """README "Streams per client": a browser's EventSource gives up on a 429 (readyState
    CLOSED), so the page reopens it later. With one stream per client address, a spectator's
    page holds it; ann's page is refused and says so, while moves land. Once the spectator's
    page closes, ann's page reopens its stream by itself (a growing back-off), its log gets every
    version once, in order, and it shows the latest."""
    app, base = served_one_stream
    created = _people_session(base, "reign-supreme", **SUPREME)
    session_id, bob = created["session_id"], created["seats"]["bob"]
    errors: list[str] = []
    _api_move(base, bob, session_id, "move")
    watcher = _open_seat(browser, base, created, None, errors)
    ann = None
    try:
        watcher.wait_for_function("() => document.querySelectorAll('#log li').length === 1")
        ann = _open_seat(browser, base, created, "ann", errors)  # the address's second stream
        _shows(ann, "#live-status", "Live updates stopped")
        _shows_version(ann, 1)  # read once all the same
        _api_move(base, bob, session_id, "move")  # while ann's page has no stream
        watcher.close()  # its stream ends at the next heartbeat: the slot is free
        version = _api_move(base, bob, session_id, "end_turn")
        _shows_version(ann, version)
        ann.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=version)
        assert ann.eval_on_selector_all("#log li", "items => items.map(i => i.value)") == list(
            range(1, version + 1)
        )
        assert ann.locator("#live-status").inner_text() == ""
        assert app.extensions["referee_stream_slots"].held() == 1
        refused = "EventSource's response has a MIME type"  # the browser's word on the 429
        assert not [e for e in _unexpected(errors, 429) if not e.startswith(refused)], errors
    finally:
        for page in (watcher, ann):
            if page is not None and not page.is_closed():
                page.close()


def _stopped(page) -> None:
    """The page says nothing more can be played: no move buttons, clocks stopped, no
    takeback form."""
    assert page.locator("#move-groups button").count() == 0
    assert "No more moves" in page.locator("#move-groups").inner_text()
    assert page.locator("#clock-list li.running").count() == 0
    assert page.locator("#clock-title").inner_text() == "Clocks (stopped)"
    assert "(to move)" not in page.locator("#clock-list").inner_text()
    assert page.locator("#takeback").is_hidden()


CLOCK = {"clock": {"type": "fischer", "initial_seconds": 600, "increment_seconds": 5}}


def test_a_deleted_session_says_so_and_offers_no_moves(served, browser):
    """README "How sessions behave" (step 7): deleting a session sends its streams `event:
    deleted`. The seat's page says the session was deleted, offers no moves and stops its
    clocks."""
    from tests.served import http

    _, base = served
    created = _people_session(base, "reign-and-ruin", **CLOCK)
    errors: list[str] = []
    page = _open_seat(browser, base, created, "ann", errors)
    try:
        page.wait_for_selector("#move-groups button")
        page.wait_for_selector("#clock-list li.running")
        _shows_version(page, 0)
        admin = {"Authorization": f"Bearer {created['admin_token']}"}
        path = f"/v1/sessions/{created['session_id']}"
        assert http(base, "DELETE", path, headers=admin)[0] == 204
        _shows(page, "#status", "This session was deleted")
        _stopped(page)
        assert not errors, errors
    finally:
        page.close()


def test_an_expired_session_says_so_at_the_pages_next_read(served, browser):
    """An expired session's keys are simply gone (its stream says ``deleted`` only at its next
    heartbeat, 15 s here): the page learns it at its next read, here when ann presses a move
    (404 ``unknown_session``), and then says so as for a deleted one."""
    app, base = served
    created = _people_session(base, "reign-and-ruin", **CLOCK)
    errors: list[str] = []
    page = _open_seat(browser, base, created, "ann", errors)
    try:
        page.wait_for_selector("#clock-list li.running")
        _shows_version(page, 0)
        redis = app.extensions["referee_store"].client()
        for key in redis.scan_iter(match=f"referee:{{{created['session_id']}}}:*"):
            redis.delete(key)  # as the idle time-to-live does
        page.locator("#move-groups details[open] button").first.click()
        # the move's 404 says it, unless a heartbeat's touch found the keys gone first (its
        # stream then says deleted): either way the page says the session is over
        page.wait_for_function(
            "() => ['This session is gone', 'This session was deleted']"
            ".some((t) => document.querySelector('#status').textContent.includes(t))"
        )
        _stopped(page)
        assert not _unexpected(errors, 404), errors  # the move's and the reads' answers
    finally:
        page.close()


def test_the_proposer_sees_a_takeback_declined_or_made_stale(served, browser):
    """README "Records": the seats a takeback waits on hear of it from /events; so does its
    proposer of what became of it. Ann proposes at the table, bob (HTTP API) declines: ann's
    page says so. She proposes again, and bob moves instead: her page says it no longer
    applies."""
    _, base = served
    created = _people_session(base, "reign-supreme", **SUPREME)
    session_id, bob = created["session_id"], created["seats"]["bob"]
    errors: list[str] = []
    page = _open_seat(browser, base, created, "ann", errors)
    try:
        _api_move(base, bob, session_id, "move")
        _shows_version(page, _api_move(base, bob, session_id, "move"))
        for answer in ("decline", "move"):
            page.get_by_label("Go back to version").fill("1")
            page.get_by_label("Go back to version").press("Enter")
            _shows(page, "#takeback-status", "waits on bob")
            pending = _call(base, bob, "GET", f"/v1/sessions/{session_id}")["takeback"]
            assert pending["proposed_by"] == "ann" and pending["waiting_on"] == ["bob"]
            if answer == "decline":
                path = f"/v1/sessions/{session_id}/takebacks/{pending['takeback_id']}"
                assert _call(base, bob, "POST", path, {"answer": "decline"})["status"] == (
                    "declined"
                )
                _shows(page, "#takeback-status", "Your takeback to version 1 was declined")
            else:
                _shows_version(page, _api_move(base, bob, session_id, "end_turn"))
                _shows(page, "#takeback-status", "The takeback to version 1 no longer applies")
        assert not errors, errors
    finally:
        page.close()
