"""The engine is a generic mechanism: it imports only itself and the leaf modules, and names no task."""
import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).parent.parent / "harness" / "engine"
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
            found += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names if node.module == "harness"]
    return [name for name in found if name == "harness" or name.startswith("harness.")]


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_the_engine_imports_only_itself_and_the_leaf_modules(path):
    strays = [name for name in harness_imports(path)
              if not any(name == ok or name.startswith(ok + ".") for ok in ALLOWED)]
    assert not strays, (f"{path.name} imports {strays}: the engine may import only {', '.join(ALLOWED)}. "
                        "Move shared text formats to harness/formats.py; scenarios register themselves.")


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_the_engine_names_no_task(path):
    hits = [f"line {n}: {line.strip()}" for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if TASK_WORDS.search(line)]
    assert not hits, f"{path.name} names a scenario's files, tools or bugs ({hits[:3]}): move it to harness/scenarios/."


def test_the_import_lister_sees_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("import os\nfrom harness.engine import reader\ndef f():\n    from harness import MODEL\n")
    assert harness_imports(source) == ["harness.engine", "harness", "harness.MODEL"]
