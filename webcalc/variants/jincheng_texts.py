"""晋城's own words (jincheng), one home for them: ``TEXTS``, code → (English, Chinese),
the catalogue's entries this rule set owns (its label, its options' labels and help, its
payment lines, its rule-specific messages), and ``RULES``, its rules pages (``/rules/<id>``).
:class:`~webcalc.variants.jincheng.Jincheng` carries them as ``texts`` and ``rules``; the
catalogue finds a code here through the registry (:func:`webcalc.variants.owned_text`).
Messages in Chinese are written here, not in messages.po (tests/test_messages.py holds both
languages complete)."""

from __future__ import annotations

from ..rulebook import Rule, ex

TEXTS: dict[str, tuple[str, str]] = {
    # the calculator's settlement form, where the discarder's 上架 changes the money
    's.dready_choose': (
        'Had the seat that discarded it declared ready (shangjia)? Choose: it changes the payment (JC-5: ×2 when not).',
        '点炮的一家上架了没有？请选：它决定付多少（JC-5：没上架点炮付双倍）。'),
    'meld.no_taken': (
        "Melds: {variant} has no shi or qiang ({meld} {tile.code}; only Jincheng's thirteen orphans may, JC-10).",
        '副露：{variant}麻将没有拾牌、搶牌（{meld}{tile.chinese}；只有晋城的十三幺可以，JC-10）。'),
    'jc.no_chow': (
        "Melds: Jincheng has no chow; another player's discard can only be taken as shi (JC-2, JC-10).",
        '副露：晋城麻将不能吃牌，别家打的牌只能拾（JC-2、JC-10）。'),
    'jc.taken_not_orphan': (
        'Melds: {meld} {tile.code} is not valid; only a 1, a 9 or an honour can be taken as shi or qiang (JC-10).',
        '副露：{meld}{tile.chinese}（{tile.code}）不成立，只能拾、搶幺九牌或字牌（JC-10）。'),
    'jc.one_qiang': (
        'Melds: only one qiang is allowed (JC-10).',
        '副露：只能搶一次（JC-10）。'),
    'jc.taken_twice': (
        'Melds: {tile.code} is taken twice by shi or qiang; thirteen orphans needs one of each, and a taken tile cannot be the eyes (JC-10).',
        '副露：{tile.chinese}（{tile.code}）拾、搶了两张；十三幺每种幺牌只要一张，拾来的牌不能做将（JC-10）。'),
    'jc.taken_with_meld': (
        'Melds: a hand with shi or qiang tiles can only be thirteen orphans, so it cannot also have a {meld} ({tiles}{at}) (JC-10).',
        '副露：有拾、搶的牌只能做十三幺，不能同时有{meld}（{meld}{tiles}{at}）（JC-10）。'),
    'jc.no_indicator': (
        'Indicator: Jincheng has no wildcards, so no indicator may be given (JC-1).',
        '混皮：晋城麻将没有混牌，不能给指示牌（JC-1）。'),
    's.not_ready': (
        '{seat} is not ready (shangjia), so cannot win (JC-3).',
        '{seat}没有上架，不能胡牌（JC-3）。'),
    's.follow_off': (
        'only Jincheng has qianbao (JC-7).',
        '只有晋城有前包（JC-7）。'),
    'jc.unready_discard': (
        'discard while not ready',
        '未上架点胡'),
    'jc.discard_win': (
        'win on a discard',
        '点胡'),
    'jc.win': (
        'base {base} {factors}',
        '底{base} {factors}'),
    'jc.dealer_pays': (
        '{what}: the dealer {seat} pays base {base} ×{n}',
        '{what}：庄家{seat}付 底{base} ×{n}'),
    'jc.follow_dealer': (
        'Qianbao (following the dealer)',
        '前包'),
    'jc.draw_penalty': (
        'Houbao (drawn game)',
        '荒庄后包'),
    'opt.jincheng.draw_penalty': (
        'Houbao',
        '后包'),
    'opt.jincheng.draw_penalty.help': (
        'In a drawn game the dealer pays each other player this many bases (some rule texts say 1).',
        '荒庄时庄家付给每位闲家的底数（有的规则原文说 1 底）。'),
    'variant.jincheng': (
        'Jincheng',
        '晋城'),
}


# -- the rules pages (/rules/<id>): one Rule per id of RULES.md, as the page shows it
# (the shape: webcalc/rulebook.py; the common rules: webcalc/web/rules_content.py)

JC = {"variant": "jincheng"}
PLAIN = "123m456p789s11122z"                     # 四副 + 一对, 和 2z (any variant)

RULES: tuple[Rule, ...] = (
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
