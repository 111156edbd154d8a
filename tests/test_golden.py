"""Behaviour kept across refactors: the recorded corpus (tests/golden/) answers the same.

Every request of :func:`tests.golden.corpus.build` (analyze bodies of all variants, the review
and quiz, calculator pages and fragments, taps, rules pages, ledger evenings through the API
and the pages) is replayed on a fresh app and database, and its status, meaningful headers
and normalized body must equal what was recorded (``make golden``) before the change. A
failure prints each differing request with a diff of its bodies against the recorded ones
(tests/golden/bodies.json.xz). A change meant to alter what users see re-records with
``make golden``, which prints what changed, in its own commit.
"""

from __future__ import annotations

import pytest

from tests.golden.corpus import BODIES, build
from tests.golden.record import explain, load, run


@pytest.mark.refactor
def test_recorded_corpus_answers_the_same():
    recorded, recorded_bodies = load()
    corpus, records = run()
    assert len(corpus) >= 3000
    assert recorded["requests"] == len(corpus), "the corpus changed: re-record it (make golden)"
    differ = [i for i, (old, new) in enumerate(zip(recorded["records"], records)) if old != new]
    assert not differ, f"{len(differ)} of {len(corpus)} answers changed:\n\n" + "\n\n".join(
        explain(corpus[i], recorded["records"][i], records[i], recorded_bodies, BODIES)
        for i in differ[:3])
    assert build() == corpus                     # the corpus itself is fixed by its seed


def test_a_changed_answer_is_explained_with_the_request_and_a_diff():
    """What the comparison prints when an answer differs: the request, the status, and a
    unified diff of the readable (pretty-printed) bodies."""
    req = {"method": "POST", "path": "/api/v1/analyze", "json": {"hand": "123m"}}
    old_body, new_body = '{"shanten": 1, "waits": ["1m"]}', '{"shanten": 0, "waits": ["1m"]}'
    old = {"status": 200, "headers": {}, "sha256": "a", "length": len(old_body)}
    new = {"status": 422, "headers": {}, "sha256": "b", "length": len(new_body)}
    text = explain(req, old, new, {"a": old_body}, {"b": new_body})
    assert text.splitlines()[0] == 'POST /api/v1/analyze {"hand": "123m"}'
    assert "answer: status 200 → 422" in text
    assert '- "shanten": 1,' in text and '+ "shanten": 0,' in text
