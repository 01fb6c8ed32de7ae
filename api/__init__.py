"""The Flask application: ``create_app()`` wires config, error handlers, blueprints and store."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from api.config import Settings
from api.jsonio import OrjsonProvider

__all__ = ["create_app"]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app.

    Settings come from the environment (``api.config``); ``config`` overrides them by their
    environment names (``{"REDIS_URL": ..., "MAX_BODY_BYTES": ...}``) and is also applied to
    ``app.config`` (so ``{"TESTING": True}`` works as usual).
    """
    import schemas
    from api import (
        bots,
        clock_admin,  # noqa: F401  (adds POST /v1/sessions/{id}/clock to sessions.bp)
        codings,
        errors,
        games,
        ops,
        records,
        sessions,
        table,
    )
    from api.bot_seats import BotSeats
    from api.clock_keeper import ClockKeeper
    from api.known_states import KnownStates
    from api.ratelimit import init_rate_limits
    from api.session_store import SessionStore
    from api.store import Store
    from api.stream_slots import StreamSlots
    from rules.registry import GAMES

    config = dict(config or {})
    env = dict(os.environ)
    env.update({k: ("" if v is None else str(v)) for k, v in config.items() if k.isupper()})
    settings = Settings.from_env(env)

    app = Flask(__name__, static_folder=None)  # no /static: the docs serve their own assets
    # A path is matched as written: werkzeug would answer /v1//games with a 308 to an absolute
    # URL made from the client's Host header, in HTML. Set before any route is added (each
    # takes the map's setting then); /v1//games is now a 404 like any unknown path.
    app.url_map.merge_slashes = False
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.config.update(config)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.config["REFEREE_SETTINGS"] = settings

    app.json = OrjsonProvider(app)  # compact, sorted keys

    app.logger.setLevel(settings.log_level.upper())

    missing = sorted(set(GAMES) - set(schemas.SCHEMAS))
    if missing:
        raise RuntimeError(f"games without schemas in schemas/: {', '.join(missing)}")

    errors.register_error_handlers(app)
    codings.register(app)
    app.register_blueprint(games.bp)
    app.register_blueprint(bots.bp)
    app.register_blueprint(sessions.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(ops.bp)
    app.register_blueprint(table.bp)
    ops.register_docs(app)
    app.extensions["referee_known_states"] = KnownStates(settings.known_states)
    store = Store(
        settings.redis_url,
        settings.data_dir,
        settings.store_timeout,
        appendfsync=settings.store_appendfsync,
        max_memory=settings.store_max_memory,
    )
    app.extensions["referee_store"] = store
    app.extensions["referee_sessions"] = SessionStore(
        store,
        settings.session_ttl,
        settings.max_session_state_bytes,
        settings.idempotency_window,
    )
    app.extensions["referee_bot_seats"] = BotSeats(
        app.extensions["referee_sessions"], settings.session_bot_time_ms
    )
    # Session clocks: this process's timekeeper, started by `serve` per worker (its hook), else
    # by the first request of any kind (an orchestrator's /healthz): with plain `gunicorn
    # wsgi:app` no deadline would fire after a restart until someone read a clocked session.
    # Once started, each request's start() is a flag check.
    keeper = ClockKeeper(
        app.extensions["referee_sessions"],
        settings.session_bot_time_ms,
        settings.clock_poll_ms,
        settings.clock_threads,
        nudge=app.extensions["referee_bot_seats"].nudge,
    )
    app.extensions["referee_clocks"] = keeper
    app.before_request(keeper.start)
    init_rate_limits(app, settings, config)
    # Each open /events stream holds a worker thread; at most MAX_STREAMS of them per process,
    # at most MAX_STREAMS_PER_CLIENT of them from one client address.
    app.extensions["referee_stream_slots"] = StreamSlots(
        settings.max_streams, settings.max_streams_per_client
    )
    return app
