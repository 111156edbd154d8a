"""The app mounted under a prefix (``SCRIPT_NAME=/calc``, as a proxy that serves it at
``https://host/calc/`` sets it): every page that answers 303 to its canonical URL sends a
URL under the prefix, and that URL answers 200, not 303 to itself (before: the table page's
canonical URL held the prefix and the URL it was compared with did not, a loop; the
calculator's, the review's and the card's 303s left the prefix)."""

from __future__ import annotations

import pytest

from .test_pages import WIN, open_table

ROOT = "/calc"
BASE = "http://localhost" + ROOT + "/"
HAND = f"hand={WIN}&winning_tile=2z"


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


def under(client, url: str, **kw):
    """GET ``url`` (a path under the prefix, with it) as the proxy passes it on."""
    assert url.startswith(ROOT + "/"), url
    return client.get(url[len(ROOT):], base_url=BASE, **kw)


def settles(client, url: str) -> str:
    """The canonical URL ``url`` answers 303 to: under the prefix, and answered 200 there."""
    r = under(client, url)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    canonical = r.headers["Location"]
    assert canonical.startswith(ROOT + "/"), canonical
    again = under(client, canonical)
    assert again.status_code == 200, (canonical, again.headers.get("Location"))
    return canonical


def test_the_table_page_is_no_loop_under_a_prefix(client):
    token = open_table(client)
    page = under(client, f"{ROOT}/t/{token}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'action="{ROOT}/t/{token}"' in html                 # the entry's form stays in
    canonical = settles(client, f"{ROOT}/t/{token}?{HAND}&s_winner=1&form_variant=zhengzhou"
                                f"&number=1&k_seat=")
    assert canonical.startswith(f"{ROOT}/t/{token}?hand=")
    assert under(client, f"{ROOT}/t/{token}?done=1").status_code == 200


def test_the_calculator_review_and_card_redirect_under_the_prefix(client):
    calc = settles(client, f"{ROOT}/?{HAND}&variant=zhengzhou&k_seat=")
    assert calc.startswith(f"{ROOT}/?variant=zhengzhou&hand=")
    assert f'action="{ROOT}/"' in under(client, calc).get_data(as_text=True)
    review = settles(client, f"{ROOT}/review?variant=zhengzhou&start=123m&add=4m")
    assert review == f"{ROOT}/review?variant=zhengzhou&start=1234m"
    card = settles(client, f"{ROOT}/card.png?{HAND}&variant=zhengzhou&k_seat=")
    assert card.startswith(f"{ROOT}/card.png?variant=zhengzhou&hand=")
    assert under(client, card).mimetype == "image/png"


def test_the_room_sections_drawn_at_the_root_are_not_reused_under_the_prefix(client):
    """The room's options and settlement inputs are drawn once and reused
    (room_page.room_sections); their rule links are url_for's, so a copy drawn at the root (as
    gunicorn's warm-up draws every page before it forks, webcalc.web.warmup, with no script
    root) is not the copy under /calc (before: the calculator under /calc linked /rules/ZZ-1,
    outside the prefix, after the same page had been drawn at the root), nor the reverse."""
    import re

    query = client.get(f"/?{HAND}&variant=zhengzhou&k_seat=").headers["Location"]
    assert query.startswith("/?variant=zhengzhou&hand=")       # canonical: answered 200
    for first, then in [("", ROOT), (ROOT, "")]:
        from webcalc.web import room_page
        room_page._room_html.clear()
        client.get(query, base_url="http://localhost" + first + "/")
        html = client.get(query, base_url="http://localhost" + then + "/").get_data(as_text=True)
        rules = re.findall(r'href="([^"]*/rules/[^"]*)"', html)
        assert rules and all(u.startswith(then + "/rules/") for u in rules), (then, rules[:3])


def test_the_hand_list_drawn_at_the_root_is_not_reused_under_the_prefix(client):
    """The table's hand list is drawn once per version and reused (ledger_table.live_rest),
    with its 撤销 and void forms' actions: the copy drawn at the root is not the one under
    /calc (before: the page under /calc posted 撤销 to /t/<edit>/undo, outside the prefix)."""
    import re

    from .test_pages import record

    token = open_table(client)
    assert record(client, token, hand=WIN, winning_tile="2z", s_winner="1").status_code == 303
    for first, then in [("", ROOT), (ROOT, "")]:
        client.application.extensions.get("ledger_live_cache", {}).clear()
        client.get(f"/t/{token}", base_url="http://localhost" + first + "/")
        html = client.get(f"/t/{token}", base_url="http://localhost" + then + "/")
        actions = re.findall(r'action="([^"]*/(?:undo|void)[^"]*)"', html.get_data(as_text=True))
        assert actions and all(u.startswith(then + "/t/") for u in actions), (then, actions)
