"""Each claim lesson 13's text makes about its own outputs, checked against those outputs (the
pattern of test_lesson_claims.py): the sentence must still be in the lesson, and what it says (a
direction, a share, "all three") must still hold for the figures the lesson's cells compute."""

import contextlib
import io

import pytest
from test_lesson_claims import claim, notebook

from harness.billing import bill, cache_hit_rate
from harness.corpus_shell import MAX_COMMANDS_PER_TURN, MAX_OUTPUT_CHARS, PROGRAMS, TIMEOUT_SECONDS
from harness.engine import reader
from harness.library import budget_plan, run_library_session, turn_prompts
from harness.memory import looks_like_instruction
from harness.models import DEFAULT_MODEL, model_row
from harness.offload import build_index, describe
from harness.probes import probe_results, script_turns
from harness.scenarios.course import passages
from harness.scenarios.course.script import PLANTED, PROBES
from harness.widgets.lesson13 import runs_for

LESSON = "13"


@pytest.fixture(scope="module")
def names():
    """Every code cell of the lesson run in order (panel and quiz left out)."""
    import os

    os.environ["WORKBOOK_OFFLINE"] = "1"
    scope = {}
    for index, cell in enumerate(notebook(LESSON).cells):
        if cell.cell_type == "code" and "NBVAL_IGNORE_OUTPUT" not in cell.source:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(cell.source, f"13-cell-{index}", "exec"), scope)  # noqa: S102 - our own lesson
    return scope


def test_the_shell_has_the_article_s_programs_and_limits():
    claim(
        LESSON,
        "rg, grep, find, ls, sed, head, cat and wc on the corpus, confined to the knowledge base; "
        "8 s, "
        "40k characters, 20 commands a turn",
    )
    claim(LESSON, "8 s a command, the first 40,000 characters of its output, 20 commands a turn")
    assert PROGRAMS == ("rg", "grep", "find", "ls", "sed", "head", "cat", "wc")
    assert (TIMEOUT_SECONDS, MAX_OUTPUT_CHARS, MAX_COMMANDS_PER_TURN) == (8, 40_000, 20)


def test_the_course_becomes_33_files_listed_by_the_index(names):
    claim(LESSON, "The 33 passages of the course become 33 files")
    assert len(passages()) == 33
    assert len(names["kb"].entries) == 34  # and the one note moved out in that cell


def test_hostile_commands_are_refused_and_reads_run(names):
    shell = names["shell"]
    assert shell.run("grep -rli godot .").startswith("exit code 0")
    for command in (
        "sed -i s/Godot/Unity/ notes/turn-00.md",
        "find . -name '*.md' -delete",
        "cat ../../../etc/passwd",
        "ls | wc -l",
        "python -c 'print(1)'",
    ):
        assert shell.run(command).startswith("ERROR:"), command
    assert "Godot" in (names["kb"].root / "notes" / "turn-00.md").read_text()


def test_kept_grows_tenfold_and_moved_out_stays_in_a_band(names):
    claim(LESSON, "Kept, the prompt grows on every turn, more than tenfold over the session")
    claim(
        LESSON,
        "moved out, it stays within a band a few hundred tokens wide from the first question on",
    )
    kept = [tokens for _, tokens in turn_prompts(names["kept"])]
    moved = [tokens for _, tokens in turn_prompts(names["moved"])]
    assert all(a < b for a, b in zip(kept, kept[1:]))
    assert kept[-1] > 10 * kept[1]
    assert max(moved[1:]) - min(moved[1:]) < 500


def test_both_answer_every_planted_fact_and_the_probes_find_the_planted_line(names):
    claim(LESSON, "Both answer every planted fact")
    claim(
        LESSON,
        "each probe's words match the planted turn's line in the index, so the tutor reads that "
        "file back",
    )
    assert probe_results(names["kept"]) == probe_results(names["moved"]) == [True, True, True]
    for probe in PROBES:
        wanted = reader.content_words(probe.question)
        assert reader.score(wanted, describe(PLANTED)) >= (1 if len(set(wanted)) <= 3 else 2), (
            probe.question
        )
    for bundle in names["moved"].bundles:
        # the answering call of a probe turn came after reads of the index and the note
        if bundle.probe:
            reads = [
                b
                for b in names["moved"].bundles
                if b.turn == bundle.turn and "read_file" in b.tools
            ]
            assert len(reads) >= 2


def test_the_bill_shrinks_less_than_the_tokens_because_the_cache_is_lost(names):
    claim(LESSON, "The bill does not shrink as much as the tokens")
    claim(LESSON, "most of it is cached")
    claim(LESSON, "almost nothing of it is cached")
    kept, moved, price = names["kept"], names["moved"], names["price"]
    tokens = sum(b.prompt_tokens for b in moved.bundles) / sum(
        b.prompt_tokens for b in kept.bundles
    )
    assert bill(moved.usages(), price) / bill(kept.usages(), price) > tokens
    assert cache_hit_rate(kept.usages()) > 0.5 and cache_hit_rate(moved.usages()) < 0.05


def test_the_index_budget_shrinks_the_window_and_loses_the_planted_turn_at_400(names):
    claim(
        LESSON,
        "The budget makes the window smaller still, and at 400 tokens the planted turn is no "
        "longer listed",
    )
    claim(
        LESSON,
        "The 33 course files were written first, so they are the first to fall off the index",
    )
    runs = names["budgeted"]
    largest = {name: max(tokens for _, tokens in turn_prompts(run)) for name, run in runs.items()}
    assert (
        largest["index 600"] < largest["index: every file"]
        and largest["index 400"] < largest["index: every file"]
    )
    notes = [
        (f"notes/turn-{turn:02d}.md", describe(said))
        for turn, (said, _) in enumerate(script_turns(14))
    ][:-1]
    course = [(f"course/{p.id}.md", p.title) for p in passages()]
    at_the_probes = build_index(course + notes, 400)
    assert "notes/turn-00.md" not in at_the_probes and "course/" not in at_the_probes
    assert "course/" in build_index(course + notes, 600) or "notes/turn-00.md" in build_index(
        course + notes, 600
    )


def test_without_the_shell_it_searches_and_misses_with_it_it_greps_and_finds(names):
    claim(
        LESSON,
        "The tutor without a shell then searches the course, which knows nothing of the student, "
        "and "
        "misses all three facts",
    )
    claim(
        LESSON,
        "With the shell it greps the question's words, finds `notes/turn-00.md` and answers all "
        "three, for "
        "more calls",
    )
    without, with_shell = names["budgeted"]["index 400"], names["budgeted"]["index 400 + shell"]
    assert sum(probe_results(without)) == 0 and any(
        "search_course" in b.tools for b in without.bundles
    )
    assert sum(probe_results(with_shell)) == 3 and any(
        "corpus_shell" in b.tools for b in with_shell.bundles
    )
    assert len(with_shell.bundles) > len(without.bundles)


def _share(rows, test) -> float:
    return sum(map(test, rows)) / len(rows)


def test_the_ablation_counted_two_ways(names):
    claim(LESSON, "the tutor with files and a shell looks as if it never found its passage")
    claim(LESSON, "switching the knowledge-base tools off looks like a large gain")
    claim(LESSON, "Counted by any tool, the tool sets with files reach every passage")
    claim(LESSON, "switching the shell off leaves both reach and grounding where they were")
    claim(
        LESSON,
        "The search alone reaches fewer, because it misses some of the paraphrased questions",
    )
    battery = names["battery"]
    shell, files, search = (
        battery["files + shell"],
        battery["files, no shell"],
        battery["search only"],
    )
    assert _share(shell, lambda r: r.by_search) == 0
    assert _share(search, lambda r: r.by_search) - _share(shell, lambda r: r.by_search) >= 0.5
    assert _share(shell, lambda r: r.by_any_tool) == _share(files, lambda r: r.by_any_tool) == 1
    assert _share(shell, lambda r: r.grounded) == _share(files, lambda r: r.grounded)
    missed = [r for r in search if not r.by_any_tool]
    assert missed and all(r.kind == "paraphrased" for r in missed)


def test_the_glass_box_uses_the_shell_in_far_fewer_turns_than_89_percent(names):
    claim(
        LESSON,
        "The glass box uses the shell far less often than the article's model did (89% of turns "
        "there)",
    )
    assert _share(names["battery"]["files + shell"], lambda r: "corpus_shell" in r.calls) < 0.5


def test_memory_answers_what_was_said_last_and_forgets_on_request(names):
    claim(
        LESSON,
        "With memory the third session answers the platform the student gave **last** (Unity, not "
        "Godot), "
        "their weak spot, and says nothing of the studio they asked to forget; without it, it "
        "knows none "
        "of the three",
    )
    claim(LESSON, "which passes only the studio's probe (the one that wants nothing said)")
    remembered, forgotten = names["remembered"], names["forgotten"]
    assert all(passed for _, _, passed in remembered.probes)
    assert "Unity" in remembered.probes[0][1] and "Godot" not in remembered.probes[0][1]
    assert all(answer == reader.DONT_KNOW for _, answer, _ in forgotten.probes)
    studio = [probe.question for probe, _, passed in forgotten.probes if passed]
    assert studio == ["What is my studio?"]


def test_the_order_slipped_in_as_a_fact_is_kept_but_never_injected(names):
    claim(LESSON, "was distilled and kept in the memory file, but never injected")
    remembered = names["remembered"]
    orders = [fact for fact in remembered.memories[1] if looks_like_instruction(fact.value)]
    assert orders and not any(fact.value in block for fact in orders for block in remembered.blocks)


def test_the_block_adds_its_tokens_to_every_call_and_is_not_cached_here(names):
    claim(LESSON, "The block adds about its own few dozen tokens to every call of the session")
    claim(
        LESSON,
        "the prompts of this short session are too small for that, so here it is billed in full",
    )
    remembered, forgotten = names["remembered"], names["forgotten"]
    block = names["approx_tokens"](remembered.blocks[-1])
    extra = [
        a.prompt_tokens - b.prompt_tokens
        for a, b in zip(remembered.sessions[-1].bundles, forgotten.sessions[-1].bundles)
    ]
    assert 24 <= block <= 99 and all(abs(e - block) <= 10 for e in extra)
    session = remembered.sessions[-1]
    assert cache_hit_rate(session.usages()) == 0
    assert (
        max(b.prompt_tokens for b in session.bundles) < model_row(DEFAULT_MODEL).implicit_cache_min
    )


def test_clearing_twenty_times_more_pays_back_about_forty_times_sooner(names):
    claim(LESSON, "a clearing that removes 20 times more pays back about 40 times sooner here")
    repay, price, after = names["calls_to_repay"], names["price"], names["AFTER_THE_CUT"]
    ratio = repay(1_000, after - 1_000, price) / repay(20_000, after - 20_000, price)
    assert 35 <= ratio <= 45


def test_the_panel_loses_the_planted_turn_at_300_and_the_shell_gets_it_back(names):
    claim(
        LESSON,
        "Slide the budget down to 300 to watch the planted turn fall off the index, then tick the "
        "shell "
        "to get it back",
    )
    client, build = names["client"], names["build_index"]
    assert sum(probe_results(runs_for(client, build, 14, 300, False)["moved"])) == 0
    assert sum(probe_results(runs_for(client, build, 14, 300, True)["moved"])) == 3


def test_the_panel_s_first_draw_reuses_the_lesson_s_sessions(names):
    """Its defaults are the sessions the cells above ran: it draws without running a session."""
    from harness import library

    before = len(library._RUNS)
    runs_for(names["client"], names["build_index"], 14, 600, False)
    assert len(library._RUNS) == before
    assert budget_plan(600) == names["plans"][1]
    run_library_session(names["client"], budget_plan(600), 14, build=names["build_index"])
    assert len(library._RUNS) == before


def test_the_panel_draws_its_sessions_and_redraws_on_each_control(names):
    """The chart shows the sessions the readout names, and a new figure when a control moves."""
    from harness.widgets.chart import Chart
    from harness.widgets.lesson13 import chart_data, offload_panel, readout_text

    client, build = names["client"], names["build_index"]
    length, index, shell, readout, chart = offload_panel(client, build).children
    assert isinstance(chart, Chart)

    def drawn():
        return [list(trace.y) for trace in chart.figure.data]

    def expected(budget, grep):
        return [data["y"] for data in chart_data(runs_for(client, build, 14, budget, grep))]

    assert drawn() == expected(600, False)
    index.value = 300
    assert drawn() == expected(300, False) != expected(600, False)
    shell.value = True
    assert drawn() == expected(300, True) != expected(300, False)
    assert readout.value == readout_text(runs_for(client, build, 14, 300, True), build)


def test_the_panel_says_whose_build_index_wrote_the_index(names):
    """As every panel that runs a student's function: "your" once 13.1 passes, else the harness's."""
    from harness.widgets.lesson13 import readout_text

    runs = runs_for(names["client"], names["build_index"], 14, 600, False)
    assert readout_text(runs, names["build_index"]).endswith(
        "<small>runs your build_index (13.1)</small>"
    )
    assert "runs the harness's build_index (13.1)" in readout_text(runs, build_index)
