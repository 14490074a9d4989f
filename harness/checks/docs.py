"""INSTRUCTORS.md's tables of exercises, made from the checks themselves.

The first block comes from the check registry (each check's docstring says what it holds the answer
to); the second from the wrong-answer fixtures of tests/test_wrong_answers_*.py, each run through
its check now, so the messages shown are the ones a student gets. 14.1's wrong configurations run
whole sessions, so their fixture records the rule each one's check states (a test re-measures it)
and the row shows that recording with the check's hint. Each block sits between `<!-- generated:
NAME -->` and `<!-- end generated -->`; tests/test_instructors_docs.py fails when the file is out of
date, and this rewrites it. The timing table of "How long each lesson takes" lists each lesson's
exercises from the registry too (its measured and estimated columns are written by hand; a new
lesson's row comes with them marked as still to fill):

    python -m harness.checks.docs
"""

import functools
import importlib.util
import inspect
import re
import statistics
import sys
from pathlib import Path

from harness.checks import TIME_LIMIT, compare, exercises, reference, run_check

ROOT = Path(__file__).resolve().parents[2]
INSTRUCTORS = ROOT / "INSTRUCTORS.md"
FIXTURE_MODULES = (
    "test_wrong_answers_00_03",
    "test_wrong_answers_04_06",
    "test_wrong_answers_07_14",
    "test_wrong_answers_09",
    "test_wrong_answers_10",
    "test_wrong_answers_11",
    "test_wrong_answers_12",
    "test_wrong_answers_13",
    "test_wrong_answers_misread",
)
_BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n).*?(<!-- end generated -->)", re.S)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _student_names() -> dict[str, str]:
    """Exercise id -> the name the lesson's check cell passes (`check("14.1", my_config)` ->
    my_config)."""
    names = {}
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        names.update(
            re.findall(r'check\(\\"(\d+\.\d+)\\", (\w+)\)', path.read_text(encoding="utf-8"))
        )
    return names


def exercise_table() -> str:
    """The table of exercises: id, what the student writes, what the check holds it to."""
    names = _student_names()
    rows = ["| id | the student writes | the check holds the answer to |", "|---|---|---|"]
    for exercise_id, exercise in exercises().items():
        params = ", ".join(inspect.signature(reference(exercise_id)).parameters)
        name = names.get(exercise_id, exercise.reference.rpartition(".")[2])
        held = (exercise.run.__doc__ or exercise.title).removeprefix("The answer is held to: ")
        rows.append(f"| {exercise_id} | `{name}({params})` | {_cell(held)} |")
    counts = generated_inputs()
    without = [e for e in exercises() if e not in counts]
    return (
        "\n".join(rows)
        + f"\n\nEvery check{' but ' + ', '.join(without) if without else ''} also runs the answer"
        f" beside the harness's reference {inputs_phrase()} (a fixed seed;"
        f" {statistics.median(counts.values()):g} for the median check) and reports the smallest"
        " one where they differ; an answer that changes its arguments fails whatever it returns."
    )


@functools.cache
def generated_inputs() -> dict[str, int]:
    """Exercise id -> how many generated inputs its check compares the reference on (every check
    run once on the reference; an exercise whose check compares none is left out)."""
    counts = {}
    for exercise_id in exercises():
        compare.COMPARED.pop(exercise_id, None)
        run_check(exercise_id, reference(exercise_id))
        if compare.COMPARED.get(exercise_id):
            counts[exercise_id] = compare.COMPARED[exercise_id]
    return counts


def inputs_phrase() -> str:
    """How many generated inputs the checks compare, as README and INSTRUCTORS.md say it."""
    counts = generated_inputs().values()
    return f"on {min(counts):,} to {max(counts):,} generated inputs"


def _duration(seconds: float) -> str:
    if seconds % 60:
        return f"{seconds:g} seconds"
    return f"{seconds // 60:g} minute{'s' if seconds > 60 else ''}"


def time_limits_phrase() -> str:
    """How long a check may run, as README says it: the usual limit, then each exercise's own."""
    own = [(e, x.time_limit) for e, x in exercises().items() if x.time_limit != TIME_LIMIT]
    others = ", ".join(f"{e}'s after {_duration(limit)}" for e, limit in own)
    return f"it stops after {_duration(TIME_LIMIT)}" + (f" ({others})" if others else "")


def _fixtures() -> list[tuple[str, str, object]]:
    """(exercise, what the answer does, the function or its recorded line) for every wrong answer of
    the fixture modules; a 14.1 configuration comes with the line its check states, recorded."""
    from harness.checks.lesson14 import MISSED

    sys.path.insert(0, str(ROOT / "tests"))
    try:
        found = []
        for module_name in FIXTURE_MODULES:
            spec = importlib.util.spec_from_file_location(
                module_name, ROOT / "tests" / f"{module_name}.py"
            )
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            for exercise, fn, words in getattr(module, "WRONG_ANSWERS", []):
                name = fn.__name__
                generic = (
                    name == "<lambda>" or name == exercises()[exercise].reference.rpartition(".")[2]
                )
                # The docstring's first paragraph, however the formatter wrapped it.
                what = " ".join((fn.__doc__ or "").split("\n\n")[0].split()) or (
                    f"an answer breaking “{words}”" if generic else name
                )
                found.append((exercise, what.replace("_", " ") if what == name else what, fn))
            found += [
                (exercise, what, fn) for exercise, what, fn, _ in getattr(module, "WRONG", [])
            ]
            found += [
                ("14.1", f"my_config() returns {what}", f"{recorded} Hint: {MISSED[target][1]}")
                for what, _, target, recorded in getattr(module, "CONFIGS", [])
            ]
        return found
    finally:
        sys.path.remove(str(ROOT / "tests"))


def mistakes_table(fixtures=None) -> str:
    """Each wrong answer of the fixtures and the line its check shows (rule, then hint)."""
    order = list(exercises())
    rows = ["| id | the wrong answer | what the check says |", "|---|---|---|"]
    for exercise_id, what, answer in sorted(
        fixtures if fixtures is not None else _fixtures(), key=lambda row: order.index(row[0])
    ):
        if isinstance(answer, str):  # recorded: its check runs whole sessions (14.1)
            said = answer
        else:
            result = run_check(exercise_id, answer)
            said = result.rule + (f" Hint: {result.hint}" if result.hint else "")
        rows.append(f"| {exercise_id} | {_cell(what)} | {_cell(said)} |")
    return "\n".join(rows)


def generated(text: str, blocks: dict[str, str]) -> str:
    """`text` with each generated block's body replaced by `blocks[name]` (a block not named is
    kept)."""

    def fill(found):
        name = found.group("name")
        return (
            f"{found.group(1)}{blocks[name]}\n{found.group(3)}"
            if name in blocks
            else found.group(0)
        )

    return _BLOCK.sub(fill, text)


NOT_MEASURED = "not measured yet (benchmarks/lesson_times.py)"
NOT_ESTIMATED = "not estimated yet"
_TIMING_ROW = re.compile(r"^\| (\d\d) ([^|]+?) \| [^|]* \| ([^|]+?) \| ([^|]+?) \|$", re.M)


def lessons_exercises() -> dict[str, list[str]]:
    """Two-digit lesson -> the ids of the exercises its checks register, in order."""
    found: dict[str, list[str]] = {}
    for exercise_id in exercises():
        found.setdefault(f"{int(exercise_id.partition('.')[0]):02d}", []).append(exercise_id)
    return found


def _lesson_title(lesson: str) -> str:
    """`# Lesson 12 · Retrieval into the budget` of the solution notebook -> its title."""
    path = next((ROOT / "solutions").glob(f"{lesson}_*.ipynb"))
    return (
        re.search(r"# Lesson \d+ · ([^\\\n\"]+)", path.read_text(encoding="utf-8")).group(1).strip()
    )


def timing_table(old: str) -> str:
    """INSTRUCTORS.md's "How long each lesson takes": a row per lesson with exercises, its exercise
    column from the registry; the measured and estimated columns kept from `old` (the block as it
    is), or marked as still to fill for a lesson that has no row yet."""
    kept = {
        lesson: (name, machine, class_time)
        for lesson, name, machine, class_time in _TIMING_ROW.findall(old)
    }
    rows = [
        "| lesson | exercises | machine time (measured) | class time (estimate) |",
        "|---|---|---|---|",
    ]
    for lesson, ids in sorted(lessons_exercises().items()):
        name, machine, class_time = kept.get(
            lesson, (_lesson_title(lesson), NOT_MEASURED, NOT_ESTIMATED)
        )
        rows.append(f"| {lesson} {name} | {', '.join(ids)} | {machine} | {class_time} |")
    return "\n".join(rows)


def blocks(text: str = "") -> dict[str, str]:
    """Each generated block's new body; `text` is the file as it is (the timing table keeps its
    measured and estimated columns from it)."""
    old = _BLOCK.search(text[text.find("<!-- generated: lesson-times -->") :]) if text else None
    return {
        "exercises": exercise_table(),
        "mistakes": mistakes_table(),
        "lesson-times": timing_table(old.group(0) if old else ""),
    }


def main() -> int:
    text = INSTRUCTORS.read_text(encoding="utf-8")
    new = generated(text, blocks(text))
    INSTRUCTORS.write_text(new, encoding="utf-8")
    print("INSTRUCTORS.md " + ("updated." if new != text else "was up to date."))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
