"""The student surface: the course's code as a graded function may import it, without the answers.

    >>> boot = build(Path(tmp) / "surface", {"harness.context.build_context", ...})   # doctest: +SKIP
    >>> read_only_paths(Path(tmp) / "surface")                                         # doctest: +SKIP
    ['/tmp/.../surface', '/usr/lib/python3.11', '.../site-packages/google', ...]

`build` copies the `harness` package the grader runs, less `checks/` and `quizzes/`, and replaces
the body of every exercise's reference with a call of `service.forward`, which asks the checker
to run it: a graded function may use the harness's reference of an earlier piece (lesson 06's
compact calls lesson 05's safe_split_points), as the lesson's own cells do, but the reference of
the exercise being graded is refused there, and no reference body is in the copy to read, load
under another name or run in a child process. `harness/checks` keeps only `mine` (answered by the
checker) and a `check` that says the checks are not here. `boot.py` starts `service.main` with
`sys.path` set to the surface first, then Python's own folders.

`read_only_paths` is what the jail shows of the machine besides: the surface, Python's standard
library, and each entry of site-packages except the installed workbook (a `pip install` of the
course puts the whole `harness`, checks and references, in there).
"""

import ast
import os
import shutil
import sys
import sysconfig
from pathlib import Path

import harness
from harness.workbook.rebuild import parse

PACKAGE = Path(harness.__file__).resolve().parent
LEFT_OUT = ("checks", "quizzes")  # folders of the package a graded function never gets
CHECKS = '''"""The checks are not in the student surface the grader serves a function from (harness/workbook/surface.py)."""
from harness.workbook.service import mine

__all__ = ["check", "mine"]


def check(exercise_id, fn):
    raise RuntimeError("the checks run in the grader, not beside the function it grades")
'''  # noqa: E501
BOOT = """import sys
sys.path[:] = {paths!r}
from harness.workbook.service import main
main()
"""
FORWARD = "_workbook_forward"


def _forwarding(node: ast.FunctionDef, path: str) -> ast.FunctionDef:
    """`node` with its body (a docstring aside) replaced by `return forward(path, <its
    parameters>)`."""
    a = node.args
    args = [ast.Name(p.arg) for p in a.posonlyargs + a.args]
    if a.vararg:
        args.append(ast.Starred(ast.Name(a.vararg.arg)))
    keywords = [ast.keyword(p.arg, ast.Name(p.arg)) for p in a.kwonlyargs]
    if a.kwarg:
        keywords.append(ast.keyword(None, ast.Name(a.kwarg.arg)))
    call = ast.Call(ast.Name(FORWARD), [ast.Constant(path), *args], keywords)
    docstring = node.body[:1] if ast.get_docstring(node) is not None else []
    node.body = [*docstring, ast.Return(call)]
    return node


def stubbed(source: str, module: str, names: set[str]) -> str:
    """The module's source with each top-level function in `names` forwarding to the checker."""
    tree = parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            _forwarding(node, f"{module}.{node.name}")
    first = next((i for i, n in enumerate(tree.body) if not _is_preamble(n)), len(tree.body))
    tree.body.insert(
        first, parse(f"from harness.workbook.service import forward as {FORWARD}").body[0]
    )
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _is_preamble(node: ast.stmt) -> bool:
    """A module docstring or a `from __future__` import: what must stay first."""
    docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    return docstring or (isinstance(node, ast.ImportFrom) and node.module == "__future__")


def python_paths() -> list[str]:
    """Python's own import folders, in order, without this workbook's editable-install hook."""
    return [
        p for p in sys.path if p and os.path.isdir(p) and os.path.realpath(p) != str(PACKAGE.parent)
    ]


def service_path(folder: Path) -> list[str]:
    """The service's sys.path: the surface under `folder` first, then Python's own folders."""
    return [str(folder), *python_paths()]


def build(folder: Path, references: set[str]) -> Path:
    """The surface under `folder` (which must not exist) for the references `module.name`; its
    boot.py."""
    left_out = {str(PACKAGE / name) for name in LEFT_OUT}
    shutil.copytree(
        PACKAGE,
        folder / "harness",
        ignore=lambda where, names: [
            n
            for n in names
            if n == "__pycache__" or n.endswith(".pyc") or os.path.join(where, n) in left_out
        ],
    )
    (folder / "harness" / "checks").mkdir()
    (folder / "harness" / "checks" / "__init__.py").write_text(CHECKS, encoding="utf-8")
    by_module: dict[str, set[str]] = {}
    for path in references:
        module, _, name = path.rpartition(".")
        by_module.setdefault(module, set()).add(name)
    for module, names in by_module.items():
        file = folder / Path(*module.split(".")).with_suffix(".py")
        file.write_text(stubbed(file.read_text(encoding="utf-8"), module, names), encoding="utf-8")
    boot = folder / "boot.py"
    boot.write_text(BOOT.format(paths=service_path(folder)), encoding="utf-8")
    for path in [folder, *folder.rglob("*")]:  # the service's own user reads it, and nothing more
        path.chmod(0o755 if path.is_dir() else 0o644)
    return boot


def _is_the_workbook(name: str) -> bool:
    return name.startswith(
        ("harness", "__editable__", "context_engineering_workbook")
    ) or name.endswith(".pth")


def read_only_paths(surface: Path) -> list[str]:
    """What the service's jail shows read-only: the surface, Python, site-packages less the
    workbook."""
    shown = {
        str(surface),
        os.path.realpath(sys.base_prefix),
        os.path.dirname(os.path.realpath(sys._base_executable)),
    }
    for folder in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
        if os.path.isdir(folder) and os.path.realpath(folder) not in shown:
            shown.update(
                os.path.join(folder, n) for n in os.listdir(folder) if not _is_the_workbook(n)
            )
    for path in shown:
        if PACKAGE == Path(path) or Path(path) in PACKAGE.parents:
            raise RuntimeError(
                f"the grading jail would show {PACKAGE} (the checks, the references) to the "
                f"student's function through {path}: install the workbook in a venv"
            )
    return sorted(shown)
