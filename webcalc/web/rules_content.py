"""The rule explanations behind ``/rules`` and ``/rules/<id>``, as data.

One :class:`Rule` per decision id of ``docs/RULES.md``: a title and a plain explanation in
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

from dataclasses import dataclass, field
from typing import Any

SEED_FILES = {"000": "000_a740f7263225a892.txt", "001": "001_9c43cc798fd891e0.txt",
              "002": "002_f24ad363ce912322.txt", "003": "003_ef71ddeaa0fd2338.txt"}
#: the rules page's sections: rule id prefix, title in Chinese, in English
SECTIONS = (("C", "通用规则", "Common to all variants"),
            ("SMX", "三门峡", "Sanmenxia"),
            ("ZZ", "郑州", "Zhengzhou"),
            ("PJ", "盘锦", "Panjin"),
            ("JC", "晋城", "Jincheng"))


@dataclass(frozen=True)
class Example:
    """A worked example: an analysis request (API form; ``melds`` as the page's text) and
    what it shows."""

    request: dict
    says_zh: str
    says_en: str
    expect: dict

    @property
    def variant(self) -> str:
        return self.request["variant"]


@dataclass(frozen=True)
class Rule:
    id: str
    title_zh: str
    title_en: str
    zh: str
    en: str
    examples: tuple[Example, ...]
    seed: tuple[str, str] | None = None          # (seed number, the sentence verbatim)
    no_seed_zh: str = ""                         # why there is no seed sentence
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def section(self) -> str:
        return self.id.split("-")[0]


def ex(request: dict, says_zh: str, says_en: str, **expect) -> Example:
    return Example(request, says_zh, says_en, expect)


ZZ = {"variant": "zhengzhou"}
ZZ0 = {"variant": "zhengzhou", "options": {"wildcard": False}}
SMX = {"variant": "sanmenxia"}
PJ0 = {"variant": "panjin", "options": {"wildcard_mode": "none"}}
JC = {"variant": "jincheng"}
PLAIN = "123m456p789s11122z"                     # 四副 + 一对, 和 2z (any variant)

RULES: tuple[Rule, ...] = (
    # -- common ---------------------------------------------------------------------------
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
         "混牌可以当它自己，也可以在暗手里当任何一张牌（盘锦另有限制，见 PJ-2），但不能在已经亮出的副露里"
         "代替别的牌。它甚至可以当“第五张”：四张五万加一张混，可以拆成 555万 + 5万 5万(混)。",
         "A wildcard may play as its own face, or stand in for any tile in the concealed part "
         "(Panjin limits this, PJ-2), never inside an exposed meld. It may even be a “fifth "
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

    # -- 三门峡 -----------------------------------------------------------------------------
    Rule("SMX-1", "三门峡的混牌", "Sanmenxia's wildcard",
         "混牌是指示牌（混皮）的下一张：万筒条 1→2…9→1；字牌 东→南→西→北→中→发→白→东。"
         "比如混皮九筒，一筒是混；混皮北风，红中是混。只有勾选“带混”才有。",
         "The wildcard is the tile after the indicator: 1→2…9→1 in a suit; East → South → West "
         "→ North → Red → Green → White → East. Indicator 9 Dots → 1 Dots is wild; North → "
         "Red. Only with the 带混 option.",
         (ex({**SMX, "hand": "123m456m789m2233s", "indicator": "9p"},
             "混皮九筒：一筒是混牌。",
             "Indicator 9 Dots: 1 Dots is the wildcard.", wildcards=["1p"]),),
         seed=("000", "例如：翻出来混皮是九筒，那么一筒就是混牌。")),
    Rule("SMX-2", "只能自摸，不能吃", "Self-draw only, no chow",
         "三门峡只能自摸胡（杠上开花也算自摸），别人打的牌不能胡，也不能吃。",
         "Sanmenxia wins by self-draw only (a kong replacement counts as one); no win on a "
         "discard, no chow.",
         (ex({**SMX, "hand": PLAIN, "winning_tile": "2z", "win_by": "discard"},
             "点炮胡：报错 bad_win_by（三门峡只能自摸）。",
             "A win on a discard: bad_win_by (self-draw only).", error="bad_win_by"),),
         seed=("000", "三门峡麻将：只能自摸不许吃牌")),
    Rule("SMX-3", "三门峡的胡牌型", "Sanmenxia's shapes",
         "四副加一将；七对（混牌只能当自己）；四混：手里暗藏四张混牌就能胡（暗杠出去的四张混算杠，不算四混）；"
         "十三不靠（带风才有）：147、258、369 各在一门里凑齐，三门各不相同，再加五张不同的字牌，共 14 张，"
         "不能有重复，混牌只能当自己。",
         "Four sets and a pair; seven pairs (wildcards only as themselves); four wildcards "
         "held concealed win at once; 十三不靠 (with honors): 147, 258 and 369 each in a "
         "different suit plus five different honors, no duplicates, wildcards only as "
         "themselves.",
         (ex({**SMX, "hand": "147m258p369s12345z", "winning_tile": "5z"},
             "147万 258筒 369条 加东南西北白：十三不靠，胡了。",
             "147 Characters, 258 Dots, 369 Bamboo and five honors: 十三不靠, a win.",
             complete=True, shape="knitted"),),
         seed=("000", "由 147、258、369 三组序数牌加东南西北中发白中任意五张不重复的牌组成。")),
    Rule("SMX-4", "混单吊（表演）", "Hundandiao: the wildcard as a single wait",
         "手里是四副牌加一张混牌，摸到任何一张都能胡（混牌和它做将），这样胡叫混单吊，算 1 表。"
         "胡的那张也可以是混（那时手里原来还有一张混）。混牌只是在顺子或刻子里用掉，不算混单吊："
         "123、123、123、123 加单张一万，摸到混胡，是 0 表。",
         "Four sets and one wildcard: any tile drawn wins, the wildcard making the pair. Such "
         "a win is 混单吊, 1 表. The winning tile may itself be a wildcard. A wildcard used "
         "only inside a set never makes it: four 123 and a single 1, won on a drawn "
         "wildcard, is 0 表.",
         (ex({**SMX, "hand": "123m123m123m123m9m7z", "indicator": "4z", "winning_tile": "9m"},
             "123万 ×4 加红中（混）：摸九万胡，红中和九万做将，算 1 表。",
             "Four 123 Characters and Red (wild), won on 9 Characters: 混单吊, 1 表.",
             complete=True, biao=1),
          ex({**SMX, "hand": "123m123m123m123m7z", "indicator": "4z"},
             "13 张时：摸什么都能胡（混单吊），听牌只有一行“任意牌（混单吊）”，旁写着“1 表、得 6”（三家各付 2）。",
             "At 13 tiles: any tile wins (混单吊); the waits are one row, any tile, showing 1 表 "
             "and 6 points (2 from each seat).", any_tile_wait=True,
             wait_win={"9p": {"fan": [], "biao": 1, "amount": 6}}),
          ex({**SMX, "hand": "123m123m123m123p1s7z", "indicator": "4z", "winning_tile": "7z"},
             "反例：四副顺子加单张一条，摸到红中（混）胡：混牌只是配一条做将，不是混单吊，0 表。",
             "The counter-example: four sequences and a single 1 Bamboo, won on a drawn Red "
             "wildcard: 0 表.", complete=True, biao=0)),
         seed=("000", "举例：手牌是 123、123、123、123、红中（混）。此时摸到任意一张牌都可以胡牌，这时摸到9万选择胡，算 1 表。")),
    Rule("SMX-5", "表数", "Counting biao",
         "不是混单吊就是 0 表；混单吊是 1 表，再加上“听牌后打出的混牌张数”：已经在混单吊状态，"
         "又摸到混牌，不胡，打出一张混（手里还留一张做将，而且一直没脱听），每打一张多 1 表。"
         "这个张数在结算的“表（打混次数）”里填。",
         "0 unless the win is 混单吊; then 1 + the wildcards discarded while already in the "
         "any-tile wait (keeping one wildcard as the eyes, never leaving the wait). Enter that "
         "number in the settlement's 表 input.",
         (ex({**SMX, "hand": "123m123m123m123m9m7z", "indicator": "4z", "winning_tile": "9m",
              "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0, "biao_discards": 1}},
             "混单吊时又打出过一张混：1 + 1 = 2 表，每家付 1×2×2 = 4。",
             "One wildcard discarded in the wait: 2 表, each seat pays 1×2×2 = 4.",
             biao=2, net=[12, -4, -4, -4]),),
         seed=("000", "正确做法：必须是 123、123、123、123、红中（混），再摸到一张红中之后，选择不胡，把2张混牌中的其中一张打出去，然后下一圈再摸到任意牌胡了，才算 2 表。")),
    Rule("SMX-6", "三门峡胡牌给多少", "Sanmenxia's win payment",
         "另外三家各付：底 ×（1 + 胡家的跑 + 这家的跑）× 2 的“表数”次方。关掉“跑随表翻倍”时："
         "底 × 2^表 + 底 ×（胡家的跑 + 这家的跑）。跑是 0 到上限（默认 1）。没有庄家翻倍。",
         "Each of the three others pays base × (1 + winner's 跑 + payer's 跑) × 2^表; with "
         "跑随表翻倍 off, base × 2^表 + base × (the two 跑). No dealer factor.",
         (ex({**SMX, "hand": "123m123m123m123m9m7z", "indicator": "4z", "winning_tile": "9m",
              "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0, "biao_discards": 1,
                             "pao": [1, 0, 0, 0]}},
             "2 表、东家下 1 跑：每家付 1 ×（1+1+0）× 4 = 8，东家共得 24。",
             "2 表 and East has 跑1: each pays 1 × (1+1+0) × 4 = 8, East gets 24.",
             net=[24, -8, -8, -8]),),
         seed=("000", "例如：二表胡分为 1×2×2 = 4 分；四表胡分为 1×2×2×2×2 = 16 分。")),
    Rule("SMX-7", "三门峡的杠钱", "Sanmenxia's kongs",
         "明杠（杠别人打的牌）：打出那张的人付 1 底；暗杠：另外三家各付 1 底；绕杠（先碰后摸到第四张）："
         "供碰的那家付 1 底。勾选“杠带跑”再加双方的跑。荒庄不付杠钱（荒庄荒杠）。",
         "Exposed kong: the discarder pays 1 base; concealed: each other seat pays 1; 绕杠 "
         "(pong, then the fourth drawn): whoever supplied the ponged tile pays 1. With 杠带跑 "
         "add both 跑. Nothing on a draw.",
         (ex({**SMX, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0,
                             "kongs": [{"seat": 1, "type": "concealed"}]}},
             "东家自摸（三家各付 1），南家有暗杠（另外三家各付南家 1）。",
             "East self-draws (1 from each), South has a concealed kong (1 from each other "
             "seat).", net=[2, 2, -2, -2]),),
         seed=("000", "暗杠：自己摸到了四张相同的牌，则可以暗杠。其他所有玩家每人需付 1 倍底注。")),
    Rule("SMX-8", "三门峡谁坐庄", "Sanmenxia's dealer",
         "谁胡牌谁下一局坐庄；荒庄时庄家不变。",
         "The winner deals next; on a draw the dealer stays.",
         (ex({**SMX, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 2}},
             "东家坐庄、西家胡：下一局西家坐庄。",
             "East dealt, West won: West deals next.", next_dealer=2),),
         seed=("000", "庄家：创建房间后，首局庄家由系统随机选一个玩家坐庄，胡牌后则由胡牌的玩家坐庄，荒庄则由荒庄局的庄家继续坐庄。")),

    # -- 郑州 -------------------------------------------------------------------------------
    Rule("ZZ-1", "郑州的混牌", "Zhengzhou's wildcard",
         "混牌是明牌（指示牌）的下一张，顺序和三门峡一样：1→…→9→1，东南西北中发白→东。"
         "比如明牌是白板，东风是混。",
         "The wildcard is the tile after the indicator, in the same cycles as Sanmenxia. "
         "Indicator White → East is wild.",
         (ex({**ZZ, "hand": "123m456p789s2233z", "indicator": "5z"},
             "明牌白板：东风是混牌。",
             "Indicator White: East is the wildcard.", wildcards=["1z"]),),
         seed=("001", "明牌为白，东为混")),
    Rule("ZZ-2", "郑州只能自摸或杠开", "Zhengzhou: self-draw or kong replacement only",
         "郑州没有点炮胡，只能自摸或杠上开花；也不能吃牌。",
         "No win on a discard in Zhengzhou: self-draw or kong replacement only; no chow.",
         (ex({**ZZ0, "hand": PLAIN, "winning_tile": "2z", "win_by": "discard"},
             "点炮胡：报错 bad_win_by。", "A win on a discard: bad_win_by.",
             error="bad_win_by"),),
         seed=("001", "郑州(下跑)麻将只能自摸或杠开胡，没有点炮胡。")),
    Rule("ZZ-3", "郑州的胡牌型", "Zhengzhou's shapes",
         "四副加一将；七对（混牌只能当自己）；四混：手里有四张混牌直接胡。没有十三不靠。",
         "Four sets and a pair; seven pairs (wildcards only as themselves); four wildcards "
         "in hand win at once. No 十三不靠.",
         (ex({**ZZ, "hand": "147m258p369s17777z", "indicator": "4z", "winning_tile": "7z"},
             "手里四张红中（混）：不管别的牌，直接胡（四混）。",
             "Four Red wildcards in hand: a win whatever the rest (四混).",
             complete=True, shape="four_wildcards"),),
         seed=("001", "手上有四个相同的混，则可直接胡牌，混牌可以打出。")),
    Rule("ZZ-4", "郑州胡牌给多少", "Zhengzhou's win payment",
         "另外三家各付：底 ×（1 + 胡家的跑 + 这家的跑 [+1 庄家加底]）× 2^d，d 是开了的加倍里"
         "这手牌占了几个（七对、杠上花、四混）。跑 0 到 3。",
         "Each of the three others pays base × (1 + winner's 跑 + payer's 跑 [+1 with "
         "庄家加底 when the dealer is involved]) × 2^d, d = the enabled doubles this hand has "
         "(七对, 杠上花, 四混).",
         (ex({**ZZ0, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0, "pao": [1, 0, 0, 0]}},
             "东家下 1 跑自摸：每家付 1 ×（1+1+0）= 2，东家得 6。",
             "East with 跑1 self-draws: each pays 1 × (1+1+0) = 2, East gets 6.",
             net=[6, -2, -2, -2]),
          ex({**ZZ0, "options": {"wildcard": False, "seven_pairs_double": True},
              "hand": "1122m3344p5566s7z"},
             "开了七对加倍：听红中，页面写着“七对 ×2、得 6”。",
             "With 七对加倍 on, the Red wait shows 七对 ×2 and 6 points.",
             wait_win={"7z": {"fan": ["seven_pairs"], "amount": 6}})),
         seed=("001", "如:底注100金蛋，A下跑一个，A胡牌的情况下，每家给A 200金蛋，，其它三家胡牌，A要输给赢家200金蛋。")),
    Rule("ZZ-5", "郑州的杠钱", "Zhengzhou's kongs",
         "每笔杠钱：底 ×（1 [+ 杠家的跑 + 付钱家的跑，开“杠跑”时] [+1 庄家加底]）。暗杠另外三家都付；"
         "明杠点杠的人付；补杠供碰的人付。杠钱不跟胡牌加倍。荒庄时开了“荒庄结算杠分”才付。",
         "Each kong payment: base × (1 [+ both 跑 with 杠跑] [+1 with 庄家加底]). Concealed: "
         "all three others; exposed: the discarder; added: the supplier of the pong. Never "
         "doubled; on a draw only with 荒庄结算杠分.",
         (ex({**ZZ0, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0, "pao": [0, 2, 0, 0],
                             "kongs": [{"seat": 1, "type": "concealed"}]}},
             "南家下 2 跑、有暗杠：每家付南家 1+2+0 = 3；东家自摸，南家付 1+0+2 = 3，另外两家各 1。",
             "South (跑2) has a concealed kong: 3 from each other seat; East self-draws: 3 "
             "from South, 1 from each of the others.", net=[2, 6, -4, -4]),),
         seed=("001", "暗杠:每人支付100金蛋 如果有下跑，1个，每人要支付，200金蛋，")),
    Rule("ZZ-6", "规则原文里和公式对不上的两个例子", "The seed's two miscounted examples",
         "郑州的规则原文给了公式，又给了两个和公式对不上的例子。本站按公式算，把例子当成笔误："
         "A 跑1、B 跑2，B 胡，没下跑的两家各付 3 底（原文写的是 2）；A 跑3 带一个暗杠、B 跑2，A 胡，"
         "没下跑的各付 8 底、B 付 12 底（不开杠跑时 5 和 7；原文写的是 7 和 9）。"
         "结算只在照搬这两个例子会得出别的数时提示一次，不在每一笔付款后面重复。",
         "The Zhengzhou seed gives a formula and two examples that contradict it. We follow "
         "the formula: A 跑1, B 跑2, B wins → each 跑0 player pays 3 base (the seed says 2); "
         "A 跑3 with a concealed kong, B 跑2, A wins → 8 base from each 跑0 seat and 12 from B "
         "(5 and 7 without kong pao; the seed says 7 and 9). A settlement notes it once, only "
         "where applying those examples would give other numbers, not on every payment.",
         (ex({**ZZ0, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 1, "pao": [1, 2, 0, 0]}},
             "A（东家）跑 1、B（南家）跑 2，B 胡：A 付 1+2+1 = 4，没跑的两家各付 3。",
             "A (East, 跑1) pays 4 and the two 跑0 seats pay 3 each to B (South, 跑2).",
             net=[-4, 10, -3, -3]),),
         seed=("001", "如果B玩家赢，A玩家给B玩家400金蛋，其他没有下跑的玩家给B玩家200金蛋")),
    Rule("ZZ-7", "郑州谁坐庄", "Zhengzhou's dealer",
         "谁胡牌谁坐庄；荒庄时庄家继续坐庄。",
         "The winner deals next; on a draw the dealer stays.",
         (ex({**ZZ0, "hand": "123m456p789s1122z",
              "settlement": {"base": 1, "dealer": 2, "winner": None}},
             "西家坐庄，荒庄：下一局还是西家坐庄。",
             "West dealt and nobody won: West deals again.", next_dealer=2),),
         seed=("001", "若荒庄(流局)则当盘的庄家继续做下一盘的庄家。")),

    # -- 盘锦 -------------------------------------------------------------------------------
    Rule("PJ-1", "盘锦的混牌", "Panjin's wildcards",
         "“混牌”：查混牌的下一张是混；“游戏混”：查混牌的上一张和下一张都是混。万筒条 1…9→1 循环；"
         "风牌 东→南→西→北→东；箭牌 中→发→白→中。比如游戏混、查混牌九万：一万和八万是混。",
         "混牌 (next): the tile after the indicator is wild; 游戏混 (both): the tiles before and "
         "after. Suits cycle 1…9→1; winds East→South→West→North→East; dragons Red→Green→"
         "White→Red. 游戏混 with indicator 9 Characters: 1 and 8 Characters are wild.",
         (ex({"variant": "panjin", "options": {"wildcard_mode": "both"},
              "hand": "234m456p789s1122z", "indicator": "9m"},
             "游戏混、查混牌九万：一万和八万都是混牌。",
             "游戏混, indicator 9 Characters: 1 and 8 Characters are wild.",
             wildcards=["1m", "8m"]),),
         seed=("002", "选游戏混时，开局选择一张牌为查混牌，混牌为查混牌的-1和+1，如查混牌是9万，混牌为1万和8万。")),
    Rule("PJ-2", "盘锦的混牌能做什么", "What a Panjin wildcard may do",
         "混牌只能在暗手里当顺子的一张或将（可以当任何牌，也可以当自己；两张混也能做将）。"
         "它不能当刻子、杠里的牌（连当自己也不行），不能打出、不能吃碰杠（开了“混杠”时，四张一样的混可以杠）。",
         "A wildcard may only sit in a concealed sequence or the pair (as any tile or as "
         "itself). Never in a triplet or kong, not even as its own face; never discarded, "
         "chowed, ponged or konged (except 混杠: four identical wildcards).",
         (ex({"variant": "panjin", "hand": "123m789p456s11z99s4z", "indicator": "3z"},
             "北风是混：想拿它和两张东风凑刻子、或和两张九条凑刻子都不行，这手不能胡（PJ-2）。",
             "North is wild: it may not complete the East pair or the 9 Bamboo pair into a "
             "triplet, so this is not a win (PJ-2).", complete=False, reason="PJ-2"),),
         seed=("002", "3）混牌可以和其他牌组合成任意牌，但不能顶幺九，不能顶刻牌，不能顶杠牌。")),
    Rule("PJ-3", "盘锦可以吃", "Panjin allows chow",
         "盘锦可以吃牌（亮出的顺子）；开门（有吃碰）和闭门都能胡。",
         "Chow is allowed (exposed sequences); open and closed hands both win.",
         (ex({**PJ0, "hand": "789p456s111z88s", "melds": "吃123m", "winning_tile": "8s"},
             "吃了 123万，暗手 789筒 456条 东东东 八条对：胡了。",
             "With a chowed 123 Characters, the rest 789 Dots, 456 Bamboo, three East and a "
             "pair: a win.", complete=True),),
         seed=("002", "4）开门闭门都能胡。")),
    Rule("PJ-4", "三色全", "All three suits",
         "只数真牌（不算混牌）的万、筒、条，副露也算：默认三门都要有。庄家选了断门（房间要开“选断门”）"
         "就必须正好两门；开了“清一色”，一门也可以（算清一色 ×2）。字牌不算一门。",
         "Count only real suited tiles, melds included: by default all three suits. With "
         "断门 chosen by the dealer (option 选断门), exactly two; with 清一色 one suit is also "
         "allowed (×2). Honors are no suit.",
         (ex({**PJ0, "hand": "123m456m789p111z99p", "winning_tile": "9p"},
             "只有万和筒，缺条：不能胡（PJ-4）。",
             "Characters and Dots only, no Bamboo: not a win (PJ-4).",
             complete=False, reason="PJ-4"),),
         seed=("002", "1）必须三色全（中发白、东南西北不算色），不勾选清一色不能一色胡，庄家选择断门后必须两色胡。")),
    Rule("PJ-5", "要有幺九", "A terminal or honor",
         "胡牌里至少要有一张真的 1 或 9，或者任何一张字牌（副露也算）。混牌不算，就算它的牌面是 1 或 9 也不算。",
         "At least one real 1 or 9, or any real honor, anywhere (melds included). Wildcards "
         "never count, not even by their own face.",
         (ex({**PJ0, "hand": "234m345p456s666m55s", "winning_tile": "5s"},
             "全是 2 到 8 的牌，没有幺九：不能胡（PJ-5）。",
             "Only 2-8 tiles, no terminal or honor: not a win (PJ-5).",
             complete=False, reason="PJ-5"),),
         seed=("002", "2）胡牌必须有幺九。")),
    Rule("PJ-6", "要有刻", "A triplet",
         "至少要有一组碰、杠、暗刻（真牌；胡的那张凑成的刻，也就是对倒，也算），或者用一对真的字牌做将。"
         "混杠不算刻。",
         "At least one pong, kong or concealed triplet of real tiles (one completed by the "
         "winning tile included), or a pair of real honors as the eyes. A 混杠 is no 刻.",
         (ex({**PJ0, "hand": "123m456m789p123s99s", "winning_tile": "9s"},
             "四个顺子加一对九条，没有刻：不能胡（PJ-6）。",
             "Four sequences and a pair of 9 Bamboo, no triplet: not a win (PJ-6).",
             complete=False, reason="PJ-6"),),
         seed=("002", "3）胡牌必须有一组刻牌，或者对倒胡。")),
    Rule("PJ-7", "要有顺（飘胡例外）", "A sequence (unless piaohu)",
         "至少要有一组顺子（吃的或暗手的）。开了“飘胡”，全是刻子的牌也能胡，算飘胡 ×2。"
         "手把一（胡之前手里只剩一张）只有飘胡才行。",
         "At least one sequence (chowed or concealed). With 飘胡 on, an all-triplet hand wins "
         "as 飘胡 (×2). A single tile left in hand (手把一) wins only as 飘胡.",
         (ex({**PJ0, "hand": "111m999p111s222z33z", "winning_tile": "3z"},
             "全是刻子，没开飘胡：不能胡（PJ-7）。",
             "All triplets with 飘胡 off: not a win (PJ-7).", complete=False, reason="PJ-7"),
          ex({"variant": "panjin", "options": {"wildcard_mode": "none", "piaohu": True},
              "hand": "111m999p111s222z33z", "winning_tile": "3z"},
             "同一手牌，开了飘胡：胡了，算飘胡 ×2。",
             "The same hand with 飘胡 on: a win with 飘胡 ×2.", complete=True, fan=["piaohu"])),
         seed=("002", "5）飘胡：房间选项，勾选后可以全是刻牌或杠牌胡牌，不勾选，必须有顺子才能胡牌。")),
    Rule("PJ-8", "盘锦的七对", "Panjin's seven pairs",
         "只有开了“七小对”才能胡七对（×2）。七对不要求刻和顺，但仍要三色全和幺九；混牌可以在对子里代替。",
         "Seven pairs only with the 七小对 option (×2). No triplet or sequence needed, but "
         "the suits and the terminal rule still apply; wildcards may stand in a pair.",
         (ex({"variant": "panjin", "options": {"wildcard_mode": "none", "seven_pairs": True},
              "hand": "1122m3399p4455s11z", "winning_tile": "1z"},
             "开了七小对：七对胡了，算七对 ×2。",
             "With 七小对 on: seven pairs win, 七对 ×2.", complete=True, fan=["seven_pairs"]),),
         seed=("002", "13）七小对：勾选后可以胡七小对且算七小对番型。")),
    Rule("PJ-9", "盘锦的胡法", "Panjin's win methods",
         "可以自摸、点炮、杠上开花，不能抢杠。没有一炮多响：几家都能胡同一张时，点炮者之后按顺序最先的一家胡。",
         "Self-draw, discard (点炮) and kong replacement; no robbing a kong. No multiple "
         "winners: the first in turn order after the discarder wins.",
         (ex({**PJ0, "hand": "123m789p111z456s88s", "winning_tile": "8s",
              "win_by": "robbing_kong"},
             "抢杠胡：报错 bad_win_by（盘锦没有抢杠）。",
             "Robbing a kong: bad_win_by.", error="bad_win_by"),),
         seed=("002", "6）没有一炮多响，如果一人点炮两家以上，按照逆时针顺序在前者先胡牌。")),
    Rule("PJ-10", "盘锦的番", "Panjin's fan (doubles)",
         "每个番 ×2，全部相乘：自摸、穷胡（有混的房间里手上一张混都没有）、鸡胡（有一条，混牌的一条也算）"
         "或群鸡 ×4（四张一条）、飘胡、清一色、七对、杠上开花、杠流泪、夹胡。"
         "夹胡要“纯夹”：胡的那张在顺子中间，而且胡之前只听这一种牌（混牌那几种不算，因为摸到混什么都能胡）；"
         "边张（12 等 3、89 等 7）和单吊不算夹。平胡、夹胡、单吊的底分都是 1。",
         "Each 番 doubles, all multiplied: self-draw, 穷胡 (no wildcard tile in a wildcard "
         "room), 鸡胡 (a 1 Bamboo, a wildcard one counts) or 群鸡 ×4 (all four), 飘胡, one "
         "suit, seven pairs, kong replacement, 杠流泪, and 夹胡: the winning tile is the middle "
         "of a sequence and the hand waited on that one kind only (wildcard kinds left out); "
         "edge waits and single waits are never 夹.",
         (ex({"variant": "panjin", "options": {"jiahu": True}, "indicator": "3z",
              "hand": "123m789p111z456s88s", "winning_tile": "5s", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0}},
             "46 条夹 5 条（只听这一张，北风是混不算），自摸：夹胡 ×2、自摸 ×2，东家是庄再 ×2，"
             "每家付 8，共得 24。",
             "5 Bamboo between 4 and 6, the only real wait: 夹胡 ×2, self-draw ×2, dealer ×2 — "
             "8 from each, 24 in all.", fan=["jiahu", "self_draw"], net=[24, -8, -8, -8]),
          ex({"variant": "panjin", "options": {"jiahu": True}, "indicator": "3z",
              "hand": "123m789p111z46s88s"},
             "13 张时两张听牌价值不同：五条写着“夹胡 ×2、得 24”，北风（混）只有“自摸 ×2、得 12”。",
             "At 13 tiles the two waits differ: 5 Bamboo shows 夹胡 ×2 and 24, the North "
             "wildcard only self-draw ×2 and 12.",
             wait_win={"5s": {"fan": ["jiahu", "self_draw"], "amount": 24},
                       "4z": {"fan": ["self_draw"], "amount": 12}})),
         seed=("002", "15）夹胡（*2）：夹胡胡牌（单吊和三七不算夹胡）。")),
    Rule("PJ-11", "庄家和加钢翻倍", "Dealer and jiagang factors",
         "每个输家分开算：胡家或这个输家是庄，×2（不会 ×4）；胡家加钢 ×2；这个输家加钢再 ×2"
         "（“死钢”就是人人加钢）。",
         "Per loser: ×2 if the winner or this loser deals (never ×4); ×2 if the winner has "
         "加钢, another ×2 if this loser has (死钢: everyone has).",
         (ex({"variant": "panjin", "options": {"wildcard_mode": "none", "jiagang": True},
              "hand": "123m789p111z456s88s", "winning_tile": "8s", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 1,
                             "jiagang": [False, True, False, False]}},
             "南家加钢自摸：庄家东付 1×2×2×2 = 8，西、北各付 1×2×2 = 4，南家共得 16。",
             "South (加钢) self-draws: the dealer pays 8, West and North 4 each: 16.",
             net=[-8, 16, -4, -4]),),
         seed=("002", "5）庄家（*2）：庄家胜负都翻倍。")),
    Rule("PJ-12", "谁付钱", "Who pays",
         "自摸：三家各付自己那份。点炮：点炮的人一个人付三份（点炮包三家），每份按那个输家自己的翻倍算；"
         "点炮 ×2 只算在点炮者自己那一份上（房间选项“点炮三家都翻倍”则三份都 ×2）。",
         "Self-draw: each of the three pays its share. Discard: the discarder pays all three "
         "shares (点炮包三家), each with that loser's own factors; the 点炮 ×2 is on the "
         "discarder's own share only (or on all three with the house option).",
         (ex({**PJ0, "hand": "123m789p111z456s88s", "winning_tile": "8s", "win_by": "discard",
              "settlement": {"base": 1, "dealer": 1, "winner": 0, "discarder": 2}},
             "西家点炮给东家（南家坐庄）：庄家那份 2、西家自己那份 1×2 = 2、北家那份 1，全由西家付，共 5。",
             "West discards to East (South deals): shares 2 (dealer), 2 (West's own, ×2) and 1 "
             "— all 5 paid by West.", net=[5, 0, -5, 0]),),
         seed=("002", "2）点炮时点炮包三家。")),
    Rule("PJ-13", "盘锦的杠钱", "Panjin's kongs",
         "开了“杠”才算：明杠（含补杠）每家付 1 底，暗杠每家付 2 底，混杠每家付 64 底。"
         "杠钱不乘番也不乘庄家、加钢；荒庄也照付。",
         "With the 杠 option: exposed or added kong 1 base from each, concealed 2, 混杠 64. "
         "Never multiplied; paid on a draw too.",
         (ex({**PJ0, "hand": "123m789p111z456s8s",
              "settlement": {"base": 1, "dealer": 0, "winner": None,
                             "kongs": [{"seat": 1, "type": "concealed"}]}},
             "荒庄，南家有一个暗杠：荒庄不荒杠，另外三家各付南家 2。",
             "A draw with South's concealed kong: 2 from each other seat all the same.",
             net=[-2, 6, -2, -2]),),
         seed=("002", "2）明杠每家1分，暗杠每家2分。")),
    Rule("PJ-14", "盘锦谁坐庄", "Panjin's dealer",
         "庄家胡或荒庄，庄家继续坐庄；别人胡，下家坐庄。开了“不连庄”，每局都轮到下家。",
         "The dealer wins or a draw → the dealer stays; otherwise the next seat deals. With "
         "不连庄 the deal always passes.",
         (ex({**PJ0, "hand": "123m789p111z456s88s", "winning_tile": "8s",
              "win_by": "self_draw", "settlement": {"base": 1, "dealer": 0, "winner": 2}},
             "东家坐庄，西家胡：下一局南家（东家的下家）坐庄。",
             "East dealt, West won: South (the next seat) deals.", next_dealer=1),),
         seed=("002", "3）下庄：本局为庄家以外的人胡牌，则下一局按照逆时针的方向，轮到本局庄家的下一家坐庄。")),

    # -- 晋城 -------------------------------------------------------------------------------
    Rule("JC-1", "晋城没有混", "No wildcards in Jincheng",
         "晋城不用混牌。给了指示牌就报错 bad_option。",
         "Jincheng has no wildcards; an indicator is refused (bad_option).",
         (ex({**JC, "hand": "123m456p789s1122z", "indicator": "3z"},
             "晋城给了指示牌：报错 bad_option。", "An indicator in Jincheng: bad_option.",
             error="bad_option"),),
         no_seed_zh="规则原文没有提到混牌；没有混是本站据此作出的决定。"),
    Rule("JC-2", "晋城的胡牌型", "Jincheng's shapes",
         "四副加一将；七对（必须门清）；十三幺：三门的 1 和 9、七种字牌各一张，其中一种成对。"
         "十三幺除了拾、抢来的牌（JC-10）以外都要暗手。",
         "Four sets and a pair; seven pairs (concealed only); 十三幺: the 1 and 9 of each "
         "suit and the seven honors, one of them paired — concealed except for taken tiles "
         "(JC-10).",
         (ex({**JC, "hand": "19m19p19s1234567z"},
             "十三幺听十三面：十三种幺九牌每种都能胡。",
             "Thirteen orphans waiting on all thirteen kinds.",
             waits={"1m": 3, "9m": 3, "1p": 3, "9p": 3, "1s": 3, "9s": 3, "1z": 3, "2z": 3,
                    "3z": 3, "4z": 3, "5z": 3, "6z": 3, "7z": 3}),),
         seed=("003", "(2) 1、1、1、1、1、1、1、1、1、1、1、1、11(十三幺)")),
    Rule("JC-3", "上架才能胡", "Declared ready (shangjia) before winning",
         "晋城要先“上架”（听牌时把多余的一张扣在牌墙上）才能胡。结算里胡牌者的“上架”没勾，就报错 bad_settlement。",
         "A Jincheng player must have declared ready (上架) before winning; a winner without "
         "上架 is refused (bad_settlement).",
         (ex({**JC, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0,
                             "ready": [False, True, True, True]}},
             "东家没上架却胡牌：报错 bad_settlement。",
             "East wins without 上架: bad_settlement.", error="bad_settlement"),),
         seed=("003", "胡牌的前提條件是上架后形成聽牌！")),
    Rule("JC-4", "晋城的胡法", "Jincheng's win methods",
         "可以自摸、点胡（别人打出的牌）、抢别人的明杠（开杠的人算点炮者）、杠上开花。没有番。",
         "Self-draw, a discard (点胡), robbing an exposed kong (the konger counts as the "
         "discarder), kong replacement. No 番.",
         (ex({**JC, "hand": PLAIN, "winning_tile": "2z", "win_by": "robbing_kong",
              "settlement": {"base": 1, "dealer": 0, "winner": 1, "discarder": 2}},
             "南家抢西家的杠胡（西家已上架）：庄家东付 2，西、北各付 1。",
             "South robs West's kong (West had declared ready): the dealer pays 2, West and "
             "North 1 each.", net=[-2, 4, -1, -1]),),
         seed=("003", "明杠的牌而胡牌（此處兩種明杠的方式均合用）。")),
    Rule("JC-5", "晋城胡牌给多少", "Jincheng's win payment",
         "另外三家各付：底 × u ×（自摸 2）×（这家没上架就点了炮 2），u 是胡家或这家是庄时 2，否则 1。"
         "原文表里的八种情况都和这个公式一致，全都是测试。",
         "Each of the three others pays base × u × (2 if self-drawn) × (2 if this payer "
         "discarded the winning tile without 上架), u = 2 if the winner or this payer deals. "
         "All eight cases of the seed's table are tests.",
         (ex({**JC, "hand": PLAIN, "winning_tile": "2z", "win_by": "discard",
              "settlement": {"base": 1, "dealer": 0, "winner": 1, "discarder": 2,
                             "ready": [True, True, False, True]}},
             "闲家西（没上架）点炮给闲家南：西家付 2，庄家付 2，北家付 1。",
             "West (not ready) discards to South: West pays 2, the dealer 2, North 1.",
             net=[-2, 5, -2, -1]),),
         seed=("003", "3. 閑家（未聽牌）給閑家點炮，點炮家出2個底注，莊家出2個底注，另一家出1個底注。")),
    Rule("JC-6", "晋城的杠钱", "Jincheng's kongs",
         "明杠、补杠：另外三家各付 1 底；暗杠：各付 2 底。谁胡都照付；荒庄不付。",
         "Exposed and added kongs: 1 base from each of the three others; concealed: 2. Paid "
         "whoever wins; nothing on a draw.",
         (ex({**JC, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 0,
                             "kongs": [{"seat": 1, "type": "concealed"}]}},
             "庄家东自摸（每家付 4），南家有暗杠（另外三家各付南家 2）。",
             "The dealer self-draws (4 from each); South's concealed kong takes 2 from each "
             "other seat.", net=[10, 2, -6, -6]),),
         seed=("003", "暗杠 2 個底注")),
    Rule("JC-7", "前包", "Qianbao (following the dealer)",
         "第一轮庄家打出的第一张，另外三家都跟着打一样的牌，叫前包：庄家付给每家 1 底。",
         "When all three others follow the dealer's first discard with the same tile, the "
         "dealer pays each of them 1 base.",
         (ex({**JC, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 1, "follow_dealer": True}},
             "前包（庄家付每家 1），南家自摸（庄家付 4，西、北各付 2）。",
             "前包 (the dealer pays 1 to each) and South's self-draw (4 from the dealer, 2 "
             "from West and North).", net=[-7, 9, -1, -1]),),
         seed=("003", "前包莊家需要給其他閑家一個底注的錢")),
    Rule("JC-8", "后包（荒庄）", "Houbao (a drawn game)",
         "荒庄时庄家付给另外三家每家“后包”底数（默认 2 底），杠钱不付。",
         "On a draw the dealer pays each other seat the 后包 amount (2 base by default); no "
         "kong is paid.",
         (ex({**JC, "hand": "123m456p789s1122z",
              "settlement": {"base": 1, "dealer": 0, "winner": None}},
             "荒庄：庄家东付每家 2 底。",
             "A draw: the dealer pays 2 to each other seat.", net=[-6, 2, 2, 2]),),
         seed=("003", "荒莊了莊家要給其他3家底注的2倍錢")),
    Rule("JC-9", "晋城谁坐庄", "Jincheng's dealer",
         "庄家胡牌继续坐庄；否则（包括荒庄）下家坐庄。",
         "The dealer wins → stays; otherwise the next seat deals.",
         (ex({**JC, "hand": PLAIN, "winning_tile": "2z", "win_by": "self_draw",
              "settlement": {"base": 1, "dealer": 0, "winner": 2}},
             "东家坐庄，西家胡：下一局南家坐庄。",
             "East dealt, West won: South deals next.", next_dealer=1),),
         seed=("003", "定莊、輪莊：第一輪隨機坐莊，贏了繼續坐莊，輸了莊家的下家坐莊。")),
    Rule("JC-10", "拾牌、抢牌（只打十三幺）", "Shi and qiang (thirteen orphans only)",
         "打十三幺的人可以拿别人打出的幺九牌：“拾”只能拿上家的，次数不限；“抢”任何一家都行，只有一次，"
         "抢过以后不能再拾。拿来的牌每张算 1 张，亮在一边冻结：算进十三种里，但不能做将，也不能是胡的那张。"
         "所以只靠拿来的那张凑齐的一种牌，不再是十三面听里的一张。",
         "A player going for 十三幺 may take a discarded terminal or honor: 拾 from the "
         "previous seat, any number of times; 搶 from anyone, once, and then no more 拾. Taken "
         "tiles count 1 each, are frozen, count toward the thirteen kinds but are never the "
         "pair nor the winning tile.",
         (ex({**JC, "hand": "19m19p19s1234567z"},
             "没有拾抢时，十三幺暗手听十三种；若其中一种是拾来的，那种就不再是听牌（它只能和冻结的那张成对）。",
             "Fully concealed, 十三幺 waits on all thirteen kinds; a kind held only as a taken "
             "tile would drop out of the wait.",
             waits={"1m": 3, "9m": 3, "1p": 3, "9p": 3, "1s": 3, "9s": 3, "1z": 3, "2z": 3,
                    "3z": 3, "4z": 3, "5z": 3, "6z": 3, "7z": 3}),
          ex({**JC, "hand": "9m19p19s12345677z", "melds": "拾1m", "winning_tile": "7z"},
             "拾来一张一万（亮在一边）：它算进十三种幺九，手里一对中作将，自摸中成十三幺。",
             "A taken 1 Characters (set aside) counts toward the thirteen kinds; the pair of "
             "Red dragons is the pair: self-drawn, thirteen orphans.",
             complete=True, shape="thirteen_orphans"),
          ex({**JC, "hand": "19m19p19s1234567z", "melds": "拾1m", "winning_tile": "1m"},
             "同样拾来一万，再摸到一万想和：拾来的那张不能做将，这一对一万不算数，不是和牌。",
             "The same taken 1 Characters, then a drawn 1 Characters: the taken tile is never "
             "the pair, so this pair does not count and the hand is not a win.",
             complete=False),
          ex({**JC, "hand": "9m119p19s123456z", "melds": "拾1p"},
             "拾来一张一筒，手里还有两张一筒：它们做不了将（拾来的不能做将，三张一筒就是 15 张了），"
             "是死牌。还缺一万、中和一对，2 向听。",
             "A taken 1 Dots beside two concealed ones: those cannot be the pair (the taken "
             "tile is never the pair, and three would make 15 tiles), so they are dead. 1 "
             "Characters, Red and a pair are missing: 2 from ready.",
             shanten=2)),
         seed=("003", "拾的牌和槍的牌均被凍結，列在一邊，這類牌不能胡，不能做“將”。")),
)

BY_ID = {r.id: r for r in RULES}
