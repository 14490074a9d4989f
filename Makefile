# The two commands a student needs: `make lab` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup lab test lessons bench test-browser

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

# JupyterLab refuses to run as root unless told: containers and some classroom images run as root.
lab: setup
	$(VENV)/bin/jupyter lab --notebook-dir=lessons $(if $(filter 0,$(shell id -u)),--allow-root)

test: setup
	$(PY) -m pytest -n 2 --dist loadfile --nbval-lax --nbval-current-env -p no:randomly

lessons: setup
	$(PY) -m harness build

bench: setup
	$(PY) benchmarks/bench.py

# Every lesson in a real browser (a few minutes; not part of `make test`). Uses Debian's chromium, never a
# downloaded browser: Playwright only drives it.
test-browser: setup
	@test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)
	@$(PY) -c 'import playwright' 2>/dev/null || $(PY) -m pip install --quiet playwright
	WORKBOOK_BROWSER=1 $(PY) -m pytest tests/browser -p no:randomly -v
