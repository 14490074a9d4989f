"""Lesson 01's panel: how the prompts of a naive chat loop grow with the number of turns.

The prompts come from the `naive_prompt_sizes` the lesson hands it (the student's, via mine()).

>>> panel = growth_panel(turns=10, turn_size=200)
>>> panel.children[1].value
"10 turns of 200 tokens: the last prompt is <b>2,200</b> tokens, the session sends <b>13,000</b> input tokens (5.9x the last prompt). Twice the turns would send 3.5x as much.<br><small>runs the harness's naive_prompt_sizes (1.1)</small>"
"""  # noqa: E501

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.checks import ran_by
from harness.history import naive_prompt_sizes
from harness.widgets.chart import Chart


def _session(prompt_sizes, system_tokens: int, turns: int, turn_size: int) -> list[int]:
    # A turn adds a user message and a reply; half and half is enough to see the shape.
    return list(prompt_sizes(system_tokens, [(turn_size // 2, turn_size - turn_size // 2)] * turns))


def _readout(prompt_sizes, system_tokens: int, turns: int, turn_size: int) -> str:
    sizes = _session(prompt_sizes, system_tokens, turns, turn_size)
    doubled = sum(_session(prompt_sizes, system_tokens, 2 * turns, turn_size))
    return (
        f"{turns} turn{'s' if turns != 1 else ''} of {turn_size} tokens: the last prompt is"
        f" <b>{sizes[-1]:,}</b> tokens, the session sends <b>{sum(sizes):,}</b> input tokens"
        f" ({sum(sizes) / sizes[-1]:.1f}x the last prompt). Twice the turns would send"
        f" {doubled / sum(sizes):.1f}x as much."
    )


def growth_panel(
    turns: int = 13,
    turn_size: int = 400,
    system_tokens: int = 300,
    max_turns: int = 60,
    prompt_sizes=naive_prompt_sizes,
) -> widgets.VBox:
    """Sliders for the number of turns and the tokens each turn adds; a chart of each turn's prompt
    (bars, from `prompt_sizes`) and the session's cumulative input (line), redrawn on every change.
    """
    turns_slider = widgets.IntSlider(value=turns, min=1, max=max_turns, description="turns")
    # Step 1, so the panel can open on the lesson's measured turn size (209, not a rounded 200).
    size_slider = widgets.IntSlider(
        value=turn_size, min=20, max=max(2000, turn_size), description="turn size"
    )

    def series():
        sizes = _session(prompt_sizes, system_tokens, turns_slider.value, size_slider.value)
        return (
            list(range(1, len(sizes) + 1)),
            sizes,
            [sum(sizes[: k + 1]) for k in range(len(sizes))],
        )

    turn_numbers, sizes, cumulative = series()
    by = "<br><small>" + ran_by(("1.1", prompt_sizes)) + "</small>"
    readout = widgets.HTML(
        _readout(prompt_sizes, system_tokens, turns_slider.value, size_slider.value) + by
    )
    figure = go.Figure(
        data=[
            go.Bar(name="prompt of this turn", x=turn_numbers, y=sizes),
            go.Scatter(name="cumulative input", mode="lines+markers", x=turn_numbers, y=cumulative),
        ],
        layout=go.Layout(
            height=360,
            margin=dict(l=60, r=20, t=30, b=40),
            xaxis_title="turn",
            yaxis_title="input tokens",
            legend=dict(orientation="h", y=1.1),
        ),
    )
    chart = Chart(figure)

    def redraw(_change=None):
        turn_numbers, sizes, cumulative = series()
        figure.data[0].x = figure.data[1].x = turn_numbers
        figure.data[0].y, figure.data[1].y = sizes, cumulative
        chart.show(figure)
        readout.value = (
            _readout(prompt_sizes, system_tokens, turns_slider.value, size_slider.value) + by
        )

    turns_slider.observe(redraw, names="value")
    size_slider.observe(redraw, names="value")
    return widgets.VBox([widgets.HBox([turns_slider, size_slider]), readout, chart])
