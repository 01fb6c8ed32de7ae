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
a takeback declined or made stale by another move (its proposer is told), a decline after the
seat's accept, a refused move (its reason stays), a link whose token opens no seat, a lost read
of the session (read again until the seat is offered its move), a request that waits for a
connection (said). And what it does around the game: the admin's clock changes reach every open
page, the admin link resumes clocks a timeout paused, a finished game's page lets go of its
stream, so does a hidden table's until it is shown (six tables in one browser all play), the
lobby keeps its links, a seat named ``__proto__`` can be a bot."""

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
    from tests.conftest import timekeepers_polled_now

    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": None,
            "REFEREE_DATA_DIR": str(referee_data_dir),
            "SESSION_BOT_TIME_MS": 20,
            **settings,
        }
    )
    timekeepers_polled_now(app)  # the run's store is shared: no gap taken for a downtime
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
    """The app with no cap on one client address's streams: every page of these tests is
    127.0.0.1, and werkzeug notices a closed page's stream only when its next heartbeat (15 s)
    fails, so the streams of pages just closed would count against the next test's."""
    with _serving(referee_data_dir, MAX_STREAMS_PER_CLIENT=0) as app_and_base:
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


def _lobby(browser, base: str):
    """A new tab on the lobby (``/table``), its games listed."""
    lobby = browser.new_page()
    lobby.set_default_timeout(STEP_MS)
    lobby.goto(base + "/table")
    lobby.wait_for_selector("#game option[value='reign-and-ruin']", state="attached")
    return lobby


def _one_second_per_move(lobby) -> None:
    """The lobby set for Reign & Ruin with a one-second per-move clock."""
    lobby.select_option("#game", "reign-and-ruin")
    lobby.get_by_label("Time control").select_option("per_move")
    lobby.get_by_label("Seconds for each seat").fill("1")


def _follow(lobby, name: str):
    """Follow the lobby's link ``name`` with a click, as its creator does: every link opens in a
    new tab (the lobby keeps them all); that tab."""
    with lobby.expect_popup() as opened:
        lobby.get_by_role("link", name=name).click()
    page = opened.value
    page.set_default_timeout(STEP_MS)
    return page


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
    context = browser.new_context(viewport={"width": 1500, "height": 1000})  # lobby and table
    outside: list[str] = []
    context.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(base) else None,
    )
    errors: list[str] = []  # the script's own and the console's: none in a game that runs well
    context.on("weberror", lambda err: errors.append(str(err.error)))
    context.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        lobby = context.new_page()
        lobby.set_default_timeout(STEP_MS)
        lobby.goto(base + "/table")
        lobby.wait_for_selector(f"#game option[value='{game_id}']", state="attached")
        lobby.select_option("#game", game_id)
        lobby.select_option("#count", str(seats))
        lobby.fill("#options", json.dumps(options))
        lobby.get_by_role("button", name="Create the session").click()
        page = _follow(lobby, "Play as ann")  # the seat link: token in fragment
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
        context.close()


def test_the_table_paints_the_lobby_and_a_spectators_board(served, browser):
    """A spectator link shows the board and no move buttons; nothing is asked of other hosts."""
    app, base = served
    lobby = _lobby(browser, base)
    try:
        assert lobby.locator("#seats .seat").count() >= 2
        lobby.get_by_role("button", name="Create the session").click()
        page = _follow(lobby, "Watch (spectator)")
        page.wait_for_selector("#board svg")
        title = page.locator("#board svg > title").text_content()
        assert "the spectator's view" in title
        assert page.locator("#move-groups button").count() == 0
        assert "Spectators do not move." in page.locator("#move-groups").inner_text()
    finally:
        lobby.close()  # its context too, with the tab it opened


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
    lobby = browser.new_page(viewport={"width": 1500, "height": 1000})
    lobby.set_default_timeout(STEP_MS)
    try:
        lobby.goto(base + "/table")
        lobby.wait_for_selector("#game option[value='reign-supreme']", state="attached")
        lobby.select_option("#game", "reign-supreme")
        lobby.select_option("#count", "2")
        lobby.get_by_label("Seat 2: who plays").select_option("")  # bob: a person, not a bot
        options = {"setup": "auto", "round_limit": 1, "first_player": "bob"}
        lobby.fill("#options", json.dumps(options))
        lobby.get_by_label("Time control").select_option("fischer")
        lobby.get_by_label("Seconds for each seat").fill("600")
        lobby.get_by_label("Fischer increment").fill("5")
        lobby.get_by_role("button", name="Create the session").click()
        bob_link = lobby.get_by_role("link", name="Play as bob").get_attribute("href")
        bob = re.search(r"token=([^&]+)", bob_link).group(1)
        page = _follow(lobby, "Play as ann")
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
        lobby.close()  # its context too, with the tab it opened


def test_a_seat_out_of_time_forfeits_and_the_table_says_so(served, browser):
    """A one-second per-move clock that ann lets run out: the clock forfeits for her, the log
    and the clock section say so, and the game is over (she loses)."""
    _, base = served
    lobby = _lobby(browser, base)
    try:
        _one_second_per_move(lobby)
        lobby.get_by_role("button", name="Create the session").click()
        page = _follow(lobby, "Play as ann")
        page.wait_for_selector("#clock-list li[data-player='ann']")  # may be over already
        page.wait_for_function(
            "() => document.querySelector('#status').textContent.includes('The game is over')"
        )
        page.wait_for_selector("#log li.clock")
        assert "ann ran out of time: forfeit" in page.locator("#clock-note").inner_text()
        assert "Winner: bob" in page.locator("#status").inner_text()
        assert page.locator("#clock-list li[data-player='ann']").inner_text() == "ann: 0:00"
    finally:
        lobby.close()  # its context too, with the tab it opened


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


# -- the admin's clock, finished games, refused moves and links: what the page does -------------
PER_MOVE = {"clock": {"type": "per_move", "seconds": 600}}


def _admin_page(browser, base: str, created: dict, errors: list[str]):
    """A page at the table with the admin link (``#session=...&admin=<token>``): a spectator's,
    with the clock controls."""
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(STEP_MS)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{base}/table#session={created['session_id']}&admin={created['admin_token']}")
    return page


def test_the_admins_clock_changes_reach_an_open_table(served, browser):
    """README "Turn clocks": the admin's pause, resume and added time make no version; the stream
    says them (`event: clock`) and every open page re-reads the clock. The admin uses the admin
    link's controls; ann's page, open meanwhile, stops counting at the pause (before, it counted
    on), runs again at the resume (before, it said paused while her time ran out on the server)
    and shows the time added."""
    _, base = served
    created = _people_session(base, "reign-and-ruin", **PER_MOVE)
    errors: list[str] = []
    ann = _open_seat(browser, base, created, "ann", errors)
    admin = _admin_page(browser, base, created, errors)
    try:
        ann.wait_for_selector("#clock-list li.running[data-player='ann']")
        assert ann.locator("#clock-admin").is_hidden()  # a seat's link has no admin controls
        assert admin.get_by_role("button", name="Resume the clocks").is_hidden()
        admin.get_by_role("button", name="Pause the clocks").click()
        _shows(admin, "#clock-admin-status", "Clocks paused.")
        _shows(ann, "#clock-title", "Clocks (paused)")
        assert ann.locator("#clock-list li.running").count() == 0
        admin.get_by_role("button", name="Resume the clocks").click()
        ann.wait_for_selector("#clock-list li.running[data-player='ann']")
        assert ann.locator("#clock-title").inner_text() == "Clocks"
        admin.get_by_label("Add time for").select_option("ann")
        admin.get_by_label("Seconds to add").fill("3600")
        admin.get_by_role("button", name="Add time").click()
        _shows(admin, "#clock-admin-status", "3600 s added for ann.")
        ann.wait_for_function(  # 600 s + an hour: shown with hours now
            "() => /^ann: 1:\\d\\d:\\d\\d/.test("
            "document.querySelector(\"#clock-list li[data-player='ann']\").textContent)"
        )
        assert not errors, errors
    finally:
        ann.close()
        admin.close()


def test_a_game_whose_clocks_paused_at_a_timeout_is_resumed_from_the_admin_link(served, browser):
    """The lobby offers "the clocks pause" at a timeout: only the admin token resumes them, so
    the lobby shows it, with the admin link (before, it dropped it: nobody could resume). Ann's
    one-second clock runs out and pauses the clocks; the admin link's Resume runs them again, and
    her time runs out once more."""
    _, base = served
    lobby = _lobby(browser, base)
    try:
        _one_second_per_move(lobby)
        lobby.get_by_label("When a seat runs out of time").select_option("pause")
        with lobby.expect_response(lambda r: r.url.endswith("/v1/sessions")) as answer:
            lobby.get_by_role("button", name="Create the session").click()
        created = answer.value.json()
        assert lobby.locator("#admin-token").inner_text() == created["admin_token"]
        admin = _follow(lobby, "Watch as the admin")
        admin.wait_for_selector("#log li.clock")  # ann ran out of time: the clocks paused
        _shows(admin, "#clock-title", "Clocks (paused)")
        admin.get_by_role("button", name="Resume the clocks").click()
        admin.wait_for_function("() => document.querySelectorAll('#log li.clock').length === 2")
        assert "ann ran out of time: timeout" in admin.locator("#clock-note").inner_text()
    finally:
        lobby.close()  # its context too, with the tab it opened


def test_finished_games_let_go_of_their_streams(served, browser):
    """A browser has six connections to a host (Chromium); a page keeping its `/events` stream
    open after its game ended held one for good, so six tabs of finished games left a seventh
    blank. Now a finished game's page closes its stream once its log is whole: in one browser
    profile, six finished games' pages, then a live game's page loads."""
    _, base = served
    context = browser.new_context()
    try:
        for _ in range(6):
            created = _people_session(base, "reign-supreme", **SUPREME)
            bob = created["seats"]["bob"]
            version = _api_move(base, bob, created["session_id"], "concede")
            page = context.new_page()
            page.set_default_timeout(STEP_MS)
            page.goto(
                f"{base}/table#session={created['session_id']}&token={created['seats']['ann']}"
            )
            _shows(page, "#status", "The game is over")
            page.wait_for_function(
                "n => document.querySelectorAll('#log li').length === n", arg=version
            )
        live = _people_session(base, "reign-and-ruin")
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        page.goto(f"{base}/table#session={live['session_id']}&token={live['seats']['ann']}")
        _shows_version(page, 0)
        page.wait_for_selector("#board svg")
    finally:
        context.close()


SEEN_AS = """state => {
    for (const [name, value] of [['visibilityState', state], ['hidden', state === 'hidden']]) {
        Object.defineProperty(document, name, { configurable: true, get: () => value });
    }
    document.dispatchEvent(new Event('visibilitychange'));
}"""
"""The page's tab shown (``visible``) or hidden (``hidden``), as a browser says it on switching
tabs: a headless browser's pages are all visible, whichever is in front."""
STREAM_IS = "s => table.events.readyState === EventSource[s]"
"""The page's ``/events`` stream is ``OPEN`` or ``CLOSED``."""


def test_hidden_tables_let_go_of_their_streams_and_six_tables_all_play(served, browser):
    """A browser opens six connections to a host (Chromium), and every table in progress held
    one for its `/events` stream: with six tables in one browser (three games of two, as a
    hot-seat player opens them; or a four-seat game's links, the spectator's and the admin's)
    no request could go out, a click sent nothing, and nothing was said. Now a request that
    waits says so, and a hidden table lets go of its stream a few seconds after hiding, then
    opens it again (catching up on what it missed) when shown. Six tables open in one browser
    profile, each with its stream: a move on the first waits, and the page says why; once the
    other five are hidden it lands, and then each of the five, shown in turn, gets its seat's
    move and plays it."""
    _, base = served
    context = browser.new_context()
    tables = []  # (page, session id, seat token)
    try:
        for _ in range(3):
            created = _people_session(base, "reign-and-ruin")  # both draft at 0, then one
            for seat in ("ann", "bob"):
                page = context.new_page()
                page.set_default_timeout(STEP_MS)
                token = created["seats"][seat]
                page.goto(f"{base}/table#session={created['session_id']}&token={token}")
                # Its stream holds a connection (the sixth's may hold the last one before its
                # reads get through: they wait then, until its tab is hidden and lets go).
                page.wait_for_function(STREAM_IS, arg="OPEN")
                tables.append((page, created["session_id"], token))
        first = tables[0][0]
        first.bring_to_front()  # the tab in front (headless: its animation frames unthrottled)
        _shows_version(first, 0)
        first.locator("#move-groups button:not([disabled])").first.click()
        _shows(first, "#wait-status", "A browser opens only six connections to a site")
        assert first.locator("#status").inner_text().startswith("Version 0.")  # nothing went out
        for page, _, _ in tables[1:]:
            page.evaluate(SEEN_AS, "hidden")
        for page, _, _ in tables[1:]:
            page.wait_for_function(STREAM_IS, arg="CLOSED")
            _shows(page, "#live-status", "Live updates paused while this tab was hidden")
        _shows_version(first, 1)  # the connections freed, the move went out and landed
        first.wait_for_function("() => document.querySelector('#wait-status').textContent === ''")
        for page, session_id, token in tables[1:]:  # shown in turn, each plays
            page.bring_to_front()
            page.evaluate(SEEN_AS, "visible")
            page.wait_for_function(STREAM_IS, arg="OPEN")
            version = _call(base, token, "GET", f"/v1/sessions/{session_id}")["version"]
            _shows_version(page, version)  # what happened while it was hidden included
            page.wait_for_function(
                "n => document.querySelectorAll('#log li').length === n", arg=version
            )
            assert page.locator("#live-status").inner_text() == ""
            page.locator("#move-groups button:not([disabled])").first.click()
            _shows_version(page, version + 1)
            page.evaluate(SEEN_AS, "hidden")
    finally:
        context.close()


def test_a_lost_read_is_read_again_and_the_seat_gets_its_move(served, browser):
    """One read of the session lost (the connection reset, as a network blip does) after ann's
    move, which leaves the game waiting on bob alone: bob's page said it could not read the
    session and stayed so, with the old board and his old moves, since no event was coming to
    read it again (found by a hunt: with a 25 s clock, the seat forfeited without being offered
    a move). Now the page draws the legal moves that did arrive (their version with them), says
    it tries again, reads again by itself a second later, and offers bob his move, which he
    plays, without a reload."""
    _, base = served
    created = _people_session(base, "reign-and-ruin")  # both draft at 0, then bob alone
    session_id = created["session_id"]
    errors: list[str] = []
    page = _open_seat(browser, base, created, "bob", errors)
    try:
        _shows_version(page, 0)
        page.wait_for_function("() => !table.busy")  # the next read is the one after ann's move
        # What #status said, with the version the page would then play at, at each change.
        page.evaluate(
            """() => {
                window.said = [];
                const status = document.querySelector('#status');
                new MutationObserver(() => said.push([status.textContent, table.version]))
                    .observe(status, { childList: true, characterData: true, subtree: true });
            }"""
        )
        snapshot = f"{base}/v1/sessions/{session_id}"
        page.route(snapshot, lambda route: route.abort("connectionreset"), times=1)
        assert _api_move(base, created["seats"]["ann"], session_id, "draft") == 1
        _shows_version(page, 1)
        page.wait_for_selector("#move-groups button:not([disabled])")
        failed = [version for text, version in page.evaluate("said") if "Trying again" in text]
        assert failed == [1], page.evaluate("said")  # said once, with version 1's moves drawn
        page.locator("#move-groups button:not([disabled])").first.click()
        _shows_version(page, 2)
        assert page.locator("#move-error").inner_text() == ""
        assert not [e for e in errors if "ERR_CONNECTION_RESET" not in e], errors
    finally:
        page.close()


def test_a_table_says_loading_until_its_first_read_and_why_that_failed(served, browser):
    """A page whose reads do not answer (a seventh tab when six hold the browser's connections
    to the host, before finished games let go of theirs) said nothing at all. It says "Loading…"
    until the first read answers, and why the read failed (here a 503 the test holds back, then
    gives)."""
    import json

    _, base = served
    created = _people_session(base, "reign-and-ruin")
    snapshot = f"{base}/v1/sessions/{created['session_id']}"
    held = []
    page = browser.new_page()
    page.set_default_timeout(STEP_MS)
    try:
        page.route(snapshot, lambda route: held.append(route))  # answered once looked at
        with page.expect_request(snapshot):
            page.goto(f"{base}/table#session={created['session_id']}")
        assert page.locator("#status").inner_text() == "Loading…"
        problem = {"status": 503, "code": "store_unavailable", "detail": "The store is down."}
        held[0].fulfill(
            status=503, content_type="application/problem+json", body=json.dumps(problem)
        )
        _shows(page, "#status", "Could not read the session: The store is down.")
    finally:
        page.close()


def test_why_a_move_failed_stays_until_the_next_move(served, browser):
    """A refused move's reason goes to an alert of its own (`#move-error`), which the refresh
    after it leaves alone: before, it went to `#status`, redrawn a few milliseconds later. Here
    the store's 503 `outcome_unknown` to a move (answered by the test, as the server answers it
    when the store stops answering)."""
    import json

    _, base = served
    created = _people_session(base, "reign-and-ruin")
    errors: list[str] = []
    page = _open_seat(browser, base, created, "ann", errors)
    detail = "The session store stopped answering after the move was sent."
    problem = {"status": 503, "code": "outcome_unknown", "detail": detail}
    try:
        page.route(
            "**/moves",
            lambda route: route.fulfill(
                status=503, content_type="application/problem+json", body=json.dumps(problem)
            ),
        )
        _shows_version(page, 0)
        page.locator("#move-groups details[open] button").first.click()
        _shows(page, "#move-error", detail)
        page.wait_for_selector("#move-groups button:not([disabled])")  # the refresh has drawn
        assert page.get_by_role("alert").filter(has_text=detail).is_visible()
        assert page.locator("#status").inner_text().startswith("Version 0.")
        assert not _unexpected(errors, 503), errors
    finally:
        page.close()


def test_the_lobby_keeps_every_link_after_one_is_followed(served, browser):
    """The service hands out each seat's token once. The creator follows their own link: it
    opens in a new tab and the lobby keeps every link; a reload, or Back from a seat's table
    opened in the lobby's own tab, shows them again (before, they were gone for good)."""
    _, base = served
    lobby = _lobby(browser, base)
    try:
        lobby.get_by_label("Seat 2: who plays").select_option("")  # bob: a person
        lobby.get_by_role("button", name="Create the session").click()
        bob = lobby.get_by_role("link", name="Play as bob").get_attribute("href")
        ann = _follow(lobby, "Play as ann")
        ann.wait_for_selector("#board svg")
        assert lobby.get_by_role("link", name="Play as bob").get_attribute("href") == bob
        lobby.reload()
        assert lobby.get_by_role("link", name="Play as bob").get_attribute("href") == bob
        lobby.goto(ann.url)  # the same tab: the table (a new fragment reloads the page)
        lobby.wait_for_selector("#board svg")
        lobby.go_back()
        assert lobby.get_by_role("link", name="Play as bob").get_attribute("href") == bob
    finally:
        lobby.close()  # its context too, with the tab it opened


def test_a_decline_after_the_seat_accepted_says_what_the_service_kept(served, browser):
    """README "Records": a seat's first answer to a takeback stands. Bob accepts (through the
    API, as from another tab) the takeback that ann proposed, which still waits on cat; his page
    still offers it, and he presses Decline: the page says his accept stands and the takeback
    still waits on cat (before: "You declined the takeback.")."""
    from tests.served import http

    _, base = served
    body = {"game": "reign-supreme", "players": ["ann", "bob", "cat"], **SUPREME}
    status, _, created = http(base, "POST", "/v1/sessions", body)
    assert status == 201, created
    session_id, seats = created["session_id"], created["seats"]
    _api_move(base, seats["bob"], session_id, "move")
    _api_move(base, seats["bob"], session_id, "end_turn")
    version = _api_move(base, seats["cat"], session_id, "move")
    path = f"/v1/sessions/{session_id}/takebacks"
    proposal = _call(base, seats["ann"], "POST", path, {"to_version": 1})
    assert proposal["waiting_on"] == ["bob", "cat"]
    errors: list[str] = []
    page = _open_seat(browser, base, created, "bob", errors)
    try:
        _shows_version(page, version)
        page.get_by_role("button", name="Decline").wait_for()
        # No read of the session in flight or queued (the page's own `table.busy`), so the
        # offer stays as drawn while bob accepts elsewhere (an accept still pending says nothing
        # on the stream).
        page.wait_for_function(
            "n => document.querySelectorAll('#log li').length === n && !table.busy", arg=version
        )
        accept = {"answer": "accept"}
        assert _call(base, seats["bob"], "POST", f"{path}/{proposal['takeback_id']}", accept)[
            "waiting_on"
        ] == ["cat"]
        page.get_by_role("button", name="Decline").click()
        _shows(page, "#takeback-status", "a seat's first answer stands: it still waits on cat.")
        assert "declined" not in page.locator("#takeback-status").inner_text()
        assert not errors, errors
    finally:
        page.close()


@pytest.mark.parametrize("which", ["cut short", "the admin's"])
def test_a_link_whose_token_opens_no_seat_says_so_and_stops(served, browser, which):
    """A seat link whose token was cut short when copied (401), or that holds the admin token
    in the seat's place (403): the page says the link's token is not valid for this session,
    offers no moves and stops (before, it blamed too many open streams and retried forever)."""
    _, base = served
    created = _people_session(base, "reign-and-ruin")
    token = created["seats"]["ann"][:-3] if which == "cut short" else created["admin_token"]
    page = browser.new_page()
    page.set_default_timeout(STEP_MS)
    try:
        page.goto(f"{base}/table#session={created['session_id']}&token={token}")
        _shows(page, "#status", "This link's token is not valid for this session")
        assert "No moves: this link opens no seat." in page.locator("#move-groups").inner_text()
        assert page.locator("#live-status").inner_text() == ""  # no "too many open", no retry
    finally:
        page.close()


def test_a_seat_named_proto_can_be_a_bot(served, browser):
    """A seat named `__proto__` (a valid player id) set to a bot in the lobby is sent as a bot:
    before, `bots[name] = kind` on a `{}` set the object's prototype instead."""
    import json

    _, base = served
    page = browser.new_page()
    page.set_default_timeout(STEP_MS)
    try:
        page.goto(base + "/table")
        page.wait_for_selector("#game option[value='reign-and-ruin']", state="attached")
        page.get_by_label("Seat 2: player id").fill("__proto__")
        page.get_by_label("Seat 2: who plays").select_option("random")
        with page.expect_response(lambda r: r.url.endswith("/v1/sessions")) as answer:
            page.get_by_role("button", name="Create the session").click()
        assert json.loads(answer.value.request.post_data)["bots"] == {"__proto__": "random"}
        assert answer.value.json()["bots"] == {"__proto__": "random"}  # a bot seat: no link
        page.wait_for_selector("#links:not([hidden])")
        assert page.get_by_role("link", name="Play as ann").count() == 1
        assert page.get_by_role("link", name="Play as __proto__").count() == 0
    finally:
        page.close()


def test_a_seat_of_a_session_of_other_rules_sees_the_board_and_why_it_cannot_move(served, browser):
    """A session begun under another version of its game's rules is read as stored; only its
    legal moves are refused (409 ``rules_version_changed``). The seat's page drew nothing at all
    (the refusal failed its whole read); it now draws the board and says why no move is shown."""
    from api import jsonio
    from api.session_store import KEY_PREFIX

    app, base = served
    created = _people_session(base, "reign-supreme")
    redis = app.extensions["referee_store"].client()
    key = f"{KEY_PREFIX}{{{created['session_id']}}}:session"
    state = jsonio.loads(redis.hget(key, "state"))
    state["schema_version"] -= 1  # as the release before stored it
    redis.hset(key, "state", jsonio.dumps(state))
    errors: list[str] = []
    page = _open_seat(browser, base, created, "ann", errors)
    try:
        page.wait_for_selector("#board svg")
        _shows(page, "#status", "this referee plays version")
        assert page.locator("#move-groups button").count() == 0
    finally:
        page.close()
