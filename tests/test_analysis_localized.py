"""``Analysis.localized`` and ``to_json`` leave the fields that never hold a message
(:data:`webcalc.analysis.MESSAGE_FREE`) as they are: over the golden corpus's varied analyze
bodies (every rule set, 13 and 14 tiles, wildcards, melds, settlements) those fields hold no
:class:`~webcalc.messages.Message`, and the localized analysis equals every field rendered."""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest

from tests.golden import corpus
from tests.scale import scaled
from webcalc.analysis import MESSAGE_FREE, Analysis, analyze
from webcalc.errors import InputError
from webcalc.messages import Message, Plain, localize


def _messages(value) -> int:
    if isinstance(value, Message):
        return 1
    if isinstance(value, dict):
        return sum(_messages(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(_messages(v) for v in value)
    return 0


def _analyses(n: int) -> list[Analysis]:
    rng = random.Random(3849)
    out = []
    while len(out) < n:
        try:
            out.append(analyze(corpus._analyze_body(rng)))
        except InputError:
            continue
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_localized_is_every_field_rendered(lang):
    analyses = _analyses(scaled(150, 40))
    assert any(a.efficiency for a in analyses) and any(a.useful for a in analyses)
    assert any(_messages(a.reasons) or _messages(a.settlement) for a in analyses)
    for a in analyses:
        assert not any(_messages(getattr(a, name)) for name in MESSAGE_FREE)
        every = replace(a, **{f.name: localize(getattr(a, f.name), lang) for f in fields(a)})
        got = a.localized(lambda v: localize(v, lang))
        assert got == every
        assert localize(a.to_json(), lang) == localize(every.to_json(), lang)
        body = a.to_json()
        assert all(isinstance(body[k], Plain) for k in ("discards", "efficiency", "useful")
                   if k in body)
