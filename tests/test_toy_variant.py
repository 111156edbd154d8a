"""Issue 37 point 5: a fifth rule set is cheap. The toy of tests/toy_variant.py (郑州 without
跑, rule ids TOY-…) is defined under tests/ only and registered by the fixture ``toy`` for
the tests that ask for it; with no edit to webcalc/ it goes through

* the engine's properties: on random hands (0-4 wildcards, pongs and kongs, every option,
  random settlements) its answer is 郑州's with ``pao_max`` 0, field for field, its errors
  the same codes on the same fields, and its waits the oracle's (tests/reference.py);
* the fuzz: junk bodies to ``POST /api/v1/analyze`` and junk forms to the calculator with
  ``variant=toy`` (never a 500), and the whole app's seeded fuzzer (tests/ledger/fuzzing.py:
  the ledger, circles, the review, the quiz) with the toy as its only rule set;
* the pages: the calculator (its menu, options, settlement section and a won hand's payments,
  in Chinese and English, the htmx fragment), the new-table form, the quiz, the review and a
  rules page that lists the options citing it;
* the ledger, on SQLite and PostgreSQL: a toy table's entries settle as the engine does, its
  totals are the sum of those nets and equal a 郑州 table's fed the same hands at 跑 0.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

from tests.ledger.conftest import db_url, make_app, pytest_generate_tests  # noqa: F401
from tests.reference import ref_waits
from tests.scale import examples, scaled
from tests.test_engine_fuzz import (
    KINDS,
    TILE_CHARS,
    assert_input_error,
    assert_well_formed,
    json_values,
)
from tests.test_engine_properties import groups
from tests.toy_variant import NAME, TEXTS, VARIANT, ToyOptions, parent_options, registered
from webcalc.analysis import analyze, settle_without_tiles
from webcalc.catalogue import localize
from webcalc.errors import CODES, InputError
from webcalc.options import option_specs
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.variants import VARIANTS

LABEL_ZH, LABEL_EN = TEXTS["variant.toy"][1], TEXTS["variant.toy"][0]
OPTION_NAMES = [s["name"] for s in option_specs(ToyOptions)]
WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw"}
SEVEN_PAIRS = {"hand": "1122m3344p5566s77z", "winning_tile": "7z", "win_by": "self_draw"}
FIXTURE_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
              HealthCheck.filter_too_much]


@pytest.fixture()
def toy(monkeypatch):
    """The toy registered for this test only (tests/toy_variant.py :func:`registered`)."""
    with registered(monkeypatch) as variant:
        yield variant


@pytest.fixture()
def toy_client(toy):
    from webcalc import create_app

    return create_app({"TESTING": True}).test_client()


# -- registration ----------------------------------------------------------------------------

def test_the_toy_is_registered_only_for_the_tests_that_ask():
    assert NAME not in VARIANTS
    with pytest.raises(InputError) as err:
        analyze({"variant": NAME, **WIN})
    assert err.value.code == "unknown_variant"


def test_the_registered_toy_is_zhengzhou_without_pao(toy):
    from webcalc.options import parse_options
    from webcalc.variants.zhengzhou import ZhengzhouOptions

    assert VARIANTS[NAME] is toy is VARIANT
    assert localize(toy.label, "zh") == LABEL_ZH and localize(toy.label, "en") == LABEL_EN
    # TOY-1: 郑州's options but its two 跑 options; no 跑 in the settlement
    zz = [s["name"] for s in option_specs(ZhengzhouOptions)]
    assert OPTION_NAMES == [n for n in zz if n not in ("pao_max", "kong_pao")]
    opts = parse_options(toy.Options, {})
    assert toy.pao_max(opts)[0] == 0 and "pao" not in toy.settlement_fields(opts)
    assert toy.settlement_fields(opts) == {"base", "dealer", "winner", "discarder", "kongs"}


# -- the engine: the toy answers as 郑州 at 跑 0 ----------------------------------------------

def _rest(err: InputError) -> tuple:
    return err.code, err.field


def _answer(req: dict):
    """``("ok", the analysis as JSON in English without its variant)`` or ``("error", code,
    field)``."""
    try:
        out = localize(analyze(req).to_json(), "en")
    except InputError as err:
        assert_input_error(err)
        return ("error", *_rest(err))
    out.pop("variant")
    return ("ok", out)


@st.composite
def toy_requests(draw):
    """A request of the toy: four groups and a pair (pongs, at times exposed, as kongs too) or
    14 random tiles, 0-4 tiles swapped for a wildcard, 13 or 14 of them, any options, any win
    method, at times a winning tile and a settlement (a 跑 now and then: refused)."""
    options = {n: draw(st.booleans()) for n in OPTION_NAMES if draw(st.booleans())}
    built = draw(st.integers(0, 2)) > 0
    if built:
        concealed, melds = draw(groups(chow_ok=False))
        melds = [(draw(st.sampled_from(["kong", "added_kong", "concealed_kong"])),
                  ts + ts[:1]) if draw(st.integers(0, 3)) == 0 else (k, ts) for k, ts in melds]
    else:
        concealed, melds = draw(st.lists(st.integers(0, 33), min_size=14, max_size=14)), []
    indicator = draw(st.none() | st.integers(0, 33))
    wild: set[int] = set()
    if indicator is not None and options.get("wildcard", True):
        from webcalc.wildcards import HENAN, wildcards_from_indicator

        wild = {int(t) for t in wildcards_from_indicator(ALL_TILES[indicator], HENAN)}
        w = min(wild)
        for _ in range(draw(st.integers(0, 4))):
            concealed[draw(st.integers(0, len(concealed) - 1))] = w
    every = concealed + [t for _, ts in melds for t in ts]
    assume(all(every.count(k) <= 4 for k in set(every)))
    assume(indicator is None or every.count(indicator) <= 3)
    removed = None
    if draw(st.integers(0, 2)) == 0:
        removed = draw(st.sampled_from(sorted(set(concealed))))
        concealed = list(concealed)
        concealed.remove(removed)
    req: dict = {"variant": NAME, "hand": format_tiles(concealed),
                 "melds": [{"type": k, "tiles": format_tiles(ts)} for k, ts in melds],
                 "options": options}
    if indicator is not None:
        req["indicator"] = ALL_TILES[indicator].code
    if draw(st.booleans()):
        req["win_by"] = draw(st.sampled_from(["self_draw", "kong_replacement", "discard",
                                              "self_draw"]))
    if removed is None and draw(st.booleans()):
        req["winning_tile"] = ALL_TILES[draw(st.sampled_from(concealed))].code
    if draw(st.integers(0, 3)):
        s: dict = {"dealer": draw(st.integers(0, 3)), "base": draw(st.sampled_from([1, 2, 0.5]))}
        if built and removed is None and draw(st.integers(0, 4)):     # a win, settled
            s["winner"] = draw(st.integers(0, 3))
        elif draw(st.integers(0, 3)):
            s["winner"] = draw(st.none() | st.integers(0, 3))
        if s.get("winner") is not None and draw(st.integers(0, 4)):       # C-15: its 胡法
            req.setdefault("win_by", draw(st.sampled_from(["self_draw", "kong_replacement"])))
        if draw(st.booleans()):
            s["kongs"] = [{"seat": draw(st.integers(0, 3)), "type": "concealed"}]
        if draw(st.integers(0, 4)) == 0:
            s["pao"] = [draw(st.integers(0, 1)) for _ in range(4)]
        req["settlement"] = s
    return req, concealed, melds, wild, indicator


@settings(max_examples=examples(300), deadline=None, suppress_health_check=FIXTURE_OK)
@given(case=toy_requests())
def test_toy_answers_as_zhengzhou_at_pao_zero(toy, case):
    """TOY-1: every answer (waits, shanten, 牌理, readings, payments, errors) of the toy is
    郑州's to the same request with ``pao_max`` 0, but where a 跑 is given: then both refuse
    it on ``settlement.pao``."""
    req, concealed, melds, wild, indicator = case
    mine = _answer(req)
    theirs = _answer({**req, "variant": "zhengzhou", "options": parent_options(req["options"])})
    event(f"error {mine[1]} {mine[2]}" if mine[0] == "error" else f"ok, {mine[1]['tile_count']} tiles, "
          f"complete={mine[1]['complete']}, settled={'settlement' in mine[1]}")
    if mine != theirs:                  # only a 跑 given: refused by each by its own rule
        assert any((req.get("settlement") or {}).get("pao") or ()), (mine, theirs)
        assert mine[0] == theirs[0] == "error" and mine[2] == theirs[2] == "settlement.pao"
        return
    if mine[0] == "ok" and mine[1]["tile_count"] == 13:
        # and the waits are the independent oracle's for 郑州 (C-9, ZZ-3)
        expected = ref_waits("zhengzhou", concealed, melds, wild, {}, indicator,
                             req.get("win_by", "self_draw"))
        assert {w["tile"] for w in mine[1]["waits"]} == {ALL_TILES[k].code for k in expected}


def test_a_pao_is_refused_with_the_toys_own_rule(toy):
    with pytest.raises(InputError) as err:
        analyze({"variant": NAME, **WIN, "settlement": {"dealer": 0, "winner": 1,
                                                          "pao": [1, 0, 0, 0]}})
    assert _rest(err.value) == ("bad_settlement", "settlement.pao")
    assert LABEL_ZH in str(err.value.message) and "TOY-1" in str(err.value.message)


# -- fuzz ----------------------------------------------------------------------------------

option_junk = st.dictionaries(st.sampled_from([*OPTION_NAMES, "pao_max", "kong_pao", "x"]),
                              st.booleans() | json_values, max_size=4) | json_values
settlement_junk = st.fixed_dictionaries(
    {}, optional={"dealer": st.integers(-1, 4) | json_values,
                  "winner": st.none() | st.integers(-1, 4) | json_values,
                  "base": st.sampled_from([1, 0, -1, 0.5, 1e-300, 10**30]) | json_values,
                  "pao": st.lists(st.integers(-1, 3), max_size=5) | json_values,
                  "kongs": json_values,
                  "discarder": st.integers(-1, 4) | json_values}) | json_values
random_hand = st.builds(
    lambda picks, n: "".join(KINDS[i] for i in sorted(picks)[:n]),
    st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(
        lambda p: max(p.count(i) for i in p) <= 3),
    st.sampled_from([13, 14]))
toy_junk = st.fixed_dictionaries(
    {"variant": st.just(NAME),
     "hand": random_hand | st.text(alphabet=TILE_CHARS, max_size=30) | json_values},
    optional={"options": option_junk, "settlement": settlement_junk,
              **{key: json_values | st.text(alphabet=TILE_CHARS, max_size=12)
                 for key in ("melds", "indicator", "winning_tile", "visible", "history")},
              "win_by": st.sampled_from(["self_draw", "kong_replacement", "discard", "x"])
              | json_values})


@settings(max_examples=examples(300), deadline=None, suppress_health_check=FIXTURE_OK)
@given(body=toy_junk)
@example(body={"variant": NAME, "hand": None, "settlement": {"dealer": 0}})   # a drawn game
def test_junk_toy_requests_through_the_api_never_500(toy_client, body):
    """200 with a well-formed analysis, or 400 with a known code, a Chinese message and the
    field; never a 500. The body goes as JSON text the way a client sends it (a lone
    surrogate escaped as ``\\ud800``: the test client's own encoder cannot write one raw)."""
    resp = toy_client.post("/api/v1/analyze", data=json.dumps(body),
                           content_type="application/json")
    assert resp.status_code in (200, 400), (resp.status_code, body)
    out = resp.get_json()
    if resp.status_code == 400:
        assert out["error"]["code"] in CODES and re.search(r"[\u4e00-\u9fff]",
                                                           out["error"]["message"])
        return
    assert out["variant"] == NAME
    if body.get("hand") is None:
        # C-10: settlement inputs without a hand settle a drawn game (no tiles, no shanten)
        assert out["tile_count"] == 0 and "shanten" not in out, (body, out)
        assert sum(out["settlement"]["net"]) == 0, (body, out)
        return
    assert_well_formed(body, out)


form_text = st.text(alphabet="0123456789mpsz 东南西北中发白万筒条一二三碰杠暗补,x", max_size=24)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=FIXTURE_OK)
@given(hand=form_text, melds=form_text, indicator=form_text, winning=form_text,
       extra=st.dictionaries(st.sampled_from(
           [f"opt_{n}" for n in OPTION_NAMES] + ["opt_pao_max", "s_pao0", "s_winner",
                                                 "s_dealer", "s_base", "s_kongs", "win_by"]),
           st.sampled_from(["0", "1", "2", "none", "x", "0:concealed", "-1", ""]), max_size=4))
def test_junk_toy_forms_on_the_calculator_never_500(toy_client, hand, melds, indicator,
                                                    winning, extra):
    resp = toy_client.get("/", query_string={
        "variant": NAME, "hand": hand, "melds": melds, "indicator": indicator,
        "winning_tile": winning, **extra}, follow_redirects=True)
    assert resp.status_code in (200, 422), (resp.status_code, hand, melds, extra)
    assert LABEL_ZH in resp.get_data(as_text=True)


# -- the pages -------------------------------------------------------------------------------

def test_the_calculator_offers_the_toy(toy_client):
    html = toy_client.get("/").get_data(as_text=True)
    menu = html[html.index('<select id="variant"'):]
    menu = menu[:menu.index("</select>")]
    assert re.findall(r'<option[^>]* value="(\w+)"', menu) == list(VARIANTS)
    assert list(VARIANTS)[-1] == NAME and LABEL_ZH in menu


def test_a_won_toy_hand_on_the_calculator(toy_client):
    """ZZ-4 at 跑 0 (TOY-1) with 庄家加底: the dealer pays 1 × (1 + 1) = 2, the others 1."""
    query = {"variant": NAME, "hand": WIN["hand"], "winning_tile": "2z",
             "opt_dealer_plus_base": "1", "s_winner": "1"}        # 自摸, dealer 东: defaults
    resp = toy_client.get("/", query_string=query)
    assert resp.status_code == 200, resp.headers.get("Location")        # canonical already
    html = resp.get_data(as_text=True)
    names = set(re.findall(r'name="((?:opt|s)_\w+)"', html))
    assert {n[4:] for n in names if n.startswith("opt_")} == set(OPTION_NAMES)
    assert not any(n.startswith("s_pao") for n in names)           # no 跑 inputs (TOY-1)
    result = html[html.index('<section id="result"'):]
    result = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", result[:result.index("下一局庄家")]))
    assert LABEL_ZH in result and "已胡" in result
    nets = re.search(r"东家 (\S+) 南家 (\S+) 西家 (\S+) 北家 (\S+)$", result.strip())
    assert nets and nets.groups() == ("-2", "+4", "-1", "-1"), result[-300:]
    en = toy_client.get("/", query_string={**query, "lang": "en"}).get_data(as_text=True)
    assert LABEL_EN in en and LABEL_ZH not in en
    frag = toy_client.get("/", query_string=query, headers={
        "HX-Request": "true", "HX-Request-Type": "partial", "HX-Target": "calc"})
    assert frag.status_code == 200 and "<html" not in frag.get_data(as_text=True)
    assert LABEL_ZH in frag.get_data(as_text=True)


def test_a_pao_typed_on_the_toy_page_is_dropped_from_its_url(toy_client):
    resp = toy_client.get("/", query_string={"variant": NAME, **WIN, "s_winner": "1",
                                             "s_pao0": "2", "opt_pao_max": "3"})
    assert resp.status_code == 303
    assert "pao" not in resp.headers["Location"] and "variant=toy" in resp.headers["Location"]


def test_the_other_pages_take_the_toy(toy_client):
    assert LABEL_ZH in toy_client.get("/t/new").get_data(as_text=True)
    quiz = toy_client.get("/api/v1/quiz", query_string={"variant": NAME, "date": "2026-12-06"})
    assert quiz.status_code == 200 and quiz.json["variant"] == NAME
    assert quiz.json["rules"][:2] == ["C-9", "C-12"]
    assert toy_client.get("/quiz", query_string={"variant": NAME}).status_code == 200
    assert toy_client.get("/review", query_string={"variant": NAME}).status_code == 200
    api = toy_client.get("/api/v1/variants", query_string={"lang": "en"}).json["variants"]
    mine = [v for v in api if v["name"] == NAME]
    assert mine and mine[0]["label"] == LABEL_EN
    assert [o["name"] for o in mine[0]["options"]] == OPTION_NAMES
    assert [m["name"] for m in mine[0]["win_methods"]] == ["self_draw", "kong_replacement"]
    # a rules page lists the toy's options that cite it (ZZ-1: 混牌)
    assert LABEL_ZH in toy_client.get("/rules/ZZ-1").get_data(as_text=True)


def test_the_warm_up_asks_for_the_toys_sample_hand(toy):
    """gunicorn's warm-up (webcalc/web/warmup.py) renders the toy's sample hand too: its
    page, fragment, API answer and share picture, in both languages, all below 400."""
    from webcalc import create_app
    from webcalc.web.warmup import PLAIN, hands, warm_pages

    assert hands()[-1]["variant"] == NAME
    out = warm_pages(create_app({"TESTING": True}))
    assert out["requests"] == 2 * (len(PLAIN) + 4 * len(VARIANTS)) == out["answered"]


# -- the ledger ------------------------------------------------------------------------------

def _table(api, variant: str, options: dict) -> str:
    r = api.post("/api/v1/tables", json={"variant": variant, "options": options, "base": 2})
    assert r.status_code == 201, r.json
    assert r.json["table"]["variant"] == variant
    return r.json["edit_token"]


def _engine_net(variant: str, options: dict, dealer: int, body: dict) -> list:
    """What the engine makes of an entry: ``analyze`` with tiles, else
    ``settle_without_tiles`` (the table's base 2, its dealer)."""
    s = {"base": 2, "dealer": dealer, **body["settlement"]}
    req = {"variant": variant, "options": options, **body, "settlement": s}
    if "hand" in body:
        return analyze(req).to_json()["settlement"]["net"]
    return settle_without_tiles(req).to_json()["settlement"]["net"]


ENTRIES = [
    {**WIN, "settlement": {"winner": 1}},
    {**SEVEN_PAIRS, "settlement": {"winner": 2, "kongs": [{"seat": 0, "type": "concealed"}]}},
    {"settlement": {"winner": None, "kongs": [{"seat": 3, "type": "concealed"}]}},
    {"win_by": "self_draw", "settlement": {"winner": 0}, "declared": {"doubles": ["seven_pairs"]}},
    {**WIN, "win_by": "kong_replacement", "settlement": {"winner": 3}},
]


@pytest.mark.both_dbs
def test_a_toy_tables_totals_are_the_engines_nets(toy, make_app):  # noqa: F811
    api = make_app().test_client()
    options = {"seven_pairs_double": True, "kong_bloom_double": True, "dealer_plus_base": True}
    edit = _table(api, NAME, options)
    zz = _table(api, "zhengzhou", parent_options(options))
    totals = [0, 0, 0, 0]
    dealer = 0
    for body in ENTRIES:
        out = api.post(f"/api/v1/tables/{edit}/hands", json=body)
        assert out.status_code == 201, out.json
        net = _engine_net(NAME, options, dealer, body)
        assert out.json["hand"]["settlement"]["net"] == net
        assert api.post(f"/api/v1/tables/{zz}/hands", json=body).json["hand"]["settlement"][
            "net"] == net
        totals = [a + b for a, b in zip(totals, net, strict=True)]
        assert out.json["table"]["totals"] == totals
        dealer = out.json["table"]["dealer"]
    assert sum(totals) == 0 and totals != [0, 0, 0, 0]
    assert api.get(f"/api/v1/tables/{zz}").json["totals"] == totals
    # TOY-1: a 跑 is refused and nothing recorded
    r = api.post(f"/api/v1/tables/{edit}/hands", json={**WIN, "settlement": {
        "winner": 1, "pao": [1, 0, 0, 0]}})
    assert r.status_code == 400 and r.json["error"]["field"] == "settlement.pao"
    assert api.get(f"/api/v1/tables/{edit}").json["next_number"] == len(ENTRIES) + 1
    # its table page, named and counted as the rule set says
    page = api.get(f"/t/{edit}").get_data(as_text=True)
    assert LABEL_ZH in page
    r = api.post("/api/v1/tables", json={"variant": NAME, "options": {"pao_max": 2}})
    assert r.status_code == 400 and r.json["error"]["field"] == "options.pao_max"


@pytest.mark.both_dbs
def test_the_apps_fuzzer_with_the_toy_as_its_only_rule_set(toy, make_app, monkeypatch):  # noqa: F811
    """tests/ledger/fuzzing.py's whole-app fuzzer (tables, entries, corrections, imports,
    circles, the review, the quiz, the forms) choosing the toy wherever it picks a rule set;
    every answer held to its ``check`` (never a 500, documented statuses and codes)."""
    import logging

    from tests.ledger import fuzzing

    app = make_app(WTF_CSRF_ENABLED=False, LEDGER_TABLES_PER_HOUR=0, PROPAGATE_EXCEPTIONS=False)
    monkeypatch.setattr(logging.getLogger(app.name), "disabled", True)
    fuzzer = fuzzing.Fuzzer(app.test_client(), random.Random(37), variants=(NAME,))
    fuzzer.run(scaled(600, floor=200))
    assert not fuzzer.failures, fuzzer.failures[:3]
    assert fuzzer.statuses[500] == 0
    assert fuzzer.statuses[201] > scaled(20, floor=5) and fuzzer.statuses[400] > 0
    assert {live.variant for live in fuzzer.tables} == {NAME}


# -- in the browser ----------------------------------------------------------------------------

@pytest.mark.browser
@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_the_toy_chosen_and_settled_in_the_browser(toy, browser, live_server, js):
    """Chromium, JavaScript on (htmx swaps the toy's options in) and off (the plain GET form):
    choose the toy, type a won hand, pick the winner: the nets of ZZ-4 at 跑 0 (TOY-1), and
    no 跑 inputs anywhere."""
    from tests.browsers import _page

    context, page = _page(browser, live_server, java_script_enabled=js,
                          viewport={"width": 390, "height": 844})
    try:
        page.goto(live_server + "/")
        page.select_option("#variant", NAME)
        if js:
            page.wait_for_function(
                "t => document.querySelector('#options > summary')?.innerText.includes(t)",
                arg=LABEL_ZH)
            assert page.locator("input[name^=s_pao]").count() == 0
        page.fill("#hand", WIN["hand"])
        if page.get_attribute("#more", "open") is None:
            page.click("#more > summary")
        page.fill("#winning_tile", "2z")
        page.click("#settle > summary")
        page.select_option("#s_dealer", "0")
        page.select_option("#s_winner", "1")
        page.click("button.primary")
        page.wait_for_selector("#result .nets")
        assert page.locator("#result .nets td").all_inner_texts() == ["-1", "+3", "-1", "-1"]
        assert page.locator("input[name^=s_pao]").count() == 0
        assert LABEL_ZH in page.inner_text("#options > summary")
        assert page.url.endswith(f"/?variant={NAME}&hand={WIN['hand']}&winning_tile=2z"
                                 "&s_winner=1")
        page.screenshot(path=f"/tmp/toy-{'js' if js else 'no-js'}-390x844.png", full_page=True)
        assert page.foreign_requests == []
    finally:
        context.close()
