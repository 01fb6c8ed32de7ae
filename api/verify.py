"""``reign-referee verify``: check that a finished session was played fair (issue 24).

A finished session reveals its seed and salt (``fairness``) and shows its whole history to
everyone (``api.fairness``, ``api.sessions``). Anyone can then check, without trusting the
service, that:

1. the commitment every answer carried from version 0 is SHA-256 of ``"<salt>:<seed>"``;
2. the game the seed, the players and the options set up, played move by move through the
   history, makes exactly the events each version recorded (every version: the first that
   differs, or whose move is illegal there, is named);
3. the last version is the session's, and its state is the one the session shows (the view and
   outcome of the snapshot, and ``to_move``).

The input is a *session document*, ``{"format": "reign-referee-session", "format_version": 1,
"session": <GET /v1/sessions/{id}>, "entries": [<GET .../history entries>]}``, read from a URL
(:func:`fetch`, which ``verify URL --save FILE`` also writes) or a file. ``format`` leaves room for
other documents (issue 26's game records) under the same command.

No Flask and no service: the rules run here, in the verifier's own process.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from api.fairness import check_commitment
from rules.errors import RulesError
from rules.registry import get_game

__all__ = ["FORMAT", "Verdict", "VerifyError", "fetch", "verify_document", "load_document"]

FORMAT = "reign-referee-session"
FORMAT_VERSION = 1
TIMEOUT_SECONDS = 30


class VerifyError(Exception):
    """The document cannot be verified at all (unreachable, unfinished, malformed)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result: ``ok``, or the first version that does not hold (0: the commitment or the
    setup) and why."""

    ok: bool
    versions: int
    detail: str
    first_bad_version: int | None = None

    def report(self) -> str:
        if self.ok:
            return f"verified: {self.detail}"
        return f"NOT VERIFIED at version {self.first_bad_version}: {self.detail}"


def _get(url: str) -> Any:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310
            return json.loads(response.read())
    except urllib.error.HTTPError as err:
        raise VerifyError(f"GET {url}: HTTP {err.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise VerifyError(f"GET {url}: {err}") from None


def fetch(url: str) -> dict[str, Any]:
    """The session document of the session at ``url`` (``http(s)://host/v1/sessions/<id>``), read
    as a spectator: its snapshot, then every page of its history."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise VerifyError(f"{url!r} is not an http(s) URL of a session")
    base = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    session = _get(base)
    entries: list[dict[str, Any]] = []
    while True:
        page = _get(f"{base}/history?after={len(entries)}")
        entries.extend(page["entries"])
        if not page["more"]:
            break
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "session": session,
        "entries": entries,
    }


def load_document(source: str) -> dict[str, Any]:
    """The document at ``source``: fetched when it is an http(s) URL, else read as a file."""
    if source.startswith(("http://", "https://")):
        return fetch(source)
    try:
        with open(source, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as err:
        raise VerifyError(f"{source}: {err}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise VerifyError(f"{source}: not a {FORMAT} document (see `reign-referee verify --help`)")
    return document


def _bad(version: int, versions: int, detail: str) -> Verdict:
    return Verdict(False, versions, detail, version)


def verify_document(document: dict[str, Any]) -> Verdict:
    """Replay the session document and check the commitment and every version (module doc)."""
    session = document.get("session")
    entries = document.get("entries")
    if not isinstance(session, dict) or not isinstance(entries, list):
        raise VerifyError("the document needs a session snapshot and its history entries")
    if session.get("status") != "finished":
        raise VerifyError("the session is not finished: its seed is revealed only at the end")
    fairness = session.get("fairness")
    versions = int(session.get("version", -1))
    why = check_commitment(fairness)
    if why is not None:
        return _bad(0, versions, f"commitment: {why}")
    assert isinstance(fairness, dict)
    try:
        game = get_game(session["game"])
        state = game.setup(list(session["players"]), fairness["seed"], session.get("options") or {})
    except (RulesError, KeyError, TypeError) as err:
        return _bad(
            0, versions, f"setup: the revealed seed, players and options do not set up: {err}"
        )
    for expected, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or entry.get("version") != expected:
            return _bad(expected, versions, "history: this version is missing or out of order")
        move = entry.get("move")
        if not isinstance(move, dict) or move.get("player") != entry.get("player"):
            return _bad(expected, versions, "the move is not whole, or not its player's")
        try:
            state, events = game.apply(state, move)
        except RulesError as err:
            return _bad(expected, versions, f"the move is illegal there: {err}")
        except Exception as err:  # a tampered move the rules cannot even read
            return _bad(expected, versions, f"the move cannot be applied: {err!r}")
        if events != entry.get("events"):
            return _bad(expected, versions, "the replayed events differ from the recorded ones")
    if len(entries) != versions:
        return _bad(
            len(entries) + 1, versions, f"the history has {len(entries)} versions, not {versions}"
        )
    viewer = session.get("seat")
    if state["status"] != "finished" or game.view(state, viewer) != session.get("view"):
        return _bad(versions, versions, "the replayed final state is not the session's")
    if game.waiting_on(state) != session.get("to_move", []):
        return _bad(versions, versions, "the replayed game waits on other players")
    return Verdict(
        True,
        versions,
        f"{game.id} session {session.get('session_id')}: seed_commitment "
        f"{fairness['seed_commitment']} = SHA-256 of '<salt>:<seed>', and all {versions} "
        f"versions replay from seed {fairness['seed']} (winners: "
        f"{', '.join((state.get('outcome') or {}).get('winners', [])) or 'none'})",
    )
