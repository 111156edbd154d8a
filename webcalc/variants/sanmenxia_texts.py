"""三门峡's own words (sanmenxia), one home for them: ``TEXTS``, code → (English, Chinese),
the catalogue's entries this rule set owns (its label, its options' labels and help, its
payment lines, its rule-specific messages), and ``RULES``, its rules pages (``/rules/<id>``).
:class:`~webcalc.variants.sanmenxia.Sanmenxia` carries them as ``texts`` and ``rules``; the
catalogue finds a code here through the registry (:func:`webcalc.variants.owned_text`).
Messages in Chinese are written here, not in messages.po (tests/test_messages.py holds both
languages complete)."""

from __future__ import annotations

from ..rulebook import Rule, ex

TEXTS: dict[str, tuple[str, str]] = {
    # the calculator's help under the winner's turns (where a room takes them)
    'history.help': (
        "The winner's turns after their last meld, oldest first, before the winning draw: each the tile drawn, then the tile discarded (7z7z 1m2m). They count biao (SMX-5).",
        '胡牌者最后一次吃碰杠之后、和牌那张之前的每一手，从早到晚：先写摸到的牌，再写打出的牌（7z7z 1m2m，或 摸中打中）。按这些手数表（SMX-5）。'),
    's.no_pao_option': (
        'the room has no pao option, so no pao may be bet (SMX-6, C-15).',
        '房间没有勾选带跑，不能下跑（SMX-6、C-15）。'),
    's.biao_range': (
        'should be a whole number from 0 to {n} (SMX-5).',
        '应为 0 到 {n} 的整数（SMX-5）。'),
    's.biao_off': (
        'biao exists only in Sanmenxia with wildcards (SMX-4, SMX-5).',
        '只有带混的三门峡才有表（SMX-4、SMX-5）。'),
    'smx.win_doubling': (
        'base {base} ×(1+pao {pw}+pao {pp}) ×2^{b} biao',
        '底{base} ×(1+跑{pw}+跑{pp}) ×2^{b}表'),
    'smx.win_adding': (
        'base {base} ×2^{b} biao + base {base} ×(pao {pw}+pao {pp})',
        '底{base} ×2^{b}表 + 底{base} ×(跑{pw}+跑{pp})'),
    'smx.kong_pao': (
        'base {base} ×(1+pao {pk}+pao {pp})',
        '底{base} ×(1+跑{pk}+跑{pp})'),
    'opt.sanmenxia.with_honors': (
        'With honours',
        '带风'),
    'opt.sanmenxia.with_honors.help': (
        'With the winds and dragons: 136 tiles; without, only the 108 suit tiles.',
        '带东南西北中发白，共 136 张；不带则只用万筒条 108 张。'),
    'opt.sanmenxia.wildcard': (
        'Wildcards',
        '带混'),
    'opt.sanmenxia.wildcard.help': (
        'The tile after the indicator is the wildcard; it stands for any tile.',
        '混皮的下一张为混牌，可当任意牌。'),
    'opt.sanmenxia.pao': (
        'Pao bets',
        '带跑'),
    'opt.sanmenxia.pao.help': (
        'Players may bet pao before the hand; a win adds the pao.',
        '开局前可下跑，胡牌时按跑加分。'),
    'opt.sanmenxia.pao_max': (
        'Pao limit',
        '跑的上限'),
    'opt.sanmenxia.pao_max.help': (
        'The most pao each player may bet.',
        '每人最多下几跑。'),
    'opt.sanmenxia.pao_doubles_with_biao': (
        'Pao doubles with biao',
        '跑随表翻倍'),
    'opt.sanmenxia.pao_doubles_with_biao.help': (
        'On: base×(1+pao)×2^biao; off: base×2^biao, then the pao added.',
        '开：底×(1+跑)×2^表；关：底×2^表 再加跑分。'),
    'opt.sanmenxia.kong_pao': (
        'Kongs pay pao',
        '杠带跑'),
    'opt.sanmenxia.kong_pao.help': (
        "Kong payments add both players' pao too.",
        '杠分也加上双方的跑。'),
    'variant.sanmenxia': (
        'Sanmenxia',
        '三门峡'),
    'd.smx_no_wildcards': (
        'Sanmenxia without wildcards has no biao (SMX-4, SMX-5).',
        '不带混的三门峡没有表（SMX-4、SMX-5）。'),
    'd.smx_biao_discards': (
        "the declared biao already counts the wildcard discards, so the settlement's biao_discards should be 0 (SMX-5).",
        '声明的表已含打混的次数，结算里的 biao_discards 应为 0（SMX-5）。'),
    'history.not_here': (
        "History (history): only Sanmenxia with wildcards on counts biao from the winner's turns (SMX-5).",
        '历史（history）：只有带混的三门峡才按胡牌者的出牌历史数表（SMX-5）。'),
    'history.needs_win': (
        'History (history) needs the winning hand: a complete hand and its winning tile (SMX-5).',
        '历史（history）需要胡牌的手牌：一手和牌并给出和牌张（SMX-5）。'),
    'history.draw_missing': (
        'the drawn {tile.code} is neither in the hand after this turn nor its discard, so the hand before it cannot be rebuilt (SMX-5).',
        '摸到的{tile.chinese}（{tile.code}）既不在这一手之后的手牌里，也不是这一手打出的牌，无法倒推这一手之前的手牌（SMX-5）。'),
    'history.disagrees': (
        'The history counts {derived} biao discards, but settlement.biao_discards says {typed} (SMX-5).',
        '按出牌历史数出 {derived} 次打混，但 settlement.biao_discards 填的是 {typed}（SMX-5）。'),
}


# -- the rules pages (/rules/<id>): one Rule per id of RULES.md, as the page shows it
# (the shape: webcalc/rulebook.py; the common rules: webcalc/web/rules_content.py)

SMX = {"variant": "sanmenxia"}
PLAIN = "123m456p789s11122z"                     # 四副 + 一对, 和 2z (any variant)

RULES: tuple[Rule, ...] = (
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
)
