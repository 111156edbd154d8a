"""The rule explanations behind ``/rules`` and ``/rules/<id>``, as data: the common rules
here, each rule set's own in its ``webcalc/variants/<name>_texts.py`` (``Variant.rules``),
put together from the registry when asked (:func:`rules`, :func:`by_id`, :func:`sections`).

One :class:`Rule` (webcalc/rulebook.py) per decision id of ``docs/RULES.md``: a title and a plain explanation in
Chinese and English, the seed sentence it comes from (verbatim from ``docs/seeds/``, the
seed file named by number) and at least one worked example. The room options that change
a rule are not here: each option lists its rules (``rules`` in webcalc/options.py).

An :class:`Example` is an analysis request in API form plus what its page shows
(``says_zh``/``says_en``) and the same fact as data (``expect``), which
``tests/test_web_rules.py`` checks against the analysis API and the rendered page:

* ``complete`` bool, ``shanten`` int, ``biao`` int, ``any_tile_wait`` bool,
* ``waits`` {tile: remaining} (exactly these), ``wildcards`` [tiles] (as a set),
* ``fan`` [keys] (the answer's ``fan``), ``reason`` a rule id among ``reasons``,
* ``error`` an error code, ``net`` [4 numbers], ``next_dealer`` seat, ``shape`` a shape
  among the readings, ``readings`` the reading count, ``group`` a group kind among the
  readings, ``wait_win`` {tile: ``waits[].win``}, ``discard_waits`` {discard: {tile:
  remaining}} (``discards[].waits`` of a 14-tile hand, as its 牌理 row shows them).

Nothing here decides a rule: the numbers come from the engine; the tests hold the texts to
what it computes.
"""

from __future__ import annotations

from ..catalogue import localize
from ..rulebook import Example, Rule, ex
from ..variants import VARIANTS

__all__ = ["SEED_FILES", "Example", "Rule", "by_id", "rule_note", "rules", "sections"]

SEED_FILES = {"000": "000_a740f7263225a892.txt", "001": "001_9c43cc798fd891e0.txt",
              "002": "002_f24ad363ce912322.txt", "003": "003_ef71ddeaa0fd2338.txt"}
#: the common rules' section: rule id prefix, title in Chinese, in English (each rule set's
#: section is its ``rule_prefix`` and its label)
COMMON_SECTION = ("C", "通用规则", "Common to all variants")


ZZ = {"variant": "zhengzhou"}
ZZ0 = {"variant": "zhengzhou", "options": {"wildcard": False}}
SMX = {"variant": "sanmenxia"}
PJ0 = {"variant": "panjin", "options": {"wildcard_mode": "none"}}
JC = {"variant": "jincheng"}
PLAIN = "123m456p789s11122z"                     # 四副 + 一对, 和 2z (any variant)

#: the rules common to every rule set (a text's ``{notes}``: what each rule set adds to
#: it, its ``texts`` entry ``rules.<id>.note``)
COMMON: tuple[Rule, ...] = (
    Rule("C-1", "用哪些牌", "The tiles",
         "万、筒、条各 1 到 9，每种 4 张，加上东南西北中发白各 4 张，共 136 张，没有花牌。"
         "三门峡可以不带风（字牌），那就只用万筒条 108 张：这时手里出现任何字牌都是输入错误。",
         "Characters, dots and bamboo 1-9, four of each, plus the seven honors, four of each: "
         "136 tiles, no flowers. Sanmenxia may play without honors (108 tiles); then any honor "
         "tile is an input error.",
         (ex({**SMX, "options": {"with_honors": False}, "hand": "123m456p789s11122z"},
             "三门峡不带风时，手里有东、南就报错 bad_tile（字牌不在牌墙中）。",
             "Sanmenxia without honors: the East and South tiles are refused (bad_tile).",
             error="bad_tile"),),
         seed=("000", "牌数：万、条、筒三门共 108张；带风牌（东南西北中发白）则为 136张；")),
    Rule("C-2", "每种牌最多几张", "At most four of a kind",
         "手牌、副露、看得见的牌（visible）和指示牌加起来，每种牌最多 4 张；指示牌那一种最多 3 张，"
         "因为翻开的那一张不参与牌局。超过了就是输入错误，并指出是哪张牌。",
         "Hand, melds, visible tiles and the indicator together hold at most four of a kind, "
         "and at most three of the indicator's kind (the turned-up copy is out of play). More "
         "is an input error naming the tile.",
         (ex({**ZZ, "hand": "1111m234p567s789s1z", "indicator": "1m"},
             "指示牌是一万，手里却有 4 张一万：报错 too_many_copies（一万只剩 3 张在牌局中）。",
             "The indicator is 1 Characters but the hand holds four of them: too_many_copies.",
             error="too_many_copies"),),
         seed=("000", "举例：翻开的是1万，则只有剩余的3张1万才参与牌局，翻开的那张1万作为混皮不参与牌局——即本轮牌局中会少一张1万。")),
    Rule("C-3", "手牌张数", "Tile count",
         "暗手的牌加上每组副露算 3 张（杠也算 3 张），合计应为 13 张（等牌）或 14 张（刚摸到或吃碰到一张，"
         "看能不能胡）。其他张数都是输入错误。",
         "Concealed tiles plus 3 per meld (a kong counts 3) must be 13 (waiting) or 14 (just "
         "drawn or claimed). Any other count is an input error.",
         (ex({**ZZ0, "hand": "123m456p789s111223z"},
             "15 张牌，多了一张：报错 wrong_tile_count。",
             "15 tiles, one too many: wrong_tile_count.", error="wrong_tile_count"),),
         seed=("001", "庄家拿14张牌，闲家13张牌。")),
    Rule("C-4", "基本胡牌型", "The standard shape",
         "四副牌加一对将。一副牌是顺子（同一门连着的三张，字牌不能成顺）、刻子（三张一样）或杠"
         "（杠只算已经亮出或暗杠的副露）。任何一对都可以做将，不要求 2、5、8；晋城说的“乱将”就是这个意思。",
         "Four sets and a pair. A set is a sequence (three in a row of one suit; honors never "
         "make a sequence), a triplet, or a declared kong. Any pair may be the eyes (no 2-5-8 "
         "rule); Jincheng's 乱将 means exactly this.",
         (ex({**JC, "hand": "123m456p789s111z44p", "winning_tile": "4p"},
             "123万 456筒 789条 东东东 加一对四筒：四副加一将，胡了（四筒做将也可以）。",
             "Three sequences, a triplet of East and a pair of 4 Dots: a win.",
             complete=True),),
         seed=("003", "基本成牌：要有“1將”（兩張一樣的），4副牌（三張順序排，或三張一樣的牌）。")),
    Rule("C-5", "七对", "Seven pairs",
         "十四张都在手里（没有副露），正好七对。四张一样的牌算两对。",
         "All fourteen tiles concealed (no melds), seven pairs. Four of a kind counts as two "
         "pairs.",
         (ex({**JC, "hand": "1111m22p33p44s55s66z", "winning_tile": "6z"},
             "四张一万算两对，再加五对：七对，胡了。",
             "Four 1 Characters count as two pairs; with five more pairs it is seven pairs.",
             complete=True, shape="seven_pairs"),),
         seed=("003", "“七對”必須門清。")),
    Rule("C-6", "一手牌有几种读法", "Best reading",
         "同一手牌常常能拆成好几种样子，页面把每一种合法拆法都列出来，算分时用对胡牌者最有利的那一种，"
         "并标上“最佳”。",
         "A hand can often be split in several ways. Every legal reading is listed and the "
         "score uses the one most favourable to the winner, marked “best”.",
         (ex({**ZZ0, "hand": "111222333m456p77z", "winning_tile": "7z"},
             "111 222 333万 可以读成三个刻子，也可以读成三个 123 顺子：共 2 种读法。",
             "111 222 333 Characters reads as three triplets or three 123 sequences: 2 "
             "readings.", complete=True, readings=2),),
         no_seed_zh="规则原文没有直接说；这是本站的决定。"),
    Rule("C-7", "指示牌不参与牌局", "The indicator is out of play",
         "翻开来定混的那张牌（混皮、明牌、查混牌）一直亮在桌上，谁也摸不到：这一种牌只剩 3 张在牌局里，"
         "算听牌剩几张时也把它算作已经看见。没给指示牌，这手就没有混。晋城没有混，给了指示牌就报错。",
         "The tile turned up to fix the wildcards stays face up and is never drawn: only three "
         "of its kind are in play and the wait counts treat it as seen. No indicator means no "
         "wildcards for this hand.",
         (ex({**ZZ, "hand": "123m456p789s1133z", "indicator": "3z"},
             "指示牌是西风（北风是混）：听东风、西风，摸到北风（混）也能胡；东风还剩 2 张，"
             "西风只剩 1 张（手里 2 张，翻开的指示牌 1 张），北风 4 张都在。",
             "Indicator West (North is wild): waiting on East (2 left), West (only 1 left: two "
             "in hand, one turned up) and the North wildcard (4 left).",
             waits={"1z": 2, "3z": 1, "4z": 4}),),
         seed=("000", "混皮：用来产生混牌的参照牌。开局发完牌后，取尾墩倒数第5墩上面的牌为混皮。混皮不参与牌局，因此没有混皮杠。")),
    Rule("C-8", "混牌能做什么", "What a wildcard may do",
         "混牌可以当它自己，也可以在暗手里当任何一张牌{notes}，但不能在已经亮出的副露里"
         "代替别的牌。它甚至可以当“第五张”：四张五万加一张混，可以拆成 555万 + 5万 5万(混)。",
         "A wildcard may play as its own face, or stand in for any tile in the concealed part"
         "{notes}, never inside an exposed meld. It may even be a “fifth "
         "copy”: four 5 Characters and a wildcard make 555 + a pair of 5 (one wildcard).",
         (ex({**ZZ, "hand": "5555m123p456s789s7z", "indicator": "4z", "winning_tile": "7z"},
             "指示牌北风，红中是混：四张五万加红中，读成 555万 + 一对五万（红中当第五张五万），胡了。",
             "Indicator North makes Red the wildcard: four 5 Characters plus Red read as 555 + "
             "a pair of 5 — a win.", complete=True, wildcards=["7z"]),),
         seed=("001", "混只可以在胡牌时充当任何牌，在碰、杠时不能充当其它的牌。")),
    Rule("C-9", "听哪几张、还剩几张", "Waits and tiles left",
         "听的牌是：加到 13 张里能按本玩法（和问的胡法，默认自摸）胡的那种牌。自己已经拿着 4 张"
         "（或指示牌那一种拿着 3 张）的牌不算听。“还剩几张” = 4 − 手里和副露的 − 指示牌 − 看得见的。"
         "剩 0 张的仍然列出，标为“空听”。14 张时看打哪张（牌理）：打出去的那张已经在牌河里，"
         "也算看得见的，那种牌少数一张。",
         "A wait is a kind that, added to the 13 tiles, makes a legal win (self-draw unless "
         "asked otherwise). A kind whose every live copy is already held is not a wait. Tiles "
         "left = 4 − held − indicator − visible; a wait with none left is still listed as a "
         "dead wait (空听). For a 14-tile hand's discards (牌理) the tile thrown is in the "
         "river and counts as seen: its kind has one copy fewer.",
         (ex({**ZZ0, "hand": "123m456p789s1122z", "visible": "11z"},
             "听东风和南风；桌上已经看见两张东风，东风剩 0 张，是空听；南风还剩 2 张。",
             "Waiting on East and South; two East tiles are visible, so East has none left "
             "(dead wait) and South has 2.", waits={"1z": 0, "2z": 2}),
          ex({**JC, "hand": "123m456m789p555s11z"},
             "14 张：打一万，再摸一万、四万、七万都听：3 + 3 + 4 = 10 张（打出的那张一万在牌河里，不算剩的）。",
             "14 tiles: discard 1 Characters and the hand waits on 1, 4 and 7 Characters: "
             "3 + 3 + 4 = 10 tiles (the 1 Characters thrown is in the river, not left).",
             discard_waits={"1m": {"1m": 3, "4m": 3, "7m": 4}})),
         no_seed_zh="规则原文没有直接说怎么数；这是本站的决定。"),
    Rule("C-10", "荒庄", "A drawn game (huangzhuang)",
         "摸完牌没人胡，叫荒庄：没有胡牌的钱，只按各玩法的规定付杠钱和罚分（三门峡、晋城荒庄不付杠；"
         "郑州看选项；盘锦照付；晋城庄家还要付后包）。",
         "Nobody won: no win payment; only the kong payments and penalties each variant "
         "keeps on a draw (none in Sanmenxia and Jincheng, optional in Zhengzhou, always in "
         "Panjin; Jincheng's dealer pays 后包).",
         (ex({**ZZ0, "hand": "123m456p789s1122z",
              "settlement": {"base": 1, "dealer": 0, "winner": None,
                             "kongs": [{"seat": 1, "type": "concealed"}]}},
             "郑州荒庄，南家有一个暗杠：荒庄也结算杠分，另外三家各付南家 1 底。",
             "A drawn game in Zhengzhou with a concealed kong by South: the other three pay "
             "South 1 each.", net=[-1, 3, -1, -1]),),
         seed=("000", "荒庄：摸完所有牌后没有人胡牌则荒庄。")),
    Rule("C-11", "座位和输赢相抵", "Seats; the net sums to zero",
         "座位按出牌顺序编号 0 到 3（东、南、西、北家）。每一笔钱都是一家付给另一家，"
         "所以一手牌结算后四家的输赢加起来正好是 0。",
         "Seats are numbered 0-3 in turn order (East, South, West, North). Every payment goes "
         "from one seat to another, so the four nets of a hand sum to zero.",
         (ex({**ZZ0, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 2}},
             "西家自摸：另外三家各付 1，西家 +3，其余各 −1，合计 0。",
             "West wins by self-draw: +3 for West, −1 for each other seat; the sum is 0.",
             net=[-1, -1, 3, -1]),),
         seed=("002", "所有玩家按照逆时针的顺序轮流坐庄。")),
    Rule("C-12", "向听数", "Shanten (tiles from ready)",
         "向听数就是离听牌还差几张有用的牌。0 是已经听牌。如果听的牌自己全都拿着（4 张都在手里），"
         "其实没有牌可等，算作还没听（至少 1 向听），和天凤牌理等工具一样。",
         "Shanten is how many useful tiles a hand lacks from ready; 0 is ready. A hand whose "
         "only completing kind is already held four times has nothing to wait for and counts "
         "as not ready (at least 1), as on the reference 牌理 tools.",
         (ex({**ZZ0, "hand": "1111m234p567p888s"},
             "只能单吊一万，可四张一万都在手里：没有可等的牌，算 1 向听，没有听牌。",
             "It could only wait on 1 Characters, but all four are in the hand: 1 from ready, "
             "no waits.", shanten=1, waits={}),),
         no_seed_zh="规则原文没有说；这是本站的决定。"),
    Rule("C-13", "读法怎么列", "How readings are listed",
         "只差在哪一张同样的牌放哪儿的读法算同一种。全由混牌组成的一组只列一次，叫“任意”组"
         "（三张混：任意一副；两张混：任意一对），不按它能当的每一种牌各列一遍。",
         "Readings that differ only in which copy sits where are the same. A group made only "
         "of wildcards is listed once as an “any” group (three: any set; two: any pair), not "
         "once per tile it could be.",
         (ex({**ZZ, "hand": "123m456p789s11z777z", "indicator": "4z", "winning_tile": "1z"},
             "三张红中都是混：读成 123万 456筒 789条 一对东风 + 一组“任意”（三张混）。",
             "Three Red wildcards are listed as one “any” group beside 123, 456, 789 and a "
             "pair of East.", complete=True, group="free"),),
         no_seed_zh="规则原文没有说；这是本站的决定。"),
    Rule("C-14", "胡法", "Win methods",
         "杠上开花（杠后补牌胡）在每个玩法里都算自摸：三家都付，自摸的翻倍照算，玩法自己有杠开番的再加。"
         "玩法不允许的胡法（比如郑州、三门峡点炮）报错 bad_win_by，并指出是哪条规则。",
         "A win on a kong replacement (杠上开花) is a self-draw everywhere: all three pay and "
         "self-draw factors apply. A method the variant does not allow is refused "
         "(bad_win_by) citing the rule.",
         (ex({**SMX, "hand": PLAIN, "winning_tile": "2z", "win_by": "kong_replacement",
              "settlement": {"base": 1, "dealer": 0, "winner": 0}},
             "三门峡杠上开花：算自摸，另外三家各付 1 底。",
             "Sanmenxia, won on a kong replacement: a self-draw, each other seat pays 1.",
             net=[3, -1, -1, -1]),),
         seed=("000", "3. 可以杠上花；")),
    Rule("C-15", "结算要填什么", "Settlement inputs",
         "要算钱，给胡牌者时必须给 14 张和牌后的手牌、和牌张和胡法，而且这手牌要真能胡，否则报错"
         "（not_complete，并列出原因）。杠钱只看“杠”那一栏，不和副露核对。下跑超过本玩法上限、"
         "或没开下跑却填了跑，都报错 bad_settlement。",
         "A winner needs the 14-tile hand, the winning tile, the win method and a real win "
         "(else not_complete with the reasons). Kong payments come from the kong list alone. "
         "A 跑 above the variant's maximum, or any 跑 where it is off, is bad_settlement.",
         (ex({**ZZ0, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0, "pao": [4, 0, 0, 0]}},
             "郑州最多下 3 跑，东家填了 4 跑：报错 bad_settlement。",
             "Zhengzhou allows at most 3 跑; East has 4: bad_settlement.",
             error="bad_settlement"),),
         seed=("001", "下跑只能是底注1~3倍，分别为10 20 30 三倍最多封顶。")),
)


_BOOK: dict[tuple[str, ...], tuple[tuple[Rule, ...], dict[str, Rule]]] = {}


def _book() -> tuple[tuple[Rule, ...], dict[str, Rule]]:
    """The rules of the registered rule sets (the common ones first, then each rule set's in
    the registry's order) and the same by id, built once per registry."""
    key = tuple(VARIANTS)
    book = _BOOK.get(key)
    if book is None:
        every = COMMON + tuple(r for v in VARIANTS.values() for r in v.rules)
        book = _BOOK[key] = (every, {r.id: r for r in every})
    return book


def rules() -> tuple[Rule, ...]:
    """Every rules page, in order: the common rules, then each registered rule set's."""
    return _book()[0]


def by_id() -> dict[str, Rule]:
    """:func:`rules` by id."""
    return _book()[1]


def sections() -> list[tuple[str, str, str]]:
    """The rules index's sections: (id prefix, title in Chinese, in English), the common
    rules first, then each registered rule set that has rules pages, under its label."""
    return [COMMON_SECTION] + [(v.rule_prefix, localize(v.label, "zh"), localize(v.label, "en"))
                               for v in VARIANTS.values() if v.rules]


def rule_note(rule_id: str, lang: str) -> str:
    """What the registered rule sets add to the common rule ``rule_id`` (their ``texts``
    entry ``rules.<id>.note``), in ``lang``, joined: the ``{notes}`` of its text."""
    notes = (v.texts.get(f"rules.{rule_id}.note") for v in VARIANTS.values())
    return "".join(n[0 if lang == "en" else 1] for n in notes if n)
