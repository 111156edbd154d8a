"""How a table's entries read on its pages and in its exports: the seats' names, each entry's
method and rules (:func:`view_helpers`), the page's title and the exports' file name.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask_babel import gettext as _

from ..ledger import POINTS, is_free
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


def view_helpers(table: dict) -> dict:
    from .templating import WIN_BY_LABELS

    names = table["names"]

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

    return {"who": who, "method": method, "rules": rules, "num": fmt,
            "free": is_free(table["variant"]),
            "chart_points": len([h for h in table["hands"] if h["status"] == "recorded"])}


def filename(t: dict, ext: str) -> str:
    day = (t.get("created_at") or "")[:10] or datetime.now(UTC).date().isoformat()
    return f"webcalc-table-{t['variant']}-{day}.{ext}"
