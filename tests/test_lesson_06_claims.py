"""Each claim lesson 06's text (and its quiz) makes about its own outputs, checked against those
outputs (the pattern of test_lesson_claims.py)."""

import itertools
import re

import pytest
from lesson_outputs import cell_index, executed
from test_lesson_claims import claim

from harness.quizzes.lesson06 import QUESTIONS

LESSON = "06"


@pytest.fixture(scope="module")
def names():
    return executed(LESSON, 16)


def _margins(trap, threshold):
    """How far the compacting prompt passes the threshold, and the one before stays under it."""
    cut = next(t for t in trap.turns if t.compacted)
    before = trap.turns[cut.turn - 2]
    return cut.prompt_tokens - threshold, threshold - before.prompt_tokens


def test_the_cell_prints_by_how_much_the_first_compaction_passes_the_threshold(names):
    claim(
        LESSON,
        "0.7 x 5,350 = 3,745 tokens and the one before it does not (the cell after the table "
        "prints "
        "by how much)",
    )
    threshold = names["TRAP"].compact_threshold
    assert threshold == pytest.approx(3_745)
    over, under = _margins(names["trap"], threshold)
    assert over > 0 and under > 0
    first = names["_printed"][cell_index(LESSON, "before = trap.turns[")].splitlines()[0]
    assert (
        first
        == f"turn 9's prompt passes the threshold 3,745 by {over:,.0f} tokens; turn 8's stays "
        f"{under:,.0f} under it"
    ), first


def test_the_cap_panel_says_the_run_overshoots_by_up_to_one_call(names):
    claim(
        LESSON,
        "a run overshoots its cap by up to one call's tokens, and the readout says by how much",
    )
    from harness.widgets.lesson06 import calls_made, readout

    report = names["run_agent"](names["AgentConfig"](truncation_mode="head_only"))
    calls = [t.prompt_tokens + t.output_tokens for t in report.turns]
    cumulative = list(itertools.accumulate(calls))
    overshoots = 0
    for cap in range(2_000, 50_001, 1_000):
        ran = calls_made(cumulative, cap)
        spent = cumulative[ran - 1]
        assert spent - cap <= calls[ran - 1]
        if spent > cap:
            overshoots += 1
            assert f"{spent - cap:,} past the cap" in readout(cumulative, cap)
    assert overshoots


def test_quiz_3_gives_the_summary_s_text_tokens(names):
    question = next(q for q in QUESTIONS if "max_output_tokens=600" in q.prompt)
    stated = int(re.search(r"with (\d+) tokens of text", question.prompt).group(1))
    cut = next(t for t in names["trap"].turns if t.compacted)
    assert stated == cut.summary_usage.candidates_token_count, (stated, cut.summary_usage)


def test_the_thoughts_come_first_two_per_planned_token_and_take_most_of_the_budget(names):
    claim(
        LESSON,
        "thinks two tokens for each token of the answer it plans, all before writing any of it",
    )
    claim(LESSON, "its thoughts took most of the 600")
    usage = next(t for t in names["trap"].turns if t.compacted).summary_usage
    thoughts, text = usage.thoughts_token_count, usage.candidates_token_count
    assert thoughts + text == 600 and thoughts > 300 and thoughts % 2 == 0 and thoughts > 2 * text


def test_the_trap_costs_two_turns_and_a_few_thousand_tokens_and_the_state_block_saves_them(names):
    claim(LESSON, "two turns and a few thousand tokens lost")
    claim(LESSON, "finishes in fewer turns and tokens, and reports both fixes")
    trap, fixed = names["trap"], names["fixed"]
    assert len(trap.turns) - len(fixed.turns) == 2
    assert 2_000 <= trap.input_tokens - fixed.input_tokens < 10_000
    assert all(path in fixed.turns[-1].result for path in fixed.edited) and len(fixed.edited) == 2
