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
