"""harness.widgets.chart: a chart sends its whole figure as plotly's mimetype on every show, says
what it last sent, and the browser test's comparison (tests/browser/chart_check.py) fails on each
way a page can show a chart wrong."""

import array
import base64
import gc
import importlib.util
from pathlib import Path

import plotly.graph_objects as go

from harness.widgets.chart import CLASS, MIMETYPE, Chart, shown_charts

_spec = importlib.util.spec_from_file_location(
    "chart_check", Path(__file__).parent / "browser" / "chart_check.py"
)
chart_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chart_check)


def bars(*heights) -> go.Figure:
    return go.Figure(go.Bar(x=list(range(1, len(heights) + 1)), y=list(heights)))


def test_a_chart_shows_one_figure_and_show_replaces_it():
    chart = Chart(bars(3, 4))
    (output,) = chart.outputs
    assert (
        output["output_type"] == "display_data"
        and output["data"]["text/plain"] == "plotly chart: 1 trace(s)"
    )
    assert output["data"][MIMETYPE]["data"][0]["y"] == [3, 4]
    chart.show(bars(5, 6, 7))
    (output,) = chart.outputs
    assert output["data"][MIMETYPE]["data"][0]["y"] == [5, 6, 7]
    assert chart.figure.data[0].y == (5, 6, 7), "tests read the figure a chart last showed"


def test_each_chart_has_its_own_number_and_says_what_it_last_sent():
    first, second = Chart(bars(1)), Chart()
    assert second.number > first.number
    assert {CLASS, f"{CLASS}-{first.number}"} <= set(first._dom_classes)
    assert first.number in shown_charts() and second.number not in shown_charts(), (
        "a chart that showed nothing yet has nothing to compare"
    )
    second.show(bars(8, 9))
    assert shown_charts()[second.number]["data"][0]["y"] == [8, 9]
    number = first.number
    first.close()  # as the kernel does when the panel goes: no widget refers to it any more
    del first
    gc.collect()
    assert number not in shown_charts()


def test_the_check_reads_plotly_typed_arrays_as_lists():
    """plotly sends a numpy array as base64 (none here: numpy is not a dependency, but a student's
    environment may have it)."""
    encoded = {"dtype": "f8", "bdata": base64.b64encode(array.array("d", [0.5, 2.5]).tobytes())}
    assert chart_check.values(encoded) == [0.5, 2.5]
    assert chart_check.values([1, 2]) == [1, 2] and chart_check.values("red") == "red"


# The browser test's comparison, on the shapes its JavaScript reads from the page.

KERNEL = {"1": {"data": [{"x": [1, 2], "y": [3, 4], "marker": {"color": ["red", "blue"]}}]}}


def drawn(**changes) -> dict:
    shown = {
        "traces": [{"x": [1, 2], "y": [3, 4], "color": ["red", "blue"]}],
        "kept": 1,
        "boxes": [[40.0, 120.0]],
    }
    return {"1": {**shown, **changes}}


def test_the_check_passes_a_chart_that_draws_its_kernels_figure():
    assert chart_check.mismatches(KERNEL, drawn()) == []
    assert chart_check.blank(drawn()) == []


def test_the_check_names_each_way_a_chart_can_be_wrong():
    cases = {
        "the page holds 0 traces": drawn(traces=[], kept=0, boxes=[]),  # the blank FigureWidget
        "y on the page [3, 5]": drawn(
            traces=[{"x": [1, 2], "y": [3, 5], "color": ["red", "blue"]}]
        ),
        "color on the page ['red', 'red']": drawn(
            traces=[{"x": [1, 2], "y": [3, 4], "color": ["red", "red"]}]
        ),
        "draws no trace with a size": drawn(boxes=[[0.0, 0.0]]),
        "holds no plotly graph": {"1": None},
        "chart areas on the page [], charts in the kernel ['1']": {},
    }
    for said, page in cases.items():
        problems = chart_check.mismatches(KERNEL, page)
        assert any(said in problem for problem in problems), (said, problems)
    assert chart_check.blank(drawn(traces=[], kept=0, boxes=[])) == ["1"]
    assert chart_check.blank({"1": None}) == ["1"]
