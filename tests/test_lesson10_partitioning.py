"""Lesson 10's harness: the repairs task, the split and the merge refusing bad input, the
coordinator, and the panel drawing from the functions it is given."""

import pytest

from harness.coordinator import (
    PACKAGES,
    coordinate,
    estimate_context,
    plan,
    run_single,
    run_subagent,
    sweep,
)
from harness.partitioning import MergeRefused, SubResult, merge_results, split_task
from harness.scenarios import TASKS, copy_task
from harness.scenarios.repairs import subtask
from harness.tools import Workspace
from harness.widgets.lesson10 import partition_panel


def test_a_sub_task_holds_its_packages_its_tests_and_its_readme_sections_only(tmp_path):
    name = subtask(["thermo", "stock"])
    root = copy_task(tmp_path, name)
    assert sorted(p.name for p in root.iterdir()) == [
        "README.md",
        "conftest.py",
        "pytest.ini",
        "stock",
        "tests",
        "thermo",
    ]
    readme = (root / "README.md").read_text()
    assert "## thermo" in readme and "## stock" in readme and "## grades" not in readme
    # their 5 tests only: 1 + 2 red
    assert "3 failed, 2 passed" in Workspace(root).run_command("pytest")
    assert (
        TASKS[name].bugs == 2
        and "thermo/convert.py" in TASKS[name].prompt
        and "grades" not in TASKS[name].prompt
    )


@pytest.mark.parametrize("packages", [[], ["slugs"], ["stock", "stock"], "stock"])
def test_a_sub_task_of_unknown_or_repeated_packages_is_refused(packages):
    with pytest.raises((ValueError, TypeError), match="package|list"):
        subtask(packages)


@pytest.mark.parametrize(
    "args, words",
    [
        (("stock", 1000), "list"),
        ([("a", -1)], "at least 0"),
        ([("a",)], "pair"),
        ([("a", 1)], "window"),
    ],
)
def test_split_refuses_bad_input_saying_what_to_do(args, words):
    args = args if isinstance(args, tuple) and len(args) == 2 else (args, 0)
    with pytest.raises((ValueError, TypeError), match=words):
        split_task(*args)


def test_split_refuses_a_share_outside_0_1():
    with pytest.raises(ValueError, match=r"share must be in \(0, 1\]"):
        split_task([("a", 1)], 1000, 1.5)


def test_merge_refuses_something_that_is_not_a_sub_result():
    with pytest.raises(TypeError, match="SubResult"):
        merge_results([{"finished": True}], [["a"]])


def test_a_refusal_merges_nothing_and_leaves_the_results_unchanged():
    results = [SubResult(("a",), True, {"x.py": "1"}), SubResult(("b",), True, {"x.py": "2"})]
    with pytest.raises(MergeRefused, match="x.py"):
        merge_results(results, [["a"], ["b"]])
    assert results[0].edits == {"x.py": "1"} and results[1].edits == {"x.py": "2"}


def test_one_agent_on_one_sub_task_is_that_sub_tasks_sub_agent():
    assert (
        run_subagent(["stock"]).tokens
        == run_single(["stock"]).input_tokens + run_single(["stock"]).output_tokens
    )


def test_the_coordinator_merges_and_the_whole_task_passes():
    done = coordinate([["stock", "grades"], ["greetings"]])
    assert done.merged and set(done.merged) == {
        "stock/levels.py",
        "grades/marks.py",
        "greetings/names.py",
    }
    assert done.passed and done.overhead_tokens > 0
    assert done.total_tokens == sum(r.tokens for r in done.results) + done.overhead_tokens


def test_the_coordinator_reports_a_refusal_from_the_merge_it_is_given():
    def refuse_all(results, partitions):
        raise MergeRefused("no merge today")

    done = coordinate([["stock"]], merge=refuse_all)
    assert done.refused == "no merge today" and done.merged is None and not done.passed


def test_the_estimate_grows_with_every_sub_task():
    estimates = [estimate_context(PACKAGES[:n]) for n in range(1, len(PACKAGES) + 1)]
    assert estimates == sorted(estimates) and len(set(estimates)) == len(estimates)


def test_the_panel_opens_drawn_and_redraws_from_the_functions_it_is_given():
    calls = []

    def counted_split(subtasks, window, share=0.6):
        calls.append(share)
        return split_task(subtasks, window, share)

    panel = partition_panel(counted_split, merge_results)
    (share, turns), status, chart = panel.children[0].children, panel.children[1], panel.children[2]
    assert calls and all(s == 0.2 for s in calls) and "pays from <b>2</b>" in status.value
    before = [list(t.y) for t in chart.figure.data]
    share.value = 0.7
    assert calls[-1] == 0.7 and [list(t.y) for t in chart.figure.data] != before
    turns.value = "too few (4)"
    assert "never pays" in status.value and len(chart.figure.data[2].x) == len(PACKAGES)


def test_the_sweep_refuses_an_impossible_size():
    with pytest.raises(ValueError):
        sweep(max_subtasks=len(PACKAGES) + 1)


def test_plan_uses_the_split_it_is_given():
    assert plan(
        PACKAGES, split=lambda subtasks, window, share: [[name] for name, _ in subtasks]
    ) == [[p] for p in PACKAGES]
