"""harness.probes: sessions on the glass box, grading, the trigger filter, the global judge."""

import pytest

from harness import MODEL, connect
from harness.billing import bill, cache_hit_rate, price_for
from harness.engine import MIN_CACHE_TOKENS
from harness.probes import (
    STRATEGIES,
    compaction_fired_before_probe,
    filter_triggered,
    global_quality,
    grade_probe,
    probe_results,
    recall,
    run_session,
    whole_answer_share,
    with_knobs,
)
from harness.scenarios.course import search_course
from harness.scenarios.course.script import PROBES


@pytest.fixture(scope="module")
def runs():
    client = connect()
    return {name: run_session(client, strategy) for name, strategy in STRATEGIES.items()}


def test_grade_probe_needs_every_key_point_whatever_the_case_and_spacing():
    assert grade_probe("It is  PROMPT\ncache pricing.", ["prompt cache pricing"])
    assert not grade_probe("It is prompt cache pricing.", ["prompt cache pricing", "250 ms"])


def test_full_history_recalls_every_planted_fact_and_never_compacts(runs):
    run = runs["full history"]
    assert probe_results(run) == [True] * len(PROBES)
    assert run.compaction_count() == 0 and not compaction_fired_before_probe(run)


def test_repeated_compaction_loses_the_planted_facts(runs):
    run = runs["compaction at threshold"]
    assert run.compaction_count() >= 2 and compaction_fired_before_probe(run)
    assert recall(run) < recall(runs["full history"])
    assert filter_triggered(runs.values()) == [r for r in runs.values() if r.compaction_count()]


def test_a_bigger_summary_budget_keeps_the_facts():
    assert (
        recall(
            run_session(
                connect(), with_knobs(STRATEGIES["compaction at threshold"], summary_words=150)
            )
        )
        == 1.0
    )


def test_capping_is_cheaper_and_keeps_the_cache(runs):
    price = price_for()
    full, capped = runs["full history"], runs["capped outputs"]
    assert bill(capped.usages(), price) < bill(full.usages(), price)
    # Append-only: once the previous request clears the model's minimum, all of it is cached.
    for before, after in zip(capped.bundles, capped.bundles[1:]):
        if before.prompt_tokens >= MIN_CACHE_TOKENS[MODEL]:
            assert after.cached_tokens == before.prompt_tokens, (
                f"call at turn {after.turn} lost the cache"
            )


def test_the_prefix_preserving_summariser_call_hits_the_cache_and_the_naive_one_does_not():
    # compacts above the model's cache minimum
    roomy = {
        "context_budget": 10_000,
        "summary_words": 100,
    }
    preserving = run_session(
        connect(), with_knobs(STRATEGIES["prefix-preserving summary"], **roomy)
    )
    naive = run_session(connect(), with_knobs(STRATEGIES["compaction at threshold"], **roomy))
    assert preserving.compaction_count() and naive.compaction_count()
    assert cache_hit_rate(preserving.usages(kind="summary")) > 0.8
    assert cache_hit_rate(naive.usages(kind="summary")) == 0


def test_under_a_window_below_the_cache_minimum_no_summariser_call_is_cached(runs):
    run = runs["prefix-preserving summary"]  # compacts at 0.7 x 4,000 tokens, below 4,096
    assert (
        run.compaction_count()
        and max(b.prompt_tokens for b in run.bundles) < MIN_CACHE_TOKENS[MODEL]
    )
    assert cache_hit_rate(run.usages()) == 0


def test_an_answer_quotes_a_whole_sentence_only_when_the_cap_left_one_whole(runs):
    assert whole_answer_share(runs["full history"]) > 0.7
    cut = run_session(
        connect(), with_knobs(STRATEGIES["capped outputs"], tool_output_max_chars=100)
    )
    assert recall(cut) == 1.0 and whole_answer_share(cut) == 0


def test_a_timestamp_in_the_system_instruction_destroys_the_hit_rate():
    stamped = run_session(
        connect(), with_knobs(STRATEGIES["full history"], timestamp_in_system=True), questions=3
    )
    assert cache_hit_rate(stamped.usages()) == 0


def test_the_global_judge_rates_a_confident_answer_that_lost_the_fact_as_good():
    question = PROBES[1].question
    wrong = 'From what I can see: "A judge looks at the topic, the form and the tone."'
    assert not grade_probe(wrong, PROBES[1].key_points)
    assert global_quality(question, wrong) == 1.0
    assert global_quality(question, "I don't know: nothing in what I was given says that.") < 1.0


def test_search_course_returns_the_best_passages_first():
    assert search_course("Why do timestamps break the cache?", k=1).startswith("[timestamps]")
    assert search_course("anything at all").count("\n[") == 3


def test_a_glass_box_session_run_again_in_the_process_is_replayed_as_an_equal_copy(monkeypatch):
    from harness import probes

    strategy = with_knobs(STRATEGIES["capped outputs"], name="replayed")
    first = run_session(connect(), strategy, questions=2)
    first.name = "renamed by a lesson"  # a lesson's rename must not reach the next caller
    monkeypatch.setattr(probes, "_Session", None)  # a second real run would fail here
    again = run_session(connect(), strategy, questions=2)
    assert again is not first and again.name == "replayed"
    assert [b.usage for b in again.bundles] == [b.usage for b in first.bundles]


def test_a_stand_in_client_is_never_replayed():
    from harness.probes import _replay_key

    assert _replay_key(object(), STRATEGIES["full history"], 2, "gemini-3.8-flash") is None
