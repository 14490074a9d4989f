"""The check outside the kernel, on each lesson's own function: tricks that reach the reference,
honest work.

No kernel runs here: each case is the pristine lesson with one cell changed, rebuilt and checked as
`run_notebooks` does after the notebook ran (`runner.plan`, `verify`, `runner.from_check`). The
tricks are the ones issue 17 found on lessons 00, 01, 02 and 09, and variants of the same
mechanisms, for a guard that stops ways of reaching the reference rather than a list of spellings.
"""

import tempfile
from pathlib import Path

import nbformat
import pytest

from harness.workbook import SOLUTIONS
from harness.workbook.execute import Run
from harness.workbook.restore import prepare
from harness.workbook.runner import Result, check_functions, from_check, plan, pristine_lessons
from harness.workbook.sandbox import Sandbox
from harness.workbook.verify import Job

LESSONS = {name[:2]: name for name in pristine_lessons()}
STUB_0 = "def describe_usage(usage):\n    "
# name -> (lesson, the exercise, the new source of its function's cell, the status it must get)
CASES = {
    "module attribute": (
        "00",
        "0.1",
        "import harness.usage as _u\n\n" + STUB_0 + "return _u.describe_usage(usage)",
        "tampered",
    ),
    "re-exported elsewhere": (
        "00",
        "0.1",
        "import harness.agent as _a\n\n"
        + STUB_0
        + "return _a.report.__dict__['describe_usage'](usage)",
        "tampered",
    ),
    "sys.modules": (
        "01",
        "1.1",
        (
            "import sys\n\ndef naive_prompt_sizes(system_tokens, exchanges):\n"
            "    return sys.modules['harness.history'].naive_prompt_sizes(system_tokens, exchanges)"
        ),
        "tampered",
    ),
    "checks.reference": (
        "01",
        "1.1",
        (
            "import harness.checks\n\ndef naive_prompt_sizes(system_tokens, exchanges):\n"
            "    return harness.checks.reference('1.1')(system_tokens, exchanges)"
        ),
        "tampered",
    ),
    "reference imported by name": (
        "01",
        "1.1",
        (
            "from harness.checks import reference as r\n\n"
            "def naive_prompt_sizes(s, e):\n    return r('1.1')(s, e)"
        ),
        "tampered",
    ),
    "mine with a stub": (
        "02",
        "2.1",
        (
            "def stub(*args):\n    raise NotImplementedError\n\n"
            "def stable_prefix_tokens(request_a, request_b, count=approx_tokens):\n"
            "    return mine('2.1', stub)(request_a, request_b, count)"
        ),
        "tampered",
    ),
    "mine at the top": (
        "02",
        "2.1",
        (
            "def stable_prefix_tokens(request_a, request_b, count=approx_tokens):\n    raise"
            " NotImplementedError\n\nstable_prefix_tokens = mine('2.1', stable_prefix_tokens)"
        ),
        "tampered",
    ),
    "lesson14 reference_config": (
        "14",
        "14.1",
        (
            "import harness.checks.lesson14 as _L\n\ndef my_config():\n"
            "    return _L.reference_config()"
        ),
        "tampered",
    ),
    "through a harness helper": (
        "14",
        "14.1",
        (
            "from harness.probes import with_knobs\nfrom harness.checks.lesson14 import"
            " COST_SHARE\n\ndef my_config():\n    import harness.checks.lesson14 as L\n    return"
            " L.reference_config()"
        ),
        "tampered",
    ),
    "module constant raised": (
        "14",
        "14.1",
        (
            "import harness.checks.lesson14 as L\nL.WINDOW = 10**9\n\n"
            "def my_config():\n    return STRATEGIES['full history']"
        ),
        "failed",
    ),
    "eval of a name": (
        "00",
        "0.1",
        STUB_0 + "return eval('__import__(\"harness.usage\").usage.describe_usage')(usage)",
        "tampered",
    ),
    "frame walk": (
        "00",
        "0.1",
        STUB_0 + "try:\n        raise ValueError\n    except ValueError as e:\n"
        "        g = e.__traceback__.tb_frame.f_back.f_globals\n    return g",
        "tampered",
    ),
    "a builtin shadowed by the cells": (
        "00",
        "0.1",
        "any = lambda *a: True\n\n" + STUB_0 + "return {} if any() else None",
        "failed",
    ),
}


def checked(lesson: str, exercise: str, source: str | None) -> Result:
    notebook = nbformat.read(SOLUTIONS / f"{LESSONS[lesson]}.ipynb", 4)
    if source is not None:
        index = next(
            i for i, c in enumerate(notebook.cells) if f"### BEGIN SOLUTION {exercise}" in c.source
        )
        notebook.cells[index].source = source
    prepared = prepare(notebook, pristine_lessons()[LESSONS[lesson]])
    planned = plan(LESSONS[lesson], prepared, Run(prepared.notebook), cell_timeout=60)
    job, rebuilt = planned[exercise]
    if isinstance(job, Result):
        return job
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp).chmod(0o711)
        with Sandbox.create(Path(tmp)) as box:
            return from_check(
                LESSONS[lesson], exercise, check_functions([job], box)[0], rebuilt, job.name
            )


@pytest.mark.parametrize("case", list(CASES))
def test_each_way_to_reach_the_reference_is_caught(case):
    lesson, exercise, source, expected = CASES[case]
    result = checked(lesson, exercise, source)
    assert result.status == expected, result.message
    if expected == "tampered":
        assert "cell " in result.message  # the evidence names the line


@pytest.mark.parametrize(
    "lesson,exercise",
    [
        ("00", "0.1"),
        ("02", "2.1"),
        ("06", "6.1"),
        ("12", "12.1"),
        ("12", "12.2"),
        ("13", "13.1"),
        ("13", "13.2"),
        ("14", "14.1"),
    ],
)
def test_the_honest_solution_passes_with_every_rule(lesson, exercise):
    result = checked(lesson, exercise, None)
    assert result.status == "passed" and result.rules and all(r["passed"] for r in result.rules), (
        result.message
    )


def test_an_endless_function_fails_its_exercise_in_the_time_given():
    notebook = nbformat.read(SOLUTIONS / f"{LESSONS['00']}.ipynb", 4)
    prepared = prepare(notebook, pristine_lessons()[LESSONS["00"]])
    # The honest job's limit is far above its need, so that only the endless one can run out of
    # time.
    job, rebuilt = plan(LESSONS["00"], prepared, Run(prepared.notebook), cell_timeout=300)["0.1"]
    loop = Job(
        job.exercise,
        job.name,
        job.source + "\ndef describe_usage(usage):\n    while True:\n        pass\n",
        2,
    )
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp).chmod(0o711)
        with Sandbox.create(Path(tmp)) as box:
            found = check_functions([loop, job], box)
    assert found[0]["status"] == "failed" and "did not finish in 2 s" in found[0]["rule"]
    assert found[1]["status"] == "passed"  # the next exercise gets a fresh process


@pytest.mark.parametrize("report", ["not a dict", ["a", "list"], {"status": 3}, None])
def test_a_malformed_report_is_an_error_with_the_reason(report):
    from harness.workbook.verify import _clean

    found = _clean(report, Job("3.1", "build_context", "", 1))
    assert found["status"] == "error" and "3.1" in found["rule"]


def test_a_huge_report_is_cut_to_size():
    from harness.workbook.verify import FIELD_LIMIT, _clean

    found = _clean(
        {
            "status": "failed",
            "rule": "x" * 10**7,
            "rules": [{"name": "y" * 10**6, "passed": 1}] * 10**4,
        },
        Job("3.1", "build_context", "", 1),
    )
    assert len(found["rule"]) == FIELD_LIMIT and len(found["rules"]) <= 200
    # only True passes
    assert all(len(r["name"]) <= FIELD_LIMIT and r["passed"] is False for r in found["rules"])
