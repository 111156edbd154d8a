"""The arguments of a table's entry, by where they come from. :class:`.ledger_home.TableHome`
binds them in this order (:meth:`~.ledger_home.TableHome.bind`):

1. the entry's own fields: the hand it was started for (:func:`entry_number`) and the
   declared factors of a win without tiles (:func:`declared_values`);
2. a calculator's room sent to the table (:func:`from_calculator`): refused when another
   variant's, else what the table decides otherwise noted;
3. the corrected hand's recorded inputs, when the entry gives none of its own
   (:func:`prefill`);
4. the bets carried from the last hand, as the defaults (:func:`carried_bets`,
   :func:`apply_bets`);
5. the table's own: variant, options, base, names and dealer (:func:`table_args`), which
   nothing else sets (:func:`fixed_key`).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..analysis import VARIANT_LABELS
from ..errors import InputError
from ..notation import melds_to_text
from ..options import option_specs, parse_options
from ..settlement import fmt, kongs_of_melds
from ..variants import VARIANTS
from . import tap
from .forms import TEXT_FIELDS
from .room import Room
from .room_url import read_room
from .turns import history_text

# -- which source a key belongs to -----------------------------------------------------------

#: the API's ``declared`` fields (API.md "Table ledger"); the variant says which it has
DECLARED_FIELDS = ("doubles", "fan", "biao")
DECLARED_MAX = 16                   # values read per field (盘锦 has 7 番 to declare)


#: the room's inputs a table decides (the URL and the form never set them there)
_NAMES = ("n0", "n1", "n2", "n3")
BET_KEYS = tuple(f"s_pao{i}" for i in range(4)) + tuple(f"s_jiagang{i}" for i in range(4))
#: fields of a hand's tiles: a drawn game in one tap records none of them
TILE_KEYS = TEXT_FIELDS + ("win_by",)
#: the record's own fields (in the form's action, or in the body as older pages sent them)
CONTROL_KEYS = ("csrf_token", "idempotency_key", "expected_number", "expected_revision", "draw",
                "shown")


def fixed_key(key: str, variant: str | None = None, value: str | None = None) -> bool:
    """A room argument the table decides: the variant and its marker (unless it is the
    table's own), the options, the base, the names and the dealer."""
    if key == "form_variant":
        return value != variant
    return key in ("variant", "s_base", "s_dealer") or key in _NAMES or key.startswith("opt_")
def entry_key(key: str) -> bool:
    """An argument of the entry's own state (a hand being typed, a seat chosen …)."""
    return (key in TILE_KEYS or key.startswith(("s_", "k_", "d_")) or key in tap.ACTIONS
            or key in ("target", "meld_type", "meld_from", "meld_src", "bets"))


# -- 1. the entry's own fields -----------------------------------------------------------------

def entry_number(args: MultiDict, table: dict, correcting: dict | None) -> int | None:
    """The hand this entry was started for (``number``, taken out of ``args``): the form keeps
    it through its taps, so a hand someone else records meanwhile is a conflict at 记入, not a
    silent renumbering. None: the table's next (or a correction, which has its own)."""
    number = args.poplist("number")
    if (correcting is None and number and number[-1].isdecimal()   # not isdigit: ²
            and len(number[-1]) <= 9):
        return min(int(number[-1]), table["next_number"])
    return None


def declared_values(args: MultiDict) -> dict[str, list[str]]:
    """The declared factors as typed (``d_doubles``, ``d_fan``, ``d_biao``), blanks left out."""
    return {name: [v.strip() for v in args.getlist(f"d_{name}") if v.strip()][:DECLARED_MAX]
            for name in DECLARED_FIELDS}


# -- 2. a calculator's room sent to the table --------------------------------------------------

@dataclass
class Sent:
    """A calculator's room as the table reads it: its arguments, and either what the table
    decides otherwise (``notes``) or why nothing of it was taken (``refused``)."""

    args: MultiDict
    notes: list[str]
    refused: str | None = None


def from_calculator(args: MultiDict, table: dict, dealer: int) -> Sent:
    """A calculator's room sent here: refused (only ``lang`` kept) when it is another
    variant's, else noted where the table differs, with no bet where it set none."""
    theirs = args.get("variant")
    if theirs != table["variant"]:
        return Sent(MultiDict([(k, v) for k, v in args.items(multi=True) if k == "lang"]), [],
                    refusal(theirs, table["variant"]))
    notes = differences(args, table, dealer)
    for key in BET_KEYS:                    # the calculator's default: no bet
        if key not in args:
            args[key] = "0"
    return Sent(args, notes)


def differences(args: MultiDict, table: dict, dealer: int) -> list[str]:
    """What of a calculator's room this table decides otherwise: each option, the base
    and the dealer, as "label: the table's (the calculator's)"."""
    theirs = read_room(args, table["variant"])
    ours = read_room(table_args(table, dealer), table["variant"])
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


def refusal(theirs: str | None, ours: str) -> str:
    from .templating import VARIANT_NAMES

    if theirs not in VARIANT_LABELS:
        return _("This is not a variant: the table plays %(table)s. Nothing was filled in.",
                 table=VARIANT_NAMES.get(ours, ours))
    return _("This table plays %(table)s; the hand was worked out for %(calc)s. Nothing was "
             "filled in: open the hand in the calculator as %(table)s, or tap it in here.",
             table=VARIANT_NAMES.get(ours, ours), calc=VARIANT_NAMES.get(theirs, theirs))


# -- 3. the corrected hand ---------------------------------------------------------------------

def prefill(args: MultiDict, table: dict, correcting: dict) -> None:
    """The corrected hand's recorded inputs put into ``args`` (the dealer is the table's to
    set)."""
    fields, room_args = prefill_hand(table, correcting)
    for k, v in {**fields, **room_args}.items():
        if k != "s_dealer":
            args.setlist(k, v if isinstance(v, list) else [v])


def prefill_hand(table: dict, h: dict) -> tuple[dict, dict]:
    """A recorded hand's request → (analysis form fields, room args). The winner's kongs
    that the melds give are the room's to add again (:attr:`Room.winner_kongs`), so they
    are left out of the kong list here: listed too, they would be an error (counted twice)."""
    req = h["request"]
    s = req.get("settlement") or {}
    fields = _prefill_fields(req)
    args = {"s_dealer": str(s.get("dealer", h["dealer"])),
            "s_winner": "none" if s.get("winner") is None else str(s["winner"])}
    args.update(_discarder_args(s))
    args.update(_seat_args(s))
    kongs = list(s.get("kongs") or [])
    if isinstance(s.get("winner"), int) and req.get("hand") and fields["melds"]:
        kongs = _without_winner_kongs(table, req, s["winner"], kongs)
    if kongs:
        args["s_kongs"] = _kongs_text(kongs)
    args.update(_flag_args(s))
    declared = req.get("declared") or {}
    for key, value in declared.items():
        if value:
            fields[f"d_{key}"] = list(value) if isinstance(value, list) else str(value)
    return fields, args


def _prefill_fields(req: dict) -> dict:
    """The analysis form's tile fields of a recorded request (melds it cannot print: none)."""
    fields = {k: req.get(k, "") for k in ("hand", "indicator", "winning_tile")}
    fields["win_by"] = req.get("win_by", "self_draw")
    if req.get("history"):
        fields["history"] = history_text(req["history"])
    try:
        fields["melds"] = melds_to_text(req.get("melds") or [])
    except InputError:
        fields["melds"] = ""
    return fields


def _discarder_args(s: dict) -> dict[str, str]:
    """The discarder and their 上架 (a rule set whose settlement asks it asks it apart; ready
    unless the record says)."""
    if s.get("discarder") is None:
        return {}
    ready = "1" if s.get("ready") is None or s["ready"][s["discarder"]] else "0"
    return {"s_discarder": str(s["discarder"]), "s_dready": ready}


def _seat_args(s: dict) -> dict[str, str]:
    """Each seat's 跑, 加钢 and 上架 as the settlement recorded them, seat by seat."""
    args = {}
    for i in range(4):
        if s.get("pao"):
            args[f"s_pao{i}"] = str(s["pao"][i])
        if s.get("jiagang") and s["jiagang"][i]:
            args[f"s_jiagang{i}"] = "1"
        if s.get("ready") is not None:
            args[f"s_ready{i}"] = "1" if s["ready"][i] else "0"
    return args


def _without_winner_kongs(table: dict, req: dict, winner: int, kongs: list) -> list:
    """``kongs`` less the winner's kongs that the melds give (the last listed of each)."""
    variant = VARIANTS[table["variant"]]
    try:
        options = parse_options(variant.Options, table["options"])
    except InputError:
        options = variant.Options()
    kongs = list(kongs)
    for k in reversed([k for k in kongs_of_melds(variant, options, req.get("melds") or [],
                                                 winner, req.get("indicator"))
                       if k is not None]):
        for j in range(len(kongs) - 1, -1, -1):      # the page lists them last
            if kongs[j] == k:
                del kongs[j]
                break
    return kongs


def _kongs_text(kongs: list) -> str:
    """The room's kong list as the ``s_kongs`` field writes it: ``seat:type[:from],…``."""
    return ",".join(
        f"{k['seat']}:{k['type']}" + (f":{k['from']}" if k.get("from") is not None else "")
        for k in kongs)


#: the settlement's yes/no inputs and the room's fields for them
_FLAGS = (("follow_dealer", "s_follow"), ("duanmen", "s_duanmen"),
          ("kong_discard", "s_kong_discard"))


def _flag_args(s: dict) -> dict[str, str]:
    """The count of 表 discards and the yes/no inputs the settlement has set."""
    args = {}
    if s.get("biao_discards"):
        args["s_biao"] = str(s["biao_discards"])
    for key, name in _FLAGS:
        if s.get(key):
            args[name] = "1"
    return args


# -- 4. the carried bets -----------------------------------------------------------------------

@dataclass(frozen=True)
class Bets:
    """跑 and 加钢 of the four seats."""

    pao: tuple[int, ...] = (0, 0, 0, 0)
    jiagang: tuple[bool, ...] = (False, False, False, False)

    def __bool__(self) -> bool:
        return any(self.pao) or any(self.jiagang)


def carried_bets(table: dict) -> Bets | None:
    """The bets the next hand's entry starts with: the one place that decides. Now: those of
    the last counted hand (an adjustment or a voided hand does not reset them), kept until
    changed; when the table says to reset them between hands (``T["carry_bets"]`` is
    ``"reset"``) ``None``. The entry shows them as 同上一手 with one tap to clear
    (docs/decisions.md "Carried bets")."""
    if table.get("carry_bets") == "reset":
        return None
    for h in reversed(table["hands"]):
        if h["kind"] == "hand" and h["status"] == "recorded":
            s = h["request"].get("settlement") or {}
            bets = Bets(tuple(int(x) for x in (s.get("pao") or [0] * 4)),
                        tuple(bool(x) for x in (s.get("jiagang") or [False] * 4)))
            return bets or None
    return None


def apply_bets(args: MultiDict, carried: Bets | None, variant: str) -> None:
    """The bets buttons (清空 / 同上局) and, at a fresh entry, the carried bets as the
    defaults."""
    action = args.poplist("bets")
    last = carried or Bets()
    if action and action[-1] in ("clear", "last"):
        bets = Bets() if action[-1] == "clear" else last
        for i in range(4):
            args.setlist(f"s_pao{i}", [str(bets.pao[i])])
            args.setlist(f"s_jiagang{i}", ["1" if bets.jiagang[i] else "0"])
    if carried:                             # the carried bets are the defaults
        from_form = args.get("form_variant") == variant
        for i in range(4):
            if f"s_pao{i}" not in args:
                args[f"s_pao{i}"] = str(last.pao[i])
            if f"s_jiagang{i}" not in args and not from_form:
                args[f"s_jiagang{i}"] = "1" if last.jiagang[i] else "0"


def changed_bets(carried: Bets, room: Room) -> list[tuple[str, str]]:
    """The URL state of the bets where the room's differ from the carried ones (the carried
    bets themselves are the defaults, not state)."""
    out = []
    uses = room.uses
    for i in range(4):
        key = f"s_pao{i}"
        if "pao" in uses and key not in room.errors and room.pao[i] != carried.pao[i]:
            out.append((key, str(room.pao[i])))
    for i in range(4):
        key = f"s_jiagang{i}"
        if ("jiagang" in uses and key not in room.errors
                and room.jiagang[i] != carried.jiagang[i]):
            out.append((key, "1" if room.jiagang[i] else "0"))
    return out


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


# -- 5. the table's own ------------------------------------------------------------------------

def table_args(table: dict, dealer: int) -> MultiDict:
    """The room arguments of the table: its variant, options, base, names and ``dealer``."""
    out = MultiDict([("variant", table["variant"])])
    specs = {s["name"] for s in option_specs(VARIANTS[table["variant"]].Options)}
    for name, value in table["options"].items():
        if name in specs:
            out.add(f"opt_{name}",
                    ("1" if value else "0") if isinstance(value, bool) else str(value))
    out.add("s_base", str(table["base"]))
    for i, n in enumerate(table["names"]):
        out.add(f"n{i}", n)
    out.add("s_dealer", str(dealer))
    return out
