"""The lesson build: solution markers become stubs, and lessons/ follows solutions/."""

import json

import pytest

from harness.workbook import build as lesson_build


def notebook(*sources, tags=None):
    cells = [
        {
            "cell_type": "code",
            "metadata": {"tags": tags or []},
            "source": s,
            "outputs": [{"x": 1}],
            "execution_count": 3,
        }
        for s in sources
    ]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


class TestStubbing:
    def test_solution_body_becomes_stub_keeping_indentation(self):
        source = "def f(x):\n    ### BEGIN SOLUTION 4.1\n    return x + 1\n    ### END SOLUTION\n"
        assert (
            lesson_build.stub_source(source)
            == 'def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError("Exercise 4.1")\n'
        )

    def test_code_outside_markers_is_kept(self):
        source = "import os\n### BEGIN SOLUTION 1.2\nx = 1\n### END SOLUTION\nprint(x)"
        stubbed = lesson_build.stub_source(source)
        assert (
            stubbed.startswith("import os\n")
            and stubbed.endswith("print(x)")
            and "x = 1" not in stubbed
        )

    @pytest.mark.parametrize(
        "source, complaint",
        [
            ("### BEGIN SOLUTION\nx\n### END SOLUTION", "needs an exercise id"),
            ("### BEGIN SOLUTION 1.1\nx", "never closed"),
            ("x\n### END SOLUTION", "without a BEGIN"),
            ("### BEGIN SOLUTION 1.1\n### BEGIN SOLUTION 1.2\n### END SOLUTION", "inside another"),
        ],
    )
    def test_malformed_markers_are_named(self, source, complaint):
        with pytest.raises(lesson_build.BuildError, match=complaint):
            lesson_build.stub_source(source, "03_x.ipynb, cell 4")

    def test_outputs_cleared_and_solution_only_cells_dropped(self):
        nb = notebook("print(1)")
        nb["cells"] += notebook("secret()", tags=["solution-only"])["cells"]
        lesson = lesson_build.lesson_from_solution(nb)
        assert len(lesson["cells"]) == 1
        assert lesson["cells"][0]["outputs"] == [] and lesson["cells"][0]["execution_count"] is None
        assert nb["cells"][0]["outputs"], "the solution notebook itself must not be changed"


class TestBuildFolder:
    def test_build_writes_and_keeps_a_backup_of_a_changed_lesson(self, tmp_path):
        solutions, lessons = tmp_path / "solutions", tmp_path / "lessons"
        solutions.mkdir()
        (solutions / "01_a.ipynb").write_text(json.dumps(notebook("x = 1")))
        assert [name for name, _ in lesson_build.build(solutions, lessons)] == ["01_a.ipynb"]
        assert lesson_build.stale_lessons(solutions, lessons) == []

        (lessons / "01_a.ipynb").write_text("my work")  # a student's edits
        [(name, backup)] = lesson_build.build(solutions, lessons)
        assert backup.read_text() == "my work" and backup.parent == lessons
        assert lesson_build.build(solutions, lessons) == []  # nothing left to do

    def test_stale_lesson_is_reported(self, tmp_path):
        solutions, lessons = tmp_path / "solutions", tmp_path / "lessons"
        solutions.mkdir()
        (solutions / "01_a.ipynb").write_text(json.dumps(notebook("x = 1")))
        assert lesson_build.stale_lessons(solutions, lessons) == ["01_a.ipynb"]


def test_committed_lessons_are_up_to_date_with_solutions():
    stale = lesson_build.stale_lessons()
    assert not stale, f"lessons/ is out of date for {stale}: run `python -m harness build`."


def test_every_solution_has_a_lesson_and_no_lesson_is_orphaned():
    solutions = {p.name for p in lesson_build.SOLUTIONS.glob("*.ipynb")}
    lessons = {p.name for p in lesson_build.LESSONS.glob("*.ipynb") if ".backup-" not in p.name}
    assert solutions == lessons


@pytest.mark.parametrize(
    "path",
    sorted(lesson_build.SOLUTIONS.glob("*.ipynb"))
    + sorted(p for p in lesson_build.LESSONS.glob("*.ipynb") if ".backup-" not in p.name),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_notebooks_are_valid_and_committed_without_outputs(path):
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert all(
        not c.get("outputs") and c.get("execution_count") is None
        for c in notebook.cells
        if c.cell_type == "code"
    ), f"{path.name}: clear its outputs before committing"
