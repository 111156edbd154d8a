"""A seeded fuzzer of the app's JSON API and pages: the table ledger's API and forms,
``/api/v1/analyze``, the circles (牌友圈), the hand review (牌谱复盘), the daily 何切 quiz and
the 三门峡 history (表), for tests/ledger/test_fuzz.py (a few thousand requests per
database) and bench/fuzz.py (``make fuzz``: 100,000 per database).

The mix (:data:`MIX`, shares of the steps; :attr:`Fuzzer.areas` counts the requests, of
which the ledger's invariant reads make the ledger about 70 % and the rest together 30 %):

* **ledger** (60 %): create, record (a hand with tiles, a 荒庄, a win without tiles, a
  transfer, a fee), correct, void, import an export of a live table, read (with
  ``If-None-Match``), ``/api/v1/analyze``, and the ledger's forms (new table, record,
  correct, void, adjust, import);
* **circles** (18 %): ``POST /api/v1/circles``, ``…/<edit>/players``, ``POST
  /api/v1/tables`` with ``circle`` and ``players``, ``GET /api/v1/circles/<token>``,
  ``…/players/<id>``, ``…/export``, ``POST /api/v1/circles/import`` of a real export (as it
  is, or mutated, often in the circle's own parts: its name, players, a table's seats); and
  the pages: ``/c/new`` (create, import by text or file), ``/c/<token>`` (``?evenings=all``),
  its players and tables forms, a player's page and chart, the JSON and CSV exports. Tables
  made in a circle join the ledger's live tables; circles made by an accepted mutated
  request are kept now and then;
* **review** (9 %): ``POST /api/v1/review`` with a legal log (:func:`review_log`) of every
  rule set of webcalc.variants.VARIANTS: dealt hands of 13 or 14, draws, discards, pongs,
  chows where allowed, claimed, concealed and added kongs, wins on a draw or a discard,
  ``visible``, room options; and ``/review`` with that log as its URL state and a tap
  (``add`` in a mode, ``remove_start``, ``undo``, ``win``, ``clear``, ``step``, htmx),
  garbled turn texts and option values, the redirect followed;
* **history** (8 %): a complete hand with a ``history`` that can be rebuilt
  (:func:`history_hand`; in the rule sets that take one, mostly, else refused): analysed,
  recorded and corrected at a table of such a rule set, posted through the entry form,
  opened for correction (``?correct=n``), and on the calculator page with taps on its turns;
* **quiz** (5 %): ``GET /api/v1/quiz`` and ``/quiz`` for every rule set and garbage, real
  dates, today and impossible ones, a pick of the day's tiles or anything.

Every valid body is sent as it is now and then, and otherwise with one to three mutations:
any value, key or list item replaced by a hostile one (lone surrogates and NUL in strings,
control characters, long text, integers past 2^31, 2^63 and 2^64, floats such as 1e-300,
5e-324 and 1.8e308, the wrong type), keys added (named with surrogates or NUL too) or
removed, values nested up to 400 deep; the URL's hand number, player id and token are
mutated too (0, 2^31, 2^63, 10^30; a view token, garbage), and a few bodies are sent broken
(cut short, NaN, invalid UTF-8, not an object). Forms and query strings get the same hostile
text (NUL, control characters, a lone surrogate's bytes in a query).

:func:`check` holds every answer to the rules of the brief: never a 500, only the statuses
API.md documents, and under ``/api/`` an ``{"error": {"code", "message", "field"}}`` with a
known code and a Chinese message. Every 40 steps each live table is read back and exported,
and the export imported again: a value stored once must never make a later read, export or
import fail (a base of 1e-300 did: every later win answered 500); and one live circle in turn
is read (its API, pages, a player, CSV), its standings must sum to zero, and its export must
import again with the same standings.
"""

from __future__ import annotations

import io
import json
import random
import re
import string
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any
from urllib.parse import quote

from webcalc.errors import CODES
from webcalc.hand import Hand
from webcalc.options import option_specs, parse_options
from webcalc.tiles import ALL_TILES, format_tiles, parse_tiles
from webcalc.variants import VARIANTS as REGISTERED
from webcalc.variants.base import Situation
from webcalc.web.review import MODES as REVIEW_MODES
from webcalc.web.turns import history_text, review_text


def registered() -> tuple[str, ...]:
    """Every registered rule set (webcalc.variants.VARIANTS, read now), in its order."""
    return tuple(REGISTERED)


CHINESE = re.compile(r"[\u4e00-\u9fff]")
#: every error code an answer under /api/ may carry (API.md, docs/LEDGER.md)
API_CODES = set(CODES) | {"bad_json", "bad_request", "not_found", "read_only", "conflict",
                          "idempotency_conflict", "voided", "too_many", "rate_limited", "busy",
                          "too_large", "method_not_allowed", "unsupported_media_type"}
#: the statuses API.md and docs/LEDGER.md document (304: an unchanged table under its ETag)
STATUSES = {200, 201, 303, 304, 400, 403, 404, 405, 409, 413, 414, 422, 429}
#: where a step goes, and how often (the shares of the steps; :attr:`Fuzzer.areas` counts
#: the requests, the invariants' reads included: about 70 % ledger, 30 % the rest)
MIX = (("ledger", 0.60), ("circles", 0.18), ("review", 0.09), ("history", 0.08),
       ("quiz", 0.05))

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
BAD_TOKENS = ["x", "A" * 32, "%00", "..", "A" * 70, "\u4e00" * 32]
BAD_DATES = ["2024-02-30", "2023-02-29", "2024-13-01", "2024-1-1", "20240101", "0000-01-01",
             "0001-01-01", "9999-12-31", "99999-01-01", "２０２４-０１-０１", "2024-01-01T00:00",
             " 2024-01-01", "2024-01-01\x00", "\ud800", "-2024-01-01", "2024-00-10", "today",
             "1" * 300]
#: pieces of the review's and the history's turn texts (webcalc/web/turns.py), to garble
TURN_WORDS = ("摸", "打", "碰", "吃", "杠", "补", "胡", "@", "@1", "@7", "1m", "5p", "9s", "5z",
              "中", "东风", "0m", "１２３ｍ", "555m", "5555m", "123m", " ", ",", "draw",
              "kong", "win", "x", "\u3000", "²")
PLAYER_NAMES = ("老王", "小李", "阿梅", "张师傅", "小周", "大刘", "阿强", "二姐")
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


def mutate(rng: random.Random, body: Any, under: tuple = ()) -> Any:
    """``body`` (a fresh copy) with one to three hostile changes (only at or under the place
    ``under``, when it has one)."""
    body = json.loads(json.dumps(body))
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        places = _nodes(body)
        path = rng.choice([p for p in places if p[:len(under)] == under] or places)
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


# -- valid bodies of the learners' endpoints and the 三门峡 history ------------------------

#: the honours as a player types them (tile fields read Chinese too: API.md "Tile notation")
HONOURS = {"1z": "东", "2z": "南", "3z": "西", "4z": "北", "5z": "白", "6z": "发", "7z": "中"}


def code(k: int) -> str:
    return ALL_TILES[k].code


def typed(rng: random.Random, k: int) -> str:
    """Tile ``k`` as a player might write it: mostly its code, an honour now and then in
    Chinese."""
    c = code(k)
    return HONOURS[c] if c in HONOURS and rng.random() < 0.3 else c


def room_options(rng: random.Random, name: str) -> dict:
    """A room of ``name`` its API accepts: mostly the defaults, sometimes one option set
    (a flag turned over, a whole number in its range, another choice)."""
    if rng.random() < 0.6:
        return {}
    spec = rng.choice(option_specs(REGISTERED[name].Options))
    if spec["type"] == "bool":
        value: Any = not spec["default"]
    elif spec["type"] == "int":
        value = rng.randint(spec["minimum"], spec["maximum"])
    else:
        value = rng.choice([v for v, _label in spec["choices"]])
    return {spec["name"]: value}


def _wildcards(name: str, options: dict, indicator: int | None) -> set[int]:
    variant = REGISTERED[name]
    opts = parse_options(variant.Options, options)
    if indicator is None or not variant.wildcards_on(opts):
        return set()
    return {int(t) for t in variant.wildcards(opts, None if indicator is None
                                              else ALL_TILES[indicator])}


def review_log(rng: random.Random, name: str) -> dict:
    """A legal review request (API.md "Hand review") of ``name``, played from a shuffled
    wall: 13 dealt tiles (14 for a dealer, whose first turn has no draw; a wildcard where the
    room plays them), 0-8 turns of draws and discards, claims when the hand allows (a pong, a
    chow where the rule set has chows, a claimed kong with its replacement), a concealed or
    added kong, tiles ``visible`` now and then, and sometimes a last turn that wins (on a
    draw, or on a discard where the rule set allows it) when the hand is ready; one in five
    is a :func:`winning_log`."""
    variant = REGISTERED[name]
    options = room_options(rng, name)
    if rng.random() < 0.2:
        return winning_log(rng, name, options)
    opts = parse_options(variant.Options, options)
    kinds = variant.kinds_in_play(opts)
    indicator = rng.randrange(kinds) if variant.wildcards_on(opts) else None
    wild = _wildcards(name, options, indicator)
    wildcards = tuple(ALL_TILES[k] for k in sorted(wild))
    wall = [k for k in range(kinds) for _ in range(4)]
    if indicator is not None:
        wall.remove(indicator)
    rng.shuffle(wall)
    hand = [0] * 34
    dealer = rng.random() < 0.25
    if wild and rng.random() < 0.7:
        w = rng.choice(sorted(wild))
        if w in wall:
            wall.remove(w)
            hand[w] += 1
    while sum(hand) < (14 if dealer else 13):
        hand[wall.pop()] += 1
    req: dict = {"variant": name,
                 "start": format_tiles([k for k in range(34) for _ in range(hand[k])])}
    if options:
        req["options"] = options
    if indicator is not None:
        req["indicator"] = typed(rng, indicator)
    if rng.random() < 0.3:
        req["visible"] = "".join(typed(rng, wall.pop()) for _ in range(rng.randint(1, 3)))
    melds: list[dict] = []
    pongs: dict[int, int] = {}                 # kind → its meld's index
    log: list[dict] = []
    seat = lambda: rng.randrange(1, 4)         # noqa: E731 - who a tile is claimed from
    for i in range(rng.randint(0, 8)):
        t: dict = {}
        claims: list[tuple[str, Any]] = []
        if i > 0 or not dealer:
            plain = [k for k in range(kinds) if k not in wild and k in wall]
            claims += [("pong", k) for k in plain if hand[k] >= 2]
            claims += [("kong", k) for k in plain if hand[k] == 3]
            if variant.chow_allowed:
                for a in range(27):
                    run = (a, a + 1, a + 2)
                    if a % 9 > 6 or wild & set(run):
                        continue
                    for m in run:
                        if m in wall and all(hand[x] for x in run if x != m):
                            claims.append(("chow", (run, m)))
        if claims and rng.random() < 0.3:
            kind, what = rng.choice(claims)
            if kind == "chow":
                run, m = what
                named = hand[m] > 0               # all three held: the claimed one decides
                for x in run:
                    if x != m:
                        hand[x] -= 1
                wall.remove(m)
                tiles = format_tiles(list(run))
                melds.append({"type": "chow", "tiles": tiles, "from": 3})
                t = {"claim": "chow", "tiles": tiles, "from": 3}
                if named or rng.random() < 0.3:
                    t["tile"] = code(m)
            else:
                k, n = what, 3 if kind == "pong" else 4
                wall.remove(k)
                hand[k] -= n - 1
                t = {"claim": kind, "tiles": format_tiles([k] * n)}
                if rng.random() < 0.8:
                    t["from"] = seat()
                melds.append({"type": kind, "tiles": t["tiles"], "from": t.get("from", 1)})
                if kind == "pong":
                    pongs[k] = len(melds) - 1
                else:
                    r = wall.pop()
                    hand[r] += 1
                    t["replacement"] = typed(rng, r)
        else:
            if i > 0 or not dealer:
                d = wall.pop()
                hand[d] += 1
                t["draw"] = typed(rng, d)
            own = [k for k in range(kinds) if k not in wild and hand[k] == 4]
            own += [k for k in pongs if hand[k] >= 1]
            if own and wall and rng.random() < 0.6:
                k = rng.choice(own)
                if k in pongs and hand[k] < 4:
                    hand[k] -= 1
                    m = melds[pongs.pop(k)]
                    m.update(type="added_kong", tiles=format_tiles([k] * 4))
                else:
                    hand[k] -= 4
                    pongs.pop(k, None)
                    melds.append({"type": "concealed_kong", "tiles": format_tiles([k] * 4)})
                r = wall.pop()
                hand[r] += 1
                t.update(kong=code(k), replacement=typed(rng, r))
        sit = Situation(Hand.of([k for k in range(34) for _ in range(hand[k])]), wildcards,
                        opts)
        held = [k for k in range(34) if hand[k] and variant.can_discard(sit, ALL_TILES[k])] \
            or [k for k in range(34) if hand[k]]
        d = rng.choice(held)
        hand[d] -= 1
        t["discard"] = typed(rng, d)
        log.append(t)
        if len(wall) < 8:
            break
    if rng.random() < 0.3:
        win = _a_win(rng, req, hand, melds, wall)
        if win is not None:
            log.append(win)
    if log or rng.random() < 0.5:
        req["turns"] = log
    return req


def _a_win(rng: random.Random, req: dict, hand: list[int], melds: list[dict],
           wall: list[int]) -> dict | None:
    """A last turn that wins on a tile still in the wall, when the hand is ready."""
    from webcalc.analysis import analyze

    body = {k: req[k] for k in ("variant", "options", "indicator") if k in req}
    body["hand"] = format_tiles([k for k in range(34) for _ in range(hand[k])])
    if melds:
        body["melds"] = melds
    try:
        waits = [w["tile"] for w in analyze(body).to_json().get("waits") or []]
    except Exception:  # noqa: BLE001 - the review request decides; this only looks
        return None
    waits = [w for w in waits if int(parse_tiles(w)[0]) in wall]
    if not waits:
        return None
    tile = rng.choice(waits)
    if "discard" in REGISTERED[req["variant"]].win_methods and rng.random() < 0.5:
        return {"claim": "win", "tile": tile, "from": rng.randrange(1, 4)}
    return {"draw": tile, "win": True}


def history_variants(names: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The rule sets of ``names`` (default: every registered one) that take the winner's
    history (三门峡 表, RULES SMX-5), in their defaults."""
    return tuple(n for n in (registered() if names is None else names)
                 if REGISTERED[n].takes_history(parse_options(REGISTERED[n].Options, {})))


def complete_hand(rng: random.Random, name: str,
                  options: dict) -> tuple[list[int], int, int | None, list[int]]:
    """A complete 14-tile hand of ``name`` (mostly a 混单吊 one where the room plays
    wildcards: four groups, a wildcard and any tile; else four groups and a pair): its tiles,
    the one that came last, the indicator (None without wildcards) and the copies used of
    each kind (the indicator's included)."""
    variant = REGISTERED[name]
    opts = parse_options(variant.Options, options)
    kinds = variant.kinds_in_play(opts)
    indicator = rng.randrange(kinds) if variant.wildcards_on(opts) else None
    wild = _wildcards(name, options, indicator)
    used = [0] * 34
    if indicator is not None:
        used[indicator] += 1
    plain = [k for k in range(kinds) if k not in wild]
    tiles: list[int] = []
    while len(tiles) < 12:
        if rng.random() < 0.6:
            a = rng.randrange(min(kinds, 27) // 9) * 9 + rng.randrange(7)
            group = [a, a + 1, a + 2]
        else:
            group = [rng.choice(plain)] * 3
        if all(x in plain and 4 - used[x] >= group.count(x) for x in group):
            for x in group:
                used[x] += 1
            tiles += group
    if wild and rng.random() < 0.8:                     # 混单吊: a wildcard and any tile
        w = rng.choice(sorted(wild))
        last = rng.choice([k for k in range(kinds) if used[k] + (k == w) < 4])
        tiles += [w, last]
        used[w] += 1
        used[last] += 1
    else:                                               # a pair
        last = rng.choice([k for k in plain if used[k] <= 2])
        used[last] += 2
        tiles += [last, last]
    return sorted(tiles), last, indicator, used


def history_hand(rng: random.Random, name: str, options: dict | None = None) -> dict:
    """An analyze body: a complete hand of ``name`` (:func:`complete_hand`) with its
    ``winning_tile``, ``indicator`` and a ``history`` that can be rebuilt (API.md "三门峡
    history"): 0-6 turns made backwards from the 13 tiles before the win (a draw held after
    the turn or thrown at once; a discard of any kind the wall still has, often a wildcard),
    each kind at most four times counting the hand, the discards and the indicator."""
    options = options or {}
    variant = REGISTERED[name]
    kinds = variant.kinds_in_play(parse_options(variant.Options, options))
    tiles, last, indicator, used = complete_hand(rng, name, options)
    wild = _wildcards(name, options, indicator)
    after = Counter(tiles)
    after[last] -= 1
    turns = []
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 6])):
        choices = [k for k in range(kinds) if used[k] < 4]
        if not choices:
            break
        favour = [k for k in wild if used[k] < 4]
        x = rng.choice(favour) if favour and rng.random() < 0.5 else rng.choice(choices)
        d = x if rng.random() < 0.3 else rng.choice(sorted(k for k, n in after.items() if n))
        used[x] += 1
        after[x] += 1
        after[d] -= 1
        turns.append({"draw": typed(rng, d), "discard": typed(rng, x)})
    body = {"variant": name, "hand": format_tiles(tiles), "winning_tile": typed(rng, last),
            "win_by": rng.choice(["self_draw", "self_draw", "kong_replacement"]),
            "history": turns[::-1]}
    if indicator is not None:
        body["indicator"] = typed(rng, indicator)
    if options:
        body["options"] = options
    return body


def winning_log(rng: random.Random, name: str, options: dict) -> dict:
    """A review request that ends in a win: a complete hand (:func:`complete_hand`) less
    its last tile dealt, 0-3 turns that draw a tile and throw it, then that tile drawn
    (``win``) or, where the rule set allows it, claimed off a discard."""
    variant = REGISTERED[name]
    tiles, last, indicator, used = complete_hand(rng, name, options)
    wild = _wildcards(name, options, indicator)
    kinds = variant.kinds_in_play(parse_options(variant.Options, options))
    start = list(tiles)
    start.remove(last)
    turns: list[dict] = []
    for _ in range(rng.choice([0, 1, 2, 3])):
        free = [k for k in range(kinds) if used[k] < 4 and k not in wild and k != last]
        k = rng.choice(free)
        used[k] += 1
        turns.append({"draw": typed(rng, k), "discard": typed(rng, k)})
    if "discard" in variant.win_methods and last not in wild and rng.random() < 0.4:
        turns.append({"claim": "win", "tile": typed(rng, last), "from": rng.randrange(1, 4)})
    else:
        turns.append({"draw": typed(rng, last), "win": True})
    req: dict = {"variant": name, "start": format_tiles(start), "turns": turns}
    if options:
        req["options"] = options
    if indicator is not None:
        req["indicator"] = typed(rng, indicator)
    return req


@dataclass
class Live:
    """A table the fuzzer writes to: its tokens, variant and how many entries it holds."""

    edit: str
    view: str
    variant: str
    entries: int = 0


@dataclass
class LiveCircle:
    """A circle the fuzzer writes to: its tokens, how many players and tables it has."""

    edit: str
    view: str
    players: int
    tables: int = 0


@dataclass
class Fuzzer:
    """Sends ``n`` requests through ``client`` (a Flask test client of an app with CSRF off
    and no creation cap), counts the statuses (and the requests of each area of
    :data:`MIX`), and keeps what broke the rules."""

    client: Any
    rng: random.Random
    statuses: Counter = field(default_factory=Counter)
    areas: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    circles: list = field(default_factory=list)
    history_tables: list = field(default_factory=list)
    requests: int = 0
    circle_edit: str | None = None             # a circle's edit token, made on first use
    steps: int = 0
    area: str = "ledger"
    #: the rule sets it picks from (default: every one registered when it picks)
    variants: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        return self.variants or registered()

    # -- requests -------------------------------------------------------------------------
    def send(self, method: str, path: str, raw: bytes | None = None, *, form: dict | None = None,
             headers: dict | None = None) -> Any:
        self.requests += 1
        self.areas[self.area] += 1
        kwargs: dict = {"headers": headers or {}}
        if form is not None:
            kwargs["data"] = form
        elif raw is not None:
            kwargs["data"] = raw
            kwargs["content_type"] = "application/json"
        resp = getattr(self.client, method)(path, **kwargs)
        self.statuses[resp.status_code] += 1
        problem = check(path, resp) or answer_problem(path, resp)
        if problem:
            self.failures.append({"problem": problem, "method": method, "path": path,
                                  "body": (raw or b"")[:2000].decode("utf-8", "replace")
                                  if form is None else repr(form)[:2000],
                                  "status": resp.status_code,
                                  "answer": resp.get_data()[:1000].decode("utf-8", "replace")})
        return resp

    def broke(self, problem: str, resp: Any = None, **more: Any) -> None:
        """Keep a broken invariant (``resp``: the answer that showed it)."""
        out: dict = {"problem": problem, **more}
        if resp is not None:
            out.update(status=resp.status_code,
                       answer=resp.get_data()[:1000].decode("utf-8", "replace"))
        self.failures.append(out)

    def new_table(self, variant: str | None = None, circle: LiveCircle | None = None) -> Live:
        variant = variant or self.rng.choice(self.names())
        base = self.rng.choice([1, 2, 0.5, 0.25, 10, 100, 0.1])
        spec: dict = {"variant": variant, "base": base}
        if circle is not None:
            spec.update(circle=circle.edit,
                        players=self.rng.sample(range(1, circle.players + 1), 4))
        r = self.client.post("/api/v1/tables", json=spec)
        assert r.status_code == 201, r.get_data(as_text=True)
        live = Live(r.json["edit_token"], r.json["view_token"], variant)
        if circle is not None:
            circle.tables += 1
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

    def token(self, live: Live | LiveCircle, write: bool = True) -> str:
        r = self.rng.random()
        if r < 0.9:
            return live.edit if write else self.rng.choice([live.edit, live.view])
        if r < 0.95:
            return live.view
        return self.rng.choice(BAD_TOKENS)

    def maybe(self, body: Any) -> Any:
        """``body`` as it is, a third of the time (its endpoint's valid answers are checked
        too), else :func:`mutate`'d."""
        return body if self.rng.random() < 1 / 3 else mutate(self.rng, body)

    def text(self) -> str:
        """Hostile text a form field can carry (a form cannot carry a lone surrogate)."""
        v = hostile_scalar(self.rng)
        return (v if isinstance(v, str) else json.dumps(v)).encode(
            "utf-8", "surrogatepass").decode("utf-8", "replace")

    def query(self, pairs: list[tuple[str, Any]]) -> str:
        """A query string; now and then one value hostile, written as raw bytes (invalid
        UTF-8 included: a lone surrogate's bytes, NUL, an overlong text)."""
        rng = self.rng
        pairs = [(k, str(v)) for k, v in pairs]
        if pairs and rng.random() < 0.3:
            i = rng.randrange(len(pairs))
            v = hostile_scalar(rng)
            pairs[i] = (pairs[i][0], v if isinstance(v, str) else json.dumps(v))
        if rng.random() < 0.05:
            pairs.append((rng.choice(["lang", "x", "\x00", "step", "pick"]), self.text()))
        return "&".join(quote(k.encode("utf-8", "surrogatepass"), safe="") + "="
                        + quote(v.encode("utf-8", "surrogatepass"), safe="")
                        for k, v in pairs)

    def circle_token(self) -> str:
        if self.circle_edit is None:
            r = self.client.post("/api/v1/circles", json={"name": "牌友",
                                                          "players": list("甲乙丙丁戊")})
            assert r.status_code == 201, r.get_data(as_text=True)
            self.circle_edit = r.json["edit_token"]
        return self.circle_edit

    # -- one request ----------------------------------------------------------------------
    def step(self) -> None:
        """One request (more, now and then: a redirect followed) of an area of :data:`MIX`;
        every 40 steps, :meth:`invariants`."""
        r = self.rng.random()
        for area, share in MIX:
            r -= share
            if r < 0 or area == MIX[-1][0]:
                break
        self.area = area
        getattr(self, f"{area}_step")()
        self.steps += 1
        if self.steps % 40 == 0:
            self.invariants()

    def ledger_step(self) -> None:
        """The table ledger's JSON API (create, record, correct, void, import, read),
        ``/api/v1/analyze`` and the ledger's forms."""
        rng = self.rng
        r = rng.random()
        live = self.table()
        if r < 0.08:
            body = {"variant": rng.choice(self.names()), "options": {},
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

    def page_step(self, live: Live) -> None:
        """A ledger form, posted with hostile text in its fields (CSRF is off in this app)."""
        rng = self.rng
        text = self.text
        r = rng.random()
        if r < 0.2:
            form = {"variant": rng.choice(self.names() + ("x",)), "base": text(), "dealer": text(),
                    **{f"n{i}": text() for i in range(4)}}
            self.send("post", "/t/new", form=form)
        elif r < 0.45:
            form = {"hand": rng.choice(WINS)["hand"], "winning_tile": "2z",
                    "win_by": "self_draw", "s_winner": "1", "expected_number": text(),
                    "idempotency_key": text(), rng.choice(["hand", "s_pao0", "s_kongs", "melds",
                                                           "s_base", "n1", "draw",
                                                           "history"]): text()}
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

    # -- circles (牌友圈) ------------------------------------------------------------------
    def new_circle(self) -> LiveCircle:
        n = self.rng.randint(5, 7)
        r = self.client.post("/api/v1/circles", json={
            "name": f"周五{self.rng.getrandbits(20)}", "players": list(PLAYER_NAMES[:n])})
        assert r.status_code == 201, r.get_data(as_text=True)
        circle = LiveCircle(r.json["edit_token"], r.json["view_token"], n)
        live = self.new_table(circle=circle)        # an evening: the ledger steps write to it
        self.tables = [*self.tables, live][-6:]
        return circle

    def circle(self) -> LiveCircle:
        if len(self.circles) < 3 or self.rng.random() < 0.01:
            self.circles = [*self.circles, self.new_circle()][-4:]
        circle = self.rng.choice(self.circles)
        if circle.players > 24 or circle.tables > 5:   # imports of it stay cheap
            self.circles.remove(circle)
            circle = self.new_circle()
            self.circles.append(circle)
        return circle

    def adopt(self, edit: str, chance: float = 0.3) -> None:
        """Now and then, write to and read from a circle made by a request that was accepted
        (a mutated create or import): what was stored once must read, export and import."""
        if self.rng.random() >= chance:
            return
        c = self.client.get(f"/api/v1/circles/{edit}").json
        self.circles = [*self.circles, LiveCircle(edit, c["view_token"], len(c["players"]),
                                                  len(c["tables"]))][-4:]

    def circle_place(self, doc: Any) -> tuple:
        """Where to mutate a circle's export: anywhere, or its own parts (its name, format,
        players, a table's seats), not its tables' entries, which hold most of its places."""
        r = self.rng.random()
        if r < 0.5 or not isinstance(doc, dict):
            return ()
        if r < 0.8 and doc.get("tables"):
            return ("tables", self.rng.randrange(len(doc["tables"])), "players")
        return (self.rng.choice(["name", "format", "players", "players", "tables"]),)

    def player_id(self, circle: LiveCircle) -> Any:
        if self.rng.random() < 0.85:
            return self.rng.randint(1, circle.players + 1)
        return self.rng.choice([0, 2 ** 31, 2 ** 63, 2 ** 64, 10 ** 30, -1, "x", "1.5"])

    def seats(self, circle: LiveCircle) -> list:
        """Four players of the circle (ids it may lack when it has fewer than four)."""
        if circle.players < 4:
            return [self.rng.randint(1, 5) for _ in range(4)]
        return self.rng.sample(range(1, circle.players + 1), 4)

    def circles_step(self) -> None:
        """The circles' JSON API and pages: create, add a player, a table in the circle,
        read, a player, export, import (a real export, mutated)."""
        rng = self.rng
        circle = self.circle()
        r = rng.random()
        if r < 0.08:
            body = {"name": rng.choice(["周五牌友", "老地方", "x" * 40]),
                    "players": list(PLAYER_NAMES[:rng.randint(0, 6)])}
            resp = self.send("post", "/api/v1/circles", encode(rng, self.maybe(body)))
            if resp.status_code == 201:
                self.adopt(resp.json["edit_token"])
        elif r < 0.18:
            body = {"name": f"{rng.choice(PLAYER_NAMES)}{rng.getrandbits(16)}"}
            resp = self.send("post", f"/api/v1/circles/{self.token(circle)}/players",
                             encode(rng, self.maybe(body)))
            if resp.status_code == 201:
                circle.players = len(resp.json["players"])
        elif r < 0.30:
            body = {"variant": rng.choice(self.names()), "circle": self.token(circle),
                    "players": self.seats(circle)}
            if rng.random() < 0.3:
                body.update(names=["老王", "小李", "阿梅", "张师傅"], base=rng.choice([1, 0.5]),
                            dealer=rng.randrange(4))
            resp = self.send("post", "/api/v1/tables", encode(rng, self.maybe(body)))
            if resp.status_code == 201 and rng.random() < 0.5:  # the ledger steps write to it
                made = resp.json
                self.tables = [*self.tables, Live(made["edit_token"], made["view_token"],
                                                  made["table"]["variant"])][-6:]
            if resp.status_code == 201:
                circle.tables += 1
        elif r < 0.38:
            self.send("get", f"/api/v1/circles/{self.token(circle, write=False)}")
        elif r < 0.45:
            self.send("get", f"/api/v1/circles/{self.token(circle, write=False)}/players/"
                             f"{self.player_id(circle)}")
        elif r < 0.50:
            self.send("get", f"/api/v1/circles/{self.token(circle, write=False)}/export")
        elif r < 0.62:
            doc = self.client.get(f"/api/v1/circles/{circle.view}/export").json
            body = doc if rng.random() < 0.15 else mutate(rng, doc, self.circle_place(doc))
            resp = self.send("post", "/api/v1/circles/import", encode(rng, body))
            if resp.status_code == 201:
                self.adopt(resp.json["edit_token"])
        else:
            self.circle_page_step(circle)

    def circle_page_step(self, circle: LiveCircle) -> None:
        """A circle's page or form (CSRF is off in this app), with hostile text."""
        rng = self.rng
        text = self.text
        token = self.token(circle, write=False)
        r = rng.random()
        if r < 0.06:
            self.send("get", "/c/new")
        elif r < 0.28:
            if r < 0.18:
                names = [rng.choice(PLAYER_NAMES) if rng.random() < 0.7 else text()
                         for _ in range(rng.randint(0, 6))]
                resp = self.send("post", "/c/new", form={
                    "name": rng.choice(["周五", text()]),
                    "players": rng.choice(["\n", ",", "，", "、"]).join(names)})
            else:
                doc = self.client.get(f"/api/v1/circles/{circle.view}/export").data
                if rng.random() < 0.7:
                    data = json.loads(doc)
                    doc = encode(rng, mutate(rng, data, self.circle_place(data)))
                form: dict = ({"file": (io.BytesIO(doc), "circle.json")} if rng.random() < 0.5
                              else {"text": doc.decode("utf-8", "replace")})
                resp = self.send("post", "/c/import", form=form)
            location = resp.headers.get("Location", "")
            if resp.status_code == 303 and location.startswith("/c/"):
                self.adopt(location[3:].split("?")[0])
        elif r < 0.42:
            q = self.query(rng.choice([[], [("evenings", "all")], [("lang", "en")],
                                       [("new", "1")]]))
            self.send("get", f"/c/{token}" + ("?" + q if q else ""))
        elif r < 0.54:
            resp = self.send("post", f"/c/{self.token(circle)}/players",
                             form={"name": rng.choice([f"客{rng.getrandbits(16)}", text()])})
            if resp.status_code == 303:
                circle.players += 1
        elif r < 0.68:
            form = {f"p{i}": str(p) if rng.random() < 0.9 else text()
                    for i, p in enumerate(self.seats(circle))}
            form["variant"] = rng.choice(self.names() + ("x", text()))
            resp = self.send("post", f"/c/{self.token(circle)}/tables", form=form)
            if resp.status_code == 303:
                circle.tables += 1
        elif r < 0.82:
            self.send("get", f"/c/{token}/p/{self.player_id(circle)}")
        elif r < 0.88:
            self.send("get", f"/c/{token}/p/{self.player_id(circle)}/chart.svg")
        else:
            self.send("get", f"/c/{token}/export." + rng.choice(["json", "csv"]))

    # -- the hand review (牌谱复盘) ---------------------------------------------------------
    def review_step(self) -> None:
        """``POST /api/v1/review`` with a legal log of a random rule set (mutated mostly),
        or the review page with that log as its URL state and a tap."""
        rng = self.rng
        req = review_log(rng, rng.choice(self.names()))
        if rng.random() < 0.65:
            sent = self.maybe(req)
            resp = self.send("post", "/api/v1/review", encode(rng, sent))
            played = [t for t in req.get("turns") or [] if "discard" in t]
            if sent is req and resp.status_code == 200 and len(resp.json["turns"]) != len(played):
                self.broke("a review does not review every turn with a discard", resp,
                           request=req)
            return
        pairs: list[tuple[str, Any]] = [("variant", req["variant"])]
        for name, value in (req.get("options") or {}).items():
            pairs.append((f"opt_{name}", int(value) if isinstance(value, bool) else value))
        pairs += [(k, req[k]) for k in ("indicator", "visible", "start") if k in req]
        if req.get("turns"):
            pairs.append(("turns", review_text(req["turns"])))
        if rng.random() < 0.15:                    # the turns as a player might mistype them
            pairs.append(("turns", "".join(rng.choice(TURN_WORDS)
                                           for _ in range(rng.randint(1, 30)))))
        if rng.random() < 0.1:
            spec = rng.choice(option_specs(REGISTERED[req["variant"]].Options))
            pairs.append((f"opt_{spec['name']}", rng.choice(["1", "0", "", "-1", "999999",
                                                             "x", "²", "1e3", "none"])))
        r = rng.random()
        if r < 0.5:
            pairs.append(("add", typed(rng, rng.randrange(34))))
            if rng.random() < 0.5:
                pairs.append(("mode", rng.choice(REVIEW_MODES + ("x",))))
            if rng.random() < 0.3:
                pairs.append(("from", rng.choice(["0", "1", "2", "3", "4", "-1", "²"])))
        elif r < 0.6:
            pairs.append(("remove_start", rng.choice(["0", "13", "99999", "-1", "x", "²"])))
        elif r < 0.68:
            pairs.append(("undo", "1"))
        elif r < 0.76:
            pairs.append(("win", "1"))
        elif r < 0.82:
            pairs.append(("clear", rng.choice(["start", "turns", "x"])))
        elif r < 0.9:
            pairs.append(("step", rng.choice(["0", "1", "7", "99", "-1", "²", "1e3"])))
        headers = {"HX-Request": "true"} if rng.random() < 0.2 else {}
        resp = self.send("get", "/review?" + self.query(pairs), headers=headers)
        location = resp.headers.get("Location", "")
        if resp.status_code == 303 and location.startswith("/review"):
            self.send("get", location)

    # -- the daily 何切 ---------------------------------------------------------------------
    def quiz_step(self) -> None:
        """``GET /api/v1/quiz`` and the ``/quiz`` page: every rule set, dates real and not,
        a pick of the hand's tiles or garbage."""
        rng = self.rng
        variant = rng.choice(self.names()) if rng.random() < 0.85 else rng.choice(
            ["", "x", self.names()[0].upper(), self.names()[0] + "\x00", "东" * 40])
        r = rng.random()
        if r < 0.7:
            day = f"{rng.randint(2000, 2099):04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        elif r < 0.8:
            day = ""
        else:
            day = rng.choice(BAD_DATES)
        pairs: list[tuple[str, Any]] = []
        if variant or rng.random() < 0.5:
            pairs.append(("variant", variant))
        if day or rng.random() < 0.5:
            pairs.append(("date", day))
        if rng.random() < 0.5:
            self.send("get", "/api/v1/quiz?" + self.query(pairs))
            return
        if rng.random() < 0.6:
            pairs.append(("pick", self.pick(variant, day)))
        if rng.random() < 0.2:
            pairs.append(("lang", rng.choice(["en", "zh", "x"])))
        self.send("get", "/quiz?" + self.query(pairs))

    def pick(self, variant: str, day: str) -> str:
        """A learner's answer: mostly a tile of the day's hand, else any tile or garbage."""
        from webcalc.errors import InputError
        from webcalc.quiz import daily_problem

        rng = self.rng
        r = rng.random()
        if r < 0.7:
            try:
                today = datetime.now(UTC).date().isoformat()
                rows = daily_problem(variant, day or today)["ranking"]
                return rng.choice(rows)["discard"]
            except InputError:
                pass
        return typed(rng, rng.randrange(34)) if r < 0.9 else self.text()

    # -- the 三门峡 history (表) -------------------------------------------------------------
    def history_table(self) -> Live:
        if not self.history_tables or self.history_tables[0].entries > 60:
            names = self.names()
            self.history_tables = [self.new_table(rng_choice(self.rng, history_variants(names),
                                                             names))]
        return self.history_tables[0]

    def history_step(self) -> None:
        """A hand with the winner's ``history``: analysed (in a rule set that takes one,
        mostly; elsewhere it is refused), recorded or corrected at a table of such a rule
        set (the API and the entry form), its correction page opened; valid and mutated."""
        rng = self.rng
        name = (rng_choice(rng, history_variants(self.names()), self.names()) if rng.random() < 0.8
                else rng.choice(self.names()))
        options = room_options(rng, name) if rng.random() < 0.2 else {}
        body = history_hand(rng, name, options)
        settlement: dict = {"winner": rng.randrange(4), "dealer": rng.randrange(4)}
        if rng.random() < 0.4:
            settlement["pao"] = [rng.randint(0, 1) for _ in range(4)]
        if rng.random() < 0.1:
            settlement["biao_discards"] = rng.randint(0, 3)
        live = self.history_table()
        r = rng.random()
        if r < 0.45:
            if rng.random() < 0.7:
                body["settlement"] = {**settlement, "base": rng.choice([1, 2, 0.5])}
            sent = self.maybe(body)
            resp = self.send("post", "/api/v1/analyze", encode(rng, sent))
            if sent is body and resp.status_code == 200 and (
                    len(resp.json.get("history") or []) != len(body["history"])
                    or not isinstance(resp.json.get("biao"), int)):
                self.broke("a history analysed is not one entry a turn, with its 表", resp,
                           request=body)
            return
        entry = {k: v for k, v in body.items() if k not in ("variant", "options")}
        entry["settlement"] = settlement
        if r < 0.75:
            resp = self.send("post", f"/api/v1/tables/{self.token(live)}/hands",
                             encode(rng, self.maybe(entry)))
            if resp.status_code == 201:
                live.entries += 1
        elif r < 0.85:
            self.send("put", f"/api/v1/tables/{self.token(live)}/hands/{self.number(live)}",
                      encode(rng, self.maybe(entry)))
        elif r < 0.88:
            self.calculator(body)
        elif r < 0.95:
            form = {"hand": entry["hand"], "winning_tile": entry["winning_tile"],
                    "indicator": entry.get("indicator", ""), "win_by": entry["win_by"],
                    "s_winner": str(settlement["winner"]),
                    "history": history_text(entry["history"])}
            if rng.random() < 0.5:
                form[rng.choice(list(form) + ["s_biao"])] = self.text()
            resp = self.send("post", f"/t/{self.token(live)}/hands", form=form)
            if resp.status_code == 303:
                live.entries += 1
        else:
            resp = self.send("get", f"/t/{self.token(live)}?correct={self.number(live)}")
            location = resp.headers.get("Location", "")
            if resp.status_code == 303 and location.startswith("/t/"):
                self.send("get", location)

    def calculator(self, body: dict) -> None:
        """The calculator page (``GET /``) with a hand and its history as the URL state,
        sometimes with a tap on the history (a tile added, a turn removed, cleared); a
        redirect to the canonical URL is followed."""
        rng = self.rng
        pairs: list[tuple[str, Any]] = [
            (k, body[k]) for k in ("variant", "hand", "winning_tile", "indicator", "win_by")
            if k in body]
        pairs.append(("history", history_text(body["history"]) if rng.random() < 0.8 else
                      "".join(rng.choice(TURN_WORDS) for _ in range(rng.randint(1, 20)))))
        r = rng.random()
        if r < 0.3:
            pairs += [("add", typed(rng, rng.randrange(34))), ("target", "history")]
        elif r < 0.4:
            pairs.append(("remove_turn", rng.choice(["0", "1", "5", "-1", "99999", "x", "²"])))
        elif r < 0.45:
            pairs.append(("clear", "history"))
        elif r < 0.55:
            pairs.append(("s_biao", rng.choice(["0", "1", "3", "-1", "x", "99"])))
        resp = self.send("get", "/?" + self.query(pairs))
        location = resp.headers.get("Location", "")
        if resp.status_code == 303 and location.startswith("/"):
            self.send("get", location)

    # -- invariants -------------------------------------------------------------------------
    def invariants(self) -> None:
        """What was stored reads back, exports, imports again, and its totals square: each
        live table; and one live circle in turn (its pages, a player, its export imported
        again with the same standings, which sum to zero)."""
        self.area = "ledger"
        for live in self.tables + self.history_tables:
            for path in (f"/api/v1/tables/{live.view}", f"/api/v1/tables/{live.view}/export",
                         f"/t/{live.view}", f"/t/{live.edit}/export.csv"):
                resp = self.send("get", path)
                if resp.status_code != 200:
                    self.broke(f"stored table unreadable: {path}", resp)
            t = self.client.get(f"/api/v1/tables/{live.view}").json
            if sum(exact(x) for x in t["totals"]) != 0:
                self.broke("totals do not sum to zero", totals=t["totals"])
            doc = self.client.get(f"/api/v1/tables/{live.view}/export").data
            resp = self.send("post", "/api/v1/tables/import", doc)
            if resp.status_code != 201:
                self.broke("an export does not import again", resp)
        if not self.circles:
            return
        self.area = "circles"
        circle = self.circles[(self.steps // 40) % len(self.circles)]
        paths = [f"/api/v1/circles/{circle.view}", f"/api/v1/circles/{circle.edit}",
                 f"/c/{circle.view}", f"/c/{circle.edit}?evenings=all",
                 f"/c/{circle.edit}/export.csv", f"/c/{circle.view}/export.json"]
        if circle.players:
            player = self.rng.randint(1, circle.players)
            paths += [f"/api/v1/circles/{circle.view}/players/{player}",
                      f"/c/{circle.view}/p/{player}", f"/c/{circle.view}/p/{player}/chart.svg"]
        for path in paths:
            resp = self.send("get", path)
            if resp.status_code != 200:
                self.broke(f"stored circle unreadable: {path}", resp)
        c = self.client.get(f"/api/v1/circles/{circle.view}").json
        if sum(exact(s["net"]) for s in c["standings"]) != 0:
            self.broke("a circle's standings do not sum to zero", standings=c["standings"])
        doc = self.client.get(f"/api/v1/circles/{circle.view}/export").data
        resp = self.send("post", "/api/v1/circles/import", doc)
        if resp.status_code != 201:
            self.broke("a circle's export does not import again", resp)
        elif resp.json["circle"]["standings"] != c["standings"]:
            self.broke("a circle imported again has other standings",
                       before=c["standings"], after=resp.json["circle"]["standings"])

    def run(self, n: int, progress: Callable[[int], None] | None = None) -> None:
        while self.requests < n:
            self.step()
            if progress is not None:
                progress(self.requests)


def rng_choice(rng: random.Random, names: tuple[str, ...], others: tuple[str, ...]) -> str:
    """One of ``names``, or one of ``others`` when there is none (no rule set takes a
    history)."""
    return rng.choice(names or others)


def exact(x: Any) -> Fraction:
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def answer_problem(path: str, resp) -> str | None:
    """What a 200 of the review or the quiz says that its own figures contradict (docs/API.md
    "Hand review", "Daily 何切"), or None."""
    if resp.status_code != 200 or not path.startswith(("/api/v1/review", "/api/v1/quiz")):
        return None
    body = resp.get_json()
    if path.startswith("/api/v1/review"):
        turns, summary = body["turns"], body["summary"]
        if summary["turns"] != len(turns) \
                or summary["best_taken"] != sum(t["chosen"]["rank"] == 1 for t in turns) \
                or summary["tiles_lost"] != sum(t["loss"] for t in turns) \
                or any(t["chosen"]["rank"] < 1 or t["loss"] < 0 for t in turns):
            return f"a review's summary or ranks do not add up: {summary!r}"
        return None
    rows = body["ranking"]

    def key(r: dict) -> tuple:
        return (99 if r["shanten"] is None else r["shanten"], -r["useful_total"])
    if any(r["rank"] != 1 + sum(key(o) < key(r) for o in rows) for r in rows) \
            or body["answer"] != [r["discard"] for r in rows if r["rank"] == 1] \
            or not set(body["answer"]) < set(body["close"]) or len(body["close"]) < 3 \
            or body["shanten"] not in (1, 2):
        return f"a quiz's answer, close or ranks break its rules: {body['answer']!r} " \
               f"{body['close']!r}"
    return None


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
                                                 "position", "reasons", "turn"} \
            or not {"code", "message", "field"} <= set(err):
        return f"malformed error: {err!r}"[:300]
    if err["code"] not in API_CODES:
        return f"unknown code {err['code']!r}"
    if not isinstance(err["message"], str) or not CHINESE.search(err["message"]):
        return f"message not in Chinese: {err['message']!r}"[:300]
    if err["code"] == "too_many" and not isinstance(err.get("detail"), dict):
        return "too_many without its cap in detail"
    return None
