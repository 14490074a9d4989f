"""Lesson 04's panel: slide the cap and the head share, see what your `truncate_output` lets
through.

The bars are read from what the function returned, not recomputed: the head is the text before its
marker line, the tail the text after it, so a wrong answer shows as it is.

>>> kept("aaaa\\n[... 6 characters omitted ...]\\nbbbbbb", 16)
(4, 6)
>>> kept("short", 5)
(5, 0)
"""

import re

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.checks import ran_by
from harness.tokens import approx_tokens
from harness.widgets.chart import Chart

_MARKER = re.compile(r"\n?\[\.\.\. .*? omitted \.\.\.\]\n?")


def kept(shown: str, original_length: int) -> tuple[int, int]:
    """(head, tail) characters of a truncated output: around its marker line, or all head without
    one."""
    marker = _MARKER.search(shown)
    if marker is None:
        return min(len(shown), original_length), 0
    return marker.start(), len(shown) - marker.end()


def _readout(log: str, shown: str, extract_verdict) -> str:
    survives = extract_verdict(shown)
    return (
        f"<b>verdict in view:</b> {survives or 'no: the agent would run the tests again'} &nbsp;"
        f" <b>saved:</b> {len(log) - len(shown):,} chars, about"
        f" {approx_tokens(log) - approx_tokens(shown):,} tokens per call"
    )


def _bars(log: str, shown: str) -> list[list[int]]:
    head, tail = kept(shown, len(log))
    return [[head], [max(0, len(log) - head - tail)], [tail]]


def cap_panel(log: str, truncate_output, extract_verdict) -> widgets.VBox:
    """Sliders for `max_chars` and `head_ratio`; the log's kept head, omitted middle and kept
    tail as one stacked bar; whether `extract_verdict` still finds the verdict in what is kept."""
    cap = widgets.IntSlider(
        value=4000, min=500, max=20000, step=500, description="max_chars", continuous_update=False
    )
    ratio = widgets.FloatSlider(
        value=0.4, min=0.0, max=1.0, step=0.05, description="head_ratio", continuous_update=False
    )
    shown = truncate_output(log, cap.value, ratio.value)
    by = "<br><small>" + ran_by(("4.1", truncate_output), ("4.2", extract_verdict)) + "</small>"
    verdict_line = widgets.HTML(_readout(log, shown, extract_verdict) + by)
    figure = go.Figure(
        data=[
            go.Bar(name=name, orientation="h", y=["log"], x=x, marker_color=colour)
            for (name, colour), x in zip(
                (("head kept", "#2a9d8f"), ("omitted", "#d3d3d3"), ("tail kept", "#264653")),
                _bars(log, shown),
            )
        ],
        layout=go.Layout(
            barmode="stack",
            height=240,
            xaxis_title="characters of the pytest log",
            yaxis=dict(showticklabels=False),
            margin=dict(t=30, b=40),
        ),
    )
    chart = Chart(figure)

    def redraw(_change=None):
        shown = truncate_output(log, cap.value, ratio.value)
        figure.data[0].x, figure.data[1].x, figure.data[2].x = _bars(log, shown)
        chart.show(figure)
        verdict_line.value = _readout(log, shown, extract_verdict) + by

    cap.observe(redraw, names="value")
    ratio.observe(redraw, names="value")
    return widgets.VBox([widgets.HBox([cap, ratio]), verdict_line, chart])
