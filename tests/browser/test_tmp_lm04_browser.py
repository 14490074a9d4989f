"""Lesson 03 in a real browser: run every cell, move the budget slider, watch the panel follow.

What no kernel-only test can see: the widgets render, the slider answers the keyboard, the
readout and the plotly chart redraw, and no cell shows a traceback. Screenshots land in
build/screenshots/: lesson04-1-ran.png (the page once every cell ran), lesson04-2-panel-before.png
and lesson04-3-panel-budget-lowered.png (the panel before and after the keyboard moved the slider).
"""
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from harness.workbook import ROOT, SOLUTIONS

SCREENSHOTS = ROOT / "build" / "screenshots"
LESSON = next(iter(sorted(SOLUTIONS.glob("04_*.ipynb"))), None)
SLIDER_LABEL = "max_chars"
KERNEL_TIMEOUT_MS = 180_000  # every cell of the lesson, offline, on a slow laptop
REDRAW_TIMEOUT_MS = 20_000
POLL_MS = 250  # Playwright's default polls on animation frames, which headless Chromium may never paint
CHART_PATHS = ".js-plotly-plot g.trace path"
KERNEL_DIALOG = '.jp-Dialog:has-text("Select Kernel")'
PYTHON_KERNEL = '{"name":"python3"}'  # the dialog's option value for "start a Python 3 kernel"
KERNEL_NAME = '.jp-NotebookPanel:not(.lm-mod-hidden) [data-jp-item-name="kernelName"]'
IDLE = '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator[data-status="idle"]'
ATTEMPTS = 3
ATTACH_TIMEOUT_MS = 60_000  # a cold kernel on a slow laptop starts in 5-20 s
CLICK_TIMEOUT_MS = 10_000
# Ready: the toolbar names the Python kernel and it is idle, or a dialog wants an answer.
KERNEL_READY = f"""() => document.querySelector('.jp-Dialog') !== null
    || ((document.querySelector('{KERNEL_NAME}')?.textContent ?? '').includes('Python 3')
        && document.querySelector('{IDLE}') !== null)"""
# Settled: a dialog asks something, a cell shows an error, or every code cell has run ([n], not [ ] or [*]).
RUN_SETTLED = """() => document.querySelector('.jp-Dialog') !== null
    || document.querySelector('.jp-RenderedText[data-mime-type*="error"]') !== null
    || [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].every(p => /\\[\\d+\\]/.test(p.textContent))"""
ERROR_OUTPUTS = ('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]:has-text("Traceback"), '
                 '.jp-RenderedText[data-mime-type*="error"]')


def open_notebook(page, lab, name: str) -> None:
    lab.start_kernel(name)
    page.goto(f"{lab.url}/lab/tree/{name}")
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=60_000)
    wait_for_python_kernel(page, lab)


def wait_for_idle_kernel(page) -> None:
    """The toolbar's execution indicator says idle, and no cell prompt shows [*] (queued or running)."""
    page.wait_for_selector(IDLE, timeout=KERNEL_TIMEOUT_MS)
    page.wait_for_function("() => ![...document.querySelectorAll('.jp-InputPrompt')]"
                           ".some(p => p.textContent.includes('*'))", timeout=KERNEL_TIMEOUT_MS, polling=POLL_MS)


def wait_for_python_kernel(page, lab) -> None:
    """Until the notebook is attached to an idle Python 3 kernel.

    JupyterLab may ask "Select Kernel" while it attaches (it raced its own list of kernels and
    sessions), or be left with no kernel at all; either way the answer is Python 3, chosen by name
    rather than by the dialog's default.
    """
    for _ in range(ATTEMPTS):
        try:
            page.wait_for_function(KERNEL_READY, timeout=ATTACH_TIMEOUT_MS, polling=POLL_MS)
        except PlaywrightTimeout:
            if "No Kernel" not in page.locator(KERNEL_NAME).inner_text():
                continue  # still starting: wait again
            page.locator(".lm-MenuBar-itemLabel", has_text="Kernel").first.click()
            page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Change Kernel")).click()
            page.locator(KERNEL_DIALOG).wait_for(timeout=CLICK_TIMEOUT_MS)
        if not page.locator(".jp-Dialog").count():
            wait_for_idle_kernel(page)
            return
        answer_kernel_dialog(page, lab)
    raise AssertionError(f"the notebook found no idle Python kernel after {ATTEMPTS} tries" + diagnosis(page, lab))


def run_all_cells(page, lab) -> None:
    """Run > Run All Cells, until every code cell ran or one shows an error.

    A "Select Kernel" dialog during the run means the kernel went away and the queued cells were
    dropped: answer it, wait for the kernel, run again.
    """
    for _ in range(ATTEMPTS):
        wait_for_python_kernel(page, lab)
        try:
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click(timeout=CLICK_TIMEOUT_MS)
            page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click(timeout=CLICK_TIMEOUT_MS)
        except PlaywrightTimeout:  # a dialog opened under the pointer: the next round answers it
            if not page.locator(".jp-Dialog").count():
                page.keyboard.press("Escape")  # close the half-open menu
            continue
        page.wait_for_function(RUN_SETTLED, timeout=KERNEL_TIMEOUT_MS, polling=POLL_MS)
        if not page.locator(".jp-Dialog").count():
            wait_for_idle_kernel(page)
            return
    raise AssertionError(f"Run All Cells was interrupted by a dialog {ATTEMPTS} times" + diagnosis(page, lab))


def answer_kernel_dialog(page, lab) -> None:
    """Answer "Select Kernel" with Python 3; any other dialog fails the test with its text."""
    dialog = page.locator(".jp-Dialog")
    assert page.locator(KERNEL_DIALOG).count(), "unexpected dialog: " + dialog.inner_text() + diagnosis(page, lab)
    page.locator(f"{KERNEL_DIALOG} select").select_option(value=PYTHON_KERNEL)
    page.locator(f"{KERNEL_DIALOG} .jp-mod-accept").click()
    dialog.wait_for(state="detached", timeout=CLICK_TIMEOUT_MS)


def diagnosis(page, lab) -> str:
    """What a failing run needs to be understood from CI's log alone: the page and the server."""
    page.screenshot(path=str(SCREENSHOTS / "lesson04-failed.png"), full_page=True)
    dialog = page.locator(".jp-Dialog")
    kernel = page.locator(KERNEL_NAME)
    return (f"\n  dialog on screen: {dialog.inner_text() if dialog.count() else 'none'!r}"
            f"\n  kernel in the toolbar: {kernel.inner_text() if kernel.count() else 'none'!r}"
            f"\n  JavaScript errors: {page.js_errors}"
            f"\n  screenshot: {SCREENSHOTS / 'lesson04-failed.png'}"
            f"\n  JupyterLab's log, last lines:\n{lab.log_tail()}")


def budget_slider(page):
    """The IntSlider whose description is "budget" (ipywidgets draws it with noUiSlider)."""
    slider = page.locator(".widget-slider", has=page.locator(".widget-label", has_text=SLIDER_LABEL)).first
    slider.scroll_into_view_if_needed()
    return slider


def panel_of(slider):
    """The outputs of the cell that shows the slider: its readout and its chart live there too."""
    return slider.locator("xpath=ancestor::div[contains(@class, 'jp-Cell-outputArea')][1]")


def readout_text(panel) -> str:
    """The panel's HTML widgets (the readout), not the slider's own number, which always follows."""
    return "\n".join(panel.locator(".widget-html-content").all_inner_texts())


def chart_shapes(panel) -> list[str]:
    """Shape and colour of each SVG path of plotly's traces: a redraw changes one or the other
    (lesson 03 greys out the bars of dropped blocks; other panels resize them)."""
    return panel.locator(CHART_PATHS).evaluate_all("paths => paths.map(p => p.getAttribute('d') + ' ' + p.style.fill)")


def test_budget_slider_redraws_readout_and_chart(lab, page):
    assert LESSON, "solutions/03_*.ipynb is missing: lesson 03 is what this test drives."
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    open_notebook(page, lab, LESSON.name)
    run_all_cells(page, lab)
    errors = page.locator(ERROR_OUTPUTS)
    page.screenshot(path=str(SCREENSHOTS / "lesson04-1-ran.png"), full_page=True)
    assert errors.count() == 0, "a cell shows an error:\n" + "\n---\n".join(errors.all_inner_texts())[:3000]

    slider = budget_slider(page)
    panel = panel_of(slider)
    panel.locator(CHART_PATHS).first.wait_for(timeout=REDRAW_TIMEOUT_MS)
    before_text, before_chart, before_panel = readout_text(panel), chart_shapes(panel), panel.inner_text()
    panel.screenshot(path=str(SCREENSHOTS / "lesson04-2-panel-before.png"))
    handle = slider.locator(".noUi-handle").first
    handle.focus()
    for _ in range(30):  # PageDown moves a large step, ArrowLeft one step: together, well down the range
        handle.press("PageDown")
        handle.press("ArrowLeft")
    page.wait_for_function("([el, before]) => el.innerText !== before",
                           arg=[panel.element_handle(), before_panel], timeout=REDRAW_TIMEOUT_MS, polling=POLL_MS)
    wait_for_idle_kernel(page)
    panel.screenshot(path=str(SCREENSHOTS / "lesson04-3-panel-budget-lowered.png"))

    assert re.search(r"\d", before_text), f"no readout with a token total next to the slider: {before_text!r}"
    assert readout_text(panel) != before_text, "the readout did not follow the slider"
    assert chart_shapes(panel) != before_chart, "the plotly chart did not redraw"
    assert errors.count() == 0, "moving the slider produced an error:\n" + "\n".join(errors.all_inner_texts())[:3000]
    assert not page.js_errors, f"JavaScript errors in the page: {page.js_errors}"
