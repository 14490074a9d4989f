"""Checks 4.1-6.2 fail on plausible wrong answers (test_checks_framework runs every check on its
reference and on a stub)."""
import re

import pytest
from google.genai import types

from harness.checks import ExerciseFailed, check
from harness.compaction import compact, safe_split_points
from harness.masking import mask_observations
from harness.transcript import transcript_text_of

def swapped_truncate(text, max_chars=4000, head_ratio=0.4):
    if len(text) <= max_chars:
        return text
    tail = int(max_chars * head_ratio)  # 40% tail, 60% head: the verdict gets the small share
    return text[:max_chars - tail] + f"\n[... {len(text) - max_chars} omitted ...]\n" + text[-tail:]


def naive_tail_truncate(text, max_chars=4000, head_ratio=0.4):
    if not 0 <= head_ratio <= 1 or max_chars < 1:
        raise ValueError("bad")
    if len(text) <= max_chars:
        return text
    head = int(max_chars * head_ratio)
    return text[:head] + f"\n[... {len(text) - max_chars} omitted ...]\n" + text[-(max_chars - head):]  # text[-0:]!


def first_verdict(output):
    found = [l.strip() for l in output.splitlines() if re.search(r"\d+ (passed|failed)", l)]
    return found[0] if found else None


def match_only_verdict(output):
    found = re.findall(r"\d+ (?:passed|failed)", output)
    return found[-1] if found else None


def last_line_verdict(output):
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    return lines[-1] if lines and re.search(r"\d+ (passed|failed)", lines[-1]) else None


def mask_everything(history, store, keep_last=3):
    new = []
    for content in history:
        parts = []
        for part in content.parts:
            if part.function_response:
                store["r"] = part.function_response.response["output"]
                part = types.Part.from_function_response(name=part.function_response.name, response={"output": "[r]"})
            parts.append(part)
        new.append(types.Content(role=content.role, parts=parts))
    return new


def cut_at_every_message(history):
    return list(range(1, len(history)))


def odd_positions(history):
    return list(range(1, len(history), 2))  # right only while roles alternate


def off_by_one_compact(history, keep_recent_turns, summarize, state=""):
    split = safe_split_points(history)[-keep_recent_turns - 1]
    summary = summarize(transcript_text_of(history[1:split]))
    head = types.Content(role="user", parts=[types.Part.from_text(text=f"{history[0].parts[0].text}\n[Summary of the "
                                                                   f"{split - 1} earlier messages; what follows takes precedence]\n{summary}")])
    return [head, *history[split:]], split - 1


def task_in_summary_compact(history, keep_recent_turns, summarize, state=""):
    if keep_recent_turns < 1 or history[0].role != "user":
        raise ValueError("bad")
    points = safe_split_points(history)
    if len(points) <= keep_recent_turns:
        return history, 0
    split = points[-keep_recent_turns]
    summary = summarize(transcript_text_of(history[:split]))  # the task folded into the summary too
    head = types.Content(role="user", parts=[types.Part.from_text(
        text=f"{history[0].parts[0].text}\n[Summary of {split - 1} messages; the rest takes precedence]\n{summary}\n{state}")])
    return [head, *history[split:]], split - 1


def fixed_window_mask(history, store, keep_last=3):
    return mask_observations(history, store, 2)  # ignores the keep_last it is given


def unsorted_state(edited_files, last_verdict):
    files = ", ".join(sorted(edited_files, reverse=True)) or "none"  # newest-first, say: not sorted
    return f"[Harness-held state]\nEdited files: {files}\nLast: {last_verdict or 'no tests run'}"


def state_before_summary(history, keep_recent_turns, summarize, state=""):
    new, n = compact(history, keep_recent_turns, summarize)
    parts = [types.Part.from_text(text=state), *new[0].parts] if state else new[0].parts
    return [types.Content(role="user", parts=parts), *new[1:]], n


def keeps_one_turn_too_many(history, store, keep_last=3):
    return mask_observations(history, store, keep_last + 1)


@pytest.mark.parametrize("exercise_id, wrong, rule", [
    ("4.2", last_line_verdict, "last MATCHING line"),
    ("4.3", keeps_one_turn_too_many, "third turn from the end must be masked"),
    ("5.1", odd_positions, r"\[2, 4, 6\]"),
])
def test_wrong_answers_fail_on_the_rule_meant_for_them(exercise_id, wrong, rule):
    with pytest.raises(ExerciseFailed, match=rule):
        check(exercise_id, wrong)


@pytest.mark.parametrize("exercise_id, wrong", [
    ("4.1", swapped_truncate), ("4.1", naive_tail_truncate),
    ("4.2", first_verdict), ("4.2", match_only_verdict),
    ("4.3", mask_everything), ("4.3", fixed_window_mask),
    ("5.1", cut_at_every_message),
    ("5.2", off_by_one_compact), ("5.2", task_in_summary_compact),
    ("6.1", unsorted_state), ("6.2", state_before_summary),
])
def test_plausible_wrong_answers_fail(exercise_id, wrong):
    with pytest.raises(ExerciseFailed):
        check(exercise_id, wrong)


def test_a_compact_that_ignores_state_fails_6_2():
    with pytest.raises(ExerciseFailed, match="state text"):
        check("6.2", lambda history, keep, summarize, state="": compact(history, keep, summarize))
