"""A city on one machine: the harness tests/test_city.py and bench/city.py share
(docs/SERVING.md, "A city on one PostgreSQL").

:class:`City` starts, on a fresh schema of the test PostgreSQL (``WEBCALC_TEST_POSTGRES_URL``),
``servers`` gunicorn instances (gunicorn.conf.py, ``workers`` sync workers each, one
``DATABASE_URL`` and one ``WEBCALC_SECRET_KEY``) and one nginx in front of them
(deploy/nginx-city.conf: one upstream over the servers), all on 127.0.0.1 ephemeral ports,
and creates ``tables`` tables. :func:`drive` then plays the city for ``seconds``: each table
has one viewer polling through nginx and one polling each server directly (GET
``/api/v1/tables/<view token>`` with ``If-None-Match``: 304 or 200 and the table), each every
``interval`` seconds; and one hand is recorded on each table (through nginx) at a random
moment, so that every table changes about once in the run (the city's one hand per table
every ~4 minutes, compressed in time). One asyncio loop is the whole client (a few hundred
connections; HTTP/1.1 written and read by hand, keep-alive where the server keeps it).

:meth:`City.stop` ends every process it started and drops the schema, whatever happened.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.test_proxy import NGINX, ROOT, _free_port, _stop, _wait_http

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
       "settlement": {"winner": 1}}
#: the access log path in deploy/nginx-city.conf, and its other substituted lines
CITY_CONF = ROOT / "deploy" / "nginx-city.conf"
#: seconds a client waits for an answer (nginx's proxy_read_timeout is 35 s)
TIMEOUT = 30.0


def pg_url() -> str:
    from tests.ledger.conftest import pg_url as url

    return url()


def problem() -> str | None:
    """Why the city cannot run here (no nginx, no PostgreSQL), else None."""
    if NGINX is None:
        return "nginx is not installed (apt-get install nginx; .ci/run installs it)"
    from tests.ledger.conftest import pg_problem

    why = pg_problem()
    return None if why is None else f"PostgreSQL not reachable at WEBCALC_TEST_POSTGRES_URL: {why}"


def nginx_city_conf(tmp: Path, listen: int, upstreams: list[int]) -> Path:
    """deploy/nginx-city.conf with this run's ports and paths, in a minimal main config."""
    site = CITY_CONF.read_text(encoding="utf-8")
    subs = [("listen 80;", f"listen 127.0.0.1:{listen};"),
            ("server_name calc.example.com;", "server_name 127.0.0.1 localhost;"),
            ("/var/log/nginx/webcalc.access.log", str(tmp / "access.log"))]
    subs += [(f"server 127.0.0.1:{8001 + i} ", f"server 127.0.0.1:{port} ")
             for i, port in enumerate(upstreams)]
    for old, new in subs:
        assert old in site, f"deploy/nginx-city.conf no longer has {old!r}"
        site = site.replace(old, new)
    (tmp / "site.conf").write_text(site, encoding="utf-8")
    user = "user root;\n" if os.geteuid() == 0 else ""
    main = f"""{user}worker_processes 1;
pid {tmp}/nginx.pid;
error_log stderr warn;
events {{ worker_connections 8192; }}
worker_rlimit_nofile 20000;
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/site.conf;
}}
"""
    path = tmp / "nginx.conf"
    path.write_text(main, encoding="utf-8")
    return path


def cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` and of its children it has reaped (/proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def own_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            out += [int(x) for x in open(f"/proc/{pid}/task/{task}/children").read().split()]
        except OSError:
            pass
    return out


class City:
    def __init__(self, tmp: Path, tables: int, servers: int = 3, workers: int = 2):
        self.tmp, self.n_tables, self.n_servers, self.workers = tmp, tables, servers, workers
        self.schema = f"city_{secrets.token_hex(5)}"
        self.app_name = self.schema
        self.procs: list[subprocess.Popen] = []
        self.gunicorns: list[subprocess.Popen] = []
        self.nginx: subprocess.Popen | None = None
        self.ports: list[int] = []
        self.proxy_port = 0
        self.tokens: list[tuple[str, str]] = []        # (edit, view) per table
        self.url = ""
        self._schema_made = False

    # -- life -----------------------------------------------------------------------------
    def start(self) -> City:
        import psycopg
        from sqlalchemy.engine import make_url

        from webcalc.ledger import Ledger

        base = pg_url()
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {self.schema}")
        self._schema_made = True
        self.url = make_url(base).update_query_dict(
            {"options": f"-csearch_path={self.schema}", "application_name": self.app_name}
        ).render_as_string(hide_password=False)
        made = Ledger(self.url, tables_per_hour=0)
        try:
            made.migrate()
            for _ in range(self.n_tables):
                t = made.create_table({"variant": "zhengzhou"})
                self.tokens.append((t.edit_token, t.view_token))
        finally:
            made.dispose()
        key = secrets.token_hex(16)
        self.ports = [_free_port() for _ in range(self.n_servers)]
        for i, port in enumerate(self.ports):
            env = dict(os.environ, BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY=str(self.workers),
                       LOG_LEVEL="warning", WEBCALC_SECRET_KEY=key, DATABASE_URL=self.url,
                       LEDGER_TABLES_PER_HOUR="0", WEBCALC_TRUSTED_PROXIES="1")
            env.pop("GUNICORN_CONTROL_SOCKET", None)
            env.pop("WEBCALC_TRUSTED_HOSTS", None)
            with (self.tmp / f"gunicorn{i}.log").open("w") as err:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"),
                     "--access-logfile", "/dev/null", "--max-requests", "0",
                     "webcalc:create_app()"],
                    cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
            self.gunicorns.append(proc)
        for i, (port, proc) in enumerate(zip(self.ports, self.gunicorns)):
            _wait_http(port, proc, self.tmp / f"gunicorn{i}.log", timeout=120)
        self.proxy_port = _free_port()
        conf = nginx_city_conf(self.tmp, self.proxy_port, self.ports)
        check = subprocess.run([NGINX, "-t", "-p", str(self.tmp), "-c", str(conf)],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        with (self.tmp / "nginx.log").open("w") as err:
            self.nginx = subprocess.Popen(
                [NGINX, "-p", str(self.tmp), "-c", str(conf), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=err)
        _wait_http(self.proxy_port, self.nginx, self.tmp / "nginx.log")
        return self

    def stop(self) -> None:
        if self.nginx is not None:
            _stop(self.nginx)
        for proc in self.gunicorns:
            _stop(proc)
        if self._schema_made:
            import psycopg

            with psycopg.connect(pg_url(), autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {self.schema} CASCADE")
            self._schema_made = False

    def __enter__(self) -> City:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- what it costs --------------------------------------------------------------------
    def worker_cpu(self) -> float:
        """CPU seconds of every gunicorn worker so far (live ones, and reaped ones through
        their master's children's times), masters excluded."""
        total = 0.0
        for proc in self.gunicorns:
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
            total += sum(own_cpu(c) for c in children(proc.pid))
        return total

    def nginx_cpu(self) -> float:
        assert self.nginx is not None
        return cpu_seconds(self.nginx.pid) + sum(own_cpu(c) for c in children(self.nginx.pid))

    def pg_backends(self) -> list[int]:
        import psycopg

        with psycopg.connect(pg_url(), autocommit=True) as conn:
            return [r[0] for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                (self.app_name,))]

    def pg_cpu(self, pids: list[int]) -> float:
        total = 0.0
        for pid in pids:
            try:
                total += own_cpu(pid)
            except OSError:
                pass
        return total

    def probe_queries(self) -> int:
        """The polls' database look-ups so far: scans of ``ledger_editor``, which the probe's
        query reads once (its co-scorer branch) and nothing else a viewer or a hand recorded
        with the creator's link reads."""
        return self.table_lookups().get("ledger_editor", 0)

    def table_lookups(self) -> dict[str, int]:
        """Index and sequential scans of each of this schema's tables so far
        (pg_stat_user_tables, as the server processes have reported them: a backend reports
        at most once a second, and when it ends)."""
        import psycopg

        with psycopg.connect(pg_url(), autocommit=True) as conn:
            conn.execute("SELECT pg_stat_clear_snapshot()")
            rows = conn.execute(
                "SELECT relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) "
                "FROM pg_stat_user_tables WHERE schemaname = %s", (self.schema,)).fetchall()
        return {name: int(n) for name, n in rows}


# -- the client ---------------------------------------------------------------------------
@dataclass
class Result:
    polls: int = 0
    not_modified: int = 0
    errors: list = field(default_factory=list)
    latencies: list = field(default_factory=list)
    #: (table, target) → [(start, end, version seen)], in order
    seen: dict = field(default_factory=dict)
    #: (table, time the write's answer was read, the version it made)
    writes: list = field(default_factory=list)
    #: each answered write's latency (its request sent → its answer read), seconds
    write_latencies: list = field(default_factory=list)
    #: polls started after the warm-up (drive's ``warm``), their latencies, 304s among them
    measured: int = 0
    measured_latencies: list = field(default_factory=list)
    quiet_latencies: list = field(default_factory=list)
    #: what ``on_mark`` returned at the end of the warm-up and at the end of the run
    marks: list = field(default_factory=list)

    def stale(self, targets: list[str]) -> list:
        """Each (write, target) whose first poll started after the write's answer came
        back gave an older version (or that never polled again: also a miss)."""
        misses = []
        for table, done, version in self.writes:
            for target in targets:
                after = [v for start, _end, v in self.seen.get((table, target), ())
                         if start > done]
                if not after or after[0] < version:
                    misses.append((table, target, done, version, after[:1]))
        return misses


class _Conn:
    """One HTTP/1.1 connection to 127.0.0.1:port, reopened when the server closed it."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict | None = None,
                      body: bytes = b"") -> tuple[int, dict, bytes]:
        for attempt in (0, 1):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
            head += [f"{k}: {v}" for k, v in (headers or {}).items()]
            if body:
                head.append(f"Content-Length: {len(body)}")
            assert self.writer is not None and self.reader is not None
            try:
                self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed before an answer")
            except (ConnectionError, OSError):
                self.close()
                if fresh or attempt:      # a kept connection the server closed: once more
                    raise
                continue
            status = int(status_line.split()[1])
            got: dict[str, str] = {}
            while True:
                line = await self.reader.readline()
                if line in (b"\r\n", b""):
                    break
                k, _, v = line.decode("latin-1").partition(":")
                got[k.strip().lower()] = v.strip()
            length = int(got.get("content-length", "0"))
            data = await self.reader.readexactly(length) if length else b""
            if got.get("connection", "").lower() == "close":
                self.close()
            return status, got, data
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def _version_of(status: int, headers: dict, data: bytes, sent: str | None) -> int:
    """The table's version an answer gives; raises ValueError when it is not well formed."""
    etag = headers.get("etag", "")
    if status == 304:
        if data or sent is None or etag not in ("", sent):
            raise ValueError(f"304 with body {data[:50]!r} or ETag {etag!r} for {sent!r}")
        return int(sent.strip('"W/').split("-")[0])       # "<version>-<rights>-<lang>"
    if status != 200:
        raise ValueError(f"status {status}: {data[:200]!r}")
    doc = json.loads(data)
    version = doc["version"]
    if not isinstance(version, int) or not etag.startswith(f'"{version}-') or \
            not isinstance(doc.get("hands"), list):
        raise ValueError(f"200 with version {version!r}, ETag {etag!r}")
    return version


async def _viewer(city: City, table: int, target: str, port: int, interval: float,
                  start: float, end: float, res: Result, measure_from: float,
                  quiet_until: float) -> None:
    conn = _Conn(port)
    path = f"/api/v1/tables/{city.tokens[table][1]}"
    etag: str | None = None
    log = res.seen.setdefault((table, target), [])
    t = start + random.random() * interval
    try:
        while True:
            delay = t - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if time.monotonic() >= end:
                return
            t0 = time.monotonic()
            try:
                status, headers, data = await asyncio.wait_for(
                    conn.request("GET", path, {"If-None-Match": etag} if etag else None),
                    TIMEOUT)
                version = _version_of(status, headers, data, etag)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, KeyError) as err:
                conn.close()
                res.errors.append((target, table, repr(err)))
                t += interval
                continue
            t1 = time.monotonic()
            res.polls += 1
            res.latencies.append(t1 - t0)
            if t0 >= measure_from:
                res.measured += 1
                res.measured_latencies.append(t1 - t0)
                if t0 < quiet_until:
                    res.quiet_latencies.append(t1 - t0)
            if status == 304:
                res.not_modified += 1
            else:
                etag = headers["etag"]
            log.append((t0, t1, version))
            t += interval
            if t < t1:                    # fell behind: the next poll at once, not a burst
                t = t1
    finally:
        conn.close()


async def _writer(city: City, table: int, at: float, res: Result, port: int) -> None:
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    conn = _Conn(port)
    body = json.dumps(WIN).encode()
    sent = time.monotonic()
    try:
        status, _headers, data = await asyncio.wait_for(conn.request(
            "POST", f"/api/v1/tables/{city.tokens[table][0]}/hands",
            {"Content-Type": "application/json"}, body), TIMEOUT)
        done = time.monotonic()
        if status != 201:
            raise ValueError(f"write: status {status}: {data[:200]!r}")
        version = json.loads(data)["table"]["version"]
        res.writes.append((table, done, version))
        res.write_latencies.append(done - sent)
    except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, KeyError) as err:
        res.errors.append(("write", table, repr(err)))
    finally:
        conn.close()


def targets(city: City) -> dict[str, int]:
    out = {"nginx": city.proxy_port}
    out.update({f"server{i + 1}": port for i, port in enumerate(city.ports)})
    return out


def drive(city: City, seconds: float, interval: float, writes: bool = True,
          seed: int = 26, warm: float = 0.0, on_mark=None, tables: int | None = None,
          quiet: float = 0.0) -> Result:
    """Poll every table from every target every ``interval`` s for ``seconds``; with
    ``writes``, one hand on each table at a random moment between 10 % and 60 % of the run
    (so each write is followed by polls of each target: :meth:`Result.stale` checks the
    first). With ``warm``: the first ``warm`` seconds poll only (each viewer's first answer
    is a 200, a full read), the run's ``seconds`` come after them, writes in them, and
    ``on_mark()`` is called at their start and end (``Result.marks``). ``tables``: the
    first so many tables only. ``quiet``: the first so many seconds of the run have no
    write (and one more mark at their end; ``Result.quiet_latencies``)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 4 * city.n_tables * (1 + len(city.ports)) + 1000)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    random.seed(seed)
    res = Result()

    async def mark(at):
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        if on_mark is not None:
            res.marks.append(on_mark())

    async def main():
        start = time.monotonic() + 0.2
        measure_from = start + warm
        quiet_until = measure_from + quiet
        end = measure_from + seconds
        tasks = [asyncio.create_task(_viewer(city, t, name, port, interval, start, end, res,
                                             measure_from, quiet_until))
                 for t in range(tables or city.n_tables)
                 for name, port in targets(city).items()]
        if writes:
            tasks += [asyncio.create_task(_writer(
                city, t, quiet_until + (seconds - quiet) * (0.1 + 0.5 * random.random()), res,
                city.proxy_port)) for t in range(tables or city.n_tables)]
        tasks += [asyncio.create_task(mark(at)) for at in
                  ((measure_from, quiet_until, end) if quiet else (measure_from, end))]
        await asyncio.gather(*tasks)

    asyncio.run(main())
    return res
