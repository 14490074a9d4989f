"""Each claim lesson 10's text makes about its own outputs, checked against those outputs.

The lesson's cells call the harness (harness.coordinator) on the glass box, which is deterministic:
each test recomputes what a sentence says from the same calls, so text and numbers cannot drift.
"""

from dataclasses import replace

import pytest
from test_lesson_claims import claim

from harness import MODEL
from harness.coordinator import (
    CONFIG,
    PACKAGES,
    WINDOW,
    coordinate,
    crossing,
    estimate_context,
    plan,
    run_single,
    sweep,
)
from harness.models import model_row
from harness.partitioning import PLAN_SHARE, merge_results, split_task
from harness.truncation import TOOL_OUTPUT_MAX_CHARS
from harness.widgets.lesson10 import SUBAGENT_TURNS, rows_for


@pytest.fixture(scope="module")
def rows():
    return sweep()


def test_the_scaled_window_stands_for_the_real_one():
    claim("10", "`WINDOW` = 8,000 tokens stands for a real model's 1,048,576")
    claim("10", "capped at 4,000 characters, as the agent sees it")
    assert (
        WINDOW == 8_000
        and model_row(MODEL).input_token_limit == 1_048_576
        and TOOL_OUTPUT_MAX_CHARS == 4_000
    )


def test_the_plan_keeps_one_agent_up_to_three_sub_tasks():
    claim(
        "10", "The plan keeps one agent up to three sub-tasks and partitions the four-package task."
    )
    assert [len(plan(PACKAGES[:n])) for n in range(1, 5)] == [1, 1, 1, 2]


def test_the_estimate_follows_the_peak_prompt():
    claim("10", "The estimate follows the peak prompt closely: within 8% on each row here.")
    for n in range(1, len(PACKAGES) + 1):
        peak = max(turn.prompt_tokens for turn in run_single(PACKAGES[:n]).turns)
        assert abs(estimate_context(PACKAGES[:n]) / peak - 1) <= 0.08, n


def test_the_single_agent_compacts_past_5600():
    claim("10", "it compacts when a prompt passes 0.7 x 8,000 = 5,600 tokens")
    single = run_single(PACKAGES)
    assert (
        CONFIG.compact_threshold == 5_600
        and single.compactions
        and "failed" not in single.last_verdict
    )


def test_one_sub_task_costs_more_partitioned(rows):
    claim("10", "With one sub-task, partitioning costs more than one agent")
    assert rows[0]["partitioned"] > rows[0]["single"]


def test_from_two_sub_tasks_partitioning_saves_more_and_more(rows):
    claim(
        "10",
        "From 2 sub-tasks on, partitioning costs fewer tokens, and the saving grows with every"
        " sub-task",
    )
    savings = [1 - row["partitioned"] / row["single"] for row in rows[1:]]
    assert (
        all(s > 0 for s in savings)
        and savings == sorted(savings)
        and len(set(savings)) == len(savings)
    )


def test_one_agent_grows_faster_than_the_sub_tasks_the_coordinator_in_proportion(rows):
    claim(
        "10",
        "one agent's tokens grow faster than the number of sub-tasks, the coordinator's total grows"
        " about in proportion to it",
    )
    per_single = [row["single"] / row["subtasks"] for row in rows]
    per_partitioned = [row["partitioned"] / row["subtasks"] for row in rows]
    assert per_single == sorted(per_single) and per_single[-1] > 1.5 * per_single[0]
    mean = sum(per_partitioned) / len(per_partitioned)
    assert all(abs(x / mean - 1) < 0.15 for x in per_partitioned)


def test_the_coordinators_call_is_a_few_hundred_tokens(rows):
    claim("10", "The coordinator's own call is a few hundred tokens, at most 3% of the total.")
    assert all(
        100 <= row["overhead"] < 1_000 and row["overhead"] <= 0.03 * row["partitioned"]
        for row in rows
    )


def test_the_crossing_is_at_two_and_sixty_percent_is_passed_at_four(rows):
    claim("10", 'The glass box crosses one sub-task earlier than the guide\'s "usually 3 or more".')
    claim(
        "10",
        'not "where is it cheaper" but "when does one context stop being able to hold the work",'
        " here at 4 sub-tasks",
    )
    assert crossing(rows) == 2
    assert next(row["subtasks"] for row in rows if row["estimate"] > PLAN_SHARE * WINDOW) == 4
    assert all(row["single_passed"] and row["partitioned_passed"] for row in rows)


def test_sub_agents_with_four_turns_do_not_finish_and_the_merge_refuses():
    claim(
        "10",
        "Give the sub-agents four turns only: each reads, runs the tests, edits, and is stopped"
        " before it can run them again. Its result says `finished=False`",
    )
    hurried = replace(CONFIG, max_turns=4)
    stopped = coordinate([[p] for p in PACKAGES[:2]], config=hurried)
    assert (
        all(not r.finished and r.edits for r in stopped.results)
        and stopped.refused
        and stopped.merged is None
    )
    assert SUBAGENT_TURNS["too few (4)"] == 4


def test_the_panel_opens_with_a_sub_agent_per_sub_task_and_too_few_turns_refuse_every_merge():
    claim("10", "At 0.2 every sub-task has a sub-agent of its own")
    claim("10", "every merge is refused (a cross), and no crossing is marked")
    assert plan(PACKAGES, WINDOW, 0.2) == [[p] for p in PACKAGES]
    refused = rows_for(split_task, merge_results, 0.2, SUBAGENT_TURNS["too few (4)"])
    assert all(row["refused"] for row in refused) and crossing(refused) is None


def test_sharing_a_sub_agent_moves_the_coordinator_towards_one_agent():
    claim(
        "10",
        "slide the share up and sub-tasks share a sub-agent, which moves the coordinator's line"
        " towards the single agent's",
    )
    apart, together = (rows_for(split_task, merge_results, share, 40)[-1] for share in (0.2, 0.4))
    assert len(together["partitions"]) < len(apart["partitions"])
    assert apart["partitioned"] < together["partitioned"] < together["single"]


def test_at_three_sub_tasks_the_estimate_and_the_peak_fall_on_either_side_of_the_limit():
    claim(
        "10",
        "where a row's estimate and peak fall on either side of the limit, the table says so, and"
        " there the plan keeps one agent whose real prompts pass 60% of the window",
    )
    limit = PLAN_SHARE * WINDOW
    split_sides = []
    for n in range(1, len(PACKAGES) + 1):
        peak = max(turn.prompt_tokens for turn in run_single(PACKAGES[:n]).turns)
        if (estimate_context(PACKAGES[:n]) > limit) != (peak > limit):
            split_sides.append(n)
            assert estimate_context(PACKAGES[:n]) <= limit < peak and len(plan(PACKAGES[:n])) == 1
    assert split_sides == [3]


def test_when_the_rules_disagree_cost_decides_below_the_line_and_the_margin_partitions_at_three(
    rows,
):
    claim("10", "here every size finishes both ways (the last column), so partition from 2")
    claim("10", "plan on the estimate plus its margin (8% here), which partitions at 3")
    assert (
        all(row["single_passed"] and row["partitioned_passed"] for row in rows)
        and crossing(rows) == 2
    )
    limit = PLAN_SHARE * WINDOW
    with_margin = [
        estimate_context(PACKAGES[:n]) * 1.08 > limit for n in range(1, len(PACKAGES) + 1)
    ]
    assert with_margin == [False, False, True, True]


def test_the_panel_says_whose_functions_it_runs():
    from harness.widgets.lesson10 import status_of

    claim("10", "the readout says whose it runs: the harness's while an exercise does not pass")

    def mine(subtasks, window, share=0.6):
        return split_task(subtasks, window, share)

    rows = [
        {
            "subtasks": 1,
            "single": 10,
            "partitioned": 12,
            "refused": False,
            "partitions": [["stock"]],
        }
    ]
    assert (
        "partitions by the harness's split_task, merged by the harness's merge_results"
        in status_of(rows, 0.2)
    )
    assert "partitions by your split_task" in status_of(rows, 0.2, mine, merge_results)
