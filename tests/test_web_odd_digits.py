"""A number in the query that is not plain digits, or an htmx header no URL parser reads,
never makes a 500.

``str.isdigit()`` is true for superscripts and circled numbers (``²``, ``①``) that ``int()``
cannot read, and ``int()`` refuses more than 4 300 digits: each such value, where the pages
read a count or an index (``readings``, the tap's ``remove…``, the table entry's ``number``,
the review's ``step`` and ``remove_start``), is read as any other unreadable text is (here
``x``): the same status and the same redirect."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

ODD = ["²", "①", "²⁰", "9" * 4400]
HAND = {"variant": "zhengzhou", "hand": "123m456p789s111z22z"}
REVIEW = {"variant": "zhengzhou", "start": "123m456p789s111z2"}

CASES = [
    ("/", HAND, "readings"),
    ("/", HAND, "remove"),
    ("/", HAND, "remove_visible"),
    ("/", HAND, "remove_meld"),
    ("/", HAND, "remove_turn"),
    ("/review", REVIEW, "step"),
    ("/review", REVIEW, "remove_start"),
]


def answer(client, path: str, query: dict) -> tuple:
    resp = client.get(path + "?" + urlencode(query))
    return resp.status_code, resp.headers.get("Location")


@pytest.mark.parametrize("odd", ODD, ids=["sup2", "circled1", "sup20", "4400digits"])
@pytest.mark.parametrize(("path", "base", "key"), CASES,
                         ids=[f"{p}-{k}" for p, _b, k in CASES])
def test_odd_digits_read_as_any_unreadable_text(client, path, base, key, odd):
    assert answer(client, path, {**base, key: odd}) == answer(client, path, {**base, key: "x"})


def test_wide_digits_still_count_as_digits(client):
    """Full-width and other decimal digits ``int()`` reads stay numbers: ``readings=４０``
    lists 40 readings, written back in ASCII."""
    status, location = answer(client, "/", {**HAND, "readings": "４０"})
    assert (status, location) == (303, "/?" + urlencode(HAND) + "&readings=40")


@pytest.mark.parametrize("odd", ODD, ids=["sup2", "circled1", "sup20", "4400digits"])
def test_table_entry_number(make_table_client, odd):
    client, token = make_table_client
    assert (answer(client, f"/t/{token}", {**HAND, "number": odd})
            == answer(client, f"/t/{token}", {**HAND, "number": "x"}))


@pytest.fixture()
def make_table_client(tmp_path):
    from webcalc import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/l.sqlite3"})
    client = app.test_client()
    r = client.post("/api/v1/tables", json={"variant": "zhengzhou", "options": {},
                                            "names": ["老王", "小李", "阿梅", "张师傅"]})
    assert r.status_code == 201, r.json
    yield client, r.json["edit_token"]
    app.extensions["ledger"].dispose()


# -- htmx's HX-Current-URL header, as a client may send it ------------------------------------

@pytest.mark.parametrize("current", ["http://[::1", "http://[x]/", "//["])
def test_unreadable_hx_current_url_is_a_page_not_shown(client, current):
    """``HX-Current-URL`` names the page the browser shows; one ``urlsplit`` cannot read
    (a broken IPv6 host) names no page, so the panel pushes its canonical URL as for any
    other page than this one."""
    url = "/?" + urlencode(HAND)
    headers = {"HX-Request": "true"}
    resp = client.get(url, headers={**headers, "HX-Current-URL": current})
    assert resp.status_code == 200
    assert resp.headers["HX-Push-Url"] == url
    assert "HX-Replace-Url" not in resp.headers
    elsewhere = client.get(url, headers={**headers, "HX-Current-URL": "http://localhost/x"})
    assert resp.get_data() == elsewhere.get_data()


@pytest.mark.parametrize("odd", ["²", "①"], ids=["sup2", "circled1"])
def test_circle_evening_seat(make_table_client, odd):
    """The circle's new-evening form (``p0``..``p3``, player ids): a seat ``²`` is refused as
    the text ``x`` is, never a 500."""
    import re

    client, _token = make_table_client
    made = client.post("/api/v1/circles", json={"name": "周五局",
                                                "players": ["老王", "小李", "阿梅", "张师傅"]})
    assert made.status_code == 201, made.json
    edit = made.json["edit_token"]
    html = client.get(f"/c/{edit}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)

    def post(p0: str) -> int:
        return client.post(f"/c/{edit}/tables", data={
            "csrf_token": token, "p0": p0, "p1": "2", "p2": "3", "p3": "4",
            "variant": "zhengzhou"}).status_code

    assert post(odd) == post("x") == 422
