# The two commands a student needs: `make lab` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup lab test lessons bench

setup: $(STAMP)

# Re-install only when the dependency list changes.
$(STAMP): pyproject.toml jupyter/overrides.json
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed: found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	# No news or update toasts in class: the room may have no network and they cover the notebook.
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp jupyter/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	touch $(STAMP)

lab: setup
	$(VENV)/bin/jupyter lab --notebook-dir=lessons

test: setup
	$(PY) -m pytest -n 2 --dist loadfile --nbval-lax --nbval-current-env -p no:randomly

lessons: setup
	$(PY) -m harness build

bench: setup
	$(PY) benchmarks/bench.py
