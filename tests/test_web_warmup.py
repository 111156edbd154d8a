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
