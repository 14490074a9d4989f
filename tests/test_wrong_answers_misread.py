"""Wrong answers of students who misread one rule or one boundary, each of which passed its check
once (issue 28, and a walk-through of every exercise after it), and the rule each must now fail.

The checks were made to catch each CLASS, not the instance: 4.3's generated histories answer
parallel calls of two tools in either order; 5.1's hold messages under role "function" or "tool";
8.1's move spaces inside phrases; 10.2's hand back one result too many. A second table holds
answers whose failure used to name the wrong cause: each hint must now name the symptom the check
saw (HINTS), and no hint may restate the algorithm.
"""

import re

import pytest
from google.genai import types
from wrong_answer_cases import assert_fails_on_its_rule, case_ids

from harness import billing
from harness.budgets import CATEGORIES, part_tokens, tool_tokens
from harness.checks import reference, run_check
from harness.formats import is_document
from harness.masking import is_error
from harness.partitioning import MergeRefused
from harness.tokens import approx_tokens


# 4.3: a response paired with the call at its own place in the message, not the oldest unanswered
# call of its name: parallel calls of two tools answered out of order file an error under the wrong
# path.
def pairs_responses_with_calls_by_position(history, store, keep_last=3):
    """pairs each response with the call at its own place in the message"""
    model_turns = [i for i, c in enumerate(history) if c.role == "model"]
    cutoff = model_turns[-keep_last] if len(model_turns) >= keep_last else 0
    found, calls = [], []
    for i, content in enumerate(history):
        if content.role == "model":
            calls = [p.function_call for p in content.parts or [] if p.function_call]
        responses = [j for j, p in enumerate(content.parts or []) if p.function_response]
        for place, j in enumerate(responses):
            call = calls[place]
            found.append((i, j, (call.name, (call.args or {}).get("path"))))
    latest = {key: (i, j) for i, j, key in found}
    new = list(history)
    for i, j, key in found:
        part = history[i].parts[j]
        output = part.function_response.response["output"]
        if (
            i > cutoff
            or output.startswith("[masked")
            or (is_error(output) and latest[key] == (i, j))
        ):
            continue
        store[f"obs-{i}.{j}"] = output
        parts = list(new[i].parts)
        parts[j] = types.Part.from_function_response(
            name=part.function_response.name, response={"output": f"[masked obs-{i}.{j}]"}
        )
        new[i] = types.Content(role=new[i].role, parts=parts)
    return new


# 5.1: every message not from the user: on a model before 3.5, a response sent as "function" too
def every_message_not_from_the_user(history):
    """cuts before every message whose role is not "user" (a "function" or "tool" response too)"""
    return [i for i, content in enumerate(history) if i > 0 and content.role != "user"]


# 8.1: whitespace removed rather than collapsed; no key points read as a failed probe
def removes_every_space(answer, key_points):
    """removes all whitespace, so "300 ms" matches "3 00ms\""""

    def squeezed(text):
        return re.sub(r"\s+", "", text.lower())

    return all(squeezed(point) in squeezed(answer) for point in key_points)


def no_key_points_fail(answer, key_points):
    """returns False when there are no key points"""

    def norm(text):
        return " ".join(text.lower().split())

    return bool(key_points) and all(norm(point) in norm(answer) for point in key_points)


# 10.2: the count check written as "fewer results than partitions"
def refuses_only_fewer_results(results, partitions):
    """refuses fewer results than partitions, but merges when there are more"""
    if len(results) < len(partitions):
        raise MergeRefused(f"{len(partitions)} partitions but {len(results)} results")
    return reference("10.2")(list(results)[: len(partitions)], partitions)


# 11.1: a budget converted instead of checked
def converts_a_text_budget(usage, budget, ratio=0.7):
    """converts the budget with int(), so the text "6000" is accepted"""
    budget = int(budget)
    if budget <= 0 or not 0 < ratio <= 1:
        raise ValueError("budget must be positive, ratio in (0, 1]")
    return (usage.total_input_tokens or 0) + (usage.total_output_tokens or 0) > ratio * budget


# 4.2: a number somewhere on the line and the word somewhere else
def a_number_and_the_word_anywhere(output):
    """takes a line holding any digit and 'passed' or 'failed' anywhere for a verdict"""
    lines = [
        line.strip()
        for line in output.splitlines()
        if re.search(r"passed|failed", line) and re.search(r"\d", line)
    ]
    return lines[-1] if lines else None


WRONG_ANSWERS = [
    ("4.2", a_number_and_the_word_anywhere, "Retry 2 of 3: the upload failed"),
    ("4.3", pairs_responses_with_calls_by_position, "answered in reverse order"),
    ("5.1", every_message_not_from_the_user, "role 'function' or 'tool' holds function responses"),
    ("8.1", removes_every_space, r"'2 50ms' is not '250 ms'"),
    ("8.1", no_key_points_fail, r"grade_probe\(answer, \[\]\) returned False"),
    ("10.2", refuses_only_fewer_results, "two partitions but three results"),
    ("11.1", converts_a_text_budget, "budget='6000'"),
]


@pytest.mark.parametrize(
    "exercise_id, wrong, broken_rule", WRONG_ANSWERS, ids=case_ids(WRONG_ANSWERS)
)
def test_each_wrong_answer_fails_on_the_rule_it_breaks(exercise_id, wrong, broken_rule):
    assert_fails_on_its_rule(exercise_id, wrong, broken_rule)


# Answers whose hint blamed another mistake: the hint must name what the check saw ----------------


def uncached_with_the_thoughts(usage):
    """adds the thinking tokens to the uncached input"""
    out = reference("0.1")(usage)
    return {**out, "uncached": out["uncached"] + (usage.thoughts_token_count or 0)}


def sizes_from_a_generator(system_tokens, exchanges):
    """yields the sizes (a generator function)"""
    history = system_tokens
    for user_tokens, model_tokens in exchanges:
        yield history + user_tokens
        history += user_tokens + model_tokens


def verdict_with_re_match(output):
    """looks for the verdict with re.match, at the start of each line only"""
    lines = [
        line.strip()
        for line in output.splitlines()
        if re.match(r"\d+ (passed|failed)", line.strip())
    ]
    return lines[-1] if lines else None


def output_as_total_minus_prompt(usage, price):
    """bills total_token_count - prompt_token_count as output"""
    total = 0.0
    for u in billing.usages_of(usage):
        prompt, cached = u.prompt_token_count or 0, u.cached_content_token_count or 0
        output = (u.total_token_count or 0) - prompt
        total += (
            (prompt - cached) * billing.rate(price, "input")
            + cached * billing.rate(price, "cached_input")
            + output * billing.rate(price, "output")
        )
    return total / 1e6


def response_counted_by_its_output_text(system_instruction, tools, contents):
    """counts a function response by approx_tokens of its output text"""
    usage = dict.fromkeys(CATEGORIES, 0)
    usage["system"], usage["tools"] = approx_tokens(system_instruction), tool_tokens(tools)
    for content in contents:
        for part in content.parts or []:
            if part.function_response is not None:
                usage["tool_outputs"] += approx_tokens(
                    str(part.function_response.response.get("output", ""))
                )
            elif content.role == "user" and part.text is not None and is_document(part.text):
                usage["documents"] += part_tokens(part)
            else:
                usage["history"] += part_tokens(part)
    return usage


def refuses_a_partition_that_edited_nothing(results, partitions):
    """refuses a finished partition that edited no file"""
    for result, partition in zip(results, partitions):
        if result is not None and result.finished and not result.edits:
            raise MergeRefused(f"partition {partition} edited nothing")
    return reference("10.2")(results, partitions)


def refuses_a_head_ratio_of_one(text, max_chars=4000, head_ratio=0.4):
    """refuses head_ratio=1.0 (a head-only cap), reading the range as [0, 1)"""
    if not 0 <= head_ratio < 1:
        raise ValueError(f"head_ratio must be in [0, 1), got {head_ratio}")
    return reference("4.1")(text, max_chars, head_ratio)


def output_at_the_input_rate(usage, price):
    """bills output and thinking tokens at the input rate"""
    return reference("7.1")(usage, {**_rates(price), "output": billing.rate(price, "input")})


def _rates(price):
    return {name: billing.rate(price, name) for name in ("input", "cached_input", "output")}


def crossing_with_the_sign_swapped(trace_a, trace_b, price):
    """subtracts the fixed parts the wrong way round"""
    crossing = reference("7.2")(trace_a, trace_b, price)
    return None if crossing is None else -crossing


def the_last_probe_decides(run):
    """answers for the LAST probe of the run, not the first"""
    fired, answer = False, False
    for bundle in run.bundles:
        fired = fired or bool(bundle.compactions)
        if bundle.probe:
            answer = fired
    return answer


def none_as_python_none(usage, allocations, window, threshold=0.7, done=()):
    """returns None instead of the word 'none'"""
    action = reference("9.2")(usage, allocations, window, threshold, done)
    return None if action == "none" else action


def leaves_out_empty_estimates(subtasks, window, share=0.6):
    """leaves out the sub-tasks estimated at 0 tokens"""
    return reference("10.1")([(name, tokens) for name, tokens in subtasks if tokens], window, share)


def rounds_the_threshold(usage, budget, ratio=0.7):
    """compares with round(ratio * budget)"""
    reference("11.1")(usage, budget, ratio)  # the same refusals
    return (usage.total_input_tokens or 0) + (usage.total_output_tokens or 0) > round(
        ratio * budget
    )


# exercise, the answer, words its hint must hold (the symptom), words it must not (another cause)
HINTS = [
    ("4.1", refuses_a_head_ratio_of_one, "both ends included", "traceback"),
    (
        "7.1",
        output_at_the_input_rate,
        "output tokens are billed at the input rate",
        "INCLUDES the cached",
    ),
    ("7.2", crossing_with_the_sign_swapped, "wrong sign", "solve"),
    ("8.2", the_last_probe_decides, "two probes", "Walk run.bundles"),
    ("9.2", none_as_python_none, "the word 'none'", "strictly greater"),
    ("10.1", leaves_out_empty_estimates, "leave out 't0'", "running total"),
    ("11.1", rounds_the_threshold, "not a whole number", "replays this turn's input"),
    (
        "0.1",
        uncached_with_the_thoughts,
        "200 too high, the thinking tokens",
        "include the cached tokens",
    ),
    ("1.1", sizes_from_a_generator, "generator", "once per user message"),
    ("4.2", verdict_with_re_match, "not only at its start", "not only the part that matched"),
    ("7.1", output_as_total_minus_prompt, "below zero", "per MILLION"),
    (
        "9.1",
        response_counted_by_its_output_text,
        "output text alone",
        "function call is the model's move",
    ),
    (
        "10.2",
        refuses_a_partition_that_edited_nothing,
        "finished without editing a file",
        "traceback",
    ),
]


@pytest.mark.parametrize(
    "exercise_id, wrong, said, not_said", HINTS, ids=[f"{e}-{w.__name__}" for e, w, *_ in HINTS]
)
def test_the_hint_names_the_symptom_the_check_saw(exercise_id, wrong, said, not_said):
    result = run_check(exercise_id, wrong)
    assert result.status == "failed", result.line()
    assert said in result.hint and not_said not in result.hint, result.line()


# Code a hint must never hold, for the exercises whose hints once did.
GIVEAWAYS = {
    "9.1": ["dict.fromkeys"],
    "9.2": ["first the total", "mask if tool outputs are over half"],
}


def test_no_hint_of_9_1_or_9_2_hands_over_the_algorithm():
    import test_wrong_answers_09 as fixtures

    for exercise_id, wrong, _ in fixtures.WRONG_ANSWERS + [
        ("9.1", response_counted_by_its_output_text, "")
    ]:
        hint = run_check(exercise_id, wrong).hint
        leaked = [code for code in GIVEAWAYS[exercise_id] if code in hint]
        assert not leaked, f"{exercise_id} {wrong.__name__}: {hint}"


def test_6_1_takes_the_verdict_line_before_the_files_line_and_the_lesson_says_so():
    """Free, and said to be: the glass box reads the two lines in either order."""
    from test_lesson_claims import claim

    def verdict_first(edited_files, last_verdict):
        lines = reference("6.1")(edited_files, last_verdict).split("\n")
        return "\n".join([lines[0], lines[2], lines[1]])

    claim("06", "the order of the files and verdict lines")
    assert run_check("6.1", verdict_first).status == "passed"


def test_6_1_takes_semicolons_and_the_lesson_says_so():
    """Free, and said to be: the paths may be separated by semicolons as well as commas."""
    from test_lesson_claims import claim

    def with_semicolons(edited_files, last_verdict):
        files = "; ".join(sorted(edited_files)) or "none"
        verdict = last_verdict or "no tests run yet"
        return f"[Harness-held state]\nEdited files: {files}\nLast test verdict: {verdict}"

    claim("06", "separated by commas or semicolons")
    assert run_check("6.1", with_semicolons).status == "passed"
