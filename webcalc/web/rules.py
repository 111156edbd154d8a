"""The rules pages: ``GET /rules`` lists every decision id of docs/RULES.md,
``GET /rules/<id>`` explains one (content: the common rules in :mod:`.rules_content`, each
registered rule set's own as its ``Variant.rules``), with the room options
that change it (from the engine's option specs) and worked examples that open the analysis
page. Also the template helpers that turn a printed rule id into a link (``rule_url``) and
name the 番 of a wait's value (``fan_label``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Flask, render_template, url_for
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ..catalogue import TEXTS
from ..messages import Message
from ..options import option_specs
from ..variants import FAN_MULTIPLIERS, VARIANTS
from .i18n import current_lang, lang_param, localized
from .rules_content import Example, Rule, by_id, rule_note, rules, sections

bp = Blueprint("rules", __name__)

#: the English of a 番 tag on a wait's value where the page words it otherwise than the
#: engine's name of that 番 (``fan.<key>`` in :mod:`webcalc.catalogue_texts`, the one
#: definition of the 番 labels; the Chinese is always the catalogue's): kept so the English
#: page reads as before
FAN_TAGS_EN = {
    "discard": "discard", "qionghu": "Qionghu (no wildcard)", "jihu": "Jihu (1 Bamboo)",
    "qunji": "Qunji (four 1 Bamboo)", "piaohu": "Piaohu (all triplets)",
    "kong_bloom": "kong replacement", "kong_discard": "Gangliulei",
    "jiahu": "Jiahu (closed wait)",
}


def fan_label(key: str) -> str:
    """The tag of the 番 ``key`` of ``fan`` / ``waits[].win.fan`` (a rule set's 番 or
    doubles) in this response's language: the catalogue's ``fan.<key>``; an unknown key as
    is."""
    if current_lang() == "en" and key in FAN_TAGS_EN:
        return FAN_TAGS_EN[key]
    return localized(Message(f"fan.{key}")) if f"fan.{key}" in TEXTS else key




def seed_variant(seed: str) -> str:
    """The registered rule set whose rule text is the seed file ``seed``."""
    return next(v.name for v in VARIANTS.values() if v.seed == seed)


#: the Chinese terms the English rule texts gloss, as the English page names them (the
#: English page shows no Chinese outside the tiles and the quoted seed text), longest first
GLOSSES = sorted({
    "七对加倍": "seven-pairs double", "十三不靠": "shisanbukao (knitted)",
    "十三幺": "thirteen orphans", "混单吊": "hundandiao", "七小对": "seven pairs",
    "游戏混": "both-sides wildcards", "四混": "four wildcards", "七对": "seven pairs",
    "飘胡": "piaohu", "夹胡": "jiahu", "加钢": "jiagang", "上架": "shangjia", "前包": "qianbao",
    "跑": "pao", "表": "biao", "乱将": "luanjiang (any pair)", "空听": "kongting (dead wait)",
    "后包": "houbao", "牌理": "hand efficiency", "杠上开花": "kong bloom", "带混": "wildcards",
    "随": " with ", "翻倍": " doubling", "绕杠": "added kong", "杠带": "kong ",
    "庄家加底": "dealer adds a base", "杠上花": "kong bloom", "荒庄结算杠分": "kongs paid in a drawn game",
    "混牌": "wildcard", "混杠": "wildcard kong", "选断门": "dealer may drop a suit",
    "断门": "dropped suit", "清一色": "one suit", "手把一": "shoubayi (one tile left)",
    "点炮包三家": "the discarder pays for all three", "点炮": "discard", "点胡": "discard win",
    "番": "fan", "穷胡": "qionghu", "鸡胡": "jihu", "群鸡": "qunji", "杠流泪": "gangliulei",
    "死钢": "everyone jiagang", "不连庄": "dealer always passes", "吃": "chow", "刻": "pung",
    "夹": "closed", "拾": "shi", "搶": "qiang", "杠": "kong",
}.items(), key=lambda kv: -len(kv[0]))


def melds_shown(text: str) -> str:
    """An example's melds text as the page's language writes it: ``吃123m`` in Chinese,
    ``chow:123m`` in English (the melds field reads both)."""
    if current_lang() != "en":
        return text
    from ..notation import melds_from_text

    try:
        melds = melds_from_text(text)
    except Exception:  # noqa: BLE001 - shown as written
        return text
    return " ".join(f"{m['type']}:{m['tiles']}" + (f"@{m['from']}" if "from" in m else "")
                    for m in melds)


def english(text):
    """An English rule text with the Chinese terms it glosses named in English."""
    if not isinstance(text, str):
        return text
    out = str(text)
    for zh, en in GLOSSES:
        out = out.replace(zh, en)
    return type(text)(out) if type(text) is not str else out


def rule_url(rule_id) -> str:
    """``/rules/<id>`` (keeping ``?lang=``) for a known rule id, else the list ``/rules``."""
    rid = str(rule_id or "").strip()
    if rid not in by_id():
        return url_for("rules.index", lang=lang_param())
    return url_for("rules.rule", rule_id=rid, lang=lang_param())


def example_pairs(e: Example) -> list[tuple[str, str]]:
    """The analysis page's query parameters for an example (``webcalc.web.room``'s names)."""
    req = e.request
    pairs = [("variant", req["variant"])] + _tile_pairs(req)
    for name, value in (req.get("options") or {}).items():
        text = ("1" if value else "0") if isinstance(value, bool) else str(value)
        pairs.append((f"opt_{name}", text))
    if {"group", "shape", "readings"} & set(e.expect):
        # a fact about the readings list: list them all, not the page's first 20
        from .room_page import READINGS_MAX
        pairs.append(("readings", str(READINGS_MAX)))
    s = req.get("settlement")
    if s is not None:
        pairs += _settlement_pairs(s)
    return pairs


def _tile_pairs(req: dict) -> list[tuple[str, str]]:
    """The example's tile fields that it sets, and its win method unless 自摸."""
    pairs = [(key, req[key]) for key in ("hand", "melds", "indicator", "visible", "winning_tile")
             if req.get(key)]
    if req.get("win_by") and req["win_by"] != "self_draw":
        pairs.append(("win_by", req["win_by"]))
    return pairs


def _settlement_pairs(s: dict) -> list[tuple[str, str]]:
    """The room's inputs for an example's settlement request."""
    pairs = [("s_base", str(s.get("base", 1))), ("s_dealer", str(s["dealer"])),
             ("s_winner", "none" if s.get("winner") is None else str(s["winner"]))]
    if s.get("discarder") is not None:
        pairs.append(("s_discarder", str(s["discarder"])))
        # the discarder's 上架, which the page asks where it changes the money; the
        # canonical URL drops it where the room does not use it
        ready = s.get("ready") or [True] * 4
        pairs.append(("s_dready", "1" if ready[s["discarder"]] else "0"))
    pairs += [(f"s_pao{i}", str(v)) for i, v in enumerate(s.get("pao") or []) if v]
    pairs += [(f"s_jiagang{i}", "1") for i, v in enumerate(s.get("jiagang") or []) if v]
    pairs += [(f"s_ready{i}", "0") for i, v in enumerate(s.get("ready") or []) if not v]
    if s.get("kongs"):
        pairs.append(("s_kongs", ",".join(
            f"{k['seat']}:{k['type']}" + (f":{k['from']}" if k.get("from") is not None else "")
            for k in s["kongs"])))
    if s.get("biao_discards"):
        pairs.append(("s_biao", str(s["biao_discards"])))
    for key, name in (("follow_dealer", "s_follow"), ("duanmen", "s_duanmen"),
                      ("kong_discard", "s_kong_discard")):
        if s.get(key):
            pairs.append((name, "1"))
    return pairs


def example_url(e: Example, lang: str | None = None) -> str:
    """The analysis page showing the example: its canonical URL, as the page itself would
    redirect to (so a click costs no redirect)."""
    from .forms import AnalyzeForm
    from .room import win_methods
    from .room_page import canonical_url
    from .room_url import read_room

    args = MultiDict(example_pairs(e))
    try:
        form = AnalyzeForm(args)
        form.set_variant(win_methods(e.variant))
        room = read_room(args, e.variant, form.win_by.data)
        return canonical_url(args, form, room, lang)
    except Exception:  # noqa: BLE001 - fall back to the plain query; the page redirects
        pairs = args.items(multi=True)
        if lang:
            pairs = list(pairs) + [("lang", lang)]
        return "/?" + urlencode(list(pairs), safe=":,@")


def rule_options(rule: Rule) -> list[dict]:
    """The room options that change ``rule``: every option whose spec lists it among its
    ``rules`` (the one place the link is written, beside the option: webcalc/options.py);
    each ``{"variant", "variant_label", **spec}``."""
    return [{"variant": name, "variant_label": localized(variant.label), **spec}
            for name, variant in VARIANTS.items()
            for spec in localized(option_specs(variant.Options)) if rule.id in spec["rules"]]


def example_options(e: Example) -> list[str]:
    """The example's room options as the page names them: ``夹胡：开``, ``混牌：游戏混``
    (``Jiahu: on`` in English)."""
    specs = {sp["name"]: sp for sp in localized(option_specs(VARIANTS[e.variant].Options))}
    out = []
    for name, value in (e.request.get("options") or {}).items():
        sp = specs[name]
        if isinstance(value, bool):
            text = str(_l("on") if value else _l("off"))
        else:
            text = dict(sp["choices"]).get(value, str(value))
        out.append(str(_l("%(label)s: %(value)s", label=sp["label"], value=text)))
    return out


def _text(rule_or_example, field: str) -> str:
    if current_lang() == "en":
        return english(getattr(rule_or_example, f"{field}_en"))
    return getattr(rule_or_example, f"{field}_zh")


def rule_body(r: Rule) -> str:
    """A rule's explanation in this response's language, with what the registered rule sets
    add to it (its ``{notes}``: :func:`.rules_content.rule_note`)."""
    lang = current_lang()
    text = english(r.en) if lang == "en" else r.zh
    if "{notes}" in text:
        text = text.replace("{notes}", rule_note(r.id, lang))
    return text


@bp.get("/rules")
def index():
    every = rules()
    listed = [(code, zh, en, [r for r in every if r.section == code])
              for code, zh, en in sections()]
    sample = next((v.sample_rule for v in VARIANTS.values() if v.sample_rule), "")
    return render_template("rules.html", sections=listed, sample_rule=sample,
                           title_of=lambda r: _text(r, "title"))


@bp.get("/rules/<rule_id>")
def rule(rule_id: str):
    book = by_id()
    r = book.get(rule_id) or book.get(rule_id.upper())
    if r is None:
        return render_template("rule_missing.html", rule_id=rule_id), 404
    every = rules()
    i = every.index(r)
    lang = lang_param()
    examples = [{"url": example_url(e, lang), "says": english(e.says_en)
                 if current_lang() == "en" else e.says_zh, "e": e,
                 "options": example_options(e)} for e in r.examples]
    return render_template(
        "rule.html", rule=r, title=_text(r, "title"),
        body=rule_body(r),
        seed_label=(localized(Message(f"variant.{seed_variant(r.seed[0])}"))
                    if r.seed else None),
        options=rule_options(r), examples=examples,
        prev=every[i - 1] if i > 0 else None,
        next=every[i + 1] if i + 1 < len(every) else None,
        title_of=lambda x: _text(x, "title"))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(rule_url=rule_url, fan_label=fan_label, melds_shown=melds_shown,
                                 FAN_MULTIPLIERS=FAN_MULTIPLIERS)
