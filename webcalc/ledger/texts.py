"""The ledger's tables and entries in the reader's language, for the edge.

The service answers T and H with what was stored: each payment's ``detail`` and each fan's
``name``/``note`` in Chinese, with the English beside them (``detail_en``, ``name_en``,
``note_en``), both rendered from the entry's message codes when it was recorded (the codes are
kept in the stored result, ``messages``). :func:`table_in` and :func:`hand_in` give the
copy the reader reads: in English, ``detail``/``name``/``note`` are the English ones (the
``*_en`` fields stay: API.md never drops a field). An entry stored before the English was kept
beside the Chinese has no ``detail_en``; it keeps its Chinese, the only text there is.

A void reason is what the user typed; an entry imported as voided without one has none
(``null`` in the database) and reads "(no reason given in the import)" in the reader's
language (older databases hold that phrase in Chinese: it is read the same way). An undone
entry (``void_code`` ``undone``) reads 撤销 / "Undone" in the reader's language.

No Flask here: the web layer passes the language (``"zh"`` or ``"en"``).
"""

from __future__ import annotations

from ..catalogue import render
from ..messages import Message

NO_REASON = Message("ledger.no_reason_imported")
UNDONE = Message("ledger.undone")
#: how entries stored before messages had codes kept the missing reason
LEGACY_NO_REASON = str(NO_REASON)


def _payments_in(settlement: dict, lang: str) -> dict:
    if lang != "en":
        return settlement
    pays = [({**p, "detail": p["detail_en"]} if p.get("detail_en") else p)
            for p in settlement["payments"]]
    out = {**settlement, "payments": pays}
    if settlement.get("notes"):             # the settlement's own notes, likewise
        out["notes"] = [({**n, "message": n["message_en"]} if n.get("message_en") else n)
                        for n in settlement["notes"]]
    return out


def _fan_in(fan: list, lang: str) -> list:
    if lang != "en":
        return fan
    out = []
    for f in fan:
        f = dict(f)
        if f.get("name_en"):
            f["name"] = f["name_en"]
        if f.get("note_en"):
            f["note"] = f["note_en"]
        out.append(f)
    return out


def _result_in(r: dict, lang: str) -> dict:
    r = {**r, "settlement": _payments_in(r["settlement"], lang)}
    if "fan" in r:
        r["fan"] = _fan_in(r["fan"], lang)
    return r


def hand_in(h: dict, lang: str) -> dict:
    """H (as the service returns it) in ``lang``: a copy where needed, else ``h`` itself."""
    undone = h.get("status") == "voided" and h.get("void_code") == "undone"
    voided = (h.get("status") == "voided" and not undone
              and h.get("void_reason") in (None, LEGACY_NO_REASON))
    if lang != "en" and not voided:
        return h                        # Chinese, as stored (an undone one says 撤销)
    out = _result_in(h, lang)
    if h.get("revisions"):
        out["revisions"] = [_result_in(r, lang) for r in h["revisions"]]
    if voided:
        out["void_reason"] = render(NO_REASON, lang)
    elif undone:
        out["void_reason"] = render(UNDONE, lang)
    return out


def table_in(t: dict, lang: str) -> dict:
    """T (as the service returns it) with every entry in ``lang``: ``t`` itself when nothing
    changes (Chinese), else a plain dict (for JSON, a
    :class:`~webcalc.ledger.snapshots.TableDoc`'s ``to_json(lang)`` is the cheaper way)."""
    hands = [hand_in(h, lang) for h in t["hands"]]
    if all(a is b for a, b in zip(hands, t["hands"])):
        return t
    return {**t, "hands": hands}
