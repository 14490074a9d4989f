"""The plausible wrong answers to exercises 4.1-6.2, and the rule each must fail on.

Each row is a wrong answer a student could write and a phrase of the rule the check must name:
the rule the answer breaks, not an earlier symptom. The reference passes every check
(test_checks_framework), so each row's failure is the answer's, not the checker's.
"""

import math
import os
import re
import subprocess
import sys
import textwrap

import pytest
from google.genai import types
from wrong_answer_cases import assert_fails_on_its_rule, case_ids

from harness.checks import run_check
from harness.compaction import compact, harness_state, keep_signatures, safe_split_points
from harness.masking import _outputs, mask_observations
from harness.transcript import transcript_text_of
from harness.truncation import extract_verdict, truncate_output

VERDICT = r"\d+ (passed|failed)"


# 4.1 truncate_output
def swapped_head_and_tail(text, max_chars=4000, head_ratio=0.4):
    return truncate_output(text, max_chars, 1 - head_ratio)


def cuts_a_text_that_fits_exactly(text, max_chars=4000, head_ratio=0.4):
    if len(text) < max_chars:
        return text
    head = int(max_chars * head_ratio)
    return (
        f"{text[:head]}\n[... {len(text) - max_chars} characters omitted"
        f" ...]\n{text[len(text) - max_chars + head :]}"
    )


def tail_by_negative_index(text, max_chars=4000, head_ratio=0.4):
    if max_chars < 1 or not 0 <= head_ratio <= 1:
        raise ValueError("bad arguments")
    if len(text) <= max_chars:
        return text
    head = int(max_chars * head_ratio)
    return (
        f"{text[:head]}\n[... {len(text) - max_chars} characters omitted"
        f" ...]\n{text[-(max_chars - head) :]}"
    )


def marker_without_count(text, max_chars=4000, head_ratio=0.4):
    return truncate_output(text, max_chars, head_ratio).replace(
        f"[... {len(text) - max_chars} characters", "[... some characters"
    )


def accepts_any_argument(text, max_chars=4000, head_ratio=0.4):
    if len(text) <= max_chars:
        return text
    head = int(max_chars * head_ratio)
    tail = max_chars - head
    return (
        f"{text[:head]}\n[... {len(text) - max_chars} characters omitted"
        f" ...]\n{text[-tail:] if tail else ''}"
    )


def _cut(head_of, glued=False, validate_late=False):
    """truncate_output with the head's length computed by head_of(max_chars * head_ratio)."""

    def truncate_output(text, max_chars=4000, head_ratio=0.4):
        bad = max_chars < 1 or not 0 <= head_ratio <= 1
        if bad and not validate_late:
            raise ValueError("bad arguments")
        if len(text) <= max_chars:
            return text
        if bad:
            raise ValueError("bad arguments")
        head = head_of(max_chars * head_ratio)
        tail = text[len(text) - (max_chars - head) :] if max_chars > head else ""
        marker = f"[... {len(text) - max_chars} characters omitted ...]"
        return f"{text[:head]}{marker}{tail}" if glued else f"{text[:head]}\n{marker}\n{tail}"

    return truncate_output


def head_by_round(text, max_chars=4000, head_ratio=0.4):
    return _cut(round)(text, max_chars, head_ratio)


def head_by_ceiling(text, max_chars=4000, head_ratio=0.4):
    return _cut(math.ceil)(text, max_chars, head_ratio)


def marker_glued_to_the_text(text, max_chars=4000, head_ratio=0.4):
    return _cut(int, glued=True)(text, max_chars, head_ratio)


def validates_after_the_fit_test(text, max_chars=4000, head_ratio=0.4):
    return _cut(int, validate_late=True)(text, max_chars, head_ratio)


# 4.2 extract_verdict
def without_the_count(output):
    lines = [line.strip() for line in output.splitlines() if re.search(r"(passed|failed)", line)]
    return lines[-1] if lines else None


def first_matching_line(output):
    lines = [line.strip() for line in output.splitlines() if re.search(VERDICT, line)]
    return lines[0] if lines else None


def the_match_only(output):
    found = re.findall(r"\d+ (?:passed|failed)", output)
    return found[-1] if found else None


def the_output_s_last_line(output):
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines and re.search(VERDICT, lines[-1]) else None


def not_stripped(output):
    lines = [line for line in output.splitlines() if re.search(VERDICT, line)]
    return lines[-1] if lines else None


def empty_string_for_none(output):
    lines = [line.strip() for line in output.splitlines() if re.search(VERDICT, line)]
    return lines[-1] if lines else ""


def only_passed_counts(output):
    lines = [line.strip() for line in output.splitlines() if re.search(r"\d+ passed", line)]
    return lines[-1] if lines else None


def verdict_at_the_start_of_a_line(output):
    lines = [line.strip() for line in output.splitlines() if re.match(VERDICT, line.strip())]
    return lines[-1] if lines else None


# 4.3 mask_observations
def _replace_outputs(history, store, keep):
    """Mask every function response at an index for which keep(i, output) is False."""
    new = []
    for i, content in enumerate(history):
        parts = []
        for part in content.parts or []:
            output = part.function_response.response["output"] if part.function_response else None
            if output is not None and not keep(i, output):
                store[f"obs-{i}.{len(parts)}"] = output
                part = types.Part.from_function_response(
                    name=part.function_response.name,
                    response={"output": f"[masked obs-{i}.{len(parts)}]"},
                )
            parts.append(part)
        new.append(types.Content(role=content.role, parts=parts))
    return new


def _cutoff(history, keep_last):
    model_turns = [i for i, c in enumerate(history) if c.role == "model"]
    return model_turns[-keep_last] if len(model_turns) >= keep_last else 0


def masks_everything(history, store, keep_last=3):
    return _replace_outputs(history, store, lambda i, output: False)


def _is_error(output):
    return output.startswith("ERROR:") or "failed" in (extract_verdict(output) or "")


def keeps_every_error(history, store, keep_last=3):
    cutoff = _cutoff(history, keep_last)
    return _replace_outputs(history, store, lambda i, output: i > cutoff or _is_error(output))


def ignores_red_test_runs(history, store, keep_last=3):
    cutoff = _cutoff(history, keep_last)
    latest = {key: i for i, _, key in _outputs(history)}
    live = {i for i, _, key in _outputs(history) if latest[key] == i}
    return _replace_outputs(
        history, store, lambda i, output: i > cutoff or (output.startswith("ERROR:") and i in live)
    )


def masks_errors_too(history, store, keep_last=3):
    cutoff = _cutoff(history, keep_last)
    return _replace_outputs(history, store, lambda i, output: i > cutoff)


def ignores_keep_last(history, store, keep_last=3):
    return mask_observations(history, store, 2)


def keeps_one_turn_too_many(history, store, keep_last=3):
    return mask_observations(history, store, keep_last + 1)


def masks_in_place(history, store, keep_last=3):
    new = mask_observations(history, store, keep_last)
    history[:] = new
    return new


def forgets_the_store(history, store, keep_last=3):
    return mask_observations(history, {}, keep_last)


def _reworded(history, store, keep_last, word):
    """The harness's masking, each masked line re-worded by word(reference)."""
    new = []
    for content in mask_observations(history, store, keep_last):
        parts = []
        for part in content.parts or []:
            output = (
                part.function_response.response.get("output", "") if part.function_response else ""
            )
            if output.startswith("[masked "):
                ref = output[len("[masked ") :].split(":")[0]
                part = types.Part.from_function_response(
                    name=part.function_response.name, response={"output": word(ref)}
                )
            parts.append(part)
        new.append(types.Content(role=content.role, parts=parts))
    return new


def reference_line_in_another_format(history, store, keep_last=3):
    return _reworded(
        history, store, keep_last, lambda ref: f"<output {ref} masked: ask the harness for it>"
    )


def matches_each_response_to_the_last_call(history, store, keep_last=3):
    """Two parallel read_file calls: both responses taken for the second call's path."""
    model_turns = [i for i, c in enumerate(history) if c.role == "model"]
    cutoff = model_turns[-keep_last] if len(model_turns) >= keep_last else 0
    calls, keys = [], {}
    for i, content in enumerate(history):
        calls += [p.function_call for p in content.parts or [] if p.function_call]
        for j, part in enumerate(content.parts or []):
            if part.function_response:
                call = next(c for c in reversed(calls) if c.name == part.function_response.name)
                keys[(i, j)] = (call.name, (call.args or {}).get("path"))
    latest = {key: at for at, key in keys.items()}
    return _replace_outputs(
        history,
        store,
        lambda i, output: (
            i > cutoff
            or output.startswith("[masked")
            or (
                _is_error(output)
                and any(latest[key] == at for at, key in keys.items() if at[0] == i)
            )
        ),
    )


# 5.1 safe_split_points
def every_message(history):
    return list(range(1, len(history)))


def odd_positions(history):
    return list(range(1, len(history), 2))  # right only while roles alternate


def index_zero_too(history):
    return [i for i, c in enumerate(history) if c.role == "model" or i == 0]


# 5.2 compact
def _head(history, split, summary, state=""):
    note = (
        f"[Summary of the {split - 1} earlier messages. The messages that follow take precedence"
        " over it.]"
    )
    parts = [
        types.Part.from_text(text=history[0].parts[0].text),
        types.Part.from_text(text=f"{note}\n{summary}"),
    ]
    return types.Content(
        role="user", parts=parts + ([types.Part.from_text(text=state)] if state else [])
    )


def _checked(history, keep_recent_turns):
    if keep_recent_turns < 1 or not history or history[0].role != "user":
        raise ValueError("bad arguments")


def less_than_instead_of_at_most(history, keep_recent_turns, summarize, state=""):
    _checked(history, keep_recent_turns)
    points = safe_split_points(history)
    if len(points) < keep_recent_turns:
        return list(history), 0
    split = points[-keep_recent_turns]
    return [
        _head(history, split, summarize(transcript_text_of(history[1:split])), state),
        *history[split:],
    ], split - 1


def summary_as_its_own_message(history, keep_recent_turns, summarize, state=""):
    _checked(history, keep_recent_turns)
    points = safe_split_points(history)
    if len(points) <= keep_recent_turns:
        return list(history), 0
    split = points[-keep_recent_turns]
    head = _head(history, split, summarize(transcript_text_of(history[1:split])), state)
    return [
        types.Content(role="user", parts=head.parts[:1]),
        types.Content(role="user", parts=head.parts[1:]),
        *history[split:],
    ], split - 1


def one_turn_too_many_kept(history, keep_recent_turns, summarize, state=""):
    return compact(history, keep_recent_turns + 1, summarize, state)


def task_in_the_summary(history, keep_recent_turns, summarize, state=""):
    _checked(history, keep_recent_turns)
    points = safe_split_points(history)
    if len(points) <= keep_recent_turns:
        return list(history), 0
    split = points[-keep_recent_turns]
    return [
        _head(history, split, summarize(transcript_text_of(history[:split])), state),
        *history[split:],
    ], split - 1


def rebuilds_the_kept_turns(history, keep_recent_turns, summarize, state=""):
    """Rebuilds each kept message from its calls, responses and text: the thought signatures are
    lost."""
    new, folded = compact(history, keep_recent_turns, summarize, state)

    def rebuilt(part):
        if part.function_call:
            return types.Part.from_function_call(
                name=part.function_call.name, args=dict(part.function_call.args)
            )
        return part

    return [
        new[0],
        *[types.Content(role=c.role, parts=[rebuilt(p) for p in c.parts]) for c in new[1:]],
    ], folded


def note_without_count(history, keep_recent_turns, summarize, state=""):
    new, folded = compact(history, keep_recent_turns, summarize, state)
    parts = [
        (
            types.Part.from_text(text=re.sub(r"\d+", "some", p.text))
            if p.text and "[Summary" in p.text
            else p
        )
        for p in new[0].parts
    ]
    return [types.Content(role="user", parts=parts), *new[1:]], folded


def no_argument_checks(history, keep_recent_turns, summarize, state=""):
    points = safe_split_points(history)
    if keep_recent_turns < 1 or len(points) <= keep_recent_turns:
        return list(history), 0
    split = points[-keep_recent_turns]
    return [
        _head(history, split, summarize(transcript_text_of(history[1:split])), state),
        *history[split:],
    ], split - 1


def drops_the_state_argument(history, keep_recent_turns, summarize):
    return compact(history, keep_recent_turns, summarize)


def the_whole_head_as_the_task(history, keep_recent_turns, summarize, state=""):
    """On a compacted history, takes every text of history[0] as the task: the old summary nests."""
    new, folded = compact(history, keep_recent_turns, summarize, state)
    if folded:
        task = "\n".join(p.text for p in history[0].parts if p.text)
        new[0] = types.Content(
            role="user", parts=[types.Part.from_text(text=task), *new[0].parts[1:]]
        )
    return new, folded


# 5.3 keep_signatures
def _rebuild(rebuilt_turn, signature_for):
    """rebuilt_turn with part j of message i given signature_for(i, j, part) (None: none)."""
    return [
        types.Content(
            role=c.role,
            parts=[
                p.model_copy(update={"thought_signature": signature_for(i, j, p)})
                for j, p in enumerate(c.parts or [])
            ],
        )
        for i, c in enumerate(rebuilt_turn)
    ]


def _first_signature(content):
    return next((p.thought_signature for p in content.parts or [] if p.thought_signature), None)


def returns_the_rebuilt_turn(old_turn, rebuilt_turn):
    if len(old_turn) != len(rebuilt_turn):
        raise ValueError("lengths differ")
    return list(rebuilt_turn)


def copies_by_part_position(old_turn, rebuilt_turn):
    keep_signatures(old_turn, rebuilt_turn)  # for its ValueErrors only
    return _rebuild(
        rebuilt_turn,
        lambda i, j, p: (
            old_turn[i].parts[j].thought_signature if j < len(old_turn[i].parts) else None
        ),
    )


def signs_every_call(old_turn, rebuilt_turn):
    keep_signatures(old_turn, rebuilt_turn)
    return _rebuild(
        rebuilt_turn, lambda i, j, p: _first_signature(old_turn[i]) if p.function_call else None
    )


def one_signature_for_the_whole_turn(old_turn, rebuilt_turn):
    kept = keep_signatures(old_turn, rebuilt_turn)
    first = next(s for c in old_turn if (s := _first_signature(c)))
    return _rebuild(kept, lambda i, j, p: first if p.thought_signature else None)


def onto_the_first_part(old_turn, rebuilt_turn):
    keep_signatures(old_turn, rebuilt_turn)
    return _rebuild(rebuilt_turn, lambda i, j, p: _first_signature(old_turn[i]) if j == 0 else None)


def invents_a_dummy(old_turn, rebuilt_turn):
    kept = keep_signatures(old_turn, rebuilt_turn)
    return _rebuild(
        kept,
        lambda i, j, p: (
            (p.thought_signature or b"skip_thought_signature_validator")
            if p.function_call and j == 0
            else p.thought_signature
        ),
    )


def changes_rebuilt_turn_in_place(old_turn, rebuilt_turn):
    kept = keep_signatures(old_turn, rebuilt_turn)
    for content, new in zip(rebuilt_turn, kept):
        content.parts = new.parts
    return rebuilt_turn


def never_refuses(old_turn, rebuilt_turn):
    try:
        return keep_signatures(old_turn, rebuilt_turn)
    except ValueError:
        return list(rebuilt_turn)


def only_lines_that_start_with_equals(output):
    """takes only pytest's '===' summary lines as verdicts"""
    lines = [
        line.strip()
        for line in output.splitlines()
        if line.strip().startswith("=") and re.search(VERDICT, line)
    ]
    return lines[-1] if lines else None


# 6.1 harness_state
def all_on_one_line(edited_files, last_verdict):
    return harness_state(edited_files, last_verdict).replace("\n", " ")


def set_order(edited_files, last_verdict):
    return (
        f"[Harness-held state]\nEdited files: {', '.join(edited_files) or 'none'}\n"
        f"Last test verdict: {last_verdict or 'no tests run yet'}"
    )


def sorts_in_place(edited_files, last_verdict):
    # "tests are not edits", say: but the set is the harness's
    edited_files.discard("tests/test_amounts.py")
    return harness_state(edited_files, last_verdict)


def sorts_the_callers_list(edited_files, last_verdict):
    if isinstance(edited_files, list):
        edited_files.sort()
        return harness_state(edited_files, last_verdict)
    return harness_state(sorted(edited_files), last_verdict)


def files_under_a_label_the_glass_box_cannot_read(edited_files, last_verdict):
    return harness_state(edited_files, last_verdict).replace("Edited files:", "Touched:")


def verdict_under_a_label_the_glass_box_cannot_read(edited_files, last_verdict):
    return harness_state(edited_files, last_verdict).replace("Last test verdict:", "Tests:")


def blank_instead_of_none(edited_files, last_verdict):
    return (
        f"[Harness-held state]\nEdited files: {', '.join(sorted(edited_files))}\n"
        f"Last test verdict: {last_verdict or ''}"
    )


def sorted_by_file_name(edited_files, last_verdict):
    """sorts the paths by their file names"""
    files = ", ".join(sorted(edited_files, key=lambda path: path.rsplit("/", 1)[-1])) or "none"
    return (
        f"[Harness-held state]\nEdited files: {files}\nLast test verdict:"
        f" {last_verdict or 'no tests run yet'}"
    )


# 6.2 compact(..., state=...)
def state_before_the_summary(history, keep_recent_turns, summarize, state=""):
    new, folded = compact(history, keep_recent_turns, summarize)
    parts = [types.Part.from_text(text=state), *new[0].parts] if state else new[0].parts
    return [types.Content(role="user", parts=parts), *new[1:]], folded


def ignores_state(history, keep_recent_turns, summarize, state=""):
    return compact(history, keep_recent_turns, summarize)


def state_heading_always(history, keep_recent_turns, summarize, state=""):
    return compact(
        history, keep_recent_turns, summarize, state or "[Harness-held state]\nnothing recorded"
    )


def old_state_piles_up(history, keep_recent_turns, summarize, state=""):
    """Keeps every part of the old head after the task: old summaries and state blocks pile up."""
    new, folded = compact(history, keep_recent_turns, summarize, state)
    if folded and len(history[0].parts or []) > 1:
        old = list(history[0].parts[1:])
        new = [
            types.Content(role="user", parts=[new[0].parts[0], *old, *new[0].parts[1:]]),
            *new[1:],
        ]
    return new, folded


WRONG_ANSWERS = [
    ("4.1", swapped_head_and_tail, "exactly the first 1,600 characters"),
    ("4.1", cuts_a_text_that_fits_exactly, "exactly max_chars characters must come back unchanged"),
    (
        "4.1",
        tail_by_negative_index,
        "head_ratio=1.0 must keep the first max_chars characters and no tail",
    ),
    (
        "4.1",
        marker_without_count,
        "marker between head and tail must name the number of omitted characters",
    ),
    ("4.1", accepts_any_argument, "max_chars=0 must raise ValueError"),
    ("4.1", head_by_round, r"your head has 1 character; the rule keeps int\(1 x 0.55\) = 0"),
    ("4.1", head_by_ceiling, r"your head has \d+ characters?; the rule keeps int"),
    ("4.1", marker_glued_to_the_text, "marker must be one line of its own"),
    ("4.1", validates_after_the_fit_test, "must raise ValueError .*even though the text fits"),
    ("4.2", without_the_count, "'passed' or 'failed' follows no number"),
    ("4.2", first_matching_line, "return the LAST one"),
    ("4.2", the_match_only, "return the whole verdict line"),
    ("4.2", the_output_s_last_line, "last MATCHING line"),
    ("4.2", not_stripped, "stripped of surrounding spaces"),
    ("4.2", empty_string_for_none, "no verdict line must give None"),
    (
        "4.2",
        only_passed_counts,
        r"for extract_verdict\('=== 6 failed in 0.12s ==='\) you returned None",
    ),
    ("4.2", verdict_at_the_start_of_a_line, "return the whole verdict line"),
    ("4.2", only_lines_that_start_with_equals, "you returned None: when several lines match"),
    ("4.3", masks_everything, "outputs of the last two turns must stay word for word"),
    ("4.3", keeps_every_error, "no longer being debugged"),
    ("4.3", ignores_red_test_runs, "latest test run, when its verdict reports failures"),
    ("4.3", masks_errors_too, "still the latest news about its file must stay visible"),
    ("4.3", ignores_keep_last, "keep_last=3 the output of the third turn from the end must stay"),
    ("4.3", keeps_one_turn_too_many, "third turn from the end must be masked"),
    ("4.3", masks_in_place, "history passed in must not be changed"),
    ("4.3", forgets_the_store, "a key of the store holding the full original text"),
    ("4.3", reference_line_in_another_format, "does not read it as masked"),
    ("4.3", matches_each_response_to_the_last_call, r"for mask_observations\(\[task, .*\+"),
    ("5.1", every_message, r"are \[1, 3, 5, 7\]"),
    ("5.1", odd_positions, r"are \[2, 4, 6\]"),
    ("5.1", index_zero_too, r"are \[1, 3, 5, 7\]"),
    ("5.2", less_than_instead_of_at_most, "nothing to fold.*called it with an empty transcript"),
    ("5.2", summary_as_its_own_message, "must be ONE user message"),
    ("5.2", one_turn_too_many_kept, "folds 6 messages"),
    ("5.2", task_in_the_summary, "summarize must be called once, with transcript_text_of"),
    ("5.2", rebuilds_the_kept_turns, "thought signatures included"),
    ("5.2", note_without_count, "note must say how many messages"),
    ("5.2", no_argument_checks, "must raise ValueError"),
    ("5.2", drops_the_state_argument, "must take a fourth argument, state"),
    ("5.2", ignores_state, "state must appear whole in the head"),
    ("5.2", the_whole_head_as_the_task, "compacted once already.*nothing of an earlier compaction"),
    ("5.3", returns_the_rebuilt_turn, "yours were all dropped"),
    ("5.3", copies_by_part_position, "FIRST of the parallel calls"),
    ("5.3", signs_every_call, "second parallel call had no signature"),
    ("5.3", one_signature_for_the_whole_turn, "its OWN signature"),
    ("5.3", onto_the_first_part, "a text part never takes a call's signature"),
    ("5.3", invents_a_dummy, "had no signature .* must get none"),
    ("5.3", changes_rebuilt_turn_in_place, "must not be changed"),
    ("5.3", never_refuses, "must raise ValueError"),
    ("6.1", all_on_one_line, "each be on a line of their own"),
    ("6.1", set_order, "must be listed sorted"),
    ("6.1", sorts_in_place, "set of edited files must not be changed"),
    ("6.1", blank_instead_of_none, "must say 'none'"),
    ("6.1", sorts_the_callers_list, "changed the arguments it was given"),
    (
        "6.1",
        files_under_a_label_the_glass_box_cannot_read,
        "the glass box reads your block as no files line",
    ),
    ("6.1", sorted_by_file_name, "sorted, they are"),
    (
        "6.1",
        verdict_under_a_label_the_glass_box_cannot_read,
        "glass box reads your block as edited files .* and last verdict None",
    ),
    ("6.2", state_before_the_summary, "state must come after the summary"),
    ("6.2", ignores_state, "state text must appear, whole"),
    ("6.2", state_heading_always, "default state='' the head must hold no state block"),
    (
        "6.2",
        old_state_piles_up,
        "nothing of an earlier compaction: yours carries the old summary or state",
    ),
    ("6.2", drops_the_state_argument, "must take a fourth argument, state"),
    ("6.2", the_whole_head_as_the_task, "nothing of an earlier compaction"),
]


@pytest.mark.parametrize(
    "exercise_id, wrong, broken_rule", WRONG_ANSWERS, ids=case_ids(WRONG_ANSWERS)
)
def test_each_wrong_answer_fails_on_the_rule_it_breaks(exercise_id, wrong, broken_rule):
    assert_fails_on_its_rule(exercise_id, wrong, broken_rule)


@pytest.mark.parametrize(
    "heading",
    [
        "[Harness-held state: from the tool calls]",
        "Harness held state",
        "HARNESS_HELD STATE (authoritative)",
        "## State held by the harness",
    ],
)
def test_6_1_accepts_reasonable_headings(heading):
    def with_heading(edited_files, last_verdict):
        return heading + "\n" + harness_state(edited_files, last_verdict).split("\n", 1)[1]

    assert run_check("6.1", with_heading).status == "passed"


def test_no_hint_of_5_2_gives_the_answer():
    hints = [run_check("5.2", wrong).hint for e, wrong, _ in WRONG_ANSWERS if e == "5.2"]
    assert hints and not any(
        "[-keep_recent_turns]" in hint or "split - 1" in hint for hint in hints
    )


def _state_worded(
    files_label, item=lambda path: path, joined=", ", verdict_label="Last test verdict:"
):
    def harness_state(edited_files, last_verdict):
        paths = sorted(edited_files)
        files = (
            (
                joined.join(item(p) for p in paths)
                if joined != "bullets"
                else "\n" + "\n".join(f"- {item(p)}" for p in paths)
            )
            if paths
            else "none"
        )
        return (
            f"## Harness-held state\n{files_label} {files}\n"
            f"{verdict_label} {last_verdict or 'no tests run yet'}"
        )

    return harness_state


# Wordings of a correct state block: each passes 6.1 because the glass box reads it (test_state_trap
# runs the agent with them), and the reader and the check are one (harness.formats.parse_state).
STATE_WORDINGS = {
    "Files edited:": _state_worded("Files edited:"),
    "lowercase": _state_worded("edited files:", verdict_label="last test verdict:"),
    "Modified files:": _state_worded("Modified files:"),
    "bold label, bullets": _state_worded("**Edited files:**", joined="bullets"),
    "backquoted, semicolons": _state_worded(
        "- Edited files:", item=lambda p: f"`{p}`", joined="; "
    ),
    "Last test run:": _state_worded("Edited files:", verdict_label="Last test run:"),
    "summary labels": _state_worded("Changes made:", verdict_label="Last tests:"),
}


@pytest.mark.parametrize("wording", sorted(STATE_WORDINGS))
def test_6_1_passes_a_state_block_in_other_words_that_the_glass_box_reads(wording):
    from harness.formats import parse_state

    block = STATE_WORDINGS[wording]({"b.py", "a/c.py"}, "=== 6 failed in 0.12s ===")
    assert parse_state(block) == (["a/c.py", "b.py"], "=== 6 failed in 0.12s ===")
    result = run_check("6.1", STATE_WORDINGS[wording])
    assert result.status == "passed", result.line()


_SEED_SCRIPT = textwrap.dedent("""
    from harness.checks import run_check
    from harness.compaction import harness_state
    def set_order(edited_files, last_verdict):
        return ("[Harness-held state]\\nEdited files: " + ", ".join(edited_files)
                + "\\nLast test verdict: " + str(last_verdict))
    print(run_check("6.1", harness_state).status, run_check("6.1", set_order).status)
""")


def test_6_1_gives_the_same_verdict_under_every_hash_seed():
    verdicts = set()
    for seed in range(20):
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "WORKBOOK_OFFLINE": "1"}
        done = subprocess.run(
            [sys.executable, "-c", _SEED_SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        verdicts.add(done.stdout.strip())
    assert verdicts == {"passed failed"}


@pytest.fixture(scope="module")
def trap_runs():
    """Lesson 06's trap run, with the state block written by each wording (and by one the glass
    box cannot read)."""
    from test_state_trap import TRAP

    from harness.agent import AgentConfig, run_agent

    wordings = {
        **STATE_WORDINGS,
        "Touched: (unreadable)": files_under_a_label_the_glass_box_cannot_read,
    }
    return {
        name: run_agent(AgentConfig(**TRAP, harness_state=True), state=fn)
        for name, fn in wordings.items()
    }


@pytest.mark.parametrize("wording", sorted(STATE_WORDINGS))
def test_a_state_block_that_passes_6_1_keeps_the_trap_run_from_redoing_an_edit(wording, trap_runs):
    from test_state_trap import stale_edits

    assert not stale_edits(trap_runs[wording]), trap_runs[wording].table()


def test_a_state_block_that_fails_6_1_leaves_the_trap_to_spring(trap_runs):
    from test_state_trap import stale_edits

    assert run_check("6.1", files_under_a_label_the_glass_box_cannot_read).status == "failed"
    assert stale_edits(trap_runs["Touched: (unreadable)"])
