"""`workbook COMMAND ...` (or `python -m harness COMMAND ...`): the workbook's command line.

`workbook` is the console script `pip install` puts beside the kernel's python, so it is on the
PATH of a JupyterLab terminal, a hub's terminal and an activated venv alike.

Each command lives in its own module with a `main(argv) -> int`; this file dispatches, and turns
anything a command did not expect into one line naming the command and what went wrong (exit 1),
never a traceback: a student in a terminal can act on a sentence, not on a stack.
"""

import importlib
import sys

COMMANDS = {
    "build": ("harness.workbook.build", "generate lessons/ from solutions/ (--check: only verify)"),
    "check": (
        "harness.workbook.check",
        "run your lesson notebooks and list each exercise's status",
    ),
    "grade": ("harness.workbook.grade", "grade a cohort: one folder of notebooks per student"),
    "update": (
        "harness.workbook.update",
        "pull your instructor's fixes; bring back any the pull dropped",
    ),
    "reset": ("harness.workbook.reset", "restore a pristine lesson, keeping yours as a backup"),
    "release": (
        "harness.workbook.release",
        "write what a student gets (lessons, no solutions) to a folder or branch",
    ),
    "doctor": (
        "harness.workbook.doctor",
        "check this machine before class: mode, key, model, JupyterLab, timing",
    ),
    "demo": (
        "harness.agent.demo",
        "run the agent on a coding task offline (--task) and print its turns",
    ),
}


def usage() -> str:
    lines = [
        "usage: workbook COMMAND [ARGS]   (or: python -m harness COMMAND [ARGS])",
        "",
        "commands:",
    ]
    lines += [f"  {name:<14} {about}" for name, (_, about) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    if argv[0] not in COMMANDS:
        print(f"Unknown command {argv[0]!r}.\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    try:
        return module.main(argv[1:])
    except KeyboardInterrupt:
        print(f"workbook {argv[0]}: interrupted.", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - the last resort: what the command did not foresee
        problem = str(error).splitlines()[0][:300] if str(error) else "(no message)"
        print(
            f"workbook {argv[0]}: {type(error).__name__}: {problem}\nNothing else was changed."
            f" Check the arguments (workbook {argv[0]} --help); if they are right, show this line"
            " to your instructor.",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
