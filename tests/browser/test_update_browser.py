"""The update flow in Chromium: a lesson open in JupyterLab while `workbook update` brings a fix,
JupyterLab's "File Changed" dialog at the next save, Overwrite (the stale tab drops the fix), then
`workbook update` again and the reloaded lesson showing the fix back: in place in the cell the
student never edited, beside the one they did. Then the link itself: nbgitpuller's page pulls and
hands over to the workbook's update page, which reports what it brought back and opens the lesson.
Screenshots in tests/browser/screenshots/update-*.png.
"""

import json
from urllib.parse import quote

from lab_driver import NOTEBOOK, OPEN_TIMEOUT_MS, SCREENSHOTS, open_notebook
from nbgitpuller.pull import GitPuller
from playwright.sync_api import Error as PlaywrightError
from test_update import FIXED_STUB, R1, R2, git, publish, render, student_copy

from harness.workbook.cell_merge import source_of
from harness.workbook.update import main as update

DIALOG_TIMEOUT_MS = 60_000


def test_a_stale_tab_overwrite_is_undone_by_the_next_update(lab, page, tmp_path):
    upstream = tmp_path / "course"
    git(tmp_path, "init", "-q", "-b", "student", str(upstream))
    publish(upstream, R1)
    copy_dir = lab.served / "workbook"
    for _ in GitPuller(str(upstream), str(copy_dir), branch="student").pull():
        pass
    lesson = copy_dir / "lessons" / "03_lesson.ipynb"
    lesson.write_text(render(student_copy()), encoding="utf-8")  # the student's answer, saved
    path = "workbook/lessons/03_lesson.ipynb"
    open_notebook(page, lab, path)

    publish(upstream, R2)
    assert update(["--lessons", str(copy_dir)]) == 0  # the fix arrives while the tab is open
    page.locator(f"{NOTEBOOK} .jp-CodeCell .cm-content").first.click()
    page.keyboard.press("End")
    page.keyboard.insert_text("  # still mine")
    page.keyboard.press("ControlOrMeta+s")
    dialog = page.locator('.jp-Dialog:has-text("File Changed")')
    dialog.wait_for(timeout=DIALOG_TIMEOUT_MS)
    page.screenshot(path=str(SCREENSHOTS / "update-1-file-changed.png"))
    dialog.get_by_role("button", name="Overwrite").click()
    dialog.wait_for(state="detached", timeout=DIALOG_TIMEOUT_MS)
    page.wait_for_function(
        f"() => !document.querySelector('{NOTEBOOK}').classList.contains('jp-mod-dirty')"
        " && !document.title.startsWith('●')",
        timeout=DIALOG_TIMEOUT_MS,
    )
    stale = json.loads(lesson.read_text(encoding="utf-8"))
    assert "Some fixed text." not in [source_of(c) for c in stale["cells"]], (
        "the Overwrite did not drop the fix"
    )

    assert update(["--lessons", str(copy_dir)]) == 0
    page.once("dialog", lambda d: d.accept())
    page.goto(f"{lab.url}/lab/tree/{path}?reset")
    page.wait_for_selector(f"{NOTEBOOK} .jp-Cell", timeout=OPEN_TIMEOUT_MS)
    offered = page.locator(f"{NOTEBOOK} .jp-MarkdownCell", has_text="Update from your instructor")
    offered.wait_for(timeout=OPEN_TIMEOUT_MS)
    offered.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "update-2-fix-restored.png"))
    restored = json.loads(lesson.read_text(encoding="utf-8"))
    sources = [source_of(c) for c in restored["cells"]]
    assert "Some fixed text." in sources and any(FIXED_STUB in s for s in sources)
    mine = next(c for c in restored["cells"] if c["id"] == "ex")
    assert "# still mine" in source_of(mine) and "return 1" in source_of(mine), (
        "the student's edit is lost"
    )


def leave(dialog) -> None:
    """Accept "leave the page?", unless an earlier test's handler already did."""
    try:
        dialog.accept()
    except PlaywrightError:
        pass


def test_the_link_pulls_then_updates_and_shows_what_it_brought_back(lab, page, tmp_path):
    """nbgitpuller's own page (its JavaScript pulls, then follows urlpath) sends the browser to the
    workbook's update page: straight on to the lesson after the first pull, the report after a fix.
    """
    upstream = tmp_path / "course"
    git(tmp_path, "init", "-q", "-b", "student", str(upstream))
    publish(upstream, R1)
    path = "linked/lessons/03_lesson.ipynb"
    link = (
        f"{lab.url}/git-pull?repo={quote(str(upstream), safe='')}&branch=student&targetpath=linked"
        f"&urlpath=workbook-update/{path}"
    )
    page.once("dialog", leave)
    page.goto("about:blank")
    lab.forget_workspaces()
    page.goto(link)
    # nothing to bring back: on to the lesson
    page.wait_for_url(f"**/lab/tree/{path}", timeout=OPEN_TIMEOUT_MS)
    page.wait_for_selector(f"{NOTEBOOK} .jp-Cell", timeout=OPEN_TIMEOUT_MS)

    lesson = lab.served / path
    # the student's answer, saved and closed
    lesson.write_text(render(student_copy()), encoding="utf-8")
    lab.stop_kernel(path)
    publish(upstream, R2)
    page.once("dialog", leave)
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_selector("text=Your lessons are up to date", timeout=OPEN_TIMEOUT_MS)
    report = page.locator("pre").inner_text()
    # the fix -Xours dropped; md_other merged
    assert "cell ex" in report and "beside yours" in report, report
    page.screenshot(path=str(SCREENSHOTS / "update-3-link-report.png"))
    # the test's notebook names no kernel: no "Select Kernel" dialog over the screenshot
    lab.start_kernel(path)
    page.get_by_role("link", name="Open 03_lesson.ipynb").click()
    page.wait_for_url(f"**/lab/tree/{path}", timeout=OPEN_TIMEOUT_MS)
    # The rendered text, not only the cell: the screenshot must show the copy as the student reads
    # it.
    offered = page.locator(
        f"{NOTEBOOK} .jp-MarkdownCell .jp-RenderedMarkdown", has_text="Update from your instructor"
    )
    offered.wait_for(state="visible", timeout=OPEN_TIMEOUT_MS)
    offered.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "update-4-link-lesson.png"))
    mine = next(
        c for c in json.loads(lesson.read_text(encoding="utf-8"))["cells"] if c["id"] == "ex"
    )
    assert source_of(mine) == source_of(next(c for c in student_copy()["cells"] if c["id"] == "ex"))
