"""A regrade merges into the gradebook: one student, or one lesson, changes; the rest stays byte for
byte.

Five students on two lessons are graded, then eve hands in a solved 91_one and is regraded
(`--student eve`), then bob hands in a solved 92_two and lesson 92 is regraded for everyone
(`--lesson 92`: only bob's changed submission runs), then cal hands in 91_one late and the
whole room is graded again (only cal's 91_one runs). Merges that would mislead are refused.
"""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_workbook_check import write_fake_lesson

from harness.workbook import ROOT, gradebook

STUDENTS = ("ada", "bob", "cal", "dan", "eve")
SOLVED = {"double": "    return 2 * x", "triple": "    return 3 * x"}


def grade(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "grade",
            str(root / "submissions"),
            "--lessons",
            str(root / "reference"),
            "--out",
            str(root / "out"),
            "--jobs",
            "2",
            "--cell-timeout",
            "30",
            *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )


def snapshot(out: Path) -> dict:
    """Per student: their gradebook.csv lines, their lms.csv line, their feedback page; and the
    projector."""
    lines = (out / "gradebook.csv").read_text(encoding="utf-8").splitlines()[1:]
    lms = (out / "lms.csv").read_text(encoding="utf-8").splitlines()
    return {
        "header": lms[0],
        "projector": (out / "projector.html").read_bytes(),
        **{
            s: {
                "rows": [line for line in lines if line.startswith(s + ",")],
                "lms": [line for line in lms if line.startswith(s + ",")],
                "feedback": (out / "feedback" / f"{s}.html").read_bytes(),
            }
            for s in STUDENTS
        },
    }


def statuses(out: Path, student: str) -> dict[tuple[str, str], str]:
    with (out / "gradebook.csv").open(encoding="utf-8") as file:
        return {
            (r["lesson"], r["exercise"]): r["status"]
            for r in csv.DictReader(file)
            if r["student"] == student
        }


@pytest.fixture(scope="module")
def regraded(tmp_path_factory):
    root = tmp_path_factory.mktemp("merge")
    write_fake_lesson(root / "reference" / "91_one.ipynb")
    write_fake_lesson(root / "reference" / "92_two.ipynb", checks=("99.1",))
    for student in STUDENTS:
        solved = SOLVED if student == "ada" else {}
        write_fake_lesson(root / "submissions" / student / "91_one.ipynb", **solved)
        write_fake_lesson(
            root / "submissions" / student / "92_two.ipynb", **solved, checks=("99.1",)
        )
    out = root / "out"
    steps = {"first": grade(root)}
    snaps = {"first": snapshot(out)}
    write_fake_lesson(root / "submissions" / "eve" / "91_one.ipynb", **SOLVED)
    steps["student"] = grade(root, "--student", "eve")
    snaps["student"] = snapshot(out)
    write_fake_lesson(root / "submissions" / "bob" / "92_two.ipynb", **SOLVED, checks=("99.1",))
    steps["lesson"] = grade(root, "--lesson", "92")
    snaps["lesson"] = snapshot(out)
    write_fake_lesson(root / "submissions" / "cal" / "91_one.ipynb", **SOLVED)
    steps["late"] = grade(root)
    snaps["late"] = snapshot(out)
    return root, steps, snaps


def test_every_run_succeeds(regraded):
    for name, done in regraded[1].items():
        assert done.returncode == 0, f"{name}: {done.stdout}{done.stderr}"


def test_regrading_one_student_changes_their_row_only(regraded):
    root, _, snaps = regraded
    before, after = snaps["first"], snaps["student"]
    assert statuses(root / "out", "eve")[("91_one", "99.2")] == "passed"
    for view in ("rows", "lms", "feedback"):
        assert after["eve"][view] != before["eve"][view], f"eve's {view} did not follow her regrade"
        for student in set(STUDENTS) - {"eve"}:
            assert after[student][view] == before[student][view], (
                f"{student}'s {view} changed when only eve was regraded"
            )
    assert after["eve"]["lms"] == ["eve,1,1,2,2"]
    assert after["projector"] != before["projector"], (
        "the projector view still shows the room before the regrade"
    )


def test_regrading_one_lesson_reruns_only_the_changed_submission(regraded):
    root, steps, snaps = regraded
    before, after = snaps["student"], snaps["lesson"]
    assert "Kept 4 of 5 results (student x lesson) already graded" in steps["lesson"].stderr
    assert "1/1 students" in steps["lesson"].stderr
    assert [line for line in after["bob"]["rows"] if ",92_two," in line] == [
        "bob,92_two,99.1,passed,,,1 of 1,"
    ]
    assert [line for line in after["bob"]["rows"] if ",91_one," in line] == [
        line for line in before["bob"]["rows"] if ",91_one," in line
    ], "bob's other lesson changed"
    for student in set(STUDENTS) - {"bob"}:
        assert after[student] == before[student], (
            f"{student} changed when only bob's lesson 92 was handed in again"
        )


def test_grading_the_room_again_runs_only_the_notebook_handed_in_late(regraded):
    root, steps, snaps = regraded
    before, after = snaps["lesson"], snaps["late"]
    assert "Kept 9 of 10 results (student x lesson) already graded" in steps["late"].stderr
    assert [line for line in after["cal"]["rows"] if ",91_one," in line] == [
        "cal,91_one,99.1,passed,,,1 of 1,",
        "cal,91_one,99.2,passed,,,1 of 1,",
    ]
    assert [line for line in after["cal"]["rows"] if ",92_two," in line] == [
        line for line in before["cal"]["rows"] if ",92_two," in line
    ], "cal's unchanged lesson was regraded differently"
    for student in set(STUDENTS) - {"cal"}:
        assert after[student] == before[student], (
            f"{student} changed though nothing of theirs was handed in again"
        )


def test_a_merge_onto_other_lessons_is_refused_and_changes_nothing(regraded):
    root = regraded[0]
    write_fake_lesson(root / "reference" / "93_three.ipynb", checks=("99.1",))
    try:
        before = snapshot(root / "out")
        done = grade(root, "--student", "ada")  # ada alone on 91, 92 and 93
    finally:
        (root / "reference" / "93_three.ipynb").unlink()
    assert done.returncode == 2
    assert (
        str(root / "out" / "results") in done.stderr
        and "different lessons" in done.stderr
        and "--lesson" in done.stderr
    )
    assert "93_three" in done.stderr
    assert snapshot(root / "out") == before


def test_a_gradebook_of_an_older_format_is_refused_by_name(regraded):
    root = regraded[0]
    path = root / "out" / "results" / "cal.json"
    saved = json.loads(path.read_text(encoding="utf-8"))
    # what the first grader wrote
    older = {key: value for key, value in saved.items() if key != "format"}
    path.write_text(json.dumps(older), encoding="utf-8")
    try:
        before = snapshot(root / "out")
        done = grade(root, "--student", "eve")
    finally:
        path.write_text(json.dumps(saved), encoding="utf-8")
    assert done.returncode == 2
    assert (
        str(path) in done.stderr and "format 1" in done.stderr and "new --out folder" in done.stderr
    )
    assert snapshot(root / "out") == before


def test_a_lesson_is_kept_only_when_both_its_submission_and_its_pristine_lesson_are_the_same():
    graded = {"lessons": {"91_one": {"submission_sha256": "s1", "lesson_sha256": "l1"}}}
    assert gradebook.unchanged(
        graded, {"91_one": {"submission_sha256": "s1", "lesson_sha256": "l1"}}
    )
    assert not gradebook.unchanged(
        graded, {"91_one": {"submission_sha256": "s2", "lesson_sha256": "l1"}}
    ), "a new submission"
    assert not gradebook.unchanged(
        graded, {"91_one": {"submission_sha256": "s1", "lesson_sha256": "l2"}}
    ), "a fixed check"
    assert not gradebook.unchanged(
        graded, {"92_two": {"submission_sha256": "s1", "lesson_sha256": "l1"}}
    ), "a lesson never graded"
    assert not gradebook.unchanged(
        None, {"91_one": {"submission_sha256": "s1", "lesson_sha256": "l1"}}
    ), "a new student"


def test_a_new_lesson_for_some_students_only_is_refused_before_anything_runs(tmp_path):
    for student in ("ada", "bob"):
        gradebook.record(tmp_path, student, {"91_one": []}, [])
    # everyone: fine
    assert set(gradebook.check_merge(tmp_path, ["92_two"], ["ada", "bob"])) == {
        "ada",
        "bob",
    }
    # a regrade: fine
    assert set(gradebook.check_merge(tmp_path, ["91_one"], ["ada"])) == {
        "ada",
        "bob",
    }
    with pytest.raises(
        gradebook.GradebookError, match=r"1 \(ada\) on 91_one, 92_two; 1 \(bob\) on 91_one"
    ):
        gradebook.check_merge(tmp_path, ["92_two"], ["ada"])
    with pytest.raises(gradebook.GradebookError, match="on 91_one; 1 \\(cal\\) on 92_two"):
        gradebook.check_merge(tmp_path, ["92_two"], ["cal"])  # a newcomer graded on another lesson
