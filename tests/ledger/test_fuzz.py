"""The ledger, circles, the hand review, the daily quiz and the 三门峡 history under hostile
input, on SQLite and PostgreSQL: seeded requests through the whole app
(tests/ledger/fuzzing.py says what they send and what every answer must be). Quick here;
``make fuzz`` (bench/fuzz.py) sends 100,000 per database with the same fuzzer."""

from __future__ import annotations

import json
import logging
import random

import pytest

from tests.scale import scaled
from webcalc.analysis import analyze
from webcalc.errors import InputError
from webcalc.story import review

from .fuzzing import (
    MIX,
    Fuzzer,
    encode,
    history_hand,
    history_variants,
    hostile,
    mutate,
    registered,
    review_log,
)

pytestmark = pytest.mark.both_dbs

REQUESTS = scaled(1500, floor=300)


@pytest.fixture()
def fuzz_app(make_app):
    app = make_app(WTF_CSRF_ENABLED=False, LEDGER_TABLES_PER_HOUR=0, PROPAGATE_EXCEPTIONS=False)
    logging.getLogger(app.name).disabled = True        # a 500 is a failure below, not a log
    yield app
    logging.getLogger(app.name).disabled = False


@pytest.mark.parametrize("seed", [20])
def test_fuzz_the_ledger(fuzz_app, seed):
    fuzzer = Fuzzer(fuzz_app.test_client(), random.Random(seed))
    fuzzer.run(REQUESTS)
    assert not fuzzer.failures, json.dumps(fuzzer.failures[:5], ensure_ascii=False, indent=1)
    assert fuzzer.statuses[500] == 0
    # the requests reached past the edge: writes succeeded and were refused for many reasons
    assert fuzzer.statuses[201] > scaled(50, floor=10) and fuzzer.statuses[400] > scaled(200, floor=40)
    # every area of the mix had its share: circles, the review, the quiz and the history
    # together a quarter or more of the requests (the ledger's the rest, its reads included)
    assert set(fuzzer.areas) == {area for area, _ in MIX}
    others = sum(n for area, n in fuzzer.areas.items() if area != "ledger")
    assert 0.22 <= others / fuzzer.requests <= 0.4, fuzzer.areas


def test_the_valid_bodies_are_valid():
    """The bodies the fuzzer mutates are accepted as they are: a review log of every rule set
    (a last turn that wins may be no win), a hand with a history where the rule set takes
    one, refused with ``bad_history`` elsewhere."""
    rng = random.Random(5)
    for name in registered():
        for _ in range(6):
            req = review_log(rng, name)
            try:
                review(req)
            except InputError as err:
                last = (req.get("turns") or [{}])[-1]
                assert err.code in ("not_complete", "bad_win_by") and (
                    last.get("win") or last.get("claim") == "win"), (req, err.to_dict())
        body = history_hand(rng, name)
        if name in history_variants():
            assert analyze(body).to_json()["history"] is not None
        else:
            with pytest.raises(InputError) as err:
                analyze(body)
            assert err.value.code == "bad_history"


def test_the_fuzzer_makes_what_it_says():
    """Its mutations include each hostile kind the brief names."""
    rng = random.Random(1)
    seen = set()
    for _ in range(3000):
        raw = encode(rng, mutate(rng, {"a": "x", "b": [1, {"c": 2}]}))
        for name, needle in (("surrogate", b"\\ud800"), ("nul", b"\\u0000"),
                             ("huge int", b"18446744073709551616"), ("tiny float", b"5e-324"),
                             ("deep", b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[")):
            if needle in raw:
                seen.add(name)
    assert seen == {"surrogate", "nul", "huge int", "tiny float", "deep"}
    assert any(isinstance(hostile(rng), dict) for _ in range(200))


def _string_places(value, path=()):
    if isinstance(value, str):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _string_places(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _string_places(v, path + (i,))


def _with(value, path, new):
    value = json.loads(json.dumps(value))
    if not path:
        return new
    target = value
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = new
    return value


@pytest.mark.parametrize("bad", ["\ud800", "记\x00错", "\x00"])
def test_surrogates_and_nul_in_every_string_field_of_every_ledger_body(fuzz_app, bad):
    """Every string of every ledger body (create, record with tiles and melds and kongs, a
    win without tiles, a transfer, a fee, correct, void, import), and every key, replaced by
    a lone surrogate or NUL: a 4xx, or (where such text is harmless) a write whose table
    still reads, exports and imports again; never a 500."""
    api = fuzz_app.test_client()
    made = api.post("/api/v1/tables", json={"variant": "zhengzhou", "names": ["甲", "乙", "丙",
                                                                             "丁"]}).json
    edit, view = made["edit_token"], made["view_token"]
    win = {"hand": "123m456p789s11z", "winning_tile": "1z", "win_by": "self_draw",
           "melds": [{"type": "pong", "tiles": "555m", "from": 2}], "visible": "9p",
           "settlement": {"winner": 1, "pao": [1, 0, 0, 1],
                          "kongs": [{"seat": 3, "type": "exposed", "from": 0}]},
           "idempotency_key": "k1"}
    assert api.post(f"/api/v1/tables/{edit}/hands", json=win).status_code == 201
    api.put(f"/api/v1/tables/{edit}/hands/1", json={**win, "settlement": {
        **win["settlement"], "pao": [0, 0, 0, 0]}})
    api.post(f"/api/v1/tables/{edit}/hands", json={"adjustment": {"fee": 10, "paid_by": 0,
                                                                  "note": "台费"}})
    api.post(f"/api/v1/tables/{edit}/hands/2/void", json={"reason": "记重了"})
    doc = api.get(f"/api/v1/tables/{view}/export").json
    bodies = [
        ("post", "/api/v1/tables", {"variant": "zhengzhou", "names": ["甲", "乙", "丙", "丁"],
                                    "options": {"wildcard_mode": "next"}}),
        ("post", f"/api/v1/tables/{edit}/hands", {**win, "idempotency_key": "k2"}),
        ("post", f"/api/v1/tables/{edit}/hands", {"win_by": "self_draw", "settlement": {
            "winner": 0}, "declared": {"doubles": ["seven_pairs"]}}),
        ("post", f"/api/v1/tables/{edit}/hands", {"adjustment": {"payments": [
            {"from": 0, "to": 1, "amount": 5}], "note": "罚"}}),
        ("post", f"/api/v1/tables/{edit}/hands", {"adjustment": {"fee": 10, "paid_by": 0,
                                                                 "note": "茶水"}}),
        ("put", f"/api/v1/tables/{edit}/hands/1", win),
        ("post", f"/api/v1/tables/{edit}/hands/1/void", {"reason": "记错"}),
        ("post", "/api/v1/tables/import", doc),
    ]
    tried = 0
    for method, path, body in bodies:
        places = list(_string_places(body))
        keyed = [(), *[p for p in places if p]]
        variants = [_with(body, p, bad) for p in places]
        for p in keyed:                                  # a key with the bad text, everywhere
            parent = _with(body, (), body)
            target = parent
            for step in p[:-1] if p else ():
                target = target[step]
            if isinstance(target, dict):
                target[bad] = 1
                variants.append(parent)
        for v in variants:
            tried += 1
            r = api.open(path, method=method.upper(), data=json.dumps(v),
                         content_type="application/json")
            assert r.status_code < 500, (method, path, v, r.get_data(as_text=True)[:300])
            if r.status_code >= 400:
                err = r.json["error"]
                assert err["code"] and err["message"], err
                continue
            t = api.get(f"/api/v1/tables/{view}")
            assert t.status_code == 200
            again = api.post("/api/v1/tables/import",
                             data=api.get(f"/api/v1/tables/{view}/export").data,
                             content_type="application/json")
            assert again.status_code == 201, again.get_data(as_text=True)[:300]
    assert tried > 100
