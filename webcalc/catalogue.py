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

# The code lives in webcalc.messages (str(message) renders, and the values must not import a
# module that imports them back); this module is the name the web layer and the docs use.
from .catalogue_texts import TEXTS
from .messages import LANGS, TRANSLATIONS, localize, reload, render, template

__all__ = ["LANGS", "TEXTS", "TRANSLATIONS", "localize", "reload", "render", "template"]
