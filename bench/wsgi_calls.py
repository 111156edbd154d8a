"""A WSGI call prepared once and timed many times, for the benches that weigh a route's CPU
against a minimal Flask route's (bench/pages.py, bench/page_cost.py)."""

from __future__ import annotations

import io

from werkzeug.test import EnvironBuilder


def wsgi_caller(wsgi, path: str, headers: dict | None = None, expect: str = "200"):
    """A function that calls the WSGI app ``wsgi`` on ``GET path`` (with ``headers``) and
    reads its whole answer; called once here, where its status must start with ``expect``."""
    base = EnvironBuilder(path=path, base_url="http://localhost",
                          headers=headers or {}).get_environ()
    status: list[str] = []

    def start_response(s, h, exc_info=None):
        status.append(s)

    def call():
        env = dict(base)
        env["wsgi.input"] = io.BytesIO(b"")
        it = wsgi(env, start_response)
        try:
            for _ in it:
                pass
        finally:
            close = getattr(it, "close", None)
            if close:
                close()
    call()
    assert status[-1].startswith(expect), (path, status[-1])
    return call
