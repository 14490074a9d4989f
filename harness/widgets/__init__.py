"""Panels the lessons show: sliders that vary a budget knob and a plotly chart that redraws.

One module per lesson (`lesson01`, `lesson03`, ...), so a notebook cell stays one line of story
and a browser test can drive the same widgets the student sees.
"""
from harness.startup import collector_paused

with collector_paused():  # ipywidgets and plotly's FigureWidget (plotly.io, anywidget): see collector_paused
    import ipywidgets  # noqa: F401
    from plotly.graph_objs import FigureWidget  # noqa: F401
