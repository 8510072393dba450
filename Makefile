# `make serve` and `make test` do all the set-up on a fresh machine, installing exactly the
# versions in uv.lock (with their hashes). `make lock` brings uv.lock in line with
# pyproject.toml after a dependency is added or changed there.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# The uv that installs the lock; uv.lock pins the same version for the dev tools (a test checks).
UV_VERSION := 0.13.9
# Installs go into .venv, whose pip stays (--inexact); a lock older than pyproject.toml fails.
# Compiled at install: a process that finds no .pyc compiles every module it imports, and
# the tests start many.
SYNC := $(BIN)/uv sync --locked --inexact --compile-bytecode --python $(BIN)/python
# Test processes in parallel (pytest-xdist); most tests wait on servers and browsers, so more
# than the cores. TEST_WORKERS=1 runs them one at a time.
TEST_WORKERS ?= 4

.PHONY: serve test durations lock upgrade migrate simulate icons clean

# An older Python is turned away before anything is made; a venv that fails half-way goes.
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Campground needs Python 3.11 or newer; $(PYTHON) is " + sys.version.split()[0] + ". Give make a newer one: make serve PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }

$(BIN)/uv: | $(BIN)/python
	$(BIN)/python -m pip install -q uv==$(UV_VERSION)

$(VENV)/.installed: pyproject.toml uv.lock | $(BIN)/uv
	$(SYNC)
	touch $@

$(VENV)/.dev-installed: pyproject.toml uv.lock | $(BIN)/uv
	$(SYNC) --extra dev
	touch $@ $(VENV)/.installed

serve: $(VENV)/.installed
	$(BIN)/campground migrate
	$(BIN)/campground serve --host $(HOST) --port $(PORT)

migrate: $(VENV)/.installed
	$(BIN)/campground migrate

# The linter, the formatter's check and the type checker first (seconds, with mypy's cache);
# then the tests. Any lint, format or type error fails the run.
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE): every
# test process and server would otherwise compile the project and the tests afresh.
test: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist load --durations=15 $(PYTEST_ARGS)

# The app's icons (static/icons/), drawn from the SVG in tools/make_icons.py by Chromium.
icons: $(VENV)/.dev-installed
	$(BIN)/python tools/make_icons.py

# The suite as `make test` runs it, writing how long each test took into tests/durations.json,
# which orders later runs longest first (commit it when tests were added or got slower).
durations: $(VENV)/.dev-installed
	TEST_DURATIONS=write PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist load --durations=15 $(PYTEST_ARGS)

# Re-resolve uv.lock from pyproject.toml, keeping every pin that still fits.
lock: | $(BIN)/uv
	$(BIN)/uv lock

# `make upgrade PACKAGE=fastapi`: move one dependency to its newest release that fits.
upgrade: | $(BIN)/uv
	$(if $(PACKAGE),,$(error name the dependency: make upgrade PACKAGE=fastapi))
	$(BIN)/uv lock --upgrade-package $(PACKAGE)

simulate: $(VENV)/.installed
	$(BIN)/campground simulate $(GAME) --games $(or $(GAMES),1000)

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
