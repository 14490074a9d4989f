"""Exercise checks: `check("3.1", build_context)` in a lesson cell.

A pass prints one line. A failure raises `ExerciseFailed` (an AssertionError, so nbval and pytest
report it as a plain failed assertion) naming the rule that failed and a hint that points the way
without giving the answer. Each lesson's checks live in `harness/checks/lessonNN.py` and register
themselves with `@exercise`.
"""
import importlib
import pkgutil
from typing import Callable


class ExerciseFailed(AssertionError):
    """An exercise broke one of its rules; the message says which and hints at why."""


NOT_ATTEMPTED = "not attempted yet"  # the workbook's `check` command reads this phrase

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
        raise ExerciseFailed(f"Exercise {exercise_id}: {broken_rule}\n  Hint: {hint}")


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
            "then run this check again."
        ) from None
    except Exception as error:  # the student's bug, shown as such
        shown = ", ".join([_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()])
        raise ExerciseFailed(
            f"Exercise {exercise_id}: calling your function raised {type(error).__name__}: {error}\n"
            f"  The call was: {getattr(fn, '__name__', 'fn')}({shown})\n"
            "  Hint: run the function on that input in a cell of its own and read the traceback."
        ) from error


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


def check(exercise_id: str, fn: Callable) -> None:
    """Run exercise `exercise_id`'s rules on `fn`; print one line on a pass, raise ExerciseFailed otherwise."""
    known = exercises()
    if exercise_id not in known:
        raise ValueError(f"No exercise {exercise_id!r}. Known exercises: {', '.join(known)}.")
    if not callable(fn):
        raise ExerciseFailed(
            f"Exercise {exercise_id}: check() needs your function itself, got {type(fn).__name__}.\n"
            f"  Hint: pass the function's name without calling it, e.g. check({exercise_id!r}, my_function)."
        )
    detail = known[exercise_id].run(fn)
    print(f"✔ Exercise {exercise_id} passed ({known[exercise_id].title}){': ' + detail if detail else ''}")
