"""Shared fixtures: the Flask app and its test client; Chromium for the browser tests (the
calculator's in tests/ and the ledger's in tests/ledger/); the Hypothesis profiles.

Hypothesis profiles (``HYPOTHESIS_PROFILE``): ``full`` (the default, ``make test`` and CI)
tries each property's written number of examples; ``dev`` (``make test-fast``, with
``WEBCALC_TEST_SCALE=0.2``, tests/scale.py) tries a fifth of them and prints the blob that
reproduces a failure. Every property sets ``max_examples=examples(n)``, so the scale knob is
the one place that decides how much random work a run does.
"""

from __future__ import annotations

import os
import tempfile

import jinja2
import pytest
from flask import Flask
from hypothesis import HealthCheck, settings

from webcalc import create_app

# Each test process (an xdist worker) keeps the ledger of the apps made without a DATABASE_URL
# in its own SQLite file, not in the shared instance/ledger.sqlite3 of `make run`.
if not os.environ.get("DATABASE_URL"):
    os.environ["DATABASE_URL"] = (
        f"sqlite:///{tempfile.mkdtemp(prefix='webcalc-tests-')}/ledger.sqlite3")


class SharedTemplateCode(jinja2.BytecodeCache):
    """Jinja's bytecode cache, in memory, shared by every app a test process makes: the tests
    make a fresh app each (a fresh database per test, as flaskr's do), and each fresh app
    compiled its templates again (the calculator page's twelve: about 0.19 s of CPU, 50 times
    the page itself). A template's code is keyed by its name and file and by what changes
    what it compiles to: the options, the i18n policies and gettext style, and the very
    filters and tests (the compiler calls a filter with its context or not as the filter
    asks, and folds a filter of constants into the code: ``{{ "a"|f }}``), and Jinja drops
    it when the source's checksum changes; the apps render from the same code, byte for
    byte, as they would from their own."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}
        # every filter, test and code generator a key names, kept so that its id is never
        # another object's (create_app's apps hold the same module functions: one key)
        self.named: dict[int, object] = {}

    def _ids(self, objects) -> tuple[int, ...]:
        for obj in objects:
            self.named.setdefault(id(obj), obj)
        return tuple(id(obj) for obj in objects)

    def get_bucket(self, environment, name, filename, source):
        options = (environment.block_start_string, environment.block_end_string,
                   environment.variable_start_string, environment.variable_end_string,
                   environment.comment_start_string, environment.comment_end_string,
                   environment.line_statement_prefix, environment.line_comment_prefix,
                   environment.trim_blocks, environment.lstrip_blocks,
                   environment.newline_sequence, environment.keep_trailing_newline,
                   environment.optimized, environment.is_async, sorted(environment.extensions),
                   getattr(environment.autoescape, "__qualname__", environment.autoescape),
                   getattr(environment.finalize, "__qualname__", environment.finalize),
                   environment.sandboxed, getattr(environment, "newstyle_gettext", None),
                   sorted((k, v) for k, v in environment.policies.items()
                          if k.startswith(("ext.i18n.", "compiler."))),
                   sorted(environment.filters), sorted(environment.tests),
                   self._ids([environment.code_generator_class]
                             + [environment.filters[k] for k in sorted(environment.filters)]
                             + [environment.tests[k] for k in sorted(environment.tests)]))
        bucket = jinja2.bccache.Bucket(environment,
                                       f"{self.get_cache_key(name, filename)} {options!r}",
                                       self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


SHARED_TEMPLATE_CODE = SharedTemplateCode()
_create_jinja_environment = Flask.create_jinja_environment


def _with_shared_template_code(self):
    env = _create_jinja_environment(self)
    env.bytecode_cache = SHARED_TEMPLATE_CODE
    return env


Flask.create_jinja_environment = _with_shared_template_code

settings.register_profile("full", deadline=None)
settings.register_profile("dev", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "full")


@pytest.fixture()
def app():
    return create_app({"TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium under Playwright, one per test process (each test opens its own
    context: cookies, storage, service workers and cache are the context's). Launched once
    rather than once per module: a launch, with Playwright's driver, is about a second.

    A context runs without the service worker, as iOS WeChat's browser does (it has none),
    unless the test is marked ``service_worker`` (the worker's own tests: installing, the
    offline pages and queue, and one evening journey) or passes ``service_workers=`` itself.
    Installing the worker fetches the shell, six pages and seven files, in every new context:
    16 % of the CPU of the calculator's browser tests (docs/TESTING.md)."""
    from tests import browsers
    from tests.browsers import CHROMIUM, LAUNCH_ARGS, need_chromium, poll_from_python

    need_chromium()
    poll_from_python()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        new_context = b.new_context

        def context(**kw):
            kw.setdefault("service_workers", browsers.service_workers)
            return new_context(**kw)

        b.new_context = context  # type: ignore[method-assign]
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(autouse=True)
def _service_worker_marker(request):
    """The ``service_worker`` mark lets this test's browser contexts install the worker."""
    from tests import browsers

    browsers.service_workers = ("allow" if request.node.get_closest_marker("service_worker")
                                else "block")


@pytest.fixture(scope="module")
def live_server():
    """The app (TESTING) served by werkzeug in a thread on 127.0.0.1; yields its base URL."""
    from tests.browsers import served

    with served(create_app({"TESTING": True})) as base:
        yield base
