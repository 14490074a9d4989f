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
inside them a broken rule raises `ExerciseFailed`, which `check` turns into the one line.
Where the tests want a wrong answer to stop a notebook, they set WORKBOOK_CHECKS_RAISE=1.
"""
import importlib
import os
import pkgutil
from dataclasses import asdict, dataclass, field
from typing import Callable

from harness.arguments import require_text

MIME_TYPE = "application/vnd.workbook.check+json"  # the structured result in a check cell's output
PASSED, FAILED, NOT_ATTEMPTED_STATUS, ERROR = "passed", "failed", "not attempted", "error"
NOT_ATTEMPTED = "not attempted yet"  # the phrase of the one line (and of ExerciseFailed in strict mode)


class ExerciseFailed(AssertionError):
    """An exercise broke one of its rules: `rule` says which, `hint` points the way."""

    def __init__(self, message: str, rule: str = "", hint: str = "", status: str = FAILED):
        super().__init__(message)
        self.rule, self.hint, self.status = rule or message, hint, status


@dataclass(frozen=True)
class CheckResult:
    """How one exercise did: what `check` shows and what the workbook's tools read."""
    exercise: str
    status: str      # passed | failed | not attempted | error
    title: str
    rule: str = ""   # failed/error: the rule broken; passed: a short detail (may be empty)
    hint: str = ""
    rules: list = field(default_factory=list)  # every rule tried: {"name": str, "passed": bool}; [] when not attempted

    def line(self) -> str:
        if self.status == PASSED:
            return f"✔ Exercise {self.exercise} passed ({self.title}){': ' + self.rule if self.rule else ''}"
        if self.status == NOT_ATTEMPTED_STATUS:
            return (f"○ Exercise {self.exercise} is {NOT_ATTEMPTED}: replace `# YOUR CODE HERE` and the "
                    "`raise` line with your code, run that cell, then this one.")
        mark = "✘" if self.status == FAILED else "⚠"
        return f"{mark} Exercise {self.exercise}: {self.rule}" + (f"  Hint: {self.hint}" if self.hint else "")

    def to_dict(self) -> dict:
        return asdict(self)

    def __repr__(self):
        return self.line()

    def _repr_html_(self):
        import html

        colour = {PASSED: "#1a7f37", NOT_ATTEMPTED_STATUS: "#6e7781"}.get(self.status, "#cf222e")
        return f'<pre style="color:{colour}; white-space:pre-wrap; margin:0">{html.escape(self.line())}</pre>'

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": self.line(), "text/html": self._repr_html_(), MIME_TYPE: self.to_dict()}

_CHECKS: dict[str, "Exercise"] = {}


class Exercise:
    def __init__(self, exercise_id: str, title: str, reference: str, run: Callable):
        self.id, self.title, self.reference, self.run = exercise_id, title, reference, run

    def __repr__(self):
        return f"Exercise({self.id!r}, {self.title!r}, reference={self.reference!r})"


def exercise(exercise_id: str, title: str, reference: str):
    """Register a check. `run(fn)` raises ExerciseFailed or returns a short success detail."""

    def register(run: Callable) -> Callable:
        _CHECKS[exercise_id] = Exercise(exercise_id, title, reference, run)
        return run

    return register


def rule(condition: bool, exercise_id: str, broken_rule: str, hint: str) -> None:
    """Fail with the broken rule and a hint unless `condition` holds."""
    if not condition:
        raise ExerciseFailed(f"Exercise {exercise_id}: {broken_rule}\n  Hint: {hint}", broken_rule, hint)


def must_refuse(exercise_id: str, fn: Callable, bad_calls, hint: str) -> None:
    """Fail unless `fn(*args)` raises ValueError for each `(args, what)` in `bad_calls`."""
    for args, what in bad_calls:
        try:
            fn(*args)
        except ValueError:
            continue
        except Exception as error:  # any other error is the wrong one
            rule(False, exercise_id, f"{what} must raise ValueError, not {type(error).__name__}.",
                 "check the arguments first.")
        rule(False, exercise_id, f"{what} must raise ValueError saying what is wrong.", hint)


def _short(value, width: int = 70) -> str:
    """A one-line repr of an argument, cut to `width` characters."""
    text = " ".join(repr(value).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def call(exercise_id: str, fn: Callable, *args, **kwargs):
    """Call the student's function; turn any exception it raises into a readable failure."""
    try:
        return fn(*args, **kwargs)
    except ExerciseFailed:
        raise
    except NotImplementedError:
        raise ExerciseFailed(
            f"Exercise {exercise_id} is {NOT_ATTEMPTED}: the function still raises NotImplementedError.\n"
            "  Hint: replace `# YOUR CODE HERE` and the `raise` line with your code, run that cell, "
            "then run this check again.", "the function still raises NotImplementedError",
            "replace `# YOUR CODE HERE` and the `raise` line with your code.", NOT_ATTEMPTED_STATUS,
        ) from None
    except Exception as error:  # the student's bug, shown as such
        shown = ", ".join([_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()])
        broken = (f"calling your function raised {type(error).__name__}: {_short(str(error), 200)} "
                  f"(the call was {getattr(fn, '__name__', 'fn')}({shown}))")
        hint = "run the function on that input in a cell of its own and read the traceback."
        raise ExerciseFailed(f"Exercise {exercise_id}: {broken}\n  Hint: {hint}", broken, hint) from error


def _load_all() -> dict[str, Exercise]:
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("lesson"):
            importlib.import_module(f"{__name__}.{module.name}")
    return _CHECKS


def exercises() -> dict[str, Exercise]:
    """Every registered exercise, by id."""
    return dict(sorted(_load_all().items(), key=lambda item: [int(x) for x in item[0].split(".")]))


def reference(exercise_id: str) -> Callable:
    """The harness's own implementation for an exercise (what the check must accept)."""
    module, _, name = exercises()[exercise_id].reference.rpartition(".")
    return getattr(importlib.import_module(module), name)


_LAST_STATUS: dict[str, tuple] = {}  # exercise id -> (the function last checked, its status)


def run_check(exercise_id: str, fn: Callable) -> CheckResult:
    """Run exercise `exercise_id`'s rules on `fn` and return the result; shows nothing, raises nothing
    about the answer (only ValueError for an exercise id that does not exist)."""
    require_text("exercise_id", exercise_id, empty=False)
    known = exercises()
    if exercise_id not in known:
        raise ValueError(f"No exercise {exercise_id!r} (exercise_id). Known exercises: {', '.join(known)}.")
    title = known[exercise_id].title
    if not callable(fn):
        return CheckResult(exercise_id, FAILED, title, f"check() needs your function itself, got {type(fn).__name__}.",
                           f"pass the function's name without calling it, e.g. check({exercise_id!r}, my_function).")
    try:
        detail = known[exercise_id].run(fn)
        result = CheckResult(exercise_id, PASSED, title, detail or "", rules=[{"name": title, "passed": True}])
    except ExerciseFailed as failure:
        tried = [] if failure.status == NOT_ATTEMPTED_STATUS else [{"name": failure.rule, "passed": False}]
        result = CheckResult(exercise_id, failure.status, title, failure.rule, failure.hint, tried)
    except Exception as error:  # something the rules did not foresee: still one line, never a traceback
        result = CheckResult(exercise_id, ERROR, title,
                             f"the check could not finish on your function ({type(error).__name__}: {_short(str(error), 200)}).",
                             "run your function by hand on a small input and look at what it returns.",
                             [{"name": "the check could finish", "passed": False}])
    _LAST_STATUS[exercise_id] = (fn, result.status)
    return result


def check(exercise_id: str, fn: Callable) -> None:
    """Run exercise `exercise_id`'s rules on `fn` and show the one-line result (with its MIME bundle)."""
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
        raise ExerciseFailed(f"Exercise {exercise_id}: {result.rule}\n  Hint: {result.hint}"
                             if result.status != NOT_ATTEMPTED_STATUS else result.line(),
                             result.rule, result.hint, result.status)


def mine(exercise_id: str, fn: Callable) -> Callable:
    """Your function for the cells that follow, or the harness's reference if you have not attempted
    the exercise yet (saying so in one line). A wrong answer is used as it is: that is the lesson."""
    require_text("exercise_id", exercise_id, empty=False)
    checked, status = _LAST_STATUS.get(exercise_id, (None, None))
    if checked is not fn:  # redefined since its check (or never checked): check this one, quietly
        status = run_check(exercise_id, fn).status
    if status == NOT_ATTEMPTED_STATUS:
        print(f"Exercise {exercise_id} not attempted yet: the cells below use the harness's "
              f"{exercises()[exercise_id].reference.rpartition('.')[2]} instead of yours.")
        return reference(exercise_id)
    return fn


def _stub(*args, **kwargs):
    """What a lesson ships in place of a solution (used by the docstring example above)."""
    raise NotImplementedError("Exercise")
