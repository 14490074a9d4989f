"""Each claim the lessons' text makes about their own outputs, checked against those outputs.

A test per claim: it asserts the sentence is still in the lesson, then recomputes what the sentence
says (a direction, a crossing, a share, "pays") from the lesson's own cells or the harness calls
they make, so the text and the numbers cannot drift apart. Change one, and the test says which.
The glass box is deterministic, so each figure is the one the executed notebook prints.
"""

import contextlib
import io
import re
from pathlib import Path

import nbformat
import pytest

from harness import MODEL, connect
from harness.billing import bill, break_even_cached_price, price_for
from harness.models import model_row
from harness.probes import STRATEGIES, run_session

SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions"


def notebook(lesson: str):
    return nbformat.read(next(SOLUTIONS.glob(f"{lesson}_*.ipynb")), as_version=4)


def text(lesson: str) -> str:
    """The lesson's prose, lines joined: a claim may wrap."""
    return " ".join(
        " ".join(c.source.split()) for c in notebook(lesson).cells if c.cell_type == "markdown"
    )


def run_cells(lesson: str, last: int) -> dict:
    """Run the lesson's code cells up to cell `last`, as the notebook does, panels and quiz left out
    (they only draw); return the names they defined."""
    names: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in notebook(lesson).cells[: last + 1]:
            if cell.cell_type == "code" and "NBVAL_IGNORE_OUTPUT" not in cell.source:
                exec(compile(cell.source, f"{lesson}-cell", "exec"), names)  # noqa: S102 - our own lesson
    return names


def claim(lesson: str, sentence: str) -> None:
    assert sentence in text(lesson), (
        f"lesson {lesson} no longer says {sentence!r}: update its test with it"
    )


# Lesson 00
# ------------------------------------------------------------------------------------------


def test_00_over_the_window_is_a_400_and_a_small_cap_ends_on_max_tokens():
    claim("00", "Gemini refuses it with `400 INVALID_ARGUMENT`")
    claim("00", "the answer is empty and the finish reason is `MAX_TOKENS`")
    cells = notebook("00").cells
    last = next(i for i, cell in enumerate(cells) if "limits.input_token_limit + 1" in cell.source)
    names, out = run_cells("00", last - 1), io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(cells[last].source, "00-limits", "exec"), names)  # noqa: S102 - our own lesson
    printed = out.getvalue()
    assert "refused: 400 INVALID_ARGUMENT: The input token count (1048577) exceeds" in printed
    small, roomy = [line for line in printed.splitlines() if line.startswith("max_output_tokens")]
    assert (
        "finish MAX_TOKENS" in small and "answer   0 tokens ''" in small and "finish STOP" in roomy
    )


# Lesson 01
# ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lesson01():
    return run_cells("01", 3)


def test_01_the_cached_column_is_zero_because_no_prompt_reaches_the_minimum(lesson01):
    claim("01", 'The "cached" column stays at zero in every row')
    claim("01", "never reach the model's 4,096-token cache minimum")
    assert all(not (u.cached_content_token_count or 0) for u in lesson01["usages"])
    assert max(lesson01["prompts"]) < model_row(MODEL).implicit_cache_min == 4_096


def test_01_the_session_costs_many_times_its_last_prompt(lesson01):
    claim("01", "the session costs many times its last prompt")
    assert sum(lesson01["prompts"]) >= 5 * lesson01["prompts"][-1]


# Lesson 04
# ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lesson04():
    return run_cells("04", 27)


def test_04_a_head_only_cap_reruns_the_tests_and_head_and_tail_finishes(lesson04):
    claim("04", "With the head only it never sees a verdict: it keeps re-running")
    runs, test_runs = lesson04["runs"], lesson04["test_runs"]
    assert test_runs(runs["head_only"]) > test_runs(runs["head_and_tail"])
    assert not lesson04["done"](runs["head_only"]) and lesson04["done"](runs["head_and_tail"])


def test_04_masking_does_not_pay_at_keep_3_and_keep_2_is_cheaper_but_not_done(lesson04):
    claim("04", "masking at the default keep of 3 does not pay")
    claim(
        "04",
        "A tighter keep of 2 makes the run shorter and cheaper here, but the agent stops with tests"
        " still failing",
    )
    baseline, masked, done = lesson04["baseline"], lesson04["masked_runs"], lesson04["done"]
    assert masked[3].cost > baseline.cost
    assert (
        len(masked[2].turns) < len(baseline.turns)
        and masked[2].cost < baseline.cost
        and not done(masked[2])
    )


# Lesson 07
# ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tutor_runs():
    client = connect()
    return {
        name: run_session(client, STRATEGIES[name])
        for name in (
            "full history",
            "capped outputs",
            "compaction at threshold",
            "aggressive compaction",
        )
    }


def _crossing(runs, turn):
    from harness.widgets.lesson07 import _up_to

    return break_even_cached_price(
        _up_to(runs["capped outputs"], turn),
        _up_to(runs["compaction at threshold"], turn),
        price_for(),
    )


def test_07_longer_sessions_push_the_crossing_price_up(tutor_runs):
    claim("07", "Longer sessions push the crossing price up")
    claim("07", "Slide the length down to 10 turns: the lines then cross below zero")
    last = max(b.turn for b in tutor_runs["capped outputs"].bundles)
    crossings = [_crossing(tutor_runs, turn) for turn in range(12, last + 1)]
    assert crossings == sorted(crossings) and crossings[-1] > crossings[0] > 0
    assert _crossing(tutor_runs, 10) < 0


def test_07_compacted_sessions_are_never_cached_and_only_aggressive_compaction_costs_less(
    tutor_runs,
):
    claim("07", "and none of their calls is ever cached")
    claim("07", "Summarising at the threshold therefore costs more than keeping everything here")
    claim(
        "07",
        "aggressive compaction, which keeps one turn and sends a fifth of the tokens, comes out"
        " cheaper",
    )
    cost = {name: bill(run.usages(), price_for()) for name, run in tutor_runs.items()}
    prompt = {name: sum(b.prompt_tokens for b in run.bundles) for name, run in tutor_runs.items()}
    for name in ("compaction at threshold", "aggressive compaction"):
        assert sum(u.cached_content_token_count or 0 for u in tutor_runs[name].usages()) == 0
    assert cost["compaction at threshold"] > cost["full history"] > cost["aggressive compaction"]
    assert round(prompt["aggressive compaction"] / prompt["full history"], 1) == 0.2


# Lesson 14
# ------------------------------------------------------------------------------------------


def test_09_the_window_is_the_real_one_scaled_and_the_full_history_fills_eight():
    from harness.capstone import WINDOW, full_history, scale

    claim("14", "Here the window is 1,600 tokens, about 1/655 of that")
    claim("14", "the full history peaks near 12,700 tokens, about eight windows")
    assert WINDOW == 1_600 and round(scale()) == 655
    peak = full_history()["largest request"]
    assert 12_400 <= peak <= 13_000 and round(peak / WINDOW) == 8


# Lesson 03
# ------------------------------------------------------------------------------------------


def test_03_the_naive_re_count_counts_ever_more_texts_than_the_running_total():
    claim("03", "The texts counted are exact (measured here), and their gap grows with the history")
    names = run_cells(
        "03", next(i for i, c in enumerate(notebook("03").cells) if "def measured(" in c.source)
    )
    ratios = []
    for n in (100, 300, 600):
        history = [
            ("user", f"Turn {i}: we checked invoice {i} and its rounding rule.") for i in range(n)
        ]
        (fast, _), (naive, _) = (
            names["measured"](build, history, 0)
            for build in (names["reference_build_context"], names["build_context_naive"])
        )
        ratios.append(naive / fast)
    assert ratios == sorted(ratios) and ratios[0] > 1, ratios


def test_14_the_agent_compacts_at_5000_and_never_at_24000():
    from harness.agent import AgentConfig, run_agent

    claim(
        "14",
        "this short task's prompts stay far under 0.7 x 24,000 (the largest is printed at the top"
        " of the lesson, beside that threshold)",
    )
    claim("14", "at 5,000 the largest prompts pass 0.7 x 5,000 = 3,500")
    default = run_agent(AgentConfig())
    peak = max(turn.prompt_tokens for turn in default.turns)
    assert peak < AgentConfig().compact_threshold / 2 and not default.compactions
    assert peak > 3_500 and run_agent(AgentConfig(context_budget=5000)).compactions


# mine(): the lessons say the next cell tells which function runs -------------------------------


@pytest.mark.parametrize(
    "lesson, sentence, exercise",
    [
        ("00", "(the next cell says which)", "0.1"),
        ("03", "the next cell says which, so they run either way", "3.2"),
        ("04", "the two lines above said so", "4.2"),
    ],
)
def test_mine_says_which_function_runs_when_the_answer_passes(lesson, sentence, exercise, capsys):
    from harness.checks import mine, reference

    claim(lesson, sentence)
    answer = reference(exercise)
    assert mine(exercise, answer) is answer
    assert capsys.readouterr().out.strip(), f"mine({exercise!r}, a passing answer) printed nothing"


def test_03_the_budget_slider_drops_at_most_one_block_a_key_press_and_opens_with_everything_kept():
    from harness.widgets.lesson03 import budget_panel

    claim(
        "03",
        "The panel opens with room for everything. Slide the budget down and watch the turns go"
        " oldest first",
    )
    names = run_cells(
        "03", next(i for i, c in enumerate(notebook("03").cells) if "reported = {6000" in c.source)
    )
    turns = names["TURNS"] + [
        ("user", "Can I bring my bike inside?"),
        ("model", "Yes, a bike room."),
    ]
    docs = ["Team Blue owns the invoicing service.", "Rooms are booked on the intranet."]
    panel = budget_panel(
        names["SYSTEM"], names["FACTS"], names["SUMMARY"], turns, names["QUESTION"], docs=docs
    )
    slider, readout = panel.children[0], panel.children[1]
    assert slider.step > 1
    kept = []
    for budget in range(slider.value, slider.min - 1, -slider.step):
        slider.value = budget
        kept.append(int(re.search(r"\((\d+) of (\d+) blocks\)", readout.value).group(1)))
    total = int(re.search(r"of (\d+) blocks", readout.value).group(1))
    assert (
        kept[0] == total
        and all(0 <= a - b <= 1 for a, b in zip(kept, kept[1:]))
        and kept[-1] < total
    )
