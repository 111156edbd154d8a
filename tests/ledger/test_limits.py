"""Limits that answer at once, and bad values that are 4xx, never 500 (docs/LEDGER.md
"Limits", API.md "Table ledger, round two"), on SQLite and PostgreSQL.

The import tests count the engine's work by wrapping the two analysis entry points the ledger
service calls (``analyze`` for a hand with tiles, ``settle_without_tiles`` for one without):
instrumentation of the real engine, which still runs, not a stand-in for it."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from tests.scale import scaled
from webcalc.ledger import Busy, Ledger
from webcalc.ledger import entries as ledger_entries

pytestmark = pytest.mark.both_dbs

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw"}
WIN2 = {"hand": "111m234p567s789s55z", "winning_tile": "5z", "win_by": "self_draw"}


def win(seat: int, tiles: dict = WIN, **settlement) -> dict:
    return {**tiles, "settlement": {"winner": seat, **settlement}}


def post(api, path: str, body, method: str = "post"):
    """``body`` as JSON text: json.dumps writes a lone surrogate as the escape \\ud800 (valid
    JSON) and NUL as \\u0000, as a hostile client would."""
    return getattr(api, method)(path, data=json.dumps(body), content_type="application/json")


def create(api, **spec) -> tuple[str, str]:
    r = api.post("/api/v1/tables", json={"variant": "zhengzhou", **spec})
    assert r.status_code == 201, r.json
    return r.json["edit_token"], r.json["view_token"]


def error(r, status: int) -> dict:
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:500])
    return r.json["error"]


def export_doc(entries: int, revisions: int, *, full: bool = True) -> dict:
    """An export document by hand: ``entries`` entries of one hand, each with ``revisions``
    older revisions; ``full=False`` leaves out what an import may go without (dealers and
    times), as the issue's 2 MB import of 500 entries × 37 revisions did."""
    req = {**WIN, "settlement": {"winner": 1}}
    extra = {"dealer": 0, "recorded_at": "2024-05-01T19:00:00Z"} if full else {}
    return {"format": "webcalc-ledger/1", "variant": "zhengzhou",
            "entries": [{"number": n, "kind": "hand", "request": req, **extra,
                         "revisions": [{"request": req, **extra}] * revisions}
                        for n in range(1, entries + 1)]}


def multipart(fields: dict, file: tuple[str, str, bytes]) -> dict:
    """A form with a file upload as the test client's keyword arguments, encoded here in
    memory (the client would spool a big upload to a temporary file it never closes)."""
    boundary = "webcalc-test-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
             .encode() for k, v in fields.items()]
    name, filename, data = file
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                 f'filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'.encode()
                 + data + f"\r\n--{boundary}--\r\n".encode())
    return {"data": b"".join(parts),
            "content_type": f"multipart/form-data; boundary={boundary}"}


class EngineCalls:
    """Counts the engine calls the ledger service makes; ``during`` runs before each one."""

    def __init__(self, monkeypatch):
        self.n = 0
        self.during = None
        for name in ("analyze", "settle_without_tiles"):
            real = getattr(ledger_entries, name)
            monkeypatch.setattr(ledger_entries, name, self._counted(real))

    def _counted(self, real):
        def call(*args, **kwargs):
            self.n += 1
            if self.during is not None:
                self.during()
            return real(*args, **kwargs)
        return call


# -- 500s that are now 4xx ---------------------------------------------------------------------

@pytest.mark.parametrize("number", [2 ** 31, 2 ** 63, 2 ** 64, 0])
def test_a_hand_number_past_the_databases_integers_is_404(api, number):
    """PostgreSQL's integer ends at 2^31 - 1 and SQLite's at 2^63 - 1: such a number in the
    URL was a 500 (the query itself failed)."""
    edit, _ = create(api)
    assert api.post(f"/api/v1/tables/{edit}/hands", json=win(1)).status_code == 201
    for r in (post(api, f"/api/v1/tables/{edit}/hands/{number}", win(2), "put"),
              post(api, f"/api/v1/tables/{edit}/hands/{number}/void", {"reason": "记错"})):
        err = error(r, 404)
        assert (err["code"], err["field"]) == ("not_found", "number")
        assert f"第 {number} 手" in err["message"]


def test_a_hand_number_past_the_integers_on_the_table_page(make_app):
    client = make_app(WTF_CSRF_ENABLED=False).test_client()
    edit, _ = create(client)
    r = client.post(f"/t/{edit}/hands/{2 ** 63}/void", data={"reason": "记错"})
    assert r.status_code == 404


@pytest.mark.parametrize("where", ["create", "record", "adjustment", "settlement", "correct",
                                   "void", "import", "import entry"])
def test_a_lone_surrogate_in_an_unknown_key_is_400(api, where):
    """``{"\\ud800": 1}``: the error quoted the key back, and the answer could not be encoded."""
    edit, view = create(api)
    assert api.post(f"/api/v1/tables/{edit}/hands", json=win(1)).status_code == 201
    doc = api.get(f"/api/v1/tables/{view}/export").json
    bad = {"\ud800": 1}
    path, body, method, field = {
        "create": ("/api/v1/tables", {"variant": "zhengzhou", **bad}, "post", "\\ud800"),
        "record": (f"/api/v1/tables/{edit}/hands", {**win(2), **bad}, "post", "\\ud800"),
        "adjustment": (f"/api/v1/tables/{edit}/hands", {"adjustment": {"fee": 4, **bad}},
                       "post", "adjustment.\\ud800"),
        "settlement": (f"/api/v1/tables/{edit}/hands", win(2, **bad), "post",
                       "settlement.\\ud800"),
        "correct": (f"/api/v1/tables/{edit}/hands/1", {**win(2), **bad}, "put", "\\ud800"),
        "void": (f"/api/v1/tables/{edit}/hands/1/void", {"reason": "x", **bad}, "post",
                 "\\ud800"),
        "import": ("/api/v1/tables/import", {**doc, **bad}, "post", "\\ud800"),
        "import entry": ("/api/v1/tables/import",
                         {**doc, "entries": [{**doc["entries"][0], **bad}]}, "post",
                         "entries[0].\\ud800"),
    }[where]
    err = error(post(api, path, body, method), 400)
    assert (err["code"], err["field"]) == ("bad_json", field)
    assert "代理字符" in err["message"]
    assert len(api.get(f"/api/v1/tables/{view}").json["hands"]) == 1


@pytest.mark.parametrize("reason", ["记\ud800错", "记\x00错", "\x07"])
def test_an_imported_void_reason_that_cannot_be_stored_is_400(api, reason):
    """A lone surrogate was a 500; NUL was a 500 on PostgreSQL and stored on SQLite (whose
    export then could not be imported into PostgreSQL)."""
    edit, view = create(api)
    api.post(f"/api/v1/tables/{edit}/hands", json=win(1))
    doc = api.get(f"/api/v1/tables/{view}/export").json
    doc["entries"][0].update(status="voided", void_reason=reason,
                             voided_at="2024-05-01T21:00:00Z")
    err = error(post(api, "/api/v1/tables/import", doc), 400)
    assert err["code"] in ("bad_json", "bad_request")
    assert err["field"] == "entries[0].void_reason"


@pytest.mark.parametrize("name, value", [
    ("recorded_at", "0001-01-01T00:00:00+14:00"),    # before year 1 in UTC: OverflowError
    ("recorded_at", "9999-12-31T23:59:59-14:00"),    # after year 9999 in UTC
    ("recorded_at", "1999-12-31T23:59:59Z"),
    ("recorded_at", "yesterday"),
    ("recorded_at", 1714593600),
    ("revised_at", "2100-01-01T00:00:00Z"),
    ("voided_at", "0001-01-01T00:00:00+14:00"),
])
def test_imported_times_outside_the_documented_range_are_400(api, name, value):
    edit, view = create(api)
    api.post(f"/api/v1/tables/{edit}/hands", json=win(1))
    api.put(f"/api/v1/tables/{edit}/hands/1", json=win(2))
    api.post(f"/api/v1/tables/{edit}/hands/1/void", json={"reason": "记错"})
    doc = api.get(f"/api/v1/tables/{view}/export").json
    doc["entries"][0][name] = value
    err = error(post(api, "/api/v1/tables/import", doc), 400)
    assert (err["code"], err["field"]) == ("bad_request", f"entries[0].{name}")
    assert "2000" in err["message"] and "2099" in err["message"]


def test_imported_times_inside_the_range_are_kept(api):
    edit, view = create(api)
    api.post(f"/api/v1/tables/{edit}/hands", json=win(1))
    doc = api.get(f"/api/v1/tables/{view}/export").json
    doc["entries"][0]["recorded_at"] = "2000-01-01T09:00:00+09:00"       # 00:00 UTC
    r = post(api, "/api/v1/tables/import", doc)
    assert r.status_code == 201, r.json
    assert r.json["table"]["hands"][0]["recorded_at"] == "2000-01-01T00:00:00.000Z"


@pytest.mark.parametrize("adjustment, field", [
    ({"fee": 123456789.12345679, "paid_by": 0}, "adjustment.fee"),
    ({"fee": 1e-300, "paid_by": 0}, "adjustment.fee"),
    ({"fee": 0.00001, "paid_by": 0}, "adjustment.fee"),
    ({"fee": 1000000.5, "paid_by": 0}, "adjustment.fee"),
    ({"fee": 10 ** 9 + 1, "paid_by": 0}, "adjustment.fee"),
    ({"payments": [{"from": 0, "to": 1, "amount": 5e-324}]}, "adjustment.payments[0].amount"),
    ({"payments": [{"from": 0, "to": 1, "amount": 0.12345}]}, "adjustment.payments[0].amount"),
])
def test_amounts_that_would_not_stay_exact_are_400(api, adjustment, field):
    """fee 123456789.12345679 was a 500: its quarter, rounded to a float, made nets that no
    longer summed to zero (and every later read of the table failed the same way)."""
    edit, view = create(api)
    err = error(api.post(f"/api/v1/tables/{edit}/hands", json={"adjustment": adjustment}), 400)
    assert (err["code"], err["field"]) == ("bad_request", field)
    assert api.get(f"/api/v1/tables/{view}").status_code == 200


@pytest.mark.parametrize("fee, share", [(10, 2.5), (0.1, 0.025), (999999.9999, 249999.999975),
                                        (10 ** 9, 250000000), (123456789, 30864197.25)])
def test_amounts_inside_the_range_are_exact(api, fee, share):
    edit, view = create(api)
    r = api.post(f"/api/v1/tables/{edit}/hands", json={"adjustment": {"fee": fee, "paid_by": 2}})
    assert r.status_code == 201, r.json
    net = r.json["hand"]["settlement"]["net"]
    assert [Fraction(repr(x)) if isinstance(x, float) else x for x in net] == \
        [-Fraction(repr(share))] * 2 + [3 * Fraction(repr(share))] + [-Fraction(repr(share))]
    t = api.get(f"/api/v1/tables/{view}").json
    assert t["totals"] == net and len(t["settle_up"]) == 3


@pytest.mark.parametrize("base", [1e-300, 1e-11, 0.00001, 12345678.5, 1.5e9, 0.0])
def test_a_base_that_would_not_stay_exact_is_400(api, base):
    """base 1e-300 was accepted, and every later win at the table answered 500 (a payment of
    0 after rounding)."""
    r = api.post("/api/v1/tables", json={"variant": "zhengzhou", "base": base})
    err = error(r, 400)
    assert (err["code"], err["field"]) == ("bad_settlement", "base")


@pytest.mark.parametrize("base", [0.0001, 0.25, 999999.5, 10 ** 9, 2.0])
def test_bases_inside_the_range_record_wins(api, base):
    edit, view = create(api, base=base)
    r = api.post(f"/api/v1/tables/{edit}/hands", json=win(1, pao=[3, 3, 3, 3]))
    assert r.status_code == 201, r.json
    net = r.json["hand"]["settlement"]["net"]
    assert net[1] == pytest.approx(21 * base) and api.get(f"/api/v1/tables/{view}").json[
        "totals"] == net


def test_a_body_nested_too_deeply_is_400(api):
    edit, _ = create(api)
    deep = "123m"
    for _ in range(scaled(400)):
        deep = [deep]
    err = error(post(api, f"/api/v1/tables/{edit}/hands", {**win(1), "hand": deep}), 400)
    assert err["code"] == "bad_json" and err["field"].startswith("hand[0][0]")
    assert "32" in err["message"]


# -- caps: 422 too_many, with the cap in detail --------------------------------------------------

def test_revisions_per_entry_cap(make_app):
    api = make_app(LEDGER_REVISIONS_MAX=3).test_client()
    edit, _ = create(api)
    api.post(f"/api/v1/tables/{edit}/hands", json=win(1))
    assert api.put(f"/api/v1/tables/{edit}/hands/1", json=win(2)).status_code == 200
    assert api.put(f"/api/v1/tables/{edit}/hands/1", json=win(1)).status_code == 200
    err = error(api.put(f"/api/v1/tables/{edit}/hands/1", json=win(3)), 422)
    assert err["code"] == "too_many"
    assert err["detail"] == {"limit": "revisions_per_entry", "max": 3}
    assert "2 次" in err["message"]
    # an unchanged correction still answers 200 (it writes nothing)
    assert api.put(f"/api/v1/tables/{edit}/hands/1", json=win(1)).status_code == 200


def test_corrections_per_table_cap(make_app):
    api = make_app(LEDGER_CORRECTIONS_MAX=2).test_client()
    edit, view = create(api)
    for seat in (1, 2):
        api.post(f"/api/v1/tables/{edit}/hands", json=win(seat))
    assert api.put(f"/api/v1/tables/{edit}/hands/1", json=win(3)).status_code == 200
    assert api.put(f"/api/v1/tables/{edit}/hands/2", json=win(3)).status_code == 200
    err = error(api.put(f"/api/v1/tables/{edit}/hands/1", json=win(0)), 422)
    assert (err["code"], err["detail"]) == ("too_many",
                                            {"limit": "corrections_per_table", "max": 2})
    # voiding and recording again still work
    assert api.post(f"/api/v1/tables/{edit}/hands/1/void",
                    json={"reason": "记错"}).status_code == 200
    assert api.post(f"/api/v1/tables/{edit}/hands", json=win(0)).status_code == 201
    assert [h["revision"] for h in api.get(f"/api/v1/tables/{view}").json["hands"]] == [2, 2, 1]


def test_the_two_megabyte_import_is_refused_before_any_engine_work(make_app, monkeypatch):
    """500 entries × 37 revisions of one hand (2 MB): the import computed all 18,500
    revisions while holding the write lock (30 s), then answered 500 at the server's
    timeout. Now its size is read, its caps checked, and it is refused: not one engine call,
    and a record on another table meanwhile succeeds."""
    app = make_app(LEDGER_TABLES_PER_HOUR=0)
    api = app.test_client()
    edit, view = create(api)
    raw = json.dumps(export_doc(500, 36, full=False), separators=(",", ":")).encode()
    assert 2_000_000 < len(raw) < 2 * 1024 * 1024 - 1024
    calls = EngineCalls(monkeypatch)
    r = api.post("/api/v1/tables/import", data=raw, content_type="application/json")
    err = error(r, 422)
    assert (err["code"], err["field"]) == ("too_many", "entries[0].revisions")
    assert err["detail"] == {"limit": "revisions_per_entry", "max": 20}
    assert calls.n == 0
    # the same through the page's import form
    page = app.test_client()
    html = page.get("/t/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    r = page.post("/t/import", **multipart({"csrf_token": token},
                                           ("file", "webcalc-table.json", raw)))
    assert r.status_code == 422 and "最多更正 19 次" in r.get_data(as_text=True)
    assert calls.n == 0
    assert api.post(f"/api/v1/tables/{edit}/hands", json=win(1)).status_code == 201
    assert calls.n == 1


def test_an_import_past_the_corrections_cap_is_refused_before_any_engine_work(make_app,
                                                                             monkeypatch):
    api = make_app(LEDGER_CORRECTIONS_MAX=10).test_client()
    calls = EngineCalls(monkeypatch)
    err = error(api.post("/api/v1/tables/import", json=export_doc(6, 2)), 422)
    assert (err["code"], err["field"]) == ("too_many", "entries[5].revisions")
    assert err["detail"] == {"limit": "corrections_per_table", "max": 10}
    err = error(api.post("/api/v1/tables/import", json=export_doc(3, 0) | {
        "entries": export_doc(3, 0)["entries"] * 2}), 400)     # numbered 1 2 3 1 2 3
    assert err["field"] == "entries[3]"
    assert calls.n == 0


def test_an_import_is_checked_completely_before_any_engine_work(api, monkeypatch):
    """A mistake in the last entry is found before the first entry is computed."""
    doc = export_doc(40, 1)
    doc["entries"][-1]["revisions"][0]["request"] = {**WIN, "colour": "red",
                                                     "settlement": {"winner": 1}}
    calls = EngineCalls(monkeypatch)
    err = error(api.post("/api/v1/tables/import", json=doc), 400)
    assert (err["code"], err["field"]) == ("bad_request", "entries[39].colour")
    assert calls.n == 0


def test_too_many_entries_in_an_import(make_app, monkeypatch):
    api = make_app(LEDGER_HANDS_MAX=5).test_client()
    calls = EngineCalls(monkeypatch)
    err = error(api.post("/api/v1/tables/import", json=export_doc(6, 0)), 422)
    assert (err["code"], err["field"], err["detail"]) == (
        "too_many", "entries", {"limit": "entries_per_table", "max": 5})
    assert calls.n == 0
    assert api.post("/api/v1/tables/import", json=export_doc(5, 0)).status_code == 201
    assert calls.n == 5


def test_an_import_computes_outside_the_write_lock(db_url, monkeypatch):
    """While the engine computes an import's entries, another table can be written: no
    write transaction is open. (On SQLite the import held the database's one write lock for
    all its engine work, so this record waited out its busy timeout and failed.)"""
    ledger = Ledger(db_url, migrate_lazily=True, busy_timeout_ms=200)
    other = Ledger(db_url, migrate_lazily=True, busy_timeout_ms=200)
    try:
        made = other.create_table({"variant": "zhengzhou"})
        calls = EngineCalls(monkeypatch)
        recorded = []

        def meanwhile():
            if calls.n == 3:
                try:
                    recorded.append(other.record(made.edit_token,
                                                 {"settlement": {"winner": None}}).created)
                except Busy:
                    recorded.append("busy")
        calls.during = meanwhile
        imported = ledger.import_table(export_doc(4, 1), address="192.0.2.1")
        assert recorded == [True]
        assert len(imported.table["hands"]) == 4 and calls.n == 4 * 2 + 1
        assert imported.table["hands"][0]["revision"] == 2
    finally:
        ledger.dispose()
        other.dispose()


def test_the_creation_cap_counts_imports_whatever_their_outcome(make_app):
    """Failed imports counted nothing, so one address could make the server compute
    import after import without end."""
    api = make_app(LEDGER_TABLES_PER_HOUR=3).test_client()
    bad = export_doc(2, 0)
    bad["entries"][1]["request"] = {**WIN, "hand": "123m", "settlement": {"winner": 1}}
    assert api.post("/api/v1/tables/import", json=bad).status_code == 400
    assert api.post("/api/v1/tables/import", json={"format": "x"}).status_code == 400
    assert api.post("/api/v1/tables/import", json=export_doc(1, 0)).status_code == 201
    r = api.post("/api/v1/tables/import", json=export_doc(1, 0))
    assert error(r, 429)["code"] == "rate_limited" and int(r.headers["Retry-After"]) > 0
    assert api.post("/api/v1/tables", json={"variant": "zhengzhou"}).status_code == 429


def test_an_export_bigger_than_16_kb_imports_through_the_api(api):
    """The API's import was held to the 16 KB of every other body: an 80-hand evening's
    export could only be imported through the page."""
    edit, view = create(api, names=["老王", "小李", "阿梅", "张师傅"])
    for n in range(80):
        body = win(n % 4, WIN if n % 2 else WIN2, pao=[n % 3, 1, 0, 2])
        assert api.post(f"/api/v1/tables/{edit}/hands", json=body).status_code == 201
    doc = api.get(f"/api/v1/tables/{view}/export")
    assert len(doc.data) > 16 * 1024
    r = api.post("/api/v1/tables/import", data=doc.data, content_type="application/json")
    assert r.status_code == 201, r.get_data(as_text=True)[:300]
    assert r.json["table"]["totals"] == api.get(f"/api/v1/tables/{view}").json["totals"]


def test_an_import_over_two_megabytes_is_413_with_its_limit(api):
    raw = json.dumps(export_doc(600, 36)).encode()
    assert len(raw) > 2 * 1024 * 1024
    err = error(api.post("/api/v1/tables/import", data=raw, content_type="application/json"),
                413)
    assert err["code"] == "too_large"
    assert err["detail"] == {"limit": "body_bytes", "max": 2 * 1024 * 1024}
    assert "2048 KB" in err["message"]
    err = error(api.post("/api/v1/tables", data=b" " * (17 * 1024),
                         content_type="application/json"), 413)
    assert err["detail"] == {"limit": "body_bytes", "max": 16 * 1024}
