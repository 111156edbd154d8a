"""The JSON API (API.md): POST /api/v1/analyze, its 400s, and no 500 for any body."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc import create_app
from webcalc.variants import VARIANTS

URL = "/api/v1/analyze"
CHINESE = re.compile(r"[\u4e00-\u9fff]")


def post_raw(client, data: bytes | str, content_type="application/json"):
    return client.post(URL, data=data, content_type=content_type)


def waits(body) -> list[tuple[str, int]]:
    return [(w["tile"], w["remaining"]) for w in body["waits"]]


def assert_error(resp, code: str, field=None):
    assert resp.status_code == 400, resp.get_data(as_text=True)
    assert resp.is_json
    err = resp.get_json()["error"]
    assert err["code"] == code
    assert err["field"] == field
    assert CHINESE.search(err["message"]), err["message"]
    return err


def test_ready_hand_waits_on_single_tile(client):
    # 123m 456p 789s 东东东 + 南: only 南 completes (pair wait); 1 南 held → 3 remaining.
    resp = client.post(URL, json={"variant": "zhengzhou", "hand": "123m456p789s1112z"})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["wildcards"] == []
    assert body["tile_count"] == 13
    assert body["complete"] is False
    assert waits(body) == [("2z", 3)]
    assert body["any_tile_wait"] is False


def test_wildcard_hand_from_indicator(client):
    # 郑州 ZZ-1: indicator 西 (3z) → wildcard 北 (4z). 123m 456p 789s 东东 西 + 北(混):
    # 东 (111z + 西混 pair), 西 (333z with the wildcard) and 北 itself complete the hand.
    # remaining (C-9): 东 4-2 = 2; 西 4-1 held-1 indicator = 2; 北 4-1 = 3.
    resp = client.post(URL, json={"variant": "zhengzhou", "hand": "123m456p789s1134z",
                                  "indicator": "3z"})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["wildcards"] == ["4z"]
    assert {w["tile"]: w["remaining"] for w in body["waits"]} == {"1z": 2, "3z": 2, "4z": 3}


def test_visible_tiles_reduce_remaining_to_dead_wait(client):
    resp = client.post(URL, json={"variant": "zhengzhou", "hand": "123m456p789s1112z",
                                  "visible": "222z"})
    assert resp.status_code == 200
    assert waits(resp.get_json()) == [("2z", 0)]


def test_complete_hand_lists_its_reading(client):
    resp = client.post(URL, json={"variant": "zhengzhou", "hand": "123m456p789s11122z"})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["complete"] is True
    assert body["tile_count"] == 14
    assert body["decompositions_total"] == 1
    (reading,) = body["decompositions"]
    assert reading["shape"] == "standard"
    kinds = sorted(g["kind"] for g in reading["groups"])
    assert kinds == ["pair", "sequence", "sequence", "sequence", "triplet"]


def test_chinese_input_is_accepted(client):
    resp = client.post(URL, json={"variant": "zhengzhou", "hand": "一二三万 四五六筒 七八九条 东东东南"})
    assert resp.status_code == 200
    assert waits(resp.get_json()) == [("2z", 3)]


def test_response_is_utf8_json_not_escaped(client):
    resp = client.post(URL, json={"variant": "zhengzhou", "hand": "12x"})
    assert resp.status_code == 400
    assert "\\u" not in resp.get_data(as_text=True)


@pytest.mark.parametrize("data", [b"{", b"", b"{'variant': 1}", b"\xff\xfe{}", b'{"hand": NaN}',
                                  b"[" * 5000 + b"]" * 5000])
def test_bad_json(client, data):
    assert_error(post_raw(client, data), "bad_json")


@pytest.mark.parametrize("data", ["[]", "null", "1", '"zhengzhou"', "[{\"variant\": \"zhengzhou\"}]"])
def test_json_that_is_not_an_object(client, data):
    assert_error(post_raw(client, data), "bad_json")


def test_body_without_json_content_type_is_still_read(client):
    resp = post_raw(client, json.dumps({"variant": "zhengzhou", "hand": "123m456p789s1112z"}),
                    content_type="text/plain")
    assert resp.status_code == 200


@pytest.mark.parametrize("body, code, field", [
    ({"variant": "zhengzhou", "hand": "123m456p789s111x"}, "bad_tile", "hand"),
    ({"variant": "nowhere", "hand": "123m456p789s1112z"}, "unknown_variant", "variant"),
    ({"variant": "zhengzhou", "hand": "123m"}, "wrong_tile_count", "hand"),
    ({"variant": "zhengzhou", "hand": "11111m456p789s12z"}, "too_many_copies", "hand"),
    ({"variant": "zhengzhou", "hand": "123m456p789s1112z", "options": {"nope": True}},
     "bad_option", "options.nope"),
])
def test_input_errors(client, body, code, field):
    assert_error(client.post(URL, json=body), code, field)


def test_wrong_method_and_unknown_path_answer_json(client):
    resp = client.get(URL)
    assert resp.status_code == 405
    assert resp.get_json()["error"]["code"] == "method_not_allowed"
    resp = client.post("/api/v1/nothing", json={})
    assert resp.status_code == 404
    assert resp.get_json()["error"]["code"] == "not_found"


def test_oversized_body_is_json_413(client):
    resp = post_raw(client, b'{"hand": "' + b"1" * (300 * 1024) + b'"}')
    assert resp.status_code == 413
    assert resp.get_json()["error"]["code"] == "too_large"


# --- never a 500 -------------------------------------------------------------------------

_app = create_app({"TESTING": True})
# st.text() never makes a lone surrogate ("\ud800": valid JSON, no Unicode text): mix them in
any_text = st.text(alphabet=st.characters() | st.characters(categories=["Cs"]), max_size=30)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=30) | any_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10) | any_text,
                                                               inner, max_size=4),
    max_leaves=12,
)
tile_text = (st.text(alphabet="0123456789mpsz 东南西北中发白万筒条一二三", max_size=20)
             | st.text(alphabet=st.sampled_from("12mz\ud800\udfff"), max_size=8))
request_like = st.fixed_dictionaries(
    {"variant": st.sampled_from([*VARIANTS, "x"]),
     "hand": tile_text | json_values},
    optional={"indicator": tile_text | json_values, "visible": tile_text | json_values,
              "melds": json_values, "options": json_values, "winning_tile": tile_text,
              "win_by": st.sampled_from(["self_draw", "discard", "kong_replacement",
                                         "robbing_kong", "x"]) | json_values,
              "settlement": json_values},
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=json_values | request_like)
def test_no_500_for_any_json_body(body):
    resp = _app.test_client().post(URL, data=json.dumps(body), content_type="application/json")
    assert resp.status_code in (200, 400), (body, resp.status_code)
    if resp.status_code == 400:
        assert resp.get_json()["error"]["code"]


@settings(max_examples=examples(60), deadline=None)
@given(data=st.binary(max_size=60))
def test_no_500_for_any_bytes(data):
    resp = _app.test_client().post(URL, data=data, content_type="application/json")
    assert resp.status_code in (200, 400)
