"""Languages: Simplified Chinese by default, English by ?lang=en; every msgid translated."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from .test_web_pages import Elements, get, text_of

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "webcalc" / "translations" / "zh_Hans_CN" / "LC_MESSAGES"
METHODS = [("webcalc/web/**.py", "python"), ("webcalc/catalogue_texts.py", "python"),
           ("templates/**.html", "jinja2")]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "lazy_gettext": None,
            "M_": ((1, "c"), 2)}


def source_msgids() -> set[tuple[str, str | None]]:
    """(msgid, msgctxt) of every marked string: the page's, and the engine messages'
    catalogue (context = message code)."""
    found = set()
    for _file, _line, message, _comments, ctx in extract_from_dir(
            str(ROOT), METHODS, keywords=KEYWORDS):
        found.add((message if isinstance(message, str) else message[0], ctx))
    return found


def test_every_msgid_has_a_chinese_translation():
    with open(CATALOG / "messages.po", "rb") as f:
        po = read_po(f)
    translated = {(m.id, m.context): m.string for m in po if m.id}
    ids = source_msgids()
    assert len(ids) > 400
    missing = sorted(i for i in ids if not translated.get(i))
    assert not missing, f"msgids without a Chinese translation in messages.po: {missing}"
    assert not [m.id for m in po if m.id and m.fuzzy], "fuzzy entries are not used by gettext"


def test_compiled_catalog_matches_the_po():
    with open(CATALOG / "messages.po", "rb") as f:
        po = {(m.id, m.context): m.string for m in read_po(f) if m.id}
    with open(CATALOG / "messages.mo", "rb") as f:
        mo = {(m.id, m.context): m.string for m in read_mo(f) if m.id}
    assert mo == po, "run: .venv/bin/pybabel compile -d webcalc/translations"


def test_chinese_is_the_default(client):
    html = text_of(get(client))
    assert '<html lang="zh-Hans">' in html
    assert "麻将计算器" in html and "点牌输入" in html and "Tap tiles" not in html


def test_lang_en_translates_the_page_and_the_engine_messages(client):
    resp = get(client, variant="panjin", hand="111m222p333s999m11z", winning_tile="1z", lang="en")
    html = text_of(resp)
    assert resp.status_code == 200
    assert '<html lang="en">' in html
    for text in ("Mahjong calculator", "Tap tiles", "Result", "Not a win", "Room options",
                 "Why it is not a win", "Panjin"):
        assert text in html, text
    assert "No chow: without the Piaohu option a chow is required." in html   # PJ-7
    assert "没有顺子" not in html
    assert 'aria-label="5 Characters"' in html      # a palette key named in English
    assert "点牌输入" not in html


def test_lang_stays_in_the_form_and_links(client):
    html = text_of(get(client, variant="zhengzhou", hand="123m456p789s1134z", lang="en"))
    els = Elements(html)
    assert ("input", {"type": "hidden", "name": "lang", "value": "en"}) in els.items
    zh = next(a for t, a in els.items if t == "a" and a.get("hreflang") == "zh-Hans")
    en = next(a for t, a in els.items if t == "a" and a.get("hreflang") == "en")
    assert zh["href"] == "/?variant=zhengzhou&hand=123m456p789s1134z&lang=zh"
    assert en["href"] == "/?variant=zhengzhou&hand=123m456p789s1134z&lang=en"
    assert en["aria-current"] == "true"


@pytest.mark.parametrize("value", ["zh-CN", "zh_CN", "xx", "", "en_US", "../x", "é"])
def test_other_lang_values_are_ignored(client, value):
    resp = get(client, variant="zhengzhou", hand="123m456p789s1134z", lang=value)
    assert resp.status_code == 303
    assert resp.headers["Location"] == "/?variant=zhengzhou&hand=123m456p789s1134z"
    html = text_of(client.get(resp.headers["Location"]))
    assert '<html lang="zh-Hans">' in html


def test_accept_language_english_without_lang(client):
    html = text_of(client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}))
    assert '<html lang="en">' in html
    html = text_of(client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}))
    assert '<html lang="zh-Hans">' in html
    assert "Accept-Language" in client.get("/").headers["Vary"]


def test_every_msgid_holding_chinese_has_chinese_free_english():
    """The English page shows no Chinese outside the tiles: a page msgid that
    glosses a Chinese term gets an English text in translations/en."""
    import re

    cjk = re.compile(r"[\u3400-\u9fff]")
    en_dir = ROOT / "webcalc" / "translations" / "en" / "LC_MESSAGES"
    with open(en_dir / "messages.po", "rb") as f:
        en = {m.id: m.string for m in read_po(f) if m.id}
    with open(en_dir / "messages.mo", "rb") as f:
        assert {m.id: m.string for m in read_mo(f) if m.id} == en
    chinese = sorted(i for i, ctx in source_msgids() if ctx is None and cjk.search(i))
    assert len(chinese) > 30
    missing = [i for i in chinese if not en.get(i) or cjk.search(en[i])]
    assert not missing, f"msgids needing Chinese-free English in translations/en: {missing}"
