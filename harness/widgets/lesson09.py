"""Lesson 09's panel: the allocations and the threshold as sliders; each change re-runs the agent.

The run measures every request with your `split_by_category` (9.1) and asks your `next_action`
(9.2) before each call; the chart stacks the categories of each request sent, with the actions
done to it marked above its bar, and the threshold as a line.

    >>> panel = budget_panel(split_by_category, next_action, window=6000)    # doctest: +SKIP
"""

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.agent import AgentConfig, run_agent
from harness.budgets import CATEGORIES, SEED_ALLOCATIONS
from harness.checks import ran_by
from harness.scenarios.retrieval import retrieved_documents
from harness.triggers import THRESHOLD, TriggerPolicy
from harness.widgets.chart import Chart

COLOURS = {
    "system": "#8c8c8c",
    "tools": "#bdbdbd",
    "documents": "#9467bd",
    "history": "#1f77b4",
    "tool_outputs": "#ff7f0e",
}
# Each range puts the seed's share where one page of the keyboard (5 steps) makes its trigger act on
# this task: history peaks under 500 tokens here (measured 2026-12-02), so its slider reaches 0.
# the chart's marks; the status line spells them out
SHORT = {
    "mask": "M",
    "compact": "C",
    "drop_document": "D",
}
# the category -> the slider's top
SLIDERS = {
    "tool_outputs": 0.6,
    "history": 0.4,
    "documents": 0.3,
}


def run_policy(split, decide, allocations: dict, window: int, threshold: float, client=None):
    """One run of the agent on the task with the handbook's documents, under this policy:
    (report, policy)."""
    policy = TriggerPolicy(allocations, window, threshold, split=split, decide=decide)
    return (
        run_agent(AgentConfig(), client=client, documents=retrieved_documents(), policy=policy),
        policy,
    )


def traces_of(report, policy, window: int, threshold: float) -> list[dict]:
    """Data of each trace: one bar series per category, the threshold line, the action marks."""
    turns = [t.turn for t in report.turns]
    sent = [policy.sent(i) for i in range(len(report.turns))]
    bars = [dict(x=turns, y=[usage[name] for usage in sent]) for name in CATEGORIES]
    line = dict(x=[0.5, max(turns) + 0.5], y=[threshold * window] * 2)
    acted = [
        (turn, sum(usage.values()), " + ".join(SHORT[action] for action in entry["actions"]))
        for turn, usage, entry in zip(turns, sent, policy.turns)
        if entry["actions"]
    ]
    marks = dict(x=[a[0] for a in acted], y=[a[1] for a in acted], text=[a[2] for a in acted])
    return bars + [line, marks]


def status_of(report, policy, split=None, decide=None) -> str:
    fired = (
        "; ".join(
            f"turn {t.turn}: {', '.join(e['actions'])}"
            for t, e in zip(report.turns, policy.turns)
            if e["actions"]
        )
        or "nothing fired"
    )
    shares = ", ".join(
        f"{name.replace('_', ' ')} {share:.0%}" for name, share in policy.allocations.items()
    )
    line = (
        f"threshold {policy.threshold:.0%} of {policy.window:,} ="
        f" {policy.threshold * policy.window:,.0f} tokens"
    )
    by = f"<br><small>{ran_by(('9.1', split), ('9.2', decide))}</small>" if split and decide else ""
    return (
        f"<b>{report.status_line()}</b> &nbsp; <b>{report.outcome()}</b><br>allocations: {shares};"
        f" {line}<br>actions before the calls (M mask, C compact, D drop_document): {fired}{by}"
    )


def budget_panel(split, decide, window: int = 6000, client=None) -> widgets.VBox:
    """Sliders for the allocations (shares of `window`) and the threshold; the run's categories,
    stacked."""
    sliders = {
        name: widgets.FloatSlider(
            value=SEED_ALLOCATIONS[name],
            min=0.0,
            max=top,
            step=0.05,
            description=name.replace("_", " "),
            continuous_update=False,
        )
        for name, top in SLIDERS.items()
    }
    threshold = widgets.FloatSlider(
        value=THRESHOLD,
        min=0.4,
        max=1.0,
        step=0.05,
        description="threshold",
        continuous_update=False,
    )
    status = widgets.HTML()

    def run_with_sliders():
        allocations = {name: slider.value for name, slider in sliders.items()}
        if sum(allocations.values()) > 1 + 1e-9:
            return (
                None,
                (
                    f"the allocations add up to {sum(allocations.values()):.2f}: shares of one"
                    " window add up to at most 1. Lower one of them; the chart shows the last run."
                ),
            )
        # what the categories leave free
        allocations["reserve"] = round(1 - sum(allocations.values()), 6)
        report, policy = run_policy(split, decide, allocations, window, threshold.value, client)
        return (report, policy), status_of(report, policy, split, decide)

    (report, policy), status.value = run_with_sliders()
    data = traces_of(report, policy, window, threshold.value)
    figure = go.Figure(
        data=[
            go.Bar(**bars, name=name.replace("_", " "), marker_color=COLOURS[name])
            for bars, name in zip(data, CATEGORIES)
        ]
        + [
            go.Scatter(
                **data[-2],
                mode="lines",
                name="threshold x window",
                line=dict(dash="dash", color="black"),
            ),
            go.Scatter(
                **data[-1],
                mode="markers+text",
                name="actions before the call",
                textposition="top center",
                marker=dict(symbol="triangle-down", size=12, color="crimson"),
            ),
        ],
        layout=go.Layout(
            barmode="stack",
            height=420,
            margin=dict(t=30),
            xaxis_title="turn (model call)",
            yaxis_title=f"tokens sent (window {window:,})",
            legend=dict(orientation="h", y=-0.2),
        ),
    )
    chart = Chart(figure)

    def redraw(_change=None):
        run, status.value = run_with_sliders()
        if run is None:
            return
        for trace, values in zip(figure.data, traces_of(*run, window, threshold.value)):
            trace.update(**values)
        chart.show(figure)

    for slider in (*sliders.values(), threshold):
        slider.observe(redraw, names="value")
    return widgets.VBox(
        [widgets.HBox([widgets.VBox(list(sliders.values())), threshold]), status, chart]
    )
