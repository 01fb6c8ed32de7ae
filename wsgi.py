"""WSGI entry point: ``gunicorn wsgi:app``, with one worker or with ``REDIS_URL`` set (each
worker would otherwise start its own embedded Redis on one data directory). ``reign-referee
serve`` runs gunicorn as the service needs it: one embedded Redis for all its workers, the
buffering worker and threads for the ``/events`` streams (README, "Installing without the
source tree")."""

from api import create_app

app = create_app()
