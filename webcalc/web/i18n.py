"""Languages: Simplified Chinese (the default) and English, by Flask-Babel.

``?lang=zh`` or ``?lang=en`` picks one and stays in the page's URL and links; any other value is
ignored. Without it, the browser's Accept-Language decides, and Chinese is the fallback. The
catalog folder is ``webcalc/translations/zh_Hans_CN`` (Babel ignores a ``zh_CN`` folder); the
msgids are English. Messages made by the engine (rule reasons, input errors, payment details,
option labels, fan names) are :class:`~webcalc.messages.Message` values; :func:`localized`
renders them in this response's language through :mod:`webcalc.catalogue` (the same
``messages.mo``, ``msgctxt`` = the message code).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, MutableMapping
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import flask_babel
from flask import Flask, current_app, g, has_app_context, has_request_context, request
from flask_babel import Babel, Domain, get_locale, get_translations
from flask_babel.speaklater import LazyString
from jinja2.bccache import Bucket, BytecodeCache
from jinja2.ext import Extension
from jinja2.lexer import Token
from markupsafe import Markup, escape

if TYPE_CHECKING:
    from flask import Request
    from flask.ctx import AppContext, RequestContext
    from werkzeug.local import LocalProxy

from ..catalogue import localize
from ..errors import InputError
from ..ledger.points import is_free
from ..variants import VARIANTS

_cv_app: ContextVar[AppContext] | None
_cv_request: ContextVar[RequestContext] | None
try:  # the context variables behind ``g``, ``current_app`` and ``request`` (Flask 2.3 on)
    from flask.globals import _cv_app, _cv_request
except ImportError:  # pragma: no cover - another Flask: the proxies
    _cv_app = _cv_request = None

#: ``?lang=`` value → Babel locale
LANGS = {"zh": "zh_Hans_CN", "en": "en"}
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"

babel = Babel()


def lang_param() -> str | None:
    """The whitelisted ``?lang=`` of this request, else ``None``. Read once per request (kept
    on the request: a page asks for it in each of its half-dozen links, at 3-6 µs a time
    through the ``request`` proxy and its query arguments).

    Raises:
        RuntimeError: outside a request.
    """
    req = _request()
    try:
        return req.__dict__["_webcalc_lang_param"]
    except KeyError:
        pass
    value = req.args.get("lang")
    value = req.__dict__["_webcalc_lang_param"] = value if value in LANGS else None
    return value


def _request() -> Request:
    """This request, through Flask's context variable rather than the proxy.

    Raises:
        RuntimeError: outside a request.
    """
    ctx = _cv_request.get(None) if _cv_request is not None else None
    return (ctx.request if ctx is not None
            else cast("LocalProxy[Request]", request)._get_current_object())


def select_locale() -> str:
    """The request's Babel locale: ``?lang=``, else the best of Accept-Language. Chosen once
    per request and kept on it: :func:`current_lang` asks first (reading the room), then
    Flask-Babel's ``get_locale`` when the catalogue is loaded; matching a browser's
    Accept-Language (``zh-CN,zh;q=0.9,en;q=0.8``) is about 20 µs each time.

    Raises:
        RuntimeError: outside a request.
    """
    req = _request()
    try:
        return req.__dict__["_webcalc_locale"]
    except KeyError:
        pass
    lang = lang_param()
    if lang:
        locale = LANGS[lang]
    else:
        best = req.accept_languages.best_match(["zh_CN", "zh_TW", "zh", "en"])
        locale = "en" if best == "en" else LANGS["zh"]
    req.__dict__["_webcalc_locale"] = locale
    return locale


class RequestDomain(Domain):
    """Flask-Babel's message domain, with the request's catalogue looked up once per request
    (kept on ``g``, as Flask-Babel keeps the locale) instead of once per message: every
    ``gettext`` and every lazy string shown costs a dictionary look-up, not about 17 µs."""

    def get_translations(self):
        if not has_app_context():
            return super().get_translations()
        translations = g.get("_webcalc_translations")
        if translations is None:
            translations = g._webcalc_translations = self._catalogue()
        return translations

    def _catalogue(self):
        """The catalogue Flask-Babel's ``get_translations`` gives, taken from Flask-Babel's
        own cache (``self.cache``, keyed as it keys it: the locale's identifier and the
        domain) by the locale :func:`select_locale` chose for this request, instead of
        through Flask-Babel's three context look-ups and ``babel.Locale.parse`` of the same
        identifier: the first look-up of a page, about 30 µs calm, which an API answer
        never makes (its messages are few). A miss (a locale's first request in this
        process) and an app context without a request go through Flask-Babel, which fills
        its cache. Not a cache of ours: nothing is kept here."""
        if has_request_context():
            translations = self.cache.get((select_locale(), self.domain[0]))
            if translations is not None:
                return translations
        return super().get_translations()


def _request_i18n() -> tuple:
    """``(translations, lang)`` of this request, looked up once (Flask-Babel's own lookup
    costs about 17 µs a call, and a page makes hundreds). Kept on ``g``, as
    Flask-Babel keeps the request's locale; read through Flask's app-context variable (what
    ``g`` resolves through) rather than the proxy, a third of the cost.

    With :class:`RequestDomain` and :func:`request_gettext` this buys 15.3 % of page CPU on
    fresh hands (range 10.8-20.1 % over 7 repeats: ``python bench/machinery.py --hands 60
    --repeats 7``, 2026-12-06, commit f324730, load 12-16; bench/RESULTS.md "Machinery
    (issue 37.2)").

    Raises:
        RuntimeError: outside an app context.
    """
    ctx = _cv_app.get(None) if _cv_app is not None else None
    if ctx is None:
        store = g._get_current_object()     # RuntimeError outside an app context
    else:
        store = ctx.g
    state = store.__dict__.get("_webcalc_i18n")
    if state is None:
        # the locale as select_locale chose it (Flask-Babel's get_locale parses it again)
        locale = select_locale() if has_request_context() else str(get_locale())
        state = store._webcalc_i18n = (get_translations(), "en" if locale == "en" else "zh")
    return state


#: the numbers :func:`app_key` gives, one per app, never given twice in a process
_APP_KEYS = itertools.count(1)


def app_key(app: Flask) -> int:
    """The number that stands for ``app`` in the drawing caches' keys (the spliced pieces,
    the room's sections, the tiles): given once and kept in ``app.extensions``, so no other
    app of this process ever has it. Not ``id(app)``: an id is reused once its app is
    garbage-collected, and a new app (a test's) then read the old one's copies."""
    key = app.extensions.get("webcalc_cache_key")
    if key is None:
        key = app.extensions.setdefault("webcalc_cache_key", next(_APP_KEYS))
    return key


def current_app_key() -> int:
    """:func:`app_key` of the current app."""
    return app_key(cast("LocalProxy[Flask]", current_app)._get_current_object())


def app_lang() -> tuple:
    """``(the current app's key, "zh" or "en")``: the key of the drawing caches
    (:mod:`webcalc.web.templating`, :func:`app_key`), in one context look-up.

    Raises:
        RuntimeError: outside an app context.
    """
    ctx = _cv_app.get(None) if _cv_app is not None else None
    if ctx is None:
        return current_app_key(), _request_i18n()[1]
    return app_key(ctx.app), _request_i18n()[1]


def _lazy_text(string: str, **variables) -> str:
    """``flask_babel.gettext`` with the request's catalogue looked up once per request."""
    if not has_app_context():
        return flask_babel.gettext(string, **variables)
    text = _request_i18n()[0].ugettext(string)
    return text % variables if variables else text


def gettext(string: str, **variables) -> str:
    """``flask_babel.gettext`` (the text, ``%`` the variables when given), with the request's
    catalogue looked up once per request instead of through Flask-Babel's three context
    look-ups per call: the calculator page's room, form and tap area read with these."""
    return _lazy_text(string, **variables)


def lazy_gettext(string: str, **variables) -> LazyString:
    """``flask_babel.lazy_gettext`` (a message translated each time it is shown), shown in a
    dictionary look-up instead of Flask-Babel's three context look-ups: the page shows about
    fifty labels, options and seat names."""
    return LazyString(_lazy_text, string, **variables)


def current_lang() -> str:
    """``"zh"`` or ``"en"``: the language this response is in. Chosen as Flask-Babel chooses
    it (:func:`select_locale`) without loading the catalogue, which an answer that shows no
    text (a poll's 304) never needs."""
    try:
        ctx = _cv_app.get(None) if _cv_app is not None else None
        store = g._get_current_object() if ctx is None else ctx.g
    except RuntimeError:  # outside an app context: the default
        return "zh"
    state = store.__dict__.get("_webcalc_i18n")
    if state is not None:
        return state[1]
    lang = store.__dict__.get("_webcalc_lang")
    if lang is None:
        try:
            lang = "en" if select_locale() == "en" else "zh"
        except RuntimeError:  # an app context without a request: Flask-Babel's default
            return _request_i18n()[1]
        store._webcalc_lang = lang
    return lang


def template_gettext(string: str, **variables) -> Markup:
    """The templates' ``_()``: what Jinja's newstyle gettext does under autoescape
    (translate, mark safe, then ``%`` with the escaped variables — always, so ``%%`` is
    ``%``), with the request's catalogue looked up once."""
    return _gettext(_request_i18n()[0], string, variables)


def request_gettext():
    """:func:`template_gettext` bound to this request's catalogue: a page passes it to its
    template as ``_`` (the templates' hundred-odd messages then skip the per-call lookup)."""
    translations = _request_i18n()[0]

    def gettext(string: str, **variables) -> Markup:
        return _gettext(translations, string, variables)

    return gettext


def _gettext(translations, string: str, variables: dict) -> Markup:
    """``string`` translated by ``translations``, marked safe, then ``%`` with the escaped
    ``variables``. (Caches of the results per catalogue, ``_constant_text`` and
    ``_variable_text``, bought 5.0 % of page CPU on fresh hands and went: issue 37.2,
    bench/RESULTS.md "Machinery (issue 37.2)".) Without variables and without a ``%`` the
    ``%`` would give the text back as it is, so it is skipped (a page's messages are mostly
    such: the ``%`` was 3.5 µs of each)."""
    text = translations.ugettext(string)
    if not variables and "%" not in text:
        return Markup(text)
    return fill(text, variables)


#: a ``%`` that is not ``%(name)s`` or ``%%`` (a conversion :func:`fill` leaves to Markup)
_OTHER_CONVERSION = re.compile(r"%(?!\(\w+\)s|%)")


def fill(text: str, variables: dict) -> Markup:
    """``Markup(text) % variables``: the text marked safe, each variable escaped. A message's
    conversions are ``%(name)s`` (and ``%%``), for which the variables are escaped first and
    formatted as plain text, the same string in half the time of Markup's per-variable
    escaping wrappers (about 3 µs a message, some thirty a page); any other conversion
    goes through Markup's ``%``."""
    if _OTHER_CONVERSION.search(text) is not None or not isinstance(variables, dict):
        return Markup(text) % variables
    return Markup(text % {key: escape(value) for key, value in variables.items()})


# -- templates compiled once per language, their messages folded in --------------------------
# A template's ``{{ _("literal") }}`` is the same text on every page of a language, so it is
# looked up when the template is compiled, not when it is rendered: each template is compiled
# once per language (:class:`LanguageCache` keys the environment's template cache, and
# :class:`LanguageCode` a bytecode cache, by the language as well as the name), and
# :class:`FoldedMessages` writes each literal message of that language into the code
# (docs/ARCHITECTURE.md, "Rendering"). The bytes are the runtime ``_()``'s: the text is
# :func:`_gettext`'s, with the catalogue of the language compiled for.


def _compiling_for(environment) -> tuple | None:
    """``(translations, lang)`` a template loaded now is compiled and cached for, or ``None``
    (no app context, or an environment whose template cache is not per language: a
    ``from_string`` template and an overlay compile the runtime ``_()`` calls)."""
    if not isinstance(environment.cache, LanguageCache):
        return None
    try:
        return _request_i18n()
    except RuntimeError:
        return None


class LanguageCache(MutableMapping):
    """The Jinja environment's template cache (``environment.cache``), keyed by the language of
    the request as well as by Jinja's key: a template is compiled, and its messages folded,
    once per language. Outside an app context the key's language is ``None`` (a template
    compiled without folding)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.capacity = getattr(inner, "capacity", 400)    # what Environment.overlay copies

    @staticmethod
    def _lang() -> str | None:
        try:
            return _request_i18n()[1]
        except RuntimeError:
            return None

    def get(self, key, default=None):
        return self.inner.get((self._lang(), key), default)

    def __getitem__(self, key):
        return self.inner[(self._lang(), key)]

    def __setitem__(self, key, value) -> None:
        self.inner[(self._lang(), key)] = value

    def __contains__(self, key) -> bool:
        return (self._lang(), key) in self.inner

    def __delitem__(self, key) -> None:
        del self.inner[(self._lang(), key)]

    def __iter__(self) -> Iterator:
        """Jinja's keys of every language's templates."""
        return iter([key for _lang, key in self.inner.keys()])

    def __len__(self) -> int:
        return len(self.inner)

    def clear(self) -> None:
        self.inner.clear()


class LanguageCode(BytecodeCache):
    """A bytecode cache (``environment.bytecode_cache``: the tests share one) asked under the
    template's name and the language its messages are folded for, so a language never loads
    another's code."""

    def __init__(self, inner: BytecodeCache) -> None:
        self.inner = inner

    def get_bucket(self, environment, name: str, filename: str | None, source: str) -> Bucket:
        folding = _compiling_for(environment)
        if folding is not None:
            name = f"{name}\x00{folding[1]}"
        return self.inner.get_bucket(environment, name, filename, source)

    def set_bucket(self, bucket: Bucket) -> None:
        self.inner.set_bucket(bucket)

    def clear(self) -> None:
        self.inner.clear()


def message_text(text: str, **variables) -> Markup:
    """The templates' ``_msg``: a message already translated (:class:`FoldedMessages`), ``%``
    its escaped variables, as :func:`_gettext` does."""
    return fill(text, variables)


class FoldedMessages(Extension):
    """Folds each literal message of a template into its code when it is compiled for a
    language (:func:`_compiling_for`): ``{{ _("Result") }}`` becomes the text ``结果`` of
    the template, ``_("Result")`` inside an expression the constant ``("结果"|safe)``, and
    ``_("%(n)s left", n=x)`` ``_msg("剩%(n)s张", n=x)`` (:func:`message_text`: only the
    variables are filled in at render time). A message not written as string literals
    (``_(label)``) stays a call of the runtime ``_``."""

    def filter_stream(self, stream):
        folding = _compiling_for(self.environment) if stream.name is not None else None
        if folding is None:
            return stream
        translations = folding[0]
        tokens, out = list(stream), cast("list[Token]", [])
        i, n = 0, len(tokens)
        while i < n:
            tok = tokens[i]
            j = i + 2
            if (tok.type == "name" and tok.value == "_" and j < n
                    and tokens[i + 1].type == "lparen" and tokens[j].type == "string"
                    and not (out and out[-1].type == "dot")):
                while j < n and tokens[j].type == "string":
                    j += 1
            if j == i + 2 or j >= n or tokens[j].type not in ("rparen", "comma"):
                out.append(tok)                 # not ``_("literal"…``
                i += 1
                continue
            msgid = "".join(t.value for t in tokens[i + 2:j])
            line = tok.lineno
            if tokens[j].type == "comma":       # with variables: filled in when rendered
                out += (Token(line, "name", "_msg"), tokens[i + 1],
                        Token(line, "string", translations.ugettext(msgid)))
                i = j
            elif (out and out[-1].type == "variable_begin" and j + 1 < n
                    and tokens[j + 1].type == "variable_end"):
                out[-1] = Token(line, "data", str(_gettext(translations, msgid, {})))
                i = j + 2                       # ``{{ _("…") }}``: the text itself
            else:                               # in an expression: a constant, in
                out += (Token(line, "lparen", "("),     # parentheses as the call was one
                        Token(line, "string", str(_gettext(translations, msgid, {}))),
                        Token(line, "pipe", "|"), Token(line, "name", "safe"),
                        Token(line, "rparen", ")"))     # term: ``_("…")[0]``, ``.upper()``
                i = j + 1
        return iter(out)


def localized(value):
    """``value`` (a message, or dicts and lists holding messages) in this response's
    language."""
    return localize(value, current_lang())


class _VariantNames(Mapping[str, str]):
    """Each rule set's name in this response's language, as the variant gives it (its
    ``label``, from the engine's catalogue): the pages name a variant by asking it."""

    def __getitem__(self, name: str) -> str:
        if is_free(name):                   # a table with no rule set (not a variant)
            return str(_l("Free scoring"))
        return localized(VARIANTS[name].label)

    def get(self, name: object, default: Any = None) -> Any:
        """The name of ``name`` if it is a rule set (or free scoring), else ``default``: any
        value a request gave may be asked (None, a name no longer registered)."""
        if isinstance(name, str) and (name in VARIANTS or is_free(name)):
            return self[name]
        return default

    def __iter__(self) -> Iterator[str]:
        return iter(VARIANTS)

    def __len__(self) -> int:
        return len(VARIANTS)


VARIANT_NAMES = _VariantNames()


def html_lang() -> str:
    return "en" if current_lang() == "en" else "zh-Hans"


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", LANGS["zh"])
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_locale)
    babel.domain_instance = RequestDomain(domain="messages")
    app.jinja_env.globals.update(current_lang=current_lang, html_lang=html_lang,
                                 lang_param=lang_param)
    # after Flask-Babel's install_gettext_callables: the same results, without a catalogue
    # lookup per call
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext)
    app.jinja_env.filters["msg"] = localized
    env = app.jinja_env
    env.globals["_msg"] = message_text
    env.add_extension(FoldedMessages)
    if env.cache is not None and not isinstance(env.cache, LanguageCache):
        env.cache = LanguageCache(env.cache)
    if env.bytecode_cache is not None and not isinstance(env.bytecode_cache, LanguageCode):
        env.bytecode_cache = LanguageCode(env.bytecode_cache)


# -- small words the pages and the room's summaries share (here, not in templating.py, which
# imports the room) -----------------------------------------------------------------------

_l = lazy_gettext                   # the name pybabel extracts (-k _l, babel.cfg)

SEAT_LABELS = (_l("East seat"), _l("South seat"), _l("West seat"), _l("North seat"))


def list_sep() -> str:
    """The separator of a short list in the page's language: ``、`` or ``, ``."""
    return "、" if current_lang() == "zh" else ", "


def localized_error(err: InputError) -> InputError:
    """``err`` with its message and reasons rendered in this response's language."""
    return err.replace(message=localized(err.message), reasons=localized(err.reasons) or [])
