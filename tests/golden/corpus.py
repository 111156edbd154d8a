"""A fixed corpus of requests and what the app answered to them, for refactors that must not
change behaviour.

:func:`build` makes the requests from a seed, the same on every machine: analyze bodies of all
four variants (random and constructed winning hands, melds, wildcards, settlements, errors),
the review and quiz, calculator pages (plain, htmx fragments, English, palette taps that
redirect), rules pages, and table-ledger evenings driven through the JSON API and the pages
(create, record, correct, void, adjust, read, live, exports).

:func:`replay` sends them to an app through Flask's test client and returns one record per
request: the status, the headers that carry meaning, and the SHA-256 of the body after
:func:`normalize` has replaced what differs from run to run (tokens, times, CSRF tokens,
idempotency keys, QR codes of token links).

``python -m tests.golden.record`` writes ``tests/golden/recorded.json.gz``;
``tests/test_golden.py`` replays the corpus and compares. Re-record only for a change that
is meant to change what users see, in the commit that makes it, and say so in its body.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any
from urllib.parse import urlencode

from webcalc.variants import VARIANTS as REGISTERED

#: every registered rule set (webcalc.variants.VARIANTS), in its order
VARIANTS = tuple(REGISTERED)
WIN_BY = {"sanmenxia": ["self_draw", "self_draw", "kong_replacement"],
          "zhengzhou": ["self_draw", "self_draw", "kong_replacement"],
          "panjin": ["self_draw", "discard", "discard", "kong_replacement"],
          "jincheng": ["self_draw", "discard", "discard", "kong_replacement", "robbing_kong"]}
SUITS = "mps"

# -- hands ------------------------------------------------------------------------------------


def _kinds(rng: random.Random, honors: bool = True) -> list[str]:
    out = [f"{n}{s}" for s in SUITS for n in range(1, 10)]
    if honors:
        out += [f"{n}z" for n in range(1, 8)]
    return out


def _code(tiles: list[str]) -> str:
    """``["1m", "2m", "5z"]`` → ``"12m5z"`` (suit order m p s z)."""
    by: dict[str, list[str]] = {}
    for t in sorted(tiles, key=lambda t: ("mpsz".index(t[1]), t[0])):
        by.setdefault(t[1], []).append(t[0])
    return "".join("".join(v) + k for k, v in by.items())


def _random_tiles(rng: random.Random, n: int, honors: bool = True) -> list[str]:
    wall = [k for k in _kinds(rng, honors) for _ in range(4)]
    rng.shuffle(wall)
    return wall[:n]


def _group(rng: random.Random, honors: bool = True) -> list[str]:
    if rng.random() < 0.45 or not honors:
        s = rng.choice(SUITS)
        if rng.random() < 0.6:
            n = rng.randint(1, 7)
            return [f"{n}{s}", f"{n + 1}{s}", f"{n + 2}{s}"]
        n = rng.randint(1, 9)
        return [f"{n}{s}"] * 3
    t = rng.choice(_kinds(rng, honors))
    return [t] * 3


def _winning(rng: random.Random, melds: int = 0, honors: bool = True, chows: bool = True):
    """A hand built as 4 groups + a pair: (concealed tiles, meld dicts), copies ≤ 4."""
    for _ in range(50):
        groups = [_group(rng, honors) for _ in range(4)]
        pair = [rng.choice(_kinds(rng, honors))] * 2
        tiles = [t for g in groups for t in g] + pair
        if any(tiles.count(t) > 4 for t in tiles):
            continue
        meld_list = []
        if not chows and any(g[0] != g[1] for g in groups[:melds]):
            continue
        for g in groups[:melds]:
            kind = "chow" if g[0] != g[1] else rng.choice(["pong", "pong", "kong",
                                                            "concealed_kong", "added_kong"])
            m = {"type": kind, "tiles": _code(g + ([g[0]] if "kong" in kind else []))}
            if kind in ("pong", "chow", "kong") and rng.random() < 0.7:
                m["from"] = rng.randint(1, 3)
            meld_list.append(m)
        concealed = [t for g in groups[melds:] for t in g] + pair
        return concealed, meld_list
    return _random_tiles(rng, 14, honors), []


def _options(rng: random.Random, variant: str) -> dict:
    if rng.random() < 0.5:
        return {}
    pick = {
        "sanmenxia": lambda: {"wildcard": rng.random() < 0.7, "pao_max": rng.randint(0, 3),
                              "kong_pao": rng.random() < 0.5},
        "zhengzhou": lambda: {"wildcard": rng.random() < 0.8, "pao_max": rng.randint(0, 5),
                              "seven_pairs_double": rng.random() < 0.5,
                              "four_wildcards_double": rng.random() < 0.5,
                              "dealer_plus_base": rng.random() < 0.5},
        "panjin": lambda: {"wildcard_mode": rng.choice(["none", "next", "both"]),
                           "jiagang": rng.random() < 0.5, "piaohu": rng.random() < 0.5,
                           "seven_pairs": rng.random() < 0.5, "one_suit": rng.random() < 0.5,
                           "jiahu": rng.random() < 0.3, "kong_discard": rng.random() < 0.3},
        "jincheng": lambda: {"draw_penalty": rng.randint(0, 5)},
    }[variant]()
    keys = list(pick)
    rng.shuffle(keys)
    return {k: pick[k] for k in keys[:rng.randint(1, len(keys))]}


def _settlement(rng: random.Random, variant: str, winner_melds: list[dict], win_by: str):
    winner = rng.randint(0, 3)
    s: dict[str, Any] = {"dealer": rng.randint(0, 3), "winner": winner}
    if rng.random() < 0.3:
        s["base"] = rng.choice([1, 2, 5, 10, 0.5])
    if win_by in ("discard", "robbing_kong"):
        s["discarder"] = rng.choice([x for x in range(4) if x != winner])
    if variant in ("sanmenxia", "zhengzhou") and rng.random() < 0.6:
        s["pao"] = [rng.randint(0, 1 if variant == "sanmenxia" else 2) for _ in range(4)]
    if variant == "panjin" and rng.random() < 0.1:
        s["jiagang"] = [rng.random() < 0.4 for _ in range(4)]
    if variant == "jincheng" and rng.random() < 0.4:
        s["ready"] = [rng.random() < 0.8 for _ in range(4)]
        s["ready"][winner] = True
    kongs = []
    for m in winner_melds:
        if "kong" in m["type"]:
            k = {"seat": winner, "type": {"kong": "exposed", "added_kong": "added",
                                          "concealed_kong": "concealed"}[m["type"]]}
            if m.get("from") is not None:
                k["from"] = m["from"]
            kongs.append(k)
    if rng.random() < 0.3:
        seat = rng.choice([x for x in range(4) if x != winner])
        k = {"seat": seat, "type": rng.choice(["exposed", "added", "concealed"])}
        if variant not in ("sanmenxia", "zhengzhou") and k["type"] != "concealed":
            k["type"] = "concealed"
        if k["type"] != "concealed":
            k["from"] = rng.choice([x for x in range(4) if x != seat])
        kongs.append(k)
    if kongs:
        s["kongs"] = kongs
    if variant == "sanmenxia" and rng.random() < 0.2:
        s["biao_discards"] = rng.randint(0, 2)
    if variant == "jincheng" and rng.random() < 0.2:
        s["follow_dealer"] = True
    return s


def _analyze_body(rng: random.Random) -> dict:
    variant = rng.choice(VARIANTS)
    kind = rng.random()
    body: dict[str, Any] = {"variant": variant}
    opts = _options(rng, variant)
    if opts:
        body["options"] = opts
    if rng.random() < 0.6 and (variant != "jincheng" or rng.random() < 0.1):
        body["indicator"] = rng.choice(_kinds(rng))
    if kind < 0.45:                                  # a constructed win, often settled
        concealed, melds = _winning(rng, rng.choice([0, 0, 1, 2]),
                                    chows=variant != "sanmenxia" or rng.random() < 0.05)
        body["hand"] = _code(concealed)
        if melds:
            body["melds"] = melds
        body["winning_tile"] = rng.choice(concealed)
        win_by = rng.choice(WIN_BY[variant] + (["robbing_kong"] if rng.random() < 0.05
                                               else []))
        body["win_by"] = win_by
        if rng.random() < 0.75:
            body["settlement"] = _settlement(rng, variant, melds, win_by)
    elif kind < 0.75:                                # 13 tiles: waits, useful, shanten
        body["hand"] = _code(_random_tiles(rng, 13))
    elif kind < 0.93:                                # 14 tiles: efficiency, discards
        body["hand"] = _code(_random_tiles(rng, 14))
    else:                                            # bad input of some kind
        body["hand"] = rng.choice(["123x", "1111m1m", "", "12m", "一二三万四五六筒七八九条东东东",
                                   "１２３ｍ４５６ｐ７８９ｓ１１２２ｚ", "99999m", "0m"])
        if rng.random() < 0.5:
            body["melds"] = [{"type": rng.choice(["pong", "wrong"]), "tiles": "123m"}]
    if rng.random() < 0.2:
        body["visible"] = _code(_random_tiles(rng, rng.randint(1, 8)))
    return body


# -- pages ------------------------------------------------------------------------------------

def _page_query(rng: random.Random) -> list[tuple[str, str]]:
    body = _analyze_body(rng)
    q: list[tuple[str, str]] = [("variant", body["variant"])] + _query_of(body)
    if rng.random() < 0.05 and not body.get("settlement"):
        q.append(("s_winner", "none"))
    if rng.random() < 0.15:
        q.append(("n1", rng.choice(["老王", "Alice", "阿强"])))
    return q


def _query_of(body: dict) -> list[tuple[str, str]]:
    """The calculator's URL fields of an analyze or ledger body (without the variant)."""
    q: list[tuple[str, str]] = []
    for k in ("hand", "indicator", "winning_tile", "visible"):
        if body.get(k):
            q.append((k, body[k]))
    if body.get("melds"):
        words = {"pong": "碰", "chow": "吃", "kong": "明杠", "concealed_kong": "暗杠",
                 "added_kong": "补杠"}
        q.append(("melds", " ".join(words.get(m["type"], "") + m["tiles"]
                                    + (f"@{m['from']}" if m.get("from") is not None else "")
                                    for m in body["melds"])))
    if body.get("win_by") and body["win_by"] != "self_draw":
        q.append(("win_by", body["win_by"]))
    for k, v in (body.get("options") or {}).items():
        q.append((f"opt_{k}", ("1" if v else "0") if isinstance(v, bool) else str(v)))
    s = body.get("settlement")
    if s:
        q.append(("s_winner", "none" if s["winner"] is None else str(s["winner"])))
        if "dealer" in s:
            q.append(("s_dealer", str(s["dealer"])))
        if "discarder" in s:
            q.append(("s_discarder", str(s["discarder"])))
        for i, p in enumerate(s.get("pao") or []):
            if p:
                q.append((f"s_pao{i}", str(p)))
        for i, j in enumerate(s.get("jiagang") or []):
            if j:
                q.append((f"s_jiagang{i}", "1"))
        if s.get("base", 1) != 1:
            q.append(("s_base", str(s["base"])))
    return q


def _pages(rng: random.Random, n: int) -> list[dict]:
    out = []
    for _i in range(n):
        q = _page_query(rng)
        r = rng.random()
        headers = {}
        if r < 0.15:
            q.append(("lang", "en"))
        if 0.15 <= r < 0.3:
            headers = {"HX-Request": "true", "HX-Request-Type": "partial"}
        if 0.3 <= r < 0.4:                       # a palette tap: a one-off action
            q.append(("add", rng.choice(_kinds(rng))))
            if rng.random() < 0.3:
                q.append(("target", rng.choice(["melds", "indicator", "winning_tile",
                                                "visible"])))
        if 0.4 <= r < 0.45:
            q.append(("remove", str(rng.randint(0, 12))))
        if 0.45 <= r < 0.5:
            q.append(("readings", "40"))
        if 0.5 <= r < 0.55:
            headers = {"Accept-Language": "en-US,en;q=0.8"}
        out.append({"method": "GET", "path": "/?" + urlencode(q), "headers": headers})
    return out


# -- ledger evenings --------------------------------------------------------------------------

def _ledger_body(rng: random.Random, variant: str) -> dict:
    r = rng.random()
    if r < 0.12:
        return {"settlement": {"winner": None}}
    if r < 0.2:
        if rng.random() < 0.5:
            return {"adjustment": {"fee": rng.choice([20, 40, 10.5]), "paid_by": rng.randint(0, 3),
                                   "note": rng.choice(["台费", "茶水", "=SUM(A1)"])}}
        a, b = rng.sample(range(4), 2)
        return {"adjustment": {"payments": [{"from": a, "to": b, "amount": rng.randint(1, 9)}],
                               "note": "罚"}}
    concealed, melds = _winning(rng, rng.choice([0, 1, 1, 2]), chows=variant != "sanmenxia")
    body: dict[str, Any] = {"hand": _code(concealed), "winning_tile": rng.choice(concealed)}
    if melds:
        body["melds"] = melds
    if rng.random() < 0.5 and variant != "jincheng":
        body["indicator"] = rng.choice(_kinds(rng))
    win_by = rng.choice(WIN_BY[variant])
    body["win_by"] = win_by
    s = _settlement(rng, variant, melds, win_by)
    s.pop("base", None)
    s.pop("dealer", None)
    s.pop("biao_discards", None)
    body["settlement"] = s
    return body


def _evening(rng: random.Random, t: int) -> list[dict]:
    variant = VARIANTS[t % len(VARIANTS)]
    E, V = f"{{edit{t}}}", f"{{view{t}}}"
    create = {"variant": variant, "names": rng.choice([["甲", "乙", "丙", "丁"],
                                                      ["East", "老王", "=cmd", "丁"]])}
    if rng.random() < 0.5:
        create["options"] = _options(rng, variant)
    if rng.random() < 0.4:
        create["base"] = rng.choice([2, 5, 0.5])
    steps: list[dict] = [{"method": "POST", "path": "/api/v1/tables", "json": create,
                          "save": t}]
    hands = 0
    for _ in range(rng.randint(6, 12)):
        body = _ledger_body(rng, variant)
        steps.append({"method": "POST", "path": f"/api/v1/tables/{E}/hands", "json": body})
        hands += 1
        if rng.random() < 0.15:
            n = rng.randint(1, hands)
            steps.append({"method": "PUT", "path": f"/api/v1/tables/{E}/hands/{n}",
                          "json": _ledger_body(rng, variant)})
        if rng.random() < 0.08:
            steps.append({"method": "POST", "path": f"/api/v1/tables/{E}/hands/{hands}/void",
                          "json": {"reason": rng.choice(["记错了", "typo"])}})
    for _ in range(rng.randint(2, 4)):                # entered on the table page, then 记入
        body = _ledger_body(rng, variant)
        if "adjustment" in body:
            continue
        steps.append({"method": "GET", "path": f"/t/{E}?" + urlencode(_query_of(body)),
                      "record": True})
    lang = {"Accept-Language": "en"} if rng.random() < 0.3 else {}
    steps += [
        {"method": "GET", "path": f"/api/v1/tables/{V}", "headers": lang},
        {"method": "GET", "path": f"/api/v1/tables/{E}"},
        {"method": "GET", "path": f"/t/{E}", "headers": lang},
        {"method": "GET", "path": f"/t/{V}", "headers": lang},
        {"method": "GET", "path": f"/t/{V}/live", "headers": lang},
        {"method": "GET", "path": f"/t/{E}/export.csv", "headers": lang},
        {"method": "GET", "path": f"/t/{E}/export.json"},
        {"method": "GET", "path": f"/t/{V}/chart.svg"},
        {"method": "GET", "path": f"/t/{E}?correct=1"},
        {"method": "POST", "path": f"/api/v1/tables/{V}/hands", "json": {"settlement": {
            "winner": None}}},
    ]
    return steps


# -- the corpus -------------------------------------------------------------------------------

def build(seed: int = 20261201) -> list[dict]:
    """The corpus: a list of requests ``{"method", "path", "headers"?, "json"?, "save"?}``.
    ``{editN}``/``{viewN}`` in a path stand for the tokens of the table the step with
    ``"save": N`` created."""
    rng = random.Random(seed)
    out: list[dict] = []
    for _ in range(1400):
        out.append({"method": "POST", "path": "/api/v1/analyze", "json": _analyze_body(rng),
                    "headers": {"Accept-Language": "en"} if rng.random() < 0.2 else {}})
    out.append({"method": "GET", "path": "/api/v1/variants", "headers": {}})
    out.append({"method": "GET", "path": "/api/v1/variants",
                "headers": {"Accept-Language": "en"}})
    for v in VARIANTS:
        for day in ("2026-11-30", "2026-12-01"):
            out.append({"method": "GET", "path": f"/api/v1/quiz?variant={v}&date={day}"})
    out += _pages(rng, 1100)
    from webcalc.web.rules_content import by_id  # every rule page, both languages

    out.append({"method": "GET", "path": "/rules"})
    out.append({"method": "GET", "path": "/rules?lang=en"})
    for rid in sorted(by_id()):
        out.append({"method": "GET", "path": f"/rules/{rid}"})
        out.append({"method": "GET", "path": f"/rules/{rid}?lang=en"})
    for page in ("/t/new", "/t/new?variant=panjin", "/t/new?lang=en", "/t/mine", "/healthz",
                 "/nope", "/api/v1/nope"):
        out.append({"method": "GET", "path": page})
    for t in range(24):
        out += _evening(rng, t)
    return out


# -- replay and normalization -----------------------------------------------------------------

_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(\+00:00|Z)?")
_DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
_CSRF = re.compile(r'((?:name="csrf_token"[^>]*value=|"X-CSRFToken":\s*)")[^"]+"|'
                   r'(value=")[^"]+("[^>]*name="csrf_token")')
_KEY = re.compile(r'(name="idempotency_key"[^>]*value=")[^"]+"')
_KEY_URL = re.compile(r"(idempotency_key=)[A-Za-z0-9_%-]+")
_SVG_QR = re.compile(r'<svg role="img" aria-label="QR".*?</svg>', re.S)
_CLOCK = re.compile(r"\b\d\d:\d\d(:\d\d)?\b")
#: the day a table was opened, as its default name says it (webcalc/web/ledger_view.py):
#: 12月6日 / 6 Dec 2026; a corpus recorded one day replays the next
_DAY = re.compile(r"\b\d{1,2}月\d{1,2}日"
                  r"|\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) 20\d\d\b")
#: a static file's fingerprinted name (webcalc/web/assets.py) and the service worker's version:
#: they change with the file's bytes, which is not what this corpus is about
_ASSET = re.compile(r"(/static/[\w/.-]+?)\.[0-9a-f]{10}\.(\w+)")
_SW_VERSION = re.compile(r'VERSION = "[0-9a-f]+"')
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
HEADERS = ("Content-Type", "Location", "HX-Push-Url", "HX-Replace-Url", "Vary",
           "Cache-Control", "Content-Disposition", "Allow", "ETag")


def normalize(text: str, tokens: dict[str, str]) -> str:
    """``text`` with what differs between runs replaced: each known token by its name,
    times and dates, CSRF tokens, idempotency keys and QR codes (they draw a token link)."""
    for value, name in sorted(tokens.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(value, name)
    text = _SVG_QR.sub("<svg QR>", text)
    text = _ASSET.sub(r"\1.<fp>.\2", text)
    text = _SW_VERSION.sub('VERSION = "<fp>"', text)
    text = _UUID.sub("<uuid>", text)                 # pygal's chart ids
    text = _CSRF.sub(lambda m: (m.group(1) or m.group(2)) + '<csrf>"' + (m.group(3) or ""), text)
    text = _KEY.sub(r'\1<key>"', text)
    text = _KEY_URL.sub(r"\1<key>", text)
    text = _TIME.sub("<time>", text)
    text = _DATE.sub("<date>", text)
    text = _DAY.sub("<day>", text)
    return _CLOCK.sub("<clock>", text)


def replay(client, corpus: list[dict]) -> list[dict]:
    """Send every request of ``corpus`` with ``client`` (a Flask test client); one record
    ``{"status", "headers", "sha256", "length"}`` per request, bodies normalized."""
    saved: dict[int, tuple[str, str]] = {}
    tokens: dict[str, str] = {}
    out = []
    BODIES.clear()
    for req in corpus:
        path = req["path"]
        for n, (edit, view) in saved.items():
            path = path.replace(f"{{edit{n}}}", edit).replace(f"{{view{n}}}", view)
        kw: dict[str, Any] = {"headers": req.get("headers") or {}}
        if "json" in req:
            kw["json"] = req["json"]
        resp = client.open(path, method=req["method"], **kw)
        if "save" in req and resp.status_code == 201:
            data = resp.get_json()
            saved[req["save"]] = (data["edit_token"], data["view_token"])
            tokens[data["edit_token"]] = f"{{edit{req['save']}}}"
            tokens[data["view_token"]] = f"{{view{req['save']}}}"
        record = _record(resp, tokens)
        location = resp.headers.get("Location", "")
        if resp.status_code == 303 and req["method"] == "GET" and location.startswith("/"):
            # a non-canonical page URL or a tap: what the browser shows next counts too
            resp = client.get(location, headers=kw["headers"])
            record["then"] = _record(resp, tokens)
        if req.get("record") and resp.status_code == 200:
            record["recorded"] = _press_record(client, resp, tokens, kw["headers"])
        out.append(record)
    return out


_RECORD_BUTTON = re.compile(r'<button[^>]*id="record"[^>]*name="csrf_token" value="([^"]+)"'
                            r'[^>]*formaction="([^"]+)"')


def _press_record(client, page, tokens: dict[str, str], headers: dict) -> dict | None:
    """Press the table page's 记入 as a browser without JavaScript does: post the entry's
    fields (the page's own URL state) with the button's CSRF value to its formaction, then
    follow the 303; ``None`` when the page shows no 记入 button."""
    from html import unescape
    from urllib.parse import parse_qsl, urlsplit

    html = page.get_data(as_text=True)
    m = _RECORD_BUTTON.search(html)
    if m is None:
        return None
    action = unescape(m.group(2))
    url = urlsplit(page.request.url)
    data = parse_qsl(url.query) + parse_qsl(urlsplit(action).query) + [("csrf_token",
                                                                        m.group(1))]
    from werkzeug.datastructures import MultiDict

    resp = client.post(urlsplit(action).path, data=MultiDict(data), headers=headers)
    out = _record(resp, tokens)
    if resp.status_code == 303 and resp.headers.get("Location", "").startswith("/"):
        out["then"] = _record(client.get(resp.headers["Location"], headers=headers), tokens)
    return out


#: the normalized bodies the last :func:`replay` answered, by their SHA-256 (what a failing
#: comparison diffs against the recorded ones, tests/golden/record.py)
BODIES: dict[str, str] = {}


def _record(resp, tokens: dict[str, str]) -> dict:
    body = normalize(resp.get_data(as_text=True), tokens)
    headers = {h: normalize(resp.headers[h], tokens) for h in HEADERS if h in resp.headers}
    sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
    BODIES[sha] = body
    return {"status": resp.status_code, "headers": headers, "sha256": sha, "length": len(body)}


def describe(req: dict) -> str:
    return f"{req['method']} {req['path']}" + (f" {json.dumps(req['json'], ensure_ascii=False)}"
                                               if "json" in req else "")
