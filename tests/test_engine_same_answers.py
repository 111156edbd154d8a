"""The engine's answers do not change when it is made faster: ``analyze()`` on a seeded sample
of random requests (bench/answers.py: all four variants, random room options, wildcards,
melds, ``visible``, winning tiles, settlements, bad input) gives exactly the answers recorded
from the engine before its 14-tile efficiency path and wait finding were compiled
(tests/answers_sample.txt: a digest of each request and of its answer's exact JSON), with the
compiled part (webcalc/_pjunit.c) and, when ``make test-pure`` runs this file with
``WEBCALC_PURE_PYTHON=1``, without it. ``bench/answers.py check`` does the same for larger samples."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import answers  # noqa: E402

SAMPLE = ROOT / "tests" / "answers_sample.txt"


def _expected():
    head, *lines = SAMPLE.read_text().splitlines()
    _, _, _, seed, _, count = head.split()
    return answers.requests(int(seed), int(count)), lines


def test_same_answers_as_recorded():
    reqs, lines = _expected()
    got = [answers.digest_line(r) for r in reqs]
    assert [g.split()[0] for g in got] == [w.split()[0] for w in lines], \
        "bench/answers.py's request generator changed: the sample no longer matches"
    differ = [r for r, g, w in zip(reqs, got, lines) if g != w]
    assert not differ, f"{len(differ)} answers changed, first: {differ[0]}"


# The same recorded answers without the C part: make test runs this file again with
# WEBCALC_PURE_PYTHON=1 (make test-pure), where test_same_answers_as_recorded checks the
# Python twins (docs/TESTING.md).
