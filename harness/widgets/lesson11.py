"""Lesson 11's panel: the session's length and the restart budget against the cost of keeping the
history on the server and of restarting from a compacted context with *your* `should_restart`.

Each move runs (or reuses) two glass-box sessions of that length: the server keeping everything,
and the harness restarting whenever your policy says the replayed context passes 0.7 x the budget.
The chart is each session's bill, turn by turn; crosses mark the restarts.

    >>> panel = restart_panel(connect(), should_restart)     # doctest: +SKIP
    >>> panel.children[1].value = 9_000                      # doctest: +SKIP
"""

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.billing import bill, cache_hit_rate, price_for
from harness.checks import ran_by
from harness.probes import probe_results
from harness.server_state import ServerPlan, run_server_session
from harness.widgets.chart import Chart

KEEP_ALL = ServerPlan("server-held, no restart")
MAX_QUESTIONS = 28  # twice the lesson's session: long enough for restarting to start paying here
BUDGETS = range(6_000, 18_001, 3_000)  # the restart budget's stops: each move runs a session or two


def _plan(budget: int) -> ServerPlan:
    return ServerPlan(f"restart past 0.7 x {budget:,}", budget=budget)


def _runs(client, should_restart, questions: int, budget: int) -> dict:
    return {
        KEEP_ALL.name: run_server_session(client, KEEP_ALL, questions),
        _plan(budget).name: run_server_session(
            client, _plan(budget), questions, policy=should_restart
        ),
    }


def _running_cost(run, price) -> tuple[list, list]:
    """(turns, the bill up to and including each turn)."""
    turns = sorted({b.turn for b in run.bundles})
    return turns, [
        bill([b.usage_metadata() for b in run.bundles if b.turn <= t], price) for t in turns
    ]


def readout_text(runs: dict, price, budget: int) -> str:
    """One line per session: bill, cached share, restarts, largest prompt against the budget,
    facts known."""
    rows = []
    for name, run in runs.items():
        restarts = run.compaction_count()
        largest = max(b.prompt_tokens for b in run.bundles)
        rows.append(
            f"<li><b>{name}</b>: ${bill(run.usages(), price):.5f},"
            f" {cache_hit_rate(run.usages()):.0%} cached, {restarts}"
            f" restart{'s' if restarts != 1 else ''}, largest prompt {largest:,} tokens"
            f" ({'within' if largest <= budget else 'over'} {budget:,}), knows"
            f" {sum(probe_results(run))} of 3 planted facts</li>"
        )
    return "<ul>" + "".join(rows) + "</ul>"


def _traces(runs: dict, price) -> list[dict]:
    data = []
    for run in runs.values():
        turns, costs = _running_cost(run, price)
        data.append(dict(x=turns, y=costs))
    restart_run = list(runs.values())[1]
    turns, costs = _running_cost(restart_run, price)
    at = {event["turn"] for b in restart_run.bundles for event in b.compactions}
    data.append(
        dict(x=[t for t in turns if t in at], y=[c for t, c in zip(turns, costs) if t in at])
    )
    return data


def _figure(data: list[dict]) -> go.Figure:
    return go.Figure(
        data=[
            go.Scatter(**data[0], mode="lines+markers", name=KEEP_ALL.name),
            go.Scatter(**data[1], mode="lines+markers", name="restart with your should_restart"),
            go.Scatter(
                **data[2],
                mode="markers",
                marker=dict(size=13, symbol="x", color="black"),
                name="restart",
            ),
        ],
        layout=go.Layout(
            height=380,
            margin=dict(l=60, r=20, t=30, b=50),
            xaxis_title="turn",
            yaxis_title="bill so far ($)",
        ),
    )


def restart_panel(
    client, should_restart, questions: int = 14, budget: int = 6_000, price=None
) -> widgets.VBox:
    """Sliders for the session length and the restart budget; the two sessions' bills turn by
    turn."""
    price = price or price_for()
    length = widgets.IntSlider(
        value=questions,
        min=2,
        max=MAX_QUESTIONS,
        step=2,
        description="questions",
        continuous_update=False,
        layout=widgets.Layout(width="500px"),
    )
    limit = widgets.IntSlider(
        value=budget,
        min=BUDGETS.start,
        max=BUDGETS.stop - 1,
        step=BUDGETS.step,
        description="budget",
        continuous_update=False,
        layout=widgets.Layout(width="500px"),
    )
    runs = _runs(client, should_restart, length.value, limit.value)
    by = "<br><small>" + ran_by(("11.1", should_restart)) + "</small>"
    readout = widgets.HTML(readout_text(runs, price, limit.value) + by)
    chart = Chart(_figure(_traces(runs, price)))

    def redraw(_change=None):
        # NOTE: a redraw runs sessions for a second or more, and a slider moved meanwhile can be
        # applied (and redrawn) inside it (seen here in headless chromium): so each pass reads both
        # values once, and the last pass is the one that drew the values shown.
        while True:
            questions, budget = length.value, limit.value
            # A new pair of sessions takes seconds (the SDK's Interactions client spends ~70 ms a
            # call here): say so at once rather than look frozen.
            readout.value = (
                f"<p>running the {questions}-question sessions at a budget of {budget:,}"
                " tokens…</p>"
            )
            now = _runs(client, should_restart, questions, budget)
            chart.show(_figure(_traces(now, price)))
            readout.value = readout_text(now, price, budget) + by
            if (length.value, limit.value) == (questions, budget):
                return

    length.observe(redraw, names="value")
    limit.observe(redraw, names="value")
    return widgets.VBox([length, limit, readout, chart])
