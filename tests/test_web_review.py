"""The hand review page (牌谱复盘, ``GET /review``): the state in the URL, taps as one-off URL
actions (303 to the canonical URL), and at each step the values of ``POST /api/v1/review``
for the same log (the page renders the engine's answer, no rule of its own). Without
JavaScript (the Flask test client); tests/test_browser_review.py drives it in Chromium."""

from __future__ import annotations

import random
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from tests.scale import scaled
from webcalc.variants import VARIANTS
from webcalc.web.turns import review_request, review_text

from .test_story_review import simulate

HX = {"HX-Request": "true"}


def get(client, pairs, lang=None, **kw):
    q = list(pairs) + ([("lang", lang)] if lang else [])
    kw.setdefault("follow_redirects", "add" not in dict(q))
    return client.get("/review?" + urlencode(q), **kw)


def state(location: str) -> dict:
    return {k: v[-1] for k, v in parse_qs(urlsplit(location).query).items()}


def turn_shown(html: str) -> dict:
    m = re.search(r'<article class="block review-turn" id="turn" data-number="(\d+)" '
                  r'data-shanten="([^"]+)" data-rank="(\d+)" data-loss="(\d+)" '
                  r'data-discard="(\w+)">(.*?)</article>', html, re.S)
    assert m, "no reviewed turn on the page"
    body = m.group(6)
    best = re.findall(r'<li class="eff-row[^"]*" data-discard="(\w+)" data-shanten="([^"]+)" '
                      r'data-kinds="\d+" data-total="(\d+)"', body)
    hand = re.search(r'<p class="review-hand">(.*?)</p>', body, re.S).group(1)
    return {"number": int(m.group(1)), "shanten": m.group(2), "rank": int(m.group(3)),
            "loss": int(m.group(4)), "discard": m.group(5), "best": best,
            "hand": re.findall(r'data-tile="(\w\w)"', hand)}


def summary_shown(html: str) -> tuple:
    m = re.search(r'id="summary" aria-labelledby="summary-title" data-turns="(\d+)" '
                  r'data-best="(\d+)" data-lost="(\d+)" data-shanten-lost="(\d+)"', html)
    return tuple(int(x) for x in m.groups())


def test_the_turns_text_round_trips_random_logs():
    """Every turn form of the simulated 郑州 logs (draws, a pong, the three kongs with their
    replacements) written as the page's text reads back as the same API turns."""
    for seed in range(scaled(100)):
        req, *_rest = simulate(random.Random(seed))
        assert review_request(review_text(req["turns"])) == req["turns"], seed
    wins = [{"draw": "5m", "win": True}, {"claim": "win", "tile": "5m", "from": 3},
            {"claim": "kong", "tiles": "5555m", "from": 1, "replacement": "1s", "win": True},
            {"discard": "2z"}, {"claim": "chow", "tiles": "123p", "discard": "9s"}]
    for t in wins:
        assert review_request(review_text([t])) == [t]


@pytest.mark.parametrize("seed", [3, 11])
def test_each_step_shows_the_apis_values(client, seed):
    """A 12-turn 郑州 log with 混, a pong and a kong: at every step the page's 14 tiles,
    shanten, chosen discard, rank, loss and best rows are the API's for that turn."""
    req, *_rest = simulate(random.Random(seed))
    api = client.post("/api/v1/review", json=req).get_json()
    pairs = [("variant", "zhengzhou"), ("indicator", req["indicator"]),
             ("start", req["start"]), ("turns", review_text(req["turns"]))]
    last = get(client, pairs)
    assert last.status_code == 200, last.get_data(as_text=True)[:3000]
    html = last.get_data(as_text=True)
    assert turn_shown(html)["number"] == api["turns"][-1]["number"]     # the last by default
    s = api["summary"]
    assert summary_shown(html) == (s["turns"], s["best_taken"], s["tiles_lost"],
                                   s["shanten_lost"])
    for i, t in enumerate(api["turns"]):
        shown = turn_shown(get(client, pairs + [("step", str(i))]).get_data(as_text=True))
        from webcalc.tiles import parse_tiles

        assert shown == {
            "number": t["number"], "shanten": str(t["shanten"]),
            "rank": t["chosen"]["rank"], "loss": t["loss"], "discard": t["chosen"]["discard"],
            "best": [(b["discard"], "null" if b["shanten"] is None else str(b["shanten"]),
                      str(b["useful_total"])) for b in t["best"]],
            "hand": [x.code for x in parse_tiles(t["hand"])]
            + [x.code for m in t["melds"] for x in parse_tiles(m["tiles"])],
        }, (seed, i)


def test_a_review_is_tapped_in(client):
    """13 dealt tiles by taps, then 摸 and 打 (the mode follows), a pong from seat 2 with the
    mode chosen, its discard, and a win on the draw: every tap a 303 to the URL that holds
    the state; the page then reviews it."""
    loc = "/review?variant=zhengzhou&opt_wildcard=0"
    for code in ["1m", "2m", "3m", "5m", "5m", "9m", "4p", "5p", "6p", "7s", "8s", "9s", "1z"]:
        r = client.get(loc + "&add=" + code)
        assert r.status_code == 303
        loc = r.headers["Location"]
    assert state(loc)["start"] == "123559m456p789s1z" and "turns" not in state(loc)

    def tap(extra):
        r = client.get(loc + "&" + extra)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        return r.headers["Location"]

    loc = tap("add=1z")                                  # a draw (the mode follows)
    assert state(loc)["turns"] == "摸1z"
    loc = tap("add=9m")                                  # its discard
    assert state(loc)["turns"] == "摸1z打9m"
    loc = tap("mode=pong&from=2&add=5m")                 # chosen: 碰 from 西家
    assert state(loc)["turns"] == "摸1z打9m 碰555m@2" and "mode" not in state(loc)
    loc = tap("add=1z")                                  # the pong's discard
    loc = tap("add=1z")                                  # 摸东 …
    loc = tap("win=1")                                   # … and it wins
    assert state(loc)["turns"] == "摸1z打9m 碰555m@2打1z 摸1z胡"
    html = client.get(loc).get_data(as_text=True)
    assert "The hand ends in a win." not in html and "这手牌以和牌结束" in html
    assert summary_shown(html)[0] == 2
    # the last turn taken out; a dealt tile taken out
    assert state(tap("undo=1"))["turns"] == "摸1z打9m 碰555m@2打1z"
    assert state(tap("remove_start=0"))["start"] == "23559m456p789s1z"


def test_htmx_swaps_the_review_and_pushes_the_canonical_url(client):
    r = get(client, [("variant", "zhengzhou"), ("start", "123m"), ("add", "4m")], headers=HX)
    assert r.status_code == 200
    assert r.headers["HX-Push-Url"] == "/review?variant=zhengzhou&start=1234m"
    html = r.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="review"') and "<html" not in html


@pytest.mark.parametrize("lang, words", [(None, "第 2 手"), ("en", "Turn 2")])
def test_a_turn_that_cannot_be_played_is_shown_under_the_turns(client, lang, words):
    """Turn 2 discards 8m, which is not held: bad_history with the turn, under the turns, in
    the reader's language; the typed state kept, the turn's chip marked."""
    pairs = [("variant", "zhengzhou"), ("start", "123559m456p789s1z"),
             ("turns", "摸1z打9m 摸2z打8m")]
    r = get(client, pairs, lang)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    err = re.search(r'<p class="field-error" id="review-turns-error" role="alert"><span>'
                    r'([^<]*)</span>', html)
    assert err and err.group(1).startswith(words), err and err.group(1)
    assert 'value="摸1z打9m 摸2z打8m"' in html
    assert re.findall(r'class="turn-chip[^"]*turn-chip-error', html) != []


@pytest.mark.parametrize("last", ["xyz", "9z", "1m2m", "摸9z", "碰55x@2"])
def test_a_typed_last_turn_that_is_no_tiles_is_an_error_not_a_pending_turn(client, last):
    """A last turn typed with no discard is the turn being tapped in (its discard to come)
    only when what it holds is tiles: "xyz", "9z" (no such tile) or "1m2m" (two tiles where
    one is drawn) answered 200 with "第 2 手（xyz）还没有打牌" and were never read, while
    the same word before another turn is the engine's error. Now it is read: 422, the
    error under the turns, the text kept."""
    text = f"摸1z打9m {last}"
    r = get(client, [("variant", "zhengzhou"), ("start", "123459m456p789s1z"),
                     ("turns", text)])
    html = r.get_data(as_text=True)
    assert r.status_code == 422, re.findall(r"第 2 手[^<]*", html)
    err = re.search(r'<p class="field-error" id="review-turns-error" role="alert"><span>'
                    r'([^<]*)</span>', html)
    assert err and err.group(1).startswith("第 2 手"), err and err.group(1)
    assert f'value="{text}"' in html


@pytest.mark.parametrize("last", ["摸2z", "1m", "碰555m@2", "杠5555m@1", "摸5m杠5m"])
def test_a_last_turn_being_tapped_in_is_still_pending(client, last):
    r = get(client, [("variant", "zhengzhou"), ("start", "1234555m456p789s"),
                     ("turns", f"摸1z打1z {last}")])
    html = r.get_data(as_text=True)
    assert r.status_code == 200, re.findall(r'id="review-turns-error"[^>]*>.*?</p>', html)
    assert f"第 2 手（{last}）" in html


def test_a_tap_that_cannot_apply_says_why_and_changes_nothing(client):
    # 盘锦 has chow (PJ-3): a chow is tapped by its lowest tile, 1 to 7
    r = get(client, [("variant", "panjin"), ("start", "123559m456p789s1z"),
                     ("mode", "chow"), ("add", "9m")])
    assert r.status_code == 422
    assert "吃要点最小的那张" in r.get_data(as_text=True) or "最小" in r.get_data(as_text=True)


def modes_offered(html: str) -> list[str]:
    return re.findall(r'<input type="radio" name="mode" value="(\w+)"', html)


@pytest.mark.parametrize("variant, chow", [("zhengzhou", False), ("sanmenxia", False),
                                           ("jincheng", False), ("panjin", True)])
def test_the_chow_mode_is_offered_where_the_variant_has_chow(client, variant, chow):
    """No chow in 郑州 (ZZ-2), 三门峡 (SMX-2) and 晋城 (JC-2); 盘锦 has it (PJ-3): the page
    offers 吃 as the variant's meld types say, in either language, the other modes always."""
    assert ("chow" in VARIANTS[variant].meld_kinds) is chow
    for lang, label in ((None, "吃（最小张）"), ("en", "Chow (lowest)")):
        html = get(client, [("variant", variant), ("start", "123559m456p789s1z")],
                   lang).get_data(as_text=True)
        modes = modes_offered(html)
        assert ("chow" in modes) is chow and (label in html) is chow, (variant, lang)
        assert {"draw", "discard", "pong", "kong", "win_claim"} <= set(modes)


@pytest.mark.parametrize("variant, words", [("zhengzhou", "郑州麻将不能吃牌（ZZ-2）"),
                                            ("sanmenxia", "三门峡麻将不能吃牌（SMX-2）"),
                                            ("jincheng", "晋城麻将不能吃牌")],
                         ids=["zhengzhou", "sanmenxia", "jincheng"])
def test_a_chow_tap_where_the_variant_has_none_is_refused(client, variant, words):
    """A URL that still asks for a chow tap (a bookmark, the variant switched): the variant
    refuses it in its own words and the turns stay as they were; the mode alone is dropped."""
    pairs = [("variant", variant), ("start", "123559m456p789s1z"), ("turns", "摸1z打9m")]
    r = get(client, pairs + [("mode", "chow"), ("from", "3"), ("add", "3m")])
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and words in html
    assert "吃345m" not in html and 'value="摸1z打9m"' in html
    assert "chow" not in modes_offered(html)
    r = get(client, pairs + [("mode", "chow")], follow_redirects=False)
    assert r.status_code == 303 and "mode" not in state(r.headers["Location"])


def test_the_page_in_english_and_linked_from_the_footer(client):
    html = get(client, [], "en").get_data(as_text=True)
    assert "<h1 class=\"review-title\">Hand review" in html
    assert "The next tap is" in html and "下一次点的是" not in html
    assert 'href="/review"' in client.get("/").get_data(as_text=True)


def test_the_dealers_first_turn_a_kong_by_taps(client):
    """14 dealt tiles: the first tap is a discard, or (the mode chosen) a concealed kong of
    four held, then its replacement and discard: the API's dealer turn without a draw."""
    loc = "/review?variant=zhengzhou&opt_wildcard=0&start=5555m123p456p789s1z"
    r = client.get(loc + "&mode=self_kong&add=5m")
    assert r.status_code == 303 and state(r.headers["Location"])["turns"] == "杠5m"
    loc = r.headers["Location"]
    for code in ("2z", "2z"):                        # replacement 南, then 打南
        loc = client.get(loc + "&add=" + code).headers["Location"]
    assert state(loc)["turns"] == "杠5m补2z打2z"
    assert review_request("杠5m补2z打2z") == [{"kong": "5m", "replacement": "2z",
                                              "discard": "2z"}]
    html = client.get(loc).get_data(as_text=True)
    assert turn_shown(html)["discard"] == "2z" and "review-meld" in html
