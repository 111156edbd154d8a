"""The table page's entry computes a hand exactly as the calculator page does from the same
inputs: its room is read by the same function from the same fields (the hand's melds and
indicator included), so the winner's kongs in 副露 are counted, 谁杠 offers the seats the
calculator offers, and an input the calculator would refuse is refused here too.

The repro: 郑州 with the default options (跑 up to 3, 跑 on kongs); 东家 deals, 南家
self-draws 123m456p789s22z + 2z with 暗杠1111z in 副露, 跑 1/2/0/3, and 西家 has a 明杠
that 北家 supplied. RULES ZZ-4: each other seat pays 1 + 跑_winner + 跑_payer = 4, 3, 6
(13); ZZ-5 with ``kong_pao``: 南家's 暗杠 costs each other seat the same 4, 3, 6 (13), and
西家's 明杠 costs 北家 1 + 0 + 3 = 4. Net [-8, +26, -2, -16]; without the winner's kong
(what the ledger used to record) [-4, +13, +1, -10].
Each test runs on SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import re

import pytest

from .entry_form import entry_of, record_fields

REPRO = {"hand": "123m456p789s22z", "melds": "暗杠1111z", "winning_tile": "2z",
         "win_by": "self_draw", "s_dealer": "0", "s_winner": "1",
         "s_pao0": "1", "s_pao1": "2", "s_pao2": "0", "s_pao3": "3",
         # the kong rows as the browser sends them: 西家's 明杠 from 北家, then the blank row
         "k_seat": ["2", ""], "k_type": ["exposed", "concealed"], "k_from": ["3", ""]}
REPRO_NET = [-8, 26, -2, -16]
WITHOUT_THE_KONG = [-4, 13, 1, -10]


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def hidden(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def new_table(client, variant="zhengzhou", **options) -> str:
    r = client.post("/api/v1/tables", json={"variant": variant, "options": options,
                                            "names": ["老王", "小李", "阿梅", "张师傅"]})
    assert r.status_code == 201, r.json
    return r.json["edit_token"]


def entry_html(client, token: str, query: str = "") -> str:
    html = client.get(f"/t/{token}{query}", follow_redirects=True).get_data(as_text=True)
    return entry_of(html)


def post_entry(client, token: str, fields: dict, number: int | None = None):
    form = entry_html(client, token, f"?correct={number}" if number else "")
    base = record_fields(form)
    if number is None:
        return client.post(f"/t/{token}/hands", data={**base, **fields})
    return client.post(f"/t/{token}/hands/{number}", data={**base, **fields})


def nets(client, token: str) -> list[list]:
    t = client.application.extensions["ledger"].table(token)
    return [h["settlement"]["net"] for h in t["hands"] if h["status"] == "recorded"]


def analyze_net(client, body: dict) -> list:
    r = client.post("/api/v1/analyze", json=body)
    assert r.status_code == 200, r.json
    return r.json["settlement"]["net"]


REPRO_API = {"variant": "zhengzhou", "hand": "123m456p789s22z",
             "melds": [{"type": "concealed_kong", "tiles": "1111z"}], "winning_tile": "2z",
             "win_by": "self_draw",
             "settlement": {"base": 1, "dealer": 0, "winner": 1, "pao": [1, 2, 0, 3],
                            "kongs": [{"seat": 2, "type": "exposed", "from": 3},
                                      {"seat": 1, "type": "concealed"}]}}


def test_the_api_and_the_calculator_page_count_the_winners_kong(client):
    """The reference figures: the API with the winner's kong listed, and the calculator page
    reading it from the melds (the room's settlement request is what it sends)."""
    assert analyze_net(client, REPRO_API) == REPRO_NET
    without = {**REPRO_API, "settlement": {**REPRO_API["settlement"],
                                           "kongs": REPRO_API["settlement"]["kongs"][:1]}}
    assert analyze_net(client, without) == WITHOUT_THE_KONG
    html = client.get("/", query_string={
        "variant": "zhengzhou", "hand": REPRO["hand"], "melds": REPRO["melds"],
        "winning_tile": "2z", "s_winner": "1", "s_pao0": "1", "s_pao1": "2",
        "s_pao3": "3", "s_kongs": "2:exposed:3"}).get_data(as_text=True)
    shown = re.findall(r'<tr class="net-row"><th scope="row">.*?</th><td class="amount[^"]*">'
                       r'([^<]*)<', html)
    assert shown == ["-8", "+26", "-2", "-16"]


def test_the_winners_kong_in_the_melds_is_recorded(client):
    token = new_table(client)
    r = post_entry(client, token, REPRO)
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    assert nets(client, token) == [REPRO_NET]
    h = client.application.extensions["ledger"].table(token)["hands"][0]
    assert h["request"]["settlement"]["kongs"] == REPRO_API["settlement"]["kongs"]
    assert h["request"]["melds"] == REPRO_API["melds"]


def test_after_an_error_the_form_shows_the_winners_kong_from_the_melds(client):
    """A hand that is no win (one tile short of the pair) answers 422; the form then lists
    南家's 暗杠 as counted from the melds, and the blank 谁杠 row leaves 南家 out, as the
    calculator page does."""
    token = new_table(client)
    r = post_entry(client, token, {**REPRO, "hand": "123m456p789s23z", "winning_tile": "3z"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert "胡牌者的杠（来自副露，已计入）：" in html
    assert html.count('class="winner-kong"') == 1
    new_row = html[html.index('class="kong-row kong-new"'):]
    new_row = new_row[:new_row.index("</li>")]
    seats = re.findall(r'<option value="(\d)"', new_row[:new_row.index('name="k_type"')])
    assert seats == ["0", "2", "3"]
    assert nets(client, token) == []


def test_a_correction_keeps_the_winners_kong_once(client):
    """Opening the recorded repro for correction shows the winner's kong under the melds and
    only 西家's in the list; saving it unchanged records the same money (not the kong twice,
    not an error)."""
    token = new_table(client)
    assert post_entry(client, token, REPRO).status_code == 303
    form = entry_html(client, token, "?correct=1")
    assert form.count('class="winner-kong"') == 1
    assert len(re.findall(r'<li class="kong-row"', form)) == 1
    fields = {k: v for k, v in REPRO.items()}
    r = post_entry(client, token, fields, number=1)
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    assert nets(client, token) == [REPRO_NET]


def test_the_winners_exposed_kong_asks_who_supplied_it(client):
    """ZZ-5: a 明杠 is paid by the seat that discarded the tile. Typed without ``@``, the
    entry asks (422, nothing recorded), as the calculator does; the answer (``meld_src``)
    goes into the melds, and the kong is paid by that seat."""
    token = new_table(client)
    fields = {**REPRO, "melds": "明杠1111z", "k_seat": [""], "k_type": ["concealed"],
              "k_from": [""]}
    r = post_entry(client, token, fields)
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and 'name="meld_src"' in html
    assert nets(client, token) == []
    r = post_entry(client, token, {**fields, "meld_src": "0:3"})
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    h = client.application.extensions["ledger"].table(token)["hands"][0]
    assert h["request"]["melds"] == [{"type": "kong", "tiles": "1111z", "from": 3}]
    # 北家 pays the 明杠: 1 + 跑2 + 跑3 = 6 on top of its 6 for the win
    assert h["settlement"]["net"] == [-4, 19, -3, -12]


def test_an_input_the_calculator_refuses_is_not_recorded(client):
    """An unreadable kong row is an error on the calculator page (no settlement); the table
    page used to drop the row and record the hand without that kong."""
    token = new_table(client)
    r = post_entry(client, token, {**REPRO, "k_seat": ["2", ""], "k_type": ["bogus", "concealed"]})
    assert r.status_code == 422
    assert nets(client, token) == []


# -- the quick entry (a win without tiles) ----------------------------------------------------

def offered(client, token: str) -> tuple[list[tuple[str, str]], bool]:
    """The quick entry's ``(name, value)`` checkboxes and whether it shows at all."""
    form = entry_html(client, token)
    shown = 'id="quick-entry"' in form
    if not shown:
        return [], False
    part = form[form.index('id="quick-entry"'):form.index("</fieldset>", form.index('id="quick-entry"'))]
    return re.findall(r'<input type="(?:checkbox|number)"[^>]*name="(d_\w+)"(?: value="(\w*)")?',
                      part), True


def test_quick_entry_offers_only_the_doubles_the_room_has_on(client):
    """ZZ-4: 七对 doubles with ``seven_pairs_double``, 四混 with ``four_wildcards_double`` in a
    room with 混 (ZZ-3); 杠上花 is said by 胡法 (杠上开花), not ticked. The default room has
    every double off: nothing to tick, no box."""
    assert offered(client, new_table(client)) == ([], False)
    token = new_table(client, wildcard=False, seven_pairs_double=True,
                      four_wildcards_double=True, kong_bloom_double=True)
    assert offered(client, token) == ([("d_doubles", "seven_pairs")], True)
    token = new_table(client, four_wildcards_double=True)
    assert offered(client, token) == ([("d_doubles", "four_wildcards")], True)


def test_quick_entry_offers_only_the_fan_the_room_has_on(client):
    """PJ-10: each of the hand's 番 by its option; 鸡胡 brings 群鸡; 穷胡 needs 混."""
    token = new_table(client, "panjin", jihu=True, qionghu=True, wildcard_mode="none")
    assert offered(client, token) == ([("d_fan", "jihu"), ("d_fan", "qunji")], True)
    token = new_table(client, "panjin", qionghu=True, piaohu=True)
    assert offered(client, token) == ([("d_fan", "piaohu"), ("d_fan", "qionghu")], True)
    assert offered(client, new_table(client, "panjin")) == ([], False)


def test_quick_entry_asks_biao_only_with_wildcards(client):
    """SMX-5: 表 is a 混单吊 count; 三门峡 without 混 has none (SMX-4); 晋城 declares nothing."""
    assert offered(client, new_table(client, "sanmenxia")) == ([("d_biao", "")], True)
    assert offered(client, new_table(client, "sanmenxia", wildcard=False)) == ([], False)
    assert offered(client, new_table(client, "jincheng")) == ([], False)


def test_a_refused_declared_factor_is_named_as_the_reader_names_it(client):
    """The engine names a declared field by its API key (``声明·doubles``); the page says
    加倍 / 表 (and Doubles in English). A double the room has off is refused, not dropped."""
    token = new_table(client, four_wildcards_double=True)
    quick = {"win_by": "self_draw", "s_dealer": "0", "s_winner": "1",
             "k_seat": [""], "k_type": ["concealed"], "k_from": [""]}
    r = post_entry(client, token, {**quick, "d_doubles": "seven_pairs"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and nets(client, token) == []
    assert "声明·doubles" not in html
    assert "声明·加倍：房间没有勾选“七对加倍”" in html
    r = client.post(f"/t/{token}/hands?lang=en", data={
        **quick, "d_doubles": "seven_pairs", "csrf_token": csrf(entry_html(client, token)),
        "idempotency_key": "en-1"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "Declared · Doubles:" in html and "· doubles" not in html
    r = post_entry(client, token, {**quick, "d_doubles": "four_wildcards"})
    assert r.status_code == 303 and nets(client, token) == [[-2, 6, -2, -2]]   # ×2 (ZZ-4)
    smx = new_table(client, "sanmenxia")
    r = post_entry(client, smx, {**quick, "d_biao": "2", "s_biao": "1"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "声明·表：" in html and "声明·biao" not in html


def test_a_kong_rows_remove_button_records_nothing(client):
    """The remove button of a kong row is a submit button of the entry form: it shows the
    form again without that row (as on the calculator page) and records nothing; it used
    to record the hand, the row still in it."""
    token = new_table(client)
    r = post_entry(client, token, {**REPRO, "remove_kong": "0"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and nets(client, token) == []
    assert 'class="kong-row"' not in html and 'class="kong-row kong-new"' in html
    assert 'value="暗杠1111z"' in html                          # what was typed is kept
