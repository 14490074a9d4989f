"""Lesson 08's panel: recall against cost, one point per recorded run, re-billed at any price sheet.

Switching the sheet re-bills the saved bundles (no model call), so you can see whether the
ranking of strategies by cost survives a change of provider while their recall stays put.

    >>> panel = recall_cost_panel(runs)     # doctest: +SKIP
"""
import ipywidgets as widgets
import plotly.graph_objects as go

from harness.billing import PRICES, bill, priced_model
from harness.probes import compaction_fired_before_probe, recall


def _strategy(run) -> str:
    return run.name.split(",")[0]  # run_battery names runs "<strategy>, <n> questions"


def recall_cost_panel(runs, prices: dict = PRICES, sheet: str | None = None) -> widgets.VBox:
    """A price-sheet dropdown above a scatter (x cost, y recall); hollow points: compaction never fired."""
    picker = widgets.Dropdown(options=list(prices), value=sheet or priced_model(), description="prices",
                              layout=widgets.Layout(width="420px"))
    groups = {}
    for run in runs:
        groups.setdefault(_strategy(run), []).append(run)
    figure = go.FigureWidget(
        data=[go.Scatter(x=[], y=[recall(r) for r in group], mode="markers", name=name,
                         text=[f"{r.name}: {r.compaction_count()} compaction(s)" for r in group],
                         marker=dict(size=11, symbol=["circle" if compaction_fired_before_probe(r) else "circle-open"
                                                      for r in group]),
                         hovertemplate="%{text}<br>recall %{y:.0%}, $%{x:.5f}<extra></extra>")
              for name, group in groups.items()],
        layout=go.Layout(height=380, margin=dict(l=60, r=20, t=30, b=50), xaxis_title="session cost ($)",
                         yaxis=dict(title="recall of planted facts", tickformat=".0%", range=[-0.05, 1.05])))

    def redraw(_change=None):
        with figure.batch_update():
            for trace, group in zip(figure.data, groups.values()):
                trace.x = [bill(r.usages(), prices[picker.value]) for r in group]

    picker.observe(redraw, names="value")
    redraw()
    return widgets.VBox([picker, figure])
