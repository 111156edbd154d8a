"""A seeded fuzzer of the table ledger's JSON API and forms (and of ``/api/v1/analyze``), for
tests/ledger/test_fuzz.py (a few thousand requests per database) and bench/fuzz.py (``make
fuzz``: 100,000 per database).

Every request starts from a body the server accepts (creating a table, recording a hand with
tiles, a 荒庄, a win without tiles, a transfer, a fee, correcting, voiding, importing an export
of a live table, analysing a hand) and applies one to three mutations: any value, key or list
item replaced by a hostile one (lone surrogates and NUL in strings, control characters, long
text, integers past 2^31, 2^63 and 2^64, floats such as 1e-300, 5e-324 and 1.8e308, the wrong
type), keys added (named with surrogates or NUL too) or removed, values nested up to 400 deep;
the URL's hand number and token are mutated too (0, 2^31, 2^63, 10^30; a view token, garbage),
a circle's evening names its players by id (0, 6 of 5, 2^31, 2^63, 10^30),
and a few bodies are sent broken (cut short, NaN, invalid UTF-8, not an object). Pages' forms
(new table, record, correct, void, adjust, import) get the same hostile text (NUL, control
characters; a form cannot carry a surrogate).

:func:`check` holds every answer to the rules of the brief: never a 500, only the statuses
API.md documents, and under ``/api/`` an ``{"error": {"code", "message", "field"}}`` with a
known code and a Chinese message. Every few dozen requests each live table is read back and
exported, and the export imported again: a value stored once must never make a later read,
export or import fail (a base of 1e-300 did: every later win answered 500).
"""

from __future__ import annotations

import json
import random
import re
import string
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from webcalc.errors import CODES
from webcalc.variants import VARIANTS as REGISTERED

#: every registered rule set (webcalc.variants.VARIANTS), in its order
VARIANTS = tuple(REGISTERED)
CHINESE = re.compile(r"[\u4e00-\u9fff]")
#: every error code an answer under /api/ may carry (API.md, docs/LEDGER.md)
API_CODES = set(CODES) | {"bad_json", "bad_request", "not_found", "read_only", "conflict",
                          "idempotency_conflict", "voided", "too_many", "rate_limited", "busy",
                          "too_large", "method_not_allowed", "unsupported_media_type"}
#: the statuses API.md and docs/LEDGER.md document (304: an unchanged table under its ETag)
STATUSES = {200, 201, 303, 304, 400, 403, 404, 405, 409, 413, 414, 422, 429}

WINS = [  # each a win in every variant, dealer 0, seat 1 winning by self-draw
    {"hand": "123m456p789s11222z", "winning_tile": "2z", "win_by": "self_draw"},
    {"hand": "111m234p567s789s55z", "winning_tile": "5z", "win_by": "self_draw"},
    {"hand": "123m456p789s11155p", "winning_tile": "5p", "win_by": "self_draw"},
]
HOSTILE_STRINGS = [
    "", " ", "\x00", "记\x00错", "\ud800", "记\udfff错", "\udc00\ud800", "\ud83d", "\x07\x1b",
    "\u202e\u200b\ufeff", "\n\r\t", "\u3000", "null", "0", "-1", "1e-300", "NaN", "self_draw",
    "discard", "exposed", "concealed", "zhengzhou", "123m", "1m" * 120, "东" * 300,
    "x" * 1000, "=HYPERLINK(\"http://x\")", "<script>", "%s%n", "../../etc", "\\ud800",
    "2024-05-01T20:00:00Z", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00",
]
HOSTILE_NUMBERS = [
    0, -1, 1, 2, 3, 4, 5, 16, 17, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1,
    2 ** 63 - 1, 2 ** 63, 2 ** 64, -(2 ** 63) - 1, 10 ** 30, 10 ** 400, 0.0, -0.0, 0.5, 0.1,
    0.25, 1e-300, 5e-324, 1e-11, 1.7976931348623157e308, -1e308, 123456789.12345679,
    1e15 + 0.3, 999999999.5, 1e9, 1e10, 0.30000000000000004, 2.5, -2.5,
]
KEYS = ["\ud800", "\udfff", "\x00", "a\x00", "", " ", "variant", "options", "base",
        "settlement", "hand", "adjustment", "reason", "x" * 200, "东", "__proto__", "0"]


def hostile_scalar(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.40:
        return rng.choice(HOSTILE_STRINGS)
    if r < 0.50:
        alphabet = string.printable + "\x00\ud800\udfff\u4e00东南西北万筒条"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
    if r < 0.90:
        return rng.choice(HOSTILE_NUMBERS)
    return rng.choice([True, False, None])


def hostile(rng: random.Random, depth: int = 0) -> Any:
    """A hostile JSON value: mostly scalars, sometimes containers, now and then very deep."""
    r = rng.random()
    if r < 0.70 or depth > 2:
        return hostile_scalar(rng)
    if r < 0.82:
        return [hostile(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    if r < 0.94:
        return {rng.choice(KEYS): hostile(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    value: Any = hostile_scalar(rng)
    for _ in range(rng.choice([20, 31, 32, 33, 100, 400])):
        value = [value] if rng.random() < 0.5 else {"a": value}
    return value


def _nodes(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in ``value``: paths of keys and indices (the root is ``()``)."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, path + (i,))
    return out


def _get(value: Any, path: tuple) -> Any:
    for p in path:
        value = value[p]
    return value


def mutate(rng: random.Random, body: Any) -> Any:
    """``body`` (a fresh copy) with one to three hostile changes."""
    body = json.loads(json.dumps(body))
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        places = _nodes(body)
        path = rng.choice(places)
        if not path:
            if rng.random() < 0.1:
                return hostile(rng)
            if isinstance(body, dict):
                body[rng.choice(KEYS)] = hostile(rng)
            continue
        parent, key = _get(body, path[:-1]), path[-1]
        old = parent[key]
        r = rng.random()
        if r < 0.55:
            parent[key] = hostile(rng)
        elif r < 0.65 and isinstance(old, str):
            i = rng.randint(0, len(old))
            parent[key] = old[:i] + rng.choice(["\x00", "\ud800", "\udfff", "\x07", "\u3000"]) \
                + old[i:]
        elif r < 0.75 and isinstance(parent, dict):
            del parent[key]
        elif r < 0.85 and isinstance(parent, dict):
            parent[rng.choice(KEYS)] = hostile(rng)
        elif r < 0.92 and isinstance(parent, list):
            parent.extend([old] * rng.randint(1, 20))
        else:
            value = old
            for _ in range(rng.choice([5, 31, 40, 400])):
                value = [value]
            parent[key] = value
    return body


def encode(rng: random.Random, body: Any) -> bytes:
    """``body`` as the bytes of a request: JSON (a lone surrogate as its escape \\ud800),
    now and then broken: raw surrogates (invalid UTF-8), NaN, cut short, doubled."""
    r = rng.random()
    if r < 0.90:
        return json.dumps(body, allow_nan=True).encode()
    if r < 0.93:
        return json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if r < 0.96:
        raw = json.dumps(body).encode()
        return raw[:rng.randint(0, max(len(raw) - 1, 0))]
    if r < 0.98:
        return rng.choice([b"NaN", b"[Infinity]", b'{"variant": -Infinity}', b"\xff\xfe{",
                           b"\xef\xbb\xbf{}", b"{}{}", b"", b"null", b"[]", b"\"x\""])
    return json.dumps(body).encode() * 2


@dataclass
class Live:
    """A table the fuzzer writes to: its tokens, variant and how many entries it holds."""

    edit: str
    view: str
    variant: str
    entries: int = 0


@dataclass
class Fuzzer:
    """Sends ``n`` requests through ``client`` (a Flask test client of an app with CSRF off
    and no creation cap), counts the statuses, and keeps what broke the rules."""

    client: Any
    rng: random.Random
    statuses: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    requests: int = 0
    circle: str | None = None                  # a circle's edit token, made on first use

    # -- requests -------------------------------------------------------------------------
    def send(self, method: str, path: str, raw: bytes | None = None, *, form: dict | None = None,
             headers: dict | None = None) -> Any:
        self.requests += 1
        kwargs: dict = {"headers": headers or {}}
        if form is not None:
            kwargs["data"] = form
        elif raw is not None:
            kwargs["data"] = raw
            kwargs["content_type"] = "application/json"
        resp = getattr(self.client, method)(path, **kwargs)
        self.statuses[resp.status_code] += 1
        problem = check(path, resp)
        if problem:
            self.failures.append({"problem": problem, "method": method, "path": path,
                                  "body": (raw or b"")[:2000].decode("utf-8", "replace")
                                  if form is None else repr(form)[:2000],
                                  "status": resp.status_code,
                                  "answer": resp.get_data()[:1000].decode("utf-8", "replace")})
        return resp

    def new_table(self) -> Live:
        variant = self.rng.choice(VARIANTS)
        base = self.rng.choice([1, 2, 0.5, 0.25, 10, 100, 0.1])
        r = self.client.post("/api/v1/tables", json={"variant": variant, "base": base})
        assert r.status_code == 201, r.get_data(as_text=True)
        live = Live(r.json["edit_token"], r.json["view_token"], variant)
        for body in (self.entry(), self.entry()):
            if self.client.post(f"/api/v1/tables/{live.edit}/hands", json=body).status_code == 201:
                live.entries += 1
        return live

    def table(self) -> Live:
        if len(self.tables) < 4 or self.rng.random() < 0.01:
            self.tables.append(self.new_table())
            self.tables = self.tables[-6:]
        live = self.rng.choice(self.tables)
        if live.entries > 60:                      # keep tables small: requests stay cheap
            self.tables.remove(live)
            live = self.new_table()
            self.tables.append(live)
        return live

    # -- valid bodies -------------------------------------------------------------------
    def entry(self) -> dict:
        rng = self.rng
        r = rng.random()
        settlement: dict = {"winner": 1}
        if rng.random() < 0.5:
            settlement["pao"] = [rng.randint(0, 2) for _ in range(4)]
        if rng.random() < 0.3:
            settlement["kongs"] = [{"seat": rng.randrange(4), "type": "concealed"}]
        if r < 0.55:
            return {**rng.choice(WINS), "settlement": settlement,
                    "idempotency_key": f"k{rng.getrandbits(40)}"}
        if r < 0.70:
            return {"settlement": {"winner": None}}
        if r < 0.80:
            return {"win_by": "self_draw", "settlement": settlement, "declared": {}}
        if r < 0.90:
            return {"adjustment": {"payments": [{"from": rng.randrange(4), "to": 0,
                                                 "amount": rng.choice([1, 2.5, 10])}],
                                   "note": rng.choice(["罚", "", "诈和"])}}
        return {"adjustment": {"fee": rng.choice([10, 40, 0.5]), "paid_by": rng.randrange(4),
                               "note": "台费"}}

    def number(self, live: Live) -> Any:
        if self.rng.random() < 0.8:
            return self.rng.randint(1, live.entries + 1)
        return self.rng.choice([0, 2 ** 31, 2 ** 63, 2 ** 64, 10 ** 30, -1, "x", "1.5"])

    def token(self, live: Live, write: bool = True) -> str:
        r = self.rng.random()
        if r < 0.9:
            return live.edit if write else self.rng.choice([live.edit, live.view])
        if r < 0.95:
            return live.view
        return self.rng.choice(["x", "A" * 32, "%00", "..", "A" * 70, "\u4e00" * 32])

    def circle_token(self) -> str:
        if self.circle is None:
            r = self.client.post("/api/v1/circles", json={"name": "牌友",
                                                          "players": list("甲乙丙丁戊")})
            assert r.status_code == 201, r.get_data(as_text=True)
            self.circle = r.json["edit_token"]
        return self.circle

    # -- one request ----------------------------------------------------------------------
    def step(self) -> None:
        rng = self.rng
        r = rng.random()
        live = self.table()
        if r < 0.08:
            body = {"variant": rng.choice(VARIANTS), "options": {},
                    "base": rng.choice([1, 0.5, 100]), "names": ["甲", "乙", "丙", "丁"],
                    "dealer": rng.randrange(4)}
            raw = None
            if rng.random() < 0.5:                   # an evening of a circle: its players' ids
                body = {"variant": body["variant"], "circle": self.circle_token(),
                        "players": rng.sample(range(1, 6), 4)}
                if rng.random() < 0.5:               # one no player has, sent as it is
                    body["players"][rng.randrange(4)] = rng.choice(
                        [0, 6, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 63, 2 ** 64, 10 ** 30])
                    raw = encode(rng, body)
            self.send("post", "/api/v1/tables", raw or encode(rng, mutate(rng, body)))
        elif r < 0.40:
            resp = self.send("post", f"/api/v1/tables/{self.token(live)}/hands",
                             encode(rng, mutate(rng, self.entry())))
            if resp.status_code == 201:
                live.entries += 1
        elif r < 0.52:
            self.send("put", f"/api/v1/tables/{self.token(live)}/hands/{self.number(live)}",
                      encode(rng, mutate(rng, {**self.entry(), "expected_revision": 1})))
        elif r < 0.60:
            self.send("post", f"/api/v1/tables/{self.token(live)}/hands/{self.number(live)}/void",
                      encode(rng, mutate(rng, {"reason": rng.choice(["记错", "重复"])})))
        elif r < 0.70:
            doc = self.client.get(f"/api/v1/tables/{live.view}/export").json
            self.send("post", "/api/v1/tables/import", encode(rng, mutate(rng, doc)))
        elif r < 0.75:
            self.send("get", f"/api/v1/tables/{self.token(live, write=False)}",
                      headers={"If-None-Match": rng.choice(['"1"', "*", "x", '"\u4e00"'])})
        elif r < 0.85:
            body = {"variant": live.variant, **rng.choice(WINS),
                    "settlement": {"winner": 1, "dealer": 0, "base": 1}}
            self.send("post", "/api/v1/analyze", encode(rng, mutate(rng, body)))
        else:
            self.page_step(live)
        if self.requests % 40 == 0:
            self.invariants()

    def page_step(self, live: Live) -> None:
        """A ledger form, posted with hostile text in its fields (CSRF is off in this app)."""
        rng = self.rng

        def text() -> str:
            v = hostile_scalar(rng)
            return (v if isinstance(v, str) else json.dumps(v)).encode(
                "utf-8", "surrogatepass").decode("utf-8", "replace")

        r = rng.random()
        if r < 0.2:
            form = {"variant": rng.choice(VARIANTS + ("x",)), "base": text(), "dealer": text(),
                    **{f"n{i}": text() for i in range(4)}}
            self.send("post", "/t/new", form=form)
        elif r < 0.45:
            form = {"hand": rng.choice(WINS)["hand"], "winning_tile": "2z",
                    "win_by": "self_draw", "s_winner": "1", "expected_number": text(),
                    "idempotency_key": text(), rng.choice(["hand", "s_pao0", "s_kongs", "melds",
                                                           "s_base", "n1", "draw"]): text()}
            resp = self.send("post", f"/t/{self.token(live)}/hands", form=form)
            if resp.status_code == 303:
                live.entries += 1
        elif r < 0.6:
            self.send("post", f"/t/{self.token(live)}/hands/{self.number(live)}/void",
                      form={"reason": text()})
        elif r < 0.8:
            form = {"kind": rng.choice(["fee", "transfer", text()]), "amount": text(),
                    "paid_by": text(), "from": text(), "to": text(), "note": text()}
            self.send("post", f"/t/{self.token(live)}/adjust", form=form)
        else:
            doc = self.client.get(f"/api/v1/tables/{live.view}/export").json
            raw = encode(rng, mutate(rng, doc)).decode("utf-8", "replace")
            self.send("post", "/t/import", form={"text": raw})

    def invariants(self) -> None:
        """What was stored reads back, exports, imports again, and its totals square."""
        for live in self.tables:
            for path in (f"/api/v1/tables/{live.view}", f"/api/v1/tables/{live.view}/export",
                         f"/t/{live.view}", f"/t/{live.edit}/export.csv"):
                resp = self.send("get", path)
                if resp.status_code != 200:
                    self.failures.append({"problem": f"stored table unreadable: {path}",
                                          "status": resp.status_code,
                                          "answer": resp.get_data()[:1000].decode("utf-8",
                                                                                  "replace")})
            t = self.client.get(f"/api/v1/tables/{live.view}").json
            if sum(Fraction(repr(x)) if isinstance(x, float) else Fraction(x)
                   for x in t["totals"]) != 0:
                self.failures.append({"problem": "totals do not sum to zero",
                                      "totals": t["totals"]})
            doc = self.client.get(f"/api/v1/tables/{live.view}/export").data
            resp = self.send("post", "/api/v1/tables/import", doc)
            if resp.status_code != 201:
                self.failures.append({"problem": "an export does not import again",
                                      "status": resp.status_code,
                                      "answer": resp.get_data()[:1000].decode("utf-8",
                                                                              "replace")})

    def run(self, n: int, progress: Callable[[int], None] | None = None) -> None:
        while self.requests < n:
            self.step()
            if progress is not None:
                progress(self.requests)


def check(path: str, resp) -> str | None:
    """Why ``resp`` breaks the rules, or None."""
    status = resp.status_code
    if status >= 500:
        return f"status {status}"
    if status not in STATUSES:
        return f"undocumented status {status}"
    if not path.startswith("/api/") or status in (200, 201, 304):
        return None
    if not resp.is_json:
        return "an API error that is not JSON"
    err = (resp.get_json() or {}).get("error")
    if not isinstance(err, dict) or set(err) - {"code", "message", "field", "detail",
                                                 "position", "reasons"} \
            or not {"code", "message", "field"} <= set(err):
        return f"malformed error: {err!r}"[:300]
    if err["code"] not in API_CODES:
        return f"unknown code {err['code']!r}"
    if not isinstance(err["message"], str) or not CHINESE.search(err["message"]):
        return f"message not in Chinese: {err['message']!r}"[:300]
    if err["code"] == "too_many" and not isinstance(err.get("detail"), dict):
        return "too_many without its cap in detail"
    return None
