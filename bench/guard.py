"""The compiled part's re-entrancy guard (issue 37.2): how often it turns a call away.

webcalc/_pjunit.c's ``search``, ``merge``, ``fold`` and ``fold_draws`` keep tables between
calls; a call made while one of them runs gets ``RuntimeError`` and webcalc/shanten.py runs
the Python instead. ``python bench/guard.py`` runs ``analyze()`` on fresh requests
(bench/hands.py) in ``--threads`` threads at once, with the interpreter's switch interval
at 1 µs (a thread switch as often as CPython allows), and counts the guarded calls and the
refusals (a counting proxy stands in for the module in webcalc/shanten.py).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from hands import fresh_requests  # noqa: E402

from webcalc import shanten  # noqa: E402
from webcalc.analysis import analyze  # noqa: E402
from webcalc.errors import InputError  # noqa: E402

GUARDED = ("search", "merge", "fold", "fold_draws")


class Counting:
    """``_pjunit`` with its guarded functions counted (calls, refusals)."""

    def __init__(self, module):
        self._module = module
        self.calls = dict.fromkeys(GUARDED, 0)
        self.refused = dict.fromkeys(GUARDED, 0)
        for name in GUARDED:
            setattr(self, name, self._counted(name, getattr(module, name)))

    def _counted(self, name, func):
        def call(*args):
            self.calls[name] += 1
            try:
                return func(*args)
            except RuntimeError:
                self.refused[name] += 1
                raise
        return call

    def __getattr__(self, name):
        return getattr(self._module, name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=400, help="fresh requests per thread")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    if shanten._pjunit is None:
        raise SystemExit("the compiled part is not built (or WEBCALC_PURE_PYTHON is set)")
    counting = Counting(shanten._pjunit)
    shanten._pjunit = counting
    sys.setswitchinterval(1e-6)
    reqs = list(itertools.islice(fresh_requests(37_2), args.hands * args.threads))

    def work(part):
        for r in part:
            try:
                analyze(r)
            except InputError:
                pass
    threads = [threading.Thread(target=work, args=(reqs[i::args.threads],))
               for i in range(args.threads)]
    t = time.process_time()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    cpu = time.process_time() - t
    calls, refused = sum(counting.calls.values()), sum(counting.refused.values())
    print(f"{len(reqs)} analyses in {args.threads} threads, {cpu:.2f} s CPU: {calls} guarded "
          f"calls ({calls / len(reqs):.1f} per analysis: {counting.calls}), refused "
          f"{refused} ({counting.refused})")


if __name__ == "__main__":
    main()
