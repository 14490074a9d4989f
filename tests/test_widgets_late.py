"""The panels of lessons 07, 08 and 14 redraw when a knob moves (the browser test covers lesson
03's)."""

import re

import pytest

from harness import connect
from harness.billing import PRICES
from harness.probes import STRATEGIES, run_battery, run_session
from harness.widgets.capstone import MET, MISSED, CapstonePanel
from harness.widgets.lesson07 import cost_panel
from harness.widgets.lesson08 import recall_cost_panel


@pytest.fixture(scope="module")
def runs():
    client = connect()
    names = ("capped outputs", "compaction at threshold")
    return {name: run_session(client, STRATEGIES[name], questions=8) for name in names}


def test_cost_panel_follows_the_price_and_the_session_length(runs):
    cached, length, readout, chart = cost_panel(runs, PRICES["gemini-2.5-flash"]).children
    figure = chart.figure
    before_text, before_costs = readout.value, [trace.y for trace in figure.data[:-1]]
    cached.value = 0.2
    assert readout.value != before_text and "0.200" in readout.value
    length.value = 3
    assert [trace.y for trace in figure.data[:-1]] != before_costs  # a shorter session costs less


def test_recall_cost_panel_rebills_at_another_price_sheet():
    battery = run_battery(
        connect(),
        {n: STRATEGIES[n] for n in ("full history", "compaction at threshold")},
        lengths=(8,),
    )
    picker, readout, chart = recall_cost_panel(battery).children
    figure = chart.figure
    before_text = readout.value
    before = [list(trace.x) for trace in figure.data]
    picker.value = "gemini-2.5-pro"
    after = [list(trace.x) for trace in figure.data]
    # pro costs more
    assert all(a > b for xs_a, xs_b in zip(after, before) for a, b in zip(xs_a, xs_b))
    assert readout.value != before_text and "gemini-2.5-pro prices" in readout.value
    totals = [float(t) for t in re.findall(r"\$([\d.]+) for its \d+ runs", readout.value)]
    assert len(totals) == 2 and totals == sorted(totals) and "cheapest total first" in readout.value


def test_recall_cost_panel_opens_on_the_workbook_model_as_the_api_names_it(monkeypatch):
    import harness

    monkeypatch.setattr(harness, "MODEL", "models/gemini-2.5-pro")
    picker = recall_cost_panel([]).children[0]
    assert picker.value == "gemini-2.5-pro"


def test_capstone_panel_opens_drawn_on_the_given_configs():
    from harness.capstone import reference_config

    panel = CapstonePanel(reference_config(), client=connect())
    assert (
        panel.tutor_knobs["context_budget"].value == 1_500
        and panel.agent_knobs["context_budget"].value == 24_000
    )
    assert (
        panel.tutor_readout.value.count(MET) == 4
        and "every target met" in panel.tutor_readout.value
    )
    assert "tests: <b>6 passed" in panel.agent_readout.value
    assert (
        len(panel.agent_chart.figure.data[0].x) > 0
        and len(panel.tutor_chart.figure.data[0].y) > 0
        and "turn" in panel.table.value
    )


def test_capstone_panel_reruns_only_the_loop_whose_knob_moved():
    from harness.capstone import reference_config

    panel = CapstonePanel(reference_config(), client=connect())
    agent_before, bars_before = (
        panel.agent_readout.value,
        [list(bars.y) for bars in panel.agent_chart.figure.data[:2]],
    )
    panel.tutor_knobs["compaction"].value = False  # the full session no longer fits the window
    assert MISSED + "</td><td><b>window" in panel.tutor_readout.value
    assert panel.agent_readout.value == agent_before
    panel.agent_knobs["context_budget"].value = 3_000  # small: the agent must compact
    assert (
        panel.agent_readout.value != agent_before
        and [list(bars.y) for bars in panel.agent_chart.figure.data[:2]] != bars_before
    )


def test_recall_cost_panel_grades_with_the_grader_and_filter_it_is_handed():
    battery = run_battery(connect(), {"full history": STRATEGIES["full history"]}, lengths=(6,))
    assert "recall 100%-100%" in recall_cost_panel(battery).children[1].value
    figure = (
        recall_cost_panel(battery, grade=lambda answer, points: False, fired=lambda run: True)
        .children[2]
        .figure
    )
    assert list(figure.data[0].y) == [0.0] and figure.data[0].marker.symbol == ("circle",)
