"""gunicorn settings for webcalc (``make run``, Procfile): ``gunicorn -c gunicorn.conf.py
'webcalc:create_app()'``.

Environment overrides: ``BIND`` (e.g. ``0.0.0.0:8000`` behind a proxy, or a
``unix:/run/webcalc.sock``), else ``PORT`` on 127.0.0.1 (default 8000); ``WEB_CONCURRENCY``
(workers; default 2 × CPUs + 1, at most 8); ``GUNICORN_TIMEOUT``. Set ``WEBCALC_SECRET_KEY``
in production; without it the workers share a key made once in ``instance/secret_key``.
"""

from __future__ import annotations

import multiprocessing
import os

bind = os.environ.get("BIND") or f"127.0.0.1:{os.environ.get('PORT', '8000')}"

# Sync workers: an analysis is pure CPU (a few ms; the engine has no I/O), so one request per
# process is the right model, and 2 × CPUs + 1 covers the moments a worker writes its answer.
workers = int(os.environ.get("WEB_CONCURRENCY") or min(2 * multiprocessing.cpu_count() + 1, 8))
worker_class = "sync"

# A request that runs longer than this is killed and its worker replaced (no analysis should
# come near it); on SIGTERM, workers get graceful_timeout to finish what they are answering.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5

# Replace each worker after about a thousand requests (jittered so they do not all restart
# together): bounds the engine's memoisation tables and any slow leak.
max_requests = 1000
max_requests_jitter = 100

# Request-line and header limits (gunicorn answers 414 / 400 itself past these). The app refuses a
# query string over 8000 bytes with a friendly 414 (webcalc.web.security.QUERY_MAX), so the
# request line may reach 8190, gunicorn's maximum.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# Access and error logs to stdout/stderr, for the process manager to collect.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# ledger URLs carry secret tokens: every access-log atom is redacted (webcalc/web/logs.py)
logger_class = "webcalc.web.logs.RedactingLogger"

# Heartbeat files on tmpfs where there is one (a slow disk must not look like a hung worker).
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

proc_name = "webcalc"
