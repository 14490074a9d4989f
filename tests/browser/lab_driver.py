"""Driving JupyterLab as a student does: open a notebook, Run All, move a panel's controls by
keyboard, answer a quiz, type into a cell. Every wait polls (headless Chromium may never paint an
animation frame) and every failure explains itself: the dialog on screen, the kernel in the toolbar,
the page's JavaScript errors, a screenshot and the server's last log lines.
"""

import re
import warnings

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from harness.workbook import ROOT

SCREENSHOTS = ROOT / "tests" / "browser" / "screenshots"  # git-ignored: look at them after a run
PRISTINE = "pristine"  # the folder of the served copy that holds the generated lessons

KERNEL_TIMEOUT_MS = 240_000  # every cell of a lesson, offline, on a slow and busy laptop
REDRAW_TIMEOUT_MS = (
    30_000  # one panel redraw (lesson 05's re-runs an agent: ~2 s alone, more when busy)
)
# A panel's first chart: the page first evaluates plotly's few MB of JavaScript, which took over 30
# s here with the load average at 12 on 2 cores (it is a wait, not a measure: a fast run never
# waits).
FIRST_DRAW_TIMEOUT_MS = 120_000
OPEN_TIMEOUT_MS = 120_000  # the notebook's first cell on screen, on the same loaded machine
POLL_MS = 250
ATTEMPTS = 3
ATTACH_TIMEOUT_MS = 60_000  # a cold kernel on a slow laptop starts in 5-20 s
CLICK_TIMEOUT_MS = 10_000

NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"
KERNEL_DIALOG = '.jp-Dialog:has-text("Select Kernel")'
PYTHON_KERNEL = '{"name":"python3"}'  # the dialog's option value for "start a Python 3 kernel"
KERNEL_NAME = f'{NOTEBOOK} [data-jp-item-name="kernelName"]'
IDLE = f'{NOTEBOOK} .jp-Notebook-ExecutionIndicator[data-status="idle"]'
CHART_PATHS = ".js-plotly-plot g.trace path"
# The file browser's item for ([name, folder]): its tooltip reads "Name: <name>" then, in a
# folder, "Path: <folder>".
LISTED = """([name, folder]) => [...document.querySelectorAll('#filebrowser .jp-DirListing-item')]
    .find(item => {
        const [first, ...rest] = item.title.split('\\n');
        const path = rest.find(line => line.startsWith('Path: '));
        return first === `Name: ${name}` && (path ? path.slice(6) : '') === folder;
    })"""
# The tab in front is the document at `path`: its tooltip reads "Name: ...", "Path: <path>", ...
OPENED = """path => (document.querySelector('#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current')
    ?.title ?? '').includes(`\\nPath: ${path}\\n`)"""
CONTROLS = ".widget-slider, .widget-dropdown, .widget-checkbox"
# Ready: the toolbar names the Python kernel and it is idle, or a dialog wants an answer.
KERNEL_READY = f"""() => document.querySelector('.jp-Dialog') !== null
    || ((document.querySelector('{KERNEL_NAME}')?.textContent ?? '').includes('Python 3')
        && document.querySelector('{IDLE}') !== null)"""
# Settled: a dialog asks something, a cell shows an error, or every code cell has run ([n], not [ ]
# or [*]).
RUN_SETTLED = f"""() => document.querySelector('.jp-Dialog') !== null
    || document.querySelector('{NOTEBOOK} .jp-RenderedText[data-mime-type*="error"]') !== null
    || [...document.querySelectorAll('{NOTEBOOK} .jp-CodeCell .jp-InputPrompt')].every(p => /\\[\\d+\\]/.test(p.textContent))"""  # noqa: E501
ERROR_OUTPUTS = (
    f"{NOTEBOOK}"
    ' .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]:has-text("Traceback"),'
    f' {NOTEBOOK} .jp-RenderedText[data-mime-type*="error"]'
)


def open_notebook(page, lab, path: str) -> None:
    """Open `path` alone, as in a fresh JupyterLab: leave the last page (it saves its workspace
    as it goes), forget the saved workspaces, and load the notebook with the workspace reset."""
    # "leave the page?" for the last lesson's edits
    page.once("dialog", lambda dialog: dialog.accept())
    page.goto("about:blank")
    lab.forget_workspaces()
    lab.start_kernel(path)
    page.goto(f"{lab.url}/lab/tree/{path}?reset")
    page.wait_for_selector(f"{NOTEBOOK} .jp-Cell", timeout=OPEN_TIMEOUT_MS)
    wait_for_python_kernel(page, lab)


def open_from_file_browser(page, lab, path: str) -> None:
    """Open `path` as a student does in a JupyterLab open for a while: double-click it in the file
    browser of the page already open (its heap and loaded modules live on), after closing the tabs
    open. The kernel is started first, as open_notebook explains."""
    close_tabs(page)
    lab.start_kernel(path)
    page.locator(".jp-BreadCrumbs-home").first.click(timeout=CLICK_TIMEOUT_MS)
    parts = path.split("/")
    try:
        for depth, name in enumerate(parts):
            # The listing of that folder, not the one it replaces (pristine/ holds the same names).
            folder = "/".join(parts[:depth])
            item = page.wait_for_function(
                LISTED, arg=[name, folder], timeout=OPEN_TIMEOUT_MS, polling=POLL_MS
            )
            item.as_element().dblclick(timeout=CLICK_TIMEOUT_MS)
        page.wait_for_function(OPENED, arg=path, timeout=OPEN_TIMEOUT_MS, polling=POLL_MS)
    except PlaywrightTimeout:
        listed = page.locator(".jp-DirListing-itemText").all_inner_texts()
        tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current")
        front = tab.first.get_attribute("title") if tab.count() else None
        raise AssertionError(
            f"{path} did not open from the file browser: it lists {listed}; the tab in front is"
            f" {front!r}" + diagnosis(page, lab, "open-failed")
        ) from None
    page.wait_for_selector(f"{NOTEBOOK} .jp-Cell", timeout=OPEN_TIMEOUT_MS)
    wait_for_python_kernel(page, lab)


def close_tabs(page) -> None:
    """File > Close All Tabs, discarding unsaved changes (a test's Run All and typed answers), as a
    student done with a lesson closes it; until no notebook is left in the page."""
    if not page.locator(".jp-NotebookPanel, .jp-MarkdownViewer").count():
        return
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click(timeout=CLICK_TIMEOUT_MS)
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Close All Tabs$")).click(
        timeout=CLICK_TIMEOUT_MS
    )
    discard = page.locator(".jp-Dialog button", has_text=re.compile(r"^(Discard|Don't Save)$"))
    for _ in range(ATTEMPTS * 10):  # one "Save your work" dialog per notebook changed
        page.wait_for_function(
            "() => document.querySelector('.jp-Dialog') !== null"
            " || document.querySelector('.jp-NotebookPanel, .jp-MarkdownViewer') === null",
            timeout=OPEN_TIMEOUT_MS,
            polling=POLL_MS,
        )
        dialog = page.locator(".jp-Dialog")
        if not dialog.count():
            return
        assert discard.count(), f"closing the tabs, an unexpected dialog: {dialog.inner_text()!r}"
        discard.first.click(timeout=CLICK_TIMEOUT_MS)
        page.locator(".jp-Dialog").wait_for(state="detached", timeout=CLICK_TIMEOUT_MS)
    raise AssertionError("Close All Tabs: a dialog still asks after every tab was discarded")


def wait_for_idle_kernel(page) -> None:
    """The toolbar's execution indicator says idle, and no cell prompt shows [*] (queued or
    running)."""
    page.wait_for_selector(IDLE, timeout=KERNEL_TIMEOUT_MS)
    page.wait_for_function(
        f"() => ![...document.querySelectorAll('{NOTEBOOK} .jp-InputPrompt')]"
        ".some(p => p.textContent.includes('*'))",
        timeout=KERNEL_TIMEOUT_MS,
        polling=POLL_MS,
    )


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
    raise AssertionError(
        f"the notebook found no idle Python kernel after {ATTEMPTS} tries" + diagnosis(page, lab)
    )


def run_all_cells(page, lab, may_reload: bool = True) -> None:
    """Run > Run All Cells, until every code cell ran or one shows an error.

    A "Select Kernel" dialog during the run means the kernel went away and the queued cells were
    dropped: answer it, wait for the kernel, run again. Replies lost on the way (see
    stuck_without_a_busy_kernel): the page is reloaded and the cells run again; in a long session
    (`may_reload=False`) the page is kept and only the cells run again.
    """
    hung = None
    for _ in range(ATTEMPTS):
        wait_for_python_kernel(page, lab)
        try:
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click(
                timeout=CLICK_TIMEOUT_MS
            )
            page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click(
                timeout=CLICK_TIMEOUT_MS
            )
        except PlaywrightTimeout:  # a dialog opened under the pointer: the next round answers it
            if not page.locator(".jp-Dialog").count():
                page.keyboard.press("Escape")  # close the half-open menu
            continue
        try:
            page.wait_for_function(RUN_SETTLED, timeout=KERNEL_TIMEOUT_MS, polling=POLL_MS)
        except PlaywrightTimeout:
            if stuck_without_a_busy_kernel(page, lab):
                if may_reload:
                    # "leave the page?": the run is being redone
                    page.once("dialog", lambda dialog: dialog.accept())
                    page.reload()  # the replies went astray on their way to the page: ask again
                continue
            if hung:
                raise AssertionError(
                    f"Run All Cells hung twice (after {KERNEL_TIMEOUT_MS // 1000} s each); the"
                    f" first time: {hung}; now: {report_hang(page, lab)}"
                    + diagnosis(page, lab, "run-all-hung")
                ) from None
            # Once, on a busy CI machine: say so loudly, keep the kernel's stacks, and run again.
            hung = report_hang(page, lab)
            warnings.warn(f"Run All Cells hung once and is run again: {hung}")
            dismiss_dialog(page, "Kernel Restarting")
            continue
        if not page.locator(".jp-Dialog").count():
            wait_for_idle_kernel(page)
            return
    raise AssertionError(
        f"Run All Cells was interrupted by a dialog {ATTEMPTS} times" + diagnosis(page, lab)
    )


def report_hang(page, lab) -> str:
    """Which cells had not run, and every thread's stack of their kernel (which this ends), kept
    in a file."""
    pending = unfinished_cells(page)
    dumped = lab.dump_kernel_stacks(notebook_path(page))
    path = SCREENSHOTS / f"hang-{notebook_path(page).replace('/', '-')}.txt"
    path.write_text(f"cells not run: {pending}\n{dumped}\n")
    page.screenshot(path=str(path.with_suffix(".png")), full_page=True)
    print(path.read_text())  # into the test's captured output, so CI's log has it
    return f"cells not run: {pending}; {dumped.splitlines()[0]}; stacks in {path}"


def dismiss_dialog(page, title: str) -> None:
    """Click OK on the dialog that says `title` (JupyterLab opens it a moment after the event)."""
    dialog = page.locator(f'.jp-Dialog:has-text("{title}")')
    try:
        dialog.wait_for(timeout=30_000)
    except PlaywrightTimeout:
        return  # it never came: nothing to dismiss
    dialog.locator(".jp-mod-accept").click()
    dialog.wait_for(state="detached", timeout=CLICK_TIMEOUT_MS)


def notebook_path(page) -> str:
    """The served path of the notebook the page shows (the part of /lab/tree/... after tree/)."""
    return page.url.split("/lab/tree/", 1)[1].split("?")[0]


def unfinished_cells(page) -> list[str]:
    """'#k [prompt] first line' of each code cell that has not run: [ ] never started, [*] queued
    or running."""
    return page.locator(f"{NOTEBOOK} .jp-CodeCell").evaluate_all(
        """cells => cells.map((cell, k) => [k,
        cell.querySelector('.jp-InputPrompt')?.textContent ?? '', cell.querySelector('.cm-line')?.textContent ?? ''])
        .filter(([k, prompt]) => !/\\[\\d+\\]/.test(prompt)).map(([k, prompt, line]) => `#${k} ${prompt} ${line}`)"""
    )


def stuck_without_a_busy_kernel(page, lab) -> bool:
    """Cells still show [*] while the server says their kernel is idle: the page lost the replies
    (its websocket to the kernel dropped and reconnected), not a cell that hangs. Said as a warning
    in the test summary.
    """
    kernel = lab.kernel_of(notebook_path(page))
    if kernel is None or kernel["execution_state"] != "idle":
        return False
    warnings.warn(
        f"Run All: cells {unfinished_cells(page)} still pending on the page, but the kernel is"
        " idle: the replies were lost on the way; reloading the page and running again"
    )
    return True


def answer_kernel_dialog(page, lab) -> None:
    """Answer "Select Kernel" with Python 3, as often as it comes back; any other dialog fails the
    test.

    JupyterLab may queue a second "Select Kernel" behind the first (its own session and the one the
    test started raced), so the dialog still on screen after an answer is answered again.
    """
    dialog = page.locator(".jp-Dialog")
    for _ in range(ATTEMPTS):
        if not dialog.count():
            return
        assert page.locator(KERNEL_DIALOG).count(), (
            "unexpected dialog: " + dialog.inner_text() + diagnosis(page, lab)
        )
        page.locator(f"{KERNEL_DIALOG} select").select_option(value=PYTHON_KERNEL)
        page.locator(f"{KERNEL_DIALOG} .jp-mod-accept").click(timeout=CLICK_TIMEOUT_MS)
        try:
            dialog.wait_for(state="detached", timeout=CLICK_TIMEOUT_MS)
            return
        except PlaywrightTimeout:
            print(
                "a 'Select Kernel' dialog is still on screen after it was answered: answering it"
                " again"
            )
    raise AssertionError(
        f"'Select Kernel' was still on screen after {ATTEMPTS} answers" + diagnosis(page, lab)
    )


def diagnosis(page, lab, name: str = "failed", log_lines: int = 40) -> str:
    """What a failing run needs to be understood from CI's log alone: the page and the server."""
    shot = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    dialog = page.locator(".jp-Dialog")
    kernel = page.locator(KERNEL_NAME)
    return (
        f"\n  dialog on screen: {dialog.inner_text() if dialog.count() else 'none'!r}"
        f"\n  kernel in the toolbar: {kernel.inner_text() if kernel.count() else 'none'!r}"
        f"\n  JavaScript errors: {page.js_errors}"
        f"\n  screenshot: {shot}"
        f"\n  JupyterLab's log, last lines:\n{lab.log_tail(log_lines)}"
    )


def errors_shown(page) -> list[str]:
    return page.locator(ERROR_OUTPUTS).all_inner_texts()


# Panels: every slider, dropdown and checkbox the lesson's outputs show, whoever wrote the panel.


def panels(page) -> list:
    """The output areas that hold at least one slider, dropdown or checkbox, in notebook order."""
    areas = page.locator(f"{NOTEBOOK} .jp-Cell-outputArea", has=page.locator(CONTROLS))
    return [areas.nth(i) for i in range(areas.count())]


def readout_text(panel) -> str:
    """The panel's HTML widgets (its readout), not the sliders' own numbers, which always follow."""
    return "\n".join(panel.locator(".widget-html-content").all_inner_texts())


def chart_shapes(panel) -> list[str]:
    """Shape and colour of each SVG path of plotly's traces: a redraw changes one or the other."""
    return panel.locator(CHART_PATHS).evaluate_all(
        "paths => paths.map(p => p.getAttribute('d') + ' ' + p.style.fill)"
    )


def wait_for_chart(page, panel) -> None:
    """Until the panel's plotly chart has drawn a trace with some size (a zero-height bar is
    hidden)."""
    page.wait_for_function(
        f"""el => [...el.querySelectorAll('{CHART_PATHS}')]
        .some(p => {{ const box = p.getBoundingClientRect(); return box.width > 0 && box.height > 0; }})""",
        arg=panel.element_handle(),
        timeout=FIRST_DRAW_TIMEOUT_MS,
        polling=POLL_MS,
    )


def control_name(control) -> str:
    """A slider's or dropdown's label; a checkbox's description, which sits beside its box."""
    names = control.locator(".widget-label, .widget-label-basic").all_inner_texts()
    return next((name.strip() for name in names if name.strip()), "(no label)")


def nudge(control, attempt: int) -> None:
    """Move a slider by keyboard, away from the end of its range it is nearest; pick a dropdown's
    next option (headless Chromium's closed <select> ignores arrow keys, so it is chosen as a
    click on the option would); tick or untick a checkbox with the space bar, once (a second
    press would put it back while the first redraw runs)."""
    box = control.locator("input[type=checkbox]")
    if box.count():
        if attempt == 0:
            box.focus()
            box.press("Space")
        return
    if control.locator("select").count():
        select = control.locator("select")
        options = select.locator("option").count()
        index = select.evaluate("s => s.selectedIndex")
        select.select_option(index=(index + 1 + attempt) % options)
        return
    handle = control.locator(".noUi-handle").first
    handle.focus()
    now, low, high = (
        float(handle.get_attribute(a)) for a in ("aria-valuenow", "aria-valuemin", "aria-valuemax")
    )
    down = now - low >= high - now
    # A page step first; if that changed nothing visible, a few more.
    for _ in range(1 + 2 * attempt):
        handle.press("PageDown" if down else "PageUp")


def move_and_watch(page, panel, control) -> tuple[str, str]:
    """Nudge `control` until the panel's readout and chart both change; return (before, after)
    readouts."""
    wait_for_chart(page, panel)
    before_text, before_chart = readout_text(panel), chart_shapes(panel)
    for attempt in range(3):
        nudge(control, attempt)
        try:
            page.wait_for_function(
                "([el, text]) => [...el.querySelectorAll('.widget-html-content')]"
                ".map(e => e.innerText).join('\\n') !== text",
                arg=[panel.element_handle(), before_text],
                timeout=REDRAW_TIMEOUT_MS // 3,
                polling=POLL_MS,
            )
        except PlaywrightTimeout:
            continue
        wait_for_idle_kernel(page)
        break
    wait_for_idle_kernel(page)
    page.wait_for_timeout(300)  # plotly applies the new data on its next tick
    after_text = readout_text(panel)
    name = control_name(control)
    assert after_text != before_text, (
        f"moving {name!r} by keyboard did not change the readout: {before_text!r}"
    )
    assert chart_shapes(panel) != before_chart, (
        f"moving {name!r} changed the readout but not the chart"
    )
    return before_text, after_text


# Quizzes


def answer_quiz(page, options_of_each_question) -> list[tuple[str, str]]:
    """Pick a wrong option, then the right one, in every question; return what each pick showed."""
    from harness.quizzes import FEEDBACK_CLASS, RIGHT, WRONG

    groups = page.locator(f"{NOTEBOOK} .widget-radio-box")
    assert groups.count() == len(options_of_each_question), (
        f"the quiz shows {groups.count()} questions, harness.quizzes has"
        f" {len(options_of_each_question)}"
    )
    shown = []
    for index, (prompt, options) in enumerate(options_of_each_question):
        group = groups.nth(index)
        group.scroll_into_view_if_needed()
        question = group.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
        feedback = question.locator(f".{FEEDBACK_CLASS}")
        wrong = next(option for option in options if not option[2])
        right = next(option for option in options if option[2])
        for (text, why, is_right), verdict in ((wrong, WRONG), (right, RIGHT)):
            group.get_by_text(text, exact=True).click()
            page.wait_for_function(
                "([el, want]) => (el.querySelector('.' + want[0])?.innerText ??"
                " '').startsWith(want[1])",
                arg=[question.element_handle(), [FEEDBACK_CLASS, verdict]],
                timeout=REDRAW_TIMEOUT_MS,
                polling=POLL_MS,
            )
            said = feedback.inner_text()
            assert said.startswith(verdict) and why[:40] in said, (
                f"{prompt!r}: picking {text!r} showed {said!r}"
            )
            shown.append((text, said))
    return shown


# Typing into a cell


def cell_with(page, text: str):
    """The code cell whose source contains `text`."""
    cell = page.locator(f"{NOTEBOOK} .jp-CodeCell", has=page.locator(".cm-content", has_text=text))
    assert cell.count() == 1, f"expected one code cell containing {text!r}, found {cell.count()}"
    return cell


def replace_source(page, cell, source: str) -> None:
    """Click into the cell's editor, select everything and put `source` in its place."""
    editor = cell.locator(".cm-content")
    editor.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(source)  # as a paste would: no auto-indent or auto-closed brackets
