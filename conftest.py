"""Test-wide settings, for the unit tests and the notebooks run by nbval alike."""

import os
import sys
import tempfile
from pathlib import Path

# Tests never reach Gemini, even on a machine with a key: the glass box answers.
os.environ["WORKBOOK_OFFLINE"] = "1"
# A check that does not pass raises in the tests (a student's lesson shows one line and goes on),
# so a solution notebook whose check fails fails under nbval.
os.environ["WORKBOOK_CHECKS_RAISE"] = "1"

# Kernels started by nbval read this IPython profile: plain tracebacks, no ANSI colours,
# so a failing cell reads cleanly in the terminal and in CI logs.
_ipython_dir = Path(tempfile.gettempdir()) / "workbook-ipython"
(_ipython_dir / "profile_default").mkdir(parents=True, exist_ok=True)
for name in ("ipython_config.py", "ipython_kernel_config.py"):
    (_ipython_dir / "profile_default" / name).write_text("c.InteractiveShell.colors = 'nocolor'\n")
os.environ["IPYTHONDIR"] = str(_ipython_dir)


def pytest_configure(config):
    # nbval colours its failure reports unless colour is "no", even when the output is a CI log
    # rather than a terminal: say "no" whenever pytest would not colour its own output either.
    if config.option.color == "auto" and not sys.stdout.isatty():
        config.option.color = "no"
