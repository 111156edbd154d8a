"""The analyze API and the calculator page at the edges of their inputs: bodies nested too
deeply, lone surrogates (with the field named), and bases whose arithmetic would not stay
exact (docs/settlement.md "Sanity caps"): each a 400 with a code and the field, never a 500.
The fuzzing of every field is in tests/test_web_security.py; the ledger's in
tests/ledger/test_fuzz.py."""

from __future__ import annotations

import json
import re

import pytest

from webcalc import create_app

API = "/api/v1/analyze"
CHINESE = re.compile(r"[\u4e00-\u9fff]")
WIN = {"variant": "zhengzhou", "hand": "123m456p789s11122z", "winning_tile": "2z",
       "win_by": "self_draw"}


@pytest.fixture()
def client():
    return create_app({"TESTING": True}).test_client()


def nested(value, depth: int, key: str | None = None):
    for _ in range(depth):
        value = {key: value} if key else [value]
    return value


@pytest.mark.parametrize("body, field", [
    ({**WIN, "variant": nested("zhengzhou", 400)}, "variant" + "[0]" * 31),
    ({**WIN, "variant": nested("zhengzhou", 400, "a")}, "variant" + ".a" * 31),
    ({**WIN, "settlement": {"winner": 1, "dealer": 0, "kongs": nested({}, 200)}},
     "settlement.kongs" + "[0]" * 30),
    (nested(WIN, 40), "[0]" * 32),
])
def test_a_body_nested_too_deeply_is_400_naming_where(client, body, field):
    """A variant nested 400 deep was a 500: the error message quoting it ran out of
    recursion."""
    r = client.post(API, data=json.dumps(body), content_type="application/json")
    assert r.status_code == 400, r.get_data(as_text=True)[:300]
    err = r.get_json()["error"]
    assert err["code"] == "bad_json" and err["field"] == field[:119] + ("…" if len(field) > 119
                                                                       else "")
    assert "32" in err["message"] and CHINESE.search(err["message"])


def test_nesting_within_the_limit_is_analysed_as_usual(client):
    r = client.post(API, json={**WIN, "extra": nested(1, 20)})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "extra"


@pytest.mark.parametrize("body, field", [
    ('{"variant": "zhengzhou", "hand": "123m\\ud800"}', "hand"),
    ('{"variant": "zhengzhou", "hand": "1m", "melds": [{"type": "pong", "tiles": "\\udfff"}]}',
     "melds[0].tiles"),
    ('{"variant": "zhengzhou", "hand": "1m", "\\ud800": 1}', "\\ud800"),
])
def test_a_lone_surrogate_names_its_field(client, body, field):
    r = client.post(API, data=body, content_type="application/json")
    err = r.get_json()["error"]
    assert r.status_code == 400 and (err["code"], err["field"]) == ("bad_json", field)


@pytest.mark.parametrize("base", [1e-300, 5e-324, 1e-11, 0.00001, 12345678.5, 1.5e9])
def test_a_base_whose_arithmetic_would_not_stay_exact_is_400(client, base):
    """base 1e-300 rounded every payment to 0 and failed an assertion (500)."""
    body = {**WIN, "settlement": {"winner": 1, "dealer": 0, "base": base, "pao": [3, 3, 3, 3]}}
    r = client.post(API, json=body)
    assert r.status_code == 400, r.get_data(as_text=True)[:300]
    err = r.get_json()["error"]
    assert (err["code"], err["field"]) == ("bad_settlement", "settlement.base")
    assert CHINESE.search(err["message"])


@pytest.mark.parametrize("base, amount", [(0.0001, 0.0021), (0.25, 5.25), (999999.9999,
                                                                           20999999.9979),
                                          (10 ** 9, 21 * 10 ** 9)])
def test_bases_inside_the_range_settle_exactly(client, base, amount):
    body = {**WIN, "settlement": {"winner": 1, "dealer": 0, "base": base, "pao": [3, 3, 3, 3]}}
    r = client.post(API, json=body)
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    assert r.get_json()["settlement"]["net"][1] == amount


def test_the_page_shows_a_base_error_under_its_input(client):
    r = client.get("/", query_string={"variant": "zhengzhou", "hand": WIN["hand"],
                                      "winning_tile": "2z", "s_winner": "1", "s_base": "1e-300"},
                   follow_redirects=True)
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "位小数" in html and 'value="1e-300"' in html
