"""晋城's own words (jincheng), one home for them: ``TEXTS``, code → (English, Chinese),
the catalogue's entries this rule set owns (its label, its options' labels and help, its
payment lines, its rule-specific messages).
:class:`~webcalc.variants.jincheng.Jincheng` carries them as ``texts``; the
catalogue finds a code here through the registry (:func:`webcalc.variants.owned_text`).
Messages in Chinese are written here, not in messages.po (tests/test_messages.py holds both
languages complete)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
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

