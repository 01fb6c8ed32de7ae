"""``/docs`` in a real browser: headless Chromium (Debian's ``chromium`` package) driven by
Playwright opens Swagger UI, and for each game clicks Try it out -> Execute on setup and apply with
the documented example; the answer must be 200. Skipped, with the reason, when Chromium or
Playwright is missing (``.ci/run`` installs Chromium first)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rules.registry import GAMES
from schemas.openapi import game_prefix

CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT_MS = 120_000
"""Generous: Swagger UI parses a large spec, and CI machines are shared."""

pytestmark = [
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="no Chromium at /usr/bin/chromium (Debian: apt-get install chromium)",
    ),
    pytest.mark.slow,  # a browser, a page per game
]


@pytest.fixture(scope="module")
def served(contract_app):
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, contract_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)


@pytest.fixture(scope="module")
def page(served):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(served + "/docs/")
            page.wait_for_selector(".opblock")
            yield page
        finally:
            browser.close()


@pytest.mark.parametrize("operation", ["SetupGame", "ApplyMove"])
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_try_it_out_executes_the_example(page, game_id, operation):
    p = game_prefix(game_id)
    block = page.locator(f"#operations-{game_id}-{p[0].lower()}{p[1:]}{operation}")
    block.locator(".opblock-summary").click()
    block.locator(".try-out__btn").click()
    block.locator(".execute").click()
    status = block.locator(".live-responses-table .response .response-col_status").first
    status.wait_for()
    assert status.inner_text().strip().startswith("200"), block.locator(
        ".live-responses-table"
    ).inner_text()[:500]
    block.locator(".opblock-summary").click()  # fold it again: the page stays light
