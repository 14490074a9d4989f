"""Exercise checks: `check("3.1", build_context)` in a lesson cell.

`check` shows ONE line (passed, not attempted, or the rule that failed and a hint that points the
way without giving the answer) and never raises for a wrong answer, so Run All goes on to the panel
and the quiz. The line also carries a structured result, a MIME bundle of type `MIME_TYPE`, which
`harness check`, `grade` and the tests read instead of scraping printed text:

    >>> result = run_check("4.2", lambda output: None)
    >>> result.status, result.rule.startswith("on a pytest log")
    ('failed', True)
    >>> run_check("4.2", _stub).status
    'not attempted'

Each lesson's checks live in `harness/checks/lessonNN.py` and register themselves with `@exercise`;
inside them a broken rule raises `ExerciseFailed`, which `check` turns into the one line. Every
rule a check tries is recorded in `CheckResult.rules` (name, passed), for the gradebook. Besides
their named cases, the checks compare the answer with the reference on generated inputs
(`harness.checks.compare`). A check that does not finish within `TIME_LIMIT` seconds, or is
interrupted (Kernel > Interrupt), shows its one line too: never a traceback of the checker.
Where the tests want a wrong answer to stop a notebook, they set WORKBOOK_CHECKS_RAISE=1.
"""

import contextlib
import importlib
import importlib.util
import io
import os
import pkgutil
import re
import signal
import threading
from dataclasses import asdict, dataclass, field
from typing import Callable

from harness.plumbing.arguments import checked, require_callable, require_text

MIME_TYPE = "application/vnd.workbook.check+json"  # the structured result in a check cell's output
PASSED, FAILED, NOT_ATTEMPTED_STATUS, ERROR = "passed", "failed", "not attempted", "error"
NOT_ATTEMPTED = (  # the phrase of the one line (and of ExerciseFailed in strict mode)
    "not attempted yet"
)
# Seconds a check may run in the notebook. The checks take well under a second on any answer that
# ends; a loop must not hang the lesson (`workbook check` stops a whole cell at 120 s).
TIME_LIMIT = 20


class ExerciseFailed(AssertionError):
    """An exercise broke one of its rules: `rule` says which, `hint` points the way; `name` is the
    rule's short, stable name (what the gradebook counts)."""

    def __init__(
        self, message: str, rule: str = "", hint: str = "", status: str = FAILED, name: str = ""
    ):
        super().__init__(message)
        self.rule, self.hint, self.status = rule or message, hint, status
        self.name = name or rule_name(self.rule)


class _OutOfTime(BaseException):
    """Raised inside a check at its time limit; a BaseException, so `except Exception` in an answer
    does not swallow it."""


@dataclass(frozen=True)
class CheckResult:
    """How one exercise did: what `check` shows and what the workbook's tools read."""

    exercise: str
    status: str  # passed | failed | not attempted | error
    title: str
    rule: str = ""  # failed/error: the rule broken; passed: a short detail (may be empty)
    hint: str = ""
    rules: list = field(default_factory=list)  # every rule tried: {"name": str, "passed": bool}

    def line(self) -> str:
        if self.status == PASSED:
            return (
                f"✔ Exercise {self.exercise} passed"
                f" ({self.title}){': ' + self.rule if self.rule else ''}"
            )
        if self.status == NOT_ATTEMPTED_STATUS:
            return (
                f"○ Exercise {self.exercise} is {NOT_ATTEMPTED}: replace `# YOUR CODE HERE` and the"
                " `raise` line with your code, run that cell, then this one."
            )
        mark = "✘" if self.status == FAILED else "⚠"
        return f"{mark} Exercise {self.exercise}: {self.rule}" + (
            f"  Hint: {self.hint}" if self.hint else ""
        )

    def to_dict(self) -> dict:
        return asdict(self)

    def __repr__(self):
        return self.line()

    def _repr_html_(self):
        import html

        colour = {PASSED: "#1a7f37", NOT_ATTEMPTED_STATUS: "#6e7781"}.get(self.status, "#cf222e")
        return (
            f'<pre style="color:{colour}; white-space:pre-wrap;'
            f' margin:0">{html.escape(self.line())}</pre>'
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {
            "text/plain": self.line(),
            "text/html": self._repr_html_(),
            MIME_TYPE: self.to_dict(),
        }


_CHECKS: dict[str, "Exercise"] = {}


class Exercise:
    def __init__(
        self,
        exercise_id: str,
        title: str,
        reference: str,
        run: Callable,
        time_limit: float = TIME_LIMIT,
    ):
        self.id, self.title, self.reference, self.run = exercise_id, title, reference, run
        self.time_limit = time_limit

    def __repr__(self):
        return f"Exercise({self.id!r}, {self.title!r}, reference={self.reference!r})"


def exercise(exercise_id: str, title: str, reference: str, time_limit: float = TIME_LIMIT):
    """Register a check. `run(fn)` raises ExerciseFailed or returns a short success detail; it is
    stopped after `time_limit` seconds (a check that runs whole sessions needs more than
    TIME_LIMIT).
    """

    def register(run: Callable) -> Callable:
        _CHECKS[exercise_id] = Exercise(exercise_id, title, reference, run, time_limit)
        return run

    return register


_TRIED: list[dict] = []  # the rules the running check has tried, in order


def rule_name(broken_rule: str) -> str:
    """A rule's stable name from its message: the words before the case's own figures and values."""
    words = re.split(r"[;:(]|, got | got |, you | you kept", broken_rule, maxsplit=1)[0].strip(" .")
    return words[:100] or broken_rule[:100]


def tried(name: str, passed: bool) -> None:
    """Record that the running check tried the rule `name` (for CheckResult.rules): once per name,
    failed if any of its tries failed."""
    for entry in _TRIED:
        if entry["name"] == name:
            entry["passed"] = entry["passed"] and bool(passed)
            return
    _TRIED.append({"name": name, "passed": bool(passed)})


def rule(condition: bool, exercise_id: str, broken_rule: str, hint: str, name: str = "") -> None:
    """Fail with the broken rule and a hint unless `condition` holds; `name` (default: taken from
    `broken_rule`) is what CheckResult.rules records."""
    name = name or rule_name(broken_rule)
    tried(name, condition)
    if not condition:
        raise ExerciseFailed(
            f"Exercise {exercise_id}: {broken_rule}\n  Hint: {hint}", broken_rule, hint, name=name
        )


def must_refuse(exercise_id: str, fn: Callable, bad_calls, hint: str) -> None:
    """Fail unless `fn(*args)` raises ValueError for each `(args, what)` in `bad_calls`."""
    for args, what in bad_calls:
        try:
            fn(*args)
        except ValueError:
            continue
        except Exception as error:  # any other error is the wrong one
            rule(
                False,
                exercise_id,
                f"{what} must raise ValueError, not {type(error).__name__}.",
                "check the arguments first.",
            )
        rule(False, exercise_id, f"{what} must raise ValueError saying what is wrong.", hint)
    tried("bad arguments raise ValueError", True)


def _short(value, width: int = 70) -> str:
    """A one-line repr of an argument, cut to `width` characters."""
    # no address: the same on every run
    text = re.sub(r" at 0x[0-9a-f]+", "", " ".join(repr(value).split()))
    return text if len(text) <= width else text[: width - 1] + "…"


def call(exercise_id: str, fn: Callable, *args, **kwargs):
    """Call the student's function; turn any exception it raises into a readable failure."""
    try:
        return fn(*args, **kwargs)
    except ExerciseFailed:
        raise
    except NotImplementedError:
        raise ExerciseFailed(
            f"Exercise {exercise_id} is {NOT_ATTEMPTED}: the function still raises"
            " NotImplementedError.\n  Hint: replace `# YOUR CODE HERE` and the `raise` line with"
            " your code, run that cell, then run this check again.",
            "the function still raises NotImplementedError",
            "replace `# YOUR CODE HERE` and the `raise` line with your code.",
            NOT_ATTEMPTED_STATUS,
            name="not attempted",
        ) from None
    except Exception as error:  # the student's bug, shown as such
        shown = ", ".join(
            [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
        )
        broken = (
            f"calling your function raised {type(error).__name__}: {_short(str(error), 200)} "
            f"(the call was {getattr(fn, '__name__', 'fn')}({shown}))"
        )
        hint = "run the function on that input in a cell of its own and read the traceback."
        raise ExerciseFailed(
            f"Exercise {exercise_id}: {broken}\n  Hint: {hint}",
            broken,
            hint,
            name="the function runs without raising",
        ) from error


def _load_all() -> dict[str, Exercise]:
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("lesson"):
            importlib.import_module(f"{__name__}.{module.name}")
    return _CHECKS


def exercises() -> dict[str, Exercise]:
    """Every registered exercise, by id."""
    return dict(sorted(_load_all().items(), key=lambda item: [int(x) for x in item[0].split(".")]))


def registered(exercise_id: str) -> Exercise | None:
    """Exercise `exercise_id`, importing its own lesson's checks alone (exercise N.x lives in
    lessonNN.py): loading them all imported lesson 11's Interactions client, 0.6 s of CPU, into
    every lesson's first check and every grading process. None for an id no module registers (a
    test's own 99.x until its setup code runs)."""
    major = exercise_id.partition(".")[0]
    if exercise_id not in _CHECKS and major.isdigit():
        module = f"{__name__}.lesson{int(major):02d}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)
    return _CHECKS.get(exercise_id)


def _exercise_id(name: str, exercise_id) -> None:
    """One of the exercises there are, e.g. "3.1"."""
    require_text(name, exercise_id, empty=False)
    if registered(exercise_id) is None and exercise_id not in exercises():
        raise ValueError(
            f"No exercise {_short(exercise_id)} ({name}). Known exercises:"
            f" {', '.join(exercises())}."
        )


@checked(exercise_id=_exercise_id)
def reference(exercise_id: str) -> Callable:
    """The harness's own implementation for an exercise (what the check must accept)."""
    module, _, name = (registered(exercise_id) or exercises()[exercise_id]).reference.rpartition(
        "."
    )
    return getattr(importlib.import_module(module), name)


_LAST_STATUS: dict[str, tuple] = {}  # exercise id -> (the function last checked, its status)


class _TimeLimit:
    """Raise _OutOfTime in the main thread after `seconds` (a no-op elsewhere: no signals there)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.armed = threading.current_thread() is threading.main_thread() and hasattr(
            signal, "setitimer"
        )

    def __enter__(self):
        if self.armed:
            self.previous = signal.signal(signal.SIGALRM, self._expire)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def _expire(self, signum, frame):
        raise _OutOfTime()

    def __exit__(self, *exc):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


def run_check(exercise_id: str, fn: Callable, time_limit: float | None = None) -> CheckResult:
    """Run exercise `exercise_id`'s rules on `fn` and return the result; shows nothing, raises
    nothing about the answer (only ValueError for an exercise id that does not exist). The check
    stops after `time_limit` seconds (default: the exercise's, TIME_LIMIT unless it says
    otherwise), and on KeyboardInterrupt, with a result saying so."""
    require_text("exercise_id", exercise_id, empty=False)
    exercise = registered(exercise_id)
    if exercise is None:
        raise ValueError(
            f"No exercise {exercise_id!r} (exercise_id). Known exercises: {', '.join(exercises())}."
        )
    title = exercise.title
    if not callable(fn):
        return CheckResult(
            exercise_id,
            FAILED,
            title,
            f"check() needs your function itself, got {type(fn).__name__}.",
            f"pass the function's name without calling it, e.g. check({exercise_id!r},"
            " my_function).",
            [{"name": "a function is given", "passed": False}],
        )
    limit = exercise.time_limit if time_limit is None else time_limit
    _TRIED.clear()
    try:
        # The answer runs on hundreds of inputs: a print left in it would flood the cell, so its
        # output is dropped.
        with (
            _TimeLimit(limit),
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
        ):
            detail = exercise.run(fn)
        result = CheckResult(exercise_id, PASSED, title, detail or "", rules=list(_TRIED))
    except ExerciseFailed as failure:
        tried(failure.name, False)
        result = CheckResult(
            exercise_id,
            failure.status,
            title,
            failure.rule,
            failure.hint,
            [] if failure.status == NOT_ATTEMPTED_STATUS else list(_TRIED),
        )
    except _OutOfTime:
        tried("finishes in time", False)
        result = CheckResult(
            exercise_id,
            ERROR,
            title,
            f"the check did not finish within {limit:g} s: your function "
            "may loop forever on one of the inputs.",
            "look for a loop whose condition never changes, and run your function by hand on a "
            "small input.",
            list(_TRIED),
        )
    except KeyboardInterrupt:
        tried("finishes in time", False)
        result = CheckResult(
            exercise_id,
            ERROR,
            title,
            "the check was interrupted before it finished.",
            "run this cell again; if it never ends, look for a loop in your function that never"
            " stops.",
            list(_TRIED),
        )
    # something the rules did not foresee: still one line, never a traceback
    except Exception as error:
        tried("the check finishes", False)
        result = CheckResult(
            exercise_id,
            ERROR,
            title,
            f"the check could not finish on your function ({type(error).__name__}:"
            f" {_short(str(error), 200)}).",
            "run your function by hand on a small input and look at what it returns.",
            list(_TRIED),
        )
    finally:
        _TRIED.clear()
    _LAST_STATUS[exercise_id] = (fn, result.status)
    return result


def check(exercise_id: str, fn: Callable) -> None:
    """Run exercise `exercise_id`'s rules on `fn` and show the one-line result (with its MIME
    bundle)."""
    result = run_check(exercise_id, fn)
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # plain Python: the line is enough
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(result)
    else:
        print(result.line())
    if os.environ.get("WORKBOOK_CHECKS_RAISE", "") not in ("", "0") and result.status != PASSED:
        raise ExerciseFailed(
            (
                f"Exercise {exercise_id}: {result.rule}\n  Hint: {result.hint}"
                if result.status != NOT_ATTEMPTED_STATUS
                else result.line()
            ),
            result.rule,
            result.hint,
            result.status,
        )


def mine(exercise_id: str, fn: Callable) -> Callable:
    """Your function for the cells that follow if it passes its check; otherwise the harness's
    reference, so that a wrong answer never breaks the cells below. Either way one line says which.
    """
    require_text("exercise_id", exercise_id, empty=False)
    # the cells below call it: a non-function would fail there, far from here
    require_callable("fn", fn)
    checked, status = _LAST_STATUS.get(exercise_id, (None, None))
    if checked is not fn:  # redefined since its check (or never checked): check this one, quietly
        status = run_check(exercise_id, fn).status
    name = registered(exercise_id).reference.rpartition(".")[2]
    # said too: the lessons tell the student the next cell says whose function runs
    if status == PASSED:
        print(
            f"Exercise {exercise_id} passes: using your {getattr(fn, '__name__', name)} from"
            " here on."
        )
        return fn
    if status == NOT_ATTEMPTED_STATUS:
        print(
            f"Exercise {exercise_id} not attempted yet: the cells below use the harness's {name}"
            " instead of yours."
        )
    else:
        print(
            f"Your {getattr(fn, '__name__', name)} does not pass {exercise_id} yet: the cells below"
            f" use the harness's {name}."
        )
    return reference(exercise_id)


def whose(exercise_id: str, fn: Callable) -> str:
    """What a panel says of the function it runs: "your bill", or "the harness's bill" when `fn` is
    the reference (what `mine` hands on while the exercise does not pass).

    >>> from harness.billing import bill
    >>> whose("7.1", bill), whose("7.1", lambda usage, price: 0.0)
    ("the harness's bill", 'your bill')
    """
    name = registered(exercise_id).reference.rpartition(".")[2]
    return f"the harness's {name}" if fn is reference(exercise_id) else f"your {name}"


def ran_by(*uses: tuple) -> str:
    """The line a panel shows under its readout: whose function it runs for each (exercise,
    function).

    >>> from harness.compaction import compact
    >>> ran_by(("5.2", compact))
    "runs the harness's compact (5.2)"
    """
    return "runs " + ", ".join(
        f"{whose(exercise_id, fn)} ({exercise_id})" for exercise_id, fn in uses
    )


def _stub(*args, **kwargs):
    """What a lesson ships in place of a solution (used by the docstring example above)."""
    raise NotImplementedError("Exercise")
