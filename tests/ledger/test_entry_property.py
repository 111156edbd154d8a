"""Property: the ledger records every hand with the money the calculator computes.

Random rooms of all four variants (random room options; the winner's melds with pongs,
chows where allowed, and their own 明杠/补杠/暗杠, 混杠 in 盘锦; the other seats' kongs; 跑;
加钢 (盘锦); 上架 and the discarder's 上架 (晋城); 前包, 断门, 杠流泪; discard and robbing wins;
荒庄) are each recorded twice: through the table page's form (``POST /t/<edit>/hands``, the
fields as a browser sends them: checked boxes only, every 跑 input, the kong rows with their
blank row, the CSRF token; the supplier of the winner's 明杠 either typed as ``@seat`` or
answered in the page's ``meld_src`` question) and through the ledger API (``POST
/api/v1/tables/<edit>/hands``). Each stored net and payment list must equal what ``POST
/api/v1/analyze`` answers for the same inputs, the winner's kongs listed in
``settlement.kongs`` as API.md asks (the pages read them from the melds).

Only valid complete winning hands count: a room is built from random groups and a pair,
and one the engine refuses (not a win under the room's rules, a seat that may not be
named, …) is drawn again. ``ROOMS`` rooms run on SQLite (at least 500), ``ROOMS_PG`` on
PostgreSQL (the same code against the other database).
"""

from __future__ import annotations

import random
import re

import pytest

from tests.scale import scaled
from webcalc.options import option_specs, parse_options
from webcalc.settlement import kong_types, settlement_fields, variant_pao_max
from webcalc.tiles import parse_tiles
from webcalc.variants import VARIANTS

from .entry_form import form_names

ROOMS = scaled(520, floor=80)  # 130 per variant at full scale (tests/scale.py)
ROOMS_PG = 80            # on PostgreSQL
PER_TABLE = 10           # rooms per table (each table has its own random options)
SEED = 20_2020

SUITS = "mps"
MELD_WORD = {"pong": "碰", "chow": "吃", "kong": "明杠", "added_kong": "补杠",
             "concealed_kong": "暗杠"}
KONG_OF_MELD = {"kong": "exposed", "added_kong": "added", "concealed_kong": "concealed"}


@pytest.fixture()
def app(make_app):
    return make_app(LEDGER_TABLES_PER_HOUR=0)


# -- random rooms ------------------------------------------------------------------------------

def random_options(rng: random.Random, variant: str) -> dict:
    out = {}
    for spec in option_specs(VARIANTS[variant].Options):
        if spec["type"] == "bool":
            out[spec["name"]] = rng.random() < 0.5
        elif spec["type"] == "int":
            lo, hi = spec.get("minimum", 0), spec.get("maximum", 3)
            out[spec["name"]] = rng.randint(lo, min(hi, lo + 3))
        else:
            out[spec["name"]] = rng.choice([c[0] for c in spec["choices"]])
    if variant == "panjin":
        if rng.random() < 0.6:
            out["wildcard_mode"] = "next"      # the seed's default, and wildcards to play with
        out["jiagang"] = rng.random() < 0.7    # 加钢 asked per seat (not 死钢)
        out["all_jiagang"] = rng.random() < 0.2
    return out


def kinds(variant: str, opts: dict) -> list[str]:
    honors = not (variant == "sanmenxia" and not opts.get("with_honors", True))
    return [f"{n}{s}" for s in SUITS for n in range(1, 10)] + (
        [f"{n}z" for n in range(1, 8)] if honors else [])


class Room:
    """One random hand at one table: what the form sends, and the API's request."""

    def __init__(self):
        self.form: dict = {}
        self.ledger: dict = {}          # the ledger API body
        self.analyze: dict = {}         # the analyze body (the same inputs)


def random_room(rng: random.Random, variant: str, opts: dict, base,
                dealer: int | None = None) -> Room:
    """A random room; ``dealer`` is the table's (its page fixes it), else drawn too."""
    v = VARIANTS[variant]
    o = parse_options(v.Options, opts)
    used = settlement_fields(v, o)
    pao_max = variant_pao_max(v, o)[0]
    room = Room()
    drawn_dealer = rng.randrange(4)
    dealer = drawn_dealer if dealer is None else dealer
    drawn = rng.random() < 0.1
    winner = None if drawn else rng.randrange(4)
    others = [s for s in range(4) if s != winner]
    win_by = rng.choice(sorted(v.win_methods))
    discarder = rng.choice(others) if win_by in ("discard", "robbing_kong") and not drawn \
        else None

    # the tiles: four groups and a pair (or 七对), some groups as melds
    counts: dict[str, int] = {}
    pool = kinds(variant, opts)

    def take(tiles: list[str]) -> bool:
        if any(counts.get(t, 0) + tiles.count(t) > 4 for t in set(tiles)):
            return False
        for t in tiles:
            counts[t] = counts.get(t, 0) + 1
        return True

    indicator = ""
    wild: tuple = ()
    if v.wildcards_on(o) and rng.random() < 0.7:
        indicator = rng.choice(pool)
        take([indicator])
        wild = tuple(t.code for t in v.wildcards(o, parse_tiles(indicator)[0]))
    melds: list[dict] = []
    texts: list[str] = []
    concealed: list[str] = []
    meld_src: list[str] = []
    ok = True
    if not drawn and rng.random() < 0.12:                   # 七对 (no melds)
        for _ in range(7):
            for _try in range(20):
                t = rng.choice(pool)
                if take([t, t]):
                    concealed += [t, t]
                    break
            else:
                ok = False
    elif not drawn:
        for _g in range(4):
            for _try in range(30):
                if rng.random() < 0.5:
                    s, n = rng.choice(SUITS), rng.randint(1, 7)
                    tiles, kind = [f"{n}{s}", f"{n + 1}{s}", f"{n + 2}{s}"], "chow"
                else:
                    t = rng.choice(pool)
                    if wild and variant == "panjin" and o.wildcard_kong and rng.random() < 0.1:
                        t = wild[0]                              # PJ-13: 混杠
                    tiles, kind = [t] * 3, "pong"
                meld = rng.random() < 0.4
                if meld and kind == "pong":
                    kind = rng.choice(["pong", "kong", "added_kong", "concealed_kong",
                                       "concealed_kong"])
                    if kind != "pong":
                        tiles = tiles + [tiles[0]]
                if meld and kind == "chow" and not v.chow_allowed:
                    meld = False
                if take(tiles):
                    break
            else:
                ok = False
                break
            if not meld:
                concealed += tiles[:3]
                continue
            source = None
            if kind in ("pong", "kong", "added_kong", "chow"):
                source = rng.choice(others) if rng.random() < 0.85 else None
            m = {"type": kind, "tiles": _tiles_text(tiles)}
            if source is not None:
                m["from"] = source
            melds.append(m)
            text = MELD_WORD[kind] + _tiles_text(tiles)
            if (source is not None and kind in ("kong", "added_kong")
                    and v.name in ("sanmenxia", "zhengzhou") and rng.random() < 0.6):
                meld_src.append(f"{len(texts)}:{source}")   # answered in the page's question
            elif source is not None:
                text += f"@{source}"
            texts.append(text)
        for _try in range(30):
            t = rng.choice(pool)
            if take([t, t]):
                concealed += [t, t]
                break
        else:
            ok = False
    if not ok:
        return None
    winning = rng.choice(concealed) if concealed else ""

    # the settlement inputs
    s: dict = {"base": base, "dealer": dealer, "winner": winner}
    f: dict = {"s_dealer": str(dealer), "s_winner": "" if drawn else str(winner)}
    if discarder is not None:
        s["discarder"] = discarder
    if v.win_methods & {"discard", "robbing_kong"}:          # the page shows the select
        f["s_discarder"] = "" if discarder is None else str(discarder)
    if "pao" in used:
        pao = [rng.randint(0, pao_max) for _ in range(4)]
        if any(pao):
            s["pao"] = pao
        for i in range(4):
            f[f"s_pao{i}"] = str(pao[i])
    if "jiagang" in used:
        jg = [rng.random() < 0.4 for _ in range(4)]
        if any(jg):
            s["jiagang"] = jg
        for i in range(4):
            if jg[i]:
                f[f"s_jiagang{i}"] = "1"
    if "ready" in used:
        ready = [rng.random() < 0.8 for _ in range(4)]
        if winner is not None:
            ready[winner] = True
        for i in range(4):
            if ready[i]:
                f[f"s_ready{i}"] = "1"
        f["s_dready"] = ""
        if discarder is not None:
            dready = rng.random() < 0.6
            f["s_dready"] = "1" if dready else "0"
            f[f"s_ready{discarder}"] = "1"           # the hidden input the page shows
            ready[discarder] = dready
        if not all(ready):
            s["ready"] = ready
    if "follow_dealer" in used and rng.random() < 0.2:
        s["follow_dealer"] = True
        f["s_follow"] = "1"
    if "duanmen" in used and rng.random() < 0.2:
        s["duanmen"] = True
        f["s_duanmen"] = "1"
    if "kong_discard" in used and win_by == "discard" and rng.random() < 0.3:
        s["kong_discard"] = True
        f["s_kong_discard"] = "1"
    if "biao_discards" in used:
        biao = rng.choice([0, 0, 0, 1, 2])
        if biao:
            s["biao_discards"] = biao
        f["s_biao"] = str(biao)

    # the other seats' kongs (any seat on 荒庄), then the winner's from the melds
    kongs = []
    if "kongs" in used:
        types = kong_types(v, o)
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            seat = rng.choice(others)
            typ = rng.choice(types)
            k = {"seat": seat, "type": typ}
            if typ in ("exposed", "added") and (v.name in ("sanmenxia", "zhengzhou")
                                                or rng.random() < 0.5):
                k["from"] = rng.choice([x for x in range(4) if x != seat])
            kongs.append(k)
    if "kongs" in used:                                 # the rows, then the blank one
        f["k_seat"] = [str(k["seat"]) for k in kongs] + [""]
        f["k_type"] = [k["type"] for k in kongs] + ["concealed"]
        f["k_from"] = [str(k["from"]) if "from" in k else "" for k in kongs] + [""]
    if "kongs" in used and winner is not None:
        for m in melds:
            typ = KONG_OF_MELD.get(m["type"])
            if typ is None:
                continue
            k = {"seat": winner, "type": typ}
            if typ == "concealed" and "wildcard" in kong_types(v, o) and wild and \
                    set(parse_tiles(m["tiles"])) <= set(parse_tiles("".join(wild))):
                k["type"] = "wildcard"
            if typ != "concealed" and "from" in m:
                k["from"] = m["from"]
            kongs.append(k)
    if kongs:
        s["kongs"] = kongs

    # the form as the browser sends it
    hand = "".join(sorted(concealed, key=_order))
    if drawn:
        f["draw"] = "1"
        f["win_by"] = win_by
    else:
        f.update(hand=_compact(hand), melds=" ".join(texts), indicator=indicator,
                 winning_tile=winning, win_by=win_by)
        if meld_src:
            f["meld_src"] = meld_src
    room.form = f
    room.analyze = {"variant": variant, "options": opts, "settlement": s}
    if not drawn:
        room.analyze.update(hand=_compact(hand), win_by=win_by, winning_tile=winning)
        if melds:
            room.analyze["melds"] = melds
    if indicator:
        room.analyze["indicator"] = indicator
    room.ledger = {k: v_ for k, v_ in room.analyze.items() if k not in ("variant", "options")}
    room.ledger["settlement"] = {k: v_ for k, v_ in s.items() if k != "base"}
    if drawn:
        room.ledger.pop("indicator", None)
    return room


def _order(t: str) -> tuple:
    return ("mpsz".index(t[1]), t[0])


def _tiles_text(tiles: list[str]) -> str:
    ts = sorted(tiles, key=_order)
    return "".join(t[0] for t in ts) + ts[0][1]


def _compact(hand: str) -> str:
    """``1m2m3m1z1z`` → ``123m11z``."""
    out, run = [], ""
    pairs = [hand[i:i + 2] for i in range(0, len(hand), 2)]
    for i, t in enumerate(pairs):
        run += t[0]
        if i + 1 == len(pairs) or pairs[i + 1][1] != t[1]:
            out.append(run + t[1])
            run = ""
    return "".join(out)


# -- the property ------------------------------------------------------------------------------

def money(settlement: dict) -> tuple:
    return (settlement["net"], sorted((p["from"], p["to"], float(p["amount"]))
                                      for p in settlement["payments"]))




def test_the_ledger_records_what_the_calculator_computes(app, db_url):
    n_rooms = ROOMS if db_url.startswith("sqlite") else ROOMS_PG
    rng = random.Random(SEED)
    client = app.test_client()
    variants = list(VARIANTS)
    done = {v: 0 for v in variants}
    seen = {"winner_concealed": 0, "winner_exposed": 0, "winner_added": 0, "meld_src": 0,
            "discard": 0, "drawn": 0, "others_kongs": 0, "pao": 0, "jiagang": 0,
            "unready_discarder": 0, "wildcard_kong": 0}
    tries = 0
    per_variant = n_rooms // len(variants)
    for variant in variants:
        while done[variant] < per_variant:
            opts = random_options(rng, variant)
            base = rng.choice([1, 1, 2, 0.5])
            spec = {"variant": variant, "options": opts, "base": base}
            tokens = []
            for _ in range(2):                                  # the form's, the API's
                r = client.post("/api/v1/tables", json=spec)
                assert r.status_code == 201, r.json
                tokens.append(r.json["edit_token"])
            page_token, api_token = tokens
            html = client.get(f"/t/{page_token}").get_data(as_text=True)
            csrf = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
            names = form_names(html)
            number = 0
            while number < PER_TABLE and done[variant] < per_variant:
                tries += 1
                assert tries < n_rooms * 40, "too few valid rooms: the generator is off"
                # the page fixes the dealer: the table's, by the hands recorded
                dealer = client.application.extensions["ledger"].table(page_token)["dealer"]
                room = random_room(rng, variant, opts, base, dealer)
                if room is None:
                    continue
                want = client.post("/api/v1/analyze", json=room.analyze)
                if want.status_code != 200:
                    continue                                    # not a valid room: draw again
                want = want.json["settlement"]
                number += 1
                # the form: every field it sends is one the page's form has (the dealer is
                # the table's, not an input; 荒庄 is its button's action)
                data = {k: v_ for k, v_ in room.form.items() if k not in ("s_dealer", "draw")}
                assert set(data) - {"meld_src"} <= names, set(data) - names
                data.update({"csrf_token": csrf, "expected_number": str(number),
                             "idempotency_key": f"p{number}-{tries}"})
                query = "?draw=1" if room.form.get("draw") else ""
                r = client.post(f"/t/{page_token}/hands{query}", data=data)
                assert r.status_code == 303, (room.form, _errors(r.get_data(as_text=True)))
                r = client.post(f"/api/v1/tables/{api_token}/hands",
                                json={**room.ledger, "expected_number": number})
                assert r.status_code == 201, (room.ledger, r.json)
                by_api = r.json["hand"]["settlement"]
                by_page = client.application.extensions["ledger"].hand(
                    page_token, number)["settlement"]
                assert money(by_page) == money(want), (room.form, room.analyze)
                assert money(by_api) == money(want), room.ledger
                done[variant] += 1
                s = room.analyze["settlement"]
                seen["drawn"] += s["winner"] is None
                seen["discard"] += "discarder" in s
                seen["pao"] += "pao" in s
                seen["jiagang"] += "jiagang" in s
                seen["meld_src"] += "meld_src" in room.form
                seen["unready_discarder"] += "discarder" in s and not s.get(
                    "ready", [True] * 4)[s["discarder"]]
                ks = s.get("kongs", [])
                for typ in ("concealed", "exposed", "added"):
                    seen[f"winner_{typ}"] += any(k["seat"] == s["winner"] and k["type"] == typ
                                                 for k in ks)
                seen["others_kongs"] += any(k["seat"] != s["winner"] for k in ks)
                seen["wildcard_kong"] += any(k["type"] == "wildcard" for k in ks)
    assert sum(done.values()) >= n_rooms - len(variants)
    # the rooms covered what they are meant to (on SQLite's full run)
    if n_rooms >= 500:
        for what, n in seen.items():
            assert n >= (3 if what in ("wildcard_kong", "unready_discarder") else 20), (what, seen)


def _errors(html: str) -> list[str]:
    return re.findall(r'<p class="(?:field-error|alert)"[^>]*>(.*?)</p>', html, re.S)
