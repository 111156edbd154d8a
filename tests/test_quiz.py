"""The daily 何切 problem (webcalc/quiz.py, GET /api/v1/quiz; docs/API.md "Daily 何切").

Deterministic from the date and the variant (in this process and in another with a different
hash seed); every problem is 14 tiles at 1-2 shanten with at least three close discards
(at the best shanten, within CLOSE_MARGIN useful copies of the best), not all of them best;
the answer is the engine's full 牌理 ranking for those tiles.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from webcalc.analysis import analyze
from webcalc.quiz import CLOSE_MARGIN, MIN_CLOSE, _problem, daily_problem
from webcalc.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
DAYS = [date(2026, 1, 1) + timedelta(days=7 * i) for i in range(12)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_problem_has_the_promised_properties(variant):
    hands = set()
    for day in DAYS:
        p = daily_problem(variant, day)
        assert p["variant"] == variant and p["date"] == day.isoformat()
        req = {"variant": variant, "hand": p["hand"]}
        if p["indicator"] is not None:
            req["indicator"] = p["indicator"]
        out = analyze(req).to_json()                          # the engine's own 牌理 of the tiles
        assert out["tile_count"] == 14 and not out["complete"]
        assert p["shanten"] == out["shanten"] and p["shanten"] in (1, 2)
        assert p["wildcards"] == out["wildcards"]
        assert [{k: v for k, v in r.items() if k != "rank"} for r in p["ranking"]] \
            == out["efficiency"]
        best = out["efficiency"][0]
        close = [r["discard"] for r in out["efficiency"] if r["shanten"] == best["shanten"]
                 and r["useful_total"] >= best["useful_total"] - CLOSE_MARGIN]
        assert p["close"] == close and len(close) >= MIN_CLOSE
        top = [r["discard"] for r in out["efficiency"] if r["shanten"] == best["shanten"]
               and r["useful_total"] == best["useful_total"]]
        assert p["answer"] == top and len(top) < len(close)
        assert {r["discard"] for r in p["ranking"] if r["rank"] == 1} == set(top)
        ranks = [r["rank"] for r in p["ranking"]]
        assert ranks == sorted(ranks) and ranks[0] == 1
        assert p["rules"][:2] == ["C-9", "C-12"]
        hands.add(p["hand"])
    assert len(hands) == len(DAYS)                  # a new problem every day


def test_the_same_day_gives_the_same_problem():
    first = daily_problem("zhengzhou", "2026-05-04")
    _problem.cache_clear()
    assert daily_problem("zhengzhou", date(2026, 5, 4)) == first
    assert daily_problem("panjin", "2026-05-04") != first


def test_the_problem_is_the_same_in_another_process():
    code = ("import json; from webcalc.quiz import daily_problem; "
            "print(json.dumps(daily_problem('sanmenxia', '2026-02-14'), sort_keys=True))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True).stdout
    assert json.loads(out) == json.loads(json.dumps(daily_problem("sanmenxia", "2026-02-14")))


def test_the_api(client):
    resp = client.get("/api/v1/quiz?variant=jincheng&date=2026-03-01")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body == json.loads(json.dumps(daily_problem("jincheng", "2026-03-01")))
    assert body["indicator"] is None and body["rules"] == ["C-9", "C-12", "JC-2"]


def test_the_api_defaults_to_today_utc(client):
    today = datetime.now(UTC).date().isoformat()
    body = client.get("/api/v1/quiz?variant=zhengzhou").get_json()
    if body["date"] != today:                       # midnight passed between the two lines
        today = datetime.now(UTC).date().isoformat()
    assert body["date"] == today


@pytest.mark.parametrize("query, code, field", [
    ("variant=zhengzhou&date=2026-02-30", "bad_request", "date"),
    ("variant=zhengzhou&date=20260301", "bad_request", "date"),
    ("variant=zhengzhou&date=２０２６-03-01", "bad_request", "date"),
    ("variant=zhengzhou&date=2026-3-1", "bad_request", "date"),
    ("variant=nowhere&date=2026-03-01", "unknown_variant", "variant"),
    ("date=2026-03-01", "unknown_variant", "variant"),
])
def test_api_errors(client, query, code, field):
    resp = client.get(f"/api/v1/quiz?{query}", headers={"Accept-Language": "en"})
    assert resp.status_code == 400
    err = resp.get_json()["error"]
    assert (err["code"], err["field"]) == (code, field)
    if field == "date":
        assert err["message"].startswith("Date (date) should be")
