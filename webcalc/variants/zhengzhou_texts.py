"""郑州's own words (zhengzhou), one home for them: ``TEXTS``, code → (English, Chinese),
the catalogue's entries this rule set owns (its label, its options' labels and help, its
payment lines, its rule-specific messages), and ``RULES``, its rules pages (``/rules/<id>``).
:class:`~webcalc.variants.zhengzhou.Zhengzhou` carries them as ``texts`` and ``rules``; the
catalogue finds a code here through the registry (:func:`webcalc.variants.owned_text`).
Messages in Chinese are written here, not in messages.po (tests/test_messages.py holds both
languages complete)."""

from __future__ import annotations

from ..rulebook import Rule, ex

TEXTS: dict[str, tuple[str, str]] = {
    'zz.kong_bloom': (
        'kong bloom',
        '杠上花'),
    # kept for ledger entries stored with it (their message codes); no longer said
    'zz.seed_note': (
        "by the formula (the rule text's pao example counts otherwise)",
        '按公式算（规则里的跑分算例算法不同）'),
    'zz.seed_differs': (
        "Paid by the formula; the rule text's worked example would pay this hand otherwise: {examples}.",
        '按公式付钱；照规则里的算例会付成别的数：{examples}。'),
    'zz.seed_example_pao': (
        'A pao 1, B pao 2, B wins: each seat without pao pays 1+2 = 3 base (the example says 2)',
        'A 跑1、B 跑2，B 胡：没下跑的每家给 1+2 = 3 底（算例写 2 底）'),
    'zz.seed_example_kong': (
        'A pao 3 with a concealed kong, B pao 2, A wins: the win and the kong are paid separately, 8 base from each seat without pao and 12 from B when kongs pay pao, 5 and 7 when not (the example says 7 and 9)',
        'A 跑3 带暗杠、B 跑2，A 胡：胡和杠分开付，杠带跑时没下跑的各给 8 底、B 给 12 底，杠不带跑时 5 底和 7 底（算例写 7 底和 9 底）'),
    'zz.pao': (
        'pao {n}',
        '跑{n}'),
    'zz.dealer_base': (
        'dealer 1',
        '庄1'),
    'zz.units': (
        'base {base} ×({units})',
        '底{base} ×({units})'),
    'zz.units_doubled': (
        'base {base} ×({units}) ×2^{d}({doubles})',
        '底{base} ×({units}) ×2^{d}({doubles})'),
    'opt.zhengzhou.wildcard': (
        'Wildcards',
        '带混'),
    'opt.zhengzhou.wildcard.help': (
        'The tile after the turned tile is the wildcard; it stands for any tile.',
        '明牌的下一张为混牌，可当任意牌。'),
    'opt.zhengzhou.pao_max': (
        'Pao limit',
        '跑的上限'),
    'opt.zhengzhou.pao_max.help': (
        'The most pao (in bases) a player may bet (the rule text: at most three).',
        '下跑最多几倍底注（规则原文：封顶三倍）。'),
    'opt.zhengzhou.kong_pao': (
        'Kongs pay pao',
        '杠跑'),
    'opt.zhengzhou.kong_pao.help': (
        "Kong payments add both players' pao too.",
        '杠分也加上双方的跑。'),
    'opt.zhengzhou.draw_settles_kongs': (
        'Kongs paid in a drawn game',
        '荒庄结算杠分'),
    'opt.zhengzhou.draw_settles_kongs.help': (
        'Kong payments stand in a drawn game.',
        '荒庄时杠分照付。'),
    'opt.zhengzhou.seven_pairs_double': (
        'Seven pairs double',
        '七对加倍'),
    'opt.zhengzhou.seven_pairs_double.help': (
        'A seven-pairs win scores double.',
        '七对胡牌分数翻倍。'),
    'opt.zhengzhou.kong_bloom_double': (
        'Kong bloom doubles',
        '杠上花加倍'),
    'opt.zhengzhou.kong_bloom_double.help': (
        'A win on a kong replacement scores double.',
        '杠上开花分数翻倍。'),
    'opt.zhengzhou.four_wildcards_double': (
        'Four wildcards double',
        '四混加倍'),
    'opt.zhengzhou.four_wildcards_double.help': (
        'A win holding the four wildcards scores double.',
        '四混胡牌分数翻倍。'),
    'opt.zhengzhou.dealer_plus_base': (
        'Dealer adds a base',
        '庄家加底'),
    'opt.zhengzhou.dealer_plus_base.help': (
        'Wins, losses and kong payments involving the dealer add one base each.',
        '庄家参与的输赢和杠分各加一底。'),
    'variant.zhengzhou': (
        'Zhengzhou',
        '郑州'),
    'd.zz_off': (
        'the room has no "{name} doubles" option, so {name} does not double (ZZ-4).',
        '房间没有勾选“{name}加倍”，{name}不加倍（ZZ-4）。'),
    'd.zz_no_wildcards': (
        'a room without wildcards has no four wildcards (ZZ-3).',
        '不带混的房间没有四混（ZZ-3）。'),
    'd.zz_kong_bloom': (
        'kong bloom needs a win on a kong replacement (win_by kong_replacement) (C-14).',
        '杠上花要以杠上开花（win_by kong_replacement）胡牌（C-14）。'),
}


# -- the rules pages (/rules/<id>): one Rule per id of RULES.md, as the page shows it
# (the shape: webcalc/rulebook.py; the common rules: webcalc/web/rules_content.py)

ZZ = {"variant": "zhengzhou"}
ZZ0 = {"variant": "zhengzhou", "options": {"wildcard": False}}
PLAIN = "123m456p789s11122z"                     # 四副 + 一对, 和 2z (any variant)

RULES: tuple[Rule, ...] = (
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
)
