"""harness.agent.reused_runs: offline and jailed, pytest on files already tested answers from the
earlier run; an edit, another command, a plain Workspace, Gemini or no jail runs it for real."""

import pytest

from harness import tools
from harness.agent import reused_runs
from harness.agent.reused_runs import ReusingWorkspace
from harness.scenarios import copy_task
from harness.tools import MAX_COMMANDS_PER_TURN, Workspace


@pytest.fixture
def runs(monkeypatch):
    """The programs really started, in order."""
    started, real = [], tools._run
    monkeypatch.setattr(tools, "_run", lambda *args: started.append(args[0]) or real(*args))
    monkeypatch.setattr(reused_runs, "_OUTPUTS", {})
    monkeypatch.setenv("WORKBOOK_OFFLINE", "1")
    if tools.jail_mode() is None:
        pytest.skip("no jail on this machine: every run is real, nothing to reuse")
    return started


def test_the_same_files_and_command_answer_from_the_earlier_run(tmp_path, runs):
    first, second = (ReusingWorkspace(copy_task(tmp_path / name)) for name in ("a", "b"))
    shown = first.run_command("pytest -q")
    assert "4 failed, 2 passed" in shown and len(runs) == 1
    assert second.run_command("pytest -q") == shown and len(runs) == 1, "must not run again"
    assert second.commands_this_turn == 1, "a reused run counts as a command of the turn"
    fix = "amount.quantize(CENT, rounding=decimal.ROUND_HALF_UP)"
    second.edit_file("invoicing/amounts.py", "amount.quantize(CENT)", fix)
    assert second.run_command("pytest -q") != shown and len(runs) == 2, "an edit must run again"
    first.run_command("pytest -q -k bulk")
    assert len(runs) == 3, "another command must run"
    Workspace(copy_task(tmp_path / "c")).run_command("pytest -q")
    assert len(runs) == 4, "a plain Workspace must run every time"


def test_on_gemini_or_without_a_jail_every_run_is_real(tmp_path, runs, monkeypatch):
    workspace = ReusingWorkspace(copy_task(tmp_path / "a"))
    workspace.run_command("pytest -q")
    monkeypatch.setattr(reused_runs, "is_offline", lambda: False)
    workspace.run_command("pytest -q")
    assert len(runs) == 2, "on Gemini every run is real"
    monkeypatch.undo()
    monkeypatch.setenv("WORKBOOK_OFFLINE", "1")
    monkeypatch.setattr(reused_runs, "jail_mode", lambda: None)
    assert reused_runs.ReusingWorkspace(workspace.root)._key("pytest -q") is None


def test_a_refused_command_is_refused_even_when_its_run_is_kept(tmp_path, runs):
    workspace = ReusingWorkspace(copy_task(tmp_path / "a"))
    shown = workspace.run_command("pytest -q")
    workspace.commands_this_turn = MAX_COMMANDS_PER_TURN
    assert workspace.run_command("pytest -q").startswith("ERROR:") and len(runs) == 1
    workspace.new_turn()
    assert workspace.run_command("pytest -q") == shown and len(runs) == 1


def test_the_digest_sees_names_contents_and_links(tmp_path):
    root = copy_task(tmp_path / "a")
    before = reused_runs.files_digest(root)
    assert reused_runs.files_digest(copy_task(tmp_path / "b")) == before, "a copy is the same"
    (root / "notes.txt").write_text("")
    assert reused_runs.files_digest(root) != before, "a new empty file is a change"
    (root / "notes.txt").unlink()
    (root / "link").symlink_to("invoicing")
    assert reused_runs.files_digest(root) != before, "a link is a change"
