"""Both share cards of every rule set, saved for a person to look at (issue 35 "Done when":
"Both cards for each of the four variants: screenshots looked at, QR decoded back to the
URL"): the hand card of a settled hand (``/card.png?<query>``) and the evening card of a
table (``/t/<view>/card.png``), for each variant the engine knows (never a literal list),
with names in several scripts and an emoji; each QR code read back (zxing-cpp) to the exact
URL it names. The PNGs land in tests/screenshots/cards/ (not committed)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from webcalc.variants import VARIANTS

from ..browsers import SCREENSHOTS
from ..cards import BYTES_MAX, picture, qr_texts, settled_hand
from .test_cards import open_table

OUT = SCREENSHOTS / "cards"


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_both_cards_of_each_variant_read_back_to_their_url(client, variant, db_url):
    OUT.mkdir(parents=True, exist_ok=True)
    query = {"variant": variant, **settled_hand(variant), "s_dealer": "0", "s_winner": "0",
             "n0": "小王😀", "n1": "Alice", "n2": "李四"}
    hand = client.get("/card.png?" + urlencode(query), follow_redirects=True)
    assert hand.status_code == 200 and hand.mimetype == "image/png"
    page = hand.request.host_url + "?" + hand.request.query_string.decode("ascii")
    assert client.get(page).status_code == 200                # the very page, canonical
    assert qr_texts(hand.data) == [page]

    # the same hand with an indicator: where the rule set's defaults have wildcards and
    # still settle it, they are marked and each one's reading (what it plays as) is drawn
    # under it; a rule set that refuses (no wildcards, or no win with them) says why, as JSON
    cards = [("hand", hand)]
    for indicator in ("3m", "4p"):
        wild = client.get("/card.png?" + urlencode({**query, "indicator": indicator}),
                          follow_redirects=True)
        if wild.status_code == 200:
            wild_page = wild.request.host_url + "?" + wild.request.query_string.decode("ascii")
            assert qr_texts(wild.data) == [wild_page]
            cards.append(("hand-wild", wild))
            break
        assert wild.status_code == 422 and wild.get_json()["error"]["field"]

    _edit, view = open_table(client, variant)
    evening = client.get(f"/t/{view}/card.png")
    assert evening.status_code == 200 and evening.mimetype == "image/png"
    assert qr_texts(evening.data) == [f"http://localhost/t/{view}"]

    for kind, resp in cards + [("evening", evening)]:
        assert len(resp.data) <= BYTES_MAX
        img = picture(resp.data)
        assert img.width == 1080 and img.height >= 600
        if db_url.startswith("sqlite"):                        # one set of files
            (OUT / f"{variant}-{kind}.png").write_bytes(resp.data)
