"""The table page's entry takes the winner's turns as the calculator does (one room, two homes):
a 三门峡 hand entered with its history records the history, and the entry's 表 and nets are the
recorded ones; a correction opens the entry with the same history and the same 表 (RULES
SMX-5). Each of the seed's four examples, on SQLite and PostgreSQL, without JavaScript."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.test_web_history import EXAMPLES, HAND, turns_shown
from webcalc.web.turns import history_request

from .test_table_room import ledger, new_table, press, shown_nets


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


@pytest.mark.parametrize("win, history, biao, net, turns", EXAMPLES)
def test_an_entry_with_its_history_records_the_same_biao(client, win, history, biao, net,
                                                          turns):
    token = new_table(client, "sanmenxia")
    pairs = [("hand", HAND), ("indicator", "4z"), ("winning_tile", win), ("history", history),
             ("s_winner", "0")]
    r = client.get(f"/t/{token}?" + urlencode(pairs), follow_redirects=True)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert shown_nets(html) == net and turns_shown(html) == turns
    r = press(client, html)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    h = ledger(client).table(token)["hands"][0]
    assert h["request"]["history"] == history_request(history)
    assert [str(x) if x <= 0 else f"+{x}" for x in h["settlement"]["net"]] == net
    # the correction reopens the entry with the history: the same turns, 表 and nets
    page = client.get(f"/t/{token}?correct=1", follow_redirects=True).get_data(as_text=True)
    assert f'value="{history}"' in page
    assert turns_shown(page) == turns and shown_nets(page) == net
    assert re.search(r"<dt>表</dt><dd>(\d+)</dd>", page).group(1) == str(biao)


def test_a_bad_history_records_nothing_and_is_shown_under_its_input(client):
    token = new_table(client, "sanmenxia")
    pairs = [("hand", HAND), ("indicator", "4z"), ("winning_tile", "9m"),
             ("history", "5p7z"), ("s_winner", "0")]
    r = client.get(f"/t/{token}?" + urlencode(pairs), follow_redirects=True)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert 'id="history-error"' in html and "历史第 1 手" in html
    assert 'value="5p7z"' in html
    press(client, html)
    assert ledger(client).table(token)["hands"] == []
