"""Checkpoints: a run killed with SIGKILL resumes with no turn lost or repeated; no secret is written."""
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from harness.agent import AgentConfig, run_agent
from harness.agent.checkpoint import load_checkpoint

RUNNER = textwrap.dedent("""
    import sys, time
    from harness.agent import AgentConfig, run_agent
    def slow(record):
        print("turn", record.turn, flush=True)
        time.sleep(0.5)   # room for the parent to kill us between turns
    run_agent(AgentConfig(), checkpoint=sys.argv[1], on_turn=slow)
""")


def kill_after(path, turns):
    """Start a run in a subprocess, SIGKILL it once `turns` turns are reported, return what it printed."""
    # A fake key shaped like a real one, built here so no key-shaped string sits in the repository.
    env = {**os.environ, "WORKBOOK_OFFLINE": "1", "GEMINI_API_KEY": "AIza" + "FAKE-secret-key-0123456789abcdefghijk"}
    proc = subprocess.Popen([sys.executable, "-c", RUNNER, str(path)], stdout=subprocess.PIPE, text=True, env=env)
    seen = []
    for line in proc.stdout:
        seen.append(int(line.split()[1]))
        if len(seen) == turns:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait()
    return seen


def turn_numbers(path):
    return [json.loads(line)["turn"] for line in path.read_text().splitlines()[1:]]


def test_a_killed_run_resumes_with_no_turn_lost_or_repeated(tmp_path):
    path = tmp_path / "run.jsonl"
    seen = kill_after(path, 4)
    assert seen == [1, 2, 3, 4] and turn_numbers(path)[:4] == [1, 2, 3, 4]
    report = run_agent(AgentConfig(), checkpoint=path)
    numbers = turn_numbers(path)
    assert numbers == list(range(1, len(numbers) + 1))
    assert [t.turn for t in report.turns] == numbers
    assert report.status == "finished" and report.last_verdict.startswith("6 passed")


def test_no_key_or_secret_is_ever_written(tmp_path):
    path = tmp_path / "run.jsonl"
    kill_after(path, 3)
    text = path.read_text()
    assert "AIza" not in text and "secret" not in text.lower() and "api_key" not in text.lower()


def test_a_torn_last_line_is_skipped_with_a_warning(tmp_path):
    path = tmp_path / "run.jsonl"
    run_agent(AgentConfig(max_turns=3), checkpoint=path)
    with open(path, "a") as file:
        file.write('{"kind": "turn", "turn": 4, "conte')
    with pytest.warns(UserWarning, match="incomplete"):
        resumed = load_checkpoint(path)
    assert [r.turn for r in resumed.records] == [1, 2, 3]


def test_a_resumed_run_replays_its_edits_into_a_fresh_workspace(tmp_path):
    path = tmp_path / "run.jsonl"
    run_agent(AgentConfig(max_turns=9), checkpoint=path)
    assert load_checkpoint(path).edits  # turn 8 edited a file
    report = run_agent(AgentConfig(), checkpoint=path, workdir=tmp_path / "fresh")
    assert report.status == "finished" and not any(t.result.startswith("ERROR") for t in report.turns)
    assert "ROUND_HALF_UP" in (tmp_path / "fresh" / "invoicing" / "amounts.py").read_text()


def test_a_compacted_history_is_restored_from_the_checkpoint(tmp_path):
    path = tmp_path / "run.jsonl"
    report = run_agent(AgentConfig(context_budget=5000), checkpoint=path)
    resumed = load_checkpoint(path)
    assert report.compactions and [c.model_dump() for c in resumed.history] == [c.model_dump() for c in report.history]
