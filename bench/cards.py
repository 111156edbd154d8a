"""The share pictures' cost (docs/API.md "Pictures (share cards)"): CPU per card on fresh hands
and fresh tables of every rule set, p50/p99, and the PNG's size.

Each sample is new: a complete hand the engine settles (drawn from a seeded generator, never
repeated), with a wildcard indicator where the room has wildcards, a random dealer and
winner, 自摸 or a discard win where the variant allows it, and four random seat names (Chinese,
Latin, emoji); and a table of 4 to 16 entries (those wins, 荒庄, penalties) with such names.
Untimed: finding the hand (the engine), making the table (the JSON API). Timed once each
(``time.process_time``, collector on): the whole ``GET /card.png?<query>`` and ``GET
/t/<view>/card.png`` through the Flask app (reading, analysing or loading, drawing, the PNG;
the table's SQLite reads run in this process too), after the gunicorn warm-up
(:func:`webcalc.warmup.warm_up`, :func:`webcalc.web.warmup.warm_pages`, then ``gc.freeze``
as gunicorn.conf.py does), in Chinese and
English alternately. Target (issue 35): p99 ≤ 50 ms per card, PNG ≤ 200 KB.

Usage: ``.venv/bin/python bench/cards.py [--samples 40] [--no-write]`` (``make bench-cards``);
writes the section "Share cards (issue 35)" of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from review import machine  # noqa: E402
from soak import write_section  # noqa: E402

from webcalc import create_app  # noqa: E402
from webcalc.analysis import analyze  # noqa: E402
from webcalc.errors import InputError  # noqa: E402
from webcalc.options import parse_options  # noqa: E402
from webcalc.tiles import ALL_TILES, format_tiles  # noqa: E402
from webcalc.variants import VARIANTS  # noqa: E402
from webcalc.warmup import complete_tiles, warm_up  # noqa: E402
from webcalc.web.warmup import warm_pages  # noqa: E402

SECTION = "## Share cards (issue 35)"
TARGET_MS = 50.0
BYTES_MAX = 200 * 1024
NAME_PARTS = ("小王", "老李", "阿梅", "张师傅", "Alice", "Bob", "😀", "🀄", "🐉", "👍🏽", "🎉",
              "Ωμέγα", "李", "四", "大", "哥")


def fresh_name(rng: random.Random) -> str:
    return "".join(rng.choice(NAME_PARTS) for _ in range(rng.randint(1, 4)))[:12]


def fresh_hand(rng: random.Random, name: str, seen: set) -> dict:
    """A settled win of ``name`` not seen before: the request the engine settles and the
    calculator's query of it."""
    v = VARIANTS[name]
    opts = parse_options(v.Options, {})
    while True:
        tiles = complete_tiles(rng)
        indicator = None
        if v.wildcards_on(opts) and rng.random() < 0.7:
            indicator = ALL_TILES[rng.randrange(v.kinds_in_play(opts))].code
        winner, dealer = rng.randrange(4), rng.randrange(4)
        methods = [m for m in ("self_draw", "discard") if m in v.win_methods]
        win_by = rng.choice(methods)
        settlement: dict = {"base": 1, "dealer": dealer, "winner": winner}
        query = {"variant": name, "hand": format_tiles(tiles),
                 "winning_tile": ALL_TILES[tiles[-1]].code, "win_by": win_by,
                 "s_dealer": str(dealer), "s_winner": str(winner)}
        if win_by == "discard":
            settlement["discarder"] = (winner + rng.randrange(1, 4)) % 4
            query["s_discarder"] = str(settlement["discarder"])
            query["s_dready"] = "1"
        if indicator:
            query["indicator"] = indicator
        key = tuple(sorted(query.items()))
        if key in seen:
            continue
        req = {k: query[k] for k in ("variant", "hand", "winning_tile", "win_by")}
        if indicator:
            req["indicator"] = indicator
        try:
            if not analyze({**req, "settlement": settlement}, advice=False).settlement:
                continue
        except InputError:
            continue
        seen.add(key)
        for i in range(4):
            if rng.random() < 0.6:
                query[f"n{i}"] = fresh_name(rng)
        return {"request": req, "settlement": settlement, "query": query}


def fresh_table(client, rng: random.Random, name: str, seen: set) -> str:
    """A new table of ``name`` with 4 to 16 entries; its view token."""
    names = list(dict.fromkeys(fresh_name(rng) for _ in range(8)))[:4]
    while len(names) < 4:
        names.append(f"P{len(names)}")
    r = client.post("/api/v1/tables", json={"variant": name, "names": names})
    assert r.status_code == 201, r.json
    edit, view = r.json["edit_token"], r.json["view_token"]
    for _ in range(rng.randint(4, 16)):
        roll = rng.random()
        if roll < 0.7:
            h = fresh_hand(rng, name, seen)
            s = {k: v for k, v in h["settlement"].items() if k not in ("base", "dealer")}
            body = {**h["request"], "settlement": s}
            body.pop("variant")
        elif roll < 0.85:
            body = {"settlement": {"winner": None}}
        else:
            a, b = rng.sample(range(4), 2)
            body = {"adjustment": {"payments": [{"from": a, "to": b, "amount": rng.randint(1, 9)}],
                                   "note": "罚"}}
        r = client.post(f"/api/v1/tables/{edit}/hands", json=body)
        if r.status_code == 409:        # the table's dealer differs from the hand's: skip it
            continue
        assert r.status_code in (201, 400), r.json
    return view


def timed(client, path: str) -> tuple[float, int]:
    c0 = time.process_time()
    r = client.get(path, follow_redirects=True)
    ms = (time.process_time() - c0) * 1000
    assert r.status_code == 200 and r.mimetype == "image/png", (path, r.status_code,
                                                                 r.get_data()[:300])
    return ms, len(r.data)


def stats(values: list[float]) -> tuple[float, float, float]:
    s = sorted(values)
    return statistics.median(s), s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))], s[-1]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=40, help="cards of each kind per variant")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    seen: set = set()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "LEDGER_TABLES_PER_HOUR": 0,
                          "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3"})
        client = app.test_client()
        warm_up()
        warm_pages(app)
        gc.collect()                    # as gunicorn.conf.py's master before it forks
        gc.freeze()
        load0 = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        ms: dict[tuple[str, str], list[float]] = {}
        size: dict[tuple[str, str], list[int]] = {}
        for i in range(args.samples):        # interleaved: load changes hit all alike
            lang = ("zh", "en")[i % 2]
            for name in VARIANTS:
                hand = fresh_hand(rng, name, seen)
                view = fresh_table(client, rng, name, seen)
                for kind, path in (("hand", "/card.png?" + urlencode(
                        {**hand["query"], "lang": lang})),
                                   ("evening", f"/t/{view}/card.png?lang={lang}")):
                    t, n = timed(client, path)
                    for key in ((name, kind), ("all", kind)):
                        ms.setdefault(key, []).append(t)
                        size.setdefault(key, []).append(n)
        load1 = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        app.extensions["ledger"].dispose()
    lines = [SECTION, "",
             f"`make bench-cards` (`bench/cards.py --samples {args.samples} --seed {args.seed}`), "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}; load average "
             f"{load0} at the start, {load1} at the end (other work on the machine shows in "
             "it). CPU of the whole request (`time.process_time`, collector on) of each card "
             "of a fresh settled hand (`GET /card.png?…`: read, analyse, draw, PNG) and of a "
             "fresh table of 4-16 entries (`GET /t/<view>/card.png`: the table read from "
             "SQLite in this process, draw, PNG), zh and en alternately, after the gunicorn "
             "warm-up; 1080 px wide. Target: p99 ≤ 50 ms per card, PNG ≤ 200 KB.", "",
             "| variant | card | cards | p50 ms | p99 ms | max ms | PNG p50 KB | PNG max KB "
             "| met |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for name in [*VARIANTS, "all"]:
        for kind in ("hand", "evening"):
            t = ms[(name, kind)]
            p50, p99, mx = stats(t)
            kb = sorted(n / 1024 for n in size[(name, kind)])
            met = p99 <= TARGET_MS and kb[-1] * 1024 <= BYTES_MAX
            lines.append(f"| {name} | {kind} | {len(t)} | {p50:.1f} | {p99:.1f} | {mx:.1f} | "
                         f"{statistics.median(kb):.0f} | {kb[-1]:.0f} | "
                         f"{'met' if met else 'MISSED'} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        write_section(Path(args.out), text, SECTION)


if __name__ == "__main__":
    main()
