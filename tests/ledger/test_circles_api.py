"""Circles (牌友圈) through the JSON API, as API.md "Circles" says, on SQLite and PostgreSQL.

One circle of five players and three evenings (郑州, 晋城, 盘锦) with a correction, a void, an
undo, adjustments (a fee and a transfer), a 荒庄 and hands recorded without tiles. Each
entry's nets are the engine's (its own suites check the rules); the circle's figures below are
summed by hand from them, in the comments.
"""

from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.both_dbs

T = "123m456p789s11122z"
PLAYERS = ["甲", "乙", "丙", "丁", "戊"]


def tiles(winner: int, by: str, **st) -> dict:
    return {"hand": T, "winning_tile": "2z", "win_by": by, "settlement": {"winner": winner, **st}}


def post(api, url, body, status):
    r = api.post(url, json=body)
    assert r.status_code == status, (r.status_code, r.json)
    return r.json


def table(api, circle, variant, players):
    return post(api, "/api/v1/tables", {"variant": variant, "circle": circle,
                                        "players": players}, 201)


def rec(api, t, body, net):
    out = post(api, f"/api/v1/tables/{t['edit_token']}/hands", body, 201)
    assert out["hand"]["settlement"]["net"] == net
    return out


@pytest.fixture()
def evenings(api):
    made = post(api, "/api/v1/circles", {"name": "周五牌友", "players": PLAYERS}, 201)
    edit = made["edit_token"]
    # A: 郑州, seats 甲 乙 丙 丁
    a = table(api, edit, "zhengzhou", [1, 2, 3, 4])
    rec(api, a, tiles(1, "self_draw"), [-1, 3, -1, -1])                 # 乙 self-draws
    rec(api, a, tiles(0, "self_draw"), [3, -1, -1, -1])
    r = api.put(f"/api/v1/tables/{a['edit_token']}/hands/2", json=tiles(2, "self_draw"))
    assert r.status_code == 200 and r.json["hand"]["settlement"]["net"] == [-1, -1, 3, -1]
    rec(api, a, {"win_by": "self_draw", "settlement": {"winner": 3},        # no tiles
                 "declared": {"doubles": []}}, [-1, -1, -1, 3])
    post(api, f"/api/v1/tables/{a['edit_token']}/undo", {"number": 3}, 200)
    rec(api, a, {"adjustment": {"fee": 4, "paid_by": 0, "note": "台费"}}, [3, -1, -1, -1])
    # A counted: [-1,3,-1,-1] + [-1,-1,3,-1] + [3,-1,-1,-1] = [1, 1, 1, -3]; 2 hands
    # B: 晋城, seats 戊 甲 乙 丙
    b = table(api, edit, "jincheng", [5, 1, 2, 3])
    rec(api, b, tiles(1, "discard", discarder=2), [-2, 4, -1, -1])       # 甲 wins off 乙
    rec(api, b, tiles(0, "self_draw"), [8, -4, -2, -2])
    post(api, f"/api/v1/tables/{b['edit_token']}/hands/2/void", {"reason": "记错了"}, 200)
    rec(api, b, {"win_by": "discard", "settlement": {"winner": 3, "discarder": 1}},
        [-1, -2, -1, 4])                                                  # 丙 off 甲, no tiles
    # B counted: [-2,4,-1,-1] + [-1,-2,-1,4] = [-3, 2, -2, 3]; 2 hands
    # C: 盘锦, seats 乙 丁 戊 甲
    c = table(api, edit, "panjin", [2, 4, 5, 1])
    rec(api, c, {"settlement": {"winner": None}}, [0, 0, 0, 0])            # 荒庄
    rec(api, c, tiles(0, "discard", discarder=3), [8, 0, 0, -8])          # 乙 off 甲
    rec(api, c, {"adjustment": {"payments": [{"from": 1, "to": 0, "amount": 2}]}},
        [2, -2, 0, 0])
    # C counted: [10, -2, 0, -8]; 2 hands
    return made, [a, b, c]


@pytest.mark.parametrize("which", ["edit_token", "view_token"])
def test_every_field_of_c_and_s(api, evenings, which):
    made, (a, b, c) = evenings
    r = api.get(f"/api/v1/circles/{made[which]}")
    assert r.status_code == 200
    got = r.json
    assert got["name"] == "周五牌友"
    assert got["players"] == [{"id": i + 1, "name": n} for i, n in enumerate(PLAYERS)]
    assert [t["variant"] for t in got["tables"]] == ["zhengzhou", "jincheng", "panjin"]
    assert [t["names"] for t in got["tables"]] == [["甲", "乙", "丙", "丁"],
                                                   ["戊", "甲", "乙", "丙"],
                                                   ["乙", "丁", "戊", "甲"]]
    assert [t["players"] for t in got["tables"]] == [[1, 2, 3, 4], [5, 1, 2, 3], [2, 4, 5, 1]]
    assert [t["totals"] for t in got["tables"]] == [[1, 1, 1, -3], [-3, 2, -2, 3],
                                                    [10, -2, 0, -8]]
    assert [t["hands"] for t in got["tables"]] == [2, 2, 2]
    assert [t["view_token"] for t in got["tables"]] == [a["view_token"], b["view_token"],
                                                        c["view_token"]]
    assert [t["created_at"] for t in got["tables"]] == [a["table"]["created_at"],
                                                        b["table"]["created_at"],
                                                        c["table"]["created_at"]]
    for t in got["tables"]:          # the table's own totals, through its view link
        assert api.get(f"/api/v1/tables/{t['view_token']}").json["totals"] == t["totals"]
    fields = ("player", "tables", "hands", "wins", "self_draws", "dealt_in", "net",
              "biggest_win")
    assert [tuple(s[k] for k in fields) for s in got["standings"]] == [
        # 乙: A seat 1, B seat 2, C seat 0. Wins A1 (self-draw, +3) and C2 (discard, +8);
        # dealt in B1; net 1 - 2 + 10 = 9
        (2, 3, 6, 2, 1, 1, 9, 8),
        # 丙: A seat 2, B seat 3. Wins A2 as corrected (self-draw, +3) and B3 (no tiles,
        # discard, +4); net 1 + 3 = 4
        (3, 2, 4, 2, 1, 0, 4, 4),
        # 戊: B seat 0 (its self-draw was voided), C seat 2; net -3 + 0
        (5, 2, 4, 0, 0, 0, -3, None),
        # 甲: A seat 0, B seat 1, C seat 3. Win B1 (+4); dealt in B3 and C2; net 1 + 2 - 8;
        # tied with 丁 at -5: the lower id first
        (1, 3, 6, 1, 0, 2, -5, 4),
        # 丁: A seat 3 (the undone win does not count), C seat 1; net -3 - 2
        (4, 2, 4, 0, 0, 0, -5, None),
    ]
    assert [s["name"] for s in got["standings"]] == ["乙", "丙", "戊", "甲", "丁"]
    assert got["access"] == ("edit" if which == "edit_token" else "view")


def test_a_correction_moves_the_standings(api, evenings):
    made, (a, _b, _c) = evenings
    # A's first hand becomes 丁's self-draw: 乙 loses a win, 丁 gains one
    r = api.put(f"/api/v1/tables/{a['edit_token']}/hands/1", json=tiles(3, "self_draw"))
    assert r.status_code == 200
    s = {x["player"]: x for x in api.get(f"/api/v1/circles/{made['view_token']}")
         .json["standings"]}
    assert (s[2]["wins"], s[2]["net"], s[2]["biggest_win"]) == (1, 5, 8)    # 9 - 4
    assert (s[4]["wins"], s[4]["self_draws"], s[4]["net"], s[4]["biggest_win"]) == \
        (1, 1, -1, 3)                                                        # -5 + 4


def test_the_player_api_lists_the_entries_counted(api, evenings):
    made, (a, b, c) = evenings
    p = api.get(f"/api/v1/circles/{made['view_token']}/players/1").json
    assert p["name"] == "甲"
    assert [(e["number"], e["seat"], e["net"], e["running"]) for e in p["evenings"]] == \
        [(1, 0, 1, 1), (2, 1, 2, 3), (3, 3, -8, -5)]
    assert p["evenings"][1]["wins"] == [{"number": 1, "net": 4, "by": "discard"}]
    assert p["evenings"][1]["dealt_in"] == [{"number": 3, "winner": 3}]
    assert p["evenings"][2]["dealt_in"] == [{"number": 2, "winner": 0}]
    assert p["by_method"] == {"discard": 1}
    assert p["biggest"] == {"net": 4, "evening": 2, "number": 1,
                            "view_token": b["view_token"]}
    assert api.get(f"/api/v1/circles/{made['view_token']}/players/9").status_code == 404


def test_players_and_tables_with_the_circle_links(api):
    made = post(api, "/api/v1/circles", {"name": "圈"}, 201)
    assert made["circle"]["players"] == [] and made["circle"]["standings"] == []
    c = post(api, f"/api/v1/circles/{made['edit_token']}/players", {"name": " 老王 "}, 201)
    assert c["players"] == [{"id": 1, "name": "老王"}]
    for n in ("老李", "老张", "老赵"):
        post(api, f"/api/v1/circles/{made['edit_token']}/players", {"name": n}, 201)
    t = post(api, "/api/v1/tables", {"variant": "zhengzhou", "circle": made["edit_token"],
                                     "players": [4, 3, 2, 1], "names": ["a", "b", "c", "d"]},
             201)
    assert t["table"]["names"] == ["a", "b", "c", "d"]           # names given win
    view = made["view_token"]
    for url, body in ((f"/api/v1/circles/{view}/players", {"name": "x"}),
                      ("/api/v1/tables", {"variant": "zhengzhou", "circle": view,
                                          "players": [1, 2, 3, 4]})):
        r = api.post(url, json=body)
        assert (r.status_code, r.json["error"]["code"]) == (403, "read_only")
    assert len(api.get(f"/api/v1/circles/{view}").json["tables"]) == 1


@pytest.mark.parametrize("url,body,status,code,field", [
    ("/api/v1/circles", {"name": ""}, 400, "bad_request", "name"),
    ("/api/v1/circles", {"name": "x" * 41}, 400, "bad_request", "name"),
    ("/api/v1/circles", {"name": "x", "players": ["甲", "甲"]}, 400, "bad_request",
     "players[1]"),
    ("/api/v1/circles", {"name": "x", "players": ["一二三四五六七八九十一二三四五六七"]}, 400,
     "bad_request", "players[0]"),
    ("/api/v1/circles", {"name": "x", "players": [f"p{i}" for i in range(61)]}, 422,
     "too_many", "players"),
    ("/api/v1/circles", {"name": "x", "colour": 1}, 400, "bad_request", "colour"),
    ("/api/v1/circles", [1], 400, "bad_json", None),
    ("/api/v1/tables", {"variant": "zhengzhou", "players": [1, 2, 3, 4]}, 400, "bad_request",
     "circle"),
    ("/api/v1/tables", {"variant": "zhengzhou", "circle": "A" * 32, "players": [1, 2, 3, 4]},
     404, "not_found", None),
])
def test_bad_input_is_a_4xx_with_a_code(api, url, body, status, code, field):
    r = api.post(url, json=body)
    assert r.status_code == status, r.json
    assert r.json["error"]["code"] == code
    assert r.json["error"]["field"] == field
    if code == "too_many":
        assert r.json["error"]["detail"] == {"limit": "players_per_circle", "max": 60}


@pytest.mark.parametrize("players,field", [([1, 2, 3], "players"), ([1, 1, 2, 3], "players"),
                                           ([1, 2, 3, 9], "players[3]"),
                                           (["1", 2, 3, 4], "players"), (None, "players"),
                                           # past the databases' integers (PostgreSQL 2^31,
                                           # SQLite 2^63): no such player, never a 500
                                           ([1, 2, 3, 2 ** 31], "players[3]"),
                                           ([1, 2 ** 63, 2, 3], "players[1]"),
                                           ([10 ** 30, 1, 2, 3], "players[0]"),
                                           ([1, 2, -(2 ** 63) - 1, 3], "players[2]")])
def test_seats_need_four_players_of_the_circle(api, players, field):
    made = post(api, "/api/v1/circles", {"name": "x", "players": PLAYERS}, 201)
    r = api.post("/api/v1/tables", json={"variant": "zhengzhou", "circle": made["edit_token"],
                                        "players": players})
    assert (r.status_code, r.json["error"]["code"], r.json["error"]["field"]) == \
        (400, "bad_request", field)
    assert api.get(f"/api/v1/circles/{made['edit_token']}").json["tables"] == []


#: integers past what a database column holds: PostgreSQL's integer (int4) from 2^31, SQLite's
#: and PostgreSQL's bigint from 2^63, and far beyond
HUGE = [2 ** 31, -(2 ** 31) - 1, 2 ** 63, -(2 ** 63) - 1, 2 ** 64, 10 ** 30]


@pytest.mark.parametrize("big", HUGE)
def test_player_ids_past_any_column_are_no_such_player(api, big):
    """An id no column can hold is a player the circle does not have (400 naming the seat, as
    player 9 of five), never a 500 from the database refusing the query."""
    made = post(api, "/api/v1/circles", {"name": "x", "players": PLAYERS}, 201)
    edit = made["edit_token"]
    for players, field in (([1, 2, 3, big], "players[3]"), ([big, 1, 2, 3], "players[0]")):
        r = api.post("/api/v1/tables", json={"variant": "zhengzhou", "circle": edit,
                                            "players": players})
        assert (r.status_code, r.json["error"]["code"], r.json["error"]["field"]) == \
            (400, "bad_request", field), r.get_data(as_text=True)[:300]
        assert str(big) in r.json["error"]["message"]
    assert api.get(f"/api/v1/circles/{edit}").json["tables"] == []
    # the player's path and an import's ids: the same id is no such player, or a bad seat
    r = api.get(f"/api/v1/circles/{edit}/players/{abs(big)}")
    assert (r.status_code, r.json["error"]["field"]) == (404, "player")
    post(api, "/api/v1/tables", {"variant": "zhengzhou", "circle": edit,
                                 "players": [1, 2, 3, 4]}, 201)
    doc = api.get(f"/api/v1/circles/{edit}/export").json
    doc["players"][4]["id"] = big                    # an id the file gives itself: any int
    assert api.post("/api/v1/circles/import", json=doc).status_code == 201
    doc["tables"][0]["players"][3] = big + 1         # a seat naming no player of the file
    r = api.post("/api/v1/circles/import", json=doc)
    assert (r.status_code, r.json["error"]["field"]) == (400, "tables[0].players")


def test_a_full_circle_and_unknown_links(api, make_app):
    app = make_app()
    app.extensions["ledger"].players_max = 2
    client = app.test_client()
    made = post(client, "/api/v1/circles", {"name": "x", "players": ["a", "b"]}, 201)
    r = client.post(f"/api/v1/circles/{made['edit_token']}/players", json={"name": "c"})
    assert (r.status_code, r.json["error"]["detail"]) == \
        (422, {"limit": "players_per_circle", "max": 2})
    for path in ("/api/v1/circles/" + "B" * 32, "/api/v1/circles/short",
                 "/api/v1/circles/" + "B" * 32 + "/players/1"):
        r = client.get(path)
        assert (r.status_code, r.json["error"]["code"]) == (404, "not_found")
    r = client.post("/api/v1/circles/" + "B" * 32 + "/players", json={"name": "c"})
    assert r.status_code == 404
    r = client.post(f"/api/v1/circles/{made['edit_token']}/players", data=b"{",
                    content_type="application/json")
    assert (r.status_code, r.json["error"]["code"]) == (400, "bad_json")
    r = client.post("/api/v1/circles", data=b"x" * 20000, content_type="application/json")
    assert r.status_code == 413


def test_english_errors(api):
    r = api.post("/api/v1/circles", json={"name": ""}, headers={"Accept-Language": "en"})
    assert "1 to 40" in r.json["error"]["message"]
    r = api.post("/api/v1/circles", json={"name": ""})
    assert "牌友圈" in r.json["error"]["message"]


def test_export_and_import_round_trip(api, evenings):
    made, _tables = evenings
    doc = api.get(f"/api/v1/circles/{made['view_token']}/export").json
    assert doc["format"] == "webcalc-circle/1"
    assert "edit_token" not in json.dumps(doc) and made["edit_token"] not in json.dumps(doc)
    before = api.get(f"/api/v1/circles/{made['view_token']}").json
    new = post(api, "/api/v1/circles/import", doc, 201)
    assert new["edit_token"] != made["edit_token"]
    after = new["circle"]
    assert after["name"] == before["name"] and after["players"] == before["players"]
    assert after["standings"] == before["standings"]
    keys = ("variant", "names", "players", "totals", "hands")
    assert [{k: t[k] for k in keys} for t in after["tables"]] == \
        [{k: t[k] for k in keys} for t in before["tables"]]
    for t_old, t_new in zip(before["tables"], after["tables"]):
        old = api.get(f"/api/v1/tables/{t_old['view_token']}").json
        fresh = api.get(f"/api/v1/tables/{t_new['view_token']}").json
        assert [(h["status"], h["settlement"]["net"]) for h in old["hands"]] == \
            [(h["status"], h["settlement"]["net"]) for h in fresh["hands"]]
    # the import is one of the circle's own: new evenings go on from it
    t = post(api, "/api/v1/tables", {"variant": "zhengzhou", "circle": new["edit_token"],
                                     "players": [1, 2, 3, 4]}, 201)
    rec(api, t, tiles(0, "self_draw"), [3, -1, -1, -1])
    s = {x["player"]: x for x in api.get(f"/api/v1/circles/{new['edit_token']}")
         .json["standings"]}
    assert (s[1]["net"], s[1]["wins"], s[1]["tables"]) == (-2, 2, 4)


def test_import_checks(api, evenings, make_app):
    made, _tables = evenings
    doc = api.get(f"/api/v1/circles/{made['view_token']}/export").json
    bad = json.loads(json.dumps(doc))
    bad["tables"][1]["players"] = [1, 1, 2, 3]
    r = api.post("/api/v1/circles/import", json=bad)
    assert (r.status_code, r.json["error"]["field"]) == (400, "tables[1].players")
    bad = json.loads(json.dumps(doc))
    bad["tables"][2]["table"]["entries"][1]["request"]["win_by"] = "flying"
    r = api.post("/api/v1/circles/import", json=bad)
    assert r.status_code == 400 and r.json["error"]["field"].startswith("tables[2].table")
    r = api.post("/api/v1/circles/import", json={**doc, "format": "webcalc-ledger/1"})
    assert (r.status_code, r.json["error"]["field"]) == (400, "format")
    big = {**doc, "tables": doc["tables"] * 201}
    r = api.post("/api/v1/circles/import", json=big)
    assert r.status_code in (413, 422)
    r = api.post("/api/v1/circles/import", data=b" " * (4 * 1024 * 1024 + 1),
                 content_type="application/json")
    assert (r.status_code, r.json["error"]["code"]) == (413, "too_large")
    many = {**doc, "tables": doc["tables"][:1] * 201}
    r = api.post("/api/v1/circles/import", json=many)
    assert (r.status_code, r.json["error"]["detail"]) == \
        (422, {"limit": "tables_per_import", "max": 200})


# -- the cap on an import's engine work (docs/LEDGER.md "Limits") ------------------------------

WIN = {"hand": T, "winning_tile": "2z", "win_by": "self_draw", "settlement": {"winner": 1}}


def _circle_doc(tables: int, entries: int, revisions: int = 0) -> dict:
    """A circle export of ``tables`` 郑州 evenings of ``entries`` wins each, the first
    ``revisions`` of them with one correction."""
    rows = [{"number": n + 1, "kind": "hand", "request": WIN,
             **({"revisions": [{"request": WIN}]} if n < revisions else {})}
            for n in range(entries)]
    return {"format": "webcalc-circle/1", "name": "周五牌友",
            "players": [{"id": i + 1, "name": p} for i, p in enumerate(PLAYERS)],
            "tables": [{"players": [1, 2, 3, 4], "table": {
                "format": "webcalc-ledger/1", "variant": "zhengzhou", "entries": rows}}
                for _ in range(tables)]}


@pytest.fixture()
def no_engine(monkeypatch):
    """The engine may not be called: an import refused by its caps computes nothing."""
    from webcalc.ledger import entries

    def refuse(*_a, **_k):
        raise AssertionError("the engine was called")
    monkeypatch.setattr(entries, "analyze", refuse)
    monkeypatch.setattr(entries, "settle_without_tiles", refuse)


def test_the_issues_import_is_refused_before_any_engine_call(make_app, no_engine):
    """60 tables × 500 hands (30,000 computations, past gunicorn's 30 s worker timeout) in
    under 4 MB: 422 at once, naming the cap, in the reader's language; nothing stored."""
    from webcalc.ledger.circles import IMPORT_COMPUTATIONS_MAX

    client = make_app().test_client()
    raw = json.dumps(_circle_doc(60, 500), separators=(",", ":")).encode()
    assert len(raw) < 4 * 1024 * 1024
    r = client.post("/api/v1/circles/import", data=raw, content_type="application/json")
    assert r.status_code == 422, r.json
    err = r.json["error"]
    assert err["code"] == "too_many"
    assert err["detail"] == {"limit": "computations_per_import", "max": IMPORT_COMPUTATIONS_MAX}
    # the table whose entries pass the cap: the first whose entries and corrections, with
    # the tables before it, make more than the cap
    assert err["field"] == f"tables[{IMPORT_COMPUTATIONS_MAX // 500}].table.entries"
    assert f"{IMPORT_COMPUTATIONS_MAX:,}" in err["message"] or \
        str(IMPORT_COMPUTATIONS_MAX) in err["message"]
    assert "牌友圈" in err["message"]
    r = client.post("/api/v1/circles/import", data=raw, content_type="application/json",
                    headers={"Accept-Language": "en"})
    assert r.status_code == 422 and "circle import" in r.json["error"]["message"]
    assert str(IMPORT_COMPUTATIONS_MAX) in r.json["error"]["message"].replace(",", "")


def test_corrections_count_towards_the_cap(make_app, no_engine):
    app = make_app(LEDGER_IMPORT_COMPUTATIONS_MAX=50)
    client = app.test_client()
    # 2 tables × (20 entries + 5 corrections) = 50: at the cap, not past it; one more passes
    assert app.extensions["ledger"].import_computations_max == 50
    r = client.post("/api/v1/circles/import", json=_circle_doc(3, 20, 5))
    assert (r.status_code, r.json["error"]["field"], r.json["error"]["detail"]) == \
        (422, "tables[2].table.entries", {"limit": "computations_per_import", "max": 50})
    doc = _circle_doc(2, 20, 5)
    doc["tables"][1]["table"]["entries"][10]["revisions"] = [{"request": WIN}]
    r = client.post("/api/v1/circles/import", json=doc)
    assert (r.status_code, r.json["error"]["field"]) == (422, "tables[1].table.entries")
    # the page's import says so too, in the reader's language
    page = client.get("/c/new?lang=en").data.decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    r = client.post("/c/import?lang=en", data={"csrf_token": token, "text": json.dumps(doc)})
    assert r.status_code == 422
    assert "at most 50 entries and corrections in all its tables" in r.data.decode()


def test_an_import_at_the_cap_is_computed(make_app):
    client = make_app(LEDGER_IMPORT_COMPUTATIONS_MAX=50).test_client()
    r = client.post("/api/v1/circles/import", json=_circle_doc(2, 20, 5))
    assert r.status_code == 201, r.json
    assert [t["hands"] for t in r.json["circle"]["tables"]] == [20, 20]


def test_an_import_past_its_cpu_budget_is_refused_and_stores_nothing(make_app, monkeypatch):
    """The computations cap bounds an import of ordinary hands; the CPU budget
    (``LEDGER_IMPORT_CPU_MAX``, 1.8 s by default) bounds one of the hardest: once this thread
    has spent the budget computing entries, the import is refused as too much engine work,
    naming the table where it ran out, and nothing is stored (circle or table import)."""
    from webcalc.ledger import service, transfer

    app = make_app()
    assert app.extensions["ledger"].import_cpu_max == service.IMPORT_CPU_MAX == 1.8
    client = app.test_client()
    clock = iter(range(0, 10_000, 1))            # each look "costs" one second of CPU
    monkeypatch.setattr(transfer.time, "thread_time", lambda: float(next(clock)))
    # the budget is taken at the import's first check (clock 0: until 1.8); the first
    # table's one entry is computed at 1, the second table's is refused at 2
    r = client.post("/api/v1/circles/import", json=_circle_doc(3, 1))
    assert r.status_code == 422, r.json
    assert (r.json["error"]["field"], r.json["error"]["detail"]) == (
        "tables[1].table.entries", {"limit": "computations_per_import",
                                    "max": service.IMPORT_COMPUTATIONS_MAX})
    edit = client.post("/api/v1/tables", json={"variant": "zhengzhou"}).json["edit_token"]
    for _ in range(3):
        client.post(f"/api/v1/tables/{edit}/hands", json=WIN)
    export = client.get(f"/api/v1/tables/{edit}/export").json
    r = client.post("/api/v1/tables/import", json=export)
    assert (r.status_code, r.json["error"]["field"]) == (422, "entries"), r.json
    monkeypatch.undo()
    ledger = app.extensions["ledger"]
    from sqlalchemy import func, select

    from webcalc.ledger.models import Circle, Table
    with ledger.engine.connect() as conn:          # the table made above, no import
        assert conn.execute(select(func.count()).select_from(Table)).scalar() == 1
        assert conn.execute(select(func.count()).select_from(Circle)).scalar() == 0
    r = client.post("/api/v1/tables/import", json=export)
    assert r.status_code == 201, r.json


def test_every_import_counts_towards_the_address_cap_before_its_work(make_app, monkeypatch):
    """Counted in its own transaction before any check or engine call: an import refused by
    the cap counts, and so does one killed in the middle of its engine work (a worker
    timeout), so a client cannot try again and again for free."""
    from webcalc.ledger import entries

    app = make_app(LEDGER_TABLES_PER_HOUR=2, LEDGER_IMPORT_COMPUTATIONS_MAX=50)
    client = app.test_client()
    r = client.post("/api/v1/circles/import", json=_circle_doc(3, 20))
    assert r.status_code == 422, r.json

    def killed(*_a, **_k):
        raise SystemExit("worker timeout")
    monkeypatch.setattr(entries, "analyze", killed)
    with pytest.raises(SystemExit):
        client.post("/api/v1/circles/import", json=_circle_doc(1, 20))
    monkeypatch.undo()
    r = client.post("/api/v1/circles", json={"name": "x"})
    assert (r.status_code, r.json["error"]["code"]) == (429, "rate_limited")
