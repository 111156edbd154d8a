"""The page's room options (RULES.md defaults, generated from the engine's option specs),
the win inputs and the variant switch: the URL round-trips, the analysis changes."""

from __future__ import annotations

import re

import pytest

from webcalc.options import option_specs
from webcalc.variants import VARIANTS
from webcalc.variants.base import WIN_METHOD_LABELS

from .test_web_pages import HX, Elements, get, result_of, text_of

PANJIN_ALL_PONGS = "111m222p333s999m11z"   # 4 triplets + 东东: no sequence


def option_block(html: str) -> str:
    start = html.index('<details class="room-options" id="options"')
    return html[start:html.index("</details>", start)]


def win_by_select(html: str) -> str:
    start = re.search(r'<select[^>]* id="win_by"', html).start()
    return html[start:html.index("</select>", start)]


def fan_in(html: str) -> dict[str, str]:
    block = html[html.index('class="block fan"'):]
    block = block[:block.index("</section>")]
    return dict(re.findall(r"<tr><td>([^<]+)</td><td>×(\d+)</td></tr>", block))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_option_block_lists_every_option_with_default_help_and_rule(client, variant):
    html = text_of(get(client, variant=variant))
    block = option_block(html)
    els = Elements(block)
    specs = option_specs(VARIANTS[variant].Options)
    assert len(re.findall(r'<div class="option option-', block)) == len(specs)
    for s in specs:
        field = els.by_id("opt_" + s["name"])
        assert field["name"] == "opt_" + s["name"]
        assert str(s["label"]) in block and str(s["help"]) in block
        assert f'<span class="rule-note" title="规则编号">{s["rule"]}</span>' in block
        if s["type"] == "bool":
            assert field["type"] == "checkbox" and field["value"] == "1"
            assert ("checked" in field) is s["default"]
            assert ("默认：开" if s["default"] else "默认：关") in block
        elif s["type"] == "int":
            assert field["value"] == str(s["default"])
            assert (field["min"], field["max"]) == (str(s["minimum"]), str(s["maximum"]))
        else:
            chosen = re.search(r'<option value="(\w+)" selected>', block[block.index(
                'id="opt_' + s["name"]):])
            assert chosen.group(1) == s["default"]
    # the marker that tells a form submission from a hand-written link
    assert els.by_id("options") and f'name="form_variant" value="{variant}"' in block


def test_panjin_all_pongs_needs_piaohu(client):
    """PJ-7: no sequence → not a win unless 飘胡 is on; then 飘胡 ×2 (PJ-10)."""
    resp = get(client, variant="panjin", hand=PANJIN_ALL_PONGS, winning_tile="1z")
    html = text_of(resp)
    assert resp.status_code == 200
    assert "未胡" in html and "为什么不算胡" in html
    assert re.search(r'<span class="rule-id">PJ-7</span></a> 没有顺子', html)
    assert "全部默认" in option_block(html)

    resp = get(client, variant="panjin", hand=PANJIN_ALL_PONGS, winning_tile="1z", opt_piaohu="1")
    html = text_of(resp)
    assert resp.status_code == 200
    assert "已胡" in html and "PJ-7" not in result_of(html)
    assert fan_in(html) == {"飘胡": "2"}
    block = option_block(html)
    assert "checked" in Elements(block).by_id("opt_piaohu")
    assert "已改：飘胡 开" in block and " open>" in block[:200]


def test_options_round_trip_in_the_canonical_url(client):
    # a form submission sends every option; only the non-default ones stay in the URL
    query = {"variant": "panjin", "hand": PANJIN_ALL_PONGS, "winning_tile": "1z",
             "win_by": "self_draw", "form_variant": "panjin", "opt_wildcard_mode": "next",
             "opt_kong": "1", "opt_piaohu": "1", "opt_melds": ""}
    resp = client.get("/", query_string=query)
    assert resp.status_code == 303
    url = "/?variant=panjin&hand=111m222p333s999m11z&winning_tile=1z&opt_piaohu=1"
    assert resp.headers["Location"] == url
    # a default-on option switched off in the form (checkbox absent) → opt_kong=0
    query.pop("opt_kong")
    assert client.get("/", query_string=query).headers["Location"] == url.replace(
        "&opt_piaohu=1", "&opt_kong=0&opt_piaohu=1")
    # the canonical URL itself renders directly with the option on
    resp = client.get(url)
    assert resp.status_code == 200 and "已胡" in text_of(resp)


def test_default_on_option_off_in_link(client):
    """三门峡 带混 off (opt_wildcard=0): the indicator is refused (C-7, bad_option)."""
    resp = get(client, variant="sanmenxia", hand="123m456p789s1134z", indicator="3z",
               opt_wildcard="0")
    assert resp.status_code == 422
    els = Elements(text_of(resp))
    assert "checked" not in els.by_id("opt_wildcard")
    assert els.by_id("indicator")["aria-invalid"] == "true"


def test_choice_option_changes_the_wildcards(client):
    """PJ-1: indicator 9万 → 1万 (混牌); with 游戏混 → 8万 and 1万."""
    hand = "123m456p789s1134z"
    html = text_of(get(client, variant="panjin", hand=hand, indicator="9m"))
    wild = html[html.index('class="summary-wild"'):]
    assert re.findall(r'data-tile="(\w+)"', wild[:wild.index("</div>")]) == ["1m"]
    html = text_of(get(client, variant="panjin", hand=hand, indicator="9m",
                       opt_wildcard_mode="both"))
    wild = html[html.index('class="summary-wild"'):]
    assert sorted(re.findall(r'data-tile="(\w+)"', wild[:wild.index("</div>")])) == ["1m", "8m"]
    assert re.search(r'<option value="both" selected>游戏混</option>', html)


def test_bad_int_option_is_a_field_error_input_kept(client):
    resp = get(client, variant="zhengzhou", hand="123m456p789s1112z", opt_pao_max="abc")
    assert resp.status_code == 422
    html = text_of(resp)
    field = Elements(html).by_id("opt_pao_max")
    assert field["value"] == "abc" and field["aria-invalid"] == "true"
    assert "opt_pao_max-error" in field["aria-describedby"].split()
    # out of range: the engine's bad_option message, under the same input
    resp = get(client, variant="zhengzhou", hand="123m456p789s1112z", opt_pao_max="11")
    assert resp.status_code == 422
    html = text_of(resp)
    err = html[html.index('id="opt_pao_max-error"'):][:200]
    assert "0 到 10" in err


def test_variant_switch_by_htmx_returns_the_new_option_block(client):
    # the form still carries 三门峡's inputs (form_variant=sanmenxia): they are dropped
    resp = client.get("/", query_string={
        "variant": "panjin", "form_variant": "sanmenxia", "opt_with_honors": "1",
        "opt_wildcard": "1", "opt_pao": "1", "opt_pao_max": "1", "s_pao0": "1",
        "hand": "", "win_by": "self_draw"}, headers=HX)
    assert resp.status_code == 200
    html = text_of(resp)
    # no hand: the page's title is the site's again (htmx sets document.title from it)
    assert html.lstrip().startswith('<title>麻将计算器 · webcalc</title><div id="calc">')
    assert "<html" not in html
    block = option_block(html)
    els = Elements(block)
    assert 'name="form_variant" value="panjin"' in block
    for s in option_specs(VARIANTS["panjin"].Options):
        els.by_id("opt_" + s["name"])
    assert "opt_with_honors" not in block and "opt_pao_max" not in block
    assert "盘锦 · 全部默认" in block
    assert resp.headers["HX-Push-Url"] == "/?variant=panjin"
    # 盘锦 allows 点炮: the win methods follow the variant
    winby = win_by_select(html)
    assert re.findall(r'value="(\w+)"', winby) == ["self_draw", "discard", "kong_replacement"]


def test_variant_switch_resets_shared_option_names(client):
    """郑州's 跑 limit is 3 (ZZ-4) even when 三门峡's form said 1 (SMX-6)."""
    resp = client.get("/", query_string={
        "variant": "zhengzhou", "form_variant": "sanmenxia", "opt_pao_max": "1",
        "opt_wildcard": "1", "win_by": "self_draw"}, headers=HX)
    assert Elements(text_of(resp)).by_id("opt_pao_max")["value"] == "3"
    assert resp.headers["HX-Push-Url"] == "/?variant=zhengzhou"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_win_by_offers_only_the_variants_methods(client, variant):
    html = text_of(get(client, variant=variant))
    winby = win_by_select(html)
    methods = [m for m in WIN_METHOD_LABELS if m in VARIANTS[variant].win_methods]
    assert re.findall(r'value="(\w+)"', winby) == methods
    for m in methods:
        assert str(WIN_METHOD_LABELS[m]) in winby          # the Chinese label (自摸 …)


def test_win_by_the_variant_forbids_is_the_engines_error(client):
    """ZZ-2: 郑州 wins by self-draw or 杠开 only (C-14 bad_win_by names the rule)."""
    resp = get(client, variant="zhengzhou", hand="123m456p789s11122z", winning_tile="2z",
               win_by="discard")
    assert resp.status_code == 422
    html = text_of(resp)
    assert Elements(html).by_id("win_by")["aria-invalid"] == "true"
    err = html[html.index('id="win_by-error"'):][:300]
    assert "ZZ-2" in err
    assert re.search(r'<option selected value="discard">点炮（此玩法不允许）</option>', html)


def test_variant_switch_drops_a_win_method_the_new_variant_lacks(client):
    resp = client.get("/", query_string={
        "variant": "zhengzhou", "form_variant": "panjin", "win_by": "discard",
        "hand": "123m456p789s11122z"}, headers=HX)
    assert resp.status_code == 200
    assert resp.headers["HX-Push-Url"] == "/?variant=zhengzhou&hand=123m456p789s11122z"


def test_winning_tile_and_biao(client):
    """SMX-4/5: 123 123 123 123 + 中(混) waits on anything; drawing 9万 is 混单吊, 1 表."""
    resp = get(client, variant="sanmenxia", hand="1111222233339m7z", indicator="4z",
               winning_tile="9m")
    html = text_of(resp)
    assert resp.status_code == 200
    assert "<dt>表</dt><dd>1</dd>" in html
    assert re.search(r'<dt>和牌</dt><dd><span class="tile [^>]*data-tile="9m"', html)
    assert "自摸" in html[html.index("<dt>和牌</dt>"):][:900]


def test_winning_tile_not_in_hand_is_a_field_error(client):
    resp = get(client, variant="zhengzhou", hand="123m456p789s11122z", winning_tile="5p5p")
    assert resp.status_code == 422
    assert Elements(text_of(resp)).by_id("winning_tile")["aria-invalid"] == "true"
