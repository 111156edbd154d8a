# make run  -> serve on http://127.0.0.1:8000
# make test -> the whole test suite
# make bench -> bench/RESULTS.md
# make soak -> 60 s loopback load test against gunicorn -> bench/RESULTS.md "## Soak (issue 7)"
# make bench-ledger -> ledger record/read timings on SQLite and PostgreSQL -> "## Ledger (issue 12)"
# make test runs the ledger tests on SQLite and, when reachable, on PostgreSQL
# (WEBCALC_TEST_POSTGRES_URL, else postgresql://webcalc:webcalc@127.0.0.1:5432/webcalc_test);
# its last lines say plainly when that was SQLite only.
# The virtualenv is reinstalled only when pyproject.toml changes (stamp files in .venv/).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test bench bench-ledger soak load clean

run: $(VENV)/.stamp-run
	$(BIN)/gunicorn -c gunicorn.conf.py 'webcalc:create_app()'

test: $(VENV)/.stamp-test
	$(BIN)/python -m pytest -q

# micro-benchmark against the PyPI peers → bench/RESULTS.md (about a minute)
bench: $(VENV)/.stamp-bench
	$(BIN)/python bench/bench.py

# ledger benchmark: record p50/p99 and 200-entry reads, SQLite and PostgreSQL (about a minute)
bench-ledger: $(VENV)/.stamp-run
	$(BIN)/python bench/ledger.py

# bounded load test on 127.0.0.1 only (starts and stops its own gunicorn; about 70 s)
soak: $(VENV)/.stamp-run
	$(BIN)/python bench/soak.py

# 30 s at fixed concurrency on 2 gunicorn workers (issue 6) -> bench/RESULTS.md "## Load (issue 6)"
load: $(VENV)/.stamp-run
	$(BIN)/python bench/soak.py --seconds 30 --workers 2 --concurrency 4 \
		--title "Load (issue 6)" --command "make load"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.stamp-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.stamp-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.stamp-run

$(VENV)/.stamp-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[bench]'
	touch $@ $(VENV)/.stamp-run

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis tests/screenshots
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
