"""`python -m harness demo`: the per-turn table and a status line; bad arguments explained."""

import os
import subprocess
import sys

from harness.agent.demo import main


def test_the_demo_prints_the_table_and_a_status_line(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "turn  prompt  cached  output  tool" in out
    assert "finished · " in out and "last tests: 6 passed" in out


def test_a_small_budget_shows_compaction(capsys):
    assert main(["--budget", "5000", "--keep", "3"]) == 0
    assert "[compaction: " in capsys.readouterr().out


def test_bad_arguments_get_a_clear_message(capsys):
    assert main(["--budget", "zero"]) == 2
    assert "expected a whole number of at least 1, got 'zero'" in capsys.readouterr().err
    assert main(["--keep", "0"]) == 2
    assert main(["--nope"]) == 2


def test_the_command_line_dispatches_to_the_demo():
    out = subprocess.run(
        [sys.executable, "-m", "harness", "demo", "--max-chars", "2000"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and "finished · " in out.stdout


def test_an_unknown_model_fails_at_once_with_one_clear_message():
    out = subprocess.run(
        [sys.executable, "-m", "harness", "demo"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "WORKBOOK_MODEL": "gemini-2.0-flash"},
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr and out.stdout == ""
    assert "The workbook knows no model 'gemini-2.0-flash'" in out.stderr


def test_the_demo_runs_the_second_task(capsys):
    assert main(["--task", "shipping"]) == 0
    out = capsys.readouterr().out
    assert "read_file(shipping/" in out and "last tests: 6 passed" in out
