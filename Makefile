# The two commands a student needs: `make lab` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup lab test lessons bench test-browser test-hub

setup: $(STAMP)

# Re-install only when the dependency list changes.
$(STAMP): pyproject.toml jupyter/overrides.json jupyter/jupyter_server_config.py jupyter/ipython_kernel_config.py \
		jupyter/jupyter_server_config.d/context-engineering-workbook.json
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed: found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# [hub]: nbgitpuller, which the release tests run (pulling an update into a student's copy);
	# [test]: the openai SDK, which the OpenAI-compatible endpoint's tests drive.
	$(PY) -m pip install --quiet -e '.[hub,test]'
	# No news or update toasts in class: the room may have no network and they cover the notebook.
	# (pyproject.toml installs this file too, but an editable install skips data files.)
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp jupyter/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	# Terminals open in lessons/ with the venv's bin/ on the PATH, however the server is started.
	mkdir -p $(VENV)/etc/jupyter && cp jupyter/jupyter_server_config.py $(VENV)/etc/jupyter/
	# The workbook link runs `workbook update` after its pull (harness/workbook/link.py).
	mkdir -p $(VENV)/etc/jupyter/jupyter_server_config.d
	cp jupyter/jupyter_server_config.d/context-engineering-workbook.json $(VENV)/etc/jupyter/jupyter_server_config.d/
	# A lesson kernel's start-up speed-ups, so that `import harness` stays plain (harness/plumbing/startup.py).
	mkdir -p $(VENV)/etc/ipython && cp jupyter/ipython_kernel_config.py $(VENV)/etc/ipython/
	touch $(STAMP)

# JupyterLab refuses to run as root unless told: containers and some classroom images run as root.
# The venv's bin/ first on the PATH, so `workbook check 03` works in JupyterLab's terminals.
lab: setup
	PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/jupyter lab --notebook-dir=lessons $(if $(filter 0,$(shell id -u)),--allow-root)

test: setup
	$(PY) -m ruff check --quiet . && $(PY) -m ruff format --check --quiet .
	$(PY) -m pytest -n 2 --dist loadfile --nbval-lax --nbval-current-env -p no:randomly
	$(PY) -m pytest -p no:randomly --doctest-modules harness --ignore-glob='*/scenarios/*/task/*'

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

# A real JupyterHub on 127.0.0.1 with a few students (slow; not part of `make test`). JupyterHub and the
# idle culler go into the project's venv; configurable-http-proxy is installed from npm into build/hub/.
# The hub's default mode starts each student's server as the student's own OS account, so its hub runs from a
# venv every account can execute: made from HUB_PYTHON (Debian's), not from a Python under /root, and
# kept outside the clone with a copy of the workbook in it (not an editable install), so it works
# wherever the clone is, even in a folder other accounts cannot enter.
CHP := build/hub/node/node_modules/.bin/configurable-http-proxy
HUB_PYTHON ?= /usr/bin/python3
HUB_VENV ?= /var/tmp/workbook-hub-venv
test-hub: setup $(HUB_VENV)/.installed
	@$(PY) -c 'import jupyterhub, jupyterhub_idle_culler' 2>/dev/null || $(PY) -m pip install --quiet 'jupyterhub==5.4.6' jupyterhub-idle-culler
	@test -x $(CHP) || npm install --silent --prefix build/hub/node configurable-http-proxy
	# The hub test then runs INSTRUCTORS.md's install into this venv again, from a clone of the last commit.
	$(HUB_VENV)/bin/python -m pip install --quiet --no-deps --force-reinstall .
	WORKBOOK_HUB=1 WORKBOOK_CHP=$(abspath $(CHP)) WORKBOOK_HUB_PYTHON=$(HUB_VENV)/bin/python \
		$(PY) -m pytest tests/hub -p no:randomly -v -s

$(HUB_VENV)/.installed: pyproject.toml jupyter/overrides.json
	$(HUB_PYTHON) -m venv $(HUB_VENV) || (apt-get update && apt-get install -y python3-venv && $(HUB_PYTHON) -m venv $(HUB_VENV))
	$(HUB_VENV)/bin/python -m pip install --quiet '.[hub]' 'jupyterhub==5.4.6' jupyterhub-idle-culler
	touch $@
