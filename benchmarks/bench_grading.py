"""How fast `python -m harness grade` gets through a cohort: 10 students x 3 lessons by default.

    $ .venv/bin/python benchmarks/bench_grading.py          # or: bench_grading(students=10)
    grading [##############################] 10/10 students
    graded 10 students x 3 lessons (...) in ... s with 2 jobs on 2 cores (sandboxed as root): ... students/min

Fake submissions come from the current lessons: for each student and lesson, either the lesson as
handed out (every exercise a stub) or the solution notebook under the lesson's name (a student
who pasted the answers), so the grader runs the same cells a real cohort makes it run.
Prints figures only; nothing here passes or fails.
"""
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("WORKBOOK_OFFLINE", "1")  # a benchmark never reaches Gemini

from harness.workbook import LESSONS, SOLUTIONS  # noqa: E402
from harness.workbook.grade import grade  # noqa: E402
from harness.workbook.runner import exercise_ids, pristine_lessons  # noqa: E402
from harness.workbook.sandbox import can_isolate  # noqa: E402


def make_submissions(folder: Path, students: int, lessons: list[str]) -> None:
    """One folder per student; about two lessons in three solved, in a pattern that varies by student."""
    for s in range(students):
        student = folder / f"student{s:02d}"
        student.mkdir(parents=True)
        for n, lesson in enumerate(lessons):
            solved = (s + n) % 3 != 0
            shutil.copy((SOLUTIONS if solved else LESSONS) / f"{lesson}.ipynb", student / f"{lesson}.ipynb")


def bench_grading(students: int = 10, lessons: int = 3, jobs: int = 2) -> float:
    """Grade a fake cohort; print and return the throughput in students per minute."""
    expected = {name: nb for name, nb in pristine_lessons().items() if exercise_ids(nb)}
    chosen = dict(list(expected.items())[:lessons])
    if len(chosen) < lessons or not all((LESSONS / f"{name}.ipynb").is_file() for name in chosen):
        sys.exit(f"Need {lessons} built lessons with exercises in {LESSONS}: run `python -m harness build` first.")
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        make_submissions(Path(tmp) / "submissions", students, list(chosen))
        started = time.monotonic()
        grade(Path(tmp) / "submissions", Path(tmp) / "out", chosen, jobs=jobs)
        seconds = time.monotonic() - started
    rate = students / seconds * 60
    print(f"graded {students} students x {len(chosen)} lessons ({', '.join(chosen)}) in {seconds:.0f} s "
          f"with {jobs} jobs on {os.cpu_count()} cores ({'sandboxed as root' if can_isolate() else 'not root'}): {rate:.1f} students/min, "
          f"{seconds / (students * len(chosen)):.2f} s per notebook")

    return rate


if __name__ == "__main__":
    bench_grading(*(int(arg) for arg in sys.argv[1:3]))
