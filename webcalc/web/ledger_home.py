"""The room's home at a table's entry (``/t/<edit>``): :class:`TableHome` (docs/decisions.md
"One room, two homes").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from flask import url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..errors import InputError
from ..ledger.checks import KEY_SHAPE, fresh_key
from ..messages import Message
from ..options import parse_options
from ..variants import VARIANTS
from ..variants.base import Declarable
from .forms import TEXT_FIELDS, attach_error
from .i18n import lang_param, localized, localized_error
from .ledger_entry import (
    BET_KEYS,
    DECLARED_FIELDS,
    apply_bets,
    bets_text,
    carried_bets,
    changed_bets,
    declared_values,
    entry_key,
    entry_number,
    fixed_key,
    from_calculator,
    prefill,
    table_args,
)
from .ledger_outcomes import DISCARD_METHODS
from .room import win_methods
from .room_page import Home


class Unsettled(InputError):
    """The entry's room has inputs it cannot read (shown under them): nothing is recorded,
    as the calculator page computes no settlement then."""


@dataclass(frozen=True)
class TableExtra:
    """What a table shows in the room's settlement section besides the room (hashable: part
    of that section's cache key): whether a discard win is possible, and the carried bets."""

    allows_discard: bool
    carried: CarriedView | None = None


@dataclass(frozen=True)
class CarriedView:
    same: bool                          # the entry's bets are the last hand's
    text: str                           # 老王 跑1 · 小李 跑2 …


class TableHome(Home):
    """The room's home at a table's entry (``/t/<edit>``): the table fixes the variant, the
    options, the base, the names and the dealer (this hand's by the hands recorded, or the
    corrected hand's own); the entry starts with the carried bets (:func:`carried_bets`) as
    its defaults; a win given without tiles is settled from the declared factors; the form
    also records (:meth:`body`). docs/decisions.md "One room, two homes"."""

    page = "ledger_table.html"
    is_table = True
    shell = False                       # its page shows the table around the panel
    flags = ("new", "done", "again", "rotated", "revoked", "new_view", "tiles")
    entry_keys = ("idempotency_key",)

    def __init__(self, table: dict, token: str, correcting: dict | None = None,
                 key: str | None = None, dealer: int | None = None):
        self.table = table
        self.token = token
        self.correcting = correcting
        self._path = url_for(".table", token=token)
        self.variant = table["variant"]
        if dealer is None:
            dealer = correcting["dealer"] if correcting is not None else table["dealer"]
        self.dealer = dealer
        self.carried = None if correcting is not None else carried_bets(table)
        # the entry's idempotency key: the one its URL or form names (a page drawn again,
        # after the back button too, records the entry it recorded before), else a fresh one
        # that the form then carries; one of the wrong shape is the ledger's to refuse, and
        # is no URL state (docs/LEDGER.md "Idempotency keys")
        self.key = key or fresh_key()
        self.key_given = bool(key) and KEY_SHAPE.fullmatch(self.key) is not None
        self.number = table["next_number"]  # the hand this entry records
        self.notes: list[str] = []          # what the table changed of a calculator's room
        self.refused: str | None = None     # the calculator's room is another variant's
        self.declared_values: dict[str, list[str]] = {}
        self.declared_errors: list[str] = []
        self.general: str | None = None     # a message above the entry

    @property
    def path(self) -> str:
        return self._path

    # -- reading ------------------------------------------------------------------------

    def bind(self, raw) -> MultiDict:
        """The room's arguments from their sources, in this order (:mod:`.ledger_entry`): the
        entry's own number; a calculator's room sent here; the corrected hand's inputs when
        the entry gives none; the carried bets as defaults; the declared factors; and last
        the table's own, which nothing else sets."""
        t = self.table
        args = MultiDict(raw)
        number = entry_number(args, t, self.correcting)
        if number is not None:
            self.number = number
        if "variant" in args:               # a calculator's room, sent to this table
            sent = from_calculator(args, t, self.dealer)
            args = sent.args
            if sent.refused is not None:
                self.refused = sent.refused
            else:
                self.notes = sent.notes
        for key in list(args):
            if fixed_key(key, t["variant"], args.get(key)):
                args.poplist(key)
        if self.correcting is not None and not any(entry_key(k) for k in args):
            prefill(args, t, self.correcting)
        apply_bets(args, self.carried, t["variant"])
        self.declared_values = declared_values(args)
        for k, v in table_args(t, self.dealer).items(multi=True):
            args.add(k, v)
        return args

    def state_pairs(self, pairs, args, room) -> list[tuple[str, str]]:
        """The URL state: the table's arguments left out, the carried bets only where they
        were changed, the declared factors kept, the entry's idempotency key when the
        request named it (a fresh page's is in its form: its first tap names it), the
        palette's target last."""
        out = [("correct", str(self.correcting["number"]))] if self.correcting else []
        tail: list[tuple[str, str]] = []
        for k, v in pairs:
            if fixed_key(k, self.variant, v):
                continue
            if self.carried and k in BET_KEYS and not (room and k in room.errors):
                continue
            (tail if k in ("target", "meld_type", "meld_from") else out).append((k, v))
        if self.carried and room is not None:
            out += changed_bets(self.carried, room)
        for name in DECLARED_FIELDS:
            out += [(f"d_{name}", v) for v in self.declared_values.get(name, [])]
        if self.key_given:
            out.append(("idempotency_key", self.key))
        return out + tail

    # -- a win without tiles ---------------------------------------------------------------

    @functools.cached_property
    def declares(self) -> Declarable | None:
        """What a win without tiles may declare in this room (the variant says, from the
        table's options), or ``None``: then the entry offers no such input."""
        variant = VARIANTS[self.variant]
        try:
            return variant.declarable(parse_options(variant.Options, self.table["options"]))
        except InputError:                  # a stored room the engine no longer reads
            return None

    def handless_request(self, form, room) -> dict | None:
        """A win (a seat chosen) with no tile typed at all: the quick entry, settled as the
        ledger settles it (:func:`webcalc.analysis.settle_without_tiles`, 未验牌)."""
        if not isinstance(room.winner, int):
            return None
        if any((getattr(form, k).data or "").strip() for k in TEXT_FIELDS):
            return None                     # tiles typed: the calculator's path asks for a hand
        req = {"variant": self.variant, "win_by": form.win_by.data or "self_draw",
               "settlement": room.settlement_request()}
        options = room.options_request()
        if options:
            req["options"] = options
        declared = declared_request(self.declares, self.declared_values)
        if declared:
            req["declared"] = declared
        return req

    def attach(self, err: InputError) -> bool:
        if (err.field or "").startswith("declared"):
            self.declared_errors.append(localized(relabel(err.message, self.declares)))
            return True
        return False

    # -- recording -------------------------------------------------------------------------

    def body(self, st) -> dict:
        """The ledger request (API.md "Table ledger") for what the result shows: the very
        request the result was computed from (``st.req``), less the variant and options (the
        table's) and the settlement's base. Raises InputError when there is nothing settled
        to record (the reason is under its input already, or said here)."""
        room = st.room
        if st.status != 200 or not st.result or not st.result.settlement or st.req is None:
            if room is not None and room.errors or st.status != 200:
                raise Unsettled("bad_settlement", _("Nothing was recorded: correct the inputs "
                                                    "marked below."), "settlement")
            raise InputError("bad_settlement", _("Choose the winner, or press 荒庄 for a drawn "
                                                 "game."), "settlement.winner")
        req = st.req
        body = {k: v for k, v in req.items() if k not in ("variant", "options")}
        body["settlement"] = {k: v for k, v in req["settlement"].items() if k != "base"}
        if not (body.get("hand") or "").strip():
            for k in ("hand",) + tuple(k for k in TEXT_FIELDS if k != "hand"):
                body.pop(k, None)
        return body

    def attach_record_error(self, st, err: InputError) -> None:
        """A refusal of the ledger (or of :meth:`body`) under its input, else above the
        entry, in the page's language."""
        if isinstance(err, Unsettled):     # each input's error is shown under it already
            self.general = localized(err.message)
            return
        if self.attach(err):
            return
        field = err.field or ""
        err = localized_error(err)
        if not (attach_error(st.form, err) or (st.room is not None
                                                 and st.room.attach(field, localized(err.message)))):
            self.general = localized(err.message)

    # -- rendering -------------------------------------------------------------------------

    @property
    def allows_discard(self) -> bool:
        """The 点炮 seat is offered whenever the variant has a win on a discard (without
        JavaScript no script re-draws the form when 胡法 changes)."""
        return any(m in DISCARD_METHODS for m, _label in win_methods(self.variant))

    def room_extra(self, st) -> TableExtra:
        carried = None
        room = st.room
        if self.carried and room is not None:
            uses = room.uses
            same = ((("pao" not in uses) or tuple(room.pao) == self.carried.pao)
                    and (("jiagang" not in uses) or tuple(room.jiagang) == self.carried.jiagang))
            carried = CarriedView(same, bets_text(self.carried, room))
        return TableExtra(self.allows_discard, carried)

    def context(self, st) -> dict:
        lang = lang_param()
        fp = st.fingerprint
        if self.correcting is not None:
            record_url = url_for(".correct", token=self.token, number=self.correcting["number"],
                                 shown=fp, expected_revision=self.correcting["revision"],
                                 idempotency_key=self.key, lang=lang)
            draw_url = None
        else:
            record_url = url_for(".record", token=self.token, shown=fp,
                                 expected_number=self.number,
                                 idempotency_key=self.key, lang=lang)
            draw_url = url_for(".confirm_draw", token=self.token, draw=1,
                               expected_number=self.number,
                               idempotency_key=self.key, lang=lang)
        room = st.room
        from .templating import list_sep

        fixed_options = list_sep().join(f"{o.label} {o.value_text()}" for o in room.options
                                        if o.changed) if room is not None else ""
        d = self.declares
        return {"record_url": record_url, "draw_url": draw_url, "correcting": self.correcting,
                "entry_key": self.key,
                "entry_number": self.number, "next_number": self.table["next_number"],
                # the places among the hands played the page names (an undone entry has none)
                "entry_hand_no": max(1, self.number - self.table["next_number"]
                                     + self.table["next_hand_no"]),
                "next_hand_no": self.table["next_hand_no"],
                "recorded_meanwhile": self.correcting is None
                and self.number < self.table["next_number"],
                "declares": d, "declared_values": self.declared_values,
                "declared_text": (self.declared_values.get(d.field) or [""])[-1] if d else "",
                "declared_errors": self.declared_errors, "fixed_options": fixed_options,
                "tiles_open": self.tiles_open(st),
                "outcomes_url": None if self.correcting is not None
                else url_for(".entry_outcomes", token=self.token)}

    @staticmethod
    def tiles_open(st) -> bool:
        """The entry's 输入手牌 fold is open: tiles are wanted (one is given, the palette
        aims elsewhere than the hand, a tap said why it did nothing) or were this entry
        (``tiles=1``, which the open fold keeps in the form: a tap that empties the hand
        leaves it open). A win without tiles keeps it folded: the outcome is one screen."""
        args = st.args
        return bool(args.get("tiles") == "1" or st.tap_message
                    or any((args.get(k) or "").strip() for k in TEXT_FIELDS)
                    or args.get("target", "hand") != "hand")


def home_of(t: dict, token: str, args) -> TableHome:
    """The entry's home: a correction of hand ``?correct=n`` (a counted hand), else the next
    hand; under the idempotency key ``args`` name (else a fresh one)."""
    number = args.get("correct", type=int)
    h = next((x for x in t["hands"] if x["number"] == number), None) if number else None
    if h is not None and not (h["kind"] == "hand" and h["status"] == "recorded"):
        h = None
    return TableHome(t, token, correcting=h, key=args.get("idempotency_key"))


# -- a win without tiles: the declared factors --------------------------------------------------

def declared_request(d: Declarable | None, values: dict[str, list[str]]) -> dict:
    """The declared factors as typed (``values``), as the request's ``declared``; one the room
    does not offer (``d``) is passed on too, so the engine says why it does not count (never
    silently dropped)."""
    out: dict = {}
    for name, typed in values.items():
        if not typed:
            continue
        if d is not None and name == d.field and not d.keys:        # a count (表)
            text = typed[-1]
            if not re.fullmatch(r"\d{1,3}", text):
                raise InputError("bad_settlement", _(
                    "%(name)s should be a whole number.", name=localized(d.label)),
                    f"declared.{name}")
            out[name] = int(text)
        else:
            out[name] = typed
    return out


def relabel(message, d: Declarable | None):
    """A declared error names the field by its key (the API's ``doubles``); the page
    names it as the reader does (加倍, 番, 表)."""
    if isinstance(message, Message) and d is not None and message.params.get("name") == d.field:
        return Message(message.code, {**message.params, "name": d.label}, message.rule)
    return message
