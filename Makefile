# Bootstrap a virtual environment from nothing, then run the demo or the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the official MicroPython WebAssembly port (npm), to run firmware files under real MicroPython
NODE_STAMP := firmware/node_modules/.installed

.PHONY: demo test lint bench transcripts clean install update uninstall lock wheelhouse

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/companion demo --delay 0.02

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/mypy --strict --follow-imports=silent companion/engine companion/errors companion/ledger companion/table companion/hw
# the reader's Pico files against the MicroPython rp2 stubs only (no CPython, no firmware/sim fakes)
	$(BIN)/python firmware/tools/pico_types.py

$(NODE_STAMP): firmware/package.json firmware/package-lock.json
	cd firmware && npm ci --silent
	touch $(NODE_STAMP)

test: lint $(NODE_STAMP)
	$(BIN)/python -m pytest -q

# the reference games of docs/transcripts/, made again after a change of words (then read them)
transcripts: $(STAMP)
	$(BIN)/companion script -v --lang ru docs/transcripts/elite-ru.game > docs/transcripts/elite-ru.txt
	$(BIN)/companion script -v --lang en docs/transcripts/monopoly-en.game > docs/transcripts/monopoly-en.txt

bench: $(STAMP)
	$(BIN)/companion bench ledger
	$(BIN)/companion bench engine
	$(BIN)/companion bench open
	$(BIN)/companion bench link
	$(BIN)/companion bench table
	$(BIN)/companion bench web
	$(BIN)/companion bench daemon
	$(BIN)/companion bench sim

# the box (a Raspberry Pi, 64-bit Raspberry Pi OS): `sudo make install`, then `git pull && sudo make update`
# (systemd/README.md); these need no venv here: systemd/install.sh builds the box's own
install:
	systemd/install.sh $(if $(WHEELHOUSE),--wheelhouse $(WHEELHOUSE))

update:
	systemd/install.sh --update $(if $(WHEELHOUSE),--wheelhouse $(WHEELHOUSE))

uninstall:
	systemd/install.sh --uninstall

# the box's pinned, hashed wheels (systemd/requirements-aarch64.txt) made again from pyproject.toml
lock: $(STAMP)
	$(BIN)/python systemd/lock.py

# the same wheels in a folder, for a box without internet: sudo make install WHEELHOUSE=... there
# (PY=3.13 for Trixie)
PY ?= 3.11
wheelhouse: $(STAMP)
	$(BIN)/python systemd/lock.py --wheelhouse wheelhouse --python $(PY)

clean:
	rm -rf $(VENV) build *.egg-info
