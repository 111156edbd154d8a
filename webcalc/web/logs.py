"""Tokens never reach a log: the table ledger's URLs carry secret tokens
(``/api/v1/tables/<token>/…``), so every access and error log line has its token-like path
segments replaced by ``[redacted]``, and so is the ``table=`` value of ``/t/send`` (a pasted
table link) — as the URL was sent, whatever its encoding (docs/SERVING.md "Behind nginx").

A token-like segment: 22 or more URL-safe characters after a ``/`` (ours are 32; the app takes
22-64), each character as itself or percent-encoded (``%55`` is ``U``: the app decodes the path
before routing, so ``/t/x2x2d%55DPZ…`` opens the table as ``/t/x2x2dUDPZ…`` does), the slash
itself as ``/`` or ``%2F`` (``/t%2F<token>`` is routed as ``/t/<token>``). ``table=``: every
one of them (a repeated key: the app reads the first, a log must hide all), its name as sent
(``tab%6Ce=`` is ``table=`` to the app), its whole value.

* gunicorn's access log: :class:`RedactingLogger` (``logger_class`` in gunicorn.conf.py)
  redacts every atom (request line, path, query, referer, headers) before formatting, and
  filters gunicorn's error log ("Error handling request /t/…") with :class:`RedactFilter`.
* Flask's development server (werkzeug) and Flask's own error log ("Exception on /api/v1/…"):
  :func:`init_app` adds :class:`RedactFilter` to their loggers.
"""

from __future__ import annotations

import logging
import re

from flask import Flask

#: one character of a token as a URL may carry it: itself, or percent-encoded (``%2D`` is
#: ``-``, ``%30``-``%39`` digits, ``%41``-``%5A`` letters, ``%5F`` ``_``, ``%61``-``%7A``)
TOKEN_CHAR = (r"(?:[A-Za-z0-9_-]|%(?:2[Dd]|3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|5[Ff]|6[1-9A-Fa-f]"
              r"|7[0-9Aa]))")
TOKEN_SEGMENT = re.compile(rf"(?:(?<=/)|(?<=%2[Ff])){TOKEN_CHAR}{{22,}}(?!{TOKEN_CHAR})")
#: 记入牌桌's pasted link (``GET /t/send?table=<a table's link or token>``): the whole value,
#: whatever it holds (percent-encoded, its token follows no ``/``), of every ``table=``, its
#: name as sent (any letter percent-encoded, any case: more than the app reads, never less)
PASTED_LINK = re.compile(r"([?&](?i:(?:t|%74)(?:a|%61)(?:b|%62)(?:l|%6c)(?:e|%65))=)"
                         r"[^&#\s\"']+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with every token-like path segment, and a pasted table link, replaced by
    ``[redacted]``."""
    return PASTED_LINK.sub(r"\1" + REDACTED, TOKEN_SEGMENT.sub(REDACTED, text))


class RedactFilter(logging.Filter):
    """Redacts the message and its string arguments of every record it sees."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


_FILTER = RedactFilter()


def init_app(app: Flask) -> None:
    for logger in (logging.getLogger("werkzeug"), app.logger):
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


try:                                     # gunicorn is a dependency, but keep imports light
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:                      # pragma: no cover
    _GunicornLogger = None

if _GunicornLogger is not None:
    class RedactingLogger(_GunicornLogger):
        """gunicorn's logger with tokens redacted from every access-log atom, and its error
        log filtered (it quotes request lines)."""

        def setup(self, cfg):
            super().setup(cfg)
            for log in (self.error_log, self.access_log):
                if _FILTER not in log.filters:
                    log.addFilter(_FILTER)

        def atoms(self, resp, req, environ, request_time):
            atoms = super().atoms(resp, req, environ, request_time)
            return {k: redact(v) if isinstance(v, str) else v for k, v in atoms.items()}
