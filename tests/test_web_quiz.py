"""The daily 何切 page (``GET /quiz``): the engine's problem of the day, answered by a tap.

The page shows what ``GET /api/v1/quiz`` answers for the same variant and date (the problem
is the engine's, docs/API.md "Daily 何切"): the 14 tiles as links, and after a pick its rank
(1 + the discards strictly better, C-9/C-12 ranking: lowest shanten, then most useful copies),
the whole ranking in the engine's order, and the rules it rests on."""

from __future__ import annotations

import re

import pytest

from webcalc.variants import VARIANTS

DAY = "2026-12-02"


def _api(client, variant):
    r = client.get(f"/api/v1/quiz?variant={variant}&date={DAY}")
    assert r.status_code == 200
    return r.get_json()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_page_shows_the_engines_problem_and_ranks_every_pick(client, variant):
    problem = _api(client, variant)
    html = client.get(f"/quiz?variant={variant}&date={DAY}").get_data(as_text=True)
    picks = re.findall(r'class="quiz-tile[^"]*" href="[^"]*pick=([0-9a-z]+)', html)
    hand = re.findall(r"[1-9]+[mpsz]", problem["hand"])
    codes = [d + suit for group in hand for d in group[:-1] for suit in group[-1]]
    assert picks == codes and len(picks) == 14
    assert 'id="answer"' not in html
    for row in problem["ranking"]:
        page = client.get(f"/quiz?variant={variant}&date={DAY}&pick={row['discard']}")
        text = page.get_data(as_text=True)
        assert page.status_code == 200
        if row["discard"] in problem["answer"]:
            assert row["rank"] == 1 and "答对了" in text
        else:
            assert row["rank"] > 1
            assert f"{len(problem['ranking'])} 种打法中排第 {row['rank']}" in text
        order = re.findall(r'<li class="eff-row[^"]*" data-discard="([0-9a-z]+)"', text)
        assert order == [r["discard"] for r in problem["ranking"]]
        for rule in problem["rules"]:
            assert f'href="/rules/{rule}' in text


def test_a_pick_outside_the_hand_or_a_bad_day_is_an_error_under_its_input(client):
    problem = _api(client, "zhengzhou")
    held = set(re.findall(r"[1-9][mpsz]", "".join(
        d + g[-1] for g in re.findall(r"[1-9]+[mpsz]", problem["hand"]) for d in g[:-1])))
    absent = next(c for c in ("1z", "2z", "3z", "4z", "5z", "6z", "7z", "1m", "9s")
                  if c not in held)
    r = client.get(f"/quiz?variant=zhengzhou&date={DAY}&pick={absent}")
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and f"你的答案“{absent}”不是这手牌里的牌" in html
    assert html.count('class="quiz-tile') == 14                # the problem stays
    r = client.get(f"/quiz?variant=zhengzhou&date={DAY}&pick=%3Cb%3E")
    assert r.status_code == 422 and "&lt;b&gt;" in r.get_data(as_text=True)
    r = client.get("/quiz?variant=tianjin")
    assert r.status_code == 422 and "未知玩法 “tianjin”" in r.get_data(as_text=True)
    r = client.get("/quiz?variant=panjin&date=2026-02-30")
    assert r.status_code == 422 and "日期（date）应写作 YYYY-MM-DD" in r.get_data(as_text=True)


def test_the_page_in_english_and_linked_from_every_page(client):
    problem = _api(client, "jincheng")
    wrong = next(r for r in problem["ranking"] if r["rank"] > 1)
    html = client.get(f"/quiz?variant=jincheng&date={DAY}&pick={wrong['discard']}&lang=en"
                      ).get_data(as_text=True)
    assert f"Not the best: rank {wrong['rank']} of {len(problem['ranking'])}." in html
    assert "Daily what-to-discard" in html
    assert 'href="/quiz"' in client.get("/").get_data(as_text=True)
