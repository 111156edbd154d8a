"""The kept per-seat figures of a circle's tables (``ledger_seat``) equal a recomputation
from scratch over the tables' counted entries, after a random sequence of records, voids,
undos, corrections and adjustments, on SQLite and PostgreSQL (docs/LEDGER.md "Circles")."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from sqlalchemy import select

from tests.scale import scaled
from webcalc.ledger.errors import Conflict
from webcalc.ledger.models import Seat, Table
from webcalc.ledger.money import exact
from webcalc.ledger.service import token_hash

pytestmark = pytest.mark.both_dbs

TILES = {"hand": "123m456p789s11122z", "winning_tile": "2z"}


def bodies(rng: random.Random) -> dict:
    """A random 盘锦 entry: tiles or none, self-draw or discard, 荒庄, or an adjustment."""
    w = rng.randrange(4)
    d = rng.choice([s for s in range(4) if s != w])
    kind = rng.randrange(7)
    if kind == 0:
        return {**TILES, "win_by": "self_draw", "settlement": {"winner": w}}
    if kind == 1:
        return {**TILES, "win_by": "discard", "settlement": {"winner": w, "discarder": d}}
    if kind == 2:                                        # a win recorded without its tiles
        return {"win_by": "discard", "settlement": {"winner": w, "discarder": d},
                "declared": {"fan": []}}
    if kind == 3:
        return {"win_by": "self_draw", "settlement": {"winner": w}}
    if kind == 4:
        return {"settlement": {"winner": None}}
    if kind == 5:
        return {"adjustment": {"fee": rng.choice([4, 8, 2]), "paid_by": w}}
    return {"adjustment": {"payments": [{"from": d, "to": w, "amount": rng.choice([1, 3])}]}}


def recomputed(table: dict) -> list[dict]:
    """Each seat's figures from the table's entries, written independently of the service."""
    out = [{"hands": 0, "wins": 0, "self_draws": 0, "dealt_in": 0, "net": Fraction(0),
            "biggest_win": None} for _ in range(4)]
    for h in table["hands"]:
        if h["status"] != "recorded":
            continue
        for seat in range(4):
            out[seat]["net"] += exact(h["settlement"]["net"][seat])
        if h["kind"] != "hand":
            continue
        for seat in range(4):
            out[seat]["hands"] += 1
        st = h["request"]["settlement"]
        w = st.get("winner")
        if w is None:
            continue
        by = h["request"].get("win_by", "self_draw")
        out[w]["wins"] += 1
        out[w]["self_draws"] += by in ("self_draw", "kong_replacement")
        if by in ("discard", "robbing_kong"):
            out[st["discarder"]]["dealt_in"] += 1
        won = h["settlement"]["net"][w]
        if out[w]["biggest_win"] is None or exact(won) > exact(out[w]["biggest_win"]):
            out[w]["biggest_win"] = won
    return out


def kept(ledger, view_token: str) -> list[dict]:
    with ledger.engine.connect() as conn:
        tid = conn.scalar(select(Table.id).where(Table.view_hash == token_hash(view_token)))
        rows = conn.execute(select(Seat).where(Seat.table_id == tid).order_by(Seat.seat)).all()
    return [{"hands": r.hands, "wins": r.wins, "self_draws": r.self_draws,
             "dealt_in": r.dealt_in, "net": Fraction(r.net), "biggest_win": r.biggest_win}
            for r in rows]


def test_kept_figures_equal_a_recomputation(ledger):
    rng = random.Random(24)
    made = ledger.create_circle({"name": "周五", "players": ["甲", "乙", "丙", "丁", "戊"]})
    tables = [ledger.create_table({"variant": "panjin", "circle": made.edit_token,
                                   "players": seats})
              for seats in ([1, 2, 3, 4], [5, 1, 2, 3])]
    counts = {"record": 0, "void": 0, "undo": 0, "correct": 0}
    for step in range(scaled(90)):
        t = rng.choice(tables)
        table = ledger.table(t.edit_token)
        counted = [h for h in table["hands"] if h["status"] == "recorded"]
        op = rng.choice(["record"] * 4 + ["void", "undo", "correct", "correct"])
        if op != "record" and not counted:
            op = "record"
        if op == "record":
            ledger.record(t.edit_token, bodies(rng))
        elif op == "void":
            ledger.void(t.edit_token, rng.choice(counted)["number"], "算错了")
        elif op == "undo":
            if rng.random() < 0.2:                # not the last one: refused, nothing changes
                try:
                    ledger.undo(t.edit_token, counted[0]["number"] - 1 or 10**6)
                except Conflict:
                    pass
            ledger.undo(t.edit_token, table["last_counted"])
        else:
            h = rng.choice(counted)
            body = bodies(rng)
            if ("adjustment" in body) != (h["kind"] == "adjustment"):
                body = ({"adjustment": {"fee": 4, "paid_by": rng.randrange(4)}}
                        if h["kind"] == "adjustment" else
                        {**TILES, "win_by": "discard",
                         "settlement": {"winner": 0, "discarder": 3}})
            ledger.correct(t.edit_token, h["number"], body)
        counts[op] += 1
        for t2 in tables:
            assert kept(ledger, t2.view_token) == recomputed(ledger.table(t2.view_token)), \
                (step, op)
    assert min(counts.values()) >= scaled(5, floor=1), counts

    # the standings are the sums of those figures, per player
    circle = ledger.circle(made.view_token)
    by_player: dict[int, dict] = {}
    for t, seats in zip(tables, ([1, 2, 3, 4], [5, 1, 2, 3])):
        for seat, figs in zip(seats, recomputed(ledger.table(t.view_token))):
            acc = by_player.setdefault(seat, {"hands": 0, "wins": 0, "self_draws": 0,
                                              "dealt_in": 0, "net": Fraction(0),
                                              "biggest": []})
            for k in ("hands", "wins", "self_draws", "dealt_in"):
                acc[k] += figs[k]
            acc["net"] += figs["net"]
            if figs["biggest_win"] is not None:
                acc["biggest"].append(figs["biggest_win"])
    for s in circle["standings"]:
        acc = by_player[s["player"]]
        assert (s["hands"], s["wins"], s["self_draws"], s["dealt_in"]) == \
            (acc["hands"], acc["wins"], acc["self_draws"], acc["dealt_in"])
        assert exact(s["net"]) == acc["net"]
        assert s["biggest_win"] == (max(acc["biggest"]) if acc["biggest"] else None)
    nets = [exact(s["net"]) for s in circle["standings"]]
    assert nets == sorted(nets, reverse=True)


def test_purge_keeps_a_circles_tables_and_rotate_hides_a_view_link(ledger):
    from datetime import timedelta

    from sqlalchemy import update

    from webcalc.ledger.models import utcnow

    made = ledger.create_circle({"name": "圈", "players": ["甲", "乙", "丙", "丁"]})
    inside = ledger.create_table({"variant": "zhengzhou", "circle": made.edit_token,
                                  "players": [1, 2, 3, 4]})
    alone = ledger.create_table({"variant": "zhengzhou"})
    with ledger.engine.begin() as conn:
        conn.execute(update(Table).values(updated_at=utcnow() - timedelta(days=400)))
    assert ledger.purge_idle(180) == 1
    assert ledger.table(inside.view_token)["names"] == ["甲", "乙", "丙", "丁"]
    assert ledger.circle(made.view_token)["tables"][0]["view_token"] == inside.view_token
    ledger.rotate(inside.edit_token, view=True)
    assert ledger.circle(made.view_token)["tables"][0]["view_token"] is None
    doc = ledger.export_circle(made.view_token)            # exported all the same
    assert doc["tables"][0]["table"]["names"] == ["甲", "乙", "丙", "丁"]
    del alone


def test_migration_0004_down_and_up_keeps_existing_tables(ledger):
    from webcalc.ledger import db

    t = ledger.create_table({"variant": "zhengzhou", "names": ["a", "b", "c", "d"]})
    ledger.record(t.edit_token, {**TILES, "win_by": "self_draw", "settlement": {"winner": 2}})
    before = ledger.table(t.view_token)
    db.downgrade(ledger.engine, "0003")
    db.upgrade(ledger.engine)
    ledger.forget_cached()
    after = ledger.table(t.view_token)
    assert after["totals"] == before["totals"] == [-1, -1, 3, -1]
    assert [h["settlement"] for h in after["hands"]] == \
        [h["settlement"] for h in before["hands"]]
    made = ledger.create_circle({"name": "圈", "players": ["甲", "乙", "丙", "丁"]})
    assert ledger.circle(made.edit_token)["tables"] == []
