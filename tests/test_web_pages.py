"""The page GET / : full page, htmx fragment, field errors (422), never a 500."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc import create_app
from webcalc.variants import VARIANTS

HX = {"HX-Request": "true", "HX-Request-Type": "partial", "HX-Target": "calc"}


class Elements(HTMLParser):
    """Collects every start tag as (tag, attrs) for simple structural assertions."""

    def __init__(self, html: str):
        super().__init__()
        self.items: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.items.append((tag, dict(attrs)))

    def by_id(self, id_: str) -> dict:
        for _tag, attrs in self.items:
            if attrs.get("id") == id_:
                return attrs
        raise AssertionError(f"no element #{id_}")

    def tiles(self, html_class: str = "tile") -> list[dict]:
        return [a for t, a in self.items if html_class in (a.get("class") or "").split()]


def get(client, headers=None, **params):
    return client.get("/", query_string=params, headers=headers or {})


def text_of(resp) -> str:
    return resp.get_data(as_text=True)


def result_of(html: str) -> str:
    """The result region alone (it sits inside the form, before the options)."""
    start = html.index('<section id="result"')
    return html[start:html.index('<div class="col-more">', start)]


def waits_in(html: str) -> dict[str, int]:
    """{tile code: remaining} from the rendered wait list."""
    items = re.findall(r'<li class="wait[^"]*">.*?data-tile="(\w+)".*?余 (\d+) 张', html, re.S)
    return {code: int(n) for code, n in items}


def test_empty_form_shows_form_and_hint(client):
    resp = get(client)
    assert resp.status_code == 200
    html = text_of(resp)
    assert '<html lang="zh-Hans">' in html
    els = Elements(html)
    for name in ("variant", "hand", "melds", "indicator", "visible"):
        assert els.by_id(name)["name"] == name
    form = next(a for t, a in els.items if t == "form")
    assert form["method"] == "get" and form["hx-get"] == "/" and form["hx-push-url"] == "true"
    variant_select = html[html.index('<select id="variant"'):]
    variant_select = variant_select[:variant_select.index("</select>")]
    assert re.findall(r'<option[^>]* value="(\w+)"', variant_select) == list(VARIANTS)
    for label in ("三门峡", "郑州", "盘锦", "晋城"):
        assert label in html
    assert "123m456p789s1134z" in html  # the example hand in the hint
    assert els.by_id("result")["aria-live"] == "polite"
    assert "wait-list" not in html
    assert set(resp.headers["Vary"].replace(" ", "").split(",")) >= {"HX-Request", "HX-Request-Type"}


def test_assets_are_local(client):
    html = text_of(get(client))
    # nothing loaded from elsewhere (the copy fallback's field holds the page's own link)
    assert not re.findall(r'(?:src|href|action)="(?:https?:)?//', html)
    assert "https://" not in html and "http://" not in html.replace(
        'value="http://localhost/"', "")
    for path in ("/static/vendor/htmx.min.js", "/static/css/app.css"):
        with client.get(path) as resp:
            assert resp.status_code == 200


def test_mpsz_hand_shows_wildcards_and_waits(client):
    resp = get(client, variant="zhengzhou", hand="123m456p789s1134z", indicator="3z")
    assert resp.status_code == 200
    html = text_of(resp)
    # ZZ-1: indicator 西 → wildcard 北, drawn as a tile with the 混 badge.
    assert 'aria-label="北（混牌）"' in html
    assert re.search(r"<dt>混皮</dt><dd><span class=\"tile [^>]*aria-label=\"西\"", html)
    assert "13 张" in html
    assert waits_in(html) == {"1z": 2, "3z": 2, "4z": 3}
    assert 'value="123m456p789s1134z"' in html  # the input keeps what was typed


def test_chinese_hand_shows_wait_with_remaining(client):
    resp = get(client, variant="zhengzhou", hand="一二三万四五六筒七八九条东东东南")
    assert resp.status_code == 200
    html = text_of(resp)
    assert waits_in(html) == {"2z": 3}
    assert 'aria-label="南"' in html


def test_dead_wait_is_flagged(client):
    html = text_of(get(client, variant="zhengzhou", hand="123m456p789s1112z", visible="222z"))
    assert waits_in(html) == {"2z": 0}
    assert "空听" in html and "wait-dead" in html


def test_complete_hand_draws_reading_group_by_group(client):
    resp = get(client, variant="zhengzhou", hand="123m456p789s11122z")
    html = text_of(resp)
    assert resp.status_code == 200
    assert "已胡" in html
    assert re.search(r"拆牌 <span class=\"count\">共 1 种", html)
    groups = re.findall(r'<li class="group group-(\w+)', html)
    assert sorted(groups) == ["pair", "sequence", "sequence", "sequence", "triplet"]
    for label in ("顺子", "刻子", "对子"):
        assert label in html
    # every tile of the reading drawn: 3 + 3 + 3 + 3 + 2
    reading = html[html.index('class="reading-list"'):]
    assert reading.count('class="tile ') == 14


def test_exposed_meld_is_set_apart(client):
    resp = get(client, variant="zhengzhou", hand="123m456p11122z", melds="碰777s")
    html = text_of(resp)
    assert resp.status_code == 200, html
    assert "group-exposed" in html and "副露" in html
    assert html.count('class="group ') == 5


def test_wildcard_stand_in_is_marked(client):
    # 西 indicator → 北 is the wildcard; 123m 456p 789s 东东 西 北 + 西: 333z uses 北 as 西.
    html = text_of(get(client, variant="zhengzhou", hand="123m456p789s11334z", indicator="3z"))
    assert "已胡" in html
    assert "tile-wild" in html and "混牌北，当西" in html and "混：北当西" in html


def test_bad_tile_message_under_field_input_kept_422(client):
    resp = get(client, variant="zhengzhou", hand="123m456p789s111x")
    assert resp.status_code == 422
    html = text_of(resp)
    els = Elements(html)
    hand = els.by_id("hand")
    assert hand["aria-invalid"] == "true"
    assert "hand-error" in hand["aria-describedby"].split()
    assert hand["value"] == "123m456p789s111x"
    err = html[html.index('id="hand-error"'):]
    assert re.search(r"[\u4e00-\u9fff]", err[:200])
    assert "<mark>x</mark>" in err[:400]  # the offending character is pointed at
    assert "wait-list" not in html


def test_bad_melds_error_goes_under_melds(client):
    resp = get(client, variant="zhengzhou", hand="123m456p11122z", melds="碰7x")
    assert resp.status_code == 422
    els = Elements(text_of(resp))
    assert els.by_id("melds")["aria-invalid"] == "true"
    assert "aria-invalid" not in els.by_id("hand")


def test_bad_meld_character_is_marked_where_it_was_typed(client):
    """The caret (the <mark>) sits on the bad ``+`` of the melds field, not one character
    to its left (the kind word 碰 counted too)."""
    for melds in ("碰555m+", "碰5+55m", "123p 碰5+55m"):
        html = text_of(get(client, variant="zhengzhou", hand="123m456p11122z", melds=melds))
        at = re.search(r'<p class="field-error" id="melds-error">.*?<span class="err-at">'
                       r'(.*?)</span>', html, re.S).group(1)
        i = melds.index("+")
        assert f"<code>{melds[:i]}<mark>+</mark>{melds[i + 1:]}</code>" in at, at
        assert f"位置 {i + 1}：" in at and f"第 {i + 1} 个字符“+”" in html


def test_error_positions_count_the_spaces_the_player_typed(client):
    """Issue 36.6: leading spaces are part of what was typed, so the position counts them
    (the form used to trim the hand before parsing: "第 6 个字符" for the x at 8)."""
    for name, value, other in (("hand", "  1m2m3x", {}),
                               ("melds", "  111m 2x", {"hand": "123m456p11122z"}),
                               ("indicator", "  5x", {"hand": "123m456p789s1112z"})):
        resp = client.get("/", query_string={"variant": "zhengzhou", name: value, **other},
                          follow_redirects=True)     # the canonical URL keeps the spaces
        assert resp.status_code == 422
        html = text_of(resp)
        i = value.index("x")
        err = html[html.index(f'id="{name}-error"'):]
        assert f"第 {i + 1} 个字符“x”" in err[:300], (name, err[:300])
        assert f"<code>{value[:i]}<mark>x</mark></code>" in err[:600], (name, err[:600])
        assert Elements(html).by_id(name)["value"] == value


def test_a_wildcard_single_wait_is_one_row_on_the_page_and_every_wait_in_json(client):
    """Issue 36.5 (R10): 三门峡 混单吊 listed 31 rows that all said 1 表, 得 6. The page shows
    one row 任意牌（混单吊） with the tiles left and the worth once; the JSON keeps every wait
    (SMX-4: four sets and the wildcard 红中: any tile completes, 1 表, 2 from each seat)."""
    q = {"variant": "sanmenxia", "hand": "123m123m123m123m7z", "indicator": "4z"}
    api = client.post("/api/v1/analyze", json=q).get_json()
    assert api["any_tile_wait"] is True and len(api["waits"]) == 31
    assert {w["win"]["amount"] for w in api["waits"]} == {6}
    left = sum(w["remaining"] for w in api["waits"])
    assert left == 122           # 136 − 13 held − the indicator; 1m 2m 3m (all held) none
    html = text_of(client.get("/", query_string=q, follow_redirects=True))
    waits = html[html.index('<ul class="wait-list">'):]
    waits = waits[:waits.index("</ul>")]
    assert waits.count("<li") == 1
    assert "任意牌（混单吊）" in waits and "余 122 张" in waits and "得 6" in waits
    assert "1 表" in waits and "31 种，共 122 张" in html
    en = text_of(client.get("/", query_string={**q, "lang": "en"}, follow_redirects=True))
    assert "Any tile (wildcard single wait)" in en


def test_unknown_variant_is_a_field_error(client):
    resp = get(client, variant="tokyo", hand="123m456p789s1112z")
    assert resp.status_code == 422
    assert Elements(text_of(resp)).by_id("variant")["aria-invalid"] == "true"


def test_htmx_request_gets_only_the_fragment(client):
    resp = get(client, HX, variant="zhengzhou", hand="123m456p789s1112z")
    assert resp.status_code == 200
    html = text_of(resp)
    assert "<html" not in html and "<body" not in html
    # the page's new title first (htmx sets document.title from it), then the panel
    title = "<title>一二三万 四五六筒 七八九条 东东东南 · 郑州 · 麻将计算器 · webcalc</title>"
    assert html.lstrip().startswith(title + '<div id="calc">')
    assert waits_in(html) == {"2z": 3}
    assert "HX-Request" in resp.headers["Vary"]


def test_title_names_the_hand_in_the_order_typed(client):
    """The title takes the tap area's tiles (read once), in the order typed, not the tap
    area's sorted hand: runs of a suit as typed, the English codes unsorted, and text that
    does not parse as typed."""
    def title(lang="zh", **q):
        html = text_of(get(client, HX, variant="zhengzhou", lang=lang, **q))
        return html[html.index("<title>") + 7:html.index("</title>")]

    assert title(hand="9m1m 5z 3p2p 东") == "九一万 白 三二筒 东 · 郑州 · 麻将计算器 · webcalc"
    assert title("en", hand="9m1m 5z 3p2p") == ("91m5z32p · Zhengzhou · Mahjong calculator"
                                                " · webcalc")
    assert title(hand="123m4x") == "123m4x · 郑州 · 麻将计算器 · webcalc"
    assert title(hand="") == "麻将计算器 · webcalc"


def test_htmx_error_fragment_is_422(client):
    resp = get(client, HX, variant="zhengzhou", hand="123m456p789s111x")
    assert resp.status_code == 422
    html = text_of(resp)
    assert "<html" not in html and 'id="hand-error"' in html


def test_history_restore_and_full_requests_get_the_full_page(client):
    for headers in ({"HX-Request": "true", "HX-Request-Type": "full",
                     "HX-History-Restore-Request": "true"},
                    {"HX-Request": "true", "HX-Request-Type": "full"}):
        html = text_of(get(client, headers, variant="zhengzhou", hand="123m456p789s1112z"))
        assert "<html" in html and waits_in(html) == {"2z": 3}


def test_plain_form_get_redirects_to_canonical_url(client):
    resp = client.get("/?variant=zhengzhou&hand=123m456p789s1112z&melds=&indicator=&visible=")
    assert resp.status_code == 303
    assert resp.headers["Location"] == "/?variant=zhengzhou&hand=123m456p789s1112z"


def test_htmx_gets_canonical_url_to_push_or_replace(client):
    url = "/?variant=zhengzhou&hand=123m456p789s1112z&melds=&indicator=&visible="
    resp = client.get(url, headers={**HX, "HX-Current-URL": "http://localhost/"})
    assert resp.status_code == 200
    assert resp.headers["HX-Push-Url"] == "/?variant=zhengzhou&hand=123m456p789s1112z"
    resp = client.get(url, headers={
        **HX, "HX-Current-URL": "http://localhost/?variant=zhengzhou&hand=123m456p789s1112z"})
    assert resp.headers["HX-Replace-Url"] == "/?variant=zhengzhou&hand=123m456p789s1112z"
    assert "HX-Push-Url" not in resp.headers


def test_not_found_is_a_friendly_chinese_page(client):
    resp = client.get("/no-such-page")
    assert resp.status_code == 404
    assert resp.mimetype == "text/html"
    assert "没有这个页面" in text_of(resp)


_app = create_app({"TESTING": True})
field_text = st.text(alphabet="0123456789mpsz 东南西北中发白万筒条一二三碰吃杠暗补,x", max_size=24)


@settings(max_examples=examples(120), deadline=None)
@given(variant=st.sampled_from([*VARIANTS, "", "x"]),
       hand=field_text, melds=field_text, indicator=field_text, visible=field_text)
def test_no_500_for_any_form_input(variant, hand, melds, indicator, visible):
    resp = _app.test_client().get("/", query_string={
        "variant": variant, "hand": hand, "melds": melds, "indicator": indicator,
        "visible": visible}, follow_redirects=True)
    assert resp.status_code in (200, 422)


def test_result_fragment_renders_every_optional_section(app):
    """Sections the page form cannot reach yet (settlement, fan …) still render from an
    Analysis holding what API.md describes."""
    from flask import render_template

    from webcalc.analysis import Analysis
    from webcalc.web.forms import AnalyzeForm

    result = Analysis(
        variant="sanmenxia",
        wildcards=("5s",), tile_count=14, complete=True, shanten=-1,
        readings=({"shape": "standard", "best": True, "groups": [
            {"kind": "free", "tiles": ["5s", "5s", "5s"], "wild": [True] * 3, "exposed": False},
            {"kind": "kong", "tiles": ["7z"] * 4, "wild": [False] * 4, "exposed": True}]},),
        readings_total=1, waits=(), any_tile_wait=True,
        discards=({"discard": "6z", "waits": [{"tile": "9s", "remaining": 0}]},),
        efficiency=({"discard": "6z", "shanten": 0, "useful_total": 0,
                     "useful": [{"tile": "9s", "remaining": 0, "dead": True}]},),
        biao=2, fan=[{"name": "清一色", "key": "one_suit", "multiplier": 2}],
        reasons=({"rule": "PJ-5", "message": "缺幺九"},),
        settlement={"payments": [{"from": 0, "to": 1, "amount": 4, "item": "win",
                                  "detail": "自摸"}], "net": [-4, 4, 0, 0]},
    )
    with app.test_request_context("/?hand=x"):
        html = render_template("_result.html", form=AnalyzeForm(None), result=result,
                               general_error=None, shown=None, variant_label="三门峡",
                               example_hand="")
    for text in ("混单吊", "牌理", "1种0张", "空听", "表</dt><dd>2", "清一色", "×2", "PJ-5", "缺幺九",
                 "结算", "东家", "南家", "+4", "-4", "任意", "副露", "已胡"):
        assert text in html, text
    assert 'aria-label="中"' in html and 'aria-label="九条"' in html


def test_page_draws_at_most_thirty_readings(client):
    # found by review: 339 readings drew 200 of them, 1.2 MB of HTML; the API keeps 200
    url = "/?variant=sanmenxia&hand=2222m1133m4455m66m&indicator=1m&winning_tile=6m"
    html = client.get(url).get_data(as_text=True)
    assert html.count('<li class="reading') <= 30
    assert "共 339 种" in html or "339" in html
    assert len(html) < 400_000
