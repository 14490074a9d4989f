"""The plausible wrong answers to exercises 9.1 and 9.2, and the rule each must fail on.

Each row is a wrong answer a student could write and a phrase of the rule the check must name.
The reference passes (test_checks_framework); the last test shows the generated comparison at
work: an answer that agrees on every named case and differs only on a generated one still fails.
"""

import re

import pytest
from wrong_answer_cases import assert_fails_on_its_rule, case_ids

from harness.budgets import (
    CATEGORIES,
    check_allocations,
    part_tokens,
    split_by_category,
    tool_tokens,
)
from harness.checks import run_check
from harness.formats import is_document
from harness.tokens import approx_tokens
from harness.triggers import next_action, single_trigger


def _split(category_of, count=part_tokens, keys=CATEGORIES, tools_counted=True):
    """split_by_category with its own rule for a part's category and its own counter."""

    def split_by_category(system_instruction, tools, contents):
        usage = dict.fromkeys(keys, 0)
        usage["system"] = approx_tokens(system_instruction)
        usage["tools"] = tool_tokens(tools) if tools_counted else 0
        for content in contents:
            for part in content.parts or []:
                usage[category_of(content, part)] += count(part)
        return usage

    return split_by_category


def _right(content, part):
    if part.function_response is not None:
        return "tool_outputs"
    if content.role == "user" and part.text is not None and is_document(part.text):
        return "documents"
    return "history"


def calls_as_tool_outputs(system_instruction, tools, contents):
    return _split(
        lambda c, p: "tool_outputs" if p.function_call or p.function_response else _right(c, p)
    )(system_instruction, tools, contents)


def every_user_text_as_a_document(system_instruction, tools, contents):
    return _split(
        lambda c, p: "documents" if c.role == "user" and p.text is not None else _right(c, p)
    )(system_instruction, tools, contents)


def documents_in_any_message(system_instruction, tools, contents):
    return _split(
        lambda c, p: "documents" if p.text is not None and is_document(p.text) else _right(c, p)
    )(system_instruction, tools, contents)


def leaves_out_empty_categories(system_instruction, tools, contents):
    usage = split_by_category(system_instruction, tools, contents)
    return {name: tokens for name, tokens in usage.items() if tokens}


def forgets_the_tools(system_instruction, tools, contents):
    return _split(_right, tools_counted=False)(system_instruction, tools, contents)


def counts_characters_over_four(system_instruction, tools, contents):
    return _split(
        _right,
        count=lambda p: len(p.text or str((p.function_response or p.function_call or ""))) // 4,
    )(system_instruction, tools, contents)


def counts_only_the_output_text(system_instruction, tools, contents):
    """counts a response by its output text alone, without the name and JSON the model also reads"""

    def count(part):
        if part.function_response is not None:
            return approx_tokens(str((part.function_response.response or {}).get("output", "")))
        return part_tokens(part)

    return _split(_right, count=count)(system_instruction, tools, contents)


def skips_messages_with_no_parts_by_crashing(system_instruction, tools, contents):
    usage = dict.fromkeys(CATEGORIES, 0)
    usage["system"], usage["tools"] = approx_tokens(system_instruction), tool_tokens(tools)
    for content in contents:
        for part in content.parts:
            usage[_right(content, part)] += part_tokens(part)
    return usage


def drops_the_task_message(system_instruction, tools, contents):
    return split_by_category(system_instruction, tools, contents[1:])


def pops_the_contents(system_instruction, tools, contents):
    usage = dict.fromkeys(CATEGORIES, 0)
    usage["system"], usage["tools"] = approx_tokens(system_instruction), tool_tokens(tools)
    while contents:
        content = contents.pop(0)
        for part in content.parts or []:
            usage[_right(content, part)] += part_tokens(part)
    return usage


# 9.2 next_action
def _policy(
    over=lambda x, limit: x > limit,
    dominates=lambda t, total: t > total / 2,
    order=("tool_outputs", "documents", "history"),
    mask_first=True,
    then_compact=True,
    validates=True,
    remembers=True,
):
    remedies = {"tool_outputs": "mask", "documents": "drop_document", "history": "compact"}

    def next_action(usage, allocations, window, threshold=0.7, done=()):
        if validates:
            check_allocations(allocations)
        done = done if remembers else ()
        total = sum(usage.values())
        wanted = []
        if over(total, threshold * window):
            if mask_first and dominates(usage["tool_outputs"], total):
                wanted += ["mask", "compact"] if then_compact else ["mask"]
            else:
                wanted += ["compact"]
        wanted += [
            remedies[c]
            for c in order
            if c in allocations and over(usage[c], allocations[c] * window)
        ]
        return next((a for a in wanted if a not in done), "none")

    return next_action


def compacts_at_the_threshold_itself(usage, allocations, window, threshold=0.7, done=()):
    return _policy(over=lambda x, limit: x >= limit)(usage, allocations, window, threshold, done)


def masks_at_exactly_half(usage, allocations, window, threshold=0.7, done=()):
    return _policy(dominates=lambda t, total: t >= total / 2)(
        usage, allocations, window, threshold, done
    )


def always_compacts_first(usage, allocations, window, threshold=0.7, done=()):
    return _policy(mask_first=False)(usage, allocations, window, threshold, done)


def never_compacts_after_masking(usage, allocations, window, threshold=0.7, done=()):
    return _policy(then_compact=False)(usage, allocations, window, threshold, done)


def ignores_done(usage, allocations, window, threshold=0.7, done=()):
    return _policy(remembers=False)(usage, allocations, window, threshold, done)


def history_before_documents(usage, allocations, window, threshold=0.7, done=()):
    return _policy(order=("tool_outputs", "history", "documents"))(
        usage, allocations, window, threshold, done
    )


def no_category_triggers(usage, allocations, window, threshold=0.7, done=()):
    return _policy(order=())(usage, allocations, window, threshold, done)


def shares_of_the_request_not_the_window(usage, allocations, window, threshold=0.7, done=()):
    """compares each category with its allocation of the request, not of the window"""
    total = sum(usage.values())
    return _policy(
        over=lambda x, limit: (
            x > limit * total / window if limit != threshold * window else x > limit
        )
    )(usage, allocations, window, threshold, done)


def trusts_any_allocations(usage, allocations, window, threshold=0.7, done=()):
    return _policy(validates=False)(usage, allocations, window, threshold, done)


def only_the_total(usage, allocations, window, threshold=0.7, done=()):
    return single_trigger(usage, allocations, window, threshold, done)


def default_allocation_for_the_rest(usage, allocations, window, threshold=0.7, done=()):
    """gives a category left out of the allocations a default share of 0.3"""
    return _policy()(
        usage,
        (
            {"tool_outputs": 0.3, "documents": 0.3, "history": 0.3, **allocations}
            if sum(allocations.values()) <= 0.1
            else allocations
        ),
        window,
        threshold,
        done,
    )


WRONG_ANSWERS = [
    ("9.1", calls_as_tool_outputs, "tool_outputs is the function responses"),
    (
        "9.1",
        every_user_text_as_a_document,
        "documents is the user text parts that is_document() recognises",
    ),
    ("9.1", documents_in_any_message, "[model: document]) your split has documents"),
    ("9.1", leaves_out_empty_categories, "even for a category at 0"),
    ("9.1", forgets_the_tools, "system ("),
    ("9.1", counts_characters_over_four, "tool_outputs is the function responses"),
    ("9.1", counts_only_the_output_text, "tool_outputs is the function responses"),
    ("9.1", skips_messages_with_no_parts_by_crashing, "raised TypeError"),
    ("9.1", drops_the_task_message, "documents is the user text parts"),
    ("9.1", pops_the_contents, "changed the arguments"),
    ("9.2", compacts_at_the_threshold_itself, "is not past it"),
    ("9.2", masks_at_exactly_half, "tool outputs are exactly half the request"),
    ("9.2", always_compacts_first, "the first action is 'mask'"),
    ("9.2", never_compacts_after_masking, "the next action is 'compact'"),
    ("9.2", ignores_done, "the next action is 'compact'"),
    ("9.2", history_before_documents, "the rule gives 'drop_document'"),
    ("9.2", no_category_triggers, "get their own remedy, 'drop_document'"),
    ("9.2", shares_of_the_request_not_the_window, "is not past it"),
    ("9.2", trusts_any_allocations, "must raise ValueError"),
    ("9.2", only_the_total, "the first action is 'mask'"),
    ("9.2", default_allocation_for_the_rest, "you returned 'mask'; the rule gives 'none'"),
]


@pytest.mark.parametrize(
    "exercise_id, wrong, broken_rule", WRONG_ANSWERS, ids=case_ids(WRONG_ANSWERS)
)
def test_each_wrong_answer_fails_on_the_rule_it_breaks(exercise_id, wrong, broken_rule):
    assert_fails_on_its_rule(exercise_id, wrong, re.escape(broken_rule))


def test_the_references_pass():
    assert run_check("9.1", split_by_category).status == "passed"
    assert run_check("9.2", next_action).status == "passed"


def test_no_hint_gives_the_answer():
    hints = [run_check(e, wrong).hint for e, wrong, _ in WRONG_ANSWERS]
    assert not any("def " in hint or "return " in hint for hint in hints), hints


def test_the_generated_comparison_catches_what_the_named_cases_miss():
    """A document recognised in a model message passes every named case (there is none there):
    only a generated request shows the difference, shrunk to one message."""
    result = run_check("9.1", documents_in_any_message)
    assert result.status == "failed"
    assert "[model: document]" in result.rule, result.line()


# Correct answers in other words, written from the exercise text alone: each must pass.
def split_written_otherwise(system_instruction, tools, contents):
    totals = {
        "system": approx_tokens(system_instruction),
        "tools": tool_tokens(tools),
        "documents": 0,
        "history": 0,
        "tool_outputs": 0,
    }
    for message in contents:
        for part in message.parts or ():
            if part.function_response:
                totals["tool_outputs"] += part_tokens(part)
            elif message.role == "user" and part.text and is_document(part.text):
                totals["documents"] += part_tokens(part)
            else:
                totals["history"] += part_tokens(part)
    return totals


def policy_written_with_shares(usage, allocations, window, threshold=0.7, done=()):
    check_allocations(allocations)
    total = sum(usage.values())
    if total / window > threshold:
        if usage["tool_outputs"] / total > 0.5 and "mask" not in done:
            return "mask"
        if "compact" not in done:
            return "compact"
    for category, remedy in [
        ("tool_outputs", "mask"),
        ("documents", "drop_document"),
        ("history", "compact"),
    ]:
        share = allocations.get(category)
        if share is not None and usage[category] / window > share and remedy not in done:
            return remedy
    return "none"


@pytest.mark.parametrize(
    "exercise_id, answer", [("9.1", split_written_otherwise), ("9.2", policy_written_with_shares)]
)
def test_a_right_answer_in_other_words_passes(exercise_id, answer):
    assert run_check(exercise_id, answer).status == "passed", run_check(exercise_id, answer).line()
