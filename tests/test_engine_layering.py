"""The engine is a generic mechanism: it imports only itself and the leaf modules, and names no
task."""

import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).parent.parent / "harness" / "engine"
COMPAT = ENGINE / "compat"
MODULES = sorted(ENGINE.rglob("*.py"))
# The one core module that may import compat: the server dispatches to it (compat/__init__.py).
DISPATCH = ENGINE / "server.py"
ALLOWED = ("harness.engine", "harness.tokens", "harness.models", "harness.formats")
# What a scenario knows: its files, tools, variables, bugs. None of it belongs in the engine.
TASK_WORDS = re.compile(r"invoic|quantity|discount|half.up|quantize|search_course|passage", re.I)


def harness_imports(path: Path) -> list[str]:
    """Every module of the workbook `path` imports, at any depth (functions included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [node.module] + [
                f"{node.module}.{alias.name}" for alias in node.names if node.module == "harness"
            ]
    return [name for name in found if name == "harness" or name.startswith("harness.")]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_imports_only_itself_and_the_leaf_modules(path):
    strays = [
        name
        for name in harness_imports(path)
        if not any(name == ok or name.startswith(ok + ".") for ok in ALLOWED)
    ]
    assert not strays, (
        f"{path.name} imports {strays}: the engine may import only {', '.join(ALLOWED)}. "
        "Move shared text formats to harness/formats.py; scenarios register themselves."
    )


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_names_no_task(path):
    hits = [
        f"line {n}: {line.strip()}"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TASK_WORDS.search(line)
    ]
    assert not hits, (
        f"{path.name} names a scenario's files, tools or bugs ({hits[:3]}): move it to"
        " harness/scenarios/."
    )


def test_the_import_lister_sees_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "import os\nfrom harness.engine import reader\ndef f():\n    from harness import MODEL\n"
    )
    assert harness_imports(source) == ["harness.engine", "harness", "harness.MODEL"]


def compat_imports(path: Path) -> list[str]:
    """The imports of harness.engine.compat in `path`, as written."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [alias.name for alias in getattr(node, "names", [])]
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "harness.engine"
            and "compat" in names
        ):
            found.append("from harness.engine import compat")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "harness.engine.compat"
        ):
            found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found += [name for name in names if name.startswith("harness.engine.compat")]
    return found


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_the_core_reaches_compat_only_through_the_server(path):
    expected = ["from harness.engine import compat"] if path == DISPATCH else []
    assert compat_imports(path) == expected, (
        f"{path.name} imports {compat_imports(path)}: only server.py dispatches to"
        " harness.engine.compat, as `from harness.engine import compat`; a lesson's mechanism"
        " belongs in the core, a heuristic for other programs in compat."
    )


def test_the_server_uses_only_what_compat_exports():
    used = set(re.findall(r"\bcompat\.(\w+)", DISPATCH.read_text(encoding="utf-8")))
    exported = (COMPAT / "__init__.py").read_text(encoding="utf-8").split("__all__")[1]
    assert used <= set(re.findall(r'"(\w+)"', exported)), (
        f"compat/__init__.py does not export {used}"
    )


def _indexed(package: Path) -> set[str]:
    """The module names a package's docstring index lists: lines indented four spaces, a name, then
    two spaces or more before what it does."""
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    return set(re.findall(r"^    (\w+)\s{2,}", doc, re.M))


@pytest.mark.parametrize("package", [ENGINE, COMPAT], ids=["engine", "compat"])
def test_the_index_lists_every_module(package):
    modules = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    modules |= {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    indexed = _indexed(package)
    assert modules <= indexed, (
        f"{package.name}/__init__.py's index misses {sorted(modules - indexed)}: "
        "add a line naming each module and its one idea."
    )
    assert indexed <= modules, (
        f"{package.name}/__init__.py's index names {sorted(indexed - modules)}, which are not"
        " modules"
    )
