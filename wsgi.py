"""WSGI entry point: ``gunicorn wsgi:app`` (``reign-referee serve`` does this for you)."""

from api import create_app

app = create_app()
