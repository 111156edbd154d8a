"""Static files, the installable app and what travels over a weak line (docs/SERVING.md,
docs/decisions.md "Offline, install and caching").

* **Fingerprinted names.** ``url_for('static', filename='css/app.css')`` gives
  ``/static/css/app.<hash>.css``: the first :data:`HASH_LEN` hex digits of the file's
  SHA-256. A name whose hash is today's is answered ``Cache-Control:`` :data:`IMMUTABLE` (a
  changed file gets a new name, so a copy never goes stale); an old hash (a page kept from
  before a deploy) gets today's file with ``no-cache``, never a 404. Plain names still work
  and are revalidated (``no-cache``, ETag). nginx serves the same names itself
  (``deploy/nginx.conf``).
* **The service worker** is ``static/sw.js`` served at ``/sw.js`` (scope ``/``, so no
  ``Service-Worker-Allowed`` header is needed), with the fingerprinted URLs of the shell
  and the rules pages written into it: a new CSS or JS file changes the worker's bytes, and
  the browser installs the new worker. Under a script root (``SCRIPT_NAME=/calc``) it is
  ``/calc/sw.js`` with the scope ``/calc/`` (``static/js/app.js`` registers it there); its
  lists hold the app's paths without the script root, and the worker reads every URL
  relative to its scope, so its bytes are the same at ``/`` and under any prefix.
* **The manifest** is ``static/manifest.webmanifest`` served at ``/manifest.webmanifest``
  in the reader's language, with the icons' fingerprinted URLs written into it.
* **The offline page** (``/offline``) is what the service worker shows for a page that is
  computed on the server when there is no network.
* **Page caching.** The calculator (``/``), the rules pages and the offline page are pure
  functions of the URL and the language: a full page answered 200 carries
  ``Cache-Control:`` :data:`PAGE_CACHE` and ``Vary: Accept-Language`` (the calculator's also
  ``HX-Request``, ``HX-Request-Type``, ``HX-History-Restore-Request``); an htmx answer is
  ``no-cache`` (its ``HX-Push-Url``/``HX-Replace-Url`` depends on ``HX-Current-URL``). These
  views never touch the session (Flask would add ``Vary: Cookie``; the session cookie is set
  after these hooks run), which tests/test_web_assets.py holds. The ledger's pages and API stay
  ``no-store`` (:mod:`webcalc.web.security`).
* **Compression** (``make run`` without nginx; behind nginx the proxy compresses and sends
  the app no ``Accept-Encoding``): a text response of at least :data:`COMPRESS_MIN` bytes is
  gzipped when the client accepts gzip; every such response says ``Vary: Accept-Encoding``.
  Nothing already encoded, streamed, partial (206) or of a compressed type (PNG) is touched.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import stat
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, render_template, request, url_for

from .htmx import is_htmx, vary_on
from .i18n import current_lang, lang_param

bp = Blueprint("assets", __name__)

HASH_LEN = 10
#: a fingerprinted name: ``css/app.0123456789.css`` → stem ``css/app``, ext ``.css``
HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{" + str(HASH_LEN) + r"})(?P<ext>\.[A-Za-z0-9]+)$")
IMMUTABLE = "public, max-age=31536000, immutable"
#: the calculator's and the rules' pages: ten minutes in any cache (a deploy is seen within
#: that; the service worker asks the network first anyway)
PAGE_CACHE = "public, max-age=600"
#: the endpoints whose full pages are pure functions of the URL and the language
PURE_PAGES = {"pages.index", "rules.index", "rules.rule", "assets.offline"}

#: the shell the service worker keeps: fingerprinted on the way out
SHELL_FILES = ("css/app.css", "js/theme.js", "js/app.js", "js/ledger.js", "vendor/htmx.min.js",
               "icons/icon.svg", "icons/icon-192.png")
ICONS = (  # (file, sizes, type, purpose) for the manifest
    ("icons/icon-192.png", "192x192", "image/png", "any"),
    ("icons/icon-512.png", "512x512", "image/png", "any"),
    ("icons/icon-maskable-192.png", "192x192", "image/png", "maskable"),
    ("icons/icon-maskable-512.png", "512x512", "image/png", "maskable"),
    ("icons/icon.svg", "any", "image/svg+xml", "any"),
)
#: the theme colours (the page's --accent and --bg in light and dark; static/css/app.css)
THEME = {"light": "#0b6e4f", "dark": "#12171c"}
BACKGROUND = {"light": "#f6f3ec", "dark": "#12171c"}

COMPRESS_MIN = 1024
COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "text/plain", "text/csv",
                "application/javascript", "application/json", "application/manifest+json",
                "application/xml", "image/svg+xml"}

_hashes: dict[str, tuple[tuple[int, int], str | None]] = {}
#: (folder, filename) → the file's path when it lies inside the folder, else None: resolving
#: a path (a system call per component) cost more than the rest of ``url_for`` together
_inside: dict[tuple[str, str], Path | None] = {}


def _static_path(root: Path, filename: str) -> Path | None:
    key = (str(root), filename)
    try:
        return _inside[key]
    except KeyError:
        pass
    path = root / filename
    try:
        ok = path.resolve().is_relative_to(root.resolve())
    except (OSError, ValueError):
        ok = False
    if len(_inside) > 4096:
        _inside.clear()
    _inside[key] = found = path if ok else None
    return found


def fingerprint(filename: str, folder: str | None = None) -> str | None:
    """The first :data:`HASH_LEN` hex digits of the SHA-256 of ``static/<filename>``, or
    ``None`` when there is no such file. Kept per file while its size and mtime stay (one
    ``stat`` a call; whether the name stays inside the folder is worked out once)."""
    root = Path(folder) if folder else _static_folder()
    path = _static_path(root, filename)
    if path is None:
        return None
    try:
        st = path.stat()
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    key = str(path)
    stamp = (st.st_mtime_ns, st.st_size)
    kept = _hashes.get(key)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:HASH_LEN]
    _hashes[key] = (stamp, digest)
    return digest


def hashed_name(filename: str) -> str:
    """``css/app.css`` → ``css/app.<hash>.css`` (unchanged when the file does not exist)."""
    digest = fingerprint(filename)
    if digest is None:
        return filename
    stem, dot, ext = filename.rpartition(".")
    if not dot or "/" in ext:
        return f"{filename}.{digest}"
    return f"{stem}.{digest}.{ext}"


def _fingerprint_urls(endpoint: str, values: dict) -> None:
    if endpoint == "static" and "filename" in values:
        values["filename"] = hashed_name(values["filename"])


def static_view(filename: str):
    """Flask's static view, answering fingerprinted names (see the module's docstring)."""
    app = current_app
    m = HASHED.match(filename)
    if m:
        plain = m["stem"] + m["ext"]
        digest = fingerprint(plain)
        if digest is not None:
            resp = app.send_static_file(plain)
            resp.headers["Cache-Control"] = IMMUTABLE if digest == m["hash"] else "no-cache"
            return resp
    return app.send_static_file(filename)


# --- the service worker, the manifest, the offline page ------------------------------------

def _static_folder() -> Path:
    """The app's static folder (create_app always names one)."""
    folder = current_app.static_folder
    assert folder is not None
    return Path(folder)


def _static_source(name: str) -> str:
    return (_static_folder() / name).read_text(encoding="utf-8")


def precache_lists() -> dict:
    """What the service worker keeps: the shell (fingerprinted files, the offline page in
    each language, the empty calculator, the rules index and 我的牌桌) and the rules pages.
    Each is the app's path, without the request's script root: the worker puts its own
    scope before it (static/sw.js, ``ROOT``)."""
    from .rules_content import rules as every_rule

    root = request.script_root

    def app_path(url: str) -> str:
        return url[len(root):] if root and url.startswith(root + "/") else url

    shell = [app_path(url_for("static", filename=f)) for f in SHELL_FILES]
    shell += ["/offline", "/offline?lang=zh", "/offline?lang=en", "/", "/rules", "/t/mine"]
    rules = [app_path(url_for("rules.rule", rule_id=r.id)) for r in every_rule()]
    return {"shell": shell, "rules": rules}


@bp.get("/sw.js")
def service_worker():
    lists = precache_lists()
    source = _static_source("sw.js")
    version = hashlib.sha256((source + json.dumps(lists)).encode()).hexdigest()[:HASH_LEN]
    body = (source.replace("/*SHELL*/[]", json.dumps(lists["shell"]))
                  .replace("/*RULES*/[]", json.dumps(lists["rules"]))
                  .replace("__VERSION__", version))
    resp = Response(body, mimetype="text/javascript")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/manifest.webmanifest")
def manifest():
    from .i18n import request_gettext

    _ = request_gettext()
    data = json.loads(_static_source("manifest.webmanifest"))
    en = current_lang() == "en"
    data.update(
        lang="en" if en else "zh-Hans",
        name=str(_("Mahjong calculator")) + " · webcalc",
        short_name=str(_("Mahjong calculator")) if not en else "Mahjong",
        description=str(_(
            "三门峡 · 郑州 · 盘锦 · 晋城: what you wait for, how many are left, how the hand reads")),
        start_url=url_for("pages.index", lang=lang_param()),
        # the app's pages, "/" or the script root's ("/calc/"): as the service worker's scope
        id=url_for("pages.index"),
        scope=url_for("pages.index"),
        theme_color=THEME["light"],
        background_color=BACKGROUND["light"],
        icons=[{"src": url_for("static", filename=f), "sizes": s, "type": t, "purpose": p}
               for f, s, t, p in ICONS],
    )
    resp = Response(json.dumps(data, ensure_ascii=False, indent=1),
                    mimetype="application/manifest+json")
    resp.headers["Cache-Control"] = "no-cache"
    resp.vary.add("Accept-Language")
    return resp


@bp.get("/offline")
def offline():
    return render_template("offline.html")


# --- response headers: page caching and compression ----------------------------------------

def _cache_pages(response: Response) -> Response:
    if request.endpoint not in PURE_PAGES or request.method not in ("GET", "HEAD"):
        return response
    vary_on(response, ("Accept-Language",))
    if response.headers.getlist("Cache-Control"):   # (``in`` raises a KeyError when absent)
        return response
    if is_htmx(request):
        response.headers["Cache-Control"] = "no-cache"
    elif response.status_code == 200 and not response.headers.getlist("Set-Cookie"):
        response.headers["Cache-Control"] = PAGE_CACHE
    return response


def _compress(response: Response) -> Response:
    if (response.mimetype not in COMPRESSIBLE
            or (response.is_streamed and not response.direct_passthrough)   # a file is fine
            or response.status_code in (204, 206, 304) or response.status_code < 200
            or response.headers.getlist("Content-Encoding")
            or (response.content_length is not None and response.content_length < COMPRESS_MIN)):
        return response
    vary_on(response, ("Accept-Encoding",))
    if request.accept_encodings["gzip"] <= 0:
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < COMPRESS_MIN:
        return response
    response.set_data(gzip.compress(data, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.headers.pop("Accept-Ranges", None)
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(etag + "-gzip", bool(weak))
    return response


def _plain_validators() -> None:
    """A client revalidates with the ETag it was sent, which for a compressed answer is the
    plain one plus ``-gzip``; strip the suffix so every conditional check (views, static
    files) compares against the plain ETag, as Apache's mod_deflate does. Without this a
    gzipped poll never gets its 304."""
    inm = request.environ.get("HTTP_IF_NONE_MATCH")
    if inm and '-gzip"' in inm:
        request.environ["HTTP_IF_NONE_MATCH"] = inm.replace('-gzip"', '"')


def init_app(app: Flask) -> None:
    """Call last in the app factory: the compression runs after every other after-request
    hook (Flask runs an app's hooks last-registered first)."""
    app.register_blueprint(bp)
    app.url_defaults(_fingerprint_urls)
    app.view_functions["static"] = static_view
    app.before_request(_plain_validators)
    app.after_request(_cache_pages)
    app.after_request_funcs.setdefault(None, []).insert(0, _compress)
    app.jinja_env.globals.update(THEME_COLORS=THEME)
