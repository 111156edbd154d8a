"""The arguments of a table's entry, by where they come from (:class:`.ledger_home.TableHome`
binds them): the keys the table decides and those the entry keeps, the bets carried from the
last hand, and a corrected hand's recorded inputs put back into the room's fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..notation import melds_to_text
from ..options import parse_options
from ..settlement import kongs_of_melds
from ..variants import VARIANTS
from . import tap
from .forms import TEXT_FIELDS
from .turns import history_text


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
    """The discarder and their 上架 (JC-5: asked apart; ready unless the record says)."""
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


class Unsettled(InputError):
    """The entry's room has inputs it cannot read (shown under them): nothing is recorded,
    as the calculator page computes no settlement then."""


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
