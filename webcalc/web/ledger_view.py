"""How a table's entries read on its pages and in its exports: the seats' names, each entry's
method and rules (:func:`view_helpers`), its payments' details naming the players
(:func:`named_details`), the page's title and the exports' file name.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask_babel import gettext as _

from ..ledger import POINTS, is_free
from ..message_json import from_json
from ..messages import localize
from ..settlement import fmt
from .i18n import current_lang


def table_title(t: dict) -> str:
    """The table page's title, what a chat list shows of its shared link: the table (named
    by the day it was opened), its hands counted and its variant (``12月6日牌局 · 8 手 ·
    郑州麻将``)."""
    from .templating import VARIANT_NAMES

    day = (t.get("created_at") or "")[:10]
    try:
        when = datetime.fromisoformat(day).date()
    except ValueError:
        when = None
    if when is None:
        name = _("Table ledger")
    elif current_lang() == "zh":
        name = _("Table of %(day)s", day=f"{when.month}月{when.day}日")
    else:
        name = _("Table of %(day)s", day=f"{when.day} {when:%b} {when.year}")
    n = sum(1 for h in t["hands"] if h.get("hand_no"))
    hands = _("%(n)s hand", n=n) if n == 1 else _("%(n)s hands", n=n)
    return " · ".join((name, hands, str(VARIANT_NAMES.get(t["variant"], t["variant"]))))


def _seats_as(data, names: list[str]):
    """Stored message codes (:func:`webcalc.message_json.to_json`) with each seat
    (``{"code": "seat.n"}``: 东家 …, East …) written as the table names its player."""
    if isinstance(data, dict):
        code = data.get("code")
        if (isinstance(code, str) and code.startswith("seat.") and code[5:] in "0123"
                and len(code) == 6 and not data.get("params")):
            return names[int(code[5])]
        return {k: _seats_as(v, names) for k, v in data.items()}
    if isinstance(data, list):
        return [_seats_as(v, names) for v in data]
    return data


def _named_detail(text: str, code, names: list[str], lang: str) -> str:
    """A payment's detail (``text``, in ``lang``) with the players' names where it names a
    seat, rendered from its stored codes (``code``); ``text`` as it is when there are none,
    or when they do not render to it (codes and text from different revisions, a catalogue
    changed since): never a detail other than the entry's."""
    if code is None:
        return text
    try:
        if localize(from_json(code), lang) != text:
            return text
        return str(localize(from_json(_seats_as(code, names)), lang))
    except Exception:  # noqa: BLE001 - codes this code cannot read: the stored text
        return text


def named_details(h: dict, codes: dict[int, list], names: list[str], lang: str) -> list[str]:
    """The details of entry ``h``'s payments (in ``lang``, as the table ``h`` is read from)
    naming the players ``names`` where they name a seat, from the entry's stored codes
    (``codes``: :meth:`~webcalc.ledger.service.Ledger.payment_codes`); each one's stored text
    where its codes are missing or do not match (:func:`_named_detail`)."""
    payments = h["settlement"]["payments"]
    stored = codes.get(h["number"]) or []
    if len(stored) != len(payments):
        stored = []
    return [_named_detail(p.get("detail") or "", stored[i] if stored else None, names, lang)
            for i, p in enumerate(payments)]


def view_helpers(table: dict, token: str | None = None) -> dict:
    """What the table's templates read its entries with: ``who`` (a seat's player),
    ``method``, ``rules``, ``num``, ``free``, ``chart_points``, and with ``token``
    ``details(h)``: the details of ``h``'s payments naming the players, not the seats
    (:func:`named_details`; the codes read once, on the first call: one query)."""
    from .templating import WIN_BY_LABELS

    names = table["names"]
    codes: dict[int, list] | None = None

    def details(h):
        nonlocal codes
        if codes is None:
            from .ledger_load import ledger

            codes = ledger().payment_codes(token) if token else {}
        return named_details(h, codes, names, current_lang())

    def who(seat):
        return names[seat] if isinstance(seat, int) and 0 <= seat < 4 else "—"

    def method(h):
        s = h["request"].get("settlement") or {}
        if h["kind"] == POINTS:
            note = h["request"].get("note")
            return _("Free-scoring hand") + (f" · {note}" if note else "")
        if h["kind"] == "adjustment":
            adj = h["request"]["adjustment"]
            if "fee" in adj:
                return _("Fee %(fee)s paid by %(who)s, split evenly",
                         fee=fmt(adj["fee"]), who=who(adj["paid_by"]))
            return _("Penalty / transfer")
        if s.get("winner") is None:
            return _("荒庄 (drawn)")
        how = WIN_BY_LABELS.get(h["request"].get("win_by", "self_draw"), "")
        text = f"{who(s['winner'])} {how}"
        if s.get("discarder") is not None:
            text += " · " + _("%(who)s discarded", who=who(s["discarder"]))
        return text

    def rules(h):
        seen = []
        for p in h["settlement"]["payments"]:
            for r in re.findall(r"[A-Z]{1,3}-\d+", p.get("rule") or ""):
                if r not in seen:
                    seen.append(r)
        return seen

    return {"who": who, "method": method, "rules": rules, "num": fmt, "details": details,
            "free": is_free(table["variant"]),
            "chart_points": len([h for h in table["hands"] if h["status"] == "recorded"])}


def filename(t: dict, ext: str) -> str:
    day = (t.get("created_at") or "")[:10] or datetime.now(UTC).date().isoformat()
    return f"webcalc-table-{t['variant']}-{day}.{ext}"
