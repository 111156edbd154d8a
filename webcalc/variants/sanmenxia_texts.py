"""三门峡's own words (sanmenxia), one home for them: ``TEXTS``, code → (English, Chinese),
the catalogue's entries this rule set owns (its label, its options' labels and help, its
payment lines, its rule-specific messages).
:class:`~webcalc.variants.sanmenxia.Sanmenxia` carries them as ``texts``; the
catalogue finds a code here through the registry (:func:`webcalc.variants.owned_text`).
Messages in Chinese are written here, not in messages.po (tests/test_messages.py holds both
languages complete)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
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

