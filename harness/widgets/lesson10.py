"""Lesson 10's panel: the number of sub-tasks against the tokens of one agent and of a coordinator.

The coordinator's partitions come from your `split_task` (10.1) at the share on the slider, and
its merge is your `merge_results` (10.2); the sub-agents' turns are the dropdown's, so too few of
them leave partitions unfinished and your merge has to refuse (a refused point is marked). The
crossing, where partitioning starts to cost fewer tokens than one agent, is marked on the chart.

    >>> panel = partition_panel(split_task, merge_results)    # doctest: +SKIP
"""

from dataclasses import replace

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.checks import whose
from harness.coordinator import (
    CONFIG,
    PACKAGES,
    WINDOW,
    coordinate,
    crossing,
    plan,
    run_single,
    tokens_of,
)
from harness.partitioning import merge_results, split_task
from harness.widgets.chart import Chart

STYLES = [
    dict(name="one agent, with compaction", mode="lines+markers"),
    dict(name="coordinator + sub-agents", mode="lines+markers"),
    dict(
        name="merge refused (tokens spent, nothing merged)",
        mode="markers",
        marker=dict(size=14, symbol="x", color="crimson"),
    ),
    dict(
        name="partitioning starts to pay",
        mode="markers",
        marker=dict(size=18, symbol="star", color="gold", line=dict(width=1, color="black")),
    ),
]
# 4: a sub-agent edits but cannot re-run its tests
SUBAGENT_TURNS = {
    "enough (40)": 40,
    "too few (4)": 4,
}


def rows_for(split, merge, share: float, turns: int) -> list[dict]:
    """One row per number of sub-tasks: both strategies' tokens, and whether the merge was
    refused."""
    sub_config = replace(CONFIG, max_turns=turns)
    rows = []
    for n in range(1, len(PACKAGES) + 1):
        done = coordinate(plan(PACKAGES[:n], WINDOW, share, split), merge=merge, config=sub_config)
        rows.append(
            {
                "subtasks": n,
                "single": tokens_of(run_single(PACKAGES[:n])),
                "partitioned": done.total_tokens,
                "refused": bool(done.refused),
                "partitions": done.partitions,
            }
        )
    return rows


def traces_of(rows) -> list[tuple[list, list]]:
    """(x, y) of the two lines, the refused points and the crossing."""
    xs = [row["subtasks"] for row in rows]
    refused = [row for row in rows if row["refused"]]
    pays = crossing(rows)
    cross = [row for row in rows if row["subtasks"] == pays]
    return [
        (xs, [row["single"] for row in rows]),
        (xs, [row["partitioned"] for row in rows]),
        ([row["subtasks"] for row in refused], [row["partitioned"] for row in refused]),
        ([row["subtasks"] for row in cross], [row["partitioned"] for row in cross]),
    ]


def status_of(rows, share: float, split=split_task, merge=merge_results) -> str:
    pays = crossing(rows)
    where = (
        f"partitioning pays from <b>{pays}</b> sub-tasks"
        if pays
        else "partitioning never pays here"
    )
    refused = sum(row["refused"] for row in rows)
    shown = "; ".join(f"{row['subtasks']}: {row['partitions']}" for row in rows)
    return (
        f"{where} &nbsp; merges refused: {refused} &nbsp; limit {share:g} x {WINDOW:,} ="
        f" {share * WINDOW:,.0f} tokens<br><small>partitions by {whose('10.1', split)}, merged by"
        f" {whose('10.2', merge)}, per number of sub-tasks: {shown}</small>"
    )


def partition_panel(split, merge) -> widgets.VBox:
    """A share slider and a sub-agent turns dropdown; both strategies' tokens for 1..4 sub-tasks."""
    # 0.2 x 8,000 = 1,600 tokens: every sub-task (estimated 1,206-1,590) is a partition of its own;
    # from 0.4 two fit together, from 0.8 three.
    share = widgets.FloatSlider(
        value=0.2,
        min=0.2,
        max=1.0,
        step=0.1,
        description="share of the window",
        continuous_update=False,
        style={"description_width": "initial"},
    )
    turns = widgets.Dropdown(
        options=list(SUBAGENT_TURNS),
        value="enough (40)",
        description="sub-agent turns",
        style={"description_width": "initial"},
    )

    def current():
        return rows_for(split, merge, share.value, SUBAGENT_TURNS[turns.value])

    def figure_of(rows) -> go.Figure:
        return go.Figure(
            data=[go.Scatter(x=x, y=y, **style) for (x, y), style in zip(traces_of(rows), STYLES)],
            layout=go.Layout(
                height=340,
                xaxis_title="sub-tasks",
                yaxis_title="tokens (input + output)",
                xaxis=dict(dtick=1),
                margin=dict(t=30),
            ),
        )

    first = current()
    status = widgets.HTML(status_of(first, share.value, split, merge))
    chart = Chart(figure_of(first))

    def redraw(_change=None):
        rows = current()
        chart.show(figure_of(rows))
        status.value = status_of(rows, share.value, split, merge)

    share.observe(redraw, names="value")
    turns.observe(redraw, names="value")
    return widgets.VBox([widgets.HBox([share, turns]), status, chart])
