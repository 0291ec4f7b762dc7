PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint bench bench-capacity deploy-check vendor clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/solrace-server $(ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

# The deploy/ topology on this host (Redis, three servers, HAProxy) and real faults.
# Skips, saying why, without haproxy or redis-server.
deploy-check: $(DEV_STAMP)
	$(BIN)/pytest tests/deploy -rs

# The spectator page's libraries again from the npm registry, at their pinned
# versions and sha256 (server/web/static/vendor/fetch.sh; ARGS=--check only compares).
vendor:
	server/web/static/vendor/fetch.sh $(ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench

# The long variant: the server bench with one process holding 10,000 players.
bench-capacity: $(STAMP)
	$(BIN)/python -m bench.server_bench --capacity-rooms 2500

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
