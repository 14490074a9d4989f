"""Each claim lesson 06's text (and its quiz) makes about its own outputs, checked against those
outputs (the pattern of test_lesson_claims.py)."""
import re

import pytest

from harness.quizzes.lesson06 import QUESTIONS
from lesson_outputs import executed
from test_lesson_claims import claim

LESSON = "06"


@pytest.fixture(scope="module")
def names():
    return executed(LESSON, 16)


def _margins(trap, threshold):
    """How far the compacting prompt passes the threshold, and how far the one before stays under it."""
    cut = next(t for t in trap.turns if t.compacted)
    before = trap.turns[cut.turn - 2]
    return cut.prompt_tokens - threshold, threshold - before.prompt_tokens


def test_the_first_compaction_passes_the_threshold_by_some_40_tokens(names):
    claim(LESSON, "0.7 x 5,350 = 3,745 tokens and the one before it does not, each by some 40 tokens")
    threshold = names["TRAP"].compact_threshold
    assert threshold == 3_745
    over, under = _margins(names["trap"], threshold)
    assert abs(over - 40) <= 10 and abs(under - 40) <= 10, (over, under)


def test_quiz_3_gives_the_summary_s_text_tokens(names):
    question = next(q for q in QUESTIONS if "max_output_tokens=600" in q.prompt)
    stated = int(re.search(r"with (\d+) tokens of text", question.prompt).group(1))
    cut = next(t for t in names["trap"].turns if t.compacted)
    assert stated == cut.summary_usage.candidates_token_count, (stated, cut.summary_usage)
