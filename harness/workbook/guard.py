"""Runs inside the kernel that grades a notebook: proves each check ran, unmodified, on the student's code.

The grader adds two kinds of cells to the copy it runs (`restore.prepare`), which no student sees:

    import harness.workbook.guard as _workbook_guard; _workbook_guard.start()   # first, before any student cell
    _workbook_guard.verify("3.1", "build_context")                            # after each check cell

`start` records the checking machinery as loaded from the instructor's install: every function and
class of `harness.checks` and its lesson modules, each registered exercise, `check` itself, and the
display path a result takes. `verify` then shows one MIME bundle of type `GUARD_MIME_TYPE`:

    {"exercise": "3.1", "status": "passed", "problems": []}

`status` is what the original `run_check` recorded for the function now bound to that name;
`problems` lists each thing found changed since `start` (`check` redefined, a function of
`harness.checks` replaced, an exercise's rules swapped) and each reason the function is not the
student's own: not a function, not defined in a notebook cell (imported from `harness` or a file,
made by `exec`), or calling the exercise's reference implementation by name.

NOTE: this is a check in the student's own process. It stops the tricks listed above and their
plain variants; a student who reads this file and rewrites it in memory first can still fool it.
What bounds the harm is the sandbox (`sandbox.py`): such a student only ever fools their own grade.
"""
import linecache
import sys
import types

GUARD_MIME_TYPE = "application/vnd.workbook.guard+json"
WATCHED_PACKAGE = "harness.checks"

_ORIGINAL: dict = {}  # what start() saw: name -> (object, code) for every watched function and method


def _code_of(obj):
    return getattr(obj, "__code__", None)


def _watched() -> dict:
    """Name -> (object, code object or None) for everything a forged pass could replace."""
    import IPython.core.display_functions as display_functions
    import IPython.display
    from IPython import get_ipython

    import harness.checks as checks

    checks.exercises()  # loads every lesson's rules
    seen = {}
    for module_name, module in sorted(sys.modules.items()):
        if module is None or not (module_name == WATCHED_PACKAGE or module_name.startswith(WATCHED_PACKAGE + ".")):
            continue
        seen[f"sys.modules[{module_name!r}]"] = (module, None)
        for name, value in vars(module).items():
            if isinstance(value, (types.FunctionType, type)) or name in ("_CHECKS", "_LAST_STATUS"):
                seen[f"{module_name}.{name}"] = (value, _code_of(value))
            if isinstance(value, type) and value.__module__ == module_name:
                for attr, member in vars(value).items():
                    if isinstance(member, types.FunctionType):
                        seen[f"{module_name}.{name}.{attr}"] = (member, _code_of(member))
    for exercise_id, registered in checks._CHECKS.items():
        seen[f"exercise {exercise_id}"] = (registered, None)
        seen[f"exercise {exercise_id}.run"] = (registered.run, _code_of(registered.run))
    shell = get_ipython()
    publisher = shell.display_pub
    seen["IPython.display.display"] = (IPython.display.display, _code_of(IPython.display.display))
    seen["display_functions.display"] = (display_functions.display, _code_of(display_functions.display))
    seen["display_functions.publish_display_data"] = (display_functions.publish_display_data, None)
    seen["the display publisher"] = (publisher, None)
    seen["the display publisher's publish"] = (getattr(publisher.publish, "__func__", publisher.publish), None)
    seen["the display formatter"] = (shell.display_formatter, None)
    return seen


def _students_callbacks() -> list[str]:
    """IPython event callbacks defined in the notebook: code that would run between two cells."""
    from IPython import get_ipython

    callbacks = get_ipython().events.callbacks
    return [f"a {event} callback was registered" for event in ("pre_execute", "pre_run_cell", "post_execute", "post_run_cell")
            if any(getattr(callback, "__module__", None) == "__main__" for callback in callbacks.get(event, ()))]


def start() -> None:
    """Record the checking machinery before any student cell runs."""
    _ORIGINAL.clear()
    _ORIGINAL.update(_watched())


def changed_since_start() -> list[str]:
    """What differs from what `start` recorded, one phrase each."""
    now = _watched()
    problems = []
    for name, (obj, code) in _ORIGINAL.items():
        if name not in now:
            problems.append(f"{name} was removed")
        elif now[name][0] is not obj:
            problems.append(f"{name} was replaced")
        elif code is not None and now[name][1] is not code:
            problems.append(f"{name}'s code was replaced")
    return problems + _students_callbacks()


def _names_used(code: types.CodeType) -> set[str]:
    """Global names a function's code (and the functions defined inside it) refers to."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names_used(const)
    return names


def not_the_students_own(fn, reference) -> list[str]:
    """Why `fn` is not a function the student wrote in a notebook cell (empty when it is)."""
    if not isinstance(fn, types.FunctionType):
        return [f"the function checked is a {type(fn).__name__}, not a function defined with def in the notebook"]
    problems = []
    code = fn.__code__
    entry = linecache.cache.get(code.co_filename)
    in_a_cell = entry is not None and len(entry) == 4 and entry[1] is None  # IPython's cells have no mtime
    if fn.__module__ != "__main__" or not in_a_cell:
        problems.append(f"{fn.__name__} is not defined in a cell of this notebook (it comes from "
                        f"{fn.__module__}, {code.co_filename})")
    used = [fn.__globals__.get(name) for name in _names_used(code)]
    used += [cell.cell_contents for cell in (fn.__closure__ or ()) if _has_contents(cell)]
    used += list(fn.__defaults__ or ()) + list((fn.__kwdefaults__ or {}).values())
    if any(value is reference for value in used):
        problems.append(f"{fn.__name__} calls the harness's own {reference.__name__} instead of doing the work")
    return problems


def _has_contents(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:  # an empty closure cell
        return False
    return True


def verify(exercise_id: str, name: str) -> None:
    """Show the guard's finding for the check cell of `exercise_id`, which checked `name`."""
    from IPython import get_ipython
    from IPython.display import display

    import harness.checks as checks

    shell = get_ipython()
    fn = shell.user_ns.get(name)
    problems = changed_since_start()
    if shell.user_ns.get("check") is not _ORIGINAL["harness.checks.check"][0]:
        problems.append("check was redefined in the notebook")
    checked, status = checks._LAST_STATUS.get(exercise_id, (None, None))
    if status is None:
        problems.append(f"check({exercise_id!r}, ...) never ran")
    elif checked is not fn:
        problems.append(f"the function checked is not the {name} the notebook defines")
    if status not in (None, checks.NOT_ATTEMPTED_STATUS):  # a stub is the lesson's own code
        problems += not_the_students_own(fn, checks.reference(exercise_id))
    display({GUARD_MIME_TYPE: {"exercise": exercise_id, "status": status, "problems": problems}}, raw=True)
