# `make serve` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test migrate simulate bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	touch $@

serve: $(VENV)/.installed
	$(BIN)/campground migrate
	$(BIN)/campground serve --host $(HOST) --port $(PORT)

migrate: $(VENV)/.installed
	$(BIN)/campground migrate

test: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

simulate: $(VENV)/.installed
	$(BIN)/campground simulate $(GAME) --games $(or $(GAMES),1000)

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
