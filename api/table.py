"""``/table``: the reference web table (issue 27), plain HTML, CSS and JavaScript served from the
package (``api/static/table/``): no build step, no external requests.

The page only talks to this server's session API; ``Content-Security-Policy`` says so to the
browser too (``'self'`` only), so a copy that grows a CDN link fails loudly."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

from api.errors import ApiError

__all__ = ["bp", "TABLE_DIR", "ASSETS"]

bp = Blueprint("table", __name__)

TABLE_DIR = Path(__file__).resolve().parent / "static" / "table"
ASSETS = ("table.js", "table.css")
_POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'"


def _send(name: str) -> Response:
    response = send_from_directory(TABLE_DIR, name, max_age=60)
    response.headers["Content-Security-Policy"] = _POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/table")
def table_page():
    return _send("index.html")


@bp.get("/table/<path:path>")
def table_asset(path: str):
    if path not in ASSETS:
        raise ApiError(
            404, "not_found", "The table has no such file; it has table.js and table.css."
        )
    return _send(path)
