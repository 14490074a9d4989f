"""No fix is lost on the hub: the link runs `workbook update` after its pull, with a stale tab.

A student pulls the release and answers exercise 3.1 (the body under the docstring); the instructor
publishes a fix to that docstring (the line next to the student's edit, which nbgitpuller's
`-Xours` drops) and one to a markdown cell the student never touched. The student clicks the link
again: its pull, then its update page (harness/workbook/link.py) reports the fix put beside their
cell. They save from the tab left open before it (what "File Changed" > Overwrite does) and click
the link again: the pull says "Already up to date", the update page brings both fixes back. A last
`workbook update` in a terminal finds nothing to bring back. At the end the file holds the
student's answer, the markdown fix in place and the docstring fix beside their cell, and nothing
else changed.
"""

import html
import json
import pwd
import re
import shutil
import time
from pathlib import Path

import nbformat
import psutil
import requests
from hub_client import Student
from running_hub import CLASS_PASSWORD, RAN, guide_blocks, run_documented
from test_hub import LESSON, TARGET, answer

from harness.workbook import PRISTINE, SOLUTIONS
from harness.workbook.cell_merge import META, source_of
from harness.workbook.release import MARKER, commit_to_branch, write_release

DOCSTRING_FIX = "Fixed docstring (F1)."
MARKDOWN_FIX = "Fixed text (F2)."
STOP_SECONDS = 120


def publish_fixes(base, repo):
    """The release again, from solutions whose lesson 03 carries fixes F1 and F2, on branch
    student."""
    solutions = base / "fixed-solutions"
    solutions.mkdir()
    for path in SOLUTIONS.iterdir():
        if path.suffix in (".ipynb", ".md"):
            (solutions / path.name).write_bytes(path.read_bytes())
    notebook = nbformat.read(solutions / f"{LESSON}.ipynb", as_version=4)
    exercise = next(c for c in notebook.cells if "BEGIN SOLUTION 3.1" in c.source)
    exercise.source = re.sub(
        r"(?m)^(    ''')(.*)('''\n    ### BEGIN SOLUTION 3\.1)",
        rf"\1\2 {DOCSTRING_FIX}\3",
        exercise.source,
    )
    assert DOCSTRING_FIX in exercise.source, (
        "the docstring just above BEGIN SOLUTION 3.1 was not found"
    )
    prose = notebook.cells[2]
    assert prose.cell_type == "markdown"
    prose.source += f"\n\n{MARKDOWN_FIX}"
    nbformat.write(notebook, solutions / f"{LESSON}.ipynb")
    write_release(base / "release-fixed", solutions)
    assert commit_to_branch(base / "release-fixed", "student", repo)
    return exercise.id, prose.id


def test_no_fix_is_lost_to_the_merge_or_a_stale_tab(hub):
    student = Student(hub["url"], "hal")
    student.login(CLASS_PASSWORD)
    student.spawn()
    assert student.git_pull(hub["repo"], "student", TARGET)[-1]["phase"] == "finished"
    path = f"{TARGET}/lessons/{LESSON}.ipynb"
    notebook = student.load(path)
    answer(notebook, "3.1")
    student.save(path, notebook)
    stale_tab = student.load(path)  # the tab left open: what it will save over the update

    exercise_id, prose_id = publish_fixes(hub["base"], hub["repo"])
    said = click_the_link(student, hub["repo"], path)
    assert f"cell {exercise_id}" in said and "beside yours" in said, said[-1500:]
    check_nothing_lost(student.load(path), exercise_id, prose_id, notebook)

    student.save(path, stale_tab)  # "File Changed" > Overwrite from the old tab: both fixes gone
    assert MARKDOWN_FIX not in json.dumps(student.load(path))
    said = click_the_link(student, hub["repo"], path, pulled="Already up to date")
    assert f"cell {prose_id}" in said and f"cell {exercise_id}" in said, said[-1500:]
    check_nothing_lost(student.load(path), exercise_id, prose_id, notebook)
    status, said = student.terminal(f"cd ~/{TARGET} && workbook update")
    assert status == 0 and "nothing to bring back" in said, said[-1500:]


def click_the_link(student: Student, repo: str, path: str, pulled: str = "") -> str:
    """The link clicked again: nbgitpuller's pull, then its redirect to the update page; the
    page's text."""
    events = student.git_pull(repo, "student", TARGET)
    assert events[-1]["phase"] == "finished" and pulled in "".join(
        e.get("output", "") for e in events
    ), events[-3:]
    page = student.follow_link(path)
    assert (
        page.status_code == 200
        and "Your lessons are up to date" in page.text
        and f'href="/user/{student.name}/lab/tree/{path}"' in page.text
    ), page.text[-1500:]
    return html.unescape(page.text)


def check_nothing_lost(now, exercise_id, prose_id, answered):
    cells = {cell.id: cell for cell in now.cells}
    mine = {cell.id: cell.source for cell in answered.cells}
    assert cells[exercise_id].source == mine[exercise_id], "the student's answer was changed"
    assert MARKDOWN_FIX in cells[prose_id].source, "the fix to the untouched cell is missing"
    copies = [c for c in now.cells if c.metadata.get(META, {}).get("update_of") == exercise_id]
    assert len(copies) == 1 and DOCSTRING_FIX in source_of(copies[0]), (
        "the docstring fix is not beside the answer"
    )
    others = {i: s for i, s in mine.items() if i not in (exercise_id, prose_id)}
    assert others == {i: cells[i].source for i in others}, "another cell changed"


def old_numbering(release: Path, into: Path) -> None:
    """A copy of the release as it was before the renumbering: the capstone as lesson 12."""
    shutil.copytree(release, into, ignore=shutil.ignore_patterns(".git"))
    for folder in (into / "lessons", into / PRISTINE):
        new = folder / "14_capstone.ipynb"
        (folder / "12_capstone.ipynb").write_text(
            re.sub(r"\b14(\.\d)", r"12\1", new.read_text(encoding="utf-8")), encoding="utf-8"
        )
        new.unlink()
    (into / MARKER).write_text(json.dumps({"renamed": {}}), encoding="utf-8")


def test_a_room_on_the_old_numbering_keeps_its_capstone_work(hub):
    """A student pulled the capstone as 12 and answered it; the release renames it to 14. The link
    takes the work along; a tab still open on 12 saves it back after the pull, and the next click
    carries it into 12 and says so, the old file kept as a backup."""
    branch, target = "student-old-numbers", "renumbered"
    old = hub["base"] / "release-old-numbers"
    old_numbering(hub["release"], old)
    assert commit_to_branch(old, branch, hub["repo"])
    student = Student(hub["url"], "ivo")
    student.login(CLASS_PASSWORD)
    student.spawn()
    assert student.git_pull(hub["repo"], branch, target)[-1]["phase"] == "finished"
    old_path, new_path = (
        f"{target}/lessons/12_capstone.ipynb",
        f"{target}/lessons/14_capstone.ipynb",
    )
    notebook = student.load(old_path)
    stub = next(c for c in notebook.cells if 'NotImplementedError("Exercise 12.1")' in c.source)
    stub.source = (
        stub.source.split("    # YOUR CODE HERE")[0] + "    return 'ivo answered the capstone'\n"
    )
    student.save(old_path, notebook)

    # the new release: the capstone is 14
    assert commit_to_branch(hub["release"], branch, hub["repo"])
    assert student.git_pull(hub["repo"], branch, target)[-1]["phase"] == "finished"
    student.follow_link(new_path)
    assert "ivo answered the capstone" in json.dumps(student.load(new_path)), (
        "the capstone answer did not reach 14"
    )

    student.save(old_path, notebook)  # the tab left open on 12 saves it again after the pull
    assert student.git_pull(hub["repo"], branch, target)[-1]["phase"] == "finished"
    page = html.unescape(student.follow_link(new_path).text)
    assert "12_capstone.ipynb is now 14_capstone.ipynb" in page and "12_capstone.backup-" in page, (
        page[-1500:]
    )
    names = {
        item["name"]
        for item in student.api("GET", f"api/contents/{target}/lessons").json()["content"]
    }
    assert "12_capstone.ipynb" not in names and any(
        n.startswith("12_capstone.backup-") for n in names
    ), names
    assert "ivo answered the capstone" in json.dumps(student.load(new_path))


def test_every_command_block_of_the_hosting_section_was_run(hub):
    """The last test of the hub suite (files run in name order): INSTRUCTORS.md's end-of-term
    block on a student of test_hub.py (`wb-ada`, whose server is stopped first, as the guide
    says), then every block of the hosting section must have been run by this session. Run the
    whole suite for it."""
    account = hub["paths"]["wb-ada"]
    stopped = requests.delete(
        f"{hub['url']}/hub/api/users/ada/server", headers=hub["admin"], timeout=120
    )
    assert stopped.status_code in (
        202,
        204,
    ), f"stopping ada's server: {stopped.status_code} {stopped.text[:300]}"
    uid = pwd.getpwnam(account).pw_uid
    deadline = time.monotonic() + STOP_SECONDS
    while [
        p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == uid
    ]:
        assert time.monotonic() < deadline, (
            f"ada's processes were still running {STOP_SECONDS} s after her server stopped"
        )
        time.sleep(1)
    listed = run_documented("userdel -r", hub["paths"]).stdout
    assert account in listed, f"`getent group` did not list {account}: {listed}"
    assert (
        account not in {entry.pw_name for entry in pwd.getpwall()}
        and not (hub["state"] / "homes" / "ada").exists()
    )
    missing = [block for block in guide_blocks() if block not in RAN]
    assert not missing, (
        "INSTRUCTORS.md's hosting section has blocks the hub test never ran:\n" + "\n".join(missing)
    )
