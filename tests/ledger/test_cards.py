"""The evening card (分享图片): ``GET /t/<token>/card.png`` (docs/API.md "Pictures (share
cards)"): the same picture for the view, edit and co-scorer links, its QR code the view link
only; ETag (version, rights, language, the view link) and 304; no-store like every answer
under /t/; any seat name drawn; the share block on the table page."""

from __future__ import annotations

import re

import pytest

from webcalc.variants import VARIANTS

from ..cards import BYTES_MAX, WIDTH_MAX, WIDTH_MIN, picture, qr_texts, settled_hand

NAMES = ["小王😀🀄🎉", "Alice", "李四", "🐉龍" * 8]


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


def open_table(client, variant: str, names=NAMES, hands: int = 2) -> tuple[str, str]:
    """A table of ``variant`` with ``hands`` wins of seat 0, a 荒庄 and a penalty."""
    r = client.post("/api/v1/tables", json={"variant": variant, "names": names})
    assert r.status_code == 201, r.get_json()
    edit, view = r.json["edit_token"], r.json["view_token"]
    win = {**settled_hand(variant), "win_by": "self_draw", "settlement": {"winner": 0}}
    bodies = [win] * hands + [
        {"settlement": {"winner": None}},
        {"adjustment": {"payments": [{"from": 1, "to": 2, "amount": 3}], "note": "罚"}}]
    for body in bodies:
        r = client.post(f"/api/v1/tables/{edit}/hands", json=body)
        assert r.status_code == 201, r.get_json()
    return edit, view


def check_png(resp) -> None:
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    assert resp.mimetype == "image/png"
    assert len(resp.data) <= BYTES_MAX
    img = picture(resp.data)
    assert WIDTH_MIN <= img.width <= WIDTH_MAX and 600 <= img.height <= 4000


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_variant_draws_its_evening_card(client, variant, lang):
    edit, view = open_table(client, variant)
    resp = client.get(f"/t/{view}/card.png?lang={lang}")
    check_png(resp)
    assert qr_texts(resp.data) == [f"http://localhost/t/{view}"]
    assert resp.headers["Cache-Control"] == "no-store"
    assert "Accept-Language" in resp.headers["Vary"]


def test_every_link_answers_the_same_picture_whose_qr_is_the_view_link(client):
    edit, view = open_table(client, next(iter(VARIANTS)))
    co = client.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    pictures = {}
    for token in (edit, view, co):
        resp = client.get(f"/t/{token}/card.png")
        check_png(resp)
        assert qr_texts(resp.data) == [f"http://localhost/t/{view}"]
        pictures[token] = resp.data
    assert len(set(pictures.values())) == 1          # the edit link is never in it
    assert client.get("/t/" + "x" * 22 + "/card.png").status_code == 404


def test_etag_304_a_write_and_the_language(client):
    edit, view = open_table(client, next(iter(VARIANTS)), hands=1)
    first = client.get(f"/t/{edit}/card.png")
    etag = first.headers["ETag"]
    again = client.get(f"/t/{edit}/card.png", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data and again.headers["ETag"] == etag
    assert again.headers["Cache-Control"] == "no-store"
    # another language, another link's rights: not this picture's ETag
    assert client.get(f"/t/{edit}/card.png?lang=en",
                      headers={"If-None-Match": etag}).status_code == 200
    assert client.get(f"/t/{view}/card.png", headers={"If-None-Match": etag}).status_code == 200
    # a write changes the picture
    assert client.post(f"/api/v1/tables/{edit}/undo", json={"number": 3}).status_code == 200
    after = client.get(f"/t/{edit}/card.png", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag


def test_a_rotated_view_link_changes_the_qr_and_old_links_never_get_a_304(client):
    edit, view = open_table(client, next(iter(VARIANTS)), hands=1)
    tags = {t: client.get(f"/t/{t}/card.png").headers["ETag"] for t in (edit, view)}
    new = client.post(f"/api/v1/tables/{edit}/rotate", json={"view": True}).json
    for token, tag in tags.items():
        assert client.get(f"/t/{token}/card.png",
                          headers={"If-None-Match": tag}).status_code == 404
    resp = client.get(f"/t/{new['edit_token']}/card.png", headers={"If-None-Match": tags[edit]})
    check_png(resp)
    assert qr_texts(resp.data) == [f"http://localhost/t/{new['view_token']}"]


def test_long_names_in_any_script_are_drawn(client):
    names = ["👨‍👩‍👧‍👦" * 4, "\U00013000" * 16, "مرحبا بالعالم", "W" * 16]
    # the ledger keeps printable names only: the ZWJ sequence is refused there, so the
    # first is given as separate people
    names[0] = "👨👩👧👦" * 4
    edit, view = open_table(client, next(iter(VARIANTS)), names=names, hands=1)
    check_png(client.get(f"/t/{view}/card.png"))


def test_the_table_page_offers_the_picture_by_the_view_link(client):
    edit, view = open_table(client, next(iter(VARIANTS)), hands=1)
    html = client.get(f"/t/{edit}").get_data(as_text=True)
    assert 'id="share-card"' in html
    assert f'<img src="/t/{view}/card.png"' in html
    assert f"/t/{edit}/card.png" not in html
    assert f'<img src="/t/{view}/card.png"' in client.get(f"/t/{view}").get_data(as_text=True)
    # the entry's result (a hand not yet recorded) offers no picture of its own
    entry = client.get(f"/t/{edit}?" + "&".join(
        f"{k}={v}" for k, v in {**settled_hand(next(iter(VARIANTS))), "s_winner": "0"}.items()),
        follow_redirects=True).get_data(as_text=True)
    assert entry.count('id="share-card"') == 1


@pytest.mark.parametrize("lang, base_word", [("zh", "底分"), ("en", "base")])
def test_a_free_tables_card_names_no_base(client, lang, base_word):
    """A 自由记分 table has no rule set and no 底分 (its page shows none): its evening card's
    line under the title names the day and the hands counted, never a base, even one stored
    before stop 47 (when the API kept a free table's base unread; it refuses one now); a
    rule-set table's card names its base."""
    from sqlalchemy import update

    from webcalc.ledger.models import Table
    from webcalc.web.cards import evening_subtitle

    free = client.post("/api/v1/tables", json={"variant": "free"}).json
    client.post(f"/api/v1/tables/{free['edit_token']}/hands", json={"points": [1, -1, 0, 0]})
    ruled = client.post("/api/v1/tables", json={"variant": "zhengzhou", "base": 5}).json
    ledger = client.application.extensions["ledger"]
    ledger._run(lambda s: s.execute(update(Table).where(Table.variant == "free").values(base=5)),
                write=True)
    assert ledger.table(free["view_token"])["base"] == 5
    with client.application.test_request_context(f"/?lang={lang}"):
        free_line = evening_subtitle(ledger.table(free["view_token"]))
        ruled_line = evening_subtitle(ledger.table(ruled["view_token"]))
    assert base_word not in free_line and "5" not in free_line.split("·", 1)[1], free_line
    assert free_line.endswith("已计 1 手" if lang == "zh" else "Hands counted: 1"), free_line
    assert f"{base_word} 5" in ruled_line, ruled_line
    check_png(client.get(f"/t/{free['view_token']}/card.png?lang={lang}"))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_default_names_are_not_drawn_under_their_own_seat(client, lang):
    """The evening card's totals name a seat above its player; a table with the default names
    (东家 … / East …, as 新开一桌 names a blank seat) shows each once, not 东家 above 东家; a
    named player keeps the seat above the name."""
    from webcalc.web.cards import totals_rows

    q = "?lang=en" if lang == "en" else ""
    page = client.get("/t/new" + q).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    r = client.post("/t/new" + q, data={"csrf_token": token, "variant": "free", "dealer": "0",
                                        "n0": "老王", "n1": "", "n2": "", "n3": ""})
    edit = r.headers["Location"].split("/t/")[1].split("?")[0]
    t = client.application.extensions["ledger"].table(edit)
    default = ["南家", "西家", "北家"] if lang == "zh" else ["South", "West", "North"]
    assert t["names"] == ["老王", *default]
    with client.application.test_request_context(f"/?lang={lang}"):
        rows = totals_rows(t)
    east = "东家" if lang == "zh" else "East seat"
    assert rows == [(east, "老王", 0), ("", default[0], 0), ("", default[1], 0),
                    ("", default[2], 0)]
    check_png(client.get(f"/t/{edit}/card.png{q}"))
