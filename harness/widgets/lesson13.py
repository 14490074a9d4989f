"""Lesson 13's panel: the session's length, the index budget and the corpus shell, against the
window.

Each move runs (or reuses) two glass-box sessions of that length: the window keeping every turn,
and the harness moving every exchange but the last out to files, with INDEX.md written by *your*
`build_index` at the budget shown. The chart is each session's prompt, turn by turn; the readout
says how large each got, how many of the 3 planted facts each still answered at the end, and whose
`build_index` wrote the index (yours once 13.1 passes, the harness's until then).

    >>> panel = offload_panel(connect(), build_index)         # doctest: +SKIP
    >>> panel.children[1].value = 300                         # doctest: +SKIP
"""

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.checks import ran_by
from harness.library import LibraryPlan, budget_plan, run_library_session, turn_prompts
from harness.probes import probe_results
from harness.widgets.chart import Chart

KEPT = LibraryPlan("every turn kept", offload=False)
MAX_QUESTIONS = 28
BUDGETS = range(300, 1_501, 300)  # the index budget's stops, in tokens


def runs_for(client, build_index, questions: int, budget: int, shell: bool) -> dict:
    return {
        KEPT.name: run_library_session(client, KEPT, questions),
        "moved": run_library_session(
            client, budget_plan(budget, shell), questions, build=build_index
        ),
    }


def chart_data(runs: dict) -> list[dict]:
    """One trace per session: x the turn, y the prompt tokens the turn was answered with."""
    return [
        dict(
            x=[turn for turn, _ in turn_prompts(run)], y=[tokens for _, tokens in turn_prompts(run)]
        )
        for run in runs.values()
    ]


def figure_of(runs: dict) -> go.Figure:
    """Each session's prompt tokens, turn by turn."""
    data = chart_data(runs)
    return go.Figure(
        data=[
            go.Scatter(**data[0], mode="lines+markers", name=KEPT.name),
            go.Scatter(**data[1], mode="lines+markers", name="moved out, with an index"),
        ],
        layout=go.Layout(
            height=380,
            margin=dict(l=60, r=20, t=30, b=50),
            xaxis_title="turn",
            yaxis_title="prompt tokens",
        ),
    )


def readout_text(runs: dict, build_index) -> str:
    """One line per session: its largest prompt, its last one and the planted facts it answered;
    then whose build_index wrote the moved-out session's index."""
    rows = []
    for run in runs.values():
        prompts = [tokens for _, tokens in turn_prompts(run)]
        rows.append(
            f"<li><b>{run.name}</b>: largest prompt {max(prompts):,} tokens, last {prompts[-1]:,}; "
            f"answers {sum(probe_results(run))} of 3 planted facts</li>"
        )
    return "<ul>" + "".join(rows) + f"</ul><small>{ran_by(('13.1', build_index))}</small>"


def offload_panel(
    client, build_index, questions: int = 14, budget: int = 600, shell: bool = False
) -> widgets.VBox:
    """Sliders for the session length and the index budget, a box for the shell; the prompts."""
    length = widgets.IntSlider(
        value=questions,
        min=2,
        max=MAX_QUESTIONS,
        step=2,
        description="questions",
        continuous_update=False,
        layout=widgets.Layout(width="500px"),
    )
    index = widgets.IntSlider(
        value=budget,
        min=BUDGETS.start,
        max=BUDGETS.stop - 1,
        step=BUDGETS.step,
        description="index budget",
        continuous_update=False,
        layout=widgets.Layout(width="500px"),
        style={"description_width": "initial"},
    )
    grep = widgets.Checkbox(value=shell, description="corpus shell (grep)")
    runs = runs_for(client, build_index, length.value, index.value, grep.value)
    readout = widgets.HTML(readout_text(runs, build_index))
    chart = Chart(figure_of(runs))

    def redraw(_change=None):
        # NOTE: a slider moved while a session runs is read again at the end of this pass (see
        # lesson 11's panel).
        while True:
            shown = (length.value, index.value, grep.value)
            readout.value = f"<p>running the {shown[0]}-question sessions…</p>"
            now = runs_for(client, build_index, *shown)
            chart.show(figure_of(now))
            readout.value = readout_text(now, build_index)
            if (length.value, index.value, grep.value) == shown:
                return

    for control in (length, index, grep):
        control.observe(redraw, names="value")
    return widgets.VBox([length, index, grep, readout, chart])
