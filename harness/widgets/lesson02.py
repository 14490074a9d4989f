"""Lesson 02's panel: pick where a volatile block goes and watch the share the prefix cache serves.

The lesson hands it `measure(choice)`, which runs a short session with that layout against the model
and returns (prompt, cached) tokens per call; the panel draws each call's prompt split into its
cached and uncached parts, and says what the session's input cost.

>>> calls = {"stable first": [(1500, 0), (1600, 1480)], "timestamp on top": [(1500, 0), (1600, 0)]}
>>> panel = cache_panel(calls.get, list(calls), Price(input=0.30, cached_input=0.03, output=2.50))
>>> panel.children[1].value
'stable first: 1,480 of 3,100 prompt tokens served from the cache (<b>48%</b>); input $0.000530, against $0.000930 with no cache.'
"""  # noqa: E501

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.models import Price
from harness.widgets.chart import Chart

CACHED, UNCACHED = "#2a9d8f", "#e76f51"


def _readout(choice: str, calls, price: Price) -> str:
    prompt, cached = sum(p for p, _ in calls), sum(c for _, c in calls)
    dollars = ((prompt - cached) * price.input + cached * price.cached_input) / 1e6
    return (
        f"{choice}: {cached:,} of {prompt:,} prompt tokens served from the cache "
        f"(<b>{cached / prompt if prompt else 0:.0%}</b>); input ${dollars:.6f}, "
        f"against ${prompt * price.input / 1e6:.6f} with no cache."
    )


def stacked(calls, x=None, what: str = "call") -> list[go.Bar]:
    """Two bar traces for (prompt, cached) per call, for a figure with barmode="stack": each call's
    cached tokens, its uncached ones on top; at x = 1, 2, ... unless given.

    >>> [list(bar.y) for bar in stacked([(1500, 0), (1600, 1480)])]
    [[0, 1480], [1500, 120]]
    """
    x = list(x) if x is not None else list(range(1, len(calls) + 1))
    parts = (
        ("served from the cache", CACHED, [cached for _, cached in calls]),
        ("read at full price", UNCACHED, [prompt - cached for prompt, cached in calls]),
    )
    return [
        go.Bar(
            name=name,
            x=x,
            y=y,
            marker_color=colour,
            hovertemplate=f"{what} %{{x}}: %{{y:,}} tokens {name}<extra></extra>",
        )
        for name, colour, y in parts
    ]


def cache_panel(measure, choices, price: Price, description: str = "layout") -> widgets.VBox:
    """A dropdown of `choices`, a readout, and each call's prompt as a bar: cached part, then the
    rest."""
    choices = list(choices)
    if not choices:
        raise ValueError("cache_panel needs at least one layout to choose from.")
    picker = widgets.Dropdown(
        options=choices,
        value=choices[0],
        description=description,
        layout=widgets.Layout(width="420px"),
    )
    first = measure(choices[0])
    readout = widgets.HTML(_readout(choices[0], first, price))

    def figure_of(calls) -> go.Figure:
        return go.Figure(
            data=stacked(calls),
            layout=go.Layout(
                barmode="stack",
                height=320,
                margin=dict(l=60, r=20, t=40, b=40),
                xaxis=dict(title="call", dtick=1),
                yaxis_title="prompt tokens",
                showlegend=False,
                title=dict(
                    text="green: served from the cache · orange: read at full price",
                    font=dict(size=13),
                ),
            ),
        )

    chart = Chart(figure_of(first))

    def redraw(_change=None):
        calls = measure(picker.value)
        chart.show(figure_of(calls))
        readout.value = _readout(picker.value, calls, price)

    picker.observe(redraw, names="value")
    return widgets.VBox([picker, readout, chart])
