"""Behaviour kept across refactors: the recorded corpus (tests/golden/) answers the same.

Every request of :func:`tests.golden.corpus.build` (analyze bodies of all variants, the review
and quiz, calculator pages and fragments, taps, rules pages, ledger evenings through the API
and the pages) is replayed on a fresh app and database, and its status, meaningful headers
and normalized body must equal what was recorded (``python -m tests.golden.record``) before
the change. A change meant to alter what users see re-records, in its own commit.
"""

from __future__ import annotations

import gzip
import json

from tests.golden.corpus import build, describe
from tests.golden.record import RECORDED, run


def test_recorded_corpus_answers_the_same():
    with gzip.open(RECORDED, "rt", encoding="utf-8") as f:
        recorded = json.load(f)
    corpus, records = run()
    assert len(corpus) >= 3000
    assert recorded["requests"] == len(corpus), "the corpus changed: re-record it"
    differ = [(describe(req), old, new) for req, old, new in
              zip(corpus, recorded["records"], records) if old != new]
    assert not differ, f"{len(differ)} of {len(corpus)} answers changed; first: " + "\n".join(
        f"{d}\n  was {o}\n  now {n}" for d, o, n in differ[:5])
    assert build() == corpus                     # the corpus itself is fixed by its seed
