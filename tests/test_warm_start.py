"""harness.plumbing.warm_start: a command, or pytest, forked from a warm helper shows what a new
interpreter shows, confined alike."""

import re
import subprocess

import pytest

from harness import tools
from harness.plumbing.warm_start import WarmStart
from harness.scenarios import copy_task
from harness.tools import Workspace

FAKE_KEY = "AIza" + "FAKE-secret-key-0123456789abcdefghijk"


@pytest.fixture
def ws(tmp_path):
    return Workspace(copy_task(tmp_path / "task"))


def _fresh(ws, command):
    """The command run in a new interpreter: with the helper busy, run_command starts one."""
    with tools._warm_lock:
        return ws.run_command(command)


def _untimed(output):
    return re.sub(r"in \d+\.\d+s", "in N s", output)


@pytest.mark.parametrize(
    "command",
    [
        "pytest",
        "pytest -q -k bulk",
        "pytest --co -q",
        "pytest nosuchfile",
        "grep -rn def .",
        "ls -R",
        "cat nosuchfile",
        "wc -l tests/test_amounts.py",
        "grep -rc no-such-word tests",
    ],
)
def test_a_warm_run_shows_what_a_new_interpreter_shows(ws, command):
    warm = ws.run_command(command)
    assert tools._warm["helper"] is not None and tools._warm["helper"].alive(), (
        "the command did not go through the helper"
    )
    assert _untimed(warm) == _untimed(_fresh(ws, command)), "the model would see a different output"


def test_a_program_that_cannot_run_is_reported_as_the_jails_launcher_reports_it(tmp_path):
    mode = tools.jail_mode()
    if mode is None:
        pytest.skip("this machine cannot jail a command")
    env, confined = tools._command_env(str(tmp_path)), tools._jail(mode, tmp_path)
    helper = WarmStart(env, str(tmp_path))
    try:
        run = helper.start(["no-such-program-here"], tmp_path, env, confined)
        output, code = run.stdout.read(), run.wait()
    finally:
        helper.close()
    launched = subprocess.run(
        [*tools._jail_words(confined), "no-such-program-here"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    assert code == launched.returncode == 127
    assert (
        output
        == launched.stdout
        == (b"confine: cannot run no-such-program-here: No such file or directory\n")
    )


def test_a_hanging_test_is_stopped_and_the_helper_serves_the_next_run(ws, monkeypatch):
    ws.run_command("pytest -q")  # the helper is up
    helper = tools._warm["helper"]
    (ws.root / "tests" / "test_hang.py").write_text(
        "import time\ndef test_hang():\n    time.sleep(600)\n"
    )
    # Only the hanging run gets the short time-out: a loaded machine must not time out the others.
    default = tools.COMMAND_TIMEOUT_SECONDS
    monkeypatch.setattr(tools, "COMMAND_TIMEOUT_SECONDS", 1)
    assert ws.run_command("pytest -q tests/test_hang.py").startswith(
        "ERROR: pytest -q tests/test_hang.py timed out"
    )
    monkeypatch.setattr(tools, "COMMAND_TIMEOUT_SECONDS", default)
    assert tools._warm["helper"] is helper and helper.alive(), (
        "a killed run must not take the helper with it"
    )
    assert "4 failed, 2 passed" in ws.run_command("pytest -q --ignore=tests/test_hang.py")


def test_the_helper_starts_with_no_key_in_its_environment(ws, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", FAKE_KEY)
    monkeypatch.setitem(tools._warm, "helper", None)  # a new helper, started while the key is set
    ws.run_command("pytest -q")
    environ = open(f"/proc/{tools._warm['helper'].process.pid}/environ", "rb").read()
    assert FAKE_KEY.encode() not in environ and b"GEMINI_API_KEY" not in environ


def test_a_run_changes_nothing_the_next_one_sees(ws):
    (ws.root / "tests" / "test_leak.py").write_text(
        "import os, sys\n"
        "def test_leak():\n"
        "    assert 'LEAKED' not in os.environ and 'leaky' not in sys.modules\n"
        "    os.environ['LEAKED'] = '1'\n"
        "    sys.modules['leaky'] = sys\n"
    )
    assert "1 passed" in ws.run_command("pytest -q tests/test_leak.py")
    assert "1 passed" in ws.run_command("pytest -q tests/test_leak.py"), (
        "the second run saw the first one's changes"
    )


def test_a_helper_that_cannot_start_leaves_the_tests_to_a_new_interpreter(ws, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("no helper today")

    monkeypatch.setitem(tools._warm, "helper", None)
    monkeypatch.setattr(tools, "WarmStart", broken)
    assert "4 failed, 2 passed" in ws.run_command("pytest -q")
    assert tools._warm["helper"] is None and not tools._warm_lock.locked()


def test_a_run_starts_with_the_helpers_imports_frozen_and_the_collector_on(ws):
    """pytest ends each run with a full collection: the helper freezes what it imported, so that
    collection leaves out pytest's own objects. A run still collects what it makes itself."""
    (ws.root / "tests" / "test_gc.py").write_text(
        "import gc, weakref\n"
        "def test_gc():\n"
        "    assert gc.isenabled() and gc.get_freeze_count() > 1000\n"
        "    class Node: pass\n"
        "    node = Node(); node.me = node; gone = weakref.ref(node); del node\n"
        "    gc.collect()\n"
        "    assert gone() is None\n"
    )
    assert "1 passed" in ws.run_command("pytest -q tests/test_gc.py")


def test_a_run_starts_with_inspects_table_of_the_helpers_modules(ws, monkeypatch):
    """A run that reports a failure walks every module in sys.modules unless inspect already knows
    its file: the helper fills that table before forking, even though the folder it started in is
    gone by then."""
    (ws.root / "tests" / "test_table.py").write_text(
        "import inspect, sys\n"
        "def test_table():\n"
        "    assert inspect._filesbymodname.get('_pytest.config') == sys.modules['_pytest.config'].__file__\n"
    )
    monkeypatch.setitem(tools._warm, "helper", None)  # a new helper, in a folder removed at start
    assert "1 passed" in ws.run_command("pytest -q tests/test_table.py")
