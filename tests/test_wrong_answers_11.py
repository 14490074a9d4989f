"""The plausible wrong answers to exercise 11.1 (`should_restart`), and the rule each must fail on.

Each row is a wrong answer a student could write and a phrase of the rule the check must name:
the rule the answer breaks, not an earlier symptom. The reference passes (test_checks_framework
and the last tests here), so each row's failure is the answer's, not the checker's.
"""

import math
import re

import pytest
from wrong_answer_cases import assert_fails_on_its_rule, case_ids

from harness.checks import run_check
from harness.checks.lesson11 import usage
from harness.server_state import should_restart


def _checked(budget, ratio):
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0 or not 0 < ratio <= 1:
        raise ValueError("budget must be a positive whole number of tokens and ratio in (0, 1]")


def replayed(u):
    return (u.total_input_tokens or 0) + (u.total_output_tokens or 0)


def at_the_threshold_too(u, budget, ratio=0.7):
    """Restarts at the threshold itself (>= instead of >)."""
    _checked(budget, ratio)
    return replayed(u) >= ratio * budget


def input_only(u, budget, ratio=0.7):
    """Counts the input only: the stored answer is forgotten."""
    _checked(budget, ratio)
    return (u.total_input_tokens or 0) > ratio * budget


def cached_tokens_left_out(u, budget, ratio=0.7):
    """Subtracts the cached tokens, as if a cached token took no room."""
    _checked(budget, ratio)
    return replayed(u) - (u.total_cached_tokens or 0) > ratio * budget


def total_tokens(u, budget, ratio=0.7):
    """Uses total_tokens, which counts thinking the next turn does not resend."""
    _checked(budget, ratio)
    return (u.total_tokens or 0) > ratio * budget


def whole_budget(u, budget, ratio=0.7):
    """Ignores the ratio: restarts only past the whole budget."""
    _checked(budget, ratio)
    return replayed(u) > budget


def crashes_on_none(u, budget, ratio=0.7):
    """Adds the fields as they come: None breaks the sum."""
    _checked(budget, ratio)
    return u.total_input_tokens + u.total_output_tokens > ratio * budget


def no_argument_checks(u, budget, ratio=0.7):
    """Never refuses a budget of 0 or a ratio outside (0, 1]."""
    return replayed(u) > ratio * budget


def rounded_threshold(u, budget, ratio=0.7):
    """Rounds the threshold up to a whole token first."""
    _checked(budget, ratio)
    return replayed(u) > math.ceil(ratio * budget)


def every_turn(u, budget, ratio=0.7):
    """Restarts after every turn."""
    _checked(budget, ratio)
    return True


def never(u, budget, ratio=0.7):
    """Never restarts: the server keeps everything, over the budget."""
    _checked(budget, ratio)
    return False


def truthy_number(u, budget, ratio=0.7):
    """Returns how far past the threshold it is, not True or False."""
    _checked(budget, ratio)
    return max(replayed(u) - ratio * budget, 0)


WRONG_ANSWERS = [
    (
        "11.1",
        at_the_threshold_too,
        r"exactly at the threshold \(2,800 = 0.7 x 4,000\) is not past it",
    ),
    ("11.1", input_only, "one token past the threshold restarts|output tokens count"),
    ("11.1", cached_tokens_left_out, "cached tokens still fill the window"),
    ("11.1", total_tokens, "thinking is not replayed"),
    (
        "11.1",
        whole_budget,
        r"before turn \d+ of an 8-question session .* the rule restarts and yours does not",
    ),
    ("11.1", crashes_on_none, "raised TypeError"),
    ("11.1", no_argument_checks, "budget=0 must raise ValueError"),
    (
        "11.1",
        rounded_threshold,
        r"for should_restart\(Usage\(input=\d[\d,]*, .*\) you returned False; the rule gives True",
    ),
    (
        "11.1",
        every_turn,
        r"before turn 1 of an 8-question session .* the rule keeps going and yours restarts",
    ),
    (
        "11.1",
        never,
        r"before turn \d+ .* With your policy the session restarts 0 times, its largest prompt is"
        r" [\d,]+ "
        r"tokens \(over the budget\)",
    ),
    ("11.1", truthy_number, "must return True or False"),
]


@pytest.mark.parametrize(
    "exercise_id, wrong, broken_rule", WRONG_ANSWERS, ids=case_ids(WRONG_ANSWERS)
)
def test_each_wrong_answer_fails_on_the_rule_it_breaks(exercise_id, wrong, broken_rule):
    assert_fails_on_its_rule(exercise_id, wrong, broken_rule)


def test_no_hint_gives_the_threshold_or_the_comparison():
    hints = {run_check("11.1", wrong).hint for _, wrong, _ in WRONG_ANSWERS}
    assert len(hints) >= 5  # each rule has its own hint
    assert not any(re.search(r"2,?800|4,?200|\+ *usage|> *ratio", hint) for hint in hints), hints


def test_the_session_failure_reports_both_sessions_cost_and_recall():
    rule = run_check("11.1", whole_budget).rule
    assert (
        rule.count("bills $") == 2
        and rule.count("planted facts") == 2
        and "within the budget" in rule
    )


def test_the_reference_and_the_lesson_s_own_solution_pass():
    assert run_check("11.1", should_restart).status == "passed"

    def written_as_the_lesson_does(usage, budget, ratio=0.7):
        _checked(budget, ratio)
        return (usage.total_input_tokens or 0) + (usage.total_output_tokens or 0) > ratio * budget

    assert run_check("11.1", written_as_the_lesson_does).status == "passed"


def test_a_float_budget_written_as_a_whole_number_is_a_free_choice():
    """The contract fixes the decision, not the type checks: an answer that accepts 4000.0
    passes."""

    def lenient(u, budget, ratio=0.7):
        if budget <= 0 or not 0 < ratio <= 1:
            raise ValueError("budget must be positive and ratio in (0, 1]")
        return replayed(u) > ratio * budget

    assert run_check("11.1", lenient).status == "passed"
    assert lenient(usage(2_500, 301), 4_000.0) is True
