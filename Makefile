# Two commands on a fresh machine: `make run` (embedded default) and `make test` (whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `make run HOST=0.0.0.0` serves the club's Wi-Fi: phones open the machine's LAN address (printed at
# start; PUBLIC_BASE_URL=http://ADDRESS:PORT fixes the address the QR codes carry).
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv lint types bench bench-pairs demo worker clean messages

$(BIN)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements.lock
	touch $@

venv: $(BIN)/.installed

# The translations (locale/*/LC_MESSAGES/*.po) are compiled when GNU gettext is there; the
# compiled .mo files are committed too, so a machine without it still serves German.
messages: venv
	@if command -v msgfmt >/dev/null; then $(BIN)/python manage.py compilemessages --ignore=.venv -v 0; fi

run: venv messages
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	@$(BIN)/python -m common.lan $(HOST) $(PORT)
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: venv
	bash scripts/test.sh

lint: venv
	$(BIN)/ruff check .

types: venv
	$(BIN)/mypy .

bench: venv
	$(BIN)/python bench/rules_engine.py
	$(BIN)/python bench/rotation.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles test-output

# The individual progressive day (256 players, 64 tables) on a throwaway PostgreSQL; extra
# arguments through BENCH_ARGS, e.g. `make bench-progressive BENCH_ARGS="--players 512"`.
.PHONY: bench-progressive
bench-progressive: venv
	BENCH_SCRIPT=bench/progressive.py bash bench/standings.sh $(BENCH_ARGS)

# One hand → standings snapshot at 250 players on a throwaway PostgreSQL: the standings task
# keeping its totals incrementally against the full re-aggregation, checked equal after every
# hand (target: under 20 ms); more hands with BENCH_ARGS="--hands 400".
# Partners across a season: the pure builders, then 16 regulars over 4 nights through the
# services on a throwaway PostgreSQL (bench/season.py).
.PHONY: bench-season
bench-season: venv
	BENCH_SCRIPT=bench/season.py bash bench/standings.sh --services $(BENCH_ARGS)

.PHONY: bench-snapshot
bench-snapshot: venv
	BENCH_SCRIPT=bench/snapshot.py bash bench/standings.sh $(BENCH_ARGS)

# Every page a director or player opens, at 512 players (128 tables), a bracket of 128 pairs, a
# player of 500 nights and a season of 5 years, on a throwaway PostgreSQL: median and p95 server
# time and the queries of each page (target: p95 under 300 ms); e.g. BENCH_ARGS="--repeat 50".
.PHONY: bench-pages
bench-pages: venv
	BENCH_SCRIPT=bench/pages.py bash bench/standings.sh $(BENCH_ARGS)

# Search and the public results at scale: 100,000 events, 2,000 clubs, 200,000 players written
# with COPY on a throwaway PostgreSQL; search p95 (target 200 ms), club and event pages and the
# open data feed (target 300 ms); e.g. BENCH_ARGS="--events 20000 --players 40000".
.PHONY: bench-search
bench-search: venv
	BENCH_SCRIPT=bench/search.py bash bench/standings.sh $(BENCH_ARGS)

# Fixed partnerships: Swiss pairing of 128 pairs per round (< 1 s) and bracket plans (< 0.1 s).
bench-pairs: venv
	$(BIN)/python bench/pairs.py

# Ratings: how well openskill (with and without point margins), win rate and average points
# recover known skills in a simulated league (< 1 min); extra arguments through BENCH_ARGS.
.PHONY: bench-ratings
bench-ratings: venv
	$(BIN)/python bench/ratings.py $(BENCH_ARGS)

# Load benchmark of the production stack on 127.0.0.1 (PostgreSQL with fsync on, Redis, gunicorn,
# Celery worker and beat; locust in its own environment, bench/load/.venv): 16 tables for 30 s
# (< 2 min); the full run: BENCH_ARGS="--tables 16,32,64,96 --seconds 60 --json load.json".
LOAD_VENV := bench/load/.venv
$(LOAD_VENV)/.installed: bench/load/requirements.lock
	$(PYTHON) -m venv $(LOAD_VENV)
	$(LOAD_VENV)/bin/pip install -q -r bench/load/requirements.lock
	touch $@

.PHONY: bench-load
bench-load: venv $(LOAD_VENV)/.installed
	$(BIN)/python -m bench.load.run $(BENCH_ARGS)

# The "Beyond one machine" recipe for real, as root: two application nodes in network namespaces
# behind nginx, one killed mid-round (bench/README.md, "Two nodes"); about 4 minutes.
.PHONY: bench-twonodes
bench-twonodes: venv $(LOAD_VENV)/.installed
	$(BIN)/python -m bench.load.twonodes $(BENCH_ARGS)

# Soak benchmark: a whole progressive day on the production stack (as bench-load starts it) at
# 30x pace, 128 tables x 10 games (about 12 minutes of play); per simulated hour latencies,
# memory of every process, connections and Redis memory; the memory slopes; checksum of every
# hand and the standings against an independent recomputation. A quick one:
# BENCH_ARGS="--tables 16 --games 3".
.PHONY: bench-soak
bench-soak: venv
	$(BIN)/python bench/soak.py $(BENCH_ARGS)
