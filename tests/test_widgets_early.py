"""The panels of lessons 01 and 03 redraw when a slider moves, and say what they show."""
import ipywidgets as widgets
import plotly.graph_objects as go

from harness.context import build_context
from harness.history import naive_prompt_sizes
from harness.widgets.lesson01 import growth_panel
from harness.widgets.lesson03 import DROPPED, KEPT, budget_panel

FACTS = ["Ana is on team Blue.", "Ana prefers tea."]
TURNS = [("user", "Where is the new office?"), ("model", "On Rue Garibaldi."), ("user", "When?"), ("model", "In March.")]
ARGS = ("Be brief.", FACTS, "Ana asked about the office move.", TURNS, "Which team am I on?")


def parts(panel):
    sliders = [w for w in panel.children[0].children] if isinstance(panel.children[0], widgets.HBox) else [panel.children[0]]
    return sliders, panel.children[1], panel.children[2]


def test_growth_panel_redraws_on_each_slider():
    (turns, size), readout, figure = parts(growth_panel(turns=5, turn_size=100, system_tokens=50))
    assert isinstance(figure, go.FigureWidget) and list(figure.data[0].y) == naive_prompt_sizes(50, [(50, 50)] * 5)
    turns.value = 8
    assert len(figure.data[0].y) == 8 and figure.data[1].y[-1] == sum(naive_prompt_sizes(50, [(50, 50)] * 8))
    size.value = 200
    assert figure.data[0].y[0] == 150 and readout.value.startswith("8 turns of 200 tokens")


def test_budget_panel_slider_readout_and_bars_agree_with_build_context():
    (slider,), readout, figure = parts(budget_panel(*ARGS, docs=["The office moves in March."]))
    assert isinstance(slider, widgets.IntSlider) and slider.description == "budget"
    assert isinstance(figure, go.FigureWidget)
    assert set(figure.data[0].marker.color) == {KEPT} and "nothing dropped" in readout.value
    for budget in (40, 25, 1):
        slider.value = budget
        _, contents, total = build_context(*ARGS, budget=budget, docs=["The office moves in March."])
        assert f"budget {budget}: kept {total} tokens" in readout.value
        kept_turns = sum(1 for c in contents[:-1] if "office moves" not in c.parts[0].text)
        turn_colours = figure.data[0].marker.color[4:8]
        assert list(turn_colours) == [DROPPED] * (4 - kept_turns) + [KEPT] * kept_turns
    assert "never cut" in readout.value
