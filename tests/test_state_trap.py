"""Lesson 06's stale-summary trap, from an ordinary agent run: a summary budget that cuts the record
of an edit springs it without the harness-held state block, and the block prevents it.

Every assertion reads the run report (turns, tools, results, compactions, finish reasons), never
printed text. The configuration is the one lesson 06 names; a test below holds the lesson to it.
"""

from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from harness.agent import AgentConfig, run_agent
from harness.compaction import summarizer_for
from harness.formats import STALE_EDIT
from harness.scenarios import TASKS

# The lesson's configuration: the first compaction falls on the test run right after the first fix
# (3,794 > 0.7 x 5,350 = 3,745 >= 3,703, the prompt before it), one turn is kept, and the summary
# may spend 600 tokens, thoughts included. The ~40-token margins absorb pytest's header, which names
# the task's folder and the Python executable: a student's paths are longer than the test machine's.
TRAP = dict(context_budget=5350, keep_recent_turns=1, summary_max_tokens=600)
LESSON = Path(__file__).resolve().parents[1] / "solutions" / "06_state_and_resume.ipynb"


# The trap's configuration is sized for a task of two bugs, where the first compaction falls right
# after the first fix; lesson 10's four-package task (four bugs) compacts at other points and is not
# one.
TWO_BUG_TASKS = sorted(name for name, task in TASKS.items() if task.bugs == 2)


@pytest.fixture(scope="module", params=TWO_BUG_TASKS)
def runs(request):
    """The trap run and its twin with the state block, on each two-bug task (the lesson uses
    invoicing; the same configuration springs it on the other task too, so nothing here is tuned to
    one task).
    """
    return {
        state: run_agent(AgentConfig(**TRAP, task=request.param, harness_state=state))
        for state in (False, True)
    }


def folded_edits(report) -> set:
    """Files edited in the turns the first compaction folded into its summary."""
    return {path for t in report.turns[: first_compaction(report).turn] for path in t.edited}


def stale_edits(report) -> list:
    """The turns whose edit_file met "old text not found": an edit applied a second time."""
    return [t for t in report.turns if t.tool == "edit_file" and STALE_EDIT in t.result]


def first_compaction(report):
    turn = report.compactions[0][0]
    return report.turns[turn - 1]


def test_without_the_state_block_the_agent_re_applies_an_edit_the_cut_summary_lost(runs):
    trap = runs[False]
    compaction = first_compaction(trap)
    assert compaction.summary_finish == "MAX_TOKENS", "the summary must be cut at its budget"
    usage = compaction.summary_usage
    assert usage.candidates_token_count + usage.thoughts_token_count <= TRAP["summary_max_tokens"]
    stale = stale_edits(trap)
    assert stale, f"no edit met {STALE_EDIT!r}: the trap did not spring\n{trap.table()}"
    assert stale[0].turn > compaction.turn and stale[0].args["path"] in folded_edits(trap), (
        "the stale edit must redo a file whose edit the compaction folded"
    )
    assert trap.status == "finished" and "failed" not in trap.last_verdict


def test_the_trap_run_ends_reporting_fewer_files_than_it_changed(runs):
    trap = runs[False]
    answer = trap.turns[-1].result
    assert not trap.turns[-1].tool and answer.startswith("Done") and len(trap.edited) == 2
    forgotten = [path for path in trap.edited if path not in answer]
    assert forgotten and set(forgotten) <= folded_edits(trap), (
        "the final answer should forget exactly the edit the cut summary lost"
    )


def test_with_the_state_block_the_same_run_edits_each_file_once(runs):
    trap, fixed = runs[False], runs[True]
    assert first_compaction(fixed).summary_finish == "MAX_TOKENS", (
        "same cut summary, same everything else"
    )
    assert first_compaction(fixed).turn == first_compaction(trap).turn
    assert not stale_edits(fixed), fixed.table()
    assert fixed.status == "finished" and "failed" not in fixed.last_verdict
    assert [t.args["path"] for t in fixed.turns if t.tool == "edit_file"] == fixed.edited
    assert len(fixed.turns) < len(trap.turns) and fixed.input_tokens < trap.input_tokens
    assert all(path in fixed.turns[-1].result for path in fixed.edited)


def test_the_trap_springs_wherever_the_task_is_copied(tmp_path):
    deep = tmp_path.joinpath(*[f"folder{i}" for i in range(24)], "task")  # a long home or temp path
    report = run_agent(AgentConfig(**TRAP, harness_state=False), workdir=deep)
    assert stale_edits(report) and first_compaction(report).summary_finish == "MAX_TOKENS", (
        report.table()
    )


def test_without_the_summary_budget_the_same_run_does_not_spring_the_trap():
    report = run_agent(AgentConfig(**{**TRAP, "summary_max_tokens": None}, harness_state=False))
    assert report.compactions and first_compaction(report).summary_finish == "STOP"
    assert not stale_edits(report), report.table()


def test_the_lesson_names_this_configuration():
    source = "\n".join(
        cell.source
        for cell in nbformat.read(LESSON, as_version=4).cells
        if cell.cell_type == "code"
    )
    named = ", ".join(f"{key}={value}" for key, value in TRAP.items())
    assert f"AgentConfig({named}, harness_state=False)" in source


def test_a_summary_cut_at_its_budget_is_the_start_of_the_whole_summary():
    from harness import connect

    transcript = (
        'model called read_file({"path": "a.py"})\ntool read_file returned: x = 1 if n > 2 else 0'
    )
    free = summarizer_for(connect())
    whole, usage = free(transcript), free.usages[-1]
    # Thoughts are spent from the budget first: half the answer's tokens on top of them leave half
    # an answer.
    budget = usage.thoughts_token_count + usage.candidates_token_count // 2
    capped = summarizer_for(connect(), max_output_tokens=budget)
    cut = capped(transcript)
    assert free.finish_reasons == ["STOP"] and capped.finish_reasons == ["MAX_TOKENS"]
    assert cut and whole.startswith(cut) and len(cut) < len(whole)
    assert (
        capped.usages[-1].candidates_token_count + capped.usages[-1].thoughts_token_count <= budget
    )


# Shaped as a client, never called: the budget is refused before any call.
A_CLIENT = SimpleNamespace(models=SimpleNamespace(generate_content=print))


@pytest.mark.parametrize(
    "bad, error",
    [(0, ValueError), (-3, ValueError), (2.5, TypeError), ("600", TypeError), (True, TypeError)],
)
def test_a_bad_summary_budget_is_refused_naming_the_knob(bad, error):
    with pytest.raises(error, match="summary_max_tokens"):
        AgentConfig(summary_max_tokens=bad)
    with pytest.raises((ValueError, TypeError), match="max_output_tokens"):
        summarizer_for(A_CLIENT, max_output_tokens=bad)
