"""Issue 10: settlement a referee can trust — the page and API parts (the browser parts are in
tests/test_browser_settle.py). Each test names the point of the issue it covers."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc import create_app
from webcalc.variants import VARIANTS

from .test_web_pages import HX, Elements, text_of
from .test_web_settlement import nets_in, payments_in

URL = "/api/v1/analyze"


# -- point 3: a drawn game needs no hand (C-10 amended) -------------------------------------

def test_drawn_game_without_a_hand_through_the_api(client):
    resp = client.post(URL, json={"variant": "jincheng", "settlement": {
        "dealer": 1, "winner": None, "kongs": [{"seat": 2, "type": "concealed"}]}})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    body = resp.get_json()
    s = body["settlement"]
    assert s["net"] == [2, -6, 2, 2]                       # JC-8 后包 2 each, JC-6 none
    assert [p["item"] for p in s["payments"]] == ["draw_penalty"] * 3
    assert s["next_dealer"] == {"seat": 2, "rule": "JC-9"}
    assert body["decompositions"] == [] and body["waits"] == [] and body["complete"] is False
    assert body["tile_count"] == 0


def test_drawn_game_without_a_hand_zhengzhou_kongs(client):
    """ZZ-5 on 荒庄 with draw_settles_kongs (default on): the kong list alone is paid."""
    resp = client.post(URL, json={"variant": "zhengzhou", "settlement": {
        "dealer": 0, "kongs": [{"seat": 3, "type": "exposed", "from": 1}]}})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.get_json()["settlement"]["net"] == [0, -1, 0, 1]


def test_a_win_still_needs_a_hand(client):
    resp = client.post(URL, json={"variant": "jincheng", "settlement": {"dealer": 1,
                                                                        "winner": 0}})
    assert resp.status_code == 400
    assert resp.get_json()["error"]["field"] == "hand"
    resp = client.post(URL, json={"variant": "jincheng"})
    assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "hand"


def test_drawn_game_without_a_hand_on_the_page(client):
    resp = client.get("/?variant=jincheng&s_dealer=1&s_winner=none")
    assert resp.status_code == 200
    html = text_of(resp)
    assert [n for _s, n in nets_in(html)] == ["+2", "-6", "+2", "+2"]
    assert [r[3] for r in payments_in(html)] == ["后包"] * 3
    assert "请改正标红的输入" not in html and "不是和牌" not in html


# -- point 4: a bad flag is an error, not a flip ---------------------------------------------

JC_WIN = "/?variant=jincheng&hand=123m456p789s111z22z&winning_tile=2z&s_winner=0"


@pytest.mark.parametrize("key", ["s_ready0", "s_follow"])
def test_unreadable_flag_stays_with_its_message(client, key):
    resp = client.get(f"{JC_WIN}&{key}=x")
    assert resp.status_code == 422                       # no redirect, no flip
    html = text_of(resp)
    assert "应为 1（是）或 0（否）" in html[html.index(f'id="{key}-error"'):][:200]
    field = Elements(html).by_id(key)
    assert field["value"] == "x" and field["aria-invalid"] == "true"
    assert "net-row" not in html
    # the form sends it back as typed (htmx request, form_variant set): still an error
    resp = client.get(f"{JC_WIN}&{key}=x&form_variant=jincheng", headers=HX)
    assert resp.status_code == 422 and "net-row" not in text_of(resp)


def test_long_name_is_cut_then_stripped_one_redirect(client):
    resp = client.get(JC_WIN + "&n0=" + "a" * 11 + "+bcd")
    assert resp.status_code == 303
    loc = resp.headers["Location"]
    assert loc.endswith("&n0=" + "a" * 11)
    assert client.get(loc).status_code == 200


def test_empty_flags_canonicalise_once(client):
    resp = client.get(JC_WIN + "&s_ready1=&s_follow=")
    assert resp.status_code == 303
    loc = resp.headers["Location"]
    assert client.get(loc).status_code == 200


_KEYS = ["s_base", "s_dealer", "s_winner", "s_discarder", "s_pao0", "s_pao3", "s_jiagang1",
         "s_ready0", "s_ready2", "s_kongs", "s_biao", "s_follow", "s_duanmen", "s_kong_discard",
         "s_dready", "n0", "n3", "opt_pao_max", "opt_wildcard", "opt_jiagang", "opt_kong",
         "win_by", "winning_tile", "melds", "indicator", "visible", "target", "meld_type",
         "meld_from", "lang", "k_seat", "k_type", "k_from", "remove_kong", "meld_src",
         "form_variant", "add", "remove"]
_VALUES = st.one_of(
    st.sampled_from(["", " ", "0", "1", "2", "3", "x", "none", "荒庄", "东", "-1", "1.5", "nan",
                     "discard", "robbing_kong", "1:exposed:2", "0:concealed", "2z", "碰555m",
                     "melds", "pong", "zh", "en", "ｘ", "１", "concealed", "0:2", "0:",
                     "明杠5555m", "jincheng", "zhengzhou", "5m"]),
    st.text(max_size=16),
    st.text(alphabet=" ab东　", min_size=10, max_size=20))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(list(VARIANTS)),
       hand=st.sampled_from(["", "123m456p789s111z22z", "123m456p789s1112z", "12m"]),
       params=st.lists(st.tuples(st.sampled_from(_KEYS), _VALUES), max_size=8))
def test_canonical_url_is_a_fixed_point(variant, hand, params):
    """Point 4: canonicalising a canonical URL changes nothing (one redirect at most)."""
    client = _APP.test_client()
    query = urlencode([("variant", variant), ("hand", hand)] + params)
    resp = client.get("/?" + query)
    assert resp.status_code in (200, 303, 422), query
    if resp.status_code == 303:
        loc = resp.headers["Location"]
        again = client.get(loc)
        assert again.status_code in (200, 422), (query, loc, again.headers.get("Location"))


_APP = create_app({"TESTING": True})


# -- point 5: lone surrogates in a JSON body are a 400, never a 500 --------------------------

@pytest.mark.parametrize("body", [
    '{"variant": "\\ud800", "hand": "123m456p789s1112z"}',
    '{"variant": "zhengzhou", "hand": "123m\\udfff456p789s1112z"}',
    '{"variant": "zhengzhou", "hand": "123m456p789s1112z", "options": {"\\ud83d": 1}}',
    '{"variant": "zhengzhou", "hand": "123m456p789s1z", "melds": [{"type": "\\ud800", '
    '"tiles": "555m"}]}',
    '{"variant": "zhengzhou", "hand": "123m456p789s1112z", "\\udc00": 1}',
    '{"variant": "jincheng", "settlement": {"dealer": 0, "winner": null, "kongs": '
    '[{"seat": 1, "type": "\\udc80"}]}}',
])
def test_lone_surrogate_is_bad_json(client, body):
    resp = client.post(URL, data=body, content_type="application/json")
    assert resp.status_code == 400, resp.get_data(as_text=True)
    err = resp.get_json()["error"]
    assert err["code"] == "bad_json"
    assert "代理" in err["message"] or "UTF-16" in err["message"]


# -- point 6: full-width input (NFKC) in every tile field ------------------------------------

def test_full_width_tiles_through_the_api(client):
    ascii_ = client.post(URL, json={"variant": "zhengzhou", "hand": "123m456p789s1z",
                                    "melds": [{"type": "pong", "tiles": "555m", "from": 2}],
                                    "indicator": "3z", "visible": "1z 4p"}).get_json()
    wide = client.post(URL, json={"variant": "zhengzhou", "hand": "１２３ｍ　４５６ｐ，７８９ｓ１ｚ",
                                  "melds": [{"type": "pong", "tiles": "５５５ｍ", "from": 2}],
                                  "indicator": "３ｚ", "visible": "１ｚ　４ｐ"})
    assert wide.status_code == 200, wide.get_data(as_text=True)
    assert wide.get_json()["waits"] == ascii_["waits"] and ascii_["waits"]
    won = client.post(URL, json={"variant": "zhengzhou", "hand": "１２３ｍ４５６ｐ７８９ｓ１１１ｚ２２ｚ",
                                 "winning_tile": "２Ｚ", "options": {"wildcard": False}})
    assert won.status_code == 200 and won.get_json()["complete"] is True


def test_full_width_error_position_points_at_the_typed_character(client):
    resp = client.post(URL, json={"variant": "zhengzhou", "hand": "１２３ｍ４５６ｐ７８９ｓ１１１ｘ"})
    err = resp.get_json()["error"]
    assert err["code"] == "bad_tile" and err["position"] == 15
    assert "第 16 个字符“ｘ”不是牌" in err["message"]            # as typed, not the "x" read
    en = client.post(URL, json={"variant": "zhengzhou", "hand": "１２３ｍ４５６ｐ７８９ｓ１１１ｘ"},
                     headers={"Accept-Language": "en"}).get_json()["error"]
    assert 'character 16 "ｘ" is not a tile' in en["message"] and en["position"] == 15


def test_full_width_on_the_page(client):
    resp = client.get("/", query_string={"variant": "zhengzhou", "hand": "１２３ｍ４５６ｐ７８９ｓ１１１２ｚ",
                                         "visible": "２ｚ，２ｚ"})
    assert resp.status_code == 200
    html = text_of(resp)
    assert 'class="wait-list"' in html and "余 1 张" in html          # 南: 4 − 1 − 2 seen
    resp = client.get("/", query_string={"variant": "zhengzhou", "hand": "123m456p789s1z",
                                         "melds": "碰５５５ｍ＠２"})
    assert resp.status_code == 200
    assert re.search(r'class="meld-chip"', text_of(resp))
    resp = client.get("/", query_string={**dict(variant="jincheng", hand="123m456p789s111z22z",
                                                winning_tile="２ｚ"),
                                         "s_base": "１００", "s_dealer": "0", "s_winner": "0"},
                      follow_redirects=True)
    assert resp.status_code == 200
    assert [n for _s, n in nets_in(text_of(resp))] == ["+1200", "-400", "-400", "-400"]


# -- point 8: words ---------------------------------------------------------------------------

def test_special_shape_groups_are_named_in_chinese(client):
    html = text_of(client.get("/", query_string={"variant": "jincheng",
                                                 "hand": "119m19p19s1234567z",
                                                 "winning_tile": "1m"}))
    assert 'class="group group-single"' in html
    labels = re.findall(r'<span class="group-label">([^<]*)', html)
    assert labels and all(re.search(r"[\u4e00-\u9fff]", x) for x in labels), labels
    assert "single" not in "".join(labels)
    html = text_of(client.get("/", query_string={"variant": "sanmenxia",
                                                 "hand": "147m258p369s12345z",
                                                 "winning_tile": "1z"}))
    labels = re.findall(r'<span class="group-label">([^<]*)', html)
    assert 'group-knitted' in html and labels
    assert not any(x.strip() in ("single", "knitted") for x in labels), labels
    assert "knitted" not in "".join(labels)


def test_error_messages_have_no_english_keys(client):
    resp = client.get("/", query_string={"variant": "zhengzhou", "hand": "123m456p789s111z22z",
                                         "winning_tile": "2z", "s_winner": "0"})
    html = text_of(resp)
    # the page's dealer is 东家 unless chosen (issue 36, R4): no "庄家：必填" on the page; the
    # API still asks for it, in words without the English key
    assert 'id="s_dealer-error"' not in html and "net-row" in html
    r = client.post("/api/v1/analyze", json={"variant": "zhengzhou", "hand": "123m456p789s111z22z",
                                             "winning_tile": "2z", "settlement": {"winner": 0}})
    msg = r.get_json()["error"]["message"]
    assert r.status_code == 400 and "庄家" in msg and "（dealer）" not in msg, msg
    resp = client.get("/", query_string={"variant": "panjin", "hand": "123m456p789s1112z",
                                         "opt_wildcard_mode": "bogus"})
    assert resp.status_code == 422
    html = text_of(resp)
    msg = html[html.index('id="opt_wildcard_mode-error"') + 25:].split("</p>")[0]
    assert "不带混、混牌、游戏混" in msg
    assert not re.search(r"none|next|both|wildcard_mode", msg), msg


def test_panjin_discard_fan_shown_as_paid(client):
    """PJ-12: 点炮 ×2 doubles the discarder's own share only (unless discard_doubles_all)."""
    q = {"variant": "panjin", "hand": "123m456p789s11122z", "winning_tile": "2z",
         "win_by": "discard", "s_dealer": "0", "s_winner": "0", "s_discarder": "1"}
    html = text_of(client.get("/", query_string=q, follow_redirects=True))
    fan = html[html.index('class="block fan"'):][:1500]
    row = re.search(r"<tr><td>点炮</td><td>(.*?)</td></tr>", fan, re.S)
    assert row and "只翻点炮者自己那一份" in row.group(1), fan
    html = text_of(client.get("/", query_string={**q, "opt_discard_doubles_all": "1"},
                              follow_redirects=True))
    fan = html[html.index('class="block fan"'):][:1500]
    row = re.search(r"<tr><td>点炮</td><td>(.*?)</td></tr>", fan, re.S)
    assert row and "三份都翻" in row.group(1)


def test_missing_win_by_with_a_winner_is_bad_win_by(client):
    resp = client.post(URL, json={"variant": "zhengzhou", "hand": "123m456p789s111z22z",
                                  "winning_tile": "2z", "options": {"wildcard": False},
                                  "settlement": {"dealer": 0, "winner": 0}})
    err = resp.get_json()["error"]
    assert resp.status_code == 400 and err["code"] == "bad_win_by" and err["field"] == "win_by"
    assert "胡法" in err["message"] and "缺" in err["message"]


# -- point 9: the settlement's gist right under the hand --------------------------------------

ZZ_BIG = ("/?variant=zhengzhou&hand=123m456p789s111z22z&winning_tile=2z&opt_wildcard=0"
          "&s_base=100&s_dealer=2&s_winner=0&s_pao0=3&s_pao1=2&s_kongs=0:concealed")


def _gist(html: str) -> str:
    i = html.index('id="quick-settle"')
    return html[i:html.index("</p>", i)]


def test_settlement_gist_under_the_hand(client):
    html = text_of(client.get(ZZ_BIG))
    gist = _gist(html)
    assert html.index('id="quick-settle"') < html.index('class="palette"')   # above the keys
    nets = re.findall(r'<span class="quick-net[^"]*">(.*?)</span>', gist, re.S)
    assert [re.sub(r"<[^>]+>|\s", "", n) for n in nets] == ["东+2800", "南-1200", "西-800",
                                                            "北-800"]
    assert "下局庄家：东家" in re.sub(r"<[^>]+>", "", gist)                     # ZZ-7
    assert 'href="#settle-title"' in gist


def test_drawn_game_gist_without_a_hand(client):
    html = text_of(client.get("/?variant=jincheng&s_dealer=1&s_winner=none"))
    gist = re.sub(r"<[^>]+>|\s", "", _gist(html))
    assert "荒庄" in gist and "东+2" in gist and "南-6" in gist and "下局庄家：西家" in gist
    assert 'id="quick"' not in html                  # no "not a win" line without a hand


def test_no_gist_until_a_winner_is_chosen(client):
    html = text_of(client.get(ZZ_BIG.replace("&s_winner=0", ""), follow_redirects=True))
    assert 'id="quick-settle"' not in html


# -- point 10: ask only what changes the money ---------------------------------------------

JC_DISCARD = ("/?variant=jincheng&hand=123m456p789s111z22z&winning_tile=2z&win_by=discard"
              "&s_winner=1&s_discarder=2")


def test_jincheng_discard_win_asks_the_discarders_ready(client):
    """JC-5: the discarder's 上架 decides the ×2; the page asks it, no silent default."""
    resp = client.get(JC_DISCARD)
    assert resp.status_code == 422
    html = text_of(resp)
    assert "net-row" not in html
    assert "上架" in html[html.index('id="s_dready-error"'):][:300]
    field = Elements(html).by_id("s_dready")
    assert field["aria-invalid"] == "true"
    # 南家 wins on 西家's discard, 东家 deals: u = 2 for 东家 only (JC-5)
    nets = [n for _s, n in nets_in(text_of(client.get(JC_DISCARD + "&s_dready=1")))]
    assert nets == ["-2", "+4", "-1", "-1"]
    nets = [n for _s, n in nets_in(text_of(client.get(JC_DISCARD + "&s_dready=0")))]
    assert nets == ["-2", "+5", "-2", "-1"]                   # ×2(未上架点胡) on 西家
    # a self-draw asks nothing
    resp = client.get(JC_DISCARD.replace("&win_by=discard", "").replace("&s_discarder=2", ""))
    assert resp.status_code == 200 and "s_dready" not in text_of(resp)


def notes_in(html: str) -> list[tuple[str, str]]:
    """(rule id, text) of each note of the settlement as a whole."""
    return re.findall(r'<li class="settle-note"><a class="rule-link" href="/rules/[^"]+">'
                      r'<span class="rule-id">([^<]+)</span></a> ([^<]*)</li>', html)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_zz6_correction_is_noted_once_where_the_seed_figure_differs(client, lang):
    """ZZ-6: the seed's worked examples with 跑 were wrong. The settlement says so once,
    where one of them would give another number here, and no payment line repeats it (it
    ended all six lines of this hand, and the CSV's, before)."""
    html = text_of(client.get(ZZ_BIG + f"&lang={lang}"))
    rows = payments_in(html) if lang == "zh" else []
    assert len(rows) == (6 if lang == "zh" else 0)
    assert not [r for r in rows if "ZZ-6" in r[5] or "种子" in r[4]]
    notes = notes_in(html)
    assert [rule for rule, _text in notes] == ["ZZ-6"]
    text = notes[0][1]
    if lang == "zh":
        assert text.startswith("按公式付钱；") and "B 给 12 底" in text and "7 底和 9 底" in text
        assert "种子" not in text and "原文算错" not in text        # GLOSSARY.md UI words
    else:
        assert text.startswith("Paid by the formula;") and "12 from B" in text
        assert not re.search(r"[\u3400-\u9fff]", text)
    result = html[html.index('<section id="result"'):html.index('<div class="col-more">')]
    assert result.count("ZZ-6") == 2                  # the note's link (href and badge) only
    # 跑 that the seed reckons right (only the winner has 跑, no kong): no note
    plain = text_of(client.get(ZZ_BIG.replace("&s_pao0=3&s_pao1=2", "&s_pao0=2")
                               .replace("&s_kongs=0:concealed", "")))
    assert notes_in(plain) == [] and "net-row" in plain
