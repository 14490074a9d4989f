"""Lesson 05's panel: budget, ratio and turns kept; each change re-runs the agent with your
`compact`.

It draws the prompt size per turn, the threshold (ratio x budget) and the turns after which the
agent compacted.

    >>> panel = compaction_panel(compact)    # doctest: +SKIP
"""

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.agent import AgentConfig, run_agent
from harness.checks import ran_by
from harness.widgets.chart import Chart

STYLES = [
    dict(name="prompt", mode="lines+markers"),
    dict(name="threshold", mode="lines", line=dict(dash="dash", color="grey")),
    dict(
        name="compaction after this turn",
        mode="markers",
        marker=dict(size=14, symbol="x", color="crimson"),
    ),
]


def traces_of(report, threshold: float) -> list[tuple[list, list]]:
    """(x, y) of the prompt line, the threshold and the compaction marks."""
    turns = [t.turn for t in report.turns]
    compacted = [t for t in report.turns if t.compacted]
    return [
        (turns, [t.prompt_tokens for t in report.turns]),
        ([1, max(turns)], [threshold] * 2),
        ([t.turn for t in compacted], [t.prompt_tokens for t in compacted]),
    ]


def status_of(report, compact=None) -> str:
    """The run's line, whether the task is done ("finished" is not "done"), and whose compact
    ran."""
    by = f"<br><small>{ran_by(('5.2', compact))}</small>" if compact else ""
    return (
        f"<b>{report.status_line()}</b> &nbsp; compactions: {len(report.compactions)} &nbsp; "
        f"<b>{report.outcome()}</b>{by}"
    )


def compaction_panel(compact, client=None) -> widgets.VBox:
    """Sliders for the budget, the ratio and the turns kept; the agent's prompt per turn, run
    with `compact`."""
    # Up to 7,000: the agent's prompts peak at 5,342 tokens (glass box, measured here 2026-12-01),
    # so from there up to 0.95 x 7,000 nothing compacts; a wider range would only add positions
    # where no knob acts.
    budget = widgets.IntSlider(
        value=5000, min=2500, max=7000, step=500, description="budget", continuous_update=False
    )
    ratio = widgets.FloatSlider(
        value=0.7, min=0.5, max=0.95, step=0.05, description="ratio", continuous_update=False
    )
    keep = widgets.IntSlider(
        value=3, min=1, max=6, description="turns kept", continuous_update=False
    )

    def run_with_sliders():
        config = AgentConfig(
            context_budget=budget.value, compact_ratio=ratio.value, keep_recent_turns=keep.value
        )
        return run_agent(config, client=client, compact=compact), config.compact_threshold

    def figure_of(report, threshold) -> go.Figure:
        return go.Figure(
            data=[
                go.Scatter(x=x, y=y, **style)
                for (x, y), style in zip(traces_of(report, threshold), STYLES)
            ],
            layout=go.Layout(
                height=320, xaxis_title="turn", yaxis_title="prompt tokens", margin=dict(t=30)
            ),
        )

    first, threshold = run_with_sliders()
    status = widgets.HTML(status_of(first, compact))
    chart = Chart(figure_of(first, threshold))

    def redraw(_change=None):
        report, threshold = run_with_sliders()
        chart.show(figure_of(report, threshold))
        status.value = status_of(report, compact)

    for slider in (budget, ratio, keep):
        slider.observe(redraw, names="value")
    return widgets.VBox([widgets.HBox([budget, ratio, keep]), status, chart])
