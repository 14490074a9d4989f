"""The numbers and directions lessons 00-04 and 08 state in their prose, checked against the figures
their cells print (the pattern of test_lesson_claims.py): each test holds the sentence and what it
says, so neither can change alone."""

import pytest
from lesson_outputs import executed, printed_by
from test_lesson_claims import claim

from harness import MODEL
from harness.billing import price_for
from harness.models import model_row


def test_00_cached_tokens_bill_about_10x_cheaper_and_the_limits_are_the_model_s():
    claim("00", "the part of the prompt served from cache (billed about 10x cheaper)")
    claim("00", "1,048,576 tokens for `harness.MODEL`")
    claim("00", "at most 65,536 here")
    price, row = price_for(), model_row(MODEL)
    assert round(price.input / price.cached_input) == 10
    assert (row.input_token_limit, row.output_token_limit) == (1_048_576, 65_536)


def test_00_the_counts_agree_on_the_glass_box_and_a_call_costs_a_tiny_fraction_of_a_cent():
    claim("00", "On the glass box they agree exactly")
    claim("00", "A call like this one costs a tiny fraction of a cent")
    names = executed("00", 14)
    counted = printed_by(names, "00", "count_tokens(model=MODEL").splitlines()
    total = int(counted[0].rsplit("= ", 1)[1])
    contents = int(counted[0].split("contents ")[1].split(" =")[0])
    assert total == int(counted[2].rsplit(": ", 1)[1]) and counted[1].endswith(f": {contents}")
    assert names["dollars"] < 0.01 / 10  # under a tenth of a cent


@pytest.fixture(scope="module")
def lesson01():
    return executed("01", 12)


def test_01_each_prompt_is_the_one_before_plus_one_exchange(lesson01):
    claim("01", "Each prompt is bigger than the one before by one exchange")
    claim("01", "at a tenth of the price")
    prompts = lesson01["prompts"]
    assert lesson01["predicted"] == prompts and prompts == sorted(prompts)
    assert price_for().cached_input == pytest.approx(price_for().input / 10)


def test_01_twice_the_turns_roughly_quadruples_the_input(lesson01):
    claim("01", "double `n` and the input roughly quadruples")
    ratio = lesson01["long_session"] / lesson01["session"]
    assert 3.5 <= ratio <= 4.0


def test_02_the_timestamp_on_top_never_hits_and_the_other_layouts_cache_the_previous_request():
    claim("02", "the cache never hits, and every call pays the full input price")
    claim(
        "02", "From the second call on, the whole previous request is a prefix the cache has seen"
    )
    claim("02", "moved into the volatile end of the request: the cache is back")
    sessions = executed("02", 6)["sessions"]
    assert all(cached == 0 for _, _, cached in sessions["timestamp on top"])
    for name in ("stable first", "timestamp last"):
        calls = sessions[name]
        assert calls[0][2] == 0
        assert all(now[2] == before[1] for before, now in zip(calls, calls[1:])), name


@pytest.fixture(scope="module")
def lesson03():
    return executed("03", 17, panels=True)


def test_03_a_tight_budget_keeps_only_the_never_cut_blocks(lesson03):
    claim(
        "03",
        "A budget that tight makes the assistant forget everything but its system text and summary",
    )
    build = lesson03["build_context"]
    names = [lesson03[k] for k in ("SYSTEM", "FACTS", "SUMMARY", "TURNS", "QUESTION")]
    system_instruction, contents, _ = build(*names, budget=120)
    assert len(contents) == 1 and not any(fact in system_instruction for fact in lesson03["FACTS"])
    assert lesson03["SUMMARY"] in system_instruction


def test_03_the_naive_re_count_is_about_n_squared_over_two(lesson03):
    claim("03", "With n turns to drop that is about n²/2 counts")
    rows = printed_by(lesson03, "03", "def measured(").splitlines()[1:]
    for row in rows:
        turns, _, naive = (int(x.replace(",", "")) for x in row.split()[:3])
        assert abs(naive / (turns**2 / 2) - 1) < 0.1, row


def test_03_one_token_less_one_turn_less_and_the_locker_code_is_gone(lesson03):
    claim("03", "One token less, one turn less, and the locker code is gone")
    lines = printed_by(lesson03, "03", "LOCKER_QUESTION = ").splitlines()
    (full, kept_full), (less, kept_less) = [
        (int(line.split()[1].rstrip(":")), int(line.split()[2])) for line in lines[0::3]
    ]
    assert less == full - 1 and kept_less == kept_full - 1
    assert "4711" in lines[1] and lines[5].endswith("True")


@pytest.fixture(scope="module")
def lesson04():
    return executed("04", 27)


def test_04_head_and_tail_runs_the_tests_once_before_fixing_and_once_after_each_fix(lesson04):
    claim("04", "the agent runs the tests once before fixing and once after each fix")
    claim("04", "The task is short (a dozen turns)")
    report = lesson04["runs"]["head_and_tail"]
    assert lesson04["test_runs"](report) == 1 + len(report.edited) and len(report.turns) == 12


def test_04_masking_at_keep_3_takes_more_turns_and_a_lower_cached_share(lesson04):
    claim("04", "the agent needs a masked file again and reads it again (more turns)")
    claim("04", "a lower share of the input is billed at the cached rate")
    baseline, masked = lesson04["baseline"], lesson04["masked_runs"][3]
    reads = [sum(t.tool == "read_file" for t in r.turns) for r in (baseline, masked)]
    assert len(masked.turns) > len(baseline.turns) and reads[1] > reads[0]
    share = [r.cached_tokens / r.input_tokens for r in (baseline, masked)]
    assert share[1] < share[0]


def test_08_the_summaries_push_the_planted_facts_to_the_end_and_out():
    claim("08", "Watch the planted facts slide to the end and drop")
    names = executed("08", 10)
    planted = [f for f in names["PLANTED"].split(". ") if f]
    summaries = [b.answer for b in names["run"].bundles if b.kind == "summary"]
    facts = [s.split("**User facts:** ")[1].split("\n")[0].split("; ") for s in summaries]
    places = [
        [i for i, f in enumerate(fs) if any(p.rstrip(".") in f for p in planted)] for fs in facts
    ]
    assert places[0] and places[-1] == [] and places[0][-1] == len(facts[0]) - 1
