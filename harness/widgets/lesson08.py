"""Lesson 08's panel: recall against cost, one point per recorded run, re-billed at any price sheet.

Switching the sheet re-bills the saved bundles (no model call), so you can see whether the
ranking of strategies by cost survives a change of provider while their recall stays put. Recall is
graded with the `grade` the lesson hands it and the hollow points come from its `fired` (the
student's grade_probe and compaction_fired_before_probe, via mine()).

    >>> panel = recall_cost_panel(runs)     # doctest: +SKIP
    >>> panel.children[1].value             # doctest: +SKIP
    '<p>at gemini-2.5-flash prices ...'
"""

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.billing import PRICE_SHEETS, PRICES, bill, priced_model
from harness.checks import ran_by
from harness.probes import compaction_fired_before_probe, grade_probe
from harness.widgets.chart import Chart


def _strategy(run) -> str:
    return run.name.split(",")[0]  # run_battery names runs "<strategy>, <n> questions"


def _groups(runs) -> dict:
    """Runs by strategy, shortest session first (the order the chart joins them in)."""
    groups = {}
    for run in runs:
        groups.setdefault(_strategy(run), []).append(run)
    return {name: sorted(group, key=lambda r: len(r.bundles)) for name, group in groups.items()}


def recall_with(grade):
    """recall(run) with this grader: the share of the run's probes whose answer has every key
    point."""

    def recall(run) -> float:
        results = [bool(grade(b.answer, b.probe["key_points"])) for b in run.bundles if b.probe]
        return sum(results) / len(results) if results else 0.0

    return recall


def readout_text(groups: dict, prices: dict, sheet: str, recall=recall_with(grade_probe)) -> str:
    """Each strategy's cost range and recall range at this sheet, cheapest total first."""
    price = prices[sheet]
    costs = {name: [bill(r.usages(), price) for r in group] for name, group in groups.items()}
    # The order is by the total, which the line names: ranked by its ends, a strategy whose middle
    # run is cheap read as out of order (full history before capped outputs, whose cheapest and
    # dearest runs both cost less).
    rows = "".join(
        f"<li>{name}: ${sum(costs[name]):.5f} for its {len(group)} runs "
        f"(${min(costs[name]):.5f}-${max(costs[name]):.5f}), recall "
        f"{min(map(recall, group)):.0%}-{max(map(recall, group)):.0%}</li>"
        for name, group in sorted(groups.items(), key=lambda item: sum(costs[item[0]]))
    )
    return (
        f"<p>at {sheet} prices ($/M: input {price.input}, cached {price.cached_input}, output"
        f" {price.output}), cheapest total first:</p><ul>{rows}</ul>"
    )


def recall_cost_panel(
    runs,
    prices: dict = PRICES,
    sheet: str | None = None,
    grade=grade_probe,
    fired=compaction_fired_before_probe,
) -> widgets.VBox:
    """A price-sheet dropdown, a readout, and a scatter (x cost, y recall graded by `grade`); hollow
    points: `fired` says compaction never fired before the first probe."""
    recall = recall_with(grade)
    picker = widgets.Dropdown(
        options=PRICE_SHEETS if prices is PRICES else list(prices),
        value=sheet or priced_model(),
        description="prices",
        layout=widgets.Layout(width="420px"),
    )
    groups = _groups(runs)
    by = "<br><small>" + ran_by(("8.1", grade), ("8.2", fired)) + "</small>"
    readout = widgets.HTML(readout_text(groups, prices, picker.value, recall) + by)
    # A strategy's runs are joined by a line, shortest session first.
    figure = go.Figure(
        data=[
            go.Scatter(
                x=[bill(r.usages(), prices[picker.value]) for r in group],
                y=[recall(r) for r in group],
                mode="lines+markers",
                name=name,
                line=dict(width=1, dash="dot"),
                text=[f"{r.name}: {r.compaction_count()} compaction(s)" for r in group],
                marker=dict(
                    size=11, symbol=["circle" if fired(r) else "circle-open" for r in group]
                ),
                hovertemplate="%{text}<br>recall %{y:.0%}, $%{x:.5f}<extra></extra>",
            )
            for name, group in groups.items()
        ],
        layout=go.Layout(
            height=380,
            margin=dict(l=60, r=20, t=30, b=50),
            xaxis_title="session cost ($)",
            yaxis=dict(title="recall of planted facts", tickformat=".0%", range=[-0.05, 1.05]),
        ),
    )
    chart = Chart(figure)

    def redraw(_change=None):
        for trace, group in zip(figure.data, groups.values()):
            trace.x = [bill(r.usages(), prices[picker.value]) for r in group]
        chart.show(figure)
        readout.value = readout_text(groups, prices, picker.value, recall) + by

    picker.observe(redraw, names="value")
    return widgets.VBox([picker, readout, chart])
