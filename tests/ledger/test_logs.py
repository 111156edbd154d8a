"""Tokens are redacted from the development server's and Flask's logs (gunicorn's access log
is checked on a real server in test_durability)."""

from __future__ import annotations

import logging

from webcalc.web.logs import RedactFilter, redact

TOKEN = "Alrxv3FIj2zAhDJRqfVOSeXCxnUJPivW"


def test_redact_token_segments_only():
    assert redact(f'"POST /api/v1/tables/{TOKEN}/hands/3/void HTTP/1.1" 200') == \
        '"POST /api/v1/tables/[redacted]/hands/3/void HTTP/1.1" 200'
    assert redact(f"GET /api/v1/tables/{TOKEN}?x=1") == "GET /api/v1/tables/[redacted]?x=1"
    for kept in ("GET /api/v1/variants", "GET /static/vendor/htmx.min.js",
                 "GET /?hand=123m456p789s1134z55555z"):
        assert redact(kept) == kept


def test_redact_the_link_pasted_into_the_calculator():
    """记入牌桌 sends a pasted table link in the query of GET /t/send: percent-encoded, its
    token follows no ``/``, so the whole ``table=`` value is redacted (it failed before)."""
    line = (f'"GET /t/send?variant=zhengzhou&hand=1m&table=https%3A%2F%2Fx.test%2Ft%2F{TOKEN}'
            f'&lang=en HTTP/1.1" 303')
    assert redact(line) == ('"GET /t/send?variant=zhengzhou&hand=1m&table=[redacted]&lang=en '
                            'HTTP/1.1" 303')
    assert TOKEN not in redact(f"GET /t/send?table={TOKEN}")


def test_werkzeug_and_flask_records_are_redacted(caplog):
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, '%s - "%s" %s',
                               ("127.0.0.1", f"GET /api/v1/tables/{TOKEN} HTTP/1.1", "200"),
                               None)
    RedactFilter().filter(record)
    assert TOKEN not in record.getMessage() and "[redacted]" in record.getMessage()


def test_the_app_installs_the_filter(app):
    assert any(isinstance(f, RedactFilter) for f in logging.getLogger("werkzeug").filters)
    assert any(isinstance(f, RedactFilter) for f in app.logger.filters)
