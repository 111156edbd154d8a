"""The production shape: deploy/nginx.conf in front of a real gunicorn.

Starts Debian's nginx (/usr/sbin/nginx) with the shipped config — only the listen port, the
upstream address, the server name and the static path substituted — in front of gunicorn
with gunicorn.conf.py and two sync workers, both on 127.0.0.1 ephemeral ports. Then:

* 50 slow clients (25 trickling their headers, 25 a POST body, a byte at a time) are held
  open while ``/healthz`` is asked 100 times: every answer 200, and every slow client still
  connected. Without the buffering proxy two slow bodies would hold both sync workers and
  ``/healthz`` would hang until gunicorn's worker timeout: the request's socket timeout (5 s)
  catches that hang as an error. No latency is asserted here (speed lives in bench/).
* a body over the app's 16 KB cap is refused by nginx with the app's own JSON error;
* the imports pass nginx up to the app's own caps (a real 100-evening circle export: 201),
  and past them nginx answers exactly the app's JSON 413, in the reader's language; the same
  through deploy/nginx-city.conf (its three upstream servers all one gunicorn here);
* an unknown ``Host`` gets no answer from nginx, and none but a 400 from the app itself
  (``/static//x`` used to redirect to whatever host was sent);
* nginx's access log (the shipped ``log_format``) holds no edit or view token;
* with ``WEBCALC_TRUSTED_PROXIES=1``, two clients get separate creation caps. The clients
  really have different addresses: Linux answers all of 127.0.0.0/8 on loopback, so one
  connects from 127.0.0.2 and the other from 127.0.0.3, and nginx's ``$remote_addr`` differs
  without any header the test sends being trusted. A client's own ``X-Forwarded-For`` is
  sent too, to show it changes nothing (nginx appends the address it saw; the app takes the
  last value).

Skipped when nginx is not installed, except under CI=true, where that is a failure.
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest

pytestmark = [pytest.mark.serial, pytest.mark.server]

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
SLOW_CLIENTS = 50
#: tables one client address may create per hour in this stack (LEDGER_TABLES_PER_HOUR)
CAP = 2
ACCESS_LOG = "/var/log/nginx/webcalc.access.log"
#: Debian's libnginx-mod-http-brotli-filter (.ci/run installs it); deploy/nginx-brotli.conf is
#: then included, as the shipped config's comment says
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so")
BROTLI_SNIPPETS = "/etc/nginx/snippets/webcalc-brotli*.conf"


class Stack(NamedTuple):
    proxy_port: int
    app_port: int
    dir: Path

    @property
    def access_log(self) -> Path:
        return self.dir / "access.log"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(port: int, proc: subprocess.Popen, log: Path, path: str = "/healthz",
               timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"exited with {proc.returncode}: {log.read_text()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port}")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def nginx_conf(tmp: Path, listen: int, upstream: int) -> Path:
    """The shipped site config, wrapped in a minimal main config for a private instance."""
    site = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    for old, new in (("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};"),
                     ("listen 80 default_server;", f"listen 127.0.0.1:{listen} default_server;"),
                     ("listen 80;", f"listen 127.0.0.1:{listen};"),
                     ("server_name calc.example.com;", "server_name 127.0.0.1 localhost;"),
                     ("/srv/webcalc/static/", f"{ROOT / 'static'}/"),
                     (ACCESS_LOG, str(tmp / "access.log")),
                     (BROTLI_SNIPPETS, str(tmp / "snippets" / "webcalc-brotli*.conf"))):
        assert old in site, f"deploy/nginx.conf no longer has {old!r}"
        site = site.replace(old, new)
    (tmp / "site.conf").write_text(site, encoding="utf-8")
    (tmp / "snippets").mkdir(exist_ok=True)
    load = ""
    if BROTLI_MODULE.exists():
        load = f"load_module {BROTLI_MODULE};\n"
        (tmp / "snippets" / "webcalc-brotli.conf").write_text(
            (ROOT / "deploy" / "nginx-brotli.conf").read_text(encoding="utf-8"), encoding="utf-8")
    user = "user root;\n" if os.geteuid() == 0 else ""   # CI runs as root; workers stay root
    main = f"""{load}{user}worker_processes 1;
pid {tmp}/nginx.pid;
error_log stderr warn;
events {{ worker_connections 1024; }}
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


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """:class:`Stack`: nginx and gunicorn running until the module's tests are done; the app
    on its own SQLite file, behind one trusted proxy, with a creation cap of :data:`CAP`."""
    with _running(tmp_path_factory.mktemp("proxy"), nginx_conf) as made:
        yield made


@pytest.fixture(scope="module")
def city_stack(tmp_path_factory):
    """As :func:`stack`, with deploy/nginx-city.conf in front (its three upstream servers all
    the one gunicorn: what is tested here is nginx's side of each request)."""
    from tests.city import nginx_city_conf

    with _running(tmp_path_factory.mktemp("city-proxy"),
                  lambda tmp, listen, app: nginx_city_conf(tmp, listen, [app] * 3)) as made:
        yield made


@contextlib.contextmanager
def _running(tmp: Path, conf_of):
    """gunicorn, then nginx with the config ``conf_of(tmp, listen port, app port)`` writes:
    the :class:`Stack` while the block runs, both stopped after."""
    if NGINX is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is not installed: .ci/run installs Debian's nginx for this test")
        pytest.skip("nginx is not installed (apt-get install nginx); CI installs it and runs this")
    app_port, proxy_port = _free_port(), _free_port()
    env = dict(os.environ, BIND=f"127.0.0.1:{app_port}", WEB_CONCURRENCY="2",
               LOG_LEVEL="warning", WEBCALC_SECRET_KEY="proxy-test",
               DATABASE_URL=f"sqlite:///{tmp}/ledger.sqlite3",
               LEDGER_TABLES_PER_HOUR=str(CAP), WEBCALC_TRUSTED_PROXIES="1")
    env.pop("GUNICORN_CONTROL_SOCKET", None)
    env.pop("WEBCALC_TRUSTED_HOSTS", None)
    app_log, proxy_log = tmp / "gunicorn.log", tmp / "nginx.log"
    with app_log.open("w") as err:
        gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"),
             "--access-logfile", "/dev/null", "webcalc:create_app()"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
    nginx = None
    try:
        _wait_http(app_port, gunicorn, app_log)
        conf = conf_of(tmp, proxy_port, app_port)
        check = subprocess.run([NGINX, "-t", "-p", str(tmp), "-c", str(conf)],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        with proxy_log.open("w") as err:
            nginx = subprocess.Popen(
                [NGINX, "-p", str(tmp), "-c", str(conf), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=err)
        _wait_http(proxy_port, nginx, proxy_log)
        yield Stack(proxy_port, app_port, tmp)
    finally:
        if nginx is not None:
            _stop(nginx)
        _stop(gunicorn)


def _request(port: int, method: str, path: str, body: bytes | None = None,
             headers: dict | None = None, source: str | None = None, timeout: float = 10
             ) -> tuple[int, dict, bytes]:
    """One request on a new connection; ``source``: the client's own loopback address."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def _slow_client(port: int, kind: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if kind == "headers":                 # slowloris: the header block never ends
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    else:                                 # a whole header, then a body that hardly comes
        s.sendall(b"POST /api/v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{")
    return s


def test_healthz_answers_under_50_slow_clients(stack):
    proxy_port = stack.proxy_port
    slow = [_slow_client(proxy_port, "headers" if i % 2 else "body")
            for i in range(SLOW_CLIENTS)]
    try:
        statuses = set()
        for i in range(100):
            if i % 10 == 0:               # keep every slow client trickling
                for s in slow:
                    s.sendall(b"a")
            # a hang (a worker held by a slow client) raises TimeoutError here
            status, _, body = _request(proxy_port, "GET", "/healthz", timeout=5)
            statuses.add(status)
            assert json.loads(body) == {"status": "ok"}
        # every slow client is still connected (nobody was dropped to make room)
        for s in slow:
            s.sendall(b"a")
    finally:
        for s in slow:
            s.close()
    assert statuses == {200}


def test_analysis_through_the_proxy(stack):
    proxy_port = stack.proxy_port
    body = json.dumps({"variant": "zhengzhou", "options": {"wildcard": False},
                       "hand": "123m456p789s1122z"}).encode()
    status, headers, data = _request(proxy_port, "POST", "/api/v1/analyze", body,
                                     {"Content-Type": "application/json"})
    assert status == 200, data
    assert [w["tile"] for w in json.loads(data)["waits"]] == ["1z", "2z"]
    assert headers.get("Server") == "nginx"            # server_tokens off: no version
    status, headers, data = _request(proxy_port, "GET", "/static/vendor/htmx.min.js")
    assert status == 200 and "javascript" in headers["Content-Type"]


def test_body_over_16_kb_refused_by_nginx_in_the_apps_words(stack):
    proxy_port = stack.proxy_port
    status, headers, data = _request(proxy_port, "POST", "/api/v1/analyze", b"x" * 20000,
                                     {"Content-Type": "application/json"})
    assert status == 413
    assert json.loads(data)["error"]["code"] == "too_large"
    status, _, data = _request(proxy_port, "POST", "/", b"x" * 20000,
                               {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 413 and "16 KB" in data.decode()


def test_an_import_over_16_kb_passes_nginx_up_to_2_mb(stack, tmp_path):
    """nginx's 16 KB cap held every import too (the app takes 2 MB there): an export of a
    60-hand table could not be imported behind the shipped config."""
    from webcalc.ledger import Ledger

    ledger = Ledger(f"sqlite:///{tmp_path}/export.sqlite3", migrate_lazily=True)
    try:
        made = ledger.create_table({"variant": "zhengzhou"})
        for _ in range(60):
            ledger.record(made.edit_token, {"hand": "123m456p789s11122z", "winning_tile": "2z",
                                            "win_by": "self_draw",
                                            "settlement": {"winner": 1, "pao": [1, 2, 0, 3]}})
        export = json.dumps(ledger.export_table(made.edit_token)).encode()
    finally:
        ledger.dispose()
    assert 16 * 1024 < len(export) < 2 * 1024 * 1024
    headers = {"Content-Type": "application/json"}
    status, _, data = _request(stack.proxy_port, "POST", "/api/v1/tables/import", export,
                               headers, source="127.0.0.4")
    assert status == 201, data[:300]
    assert len(json.loads(data)["table"]["hands"]) == 60
    big = b'{"pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    status, _, data = _request(stack.proxy_port, "POST", "/api/v1/tables/import", big,
                               headers, source="127.0.0.4")
    assert status == 413 and json.loads(data)["error"]["code"] == "too_large"
    assert "2048 KB" in json.loads(data)["error"]["message"]
    # the page's import form (multipart) goes through too; without its CSRF token the app
    # answers, not nginx: 400 from Flask-WTF rather than nginx's 413
    boundary = "wcboundary"
    form = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"t.json\"\r\nContent-Type: application/json\r\n\r\n").encode() \
        + export + f"\r\n--{boundary}--\r\n".encode()
    status, _, data = _request(stack.proxy_port, "POST", "/t/import", form,
                               {"Content-Type": f"multipart/form-data; boundary={boundary}"},
                               source="127.0.0.4")
    assert status == 400 and b"2048 KB" not in data


CIRCLE_IMPORT_MAX = 4 * 1024 * 1024          # webcalc.web.security.CIRCLE_IMPORT_MAX
WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw"}


@pytest.fixture(scope="module")
def circle_export(tmp_path_factory) -> bytes:
    """A real circle's export (``GET /api/v1/circles/<token>/export``): 100 evenings of 16
    entries each — wins with tiles, 跑, a 荒庄, a win without tiles, a fee, a correction —
    made and exported by the ledger itself."""
    from webcalc.ledger import Ledger

    evening = []
    for n in range(16):
        if n == 5:
            req: dict = {"settlement": {"winner": None}}
        elif n == 9:
            req = {"win_by": "self_draw", "settlement": {"winner": 2}, "declared": {}}
        elif n == 15:
            req = {"adjustment": {"fee": 20, "paid_by": n % 4, "note": "台费"}}
        else:
            req = {**WIN, "settlement": {"winner": n % 4, "pao": [n % 3, 0, 1, n % 2]}}
        e = {"number": n + 1, "kind": "adjustment" if "adjustment" in req else "hand",
             "request": req}
        if n == 3:
            e["revisions"] = [{"request": {**WIN, "settlement": {"winner": 1}}}]
        evening.append(e)
    doc = {"format": "webcalc-circle/1", "name": "周五牌友",
           "players": [{"id": i + 1, "name": f"牌友{i + 1}"} for i in range(6)],
           "tables": [{"players": [1 + k % 6, 1 + (k + 1) % 6, 1 + (k + 2) % 6,
                                   1 + (k + 3) % 6],
                       "table": {"format": "webcalc-ledger/1", "variant": "zhengzhou",
                                 "entries": evening}} for k in range(100)]}
    tmp = tmp_path_factory.mktemp("circle")
    ledger = Ledger(f"sqlite:///{tmp}/circle.sqlite3", migrate_lazily=True, tables_per_hour=0)
    try:
        made = ledger.import_circle(doc)
        return json.dumps(ledger.export_circle(made.view_token)).encode()
    finally:
        ledger.dispose()


@functools.cache
def _app_client():
    return create_app({"TESTING": True}).test_client()


def _the_apps_413(path: str, body: bytes, headers: dict) -> dict:
    """What the app itself answers to this too-large request (in-process)."""
    resp = _app_client().post(path, data=body, headers=headers)
    assert resp.status_code == 413
    return resp.get_json()


def _imports_pass_and_too_large_gets_the_apps_json(s: Stack, export: bytes, source: str):
    """A real 100-evening circle export imports through nginx (201); a body past the app's
    cap gets the app's own JSON 413 under /api/ (not nginx's HTML page), in the reader's
    language, and the page's import form reaches the app."""
    assert 16 * 1024 < len(export) < CIRCLE_IMPORT_MAX
    port = s.proxy_port
    json_type = {"Content-Type": "application/json"}
    status, _, data = _request(port, "POST", "/api/v1/circles/import", export, json_type,
                               source=source, timeout=60)
    assert status == 201, data[:300]
    assert len(json.loads(data)["circle"]["tables"]) == 100
    big = b'{"pad": "' + b"x" * CIRCLE_IMPORT_MAX + b'"}'
    small_big = b"x" * 20000
    for path, body, limit in (("/api/v1/circles/import", big, CIRCLE_IMPORT_MAX),
                              ("/api/v1/tables/import", big, 2 * 1024 * 1024),
                              ("/api/v1/analyze", small_big, 16 * 1024),
                              ("/api/v1/circles", small_big, 16 * 1024)):
        for lang in ({}, {"Accept-Language": "en-GB,en;q=0.9"}, {"Accept-Language": "zh-CN"}):
            headers = {**json_type, **lang}
            status, got, data = _request(port, "POST", path, body, headers, source=source)
            assert status == 413, (path, status, data[:200])
            assert got["Content-Type"].startswith("application/json"), (path, got)
            answer = json.loads(data)
            assert answer == _the_apps_413(path, body, headers), (path, lang)
            assert answer["error"]["detail"] == {"limit": "body_bytes", "max": limit}
    # the page's import (multipart) passes nginx: without its CSRF token the app answers 400
    boundary = "wcboundary"
    form = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"c.json\"\r\nContent-Type: application/json\r\n\r\n").encode() \
        + export + f"\r\n--{boundary}--\r\n".encode()
    page_type = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    status, _, data = _request(port, "POST", "/c/import", form, page_type, source=source)
    assert status == 400 and b"4096 KB" not in data
    status, got, data = _request(port, "POST", "/c/import", big, page_type, source=source)
    assert status == 413 and got["Content-Type"].startswith("text/html")
    assert "4096 KB" in data.decode()


def test_a_circle_import_passes_nginx_up_to_4_mb(stack, circle_export):
    """deploy/nginx.conf had no location for the circle imports: its 16 KB cap refused any
    real circle's export (five evenings are 21.5 KB) with a 413."""
    _imports_pass_and_too_large_gets_the_apps_json(stack, circle_export, "127.0.0.6")


def test_the_city_config_takes_the_imports_and_answers_413_in_json(city_stack, circle_export):
    """deploy/nginx-city.conf refused every import over 16 KB, and answered it with nginx's
    own HTML 413 under /api/."""
    _imports_pass_and_too_large_gets_the_apps_json(city_stack, circle_export, "127.0.0.6")


def test_both_configs_answer_a_too_large_body_alike():
    """deploy/nginx-city.conf carries deploy/nginx.conf's 413 answers line for line: the
    language maps, the named locations, and the import locations' sizes."""
    def block(text: str, start: str, end: str) -> str:
        at = text.index(start)
        return text[at:text.index(end, at) + len(end)]

    shipped = (ROOT / "deploy" / "nginx.conf").read_text("utf-8")
    city = (ROOT / "deploy" / "nginx-city.conf").read_text("utf-8")
    maps = ("# A body nginx refuses", '最多 4096 KB。";\n}\n')
    named = ("    # The 413s nginx answers itself", '"max":4194304}}}\';\n    }\n')
    assert block(city, *maps) == block(shipped, *maps)
    assert block(city, *named) == block(shipped, *named)
    for text in (shipped, city):
        for path, size, to in (("/api/v1/tables/import", "2m", "@too_large_2m_api"),
                               ("/t/import", "2m", "@too_large_2m_page"),
                               ("/api/v1/circles/import", "4m", "@too_large_4m_api"),
                               ("/c/import", "4m", "@too_large_4m_page")):
            at = text.index(f"location = {path} {{")
            body = text[at:text.index("}", at)]
            assert f"client_max_body_size {size};" in body and f"error_page 413 {to};" in body


def test_unknown_host_gets_no_answer(stack):
    proxy_port, app_port = stack.proxy_port, stack.app_port
    # nginx: the default server closes the connection (444) without a response
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        _request(proxy_port, "GET", "/static//x", headers={"Host": "evil.example"})
    # the app on its own refuses it too, and never redirects to it
    status, headers, _ = _request(app_port, "GET", "/static//x",
                                  headers={"Host": "evil.example"})
    assert status == 400 and "Location" not in headers
    status, headers, _ = _request(proxy_port, "GET", "/static//vendor/htmx.min.js")
    assert status == 200                                # nginx merges the slashes itself


def _create_table(port: int, source: str | None = None, forwarded: str | None = None):
    headers = {"Content-Type": "application/json"}
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    return _request(port, "POST", "/api/v1/tables", json.dumps({"variant": "zhengzhou"}).encode(),
                    headers, source=source)


def test_each_client_behind_nginx_has_its_own_creation_cap(stack):
    """Without the trusted proxy the app saw nginx's 127.0.0.1 for everyone: one client's
    tables used up every client's cap."""
    first, second = "127.0.0.2", "127.0.0.3"
    assert [_create_table(stack.proxy_port, first)[0] for _ in range(CAP)] == [201] * CAP
    status, headers, data = _create_table(stack.proxy_port, first)
    assert status == 429 and json.loads(data)["error"]["code"] == "rate_limited"
    assert int(headers["Retry-After"]) >= 1
    # naming another address itself does not help: nginx appends the one it saw
    for claimed in (second, "198.51.100.7", f"{second}, 198.51.100.7"):
        assert _create_table(stack.proxy_port, first, forwarded=claimed)[0] == 429, claimed
    # the other client still has its whole cap
    assert [_create_table(stack.proxy_port, second)[0] for _ in range(CAP)] == [201] * CAP
    assert _create_table(stack.proxy_port, second)[0] == 429


def _log_lines(path: Path, at_least: int) -> list[str]:
    """The access log's lines once it has ``at_least`` (nginx writes a line when it has sent
    the answer, a moment after the client read it)."""
    deadline = time.monotonic() + 10
    while True:
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        if len(lines) >= at_least or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def _settled_length(path: Path) -> int:
    """How many lines the access log has once the earlier tests' last lines are written
    (nginx writes a line a moment after the client read the answer): unchanged for 0.3 s."""
    count, still = len(_log_lines(path, 0)), time.monotonic()
    while time.monotonic() - still < 0.3:
        time.sleep(0.05)
        now = len(_log_lines(path, 0))
        if now != count:
            count, still = now, time.monotonic()
    return count


def _new_table(port: int, address: str) -> tuple[str, str]:
    """A table made through the proxy from ``address``: its edit and view tokens."""
    status, _, data = _create_table(port, address)
    assert status == 201, data
    made = json.loads(data)
    return made["edit_token"], made["view_token"]


def test_nginx_access_log_holds_no_token(stack):
    port = stack.proxy_port
    before = _settled_length(stack.access_log)
    edit, view = _new_table(port, "127.0.0.4")
    page = f"http://127.0.0.1:{port}/t/{edit}"
    status, _, data = _request(port, "POST", f"/api/v1/tables/{edit}/hands",
                               json.dumps({"settlement": {"winner": None}}).encode(),
                               {"Content-Type": "application/json"})
    assert status == 201, data
    paths = [f"/t/{edit}", f"/t/{view}", f"/t/{edit}/live", f"/t/{view}/live?part=top",
             f"/t/{view}/export.csv", f"/t/{edit}/chart.svg", f"/api/v1/tables/{edit}",
             f"/api/v1/tables/{view}/export", f"/t/{edit}?correct=1&s_winner=none"]
    for path in paths:
        status, headers, _ = _request(port, "GET", path, headers={"Referer": page})
        assert status == 200, path
        assert headers["Cache-Control"] == "no-store", path        # through nginx too
    # 记入牌桌's pasted link: the edit link, percent-encoded in the query of /t/send
    pasted = "/t/send?hand=1m&table=http%3A%2F%2F127.0.0.1%2Ft%2F" + edit
    status, headers, _ = _request(port, "GET", pasted)
    assert status == 303 and headers["Cache-Control"] == "no-store"
    # the server for unknown hosts logs what it closes, redacted too
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        _request(port, "GET", f"/t/{edit}", headers={"Host": "evil.example"})
    lines = _log_lines(stack.access_log, before + len(paths) + 4)[before:]
    assert len(lines) == len(paths) + 4, lines
    log = "\n".join(lines)
    assert edit not in log and view not in log
    assert '"POST /api/v1/tables HTTP/1.1" 201' in log
    assert '"POST /api/v1/tables/[redacted]/hands HTTP/1.1" 201' in log
    assert '"GET /t/[redacted] HTTP/1.1" 200' in log
    assert '"GET /t/[redacted]/live?part=top HTTP/1.1" 200' in log
    assert '"GET /t/[redacted]?correct=1&s_winner=none HTTP/1.1" 200' in log
    assert '"GET /api/v1/tables/[redacted]/export HTTP/1.1" 200' in log
    assert '"GET /t/[redacted] HTTP/1.1" 444' in log
    assert '"GET /t/send?hand=1m&table=[redacted] HTTP/1.1" 303' in log
    assert log.count(f'"http://127.0.0.1:{port}/t/[redacted]"') == len(paths)   # Referer
    assert all(line.startswith("127.0.0.") for line in lines)   # still says who asked


def _leaks(log: str, tokens) -> list[str]:
    """The tokens the log shows, as sent (whole or a character percent-encoded) or decoded."""
    from urllib.parse import unquote

    texts = (log, unquote(log), unquote(unquote(log)))
    return [t for t in tokens if any(t in x for x in texts) or
            "".join(f"%{ord(c):02x}" for c in t) in log.lower()]


@pytest.mark.parametrize("which", ["stack", "city_stack"])
def test_nginx_access_log_hides_encoded_repeated_and_referer_tokens(which, request):
    """A token percent-encoded (``%55`` for ``U``) opens the table and was logged as sent;
    nginx also kept the first of two ``table=`` values, a ``tab%6Ce=`` value, a token after
    ``%2F`` and the tokens in a Referer's query. Both shipped configs."""
    s = request.getfixturevalue(which)
    port = s.proxy_port
    before = _settled_length(s.access_log)
    edit, view = _new_table(port, "127.0.0.7")
    one = edit[:5] + f"%{ord(edit[5]):02X}" + edit[6:]
    every = "".join(f"%{ord(c):02x}" for c in view)
    link = f"http%3A%2F%2F127.0.0.1%2Ft%2F{edit}"
    opened = [f"/t/{one}", f"/t/{every}", f"/api/v1/tables/{one}", f"/t%2F{view}",
              f"/t/{one}/live?part=top"]
    for path in opened:                             # (a loaded machine: a first page is slow)
        status, _, _ = _request(port, "GET", path, timeout=30)
        assert status == 200, path                  # each of these opens the table
    sent = [f"/t/send?table={view}&table={link}", f"/t/send?hand=1m&tab%6Ce={link}&%74able={one}",
            f"/t/{edit}/{view}/{edit}/x"]
    for path in sent:
        _request(port, "GET", path, timeout=30)
    referers = [f"http://127.0.0.1:{port}/t/send?hand=1m&table={link}&table={view}",
                f"http://127.0.0.1:{port}/?next=%2Ft%2F{one}",
                f"http://127.0.0.1:{port}/a/{edit}/{view}/{one}/{edit}?x=1"]
    for ref in referers:
        status, _, _ = _request(port, "GET", "/healthz", headers={"Referer": ref}, timeout=30)
        assert status == 200
    lines = _log_lines(s.access_log, before + 1 + len(opened) + len(sent) + len(referers))
    log = "\n".join(lines[before:])
    assert log.count("\n") + 1 == 1 + len(opened) + len(sent) + len(referers), log
    assert _leaks(log, [edit, view, one]) == [], log
    assert '"GET /t/[redacted] HTTP/1.1" 200' in log
    assert '"GET /t/[redacted]/live?part=top HTTP/1.1" 200' in log
    assert all(line.startswith("127.0.0.") for line in lines[before:])


def test_session_cookie_through_nginx(stack):
    """SameSite=Lax; not Secure over plain http, even when the client claims https: nginx
    replaces X-Forwarded-Proto with its own scheme."""
    status, _, data = _create_table(stack.proxy_port, "127.0.0.5")
    edit = json.loads(data)["edit_token"]
    for claim in (None, "https"):
        hdrs = {"X-Forwarded-Proto": claim} if claim else {}
        # a table page sets no cookie: its forms prove themselves with the table's token
        # (issue 35, docs/decisions.md "Forms without a session cookie")
        status, headers, _ = _request(stack.proxy_port, "GET", f"/t/{edit}", headers=hdrs)
        assert status == 200
        assert "Set-Cookie" not in headers
        assert headers["X-Robots-Tag"].startswith("noindex")
        assert headers["Referrer-Policy"] == "no-referrer"
        # the circles' forms still keep Flask-WTF's session token
        status, headers, _ = _request(stack.proxy_port, "GET", "/c/new", headers=hdrs)
        assert status == 200
        cookie = headers["Set-Cookie"]
        attrs = {a.strip().lower() for a in cookie.split(";")[1:]}
        assert {"httponly", "samesite=lax"} <= attrs and "secure" not in attrs, cookie


# -- compression and caching through nginx ------------------------------------------------

#: result pages as a table uses them (canonical URLs): 13 tiles with waits, a win with its
#: settlement, a 14-tile hand with its 牌理 panel, the English page, 盘锦 with wildcards and
#: many readings, a 盘锦 discard win settled (the heaviest seen: 62 KB of HTML)
RESULT_PAGES = [
    "/?variant=zhengzhou&hand=123m456p789s1112z",
    "/?variant=zhengzhou&hand=123m456p789s11222z&winning_tile=2z&s_winner=0",
    "/?variant=zhengzhou&hand=123m456p789s11234z",
    "/?variant=panjin&hand=123m456p789s1112z&lang=en",
    "/?variant=panjin&hand=1122335566778m&indicator=4m",
    "/?variant=panjin&hand=123m456p789s11222z&indicator=4m&winning_tile=2z&win_by=discard"
    "&s_winner=1&s_discarder=2",
]
PAGE_WEIGHT_MAX = 10 * 1024


def _weights(port: int, path: str) -> dict[str, int]:
    sizes = {}
    for encoding in ("identity", "gzip", "br"):
        if encoding == "br" and not BROTLI_MODULE.exists():
            continue
        status, headers, data = _request(port, "GET", path, headers={"Accept-Encoding": encoding})
        assert status == 200, (path, status)
        assert headers.get("Content-Encoding", "identity") == encoding, (path, encoding, headers)
        assert "Accept-Encoding" in headers.get("Vary", ""), path
        sizes[encoding] = len(data)
    return sizes


def test_result_pages_weigh_at_most_10_kb_compressed(stack, capsys):
    """Through the shipped config: gzip (and brotli where the module is installed)."""
    if os.environ.get("CI") == "true":
        assert BROTLI_MODULE.exists(), ".ci/run installs libnginx-mod-http-brotli-filter"
    rows = []
    for path in RESULT_PAGES:
        sizes = _weights(stack.proxy_port, path)
        rows.append((path, sizes))
        assert sizes["gzip"] <= PAGE_WEIGHT_MAX, (path, sizes)
        assert sizes.get("br", 0) <= PAGE_WEIGHT_MAX, (path, sizes)
        assert sizes["identity"] > 3 * sizes["gzip"], (path, sizes)
    with capsys.disabled():
        for path, sizes in rows:
            print(f"\n  page weight {path}: " + ", ".join(f"{k} {v:,} B" for k, v in sizes.items()),
                  end="")
        print()


def test_static_files_through_nginx_fingerprinted_immutable_and_compressed(stack):
    port = stack.proxy_port
    status, headers, page = _request(port, "GET", "/")
    assert status == 200 and headers["Cache-Control"] == "public, max-age=600"
    css = next(u for u in __import__("re").findall(r'href="(/static/[^"]+\.css)"', page.decode()))
    status, headers, data = _request(port, "GET", css, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Type"].startswith("text/css")
    import gzip as _gzip
    assert _gzip.decompress(data) == (ROOT / "static" / "css" / "app.css").read_bytes()
    status, headers, _ = _request(port, "GET", "/static/css/app.css")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    # the service worker and the manifest come from the app, at the root
    status, headers, body = _request(port, "GET", "/sw.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert headers["Cache-Control"] == "no-cache" and css.encode() in body
    status, headers, _ = _request(port, "GET", "/manifest.webmanifest")
    assert status == 200 and headers["Content-Type"].startswith("application/manifest+json")


# -- the Host check in the app alone (no nginx needed) -------------------------------------

from webcalc import create_app  # noqa: E402
from webcalc.web.security import LOCAL_HOSTS, trusted_hosts  # noqa: E402


@pytest.mark.parametrize("host", ["evil.example", "localhost.evil.example", "127.0.0.2"])
def test_forged_host_is_refused_not_redirected_to(client, host):
    resp = client.get("/static//x", headers={"Host": host})
    assert resp.status_code == 400
    assert "Location" not in resp.headers
    assert client.get("/", headers={"Host": host}).status_code == 400


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8000", "localhost:5000"])
def test_loopback_hosts_answered_by_default(client, host):
    resp = client.get("/static//x", headers={"Host": host})
    assert resp.status_code == 308
    assert resp.headers["Location"] == f"http://{host}/static/x"


@pytest.mark.parametrize("host", ["LOCALHOST", "LocalHost:5000", "127.0.0.1:8000"])
def test_host_names_compare_without_case(client, host):
    """Host names are case-insensitive (RFC 3986, 3.2.2): ``Host: LOCALHOST`` is localhost
    (it was a 400), and what the app builds from it is in lower case."""
    resp = client.get("/static//x", headers={"Host": host})
    assert resp.status_code == 308
    assert resp.headers["Location"] == f"http://{host.lower()}/static/x"
    assert client.get("/healthz", headers={"Host": host}).status_code == 200
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_trusted_hosts_from_the_environment_compare_without_case(monkeypatch):
    assert trusted_hosts({"WEBCALC_TRUSTED_HOSTS": "Calc.Example.COM, .Example.org"}) == [
        "calc.example.com", ".example.org"]
    monkeypatch.setenv("WEBCALC_TRUSTED_HOSTS", "Calc.Example.COM,.example.org")
    client = create_app({"TESTING": True}).test_client()
    for host in ("calc.example.com", "CALC.example.com:443", "M.Example.ORG"):
        assert client.get("/healthz", headers={"Host": host}).status_code == 200, host
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    assert client.get("/", headers={"Host": "EVIL.example"}).status_code == 400


def test_trusted_hosts_from_the_environment(monkeypatch):
    assert trusted_hosts({}) == list(LOCAL_HOSTS)
    assert trusted_hosts({"WEBCALC_TRUSTED_HOSTS": " calc.example.com, .example.org "}) == [
        "calc.example.com", ".example.org"]
    assert trusted_hosts({"WEBCALC_TRUSTED_HOSTS": "*"}) is None
    monkeypatch.setenv("WEBCALC_TRUSTED_HOSTS", "calc.example.com,.example.org")
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/healthz", headers={"Host": "calc.example.com"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "m.example.org"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "localhost"}).status_code == 400
