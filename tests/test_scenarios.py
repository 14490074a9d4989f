"""Every coding task follows the same rules on the same engine; the instructors' recipe works as
written."""

import re
import sys
import tempfile
from pathlib import Path

import pytest
from google.genai import types

from harness import MODEL, connect
from harness.agent import SYSTEM_PROMPT, AgentConfig, run_agent
from harness.compaction import harness_state
from harness.engine import scenario
from harness.formats import STALE_EDIT, verdict_line
from harness.scenarios import TASKS, copy_task
from harness.tools import TOOL, Workspace
from harness.truncation import truncate_output

CODING_TASKS = sorted(TASKS)
RECIPE = Path(__file__).parent.parent / "INSTRUCTORS.md"


def test_there_are_two_coding_tasks_with_their_own_files():
    assert {"invoicing", "shipping"} <= set(TASKS)
    names = {
        name: {p.name for p in TASKS[name].folder.rglob("*.py")}
        for name in ("invoicing", "shipping")
    }
    assert not (names["invoicing"] - {"__init__.py", "conftest.py"}) & names["shipping"]


@pytest.mark.parametrize("name", CODING_TASKS)
def test_the_task_ships_failing(name, tmp_path):
    verdict = verdict_line(Workspace(copy_task(tmp_path, name)).run_command("pytest"))
    assert verdict and "failed" in verdict, (
        f"{name}: the untouched task should fail its tests, got {verdict!r}"
    )


@pytest.mark.parametrize("name", CODING_TASKS)
def test_the_agent_fixes_the_task(name):
    report = run_agent(AgentConfig(task=name))
    assert report.status == "finished", report.table()
    assert "passed" in report.last_verdict and "failed" not in report.last_verdict
    assert (
        len(report.edited) == TASKS[name].bugs and "Done: the tests pass" in report.turns[-1].result
    )


@pytest.mark.parametrize("name", CODING_TASKS)
def test_with_a_small_budget_it_compacts_and_still_fixes_the_task(name):
    report = run_agent(AgentConfig(task=name, context_budget=5000, keep_recent_turns=3))
    assert report.compactions and report.status == "finished", report.table()
    assert "failed" not in report.last_verdict


@pytest.mark.parametrize("name", CODING_TASKS)
def test_head_only_truncation_makes_it_re_run_blind(name):
    report = run_agent(AgentConfig(task=name, truncation_mode="head_only"))
    runs = [t for t in report.turns if t.tool == "run_command"]
    assert len(runs) >= 3 and report.edited == []
    assert "could not read a verdict" in report.turns[-1].result


def _continue_trimmed(history, workspace, edited, verdict, with_state, steps=6):
    """A hand-made trim (lesson 06 now springs the trap with a summary budget instead): go on from
    `history` showing the head and the newest turn only."""
    client, request = (
        connect(),
        types.GenerateContentConfig(system_instruction=SYSTEM_PROMPT, tools=[TOOL]),
    )
    outputs = []
    for _ in range(steps):
        head = history[0]
        if with_state:
            head = types.Content(
                role="user",
                parts=[*head.parts[:2], types.Part.from_text(text=harness_state(edited, verdict))],
            )
        view = [head, *history[-2:]] if len(history) > 2 else history
        content = (
            client.models.generate_content(model=MODEL, contents=view, config=request)
            .candidates[0]
            .content
        )
        call = next((p.function_call for p in content.parts if p.function_call), None)
        if call is None:
            break
        output = workspace.call(call.name, dict(call.args))
        if call.name == "edit_file" and not output.startswith("ERROR:"):
            edited = edited | {call.args["path"]}
        verdict = verdict_line(output) or verdict
        outputs.append(output)
        reply = types.Part.from_function_response(
            name=call.name, response={"output": truncate_output(output)}
        )
        history = history + [content, types.Content(role="user", parts=[reply])]
    return outputs


@pytest.mark.parametrize("name", CODING_TASKS)
def test_a_stale_summary_re_applies_an_edit_and_the_state_block_prevents_it(name, tmp_path):
    settings = dict(task=name, context_budget=5000, keep_recent_turns=3, harness_state=False)
    first = run_agent(AgentConfig(**settings)).compactions[0][0]
    stopped = run_agent(AgentConfig(**settings, max_turns=first), workdir=tmp_path / "run")
    assert stopped.edited, f"{name}: the first compaction should come after an edit"
    runs = {}
    for with_state in (False, True):
        twin = copy_task(tmp_path / f"twin-{with_state}", name)
        for path in stopped.edited:  # the twin holds the edits the run made
            (twin / path).write_text((tmp_path / "run" / path).read_text())
        runs[with_state] = _continue_trimmed(
            stopped.history, Workspace(twin), set(stopped.edited), stopped.last_verdict, with_state
        )
    assert any(STALE_EDIT in out for out in runs[False]), (
        f"{name}: summary only should re-apply an edit"
    )
    assert not any(STALE_EDIT in out for out in runs[True]), (
        f"{name}: the state block should prevent it"
    )


# --- the recipe of INSTRUCTORS.md, followed step by step
# ---------------------------------------------


def recipe_files() -> dict[str, str]:
    """path -> text of each fenced block of the recipe whose info string names a file."""
    section = RECIPE.read_text(encoding="utf-8").split("## Adding your own task", 1)[1]
    blocks = re.findall(r"^( *)```\w+ (\S+)\n(.*?)^\1```", section, re.M | re.S)
    return {
        path: "".join(line[len(indent) :] + "\n" for line in body.splitlines())
        for indent, path, body in blocks
    }


@pytest.fixture
def badges(monkeypatch):
    """The recipe's task, built in a temporary package folder, registered, then removed."""
    root = Path(tempfile.mkdtemp()) / "badges"
    for path, text in recipe_files().items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    (root / "task" / "conftest.py").write_text("")
    monkeypatch.syspath_prepend(str(root.parent))
    monkeypatch.delitem(sys.modules, "badges", raising=False)
    __import__("badges")
    yield root
    sys.modules.pop("badges", None)
    TASKS.pop("badges")
    scenario.unregister("badges")


def test_the_recipe_names_every_file_it_needs():
    assert {"task/README.md", "task/pytest.ini", "__init__.py"} <= set(recipe_files())


def test_the_recipe_builds_a_task_the_engine_fixes_unchanged(badges):
    report = run_agent(AgentConfig(task="badges"))
    assert report.status == "finished" and report.last_verdict.startswith("1 passed"), (
        report.table()
    )
    assert report.edited == ["badges/printing.py"]
