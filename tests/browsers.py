"""Debian's Chromium for the browser tests (Playwright drives it; never `playwright install`,
which downloads a browser). The ``browser`` fixture is in tests/conftest.py."""

from __future__ import annotations

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               "--disable-dev-shm-usage"]


def need_chromium():
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing in CI: .ci/run must install the chromium package")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium fonts-noto-cjk)")
