"""The table's derived state (totals, who deals next, each hand's ``dealer_flag``, the last
counted entry, the settle-up) is kept by the writes themselves, and every answer is built from
the entries a process keeps, reading only the rows changed since. Both must give exactly the
table a full reading gives: random evenings of records, corrections, voids and undos, written
through two ``Ledger`` objects on one database (two server processes), on SQLite and
PostgreSQL, checked after every write against the table computed from scratch.

And the writes cost the same however long the table: a record, a correction, a void and an
undo decode the same number of stored results at entry 5 as at entry 60."""

from __future__ import annotations

import json
import random

import pytest

from webcalc.ledger import Conflict, Ledger, TooMany
from webcalc.ledger.money import number, settle_up, totals

pytestmark = [pytest.mark.both_dbs, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

SUITS = "mps"


def random_win(rng: random.Random) -> dict:
    """A fresh complete 郑州 hand with a random winner, 跑 and sometimes a kong."""
    while True:
        groups = []
        for _ in range(4):
            suit = rng.choice(SUITS)
            if rng.random() < 0.6:
                start = rng.randint(1, 7)
                groups.append([f"{start + i}{suit}" for i in range(3)])
            else:
                groups.append([f"{rng.randint(1, 9)}{suit}"] * 3)
        pair = rng.choice([f"{rng.randint(1, 9)}{rng.choice(SUITS)}", f"{rng.randint(1, 7)}z"])
        tiles = [t for g in groups for t in g] + [pair, pair]
        if max(tiles.count(t) for t in tiles) <= 4:
            break
    hand = "".join(sorted(tiles, key=lambda t: (t[1], t[0])))
    settlement = {"winner": rng.randrange(4), "pao": [rng.randint(0, 2) for _ in range(4)]}
    if rng.random() < 0.3:
        settlement["kongs"] = [{"seat": rng.randrange(4), "type": "concealed"}]
    if rng.random() < 0.2:                        # a hand dealt by someone else: flagged
        settlement["dealer"] = rng.randrange(4)
    return {"hand": hand, "winning_tile": rng.choice(tiles),
            "win_by": rng.choice(["self_draw", "kong_replacement"]), "settlement": settlement}


def random_entry(rng: random.Random) -> dict:
    r = rng.random()
    if r < 0.7:
        return random_win(rng)
    if r < 0.8:
        return {"settlement": {"winner": None}}
    if r < 0.9:
        return {"adjustment": {"fee": rng.choice([10, 5, 2.5]), "paid_by": rng.randrange(4)}}
    return {"adjustment": {"payments": [{"from": 0, "to": rng.randint(1, 3),
                                         "amount": rng.choice([1, 0.5])}]}}


def from_scratch(t: dict) -> dict:
    """What T's derived fields are, computed from its entries alone (as a full reading
    did before they were kept)."""
    expected, nets, flags, last = t["first_dealer"], [], [], None
    for h in t["hands"]:
        flag = False
        if h["status"] == "recorded":
            nets.append(h["settlement"]["net"])
            last = h["number"]
            if h["kind"] == "hand":
                flag = h["dealer"] != expected
                expected = h["settlement"]["next_dealer"]["seat"]
        flags.append(flag)
    sums, ints = totals(nets)
    ints = ints and (bool(nets) or isinstance(t["base"], int))
    return {"dealer": expected, "flags": flags, "last_counted": last,
            "totals": [number(x, ints) for x in sums],
            "settle_up": [{"from": a, "to": b, "amount": number(x, ints)}
                          for a, b, x in settle_up(sums)]}


def derived(t: dict) -> dict:
    return {"dealer": t["dealer"], "flags": [h["dealer_flag"] for h in t["hands"]],
            "last_counted": t["last_counted"], "totals": t["totals"],
            "settle_up": t["settle_up"]}


def step(rng: random.Random, ledger: Ledger, token: str, t: dict) -> None:
    counted = [h for h in t["hands"] if h["status"] == "recorded"]
    r = rng.random()
    if r < 0.55 or not counted:
        ledger.record(token, random_entry(rng))
    elif r < 0.7:
        h = rng.choice([h for h in counted if h["kind"] == "hand"] or counted)
        body = random_win(rng) if h["kind"] == "hand" else random_entry(rng)
        if h["kind"] == "adjustment" and "adjustment" not in body:
            body = {"adjustment": {"fee": 4, "paid_by": rng.randrange(4)}}
        try:
            ledger.correct(token, h["number"], body)
        except TooMany:
            pass
    elif r < 0.85:
        ledger.void(token, rng.choice(counted)["number"], "记错了")
    else:
        number = t["last_counted"] if rng.random() < 0.8 else rng.randint(1, len(t["hands"]))
        try:
            ledger.undo(token, number)
        except Conflict:
            assert number != t["last_counted"]


def test_kept_state_is_the_state_a_full_reading_gives(db_url):
    rng = random.Random(21)
    a = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    b = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)       # another process
    try:
        made = a.create_table({"variant": "zhengzhou", "options": {"seven_pairs_double": True},
                               "dealer": 2})
        co = a.add_editor(made.edit_token)[1]
        t = a.table(made.view_token)
        for i in range(70):
            writer, token = (a, made.edit_token) if rng.random() < 0.6 else (b, co)
            step(rng, writer, token, t)
            reader = a if rng.random() < 0.5 else b
            t = reader.table(made.view_token)
            assert derived(t) == from_scratch(t), i
            fresh = Ledger(db_url, tables_per_hour=0)          # nothing kept: every row read
            try:
                assert fresh.table(made.view_token) == t, i
                assert json.loads(fresh.table(made.view_token).json_bytes("en")) == \
                    json.loads(t.json_bytes("en")), i
            finally:
                fresh.dispose()
        assert {h["status"] for h in t["hands"]} == {"recorded", "voided"}
        assert any(h["dealer_flag"] for h in t["hands"])
        assert any(h.get("void_code") == "undone" for h in t["hands"])
        assert any(h["revisions"] for h in t["hands"])
        assert {h["editor"] for h in t["hands"]} == {0, 1}
    finally:
        a.dispose()
        b.dispose()


def test_the_json_of_t_is_the_json_of_its_dict_in_each_language(api):
    made = api.post("/api/v1/tables", json={"variant": "zhengzhou"}).json
    edit = made["edit_token"]
    rng = random.Random(3)
    for _ in range(6):
        api.post(f"/api/v1/tables/{edit}/hands", json=random_win(rng))
    api.post(f"/api/v1/tables/{edit}/undo", json={"number": 6})
    ledger = api.application.extensions["ledger"]
    from webcalc.ledger import table_in

    for lang, headers in (("zh", {}), ("en", {"Accept-Language": "en"})):
        got = api.get(f"/api/v1/tables/{edit}", headers=headers)
        assert got.headers["Content-Type"] == "application/json"
        assert got.json == json.loads(json.dumps(table_in(ledger.table(edit), lang)))
        rec = api.post(f"/api/v1/tables/{edit}/hands", json=random_win(rng), headers=headers)
        t = table_in(ledger.table(edit), lang)
        assert rec.json == {"hand": t["hands"][-1], "table": t}


class Decodes:
    """Counts the stored JSON the database hands back decoded with a ``settlement`` inside
    (each entry row has two: its request and its result), as the engine's JSON deserializer
    sees them."""

    def __init__(self, ledger: Ledger):
        self.n = 0
        ledger.engine.dialect._json_deserializer = self

    def __call__(self, text):
        value = json.loads(text)
        if isinstance(value, dict) and "settlement" in value:
            self.n += 1
        return value


def _decodes_of_writes(db_url, entries: int) -> dict[str, int]:
    """The stored entries each kind of write decodes (its own row, the rows it changed read
    back for the answer) on a table of ``entries`` hands, then an adjustment and a hand."""
    ledger = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    count = Decodes(ledger)
    rng = random.Random(entries)
    fee = {"adjustment": {"fee": 4, "paid_by": 0}}
    try:
        token = ledger.create_table({"variant": "zhengzhou"}).edit_token
        for _ in range(entries):
            ledger.record(token, random_win(rng))
        ledger.record(token, fee)
        ledger.record(token, random_win(rng))
        ledger.table(token)
        adj, last = entries + 1, entries + 3
        out = {}
        for name, write in (
                ("record", lambda: ledger.record(token, random_win(rng))),
                ("correct the last hand", lambda: ledger.correct(token, last, random_win(rng))),
                ("correct an adjustment", lambda: ledger.correct(
                    token, adj, {"adjustment": {"fee": 8, "paid_by": 1}})),
                ("void", lambda: ledger.void(token, adj, "x")),
                ("undo", lambda: ledger.undo(token, last)),
                ("record again", lambda: ledger.record(token, fee))):
            count.n = 0
            write()
            out[name] = count.n
        return out
    finally:
        ledger.dispose()


def test_writes_decode_as_many_stored_entries_at_entry_60_as_at_entry_5(db_url):
    """A write decodes its own entry and reads back the rows it changed; the others stay as
    this process holds them (a void or correction that changes who deals for the hands after
    it also rewrites their ``dealer_flag``, from their dealer columns alone)."""
    small, large = _decodes_of_writes(db_url, 5), _decodes_of_writes(db_url, 60)
    assert small == large, (small, large)
    assert max(large.values()) <= 8, large
