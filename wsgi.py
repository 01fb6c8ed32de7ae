"""WSGI entry point. Run gunicorn with the settings ``reign-referee serve`` uses::

    gunicorn -c python:api.gunicorn_conf wsgi:app

(``api.gunicorn_conf``: the buffering threaded worker, threads for the ``/events`` streams, the
timeouts, limits and worker hook), with ``REDIS_URL`` set or one worker (``-w 1``): only
``serve`` starts one embedded Redis for all its workers, and without it each worker would start
its own on one data directory. Plain ``gunicorn wsgi:app`` lacks all of that: its sync worker
answers one request at a time, so as many open streams as workers freeze the service (README,
"Installing without the source tree")."""

from api import create_app

app = create_app()
