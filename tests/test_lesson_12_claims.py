"""Each claim lesson 12's text makes about its own outputs, checked against those outputs (the
pattern of test_lesson_claims.py): the sentence must still be in the lesson, and what it says (a
direction, a share, a count) must still hold for the figures the lesson's cells compute."""

import contextlib
import io

import pytest
from test_lesson_claims import claim, notebook

from harness.engine.embeddings import cosine, vector, vocabulary
from harness.retrieval import Knobs, fill_budget, reciprocal_rank_fusion
from harness.scenarios.wiki import SIZES, TOPIC_SHARE
from harness.widgets.lesson12 import rows_for


@pytest.fixture(scope="module")
def names():
    """Every code cell of the lesson run in order (panel and quiz left out), and what it printed."""
    import os

    os.environ["WORKBOOK_OFFLINE"] = "1"
    scope, printed = {}, {}
    for index, cell in enumerate(notebook("12").cells):
        if cell.cell_type == "code" and "NBVAL_IGNORE_OUTPUT" not in cell.source:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(cell.source, f"12-cell-{index}", "exec"), scope)  # noqa: S102 - our lesson
            printed[index] = out.getvalue()
    scope["_printed"] = printed
    return scope


def shares(names, kind: int, stage: str) -> list[float]:
    return [names["recall"][size][kind][stage] for size in SIZES]


def test_the_embedder_the_lesson_describes():
    claim("12", "It embeds with a table of 1,043 common English words")
    claim("12", "two synonyms have cosine 0.89, two words of one topic about 0.18")
    assert len(vocabulary()) == 1043
    assert round(cosine(vector("sick"), vector("ill")), 2) == 0.89
    assert round(cosine(vector("sick"), vector("doctor")), 2) == 0.18


def test_the_wiki_is_what_the_lesson_says(names):
    claim("12", "a quarter of the pages are **topic pages**")
    claim("12", "Thirty **needles** are buried in its first 10,000 tokens: 24 questions")
    claim("12", "and 6 paraphrased questions")
    wiki = names["wiki"]
    assert TOPIC_SHARE == 0.25 and SIZES[0] == 10_000
    assert (len(wiki.needles), len(wiki.paraphrases)) == (24, 6)
    first = set(wiki.prefix(SIZES[0]).ids)
    assert all(n.page in first for n in wiki.needles + wiki.paraphrases)


def test_the_paraphrase_is_found_by_dense_search_and_missed_by_bm25(names):
    claim("12", "Dense search puts the paraphrased page first; BM25 does not find it at all")
    index, paraphrase = names["index"], names["paraphrase"]
    assert index.dense(names["query"], 1) == [paraphrase.page]
    assert paraphrase.page not in index.keyword(paraphrase.question, len(index.ids))


def test_dense_collapses_where_bm25_holds(names):
    claim(
        "12",
        "Dense recall on code names falls as the wiki grows and is near zero at the largest size",
    )
    claim("12", "BM25 finds every code-name needle at every size")
    dense = shares(names, 0, "dense")
    assert dense == sorted(dense, reverse=True) and dense[0] > 0.8 and dense[-1] <= 0.05
    assert shares(names, 0, "bm25") == [1.0] * len(SIZES)


def test_the_paraphrase_is_the_reverse(names):
    claim("12", "Dense search finds every paraphrased needle at every size, and BM25 none")
    assert shares(names, 1, "dense") == [1.0] * len(SIZES)
    assert shares(names, 1, "bm25") == [0.0] * len(SIZES)


def test_the_pipeline_keeps_both_and_the_fused_top_5_loses_code_names(names):
    claim("12", "What is sent into 3,000 tokens holds every needle of both kinds at every size")
    claim("12", "the fused top 5 loses code-name needles as the wiki grows")
    assert shares(names, 0, "sent") == shares(names, 1, "sent") == [1.0] * len(SIZES)
    top5 = shares(names, 0, "fused top 5")
    assert top5 == sorted(top5, reverse=True) and top5[-1] < top5[0] and top5[-1] < 0.5


def test_the_collapse_point_set_beside_the_article_s(names):
    claim("12", "this wiki between 50k and 100k")
    dense = dict(zip(SIZES, shares(names, 0, "dense")))
    assert dense[50_000] > 0.3 and dense[100_000] == 0.0


def test_stuffing_answers_at_tens_of_times_the_tokens_and_overflows_past_the_window(names):
    claim("12", "Both ways answer a code-name question")
    claim("12", "tens of times what retrieval sends, and past the window it is refused outright")
    claim(
        "12", "Retrieval answers every code-name question here from about 2,500 tokens on average"
    )
    stuffed, answered, needle = names["stuffed"], names["answered"], names["needle"]
    assert needle.answer in stuffed.text
    assert all(ok for ok, _ in answered) and len(answered) == 24
    mean = sum(u.prompt_token_count for _, u in answered) / len(answered)
    assert 2_250 <= mean <= 2_750
    assert 10 <= stuffed.usage_metadata.prompt_token_count / mean < 100
    assert names["overflow"].startswith("400 ")
    assert stuffed.usage_metadata.prompt_token_count < names["window"] < 11 * names["wiki"].tokens()


def test_the_panel_s_suggestions_do_what_the_lesson_says(names):
    claim("12", "Try a top-k of 40 at the largest size (dense search finds most code names again")
    claim("12", "a threshold of 0.3 (the gate drops needles")
    claim("12", "a budget of 500 (only the first few fused pages get in)")
    index, wiki, queries = names["index"], names["wiki"], names["queries"]

    def code_names(knobs):
        rows = rows_for(index, wiki, queries, knobs, reciprocal_rank_fusion, fill_budget)
        return rows[0]

    default = code_names(Knobs())
    assert code_names(Knobs(40, 80))["dense"] > 0.5 > default["dense"]
    assert code_names(Knobs(threshold=0.3))["sent"] < default["sent"]
    assert code_names(Knobs(budget=500))["sent"] <= default["fused top 5"] + 0.05


def test_the_panel_draws_its_rows_and_redraws_on_a_move(names):
    """The chart shows the rows the readout names, and a new figure when a control moves."""
    from harness.widgets.chart import Chart
    from harness.widgets.lesson12 import retrieval_panel, traces_of

    index, wiki, queries = names["index"], names["wiki"], names["queries"]
    panel = retrieval_panel({0: index}, wiki, queries, reciprocal_rank_fusion, fill_budget)
    top, chart = panel.children[0].children[1], panel.children[-1]
    assert isinstance(chart, Chart)

    def drawn():
        return [list(trace.y) for trace in chart.figure.data]

    def expected(knobs):
        rows = rows_for(index, wiki, queries, knobs, reciprocal_rank_fusion, fill_budget)
        return [data["y"] for data in traces_of(rows)]

    assert drawn() == expected(Knobs())
    top.value = 40
    assert drawn() == expected(Knobs(40, 80)) != expected(Knobs())


def test_fusion_puts_every_page_both_searches_find_above_a_page_one_finds():
    """The section before 12.2 argues from the lists' lengths (dense top 15, BM25 top 30)."""
    from harness.retrieval import DENSE_K, KEYWORD_K

    claim("12", "A page first in one list scores 1/61; a page tenth in both scores 1/70 + 1/70")
    claim("12", "nearly twice as much")
    claim("12", "a needle only one search finds, even at the top of its list, ranks below every")
    claim("12", "Fusion scores never exceed 2/61 (two lists)")
    assert 1.5 < (2 / 70) / (1 / 61) < 2
    lowest_of_both = 1 / (60 + DENSE_K) + 1 / (60 + KEYWORD_K)
    assert lowest_of_both > 1 / 61
    fused = reciprocal_rank_fusion(
        [["needle"] + [f"p{i}" for i in range(KEYWORD_K - 1)], [f"p{i}" for i in range(DENSE_K)]]
    )
    assert fused.index("needle") == DENSE_K
