"""Every lesson's honest answers graded, a lesson at a time: mis-graded, CPU-s, peak MiB a notebook.

    $ .venv/bin/python benchmarks/bench_cohort.py 2   # 2 honest copies and 1 stub of every lesson
    lesson                     notebooks  exercises  mis-graded  CPU-s/notebook  peak MiB  wall s
    00_first_call                      3          3           0             2.9       412      11
    ...
    all 13 lessons: 39 notebooks, 0 of 66 exercises mis-graded, 5.6 CPU-s a notebook, peak 690 MiB

The lessons are every notebook of solutions/ (a glob: lessons added by other branches come in on
their own). For each lesson, STUDENTS students hand in the solution notebook under the lesson's
name (an honest answer: every exercise must be `passed`) and one student hands in the lesson as
shipped (every exercise must be `not attempted`); anything else is counted as mis-graded and
printed. Each lesson is graded on its own, one notebook at a time (`--jobs 1`), so its CPU and
its memory peak belong to that lesson alone. CPU is the cgroup's (`cpuacct.usage` of a cgroup v1
this process moves itself into, as root: every descendant counts, a kernel killed at the end of its
notebook and a jailed process included); elsewhere user+sys of the processes this one waited for
(`RUSAGE_CHILDREN`, which misses a process killed before its parent reaped it: lower). Memory is
the PSS of the grader and all its descendants at once, sampled every half second (bench_grading.py).
Prints figures only; nothing here passes or fails.
"""

import atexit
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("WORKBOOK_OFFLINE", "1")  # a benchmark never reaches Gemini

from bench_grading import PeakMemory, cpu_seconds  # noqa: E402

from harness.workbook import LESSONS, SOLUTIONS  # noqa: E402
from harness.workbook.grade import grade  # noqa: E402
from harness.workbook.runner import exercise_ids, pristine_lessons  # noqa: E402
from harness.workbook.sandbox import can_isolate  # noqa: E402

MIB = 1 << 20
CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def cgroup_cpu() -> tuple[str, object]:
    """("cgroup", a function giving the CPU-seconds of this process tree so far), the cgroup v1 way,
    or ("rusage", the waited-for children's) where this process cannot make a cgroup."""
    group = CPUACCT / f"workbook-bench-cohort-{os.getpid()}"
    try:
        group.mkdir()
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        return "rusage", cpu_seconds

    def leave() -> None:  # back to the root cgroup, so that this one can go
        (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
        group.rmdir()

    atexit.register(leave)
    return "cgroup", lambda: int((group / "cpuacct.usage").read_text()) / 1e9


def lessons_with_exercises() -> dict:
    """Lesson name -> pristine notebook, for every solutions/NN_*.ipynb that has a check."""
    pristine = pristine_lessons()
    names = sorted(path.stem for path in SOLUTIONS.glob("[0-9]*.ipynb"))
    return {
        name: pristine[name] for name in names if name in pristine and exercise_ids(pristine[name])
    }


def make_submissions(folder: Path, lesson: str, honest: int) -> dict[str, str]:
    """Student -> the status every exercise of theirs deserves."""
    deserved = {}
    for n in range(honest):
        deserved[f"honest-{n}"] = "passed"
        (folder / f"honest-{n}").mkdir(parents=True)
        shutil.copy(SOLUTIONS / f"{lesson}.ipynb", folder / f"honest-{n}" / f"{lesson}.ipynb")
    deserved["stub"] = "not attempted"
    (folder / "stub").mkdir(parents=True)
    shutil.copy(LESSONS / f"{lesson}.ipynb", folder / "stub" / f"{lesson}.ipynb")
    return deserved


def mis_graded(cohort: dict, deserved: dict[str, str]) -> list[str]:
    """`student exercise: status (message)` for each exercise not graded as it deserves."""
    wrong = []
    for student, status in deserved.items():
        for r in cohort.get(student, {}).get("results", []):
            if r.exercise != "-" and r.status != status:
                wrong.append(
                    f"{student} {r.exercise}: {r.status} "
                    f"({r.message.splitlines()[0][:160] if r.message else ''})"
                )
    return wrong


def bench_lesson(lesson: str, notebook, honest: int, cpu) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-cohort-") as tmp:
        deserved = make_submissions(Path(tmp) / "submissions", lesson, honest)
        sampler, cpu_before, started = PeakMemory(), cpu(), time.monotonic()
        sampler.start()
        with open(os.devnull, "w") as quiet:
            cohort = grade(
                Path(tmp) / "submissions",
                Path(tmp) / "out",
                {lesson: notebook},
                jobs=1,
                progress=quiet,
            )
        seconds, used = time.monotonic() - started, cpu() - cpu_before
        sampler.done.set()
        sampler.join()
    exercises = len(exercise_ids(notebook)) * len(deserved)
    return {
        "notebooks": len(deserved),
        "exercises": exercises,
        "wrong": mis_graded(cohort, deserved),
        "cpu": used / len(deserved),
        "peak": sampler.peak / MIB,
        "wall": seconds,
    }


def bench_cohort(honest: int = 2) -> list[str]:
    """Grade every lesson's cohort; print a row per lesson and a total; return the mis-graded."""
    lessons = lessons_with_exercises()
    how, cpu = cgroup_cpu()
    print(
        f"{len(lessons)} lessons, {honest} honest + 1 stub each, one notebook at a time, "
        f"CPU by {how}, "
        f"{'sandboxed as root' if can_isolate() else 'not root'}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    print(
        f"{'lesson':<34}{'notebooks':>10}{'exercises':>10}{'mis-graded':>11}{'CPU-s/notebook':>15}"
        f"{'peak MiB':>9}{'wall s':>7}"
    )
    figures, wrong = [], []
    for lesson, notebook in lessons.items():
        row = bench_lesson(lesson, notebook, honest, cpu)
        figures.append(row)
        wrong += [f"{lesson} {w}" for w in row["wrong"]]
        print(
            f"{lesson:<34}{row['notebooks']:>10}{row['exercises']:>10}{len(row['wrong']):>11}"
            f"{row['cpu']:>15.1f}"
            f"{row['peak']:>9.0f}{row['wall']:>7.0f}",
            flush=True,
        )
    notebooks = sum(r["notebooks"] for r in figures)
    average = sum(r["cpu"] * r["notebooks"] for r in figures) / max(notebooks, 1)
    print(
        f"all {len(lessons)} lessons: {notebooks} notebooks, {len(wrong)} of "
        f"{sum(r['exercises'] for r in figures)} exercises mis-graded, "
        f"{average:.1f} CPU-s a notebook, "
        f"peak {max((r['peak'] for r in figures), default=0):.0f} MiB; "
        f"load average {os.getloadavg()[0]:.1f} at the end"
    )
    for line in wrong:
        print("  mis-graded:", line)
    return wrong


if __name__ == "__main__":
    bench_cohort(*(int(arg) for arg in sys.argv[1:2]))
