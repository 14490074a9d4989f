"""A panel's chart: a plain plotly figure drawn into an output area, replaced whole on every change.

Every panel draws this way. A panel builds a `go.Figure` from its rows, shows it with
`chart = Chart(figure)` where the figure used to sit in the panel's box, and calls
`chart.show(figure)` at the end of each redraw (after changing the figure's traces, or with a new
figure built from the new rows). Tests read what a chart shows as `chart.figure`.

Not `go.FigureWidget`: since plotly 6 it is an anywidget, whose model opens with no data (the
traces follow in later messages) and carries plotly's 5 MB bundle as its `_esm`, which the page
imports afresh for every figure. anywidget 0.11 gives that import 2 s (`AbortSignal.timeout(2000)`
in its front end); past it, every later message to the model is dropped and JupyterLab swallows the
error. On a busy machine, or in a page open a long time, the chart then stays on plotly's empty
axes (-1..6 by -1..4) while the readout above it moves: 19 of 98 charts in one long session here
(2026-12-03), 0 of 70 drawn this way. A plain figure goes out as plotly's JSON mimetype, which
JupyterLab's plotly renderer (the jupyterlab-plotly extension in plotly's wheel; `workbook doctor`
checks it is there) draws with the one plotly.js it loads per page, with no time limit; VS Code and
static viewers render the same mimetype.

    >>> mimebundle(go.Figure(go.Scatter(x=[1, 2], y=[3, 4])))[MIMETYPE]["data"]
    [{'x': [1, 2], 'y': [3, 4], 'type': 'scatter'}]
"""

import itertools
import json
import weakref

import ipywidgets as widgets
import plotly.graph_objects as go

MIMETYPE = "application/vnd.plotly.v1+json"
CLASS = "workbook-chart"  # and workbook-chart-<n>: how a browser test finds chart n of the kernel

_numbers = itertools.count(1)
_charts: "weakref.WeakValueDictionary[int, Chart]" = weakref.WeakValueDictionary()


def mimebundle(figure: go.Figure) -> dict:
    """The figure as plotly's JSON mimetype (through plotly's own encoder: numpy arrays, dates),
    with a line of text for a front end that has no plotly renderer."""
    plotly = json.loads(figure.to_json())
    plotly["config"] = {"displaylogo": False, "responsive": True}
    return {MIMETYPE: plotly, "text/plain": f"plotly chart: {len(plotly['data'])} trace(s)"}


class Chart(widgets.Output):
    """An output area that shows one figure at a time; `show` replaces it."""

    def __init__(self, figure: go.Figure | None = None, **kwargs):
        super().__init__(**kwargs)
        self.number = next(_numbers)
        self.figure: go.Figure | None = None
        self.add_class(CLASS)
        self.add_class(f"{CLASS}-{self.number}")
        _charts[self.number] = self
        if figure is not None:
            self.show(figure)

    def show(self, figure: go.Figure) -> None:
        """Draw `figure` in place of the last one.

        The output list is set whole, as widget state (one message, applied at once by the page),
        rather than captured from `display()` inside `with self:`, which depends on the page linking
        the output to the message being handled, and prints the figure when run outside a kernel.
        """
        self.figure = figure
        self.outputs = (
            {"output_type": "display_data", "data": mimebundle(figure), "metadata": {}},
        )


def shown_charts() -> dict[int, dict]:
    """Chart number -> the plotly JSON it last sent to the page, for each chart still alive: what a
    browser test compares the page with."""
    return {
        number: chart.outputs[0]["data"][MIMETYPE]
        for number, chart in sorted(_charts.items())
        if chart.outputs
    }
