"""gunicorn's configuration as ``reign-referee serve`` runs it, for running gunicorn yourself:

    gunicorn -c python:api.gunicorn_conf wsgi:app

Its settings are :func:`api.cli.gunicorn_options`'s, read from the same environment variables
(``HOST``, ``PORT``, ``WEB_CONCURRENCY``, ``THREADS``, ``MAX_STREAMS``, ...): the buffering
threaded worker (``api.buffered_worker``), ``THREADS + MAX_STREAMS`` threads a worker so open
``/events`` streams never hold up other requests, the timeouts, the request limits, and the
``post_worker_init`` hook (each worker's clock keeper starts with it, and SIGTERM ends streams
at once). gunicorn's own options on the command line (``-b``, ``-w``) still override them.

Plain ``gunicorn wsgi:app`` has none of that: its sync worker answers one request at a time,
so as many ``/events`` streams as workers freeze the whole service (README, "Installing without
the source tree"). What only ``serve`` does is start one embedded Redis for all its workers:
here, without ``REDIS_URL``, gunicorn runs one worker (a second would find the embedded Redis
of the first on the data directory and reach no store: its sessions answered 503).
"""

from __future__ import annotations

from api.cli import gunicorn_options
from api.config import Settings

# gunicorn reads a config module's names that are its settings: exactly serve's, one source.
globals().update(gunicorn_options())
if Settings.from_env().redis_url is None:
    workers = 1  # each worker starts its own embedded Redis: only one may serve a data directory
