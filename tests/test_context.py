"""build_context (3.1, 3.2): layout, drop order, what is never cut, bad input, and the fast version
agreeing with the naive one."""

import random
import time

import pytest
from google.genai import types

from harness.context import (
    DOCS_HEADING,
    FACTS_HEADING,
    SUMMARY_HEADING,
    build_context,
    build_context_naive,
    fit_budget,
    render_system,
)
from harness.tokens import approx_tokens

SYSTEM = "You are a concise assistant."
FACTS = ["Ana is on team Blue.", "Ana prefers tea.", "Ana lives in Lyon."]
SUMMARY = "Ana asked about the office move."
TURNS = [
    ("user", "Where is the new office?"),
    ("model", "It is on Rue Garibaldi."),
    ("user", "When do we move?"),
    ("model", "On 3 March."),
]
QUESTION = "Which team am I on?"
DOCS = ["The office moves in March.", "Parking is free.", "The canteen opens at noon."]


def texts(contents):
    return [(c.role, c.parts[0].text) for c in contents]


def total_of(system_instruction, contents, count=approx_tokens):
    return count(system_instruction) + sum(count(c.parts[0].text) for c in contents)


# Layout: what goes where


def test_a_generous_budget_keeps_everything_in_order():
    si, contents, total = build_context(SYSTEM, FACTS, SUMMARY, TURNS, QUESTION)
    assert si == render_system(SYSTEM, FACTS, SUMMARY)
    assert si.startswith(SYSTEM) and si.index(FACTS_HEADING) < si.index(SUMMARY_HEADING) < si.index(
        SUMMARY
    )
    assert all(f"- {fact}" in si.splitlines() for fact in FACTS)
    assert texts(contents) == TURNS + [("user", QUESTION)]
    assert all(isinstance(c, types.Content) for c in contents)
    assert total == total_of(si, contents)


def test_docs_are_one_user_message_after_the_turns_and_before_the_question():
    si, contents, total = build_context(SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, docs=DOCS)
    assert texts(contents)[:4] == TURNS and texts(contents)[-1] == ("user", QUESTION)
    role, docs_text = texts(contents)[4]
    assert role == "user" and docs_text.startswith(DOCS_HEADING)
    assert [docs_text.index(d) for d in DOCS] == sorted(docs_text.index(d) for d in DOCS)
    assert total == total_of(si, contents)


def test_an_empty_system_instruction_stays_empty():
    si, contents, _ = build_context("", [], "", [], QUESTION)
    assert si == "" and texts(contents) == [("user", QUESTION)]


def test_facts_without_system_text_do_not_start_with_a_blank_line():
    assert render_system("", ["Ana likes tea."], "") == f"{FACTS_HEADING}\n- Ana likes tea."


# Drop order and what is never cut


def full_total(**kwargs):
    return build_context(SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, budget=10**9, **kwargs)[2]


def test_a_budget_equal_to_the_total_drops_nothing():
    _, contents, total = build_context(SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, budget=full_total())
    assert len(contents) == 5 and total == full_total()


def test_the_oldest_turn_goes_first():
    _, contents, total = build_context(
        SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, budget=full_total() - 1
    )
    assert texts(contents) == TURNS[1:] + [("user", QUESTION)]
    assert total == full_total() - approx_tokens(TURNS[0][1])


def test_after_the_turns_the_last_doc_goes_then_the_last_fact():
    everything = full_total(docs=DOCS)
    no_turns = everything - sum(approx_tokens(t) for _, t in TURNS)
    si, contents, total = build_context(
        SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, budget=no_turns - 1, docs=DOCS
    )
    assert (
        len(contents) == 2
        and DOCS[-1] not in contents[0].parts[0].text
        and DOCS[0] in contents[0].parts[0].text
    )
    assert si == render_system(SYSTEM, FACTS, SUMMARY) and total <= no_turns - 1
    fit = fit_budget(
        SYSTEM,
        FACTS,
        SUMMARY,
        TURNS,
        QUESTION,
        budget=approx_tokens(render_system(SYSTEM, FACTS, SUMMARY)) + approx_tokens(QUESTION) - 1,
        docs=DOCS,
    )
    assert fit == (
        4,
        0,
        2,
        approx_tokens(render_system(SYSTEM, FACTS[:2], SUMMARY)) + approx_tokens(QUESTION),
    )


def test_system_summary_and_question_survive_any_budget():
    si, contents, total = build_context(
        SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, budget=1, docs=DOCS
    )
    assert si == render_system(SYSTEM, [], SUMMARY) and texts(contents) == [("user", QUESTION)]
    assert total == approx_tokens(si) + approx_tokens(QUESTION) > 1


def test_a_custom_count_decides_what_goes():
    heavy = lambda text: 100 if "Garibaldi" in text else 1  # noqa: E731
    _, contents, total = build_context(
        SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, budget=10, count=heavy
    )
    assert texts(contents) == TURNS[2:] + [("user", QUESTION)] and total == 4


def test_the_callers_lists_are_not_changed():
    facts, turns, docs = list(FACTS), list(TURNS), list(DOCS)
    build_context(SYSTEM, facts, SUMMARY, turns, QUESTION, budget=1, docs=docs)
    assert (facts, turns, docs) == (FACTS, TURNS, DOCS)


# Bad input


@pytest.mark.parametrize("budget", [0, -5, 2.5, "6000", True, None])
def test_a_budget_that_is_not_a_positive_int_is_refused(budget):
    with pytest.raises(ValueError, match=r"budget must be a positive whole number.*budget=6000"):
        build_context(SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, budget=budget)


@pytest.mark.parametrize("turn", [("assistant", "Hello."), ("system", "x"), ("user",), "user: hi"])
def test_a_bad_turn_is_refused_with_its_index(turn):
    with pytest.raises(ValueError, match=r"turns\[2\]"):
        build_context(SYSTEM, FACTS, SUMMARY, TURNS[:2] + [turn], QUESTION)


def test_two_turns_of_the_same_role_in_a_row_are_fine():
    _, contents, _ = build_context(SYSTEM, [], "", [("user", "a"), ("user", "b")], QUESTION)
    assert [c.role for c in contents] == ["user", "user", "user"]


# The fast version and the naive one agree


def random_case(rng):
    words = "invoice discount cent units total tax README test Ana Lyon team Blue".split()
    say = lambda n: " ".join(rng.choice(words) for _ in range(n)) + "."  # noqa: E731
    return dict(
        system=rng.choice(["", say(8)]),
        facts=[say(rng.randint(1, 6)) for _ in range(rng.randint(0, 4))],
        summary=rng.choice(["", say(12)]),
        question=say(5) + "?",
        turns=[
            (rng.choice(["user", "model"]), say(rng.randint(0, 15)))
            for _ in range(rng.randint(0, 30))
        ],
        docs=[say(rng.randint(1, 10)) for _ in range(rng.randint(0, 4))],
        budget=rng.randint(1, 300),
        count=rng.choice([approx_tokens, len, lambda text: len(text.split())]),
    )


@pytest.mark.parametrize("seed", range(300))
def test_build_context_and_the_naive_version_agree(seed):
    case = random_case(random.Random(seed))
    fast, naive = build_context(**case), build_context_naive(**case)
    assert fast == naive
    assert fast[2] == total_of(fast[0], fast[1], case["count"])


def test_the_fast_version_is_much_faster_on_a_long_history():
    turns = [
        ("user" if i % 2 == 0 else "model", f"turn {i} about invoices and rounding rules")
        for i in range(1000)
    ]
    args = (SYSTEM, FACTS, SUMMARY, turns, QUESTION)

    def best_of(fn, runs):
        times = []
        for _ in range(runs):
            start = time.thread_time()  # this thread's CPU: other processes' load does not count
            fn(*args, budget=600)
            times.append(time.thread_time() - start)
        return min(times)

    assert best_of(build_context_naive, 1) > 20 * best_of(build_context, 3)
