"""A 三门峡 hand recorded in the ledger with the winner's history (RULES SMX-5): the 表 and the
payments are counted from the turns, and the request is kept as recorded."""

from __future__ import annotations

HAND = {"hand": "112233m123p123s9m7z", "winning_tile": "9m", "win_by": "self_draw",
        "indicator": "4z"}


def test_a_recorded_hand_counts_biao_from_its_history(api):
    r = api.post("/api/v1/tables", json={"variant": "sanmenxia"})
    assert r.status_code == 201, r.json
    token = r.json["edit_token"]
    # the seed's first example: one 中 drawn and thrown in the any-tile wait → 2 表, 4 a seat
    body = {**HAND, "history": [{"draw": "中", "discard": "中"}], "settlement": {"winner": 0}}
    r = api.post(f"/api/v1/tables/{token}/hands", json=body)
    assert r.status_code == 201, r.json
    hand = r.json["hand"]
    assert hand["settlement"]["net"] == [12, -4, -4, -4]
    assert hand["request"]["history"] == [{"draw": "中", "discard": "中"}]
    assert r.json["table"]["totals"] == [12, -4, -4, -4]


def test_a_history_that_cannot_be_rebuilt_records_nothing(api):
    token = api.post("/api/v1/tables", json={"variant": "sanmenxia"}).json["edit_token"]
    body = {**HAND, "history": [{"draw": "5p", "discard": "中"}], "settlement": {"winner": 0}}
    r = api.post(f"/api/v1/tables/{token}/hands", json=body)
    assert r.status_code == 400
    assert (r.json["error"]["code"], r.json["error"]["turn"]) == ("bad_history", 0)
    assert api.get(f"/api/v1/tables/{token}").json["hands"] == []


def test_a_history_needs_the_tiles(api):
    token = api.post("/api/v1/tables", json={"variant": "sanmenxia"}).json["edit_token"]
    r = api.post(f"/api/v1/tables/{token}/hands", json={
        "win_by": "self_draw", "history": [{"draw": "中", "discard": "中"}],
        "declared": {"biao": 1}, "settlement": {"winner": 0}})
    assert r.status_code == 400
