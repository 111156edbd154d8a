"""The page warm-up gunicorn's master runs before it forks (webcalc.web.warmup)."""

from __future__ import annotations

from webcalc.web.warmup import PLAIN, hands, warm_pages


def test_warm_pages_answers_every_page_and_compiles_the_templates(app):
    stats = warm_pages(app)
    # per language: the plain pages, then per hand the page, its htmx fragment, the API and
    # the share picture
    assert stats["requests"] == 2 * (len(PLAIN) + 4 * len(hands())) == 38
    assert stats["answered"] == stats["requests"]
    compiled = {name for _, name in app.jinja_env.cache.keys()}
    assert {"index.html", "_result.html", "ledger_new.html", "rules.html"} <= compiled
    assert {"ledger_table.html", "_ledger_live.html"} <= compiled      # compiled, not rendered
    per_language = {(lang, name) for lang, (_, name) in app.jinja_env.cache.inner.keys()}
    assert {("zh", "ledger_table.html"), ("en", "ledger_table.html")} <= per_language


def test_warm_pages_asks_a_trusted_host(app):
    app.config["TRUSTED_HOSTS"] = [".example.org"]
    stats = warm_pages(app)
    assert stats["answered"] == stats["requests"]


def test_warm_pages_loads_the_chart_and_qr_libraries_before_the_fork():
    """The master imports pygal and segno (and draws a QR code) in its warm-up, so workers
    share those pages instead of each importing its own copy on its first table page."""
    import subprocess
    import sys

    code = ("import sys; from webcalc import create_app; from webcalc.web.warmup import "
            "warm_pages; app = create_app({'TESTING': True}); "
            "before = {'pygal', 'segno'} & set(sys.modules); warm_pages(app); "
            "print(sorted(before), sorted({'pygal', 'segno'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split("\n")[-2]
    assert out == "[] ['pygal', 'segno']"


def _kept_pieces() -> set:
    """The keys of the pieces the pages render once and keep (per script root, among others)."""
    from webcalc.web import room_page, templating

    return set(templating._spliced) | set(room_page._room_html)


def test_warm_pages_fills_the_pieces_a_prefixed_worker_uses(app, monkeypatch):
    """gunicorn run with ``SCRIPT_NAME=/calc`` (docs/SERVING.md): the warm-up asks for its
    pages under /calc, so a worker's first pages there find the kept pieces ready. Before, it
    asked at the root: every kept piece's key held the root "", and none served /calc."""
    from webcalc.web import room_page, templating

    monkeypatch.setenv("SCRIPT_NAME", "/calc")
    monkeypatch.setattr(templating, "_spliced", {})
    monkeypatch.setattr(room_page, "_room_html", type(room_page._room_html)())
    stats = warm_pages(app)
    assert stats["answered"] == stats["requests"]
    warmed = _kept_pieces()
    assert warmed and all("/calc" in key for key in warmed)
    client = app.test_client()
    for lang in ("zh", "en"):
        for req in hands():
            resp = client.get("/", query_string={**req, "lang": lang},
                              base_url="http://localhost/calc/", follow_redirects=True)
            assert resp.status_code == 200
            assert 'href="/calc/' in resp.get_data(as_text=True)
    assert _kept_pieces() == warmed                 # nothing new: each was warmed


def test_warm_pages_at_the_root_without_a_script_name(app, monkeypatch):
    from webcalc.web import room_page, templating

    monkeypatch.delenv("SCRIPT_NAME", raising=False)
    monkeypatch.setattr(templating, "_spliced", {})
    monkeypatch.setattr(room_page, "_room_html", type(room_page._room_html)())
    warm_pages(app)
    assert _kept_pieces() and not any("/calc" in key for key in _kept_pieces())
