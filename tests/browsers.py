"""Debian's Chromium for the browser tests (Playwright drives it; never `playwright install`,
which downloads a browser), and the helpers every browser test module shares. The fixtures
(``browser``, ``live_server``) are in tests/conftest.py."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               "--disable-dev-shm-usage"]


def need_chromium():
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing in CI: .ci/run must install the chromium package")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium fonts-noto-cjk)")


def _page(browser, live_server, locale="zh-CN", **context_args):
    context = browser.new_context(locale=locale, **context_args)
    page = context.new_page()
    # 20 s: on a loaded 2-core machine (make test's workers beside other work) a no-JS page
    # load after a tap was seen to take over 10 s; a wait that fails still fails, later
    page.set_default_timeout(20_000)
    foreign: list[str] = []
    page.on("request", lambda r: foreign.append(r.url)
            if urlsplit(r.url).hostname not in ("127.0.0.1", None) else None)
    page.foreign_requests = foreign
    # wait_for_function polls on requestAnimationFrame by default, and headless Chromium on
    # a loaded machine can go seconds without a frame: seen here, a wait for
    # "window.scrollY > 0" timed out after 15 s while scrollY was 531. Poll on a timer.
    wait_for_function = page.wait_for_function

    def wait_polling(expression, *, polling=100, **kw):
        return wait_for_function(expression, polling=polling, **kw)

    page.wait_for_function = wait_polling
    return context, page


#: WeChat's in-app browser as its User-Agent names it (docs/SERVING.md "Serving to WeChat
#: users"): Android's XWeb (Chromium-based) and iOS's WKWebView, each carrying MicroMessenger
WECHAT_ANDROID = ("Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) "
                  "AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile "
                  "Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 "
                  "MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI "
                  "Language/zh_CN ABI/arm64")
WECHAT_IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 "
              "(KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) "
              "NetType/WIFI Language/zh_CN")
WECHAT_UAS = {"android": WECHAT_ANDROID, "ios": WECHAT_IOS}


@contextmanager
def served(app) -> Iterator[str]:
    """``app`` served by werkzeug in a thread for a browser: yields its base URL, and shuts
    the server down afterwards (the caller disposes of the app's ledger)."""
    from werkzeug.serving import make_server

    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        thread.join(timeout=5)


def tap_key(page, code: str) -> None:
    """Tap the palette key of ``code`` and wait until its request leaves the browser. On CI
    (Chromium 156, loaded machine) a click right after a no-JS page load once hit nothing: no
    request came and the test waited for a label that could not change. A tap whose request
    never leaves is tapped once more; a second miss fails."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in (1, 2):
        try:
            with page.expect_request(lambda r: f"add={code}" in r.url, timeout=5_000):
                page.click(f"button.key[value='{code}']")
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise
