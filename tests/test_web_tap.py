"""Input by tapping: palette keys, tiles of the hand and the meld builder are submit buttons of
the GET form. Full page → 303 to the canonical URL; htmx → the fragment and HX-Push-Url."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from .test_web_pages import HX, Elements, get, text_of


def query(location: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(location).query).items()}


def test_palette_has_34_submit_keys_named_in_chinese(client):
    html = text_of(get(client, variant="zhengzhou"))
    els = Elements(html)
    keys = [a for t, a in els.items if t == "button" and a.get("name") == "add"]
    assert len(keys) == 34
    assert all(k["type"] == "submit" for k in keys)
    assert {k["value"] for k in keys} == {f"{r}{s}" for s in "mps" for r in range(1, 10)} | {
        f"{r}z" for r in range(1, 8)}
    labels = {k["value"]: k["aria-label"] for k in keys}
    assert labels["5m"] == "五万" and labels["1p"] == "一筒" and labels["9s"] == "九条"
    assert labels["7z"] == "中" and labels["1z"] == "东"
    # Enter in a text field submits with the first submit button: 分析, never a palette key
    # (the palette comes before the typed text: a hidden 分析 comes first of all)
    first = next(a for t, a in els.items if t == "button" and a.get("type") == "submit")
    assert "default-submit" in first["class"] and "name" not in first


def test_add_appends_and_redirects_to_the_canonical_url(client):
    resp = get(client, variant="zhengzhou", hand="123m", add="5m", target="hand")
    assert resp.status_code == 303
    assert resp.headers["Location"] == "/?variant=zhengzhou&hand=1235m"
    # Chinese notation is rewritten as tiles when a tile is tapped in
    resp = get(client, variant="zhengzhou", hand="一二三万 东", add="1z")
    assert query(resp.headers["Location"])["hand"] == "123m11z"


def test_add_under_htmx_renders_and_pushes_the_canonical_url(client):
    resp = get(client, HX, variant="zhengzhou", hand="123m456p789s112z", add="2z")
    assert resp.status_code == 200
    assert resp.headers["HX-Push-Url"] == "/?variant=zhengzhou&hand=123m456p789s1122z"
    html = text_of(resp)
    assert not html.startswith("<!doctype")
    assert Elements(html).by_id("hand")["value"] == "123m456p789s1122z"


def test_history_restore_gets_the_full_page(client):
    headers = {"HX-Request": "true", "HX-History-Restore-Request": "true",
               "HX-Request-Type": "full"}
    html = text_of(get(client, headers, variant="zhengzhou", hand="123m456p789s1112z"))
    assert html.startswith("<!doctype html>")


def test_tapping_a_tile_of_the_hand_removes_it(client):
    html = text_of(get(client, variant="zhengzhou", hand="123m456p789s1134z", indicator="3z"))
    els = Elements(html)
    hand_keys = [a for t, a in els.items if t == "button" and a.get("name") == "remove"]
    assert [k["value"] for k in hand_keys] == [str(i) for i in range(13)]
    assert hand_keys[0]["aria-label"] == "拿掉一万"
    resp = get(client, variant="zhengzhou", hand="123m456p789s1134z", remove="12")
    assert query(resp.headers["Location"])["hand"] == "123m456p789s113z"
    # an index past the end changes nothing
    resp = get(client, variant="zhengzhou", hand="123m", remove="9")
    assert query(resp.headers["Location"])["hand"] == "123m"


@pytest.mark.parametrize("target, before, after", [
    ("indicator", {"indicator": "1z"}, {"indicator": "5m", "target": "indicator"}),
    ("visible", {"visible": "9p"}, {"visible": "5m9p", "target": "visible"}),
])
def test_targets(client, target, before, after):
    resp = get(client, variant="zhengzhou", hand="123m", target=target, add="5m", **before)
    q = query(resp.headers["Location"])
    assert {k: q[k] for k in after} == after and q["hand"] == "123m"


def test_winning_tile_joins_a_13_tile_hand_and_swaps_in_a_14_tile_one(client):
    resp = get(client, variant="zhengzhou", hand="123m456p789s1112z", target="winning_tile",
               add="2z")
    q = query(resp.headers["Location"])
    assert (q["hand"], q["winning_tile"]) == ("123m456p789s11122z", "2z")
    resp = get(client, variant="zhengzhou", hand="123m456p789s11122z", winning_tile="2z",
               target="winning_tile", add="3z")
    q = query(resp.headers["Location"])
    assert (q["hand"], q["winning_tile"]) == ("123m456p789s11123z", "3z")


def test_meld_builder(client):
    base = dict(variant="zhengzhou", hand="123m", target="melds")
    q = query(get(client, **base, meld_type="pong", meld_from="2", add="5m").headers["Location"])
    assert q["melds"] == "碰555m@2" and q["meld_from"] == "2"
    q = query(get(client, **base, melds="碰555m@2", meld_type="chow", add="3p")
              .headers["Location"])
    assert q["melds"] == "碰555m@2 吃345p" and q["meld_type"] == "chow"
    q = query(get(client, **base, meld_type="concealed_kong", meld_from="1", add="1z")
              .headers["Location"])
    assert q["melds"] == "暗杠1111z"                  # nobody supplies a concealed kong
    # a chow cannot start at 8: the message, nothing changed, no redirect
    resp = get(client, **base, meld_type="chow", add="8s")
    assert resp.status_code == 422
    assert "最小的那张" in text_of(resp)
    # tapping a meld takes it out
    q = query(get(client, variant="zhengzhou", hand="1m", melds="碰555m 吃345p", remove_meld="0")
              .headers["Location"])
    assert q["melds"] == "吃345p"


def test_clear(client):
    q = query(get(client, variant="zhengzhou", hand="123m", visible="5p", clear="visible")
              .headers["Location"])
    assert q == {"variant": "zhengzhou", "hand": "123m"}


def test_a_partial_hand_shows_progress_not_an_error(client):
    resp = get(client, variant="zhengzhou", hand="1234m")
    html = text_of(resp)
    assert resp.status_code == 200
    assert 'id="progress"' in html and "再加 9 张看听牌" in html
    assert "aria-invalid" not in Elements(html).by_id("hand")
    # 16 tiles is still an error under the field
    resp = get(client, variant="zhengzhou", hand="123m456p789s111222z")
    assert resp.status_code == 422 and 'id="hand-error"' in text_of(resp)


def test_bad_key_is_a_message_not_a_500(client):
    resp = get(client, variant="zhengzhou", hand="123m", add="0x")
    assert resp.status_code == 422 and "不是牌" in text_of(resp)


def test_honor_keys_off_when_the_room_has_no_honors(client):
    html = text_of(get(client, variant="sanmenxia", hand="123m", opt_with_honors="0"))
    keys = {a["value"]: a for t, a in Elements(html).items
            if t == "button" and a.get("name") == "add"}
    assert "disabled" in keys["1z"] and "disabled" not in keys["1m"]


def test_target_and_meld_choices_stay_in_the_url(client):
    resp = get(client, variant="zhengzhou", hand="123m", target="melds", meld_type="kong",
               meld_from="3")
    assert resp.status_code == 200
    html = text_of(resp)
    assert re.search(r'<input type="radio" name="target" value="melds" checked>', html)
    assert re.search(r'<option value="kong" selected>', html)


def test_meld_builder_takes_one_tile_for_shi_and_qiang_JC10(client):
    """JC-10: in 晋城 the builder offers 拾 and 搶 (and no chow, JC-2); one tap adds the one
    tile taken; the hand row counts it as one tile and shows it apart, as a meld chip."""
    base = dict(variant="jincheng", hand="9m19p19s1234567z", target="melds")
    html = text_of(get(client, **base))
    builder = html[html.index('id="meld_type"'):]
    builder = builder[:builder.index("</select>")]
    assert re.findall(r'<option value="(\w+)"', builder) == [
        "pong", "kong", "added_kong", "concealed_kong", "shi", "qiang"]
    q = query(get(client, **base, meld_type="shi", meld_from="3", add="1m").headers["Location"])
    assert q["melds"] == "拾1m@3"
    q = query(get(client, **base, melds="拾1m@3", meld_type="qiang", add="9p")
              .headers["Location"])
    assert q["melds"] == "拾1m@3 搶9p"
    html = text_of(get(client, variant="jincheng", hand="9m19p19s1234567z", melds="拾1m@3"))
    assert "13 张" in html
    chips = html[html.index('class="meld-chips"'):html.index('id="quick"')]
    assert re.search(r'data-tile="1m".*<small>拾（上家打的幺牌） · 北家</small>', chips, re.S)
    hand_row = html[html.index('class="hand-tiles"'):html.index('class="meld-chips"')]
    assert 'data-tile="1m"' not in hand_row          # the taken 1万 is not a concealed tile
    # 三门峡 offers neither 拾/搶 nor chow
    html = text_of(get(client, variant="sanmenxia", hand="123m", target="melds"))
    builder = html[html.index('id="meld_type"'):]
    builder = builder[:builder.index("</select>")]
    assert "shi" not in builder and "chow" not in builder


def test_taken_tile_shown_apart_in_the_reading_JC10(client):
    """JC-10: a 十三幺 won with a 拾 tile lists it as a taken tile, apart from the concealed."""
    html = text_of(get(client, variant="jincheng", hand="9m19p19s12345677z", melds="拾1m",
                       winning_tile="7z"))
    taken = re.findall(r'<li class="group group-single group-exposed">(.*?)</li>', html, re.S)
    assert len(taken) == 1 and 'data-tile="1m"' in taken[0]
    assert '<span class="exposed-tag">拾</span>' in taken[0]   # its own name, not 拾/搶
