"""Every lesson in a real browser, as a student meets it.

For each solution notebook: Run All, no cell shows an error and every check line passes; markdown
renders (no dollar amounts turned into LaTeX, every mermaid diagram drawn); every slider and
dropdown of every panel is moved by keyboard and its readout and chart change; every quiz question
is answered wrong (the explanation says why) and then right. Then one PRISTINE lesson, as the build
ships it, with a wrong answer typed in: the check shows one line naming the rule, and no traceback.

What no kernel-only test can see: the widgets render, answer the keyboard and redraw. Screenshots
land in tests/browser/screenshots/ (NN-1-ran.png, NN-2-panel-K-before/after.png, NN-3-quiz.png,
pristine-00-wrong-answer.png): look at them.
"""
import re

import pytest

from harness.quizzes import questions
from harness.workbook import SOLUTIONS
from lab_driver import (NOTEBOOK, PRISTINE, SCREENSHOTS, answer_quiz, cell_with, control_name, diagnosis, errors_shown,
                        move_and_watch, open_notebook, panels, replace_source, run_all_cells, wait_for_idle_kernel)

LESSONS = sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb"))
CHECK_LINES = f"{NOTEBOOK} .jp-OutputArea-output:has-text('Exercise ')"
WRONG_DESCRIBE_USAGE = '''def describe_usage(usage):
    prompt = usage.prompt_token_count or 0
    return {"prompt": prompt, "cached": usage.cached_content_token_count or 0, "uncached": prompt,
            "output": usage.candidates_token_count or 0, "total": usage.total_token_count or 0}
'''


def mermaid_fences(path) -> int:
    return path.read_text(encoding="utf-8").count("```mermaid")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_lesson_runs_and_its_panels_and_quiz_answer(lab, page, lesson):
    number = lesson.name[:2]
    open_notebook(page, lab, lesson.name)
    try:
        run_all_cells(page, lab)
        page.screenshot(path=str(SCREENSHOTS / f"{number}-1-ran.png"), full_page=True)
        errors = errors_shown(page)
        assert not errors, "a cell shows an error:\n" + "\n---\n".join(errors)[:3000] + diagnosis(page, lab, number)
        checks = page.locator(CHECK_LINES).all_inner_texts()
        assert not [line for line in checks if line.lstrip().startswith(("✘", "⚠", "○"))], f"a check did not pass: {checks}"

        markdown = page.locator(f"{NOTEBOOK} .jp-MarkdownOutput")
        assert not markdown.locator("mjx-container").count(), (
            "a markdown cell was typeset as LaTeX (an unescaped $ pair?): "
            + markdown.filter(has=page.locator("mjx-container")).first.inner_text()[:300])
        drawn = page.locator(f"{NOTEBOOK} .jp-MarkdownOutput img[src^=\"data:image/svg+xml\"]")  # how JupyterLab 4 draws mermaid
        if mermaid_fences(lesson):
            drawn.first.wait_for(timeout=30_000)
            drawn.first.scroll_into_view_if_needed()
            drawn.first.screenshot(path=str(SCREENSHOTS / f"{number}-4-diagram.png"))
        assert drawn.count() == mermaid_fences(lesson), "a mermaid diagram did not draw"
        dollars = page.locator(f"{NOTEBOOK} .jp-RenderedMarkdown", has_text="$")
        if dollars.count():
            dollars.first.scroll_into_view_if_needed()
            dollars.first.screenshot(path=str(SCREENSHOTS / f"{number}-5-dollars.png"))

        found = panels(page)
        assert found, "no panel: no slider or dropdown in any output"
        for k, panel in enumerate(found, 1):
            panel.scroll_into_view_if_needed()
            panel.screenshot(path=str(SCREENSHOTS / f"{number}-2-panel-{k}-before.png"))
            controls = panel.locator(".widget-slider, .widget-dropdown")
            for i in range(controls.count()):
                try:
                    move_and_watch(page, panel, controls.nth(i))
                except AssertionError as failure:
                    raise AssertionError(f"panel {k}, control {control_name(controls.nth(i))!r}: {failure}"
                                         + diagnosis(page, lab, f"{number}-panel-{k}-failed")) from None
            panel.screenshot(path=str(SCREENSHOTS / f"{number}-2-panel-{k}-after.png"))

        answer_quiz(page, questions(number))
        page.locator(f"{NOTEBOOK} .widget-radio-box").last.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"{number}-3-quiz.png"))
        errors = errors_shown(page)
        assert not errors, "moving a panel or answering the quiz produced an error:\n" + "\n".join(errors)[:3000]
        assert not page.js_errors, f"JavaScript errors in the page: {page.js_errors}"
    finally:
        lab.stop_kernel(lesson.name)


def test_the_glossary_opens_rendered_from_a_lesson(lab, page):
    path = f"{PRISTINE}/01_growing_history.ipynb"
    open_notebook(page, lab, path)
    try:
        page.locator(f"{NOTEBOOK} .jp-MarkdownOutput a", has_text="glossary").first.click()
        viewer = page.locator(".jp-MarkdownViewer:not(.lm-mod-hidden) .jp-RenderedMarkdown")
        viewer.get_by_text("observation masking").first.wait_for(timeout=30_000)
        page.screenshot(path=str(SCREENSHOTS / "glossary.png"))
    finally:
        lab.stop_kernel(path)


def test_a_wrong_answer_in_a_pristine_lesson_shows_one_line_and_no_traceback(lab, page):
    path = f"{PRISTINE}/00_first_call.ipynb"
    open_notebook(page, lab, path)
    try:
        run_all_cells(page, lab)  # nothing attempted yet: every cell still runs
        assert not errors_shown(page), "the pristine lesson shows an error:\n" + "\n".join(errors_shown(page))[:3000]
        check_cell = cell_with(page, 'check("0.1", describe_usage)')
        assert "not attempted" in check_cell.locator(".jp-OutputArea-output").inner_text()

        replace_source(page, cell_with(page, 'NotImplementedError("Exercise 0.1")'), WRONG_DESCRIBE_USAGE)
        page.keyboard.press("Shift+Enter")  # run the answer; the check cell below is now selected
        page.keyboard.press("Shift+Enter")  # run the check
        wait_for_idle_kernel(page)
        page.wait_for_function("el => el.innerText.includes('✘')", arg=check_cell.element_handle(), timeout=30_000)
        check_cell.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "pristine-00-wrong-answer.png"))
        shown = check_cell.locator(".jp-OutputArea-output").inner_text().strip()
        assert re.match(r"✘ Exercise 0\.1: .*uncached is not .*Hint: ", shown), shown
        assert "\n" not in shown and "Traceback" not in shown, f"the failure should be one line: {shown!r}"
        assert not errors_shown(page), "the failed check showed a traceback:\n" + "\n".join(errors_shown(page))[:3000]
    finally:
        lab.stop_kernel(path)
