"""The page warm-up gunicorn's master runs before it forks (webcalc.web.warmup)."""

from __future__ import annotations

from webcalc.web.warmup import HANDS, PLAIN, warm_pages


def test_warm_pages_answers_every_page_and_compiles_the_templates(app):
    stats = warm_pages(app)
    # per language: the plain pages, then per hand the page, its htmx fragment and the API
    assert stats["requests"] == 2 * (len(PLAIN) + 3 * len(HANDS)) == 30
    assert stats["answered"] == stats["requests"]
    compiled = {name for _, name in app.jinja_env.cache.keys()}
    assert {"index.html", "_result.html", "ledger_new.html", "rules.html"} <= compiled
    assert {"ledger_table.html", "_ledger_live.html"} <= compiled      # compiled, not rendered


def test_warm_pages_asks_a_trusted_host(app):
    app.config["TRUSTED_HOSTS"] = [".example.org"]
    stats = warm_pages(app)
    assert stats["answered"] == stats["requests"]
