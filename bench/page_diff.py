"""The calculator's pages of two trees, byte for byte: a differential check for work that
must not change a page (issue 38's page rows).

``python bench/page_diff.py [--tree DIR] --out FILE [--seed S] [--pages N]`` renders, with the
webcalc of ``DIR`` (default: this checkout; its compiled part built in place), a few hundred
varied page requests and writes each answer (status, the headers that carry meaning, the
body; tokens, CSRF values and times normalized as tests/golden/corpus.py does) to ``FILE``;
``python bench/page_diff.py --compare A B`` says which differ, and shows the first
difference of each. The requests come from this checkout, so two trees get the same ones:

* the golden corpus's page generator (``tests.golden.corpus._pages``) with another seed: all
  four rule sets, melds, wildcards, settlements, options, bad input, ``?lang=en``,
  ``Accept-Language``, htmx fragments, palette taps (a 303 followed), ``?readings=40``;
* fresh hands (bench/hands.py, the page bench's inputs), each as the full page, the htmx
  fragment and in English;
* a table's entry page (``/t/<edit>``) per rule set, plain and with some of the bodies above.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve() if "--tree" in sys.argv else ROOT
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(TREE))
sys.path.insert(1, str(ROOT))           # tests.golden from this checkout, webcalc from TREE


def requests(seed: int, pages: int) -> list[dict]:
    """The requests: ``{"path", "headers"}``; ``{edit<v>}`` stands for rule set v's table."""
    from hands import fresh_requests, page_query

    from tests.golden import corpus
    from webcalc.variants import VARIANTS

    rng = random.Random(seed)
    out = [{"path": r["path"], "headers": r["headers"]} for r in corpus._pages(rng, pages)]
    fresh = [r for r in itertools.islice(fresh_requests(seed), pages * 10) if page_query(r)]
    for r in fresh[:pages // 3]:
        q = page_query(r)
        out += [{"path": q, "headers": {}}, {"path": q, "headers": {"HX-Request": "true"}},
                {"path": q + "&lang=en", "headers": {}}]
    for v in VARIANTS:
        out.append({"path": f"/t/{{edit{v}}}", "headers": {}})
        out.append({"path": f"/t/{{edit{v}}}?lang=en", "headers": {"HX-Request": "true"}})
        for _ in range(12):
            body = corpus._analyze_body(rng)
            q = urlencode(corpus._query_of(body))
            headers = rng.choice([{}, {"HX-Request": "true"}, {"Accept-Language": "en"}])
            out.append({"path": f"/t/{{edit{v}}}?{q}", "headers": headers})
    return out


def render(seed: int, pages: int) -> dict:
    """Each request's answer (the 303's next page too), keyed by its place in the list."""
    from tests.golden import corpus
    from webcalc import create_app
    from webcalc.variants import VARIANTS

    assert Path(sys.modules["webcalc"].__file__ or "").resolve().is_relative_to(TREE)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "SECRET_KEY": "diff",
                          "DATABASE_URL": f"sqlite:///{tmp}/diff.db",
                          "LEDGER_TABLES_PER_HOUR": 0})
        c = app.test_client()
        tokens: dict[str, str] = {}
        edits = {}
        for v in VARIANTS:
            made = c.post("/api/v1/tables", json={"variant": v}).json
            edits[v] = made["edit_token"]
            tokens[made["edit_token"]] = f"{{edit{v}}}"
            tokens[made["view_token"]] = f"{{view{v}}}"

        def record(resp) -> list:
            headers = {h: corpus.normalize(resp.headers[h], tokens)
                       for h in corpus.HEADERS if h in resp.headers}
            return [resp.status_code, headers,
                    corpus.normalize(resp.get_data(as_text=True), tokens)]

        for i, req in enumerate(requests(seed, pages)):
            path = req["path"]
            for v, edit in edits.items():
                path = path.replace(f"{{edit{v}}}", edit)
            resp = c.get(path, headers=req["headers"])
            rec = record(resp)
            location = resp.headers.get("Location", "")
            if resp.status_code == 303 and location.startswith("/"):
                rec.append(record(c.get(location, headers=req["headers"])))
            out[f"{i} {req['path']} {json.dumps(req['headers'])}"] = rec
        app.extensions["ledger"].dispose()
    return out


def compare(a: dict, b: dict) -> int:
    """Print each differing answer's key and its first differing characters; the count."""
    differ = [k for k in a if a[k] != b.get(k)] + [k for k in b if k not in a]
    for k in differ[:20]:
        x, y = json.dumps(a.get(k), ensure_ascii=False), json.dumps(b.get(k), ensure_ascii=False)
        at = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
        print(k, "\n  A:", x[max(0, at - 80):at + 120], "\n  B:", y[max(0, at - 80):at + 120])
    print(f"{len(a)} and {len(b)} answers, {len(differ)} differ")
    return len(differ)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", help="the checkout whose webcalc renders (default: this one)")
    p.add_argument("--out", help="write the answers here (JSON)")
    p.add_argument("--seed", type=int, default=4938)
    p.add_argument("--pages", type=int, default=300)
    p.add_argument("--compare", nargs=2, metavar=("A", "B"))
    args = p.parse_args()
    if args.compare:
        a, b = (json.loads(Path(f).read_text()) for f in args.compare)
        return 1 if compare(a, b) else 0
    answers = render(args.seed, args.pages)
    Path(args.out).write_text(json.dumps(answers, ensure_ascii=False))
    statuses: dict[int, int] = {}
    for rec in answers.values():
        statuses[rec[0]] = statuses.get(rec[0], 0) + 1
    print(f"{len(answers)} answers from {TREE}: statuses {sorted(statuses.items())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
