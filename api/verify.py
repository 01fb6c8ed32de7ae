"""``reign-referee verify``: check that a finished game was played fair (issues 24 and 26).

A finished session reveals its seed and salt (``fairness``) and gives everyone its whole game
record (``GET /v1/sessions/{id}/record``, ``docs/records.md``). Anyone can then check, without
trusting the service, that the commitment every answer carried from version 0 is SHA-256 of
``"<salt>:<seed>"``, and that the game the seed, the players and the options set up, played
entry by entry, makes exactly the recorded events and states (their digests), the last one
included. The replay is ``rules.records.replay``, the one ``POST /v1/games/{game}/replay`` runs
(``api.records.first_difference``): the first version that differs is named. A record that
withholds what its replay needs (a running game's record, redacted for its reader) cannot be
checked (:class:`VerifyError`), rather than differs; nor can a record of another version of the
game's rules (its ``schema_version``: a game begun before the rules changed).

The input is a record, read from a session's URL (:func:`fetch`: its ``/record``, which
``verify URL --save FILE`` also writes) or a file (``-``: stdin).

No Flask and no service: the rules run here, in the verifier's own process.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import schemas
from rules.errors import UnknownGame
from rules.records import FORMAT
from rules.registry import get_game

__all__ = [
    "FORMAT",
    "Verdict",
    "VerifyError",
    "fetch",
    "verify_document",
    "load_document",
    "printable",
]

TIMEOUT_SECONDS = 30


class VerifyError(Exception):
    """The record cannot be verified at all (unreachable, unfinished, malformed)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result: ``ok``, or the first version that does not hold (0: the commitment or the
    setup) and why."""

    ok: bool
    versions: int
    detail: str
    first_bad_version: int | None = None

    def report(self) -> str:
        """One line for a terminal: the record's own text (a name, an event) comes back with
        its unprintable characters escaped (:func:`printable`)."""
        if self.ok:
            return f"verified: {printable(self.detail)}"
        return f"NOT VERIFIED at version {self.first_bad_version}: {printable(self.detail)}"


def printable(text: str) -> str:
    """``text`` with every character a terminal would not print as itself (controls, 8-bit
    escapes such as U+009B, bidirectional overrides, line separators) written as ``\\uXXXX``: a
    record's text must not move the cursor, recolour or hide the verdict around it."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


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
    """The record of the session at ``url`` (``http(s)://host/v1/sessions/<id>``, or that URL's
    ``/record``, which is what is read), read as a spectator (whole once the game is
    finished)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise VerifyError(f"{url!r} is not an http(s) URL of a session")
    path = parts.path.rstrip("/").removesuffix("/record")
    return _get(urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", "")) + "/record")


def load_document(source: str) -> dict[str, Any]:
    """The record at ``source``: fetched when it is an http(s) URL, read from stdin for ``-``,
    else read as a file."""
    if source.startswith(("http://", "https://")):
        return fetch(source)
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text("utf-8")
        document = json.loads(text)
    except (OSError, ValueError) as err:
        raise VerifyError(f"{source}: {err}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise VerifyError(f"{source}: not a {FORMAT} (see `reign-referee verify --help`)")
    return document


def verify_document(record: dict[str, Any]) -> Verdict:
    """Replay ``record`` (module doc). VerifyError when it is malformed or not finished."""
    from api.records import first_difference
    from schemas.records import REPLAY

    try:
        record = schemas.load(REPLAY, {"record": record})["record"]
        game = get_game(record["game"])
    except schemas.ValidationError as err:
        raise VerifyError(f"not a record: {err.messages}"[:2000]) from None
    except UnknownGame as err:
        raise VerifyError(str(err)) from None
    if record["schema_version"] != game.schema_version:  # not untrue: not these rules' to check
        raise VerifyError(
            f"the game was played under version {record['schema_version']} of {game.title}'s "
            f"rules, and this verifier plays version {game.schema_version}: check it with a "
            "release that plays those rules"
        )
    fairness = record["fairness"]
    versions = len(record["entries"])
    difference = first_difference(game, record)
    if difference is not None and difference.withheld:  # kept from its reader, not untrue
        raise VerifyError(
            f"the game is not finished: its record withholds what version {difference.version} "
            f"needs ({difference.detail})"
        )
    if difference is not None:
        return Verdict(False, versions, difference.detail, difference.version)
    finished = [e for e in record["entries"][-1:] for v in e["events"] if v["type"] == "game_over"]
    forked_from = record.get("forked_from")
    start = (
        f"seed {fairness['seed']}"
        if forked_from is None
        else f"the fork's start (version {forked_from['version']} of session "
        f"{forked_from['session_id']}, not checked here), with seed {fairness['seed']}"
    )
    return Verdict(
        True,
        versions,
        f"{game.id}: seed_commitment {fairness['seed_commitment']} = SHA-256 of "
        f"'<salt>:<seed>', and all {versions} versions replay from {start}"
        + (" to the end of the game" if finished else ""),
    )
