"""Issue 38's page row: how cheap the calculator page could get with its rendering cut, against
its API call, CPU time, interleaved in one process.

``python bench/page_floor.py [--tree DIR] [--hands N] [--seed S]``

Four apps of the same tree answer the same fresh requests (bench/hands.py, as
bench/page_cost.py draws them): the page as it is (``asis``); with every template helper
of ``webcalc.web.templating`` and ``webcalc.web.result_lists`` returning an empty Markup
(``helpers0``: the templates' bodies and everything else left); with ``_result.html``
empty (``result0``); and with ``_panel.html`` empty (``panel0``: the panel renders nothing,
so the page is reading the room, the form, the engine and its messages, the title, the
room's cached sections, Flask and the spliced head and foot). Each is asked for the full
page (a 303 to the canonical URL followed) and the htmx fragment, beside the API call of
the same hand; the kinds rotate hand by hand. ``panel0``'s ratio is the floor of the page
row (≤ 1.5×) for any rendering that still runs through these steps: a template that only
joined pre-made strings would cost at least that.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: ``--tree DIR``: measure the webcalc of another checkout (its compiled part built in place)
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve() if "--tree" in sys.argv else ROOT
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(TREE))

from hands import page_query  # noqa: E402
from jinja2 import ChoiceLoader, DictLoader  # noqa: E402
from markupsafe import Markup  # noqa: E402
from page_cost import page_requests  # noqa: E402

from webcalc import create_app  # noqa: E402

assert Path(sys.modules["webcalc"].__file__ or "").resolve().is_relative_to(TREE)

VARIANTS = ("asis", "helpers0", "result0", "panel0")


def _empty(*_args, **_kwargs) -> Markup:
    return Markup("")


def make_app(tmp: str, variant: str):
    """A fresh app with the part ``variant`` names cut out."""
    from webcalc.web import result_lists, templating

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "LEDGER_TABLES_PER_HOUR": 0,
                      "DATABASE_URL": f"sqlite:///{tmp}/{variant}.db"})
    env = app.jinja_env
    if variant == "helpers0":
        for name, value in list(env.globals.items()):
            if ((name in vars(templating) or name in result_lists.GLOBALS)
                    and isinstance(value, types.FunctionType)):
                env.globals[name] = _empty
    empty = {"result0": "_result.html", "panel0": "_panel.html"}.get(variant)
    if empty:
        env.loader = ChoiceLoader([DictLoader({empty: ""}), env.loader])
    return app


def run(hands: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        apps = {v: make_app(tmp, v) for v in VARIANTS}
        clients = {v: app.test_client() for v, app in apps.items()}
        for r in page_requests(seed + 1_000_003, 40):          # warm-up, other hands
            for c in clients.values():
                c.post("/api/v1/analyze", json=r)
                c.get(page_query(r), follow_redirects=True)
                c.get(page_query(r), headers={"HX-Request": "true"})
        kinds = ["api"] + [f"{v}/{k}" for v in VARIANTS for k in ("page", "fragment")]
        cpu: dict[str, list[float]] = {k: [] for k in kinds}
        load = os.getloadavg()
        for i, r in enumerate(page_requests(seed, hands)):
            q = page_query(r)
            for k in kinds[i % len(kinds):] + kinds[:i % len(kinds)]:
                v, _, kind = k.partition("/")
                c = clients["asis" if k == "api" else v]
                t = time.process_time()
                if k == "api":
                    c.post("/api/v1/analyze", json=r)
                elif kind == "page":
                    c.get(q, follow_redirects=True)
                else:
                    c.get(q, headers={"HX-Request": "true"})
                cpu[k].append(time.process_time() - t)
        for app in apps.values():
            app.extensions["ledger"].dispose()
    api = sum(cpu["api"])
    return {"tree": str(TREE), "seed": seed, "hands": len(cpu["api"]),
            "load": [load, os.getloadavg()],
            **{k: {"median_ms": round(statistics.median(xs) * 1e3, 3),
                   "÷api": round(sum(xs) / api, 3)} for k, xs in cpu.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    ap.add_argument("--tree", default=str(ROOT), help="the checkout to measure")
    args = ap.parse_args()
    print(json.dumps(run(args.hands, args.seed), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
