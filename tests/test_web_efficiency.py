"""The page's 牌理 panel: what it draws is the API's ``efficiency`` / ``useful``,
row for row and tile for tile, in every variant; a hand counted by hand from the rules; the
plain 和不了 label for a hand that can never be ready."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from .test_web_pages import get, result_of, text_of


def api(client, **req) -> dict:
    resp = client.post("/api/v1/analyze", json=req)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def panel_of(html: str) -> str:
    res = result_of(html)
    start = res.index('<section class="block efficiency"')
    return res[start:res.index("</section>", start)]


def rows_of(panel: str) -> list[dict]:
    """Each 14-tile row as drawn: the discard, the tiles of "摸[…]", the "N种M张" text, the
    shanten text, the best mark and the unfolded tiles with their "余 n 张"."""
    rows = []
    for chunk in re.split(r'(?=<li class="eff-row)', panel)[1:]:
        summary = chunk[chunk.index("<summary>"):chunk.index("</summary>")]
        body = chunk[chunk.index("</summary>"):]
        discard = re.search(r'class="eff-discard">打出<span [^>]*data-tile="(\w+)"', summary)
        draws = re.search(r'class="eff-tiles">(.*?)<span class="eff-count">', summary, re.S)
        count = re.search(r'class="eff-count">(\d+)种(\d+)张<', summary)
        shanten = re.search(r'class="eff-shanten[^"]*">(.*?)</span>\s*(?:<span class="best"|$)',
                            summary, re.S)
        rows.append({
            "discard": discard.group(1),
            "draws": re.findall(r'data-tile="(\w+)"', draws.group(1)) if draws else [],
            "kinds": int(count.group(1)), "total": int(count.group(2)),
            "shanten": re.sub(r"<[^>]+>", "", shanten.group(1)).strip(),
            "best": '<span class="best">最优</span>' in summary,
            "useful": useful_of(body),
        })
    return rows


def useful_of(fragment: str) -> list[tuple[str, int]]:
    return [(t, int(n)) for t, n in re.findall(
        r'<li class="useful[^"]*" data-tile="\w+" data-remaining="\d+">'
        r'<span class="tile[^"]*"[^>]*data-tile="(\w+)">.*?余 (\d+) 张', fragment, re.S)]


def follow(client, **params):
    resp = client.get("/", query_string=params, follow_redirects=True)
    assert resp.status_code == 200
    return resp


def shanten_text(n) -> str:
    return "和不了" if n is None else ("听牌" if n == 0 else f"{n} 向听")


def page_request(params: dict) -> dict:
    req = {"variant": params["variant"], "hand": params["hand"]}
    for key in ("indicator", "visible"):
        if params.get(key):
            req[key] = params[key]
    return req


HANDS_14 = [
    {"variant": "sanmenxia", "hand": "123m56m79p345s1z58s9s", "indicator": "1z"},
    {"variant": "sanmenxia", "hand": "2234m67m55p789s13z4z"},
    {"variant": "zhengzhou", "hand": "123m56m79p345s1z58s9s", "indicator": "2z"},
    {"variant": "zhengzhou", "hand": "123m456p789s1134z5z"},
    {"variant": "panjin", "hand": "123m56m79p34s1z58s39p"},
    {"variant": "panjin", "hand": "234m57m13p456s5z88s9s", "indicator": "3z"},
    {"variant": "jincheng", "hand": "123m56m79p345s1z58s9s"},
    {"variant": "jincheng", "hand": "123m456p789s11122z"},            # complete: folded
]

HANDS_13 = [
    {"variant": "sanmenxia", "hand": "123m456p789s1134z", "indicator": "1z"},
    {"variant": "zhengzhou", "hand": "13m56m79p345s1z589s", "indicator": "7z"},
    {"variant": "panjin", "hand": "13m56m79p345s11z58s", "indicator": "5m"},
    {"variant": "jincheng", "hand": "123m456p789s1134z", "visible": "1z"},
]


@pytest.mark.parametrize("params", HANDS_14, ids=[f"{p['variant']}-{p['hand']}" for p in HANDS_14])
def test_14_tile_rows_are_the_apis_efficiency(client, params):
    out = api(client, **page_request(params))
    eff = out["efficiency"]
    assert eff, "a 14-tile hand has discards"
    html = text_of(get(client, **params))
    rows = rows_of(htmllib.unescape(panel_of(html)))
    assert len(rows) == len(eff) == len({e["discard"] for e in eff}) <= 14
    top = eff[0]
    for row, e in zip(rows, eff):
        tiles = [u["tile"] for u in e["useful"]]
        assert row["discard"] == e["discard"]
        assert row["draws"] == tiles
        assert (row["kinds"], row["total"]) == (len(tiles), e["useful_total"])
        assert row["total"] == sum(u["remaining"] for u in e["useful"])
        assert row["useful"] == [(u["tile"], u["remaining"]) for u in e["useful"]]
        assert row["shanten"] == shanten_text(e["shanten"])
        assert row["best"] is (e["shanten"] == top["shanten"]
                               and e["useful_total"] == top["useful_total"])
    assert rows[0]["best"]
    # the old "discard to be ready" advice lives on: a ready row's tiles are its waits
    ready = {d["discard"]: [(w["tile"], w["remaining"]) for w in d["waits"]]
             for d in out["discards"]}
    assert {r["discard"]: r["useful"] for r in rows if r["shanten"] == "听牌"} == ready
    if out["complete"]:
        assert '<details class="eff-fold">' in panel_of(html)


@pytest.mark.parametrize("params", HANDS_13, ids=[f"{p['variant']}-{p['hand']}" for p in HANDS_13])
def test_13_tile_useful_draws_are_the_apis(client, params):
    out = api(client, **page_request(params))
    assert out["shanten"] > 0 and out["useful"]
    panel = htmllib.unescape(panel_of(text_of(get(client, **params))))
    assert useful_of(panel) == [(u["tile"], u["remaining"]) for u in out["useful"]]
    assert f'摸 <span class="eff-count">{len(out["useful"])}种{out["useful_total"]}张</span>' in panel
    assert f"{out['shanten']} 向听" in panel
    assert "eff-row" not in panel


def test_zhengzhou_hand_counted_by_hand(client):
    """郑州 without an indicator has no wildcards (ZZ-2). 123m 456p 789s are three sets; 东东
    is the pair; 西 and 北 are lone honors: one exchange from ready (1 向听). A draw helps when
    it makes a fourth set or a second pair that can become one: 东 (东东东, then a 西/北
    single wait: 4 − 2 held = 2 left), 西 (西西 + 东东, a 对倒 wait: 4 − 1 = 3), 北 (3). Nothing
    else: 2z (南) or any suited tile only adds another lone tile. 3种8张."""
    html = htmllib.unescape(text_of(get(client, variant="zhengzhou", hand="123m456p789s1134z")))
    panel = panel_of(html)
    assert useful_of(panel) == [("1z", 2), ("3z", 3), ("4z", 3)]
    assert '1 向听</span> · 摸 <span class="eff-count">3种8张</span>' in panel
    # one 东 seen on the table (C-9): 东 has 1 left, 3种7张
    panel = htmllib.unescape(panel_of(text_of(get(
        client, variant="zhengzhou", hand="123m456p789s1134z", visible="1z"))))
    assert useful_of(panel) == [("1z", 1), ("3z", 3), ("4z", 3)]
    assert '摸 <span class="eff-count">3种7张</span>' in panel

    # 14 tiles, adding 白: throwing away any one of the three lone honors leaves the hand
    # above (with that honor's 3 copies drawable instead): 1 向听, 3种8张, the best three.
    rows = rows_of(htmllib.unescape(panel_of(text_of(get(
        client, variant="zhengzhou", hand="123m456p789s1134z5z")))))
    best = [r for r in rows if r["best"]]
    assert [(r["discard"], r["kinds"], r["total"], r["shanten"]) for r in best] == [
        ("3z", 3, 8, "1 向听"), ("4z", 3, 8, "1 向听"), ("5z", 3, 8, "1 向听")]
    assert best[0]["useful"] == [("1z", 2), ("4z", 3), ("5z", 3)]
    # breaking a set or the pair costs a step: every other row is 2 向听
    assert {r["shanten"] for r in rows[3:]} == {"2 向听"}
    assert [r["discard"] for r in rows[:3]] == ["3z", "4z", "5z"]


def test_C9_rules_example_counts_the_discard_as_seen(client):
    """RULES C-9 as amended: 晋城 123m 456m 789p 555s 11z, 打1m → 摸 1m 4m 7m, 3 + 3 + 4 = 10
    (the thrown 1m is in the river), in the API's discards and 牌理 rows and on the page."""
    out = api(client, variant="jincheng", hand="123m456m789p555s11z")
    row = next(d for d in out["discards"] if d["discard"] == "1m")
    assert [(w["tile"], w["remaining"]) for w in row["waits"]] == [("1m", 3), ("4m", 3), ("7m", 4)]
    assert row["remaining"] == 10
    eff = out["efficiency"][0]
    assert eff["discard"] == "1m" and eff["useful_total"] == 10
    rows = rows_of(htmllib.unescape(panel_of(text_of(get(
        client, variant="jincheng", hand="123m456m789p555s11z")))))
    first = rows[0]
    assert (first["discard"], first["kinds"], first["total"]) == ("1m", 3, 10)
    assert first["useful"] == [("1m", 3), ("4m", 3), ("7m", 4)]
    # 打4m and 打9p: the thrown tile's kind has one fewer too (3种 … 7张)
    assert {r["discard"]: r["total"] for r in rows if r["discard"] in ("4m", "9p")} == {
        "4m": 7, "9p": 7}


NEVER = {"variant": "panjin", "opt_wildcard_mode": "none", "opt_piaohu": "0",
         "melds": "吃123m 碰999p 吃456s 碰111z"}


def test_never_ready_hand_is_labelled_plainly(client):
    # PJ-7: 手把一 wins only as 飘胡 (off here): four melds and one tile can never win
    html = htmllib.unescape(text_of(follow(client, hand="5z", **NEVER)))
    res = result_of(html)
    assert "<dt>向听</dt><dd>" in res
    summary = res[res.index("<dt>向听</dt>"):]
    assert summary[:summary.index("</dd>")].endswith("和不了</span>")
    panel = panel_of(html)
    assert "牌理 <span class=\"count\">和不了</span>" in panel
    assert "和不了：无论怎么摸牌、打牌，这手牌都胡不了" in panel
    assert useful_of(panel) == [] and "向听" not in panel.replace("和不了", "")

    # 14 tiles: every discard leaves a hand that can never be ready
    out = api(client, variant="panjin", hand="5z6z",
              options={"wildcard_mode": "none", "piaohu": False},
              melds=[{"type": "chow", "tiles": "123m"}, {"type": "pong", "tiles": "999p"},
                     {"type": "chow", "tiles": "456s"}, {"type": "pong", "tiles": "111z"}])
    assert [e["shanten"] for e in out["efficiency"]] == [None, None]
    rows = rows_of(htmllib.unescape(panel_of(text_of(follow(client, hand="5z6z", **NEVER)))))
    assert [(r["discard"], r["shanten"], r["kinds"], r["total"]) for r in rows] == [
        ("5z", "和不了", 0, 0), ("6z", "和不了", 0, 0)]


def test_english_panel(client):
    html = htmllib.unescape(text_of(get(client, variant="zhengzhou", hand="123m456p789s1134z5z",
                                        lang="en")))
    panel = panel_of(html)
    assert "Tile efficiency" in panel and "3 kinds, 8 tiles" in panel
    assert "Discard" in panel and "draw" in panel and "1 from ready" in panel
