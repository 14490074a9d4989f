"""The four tools: confined to the workspace, refusing with ERROR text, never raising."""
import os
import sys
import subprocess
from pathlib import Path

import pytest

from harness import tools
from harness.scenarios import TASK_DIR, copy_task
from harness.tools import TOOL, Workspace


@pytest.fixture
def ws(tmp_path):
    return Workspace(copy_task(tmp_path / "task"))


# --- the lesson task ---------------------------------------------------------------------------

def test_task_fails_as_shipped_and_passes_once_fixed(ws):
    assert "4 failed, 2 passed" in ws.run_command("pytest")
    assert ws.edit_file("invoicing/discounts.py", "quantity > BULK", "quantity >= BULK").startswith("Edited")
    assert ws.edit_file("invoicing/amounts.py", "quantize(CENT)",
                        "quantize(CENT, rounding=decimal.ROUND_HALF_UP)").startswith("Edited")
    assert "6 passed" in ws.run_command("pytest")


def test_copy_task_needs_an_empty_folder(tmp_path):
    (tmp_path / "x.txt").write_text("busy")
    with pytest.raises(ValueError, match="empty folder"):
        copy_task(tmp_path)


def test_the_package_copy_is_never_touched(ws):
    ws.edit_file("invoicing/discounts.py", "quantity > BULK", "quantity >= BULK")
    assert "quantity > BULK" in (TASK_DIR / "invoicing" / "discounts.py").read_text()


def test_project_test_run_never_collects_the_task_tests():
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:nbval"], cwd=root,
                         capture_output=True, text=True, timeout=120).stdout
    assert "test_discounts.py" not in out and "test_tools.py" in out


# --- confinement: every tool refuses paths leaving the workspace ----------------------------------

@pytest.mark.parametrize("path", ["../outside.txt", "/etc/passwd", "invoicing/../../x"])
def test_paths_leaving_the_workspace_are_refused(ws, path):
    for output in (ws.read_file(path), ws.list_files(path), ws.edit_file(path, "a", "b")):
        assert output.startswith("ERROR:")


def test_symlinks_pointing_out_are_refused(ws, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("key=123")
    os.symlink(secret, ws.root / "link.txt")
    assert ws.read_file("link.txt").startswith("ERROR:")
    assert ws.edit_file("link.txt", "key", "x").startswith("ERROR:")
    assert ws.run_command("cat link.txt").startswith("ERROR:")
    assert secret.read_text() == "key=123"


@pytest.mark.parametrize("command", ["cat /etc/passwd", "cat ../x", "grep -r key ~", "pytest --rootdir=/"])
def test_command_arguments_outside_the_workspace_are_refused(ws, command):
    assert ws.run_command(command).startswith("ERROR:")


# --- run_command: no shell, an allow-list, a timeout, a cap, a per-turn budget ---------------------

@pytest.mark.parametrize("command", ["ls | wc", "cat README.md > x", "ls; ls", "ls && ls", "echo `ls`", "cat $(ls)"])
def test_shell_syntax_is_refused(ws, command):
    out = ws.run_command(command)
    assert out.startswith("ERROR:") and "shell" in out
    assert not (ws.root / "x").exists()


@pytest.mark.parametrize("command", ["git diff", "python -c 1", "rm -rf .", "curl example.com"])
def test_programs_off_the_allow_list_are_refused(ws, command):
    assert ws.run_command(command).startswith(f"ERROR: {command.split()[0]} is not allowed")


def test_a_hanging_command_is_stopped(ws, monkeypatch):
    monkeypatch.setattr(tools, "COMMAND_TIMEOUT_SECONDS", 1)
    assert ws.run_command("tail -f README.md").startswith("ERROR: tail -f README.md timed out")


def test_output_is_capped(ws, monkeypatch):
    monkeypatch.setattr(tools, "OUTPUT_CAP_BYTES", 50)
    assert "[output cut at 50 bytes; the command was stopped]" in ws.run_command("cat README.md")


def test_at_most_twenty_commands_a_turn(ws):
    outputs = [ws.run_command("ls") for _ in range(21)]
    assert not outputs[19].startswith("ERROR:") and outputs[20].startswith("ERROR: 20 commands")
    ws.new_turn()
    assert not ws.run_command("ls").startswith("ERROR:")


def test_undecodable_bytes_become_replacement_characters(ws):
    (ws.root / "bin.txt").write_bytes(b"ok \xff\xfe end")
    assert "\ufffd" in ws.read_file("bin.txt") and "\ufffd" in ws.run_command("cat bin.txt")


# --- failures are ERROR text, never exceptions ------------------------------------------------------

def test_edit_failures_say_what_to_do(ws):
    assert "old text not found" in ws.edit_file("invoicing/amounts.py", "nope", "x")
    assert "appears" in ws.edit_file("invoicing/amounts.py", "decimal", "x")
    assert ws.edit_file("missing.py", "a", "b").startswith("ERROR: missing.py does not exist")


def test_bad_calls_from_the_model_return_errors(ws):
    assert ws.call("delete_file", {}).startswith("ERROR: no tool")
    assert ws.call("read_file", {"nope": 1}).startswith("ERROR: bad arguments")
    assert ws.call("run_command", {"command": ""}).startswith("ERROR:")
    assert ws.call("run_command", {"command": "cat 'unclosed"}).startswith("ERROR:")


def test_the_four_tools_are_declared():
    names = [d.name for d in TOOL.function_declarations]
    assert names == ["list_files", "read_file", "edit_file", "run_command"]
    edit = TOOL.function_declarations[2].parameters
    assert edit.required == ["path", "old", "new"]
