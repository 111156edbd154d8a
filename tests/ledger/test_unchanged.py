"""A poll's and a table read's 304 decided below Flask (webcalc/web/unchanged.py, issue 38.3):
the same bytes as the app's own 304, only for the ETag the app would send now (its language,
its link's rights), never for a revoked or rotated link; on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from .test_api import create, record, win

pytestmark = pytest.mark.both_dbs

PATHS = ("/t/{}/live", "/api/v1/tables/{}")


def _flask_counter(app) -> list:
    """Requests that reached Flask's hooks (a test's hook runs after the app's own)."""
    seen: list = []
    app.before_request(lambda: seen.append(1) and None)
    return seen


def _answer(r) -> tuple:
    return r.status_code, list(r.headers.items()), r.get_data()


@pytest.mark.parametrize("path", PATHS)
def test_the_304_below_flask_is_the_apps_own(make_app, path):
    """Each revalidation answered below Flask gives the status, headers (in order) and body
    Flask gives the same request (an unknown query key sends it through Flask), and plain
    revalidations reach Flask's hooks only the first time (per scheme)."""
    app = make_app()
    seen = _flask_counter(app)
    api = app.test_client()
    edit, view, _ = create(api)
    record(api, edit, win(1))
    url = path.format(view)
    zh = api.get(url).headers["ETag"]
    en = api.get(url, headers={"Accept-Language": "en"}).headers["ETag"]
    assert zh.endswith('-zh"') and en.endswith('-en"') and zh != en
    cases = [
        ("", {"If-None-Match": zh}, 304),
        ("", {"If-None-Match": zh}, 304),                                   # replayed
        ("", {"If-None-Match": en, "Accept-Language": "en-GB,en;q=0.9"}, 304),
        ("?lang=en", {"If-None-Match": en, "Accept-Language": "zh-CN"}, 304),
        ("?lang=xx", {"If-None-Match": zh}, 304),                           # ignored value
        ("", {"If-None-Match": zh[:-1] + '-gzip"', "Accept-Encoding": "gzip"}, 304),
        ("", {"If-None-Match": f'"other", {zh}'}, 304),
        ("", {"If-None-Match": "*"}, 304),
        ("", {"If-None-Match": zh, "Cookie": "session=x"}, 304),
        ("", {"If-None-Match": en}, 200),                                   # zh reader
        ("?lang=zh", {"If-None-Match": en, "Accept-Language": "en"}, 200),
        ("", {"If-None-Match": "W/" + zh}, 200),                            # weak: no match
    ]
    if path.endswith("/live"):
        cases += [("?part=top", {"If-None-Match": zh}, 304),
                  ("?part=rest&lang=en", {"If-None-Match": en}, 304)]
    first = set()                   # the first 304 per scheme: the app's, its headers kept
    for query, headers, status in cases:
        for base in ("http://localhost", "https://localhost"):
            before = len(seen)
            fast = api.get(url + query, headers=headers, base_url=base)
            reached = len(seen) - before
            sep = "&" if query else "?"
            slow = api.get(url + query + sep + "via=flask", headers=headers, base_url=base)
            assert fast.status_code == status, (query, headers, base)
            assert _answer(fast) == _answer(slow), (query, headers, base)
            if status == 304:
                assert reached == (base not in first), (query, headers, base)
                first.add(base)
    assert api.get(url + "?lang=en", headers={"If-None-Match": zh}).status_code == 200


@pytest.mark.parametrize("path", PATHS)
def test_a_write_or_a_revoked_link_is_never_answered_304(make_app, path):
    """Another server process writes, revokes a co-scorer and rotates the links: the poller's
    kept ETags then get the new table (200) or 404, never a 304, and the new links' own ETags
    get their 304s below Flask."""
    writer_app, poller_app = make_app(), make_app()
    seen = _flask_counter(poller_app)
    writer, poller = writer_app.test_client(), poller_app.test_client()
    edit, view, _ = create(writer)
    co = writer.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    tags = {t: poller.get(path.format(t)).headers["ETag"] for t in (edit, view, co)}
    before = len(seen)
    for token, tag in tags.items():
        assert poller.get(path.format(token), headers={"If-None-Match": tag}).status_code == 304
    assert len(seen) == before + 1                # the first 304 the app's (its headers kept)
    record(writer, edit, win(2))
    for token, tag in tags.items():
        r = poller.get(path.format(token), headers={"If-None-Match": tag})
        assert r.status_code == 200 and r.headers["ETag"] != tag, token
        tags[token] = r.headers["ETag"]
    assert writer.delete(f"/api/v1/tables/{edit}/editors/1").status_code == 200
    assert poller.get(path.format(co), headers={"If-None-Match": tags[co]}).status_code == 404
    new = writer.post(f"/api/v1/tables/{edit}/rotate", json={"view": True}).json
    for token in (edit, view):
        r = poller.get(path.format(token), headers={"If-None-Match": tags[token]})
        assert r.status_code == 404, token
    for token in (new["edit_token"], new["view_token"]):
        tag = poller.get(path.format(token)).headers["ETag"]
        before = len(seen)
        assert poller.get(path.format(token), headers={"If-None-Match": tag}).status_code == 304
        assert len(seen) == before


@pytest.mark.parametrize("path", PATHS)
def test_a_query_over_the_limit_is_the_apps_414_not_a_304(make_app, path):
    """A plain query longer than QUERY_MAX (``lang=en`` 1200 times: 9599 bytes) is a 414 in
    the app (webcalc.web.security); below Flask it must not become a 304, even after the
    headers of a first 304 are kept."""
    from webcalc.web.security import QUERY_MAX

    app = make_app()
    api = app.test_client()
    edit, view, _ = create(api)
    url = path.format(view)
    tag = api.get(url + "?lang=en").headers["ETag"]
    assert api.get(url + "?lang=en", headers={"If-None-Match": tag}).status_code == 304
    query = "&".join(["lang=en"] * 1200)
    assert len(query) > QUERY_MAX
    assert api.get(f"{url}?{query}", headers={"If-None-Match": tag}).status_code == 414
