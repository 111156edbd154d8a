"""Issue 7: limits, security headers, CSRF, the secret key, serving, error pages, and fuzzing of
the JSON API and the page's query parameters (never a 500; coded errors naming the field;
the page keeps what was typed)."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import threading
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flask import render_template_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from tests.scale import examples
from webcalc import create_app
from webcalc.errors import CODES
from webcalc.variants import VARIANTS
from webcalc.web import security

API = "/api/v1/analyze"
CHINESE = re.compile(r"[\u4e00-\u9fff]")
READY = {"variant": "zhengzhou", "hand": "123m456p789s1112z"}


# --- headers ------------------------------------------------------------------------------

@pytest.mark.parametrize("method, path, kwargs", [
    ("get", "/", {}),
    ("get", "/?variant=zhengzhou&hand=123m456p789s1112z", {}),
    ("get", "/static/css/app.css", {}),
    ("get", "/static/vendor/htmx.min.js", {}),
    ("get", "/healthz", {}),
    ("get", "/no-such-page", {}),
    ("post", API, {"json": READY}),
    ("post", API, {"data": b"{"}),
    ("get", API, {}),
])
def test_security_headers_on_every_response(client, method, path, kwargs):
    resp = getattr(client, method)(path, **kwargs)
    resp.close()                                    # static files are streamed
    h = resp.headers
    assert h["X-Content-Type-Options"] == "nosniff"
    assert h["Referrer-Policy"] in ("same-origin", "no-referrer", "strict-origin")
    assert h["X-Frame-Options"] == "DENY"
    csp = {d.split()[0]: d.split()[1:] for d in h["Content-Security-Policy"].split(";") if d.strip()}
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]          # no 'unsafe-inline', no 'unsafe-eval'
    assert csp["style-src"] == ["'self'"]           # no inline style attributes either
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"] and csp["form-action"] == ["'self'"]


def test_pages_have_no_inline_script_or_style(client):
    html = client.get("/?variant=panjin&hand=123m456p789s11122z").get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script>"
    assert not re.search(r"\sstyle=", html), "inline style attribute"
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"
    assert "hx-on" not in html and "js:" not in html   # htmx would need eval for these


# --- limits -------------------------------------------------------------------------------

def test_17_kb_api_body_is_json_413(client):
    body = json.dumps({"variant": "zhengzhou", "hand": "1" * (17 * 1024)}).encode()
    assert len(body) > security.BODY_MAX
    resp = client.post(API, data=body, content_type="application/json")
    assert resp.status_code == 413
    err = resp.get_json()["error"]
    assert err["code"] == "too_large" and CHINESE.search(err["message"])


def test_body_just_under_the_cap_is_read(client):
    body = json.dumps({**READY, "visible": " " * (security.BODY_MAX - 100)}).encode()
    assert len(body) <= security.BODY_MAX
    resp = client.post(API, data=body, content_type="application/json")
    assert resp.status_code == 400                  # read, and refused for its content
    assert resp.get_json()["error"]["field"] == "visible"


def _chunked(app, data: bytes):
    """POST ``data`` as a server that de-chunks a body would hand it over: no Content-Length,
    ``Transfer-Encoding: chunked`` and ``wsgi.input_terminated`` (gunicorn, werkzeug)."""
    import io

    return app.test_client().post(API, input_stream=io.BytesIO(data),
                                  headers={"Transfer-Encoding": "chunked"},
                                  environ_overrides={"wsgi.input_terminated": True})


def test_chunked_body_over_the_cap_is_413_not_a_cut_off_body(app):
    """Werkzeug alone would pass the first 16 KB on as the whole body (→ bad_json)."""
    data = json.dumps({**READY, "visible": " " * security.BODY_MAX}).encode()
    resp = _chunked(app, data)
    assert resp.status_code == 413
    assert resp.get_json()["error"]["code"] == "too_large"


def test_chunked_body_under_the_cap_is_analysed(app):
    resp = _chunked(app, json.dumps(READY).encode())
    assert resp.status_code == 200
    assert [(w["tile"], w["remaining"]) for w in resp.get_json()["waits"]] == [("2z", 3)]


def test_unreadable_body_is_400_not_500(app):
    """gunicorn raises its own errors while a broken chunked body is read."""
    import io

    from gunicorn.http.errors import InvalidChunkSize

    class Broken(io.BytesIO):
        def read(self, *args):
            raise InvalidChunkSize(b"zz")

        readline = readinto = read

    resp = app.test_client().post(API, input_stream=Broken(),
                                  headers={"Transfer-Encoding": "chunked"},
                                  environ_overrides={"wsgi.input_terminated": True})
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "bad_request"


def test_large_body_elsewhere_is_a_friendly_413_page(client):
    resp = client.post("/", data=b"x" * (17 * 1024), content_type="application/octet-stream")
    assert resp.status_code == 413
    assert resp.mimetype == "text/html"
    assert "请求太大了" in resp.get_data(as_text=True)


def test_config_caps_request_bodies(app):
    assert app.config["MAX_CONTENT_LENGTH"] == security.BODY_MAX == 16 * 1024


def test_overlong_query_string_is_a_friendly_414(client):
    resp = client.get("/?" + urlencode({"variant": "zhengzhou", "hand": "一" * 1000}))
    assert resp.status_code == 414
    assert resp.mimetype == "text/html"
    assert "网址太长" in resp.get_data(as_text=True)


def test_longest_real_page_url_is_not_refused(client):
    """Every text field at its cap, typed in Chinese, fits under the query cap."""
    query = urlencode({"variant": "zhengzhou", "hand": "一" * 200, "melds": "碰" * 200,
                       "indicator": "西" * 20, "visible": "五" * 200, "winning_tile": "东" * 20,
                       "n0": "东" * 12, "n1": "南" * 12, "n2": "西" * 12, "n3": "北" * 12})
    assert len(query) < security.QUERY_MAX
    resp = client.get("/?" + query, headers={"HX-Request": "true"})
    assert resp.status_code == 422


# --- serving: healthz, error pages ----------------------------------------------------------

def test_healthz(client):
    resp = client.get("/healthz")
    assert resp.status_code == 200
    assert resp.get_json() == {"status": "ok"}
    assert resp.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("method, path, status, code", [
    ("get", "/api/v1/nothing", 404, "not_found"),
    ("post", "/api/v2/analyze", 404, "not_found"),
    ("get", API, 405, "method_not_allowed"),
    ("put", API, 405, "method_not_allowed"),
])
def test_api_errors_are_json(client, method, path, status, code):
    resp = getattr(client, method)(path)
    assert resp.status_code == status
    assert resp.is_json
    err = resp.get_json()["error"]
    assert err["code"] == code and CHINESE.search(err["message"])
    if status == 405:
        assert "POST" in resp.headers["Allow"]


@pytest.mark.parametrize("method, path, status, text", [
    ("get", "/no-such-page", 404, "没有这个页面"),
    ("post", "/", 405, "不支持这种请求方法"),
    ("delete", "/healthz", 405, "不支持这种请求方法"),
])
def test_page_errors_are_friendly_chinese_html(client, method, path, status, text):
    resp = getattr(client, method)(path)
    assert resp.status_code == status
    assert resp.mimetype == "text/html"
    assert text in resp.get_data(as_text=True)
    assert "回到计算器" in resp.get_data(as_text=True)


def test_unhandled_exception_is_a_coded_500_json_or_page():
    app = create_app({"TESTING": True, "PROPAGATE_EXCEPTIONS": False})

    @app.get("/api/v1/boom")
    def api_boom():
        raise RuntimeError("boom")

    @app.get("/boom")
    def page_boom():
        raise RuntimeError("boom")

    app.logger.disabled = True
    client = app.test_client()
    resp = client.get("/api/v1/boom")
    assert resp.status_code == 500
    assert resp.get_json()["error"]["code"] == "internal"
    resp = client.get("/boom")
    assert resp.status_code == 500 and resp.mimetype == "text/html"
    assert "服务器出错了" in resp.get_data(as_text=True)
    assert resp.headers["X-Frame-Options"] == "DENY"


def test_gunicorn_config():
    import runpy

    conf = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))
    assert conf["bind"] == os.environ.get("BIND") or conf["bind"].startswith("127.0.0.1:")
    assert 1 <= conf["workers"] <= 8 or os.environ.get("WEB_CONCURRENCY")
    assert conf["timeout"] > 0 and conf["graceful_timeout"] > 0
    assert conf["max_requests"] > 0 and conf["max_requests_jitter"] > 0
    assert conf["accesslog"] == "-"
    assert conf["limit_request_line"] >= security.QUERY_MAX + len("GET /? HTTP/1.1")


# --- CSRF ---------------------------------------------------------------------------------

@pytest.fixture()
def post_app():
    """The real app plus a POST form view, as a future POST form would be."""
    app = create_app({"TESTING": True})

    @app.route("/t/form", methods=["GET", "POST"])
    def form_view():
        from flask import request

        if request.method == "POST":
            return "saved"
        return render_template_string('<form method="post"><input type="hidden" '
                                      'name="csrf_token" value="{{ csrf_token() }}"></form>')

    return app


def test_post_form_without_csrf_token_is_refused(post_app):
    resp = post_app.test_client().post("/t/form", data={"x": "1"})
    assert resp.status_code == 400
    assert resp.mimetype == "text/html"
    assert "安全令牌" in resp.get_data(as_text=True)


def test_post_form_with_csrf_token_passes(post_app):
    client = post_app.test_client()
    html = client.get("/t/form").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    assert client.post("/t/form", data={"csrf_token": token}).get_data(as_text=True) == "saved"
    # htmx requests carry it as a header (hx-headers:inherited on <body>, WEB-NOTES)
    assert client.post("/t/form", headers={"X-CSRFToken": token}).status_code == 200


def test_json_api_is_csrf_exempt(post_app):
    """No cookie and no session authenticate the API, so there is nothing to forge."""
    resp = post_app.test_client().post(API, json=READY)
    assert resp.status_code == 200
    assert "Set-Cookie" not in resp.headers


def test_page_sets_no_cookie(client):
    assert "Set-Cookie" not in client.get("/?variant=zhengzhou&hand=123m456p789s1112z",
                                          follow_redirects=True).headers


# --- the secret key -----------------------------------------------------------------------

def test_secret_key_from_environment(monkeypatch):
    monkeypatch.setenv("WEBCALC_SECRET_KEY", "from-env")
    assert create_app({"TESTING": True}).secret_key == "from-env"


def _key_in(path: str, queue) -> None:
    queue.put(security._shared_key(Path(path)))


def test_instance_key_is_made_once_and_shared_by_racing_workers(tmp_path):
    path = tmp_path / "instance" / "secret_key"
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_key_in, args=(str(path), queue)) for _ in range(8)]
    for p in procs:
        p.start()
    keys = {queue.get(timeout=20) for _ in procs}
    for p in procs:
        p.join(timeout=20)
    assert len(keys) == 1
    (key,) = keys
    assert len(key) == 64
    assert path.read_text().strip() == key
    assert (path.stat().st_mode & 0o777) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["secret_key"]   # no temp files
    assert security._shared_key(path) == key                                   # kept


def test_threads_agree_on_the_key_too(tmp_path):
    path = tmp_path / "secret_key"
    out: list[str] = []
    threads = [threading.Thread(target=lambda: out.append(security._shared_key(path)))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(out)) == 1


# --- fuzzing the JSON API -----------------------------------------------------------------

_app = create_app({"TESTING": True})

#: The Chinese (or API) name a message must contain for an error on each top-level field.
FIELD_NAMES = {
    "variant": ("玩法", "variant"), "hand": ("手牌", "hand"), "melds": ("副露", "melds"),
    "indicator": ("混皮", "indicator"), "visible": ("已见", "visible"),
    "winning_tile": ("和牌张", "winning_tile"), "options": ("选项", "options"),
    "settlement": ("结算", "settlement"),
    "win_by": ("胡法", "win_by"),
}

def _nested(value, depth: int):
    for _ in range(depth):
        value = [value]
    return value


# strings with lone surrogates and NUL too (st.text never makes a lone surrogate), the
# floats at the edges of a base's range, and now and then a value nested past the API's 32
# levels
_hostile_text = st.text(alphabet=st.characters(categories=["Cs"]) | st.sampled_from("\x00\x07")
                        | st.characters(), max_size=8)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e-300, 5e-324, 1e-11, 123456789.12345679, 1.7976931348623157e308])
    | st.text(max_size=20) | _hostile_text,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.text(max_size=10) | _hostile_text, inner, max_size=5),
    max_leaves=15,
) | st.sampled_from([33, 100, 400, 600]).map(lambda depth: _nested("1m", depth))
tile_text = st.text(alphabet="0123456789mpsz 东南西北中发白万筒条饼索一二三四五红风, ", max_size=24)
HANDS = ["123m456p789s1134z", "123m456p789s11122z", "123m456p789s1112z", "11223344556677z",
         "19m19p19s12345677z", "11123456789999m", "22m234p345s55566z", "5555m"]
hands = st.sampled_from(HANDS) | tile_text
seat = st.integers(-1, 4) | st.none() | json_values
settlement = st.fixed_dictionaries({}, optional={
    "base": st.integers(-3, 1000) | st.floats(-1e6, 1e6) | json_values,
    "dealer": seat, "winner": seat, "discarder": seat,
    "pao": st.lists(st.integers(-2, 6) | json_values, max_size=5) | json_values,
    "jiagang": st.lists(st.booleans() | json_values, max_size=5) | json_values,
    "ready": st.lists(st.booleans() | json_values, max_size=5) | json_values,
    "kongs": st.lists(st.fixed_dictionaries(
        {"seat": seat, "type": st.sampled_from(["exposed", "added", "concealed", "wildcard",
                                                "x"]) | json_values},
        optional={"from": seat}) | json_values, max_size=4) | json_values,
    "biao_discards": st.integers(-2, 10) | json_values,
    "follow_dealer": st.booleans() | json_values, "duanmen": st.booleans() | json_values,
    "kong_discard": st.booleans() | json_values, "other": json_values,
}) | json_values


def _option_keys() -> list[str]:
    import dataclasses

    from webcalc.variants import VARIANTS as ALL

    return sorted({f.name for v in ALL.values() for f in dataclasses.fields(v.Options)})


options = st.dictionaries(st.sampled_from(_option_keys()) | st.text(max_size=8),
                          st.booleans() | st.integers(-2, 10) | json_values, max_size=4) | json_values
meld = st.fixed_dictionaries(
    {"type": st.sampled_from(["pong", "chow", "kong", "added_kong", "concealed_kong", "x"])
     | json_values, "tiles": tile_text | json_values}, optional={"from": seat}) | json_values
api_body = st.fixed_dictionaries(
    {"variant": st.sampled_from(tuple(VARIANTS)) | json_values, "hand": hands | json_values},
    optional={"indicator": tile_text | json_values, "visible": tile_text | json_values,
              "melds": st.lists(meld, max_size=4) | json_values, "options": options,
              "winning_tile": st.sampled_from(["1m", "2z", "7z", "9s"]) | tile_text | json_values,
              "win_by": st.sampled_from(["self_draw", "discard", "kong_replacement",
                                         "robbing_kong", "x"]) | json_values,
              "settlement": settlement, "extra": json_values},
)


def check_api_answer(body, resp) -> None:
    assert resp.status_code in (200, 400), (body, resp.status_code, resp.get_data(as_text=True))
    assert resp.is_json
    if resp.status_code == 200:
        return
    err = resp.get_json()["error"]
    assert err["code"] in CODES | {"bad_json"}, err
    assert isinstance(err["message"], str) and CHINESE.search(err["message"]), err
    if err["code"] == "bad_json" and err["field"] is not None:   # a surrogate, or too deep
        assert err["field"][:40] in err["message"], err
        return
    if not isinstance(body, dict):
        assert err["code"] == "bad_json" and err["field"] is None
        return
    assert isinstance(err["field"], str), err          # "" for an unknown key ""
    # an unknown key is named as it is (it may hold a dot); else the path's first part
    top = err["field"] if err["field"] in body else re.split(r"[.\[]", err["field"])[0]
    assert top in body or top in ("variant", "hand"), (err, body)
    names = FIELD_NAMES.get(top, (top,))   # an unknown key: the message quotes it
    assert any(n in err["message"] for n in names), err


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=api_body)
def test_fuzz_api_every_field(body):
    resp = _app.test_client().post(API, data=json.dumps(body), content_type="application/json")
    check_api_answer(body, resp)


@settings(max_examples=examples(200), deadline=None)
@given(body=json_values)
def test_fuzz_api_any_json_value(body):
    resp = _app.test_client().post(API, data=json.dumps(body), content_type="application/json")
    check_api_answer(body, resp)


@settings(max_examples=examples(150), deadline=None)
@given(data=st.binary(max_size=200) | st.text(max_size=100).map(lambda s: s.encode("utf-8",
                                                                                   "surrogatepass")))
def test_fuzz_api_any_bytes(data):
    resp = _app.test_client().post(API, data=data, content_type="application/json")
    assert resp.status_code in (200, 400)
    if resp.status_code == 400:
        assert resp.get_json()["error"]["code"] == "bad_json"


# --- fuzzing the page's query parameters --------------------------------------------------

def _page_params() -> dict[str, set[str]]:
    """Every name the page's forms send, per variant (read from the page itself)."""
    client = _app.test_client()
    names: dict[str, set[str]] = {}
    for v in VARIANTS:
        html = client.get("/?variant=" + v).get_data(as_text=True)
        names[v] = set(re.findall(
            r'<(?:input|select|textarea|button)\b[^>]*\bname="([^"]+)"', html))
    return names


def _button_names() -> set[str]:
    """One-off actions (palette keys such as ``add=5m``): they change the hand on purpose."""
    client = _app.test_client()
    return {n for v in VARIANTS for n in re.findall(
        r'<button\b[^>]*\bname="([^"]+)"', client.get("/?variant=" + v).get_data(as_text=True))}


PARAMS_BY_VARIANT = _page_params()
ACTIONS = _button_names()
PAGE_PARAMS = sorted(set().union(*PARAMS_BY_VARIANT.values()))
#: Text inputs bound verbatim: what was typed comes back in the input.
KEPT = ("hand", "melds", "indicator", "visible", "winning_tile")
any_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
page_text = st.one_of(tile_text, any_text, st.sampled_from(["", " ", "1", "0", "x", "-1", "东家"]))
page_query = st.fixed_dictionaries(
    {"variant": st.sampled_from(tuple(VARIANTS)) | page_text,
     "hand": st.sampled_from(HANDS) | page_text | st.text(max_size=250)},
    optional={name: page_text for name in PAGE_PARAMS if name not in ("variant", "hand")},
)


def _input_value(html: str, name: str) -> str | None:
    tag = re.search(rf'<input\b[^>]*\bname="{re.escape(name)}"[^>]*>', html)
    if tag is None:
        return None
    value = re.search(r'\bvalue="([^"]*)"', tag.group(0))
    return value.group(1) if value else ""


def check_page_answer(query: dict, resp, kept: bool) -> None:
    encoded = urlencode(query)
    if len(encoded.encode()) > security.QUERY_MAX:
        assert resp.status_code == 414
        return
    assert resp.status_code in (200, 422), (query, resp.status_code)
    html = resp.get_data(as_text=True)
    if resp.status_code == 422:
        # each message sits under its field: aria-invalid input → aria-describedby → the message
        invalid = re.findall(r'<(?:input|select|textarea)\b[^>]*aria-invalid="true"[^>]*>', html)
        # every 422 shows its message: under an input, or as the form's alert
        assert invalid or 'role="alert"' in html, query
        for tag in invalid:
            ids = re.search(r'aria-describedby="([^"]+)"', tag).group(1).split()
            assert re.search(rf'id="{re.escape(ids[0])}"[^>]*>\s*(?:<[^>]+>\s*)*[^<\s]', html), tag
    if kept and not ACTIONS & set(query):
        for name in KEPT:
            if name in query and query[name].strip():
                assert _input_value(html, name) == str(escape(query[name])), (name, query)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=page_query)
def test_fuzz_page_fragment(query):
    resp = _app.test_client().get("/", query_string=query, headers={"HX-Request": "true"})
    check_page_answer(query, resp, kept=True)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=page_query)
def test_fuzz_page_full_with_redirect(query):
    resp = _app.test_client().get("/", query_string=query, follow_redirects=True)
    check_page_answer(query, resp, kept=True)


@settings(max_examples=examples(100), deadline=None)
@given(query=st.dictionaries(any_text, any_text, max_size=6))
def test_fuzz_page_unknown_params(query):
    resp = _app.test_client().get("/", query_string=query, follow_redirects=True)
    check_page_answer(query, resp, kept=False)


# --- the browser: CSP holds and htmx still swaps ------------------------------------------

@pytest.mark.browser
def test_browser_no_csp_violation_and_htmx_swaps(browser, live_server):
    """The fixtures (tests/conftest.py): Debian's Chromium and the app served in a thread."""
    page = browser.new_page()
    try:
        page.set_default_timeout(10_000)
        console: list[str] = []
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
        page.add_init_script(
            "window.__csp = []; document.addEventListener('securitypolicyviolation',"
            " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
        page.goto(f"{live_server}/")
        page.wait_for_function("() => window.htmx !== undefined")
        page.evaluate("window.__sameDocument = true")
        page.select_option("#variant", "zhengzhou")
        page.fill("#hand", "123m456p789s1112z")
        page.click("button.primary")
        page.wait_for_selector("#result .wait-list li.wait")
        assert page.evaluate("window.__sameDocument") is True   # swapped, not reloaded
        assert "hand=123m456p789s1112z" in page.url              # pushed URL
        assert page.evaluate("window.__csp") == []
        assert not [c for c in console if "Content Security Policy" in c], console
        # the listener does see a violation (control)
        page.evaluate("document.body.setAttribute('style', 'color: red')")
        page.wait_for_function("() => window.__csp.length > 0")
    finally:
        page.close()


@pytest.mark.parametrize("lang, back, html_lang", [
    (None, "回到计算器", "zh-Hans"), ("en", "Back to the calculator", "en")])
def test_bare_error_page_speaks_the_readers_language(client, monkeypatch, lang, back, html_lang):
    """When even error.html cannot be rendered, the bare page still links back in the
    reader's language."""
    from webcalc.web import errors

    def broken(*_a, **_k):
        raise RuntimeError("template gone")

    monkeypatch.setattr(errors, "render_template", broken)
    resp = client.get("/no-such-page", headers={"Accept-Language": lang} if lang else {})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 404 and f'<html lang="{html_lang}">' in html
    assert f'<a href="/">{back}</a>' in html


# --- the ledger's secret links: private answers, cookies, 503s, readiness, proxies ---------

import csv as _csv  # noqa: E402
import io as _io  # noqa: E402
import socket as _socket  # noqa: E402

from tests.ledger.conftest import need_postgres, pg_url  # noqa: E402

PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


@pytest.fixture()
def ledger_app(tmp_path):
    apps = []

    def make(**config):
        made = create_app({"TESTING": True,
                           "DATABASE_URL": f"sqlite:///{tmp_path}/ledger.sqlite3", **config})
        apps.append(made)
        return made
    yield make
    for made in apps:
        made.extensions["ledger"].dispose()


def _new_table(client, **spec) -> tuple[str, str]:
    resp = client.post("/api/v1/tables", json={"variant": "zhengzhou", **spec})
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    return body["edit_token"], body["view_token"]


def _assert_private(resp, what) -> None:
    h = resp.headers
    for name, value in PRIVATE.items():
        assert h.get(name) == value, (what, name, h.get(name))
    assert "noindex" in h.get("X-Robots-Tag", ""), what


def test_every_answer_under_a_token_is_private(ledger_app):
    """A page reached by a secret link is never stored by a browser or a shared cache, never
    indexed, and never tells the next site its address (Referer)."""
    client = ledger_app().test_client()
    created = client.post("/api/v1/tables", json={"variant": "zhengzhou"})
    _assert_private(created, "POST /api/v1/tables (the tokens are in the body)")
    edit, view = created.get_json()["edit_token"], created.get_json()["view_token"]
    recorded = client.post(f"/api/v1/tables/{edit}/hands",
                           json={"settlement": {"winner": None}})
    assert recorded.status_code == 201
    _assert_private(recorded, "POST …/hands")
    unknown = "A" * 32
    for token in (edit, view):
        for path in ("", "/live", "/live?part=top", "/chart.svg", "/export.csv",
                     "/export.json"):
            resp = client.get(f"/t/{token}{path}")
            assert resp.status_code == 200, (path, resp.status_code)
            _assert_private(resp, f"/t/<token>{path}")
        for path in ("", "/export"):
            resp = client.get(f"/api/v1/tables/{token}{path}")
            assert resp.status_code == 200
            _assert_private(resp, f"/api/v1/tables/<token>{path}")
    # the live part's polling still gets its 304 (htmx sends If-None-Match itself)
    etag = client.get(f"/t/{view}/live").headers["ETag"]
    resp = client.get(f"/t/{view}/live", headers={"If-None-Match": etag})
    assert resp.status_code == 304
    _assert_private(resp, "304")
    for path in (f"/t/{unknown}", f"/api/v1/tables/{unknown}", f"/t/{unknown}/export.csv"):
        resp = client.get(path)
        assert resp.status_code == 404
        _assert_private(resp, path)
    # the page that makes a table answers with its edit link in Location
    html = client.get("/t/new").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    made = client.post("/t/new", data={"csrf_token": csrf, "variant": "zhengzhou", "base": "1",
                                       "dealer": "0"})
    assert made.status_code == 303 and "/t/" in made.headers["Location"]
    _assert_private(made, "POST /t/new")


def test_pages_without_a_token_keep_their_headers(client):
    for resp in (client.get("/"), client.post(API, json=READY), client.get("/healthz")):
        assert resp.headers["Referrer-Policy"] == "same-origin"
        assert "X-Robots-Tag" not in resp.headers
    # not the ledger's no-store: the calculator is the same for everyone (webcalc/web/assets.py)
    assert client.get("/").headers["Cache-Control"] == "public, max-age=600"


def _session_cookie(resp) -> str:
    cookies = [c for c in resp.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert len(cookies) == 1, resp.headers.getlist("Set-Cookie")
    return cookies[0]


def _attrs(cookie: str) -> set[str]:
    return {a.strip().lower() for a in cookie.split(";")[1:]}


def test_session_cookie_is_samesite_lax_and_secure_only_over_https(ledger_app):
    app = ledger_app()
    # the table pages set no cookie (docs/decisions.md "Forms without a session cookie"): a
    # circle's page still keeps its CSRF token in the session
    edit = "c/new"
    plain = _attrs(_session_cookie(app.test_client().get(f"/{edit}")))
    assert {"httponly", "samesite=lax", "path=/"} <= plain
    assert "secure" not in plain                    # http: a Secure cookie would be dropped
    tls = app.test_client().get(f"/{edit}", base_url="https://localhost")
    assert {"secure", "samesite=lax", "httponly"} <= _attrs(_session_cookie(tls))
    # without a trusted proxy, a client's own X-Forwarded-Proto changes nothing …
    forged = app.test_client().get(f"/{edit}", headers={"X-Forwarded-Proto": "https"})
    assert "secure" not in _attrs(_session_cookie(forged))
    # … behind one (WEBCALC_TRUSTED_PROXIES=1), the proxy's header says the client used TLS
    proxied = ledger_app(TRUSTED_PROXIES=1)
    for proto, secure in (("https", True), ("http", False)):
        resp = proxied.test_client().get(f"/{edit}", headers={
            "X-Forwarded-Proto": proto, "X-Forwarded-For": "203.0.113.5"})
        assert ("secure" in _attrs(_session_cookie(resp))) is secure, proto


FORMULAS = ["=HYPERLINK(1)", "+cmd|calc!A0", "@SUM(A1)", "-2+3"]


def test_csv_export_writes_formulas_as_text_and_amounts_as_numbers(ledger_app):
    client = ledger_app().test_client()
    edit, _ = _new_table(client, names=FORMULAS)
    for note, payment in (("=1+1", {"from": 0, "to": 1, "amount": 8}),
                          ("@A1", {"from": 2, "to": 3, "amount": 0.5}),
                          ("-3", {"from": 3, "to": 0, "amount": 2})):
        resp = client.post(f"/api/v1/tables/{edit}/hands",
                           json={"adjustment": {"payments": [payment], "note": note}})
        assert resp.status_code == 201, resp.get_json()
    resp = client.post(f"/api/v1/tables/{edit}/hands", json={"settlement": {"winner": None}})
    assert resp.status_code == 201
    resp = client.post(f"/api/v1/tables/{edit}/hands",
                       json={"hand": "123m456p789s11122z", "winning_tile": "2z",
                             "win_by": "self_draw", "settlement": {"winner": 1}})
    assert resp.status_code == 201, resp.get_json()
    resp = client.get(f"/t/{edit}/export.csv")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(_csv.reader(_io.StringIO(resp.get_data(as_text=True).lstrip("\ufeff"))))
    # the entries, then (after a blank row) the seats with their totals and the settle-up
    end = rows.index([])
    header, body, tail = rows[0], rows[1:end], rows[end:]
    amount = header.index("金额")
    text_cells = [c for r in body for i, c in enumerate(r) if i != amount]
    # no text cell starts a formula: a spreadsheet shows each as typed
    assert not [c for c in text_cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], body
    quoted = {c for c in text_cells if c.startswith("'")}
    assert {"'" + n for n in FORMULAS} <= quoted
    for note in ("=1+1", "@A1", "-3"):                # the notes begin their details
        assert any(c.startswith("'" + note) for c in quoted), note
    # amounts stay numbers (never prefixed; empty for the 荒庄 without payments), hand
    # numbers too
    assert all(re.fullmatch(r"\d+(\.\d+)?", r[amount]) for r in body if r[amount]), \
        [r[amount] for r in body]
    assert {r[amount] for r in body} >= {"8", "0.5", "2"}
    # 手 counts hands played (empty for an adjustment), 记录号 every entry's id
    entry = header.index("记录号")
    assert all(r[0].isdigit() for r in body if r[1] == "牌局")
    assert all(r[0] == "" for r in body if r[1] == "调整")
    assert all(r[entry].isdigit() for r in body)
    # the totals are numbers too (a negative one included), the seats' names text
    seats = next(r for r in tail if r[:1] == ["座位"])
    totals = next(r for r in tail if r[:1] == ["合计"])
    assert seats[1:] == ["'" + n for n in FORMULAS]
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", x) for x in totals[1:]) and "-" in "".join(totals)
    payers = [c for r in tail[tail.index(["结算", "付款", "收款", "金额"]) + 1:] for c in r[1:3]]
    assert payers and all(c.startswith("'") for c in payers)
    # a plain cell is left exactly as it was
    assert "调整" in text_cells and "东家" not in quoted


@pytest.mark.parametrize("cell, written", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@x", "'@x"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("东家", "东家"), ("", ""), ("a=b", "a=b"), ("'x", "'x")])
def test_csv_text_cell(cell, written):
    from webcalc.web.ledger_shared import csv_text

    assert csv_text(cell) == written


def _unreachable_sqlite(tmp_path) -> str:
    """A SQLite URL whose file cannot be opened: its path is a directory (an error for
    SQLite whoever runs the test, root included)."""
    path = tmp_path / "gone" / "ledger.sqlite3"
    path.mkdir(parents=True)
    return f"sqlite:///{path}"


def _closed_port() -> int:
    with _socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]            # closed again when the test connects


def test_503_pages_carry_retry_after(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": _unreachable_sqlite(tmp_path)})
    client = app.test_client()
    token = "A" * 32
    for path in (f"/t/{token}", f"/t/{token}/live", f"/api/v1/tables/{token}"):
        resp = client.get(path)
        assert resp.status_code == 503, (path, resp.status_code)
        assert int(resp.headers["Retry-After"]) >= 1, path
    page = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Service Unavailable" not in page and CHINESE.search(page)


def test_readyz_answers_when_the_database_does(ledger_app):
    client = ledger_app().test_client()
    resp = client.get("/readyz")
    assert resp.status_code == 200
    assert resp.get_json() == {"status": "ok", "database": "ok"}
    assert resp.headers["Cache-Control"] == "no-store"


def test_readyz_on_postgresql():
    need_postgres()
    app = create_app({"TESTING": True, "DATABASE_URL": pg_url()})
    try:
        assert app.test_client().get("/readyz").status_code == 200
    finally:
        app.extensions["ledger"].dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_readyz_is_503_while_healthz_stays_200_when_the_database_is_gone(tmp_path, kind):
    url = (_unreachable_sqlite(tmp_path) if kind == "sqlite"
           else f"postgresql://webcalc:webcalc@127.0.0.1:{_closed_port()}/webcalc_test")
    app = create_app({"TESTING": True, "DATABASE_URL": url})
    client = app.test_client()
    resp = client.get("/readyz")
    assert resp.status_code == 503
    assert resp.get_json() == {"status": "unavailable", "database": "unreachable"}
    assert int(resp.headers["Retry-After"]) >= 1
    assert resp.headers["Cache-Control"] == "no-store"
    assert client.get("/healthz").status_code == 200        # the process itself is alive


def test_readyz_notices_a_database_that_goes_away(tmp_path):
    """Ready, then the SQLite file is replaced by a directory: the next probe says so."""
    path = tmp_path / "ledger.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}"})
    client = app.test_client()
    _new_table(client)
    assert client.get("/readyz").status_code == 200
    app.extensions["ledger"].dispose()               # no pooled connection to the old file
    for p in tmp_path.glob("ledger.sqlite3*"):
        p.unlink()
    path.mkdir()
    assert client.get("/readyz").status_code == 503


# --- the client address behind proxies (WEBCALC_TRUSTED_PROXIES) ---------------------------

def test_trusted_proxies_setting():
    assert security.trusted_proxies({}) == 0
    assert security.trusted_proxies({"WEBCALC_TRUSTED_PROXIES": " 2 "}) == 2
    assert security.trusted_proxies({"WEBCALC_TRUSTED_PROXIES": ""}) == 0
    for bad in ("-1", "x", "1.5", "²", "1e3", "9999"):
        with pytest.raises(ValueError, match="WEBCALC_TRUSTED_PROXIES"):
            security.trusted_proxies({"WEBCALC_TRUSTED_PROXIES": bad})


def _create_from(client, forwarded: str | None) -> int:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return client.post("/api/v1/tables", json={"variant": "zhengzhou"}, headers=headers,
                       environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code


def test_one_trusted_proxy_gives_each_client_its_own_cap(ledger_app):
    client = ledger_app(TRUSTED_PROXIES=1, LEDGER_TABLES_PER_HOUR=1).test_client()
    assert _create_from(client, "198.51.100.1") == 201
    assert _create_from(client, "198.51.100.1") == 429
    assert _create_from(client, "198.51.100.2") == 201
    # a client's own X-Forwarded-For comes first; the proxy appends the address it saw
    assert _create_from(client, "198.51.100.9, 198.51.100.1") == 429


def test_without_trusted_proxies_the_header_is_ignored(ledger_app, monkeypatch):
    monkeypatch.delenv("WEBCALC_TRUSTED_PROXIES", raising=False)
    client = ledger_app(LEDGER_TABLES_PER_HOUR=1).test_client()
    assert _create_from(client, "198.51.100.1") == 201
    assert _create_from(client, "198.51.100.2") == 429     # the same peer, 10.0.0.1
    assert _create_from(client, None) == 429


def test_trusted_proxies_from_the_environment(ledger_app, monkeypatch):
    monkeypatch.setenv("WEBCALC_TRUSTED_PROXIES", "1")
    client = ledger_app(LEDGER_TABLES_PER_HOUR=1).test_client()
    assert _create_from(client, "198.51.100.1") == 201
    assert _create_from(client, "198.51.100.2") == 201


# --- the serving settings are documented ---------------------------------------------------

def test_every_serving_variable_is_documented():
    root = Path(__file__).resolve().parent.parent
    conf = (root / "gunicorn.conf.py").read_text(encoding="utf-8")
    read = set(re.findall(r"""os\.environ\.get\(\s*["']([A-Z_]+)["']""", conf))
    assert {"PORT", "WEB_CONCURRENCY", "BIND"} <= read
    serving = (root / "docs" / "SERVING.md").read_text(encoding="utf-8")
    for name in read | {"WEBCALC_TRUSTED_PROXIES", "WEBCALC_TRUSTED_HOSTS"}:
        assert f"| `{name}`" in serving, name
    readme = (root / "README.md").read_text(encoding="utf-8")
    for name in ("PORT", "WEB_CONCURRENCY"):
        assert f"{name}=" in readme, name
    assert re.search(r"`make test`[^\n]*(takes|took)[^\n]*\d+ ?min", readme), \
        "README says how long make test takes"
