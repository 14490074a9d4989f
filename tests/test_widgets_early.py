"""The panels of lessons 00-03 open on the lesson's measured shape, redraw when a control moves,
and say what they show."""

import ipywidgets as widgets
from google.genai import types

from harness.billing import PRICES, bill
from harness.context import as_content, build_context, render_system
from harness.history import naive_prompt_sizes
from harness.widgets.chart import Chart
from harness.widgets.lesson00 import bill_panel
from harness.widgets.lesson01 import growth_panel
from harness.widgets.lesson02 import cache_panel
from harness.widgets.lesson03 import DROPPED, KEPT, budget_panel

FACTS = ["Ana is on team Blue.", "Ana prefers tea."]
TURNS = [
    ("user", "Where is the new office?"),
    ("model", "On Rue Garibaldi."),
    ("user", "When?"),
    ("model", "In March."),
]
ARGS = ("Be brief.", FACTS, "Ana asked about the office move.", TURNS, "Which team am I on?")
DOCS = ["The office moves in March."]


def controls(panel):
    """Every slider and dropdown of a panel, in order, wherever it sits."""
    found, todo = [], [panel]
    while todo:
        widget = todo.pop(0)
        if isinstance(widget, (widgets.IntSlider, widgets.Dropdown)):
            found.append(widget)
        todo = list(getattr(widget, "children", ())) + todo
    return found


def readout_and_chart(panel):
    return (
        [w for w in panel.children if isinstance(w, widgets.HTML)][0],
        next(w for w in panel.children if isinstance(w, Chart)).figure,
    )


def test_bill_panel_opens_on_the_call_and_prices_each_rate():
    usage = types.GenerateContentResponseUsageMetadata(
        prompt_token_count=1500,
        cached_content_token_count=1024,
        candidates_token_count=60,
        thoughts_token_count=200,
    )
    panel = bill_panel(usage, model="gemini-2.5-flash")
    prompt, cached, output, model = controls(panel)
    readout, figure = readout_and_chart(panel)
    assert (prompt.value, cached.value, output.value, model.value) == (
        1500,
        1024,
        260,
        "gemini-2.5-flash",
    )
    assert f"${bill(usage, PRICES['gemini-2.5-flash']):.6f}" in readout.value
    assert abs(sum(figure.data[0].y) - bill(usage, PRICES["gemini-2.5-flash"])) < 1e-12
    cached.value = 0
    assert "0 cached input tokens" in readout.value and figure.data[0].y[1] == 0
    cached.value, prompt.value = 1500, 1000  # the cached slider follows the prompt down
    assert "0 uncached + 1,000 cached" in readout.value and cached.value == cached.max == 1000
    prompt.value = prompt.min  # the slider and the readout agree at the smallest prompt
    assert (
        cached.value <= prompt.value
        and f"{prompt.value - cached.value:,} uncached + {cached.value:,} cached" in readout.value
    )
    assert prompt.step == 1_000 and output.step == 100 and figure.layout.yaxis.tickformat == "$,.6f"
    model.value = next(name for name in PRICES if name != "gemini-2.5-flash")
    assert readout.value.startswith(model.value)


def test_bill_panel_opens_on_values_the_browser_keeps():
    """The browser snaps a slider to min + k x step as it draws it: the call's own counts must be
    on that grid, or the panel opens on another call (48 prompt tokens shown as 0) with its chart
    left blank."""
    usage = types.GenerateContentResponseUsageMetadata(
        prompt_token_count=48, candidates_token_count=18, thoughts_token_count=36
    )
    prompt, cached, output, _ = controls(bill_panel(usage))
    assert (prompt.value, cached.value, output.value) == (48, 0, 54)
    assert all((s.value - s.min) % s.step == 0 for s in (prompt, cached, output))
    assert prompt.max >= 100_000 and output.max >= 10_000 and prompt.step == 1_000


def test_growth_panel_redraws_on_each_slider_and_reaches_the_measured_turn_size():
    turns, size = controls(growth_panel(turns=13, turn_size=209, system_tokens=30))
    assert size.value == 209, "the turn-size slider must not round the measured size"
    panel = growth_panel(turns=5, turn_size=100, system_tokens=50)
    (turns, size), (readout, figure) = controls(panel), readout_and_chart(panel)
    assert list(figure.data[0].y) == naive_prompt_sizes(50, [(50, 50)] * 5)
    turns.value = 8
    assert len(figure.data[0].y) == 8 and figure.data[1].y[-1] == sum(
        naive_prompt_sizes(50, [(50, 50)] * 8)
    )
    size.value = 200
    assert figure.data[0].y[0] == 150 and readout.value.startswith("8 turns of 200 tokens")


def test_cache_panel_follows_the_layout_it_is_given():
    sessions = {
        "stable first": [(2000, 0), (2100, 1990), (2200, 2090)],
        "timestamp on top": [(2000, 0)] * 3,
    }
    measured = []
    panel = cache_panel(
        lambda name: measured.append(name) or sessions[name],
        list(sessions),
        PRICES["gemini-2.5-flash"],
    )
    (picker,), (readout, figure) = controls(panel), readout_and_chart(panel)
    assert picker.value == "stable first" and figure.layout.barmode == "stack"
    assert [list(bars.y) for bars in figure.data] == [[0, 1990, 2090], [2000, 110, 110]]
    assert "(<b>65%</b>)" in readout.value
    picker.value = "timestamp on top"
    readout, figure = readout_and_chart(panel)  # a new figure
    assert [list(bars.y) for bars in figure.data] == [[0] * 3, [2000] * 3]
    assert "0 of 6,000" in readout.value and measured[-1] == "timestamp on top"


def test_budget_panel_opens_with_everything_kept_and_agrees_with_build_context():
    panel = budget_panel(*ARGS, docs=DOCS)
    (slider,), (readout, figure) = controls(panel), readout_and_chart(panel)
    full = build_context(*ARGS, budget=10**6, docs=DOCS)[2]
    # on the slider's steps
    assert full <= slider.value < full + slider.step and slider.value % slider.step == 0
    assert set(figure.data[0].marker.color) == {KEPT} and "nothing dropped" in readout.value
    for budget in (40, 25, slider.min):
        slider.value = budget
        _, contents, total = build_context(*ARGS, budget=budget, docs=DOCS)
        assert f"budget {budget}: kept {total} tokens" in readout.value
        kept_turns = sum(1 for c in contents[:-1] if "office moves" not in c.parts[0].text)
        turn_colours = figure.data[0].marker.color[4:8]
        assert list(turn_colours) == [DROPPED] * (4 - kept_turns) + [KEPT] * kept_turns
    assert "never cut" in readout.value


def test_budget_panel_shows_what_the_build_it_is_given_keeps():
    def newest_first(system, facts, summary, turns, question, budget=6000, count=None, docs=()):
        """A wrong build_context: drops the NEWEST turns, and the summary with them."""
        turns = list(turns)
        while turns and len(turns) > budget // 10:
            turns.pop()
        contents = [as_content(r, t) for r, t in turns] + [as_content("user", question)]
        return render_system(system, facts, ""), contents, 0

    panel = budget_panel(*ARGS, budget=20, build=newest_first)
    readout, figure = readout_and_chart(panel)
    assert list(figure.data[0].marker.color[4:8]) == [KEPT, KEPT, DROPPED, DROPPED]
    assert "summary went too" in readout.value


def test_compaction_panel_reruns_the_agent_with_the_compact_it_is_handed():
    from harness.compaction import compact
    from harness.widgets.lesson05 import compaction_panel

    calls = []

    def counting_compact(*args, **kwargs):
        calls.append(1)
        return compact(*args, **kwargs)

    sliders, status, chart = compaction_panel(counting_compact).children
    assert calls and "compactions: " in status.value and len(chart.figure.data[0].x) > 0
    opened = len(calls)
    # a smaller budget: the agent runs again, with the same compact
    sliders.children[0].value = 2_500
    assert len(calls) > opened


def test_token_cap_panel_greys_the_calls_past_the_cap():
    import itertools

    from harness.agent import AgentConfig, run_agent
    from harness.widgets.lesson06 import RAN, STOPPED, token_cap_panel

    report = run_agent(AgentConfig())
    cap, label, chart = token_cap_panel(report).children
    cumulative = list(itertools.accumulate(t.prompt_tokens + t.output_tokens for t in report.turns))
    reached = next(i for i, total in enumerate(cumulative) if total >= cap.min)
    cap.value = cumulative[reached]  # reached after call reached + 1: no call starts at the cap
    ran = reached + 1
    assert f"makes {ran} of its {len(report.turns)} calls" in label.value
    assert chart.figure.data[0].marker.color == (RAN,) * ran + (STOPPED,) * (
        len(report.turns) - ran
    )
