"""Tokens never reach a log (issue 12): the table ledger's URLs carry secret tokens
(``/api/v1/tables/<token>/…``), so every access and error log line has path segments that look
like a token (22-64 URL-safe characters: ours are 32) replaced by ``[redacted]``, and so is
the ``table=`` value of ``/t/send`` (a pasted table link).

* gunicorn's access log: :class:`RedactingLogger` (``logger_class`` in gunicorn.conf.py)
  redacts every atom (request line, path, query, referer) before formatting.
* Flask's development server (werkzeug) and Flask's own error log ("Exception on /api/v1/…"):
  :func:`init_app` adds :class:`RedactFilter` to their loggers.
"""

from __future__ import annotations

import logging
import re

from flask import Flask

TOKEN_SEGMENT = re.compile(r"(?<=/)[A-Za-z0-9_-]{22,64}(?=[/?#\s\"']|$)")
#: 记入牌桌's pasted link (``GET /t/send?table=<a table's link or token>``): the whole value,
#: whatever it holds (percent-encoded, its token follows no ``/``)
PASTED_LINK = re.compile(r"(?<=[?&]table=)[^&#\s\"']+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with every token-like path segment, and a pasted table link, replaced by
    ``[redacted]``."""
    return PASTED_LINK.sub(REDACTED, TOKEN_SEGMENT.sub(REDACTED, text))


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
        """gunicorn's logger with tokens redacted from every access-log atom."""

        def atoms(self, resp, req, environ, request_time):
            atoms = super().atoms(resp, req, environ, request_time)
            return {k: redact(v) if isinstance(v, str) else v for k, v in atoms.items()}
