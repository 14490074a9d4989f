"""`workbook update`: no upstream fix is lost, and nothing of the student's is written over.

The cell-level rules (harness.workbook.cell_merge) on small notebooks, then the whole command on a
real git repository pulled by the real nbgitpuller: a fix beside a line the student edited (which
`-Xours` drops), a fix in a cell they never touched, a stale tab saved over the merged file.
"""

import copy
import json
import re
import subprocess

import nbformat
import pytest
import requests
from running_jupyter import jupyter_server

from harness.workbook import LESSONS
from harness.workbook.build import render
from harness.workbook.cell_merge import META, carry_cells, reconcile, source_of
from harness.workbook.update import NOTHING
from harness.workbook.update import main as update

STUB = (
    'def f():\n    """Return one."""\n    # YOUR CODE HERE\n    raise NotImplementedError("Exercise'
    ' 3.1")'
)
ANSWER = 'def f():\n    """Return one."""\n    return 1'
FIXED_STUB = STUB.replace('"""Return one."""', '"""Return 1, an int."""')


def notebook(**sources) -> dict:
    """A notebook whose cell ids and sources are the keywords (ids starting with md_ are
    markdown)."""
    nb = nbformat.v4.new_notebook()
    for cell_id, source in sources.items():
        make = (
            nbformat.v4.new_markdown_cell
            if cell_id.startswith("md_")
            else nbformat.v4.new_code_cell
        )
        nb.cells.append(make(source, id=cell_id))
    return json.loads(nbformat.writes(nb))


R1 = notebook(md_intro="# Lesson 3", ex=STUB, check='check("3.1", f)', md_other="Some text.")
R2 = notebook(
    md_intro="# Lesson 3",
    ex=FIXED_STUB,
    check='check("3.1", f)',
    md_other="Some fixed text.",
    md_new="A new paragraph.",
)


def sources(nb: dict) -> dict[str, str]:
    return {cell["id"]: source_of(cell) for cell in nb["cells"]}


def student_copy(base: dict = R1) -> dict:
    mine = copy.deepcopy(base)
    next(c for c in mine["cells"] if c["id"] == "ex")["source"] = ANSWER
    return mine


def test_an_untouched_cell_gets_the_fix_in_place_and_an_edited_one_gets_it_beside():
    merged, changes = reconcile(student_copy(), [R2, R1], "r2")
    assert {c.cell_id: c.kind for c in changes} == {
        "ex": "offered",
        "md_other": "restored",
        "md_new": "added",
    }
    got = sources(merged)
    assert got["ex"] == ANSWER, "the student's answer was written over"
    assert got["md_other"] == "Some fixed text." and got["md_new"] == "A new paragraph."
    ids = [c["id"] for c in merged["cells"]]
    copy_cell = merged["cells"][ids.index("ex") + 1]
    assert copy_cell["cell_type"] == "markdown", (
        "a code copy would redefine the student's function on Run All"
    )
    assert copy_cell["metadata"][META]["update_of"] == "ex" and FIXED_STUB in source_of(copy_cell)
    assert "Update from your instructor" in source_of(copy_cell)
    assert ids.index("md_new") == ids.index("md_other") + 1, (
        "the new cell is not where the release has it"
    )


def test_a_second_run_changes_nothing_and_a_deleted_copy_stays_deleted():
    merged, _ = reconcile(student_copy(), [R2, R1], "r2")
    assert reconcile(merged, [R2, R1], "r2")[1] == []
    merged["cells"] = [c for c in merged["cells"] if "update_of" not in c["metadata"].get(META, {})]
    assert reconcile(merged, [R2, R1], "r2")[1] == [], (
        "the student deleted the copy: it must not come back"
    )


def test_a_stale_tab_saved_over_the_merge_is_caught_again():
    """The tab holds the copy from before the update: no fix, no marked copy, no metadata."""
    stale = student_copy()
    merged, changes = reconcile(stale, [R2, R1], "r2")
    assert {c.kind for c in changes} == {"offered", "restored", "added"}
    assert sources(merged)["ex"] == ANSWER


def test_a_fix_that_landed_or_a_cell_the_release_never_changed_is_left_alone():
    took_it = student_copy(R2)  # merged fine: the student's answer under the new docstring
    next(c for c in took_it["cells"] if c["id"] == "ex")["source"] = ANSWER.replace(
        "Return one.", "Return 1, an int."
    )
    assert reconcile(took_it, [R2, R1], "r2")[1] == []
    edited_check = copy.deepcopy(took_it)
    next(c for c in edited_check["cells"] if c["id"] == "check")["source"] = 'check("3.1", g)'
    assert reconcile(edited_check, [R2, R1], "r2")[1] == [], (
        "the release never changed the check cell"
    )
    assert reconcile(copy.deepcopy(R1), [R1], "r1")[1] == []


def test_a_cell_the_student_deleted_comes_back_only_if_the_release_changed_it():
    mine = copy.deepcopy(R1)
    mine["cells"] = [c for c in mine["cells"] if c["id"] not in ("md_intro", "md_other")]
    merged, changes = reconcile(mine, [R2, R1], "r2")
    assert {c.cell_id: c.kind for c in changes} == {
        "ex": "restored",
        "md_other": "added",
        "md_new": "added",
    }
    assert "md_intro" not in sources(merged)


# The whole command, on a git repository pulled by the real nbgitpuller.


def git(folder, *args):
    return subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", "-C", str(folder), *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def publish(upstream, nb: dict) -> None:
    (upstream / "lessons").mkdir(exist_ok=True)
    (upstream / "lessons" / "03_lesson.ipynb").write_text(render(nb), encoding="utf-8")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "-m", "release")


@pytest.fixture
def pulled(tmp_path):
    """A release repository (branch student) and a student's copy of it made by nbgitpuller."""
    from nbgitpuller.pull import GitPuller

    upstream = tmp_path / "course"
    git(tmp_path, "init", "-q", "-b", "student", str(upstream))
    publish(upstream, R1)
    copy_dir = tmp_path / "home" / "workbook"
    for _ in GitPuller(str(upstream), str(copy_dir), branch="student").pull():
        pass
    return upstream, copy_dir, copy_dir / "lessons" / "03_lesson.ipynb"


def test_update_pulls_then_brings_back_what_the_merge_and_a_stale_tab_dropped(pulled, capsys):
    upstream, copy_dir, lesson = pulled
    lesson.write_text(render(student_copy()), encoding="utf-8")  # the student answers and saves
    stale_tab = lesson.read_text(encoding="utf-8")  # what the tab still holds after the update
    publish(upstream, R2)

    assert update(["--lessons", str(copy_dir)]) == 0
    said = capsys.readouterr().out
    after = json.loads(lesson.read_text(encoding="utf-8"))
    assert sources(after)["ex"] == ANSWER and "Some fixed text." in sources(after).values()
    assert any(FIXED_STUB in source_of(c) for c in after["cells"]), (
        "the docstring fix that -Xours dropped is lost"
    )
    assert "cell ex" in said and "beside yours" in said, said
    assert list(lesson.parent.glob("03_lesson.backup-*.ipynb")), "no backup before writing"

    lesson.write_text(stale_tab, encoding="utf-8")  # "File Changed" > Overwrite from the old tab
    assert update(["--lessons", str(copy_dir)]) == 0
    again = json.loads(lesson.read_text(encoding="utf-8"))
    got = sources(again)
    assert (
        got["ex"] == ANSWER
        and got["md_other"] == "Some fixed text."
        and got["md_new"] == "A new paragraph."
    )
    assert any(FIXED_STUB in source_of(c) for c in again["cells"])
    capsys.readouterr()
    assert update(["--lessons", str(copy_dir)]) == 0
    assert "nothing to bring back" in capsys.readouterr().out


def test_update_outside_a_pulled_copy_says_what_to_do(tmp_path, capsys):
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "03_lesson.ipynb").write_text(render(R1), encoding="utf-8")
    assert update(["--lessons", str(tmp_path), "--no-pull"]) == 2
    assert "not a git repository" in capsys.readouterr().err


# A lesson renamed by the release: the capstone, 12 in the room's first pull, 14 in the new release.


def numbered(number: int) -> dict:
    """The shipped capstone as it reads when it is lesson `number` (its cell ids do not change)."""
    text = (LESSONS / "14_capstone.ipynb").read_text(encoding="utf-8")
    return json.loads(re.sub(r"\b14(\.\d)", rf"{number}\1", text))


def release_marker(upstream, renamed: dict) -> None:
    (upstream / ".workbook").mkdir(exist_ok=True)
    (upstream / ".workbook" / "release.json").write_text(
        json.dumps({"renamed": renamed}), encoding="utf-8"
    )


def answered_capstone(nb: dict) -> dict:
    mine = copy.deepcopy(nb)
    exercise = next(c for c in mine["cells"] if "NotImplementedError(" in source_of(c))
    exercise["source"] = (
        source_of(exercise).split("    # YOUR CODE HERE")[0] + "    return 'my capstone answer'\n"
    )
    mine["cells"].append(
        nbformat.v4.new_markdown_cell("My own notes on the capstone.", id="mynotes1")
    )
    return mine


@pytest.fixture
def renumbered(tmp_path):
    return renumber(tmp_path)


def renumber(tmp_path, grown: bool = False):
    """A copy pulled when the capstone was 12, answered and saved; then the release renames it to 14
    (`grown`: and adds so much to it that git no longer sees a rename)."""
    from nbgitpuller.pull import GitPuller

    upstream = tmp_path / "course"
    git(tmp_path, "init", "-q", "-b", "student", str(upstream))
    (upstream / "lessons").mkdir()
    (upstream / "lessons" / "12_capstone.ipynb").write_text(render(numbered(12)), encoding="utf-8")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "-m", "release with the capstone as lesson 12")
    copy_dir = tmp_path / "home" / "workbook"
    for _ in GitPuller(str(upstream), str(copy_dir), branch="student").pull():
        pass
    old = copy_dir / "lessons" / "12_capstone.ipynb"
    mine = answered_capstone(json.loads(old.read_text(encoding="utf-8")))
    old.write_text(render(mine), encoding="utf-8")
    git(upstream, "mv", "lessons/12_capstone.ipynb", "lessons/14_capstone.ipynb")
    new = numbered(14)
    if grown:
        new["cells"].append(
            nbformat.v4.new_markdown_cell("A long new appendix.\n" * 20_000, id="appendix")
        )
    (upstream / "lessons" / "14_capstone.ipynb").write_text(render(new), encoding="utf-8")
    release_marker(upstream, {"12_capstone.ipynb": "14_capstone.ipynb"})
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "-m", "release with the capstone as lesson 14")
    return copy_dir, mine


def students_cells(nb: dict) -> dict[str, str]:
    return {
        c["id"]: source_of(c)
        for c in nb["cells"]
        if "my capstone answer" in source_of(c) or "My own notes" in source_of(c)
    }


def test_a_renamed_lesson_takes_the_students_cells_to_its_new_name(renumbered, capsys):
    copy_dir, mine = renumbered
    lessons = copy_dir / "lessons"
    assert update(["--lessons", str(copy_dir)]) == 0  # the pull, then the carry
    capsys.readouterr()
    assert not (lessons / "12_capstone.ipynb").exists(), (
        "the old file is left behind beside the new one"
    )
    now = json.loads((lessons / "14_capstone.ipynb").read_text(encoding="utf-8"))
    assert students_cells(now) == students_cells(mine) and len(students_cells(mine)) == 2, (
        "the student's work is lost"
    )
    assert any('check("14.1"' in source_of(c) for c in now["cells"]), (
        "the new lesson's own cells did not arrive"
    )

    # A tab still open on 12 saves it again after the pull: the next update carries it, and says so.
    (lessons / "12_capstone.ipynb").write_text(render(mine), encoding="utf-8")
    new_cell = next(c for c in now["cells"] if "my capstone answer" in source_of(c))
    new_cell["source"] = source_of(new_cell) + "# edited again under the new name\n"
    (lessons / "14_capstone.ipynb").write_text(render(now), encoding="utf-8")
    assert update(["--lessons", str(copy_dir), "--no-pull"]) == 0
    said = capsys.readouterr().out
    assert (
        "12_capstone.ipynb is now 14_capstone.ipynb" in said
        and "kept as lessons/12_capstone.backup-" in said
    ), said
    assert not (lessons / "12_capstone.ipynb").exists() and list(
        lessons.glob("12_capstone.backup-*.ipynb")
    )
    final = json.loads((lessons / "14_capstone.ipynb").read_text(encoding="utf-8"))
    texts = [source_of(c) for c in final["cells"]]
    assert any("edited again under the new name" in t for t in texts), (
        "the work under the new name was written over"
    )
    assert any(
        "Your version from 12_capstone.ipynb" in t and "my capstone answer" in t for t in texts
    ), "the old file's version of a cell edited in both is not beside the new one"
    assert update(["--lessons", str(copy_dir), "--no-pull"]) == 0
    assert NOTHING in capsys.readouterr().out


def test_a_renamed_lesson_the_student_never_opened_leaves_nothing_behind(tmp_path):
    old = numbered(12)
    merged, changes = carry_cells(old, numbered(14), [numbered(14), old], "r2", "12_capstone.ipynb")
    assert changes == [] and merged == numbered(14)


# The link: nbgitpuller pulls, then sends the browser to its urlpath, the workbook's update page.


def follow_the_link(server, upstream, lesson_path: str) -> requests.Response:
    """What the link's page does in the browser: nbgitpuller's pull API, then its redirect to
    urlpath."""
    page = server.call(
        "GET",
        "git-pull",
        params={
            "repo": str(upstream),
            "branch": "student",
            "targetpath": "workbook",
            "urlpath": f"workbook-update/{lesson_path}",
        },
    )
    assert f'data-path="workbook-update/{lesson_path}"' in page.text, "nbgitpuller ignored urlpath"
    events = server.call(
        "GET",
        "git-pull/api",
        params={"repo": str(upstream), "branch": "student", "targetpath": "workbook"},
    ).text
    assert '"phase": "finished"' in events, events[-800:]
    return requests.get(
        f"{server.url}workbook-update/{lesson_path}",
        headers={"Authorization": f"token {server.token}"},
        allow_redirects=False,
        timeout=120,
    )


def test_the_link_runs_update_after_its_pull_and_says_what_it_brought_back(tmp_path):
    upstream = tmp_path / "course"
    git(tmp_path, "init", "-q", "-b", "student", str(upstream))
    publish(upstream, R1)
    path = "workbook/lessons/03_lesson.ipynb"
    with jupyter_server(tmp_path, tmp_path / "runtime") as server:
        # the first click: a clone, nothing to bring back
        first = follow_the_link(server, upstream, path)
        assert first.status_code == 302 and first.headers["Location"].endswith(
            f"/lab/tree/{path}"
        ), first.text[:500]
        lesson = tmp_path / path
        lesson.write_text(render(student_copy()), encoding="utf-8")
        publish(upstream, R2)
        # after a fix: the report, then on to the lesson
        again = follow_the_link(server, upstream, path)
        assert (
            again.status_code == 200 and "cell ex" in again.text and "beside yours" in again.text
        ), again.text[:800]
        assert f'href="/lab/tree/{path}"' in again.text and "Open 03_lesson.ipynb" in again.text
        now = json.loads(lesson.read_text(encoding="utf-8"))
        assert sources(now)["ex"] == ANSWER and any(
            FIXED_STUB in source_of(c) for c in now["cells"]
        )
        outside = requests.get(
            f"{server.url}workbook-update/..%2F..%2Fetc",
            timeout=60,
            headers={"Authorization": f"token {server.token}"},
            allow_redirects=False,
        )
        assert outside.status_code == 404, "the page ran on a folder outside the server's files"
        anonymous = requests.get(
            f"{server.url}workbook-update/{path}", allow_redirects=False, timeout=60
        )
        assert anonymous.status_code in (302, 403), "the page ran for a caller with no token"


def test_a_rename_the_merge_did_not_follow_is_carried_too(tmp_path, capsys):
    """When git's merge does not see the rename (the file changed too much), nbgitpuller keeps the
    student's 12 (a modify/delete conflict) beside a fresh 14: the update moves the work across."""
    copy_dir, mine = renumber(tmp_path, grown=True)
    assert update(["--lessons", str(copy_dir)]) == 0
    said = capsys.readouterr().out
    assert "12_capstone.ipynb is now 14_capstone.ipynb" in said and "2 cell(s) of yours" in said, (
        said
    )
    lessons = copy_dir / "lessons"
    now = json.loads((lessons / "14_capstone.ipynb").read_text(encoding="utf-8"))
    assert students_cells(now) == students_cells(mine)
    assert not (lessons / "12_capstone.ipynb").exists()
    assert update(["--lessons", str(copy_dir)]) == 0, (
        "the next pull stumbled on the removed old file"
    )
    assert not (lessons / "12_capstone.ipynb").exists() and NOTHING in capsys.readouterr().out
