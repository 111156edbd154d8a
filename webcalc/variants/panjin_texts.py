"""盘锦's own words (panjin), one home for them: ``TEXTS``, code → (English, Chinese),
the catalogue's entries this rule set owns (its label, its options' labels and help, its
payment lines, its rule-specific messages), and ``RULES``, its rules pages (``/rules/<id>``).
:class:`~webcalc.variants.panjin.Panjin` carries them as ``texts`` and ``rules``; the
catalogue finds a code here through the registry (:func:`webcalc.variants.owned_text`).
Messages in Chinese are written here, not in messages.po (tests/test_messages.py holds both
languages complete)."""

from __future__ import annotations

from ..rulebook import Rule, ex

TEXTS: dict[str, tuple[str, str]] = {
    # the calculator's note under the seats where 死钢 gives everyone 加钢
    's.everyone_jiagang': (
        'Everyone jiagang: every seat counts as jiagang (PJ-11).',
        '死钢：每家都算加钢（PJ-11）。'),
    # what 盘锦 adds to the common rule C-8's page (webcalc/web/rules_content.py)
    'rules.C-8.note': (
        ' (Panjin limits this, PJ-2)',
        '（盘锦另有限制，见 PJ-2）'),
    'pj.no_kong_option': (
        'Melds: the room has no "Kongs" option, so there can be no kong (PJ-13).',
        '副露：房间没有勾选“杠”，不能有杠（PJ-13）。'),
    'pj.wild_in_meld': (
        'Melds: the wildcard {tile.code} cannot be in a chow, pung or kong (PJ-2).',
        '副露：混牌 {tile.chinese} 不能吃、碰、杠（PJ-2）。'),
    'pj.wild_in_kong': (
        'Melds: the wildcard {tile.code} cannot be in a chow, pung or kong (a wildcard kong needs the "Wildcard kong" option) (PJ-2).',
        '副露：混牌 {tile.chinese} 不能吃、碰、杠（混杠需勾选“混杠”）（PJ-2）。'),
    'pj.discard_wild': (
        'Win method: the winning tile {tile.code} is a wildcard; a wildcard is never discarded, so it cannot be won on a discard (PJ-2).',
        '胡法：和牌张 {tile.chinese} 是混牌，混牌不能打出，不能点炮胡混牌（PJ-2）。'),
    'pj.suits_want.3': (
        'all three suits',
        '三门齐全'),
    'pj.suits_want.2': (
        'exactly two suits (a dropped suit)',
        '恰好两门（断门）'),
    'pj.suits_want.1': (
        'one suit (one-suit hand)',
        '一门（清一色）'),
    'pj.suits': (
        'The real tiles (wildcards not counted) are in {n} suits; it should be {want}.',
        '真牌（不算混牌）有 {n} 门花色，应为{want}。'),
    'pj.no_terminal': (
        'No terminal or honour: a real 1, 9 or honour tile is needed (wildcards do not count).',
        '没有幺九：需要一张真的一、九或字牌（混牌不算）。'),
    'pj.no_triplet': (
        'No pung: a pung or kong of real tiles, or a pair of real honours as the eyes, is needed.',
        '没有刻：需要一组真牌的碰、杠、刻子，或一对真字牌做将。'),
    'pj.no_sequence': (
        'No chow: without the Piaohu option a chow is required.',
        '没有顺子：不勾选飘胡时必须有顺子。'),
    'pj.single_wait_piaohu': (
        'Down to one tile in hand (shoubayi), the hand can only win as piaohu.',
        '手把一（只剩一张手牌）只能以飘胡胡牌。'),
    'pj.wild_as_triplet': (
        'A wildcard can only stand in a chow or the eyes, never in a pung or kong.',
        '混牌只能当顺子或将，不能当刻子、杠。'),
    'pj.seven_pairs_off': (
        'Seven pairs can only win in a room with the "Seven pairs" option.',
        '七小对只在勾选“七小对”的房间能胡。'),
    's.kongs_off': (
        'the room has no "Kongs" option, so no kong is paid (PJ-13).',
        '房间没有勾选“杠”，不能有杠分（PJ-13）。'),
    's.kong_wild': (
        'kong {i} is a wildcard kong: only in Panjin with the "Wildcard kong" option (PJ-13).',
        '第 {i} 个杠是混杠：只有盘锦勾选“混杠”时才有（PJ-13）。'),
    's.jiagang_off': (
        'jiagang exists only in Panjin with the "Jiagang" or "Everyone jiagang" option (PJ-11).',
        '只有盘锦勾选“加钢”或“死钢”时才有加钢（PJ-11）。'),
    's.jiagang_partial': (
        'the room has "Everyone jiagang": every seat has jiagang, not only some (PJ-11).',
        '房间勾选了“死钢”，人人加钢，不能只给部分座位加钢（PJ-11）。'),
    's.duanmen_off': (
        'the dealer can drop a suit only in Panjin with the "Dealer may drop a suit" option (PJ-4).',
        '只有盘锦勾选“选断门”时庄家才能断门（PJ-4）。'),
    's.kong_discard_off': (
        'gangliulei exists only in Panjin with the "Discard after a kong" option (PJ-10).',
        '只有盘锦勾选“杠后炮”时才有杠流泪（PJ-10）。'),
    's.kong_discard_not_discard': (
        'gangliulei only applies to a win on a discard (PJ-10).',
        '杠流泪只在点炮胡牌时才有（PJ-10）。'),
    'pj.note_all': (
        'all three shares double (the discard double counts in full, PJ-12)',
        '三份都翻（点炮翻倍全算，PJ-12）'),
    'pj.note_own': (
        "only the discarder's own share doubles (PJ-12)",
        '只翻点炮者自己那一份（PJ-12）'),
    'pj.winner_jiagang': (
        "winner's jiagang",
        '胡家加钢'),
    'pj.loser_jiagang': (
        "loser's jiagang",
        '输家加钢'),
    'pj.own_share': (
        'own share',
        '自己的一份'),
    'pj.share_of': (
        "{seat}'s share",
        '代{seat}的一份'),
    'pj.discard_line': (
        'The discarder pays for all three; {whose}: {formula}',
        '点炮包三家，{whose}：{formula}'),
    'opt.panjin.wildcard_mode': (
        'Wildcards',
        '混牌'),
    'opt.panjin.wildcard_mode.help': (
        'None: no wildcards; next: the tile after the indicator; both: the tiles before and after it.',
        '不带混；混牌：查混牌的下一张；游戏混：查混牌的上一张和下一张。'),
    'opt.panjin.jiagang': (
        'Jiagang',
        '加钢'),
    'opt.panjin.jiagang.help': (
        'Before the hand a player may choose jiagang, doubling what they win or lose.',
        '开局前玩家可选加钢，胜负翻倍。'),
    'opt.panjin.all_jiagang': (
        'Everyone jiagang',
        '死钢'),
    'opt.panjin.all_jiagang.help': (
        'Every player has jiagang.',
        '默认所有玩家都加钢。'),
    'opt.panjin.duanmen': (
        'Dealer may drop a suit',
        '选断门'),
    'opt.panjin.duanmen.help': (
        'The dealer may drop a suit; then wins use exactly two suits.',
        '庄家可选断门，之后只能两门胡牌。'),
    'opt.panjin.qionghu': (
        'Qionghu',
        '穷胡'),
    'opt.panjin.qionghu.help': (
        'With wildcards, a win holding no wildcard doubles.',
        '带混时，胡牌手里没有混牌则翻倍。'),
    'opt.panjin.jihu': (
        'Jihu',
        '鸡胡'),
    'opt.panjin.jihu.help': (
        'A win holding the 1 of bamboos doubles; all four of them (qunji) ×4.',
        '胡牌时有幺鸡（一条）翻倍，四个幺鸡为群鸡 ×4。'),
    'opt.panjin.kong': (
        'Kongs',
        '杠'),
    'opt.panjin.kong.help': (
        'Kongs may be made and are paid for.',
        '可以杠牌并计算杠分。'),
    'opt.panjin.no_dealer_repeat': (
        'Dealer always passes',
        '不连庄'),
    'opt.panjin.no_dealer_repeat.help': (
        'The deal passes even when the dealer wins or the game is drawn (the deal only, not the score).',
        '庄家胡牌或流局也轮庄（只影响坐庄，不影响分数）。'),
    'opt.panjin.piaohu': (
        'Piaohu',
        '飘胡'),
    'opt.panjin.piaohu.help': (
        'A win of all pungs or kongs is allowed (×2); off, a chow is required.',
        '可以全是刻子或杠胡牌（×2）；不勾选则必须有顺子。'),
    'opt.panjin.one_suit': (
        'One suit',
        '清一色'),
    'opt.panjin.one_suit.help': (
        'A win in one suit is allowed (×2); honours are not a suit.',
        '可以一色胡牌（×2），字牌不算色。'),
    'opt.panjin.no_pass_win': (
        'No win after a pass',
        '禁止顺胡'),
    'opt.panjin.no_pass_win.help': (
        'After passing a win, no discard win until your next turn (play only, not the score).',
        '漏胡后本轮不能接炮（只影响打牌，不影响分数）。'),
    'opt.panjin.seven_pairs': (
        'Seven pairs',
        '七小对'),
    'opt.panjin.seven_pairs.help': (
        'Seven pairs may win (×2).',
        '可以胡七小对（×2）。'),
    'opt.panjin.kong_discard': (
        'Discard after a kong',
        '杠后炮'),
    'opt.panjin.kong_discard.help': (
        'The first discard after a kong that deals in counts as gangliulei (×2).',
        '杠后打出的第一张牌点炮，算杠流泪（×2）。'),
    'opt.panjin.kong_bloom': (
        'Kong bloom',
        '杠开'),
    'opt.panjin.kong_bloom.help': (
        'A win on a kong replacement counts a fan (×2).',
        '杠上开花算番（×2）。'),
    'opt.panjin.jiahu': (
        'Jiahu',
        '夹胡'),
    'opt.panjin.jiahu.help': (
        'A pure middle-tile wait counts a fan (×2); two-sided and single waits do not.',
        '纯夹胡牌算番（×2）；三七和单吊不算。'),
    'opt.panjin.wildcard_kong': (
        'Wildcard kong',
        '混杠'),
    'opt.panjin.wildcard_kong.help': (
        'Four identical wildcards may be declared as a kong; each player pays 64 bases.',
        '四张相同的混牌可以杠出，每家付 64 底。'),
    'opt.panjin.discard_doubles_all': (
        'Discard doubles all three',
        '点炮三家都翻倍'),
    'opt.panjin.discard_doubles_all.help': (
        "This site's other reading: the discard ×2 applies to all three shares, not only the discarder's own.",
        '本站的另一种读法：点炮 ×2 算在三份上，而不只是点炮者自己那份。'),
    'opt.panjin.choice.none': (
        'none',
        '不带混'),
    'opt.panjin.choice.next': (
        'next',
        '混牌'),
    'opt.panjin.choice.both': (
        'both',
        '游戏混'),
    'variant.panjin': (
        'Panjin',
        '盘锦'),
    'd.pj_off': (
        'the room has no "{option}" option, so there is no {fan} (PJ-10).',
        '房间没有勾选“{option}”，没有{fan}（PJ-10）。'),
    'd.pj_no_wildcards': (
        'a room without wildcards has no qionghu (PJ-10).',
        '不带混的房间没有穷胡（PJ-10）。'),
    'd.pj_exclusive': (
        '{a} and {b} cannot both be declared (PJ-10).',
        '{a}和{b}不能同时有（PJ-10）。'),
}


# -- the rules pages (/rules/<id>): one Rule per id of RULES.md, as the page shows it
# (the shape: webcalc/rulebook.py; the common rules: webcalc/web/rules_content.py)

PJ0 = {"variant": "panjin", "options": {"wildcard_mode": "none"}}

RULES: tuple[Rule, ...] = (
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
)
