"""harness.probes: sessions on the glass box, grading, the trigger filter, the global judge."""
import pytest

from harness import connect
from harness.billing import PRICES, bill, cache_hit_rate
from harness.probes import (STRATEGIES, compaction_fired_before_probe, filter_triggered, global_quality,
                            grade_probe, probe_results, recall, run_session, with_knobs)
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
    assert recall(run_session(connect(), with_knobs(STRATEGIES["compaction at threshold"], summary_words=150))) == 1.0


def test_capping_is_cheaper_and_keeps_the_cache(runs):
    flash = PRICES["gemini-2.5-flash"]
    full, capped = runs["full history"], runs["capped outputs"]
    assert bill(capped.usages(), flash) < bill(full.usages(), flash)
    assert cache_hit_rate(capped.usages()) > 0.8


def test_the_prefix_preserving_summariser_call_hits_the_cache_and_the_naive_one_does_not(runs):
    assert cache_hit_rate(runs["prefix-preserving summary"].usages(kind="summary")) > 0.8
    assert cache_hit_rate(runs["compaction at threshold"].usages(kind="summary")) == 0


def test_a_timestamp_in_the_system_instruction_destroys_the_hit_rate():
    stamped = run_session(connect(), with_knobs(STRATEGIES["full history"], timestamp_in_system=True), questions=3)
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
