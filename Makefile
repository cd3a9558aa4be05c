# Bootstrap a virtual environment from nothing, then run the demo or the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/companion demo --delay 0.02

# the public surfaces (apply and legal, the table's submit, the edition loader) keep ruff's format
FORMATTED := companion/engine/actions.py companion/engine/command.py companion/engine/core.py \
	companion/engine/game.py companion/engine/state.py companion/engine/board.py \
	companion/editions/__init__.py companion/table.py

lint: $(STAMP)
	$(BIN)/ruff check companion tests
	$(BIN)/ruff format --check $(FORMATTED)
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/companion bench ledger
	$(BIN)/companion bench engine
	$(BIN)/companion bench open

clean:
	rm -rf $(VENV) build *.egg-info
