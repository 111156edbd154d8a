"""Circles (牌友圈): the same players across evenings (API.md "Circles").

A circle has a name, players (numbered 1, 2, … within it: the API's player ids) and the
tables created in it; each such table maps its four seats to four distinct players. Like a
table it is addressed by two secret tokens, an edit token (adds players, creates tables in
the circle) and a view token (reads only), of which only the SHA-256 is stored.

Standings never read a hand: each seat of a table in a circle has a ``ledger_seat`` row with
its kept figures (:class:`~webcalc.ledger.models.Seat`), which every write of that table
(record, correct, void, undo, adjustment) updates in its own transaction
(:func:`apply_seats`). A circle's read sums those rows: one query for the tables, one for the
seats, one for the players, however many hands were played.

The figures of one counted entry for one seat (:func:`entry_figures`): a hand (``kind``
``hand``) counts 1 in ``hands`` for every seat; the winner's seat counts a win (``self_draw``
or ``kong_replacement``: a self-draw too), the discarder's seat of a ``discard`` or
``robbing_kong`` win counts a deal-in; every entry adds its net (adjustments included). A
free table's hand (``kind`` ``points``) counts in ``hands``, and a win for the seat (or
seats, on a tie) with the largest amount when it is positive, never a self-draw or a deal-in
(API.md "自由记分 tables"). A
hand recorded without tiles counts exactly as one with tiles. ``biggest_win`` is the largest
net of a hand the player won (null when they won none): docs/decisions.md "Circles".

This module is a mixin of :class:`~webcalc.ledger.service.Ledger`; it never imports Flask.
"""

from __future__ import annotations

import json
import secrets
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeGuard

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import BadJsonError, BadRequestError, InputError
from ..json_checks import MAX_DEPTH, body_problem
from ..messages import M, Message
from . import db
from .errors import NotFound, ReadOnly, TooMany
from .models import INT_MAX, Circle, CirclePlayer, Seat, Table, utcnow
from .money import all_ints, exact, number
from .points import POINTS, free_wins
from .tokens import TOKEN_BYTES, TOKEN_SHAPE, _iso, _pad, _seal, token_hash, view_token_of

#: Caps (docs/LEDGER.md "Circles"): past them 422 ``too_many`` with ``detail``.
PLAYERS_MAX = 60
TABLES_MAX = 1000
#: tables one circle import may hold (each of its hands is computed again by the engine)
IMPORT_TABLES_MAX = 200
#: Engine computations one import may ask for: its entries plus their older revisions, all
#: its tables together (docs/LEDGER.md "Limits"). Each is computed again, so this bounds an
#: import's CPU: under 2 s at the cap on fresh hands (bench/RESULTS.md "Circle imports"); a
#: circle of 100 evenings of 16 hands (1,600) fits with room for corrections.
IMPORT_COMPUTATIONS_MAX = 2500
CIRCLE_NAME_MAX = 40
PLAYER_NAME_MAX = 16
CIRCLE_FORMAT = "webcalc-circle/1"
WIN_BY_SELF = ("self_draw", "kong_replacement")
WIN_BY_DISCARD = ("discard", "robbing_kong")


@dataclass(frozen=True)
class CircleCreated:
    """A new circle: ``circle`` (C) and its two tokens, which exist nowhere else."""

    circle: dict
    edit_token: str
    view_token: str


def _bad(field: str, code: str, **params: Any) -> InputError:
    return BadRequestError(Message(code, params), field)


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def circle_name(value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value.strip()) <= CIRCLE_NAME_MAX \
            or not value.strip().isprintable():
        raise _bad("name", "circle.name_bad", max=CIRCLE_NAME_MAX)
    return value.strip()


def player_name(value: Any, field: str = "name") -> str:
    if not isinstance(value, str) or not 0 < len(value.strip()) <= PLAYER_NAME_MAX \
            or not value.strip().isprintable():
        raise _bad(field, "circle.player_name_bad", max=PLAYER_NAME_MAX)
    return value.strip()


def entry_figures(kind: str, request: dict, result: dict) -> list[dict]:
    """What one counted entry adds to each seat's figures (seat 0-3): ``{"hand": 0|1,
    "win": win_by or None, "dealt_in": winner seat or None, "net": x}``."""
    net = result["settlement"]["net"]
    out = [{"hand": int(kind in ("hand", POINTS)), "win": None, "dealt_in": None,
            "net": net[i]} for i in range(4)]
    if kind == POINTS:                    # a free table's hand: the largest positive amount
        for i, won in enumerate(free_wins(net)):
            if won:
                out[i]["win"] = POINTS
    elif kind == "hand":
        st = request.get("settlement") or {}
        winner = st.get("winner")
        if _is_int(winner) and 0 <= winner <= 3:
            by = request.get("win_by") or "self_draw"
            out[winner]["win"] = by
            d = st.get("discarder")
            if by in WIN_BY_DISCARD and _is_int(d) and 0 <= d <= 3 and d != winner:
                out[d]["dealt_in"] = winner
    return out


def empty_entries() -> dict:
    return {"wins": {}, "dealt_in": {}}


def add_figures(row: Any, number_: int, fig: dict, sign: int) -> None:
    """Add (``sign`` 1) or take out (-1) one entry's figures ``fig`` on a seat ``row``
    (a :class:`Seat` or any object with its attributes)."""
    entries = {"wins": dict(row.entries.get("wins", {})),
               "dealt_in": dict(row.entries.get("dealt_in", {}))}
    key = str(number_)
    row.hands += sign * fig["hand"]
    row.net = str(Fraction(row.net) + sign * exact(fig["net"]))
    row.floats += sign * (not all_ints([fig["net"]]))
    if fig["win"] is not None:
        row.wins += sign
        row.self_draws += sign * (fig["win"] in WIN_BY_SELF)
        if sign > 0:
            entries["wins"][key] = {"net": fig["net"], "by": fig["win"]}
        else:
            entries["wins"].pop(key, None)
    if fig["dealt_in"] is not None:
        row.dealt_in += sign
        if sign > 0:
            entries["dealt_in"][key] = fig["dealt_in"]
        else:
            entries["dealt_in"].pop(key, None)
    nets = [w["net"] for w in entries["wins"].values()]
    row.biggest_win = max(nets, key=exact) if nets else None
    row.entries = entries


def apply_seats(s: Session, t: Table, changes: list[tuple[int, str, dict, dict, int]]) -> None:
    """In the write's transaction: for a table in a circle, add or take out entries'
    figures on its four seat rows. ``changes``: ``(number, kind, request, result, sign)``."""
    if t.circle_id is None or not changes:
        return
    rows = s.scalars(select(Seat).where(Seat.table_id == t.id).order_by(Seat.seat)).all()
    for n, kind, request, result, sign in changes:
        for row, fig in zip(rows, entry_figures(kind, request, result)):
            add_figures(row, n, fig, sign)


def _fresh_seat(circle_id: int, seat: int, player: int, table_id: int | None = None) -> dict:
    return {"table_id": table_id, "circle_id": circle_id, "seat": seat, "player": player,
            "hands": 0, "wins": 0, "self_draws": 0, "dealt_in": 0, "net": "0", "floats": 0,
            "biggest_win": None, "entries": empty_entries()}


class _Row:
    """A seat row being built in memory (an import)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def _sum(values: list[tuple[str, int]]) -> int | float:
    ints = all(f == 0 for _, f in values)
    if ints and not any("/" in x for x, _ in values):
        return sum(int(x) for x, _ in values)
    total = sum((_frac(x) for x, _ in values), Fraction(0))
    return number(total, ints)


class CircleMixin:
    """The circle methods of :class:`~webcalc.ledger.service.Ledger`."""

    players_max = PLAYERS_MAX
    circle_tables_max = TABLES_MAX
    import_computations_max = IMPORT_COMPUTATIONS_MAX

    if TYPE_CHECKING:                     # what the Ledger it is mixed into provides
        engine: Any
        tables_per_hour: int

        def _run(self, work: Any, *, write: bool, wait: Any = None) -> Any: ...
        def _lock_wait(self) -> Any: ...
        def _rate_limit(self, s: Session, address: str, now: Any) -> None: ...
        def _export_by_id(self, table_id: int) -> dict: ...
        def _import_caps(self, data: Any) -> int: ...
        def _too_many_computations(self, field: str, circle: bool = False) -> TooMany: ...
        def _import_plan(self, data: Any) -> tuple: ...
        def _imported_rows(self, variant: str, options: dict, base: Any, dealer: int,
                           entries: list, now: Any, deadline: float | None = None,
                           field: str = "entries") -> tuple: ...
        def _import_deadline(self) -> float | None: ...
        @staticmethod
        def _insert_imported(s: Session, table_id: int, hands: list,
                             revisions: list) -> None: ...

    # -- tokens ---------------------------------------------------------------------------
    def _find_circle(self, s: Session, token: Any, *, write: bool) -> tuple[Circle, bool]:
        """The circle ``token`` opens and whether it is the edit token. A write with the view
        token: :class:`ReadOnly`; a write locks the circle's row (PostgreSQL)."""
        import hmac

        
        if not isinstance(token, str) or not TOKEN_SHAPE.fullmatch(token):
            raise NotFound(M("circle.not_found"))
        h = token_hash(token)
        q = select(Circle).where((Circle.edit_hash == h) | (Circle.view_hash == h))
        if write and not db.is_sqlite(self.engine):
            q = q.with_for_update()
        c = s.scalars(q).first()
        if c is None:
            raise NotFound(M("circle.not_found"))
        edit = hmac.compare_digest(c.edit_hash, h)
        if write and not edit:
            raise ReadOnly(M("ledger.read_only"))
        return c, edit

    def circle_access(self, token: str) -> str:
        """``"edit"`` or ``"view"``: what this circle token allows (NotFound otherwise)."""
        return self._run(lambda s: "edit" if self._find_circle(s, token, write=False)[1]
                         else "view", write=False)

    # -- writing --------------------------------------------------------------------------
    def create_circle(self, spec: Any, *, address: str | None = None):
        """A new circle: ``spec`` ``{"name", "players"?: [names]}`` → ``Created``-like
        ``(circle C, edit_token, view_token)``. ``address`` counts towards
        ``tables_per_hour`` as a table's creation does."""
        if not isinstance(spec, dict):
            raise BadJsonError(M("request.not_object"), None)
        for key in spec:
            if key not in ("name", "players"):
                raise _bad(str(key), "request.unknown_key", key=key, known=["name", "players"])
        name = circle_name(spec.get("name"))
        raw = spec.get("players")
        raw = [] if raw is None else raw
        if not isinstance(raw, list):
            raise _bad("players", "circle.players_list")
        if len(raw) > self.players_max:
            raise TooMany(M("circle.players_full", n=self.players_max), "players_per_circle",
                          self.players_max, "players")
        names = [player_name(n, f"players[{i}]") for i, n in enumerate(raw)]
        for i, n in enumerate(names):
            if n in names[:i]:
                raise _bad(f"players[{i}]", "circle.player_taken", name=n)
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        view_token = view_token_of(edit_token)

        def work(s):
            now = utcnow()
            if address is not None and self.tables_per_hour:
                self._rate_limit(s, address, now)
            _add_circle(s, name, names, edit_token, view_token, now)
        self._run(work, write=True)
        return CircleCreated(self.circle(edit_token), edit_token, view_token)

    def add_player(self, token: str, body: Any) -> dict:
        """Add a player (``{"name"}``) with the circle's edit token → C."""
        if not isinstance(body, dict):
            raise BadJsonError(M("request.not_object"), None)
        for key in body:
            if key != "name":
                raise _bad(str(key), "request.unknown_key", key=key, known=["name"])
        name = player_name(body.get("name"))

        def work(s):
            c, _ = self._find_circle(s, token, write=True)
            players = s.execute(select(CirclePlayer.number, CirclePlayer.name)
                                .where(CirclePlayer.circle_id == c.id)).all()
            if len(players) >= self.players_max:
                raise TooMany(M("circle.players_full", n=self.players_max),
                              "players_per_circle", self.players_max, "name")
            if name in {p.name for p in players}:
                raise _bad("name", "circle.player_taken", name=name)
            s.add(CirclePlayer(circle_id=c.id, number=len(players) + 1, name=name,
                               created_at=utcnow()))
            c.version += 1
            c.updated_at = utcnow()
        self._run(work, write=True)
        return self.circle(token)

    def _circle_for_table(self, s: Session, token: Any, players: Any) -> tuple[Circle, list]:
        """In a table's creation: the circle (edit token) and the four seats' players
        (``[CirclePlayer]``), checked."""
        c, _ = self._find_circle(s, token, write=True)
        if not isinstance(players, list) or len(players) != 4 \
                or not all(_is_int(p) for p in players):
            raise _bad("players", "circle.table_players")
        if len(set(players)) != 4:
            raise _bad("players", "circle.players_distinct")
        # an id no column holds is no player of the circle, and not asked for
        wanted = [p for p in players if 0 < p <= INT_MAX]
        found = {p.number: p for p in s.scalars(select(CirclePlayer).where(
            CirclePlayer.circle_id == c.id, CirclePlayer.number.in_(wanted)))}
        for i, p in enumerate(players):
            if p not in found:
                raise _bad(f"players[{i}]", "circle.no_player", n=p)
        n = s.scalar(select(db_count()).select_from(Table).where(Table.circle_id == c.id)) or 0
        if n >= self.circle_tables_max:
            raise TooMany(M("circle.tables_full", n=self.circle_tables_max),
                          "tables_per_circle", self.circle_tables_max, "circle")
        return c, [found[p] for p in players]

    def _join_circle(self, s: Session, t: Table, c: Circle, players: list, view_token: str,
                     circle_token: str) -> None:
        t.circle_id = c.id
        t.circle_seal = _seal(view_token, view_token_of(circle_token))
        for seat, p in enumerate(players):
            s.add(Seat(**_fresh_seat(c.id, seat, p.number, t.id)))
        c.version += 1
        c.updated_at = utcnow()

    # -- reading --------------------------------------------------------------------------
    def circle(self, token: str) -> dict:
        """:meth:`_circle`'s C."""
        return self._circle(token)[0]

    def _circle(self, token: str) -> tuple[dict, list[int]]:
        """C (API.md "Circles") by either token, plus ``access`` ("edit"|"view"),
        ``view_token`` (the circle's), ``version``, ``created_at``, ``last_room`` (the last
        evening's ``variant``, ``options`` and ``base``, or None), each table's ``number``
        (1… in creation order), ``base`` and ``dealer``, and each standing's ``name``; and
        the tables' ids, in the same order."""
        def work(s):
            c, edit = self._find_circle(s, token, write=False)
            view = view_token_of(token) if edit else token
            players = s.execute(select(CirclePlayer.number, CirclePlayer.name)
                                .where(CirclePlayer.circle_id == c.id)
                                .order_by(CirclePlayer.number)).all()
            tables = s.execute(select(Table.id, Table.created_at, Table.variant, Table.names,
                                      Table.derived, Table.circle_seal, Table.base)
                               .where(Table.circle_id == c.id)
                               .order_by(Table.created_at, Table.id)).all()
            # the last evening's room, offered again for the next one
            last = s.execute(select(Table.variant, Table.options, Table.base)
                             .where(Table.circle_id == c.id)
                             .order_by(Table.created_at.desc(), Table.id.desc())
                             .limit(1)).first()
            seats = s.execute(select(Seat.table_id, Seat.seat, Seat.player, Seat.hands,
                                     Seat.wins, Seat.self_draws, Seat.dealt_in, Seat.net,
                                     Seat.floats, Seat.biggest_win)
                              .where(Seat.circle_id == c.id)).all()
            return c, edit, view, players, tables, seats, last

        c, edit, view, players, tables, seats, last = self._run(work, write=False)
        by_table: dict[int, list] = {}
        by_player: dict[int, list] = {}
        for r in seats:
            by_table.setdefault(r.table_id, [None] * 4)[r.seat] = r
            by_player.setdefault(r.player, []).append(r)
        pad = _pad_of(view)                     # every table's seal uses the same pad
        out_tables = []
        for i, t in enumerate(tables):
            d = t.derived
            ints = d["floats"] == 0 and (d["counted"] > 0 or _is_int(t.base))
            rows = by_table.get(t.id) or [None] * 4
            seal = t.circle_seal
            out_tables.append({
                "number": i + 1, "created_at": _iso(t.created_at), "variant": t.variant,
                "base": t.base, "names": t.names,
                "players": [r.player if r is not None else None for r in rows],
                "totals": [_amount(x, ints) for x in d["totals"]],
                "hands": rows[0].hands if rows[0] is not None else 0,
                "dealer": d["dealer"],
                "view_token": _xor(seal, pad) if seal else None})
        standings = []
        for p in players:
            mine = by_player.get(p.number, [])
            biggest = [r.biggest_win for r in mine if r.biggest_win is not None]
            standings.append({
                "player": p.number, "name": p.name, "tables": len(mine),
                "hands": sum(r.hands for r in mine), "wins": sum(r.wins for r in mine),
                "self_draws": sum(r.self_draws for r in mine),
                "dealt_in": sum(r.dealt_in for r in mine),
                "net": _sum([(r.net, r.floats) for r in mine]),
                "biggest_win": max(biggest) if biggest else None})    # int/float: exact
        standings.sort(key=lambda x: (-x["net"], x["player"]))
        return ({"name": c.name, "access": "edit" if edit else "view", "view_token": view,
                 "version": c.version, "created_at": _iso(c.created_at),
                 "last_room": None if last is None else
                 {"variant": last.variant, "options": last.options, "base": last.base},
                 "players": [{"id": p.number, "name": p.name} for p in players],
                 "tables": out_tables, "standings": standings}, [t.id for t in tables])

    def circle_player(self, token: str, player: Any) -> dict:
        """One player's evenings in the circle (kept figures only, no hand read):
        ``{"player", "name", "standing": S, "evenings": [{"number", "created_at",
        "variant", "names", "seat", "view_token", "hands", "net", "running", "wins":
        [{"number", "net", "by"}], "dealt_in": [{"number", "winner"}], "biggest_win"}],
        "by_method": {win_by: n}, "biggest": {"net", "evening", "number"} | None}``."""
        if not _is_int(player):
            raise NotFound(M("circle.no_player", n=player), "player")
        c, ids = self._circle(token)
        if not any(p["id"] == player for p in c["players"]):
            raise NotFound(M("circle.no_player", n=player), "player")

        def work(s):
            circle, _ = self._find_circle(s, token, write=False)
            return s.execute(select(Seat.table_id, Seat.seat, Seat.hands, Seat.net, Seat.floats,
                                    Seat.entries, Seat.biggest_win)
                             .where(Seat.circle_id == circle.id, Seat.player == player)).all()
        found = {r.table_id: r for r in self._run(work, write=False)}
        rows = [(found[i], t) for i, t in zip(ids, c["tables"]) if i in found]
        evenings, running, floats = [], Fraction(0), 0
        by_method: dict[str, int] = {}
        biggest = None
        for r, t in rows:
            running += Fraction(r.net)
            floats += r.floats
            wins = sorted(({"number": int(n), "net": w["net"], "by": w["by"]}
                           for n, w in r.entries.get("wins", {}).items()),
                          key=lambda w: w["number"])
            for w in wins:
                by_method[w["by"]] = by_method.get(w["by"], 0) + 1
                if biggest is None or exact(w["net"]) > exact(biggest["net"]):
                    biggest = {"net": w["net"], "evening": t["number"], "number": w["number"],
                               "view_token": t["view_token"]}
            dealt = sorted(({"number": int(n), "winner": w}
                            for n, w in r.entries.get("dealt_in", {}).items()),
                           key=lambda x: x["number"])
            evenings.append({"number": t["number"], "created_at": t["created_at"],
                             "variant": t["variant"], "names": t["names"], "seat": r.seat,
                             "view_token": t["view_token"], "hands": r.hands,
                             "net": number(Fraction(r.net), r.floats == 0),
                             "running": number(running, floats == 0), "wins": wins,
                             "dealt_in": dealt, "biggest_win": r.biggest_win})
        standing = next(x for x in c["standings"] if x["player"] == player)
        return {"player": player, "name": standing["name"], "circle": c["name"],
                "access": c["access"], "standing": standing, "evenings": evenings,
                "by_method": by_method, "biggest": biggest}

    # -- export and import ----------------------------------------------------------------
    def export_circle(self, token: str) -> dict:
        """``{"format": "webcalc-circle/1", "name", "players": [{"id", "name"}], "tables":
        [{"players": [4 ids], "table": the table's export (:meth:`export_table`)}],
        "standings": [S], "exported_at"}``; either token, no token inside."""
        c, ids = self._circle(token)
        tables = [{"players": t["players"], "table": self._export_by_id(i)}
                  for i, t in zip(ids, c["tables"])]
        return {"format": CIRCLE_FORMAT, "name": c["name"], "players": c["players"],
                "tables": tables, "standings": c["standings"], "exported_at": _iso(utcnow())}

    def import_circle(self, data: Any, *, address: str | None = None,
                      raw: bytes | None = None):
        """A new circle (new tokens, new tables) from an :meth:`export_circle` document:
        every entry of every table computed again by the engine, as :meth:`import_table`
        does; standings and kept figures computed from the recomputed entries.

        In :meth:`import_table`'s order: ``address`` counted first (its own transaction, so
        an import refused or killed later counts too); then the caps from the lengths of the
        document's lists — tables per import, each table's caps, and the engine work of
        the whole import (:attr:`import_computations_max`: entries plus revisions, all its
        tables) — before anything is computed; and the CPU budget of the whole import
        (:attr:`import_cpu_max`) while its entries are computed."""
        deadline = self._import_deadline()      # one CPU budget for all the tables
        wait = self._lock_wait()                 # one wait for the lock, both writes together
        if address is not None and self.tables_per_hour:
            self._run(lambda s: self._rate_limit(s, address, utcnow()), write=True, wait=wait)
        if not isinstance(data, dict) or data.get("format") != CIRCLE_FORMAT:
            raise _bad("format", "circle.not_export", format=CIRCLE_FORMAT)
        tables = data.get("tables")
        if not isinstance(tables, list):
            raise _bad("tables", "circle.tables_list")
        if len(tables) > IMPORT_TABLES_MAX:
            raise TooMany(M("circle.import_tables_full", n=IMPORT_TABLES_MAX),
                          "tables_per_import", IMPORT_TABLES_MAX, "tables")
        computations = 0
        for i, item in enumerate(tables):
            computations += self._import_caps(item.get("table") if isinstance(item, dict)
                                              else None)
            if computations > self.import_computations_max:
                raise self._too_many_computations(f"tables[{i}].table.entries", True)
        problem = body_problem(data, raw)
        if problem is not None:
            kind, where = problem
            message = (M("ledger.too_deep", n=MAX_DEPTH, where=where) if kind == "deep"
                       else M("ledger.surrogate", where=where))
            raise BadJsonError(message, where)
        name = circle_name(data.get("name"))
        raw_players = data.get("players")
        if not isinstance(raw_players, list):
            raise _bad("players", "circle.players_list")
        if len(raw_players) > self.players_max:
            raise TooMany(M("circle.players_full", n=self.players_max), "players_per_circle",
                          self.players_max, "players")
        numbers: dict[int, int] = {}           # the file's id → the new circle's number
        names: list[str] = []
        for i, p in enumerate(raw_players):
            if not isinstance(p, dict) or not _is_int(p.get("id")) or p["id"] in numbers:
                raise _bad(f"players[{i}]", "circle.player_shape")
            n = player_name(p.get("name"), f"players[{i}].name")
            if n in names:
                raise _bad(f"players[{i}].name", "circle.player_taken", name=n)
            names.append(n)
            numbers[p["id"]] = i + 1
        planned = []
        now = utcnow()
        for i, item in enumerate(tables):
            where = f"tables[{i}]"
            if not isinstance(item, dict):
                raise _bad(where, "circle.table_shape")
            seats = item.get("players")
            if not isinstance(seats, list) or len(seats) != 4 or \
                    not all(_is_int(p) and p in numbers for p in seats) or len(set(seats)) != 4:
                raise _bad(f"{where}.players", "circle.table_players")
            with _prefixed(f"{where}.table"):
                variant, options, base, tnames, dealer, carry, entries = \
                    self._import_plan(item.get("table"))
            planned.append(([numbers[p] for p in seats], variant, options, base, tnames,
                            dealer, carry, entries))
        built = []
        for i, (seats, variant, options, base, tnames, dealer, carry, entries) in \
                enumerate(planned):
            with _prefixed(f"tables[{i}].table"):
                hands, revisions, derived = self._imported_rows(
                    variant, options, base, dealer, entries, now, deadline,
                    f"tables[{i}].table.entries")
            seat_rows = [_Row(**_fresh_seat(0, k, p)) for k, p in enumerate(seats)]
            for h in hands:
                if h["status"] == "recorded":
                    request = json.loads(h["request"])
                    for row, fig in zip(seat_rows, entry_figures(h["kind"], request,
                                                                h["_result"])):
                        add_figures(row, h["number"], fig, +1)
            built.append((variant, options, base, tnames, dealer, carry, hands, revisions,
                          derived, seat_rows))
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        view_token = view_token_of(edit_token)

        def work(s):
            at = utcnow()
            c = _add_circle(s, name, names, edit_token, view_token, at)
            for (variant, options, base, tnames, dealer, carry, hands, revisions, derived,
                 seat_rows) in built:
                table_edit = secrets.token_urlsafe(TOKEN_BYTES)
                table_view = view_token_of(table_edit)
                t = Table(edit_hash=token_hash(table_edit), view_hash=token_hash(table_view),
                          variant=variant, options=options, base=base, names=tnames,
                          first_dealer=dealer, carry_bets=carry, next_number=len(hands) + 1,
                          version=1, derived=derived.to_json(), created_at=utcnow(),
                          updated_at=at, circle_id=c.id,
                          circle_seal=_seal(table_view, view_token))
                s.add(t)
                s.flush()
                self._insert_imported(s, t.id, hands, revisions)
                for row in seat_rows:
                    values = dict(row.__dict__)
                    values.update(table_id=t.id, circle_id=c.id)
                    s.add(Seat(**values))
        self._run(work, write=True, wait=wait)
        return CircleCreated(self.circle(edit_token), edit_token, view_token)


def _frac(x: str) -> Fraction:
    """A kept exact sum (a fraction's text, ``"-5/2"`` or ``"3"``) without Fraction's
    string parsing (a circle's read makes hundreds)."""
    if "/" in x:
        p, q = x.split("/")
        return Fraction(int(p), int(q))
    return Fraction(int(x))


def _amount(x: str, ints: bool) -> int | float:
    """A kept exact sum as an amount (:func:`webcalc.ledger.money.number`): ints for ints;
    else int ÷ int, which Python rounds correctly, as ``float(Fraction)`` does."""
    if "/" in x:
        p, q = x.split("/")
        return round(int(p) / int(q), 10) + 0.0
    return int(x) if ints else float(int(x))


def _pad_of(view_token: str) -> bytes:
    return _pad(view_token)


def _xor(seal: str, pad: bytes) -> str:
    """:func:`webcalc.ledger.tokens._unseal` with the pad made once for all of a circle's
    tables (they are all sealed with the circle's view token)."""
    import base64

    raw = base64.urlsafe_b64decode(seal.encode("ascii"))
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(raw, pad))).decode("ascii")


@contextmanager
def _prefixed(where: str):
    """An input error of one table of a circle import, its field prefixed with where."""
    try:
        yield
    except InputError as err:
        raise err.replace(field=where + (f".{err.field}" if err.field else ""), position=None,
                          reasons=[], turn=None, detail=None) from None


def db_count():
    from sqlalchemy import func
    return func.count()


def _add_circle(s, name: str, names: list[str], edit_token: str, view_token: str,
                at) -> Circle:
    """A new circle with its players numbered 1, 2, … in ``names``' order (flushed: it has
    its id)."""
    c = Circle(name=name, edit_hash=token_hash(edit_token), view_hash=token_hash(view_token),
               version=1, created_at=at, updated_at=at)
    s.add(c)
    s.flush()
    for k, n in enumerate(names):
        s.add(CirclePlayer(circle_id=c.id, number=k + 1, name=n, created_at=at))
    return c
