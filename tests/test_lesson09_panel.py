"""Lesson 09's panel opens drawn, redraws from the functions it is given, and refuses allocations
over 1."""

from harness.budgets import split_by_category
from harness.triggers import next_action
from harness.widgets.lesson09 import budget_panel


def _parts(panel):
    (sliders_box, threshold), status, figure = (
        panel.children[0].children,
        panel.children[1],
        panel.children[2],
    )
    return {s.description: s for s in sliders_box.children}, threshold, status, figure.figure


def _chart(figure):
    return [tuple(trace.y) for trace in figure.data] + [tuple(figure.data[-1].text)]


def test_the_panel_opens_drawn_on_the_seed_allocations():
    sliders, threshold, status, figure = _parts(budget_panel(split_by_category, next_action))
    assert {name: s.value for name, s in sliders.items()} == {
        "tool outputs": 0.35,
        "history": 0.3,
        "documents": 0.2,
    }
    assert threshold.value == 0.7 and "reserve 15%" in status.value and "6 passed" in status.value
    assert len(figure.data) == 7 and len(figure.data[0].x) > 0 and "M" in figure.data[-1].text


def test_every_control_a_keyboard_page_moves_redraws_the_chart():
    """Each control moved as the browser test moves it, five steps away from its nearest end."""
    panel = budget_panel(split_by_category, next_action)
    sliders, threshold, status, figure = _parts(panel)
    for control in (*sliders.values(), threshold):
        before_status, before_chart = status.value, _chart(figure)
        down = control.value - control.min >= control.max - control.value
        control.value = round(
            max(control.min, min(control.max, control.value + (-5 if down else 5) * control.step)),
            2,
        )
        assert status.value != before_status, control.description
        assert _chart(figure) != before_chart, control.description


def test_the_panel_draws_from_the_functions_it_is_given():
    seen = []

    def spying_split(system_instruction, tools, contents):
        seen.append("split")
        return split_by_category(system_instruction, tools, contents)

    def never_acts(usage, allocations, window, threshold=0.7, done=()):
        seen.append("decide")
        return "none"

    _, _, status, figure = _parts(budget_panel(spying_split, never_acts))
    assert "split" in seen and "decide" in seen
    assert "nothing fired" in status.value and list(figure.data[-1].x) == []


def test_allocations_over_one_window_are_refused_with_a_message_and_the_last_chart_kept():
    sliders, _, status, figure = _parts(budget_panel(split_by_category, next_action))
    before = _chart(figure)
    sliders["tool outputs"].value = 0.6  # 0.6 + 0.3 + 0.2 = 1.1
    assert "add up to 1.10" in status.value and _chart(figure) == before
