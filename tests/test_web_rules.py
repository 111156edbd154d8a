"""The rules pages: every rule id of docs/RULES.md has a page in both languages
with its seed sentence (verbatim from docs/seeds/), its room options and worked examples;
each example's link opens the analysis page, and both the analysis API and the rendered
page show what the rule page says they show. Rule badges on results link to these pages.
"""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest

from webcalc.analysis import analyze
from webcalc.errors import InputError
from webcalc.notation import melds_from_text
from webcalc.options import option_specs, parse_options
from webcalc.variants import VARIANTS
from webcalc.variants.panjin import FAN_NAMES
from webcalc.web.rules import english
from webcalc.web.rules_content import SEED_FILES, Example, by_id, rule_note, rules

ROOT = Path(__file__).resolve().parent.parent
RULE_IDS = re.findall(r"^- \*\*([A-Z]+-\d+) ", (ROOT / "docs/RULES.md").read_text(), re.M)
SEATS_ZH = ("东家", "南家", "西家", "北家")
SHAPES_ZH = {"seven_pairs": "七对", "knitted": "十三不靠", "four_wildcards": "四混",
             "thirteen_orphans": "十三幺"}
ZZ_FAN_ZH = {"seven_pairs": "七对", "kong_bloom": "杠上开花", "four_wildcards": "四混"}
EXAMPLES = [(r.id, i, e) for r in rules() for i, e in enumerate(r.examples)]


def page(client, url):
    resp = client.get(url, follow_redirects=True)
    return resp, resp.get_data(as_text=True)


def result_of(html: str) -> str:
    start = html.index('<section id="result"')
    return html[start:html.index('<div class="col-more">', start)]


def example_links(html: str) -> list[str]:
    return [htmllib.unescape(u)
            for u in re.findall(r'<a class="example-link" href="([^"]+)"', html)]


def api_answer(e) -> dict:
    req = dict(e.request)
    if "melds" in req:
        req["melds"] = melds_from_text(req["melds"])
    try:
        return analyze(req).to_json()
    except InputError as err:
        return {"error": {"code": err.code, "message": err.message}}


# -- the list ------------------------------------------------------------------------------

def test_every_rule_id_of_rules_md_has_content_in_order():
    assert len(RULE_IDS) == 54 and "JC-10" in RULE_IDS
    assert [r.id for r in rules()] == RULE_IDS
    for v in VARIANTS.values():           # every rule an option names exists
        for spec in option_specs(v.Options):
            assert spec["rules"][0] == spec["rule"] and set(spec["rules"]) <= set(RULE_IDS)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rules_index_lists_every_id(client, lang):
    resp, html = page(client, f"/rules?lang={lang}")
    assert resp.status_code == 200
    links = re.findall(r'href="/rules/([A-Z]+-\d+)(?:\?lang=(\w+))?"', html)
    assert [rid for rid, _ in links] == RULE_IDS
    assert all(lg == lang for _, lg in links)
    assert ("Rules explained" if lang == "en" else "规则说明") in html


# -- each rule page --------------------------------------------------------------------------

@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_rule_page_in_both_languages(client, rule_id):
    r = by_id()[rule_id]
    zh_resp, zh = page(client, f"/rules/{rule_id}")
    en_resp, en = page(client, f"/rules/{rule_id}?lang=en")
    assert zh_resp.status_code == en_resp.status_code == 200
    assert 'lang="zh-Hans"' in zh and 'lang="en"' in en
    zh_text, en_text = htmllib.unescape(zh), htmllib.unescape(en)
    # a common rule's {notes}: what each rule set adds to it (盘锦's limit on C-8)
    body_zh = r.zh.replace("{notes}", rule_note(r.id, "zh"))
    body_en = english(r.en).replace("{notes}", rule_note(r.id, "en"))
    assert r.title_zh in zh_text and body_zh in zh_text
    assert english(r.title_en) in en_text and body_en in en_text   # glosses named in English
    if r.seed:
        seed_text = (ROOT / "docs/seeds" / SEED_FILES[r.seed[0]]).read_text()
        assert r.seed[1] in seed_text, "the quote is verbatim from the seed"
        assert r.seed[1] in zh_text and r.seed[1] in en_text
    else:
        assert r.no_seed_zh and r.no_seed_zh in zh
    # every option that lists this rule is named, with its label
    for _name, variant in VARIANTS.items():
        for spec in option_specs(variant.Options):
            if rule_id in spec["rules"]:
                assert f"<code>{spec['name']}</code>" in zh
    if not any(rule_id in s["rules"] for v in VARIANTS.values() for s in option_specs(v.Options)):
        assert "没有房间选项会改变这条规则" in zh
    assert len(example_links(zh)) == len(r.examples) == len(example_links(en)) >= 1
    assert all("lang=en" in u for u in example_links(en))


def test_unknown_rule_is_a_404_page(client):
    resp, html = page(client, "/rules/PJ-99")
    assert resp.status_code == 404
    assert "PJ-99" in html and 'href="/rules"' in html
    resp, _ = page(client, "/rules/%3Cscript%3E")
    assert resp.status_code == 404


# -- each example, through the API and through its link -----------------------------------

@pytest.mark.parametrize("rule_id, index, e", EXAMPLES,
                         ids=[f"{rid}#{i + 1}" for rid, i, _ in EXAMPLES])
def test_example_shows_what_its_page_says(client, rule_id, index, e):
    out = api_answer(e)
    x = e.expect
    assert x, "an example states what it shows"
    if "error" in x:
        assert out.get("error", {}).get("code") == x["error"], out
    else:
        assert "error" not in out, out
    if "complete" in x:
        assert out["complete"] is x["complete"]
    if "waits" in x:
        assert {w["tile"]: w["remaining"] for w in out["waits"]} == x["waits"]
    if "wildcards" in x:
        assert set(out["wildcards"]) == set(x["wildcards"])
    if "fan" in x:
        assert [f["key"] for f in out["fan"]] == x["fan"]
    if "reason" in x:
        assert x["reason"] in [r["rule"] for r in out["reasons"]]
    if "net" in x:
        assert out["settlement"]["net"] == x["net"]
    if "next_dealer" in x:
        assert out["settlement"]["next_dealer"]["seat"] == x["next_dealer"]
    for key in ("biao", "shanten", "any_tile_wait"):
        if key in x:
            assert out[key] == x[key], key
    if "shape" in x:
        assert x["shape"] in [d["shape"] for d in out["decompositions"]]
    if "readings" in x:
        assert out["decompositions_total"] == x["readings"]
    if "group" in x:
        assert x["group"] in {g["kind"] for d in out["decompositions"] for g in d["groups"]}
    if "wait_win" in x:
        wins = {w["tile"]: w.get("win") for w in out["waits"]}
        for tile, value in x["wait_win"].items():
            assert wins[tile] == value, tile
    if "discard_waits" in x:
        advice = {d["discard"]: {w["tile"]: w["remaining"] for w in d["waits"]}
                  for d in out["discards"]}
        for discard, waits in x["discard_waits"].items():
            assert advice[discard] == waits, discard

    # the link on the rule page opens the analysis page showing the same
    _, rule_html = page(client, f"/rules/{rule_id}")
    url = example_links(rule_html)[index]
    assert url.startswith("/?")
    resp, html = page(client, url)
    assert resp.status_code == (422 if "error" in x else 200)
    res = htmllib.unescape(result_of(html))
    if "error" in x:
        assert str(out["error"]["message"]) in htmllib.unescape(html)
        return
    if "complete" in x:
        assert ("已胡" if x["complete"] else "未胡") in res
    if "waits" in x:
        shown = re.findall(r'<li class="wait[^"]*">.*?data-tile="(\w+)".*?余 (\d+) 张', res, re.S)
        assert {t: int(n) for t, n in shown} == x["waits"]
        if not x["waits"]:
            assert "没有听牌" in res or "向听" in res
    if "wildcards" in x:
        wild = res[res.index('class="summary-wild"'):]
        wild = wild[:wild.index("</div>")]
        assert set(re.findall(r'data-tile="(\w+)"', wild)) == set(x["wildcards"])
    if "fan" in x:
        fan = res[res.index('class="block fan"'):]
        for k in x["fan"]:
            assert f"<td>{FAN_NAMES[k]}</td>" in fan
    if "reason" in x:
        assert f'href="/rules/{x["reason"]}"><span class="rule-id">{x["reason"]}</span>' in res
    if "net" in x:
        nets = re.findall(r'<tr class="net-row"><th scope="row">.*?</th><td class="amount[^"]*">'
                          r'([^<]+)</td>', res, re.S)
        assert nets == [f"+{n}" if n > 0 else str(n) for n in x["net"]]
    if "next_dealer" in x:
        assert f"下一局庄家：{SEATS_ZH[x['next_dealer']]}" in res
    if "biao" in x:
        assert f"<dt>表</dt><dd>{x['biao']}</dd>" in res
    if "shanten" in x:
        assert (f"{x['shanten']} 向听" if x["shanten"] > 0 else "听牌") in res
    if "shape" in x:
        assert SHAPES_ZH[x["shape"]] in res
    if "readings" in x:
        assert f"共 {x['readings']} 种" in res
    if "group" in x:
        assert 'class="group group-free"' in res and "任意" in res
    if "any_tile_wait" in x:
        assert ('class="any-wait"' in res) is x["any_tile_wait"]
    if "discard_waits" in x:
        rows = dict(re.findall(r'<li class="eff-row[^"]*" data-discard="(\w+)"(.*?)</details>',
                               res, re.S))
        for discard, waits in x["discard_waits"].items():
            shown = re.findall(r'<li class="useful[^"]*" data-tile="(\w+)" data-remaining="\d+">'
                               r'.*?余 (\d+) 张', rows[discard], re.S)
            assert {t: int(n) for t, n in shown} == waits, discard
            assert f"{len(waits)}种{sum(waits.values())}张" in rows[discard]
    if "wait_win" in x:
        items = dict(re.findall(r'<li class="wait[^"]*">.*?data-tile="(\w+)"(.*?)</li>', res, re.S))
        for tile, value in x["wait_win"].items():
            item = items.get(tile) or items["any"]     # a 混单吊 is one row: 任意牌
            assert f"得 {value['amount']}" in item
            for k in value["fan"]:
                name = FAN_NAMES.get(k) if e.variant == "panjin" else ZZ_FAN_ZH[k]
                assert f">{name} ×" in item
            if value.get("biao"):
                assert f"{value['biao']} 表" in item


def test_english_example_page_is_english(client):
    _, rule_html = page(client, "/rules/PJ-10?lang=en")
    resp, html = page(client, example_links(rule_html)[1])
    assert resp.status_code == 200 and 'lang="en"' in html
    res = result_of(html)
    assert "wins 24" in res and "Jiahu (closed wait) ×2" in res and "wins 12" in res


# -- rule badges link to the pages ---------------------------------------------------------

def test_every_rule_badge_on_a_result_links_to_its_page(client):
    # a 盘锦 win with payments, reasons-free; and a hand refused by PJ-7
    urls = ["/?variant=panjin&hand=123m789p111z456s88s&indicator=3z&winning_tile=5s"
            "&opt_jiahu=1&opt_kong=1&s_dealer=0&s_winner=0&s_kongs=1:concealed",
            "/?variant=panjin&hand=111m999p111s222z33z&winning_tile=3z&opt_wildcard_mode=none"]
    seen = set()
    for url in urls:
        _, html = page(client, url)
        badges = re.findall(r'<a class="rule-link" href="([^"]+)"><span class="rule-(?:id|note)"'
                            r'[^>]*>([^<]+)</span></a>', html)
        assert badges
        for href, rid in badges:
            assert href == f"/rules/{rid}", (href, rid)
            seen.add(rid)
        # no bare badge is left unlinked in the result
        res = result_of(html)
        assert not re.search(r'(?<!">)<span class="rule-id">', res)
    assert {"PJ-12", "PJ-13", "PJ-14", "PJ-7"} <= seen
    for rid in seen:
        assert client.get(f"/rules/{rid}").status_code == 200


def test_badges_keep_the_language(client):
    _, html = page(client, "/?variant=panjin&hand=111m999p111s222z33z&winning_tile=3z"
                           "&opt_wildcard_mode=none&lang=en")
    assert 'href="/rules/PJ-7?lang=en"' in html


def test_wait_values_on_the_page_use_the_settlement_inputs(client):
    # 荒庄 chosen with South dealing: the waits are priced with East winning, South dealing:
    # 5s = 1×2(自摸)×2(夹胡) from each, ×2 from the dealer → 4 + 8 + 4 = 16; 4z → 2 + 4 + 2 = 8.
    _, html = page(client, "/?variant=panjin&hand=123m789p111z46s88s&indicator=3z&opt_jiahu=1"
                           "&s_dealer=1&s_winner=none")
    res = result_of(html)
    assert "由东家胡牌计算" in res
    items = dict(re.findall(r'<li class="wait[^"]*">.*?data-tile="(\w+)"(.*?)</li>', res, re.S))
    assert "得 16" in items["5s"] and "得 8" in items["4z"]
    _, html = page(client, "/?variant=panjin&hand=123m789p111z46s88s&indicator=3z&opt_jiahu=1")
    assert "按底分 1、东家坐庄并胡牌计算" in result_of(html)


# -- which options change a rule ----------------------------------------------------------

def options_named(html: str) -> set[str]:
    part = html[html.index('<section class="block rule-options"'):]
    part = part[:part.index("</section>")]
    return set(re.findall(r"<code>(\w+)</code>", part))


def test_smx5_names_the_wildcard_option(client):
    """/rules/SMX-5 said no room option changes it, but 带混 does: without wildcards there is
    no 混单吊, so 表 is always 0 and the 表 input is refused (SMX-4, SMX-5)."""
    _, html = page(client, "/rules/SMX-5")
    assert "没有房间选项会改变这条规则" not in html
    assert options_named(html) == {"wildcard"} and "带混" in html
    _, en = page(client, "/rules/SMX-5?lang=en")
    assert "No room option changes this rule." not in en and options_named(en) == {"wildcard"}


def _flips(spec: dict) -> list:
    """Values of an option other than its default (ints: the ends and next to the default)."""
    d = spec["default"]
    if spec["type"] == "bool":
        return [not d]
    if spec["type"] == "choice":
        return [value for value, _label in spec["choices"] if value != d]
    lo, hi = spec["minimum"], spec["maximum"]
    return sorted({v for v in (lo, hi, d - 1, d + 1) if lo <= v <= hi and v != d})


RULE_ID = re.compile(r"\b[A-Z]{1,3}-\d+\b")


def _said_under(out: dict, rule_id: str):
    """What an answer says under ``rule_id``: its error when that cites the rule (``None``
    for an error of another rule: the example no longer applies), else the payments whose
    rule it is (payer, payee, amount, the rules its detail cites), the reasons, notes and
    next dealer citing it."""
    if "error" in out:
        e = out["error"]
        cited = set(RULE_ID.findall(str(e["message"]))) | {r["rule"] for r in e.get("reasons", [])}
        return ("error", e["code"], str(e["message"])) if rule_id in cited else None
    s = out.get("settlement") or {}
    said = [("pay", p["from"], p["to"], p["amount"], frozenset(RULE_ID.findall(str(p["detail"]))))
            for p in s.get("payments", []) if p["rule"] == rule_id]
    said += [("reason", str(r["message"])) for r in out.get("reasons", []) if r["rule"] == rule_id]
    said += [("note", str(n["message"])) for n in s.get("notes", []) if n["rule"] == rule_id]
    if (s.get("next_dealer") or {}).get("rule") == rule_id:
        said.append(("dealer", s["next_dealer"]["seat"]))
    return ("ok", sorted(said, key=repr))


def test_every_option_that_changes_an_example_is_named_on_its_rule_page():
    """The links cannot drift from what the engine does: each example of each rule is run
    again with every other value of every option of its variant (an indicator the option
    turns away is dropped, C-7); where what the answer says under that rule changes, the
    option must list the rule (and so be named on its page). A payment line that cites
    several rules is explained by any of them the option lists (死钢 changes PJ-12's shares
    through PJ-11's 加钢 factor)."""
    missing = []
    for r in rules():
        for e in r.examples:
            before = _said_under(api_answer(e), r.id)
            if before is None:
                continue
            for spec in option_specs(VARIANTS[e.variant].Options):
                for value in _flips(spec):
                    req = {**e.request, "options": {**(e.request.get("options") or {}),
                                                    spec["name"]: value}}
                    out = api_answer(Example(req, "", "", {}))
                    if "error" in out and req.get("indicator") and \
                            "C-7" in RULE_ID.findall(str(out["error"]["message"])):
                        req.pop("indicator")
                        out = api_answer(Example(req, "", "", {}))
                    after = _said_under(out, r.id)
                    if after is None or after == before or r.id in spec["rules"]:
                        continue
                    changed = set(before[1]) ^ set(after[1]) if before[0] == after[0] == "ok" \
                        else set()
                    cited = set().union(*(x[4] for x in changed if x[0] == "pay")) \
                        if changed else set()
                    if changed and all(x[0] == "pay" for x in changed) and \
                            cited & set(spec["rules"]):
                        continue
                    missing.append((r.id, e.variant, spec["name"], value))
    assert not missing, missing


# -- a rule set's ids on the settlement form: the variant's (issue 37) -------------------------

def test_each_rule_a_page_cites_for_a_variant_is_its_own():
    # the shared pages show a rule set's id only as its variant gives it (field_rules,
    # history_rule, sample_rule): each a rule of that rule set, each field one it settles
    for v in VARIANTS.values():
        for rid in [*v.field_rules.values(), v.history_rule, v.sample_rule]:
            assert not rid or (rid in RULE_IDS and rid.startswith(v.rule_prefix + "-")), v.name
        assert set(v.field_rules) <= {"biao_discards", "follow_dealer", "duanmen", "kong_discard",
                                      "jiagang", "ready", "discarder_ready"}, v.name


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_settlement_inputs_link_the_rules_their_variant_names(client, variant):
    # every option on and a discard win: each input the variant names a rule for is shown
    # with that rule's link, and the form shows no other rule set's id
    v = VARIANTS[variant]
    on = [sp["name"] for sp in option_specs(v.Options) if sp["type"] == "bool"]
    _, html = page(client, f"/?variant={variant}&" + "&".join(f"opt_{n}=1" for n in on)
                   + "&win_by=discard")
    fields = v.settlement_fields(parse_options(v.Options, dict.fromkeys(on, True)))
    asked = fields | ({"discarder_ready"} if "ready" in fields else set())
    start = html.index('id="settle"')
    settle = html[start:html.index("</fieldset>", start)]
    cited = set(re.findall(r'<span class="rule-note">([A-Z]+-\d+)</span>', settle))
    assert cited == {rid for f, rid in v.field_rules.items() if f in asked}
    assert bool(cited) == bool(v.field_rules)
    for rid in cited - {v.field_rules.get("discarder_ready")}:
        assert f'href="/rules/{rid}"' in settle
