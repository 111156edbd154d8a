"""webcalc._pjunit built with AddressSanitizer, called as the 盘锦 searches call it: a read or
write outside an array (which the plain build survives, unseen, until it does not) aborts the
subprocess with ASan's report. Slow (the build is about half a minute): make test-extras.

The count's 刻 in the honors (panjin_lower.c ``pj_count_lower``) copied nine counts of the
seven-kind unit, reading two past the hand's 34 (found by ASan on /api/v1/analyze 盘锦
requests, stop 48)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _libasan() -> str | None:
    if shutil.which("gcc") is None:
        return None
    path = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                          text=True).stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else None


def _pjunit_sources() -> list[str]:
    """setup.py's PJUNIT_SOURCES, read without running setup()."""
    with open(os.path.join(ROOT, "setup.py"), encoding="utf-8") as f:
        text = f.read()
    block = text.split("PJUNIT_SOURCES = [", 1)[1].split("]", 1)[0]
    return [s.strip().strip('"') for s in block.replace("\n", " ").split(",") if s.strip()]


@pytest.fixture(scope="module")
def asan_pjunit(tmp_path_factory):
    libasan = _libasan()
    if libasan is None:
        pytest.skip("gcc with libasan is not installed")
    out = tmp_path_factory.mktemp("asan") / "_pjunit.so"
    cmd = ["gcc", "-shared", "-fPIC", "-O1", "-g", "-fsanitize=address",
           "-fno-omit-frame-pointer", f"-I{sysconfig.get_paths()['include']}",
           *[os.path.join(ROOT, s) for s in _pjunit_sources()], "-o", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT, timeout=600)
    return str(out), libasan


def _run_asan(asan_pjunit, body: str) -> subprocess.CompletedProcess:
    so, libasan = asan_pjunit
    code = textwrap.dedent(f"""
        import importlib.machinery, importlib.util, sys
        loader = importlib.machinery.ExtensionFileLoader("webcalc._pjunit", {so!r})
        spec = importlib.util.spec_from_file_location("webcalc._pjunit", {so!r}, loader=loader)
        P = importlib.util.module_from_spec(spec)
        loader.exec_module(P)
    """) + textwrap.dedent(body)
    env = dict(os.environ, LD_PRELOAD=libasan, ASAN_OPTIONS="detect_leaks=0",
               PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_the_count_reads_no_count_past_the_honors(asan_pjunit):
    """A 13- or 14-tile 盘锦 hand with honors to make its 刻 of (PJ-6) and each meld flag."""
    done = _run_asan(asan_pjunit, """
        from webcalc.tiles import parse_tiles
        def counts(s):
            c = [0] * 34
            for t in parse_tiles(s):
                c[int(t)] += 1
            return c
        for hand in ("123m456p789s1z1z2z3z", "19m19p19s11z2z3z4z5z", "111z222z33z",
                     "1z1z1z5z5z6z6z7z", "123m456p789s7z7z7z"):
            for flags in range(32):
                for jokers in (0, 1, 2):
                    P.count_lower(counts(hand), [4] * 34, jokers, 4, 0b1111, flags)
        # and through the analysis, which reaches it from panjin_advice14 (the 14 tiles)
        sys.modules["webcalc._pjunit"] = P
        from webcalc.analysis import analyze
        for hand in ("123m456p789s1z1z2z3z4z", "123m456p789s7z7z7z1z2z",
                     "19m19p19s1z1z2z3z4z5z6z7z"):
            analyze({"variant": "panjin", "hand": hand, "indicator": "3z"})
        print("ok")
    """)
    assert "AddressSanitizer" not in done.stderr, done.stderr[:3000]
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
