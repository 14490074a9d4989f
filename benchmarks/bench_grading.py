"""How fast `python -m harness grade` gets through a cohort: 10 students x 3 lessons by default.

    $ .venv/bin/python benchmarks/bench_grading.py          # or: bench_grading(students=10)
    grading [##############################] 10/10 students
    graded 10 students x 3 lessons (...) in ... s with 2 jobs on 2 cores (sandboxed as root): ... students/min
    CPU: ... s per student (user+sys of the grader and its kernels); memory: grader ... MiB, ...

The CPU figure is what a loaded machine does not change: user+sys of this process and of every
child it waited for (each kernel, through `resource.getrusage(RUSAGE_CHILDREN)`; a process a
notebook detached is not counted). Memory is given three ways: the grader's own peak (`ru_maxrss`),
and, sampled from /proc every half second, the PSS of the largest kernel and of the whole process
tree at once (the grader and all its descendants), which is what --jobs costs in RAM. A child's
`ru_maxrss` is no use here: Linux counts in it the grader's size when the kernel was started.

Fake submissions come from the current lessons: for each student and lesson, either the lesson as
handed out (every exercise a stub) or the solution notebook under the lesson's name (a student
who pasted the answers), so the grader runs the same cells a real cohort makes it run.
Prints figures only; nothing here passes or fails.
"""

import os
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("WORKBOOK_OFFLINE", "1")  # a benchmark never reaches Gemini

from harness.workbook import LESSONS, SOLUTIONS  # noqa: E402
from harness.workbook.grade import grade  # noqa: E402
from harness.workbook.runner import exercise_ids, pristine_lessons  # noqa: E402
from harness.workbook.sandbox import can_isolate  # noqa: E402

# Names from several scripts, and pairs a lossy file name would merge (Zoé/Zoë, 王伟/李娜, case,
# spaces).
NAMES = [
    "Zoé",
    "Zoë",
    "王伟",
    "李娜",
    "Ольга",
    "محمد",
    "Nguyễn Văn An",
    "ann lee",
    "Ann Lee",
    "annlee",
    " =1+1",
    "\t=1+1",
]


def student_name(index: int) -> str:
    return NAMES[index] if index < len(NAMES) else f"{NAMES[index % len(NAMES)]} {index}"


def is_solved(student: int, lesson: int) -> bool:
    return (student + lesson) % 3 != 0


def make_submissions(folder: Path, students: int, lessons: list[str]) -> None:
    """One folder per student; about two lessons in three solved, in a pattern that varies by
    student."""
    for s in range(students):
        student = folder / student_name(s)
        student.mkdir(parents=True)
        for n, lesson in enumerate(lessons):
            shutil.copy(
                (SOLUTIONS if is_solved(s, n) else LESSONS) / f"{lesson}.ipynb",
                student / f"{lesson}.ipynb",
            )


def graded_right(cohort: dict, students: int, lessons: list[str]) -> tuple[int, int]:
    """(exercises graded as they deserve, exercises): passed where solved, not attempted where a
    stub."""
    right = total = 0
    for s in range(students):
        results = cohort.get(student_name(s), {}).get("results", [])
        for n, lesson in enumerate(lessons):
            mine = [r for r in results if r.lesson == lesson and r.exercise != "-"]
            total += len(mine)
            right += sum(
                r.status == ("passed" if is_solved(s, n) else "not attempted") for r in mine
            )
    return right, total


def tree_memory(root_pid: int) -> dict[int, int]:
    """pid -> bytes of memory (PSS, else RSS) right now, for `root_pid` and all its descendants."""
    parents = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:  # the field after the command's closing parenthesis: state, then the parent's pid
                parents[int(entry.name)] = int(
                    Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue  # ended meanwhile
    tree, grew = {root_pid}, True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    sizes = {}
    # only the tree: reading every process's smaps would cost this process more than it measures
    for pid in tree:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup")
            lines = (
                (rollup if rollup.exists() else Path(f"/proc/{pid}/status"))
                .read_text()
                .splitlines()
            )
            sizes[pid] = 1024 * next(
                int(line.split()[1]) for line in lines if line.startswith(("Pss:", "VmRSS:"))
            )
        except (OSError, StopIteration, IndexError, ValueError):
            continue  # ended meanwhile, or a zombie without memory
    return sizes


class PeakMemory(threading.Thread):
    """Samples `tree_memory` of this process every `every` seconds until stopped: `.peak` is the
    most the whole tree held at once, `.largest_child` the most one descendant (a kernel) held."""

    def __init__(self, every: float = 0.5):
        super().__init__(daemon=True)
        self.every, self.peak, self.largest_child, self.done = every, 0, 0, threading.Event()

    def run(self):
        while not self.done.wait(self.every):
            sizes = tree_memory(os.getpid())
            self.peak = max(self.peak, sum(sizes.values()))
            self.largest_child = max(
                [self.largest_child] + [size for pid, size in sizes.items() if pid != os.getpid()]
            )


def cpu_seconds() -> float:
    """user+sys so far of this process and of the children it has waited for."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bench_grading(students: int = 10, lessons: int = 3, jobs: int = 2) -> float:
    """Grade a fake cohort; print and return the throughput in students per minute."""
    expected = {name: nb for name, nb in pristine_lessons().items() if exercise_ids(nb)}
    chosen = dict(list(expected.items())[:lessons])
    if len(chosen) < lessons or not all((LESSONS / f"{name}.ipynb").is_file() for name in chosen):
        sys.exit(
            f"Need {lessons} built lessons with exercises in {LESSONS}: run `python -m harness"
            " build` first."
        )
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        make_submissions(Path(tmp) / "submissions", students, list(chosen))
        sampler, cpu_before = PeakMemory(), cpu_seconds()
        sampler.start()
        started = time.monotonic()
        cohort = grade(Path(tmp) / "submissions", Path(tmp) / "out", chosen, jobs=jobs)
        seconds = time.monotonic() - started
        cpu = cpu_seconds() - cpu_before
        sampler.done.set()
        sampler.join()
    rate = students / seconds * 60
    mib = 1 << 20
    load = os.getloadavg()[0]
    print(
        f"graded {students} students x {len(chosen)} lessons ({', '.join(chosen)}) in {seconds:.0f}"
        f" s with {jobs} jobs on {os.cpu_count()} cores"
        f" ({'sandboxed as root' if can_isolate() else 'not root'}): {rate:.1f} students/min,"
        f" {seconds / (students * len(chosen)):.2f} s per notebook"
    )
    print(
        f"CPU: {cpu / students:.1f} s per student, {cpu / (students * len(chosen)):.1f} s per"
        f" notebook (user+sys of the grader and its kernels; {cpu / seconds:.2f} cores busy on"
        f" average, load average {load:.1f} at the end)"
    )
    print(
        f"memory: grader {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / mib:.0f} MiB"
        f" at its peak, largest kernel {sampler.largest_child / mib:.0f} MiB, grader and its {jobs}"
        f" jobs' kernels together {sampler.peak / mib:.0f} MiB at the peak (PSS, sampled every"
        f" {sampler.every:g} s)"
    )
    right, total = graded_right(cohort, students, list(chosen))
    print(
        f"graded right: {right} of {total} exercises ({len(cohort)} students in the gradebook,"
        " names in several scripts)"
    )

    return rate


if __name__ == "__main__":
    bench_grading(*(int(arg) for arg in sys.argv[1:3]))
