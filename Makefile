# make run   -> serve on http://127.0.0.1:8000 (SQLite ledger in instance/, nothing to set up)
# make test-fast -> the edit loop (about 1½ min): no browser, SQLite only, no servers started,
#                   the Hypothesis "dev" profile and WEBCALC_TEST_SCALE=0.2, on every core
# make test  -> before a push, and what .ci/run runs (about 9 min on 2 cores): every check at
#               full scale, in parallel (pytest-xdist), PostgreSQL for the tests marked both_dbs,
#               the browser tier on SQLite, and beside it the engine's own tests again without
#               its C part (WEBCALC_PURE_PYTHON=1); then the serial tests alone
# make test-extras -> the golden corpus (-m refactor) and the city (-m slow); .ci/run runs it
# make check -> ruff and mypy ([tool.ruff], [tool.mypy] in pyproject.toml); must be clean
# make golden -> re-record tests/golden/ after a change meant to alter answers, with a summary
# make test-pure -> the engine's own tests with WEBCALC_PURE_PYTHON=1 (part of make test)
# The markers (browser, slow, serial, server, refactor, both_dbs, empty_db) are declared in
# pyproject.toml; tests/conftest.py the Hypothesis profiles; tests/scale.py the scale knob.
# make bench -> bench/RESULTS.md (bench/bench.py, then bench/worst.py)
# make worst -> the hardest request classes' CPU p50/p99/max -> "## Worst cases"
# make bench-review -> a 20-turn hand review's CPU p50/p99 on fresh random logs -> "## Review (issue 25)"
# make bench-machinery -> each cache and fast path on and off on fresh inputs -> "## Machinery (issue 37.2)"
# make bench-cards -> the share pictures' CPU p50/p99 and PNG size on fresh hands and tables -> "## Share cards (issue 35)"
# make soak -> 60 s loopback load test against gunicorn -> bench/RESULTS.md "## Soak (issue 7)"
# make bench-ledger -> ledger record/read/200-hand page timings, writes at 1/50/200 entries and 304 polls vs /healthz, SQLite and PostgreSQL -> "## Ledger (issue 12)", "## Ledger writes at 1, 50 and 200 entries (issue 21)"
# make soak-ledger -> 60 s per database of ledger reads and writes on 2 gunicorn workers -> "## Ledger soak (issue 12)"
# make bench-38 -> every figure of issue 38's Done-when in one run (peers, rule sets, page, 304s, mix, city, golden) -> "## Issue 38: the targets in one run"
# make bench-city -> 3 gunicorn servers x 2 workers behind nginx on one PostgreSQL, 1000 tables x 4 polling viewers plus writes: poll p50/p99, server CPU per poll, tables per core -> "## City (issue 26.4)"
# make bench-circle -> a circle of 100 tables x 16 hands on SQLite: the circle page, its JSON and a player's page after a write -> "## Circles (issue 24)"
# make bench-limits -> the refused 2 MB import beside a record, the biggest import the caps allow, a table at the caps -> "## Ledger limits and imports (issue 20)"
# make bench-circle-import -> a circle import at the cap on its engine work (fresh hands, and the hardest), a real 100-evening circle, the issue's 30,000-hand import refused -> "## Circle imports"
# make fuzz -> 100,000 hostile requests per database, 0 × 500 asserted -> "## Fuzz (issue 20)"
# make lock -> regenerate constraints.txt (the pinned versions every install uses)
# The virtualenv is reinstalled only when pyproject.toml, setup.py, the C part of the engine
# (PJUNIT: webcalc/_pjunit*.c and .h, webcalc/_plain*.c and .h, webcalc/_rowkit.h,
# webcalc/variants/*.c and *.h,
# compiled in place by the editable install) or constraints.txt changes
# (stamp files in .venv/). Every pip install is pinned by constraints.txt (-c): after adding or
# raising a dependency in pyproject.toml, run `make lock` and commit constraints.txt.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
LOCK   := constraints.txt
PIP    := $(BIN)/python -m pip install -q -c $(LOCK)

.PHONY: run test test-extras check test-fast test-pure golden bench worst bench-ledger bench-38 bench-city bench-circle bench-circle-import bench-review bench-cards bench-limits bench-machinery fuzz soak-ledger soak load lock memory pages clean

run: $(VENV)/.stamp-run
	$(BIN)/gunicorn -c gunicorn.conf.py 'webcalc:create_app()'

PYTEST := $(BIN)/python -m pytest
# xdist workers: one per core (WEBCALC_TEST_WORKERS=n to choose) for the CPU-bound runs; one
# more than the cores for make test's parallel block, whose browser tests leave a core idle
# while they wait for Chromium and its pages (docs/TESTING.md: about 56 % of two cores busy
# with two workers)
WORKERS ?= $(or $(WEBCALC_TEST_WORKERS),auto)
BLOCK_WORKERS ?= $(or $(WEBCALC_TEST_WORKERS),$(shell echo $$(( $$(nproc) + 1 ))))
# the engine's own tests, run again by test-pure without the C part (the hand review's tests,
# tests/test_story_review.py, are not: the review reads the same analysis and 牌理 these hold)
ENGINE_TESTS := tests/test_engine_*.py tests/test_cases.py tests/test_free_draws.py \
	tests/test_pjunit.py tests/test_pjunit_adversarial.py tests/test_pure_python.py \
	tests/test_story_history.py tests/test_quiz.py tests/test_doctests.py

# the files that hold serial tests (collecting only them spares the serial step ~10 s)
SERIAL_TESTS = $(shell grep -l "mark\.serial" tests/*.py tests/ledger/*.py)

# make test: the engine's tests without its C part (test-pure's, in one process, at half the
# random cases: PURE_SCALE) run beside the parallel block, on the CPU its browser tests leave
# idle while they wait for Chromium; their output follows the block's. Then the serial tests,
# with the machine to themselves. The twins are held equal to the C part at full scale inside
# the block (the differential tests); test-extras runs these again at full scale in CI.
PURE_SCALE ?= 0.5
test: $(VENV)/.stamp-test
	@pure_log=$$(mktemp); \
	echo "== the engine's tests without its C part, beside the parallel block (log: $$pure_log)"; \
	( WEBCALC_PURE_PYTHON=1 WEBCALC_TEST_SCALE=$(PURE_SCALE) $(PYTEST) -q -p no:xdist \
		-m "not slow and not serial and not refactor" \
		$(ENGINE_TESTS) > $$pure_log 2>&1 ) & pure=$$!; \
	block=0; $(PYTEST) -q -n $(BLOCK_WORKERS) --dist worksteal \
		-m "not slow and not serial and not refactor" || block=$$?; \
	purerc=0; wait $$pure || purerc=$$?; \
	echo "== the engine's tests without its C part (WEBCALC_PURE_PYTHON=1):"; \
	cat $$pure_log; rm -f $$pure_log; \
	test $$block -eq 0 && test $$purerc -eq 0
	$(PYTEST) -q -p no:xdist -m "serial and not slow and not refactor" $(SERIAL_TESTS)

# the CI extras, with no time pressure: the golden corpus and the city test, then the engine's
# tests without its C part at full scale (make test runs them at PURE_SCALE)
test-extras: $(VENV)/.stamp-test
	$(PYTEST) -q -p no:xdist -m "refactor or slow"
	@$(MAKE) --no-print-directory test-pure

check: $(VENV)/.stamp-test
	$(BIN)/ruff check .
	$(BIN)/mypy

test-fast: $(VENV)/.stamp-test
	WEBCALC_TEST_DBS=sqlite WEBCALC_TEST_SCALE=0.2 HYPOTHESIS_PROFILE=dev \
	$(PYTEST) -q -n $(WORKERS) --dist worksteal -m "not browser and not slow and not serial and not server and not refactor"

# The engine with WEBCALC_PURE_PYTHON=1 runs the Python twins of webcalc._pjunit's C
# (webcalc/compiled.py sets pjunit to None), on the engine's own test files: the web, ledger
# and browser tests reach the same engine and would only repeat them.
test-pure: $(VENV)/.stamp-test
	WEBCALC_PURE_PYTHON=1 $(PYTEST) -q -n $(WORKERS) --dist worksteal -m "not slow and not serial and not refactor" \
		$(ENGINE_TESTS)

# re-record the golden corpus (tests/golden/) and the message snapshots (tests/messages_zh.json,
# tests/ledger/messages_zh.json) and say what changed
golden: $(VENV)/.stamp-test
	$(BIN)/python -m tests.golden.record
	WEBCALC_WRITE_SNAPSHOTS=1 WEBCALC_TEST_DBS=sqlite $(PYTEST) -q -s -p no:xdist \
		"tests/test_messages.py::test_chinese_is_what_it_was_before_the_refactor" \
		"tests/ledger/test_ledger_messages.py::test_chinese_is_what_it_was"

# micro-benchmark on fresh hands; analyze() against the PyPI peers (mahjong, riichienv) doing
# the same job — shanten, waits, useful tiles per discard (bench/peers.py) — interleaved, CPU
# time, 3 repeats, ratios with their spread and the answers checked; then the hardest classes
# (bench/worst.py, about a minute) → bench/RESULTS.md
bench: $(VENV)/.stamp-bench
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/worst.py --hands 100

# the hardest requests on fresh hands (盘锦 游戏混 4-8 wildcards, 郑州 500+ readings, 14 tiles
# with ≤ 4 wildcards and efficiency) through analyze(), the API and the page, 3 repeats on fresh
# hands: API p99 ÷ engine p99 per class (issue 26.2: ≤ 1.3×), then p50/p99/max CPU against
# issue 13.5's 20 ms p99 and issue 7's old 100 ms cap → "## Worst cases" in RESULTS.md
worst: $(VENV)/.stamp-run
	$(BIN)/python bench/worst.py

# the hand review (POST /api/v1/review): CPU per 20-turn review of fresh random logs in the four
# rooms, through the engine and the API, against issue 25's p99 ≤ 150 ms (about a minute)
bench-review: $(VENV)/.stamp-run
	$(BIN)/python bench/review.py

# the share pictures (GET /card.png, /t/<view>/card.png): CPU per card on fresh settled hands
# and fresh tables of every variant, zh and en, against issue 35's p99 ≤ 50 ms and 200 KB
# (about a minute)
bench-cards: $(VENV)/.stamp-run
	$(BIN)/python bench/cards.py

# ledger benchmark: record p50/p99, 200-entry reads and the 200-hand page, SQLite and PostgreSQL (about 2 minutes)
bench-ledger: $(VENV)/.stamp-run
	$(BIN)/python bench/ledger.py

# city benchmark (issue 26.4): tests/city.py's harness at 1000 tables on the test PostgreSQL
# (WEBCALC_TEST_POSTGRES_URL) with nginx in front (deploy/nginx-city.conf); about 3 minutes.
# CITY_ARGS: e.g. --interval 5 (seconds between one viewer's polls) --tables 500
CITY_ARGS ?=
bench-38: $(VENV)/.stamp-run
	$(BIN)/python bench/issue38.py

bench-city: $(VENV)/.stamp-run
	$(BIN)/python bench/city.py $(CITY_ARGS)

# circle benchmark: a circle of 100 tables x 16 hands on SQLite; the circle page, its JSON and a
# player's page timed after each write (about a minute to build, then the samples)
bench-circle: $(VENV)/.stamp-run
	$(BIN)/python bench/circle.py

# ledger limits: what a refused 2 MB import costs beside one record, the largest import the
# caps allow (its write lock, records on another table meanwhile), a table at the caps; SQLite
# and PostgreSQL (a few minutes)
bench-limits: $(VENV)/.stamp-run
	$(BIN)/python bench/limits.py

# circle imports: the CPU of one import at the cap on its engine work (docs/LEDGER.md "Limits")
bench-circle-import: $(VENV)/.stamp-run
	$(BIN)/python bench/circle_import.py

# fuzz runner: 100,000 seeded hostile requests per database (SQLite, then PostgreSQL) through
# the whole app; fails on any 500 or rule break (tens of minutes on 2 cores; FUZZ_REQUESTS=n)
FUZZ_REQUESTS ?= 100000
fuzz: $(VENV)/.stamp-run
	$(BIN)/python bench/fuzz.py --requests $(FUZZ_REQUESTS)

# ledger soak: 60 s on SQLite, then 60 s on PostgreSQL, 2 gunicorn workers, reads and writes
# mixed, every hand fresh (starts and stops its own gunicorn; about 2.5 minutes)
soak-ledger: $(VENV)/.stamp-run
	$(BIN)/python bench/ledger_soak.py

# bounded load test on 127.0.0.1 only, every hand fresh (starts and stops its own gunicorn; about 70 s)
soak: $(VENV)/.stamp-run
	$(BIN)/python bench/soak.py

# memory over fresh analyses, where the master's memory goes, and 10,000 requests on 2 workers in
# two mixes (analyser only; 10 % ledger requests), then 3 × 1,000 more: RSS/PSS/USS per worker
# and USS growth per 1,000 -> bench/RESULTS.md
memory: $(VENV)/.stamp-run
	$(BIN)/python bench/memory.py

# issue 26.3's ratios in one run: page CPU vs API CPU on the same fresh hands, /healthz vs a
# minimal Flask route (bench/minimal_app.py), the 2-worker 50/50 mix's req/s vs that route's
# (about 2 minutes; --before REF adds a before tree) -> bench/RESULTS.md "## Pages (issue 26.3)"
pages: $(VENV)/.stamp-run
	$(BIN)/python bench/pages.py

# issue 37.2: what each cache and fast path buys on fresh inputs (on and off in two forked
# children at once, 7 repeats; a few minutes), then the compiled part's guard in two threads
# -> bench/RESULTS.md "## Machinery (issue 37.2)"
bench-machinery: $(VENV)/.stamp-run
	$(BIN)/python bench/machinery.py --hands 60 --repeats 7 --write
	$(BIN)/python bench/guard.py

# 30 s at fixed concurrency on 2 gunicorn workers (issue 6) -> bench/RESULTS.md "## Load (issue 6)"
load: $(VENV)/.stamp-run
	$(BIN)/python bench/soak.py --seconds 30 --workers 2 --concurrency 4 \
		--title "Load (issue 6)" --command "make load"

PJUNIT := $(wildcard webcalc/_pjunit*.c webcalc/_pjunit.h webcalc/_plain*.c webcalc/_plain.h webcalc/_rowkit.h webcalc/variants/*.c webcalc/variants/*.h)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# each install builds the compiled part, then 盘锦's rows table from it when the table is
# older than the compiled part (webcalc/build_tables.py, webcalc/variants/panjin_table.py:
# about 60 MB, 35 s on two cores; the engine answers without it, only slower)
ROWS_TABLE := $(BIN)/python -m webcalc.build_tables --if-stale

$(VENV)/.stamp-run: pyproject.toml setup.py $(PJUNIT) $(LOCK) | $(BIN)/python
	$(PIP) -e .
	$(ROWS_TABLE)
	touch $@

$(VENV)/.stamp-test: pyproject.toml setup.py $(PJUNIT) $(LOCK) | $(BIN)/python
	$(PIP) -e '.[test]'
	$(ROWS_TABLE)
	touch $@ $(VENV)/.stamp-run

$(VENV)/.stamp-bench: pyproject.toml setup.py $(PJUNIT) $(LOCK) | $(BIN)/python
	$(PIP) -e '.[bench]'
	$(ROWS_TABLE)
	touch $@ $(VENV)/.stamp-run

# Resolve pyproject.toml's dependencies and every extra afresh in a throw-away venv and pin
# what was installed (pip freeze) into constraints.txt.
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install -q -e '.[test,bench]'
	{ echo "# Pinned versions for every install (make run/test/bench, .ci/run): pip install -c $(LOCK)."; \
	  echo "# Generated by \`make lock\` (pip freeze of pyproject.toml's dependencies and extras); do not edit."; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable --all | grep -v -E '^(pip|wheel)=='; } > $(LOCK)
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis tests/screenshots
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
