"""The shape of a rules page (``/rules/<id>``): a :class:`Rule` per decision id of
``docs/RULES.md`` with its worked :class:`Example` s, as data in Chinese and English.

The common rules (C-…) are ``webcalc/web/rules_content.py``; each rule set's own are its
``webcalc/variants/<name>_texts.py`` (``RULES``, carried as ``Variant.rules``). An example
is an analysis request in API form plus what its page shows (``says_zh``/``says_en``) and
the same fact as data (``expect``), which ``tests/test_web_rules.py`` checks against the
analysis API and the rendered page (the keys it knows are listed in rules_content.py).
Nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Example:
    """A worked example: an analysis request (API form; ``melds`` as the page's text) and
    what it shows."""

    request: dict[str, Any]
    says_zh: str
    says_en: str
    expect: dict[str, Any]

    @property
    def variant(self) -> str:
        return str(self.request["variant"])


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


def ex(request: dict[str, Any], says_zh: str, says_en: str, **expect: Any) -> Example:
    return Example(request, says_zh, says_en, expect)
