"""`python -m harness grade SUBMISSIONS_DIR`: grade a cohort, one folder per student.

    submissions/                                    $ python -m harness grade submissions --out grades
      ada/lessons/03_budgeted_assembly.ipynb        grading [##############################] 2/2 students
      ada/solutions/03_budgeted_assembly.ipynb      Graded in 14 s. 2 students, 4 graded exercises: ...
      bob/03_budgeted_assembly.ipynb                Skipped 1 file(s) (see grades/gradebook.html):
                                                      ada/solutions/03_budgeted_assembly.ipynb: ...

A student's folder is their `lessons/` folder or anything holding one (a hub home, a clone): only
notebooks named like a lesson, directly in the folder or in a `lessons/` folder inside it, are
graded; `solutions/`, checkpoints, backups and every other file are skipped, each with its reason.
Each notebook runs with the lesson's own check cells (`restore.py`) in a sandbox of its own
(`sandbox.py`), students in parallel; each exercise is then checked outside the kernel, rebuilt from
the notebook's source (`runner.py`). `--share-of-rules 3.1` (or `all`) marks that exercise in
lms.csv by the share of its rules passed instead of all-or-nothing. Results go to `--out` as each
student is done and merge into what is there: `--student ada --lesson 03` regrades one student's one
lesson and nothing else. Run again after a crash (or when a few students hand in late), `grade`
keeps every lesson already graded on the same submission (SHA-256) against the same pristine lesson
and runs the rest; `--force` regrades everything, and a student named with `--student` is always
regraded. Processes left by a grader that was killed are killed when the next one starts. Notebooks
run on the glass box unless `--online` is given, with PYTHONHASHSEED=0; each check also draws inputs
from a seed of this run's own that no student can know. `--out` is made the grading account's alone
(0700, its files 0600): on a hub, a student could otherwise read the class's grades.
"""

import argparse
import hashlib
import secrets
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import nbformat

from harness.plumbing.arguments import command_line_number
from harness.workbook import gradebook, names_lesson
from harness.workbook.runner import (
    Result,
    exercise_ids,
    pristine_lessons,
    run_notebooks,
    whole_lesson,
)
from harness.workbook.sandbox import enforcement, kill_leftovers

BAR_WIDTH = 30
SKIPPED_FOLDERS = {
    "solutions": "the reference answers are never graded",
    ".ipynb_checkpoints": "a Jupyter checkpoint",
}


def reference_lessons(folder: Path | None = None) -> dict[str, nbformat.NotebookNode]:
    """Lesson name -> pristine lesson, from a folder of lessons (default: built from solutions/)."""
    if folder is None:
        return pristine_lessons()
    return {
        p.stem: nbformat.read(p, as_version=4)
        for p in sorted(folder.glob("*.ipynb"))
        if ".backup-" not in p.name
    }


def find_student_folders(submissions: Path) -> tuple[dict[str, Path], list[dict]]:
    """Student name -> folder (every visible sub-folder), and what was skipped at the top."""
    students, skipped = {}, []
    for path in sorted(submissions.iterdir()):
        if path.name.startswith("."):
            skipped.append({"path": path.name, "reason": "a hidden file or folder"})
        elif path.is_dir() and not path.is_symlink():
            students[path.name] = path
        else:
            skipped.append(
                {
                    "path": path.name,
                    "reason": (
                        "not a student's folder (put each student's work in a folder of their own)"
                    ),
                }
            )
    return students, skipped


def collect(folder: Path, lessons: list[str]) -> tuple[dict[str, Path], list[dict]]:
    """The student's copy of each lesson, and every other notebook with the reason it is not
    graded."""
    found, skipped = {}, []
    for path in sorted(folder.rglob("*.ipynb")):
        relative = path.relative_to(folder)
        parts = relative.parts[:-1]
        reason = next((why for part, why in SKIPPED_FOLDERS.items() if part in parts), None)
        if reason is None and any(p.startswith(".") for p in parts):
            reason = "inside a hidden folder"
        elif reason is None and path.is_symlink():
            reason = "a link, not a file"
        elif reason is None and ".backup-" in path.name:
            reason = "a backup kept by reset or build"
        elif reason is None and parts and parts[-1] != "lessons":
            reason = "not in the student's folder itself nor in a lessons/ folder"
        elif reason is None and path.stem not in lessons:
            near = (
                [n for n in lessons if names_lesson(path.name[:2], n + ".ipynb")]
                if path.name[:2].isdigit()
                else []
            )
            reason = (
                f"not a lesson of the course (renamed? the lesson is {near[0]}.ipynb)"
                if near
                else "not a lesson of the course"
            )
        elif reason is None and path.stem in found:
            reason = (
                f"another copy of {path.stem}; {found[path.stem].relative_to(folder)} is graded"
            )
        if reason:
            skipped.append({"path": str(relative), "reason": reason})
        else:
            found[path.stem] = path
    return found, skipped


def fingerprints(
    found: dict[str, Path], lessons: dict[str, nbformat.NotebookNode]
) -> dict[str, dict]:
    """Lesson -> the SHA-256 of the student's copy (None when missing) and of the pristine
    lesson."""

    def sha256(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    return {
        lesson: {
            "submission_sha256": sha256(found[lesson].read_bytes()) if lesson in found else None,
            "lesson_sha256": sha256(nbformat.writes(notebook).encode()),
        }
        for lesson, notebook in lessons.items()
    }


def grade_student(
    found: dict[str, Path],
    skipped: list[dict],
    lessons: dict[str, nbformat.NotebookNode],
    cell_timeout: float,
    offline: bool,
    hide: list[Path],
    seed: int,
) -> dict[str, list[Result]]:
    """One student's results, lesson -> Results, from their copies (`collect`) and what was skipped;
    `seed` draws the hidden inputs, the same for every student of a run."""
    expected = {lesson: exercise_ids(notebook) for lesson, notebook in lessons.items()}
    results = (
        run_notebooks(
            found,
            cell_timeout,
            offline,
            expected,
            pristine=lessons,
            isolated=True,
            hide=hide,
            seed=seed,
        )
        if found
        else []
    )
    graded = {}
    for lesson in lessons:
        graded[lesson] = [r for r in results if r.lesson == lesson]
        if lesson not in found:
            renamed = [s["path"] for s in skipped if f"the lesson is {lesson}.ipynb" in s["reason"]]
            why = f"no {lesson}.ipynb in the submission" + (
                f" (found {', '.join(renamed)}: renamed?)" if renamed else ""
            )
            graded[lesson] = whole_lesson(lesson, expected[lesson], "missing", why)
    return graded


def progress_line(done: int, total: int) -> str:
    """`grading [###.......] 3/10 students`"""
    filled = BAR_WIDTH * done // max(total, 1)
    return f"grading [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} students"


def grade(
    submissions: Path,
    out: Path,
    lessons: dict[str, nbformat.NotebookNode],
    students: list[str] | None = None,
    jobs: int | None = None,
    cell_timeout: float = 60,
    offline: bool = True,
    progress=sys.stderr,
    force: bool = False,
    share_of_rules: tuple[str, ...] = (),
) -> dict:
    """Grade the chosen students on `lessons`, recording each as they finish; return the whole
    cohort.

    A lesson already in `out` for a student, graded on the same submission against the same
    pristine lesson, is not run again unless the student is named in `students` or `force`.
    Raises `gradebook.GradebookError` before grading anything when `out` must not be merged into."""
    folders, _ = find_student_folders(submissions)
    chosen = {n: f for n, f in folders.items() if not students or n in students}
    saved = gradebook.check_merge(out, list(lessons), list(chosen))
    gradebook.close(out)
    gradebook.remove_partials(out)
    hide = [submissions.resolve(), out.resolve()]
    enforced = enforcement(online=not offline)
    if killed := kill_leftovers():
        print(
            f"Killed {killed} process(es) left running by a grader that was stopped.", file=progress
        )
    work, kept = {}, 0  # student -> (their copies, files skipped, fingerprints, the lessons to run)
    for name, folder in chosen.items():
        found, skipped = collect(folder, list(lessons))
        prints = fingerprints(found, lessons)
        entry = None if force or name in (students or []) else saved.get(name)
        todo = {
            lesson: nb
            for lesson, nb in lessons.items()
            if not gradebook.unchanged(entry, {lesson: prints[lesson]})
        }
        kept += len(lessons) - len(todo)
        if todo:
            work[name] = {k: v for k, v in found.items() if k in todo}, skipped, prints, todo
    if kept:
        print(
            f"Kept {kept} of {len(chosen) * len(lessons)} results (student x lesson) already graded"
            " on these very submissions; --force regrades them.",
            file=progress,
        )
    # the hidden inputs' seed: this run's alone
    lock, done, seed = (
        threading.Lock(),
        0,
        secrets.randbits(48),
    )
    # Threads are enough: each notebook runs in a kernel process of its own.
    with ThreadPoolExecutor(max_workers=jobs or 2) as pool:
        futures = {
            pool.submit(
                grade_student, found, skipped, todo, cell_timeout, offline, hide, seed
            ): name
            for name, (found, skipped, _, todo) in work.items()
        }
        for future in as_completed(futures):
            name = futures[future]
            try:
                graded = future.result()
            except Exception as error:  # one student's notebook never stops the others being graded
                reason = (
                    f"the grader could not grade this submission ({type(error).__name__}:"
                    f" {str(error)[:200]})"
                )
                graded = {
                    lesson: whole_lesson(lesson, exercise_ids(nb), "error", reason)
                    for lesson, nb in work[name][3].items()
                }
            with lock:
                gradebook.record(out, name, graded, work[name][1], work[name][2])
                gradebook.export(out, enforced, share_of_rules)
                done += 1
            end = "\r" if progress.isatty() and done < len(work) else "\n"
            print(progress_line(done, len(work)), end=end, file=progress, flush=True)
    return gradebook.export(out, enforced, share_of_rules)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness grade", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "submissions", type=Path, metavar="SUBMISSIONS_DIR", help="one sub-folder per student"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("grades"),
        metavar="DIR",
        help="where the gradebook goes (default: grades)",
    )
    parser.add_argument(
        "--student",
        action="append",
        metavar="NAME",
        help="grade only this student (repeatable); merges",
    )
    parser.add_argument(
        "--lesson",
        action="append",
        metavar="LESSON",
        help="grade only this lesson, e.g. 03 (repeatable); merges",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help=(
            "regrade students already graded on the same submissions (default: keep their results)"
        ),
    )
    parser.add_argument(
        "--jobs",
        type=command_line_number(1, 64, "--jobs", int),
        default=None,
        metavar="N",
        help="students graded at once (default 2)",
    )
    parser.add_argument(
        "--cell-timeout",
        type=command_line_number(1, 86_400, "--cell-timeout"),
        default=60,
        metavar="S",
        help=(
            "interrupt a cell after S seconds, and give each exercise's function S CPU-seconds"
            " (default 60)"
        ),
    )
    parser.add_argument(
        "--lessons",
        type=Path,
        default=None,
        metavar="DIR",
        help="the pristine lessons to grade against (default: the ones built from solutions/)",
    )
    parser.add_argument(
        "--share-of-rules",
        action="append",
        default=[],
        metavar="EXERCISE",
        help=(
            "in lms.csv, mark this exercise (e.g. 3.1, or all) by the share of its rules passed "
            "instead of all-or-nothing (repeatable)"
        ),
    )
    parser.add_argument(
        "--online",
        action="store_true",
        help="keep a Gemini key in the environment active (costs money)",
    )
    args = parser.parse_args(argv)
    if not args.submissions.is_dir() or not find_student_folders(args.submissions)[0]:
        print(
            f"{args.submissions} is not a folder of student folders. Put each student's notebooks"
            " in a folder of their own inside it, e.g."
            f" {args.submissions}/ada/03_budgeted_assembly.ipynb.",
            file=sys.stderr,
        )
        return 2
    lessons = reference_lessons(args.lessons)
    if args.lesson:
        lessons = {
            n: nb
            for n, nb in lessons.items()
            if any(names_lesson(w, n + ".ipynb") for w in args.lesson)
        }
    if not lessons:
        print(
            "No lessons to grade against in"
            f" {args.lessons or 'solutions/'}{' matching ' + ', '.join(args.lesson) if args.lesson else ''}."
            " Give --lessons DIR (a folder of lesson notebooks), a --lesson that exists, or build"
            " the course first.",
            file=sys.stderr,
        )
        return 2
    folders, top_skipped = find_student_folders(args.submissions)
    unknown = [s for s in args.student or [] if s not in folders]
    if unknown:
        print(
            f"No folder for {', '.join(unknown)} in {args.submissions}. Students:"
            f" {', '.join(folders)}.",
            file=sys.stderr,
        )
        return 2
    started = time.monotonic()
    try:
        cohort = grade(
            args.submissions,
            args.out,
            lessons,
            args.student,
            args.jobs,
            args.cell_timeout,
            offline=not args.online,
            force=args.force,
            share_of_rules=tuple(args.share_of_rules),
        )
    except gradebook.GradebookError as error:
        print(f"Nothing graded: {error}", file=sys.stderr)
        return 2
    print(f"Graded in {time.monotonic() - started:.0f} s. {gradebook.summary(cohort)}")
    for item in top_skipped:
        print(f"Skipped {item['path']}: {item['reason']}.")
    skipped = sum(len(student["skipped"]) for student in cohort.values())
    if skipped:
        print(
            f"Skipped {skipped} file(s) inside student folders: see 'Needs a look' in"
            f" {args.out / 'gradebook.html'}."
        )
    print(
        f"Wrote {args.out / 'gradebook.csv'}, {args.out / 'lms.csv'},"
        f" {args.out / 'gradebook.html'}, {args.out / 'projector.html'} and"
        f" {args.out / 'feedback'}/, for this account alone (folders 0700, files 0600): copy a"
        " student's feedback to them yourself."
    )
    return 0
