"""A hand's story: the winner's turns before a win (表, for a variant that takes a history)
and the turn-by-turn review of one player's hand (牌谱复盘, API.md "Hand review").

Both replay turns and ask the engine; neither decides a rule of its own.

* :func:`read_history` (in :mod:`webcalc.history`, importable from here) rebuilds,
  backwards from the final hand, the 13 tiles held before each of the winner's last turns
  (hand before = hand after + discard − draw), asks the variant whether each is in the
  any-tile wait and counts the biao discards of the last unbroken run in it (the rule is
  the variant's: ``Variant.takes_history``).
  :func:`webcalc.analysis.analyze` answers ``history`` with it.
* :func:`review` replays a dealt hand through its turns (draws, discards, claims, kongs, the
  win) and, at every discard, asks :func:`webcalc.analysis.analyze` for the 14 tiles' 牌理
  (``efficiency``, exactly as the API gives it for those tiles, the player's earlier discards
  counted as seen), then ranks the discard taken. Choices the contract leaves open are in
  docs/decisions.md ("Hand review").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import (
    BadHistoryError,
    BadJsonError,
    BadOptionError,
    BadRequestError,
    InputError,
    NotCompleteError,
    TooManyCopiesError,
    WrongTileCountError,
)
from .hand import Hand, Meld

# the winner's history lives in webcalc/history.py (the analysis reads it, and the review
# below imports the analysis); its names stay importable from here
from .history import (  # noqa: F401
    MAX_HISTORY,
    History,
    HistoryTurn,
    _about_turn,
    _one,
    _too_many,
    _turn_error,
    read_history,
)
from .messages import Message
from .tiles import FIELD_LABELS, Tile, counts_of, format_tiles, tiles_of
from .variants.base import Situation, Variant

if TYPE_CHECKING:
    from .analysis import Analysis

#: most turns a review may hold (as for MAX_HISTORY in webcalc/history.py: about 21 draws in a
#: whole hand; the API's 16 KB body cap applies too)
MAX_TURNS = 40


# -- the hand review (牌谱复盘) ---------------------------------------------------------------

REVIEW_FIELDS = ("variant", "options", "indicator", "visible", "start", "turns")
TURN_KEYS = ("draw", "claim", "tiles", "tile", "from", "kong", "replacement", "discard", "win")
CLAIMS = ("pong", "chow", "kong", "win")
_CLAIM_MELD = {"pong": "pong", "chow": "chow", "kong": "kong"}
_INF = 99


def _rank_key(row: dict[Any, Any]) -> tuple[int, int]:
    """The order of API "Hand efficiency": lowest shanten (never ready last), most useful."""
    s = row["shanten"]
    return (_INF if s is None else s, -row["useful_total"])


def rank_discard(rows: list[dict[Any, Any]], discard: str) -> dict[Any, Any]:
    """The review of one discard against the 14 tiles' ``efficiency`` rows.

    Returns:
        ``{"chosen": {"discard", "shanten", "useful_total", "rank"}, "loss", "shanten_loss"}``:
        ``rank`` is 1 + the number of rows strictly better (lower shanten, or the same
        shanten and more useful copies), so discards that tie share a rank and every best
        discard is rank 1; ``shanten_loss`` = chosen shanten − the best row's (``None``
        when the chosen discard can never be ready and the best can); ``loss`` = the best
        row's ``useful_total`` − the chosen's when their shanten is the same, else the
        best row's whole ``useful_total`` (at a worse shanten none of the chosen's useful
        draws reaches where the best's reach). docs/decisions.md "Hand review".
    """
    row = next(r for r in rows if r["discard"] == discard)
    best = rows[0]
    key = _rank_key(row)
    rank = 1 + sum(1 for r in rows if _rank_key(r) < key)
    shanten_loss: int | None
    if row["shanten"] == best["shanten"]:
        shanten_loss, loss = 0, best["useful_total"] - row["useful_total"]
    else:
        shanten_loss = None if row["shanten"] is None else row["shanten"] - best["shanten"]
        loss = best["useful_total"]
    return {"chosen": {"discard": discard, "shanten": row["shanten"],
                       "useful_total": row["useful_total"], "rank": rank},
            "loss": loss, "shanten_loss": shanten_loss}


def _note(complete: bool, ranked: dict[Any, Any], best: dict[Any, Any]) -> Message:
    """What the review says of one discard (rendered in the reader's language)."""
    c = ranked["chosen"]
    tile, other = Tile.parse(c["discard"]), Tile.parse(best["discard"])
    if complete:
        return Message("review.note.won", tile=tile)
    if c["shanten"] is None and best["shanten"] is None:
        return Message("review.note.hopeless", tile=tile, rule="C-12")
    if c["rank"] == 1:
        return Message("review.note.best", tile=tile, shanten=c["shanten"],
                       useful=c["useful_total"], rule="C-12")
    if ranked["shanten_loss"] == 0:
        return Message("review.note.fewer", tile=tile, shanten=c["shanten"],
                       useful=c["useful_total"], best=other, best_useful=best["useful_total"],
                       lost=ranked["loss"], rule="C-12")
    if c["shanten"] is None:
        return Message("review.note.never", tile=tile, best=other,
                       best_shanten=best["shanten"], rule="C-12")
    return Message("review.note.slower", tile=tile, shanten=c["shanten"], best=other,
                   best_shanten=best["shanten"], best_useful=best["useful_total"],
                   rule="C-12")


class _Replay:
    """One player's hand through the turns of a review: concealed counts, melds, discards,
    and every copy out of the wall (held, seen, thrown, the indicator) for C-2."""

    PREFIX = "review.turn"

    def __init__(self, variant: Variant, request: dict[Any, Any], options: Any, kinds: int,
                 wildcards: tuple[Tile, ...], indicator: Tile | None, visible: list[Tile],
                 start: list[Tile]):
        self.variant, self.options, self.kinds = variant, options, kinds
        self.wildcards, self.indicator = wildcards, indicator
        self.visible = counts_of(visible)
        self.concealed = counts_of(start)
        self.melds: list[Meld] = []
        self.discards: list[Tile] = []
        # C-2 as analyze checks it: the indicator, then the hand, then the tiles seen
        self.out = [0] * 34
        if indicator is not None:
            self.out[indicator] += 1
        for field, tiles in (("start", start), ("visible", visible)):
            for t in tiles:
                self.out[t] += 1
                if self.out[t] > 4:
                    code = "copies.indicator" if t == indicator else "copies.too_many"
                    n = 3 if t == indicator else 4
                    raise TooManyCopiesError(Message(
                        "field_error", field=FIELD_LABELS[field],
                        text=Message(code, tile=t, n=n, rule="C-2")), field)
        self.base = {"variant": variant.name}
        if request.get("options") is not None:
            self.base["options"] = request["options"]
        if indicator is not None:
            self.base["indicator"] = indicator.code

    # -- state ---------------------------------------------------------------------------
    def count(self) -> int:
        return sum(self.concealed) + 3 * len(self.melds)

    def tiles(self) -> str:
        return format_tiles(tiles_of(self.concealed))

    def seen(self) -> str:
        """``visible`` plus every discard so far."""
        c = list(self.visible)
        for t in self.discards:
            c[t] += 1
        return format_tiles(tiles_of(c))

    def request(self, **extra: Any) -> dict[Any, Any]:
        """The analyze request of the present state."""
        req = dict(self.base, hand=self.tiles(), visible=self.seen(), **extra)
        if self.melds:
            req["melds"] = [m.to_dict() for m in self.melds]
        return req

    def situation(self) -> Situation:
        return Situation(Hand(tuple(tiles_of(self.concealed)), tuple(self.melds)),
                         self.wildcards, self.options)

    # -- moves ---------------------------------------------------------------------------
    def error(self, i: int, code: str, text: Message) -> InputError:
        return _turn_error(code, "turns", i, text, self.PREFIX)

    def tile(self, t: dict[Any, Any], key: str, i: int) -> Tile:
        return _one(t[key], key, self.kinds, "turns", i, self.PREFIX)

    def arrive(self, tile: Tile, i: int) -> None:
        """A tile comes into the hand from outside (a draw, a replacement, a claim)."""
        self.out[tile] += 1
        if self.out[tile] > 4:
            n = 3 if tile == self.indicator else 4
            raise self.error(i, "bad_history", Message("review.fifth_copy", tile=tile, n=n,
                                                       rule="C-2"))
        self.concealed[tile] += 1

    def check(self, melds: list[Meld], i: int) -> None:
        """``bad_meld`` (with the turn) for melds the variant forbids."""
        try:
            self.variant.check_melds(self.options, melds, self.wildcards)
        except InputError as e:
            raise _about_turn(e, "turns", i, self.PREFIX) from None

    def add_meld(self, meld: Meld, i: int) -> None:
        self.check(self.melds + [meld], i)
        self.melds = self.melds + [meld]

    def claim(self, t: dict[Any, Any], i: int) -> None:
        kind = _CLAIM_MELD[t["claim"]]
        if "tiles" not in t:
            raise self.error(i, "bad_history", Message("review.claim_tiles"))
        try:
            meld = Meld.build(kind, t["tiles"], t.get("from"), field="turns")
        except InputError as e:
            raise _about_turn(e, "turns", i, self.PREFIX) from None
        self.check(self.melds + [meld], i)          # a meld the variant forbids, first
        kinds = sorted(set(meld.tiles))
        if "tile" in t:
            claimed = self.tile(t, "tile", i)
            if claimed not in kinds:
                raise self.error(i, "bad_history", Message(
                    "review.claimed_not_in_meld", tile=claimed, tiles=format_tiles(meld.tiles)))
            options = [claimed]
        else:
            options = [c for c in kinds if self._holds_rest(meld, c)]
            if len(options) > 1:
                raise self.error(i, "bad_history", Message(
                    "review.which_claimed", tiles=format_tiles(meld.tiles)))
            if not options:
                options = kinds[:1]
        claimed = options[0]
        if not self._holds_rest(meld, claimed):
            raise self.error(i, "bad_history", Message(
                "review.claim_not_held", tiles=format_tiles(meld.tiles), tile=claimed))
        self.arrive(claimed, i)
        for k in meld.tiles:
            self.concealed[k] -= 1
        self.add_meld(meld, i)

    def _holds_rest(self, meld: Meld, claimed: Tile) -> bool:
        rest = list(meld.tiles)
        rest.remove(claimed)
        need = counts_of(rest)
        return all(self.concealed[k] >= n for k, n in enumerate(need) if n)

    def kong(self, t: dict[Any, Any], i: int) -> None:
        k = self.tile(t, "kong", i)
        if self.concealed[k] >= 4:
            self.concealed[k] -= 4
            self.add_meld(Meld("concealed_kong", (k,) * 4), i)
            return
        for j, m in enumerate(self.melds):
            if m.kind == "pong" and m.tiles[0] == k and self.concealed[k] >= 1:
                self.concealed[k] -= 1
                melds = list(self.melds)
                melds[j] = Meld("added_kong", (k,) * 4, m.source)
                self.check(melds, i)
                self.melds = melds
                return
        raise self.error(i, "bad_history", Message("review.cannot_kong", tile=k))

    def discard(self, tile: Tile) -> None:
        self.concealed[tile] -= 1
        self.discards.append(tile)


def _check_review(request: Any) -> dict[Any, Any]:
    if not isinstance(request, dict):
        raise BadJsonError(Message("review.not_object"), None)
    for key in request:
        if key not in REVIEW_FIELDS:
            raise BadRequestError(Message("request.unknown_key", key=key,
                                          known=list(REVIEW_FIELDS)), str(key))
    return request


def _turn_shape(t: Any, i: int, replay: _Replay, first14: bool) -> str:
    """Check one turn's keys; return its kind: ``draw``, ``claim``, ``kong``, ``win_claim``."""
    if not isinstance(t, dict):
        raise replay.error(i, "bad_history", Message("review.turn_object"))
    for key in t:
        if key not in TURN_KEYS:
            raise replay.error(i, "bad_history", Message("review.turn_key", key=str(key),
                                                         known=list(TURN_KEYS)))
    if "win" in t and t["win"] is not True:
        raise replay.error(i, "bad_history", Message("review.win_true"))
    claim = t.get("claim")
    if claim is not None:
        if claim not in CLAIMS:
            raise replay.error(i, "bad_history", Message("review.bad_claim",
                                                         claims=list(CLAIMS)))
        if first14 or "draw" in t or "kong" in t:
            raise replay.error(i, "bad_history", Message(
                "review.no_draw_dealer" if first14 else "review.claim_and_draw"))
        if claim == "win":
            extra = set(t) - {"claim", "tile", "from"}
            if extra or "tile" not in t:
                raise replay.error(i, "bad_history", Message("review.win_claim_shape"))
            return "win_claim"
        if "tiles" not in t:
            raise replay.error(i, "bad_history", Message("review.claim_tiles"))
        kind = "claim"
    else:
        for key in ("tiles", "tile", "from"):
            if key in t:
                raise replay.error(i, "bad_history", Message("review.claim_only", key=key))
        if first14 and "draw" in t:
            raise replay.error(i, "bad_history", Message("review.no_draw_dealer"))
        if not first14 and "draw" not in t:
            raise replay.error(i, "bad_history", Message("review.need_draw"))
        kind = "kong" if "kong" in t else "draw"
    konged = kind == "kong" or claim == "kong"
    if konged and "replacement" not in t:
        raise replay.error(i, "bad_history", Message("review.need_replacement"))
    if not konged and "replacement" in t:
        raise replay.error(i, "bad_history", Message("review.replacement_only"))
    if ("discard" in t) == ("win" in t):
        raise replay.error(i, "bad_history", Message("review.discard_or_win"))
    if "win" in t and kind == "claim" and claim != "kong":
        raise replay.error(i, "bad_history", Message("review.claim_win"))
    return kind


def review(request: Any) -> dict[Any, Any]:
    """Review one player's hand turn by turn (API.md "Hand review (牌谱复盘)").

    Args:
        request: ``{"variant", "options"?, "indicator"?, "visible"?, "start", "turns"}``;
            ``start`` the 13 dealt tiles (14 for the dealer, whose first turn then has no
            draw), ``turns`` as API.md lists them (at most :data:`MAX_TURNS`).

    Returns:
        ``{"turns": [{"number", "hand", "melds", "shanten", "best", "chosen", "loss",
        "shanten_loss", "note"}], "summary": {"turns", "best_taken", "tiles_lost",
        "shanten_lost"}, "final": the analyze response of the last state}``: one entry per
        turn that ends with a discard (``number`` is its 0-based index in ``turns``);
        ``best`` the first three ``efficiency`` rows of the 14 tiles before the discard,
        exactly as :func:`webcalc.analysis.analyze` gives them with ``visible`` and every
        earlier discard of the player seen; ``chosen``, ``loss``, ``shanten_loss`` as
        :func:`rank_discard`; ``note`` a :class:`~webcalc.messages.Message`. ``final`` is
        the winning hand analysed (``winning_tile`` and ``win_by`` given) after a win,
        else the hand after the last turn.

    Raises:
        InputError: :func:`~webcalc.analysis.analyze`'s classes for the room, ``start``,
            ``indicator`` and ``visible``; :class:`~webcalc.errors.BadHistoryError` (with
            ``turn``) for a turn that cannot be played from the hand;
            :class:`~webcalc.errors.BadTileError`, :class:`~webcalc.errors.BadMeldError`,
            :class:`~webcalc.errors.BadWinByError`, :class:`~webcalc.errors.NotCompleteError`
            (with ``turn``) for a turn's tiles, claims and win;
            :class:`~webcalc.errors.TooManyError` past :data:`MAX_TURNS`.
    """
    from .analysis import _one_tile, _tiles, _variant, analyze
    from .options import parse_options

    req = _check_review(request)
    variant = _variant(req.get("variant"))
    options = parse_options(variant.Options, req.get("options"))
    kinds = variant.kinds_in_play(options)
    turns = req.get("turns")
    if turns is None:
        turns = []
    if not isinstance(turns, list):
        raise BadHistoryError(Message("review.turns_not_list"), "turns")
    if len(turns) > MAX_TURNS:
        raise _too_many("turns", "review_turns", MAX_TURNS, "review.too_many")
    start = _tiles(req, "start", kinds, required=True)
    indicator = _one_tile(req, "indicator", kinds)
    visible = _tiles(req, "visible", kinds)
    if indicator is not None and not variant.wildcards_on(options):
        raise BadOptionError(Message("indicator.no_wildcards", variant=variant.label,
                                     rule="C-7"), "indicator")
    if len(start) not in (13, 14):
        raise WrongTileCountError(Message("review.start_count", n=len(start),
                                          rule="C-3"), "start")
    wildcards = variant.wildcards(options, indicator)
    replay = _Replay(variant, req, options, kinds, wildcards, indicator, visible, start)

    reviewed: list[dict[Any, Any]] = []
    final = None
    for i, t in enumerate(turns):
        if final is not None:
            raise replay.error(i, "bad_history", Message("review.after_win"))
        first14 = replay.count() == 14
        kind = _turn_shape(t, i, replay, first14)
        if kind == "win_claim":
            tile = replay.tile(t, "tile", i)
            if t.get("from") is not None and (isinstance(t["from"], bool)
                                              or t["from"] not in range(4)):
                raise replay.error(i, "bad_history", Message("review.bad_from"))
            replay.arrive(tile, i)
            final = _final(analyze, replay, i, tile, "discard")
            continue
        last: Tile | None = None           # the tile that came last (a win's winning tile)
        if "draw" in t:
            last = replay.tile(t, "draw", i)
            replay.arrive(last, i)
        if kind == "claim":
            replay.claim(t, i)
        if kind == "kong":
            replay.kong(t, i)
        if "replacement" in t:
            last = replay.tile(t, "replacement", i)
            replay.arrive(last, i)
        if "win" in t:
            final = _final(analyze, replay, i, last,
                           "kong_replacement" if "replacement" in t else "self_draw")
            continue
        discard = replay.tile(t, "discard", i)
        if not replay.concealed[discard]:
            raise replay.error(i, "bad_history", Message("review.not_held", tile=discard))
        if not variant.can_discard(replay.situation(), discard):
            raise replay.error(i, "bad_history", Message("review.cannot_discard",
                                                         variant=variant.label, tile=discard))
        try:
            out = analyze(replay.request())
        except InputError as e:          # the replay's own checks should leave none
            raise _about_turn(e, "turns", i, replay.PREFIX) from None
        rows = list(out.efficiency or ())
        ranked = rank_discard(rows, discard.code)
        reviewed.append({
            "number": i, "hand": replay.tiles(),
            "melds": [m.to_dict() for m in replay.melds],
            "shanten": out.shanten, "best": rows[:3], **ranked,
            "note": _note(out.complete, ranked, rows[0]),
        })
        replay.discard(discard)
    if final is None:
        try:
            final = analyze(replay.request())
        except InputError as e:
            if not turns:
                raise
            raise _about_turn(e, "turns", len(turns) - 1, replay.PREFIX) from None
    return {
        "variant": variant.name,
        "turns": reviewed,
        "summary": {
            "turns": len(reviewed),
            "best_taken": sum(1 for r in reviewed if r["chosen"]["rank"] == 1),
            "tiles_lost": sum(r["loss"] for r in reviewed),
            "shanten_lost": sum(r["shanten_loss"] or 0 for r in reviewed),
        },
        "final": final.to_json(),
    }


def _final(analyze: Callable[[dict[Any, Any]], Analysis], replay: _Replay, i: int,
           winning: Tile | None, win_by: str) -> Analysis:
    """The analysis of the winning hand of turn ``i``: ``not_complete`` when it is no win."""
    extra: dict[Any, Any] = {"win_by": win_by}
    if winning is not None:
        extra["winning_tile"] = winning.code
    try:
        out = analyze(replay.request(**extra))
    except InputError as e:
        raise _about_turn(e, "turns", i, replay.PREFIX) from None
    if not out.complete:
        raise NotCompleteError(Message(replay.PREFIX, n=i + 1, text=Message(
            "review.not_a_win", rule="C-15")), "turns", reasons=list(out.reasons) or None,
            turn=i)
    return out
