"""Shared fixtures: the Flask app and its test client; Chromium for the browser tests (the
calculator's in tests/ and the ledger's in tests/ledger/)."""

from __future__ import annotations

import threading

import pytest

from webcalc import create_app


@pytest.fixture()
def app():
    return create_app({"TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium under Playwright, one per test module."""
    from tests.browsers import CHROMIUM, LAUNCH_ARGS, need_chromium

    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def live_server():
    """The app (TESTING) served by werkzeug in a thread on 127.0.0.1; yields its base URL."""
    from werkzeug.serving import make_server

    from webcalc import create_app

    server = make_server("127.0.0.1", 0, create_app({"TESTING": True}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
