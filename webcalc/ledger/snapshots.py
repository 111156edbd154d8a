"""The per-process snapshot cache: each table's entries (H) as this process last read them,
and their JSON per language, so a read after a write takes only the rows changed since
(``seq`` past the version held) and writes only their JSON.

* :class:`_Snapshot`: one table's entries at a version, never changed once shared;
* :class:`_Cache`: the snapshots of the tables read last, up to ``LEDGER_CACHE_HANDS``
  (:data:`CACHE_HANDS`) entries in all, least recently used first out; every use asks the
  database for the table's version first (:meth:`webcalc.ledger.storage.Storage._doc`), so
  a snapshot is never served stale;
* :class:`TableDoc`: T, a read-only dict that writes its JSON from the snapshot's fragments.

What it buys, measured on fresh entries (``python bench/ledger_caches.py --repeats 15
--polls 40``, 2026-12-06 13:09 UTC, commit d6ed70a, 2 loaded cores: cache on against
``LEDGER_CACHE_HANDS=0``, interleaved, this process's CPU per request, medians of 15): a table
read just after another worker's write, ``GET /api/v1/tables/<view>``, 3.2 against 7.5 ms at
50 entries and 3.3 against 18.2 ms at 200 on SQLite (57 %, 82 % saved), 3.9/7.4 and 4.2/16.8
ms on PostgreSQL (47 %, 75 %); the page's poll after a write (``GET /t/<view>/live``, 200)
26-42 % saved; a record (``POST …/hands``, answered with the table) 27-67 % saved. Every
path measured saves over 10 %: it stays (issue 37.2). The first run (commit a6fde1c, before
the split) gave the same within a few points.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict

from .checks import DEALT, _is_int
from .entries import _Derived
from .models import Table
from .money import number, settle_up
from .texts import hand_in
from .tokens import _iso

#: entries a process keeps of the tables it read last (:class:`_Cache`): about 6 KB each
CACHE_HANDS = 1500


_dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


class _Snapshot:
    """One table's entries (H, in number order) at ``version``, as this process last read
    them, and their JSON per language, made when first asked (:meth:`fragment`). Never
    changed once shared: a newer version is a new snapshot (:meth:`after`)."""

    __slots__ = ("version", "hands", "frags", "next_hand_no")

    def __init__(self, version: int, hands: list, frags: dict | None = None,
                 next_hand_no: int = 1):
        self.version = version
        self.hands = hands
        self.frags = frags if frags is not None else {}
        #: the place the next hand played takes (counted hands + 1)
        self.next_hand_no = next_hand_no

    @classmethod
    def after(cls, old: _Snapshot | None, version: int, count: int,
              changed: dict[int, dict]) -> _Snapshot | None:
        """``old`` with the entries in ``changed`` (number → H) replaced or appended;
        None when they leave a gap (then the caller reads every row)."""
        hands = list(old.hands) if old is not None else []
        frags = {lang: list(v) for lang, v in old.frags.items()} if old is not None else {}
        for n in sorted(changed):
            i = n - 1
            if i < len(hands):
                hands[i] = changed[n]
                for v in frags.values():
                    v[i] = None
            elif i == len(hands):
                hands.append(changed[n])
                for v in frags.values():
                    v.append(None)
            else:
                return None
        if len(hands) != count:
            return None
        # hand_no: the place of a counted hand among the hands played (an undone or voided
        # entry and an adjustment have none); a void shifts the later ones, which are then
        # copied with their new place and written again
        n = 0
        for i, h in enumerate(hands):
            no = None
            if h["kind"] in DEALT and h["status"] == "recorded":
                n += 1
                no = n
            if h.get("hand_no", -1) != no:
                hands[i] = {**h, "hand_no": no}
                for v in frags.values():
                    v[i] = None
        return cls(version, hands, frags, n + 1)

    def fragment(self, i: int, lang: str) -> bytes:
        """Entry ``i``'s JSON in ``lang`` (:func:`~webcalc.ledger.texts.hand_in`), UTF-8."""
        per = self.frags.get(lang)
        if per is None:
            per = self.frags.setdefault(lang, [None] * len(self.hands))
        data = per[i]
        if data is None:
            data = per[i] = _dumps(hand_in(self.hands[i], lang)).encode("utf-8")
        return data


class _Cache:
    """The snapshots of the tables this process read last, up to ``max_hands`` entries in
    all (least recently used first out). Keyed by the table's id and creation time (an id
    SQLite gives again after a purge is another table). Every use asks the database for the
    table's version first, so a snapshot is never served stale: another process's write
    shows as a newer version, and only the rows it changed are read."""

    def __init__(self, max_hands: int):
        self.max_hands = max_hands
        self.lock = threading.Lock()
        self.items: OrderedDict = OrderedDict()
        self.size = 0

    def get(self, key) -> _Snapshot | None:
        with self.lock:
            snap = self.items.get(key)
            if snap is not None:
                self.items.move_to_end(key)
            return snap

    def put(self, key, snap: _Snapshot) -> None:
        if len(snap.hands) > self.max_hands:
            return
        with self.lock:
            old = self.items.get(key)
            if old is not None:
                if old.version >= snap.version:
                    return
                self.size -= len(old.hands)
            self.items[key] = snap
            self.items.move_to_end(key)
            self.size += len(snap.hands)
            while self.size > self.max_hands and self.items:
                _k, out = self.items.popitem(last=False)
                self.size -= len(out.hands)

    def drop(self, key) -> None:
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.size -= len(old.hands)


class TableDoc(dict):
    """T: a plain dict to every reader (read only: its entries are shared with this
    process's snapshot), which also writes itself as JSON in a reader's language
    (:meth:`json_bytes`) from the entries' JSON the snapshot keeps, so an answer with a
    200-entry table serializes only what changed and joins the rest."""

    __slots__ = ("_snap",)
    _snap: _Snapshot

    def _shared(self) -> _Snapshot | None:
        snap = getattr(self, "_snap", None)
        hands = self["hands"]
        if snap is None or len(snap.hands) != len(hands) or \
                not all(a is b for a, b in zip(snap.hands, hands)):
            return None                    # changed by its reader: written from the dicts
        return snap

    def json_bytes(self, lang: str) -> bytes:
        """T as the UTF-8 JSON of ``table_in(T, lang)`` (compact, as Flask writes JSON)."""
        snap = self._shared()
        head = _dumps({k: v for k, v in self.items() if k != "hands"}).encode("utf-8")
        if snap is None:
            hands = b",".join(_dumps(hand_in(h, lang)).encode("utf-8") for h in self["hands"])
        else:
            hands = b",".join([snap.fragment(i, lang) for i in range(len(snap.hands))])
        return b"".join((head[:-1], b',"hands":[', hands, b"]}"))

    def hand_json(self, number: int, lang: str) -> bytes:
        """Entry ``number``'s UTF-8 JSON in ``lang``."""
        snap = self._shared()
        if snap is not None and 0 < number <= len(snap.hands):
            return snap.fragment(number - 1, lang)
        return _dumps(hand_in(self["hands"][number - 1], lang)).encode("utf-8")


def _table_doc(t: Table, editor: int | None, snap: _Snapshot) -> TableDoc:
    d = _Derived.of(t)
    ints = d.floats == 0 and (d.counted > 0 or _is_int(t.base))
    doc = TableDoc(
        variant=t.variant, options=t.options, base=t.base, names=t.names, dealer=d.dealer,
        first_dealer=t.first_dealer, next_number=t.next_number,
        next_hand_no=snap.next_hand_no, version=t.version,
        access="view" if editor is None else "edit", created_at=_iso(t.created_at),
        updated_at=_iso(t.updated_at), hands=list(snap.hands),
        totals=[number(x, ints) for x in d.totals],
        settle_up=[{"from": a, "to": b, "amount": number(x, ints)}
                   for a, b, x in settle_up(d.totals)],
        carry_bets=t.carry_bets, last_counted=d.last)
    doc._snap = snap
    return doc
