"""Issue 36.5: one word per thing on every page (GLOSSARY.md, "UI words").

The words a page says come from four places: the Chinese catalogue
(webcalc/translations/zh_Hans_CN/…/messages.po: page strings and the engine's shared
messages), the templates, the scripts' strings (static/js) and the rules pages' own
explanations with each rule set's own words (webcalc/web/rules_content.py and
webcalc/variants/*_texts.py: option help, the ZZ-6 note …; their quotations of the rule
texts excepted: GLOSSARY.md allows a quotation its own words). Each is scanned for the words
the glossary refuses; a failure names the file, the place and the word to use instead.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
ZH_PO = ROOT / "webcalc/translations/zh_Hans_CN/LC_MESSAGES/messages.po"

#: refused word → the word to say (GLOSSARY.md "UI words"; 规则说明 stands for the rules
#: pages, which the option help and the ZZ-6 note link to instead of naming files or seeds)
BANNED = {
    "翻混牌": "混皮",
    "翻出的牌": "混皮",
    "成和": "胡 / 已胡",
    "和了": "胡 / 已胡",
    "自定义记分": "自由记分",
    "积分模式": "自由记分",
    "赢家": "胡牌者",
    "RULES.md": "规则说明 (a link to the rule)",
    "种子": "规则原文 / 规则说明",
    "原文算错": "a player's words (ZZ-6: 按公式付钱 …)",
}
#: words that hold a refused one but are another word: 凑不成和牌 would hold 成和
#: (none is used today; kept so that a future one is listed, not silently allowed)
#: a 自由记分 table scores any game (扑克, another local rule): its winner shortcut says 赢家,
#: not 胡牌者, which names a mahjong win (templates/_free_entry.html)
ALLOWED_AROUND: dict[str, tuple[str, ...]] = {"成和": ("凑不成和牌",),
                                              "赢家": ("赢家自己", "付给赢家", "赢家（得")}


def _found(text: str) -> list[str]:
    out = []
    for word in BANNED:
        for m in re.finditer(re.escape(word), text):
            around = text[max(0, m.start() - 3):m.end() + 3]
            if not any(a in around for a in ALLOWED_AROUND.get(word, ())):
                out.append(word)
                break
    return out


def _catalogue() -> list[tuple[str, str]]:
    """(place, Chinese text) of every translated entry, obsolete ones (#~) left out."""
    with ZH_PO.open("rb") as f:
        cat = read_po(f)
    out = []
    for m in cat:
        if not m.id or not m.string:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        place = f"{m.context + ' ' if m.context else ''}{m.id if isinstance(m.id, str) else m.id[0]}"
        out += [(place[:80], s) for s in strings]
    return out


def _template_texts() -> list[tuple[str, str]]:
    """(file:line, text) of every template line, Jinja and HTML comments removed (a comment
    is read by the next developer, not by a player)."""
    out = []
    for path in sorted((ROOT / "templates").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\{#.*?#\}", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        out += [(f"{path.relative_to(ROOT)}:{i}", line)
                for i, line in enumerate(text.split("\n"), 1)]
    return out


_JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')


def _js_strings() -> list[tuple[str, str]]:
    """(file:line, literal) of every string literal of the page scripts (comments are
    left out: they come before any string on their line or hold none)."""
    out = []
    for path in sorted((ROOT / "static").rglob("*.js")):
        if "vendor" in path.parts:
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            code = line.split("//")[0] if line.lstrip().startswith("//") is False else ""
            out += [(f"{path.relative_to(ROOT)}:{i}", m.group(0))
                    for m in _JS_STRING.finditer(code)]
    return out


def _rules_texts() -> list[tuple[str, str]]:
    """(file:line, string) of the rules pages' data and of each rule set's own words (the
    common rules in webcalc/web/rules_content.py, a rule set's rules pages and messages in
    webcalc/variants/<name>_texts.py), without the ``seed=`` quotations and the modules'
    docstrings."""
    paths = [ROOT / "webcalc/web/rules_content.py",
             *sorted((ROOT / "webcalc/variants").glob("*_texts.py"))]
    assert len(paths) >= 5, paths
    out = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        quoted: set[int] = set()
        docs: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "seed":
                quoted |= {id(n) for n in ast.walk(node.value)}
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    docs.add(id(first.value))
        out += [(f"{path.relative_to(ROOT)}:{n.lineno}", n.value) for n in ast.walk(tree)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
                and id(n) not in quoted and id(n) not in docs]
    return out


SOURCES = {"catalogue": _catalogue, "templates": _template_texts, "scripts": _js_strings,
           "rules pages": _rules_texts}


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_no_refused_word_in_what_a_player_reads(source):
    texts = SOURCES[source]()
    assert len(texts) > 20, f"{source}: nothing read (the scan is broken)"
    bad = [f"{place}: {word!r} (say {BANNED[word]})" for place, text in texts
           for word in _found(text)]
    assert not bad, f"{source}:\n" + "\n".join(bad)


def test_the_scan_finds_a_refused_word_where_it_is():
    """The scan itself: a refused word in each kind of source is found and named."""
    assert _found("指示牌（翻混牌）") == ["翻混牌"]
    assert _found("已胡（成和）") == ["成和"]
    assert _found("按公式：种子原文算错的例子") == ["种子", "原文算错"]
    assert _found("凑不成和牌") == []
    assert _found("默认值按本站规则（RULES.md）") == ["RULES.md"]
    assert ("static/js/x.js:1", '"翻混牌"') in [
        (p, s) for p, s in [("static/js/x.js:1", m.group(0))
                            for m in _JS_STRING.finditer('var a = "翻混牌"; // 种子')]]
    # a seed quotation on a rules page is allowed; its explanation is not
    assert not [t for _p, t in _rules_texts() if "翻开的是1万" in t]   # a seed= quotation


def test_the_zz6_note_says_it_in_a_players_words():
    """The note (a 郑州 win with 跑 where the rule text's example would pay otherwise) names
    no seed, no file, no 原文算错, and says what each seat pays."""
    from webcalc.catalogue import render
    from webcalc.messages import Joined, Message

    note = render(Message("zz.seed_differs", examples=Joined(
        [Message("zz.seed_example_pao"), Message("zz.seed_example_kong")], "；", "; ")), "zh")
    assert not _found(note), note
    assert "没下跑的每家给 1+2 = 3 底" in note and "B 给 12 底" in note
    assert len(note) < 140


def test_quiz_tiles_are_read_by_their_names(client):
    """"打 5m" read aloud was the code: every tile link of /quiz says 打 and the tile's
    name (打五万, 打中)."""
    html = client.get("/quiz?variant=panjin&date=2026-12-01").get_data(as_text=True)
    labels = re.findall(r'<a class="quiz-tile[^"]*" href="[^"]*" aria-label="([^"]*)"', html)
    assert len(labels) == 14
    assert all(re.fullmatch(r"打[一二三四五六七八九][万筒条]|打[东南西北中发白]", x)
               for x in labels), labels
    assert "混皮" in html and "翻混牌" not in html
