"""Lesson 06's panel: where would a session token cap stop this run?

The cumulative tokens (input + output) of a recorded run, and a cap you can move: the run stops
before the first call that would start at or past it, as `SessionConfig.over_cap` decides.

    >>> panel = token_cap_panel(run_agent(AgentConfig(truncation_mode="head_only")))   # doctest: +SKIP
"""

import itertools

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.widgets.chart import Chart

RAN, STOPPED = "#2a9d8f", "#d3d3d3"


def calls_made(cumulative: list[int], cap: int) -> int:
    """How many calls run under `cap`: the first always; each next one while the tokens so far are
    under it.

    >>> calls_made([100, 250, 400], 260)
    3
    >>> calls_made([100, 250, 400], 250)
    2
    """
    return 1 + sum(1 for total in cumulative[:-1] if total < cap)


def readout(cumulative: list[int], cap: int) -> str:
    """What the cap does to the run, the overshoot of the last call it let through included.

    >>> readout([100, 250, 400], 300)
    'with a cap of 300 tokens the run makes 3 of its 3 calls and spends 400 tokens, 100 past the cap: \
the cap is checked before each call, and the last one started under it'
    """
    ran = calls_made(cumulative, cap)
    spent = cumulative[ran - 1]
    text = (
        f"with a cap of {cap:,} tokens the run makes {ran} of its {len(cumulative)} calls "
        f"and spends {spent:,} tokens"
    )
    if spent > cap:
        text += (
            f", {spent - cap:,} past the cap: the cap is checked before each call, "
            "and the last one started under it"
        )
    return text


def token_cap_panel(report) -> widgets.VBox:
    """A cap slider, a readout and one bar per turn: its session tokens so far, grey once the cap
    stops it."""
    cumulative = list(itertools.accumulate(t.prompt_tokens + t.output_tokens for t in report.turns))
    cap = widgets.IntSlider(
        value=20_000,
        min=2_000,
        max=50_000,
        step=1_000,
        description="token cap",
        continuous_update=False,
    )
    label = widgets.HTML()
    turns = [t.turn for t in report.turns]
    figure = go.Figure(
        data=[
            go.Bar(name="session tokens", x=turns, y=cumulative, marker_color=[RAN] * len(turns)),
            go.Scatter(
                name="cap",
                mode="lines",
                line=dict(dash="dash", color="crimson"),
                x=[0.5, len(turns) + 0.5],
                y=[cap.value] * 2,
            ),
        ],
        layout=go.Layout(
            height=300, xaxis_title="turn", yaxis_title="session tokens so far", margin=dict(t=30)
        ),
    )
    chart = Chart()

    def redraw(_change=None):
        ran = calls_made(cumulative, cap.value)
        figure.data[0].marker.color = [
            RAN if index < ran else STOPPED for index in range(len(turns))
        ]
        figure.data[1].y = [cap.value] * 2
        chart.show(figure)
        label.value = readout(cumulative, cap.value)

    cap.observe(redraw, names="value")
    redraw()
    return widgets.VBox([cap, label, chart])
