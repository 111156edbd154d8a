"""盘锦's own words (panjin), one home for them: ``TEXTS``, code → (English, Chinese),
the catalogue's entries this rule set owns (its label, its options' labels and help, its
payment lines, its rule-specific messages).
:class:`~webcalc.variants.panjin.Panjin` carries them as ``texts``; the
catalogue finds a code here through the registry (:func:`webcalc.variants.owned_text`).
Messages in Chinese are written here, not in messages.po (tests/test_messages.py holds both
languages complete)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
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

