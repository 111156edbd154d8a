"""Installable, offline shell, caching and compression (webcalc/web/assets.py): what the
server answers. The browser side (registration, offline loads) is tests/test_browser_pwa.py."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import struct
from pathlib import Path

import pytest

from webcalc.web.assets import COMPRESS_MIN, IMMUTABLE, PAGE_CACHE

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
PURE = ["/", "/?lang=en", "/?variant=zhengzhou&hand=123m456p789s1112z", "/rules",
        "/rules/PJ-10", "/rules?lang=en", "/offline", "/offline?lang=en"]


def _static_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def _vary(resp) -> set[str]:
    return {v.strip() for v in resp.headers.get("Vary", "").split(",") if v.strip()}


def test_static_urls_carry_the_files_hash_and_are_immutable(client):
    urls = _static_urls(client.get("/").get_data(as_text=True))
    names = {u.split("/static/", 1)[1] for u in urls}
    for plain in ("css/app.css", "js/app.js", "js/theme.js", "vendor/htmx.min.js",
                  "icons/icon.svg", "icons/apple-touch-icon.png"):
        digest = hashlib.sha256((STATIC / plain).read_bytes()).hexdigest()[:10]
        stem, ext = plain.rsplit(".", 1)
        assert f"{stem}.{digest}.{ext}" in names, plain
    for url in urls:
        resp = client.get(url)
        assert resp.status_code == 200, url
        assert resp.headers["Cache-Control"] == IMMUTABLE, url
        resp.close()


def test_an_old_hash_gets_todays_file_not_kept_and_plain_names_still_work(client):
    with client.get("/static/css/app.0123456789.css") as resp:
        assert resp.status_code == 200
        assert resp.headers["Cache-Control"] == "no-cache"
        assert resp.get_data() == (STATIC / "css/app.css").read_bytes()
    with client.get("/static/css/app.css") as resp:
        assert resp.status_code == 200 and resp.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/css/nothing.0123456789.css").status_code == 404
    assert client.get("/static/../pyproject.0123456789.toml").status_code == 404


@pytest.mark.parametrize("url", PURE)
def test_calculator_and_rules_pages_are_public_and_vary_on_language(client, url):
    resp = client.get(url)
    assert resp.status_code == 200
    assert resp.headers["Cache-Control"] == PAGE_CACHE
    vary = _vary(resp)
    assert {"Accept-Language", "Accept-Encoding"} <= vary
    # the same for everyone: no cookie, and nothing read from one
    assert "Set-Cookie" not in resp.headers and "Cookie" not in vary
    if url.startswith("/?") or url == "/":
        assert {"HX-Request", "HX-Request-Type", "HX-History-Restore-Request"} <= vary


def test_htmx_answers_and_errors_are_not_kept(client):
    resp = client.get("/?variant=zhengzhou&hand=123m456p789s1112z", headers={"HX-Request": "true"})
    assert resp.headers["Cache-Control"] == "no-cache"     # HX-Push-Url names the caller's URL
    resp = client.get("/?variant=zhengzhou&hand=123m456p789s111x")
    assert resp.status_code == 422 and "public" not in resp.headers.get("Cache-Control", "")
    assert "public" not in client.get("/rules/NOPE-1").headers.get("Cache-Control", "")


def test_token_pages_stay_no_store(client):
    made = client.post("/api/v1/tables", json={"variant": "zhengzhou"}).get_json()
    for url in (f"/t/{made['edit_token']}", f"/t/{made['view_token']}",
                f"/api/v1/tables/{made['edit_token']}", "/t/new"):
        resp = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert resp.status_code == 200, url
        assert resp.headers["Cache-Control"] == "no-store", url


def test_text_is_gzipped_when_accepted(client):
    plain = client.get("/?variant=zhengzhou&hand=123m456p789s1112z")
    assert "Content-Encoding" not in plain.headers              # not asked for
    assert "Accept-Encoding" in _vary(plain)
    resp = client.get("/?variant=zhengzhou&hand=123m456p789s1112z",
                      headers={"Accept-Encoding": "br, gzip;q=0.8"})
    assert resp.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in _vary(resp)
    assert gzip.decompress(resp.get_data()) == plain.get_data()
    assert int(resp.headers["Content-Length"]) == len(resp.get_data()) < len(plain.get_data()) / 3
    with client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip"}) as css:
        assert css.headers["Content-Encoding"] == "gzip" and "Accept-Ranges" not in css.headers
        assert gzip.decompress(css.get_data()) == (STATIC / "css/app.css").read_bytes()
        assert css.headers["ETag"].endswith('-gzip"')       # not the plain file's ETag
        tag = css.headers["ETag"]
    with client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip",
                                                    "If-None-Match": tag}) as again:
        assert again.status_code == 304                     # and it revalidates


def test_what_is_not_compressed(client):
    refused = client.get("/", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers
    png = client.get("/static/icons/icon-512.png", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in png.headers and "Accept-Encoding" not in _vary(png)
    png.close()
    tiny = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert len(tiny.get_data()) < COMPRESS_MIN and "Content-Encoding" not in tiny.headers
    small = client.post("/api/v1/analyze", headers={"Accept-Encoding": "gzip"},
                        json={"variant": "zhengzhou", "hand": "123m456p789s1112z"})
    assert len(small.get_data()) < COMPRESS_MIN and "Content-Encoding" not in small.headers
    api = client.post("/api/v1/analyze", json={"variant": "zhengzhou", "hand": "1112345678999m"},
                      headers={"Accept-Encoding": "gzip"})
    assert api.headers["Content-Encoding"] == "gzip"         # a JSON answer is text too
    assert len(json.loads(gzip.decompress(api.get_data()))["waits"]) == 9
    with client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip",
                                                     "Range": "bytes=0-99"}) as ranged:
        assert ranged.status_code == 206 and "Content-Encoding" not in ranged.headers
        assert len(ranged.get_data()) == 100


def test_service_worker_at_the_root_with_the_shell_filled_in(client):
    resp = client.get("/sw.js")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.mimetype == "text/javascript"
    assert resp.headers["Cache-Control"] == "no-cache"
    body = resp.get_data(as_text=True)
    assert "__VERSION__" not in body and "/*SHELL*/[]" not in body
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    rules = json.loads(re.search(r"const RULES = (\[.*?\]);", body).group(1))
    page = client.get("/").get_data(as_text=True)
    for url in _static_urls(page):
        if url.endswith((".css", ".js")):
            assert url in shell, url                         # the page's own files
    assert {"/", "/rules", "/offline", "/offline?lang=zh", "/offline?lang=en"} <= set(shell)
    assert "/rules/PJ-10" in rules and len(rules) >= 50
    for url in shell + rules[:3]:
        got = client.get(url)
        assert got.status_code == 200, url
        got.close()
    # the worker's bytes change with any file of the shell: the browser then updates it
    version = re.search(r'const VERSION = "([0-9a-f]{10})"', body).group(1)
    assert version
    # it never takes the API; a table page and its poll are kept in a cache of their own
    assert re.search(r'name: "api",[^}]*handler: null', body)
    assert re.search(r'name: "tables",[^}]*handler: tablePage', body)
    assert 'TABLES_CACHE = "webcalc-tables"' in body and not "webcalc-tables".startswith("webcalc-shell-")
    assert "/t/mine" in shell


def test_service_worker_under_a_script_root_is_the_same_file(client):
    """Under ``SCRIPT_NAME=/calc`` the worker is /calc/sw.js, byte for byte the root's: its
    lists hold the app's paths and it puts its own scope before them (static/sw.js, ROOT).
    Before, the lists held /calc/static/… beside a bare /offline and the worker matched root
    paths only; and the page registered /sw.js, which under a prefix is not the app's."""
    at_root = client.get("/sw.js").get_data(as_text=True)
    under = client.get("/sw.js", base_url="http://localhost/calc/")
    assert under.status_code == 200 and under.mimetype == "text/javascript"
    assert under.get_data(as_text=True) == at_root
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", at_root).group(1))
    assert not any(url.startswith("/calc") for url in shell)
    for url in shell[:3] + ["/rules/PJ-10"]:                 # each is the app's under /calc
        got = client.get(url, base_url="http://localhost/calc/")
        assert got.status_code == 200, url
        got.close()
    assert "new URL(self.registration.scope)" in at_root
    page = client.get("/", base_url="http://localhost/calc/").get_data(as_text=True)
    app_js = re.search(r'src="(/calc/static/js/app\.[0-9a-f]{10}\.js)"', page).group(1)
    with client.get(app_js[len("/calc"):], base_url="http://localhost/calc/") as got:
        source = got.get_data(as_text=True)
    assert 'register(ROOT + "/sw.js", { scope: ROOT + "/" })' in source


def test_manifest_scope_under_a_script_root(client):
    m = client.get("/manifest.webmanifest", base_url="http://localhost/calc/").get_json(force=True)
    assert m["scope"] == m["id"] == "/calc/" and m["start_url"] == "/calc/"
    assert all(i["src"].startswith("/calc/static/") for i in m["icons"])


@pytest.mark.parametrize("lang,name,start", [("zh", "麻将计算器", "/"), ("en", "Mahjong", "/?lang=en")])
def test_manifest(client, lang, name, start):
    resp = client.get("/manifest.webmanifest" + ("?lang=en" if lang == "en" else ""))
    assert resp.status_code == 200 and resp.mimetype == "application/manifest+json"
    assert "Accept-Language" in _vary(resp)
    m = resp.get_json(force=True)
    assert m["short_name"] == name and m["start_url"] == start
    assert m["display"] == "standalone" and m["scope"] == "/" and m["id"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", m["background_color"])
    got = {(i["sizes"], i["purpose"]) for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"),
            ("512x512", "maskable")} <= got
    for icon in m["icons"]:
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.mimetype == icon["type"], icon
        if icon["type"] == "image/png":
            data = r.get_data()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            w, h = struct.unpack(">II", data[16:24])
            assert f"{w}x{h}" == icon["sizes"], icon
        r.close()
    # the page links this manifest, in its own language
    page = client.get("/" + ("?lang=en" if lang == "en" else "")).get_data(as_text=True)
    assert f'<link rel="manifest" href="/manifest.webmanifest{"?lang=en" if lang == "en" else ""}">' in page


def test_page_head_has_real_icons_and_theme_colours(client):
    html = client.get("/").get_data(as_text=True)
    assert 'href="data:,"' not in html
    assert re.search(r'<link rel="apple-touch-icon" '
                     r'href="/static/icons/apple-touch-icon\.[0-9a-f]{10}\.png">', html)
    assert re.search(r'<link rel="icon" href="/static/icons/icon\.[0-9a-f]{10}\.svg" '
                     r'type="image/svg\+xml">', html)
    assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}" '
                     r'media="\(prefers-color-scheme: dark\)">', html)
    with client.get(re.search(r'apple-touch-icon" href="([^"]+)"', html).group(1)) as resp:
        assert struct.unpack(">II", resp.get_data()[16:24]) == (180, 180)


@pytest.mark.parametrize("url,says", [
    ("/offline", "需要网络"), ("/offline?lang=zh", "需要网络"),
    ("/offline?lang=en", "it needs the network")])
def test_offline_page_says_plainly_it_needs_the_network(client, url, says):
    resp = client.get(url)
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert says in html
    # links to what does open without the network: the calculator and the rules
    assert 'href="/rules' in html and re.search(r'href="/(\?lang=(zh|en))?"', html)


def _declarations(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+|color-scheme):\s*([^;]+);", block))


def test_the_dark_colours_are_one_set_and_every_light_colour_has_a_dark_one():
    css = (STATIC / "css" / "app.css").read_text(encoding="utf-8")
    light = _declarations(re.search(r"^:root \{(.*?)^\}", css, re.S | re.M).group(1))
    system = _declarations(re.search(
        r'@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme="light"\]\) \{(.*?)\}',
        css, re.S).group(1))
    chosen = _declarations(re.search(r':root\[data-theme="dark"\] \{(.*?)\}', css, re.S).group(1))
    assert system == chosen                      # the system's dark and the switch's dark
    # and nothing else in the sheet depends on the theme: axe's run in the system's dark
    # theme (tests/test_browser_a11y.py) stands for the switch's
    assert css.count("prefers-color-scheme") == 1 and css.count("data-theme") == 2
    # every colour variable is set in dark too, except the tile inks (the faces stay ivory)
    assert set(light) - set(system) == {"--m", "--p", "--s", "--z"}
    assert light["color-scheme"] == "light" and system["color-scheme"] == "dark"
    # outside those blocks no colour is written as a literal (each is a variable)
    rest = css[css.index("* { box-sizing"):]
    assert not re.findall(r"#[0-9a-fA-F]{3,6}\b", rest)
