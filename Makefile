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

lint: $(STAMP)
	$(BIN)/ruff check companion tests
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/companion bench ledger
	$(BIN)/companion bench engine
	$(BIN)/companion bench open

clean:
	rm -rf $(VENV) build *.egg-info
