"""The room's home at a table's entry (``/t/<edit>``): :class:`TableHome` (docs/decisions.md
"One room, two homes").
"""

from __future__ import annotations

import functools
import re
import secrets
from dataclasses import dataclass

from flask import url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..analysis import VARIANT_LABELS
from ..errors import InputError
from ..messages import Message
from ..options import option_specs, parse_options
from ..settlement import fmt
from ..variants import VARIANTS
from ..variants.base import Declarable
from .forms import TEXT_FIELDS, attach_error
from .i18n import lang_param, localized, localized_error
from .ledger_entry import (
    BET_KEYS,
    DECLARED_FIELDS,
    DECLARED_MAX,
    Bets,
    Unsettled,
    carried_bets,
    entry_key,
    fixed_key,
    prefill_hand,
)
from .ledger_outcomes import DISCARD_METHODS
from .room import Room, win_methods
from .room_page import Home
from .room_url import read_room


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
    flags = ("new", "done", "rotated", "revoked", "new_view", "tiles")

    def __init__(self, table: dict, token: str, correcting: dict | None = None,
                 key: str | None = None, dealer: int | None = None):
        self.table = table
        self.token = token
        self.correcting = correcting
        self.path = url_for(".table", token=token)
        self.variant = table["variant"]
        if dealer is None:
            dealer = correcting["dealer"] if correcting is not None else table["dealer"]
        self.dealer = dealer
        self.carried = None if correcting is not None else carried_bets(table)
        self.key = key or secrets.token_urlsafe(12)
        self.number = table["next_number"]  # the hand this entry records
        self.notes: list[str] = []          # what the table changed of a calculator's room
        self.refused: str | None = None     # the calculator's room is another variant's
        self.declared_values: dict[str, list[str]] = {}
        self.declared_errors: list[str] = []
        self.general: str | None = None     # a message above the entry

    # -- reading ------------------------------------------------------------------------

    def bind(self, raw) -> MultiDict:
        t = self.table
        args = MultiDict(raw)
        self._read_number(args)
        if "variant" in args:               # a calculator's room, sent to this table
            args = self._from_calculator(args)
        for key in list(args):
            if fixed_key(key, t["variant"], args.get(key)):
                args.poplist(key)
        if self.correcting is not None and not any(entry_key(k) for k in args):
            self._prefill(args, self.correcting)
        self._apply_bets(args)
        self.declared_values = {
            name: [v.strip() for v in args.getlist(f"d_{name}") if v.strip()][:DECLARED_MAX]
            for name in DECLARED_FIELDS}
        for k, v in self._fixed().items(multi=True):
            args.add(k, v)
        return args

    def _read_number(self, args: MultiDict) -> None:
        """The hand this entry was started for: the form keeps it through its taps, so a hand
        someone else records meanwhile is a conflict at 记入, not a silent renumbering."""
        number = args.poplist("number")
        if (self.correcting is None and number and number[-1].isdecimal()   # not isdigit: ²
                and len(number[-1]) <= 9):
            self.number = min(int(number[-1]), self.table["next_number"])

    def _from_calculator(self, args: MultiDict) -> MultiDict:
        """A calculator's room sent here: refused (only ``lang`` kept) when it is another
        variant's, else noted where the table differs, with no bet where it set none."""
        theirs = args.get("variant")
        if theirs != self.table["variant"]:
            self.refused = refusal(theirs, self.table["variant"])
            return MultiDict([(k, v) for k, v in args.items(multi=True) if k == "lang"])
        self.notes = self._differences(args)
        for key in BET_KEYS:                   # the calculator's default: no bet
            if key not in args:
                args[key] = "0"
        return args

    def _prefill(self, args: MultiDict, correcting: dict) -> None:
        """The corrected hand's recorded inputs (the dealer is the table's to set)."""
        fields, room_args = prefill_hand(self.table, correcting)
        for k, v in {**fields, **room_args}.items():
            if k != "s_dealer":
                args.setlist(k, v if isinstance(v, list) else [v])

    def _apply_bets(self, args: MultiDict) -> None:
        """The bets buttons (清空 / 同上局) and, at a fresh entry, the carried bets as the
        defaults."""
        action = args.poplist("bets")
        carried = self.carried or Bets()
        if action and action[-1] in ("clear", "last"):
            bets = Bets() if action[-1] == "clear" else carried
            for i in range(4):
                args.setlist(f"s_pao{i}", [str(bets.pao[i])])
                args.setlist(f"s_jiagang{i}", ["1" if bets.jiagang[i] else "0"])
        if self.carried:                    # the carried bets are the defaults
            from_form = args.get("form_variant") == self.table["variant"]
            for i in range(4):
                if f"s_pao{i}" not in args:
                    args[f"s_pao{i}"] = str(carried.pao[i])
                if f"s_jiagang{i}" not in args and not from_form:
                    args[f"s_jiagang{i}"] = "1" if carried.jiagang[i] else "0"

    def _fixed(self) -> MultiDict:
        """The room arguments of the table: its variant, options, base, names and dealer."""
        t = self.table
        out = MultiDict([("variant", t["variant"])])
        specs = {s["name"] for s in option_specs(VARIANTS[t["variant"]].Options)}
        for name, value in t["options"].items():
            if name in specs:
                out.add(f"opt_{name}",
                        ("1" if value else "0") if isinstance(value, bool) else str(value))
        out.add("s_base", str(t["base"]))
        for i, n in enumerate(t["names"]):
            out.add(f"n{i}", n)
        out.add("s_dealer", str(self.dealer))
        return out

    def _differences(self, args) -> list[str]:
        """What of a calculator's room this table decides otherwise: each option, the base
        and the dealer, as "label: the table's (the calculator's)"."""
        t = self.table
        theirs = read_room(args, t["variant"])
        ours = read_room(self._fixed(), t["variant"])
        out = []
        for mine, other in zip(ours.options, theirs.options):
            if other.error is None and mine.value != other.value:
                out.append(_("%(what)s: %(table)s (the calculator had %(calc)s)",
                             what=mine.label, table=mine.value_text(), calc=other.value_text()))
        if "s_base" not in theirs.errors and theirs.base != ours.base:
            out.append(_("Base points: %(table)s (the calculator had %(calc)s)",
                         table=fmt(ours.base), calc=fmt(theirs.base)))
        if (theirs.dealer is not None and ours.dealer is not None
                and theirs.dealer != ours.dealer):
            out.append(_("Dealer: %(table)s (the calculator had %(calc)s)",
                         table=ours.names[ours.dealer], calc=ours.names[theirs.dealer]))
        return out

    def state_pairs(self, pairs, args, room) -> list[tuple[str, str]]:
        out = [("correct", str(self.correcting["number"]))] if self.correcting else []
        tail: list[tuple[str, str]] = []
        for k, v in pairs:
            if fixed_key(k, self.variant, v):
                continue
            if self.carried and k in BET_KEYS and not (room and k in room.errors):
                continue
            (tail if k in ("target", "meld_type", "meld_from") else out).append((k, v))
        if self.carried and room is not None:
            uses = room.uses
            for i in range(4):
                key = f"s_pao{i}"
                if "pao" in uses and key not in room.errors and room.pao[i] != self.carried.pao[i]:
                    out.append((key, str(room.pao[i])))
            for i in range(4):
                key = f"s_jiagang{i}"
                if ("jiagang" in uses and key not in room.errors
                        and room.jiagang[i] != self.carried.jiagang[i]):
                    out.append((key, "1" if room.jiagang[i] else "0"))
        for name in DECLARED_FIELDS:
            out += [(f"d_{name}", v) for v in self.declared_values.get(name, [])]
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
        declared = self._declared()
        if declared:
            req["declared"] = declared
        return req

    def _declared(self) -> dict:
        """The declared factors as typed; one the room does not offer is passed on too, so
        the engine says why it does not count (never silently dropped)."""
        d = self.declares
        out: dict = {}
        for name, values in self.declared_values.items():
            if not values:
                continue
            if d is not None and name == d.field and not d.keys:        # a count (表)
                text = values[-1]
                if not re.fullmatch(r"\d{1,3}", text):
                    raise InputError("bad_settlement", _(
                        "%(name)s should be a whole number.", name=localized(d.label)),
                        f"declared.{name}")
                out[name] = int(text)
            else:
                out[name] = values
        return out

    def _relabel(self, message):
        """A declared error names the field by its key (the API's ``doubles``); the page
        names it as the reader does (加倍, 番, 表)."""
        d = self.declares
        if isinstance(message, Message) and d is not None and message.params.get("name") == d.field:
            return Message(message.code, {**message.params, "name": d.label}, message.rule)
        return message

    def attach(self, err: InputError) -> bool:
        if (err.field or "").startswith("declared"):
            self.declared_errors.append(localized(self._relabel(err.message)))
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


def bets_text(bets: Bets, room: Room) -> str:
    """老王 跑1 · 小李 跑2 · 阿梅 加钢 (the seats with a bet)."""
    parts = []
    for i in range(4):
        what = []
        if "pao" in room.uses and bets.pao[i]:
            what.append(_("跑 %(n)s", n=bets.pao[i]))
        if "jiagang" in room.uses and bets.jiagang[i]:
            what.append(_("加钢"))
        if what:
            parts.append(f"{room.names[i]} {' '.join(what)}")
    return " · ".join(parts)


def refusal(theirs: str | None, ours: str) -> str:
    from .templating import VARIANT_NAMES

    if theirs not in VARIANT_LABELS:
        return _("This is not a variant: the table plays %(table)s. Nothing was filled in.",
                 table=VARIANT_NAMES.get(ours, ours))
    return _("This table plays %(table)s; the hand was worked out for %(calc)s. Nothing was "
             "filled in: open the hand in the calculator as %(table)s, or tap it in here.",
             table=VARIANT_NAMES.get(ours, ours), calc=VARIANT_NAMES.get(theirs, theirs))


def home_of(t: dict, token: str, args, key: str | None = None) -> TableHome:
    """The entry's home: a correction of hand ``?correct=n`` (a counted hand), else the next
    hand."""
    number = args.get("correct", type=int)
    h = next((x for x in t["hands"] if x["number"] == number), None) if number else None
    if h is not None and not (h["kind"] == "hand" and h["status"] == "recorded"):
        h = None
    return TableHome(t, token, correcting=h, key=key)
