"""Checks 0.1, 1.1, 2.1, 3.1 and 3.2 fail on the mistakes students actually make, naming the broken
rule (test_checks_framework runs every check on its reference and on a stub)."""
import pytest
from google.genai import types

from harness.checks import ExerciseFailed, check, reference
from harness.context import as_content, render_docs, render_system
from harness.tokens import approx_tokens

def fails(exercise_id, fn, match):
    with pytest.raises(ExerciseFailed, match=match) as failure:
        check(exercise_id, fn)
    assert "Hint:" in str(failure.value)


# 0.1 describe_usage


def usage_without_subtracting_cache(usage):
    return {"prompt": usage.prompt_token_count or 0, "cached": usage.cached_content_token_count or 0,
            "uncached": usage.prompt_token_count or 0,
            "output": (usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0),
            "total": usage.total_token_count or 0}


def usage_forgetting_thoughts(usage):
    return {**reference("0.1")(usage), "output": usage.candidates_token_count or 0}


def usage_crashing_on_none(usage):
    prompt, cached = usage.prompt_token_count, usage.cached_content_token_count
    return {"prompt": prompt, "cached": cached, "uncached": prompt - cached,
            "output": usage.candidates_token_count + usage.thoughts_token_count, "total": usage.total_token_count}


def usage_keeping_none(usage):
    return {**reference("0.1")(usage), "cached": usage.cached_content_token_count}


@pytest.mark.parametrize("wrong, match", [
    (usage_without_subtracting_cache, "uncached"),
    (usage_forgetting_thoughts, "thinking"),
    (usage_crashing_on_none, "raised TypeError"),
    (usage_keeping_none, "must be an int"),
])
def test_describe_usage_catches(wrong, match):
    fails("0.1", wrong, match)


# 1.1 naive_prompt_sizes


def sizes_counting_the_current_reply(system, exchanges):
    out, history = [], system
    for user, model in exchanges:
        history += user + model
        out.append(history)
    return out


def sizes_forgetting_replies(system, exchanges):
    out, history = [], system
    for user, _ in exchanges:
        history += user
        out.append(history)
    return out


def sizes_with_system_once(system, exchanges):
    return [size - (system if i else 0) for i, size in enumerate(reference("1.1")(system, exchanges))]


def sizes_with_a_shared_default(system, exchanges, _seen=[]):  # noqa: B006 (the bug under test)
    for user, model in exchanges:
        _seen.append((user, model))
    return reference("1.1")(system, _seen)[-len(exchanges):] if exchanges else []


@pytest.mark.parametrize("wrong, match", [
    (sizes_counting_the_current_reply, "first prompt"),
    (sizes_forgetting_replies, "second prompt"),
    (sizes_with_system_once, "second prompt.*\n.*system instruction"),
    (sizes_with_a_shared_default, "second prompt"),
])
def test_naive_prompt_sizes_catches(wrong, match):
    fails("1.1", wrong, match)


# 2.1 stable_prefix_tokens


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


@pytest.mark.parametrize("wrong, match", [
    (prefix_counting_every_equal_block, "timestamp"),
    (prefix_including_the_first_difference, "differing only in the question"),
    (prefix_ignoring_count, "count=len"),
])
def test_stable_prefix_tokens_catches(wrong, match):
    fails("2.1", wrong, match)


# 3.1 and 3.2 build_context: one simple implementation with switchable mistakes


def flawed(*flaws):
    def build_context(system, facts, summary, turns, question, budget=6000, count=approx_tokens, docs=()):
        if "mutates" not in flaws:
            facts, turns = list(facts), list(turns)
        docs = list(docs)
        counter = approx_tokens if "ignores count" in flaws else count

        def render():
            si = render_system(system, facts, "" if "cuts summary" in flaws and budget < 5 else summary)
            if "facts in a message" in flaws:
                si = render_system(system, [], summary)
            messages = [as_content(r, t) for r, t in turns]
            docs_messages = ([as_content("user", d) for d in docs] if "one message per doc" in flaws
                             else [as_content("user", render_docs(docs))] if docs or "empty docs message" in flaws else [])
            if "facts in a message" in flaws and facts:
                messages.insert(0, as_content("user", "\n".join(facts)))
            messages = docs_messages + messages if "docs first" in flaws else messages + docs_messages
            messages.append(as_content("user", question))
            total = sum(counter(m.parts[0].text) for m in messages)
            return si, messages, total + (0 if "total without system" in flaws else counter(si))

        si, contents, total = render()
        over = (lambda: total >= budget) if "drops at equal" in flaws else (lambda: total > budget)
        while over() and (turns or docs or facts):
            if docs and "docs before turns" in flaws:
                docs.pop()
            elif turns:
                turns.pop() if "newest first" in flaws else turns.pop(0)
            elif docs:
                docs.pop(0) if "first doc first" in flaws else docs.pop()
            else:
                facts.pop(0) if "first fact first" in flaws else facts.pop()
            si, contents, total = render()
        return si, contents, total

    return build_context


def test_the_flawless_version_of_the_test_implementation_passes():
    check("3.1", flawed())
    check("3.2", flawed())


@pytest.mark.parametrize("flaw, match", [
    ("newest first", "oldest turn must go first"),
    ("ignores count", "`count` you\\s+were given"),
    ("first fact first", "only the last fact"),
    ("total without system", "total"),
    ("facts in a message", "must be in the system instruction"),
    ("mutates", "changed the caller's"),
    ("drops at equal", "nothing should be dropped"),
    ("cuts summary", "never cut"),
    ("empty docs message", "turns in order then the question"),
])
def test_build_context_catches(flaw, match):
    fails("3.1", flawed(flaw), match)


@pytest.mark.parametrize("flaw, match", [
    ("docs first", "ONE docs message"),
    ("one message per doc", "ONE docs message"),
    ("docs before turns", "oldest turn goes before any document"),
    ("first doc first", "only the last document"),
])
def test_build_context_docs_catches(flaw, match):
    check("3.1", flawed(flaw))  # these mistakes only show once there are documents
    fails("3.2", flawed(flaw), match)


def test_a_check_failure_shows_what_was_kept():
    with pytest.raises(ExerciseFailed, match=r"\[turn 1, turn 2, turn 3, the question\]"):
        check("3.1", flawed("newest first"))


def test_contents_that_are_dicts_are_refused_with_the_type_to_use():
    def dict_contents(*args, **kwargs):
        si, contents, total = reference("3.1")(*args, **kwargs)
        return si, [{"role": c.role, "parts": [{"text": c.parts[0].text}]} for c in contents], total

    fails("3.1", dict_contents, "types.Content")
    assert isinstance(reference("3.1")("", [], "", [], "q?")[1][0], types.Content)
