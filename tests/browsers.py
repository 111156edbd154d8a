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
#: what a new browser context does with the app's service worker: "block" unless the test is
#: marked ``service_worker`` (set per test by tests/conftest.py)
service_workers = "block"
#: Debian's headless build of Chromium (package chromium-headless-shell: the same Blink and
#: version as its chromium package, without the desktop browser's compositor and UI; what
#: Playwright itself runs headless). The browser tier took 42 % less CPU under it than under
#: /usr/bin/chromium, every test passing with both (docs/TESTING.md). WEBCALC_CHROMIUM names
#: another binary; off CI, /usr/bin/chromium stands in when the shell is not installed.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM = "/usr/bin/chromium"
CHROMIUM = (os.environ.get("WEBCALC_CHROMIUM")
            or (HEADLESS_SHELL if os.access(HEADLESS_SHELL, os.X_OK)
                or os.environ.get("CI") == "true" else FULL_CHROMIUM))
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               "--disable-dev-shm-usage"]


def need_chromium():
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing in CI: .ci/run must install the "
                        "chromium-headless-shell package")
        pytest.skip(f"{CHROMIUM} not installed "
                    "(apt-get install chromium-headless-shell fonts-noto-cjk)")


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
    return context, page


def poll_from_python() -> None:
    """Make every page's ``wait_for_function`` poll from the test, not in the page (called
    once by the ``browser`` fixture). In the page Playwright polled on requestAnimationFrame
    (headless Chromium on a loaded machine can go seconds without a frame: a wait for
    "window.scrollY > 0" timed out after 15 s while scrollY was 531), then on a page timer,
    and on CI a no-JS page's wait outlived the page it changed to: the 12th palette tap's
    page had loaded (200 in the server's log) and the wait saw nothing for 20 s. From here
    each check is one ``evaluate`` in whatever page is current, JavaScript on or off."""
    from playwright.sync_api import Page

    def wait_for_function(self, expression, *, arg=None, timeout=None, polling=None):
        return poll(self, expression, arg=arg, timeout=timeout,
                    interval=polling if isinstance(polling, (int, float)) else 100)

    Page.wait_for_function = wait_for_function  # type: ignore[method-assign]


def poll(page, expression: str, *, arg=None, interval: float = 100,
         timeout: float | None = None):
    """Evaluate the function ``expression`` (with ``arg``) in ``page`` every ``interval`` ms
    until it returns a truthy value, and return that value. A check that meets a page being
    replaced (a navigation) counts as false. Raises Playwright's TimeoutError after
    ``timeout`` ms (30 s, Playwright's default, when None)."""
    import time

    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    limit = (30_000 if timeout is None else timeout) / 1000
    deadline = time.monotonic() + limit
    last: Exception | None = None
    while True:
        try:
            value = page.evaluate(expression, arg)
        except PlaywrightTimeout:
            raise
        except PlaywrightError as exc:   # "Execution context was destroyed", mid-navigation
            value, last = None, exc
        if value:
            return value
        if time.monotonic() >= deadline:
            raise PlaywrightTimeout(f"poll: {expression!r} not true after {limit:g} s"
                                    + (f" (last error: {last})" if last else ""))
        time.sleep(interval / 1000)


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
    from werkzeug.serving import WSGIRequestHandler, make_server

    answers = threading.local()

    class Handler(WSGIRequestHandler):
        # werkzeug's dev server drains the socket before it closes the app's answer; when
        # the browser has reset the connection (a context closed mid-request) the drain
        # raises and the answer, a static file, is never closed: a ResourceWarning that
        # filterwarnings=error turned into a failure of whichever test ran next (CI, stop
        # 40). Close it here, whatever happened (closing twice is harmless). gunicorn, which
        # serves the app for real, closes it itself.
        def run_wsgi(self):
            answers.current = None
            try:
                super().run_wsgi()
            finally:
                answer, answers.current = answers.current, None
                if answer is not None and hasattr(answer, "close"):
                    answer.close()

    def keep_answer(environ, start_response):
        answers.current = answer = app(environ, start_response)
        return answer

    srv = make_server("127.0.0.1", 0, keep_answer, threaded=True, request_handler=Handler)
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
