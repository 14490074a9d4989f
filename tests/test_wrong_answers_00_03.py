"""The plausible wrong answers to exercises 0.1, 1.1, 2.1, 3.1 and 3.2, and the rule each must fail.

One row per wrong answer: the exercise, a function a student could write, and words of the rule the
failure must name (the rule the answer broke, not an earlier symptom). Every row also proves the
failure is one line with a hint, and that the hint does not hand over the answer.
(test_checks_framework runs every check on its reference and on the lesson's stub.)
"""

import re
from itertools import accumulate

import pytest
from google.genai import types

from harness.checks import FAILED, reference, run_check
from harness.context import as_content, render_docs, render_system
from harness.tokens import approx_tokens

# Code a hint must never contain: it would be the answer.
ANSWER_SNIPPETS = {
    "0.1": ["prompt - cached", "prompt_token_count -", "candidates_token_count +", "or 0"],
    "1.1": ["history +", "+= user", "sizes.append"],
    "2.1": ["zip(", "break", "min(len"],
    "3.1": ["pop(0)", "pop()", "turn_costs"],
    "3.2": ["pop(0)", "pop()", "render_docs(docs)"],
}


# 0.1 describe_usage


def usage(**changes):
    def describe(u):
        out = reference("0.1")(u)
        return {**out, **{key: value(u) for key, value in changes.items()}}

    describe.__name__ = "describe_usage"
    return describe


def usage_crashing_on_none(u):
    prompt, cached = u.prompt_token_count, u.cached_content_token_count
    return {
        "prompt": prompt,
        "cached": cached,
        "uncached": prompt - cached,
        "output": u.candidates_token_count + u.thoughts_token_count,
        "total": u.total_token_count,
    }


# 1.1 naive_prompt_sizes


def sizes(transform):
    def naive_prompt_sizes(system, exchanges):
        return transform(system, list(exchanges), reference("1.1")(system, exchanges))

    return naive_prompt_sizes


def sizes_with_a_shared_default(system, exchanges, _seen=[]):  # noqa: B006 (the bug under test)
    _seen.extend(exchanges)
    return reference("1.1")(system, _seen)[-len(exchanges) :] if exchanges else []


def sizes_as_a_generator(system, exchanges):
    return (size for size in reference("1.1")(system, exchanges))


# 2.1 stable_prefix_tokens


def prefix_indexing_b_by_a(request_a, request_b, count=approx_tokens):
    shared = 0
    for i in range(len(request_a)):
        if request_a[i] != request_b[i]:
            break
        shared += count(request_a[i])
    return shared


def prefix_counting_every_equal_block(a, b, count=approx_tokens):
    return sum(count(x) for x, y in zip(a, b) if x == y)


def prefix_including_the_first_difference(a, b, count=approx_tokens):
    shared = 0
    for x, y in zip(a, b):
        shared += count(x)
        if x != y:
            break
    return shared


def prefix_ignoring_count(a, b, count=approx_tokens):
    return reference("2.1")(a, b)


def prefix_by_identity(a, b, count=approx_tokens):
    shared = 0
    for x, y in zip(a, b):
        if x is not y:
            break
        shared += count(x)
    return shared


def prefix_counting_blocks(a, b, count=approx_tokens):
    return reference("2.1")(a, b, count=lambda block: 1)


def prefix_compared_by(normalise, what):
    """A 2.1 answer that compares the blocks after `normalise` (say, str.strip) instead of as
    sent."""

    def stable_prefix_tokens(a, b, count=approx_tokens):
        shared = 0
        for x, y in zip(a, b):
            if normalise(x) != normalise(y):
                break
            shared += count(x)
        return shared

    stable_prefix_tokens.__doc__ = what
    return stable_prefix_tokens


def prefix_counting_the_joined_blocks(a, b, count=approx_tokens):
    """counts the shared blocks joined into one text"""
    shared = []
    for x, y in zip(a, b):
        if x != y:
            break
        shared.append(x)
    return count("".join(shared)) if shared else 0


def keeps_the_newest_turn(
    system, facts, summary, turns, question, budget=6000, count=approx_tokens, docs=()
):
    """always keeps the newest turn, dropping facts instead"""
    facts, turns = list(facts), list(turns)

    def total():
        return (
            count(render_system(system, facts, summary))
            + sum(count(t) for _, t in turns)
            + count(question)
        )

    while total() > budget and len(turns) > 1:
        turns.pop(0)
    while total() > budget and facts:
        facts.pop()
    return (
        render_system(system, facts, summary),
        [as_content(r, t) for r, t in turns + [("user", question)]],
        total(),
    )


def counts_each_document_alone(
    system, facts, summary, turns, question, budget=6000, count=approx_tokens, docs=()
):
    """counts the documents one by one, not the docs message they are sent in"""
    facts, turns, docs = list(facts), list(turns), list(docs)

    def total():
        return (
            count(render_system(system, facts, summary))
            + sum(count(t) for _, t in turns)
            + sum(count(d) for d in docs)
            + count(question)
        )

    for kept in (turns, docs, facts):
        while total() > budget and kept:
            kept.pop(0 if kept is turns else -1)
    contents = [as_content(r, t) for r, t in turns] + (
        [as_content("user", render_docs(docs))] if docs else []
    )
    return render_system(system, facts, summary), contents + [as_content("user", question)], total()


# 3.1 and 3.2 build_context: one simple implementation with switchable mistakes


def flawed(*flaws):
    def build_context(
        system, facts, summary, turns, question, budget=6000, count=approx_tokens, docs=()
    ):
        if "mutates" not in flaws:
            facts, turns = list(facts), list(turns)
        docs = list(docs)
        counter = approx_tokens if "ignores count" in flaws else count

        def render():
            si = render_system(
                system, facts, "" if "cuts summary" in flaws and budget < 5 else summary
            )
            if "facts in a message" in flaws:
                si = render_system(system, [], summary)
            messages = [as_content(r, t) for r, t in turns]
            docs_messages = (
                [as_content("user", d) for d in docs]
                if "one message per doc" in flaws
                else (
                    [as_content("user", render_docs(docs))]
                    if docs or "empty docs message" in flaws
                    else []
                )
            )
            if "facts in a message" in flaws and facts:
                messages.insert(0, as_content("user", "\n".join(facts)))
            messages = (
                docs_messages + messages if "docs first" in flaws else messages + docs_messages
            )
            messages.append(as_content("user", question))
            total = sum(counter(m.parts[0].text) for m in messages)
            # counted as the one message it should have been
            if "one message per doc" in flaws and docs:
                total += counter(render_docs(docs)) - sum(counter(d) for d in docs)
            return si, messages, total + (0 if "total without system" in flaws else counter(si))

        si, contents, total = render()
        over = (lambda: total >= budget) if "drops at equal" in flaws else (lambda: total > budget)
        while over() and (turns or docs or facts or "never stops" in flaws):
            if docs and "docs before turns" in flaws:
                docs.pop()
            elif turns or "never stops" in flaws:
                turns.pop() if "newest first" in flaws else turns.pop(0)
            elif docs:
                docs.pop(0) if "first doc first" in flaws else docs.pop()
            else:
                facts.pop(0) if "first fact first" in flaws else facts.pop()
            si, contents, total = render()
        return si, contents, total

    build_context.__doc__ = "build_context: " + (", ".join(flaws) or "no flaw")
    return build_context


WRONG_ANSWERS = [
    # exercise, the wrong answer, words of the rule it must fail
    ("0.1", usage(uncached=lambda u: u.prompt_token_count or 0), "uncached is not"),
    ("0.1", usage(output=lambda u: u.candidates_token_count or 0), "output is not"),
    (
        "0.1",
        usage(prompt=lambda u: (u.prompt_token_count or 0) + (u.cached_content_token_count or 0)),
        "prompt must be the reported prompt count",
    ),
    (
        "0.1",
        usage(
            total=lambda u: (
                (u.prompt_token_count or 0)
                + (u.candidates_token_count or 0)
                + (u.thoughts_token_count or 0)
            )
        ),
        "total must be the total the API reports",
    ),
    ("0.1", usage_crashing_on_none, "None must count as 0"),
    ("0.1", usage(cached=lambda u: u.cached_content_token_count), "None must count as 0"),
    ("0.1", usage(prompt=lambda u: float(u.prompt_token_count or 0)), "must be an int"),
    ("0.1", lambda u: tuple(reference("0.1")(u).values()), "must return a dict"),
    ("1.1", sizes(lambda s, e, right: list(accumulate(right))), "running totals"),
    (
        "1.1",
        sizes(lambda s, e, right: [r + e[k][1] for k, r in enumerate(right)]),
        "already holds the reply",
    ),
    (
        "1.1",
        sizes(lambda s, e, right: [r - e[k][0] for k, r in enumerate(right)]),
        "user's message of their own turn",
    ),
    (
        "1.1",
        sizes(lambda s, e, right: [r - sum(m for _, m in e[:k]) for k, r in enumerate(right)]),
        "model's earlier replies",
    ),
    (
        "1.1",
        sizes(lambda s, e, right: [r - (s if k else 0) for k, r in enumerate(right)]),
        "only once",
    ),
    ("1.1", sizes(lambda s, e, right: [r - s for r in right]), "leave out the system instruction"),
    ("1.1", sizes_with_a_shared_default, "keeps something between calls"),
    ("1.1", sizes_as_a_generator, "return a list"),
    ("2.1", prefix_indexing_b_by_a, "different lengths"),
    ("2.1", prefix_counting_every_equal_block, "timestamp"),
    ("2.1", prefix_including_the_first_difference, "differing only in the question"),
    ("2.1", prefix_ignoring_count, "count=len"),
    ("2.1", prefix_by_identity, "two identical requests"),
    ("2.1", prefix_counting_blocks, "two identical requests"),
    (
        "2.1",
        prefix_compared_by(str.strip, "compares the blocks stripped of surrounding spaces"),
        "differs only by a newline",
    ),
    (
        "2.1",
        prefix_compared_by(str.lower, "compares the blocks lowercased"),
        "differs only by case",
    ),
    ("2.1", prefix_counting_the_joined_blocks, "count('Hi') + count('there')"),
    ("3.1", keeps_the_newest_turn, "all turns go, then only the last fact; you kept [turn 4"),
    ("3.2", counts_each_document_alone, "each message you returned, as sent"),
    ("3.1", flawed("newest first"), "oldest turn must go first"),
    ("3.1", flawed("ignores count"), "`count` you were given"),
    ("3.1", flawed("first fact first"), "only the last fact"),
    ("3.1", flawed("total without system"), "total"),
    ("3.1", flawed("facts in a message"), "must be in the system instruction"),
    ("3.1", flawed("mutates"), "changed the caller's"),
    ("3.1", flawed("drops at equal"), "nothing should be dropped"),
    ("3.1", flawed("cuts summary"), "system text or the summary is missing"),
    ("3.1", flawed("empty docs message"), "turns in order then the question"),
    ("3.1", flawed("never stops"), "dropped from an empty list"),
    ("3.2", flawed("docs first"), "ONE docs message"),
    ("3.2", flawed("one message per doc"), "ONE docs message"),
    ("3.2", flawed("docs before turns"), "oldest turn goes before any document"),
    ("3.2", flawed("first doc first"), "only the last document"),
]


def row_id(row):
    exercise, wrong, words = row
    return f"{exercise}-{words[:30]}"


@pytest.mark.parametrize(
    "exercise, wrong, words", WRONG_ANSWERS, ids=[row_id(r) for r in WRONG_ANSWERS]
)
def test_each_wrong_answer_fails_on_its_own_rule(exercise, wrong, words):
    result = run_check(exercise, wrong)
    assert result.status == FAILED, (
        f"{exercise}: a wrong answer got {result.status}: {result.line()}"
    )
    assert words in result.rule, f"{exercise}: expected a rule about {words!r}, got: {result.rule}"
    assert result.hint and "\n" not in result.line() and "Traceback" not in result.line()
    leaked = [snippet for snippet in ANSWER_SNIPPETS[exercise] if snippet in result.hint]
    assert not leaked, f"{exercise}: the hint gives the answer away ({leaked}): {result.hint}"


@pytest.mark.parametrize(
    "flaw", ["docs first", "one message per doc", "docs before turns", "first doc first"]
)
def test_the_docs_mistakes_pass_3_1(flaw):
    """They only show once there are documents: 3.1 must not blame them for something else."""
    assert run_check("3.1", flawed(flaw)).status == "passed"


def test_the_flawless_version_of_the_test_implementation_passes():
    assert run_check("3.1", flawed()).status == run_check("3.2", flawed()).status == "passed"


def test_a_failure_shows_what_was_kept():
    assert re.search(
        r"\[turn 1, turn 2, turn 3, the question\]", run_check("3.1", flawed("newest first")).rule
    )


def test_contents_that_are_dicts_are_refused_with_the_type_to_use():
    def dict_contents(*args, **kwargs):
        si, contents, total = reference("3.1")(*args, **kwargs)
        return si, [{"role": c.role, "parts": [{"text": c.parts[0].text}]} for c in contents], total

    result = run_check("3.1", dict_contents)
    assert result.status == FAILED and "types.Content" in result.hint
    assert isinstance(reference("3.1")("", [], "", [], "q?")[1][0], types.Content)
