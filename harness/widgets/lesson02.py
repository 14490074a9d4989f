"""Lesson 02's panel: pick where a volatile block goes and watch the share the prefix cache serves.

The lesson hands it `measure(choice)`, which runs a short session with that layout against the model
and returns (prompt, cached) tokens per call; the panel draws each call's prompt split into its cached
and uncached parts, and says what the session's input cost.

>>> calls = {"stable first": [(1500, 0), (1600, 1480)], "timestamp on top": [(1500, 0), (1600, 0)]}
>>> panel = cache_panel(calls.get, list(calls), Price(input=0.30, cached_input=0.03, output=2.50))
>>> panel.children[1].value
'stable first: 1,480 of 3,100 prompt tokens served from the cache (<b>48%</b>); input $0.000530, against $0.000930 with no cache.'
"""
import ipywidgets as widgets
import plotly.graph_objects as go

from harness.models import Price

CACHED, UNCACHED = "#2a9d8f", "#e76f51"


def _readout(choice: str, calls, price: Price) -> str:
    prompt, cached = sum(p for p, _ in calls), sum(c for _, c in calls)
    dollars = ((prompt - cached) * price.input + cached * price.cached_input) / 1e6
    return (f"{choice}: {cached:,} of {prompt:,} prompt tokens served from the cache "
            f"(<b>{cached / prompt if prompt else 0:.0%}</b>); input ${dollars:.6f}, "
            f"against ${prompt * price.input / 1e6:.6f} with no cache.")


def cache_panel(measure, choices, price: Price, description: str = "layout") -> widgets.VBox:
    """A dropdown of `choices`, a readout, and stacked bars (cached / uncached) per call."""
    choices = list(choices)
    if not choices:
        raise ValueError("cache_panel needs at least one layout to choose from.")
    picker = widgets.Dropdown(options=choices, value=choices[0], description=description,
                              layout=widgets.Layout(width="420px"))
    first = measure(choices[0])
    readout = widgets.HTML(_readout(choices[0], first, price))
    numbers = list(range(1, len(first) + 1))
    # NOTE: the traces get their data when built; a FigureWidget changed before it is displayed may
    # draw empty in the browser.
    figure = go.FigureWidget(
        data=[go.Bar(name="cached", x=numbers, y=[c for _, c in first], marker_color=CACHED),
              go.Bar(name="not cached", x=numbers, y=[p - c for p, c in first], marker_color=UNCACHED)],
        layout=go.Layout(barmode="stack", height=320, margin=dict(l=60, r=20, t=30, b=40), xaxis_title="call",
                         yaxis_title="prompt tokens", legend=dict(orientation="h", y=1.12)))

    def redraw(_change=None):
        calls = measure(picker.value)
        with figure.batch_update():
            figure.data[0].y = [c for _, c in calls]
            figure.data[1].y = [p - c for p, c in calls]
        readout.value = _readout(picker.value, calls, price)

    picker.observe(redraw, names="value")
    return widgets.VBox([picker, readout, figure])
