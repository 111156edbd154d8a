"""Machinery (issue 37.2): what each cache and fast path buys on fresh inputs, in one run.

``python bench/machinery.py`` (``make bench-machinery``) prints a table; ``--write`` also
puts it in bench/RESULTS.md, "## Machinery (issue 37.2)".

For each mechanism, the path it sits on (a page fragment, the full page, an API answer,
``analyze()``, a ``/healthz`` request) runs with the mechanism on and off on the same fresh
inputs. How:

* one process makes the app and warms it up (``--warm`` requests of a warm-up seed, every
  variant, then ``gc.freeze()`` as gunicorn.conf.py does before the fork);
* each repeat draws ``--hands`` fresh requests (bench/hands.py, a new seed per repeat, none
  the warm-up's or an earlier repeat's; all four variants, 0-8 wildcards, with their rooms:
  options and the settlement given as the page's ``opt_``/``s_`` parameters, a quarter in
  English; the API and the engine take more of them, being cheaper) and, for each
  mechanism, forks two children, one with it on and one with it off: both start from the same
  warm state, wait for each other, then run the same inputs in the same order at the same
  time (the machine's load falls on both alike) and report their CPU time
  (``time.process_time``) and a digest of every answer's bytes (which must be equal: no
  mechanism may change an answer);
* a mechanism's figure is the share of its path's CPU it saves, ``(off − on) ÷ off``, the
  median over the repeats (and their range).

A mechanism is turned off by putting back what it stands in for (the function under an
``lru_cache``, Flask-Babel's own look-ups, the app without the
``/healthz`` wrapper), in the child only.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

from hands import fresh_requests  # noqa: E402
from soak import loadavg, machine, write_section  # noqa: E402

HEAD = "## Machinery (issue 37.2)"
THRESHOLD = 0.10


# -- inputs ---------------------------------------------------------------------------------

def page_url(req: dict, lang: str | None) -> str:
    """The calculator page for an API request: its room as ``opt_``/``s_`` parameters."""
    q: list[tuple[str, str]] = [(k, req[k]) for k in ("variant", "hand", "indicator",
                                                       "winning_tile", "win_by") if req.get(k)]
    for name, value in (req.get("options") or {}).items():
        q.append((f"opt_{name}", ("1" if value else "0") if isinstance(value, bool) else
                  str(value)))
    s = req.get("settlement") or {}
    for name in ("base", "dealer", "winner", "discarder"):
        if name in s:
            q.append((f"s_{name}", str(s[name])))
    if lang:
        q.append(("lang", lang))
    return "/?" + urlencode(q)


def fresh_inputs(seed: int, n: int, seen: set) -> list[tuple[dict, str]]:
    """``n`` (API request, page URL) pairs none of which is in ``seen`` (then added)."""
    out = []
    for i, req in enumerate(fresh_requests(seed)):
        key = json.dumps(req, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        out.append((req, page_url(req, "en" if i % 4 == 3 else None)))
        if len(out) == n:
            return out
    raise AssertionError("unreachable")


# -- the app ---------------------------------------------------------------------------------

def make_app():
    from webcalc import create_app

    return create_app({"TESTING": True})


def canonical(app, url: str) -> str:
    """The canonical URL of a page (what its 303 names), without rendering it."""
    from flask import request

    from webcalc.web.room_page import CALCULATOR, read_room_state

    with app.test_request_context(url):
        return read_room_state(CALCULATOR, request.args).canonical


_CSRF = re.compile(rb'name="csrf_token"[^>]*value="[^"]*"|value="[^"]*"[^>]*name="csrf_token"')


def digest(h, body: bytes) -> None:
    h.update(_CSRF.sub(b"csrf", body))


# -- switching a mechanism off (in a child) ---------------------------------------------------

def _unwrap_everywhere(funcs) -> None:
    """Every reference to each ``lru_cache`` of ``funcs`` in webcalc's modules → the function
    it wraps (recursion included: it calls its module's global)."""
    plain = {id(f): f.__wrapped__ for f in funcs}
    for name, mod in list(sys.modules.items()):
        if not name.startswith("webcalc") or mod is None:
            continue
        for attr, value in list(vars(mod).items()):
            if id(value) in plain:
                setattr(mod, attr, plain[id(value)])


def _resize_everywhere(funcs, factor: float) -> None:
    """Each ``lru_cache`` of ``funcs`` replaced everywhere by an empty one ``factor`` times its
    size (refilled by the warm-up's requests again: :func:`rewarm`)."""
    from functools import lru_cache

    new = {id(f): lru_cache(maxsize=max(1, int(f.cache_info().maxsize * factor)))(f.__wrapped__)
           for f in funcs}
    for name, mod in list(sys.modules.items()):
        if not name.startswith("webcalc") or mod is None:
            continue
        for attr, value in list(vars(mod).items()):
            if id(value) in new:
                setattr(mod, attr, new[id(value)])


def templating_caches(names):
    def off(ctx):
        from webcalc.web import templating

        _unwrap_everywhere([getattr(templating, n) for n in names])
    return off


TILE_CACHES = ("_tile", "_useful_item", "_hand_key", "_hand_key_tail")
PANEL_CACHES = ("_palette_key", "_tap_targets", "_meld_builder")


def room_sections_off(ctx):
    from flask import render_template
    from markupsafe import Markup

    from webcalc.web import room_page

    def room_sections(room, form, variant_label, home=room_page.CALCULATOR, extra=None):
        return Markup(render_template("_room.html", room=room, form=form, home=home,
                                      room_extra=extra, variant_label=variant_label))
    room_page.room_sections = room_sections


def spliced_off(ctx):
    """Every spliced piece (the full page's head and foot, the typed hand's line, the
    typed-input fold) rendered whole at each request."""
    from webcalc.web import templating

    templating.SPLICED = False


def i18n_request_off(ctx):
    """Flask-Babel's look-up at each message: no catalogue kept on ``g``, no ``_`` bound to
    the request's catalogue."""
    from flask_babel import Domain, get_locale, get_translations

    from webcalc.web import i18n

    i18n.RequestDomain.get_translations = Domain.get_translations

    def _request_i18n():
        return get_translations(), "en" if str(get_locale()) == "en" else "zh"

    def request_gettext():
        return i18n.template_gettext

    for name, mod in list(sys.modules.items()):
        if name.startswith("webcalc") and mod is not None:
            if getattr(mod, "_request_i18n", None) is i18n._request_i18n:
                mod._request_i18n = _request_i18n
            if getattr(mod, "request_gettext", None) is i18n.request_gettext:
                mod.request_gettext = request_gettext


def tables_off(ctx):
    from webcalc import tables

    _unwrap_everywhere(tables.TABLES)


def tables_half(ctx):
    from webcalc import tables

    _resize_everywhere(tables.TABLES, 0.5)


def rewarm(ctx):
    ctx["rewarm"]()


def memo_off(places):
    """Every memo named in ``places`` ((module, names) pairs) called without its cache."""
    def off(ctx):
        import importlib

        _unwrap_everywhere([getattr(importlib.import_module(module), n)
                            for module, names in places for n in names])
    return off


#: the searches' per-unit tables: the free-joker one in shanten.py, 盘锦's with its variant
SHANTEN_TABLES = (("webcalc.shanten", ("unit_free",)),
                  ("webcalc.variants.panjin_search", ("unit_panjin", "_unit_free_min",
                                                      "_rest_places_all", "_suffix_bound")),
                  ("webcalc.variants.panjin_draws", ("unit_panjin_drawn",
                                                     "unit_panjin_drawn_drops")))


# -- the paths -------------------------------------------------------------------------------

def run_page(ctx, inputs) -> tuple[float, str]:
    c, h = ctx["client"], hashlib.sha256()
    t = time.process_time()
    for _req, url in inputs:
        r = c.get(url, headers={"HX-Request": "true"})
        digest(h, r.status.encode() + r.data)
    return time.process_time() - t, h.hexdigest()


def run_full(ctx, inputs) -> tuple[float, str]:
    """The full calculator page of each input's canonical URL (what a browser without
    JavaScript, or a shared link, asks for)."""
    c, h = ctx["client"], hashlib.sha256()
    t = time.process_time()
    for _req, url in inputs:
        r = c.get(url)
        digest(h, r.status.encode() + r.data)
    return time.process_time() - t, h.hexdigest()


def run_api(ctx, inputs) -> tuple[float, str]:
    c, h = ctx["client"], hashlib.sha256()
    t = time.process_time()
    for req, _url in inputs:
        r = c.post("/api/v1/analyze", json=req)
        digest(h, r.status.encode() + r.data)
    return time.process_time() - t, h.hexdigest()


def run_engine(ctx, inputs) -> tuple[float, str]:
    from webcalc.analysis import analyze
    from webcalc.errors import InputError
    from webcalc.messages import localize

    h = hashlib.sha256()
    t = time.process_time()
    out = []
    for req, _url in inputs:
        try:
            out.append(analyze(req).to_json())
        except InputError as err:
            out.append(err.code)
    cpu = time.process_time() - t
    for o in out:
        h.update(json.dumps(localize(o, "zh"), sort_keys=True, default=str).encode())
    return cpu, h.hexdigest()


def run_healthz(ctx, inputs) -> tuple[float, str]:
    import io

    from werkzeug.test import EnvironBuilder

    app, h = ctx["app"], hashlib.sha256()
    wsgi = ctx.get("wsgi") or app.wsgi_app
    base = EnvironBuilder(path="/healthz", base_url="http://localhost").get_environ()
    seen = []

    def start_response(status, headers, exc_info=None):
        seen.append((status, headers))
    n = 20 * len(inputs)
    t = time.process_time()
    for _ in range(n):
        env = dict(base)
        env["wsgi.input"] = io.BytesIO(b"")
        it = wsgi(env, start_response)
        body = b"".join(it)
        close = getattr(it, "close", None)
        if close:
            close()
    cpu = time.process_time() - t
    digest(h, seen[-1][0].encode() + repr(sorted(seen[-1][1])).encode() + body)
    return cpu, h.hexdigest()


def healthz_off(ctx):
    """Every ``/healthz`` through Flask: the wrapper's test answers "not plain"."""
    f = ctx["app"].wsgi_app
    while f.__module__ != "webcalc.web.health":
        f = dict(zip(f.__code__.co_freevars, f.__closure__ or ()))["inner"].cell_contents
    dict(zip(f.__code__.co_freevars, f.__closure__))["plain"].cell_contents = lambda env: False


PATHS: dict[str, Callable] = {"page": run_page, "full": run_full, "api": run_api,
                              "engine": run_engine, "healthz": run_healthz}

#: (name, where, path, turn off, prepare both children the same way)
MECHANISMS: list[tuple[str, str, str, Callable, Callable | None]] = [
    ("tile caches (_tile, _useful_item, _hand_key, _hand_key_tail)", "web/templating.py",
     "page", templating_caches(TILE_CACHES), None),
    ("palette, tap-target and meld-builder caches", "web/templating.py", "page",
     templating_caches(PANEL_CACHES), None),
    ("all the render caches above", "web/templating.py", "page",
     templating_caches(TILE_CACHES + PANEL_CACHES), None),
    ("room_sections (LRU 256)", "web/room_page.py", "page", room_sections_off, None),
    ("spliced pieces: head and foot, toolbar, hand line, typed-input fold (full page)",
     "web/templating.py", "full", spliced_off, None),
    ("spliced pieces: toolbar, hand line, typed-input fold (fragment)", "web/templating.py",
     "page", spliced_off, None),
    ("per-request translations (RequestDomain, _request_i18n, request_gettext)",
     "web/i18n.py", "page", i18n_request_off, None),
    ("/healthz replayed below Flask", "web/health.py", "healthz", healthz_off, None),
    ("per-suit tables: no cache", "tables.py", "engine", tables_off, None),
    ("per-suit tables: half the sizes", "tables.py", "engine", tables_half, rewarm),
    ("the searches' per-unit tables (unit_free 8,192, unit_panjin(_drawn) 1,024, ...)",
     "shanten.py, variants/panjin_*.py", "engine", memo_off(SHANTEN_TABLES), None),
]


#: inputs per repeat of each path, in multiples of ``--hands`` (the cheaper paths take more,
#: so that each child runs a few hundred milliseconds)
SCALE = {"page": 1, "full": 1, "api": 3, "engine": 8, "healthz": 1}


def child(ctx, mech, on: bool, inputs, ready: int, go: int, out: int) -> None:
    """In a forked child: the mechanism off unless ``on``, the path timed once the parent says
    go (both children at once), the result sent."""
    _name, _where, path, off, prepare = mech
    try:
        if not on:
            off(ctx)
        if prepare is not None:
            prepare(ctx)
        PATHS[path](ctx, ctx["touch"])       # untimed: the pages the child copies on write
        os.write(ready, b".")
        os.read(go, 1)
        cpu, dig = PATHS[path](ctx, inputs)
        msg = json.dumps({"cpu": cpu, "digest": dig})
    except BaseException as err:  # noqa: BLE001 - reported to the parent
        import traceback

        msg = json.dumps({"error": f"{type(err).__name__}: {err}\n{traceback.format_exc()}"})
        os.write(ready, b"!")
    os.write(out, msg.encode())
    os._exit(0)


def in_pair(ctx, mech, inputs) -> dict[bool, dict]:
    """The mechanism on in one child and off in the other, both forked from this process and
    timed at the same time (the machine's load falls on both alike)."""
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    outs, pids = {}, []
    for on in (True, False):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            child(ctx, mech, on, inputs, ready_w, go_r, w)
        os.close(w)
        outs[on] = r
        pids.append(pid)
    for _ in range(2):
        os.read(ready_r, 1)
    os.write(go_w, b"..")
    got = {}
    for on, r in outs.items():
        data = b""
        while chunk := os.read(r, 65536):
            data += chunk
        os.close(r)
        got[on] = json.loads(data)
        if "error" in got[on]:
            raise SystemExit(f"{mech[0]} ({'on' if on else 'off'}): {got[on]['error']}")
    for pid in pids:
        os.waitpid(pid, 0)
    for fd in (ready_r, ready_w, go_r, go_w):
        os.close(fd)
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=40, help="fresh inputs per repeat")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--warm", type=int, default=100, help="warm-up requests")
    ap.add_argument("--only", default="", help="only the mechanisms whose name holds this")
    ap.add_argument("--write", action="store_true", help="write bench/RESULTS.md's section")
    args = ap.parse_args()
    load_start = loadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    mechs = [m for m in MECHANISMS if args.only in m[0]]

    app = make_app()
    client = app.test_client()
    seen: set = set()
    warm = fresh_inputs(1_000_003, args.warm, seen)

    def rewarm() -> None:
        for req, url in warm:
            client.post("/api/v1/analyze", json=req)
            client.get(canonical(app, url), headers={"HX-Request": "true"})
    rewarm()
    run_healthz({"app": app}, warm[:5])
    ctx = {"app": app, "client": client, "rewarm": rewarm,
           "touch": [(req, canonical(app, url)) for req, url in warm[:3]]}
    gc.collect()
    gc.freeze()

    shares: dict[str, list[float]] = {m[0]: [] for m in mechs}
    cpu: dict[str, list[tuple[float, float]]] = {m[0]: [] for m in mechs}
    for rep in range(args.repeats):
        fresh = fresh_inputs(2_000_003 + 7919 * rep, max(SCALE.values()) * args.hands, seen)
        page = [(req, canonical(app, url)) for req, url in fresh[:args.hands]]
        for mech in mechs:
            path = mech[2]
            inputs = page if path in ("page", "full") else fresh[:SCALE[path] * args.hands]
            got = in_pair(ctx, mech, inputs)
            if got[True]["digest"] != got[False]["digest"]:
                raise SystemExit(f"{mech[0]}: the answers differ with it off")
            t_on, t_off = got[True]["cpu"], got[False]["cpu"]
            shares[mech[0]].append((t_off - t_on) / t_off)
            cpu[mech[0]].append((t_on / len(inputs), t_off / len(inputs)))
            print(f"repeat {rep + 1}: {mech[0]}: on {t_on:.3f} s, off {t_off:.3f} s, "
                  f"saves {shares[mech[0]][-1]:+.1%}", file=sys.stderr, flush=True)
    load_end = loadavg()

    rows = []
    for name, where, path, _off, _prep in mechs:
        s, pairs = shares[name], cpu[name]
        per = 20 if path == "healthz" else 1
        on_ms = statistics.median(p[0] for p in pairs) / per * 1000
        off_ms = statistics.median(p[1] for p in pairs) / per * 1000
        med = statistics.median(s)
        unit, scale = ("µs", 1000) if path == "healthz" else ("ms", 1)
        rows.append(f"| {name} | `{where}` | {path} | {on_ms * scale:.3g} {unit} | "
                    f"{off_ms * scale:.3g} {unit} | **{med:.1%}** | {min(s):.1%} – {max(s):.1%} "
                    f"| {'kept' if med >= THRESHOLD else 'under 10 %'} |")
    m = machine()
    cmd = "python bench/machinery.py " + " ".join(sys.argv[1:])
    section = "\n".join([
        HEAD, "",
        f"`{cmd.strip()}` (bench/machinery.py), {started}, commit `{commit}`. Machine: "
        f"{m['nproc']} CPUs ({m['cpu']}), Python {m['python']}; load average at the start "
        f"{load_start}, at the end {load_end} (other engineers' tests on the machine).",
        "",
        f"Each repeat: {args.hands} fresh requests (a new seed each repeat, none the "
        f"warm-up's; the API {SCALE['api']}×, the engine {SCALE['engine']}× as many; every "
        f"variant, 0-8 wildcards, rooms with options and settlements, a quarter in "
        f"English); per mechanism two forked children of the warmed process, on and off, "
        f"run at the same time on the same inputs, CPU time (`time.process_time`), the "
        f"answers' bytes compared equal. {args.repeats} repeats. Saves = (off − on) ÷ off "
        f"of the path's CPU, median of the repeats (range). Path: page = the calculator's "
        f"htmx fragment, api = POST /api/v1/analyze, engine = `analyze()`, healthz = a "
        f"`GET /healthz` called as a WSGI app (20 per input).",
        "",
        "| mechanism | where | path | path CPU on (median per input) | off | saves | range "
        "| verdict |",
        "|---|---|---|---:|---:|---:|---|---|",
        *rows, ""])
    print(section)
    if args.write:
        write_section(BENCH / "RESULTS.md", section, HEAD)


if __name__ == "__main__":
    main()
