"""The one catalogue that turns the engine's :class:`~webcalc.messages.Message` values into
text: English templates here (``TEXTS``, code → template), Simplified Chinese in the page's
own ``messages.po`` (``msgctxt`` = the code, ``msgid`` = the English template), compiled to
the same ``messages.mo`` Flask-Babel reads. The web layer calls :func:`render` /
:func:`localize` with the request's language; ``str(message)`` renders Chinese.

Templates use :meth:`str.format` fields: ``{n}``, ``{tile.code}``, ``{tile.chinese}``; a
nested message or list parameter is rendered first (lists joined with ``、`` or ``, ``).
Extraction: ``pybabel extract -k M_:1c,2`` (see ``webcalc/translations/README.md``).
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path
from typing import Any

from .messages import Joined, Message, Plain

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
LANGS = ("zh", "en")


from .catalogue_texts import TEXTS  # noqa: E402  (code → English template)


@cache
def _translations(lang: str):
    if lang == "en":
        return None
    from babel.support import Translations

    return Translations.load(str(TRANSLATIONS), ["zh_Hans_CN"], domain="messages")


def reload() -> None:
    """Forget the loaded ``.mo`` (tests that recompile it)."""
    _translations.cache_clear()


class _Formatter(string.Formatter):
    def __init__(self, lang: str):
        self.lang = lang

    def format_field(self, value: Any, spec: str) -> str:
        return super().format_field(_param(value, self.lang), spec)


def _param(value: Any, lang: str) -> Any:
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, Joined):
        sep = value.en if lang == "en" else value.zh
        return sep.join(str(_param(v, lang)) for v in value.items)
    if isinstance(value, (list, tuple)):
        sep = ", " if lang == "en" else "、"
        return sep.join(str(_param(v, lang)) for v in value)
    return value


def template(code: str, lang: str) -> str:
    """The template of ``code`` in ``lang`` (``KeyError`` for an unknown code)."""
    text = TEXTS[code]
    tr = _translations(lang)
    if tr is None:
        return text
    return tr.pgettext(code, text)


def render(value: Any, lang: str = "zh") -> Any:
    """A :class:`Message` → its text in ``lang`` (``"zh"`` or ``"en"``); anything else is
    returned as it is."""
    if not isinstance(value, Message):
        return value
    return _Formatter(lang).vformat(template(value.code, lang), (), value.params)


# values returned as they are, not looked into (exact classes: a subclass may be a Message;
# a Plain list holds none)
_PLAIN = frozenset((str, int, float, bool, type(None), Plain))


def localize(value: Any, lang: str = "zh") -> Any:
    """A copy of ``value`` (dicts, lists, tuples) with every :class:`Message` rendered."""
    # an analysis holds thousands of plain strings, numbers and booleans (the readings):
    # they are copied over without a call each
    plain = _PLAIN
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, dict):
        return {k: v if v.__class__ in plain else localize(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [v if v.__class__ in plain else localize(v, lang) for v in value]
    if isinstance(value, tuple):
        return tuple(localize(v, lang) for v in value)
    return value
