"""Each plausible wrong answer to 10.1 and 10.2 and the rule it must fail on; the reference and the
stub the lesson ships; hints that never give the expected partitions away."""

import math

import pytest
from wrong_answer_cases import assert_fails_on_its_rule, case_ids

from harness.checks import run_check
from harness.partitioning import MergeRefused, SubResult, merge_results, split_task


def _packed(subtasks, limit, fits):
    partitions, total = [], 0
    for name, tokens in subtasks:
        if partitions and fits(total + tokens, limit):
            partitions[-1].append(name)
            total += tokens
        else:
            partitions.append([name])
            total = tokens
    return partitions


# --- 10.1 -----------------------------------------------------------------------------------------


def strict_limit(subtasks, window, share=0.6):
    """a partition must stay strictly under the limit"""
    return _packed(subtasks, share * window, lambda total, limit: total < limit)


def limit_rounded(subtasks, window, share=0.6):
    """rounds share x window to whole tokens"""
    return _packed(subtasks, round(share * window), lambda total, limit: total <= limit)


def limit_ceiling(subtasks, window, share=0.6):
    """rounds share x window up"""
    return _packed(subtasks, math.ceil(share * window), lambda total, limit: total <= limit)


def whole_window(subtasks, window, share=0.6):
    """packs up to the whole window, forgetting the share"""
    return _packed(subtasks, window, lambda total, limit: total <= limit)


def one_per_subtask(subtasks, window, share=0.6):
    """gives every sub-task its own partition"""
    return [[name] for name, _ in subtasks]


def largest_first(subtasks, window, share=0.6):
    """sorts the sub-tasks by size first"""
    return _packed(
        sorted(subtasks, key=lambda s: -s[1]), share * window, lambda total, limit: total <= limit
    )


def first_fit(subtasks, window, share=0.6):
    """goes back to fill an earlier partition"""
    partitions, totals = [], []
    for name, tokens in subtasks:
        for i, total in enumerate(totals):
            if total + tokens <= share * window:
                partitions[i].append(name)
                totals[i] += tokens
                break
        else:
            partitions.append([name])
            totals.append(tokens)
    return partitions


def drops_oversized(subtasks, window, share=0.6):
    """leaves out a sub-task over the limit"""
    return _packed(
        [s for s in subtasks if s[1] <= share * window], share * window, lambda t, limit: t <= limit
    )


def oversized_joins(subtasks, window, share=0.6):
    """lets the next sub-task join a partition already over the limit"""
    partitions, total = [], 0
    for name, tokens in subtasks:
        if partitions and (total + tokens <= share * window or total > share * window):
            partitions[-1].append(name)
            total += tokens
        else:
            partitions.append([name])
            total = tokens
    return partitions


def empty_gives_one_partition(subtasks, window, share=0.6):
    """returns [[]] when there are no sub-tasks"""
    return split_task(subtasks, window, share) or [[]]


def pops_the_callers_list(subtasks, window, share=0.6):
    """consumes the caller's list with pop(0)"""
    result = split_task(list(subtasks), window, share)
    while subtasks:
        subtasks.pop(0)
    return result


def names_and_estimates(subtasks, window, share=0.6):
    """returns the (name, estimate) pairs instead of the names"""
    estimates = dict(subtasks)
    return [[(name, estimates[name]) for name in p] for p in split_task(subtasks, window, share)]


# --- 10.2 -----------------------------------------------------------------------------------------


def _union(results):
    merged = {}
    for result in results:
        merged.update(result.edits)
    return merged


def merges_blindly(results, partitions):
    """merges without validating anything"""
    return _union(r for r in results if r is not None)


def ignores_unfinished(results, partitions):
    """checks conflicts but not whether each partition finished"""
    merged = {}
    for result in results:
        if result is None:
            raise MergeRefused("a partition never reported")
        for path, text in result.edits.items():
            if merged.get(path, text) != text:
                raise MergeRefused(f"conflict on {path}")
            merged[path] = text
    return merged


def crashes_on_none(results, partitions):
    """reads .finished of a missing result"""
    for result, partition in zip(results, partitions):
        if not result.finished:
            raise MergeRefused(f"partition {partition} did not finish")
    return merge_results(results, partitions)


def last_text_wins(results, partitions):
    """keeps the last text when two partitions edit one file"""
    for result, partition in zip(results, partitions):
        if result is None or not result.finished:
            raise MergeRefused(f"partition {partition} did not finish")
    return _union(results)


def refuses_the_same_edit_twice(results, partitions):
    """refuses two partitions that make the same edit"""
    merged = merge_results(results, partitions)
    seen = [p for r in results for p in r.edits]
    if len(seen) != len(set(seen)):
        raise MergeRefused("two partitions edit the same file")
    return merged


def skips_unfinished(results, partitions):
    """merges the finished partitions and leaves the others out"""
    return merge_results(
        [r for r in results if r and r.finished],
        [p for r, p in zip(results, partitions) if r and r.finished],
    )


def returns_none_instead(results, partitions):
    """returns None instead of refusing"""
    try:
        return merge_results(results, partitions)
    except MergeRefused:
        return None


def plain_value_error(results, partitions):
    """raises ValueError instead of MergeRefused"""
    try:
        return merge_results(results, partitions)
    except MergeRefused as refusal:
        raise ValueError(str(refusal)) from None


def silent_refusal(results, partitions):
    """refuses without saying which partition or file"""
    try:
        return merge_results(results, partitions)
    except MergeRefused:
        raise MergeRefused("cannot merge") from None


def no_count_check(results, partitions):
    """does not notice a partition with no result at all"""
    return merge_results(results, partitions[: len(results)])


def merges_into_the_first(results, partitions):
    """merges into the first result's own edits dict"""
    merged = merge_results(results, partitions)
    if results and results[0] is not None:
        results[0].edits.update(merged)
        return results[0].edits
    return merged


WRONG_ANSWERS = [
    ("10.1", strict_limit, "should stay one partition"),
    ("10.1", limit_rounded, "the limit is 600.6"),
    ("10.1", limit_ceiling, "the limit is 600.6"),
    ("10.1", whole_window, "should make \\[\\['stock', 'grades'\\], \\['thermo'\\]\\]"),
    ("10.1", one_per_subtask, "should stay one partition"),
    ("10.1", largest_first, "should make \\[\\['a', 'b'\\], \\['c', 'd'\\]\\]"),
    ("10.1", first_fit, "packed in order"),
    ("10.1", drops_oversized, "over the limit of 600"),
    ("10.1", oversized_joins, "over the limit of 600"),
    ("10.1", empty_gives_one_partition, "no sub-tasks should make no partitions"),
    ("10.1", pops_the_callers_list, "changed the arguments"),
    ("10.1", names_and_estimates, "each a list of sub-task names"),
    ("10.2", merges_blindly, "did not finish"),
    ("10.2", ignores_unfinished, "did not finish"),
    ("10.2", crashes_on_none, "raised AttributeError"),
    ("10.2", last_text_wins, "different texts"),
    ("10.2", refuses_the_same_edit_twice, "same edit to shared.py are compatible"),
    ("10.2", skips_unfinished, "did not finish"),
    ("10.2", returns_none_instead, "must be refused"),
    ("10.2", plain_value_error, "raise MergeRefused, not ValueError"),
    ("10.2", silent_refusal, "should say which partition or file"),
    ("10.2", no_count_check, "two partitions but one result"),
    ("10.2", merges_into_the_first, "changed the arguments"),
]


@pytest.mark.parametrize(
    "exercise_id, wrong, broken_rule", WRONG_ANSWERS, ids=case_ids(WRONG_ANSWERS)
)
def test_each_wrong_answer_fails_on_the_rule_it_breaks(exercise_id, wrong, broken_rule):
    assert_fails_on_its_rule(exercise_id, wrong, broken_rule)


@pytest.mark.parametrize("exercise_id, reference", [("10.1", split_task), ("10.2", merge_results)])
def test_the_reference_passes_and_the_stub_is_not_attempted(exercise_id, reference):
    assert run_check(exercise_id, reference).status == "passed"

    def stub(*args):
        raise NotImplementedError(f"Exercise {exercise_id}")

    assert run_check(exercise_id, stub).status == "not attempted"


def test_tuples_for_partitions_pass_10_1():
    def as_tuples(subtasks, window, share=0.6):
        return [tuple(p) for p in split_task(subtasks, window, share)]

    assert run_check("10.1", as_tuples).status == "passed"


def test_a_merge_that_checks_conflicts_first_passes_10_2():
    def conflicts_first(results, partitions):
        seen = {}
        for result in results:
            for path, text in (result.edits if result else {}).items():
                if seen.setdefault(path, (text, result.packages))[0] != text:
                    raise MergeRefused(f"{seen[path][1]} and {result.packages} both edit {path}")
        return merge_results(results, partitions)

    assert run_check("10.2", conflicts_first).status == "passed"


def test_a_split_that_tests_the_whole_estimate_first_passes_10_1():
    def whole_first(subtasks, window, share=0.6):
        if sum(tokens for _, tokens in subtasks) <= share * window:
            return [[name for name, _ in subtasks]] if subtasks else []
        return split_task(subtasks, window, share)

    assert run_check("10.1", whole_first).status == "passed"


def test_a_count_refusal_in_other_words_passes_10_2():
    def own_words(results, partitions):
        if len(results) != len(partitions):
            raise MergeRefused("every partition must report once")
        return merge_results(results, partitions)

    assert run_check("10.2", own_words).status == "passed"


def test_no_hint_gives_the_expected_partitions():
    for exercise_id, wrong, _ in WRONG_ANSWERS:
        hint = run_check(exercise_id, wrong).hint
        assert "[[" not in hint and "{'" not in hint, hint


def test_generated_cases_catch_a_wrong_answer_the_named_cases_miss():
    def wrong_only_when_long(subtasks, window, share=0.6):
        """a partition never holds more than three sub-tasks"""
        partitions = split_task(subtasks, window, share)
        return [p[i : i + 3] for p in partitions for i in range(0, len(p), 3)]

    result = run_check("10.1", wrong_only_when_long)
    assert result.status == "failed" and "packed in order" in result.rule, result.line()


def test_sub_results_read_well():
    assert "NOT finished" in repr(SubResult(("stock",), False))
