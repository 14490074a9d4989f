"""`python -m harness grade SUBMISSIONS_DIR`: grade a cohort, one folder of notebooks per student.

    submissions/                      $ python -m harness grade submissions --out grades
      ada/03_budgeted_assembly.ipynb  grading [##############################] 2/2 students
      ada/04_truncation.ipynb         Graded 2 students on 2 lessons (4 exercises) in 14 s ...
      bob/03_budgeted_assembly.ipynb  wrote grades/gradebook.csv and grades/gradebook.html

Every student's notebooks run on copies in a temporary folder (never in place), students in
parallel, one at a time per core by default. The expected lessons are the ones the build makes
from solutions/; a lesson missing from a folder is graded `missing`, a notebook that is not valid
JSON or a cell that never ends is graded `error` with the reason, and grading goes on.
`gradebook.csv` has one row per student and exercise; `gradebook.html` (plotly, works offline)
charts the pass rate per exercise and per student. Notebooks run on the glass box unless
`--online` is given: 40 students on Gemini would cost money and give answers that vary.
"""
import argparse
import csv
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import nbformat

from harness.workbook.check import lesson_notebooks
from harness.workbook.runner import STATUSES, Result, exercise_ids, pristine_exercises, run_notebooks, whole_lesson

BAR_WIDTH = 30


def reference_exercises(folder: Path | None = None) -> dict[str, list[str]]:
    """Lesson name -> exercise ids, from a folder of pristine lessons (default: built from solutions/)."""
    if folder is None:
        return pristine_exercises()
    return {p.stem: exercise_ids(nbformat.read(p, as_version=4)) for p in lesson_notebooks(folder)}


def find_student_folders(submissions: Path) -> dict[str, Path]:
    """Student name -> folder: every visible sub-folder of `submissions`."""
    return {p.name: p for p in sorted(submissions.iterdir()) if p.is_dir() and not p.name.startswith(".")}


def find_notebook(folder: Path, lesson: str) -> Path | None:
    """The student's copy of `lesson` anywhere in their folder (nearest first), skipping checkpoints."""
    found = [p for p in folder.rglob(f"{lesson}.ipynb") if ".ipynb_checkpoints" not in p.parts]
    return min(found, key=lambda p: len(p.parts)) if found else None


def grade_student(folder: Path, lessons: dict[str, list[str]], cell_timeout: float, offline: bool) -> list[Result]:
    """One student's results for every expected lesson (name -> exercise ids)."""
    found = {lesson: find_notebook(folder, lesson) for lesson in lessons}
    results = run_notebooks({n: p for n, p in found.items() if p}, cell_timeout, offline, lessons) if any(found.values()) else []
    for lesson in (n for n, p in found.items() if not p):
        results += whole_lesson(lesson, lessons[lesson], "missing", f"no {lesson}.ipynb in the submission")
    order = list(lessons)
    return sorted(results, key=lambda r: order.index(r.lesson))


def progress_line(done: int, total: int) -> str:
    """`grading [###.......] 3/10 students`"""
    filled = BAR_WIDTH * done // max(total, 1)
    return f"grading [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} students"


def grade(submissions: Path, jobs: int | None = None, cell_timeout: float = 60, offline: bool = True,
          lessons: dict[str, list[str]] | None = None, progress=sys.stderr) -> dict[str, list[Result]]:
    """Student -> results, grading students in parallel; progress is drawn on `progress`."""
    lessons = reference_exercises() if lessons is None else lessons
    students = find_student_folders(submissions)
    graded = {}
    # Threads are enough: each student's notebooks run in a pytest process (and a kernel) of their own.
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        futures = {pool.submit(grade_student, folder, lessons, cell_timeout, offline): name
                   for name, folder in students.items()}
        for future in as_completed(futures):
            graded[futures[future]] = future.result()
            end = "\r" if progress.isatty() and len(graded) < len(students) else "\n"
            print(progress_line(len(graded), len(students)), end=end, file=progress, flush=True)
    return dict(sorted(graded.items()))


def write_csv(graded: dict[str, list[Result]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["student", "lesson", "exercise", "status", "message"])
        for student, results in graded.items():
            writer.writerows([student, r.lesson, r.exercise, r.status, r.message] for r in results)


def pass_rates(graded: dict[str, list[Result]]) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """(exercise -> status -> share of students, student -> share of their exercises passed)."""
    per_exercise: dict[str, dict[str, float]] = {}
    rows = [r for results in graded.values() for r in results if r.exercise != "-"]
    for exercise in sorted({r.exercise for r in rows}, key=lambda e: [int(x) for x in e.split(".")]):
        mine = [r.status for r in rows if r.exercise == exercise]
        per_exercise[exercise] = {s: mine.count(s) / len(mine) for s in STATUSES}
    per_student = {}
    for student, results in graded.items():
        mine = [r for r in results if r.exercise != "-"]
        per_student[student] = sum(r.status == "passed" for r in mine) / len(mine) if mine else 0.0
    return per_exercise, per_student


def write_html(graded: dict[str, list[Result]], path: Path) -> None:
    """Two plotly charts with plotly.js inlined, so the page opens without a network."""
    import plotly.graph_objects as go

    per_exercise, per_student = pass_rates(graded)
    colours = {"passed": "#2a9d8f", "failed": "#e76f51", "not attempted": "#bbbbbb", "error": "#6d597a",
               "missing": "#e9c46a"}
    by_exercise = go.Figure([go.Bar(name=s, x=list(per_exercise), y=[100 * v[s] for v in per_exercise.values()],
                                    marker_color=colours[s]) for s in STATUSES])
    by_exercise.update_layout(barmode="stack", title="Each exercise across the cohort (% of students)",
                              xaxis_title="exercise", xaxis_type="category", yaxis_title="% of students")
    ranked = sorted(per_student.items(), key=lambda item: item[1])
    by_student = go.Figure(go.Bar(x=[100 * v for _, v in ranked], y=[s for s, _ in ranked], orientation="h",
                                  marker_color=colours["passed"]))
    by_student.update_layout(title="Each student: % of exercises passed", xaxis_range=[0, 100],
                             height=200 + 22 * len(ranked))
    body = by_exercise.to_html(full_html=False, include_plotlyjs=True) + \
        by_student.to_html(full_html=False, include_plotlyjs=False)
    path.write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>Gradebook</title></head>"
                    f"<body><h1>Gradebook</h1><p>{summary(graded)}</p>{body}</body></html>", encoding="utf-8")


def summary(graded: dict[str, list[Result]]) -> str:
    rows = [r for results in graded.values() for r in results if r.exercise != "-"]
    counts = ", ".join(f"{n} {s}" for s in STATUSES if (n := sum(r.status == s for r in rows)))
    share = sum(r.status == "passed" for r in rows) / len(rows) if rows else 0
    return f"{len(graded)} students, {len(rows)} graded exercises: {share:.0%} passed ({counts or 'none'})."


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness grade", description=__doc__.split("\n")[0])
    parser.add_argument("submissions", type=Path, metavar="SUBMISSIONS_DIR", help="one sub-folder per student")
    parser.add_argument("--out", type=Path, default=Path("."), metavar="DIR", help="where the gradebook goes (default: .)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N", help="students graded at once (default: one per core)")
    parser.add_argument("--cell-timeout", type=float, default=60, metavar="S", help="interrupt a cell after S seconds (default 60)")
    parser.add_argument("--lessons", type=Path, default=None, metavar="DIR",
                        help="the pristine lessons to grade against (default: the ones built from solutions/)")
    parser.add_argument("--online", action="store_true", help="keep a Gemini key in the environment active (costs money)")
    args = parser.parse_args(argv)
    if not args.submissions.is_dir() or not find_student_folders(args.submissions):
        print(f"{args.submissions} is not a folder of student folders. Put each student's notebooks "
              f"in a folder of their own inside it, e.g. {args.submissions}/ada/03_budgeted_assembly.ipynb.", file=sys.stderr)
        return 2
    lessons = reference_exercises(args.lessons)
    if not lessons:
        print(f"No lessons to grade against in {args.lessons or 'solutions/'}. Give --lessons DIR "
              "(a folder of lesson notebooks) or build the course first.", file=sys.stderr)
        return 2
    started = time.monotonic()
    graded = grade(args.submissions, args.jobs, args.cell_timeout, offline=not args.online, lessons=lessons)
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(graded, args.out / "gradebook.csv")
    write_html(graded, args.out / "gradebook.html")
    print(f"Graded in {time.monotonic() - started:.0f} s. {summary(graded)}")
    print(f"Wrote {args.out / 'gradebook.csv'} and {args.out / 'gradebook.html'}.")
    return 0
