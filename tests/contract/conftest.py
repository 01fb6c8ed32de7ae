"""Fixtures of the contract tests.

``contract_app`` is built like the shared ``app`` fixture (tests/conftest.py: embedded store,
REDIS_URL unset) but once per session, since schemathesis and whole games make thousands of
requests. ``contract`` is a test client whose every exchange is validated against the spec.
"""

from __future__ import annotations

import pytest

from .oapi import Contract


@pytest.fixture(scope="session")
def contract_app(referee_data_dir):
    from api import create_app

    app = create_app(
        {"TESTING": True, "REDIS_URL": None, "REFEREE_DATA_DIR": str(referee_data_dir)}
    )
    yield app
    app.extensions["referee_clocks"].stop()  # its timekeeper, if a clocked session started it


@pytest.fixture()
def contract(contract_app):
    return Contract(contract_app.test_client())
