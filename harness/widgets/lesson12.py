"""Lesson 12's panel: corpus size, top-k, threshold and budget against recall and tokens sent.

Every needle's question goes through the hybrid pipeline with your `reciprocal_rank_fusion` (12.1)
and your `fill_budget` (12.2) (the harness's while yours does not pass, and the readout says
which): the bars are the share of needles each stage finds (dense top-k, BM25 top 2k, the fused top
5, what is sent into the budget), for code-name and paraphrased needles; the line is the tokens
sent per question.

    >>> panel = retrieval_panel(indexes, wiki, queries, fuse, fill)    # doctest: +SKIP
"""

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.checks import ran_by
from harness.retrieval import BUDGET, DENSE_K, THRESHOLD, Knobs, needle_recall
from harness.widgets.chart import Chart

MAX_BUDGET = 6000  # the budget slider's top; the tokens axis is fixed to it, so a move shows
STAGES = {
    "dense": "dense only",
    "bm25": "BM25 only",
    "fused top 5": "fused, top 5",
    "sent": "sent (fused, threshold, budget)",
}
KINDS = ("code name", "paraphrase")


def rows_for(index, wiki, queries, knobs: Knobs, fuse, fill) -> list[dict]:
    """One row per kind of needle: the share each stage finds, and the tokens sent per question."""
    split = len(wiki.needles)
    found = {
        "code name": needle_recall(index, wiki.needles, queries[:split], knobs, fuse, fill),
        "paraphrase": needle_recall(index, wiki.paraphrases, queries[split:], knobs, fuse, fill),
    }
    return [{"kind": kind, **found[kind]} for kind in KINDS]


def traces_of(rows) -> list[dict]:
    """The data of each trace: one bar series per stage (x: the kind of needle), then the tokens."""
    bars = [
        dict(x=[row["kind"] for row in rows], y=[100 * row[stage] for row in rows])
        for stage in STAGES
    ]
    return bars + [dict(x=[row["kind"] for row in rows], y=[row["tokens"] for row in rows])]


def figure_of(rows) -> go.Figure:
    """Grouped bars of the share each stage finds, and the tokens sent on a right-hand axis."""
    bars = [go.Bar(name=name, **data) for name, data in zip(STAGES.values(), traces_of(rows))]
    tokens = go.Scatter(
        name="tokens sent per question",
        mode="lines+markers",
        line=dict(dash="dot", color="black"),
        yaxis="y2",
        marker=dict(size=14, symbol="diamond", color="black"),
        **traces_of(rows)[-1],
    )
    return go.Figure(
        data=bars + [tokens],
        layout=go.Layout(
            height=420,
            barmode="group",
            margin=dict(t=30, b=150, autoexpand=False),
            yaxis=dict(title="needles found (%)", range=[0, 105]),
            yaxis2=dict(
                title="tokens sent", overlaying="y", side="right", range=[0, 1.05 * MAX_BUDGET]
            ),
            # Margins fixed, room left below the labels for the legend: all five entries showed in
            # renders 520, 700 and 1000 px wide (2026-12-03). With plotly's margins growing to fit,
            # JupyterLab's first draw put the legend over the two x labels; a redraw put it right.
            legend=dict(orientation="h", yanchor="top", y=-0.12, x=0),
        ),
    )


def status_of(rows, knobs: Knobs, pages: int, fuse, fill) -> str:
    shares = "; ".join(
        f"{row['kind']}: " + ", ".join(f"{STAGES[s].split(' (')[0]} {row[s]:.0%}" for s in STAGES)
        for row in rows
    )
    tokens = ", ".join(f"{row['kind']} {row['tokens']:,.0f}" for row in rows)
    return (
        f"<b>{pages:,} pages</b>, dense top {knobs.dense_k}, BM25 top {knobs.keyword_k}, threshold "
        f"{knobs.threshold:.2f} on the dense cosine, budget {knobs.budget:,} tokens<br>{shares}<br>"
        f"tokens sent per question: {tokens}<br><small>{ran_by(('12.1', fuse), ('12.2', fill))}"
        "</small>"
    )


def retrieval_panel(indexes: dict, wiki, queries, fuse, fill) -> widgets.VBox:
    """A corpus-size dropdown (the keys of `indexes`, tokens -> SearchIndex) and sliders for the
    dense top-k (BM25 takes twice as many, as in the article), the threshold and the budget."""
    size = widgets.Dropdown(
        options=[(f"{tokens:,} tokens", tokens) for tokens in indexes],
        value=max(indexes),
        description="corpus",
    )
    top = widgets.IntSlider(
        value=DENSE_K, min=5, max=40, step=5, description="dense top-k", continuous_update=False
    )
    threshold = widgets.FloatSlider(
        value=THRESHOLD,
        min=0.0,
        max=0.6,
        step=0.05,
        description="threshold",
        continuous_update=False,
    )
    budget = widgets.IntSlider(
        value=BUDGET,
        min=500,
        max=MAX_BUDGET,
        step=500,
        description="budget",
        continuous_update=False,
    )

    def current():
        knobs = Knobs(top.value, 2 * top.value, threshold.value, budget.value)
        index = indexes[size.value]
        return rows_for(index, wiki, queries, knobs, fuse, fill), knobs, len(index.ids)

    rows, knobs, pages = current()
    status = widgets.HTML(status_of(rows, knobs, pages, fuse, fill))
    chart = Chart(figure_of(rows))

    def redraw(_change=None):
        rows, knobs, pages = current()
        chart.show(figure_of(rows))
        status.value = status_of(rows, knobs, pages, fuse, fill)

    for control in (size, top, threshold, budget):
        control.observe(redraw, names="value")
    return widgets.VBox(
        [widgets.HBox([size, top]), widgets.HBox([threshold, budget]), status, chart]
    )
