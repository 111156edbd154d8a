"""Tokens are redacted from the development server's and Flask's logs (gunicorn's access log
is checked on a real server in test_durability)."""

from __future__ import annotations

import logging
from urllib.parse import unquote

import pytest

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


# -- tokens as a URL can carry them: percent-encoded, repeated, in a Referer's query ---------

def _one_encoded(token: str, at: int = 5) -> str:
    """The token with one character percent-encoded (``%55`` for ``U``): werkzeug decodes
    the path before routing, so this opens the table as the token itself does."""
    return token[:at] + f"%{ord(token[at]):02X}" + token[at + 1:]


def _all_encoded(token: str) -> str:
    return "".join(f"%{ord(c):02x}" for c in token)


def _leaks(text: str, token: str) -> bool:
    """The token in the text, as sent or decoded (once or twice)."""
    once = unquote(text)
    return token in text or token in once or token in unquote(once) or \
        _one_encoded(token) in text or _all_encoded(token) in text.lower()


def test_percent_encoded_tokens_open_the_table(make_app):
    client = make_app().test_client()
    edit = client.post("/api/v1/tables", json={"variant": "zhengzhou"}).json["edit_token"]
    for path in (f"/t/{_one_encoded(edit)}", f"/t/{_all_encoded(edit)}",
                 f"/api/v1/tables/{_one_encoded(edit, 0)}"):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("line", [
    f'"GET /t/{_one_encoded(TOKEN)} HTTP/1.1" 200',
    f'"GET /t/{_all_encoded(TOKEN)}/live?part=top HTTP/1.1" 200',
    f'"POST /api/v1/tables/{_one_encoded(TOKEN, 0)}/hands HTTP/1.1" 201',
    f'"GET /t%2F{TOKEN} HTTP/1.1" 200',
    f'"GET /t%2f{_one_encoded(TOKEN, 31)}?x=1 HTTP/1.1" 200',
    f'"GET /t/{TOKEN}{TOKEN}{TOKEN} HTTP/1.1" 404',
    f'"GET /t/send?table={TOKEN}&table=https%3A%2F%2Fx.test%2Ft%2F{TOKEN}&lang=en HTTP/1.1" 303',
    f'"GET /t/send?hand=1m&tab%6Ce={TOKEN}&%74able={TOKEN} HTTP/1.1" 303',
    f'"GET /?next=%2Ft%2F{_one_encoded(TOKEN)} HTTP/1.1" 200',
    f'"http://x.test/t/send?hand=1m&table=http%3A%2F%2Fx.test%2Ft%2F{TOKEN}"',
    f'"https://x.test/a/{TOKEN}/{TOKEN}/{_one_encoded(TOKEN)}/{TOKEN}?t=1"',
])
def test_encoded_repeated_and_referer_tokens_are_redacted(line):
    out = redact(line)
    assert not _leaks(out, TOKEN), out
    assert "[redacted]" in out


def test_what_is_not_a_token_is_kept():
    for kept in ('"GET /static/css/app.0123456789.css HTTP/1.1" 200',
                 '"GET /?hand=1m2m3m4m5m6m7m8m9m1p2p3p4p5p&lang=en HTTP/1.1" 200',
                 '"GET /t/send?hand=1m&tables=3&label=x HTTP/1.1" 303',
                 '"GET /rules/zhengzhou%20x HTTP/1.1" 404'):
        assert redact(kept) == kept
    assert redact("/t/send?hand=1m&table=x&lang=en") == "/t/send?hand=1m&table=[redacted]&lang=en"


def test_gunicorns_error_log_is_redacted_too():
    """gunicorn's error log quotes the request line ("Error handling request …", "Invalid
    request from …"): the logger class filters it as it does the access log."""
    from gunicorn.config import Config

    from webcalc.web.logs import RedactingLogger

    logger = RedactingLogger(Config())
    for log in (logger.error_log, logger.access_log):
        record = logging.LogRecord(log.name, logging.ERROR, __file__, 1,
                                   "Error handling request %s %s",
                                   ("GET", f"/t/{_one_encoded(TOKEN)}"), None)
        assert all(f.filter(record) for f in log.filters) and log.filters
        assert not _leaks(record.getMessage(), TOKEN), record.getMessage()
