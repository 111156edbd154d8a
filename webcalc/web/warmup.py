"""Render the pages once before gunicorn forks.

gunicorn's master calls :func:`warm_pages` (``on_starting`` in gunicorn.conf.py, after
``preload_app`` has built the app and :func:`webcalc.warmup.warm_up` has filled the engine's
tables). Through Werkzeug's test client, without a socket, it asks for the analyser page
(empty, and with a hand of each rule set, as a whole page and as the htmx fragment), the
JSON API, the hand's share picture (Pillow, the fonts, the tiles and the common characters
drawn once), the new-table form of the ledger and the rules pages, in Chinese and in English,
after compiling every template (the ledger's table pages need a table: they are compiled,
not rendered). So the templates are compiled, both message catalogues read and the
per-language tile HTML built in the master, and every worker forks with them (shared
copy-on-write): its first page is as fast as the rest. The chart and QR libraries are
imported here too. No request touches the ledger's database.

The pages are asked for under the script root the workers will serve (gunicorn's
``SCRIPT_NAME``, docs/SERVING.md): the pieces rendered once and kept
(``templating.spliced``, ``room_page.room_sections``) are kept per script root, as their
links hold it, so pages warmed at ``/`` would fill copies no request under ``/calc`` uses.
"""

from __future__ import annotations

import os
import time

from flask import Flask

from ..variants import VARIANTS


def hands() -> tuple[dict, ...]:
    """A hand of each registered rule set, as the variant gives it (``Variant.sample_hand``:
    13 tiles waiting; 14 tiles won, some with a wildcard indicator)."""
    return tuple({"variant": v.name, **v.sample_hand} for v in VARIANTS.values())


#: pages that need no hand
PLAIN = ("/", "/t/new", "/rules")


def _host(app: Flask) -> str:
    """A host name the app accepts (``TRUSTED_HOSTS``: a leading dot allows subdomains)."""
    for host in app.config.get("TRUSTED_HOSTS") or ["localhost"]:
        return host.lstrip(".") or "localhost"
    return "localhost"


def warm_pages(app: Flask, script_root: str | None = None) -> dict:
    """Ask ``app`` for each page above in ``zh`` and ``en``, under ``script_root`` (by default
    the environment's ``SCRIPT_NAME``, where gunicorn takes it from: ``""`` at the root,
    ``"/calc"`` under a prefix); returns ``{"requests": n, "answered": m, "seconds": s}``
    (``m``: the answers below 400). Never raises for an answer: a page that fails here fails
    the same way for a visitor, and is logged there."""
    from urllib.parse import urlencode

    from werkzeug.test import Client  # Flask's test client would load click.testing, pdb …

    client = Client(app)
    if script_root is None:
        script_root = os.environ.get("SCRIPT_NAME", "")
    base = f"http://{_host(app)}{script_root.rstrip('/')}"
    t0 = time.perf_counter()
    n = ok = 0

    def ask(method: str, path: str, **kw) -> None:
        nonlocal n, ok
        resp = client.open(path, method=method, base_url=base, follow_redirects=True, **kw)
        n += 1
        ok += resp.status_code < 400
        resp.close()

    from webcalc.web.ledger_exports import preload

    preload()                                     # pygal and segno, shared by every worker
    for lang in ("zh", "en"):                     # compiled per language (i18n.LanguageCache)
        with app.test_request_context(f"/?lang={lang}", base_url=base):
            for name in app.jinja_env.list_templates():   # the ledger's table pages, unrendered
                app.jinja_env.get_template(name)
    for lang in ("zh", "en"):
        for path in PLAIN:
            ask("GET", f"{path}?lang={lang}")
        for req in hands():
            query = urlencode({**req, "lang": lang})
            ask("GET", f"/?{query}")
            ask("GET", f"/?{query}", headers={"HX-Request": "true"})
            ask("POST", f"/api/v1/analyze?lang={lang}", json=req)
            ask("GET", f"/card.png?{query}")
    return {"requests": n, "answered": ok, "seconds": time.perf_counter() - t0}
