"""iOS WeChat (no service worker) with the app mounted under a prefix (``SCRIPT_NAME=/calc``,
as a proxy serving it at ``https://host/calc/`` sets it), at 390×844: a 记入 pressed without
a network is queued by the page itself and nothing on the page says it was not recorded
(before: ledger.js's guard for the writes it does not queue matched ``/t/<edit>/hands`` only
at the root, so under /calc it also wrote "No network: this was not recorded" under the
queued entry, and a referee who believed it typed the hand again: recorded twice). Back
online, the queued hand is sent once."""

from __future__ import annotations

import pytest

from .browsers import WECHAT_IOS, served
from .ledger.test_browser_ledger import open_table
from .test_browser_wechat import _wechat, queue_offline, sent_once

pytestmark = pytest.mark.browser


@pytest.fixture()
def server(tmp_path):
    """The app under /calc on a database of its own, served by werkzeug: (base URL, app)."""
    from werkzeug.exceptions import NotFound
    from werkzeug.middleware.dispatcher import DispatcherMiddleware

    from webcalc import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/prefix.db"})
    try:
        with served(DispatcherMiddleware(NotFound(), {"/calc": app})) as base:
            yield base + "/calc", app
    finally:
        app.extensions["ledger"].dispose()


def test_a_hand_queued_offline_under_a_prefix_is_not_said_to_be_lost(browser, server):
    base, app = server
    ctx, page = _wechat(browser, WECHAT_IOS)
    try:
        token = open_table(page, base)
        assert page.url.startswith(base + "/t/")
        queued = queue_offline(ctx, page)
        assert len(queued) == 1 and "/calc/t/" in queued[0]["url"]
        assert page.locator(".offline-not-recorded").count() == 0, \
            page.locator(".offline-not-recorded").all_inner_texts()
        assert page.errors == []
        ctx.set_offline(False)
        sent_once(app, token, (page,), [-1, 3, -1, -1], settle=3)
    finally:
        ctx.close()
