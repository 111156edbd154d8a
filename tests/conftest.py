"""Shared fixtures: the Flask app and its test client."""

from __future__ import annotations

import pytest

from webcalc import create_app


@pytest.fixture()
def app():
    return create_app({"TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()
