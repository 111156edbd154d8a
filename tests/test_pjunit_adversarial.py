"""Hostile inputs for the compiled engine part (webcalc/_pjunit.c): every call must return or
raise a Python exception, never crash the process (a crash kills a gunicorn worker), and the
compiled engine must answer every request exactly as the pure-Python reference does.

Each case runs in a subprocess, so that a segfault shows as a negative return code instead of
killing the test run. The direct calls are the crashes found by an adversarial review (each
one segfaulted before its fix); the requests are extreme but valid analyses in the four
variants (all-wildcard hands, four of a kind everywhere, melds, 晋城 拾/搶, `visible`)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import webcalc.shanten as S

if S._pjunit is None:
    if os.environ.get("WEBCALC_PURE_PYTHON"):
        pytest.skip("WEBCALC_PURE_PYTHON=1 rules the C part out (make test-pure); make test "
                    "runs these", allow_module_level=True)
    if os.environ.get("CI"):
        raise AssertionError("webcalc._pjunit was not built")
    pytest.skip("webcalc._pjunit not built: nothing compiled to attack", allow_module_level=True)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(code: str, pure: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("WEBCALC_PURE_PYTHON", None)
    if pure:
        env["WEBCALC_PURE_PYTHON"] = "1"
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


# (name, code): the code must print exactly the expected line and exit 0
HOSTILE = {
    # a negative D in fold's states marked a DMap slot empty: the key was listed again and
    # again past the end of the used array (heap overflow, segfault)
    "fold_negative_D": ("""
        from webcalc import _pjunit as P
        states = {(g, p, q): -1 for g in range(5) for p in range(2) for q in range(60)}
        try:
            P.fold(states, (4,) * 9, (4,) * 9, False, True, 4, 30, 30, 100, 0)
        except ValueError:
            print("ValueError")
    """, "ValueError"),
    "fold_draws_negative_D": ("""
        from webcalc import _pjunit as P
        states = {(g, p, q): -1 for g in range(5) for p in range(2) for q in range(60)}
        try:
            P.fold_draws(states, (4,) * 9, (4,) * 9, False, True, 4, 30, 30, 100, {0, 4, 8})
        except ValueError:
            print("ValueError")
    """, "ValueError"),
    # an item's __index__ emptied the list read_ints was reading in place (use after free)
    "list_emptied_while_read": ("""
        from webcalc import _pjunit as P
        class E:
            def __index__(self):
                lst.clear()
                return 1
        lst = [E()] + [object() for _ in range(8)]
        try:
            P.needs(lst, False, False)
        except TypeError:
            print("TypeError")
    """, "TypeError"),
    # merge called again from an argument's __index__ reallocated the static tables the
    # outer call was filling (use after free)
    "merge_reentered": ("""
        from webcalc import _pjunit as P
        table = [(g, p, x, fl, 0, 0) for g in range(2) for p in range(2) for x in range(10)
                 for fl in range(32)]
        class E:
            def __index__(self):
                P.merge({(0, 0, x, 0, f): (0, 0) for x in range(2) for f in range(32)}, table,
                        4, 31, 0, 100, False, 31, 100)
                return 0
        try:
            P.merge({(0, 0, 0, 0, 0): (0, 0), (0, 0, E(), 0, 1): (0, 0)}, table, 4, 31, 0,
                    100, False, 31, 100)
        except RuntimeError:
            print("RuntimeError")
    """, "RuntimeError"),
    # a cap of -2**31 made places - cap overflow into a negative table key (wild read)
    "free_unit_int_min_cap": ("""
        from webcalc import _pjunit as P
        try:
            P.free_unit((1, 1, 1, 1, 1, 1, 1, 1, 1), (4, 4, -2**31, 4, 4, 4, 4, 4, 4), False)
        except ValueError:
            print("ValueError")
    """, "ValueError"),
    "fold_int_min_cap": ("""
        from webcalc import _pjunit as P
        try:
            P.fold({(0, 0, 0): 0}, (1,) * 9, (-2**31,) * 9, False, True, 4, 8, 8, 9, 0)
        except ValueError:
            print("ValueError")
    """, "ValueError"),
    # a key that is not a tuple gave SystemError (PyArg_ParseTuple on a non-tuple)
    "states_key_not_tuple": ("""
        from webcalc import _pjunit as P
        try:
            P.fold({b"ab": 0}, (1,) * 9, (4,) * 9, False, True, 4, 8, 8, 9, 0)
        except TypeError:
            print("TypeError")
    """, "TypeError"),
    "merge_row_not_tuple": ("""
        from webcalc import _pjunit as P
        try:
            P.merge({(0, 0, 0, 0, 0): (0, 0)}, [[0, 0, 0, 0, 0, 0]], 4, 31, 0, 9, False, 31, 9)
        except TypeError:
            print("TypeError")
    """, "TypeError"),
    # a start past the 64-bit mask of drawn kinds (undefined shift)
    "search_start_past_mask": ("""
        from webcalc import _pjunit as P
        try:
            P.search((1,) * 9, (4,) * 9, (0,) * 9, 60, False, 8, 9, 4, 0, 4, None, (), False,
                     True)
        except ValueError:
            print("ValueError")
        try:                                    # start + 9 overflowed past the check
            P.search((1,) * 9, (4,) * 9, (0,) * 9, 2**31 - 1, False, 8, 9, 4, 0, 4, None, (),
                     False, True)
        except ValueError:
            print("ValueError")
    """, "ValueError\nValueError"),
    # free_draws (the free-joker distance search): every bad argument is refused before the
    # search touches its tables
    "free_draws_bad_arguments": ("""
        from webcalc import _pjunit as P
        good = ((1,) * 13 + (0,) * 21, (), -1, 34, 0, 9, 0, None)
        bad = [((1,) * 33,) + good[1:], ((5,) + (1,) * 12 + (0,) * 21,) + good[1:],
               good[:1] + ((34,),) + good[2:], good[:1] + (tuple(range(34)) * 2,) + good[2:],
               good[:2] + (34,) + good[3:], good[:3] + (35,) + good[4:],
               good[:4] + (1 << 34,) + good[5:], good[:5] + (16,) + good[6:],
               good[:6] + (5,) + good[7:], good[:7] + ((20,),), good[:7] + ((-1,),),
               good[:4] + (1 << 20,) + good[5:7] + ((20,),),        # a wildcard, none held
               ((4,) * 8 + (0,) * 26, (), -1, 34, (1 << 8) - 1, 9, 0, None)]   # 32 wildcards
        for args in bad:
            try:
                P.free_draws(*args)
                print("returned", args)
            except ValueError:
                pass
        print(P.free_draws(*good)[0] >= 0)
    """, "True"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_direct_call_raises_and_never_crashes(name):
    code, expected = HOSTILE[name]
    done = _run(code)
    assert done.returncode == 0, (name, done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == expected


# extreme but valid requests, in every variant
REQUESTS = [
    # 盘锦 游戏混 (both): 14 wildcards, 13 wildcards
    {"variant": "panjin", "options": {"wildcard_mode": "both"}, "indicator": "1m",
     "hand": "2m2m2m2m3m3m3m3m1m1m1m9m9m9m"},
    {"variant": "panjin", "options": {"wildcard_mode": "both", "seven_pairs": True},
     "indicator": "1m", "hand": "2m2m2m2m3m3m3m3m1m1m1m5z5z5z", "winning_tile": "5z"},
    {"variant": "panjin", "options": {"wildcard_mode": "both"}, "indicator": "8p",
     "hand": "9p9p9p9p1p1p1p1p8p8p8p5s6s"},
    # four melds and one or two concealed tiles
    {"variant": "panjin", "indicator": "4s",
     "melds": [{"type": "pong", "tiles": "111m"}, {"type": "chow", "tiles": "789p"},
               {"type": "kong", "tiles": "2222z"}, {"type": "concealed_kong", "tiles": "9999s"}],
     "hand": "6s6s", "winning_tile": "6s", "win_by": "discard"},
    {"variant": "panjin", "options": {"wildcard_mode": "both"}, "indicator": "4s",
     "melds": [{"type": "pong", "tiles": "111m"}, {"type": "chow", "tiles": "789p"},
               {"type": "kong", "tiles": "2222z"}, {"type": "added_kong", "tiles": "9999s"}],
     "hand": "5s"},
    {"variant": "zhengzhou", "indicator": "9m",
     "melds": [{"type": "pong", "tiles": "222p"}, {"type": "kong", "tiles": "3333p"},
               {"type": "concealed_kong", "tiles": "7777z"},
               {"type": "added_kong", "tiles": "5555s"}],
     "hand": "1m1m", "winning_tile": "1m"},
    # four of a kind everywhere, with and without wildcards
    {"variant": "sanmenxia", "indicator": "5z",
     "hand": "1m1m1m1m2p2p2p2p3s3s3s3s7z7z"},
    {"variant": "zhengzhou", "options": {"seven_pairs_double": True}, "indicator": "4z",
     "hand": "7z7z7z6z6z6z6z1z1z1z1z2z2z2z", "winning_tile": "2z"},
    {"variant": "zhengzhou", "indicator": "3s", "hand": "4s4s4s5s5s5s4s3s3s3s1z2z3z"},
    # 三门峡 all wildcards (indicator kind held three times)
    {"variant": "sanmenxia", "indicator": "9s", "hand": "1s1s1s1s9s9s9s2s2s2s2s5m5m5m",
     "visible": "5m1z1z1z1z"},
    {"variant": "sanmenxia", "options": {"with_honors": False}, "indicator": "9s",
     "hand": "1s1s1s1s9s9s9s2s2s2s2s5m5m"},
    # 晋城: 拾 and 搶, 十三幺 shapes
    {"variant": "jincheng", "melds": [{"type": "shi", "tiles": "1m"}],
     "hand": "9m1p9p1s9s1z2z3z4z5z6z7z7z", "winning_tile": "7z", "win_by": "discard"},
    {"variant": "jincheng", "melds": [{"type": "qiang", "tiles": "1z"}],
     "hand": "1m9m1p9p1s9s2z3z4z5z6z7z7z"},
    {"variant": "jincheng", "hand": "1m1m1m1m9m9m9m9m1p1p1p1p9p9p", "win_by": "robbing_kong",
     "winning_tile": "9p"},
    {"variant": "jincheng", "hand": "1m9m1p9p1s9s1z2z3z4z5z6z7z", "visible": "1m1m1m7z7z"},
]


def test_extreme_requests_same_answer_compiled_and_pure():
    code = """
        import json, sys
        from webcalc import create_app
        client = create_app({"TESTING": True}).test_client()
        out = []
        for req in json.loads(sys.argv[1] if len(sys.argv) > 1 else REQUESTS_JSON):
            r = client.post("/api/v1/analyze", json=req)
            out.append([r.status_code, r.get_json()])
        print(json.dumps(out, sort_keys=True, ensure_ascii=False))
    """.replace("REQUESTS_JSON", repr(json.dumps(REQUESTS)))
    compiled, pure = _run(code), _run(code, pure=True)
    assert compiled.returncode == 0, compiled.stderr[-2000:]
    assert pure.returncode == 0, pure.stderr[-2000:]
    got, want = json.loads(compiled.stdout), json.loads(pure.stdout)
    assert [s for s, _ in got] == [s for s, _ in want]
    assert all(s in (200, 400) for s, _ in got), got
    for req, g, w in zip(REQUESTS, got, want):
        assert g == w, req


@pytest.mark.parametrize("mode,seed,calls", [("values", 1, 5000), ("values", 2, 5000),
                                             ("objects", 1, 3000), ("objects", 2, 3000)])
def test_seeded_hostile_fuzz_never_crashes(mode, seed, calls):
    """tests/pjunit_hostile_fuzz.py: thousands of hostile calls (extreme ints, wrong types,
    odd keys; objects whose __index__ empties the containers being read or calls the module
    again) in a subprocess: each returns or raises an ordinary exception."""
    done = subprocess.run([sys.executable, os.path.join("tests", "pjunit_hostile_fuzz.py"), mode,
                           str(seed), str(calls)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
