"""gunicorn settings for webcalc (``make run``, Procfile): ``gunicorn -c gunicorn.conf.py
'webcalc:create_app()'``.

Environment overrides: ``BIND`` (e.g. ``0.0.0.0:8000`` behind a proxy, or a
``unix:/run/webcalc.sock``), else ``PORT`` on 127.0.0.1 (default 8000); ``WEB_CONCURRENCY``
(workers; default 2 × CPUs + 1, at most 8); ``GUNICORN_TIMEOUT``; ``GUNICORN_CONTROL_SOCKET`` (a
path: this instance's control socket for ``gunicornc``; unset: no control socket). Set
``WEBCALC_SECRET_KEY`` and ``WEBCALC_TRUSTED_HOSTS`` in production; without the key the workers
share one made once in ``instance/secret_key``. In production gunicorn sits behind nginx
(deploy/nginx.conf), which buffers slow clients; set ``WEBCALC_TRUSTED_PROXIES=1`` there, so
the app takes each client's address from nginx's ``X-Forwarded-For`` (docs/SERVING.md).
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

# The app (and the engine's per-suit tables, filled by its warm-up in the app factory) is
# loaded once in the master before the workers fork: every worker starts warm and shares
# those pages copy-on-write.
preload_app = True



def on_starting(server):
    """In the master, after preload_app and before any worker forks: fill the engine's
    per-suit tables (webcalc.warmup), then render each page once (webcalc.web.warmup:
    templates compiled, catalogues and locale data read; under the script root the workers
    serve, ``SCRIPT_NAME``, which gunicorn's ``raw_env`` has set by now), so each worker
    inherits them warm."""
    import gc

    from webcalc.warmup import warm_up

    stats = warm_up()
    server.log.info("engine tables warmed: %d hands in %.2f s", stats["hands"], stats["seconds"])
    if server.cfg.preload_app:
        from webcalc.web.warmup import warm_pages

        pages = warm_pages(server.app.wsgi())
        server.log.info("pages warmed: %d of %d answered in %.2f s", pages["answered"],
                        pages["requests"], pages["seconds"])
    # Move everything loaded so far out of the collector's reach: a worker's garbage
    # collections then never write to (and so never copy) the pages it shares with the master.
    gc.collect()
    _malloc_trim()
    gc.freeze()


def _malloc_trim():
    """Give the heap pages the warm-ups used and freed (compiling the templates peaks at a
    few MB) back to the kernel, so the workers do not inherit them (about 3.5 MB less RSS
    per process). glibc only; elsewhere nothing happens."""
    import ctypes

    try:
        ctypes.CDLL(None).malloc_trim(0)       # the C library this process runs on
    except (OSError, AttributeError):
        pass


# The engine's memo tables are bounded (issue 13.3), so recycling is only a guard against a
# slow leak; with preload_app a new worker forks warm from the master.
max_requests = 10000
max_requests_jitter = 1000

# gunicorn ≥ 25.1 opens a control socket by default at one path per user
# (~/.gunicorn/gunicorn.ctl), which a second instance would take over. Off unless this
# instance is given its own path.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or None
control_socket_disable = not control_socket
if control_socket is None:
    del control_socket

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
