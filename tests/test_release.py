"""`workbook release OUT`: what a student gets holds no solution, survives an unchanged save byte
for byte, and takes an upstream fix through nbgitpuller without losing the student's work."""

import json
import re
import subprocess

import nbformat
import pytest
from nbgitpuller.pull import GitPuller
from running_jupyter import jupyter_server

from harness.workbook import PRISTINE, SOLUTIONS, find_workbook
from harness.workbook.build import BEGIN, END, expected_files, expected_lessons
from harness.workbook.release import LINK, MARKER, ReleaseError, commit_to_branch, write_release

SHIPPED = {
    ".gitignore",
    ".workbook",
    "README.md",
    "harness",
    "jupyter",
    "lessons",
    "pyproject.toml",
}


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "student"
    write_release(out)
    return out


def solution_blocks() -> list[tuple[str, str]]:
    """(exercise id, body) of every BEGIN/END SOLUTION block in solutions/."""
    blocks = []
    for path in SOLUTIONS.glob("*.ipynb"):
        for cell in nbformat.read(path, as_version=4).cells:
            exercise, body = None, []
            for line in cell.source.splitlines():
                if BEGIN.match(line):
                    exercise, body = BEGIN.match(line)["id"], []
                elif END.match(line) and exercise:
                    blocks.append((exercise, "\n".join(body).strip()))
                    exercise = None
                elif exercise:
                    body.append(line)
    return blocks


def test_the_release_holds_lessons_and_what_they_need_and_nothing_else(release):
    assert {p.name for p in release.iterdir()} == SHIPPED
    # glossary too
    assert sorted(p.name for p in (release / "lessons").iterdir()) == sorted(expected_files())
    assert sorted(p.name for p in (release / PRISTINE).iterdir()) == sorted(expected_lessons())
    assert (release / "jupyter" / "overrides.json").is_file() and (release / MARKER).is_file()
    notebooks = {p.parent.relative_to(release).as_posix() for p in release.rglob("*.ipynb")}
    # no solutions/, no other notebook anywhere
    assert notebooks == {
        "lessons",
        ".workbook/pristine",
    }
    assert not list(release.rglob("__pycache__"))
    found = find_workbook(release / "lessons")
    assert found.root == release and sorted(found.pristine()) == sorted(expected_lessons())


def test_the_release_holds_no_solution_body(release):
    blocks = solution_blocks()
    assert len(blocks) >= 10  # the scan found the solutions it looks for
    sources = "\n".join(
        cell.source
        for path in release.rglob("*.ipynb")
        for cell in nbformat.read(path, as_version=4).cells
    )
    assert "BEGIN SOLUTION" not in sources
    for exercise, body in blocks:
        assert body not in sources, f"the body of solution {exercise} is in the release"
        stub = f'raise NotImplementedError("Exercise {exercise}")'
        assert stub in sources, f"exercise {exercise} has no stub in the release"
    marker_files = {
        p.relative_to(release).as_posix()
        for p in release.rglob("*")
        if p.is_file() and "### BEGIN SOLUTION" in p.read_text(encoding="utf-8", errors="replace")
    }
    # where the marker is defined, not a solution
    assert marker_files <= {"harness/workbook/build.py"}


def test_opening_and_saving_a_lesson_unchanged_leaves_it_byte_identical(release, tmp_path):
    lessons = sorted((release / "lessons").glob("*.ipynb"))
    for path in lessons:
        before = path.read_bytes()
        nbformat.write(nbformat.read(path, as_version=4), path)
        assert path.read_bytes() == before, f"nbformat read + write changed {path.name}"
    (tmp_path / "runtime").mkdir()
    with jupyter_server(release, tmp_path / "runtime") as server:  # what JupyterLab's Ctrl+S sends
        for path in lessons:
            before = path.read_bytes()
            server.save_unchanged(f"lessons/{path.name}")
            assert path.read_bytes() == before, (
                f"a save through the contents API changed {path.name}"
            )


def test_a_folder_that_is_not_a_release_is_never_overwritten(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ReleaseError, match="not empty and holds no earlier release"):
        write_release(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def git(folder, *args):
    return subprocess.run(
        ["git", "-C", str(folder), *args], check=True, capture_output=True, text=True
    ).stdout


def edit_solutions(source, target, change):
    """A copy of the solutions with `change(notebook)` applied to lesson 03."""
    target.mkdir()
    for path in source.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        if path.name.startswith("03_"):
            change(notebook)
        nbformat.write(notebook, target / path.name)
    return target


def test_an_upstream_fix_merges_into_a_students_saved_copy(tmp_path, release):
    """nbgitpuller (the real one) pulls the release branch; the student saves lesson 03 unchanged
    and answers in lesson 04; the instructor fixes lesson 03's text; the next pull keeps both."""
    upstream = tmp_path / "course"
    git(tmp_path, "init", "-q", "-b", "main", str(upstream))
    git(upstream, "commit", "-q", "--allow-empty", "-m", "course")
    assert commit_to_branch(release, "student", upstream)
    assert commit_to_branch(release, "student", upstream) is None  # the same release: no new commit
    home = tmp_path / "home"
    target = home / "context-engineering-workbook"  # nbgitpuller's targetpath

    def pull():
        for _ in GitPuller(str(upstream), str(target), branch="student", depth=0).pull():
            pass

    pull()
    lesson03, lesson04 = (
        sorted((target / "lessons").glob("03_*.ipynb"))[0],
        sorted((target / "lessons").glob("04_*"))[0],
    )
    nbformat.write(nbformat.read(lesson03, as_version=4), lesson03)  # Ctrl+S, nothing changed
    answered = nbformat.read(lesson04, as_version=4)
    stub = next(c for c in answered.cells if "raise NotImplementedError" in c.source)
    stub.source = stub.source.replace(
        "raise NotImplementedError", "return None  # my answer\n    raise NotImplementedError"
    )
    nbformat.write(answered, lesson04)

    fix = "A sentence the instructor fixed after the class had started."
    fixed = edit_solutions(
        SOLUTIONS,
        tmp_path / "fixed",
        lambda nb: nb.cells[0].update(source=nb.cells[0].source + "\n\n" + fix),
    )
    write_release(tmp_path / "release2", solutions=fixed)
    assert commit_to_branch(tmp_path / "release2", "student", upstream)
    pull()
    assert fix in lesson03.read_text(encoding="utf-8"), (
        "the upstream fix did not reach the saved lesson"
    )
    assert "# my answer" in lesson04.read_text(encoding="utf-8"), (
        "the pull lost the student's answer"
    )
    # reset gives the fixed text
    assert fix in (target / PRISTINE / lesson03.name).read_text(encoding="utf-8")
    assert re.search(r"Student release from", git(upstream, "log", "-1", "--format=%s", "student"))


def test_every_link_of_every_released_lesson_leads_to_a_file_of_the_release(release):
    followed = 0
    for lesson in sorted((release / "lessons").glob("*.ipynb")):
        for cell in nbformat.read(lesson, as_version=4).cells:
            if cell.cell_type == "markdown":
                for match in LINK.finditer(cell.source):
                    if ":" not in match["target"]:
                        assert (lesson.parent / match["target"]).is_file(), (
                            f"{lesson.name} -> {match['target']}"
                        )
                        followed += 1
    assert followed >= 10 and (release / "lessons" / "GLOSSARY.md").is_file()


def test_a_dead_link_is_refused_naming_it(tmp_path):
    def link_nowhere(notebook):
        notebook.cells[0].source += "\n\nSee [the notes](NOTES.md)."

    solutions = edit_solutions(SOLUTIONS, tmp_path / "solutions", link_nowhere)
    with pytest.raises(ReleaseError, match=r"03_.*links to NOTES\.md, which does not exist"):
        write_release(tmp_path / "out", solutions)


@pytest.mark.parametrize(
    "broken", ['check("3.1", build_context)  # the budget', 'check("3.1", build_context); x = 1']
)
def test_a_check_cell_out_of_form_is_refused_naming_the_cell(tmp_path, broken):
    def break_check(notebook):
        cell = next(c for c in notebook.cells if c.source.strip().startswith('check("3.1"'))
        cell.source = broken

    solutions = edit_solutions(SOLUTIONS, tmp_path / "solutions", break_check)
    with pytest.raises(
        ReleaseError, match=r"03_budgeted_assembly\.ipynb, cell \d+ \(id [\w-]+\): 'check"
    ):
        write_release(tmp_path / "out", solutions)
    assert not (tmp_path / "out").exists(), "a refused release wrote files"


def test_the_release_records_each_renamed_lesson_and_enables_the_links_update(release):
    renamed = json.loads((release / MARKER).read_text(encoding="utf-8"))["renamed"]
    lessons = {p.name for p in (release / "lessons").glob("*.ipynb")}
    assert (
        renamed.get("09_capstone.ipynb") == renamed.get("12_capstone.ipynb") == "14_capstone.ipynb"
    ), "a room that pulled the old numbering loses its capstone"
    assert set(renamed.values()) <= lessons and not set(renamed) & lessons, renamed
    enabled = json.loads(
        (
            release / "jupyter" / "jupyter_server_config.d" / "context-engineering-workbook.json"
        ).read_text(encoding="utf-8")
    )
    assert enabled["ServerApp"]["jpserver_extensions"] == {"harness.workbook.link": True}
