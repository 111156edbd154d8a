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

from pathlib import Path

from flask import Flask, request
from flask_babel import Babel, get_locale

from ..catalogue import localize

#: ``?lang=`` value → Babel locale
LANGS = {"zh": "zh_Hans_CN", "en": "en"}
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"

babel = Babel()


def lang_param() -> str | None:
    """The whitelisted ``?lang=`` of this request, else ``None``."""
    value = request.args.get("lang")
    return value if value in LANGS else None


def select_locale() -> str:
    lang = lang_param()
    if lang:
        return LANGS[lang]
    best = request.accept_languages.best_match(["zh_CN", "zh_TW", "zh", "en"])
    return "en" if best == "en" else LANGS["zh"]


def current_lang() -> str:
    """``"zh"`` or ``"en"``: the language this response is in."""
    return "en" if str(get_locale()) == "en" else "zh"


def localized(value):
    """``value`` (a message, or dicts and lists holding messages) in this response's
    language."""
    return localize(value, current_lang())


def html_lang() -> str:
    return "en" if current_lang() == "en" else "zh-Hans"


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", LANGS["zh"])
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(current_lang=current_lang, html_lang=html_lang,
                                 lang_param=lang_param)
    app.jinja_env.filters["msg"] = localized
