"""The app's JSON provider (``app.json``): what ``jsonify`` encodes with.

Two things beyond Flask's :class:`~flask.json.provider.DefaultJSONProvider`, neither changing
a byte of what it writes:

* a :class:`~webcalc.messages.Message` is rendered in this response's language as it is met,
  so an API answer is encoded straight from the engine's result instead of from a rendered
  copy of all of it (:func:`webcalc.web.i18n.localized`);
* a :class:`~webcalc.messages.Plain` list at the top of the answer (an analysis's
  ``decompositions``: up to 200 readings of a few groups each, the groups shared between
  the readings that hold them, :func:`webcalc.decompose.listed_dicts`) is written with each
  shared value encoded once: a 郑州 hand's 1 000 listed groups are some 40 distinct ones.
"""

from __future__ import annotations

import json
from typing import Any

from flask.json.provider import DefaultJSONProvider

from ..catalogue import render
from ..messages import Message, Plain
from .i18n import current_lang

COMPACT = (",", ":")


class MessageJSONProvider(DefaultJSONProvider):
    """``jsonify(result)`` is byte for byte ``jsonify(localized(result))``."""

    @staticmethod
    def default(o: Any) -> Any:
        if isinstance(o, Message):
            return render(o, current_lang())
        return DefaultJSONProvider.default(o)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("default", self.default)
        kwargs.setdefault("ensure_ascii", self.ensure_ascii)
        kwargs.setdefault("sort_keys", self.sort_keys)
        if (type(obj) is dict and kwargs.get("separators") == COMPACT and not kwargs["sort_keys"]
                and set(kwargs) <= {"default", "ensure_ascii", "sort_keys", "separators"}
                and any(type(v) is Plain for v in obj.values())):
            return _dumps_top(obj, json.JSONEncoder(**kwargs))
        return json.dumps(obj, **kwargs)


def _encoder_of(encoder: json.JSONEncoder) -> Any:
    """``encoder.encode`` without making the C encoder anew at each call (some 5 µs: an
    answer encodes tens of small values one by one)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None or encoder.indent is not None:
        return encoder.encode
    basestring = (json.encoder.encode_basestring_ascii if encoder.ensure_ascii
                  else json.encoder.encode_basestring)
    iterencode = make({} if encoder.check_circular else None, encoder.default, basestring,
                      None, encoder.key_separator, encoder.item_separator, encoder.sort_keys,
                      encoder.skipkeys, encoder.allow_nan)
    plain = encoder.encode

    def encode(o: Any) -> str:
        if isinstance(o, str):
            return plain(o)
        return "".join(iterencode(o, 0))

    return encode


def _dumps_top(obj: dict[Any, Any], encoder: json.JSONEncoder) -> str:
    """``encoder.encode(obj)`` (compact separators, keys unsorted), its :class:`Plain`
    values by :func:`_dumps_plain`."""
    encode = _encoder_of(encoder)
    parts = []
    for k, v in obj.items():
        if type(k) is not str:
            return encode(obj)
        parts.append(f"{encode(k)}:{_dumps_plain(v, encode) if type(v) is Plain else encode(v)}")
    return "{" + ",".join(parts) + "}"


def _dumps_plain(items: list[Any], encode: Any) -> str:
    """``encode(items)`` for a list of dicts whose values are scalars, or lists of dicts
    shared between the items: each shared dict is encoded once (by identity: they all live
    as long as ``items``), each key and string once. Anything else is handed to ``encode``
    whole."""
    shared: dict[int, str] = {}
    keys: dict[str, str] = {}               # key → '"key":'
    texts: dict[str, str] = {}              # string value → its JSON
    out = []
    for item in items:
        if type(item) is not dict:
            out.append(encode(item))
            continue
        fields = []
        for k, v in item.items():
            head = keys.get(k)
            if head is None:
                if type(k) is not str:
                    return encode(items)
                head = keys[k] = encode(k) + ":"
            kind = type(v)
            if kind is bool:
                fields.append(head + ("true" if v else "false"))
            elif kind is str:
                text = texts.get(v)
                if text is None:
                    text = texts[v] = encode(v)
                fields.append(head + text)
            elif kind is list:
                shown = []
                for x in v:
                    if type(x) is not dict:
                        fields.append(head + encode(v))
                        break
                    text = shared.get(id(x))
                    if text is None:
                        text = shared[id(x)] = encode(x)
                    shown.append(text)
                else:
                    fields.append(head + "[" + ",".join(shown) + "]")
            else:
                fields.append(head + encode(v))
        out.append("{" + ",".join(fields) + "}")
    return "[" + ",".join(out) + "]"
