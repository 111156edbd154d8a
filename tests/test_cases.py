"""Every worked case of tests/cases.json (a copy of shared/cases/cases.json) through the API.

Each case becomes two tests: its analysis expectations (status, error, complete, wildcards,
waits, shapes, 表, 番, shanten) and, where it has one, its settlement ``net``. A case that
is known not to pass yet is a *strict* expected failure naming the issue it waits for, so it
turns red the day it starts passing and the mark must go.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CASES = json.loads((Path(__file__).parent / "cases.json").read_text(encoding="utf-8"))

#: case id → why it is expected to fail. Keep this short; every entry is a debt.
EXPECTED_FAILURES: dict[str, str] = {}

def _params(with_net: bool):
    out = []
    for case in CASES:
        if with_net and "net" not in case["expect"]:
            continue
        marks = []
        if case["id"] in EXPECTED_FAILURES:
            marks.append(pytest.mark.xfail(reason=EXPECTED_FAILURES[case["id"]], strict=True))
        out.append(pytest.param(case, id=f"{case['stage']}:{case['id']}", marks=marks))
    return out


def _post(client, case):
    resp = client.post("/api/v1/analyze", json=case["request"])
    return resp.status_code, resp.get_json()


@pytest.mark.parametrize("case", _params(with_net=False))
def test_case_analysis(client, case):
    expect = case["expect"]
    status, body = _post(client, case)
    assert status == expect.get("status", 200), body
    if "error" in expect:
        assert body["error"]["code"] == expect["error"]
        assert body["error"]["message"]
        return
    if "complete" in expect:
        assert body["complete"] is expect["complete"], body.get("reasons")
    if "wildcards" in expect:
        assert sorted(body["wildcards"]) == sorted(expect["wildcards"])
    waits = {w["tile"]: w["remaining"] for w in body["waits"]}
    if "waits" in expect:
        assert waits == expect["waits"]
    for tile, remaining in expect.get("waits_include", {}).items():
        assert waits.get(tile) == remaining, (tile, waits)
    if "wait_count" in expect:
        assert len(waits) == expect["wait_count"]
    if "any_tile_wait" in expect:
        assert body["any_tile_wait"] is expect["any_tile_wait"]
    shapes = {d["shape"] for d in body["decompositions"]}
    for shape in expect.get("shapes_include", []):
        assert shape in shapes
    if "biao" in expect:
        assert body.get("biao") == expect["biao"]
    fan_keys = {f["key"] for f in body.get("fan") or []}
    for key in expect.get("fan_include", []):
        assert key in fan_keys
    for key in expect.get("fan_exclude", []):
        assert key not in fan_keys
    if "shanten" in expect:
        assert body["shanten"] == expect["shanten"]


@pytest.mark.parametrize("case", _params(with_net=True))
def test_case_settlement_net(client, case):
    status, body = _post(client, case)
    assert status == 200, body
    net = body["settlement"]["net"]
    assert net == case["expect"]["net"]
    assert sum(net) == 0
