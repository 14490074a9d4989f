"""An exercise's function rebuilt from the notebook's own source: the cells that define it, and what
it needs.

    >>> cells = [(1, "import re\\nX = 2\\nclient = connect()"), (2, "def f(s):\\n    return re.sub('a', 'b', s) * X")]
    >>> print(rebuild(cells, "f").source, end="")
    import re
    X = 2
    def f(s):
        return re.sub('a', 'b', s) * X

The grader checks this source in a fresh interpreter (`verify.py`), so nothing the student's code
did to its kernel (callbacks, profilers, patched builtins, module constants) reaches the check.
Only statements that bind a name at the top of a cell are kept (imports, `def`, `class`,
assignments): the last binding of the function before its check cell, then, for each global
name it uses, the last binding before the check cell (a function body reads globals when it is
called) or, for a name a top-level statement uses, the last binding before that statement. Lines
that are IPython magics (`%time`, `!pip`) are blanked; a cell that does not parse is left out.
`lines` maps each line of the source back to (cell, line in the cell), for the evidence shown.
"""

import ast
import builtins
import re
import symtable
import threading
from dataclasses import dataclass, field

# CPython 3.11's ast.parse keeps a depth counter that the threads of `grade --jobs` share
# (gh-106905): one notebook of the tricks test came out "SystemError: AST constructor recursion
# depth mismatch". The grader's own parses go through `parse`, one thread at a time.
_PARSING = threading.Lock()


def parse(source: str) -> ast.Module:
    """`ast.parse(source)`, one thread of this process at a time."""
    with _PARSING:
        return ast.parse(source)


MAGIC = re.compile(r"^\s*[%!].*$", re.MULTILINE)


@dataclass
class Rebuilt:
    source: str
    # source line - 1 -> (cell, line in the cell)
    lines: list[tuple[int, int]] = field(default_factory=list)
    found: bool = True  # whether the notebook binds the function's name at all

    def where(self, line: int) -> str:
        """`cell 5, line 3` for a line of `source` (1-based)."""
        if 1 <= line <= len(self.lines):
            cell, at = self.lines[line - 1]
            return f"cell {cell}, line {at}"
        return f"line {line}"


@dataclass
class Statement:
    cell: int
    first_line: int  # 1-based, in the cell
    text: str
    binds: set[str]
    needs_now: set[str]  # global names read when the statement runs
    needs_later: set[str]  # global names read by the functions it defines, when they are called


def binds(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Import):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.ImportFrom):
        return {a.asname or a.name for a in node.names if a.name != "*"}
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, (ast.AnnAssign, ast.AugAssign))
        else []
    )
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _globals_read(text: str) -> tuple[set[str], set[str]]:
    """(names the statement's own code reads at the top, names its nested functions and classes
    read as globals)."""
    table = symtable.symtable(text, "<cell>", "exec")
    now = {s.get_name() for s in table.get_symbols() if s.is_referenced()}
    later: set[str] = set()
    stack = list(table.get_children())
    while stack:
        child = stack.pop()
        stack += child.get_children()
        for symbol in child.get_symbols():
            if symbol.is_global() and symbol.is_referenced():
                (now if child.get_type() == "class" else later).add(symbol.get_name())
    return now, later


def statements(cells: list[tuple[int, str]]) -> list[Statement]:
    """The top-level binding statements of the cells, in order."""
    found = []
    for cell, source in cells:
        source = MAGIC.sub("", source)
        try:
            tree = parse(source)
        except (SyntaxError, ValueError):
            continue  # the kernel reported it; nothing in it can be rebuilt
        lines = source.splitlines()
        for node in tree.body:
            names = binds(node)
            if not names:
                continue
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            if isinstance(
                node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.AugAssign)
            ):
                text = ast.get_source_segment(source, node) or ""
            else:
                text = "\n".join(lines[first - 1 : node.end_lineno])
            try:
                now, later = _globals_read(text)
            except SyntaxError:
                continue
            found.append(
                Statement(
                    cell, first, text, names, now - set(dir(builtins)), later - set(dir(builtins))
                )
            )
    return found


def _only(statement: Statement, names: set[str]) -> str:
    """An import statement cut down to the names needed (`from m import a, b, c` -> `from m
    import b`)."""
    node = parse(statement.text).body[0]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        node.names = [a for a in node.names if (a.asname or a.name).split(".")[0] in names]
        return ast.unparse(node)
    return statement.text


def rebuild(cells: list[tuple[int, str]], name: str) -> Rebuilt:
    """The source that defines `name` as the cells (cell number, source) left it; see the
    module's docstring."""
    found = statements(cells)
    chosen: dict[int, set[str]] = {}  # statement index -> the names it is kept for

    def need(names: set[str], before: int) -> None:
        for wanted in names:
            index = next((i for i in range(before - 1, -1, -1) if wanted in found[i].binds), None)
            if index is None or wanted in chosen.get(index, ()):
                continue
            chosen.setdefault(index, set()).add(wanted)
            need(found[index].needs_now, index)
            need(found[index].needs_later, len(found))

    need({name}, len(found))
    if not chosen:
        return Rebuilt("", [], found=False)
    source, lines = [], []
    for index in sorted(chosen):
        statement = found[index]
        text = _only(statement, chosen[index])
        source.append(text)
        lines += [(statement.cell, statement.first_line + k) for k in range(len(text.splitlines()))]
    return Rebuilt("\n".join(source) + "\n", lines)
