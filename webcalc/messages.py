"""What the engine says, as values: :class:`Message` (a code, its parameters, a rule id).

The engine never writes sentences. It builds ``Message("bad_tile.not_a_tile", {"n": 4,
"char": "x"})`` and the edge renders it in the reader's language with
:func:`webcalc.catalogue.render` (English templates in the catalogue, Simplified Chinese in
``webcalc/translations/zh_Hans_CN/LC_MESSAGES/messages.po``, context = the code).

Parameters are plain values (numbers, strings, tile codes), :class:`~webcalc.tiles.Tile`
objects (templates print ``{tile.code}`` or ``{tile.chinese}``), lists (joined in the
reader's language) or nested messages (seat names, field names, meld kinds …).

The rendering (:func:`render`, :func:`localize`) is here too, below the values, so that
``str(message)`` needs no module above this one; :mod:`webcalc.catalogue` is its public name.
A message as JSON data (what the ledger stores) is :mod:`webcalc.message_json`.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .catalogue_texts import TEXTS  # code → English template

if TYPE_CHECKING:                   # Babel loads only when a Chinese text is first rendered
    from babel.support import NullTranslations


class Message:
    """One thing the engine says: ``code`` (a key of :data:`webcalc.catalogue.TEXTS`),
    ``params`` (the values the sentence names) and ``rule`` (the RULES id, or ``None``).

    ``str(message)`` is the Simplified Chinese rendering (the default language)."""

    __slots__ = ("code", "params", "rule")

    def __init__(self, code: str, params: Mapping[str, Any] | None = None,
                 rule: str | None = None, **kw: Any):
        self.code = code
        self.params = {**(params or {}), **kw}
        self.rule = rule

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Message) and (self.code, self.params, self.rule)
                == (other.code, other.params, other.rule))

    def __hash__(self) -> int:
        return hash((self.code, self.rule))

    def __repr__(self) -> str:
        return f"Message({self.code!r}, {self.params!r}, rule={self.rule!r})"

    def __str__(self) -> str:
        return str(render(self, "zh"))

    def __contains__(self, text: str) -> bool:
        return text in str(self)


def M(code: str, rule: str | None = None, **params: Any) -> Message:
    """Shorthand: ``M("seat", n=0)``."""
    return Message(code, params, rule)


def seat(n: int) -> Message:
    """The name of seat ``n`` (0 East … 3 North)."""
    return Message(f"seat.{n}")


class Joined:
    """A parameter that is several parts joined: by ``zh`` in Chinese, ``en`` in English
    (the arithmetic of a payment is joined by spaces or ``+`` in both)."""

    __slots__ = ("items", "zh", "en")

    def __init__(self, items: Iterable[Any], zh: str = "、", en: str = ", "):
        self.items = list(items)
        self.zh = zh
        self.en = en

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Joined) and (self.items, self.zh, self.en) == (
            other.items, other.zh, other.en)

    def __repr__(self) -> str:
        return f"Joined({self.items!r}, {self.zh!r}, {self.en!r})"


class Plain(list[Any]):
    """A list that holds no :class:`Message`: only strings, numbers, booleans, ``None``
    and lists and dicts of those (an analysis's readings, up to 200 of ~25 values each).
    :func:`webcalc.catalogue.localize` passes it on as it is instead of copying it through."""

    __slots__ = ()


# -- rendering (webcalc.catalogue re-exports it) -----------------------------------------------

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
LANGS = ("zh", "en")


@cache
def _translations(lang: str) -> NullTranslations | None:
    if lang == "en":
        return None
    from babel.support import Translations

    return Translations.load(str(TRANSLATIONS), ["zh_Hans_CN"], domain="messages")


def reload() -> None:
    """Forget the loaded ``.mo`` (tests that recompile it)."""
    _translations.cache_clear()
    _pieces.cache_clear()


class _Formatter(string.Formatter):
    def __init__(self, lang: str):
        self.lang = lang

    def format_field(self, value: Any, spec: str) -> str:
        return str(super().format_field(_param(value, self.lang), spec))


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


def _no_owner(code: str) -> tuple[str, str] | None:
    return None


#: where a code the shared catalogue does not hold is looked up: ``code → (English,
#: Chinese)`` or None. :mod:`webcalc.variants` installs one that reads each registered rule
#: set's own ``texts`` (its label, options, rule-specific messages) at each look-up.
_owned: Callable[[str], tuple[str, str] | None] = _no_owner


def own_texts(finder: Callable[[str], tuple[str, str] | None]) -> None:
    """Install ``finder``, the look-up of the codes outside :data:`TEXTS` (see ``_owned``)."""
    global _owned
    _owned = finder
    _pieces.cache_clear()


def template(code: str, lang: str) -> str:
    """The template of ``code`` in ``lang`` (``KeyError`` for an unknown code): the shared
    catalogue's, else the one of the registered rule set that owns ``code``."""
    text = TEXTS.get(code)
    if text is None:
        owned = _owned(code)
        if owned is None:
            raise KeyError(code)
        return owned[0] if lang == "en" else owned[1]
    tr = _translations(lang)
    if tr is None:
        return text
    return str(tr.pgettext(code, text))


@cache
def _pieces(code: str, lang: str) -> tuple[tuple[str, str | None, tuple[str, ...]], ...] | None:
    """The template of ``code`` in ``lang`` parsed once: ``(literal, name, attributes)`` per
    field (``{tile.code}``: ``("…", "tile", ("code",))``), or None for a template that needs
    more of :class:`string.Formatter` (a format spec, a conversion, an index; none does)."""
    out: list[tuple[str, str | None, tuple[str, ...]]] = []
    for literal, field, spec, conversion in string.Formatter().parse(template(code, lang)):
        if field is None:
            out.append((literal, None, ()))
            continue
        if spec or conversion or "[" in field or not field or field[0].isdigit():
            return None
        name, *attrs = field.split(".")
        out.append((literal, name, tuple(attrs)))
    return tuple(out)


def render(value: Any, lang: str = "zh") -> Any:
    """A :class:`Message` → its text in ``lang`` (``"zh"`` or ``"en"``); anything else is
    returned as it is.

    The same text as :class:`string.Formatter` with :func:`_param` on each field, from the
    template parsed once (:func:`_pieces`): every stored ledger entry renders its messages in
    both languages, and this is most of an import's CPU after the engine (docs/LEDGER.md
    "Limits")."""
    if not isinstance(value, Message):
        return value
    pieces = _pieces(value.code, lang)
    if pieces is None:
        return _Formatter(lang).vformat(template(value.code, lang), (), value.params)
    params = value.params
    out = []
    for literal, name, attrs in pieces:
        out.append(literal)
        if name is not None:
            field = params[name]
            for attr in attrs:
                field = getattr(field, attr)
            out.append(str(format(_param(field, lang), "")))
    return "".join(out)


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
