"""The ledger under hostile input, on SQLite and PostgreSQL: seeded requests through the whole
app (tests/ledger/fuzzing.py says what they send and what every answer must be). Quick here;
``make fuzz`` (bench/fuzz.py) sends 100,000 per database with the same fuzzer."""

from __future__ import annotations

import json
import logging
import random

import pytest

from .fuzzing import Fuzzer, encode, hostile, mutate

REQUESTS = 1500


@pytest.fixture()
def fuzz_app(make_app):
    app = make_app(WTF_CSRF_ENABLED=False, LEDGER_TABLES_PER_HOUR=0, PROPAGATE_EXCEPTIONS=False)
    logging.getLogger(app.name).disabled = True        # a 500 is a failure below, not a log
    yield app
    logging.getLogger(app.name).disabled = False


@pytest.mark.parametrize("seed", [20])
def test_fuzz_the_ledger(fuzz_app, seed):
    fuzzer = Fuzzer(fuzz_app.test_client(), random.Random(seed))
    fuzzer.run(REQUESTS)
    assert not fuzzer.failures, json.dumps(fuzzer.failures[:5], ensure_ascii=False, indent=1)
    assert fuzzer.statuses[500] == 0
    # the requests reached past the edge: writes succeeded and were refused for many reasons
    assert fuzzer.statuses[201] > 50 and fuzzer.statuses[400] > 200


def test_the_fuzzer_makes_what_it_says():
    """Its mutations include each hostile kind the brief names."""
    rng = random.Random(1)
    seen = set()
    for _ in range(3000):
        raw = encode(rng, mutate(rng, {"a": "x", "b": [1, {"c": 2}]}))
        for name, needle in (("surrogate", b"\\ud800"), ("nul", b"\\u0000"),
                             ("huge int", b"18446744073709551616"), ("tiny float", b"5e-324"),
                             ("deep", b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[")):
            if needle in raw:
                seen.add(name)
    assert seen == {"surrogate", "nul", "huge int", "tiny float", "deep"}
    assert any(isinstance(hostile(rng), dict) for _ in range(200))
