"""The gradebook: kept per student as grading goes, merged on a regrade, exported for people and the
LMS.

    grades/
      results/ada.json   one file per student (`file_key`: Zoé -> _5a_o_e9_.json), written atomically when graded
      gradebook.csv      student, lesson, exercise, status, rule, message, rules passed and missed: one row per exercise
      lms.csv            one row per student, one column per exercise (1 passed, 0 not, or a share of rules), a total
      gradebook.html     per-rule misses across the cohort, student x exercise table, "needs a look"
      projector.html     the same cohort figures without a single name, for the projector
      feedback/ada.html  what one student gets back: each exercise, its message, what to look at

`record` merges: regrading one lesson of one student replaces those rows only. Every export is
rebuilt from results/ after each student, so a crash keeps everything graded before it. Each
lesson's entry keeps the SHA-256 of the submission and of the pristine lesson it was graded against,
so a resumed run skips what has not changed (`unchanged`). `check_merge` refuses, before anything
runs, a folder written by another format or a merge that would leave students graded on different
lessons (their LMS totals would not compare). Every text is redacted
(`harness/plumbing/redaction.py`) and every CSV cell that a spreadsheet would read as a formula
(starting with =, +, -, @, a tab or a carriage return) is prefixed with a quote.
"""

import csv
import hashlib
import html
import io
import json
import os
import re
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path

from harness.plumbing.redaction import redact
from harness.workbook.runner import NOTE, STATUSES, Result

FORMAT = 2  # of results/*.json; 1 (no "format" key) kept no fingerprints
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NEEDS_A_LOOK = ("error", "tampered", NOTE)  # a missing lesson is counted above the list, not listed
FOLDER_MODE, FILE_MODE = 0o700, 0o600  # students' grades: the instructor's alone, wherever --out is
COLOURS = {
    "skipped": "#6e7781",
    "passed": "#1a7f37",
    "failed": "#cf222e",
    "not attempted": "#6e7781",
    "error": "#8250df",
    "missing": "#bf8700",
    "tampered": "#a40e26",
    NOTE: "#6e7781",
    "review": "#bf8700",
}


def safe_cell(value) -> str:
    """A CSV cell a spreadsheet shows as text: `=HYPERLINK(...)` -> `'=HYPERLINK(...)`."""
    text = redact(str(value))
    return "'" + text if text.lstrip(" ").startswith(FORMULA_START) else text


def exercise_key(exercise: str):
    return (
        [int(x) for x in exercise.split(".")] if re.fullmatch(r"\d+(\.\d+)*", exercise) else [10**6]
    )


class GradebookError(ValueError):
    """An output folder this run must not merge into, with the file and what to do."""


KEPT = set("abcdefghijklmnopqrstuvwxyz0123456789-")
MAX_KEY = 200  # a file name has 255 bytes at most


def file_key(student: str) -> str:
    """A file name for the student, unique by construction, the same on a case-blind disk:
    lower-case letters, digits and - as they are, every other character as _hex_
    (`Zoé` -> `_5a_o_e9_`, ` =1+1` -> `_20__3d_1_2b_1`). A name too long for one is cut and
    ends with a digest of the whole (the exact name is inside the file)."""
    key = "".join(c if c in KEPT else f"_{ord(c):x}_" for c in student)
    if len(key) > MAX_KEY:
        key = (
            key[: MAX_KEY - 17]
            + "~"
            + hashlib.sha256(student.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        )
    return key


def student_of(key: str) -> str:
    """The name `file_key` made `key` from (for a key that was not cut)."""
    return re.sub(r"_([0-9a-f]+)_", lambda m: chr(int(m[1], 16)), key)


def result_path(out: Path, student: str) -> Path:
    return out / "results" / f"{file_key(student)}.json"


def _write_atomically(path: Path, text: str, durable: bool = True) -> None:
    """Write to a hidden temporary file, then rename it over `path`: a reader (or a grader resumed
    after a crash) sees the old file or the new one, never half of one. `durable` also forces the
    file and the rename to disk first (results/; the exports are rebuilt from it, so they skip it).
    """
    path.parent.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    path.parent.chmod(FOLDER_MODE)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    # a partial left by a killed grader keeps its old mode otherwise
    os.fchmod(descriptor, FILE_MODE)
    with open(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
        if durable:
            file.flush()
            os.fsync(file.fileno())
    os.replace(partial, path)
    if durable:
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)  # the rename itself survives a power cut
        finally:
            os.close(folder)


def remove_partials(out: Path) -> None:
    """Temporary files left by a grader that was killed while writing (never read as results)."""
    for partial in out.rglob(".*.partial"):
        partial.unlink(missing_ok=True)


def record(
    out: Path,
    student: str,
    lessons: dict[str, list[Result]],
    skipped: list[dict],
    fingerprints: dict[str, dict] | None = None,
) -> None:
    """Merge `lessons` (lesson -> its Results) into the student's file; `skipped` replaces the old
    list. `fingerprints`: lesson -> {"submission_sha256": hex or None, "lesson_sha256": hex}, what
    was graded.
    """
    path = result_path(out, student)
    saved = _read(path) if path.is_file() else {"student": student, "lessons": {}}
    for lesson, results in lessons.items():
        saved["lessons"][lesson] = {
            "results": [asdict(r) for r in results],
            "graded_at": time.strftime("%Y-%m-%d %H:%M:%S"),
            **(fingerprints or {}).get(lesson, {}),
        }
    saved["skipped"], saved["format"] = skipped, FORMAT
    _write_atomically(path, json.dumps(saved, indent=1, ensure_ascii=False))


def _read(path: Path) -> dict:
    """A results file of this format, or a GradebookError saying which file and what to do."""
    fresh = f"grade into a new --out folder, or move {path.parent} away to grade everyone again"
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise GradebookError(
            f"{path} cannot be read ({type(error).__name__}: {error}): restore it, or {fresh}."
        ) from None
    if not isinstance(saved, dict) or saved.get("format", 1) != FORMAT:
        found = saved.get("format", 1) if isinstance(saved, dict) else "unknown"
        raise GradebookError(
            f"{path} was written by another version of the grader (format {found}, this one "
            f"writes {FORMAT}); merging into it could mix results that do not compare: {fresh}."
        )
    return saved


def load(out: Path) -> dict[str, dict]:
    """Student -> {"results": [Result] in lesson order, "skipped": [{"path", "reason"}], "lessons":
    lesson -> its saved entry}, from results/."""
    cohort = {}
    for path in sorted((out / "results").glob("*.json")):
        saved = _read(path)
        if saved["student"] in cohort and path != result_path(out, saved["student"]):
            continue  # a file named the old way (before file_key), already replaced
        results = [
            Result(**r) for _, entry in sorted(saved["lessons"].items()) for r in entry["results"]
        ]
        cohort[saved["student"]] = {
            "results": results,
            "skipped": saved.get("skipped", []),
            "lessons": saved["lessons"],
        }
    return dict(sorted(cohort.items()))


def check_merge(out: Path, lessons: list[str], chosen: list[str]) -> dict[str, dict]:
    """The cohort already in `out`, if grading `chosen` students on `lessons` may merge into it.

    Refused: a results file that cannot be read or is of another format, and a run after which
    some students would be graded on lessons others are not (regrade one student on the lessons
    the others have, or every student on a new lesson)."""
    cohort = load(out)
    after = {
        s: set(entry["lessons"]) | (set(lessons) if s in chosen else set())
        for s, entry in cohort.items()
    }
    after.update({s: after.get(s, set()) | set(lessons) for s in chosen})
    groups: dict[frozenset, list[str]] = {}
    for student, graded in sorted(after.items()):
        groups.setdefault(frozenset(graded), []).append(student)
    if len(groups) > 1:
        said = "; ".join(
            f"{len(names)} ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''}) on "
            f"{', '.join(sorted(graded)) or 'nothing'}"
            for graded, names in groups.items()
        )
        raise GradebookError(
            f"{out / 'results'} would hold students graded on different lessons after this run:"
            f" {said}. lms.csv would give 0 for a lesson never graded. Grade on the lessons the"
            " others have (name them with --lesson), grade a new lesson for every student (no"
            " --student), or grade into a new --out folder. A student whose folder has left the"
            " submissions keeps their old results: move their file out of results/."
        )
    return cohort


def unchanged(entry: dict | None, fingerprints: dict[str, dict]) -> bool:
    """Whether a student's saved entry was graded on exactly these submissions and pristine
    lessons."""
    saved = (entry or {}).get("lessons", {})
    return bool(fingerprints) and all(
        lesson in saved and all(saved[lesson].get(key) == value for key, value in f.items())
        for lesson, f in fingerprints.items()
    )


def rows(cohort) -> list[tuple[str, Result]]:
    return [(student, r) for student, entry in cohort.items() for r in entry["results"]]


def exercises_of(cohort) -> list[str]:
    return sorted({r.exercise for _, r in rows(cohort) if r.exercise != "-"}, key=exercise_key)


def rule_misses(cohort) -> list[tuple[str, str, int, int]]:
    """(exercise, rule, students who broke it, students graded on the exercise), most missed
    first."""
    graded = Counter(r.exercise for _, r in rows(cohort) if r.exercise != "-")
    missed = Counter(
        (r.exercise, r.rule) for _, r in rows(cohort) if r.status == "failed" and r.rule
    )
    return sorted(
        ((e, rule, n, graded[e]) for (e, rule), n in missed.items()),
        key=lambda m: (-m[2] / m[3], exercise_key(m[0])),
    )


def status_shares(cohort) -> dict[str, dict[str, float]]:
    """Exercise -> status -> share of the students graded on it."""
    shares = {}
    for exercise in exercises_of(cohort):
        mine = [r.status for _, r in rows(cohort) if r.exercise == exercise]
        shares[exercise] = {s: mine.count(s) / len(mine) for s in STATUSES}
    return shares


def close(out: Path) -> None:
    """`out` and everything in it made the instructor's alone (0700 folders, 0600 files): a hub's
    students share the machine, and a gradebook outside /root was theirs to read."""
    out.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    for path in [out, *out.rglob("*")]:
        if not path.is_symlink():
            path.chmod(FOLDER_MODE if path.is_dir() else FILE_MODE)


def missing_lessons(cohort) -> tuple[int, int]:
    """(lessons not handed in, students who did not hand in one or more)."""
    missing = {(s, r.lesson) for s, r in rows(cohort) if r.status == "missing"}
    return len(missing), len({s for s, _ in missing})


def needs_a_look(cohort) -> list[tuple[str, str, str, str, str]]:
    """(student, lesson, exercise, status, message) for errors, tampering, copies, restored cells
    and skipped files; a lesson not handed in is counted (`missing_lessons`), not listed."""
    found = [
        (s, r.lesson, r.exercise, r.status, r.message)
        for s, r in rows(cohort)
        if r.status in NEEDS_A_LOOK
    ]
    found += [(s, r.lesson, r.exercise, "review", r.review) for s, r in rows(cohort) if r.review]
    for student, entry in cohort.items():
        found += [
            (student, "-", "-", "skipped", f"{item['path']}: {item['reason']}")
            for item in entry["skipped"]
        ]
    return list(dict.fromkeys(found))


def _write_csv(path: Path, table: list[list]) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(table)
    _write_atomically(path, buffer.getvalue(), durable=False)


def _rules(result: Result) -> list[dict]:
    """The rules the check tried, read defensively (a result saved before rules were kept has
    none)."""
    return [
        r
        for r in (result.rules if isinstance(result.rules, list) else [])
        if isinstance(r, dict) and "name" in r
    ]


def missed_rules(result: Result) -> list[str]:
    return [str(r["name"]) for r in _rules(result) if r.get("passed") is not True]


def mark(result: Result, share_of_rules: bool) -> float:
    """1 for a pass, else 0; with `share_of_rules`, the share of the rules tried that passed."""
    tried = _rules(result)
    if result.status in ("passed", "failed") and share_of_rules and tried:
        return round(sum(r.get("passed") is True for r in tried) / len(tried), 3)
    return int(result.status == "passed")


def write_csv(cohort, path: Path) -> None:
    """One row per exercise; a row about the notebook as a whole has "notebook" for its exercise."""
    _write_csv(
        path,
        [
            [
                "student",
                "lesson",
                "exercise",
                "status",
                "rule",
                "message",
                "rules_passed",
                "rules_missed",
            ]
        ]
        + [
            [
                safe_cell(x)
                for x in (
                    s,
                    r.lesson,
                    "notebook" if r.exercise == "-" else r.exercise,
                    r.status,
                    r.rule,
                    r.message,
                    (
                        f"{sum(x.get('passed') is True for x in _rules(r))} of {len(_rules(r))}"
                        if _rules(r)
                        else ""
                    ),
                    "; ".join(missed_rules(r)),
                )
            ]
            for s, r in rows(cohort)
        ],
    )


def write_lms_csv(cohort, path: Path, share_of_rules: tuple[str, ...] = ()) -> None:
    """One row per student, one column per exercise (1 passed, 0 otherwise, or the share of its
    rules passed for an exercise in `share_of_rules`, "all" for every one), then the total."""
    exercises = exercises_of(cohort)
    table = [["student", *exercises, "total", "out_of"]]
    for student, entry in cohort.items():
        marks = [
            max(
                (
                    mark(r, e in share_of_rules or "all" in share_of_rules)
                    for r in entry["results"]
                    if r.exercise == e
                ),
                default=0,
            )
            for e in exercises
        ]
        table.append([safe_cell(student), *marks, round(sum(marks), 3), len(exercises)])
    _write_csv(path, table)


def _page(title: str, body: str) -> str:
    style = (
        "body{font-family:sans-serif;margin:2em;max-width:80em}"
        " table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em"
        " .5em;vertical-align:top;text-align:left}"
        " .bar{display:inline-block;height:.8em;background:#1a7f37}"
        " small{color:#555;white-space:pre-wrap}"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{style}</style></head><body><h1>{html.escape(title)}</h1>{body}</body></html>"
    )


def _table(header: list[str], body: list[list[str]]) -> str:
    head = "".join(f"<th>{h}</th>" for h in header)
    return (
        f"<table><tr>{head}</tr>"
        + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in body)
        + "</table>"
    )


def _status(status: str, message: str = "", missed: list[str] = ()) -> str:
    colour = COLOURS.get(status, "#000")
    shown = f"<br><small>{html.escape(redact(message))}</small>" if message else ""
    shown += "".join(
        f"<br><small>✘ {html.escape(redact(rule))}</small>"
        for rule in missed
        if rule not in message
    )
    return f"<b style='color:{colour}'>{html.escape(status)}</b>{shown}"


def cohort_figures(cohort) -> str:
    """What the room did, without a name: each exercise's shares and each rule's misses."""
    shares = status_shares(cohort)
    exercise_rows = [
        [
            html.escape(e),
            f"<span class='bar' style='width:{100 * v['passed']:.0f}px'></span> {v['passed']:.0%}",
            ", ".join(f"{v[s]:.0%} {s}" for s in STATUSES if v[s] and s != "passed"),
        ]
        for e, v in shares.items()
    ]
    misses = [
        [html.escape(e), html.escape(redact(rule)), f"{n} of {of} ({n / of:.0%})"]
        for e, rule, n, of in rule_misses(cohort)
    ]
    return (
        "<h2>Each exercise across the cohort</h2>"
        + _table(["exercise", "passed", "the others"], exercise_rows)
        + "<h2>Which rule the room missed</h2>"
        + (
            _table(["exercise", "rule broken", "students"], misses)
            if misses
            else "<p>No rule was broken.</p>"
        )
    )


def summary(cohort) -> str:
    graded = [r for _, r in rows(cohort) if r.exercise != "-"]
    counts = ", ".join(f"{n} {s}" for s in STATUSES if (n := sum(r.status == s for r in graded)))
    share = sum(r.status == "passed" for r in graded) / len(graded) if graded else 0
    return (
        f"{len(cohort)} students, {len(graded)} graded exercises: {share:.0%} passed"
        f" ({counts or 'none'})."
    )


def write_html(cohort, out: Path, enforced: dict[str, str]) -> None:
    exercises = exercises_of(cohort)
    table = []
    for student, entry in cohort.items():
        by_exercise = {r.exercise: r for r in entry["results"]}
        table.append(
            [f"<a href='feedback/{file_key(student)}.html'>{html.escape(student)}</a>"]
            + [
                (
                    _status(
                        by_exercise[e].status, by_exercise[e].message, missed_rules(by_exercise[e])
                    )
                    if e in by_exercise
                    else ""
                )
                for e in exercises
            ]
        )
    look = needs_a_look(cohort)
    lessons, students = missing_lessons(cohort)
    absent = (
        f"<p>{lessons} lesson(s) not handed in, by {students} student(s): the table below shows"
        " which.</p>"
    )
    body = (
        f"<p>{html.escape(summary(cohort))}</p>"
        + cohort_figures(cohort)
        + "<h2>Needs a look</h2>"
        + (absent if lessons else "")
        + (
            _table(
                ["student", "lesson", "exercise", "what", "why"],
                [
                    [html.escape(str(x)) for x in item[:3]]
                    + [_status(item[3]), html.escape(redact(item[4]))]
                    for item in look
                ],
            )
            if look
            else ""
            if lessons
            else "<p>Nothing.</p>"
        )
        + "<h2>Each student</h2>"
        + _table(["student", *exercises], table)
        + "<h2>How the notebooks were run</h2>"
        + _table(
            ["protection", "here"], [[html.escape(k), html.escape(v)] for k, v in enforced.items()]
        )
    )
    _write_atomically(out / "gradebook.html", _page("Gradebook", body), durable=False)
    _write_atomically(
        out / "projector.html",
        _page("How the room did", f"<p>{len(cohort)} students.</p>" + cohort_figures(cohort)),
        durable=False,
    )
    for student, entry in cohort.items():
        results = entry["results"]
        items = [
            [
                html.escape(r.lesson),
                html.escape(r.exercise),
                _status(r.status, r.message, missed_rules(r)),
            ]
            for r in results
        ]
        passed = sum(r.status == "passed" for r in results if r.exercise != "-")
        graded = sum(r.exercise != "-" for r in results)
        body = (
            f"<p>{passed} of {graded} exercises passed.</p>"
            + _table(["lesson", "exercise", "result"], items)
            + "<p>Run <code>python -m harness check</code> in your copy to see the same checks.</p>"
        )
        _write_atomically(
            out / "feedback" / f"{file_key(student)}.html",
            _page(f"Feedback for {student}", body),
            durable=False,
        )


def export(out: Path, enforced: dict[str, str], share_of_rules: tuple[str, ...] = ()) -> dict:
    """Rebuild every export from results/; return the cohort."""
    cohort = load(out)
    write_csv(cohort, out / "gradebook.csv")
    write_lms_csv(cohort, out / "lms.csv", share_of_rules)
    write_html(cohort, out, enforced)
    return cohort
