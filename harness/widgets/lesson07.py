"""Lesson 07's panel: slide the cached-input price and the session length, watch who is cheaper.

Every strategy's bill is a straight line in the cached-input price c (fixed part + cached tokens x
c), so the panel re-bills recorded runs (no model call) and draws those lines; the break-even price
between keeping everything and compacting is where two of them cross.

    >>> panel = cost_panel(runs, PRICES["gemini-2.5-flash"], bill=bill)   # doctest: +SKIP
    >>> panel.children[0].value = 0.55                              # doctest: +SKIP
"""

import ipywidgets as widgets
import plotly.graph_objects as go

from harness import billing
from harness.billing import Price, rate
from harness.checks import whose
from harness.widgets.chart import Chart

# $/M on the x axis: beyond Gemini's and the Towards AI tutor article's frontier-model cached rates
MAX_PRICE = 1.0


def _up_to(run, turn: int) -> list:
    """Usages of the run's calls up to and including conversation turn `turn`."""
    return [b.usage_metadata() for b in run.bundles if b.turn <= turn]


def _at(price, cached: float) -> Price:
    return Price(rate(price, "input"), cached, rate(price, "output"))


def readout_text(
    runs: dict,
    price,
    cached: float,
    turn: int,
    keep: str,
    compacting: str,
    bill=billing.bill,
    break_even=billing.break_even_cached_price,
) -> str:
    """One line per strategy at this price and length, and the break-even sentence, billed with
    `bill` and crossed with `break_even` (the student's, in the lesson)."""
    sheet = _at(price, cached)
    costs = {name: bill(_up_to(run, turn), sheet) for name, run in runs.items()}
    cheapest = min(costs, key=costs.get)
    rows = "".join(
        f"<li>{name}: ${cost:.5f}{' ← cheapest' if name == cheapest else ''}</li>"
        for name, cost in costs.items()
    )
    even = break_even(_up_to(runs[keep], turn), _up_to(runs[compacting], turn), price)
    if even is None:
        verdict = "the two lines are parallel: they never cross"
    elif even < 0:
        verdict = f"they never cross at a real price ({even:.3f} $/M)"
    else:
        verdict = f"they cross at <b>{even:.3f} $/M</b> cached"
    return (
        f"<p>turns 0-{turn}, cached input at {cached:.3f} $/M</p><ul>{rows}</ul><p>{keep} vs"
        f" {compacting}: {verdict}.</p><p><small>billed with {whose('7.1', bill)}, crossing by"
        f" {whose('7.2', break_even)}</small></p>"
    )


def _traces(
    runs: dict,
    price,
    cached: float,
    turn: int,
    keep: str,
    compacting: str,
    bill=billing.bill,
    break_even=billing.break_even_cached_price,
) -> list[dict]:
    """Data of every trace at this price and length: one cost line per strategy, the break-even
    point (none when the lines do not cross on the axis), and each strategy's bill at `cached`."""
    usages = {name: _up_to(run, turn) for name, run in runs.items()}
    lines = [
        dict(x=[0, MAX_PRICE], y=[bill(u, _at(price, 0.0)), bill(u, _at(price, MAX_PRICE))])
        for u in usages.values()
    ]
    even = break_even(usages[keep], usages[compacting], price)
    inside = even is not None and 0 <= even <= MAX_PRICE
    crossing = dict(
        x=[even] if inside else [], y=[bill(usages[keep], _at(price, even))] if inside else []
    )
    here = sorted((bill(u, _at(price, cached)), name) for name, u in usages.items())
    here = dict(
        x=[cached] * len(here), y=[cost for cost, _ in here], text=[name for _, name in here]
    )
    return lines + [crossing, here]


def cost_panel(
    runs: dict,
    price,
    keep: str = "capped outputs",
    compacting: str = "compaction at threshold",
    bill=billing.bill,
    break_even=billing.break_even_cached_price,
) -> widgets.VBox:
    """Sliders for the cached price and the session length; one cost line per strategy, billed with
    `bill`; break-even marked, found with `break_even` (the lesson hands both from 7.1 and 7.2)."""
    yours = dict(bill=bill, break_even=break_even)
    last_turn = max(b.turn for run in runs.values() for b in run.bundles)
    cached = widgets.FloatSlider(
        value=rate(price, "cached_input"),
        min=0.0,
        max=MAX_PRICE,
        step=0.005,
        readout_format=".3f",
        description="cached $/M",
        layout=widgets.Layout(width="500px"),
    )
    length = widgets.IntSlider(
        value=last_turn,
        min=1,
        max=last_turn,
        description="turns",
        layout=widgets.Layout(width="500px"),
    )
    readout = widgets.HTML(
        readout_text(runs, price, cached.value, last_turn, keep, compacting, **yours)
    )
    data = _traces(runs, price, cached.value, last_turn, keep, compacting, **yours)
    figure = go.Figure(
        data=[go.Scatter(**line, mode="lines", name=name) for line, name in zip(data, runs)]
        + [
            go.Scatter(
                **data[-2],
                mode="markers",
                marker=dict(size=12, symbol="x", color="black"),
                name="break-even",
            ),
            # Joined by a line: moved markers alone change only a transform, which the browser test
            # cannot see.
            go.Scatter(
                **data[-1],
                mode="lines+markers",
                line=dict(dash="dot", color="grey"),
                marker=dict(size=8),
                name="at this cached price",
                hovertemplate="%{text}: $%{y:.5f}<extra></extra>",
            ),
        ],
        layout=go.Layout(
            height=380,
            margin=dict(l=60, r=20, t=30, b=50),
            xaxis_title="cached input price ($ per million tokens)",
            yaxis_title="session cost ($)",
        ),
    )
    chart = Chart(figure)

    def redraw(_change=None):
        for trace, values in zip(
            figure.data, _traces(runs, price, cached.value, length.value, keep, compacting, **yours)
        ):
            trace.update(**values)
        chart.show(figure)
        readout.value = readout_text(
            runs, price, cached.value, length.value, keep, compacting, **yours
        )

    cached.observe(redraw, names="value")
    length.observe(redraw, names="value")
    return widgets.VBox([cached, length, readout, chart])
