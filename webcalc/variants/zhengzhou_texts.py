"""郑州's own words (zhengzhou), one home for them: ``TEXTS``, code → (English, Chinese),
the catalogue's entries this rule set owns (its label, its options' labels and help, its
payment lines, its rule-specific messages).
:class:`~webcalc.variants.zhengzhou.Zhengzhou` carries them as ``texts``; the
catalogue finds a code here through the registry (:func:`webcalc.variants.owned_text`).
Messages in Chinese are written here, not in messages.po (tests/test_messages.py holds both
languages complete)."""

from __future__ import annotations

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

