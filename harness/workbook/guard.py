"""Read a rebuilt exercise function (`rebuild.py`) for every way it could decide its own check.

    >>> from harness.workbook.rebuild import rebuild
    >>> cell = "import harness.usage as u\\ndef describe_usage(x):\\n    return u.describe_usage(x)"
    >>> rebuilt = rebuild([(3, cell)], "describe_usage")
    >>> evidence(rebuilt)
    []
    >>> reached(rebuilt, "harness.usage.describe_usage")
    ['cell 3, line 3: `return u.describe_usage(x)` (reaches the harness.usage.describe_usage the check compares against)']

The function is checked in a fresh interpreter (`verify.py`), so what its kernel did cannot reach
the check; what is left is what the rebuilt code itself does while the check runs. `evidence`
lists, with the line, each thing in it that could change or skip the check rather than compute:
code built at run time (`exec`, `eval`, `compile`, `__import__`), the interpreter's and the
checks' machinery (`sys`, `builtins`, `importlib`, `inspect`, `gc`, `ctypes`, `os`,
`harness.checks` as a module, `harness.workbook`, IPython), frames and dunder attributes, a
changed module attribute, a class that redefines how its values compare or compute (a float whose
subtraction gives 0), and `mine(...)` anywhere but its lesson form `f = mine("N.M", f)`. `reached`
finds the exercise's own reference named through an import or a module attribute; `verify.py`
also catches it at run time, however it was found (`sys.modules`, `getattr` chains, `mine`).
`changed_from_reference` says whether the function is the reference's code with other names and
layout, or that with a few statements added, removed or changed (a copy with a no-op line in it).
None of it is secret: a student who reads this file learns what not to write.
"""  # noqa: E501

import ast
import copy
import difflib
import inspect
import textwrap

from harness.workbook.rebuild import Rebuilt, parse

RUNTIME_CODE = {
    "exec",
    "eval",
    "compile",
    "__import__",
    "globals",
    "locals",
    "breakpoint",
    "get_ipython",
    "__builtins__",
    "__loader__",
    "__spec__",
    "setattr",
    "delattr",
    "open",
    "input",
    "exit",
    "quit",
}
CHECKS_MACHINERY = {"check", "run_check", "reference", "exercises"}
DENIED_MODULES = (
    "sys",
    "builtins",
    "importlib",
    "inspect",
    "gc",
    "ctypes",
    "os",
    "posix",
    "signal",
    "subprocess",
    "threading",
    "_thread",
    "multiprocessing",
    "concurrent",
    "io",
    "_io",
    "pickle",
    "marshal",
    "copyreg",
    "runpy",
    "code",
    "codeop",
    "pdb",
    "bdb",
    "atexit",
    "weakref",
    "types",
    "dis",
    "opcode",
    "site",
    "socket",
    "resource",
    "faulthandler",
    "tracemalloc",
    "unittest",
    "IPython",
    "ipykernel",
    "jupyter_client",
    "nbclient",
    "nbformat",
    "__main__",
    "harness.workbook",
)
CHECKS_PACKAGE = (  # its constants may be imported by name; the module itself is the checks' world
    "harness.checks"
)
ALLOWED_DUNDERS = {"__name__", "__doc__", "__class__", "__init__", "__post_init__", "__qualname__"}
INTROSPECTION = {
    "f_back",
    "f_globals",
    "f_locals",
    "f_builtins",
    "f_code",
    "tb_frame",
    "tb_next",
    "gi_frame",
    "cr_frame",
    "ag_frame",
    "gi_code",
    "cr_code",
    "co_code",
    "co_consts",
    "modules",
    "setprofile",
    "settrace",
    "getsource",
    "run_cell",
    "import_module",
    "attrgetter",
    "methodcaller",
    "_CHECKS",
    "_LAST_STATUS",
}
NEAR_COPY = 3  # statements changed, at most, for a function still to be shown as the reference's
LONG = (
    10  # statements: a reference this long is not written again, statement for statement, by chance
)
HARMLESS_CLASS_DUNDERS = {
    "__init__",
    "__post_init__",
    "__repr__",
    "__str__",
    "__slots__",
    "__doc__",
    "__module__",
    "__qualname__",
    "__annotations__",
}


def denied(module: str) -> bool:
    """Whether importing `module` (dotted) gives the code a way into the interpreter or the
    checks."""
    return any(module == name or module.startswith(name + ".") for name in DENIED_MODULES)


def _imports(tree: ast.Module) -> dict[str, str]:
    """Top-level name -> the dotted path it was imported as (`import harness.usage as u` -> u:
    harness.usage)."""
    bound = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module:
            bound.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
    return bound


def chains(tree: ast.AST) -> list[tuple[ast.Attribute, str, list[str]]]:
    """Every outermost `a.b.c` in the code: (node, root name, attribute names)."""
    found, inner = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            names, current = [], node
            while isinstance(current, ast.Attribute):
                names.insert(0, current.attr)
                inner.add(id(current.value))
                current = current.value
            if isinstance(current, ast.Name):
                found.append((node, current.id, names))
    return found


def _is_lesson_mine(node: ast.stmt) -> bool:
    """`f = mine("N.M", f)`: the lesson's own way to go on with the reference when an exercise is
    not attempted."""
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "mine"
        and len(node.value.args) == 2
        and isinstance(node.value.args[0], ast.Constant)
        and isinstance(node.value.args[1], ast.Name)
        and node.value.args[1].id == node.targets[0].id
    )


def _findings(tree: ast.Module) -> list[tuple[int, str]]:
    imported = _imports(tree)
    lesson_mine = {id(n.value.func) for n in tree.body if _is_lesson_mine(n)}
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            for module in modules:
                if denied(module):
                    found.append((line, f"imports {module}, which can change how the check runs"))
                elif isinstance(node, ast.Import) and (
                    module == CHECKS_PACKAGE or module.startswith(CHECKS_PACKAGE + ".")
                ):
                    found.append((line, f"imports the module {module}, the checks' own code"))
                elif isinstance(node, ast.ImportFrom) and module.startswith(CHECKS_PACKAGE):
                    found += [
                        (line, f"imports the checks' {a.name}")
                        for a in node.names
                        if a.name in CHECKS_MACHINERY
                    ]
        elif isinstance(node, ast.Name) and node.id in RUNTIME_CODE:
            found.append(
                (line, f"uses {node.id}, which runs or reaches code the notebook does not show")
            )
        elif isinstance(node, ast.Name) and node.id == "mine" and id(node) not in lesson_mine:
            found.append((line, "uses mine(...), which hands back the harness's reference"))
        elif (
            isinstance(node, ast.Name)
            and node.id in CHECKS_MACHINERY
            and imported.get(node.id, "").startswith(CHECKS_PACKAGE)
        ):
            found.append((line, f"uses the checks' {node.id}"))
        elif isinstance(node, ast.Attribute) and (
            (node.attr.startswith("__") and node.attr not in ALLOWED_DUNDERS)
            or node.attr in INTROSPECTION
        ):
            found.append((line, f"reads .{node.attr}, the interpreter's or the checks' inside"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "type"
            and len(node.args) == 3
        ):
            found.append((line, "makes a class at run time with type(name, bases, body)"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in imported
            and not (len(node.args) > 1 and isinstance(node.args[1], ast.Constant))
        ):
            found.append(
                (line, f"looks up a name of {imported[node.args[0].id]} computed at run time")
            )
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "vars"
            and (
                not node.args
                or (isinstance(node.args[0], ast.Name) and node.args[0].id in imported)
            )
        ):
            found.append((line, "reads the names of a module or of the notebook with vars()"))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                names = (
                    [item.name]
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    else [t.id for t in getattr(item, "targets", []) if isinstance(t, ast.Name)]
                )
                for name in names:
                    if (
                        name.startswith("__")
                        and name.endswith("__")
                        and name not in HARMLESS_CLASS_DUNDERS
                    ):
                        found.append(
                            (
                                getattr(item, "lineno", line),
                                (
                                    f"class {node.name} redefines {name}, how its "
                                    "values compare or compute, which the check relies on"
                                ),
                            )
                        )
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                root = target
                while isinstance(root, (ast.Attribute, ast.Subscript)):
                    root = root.value
                if root is not target and isinstance(root, ast.Name) and root.id in imported:
                    found.append((line, f"changes {imported[root.id]}, which the check may read"))
    for node, root, names in chains(tree):
        if root in imported:
            path = ".".join([imported[root], *names])
            if denied(path) or (
                path.startswith(CHECKS_PACKAGE + ".") and any(n in CHECKS_MACHINERY for n in names)
            ):
                found.append((node.lineno, f"reaches {path}"))
    return found


def _shown(rebuilt: Rebuilt, line: int, why: str) -> str:
    text = (
        rebuilt.source.splitlines()[line - 1].strip()
        if 1 <= line <= len(rebuilt.source.splitlines())
        else ""
    )
    return f"{rebuilt.where(line)}: `{text[:120]}` ({why})"


def evidence(rebuilt: Rebuilt) -> list[str]:
    """Each line of the rebuilt code that could decide the check instead of computing, and why."""
    tree = parse(rebuilt.source)
    return [_shown(rebuilt, line, why) for line, why in sorted(set(_findings(tree)))]


def reached(rebuilt: Rebuilt, reference: str) -> list[str]:
    """Each line naming the exercise's reference (`harness.usage.describe_usage`) through an
    import or attribute."""
    tree = parse(rebuilt.source)
    imported = _imports(tree)
    found = [
        (node.lineno, ".".join([imported[root], *names]))
        for node, root, names in chains(tree)
        if root in imported
    ]
    found += [
        (node.lineno, imported[node.id])
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id in imported
    ]
    why = f"reaches the {reference} the check compares against"
    return [_shown(rebuilt, line, why) for line, path in sorted(set(found)) if path == reference]


class _Locals(ast.NodeTransformer):
    """The function's own names (parameters, locals, its name) made one; docstrings and annotations
    dropped. Names from outside (builtins, the helpers it imports) are kept: they are the code's."""

    def __init__(self, local: set[str]):
        self.local = local

    def visit_Name(self, node):
        return ast.copy_location(
            ast.Name("_" if node.id in self.local else node.id, node.ctx), node
        )

    def visit_arg(self, node):
        node.arg, node.annotation = "_", None
        return node

    def visit_FunctionDef(self, node):
        node.name, node.returns = "_", None
        docstring = (
            node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        )
        node.body = (
            node.body[1:] if docstring and isinstance(node.body[0].value.value, str) else node.body
        )
        node.body = node.body or [ast.Pass()]
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef


BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def statements(function_source: str) -> list[str]:
    """The function's statements, in order, each as its normalised shape without the statements
    nested in it or its decorators: what two copies of one function share however they are named,
    laid out and decorated (the references' `@checked` argument checks)."""
    tree = parse(textwrap.dedent(function_source))
    local = {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    local |= {
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
    }
    local |= {
        n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    found = []

    def visit(node):
        if isinstance(node, ast.stmt):
            shallow = copy.copy(node)
            for name in (*BODIES, "decorator_list"):  # the reference's argument checks aside
                if hasattr(shallow, name):
                    setattr(shallow, name, [])
            found.append(ast.dump(shallow, annotate_fields=False))
        for name in BODIES:
            for child in getattr(node, name, []) or []:
                visit(child)

    for node in _Locals(local).visit(tree).body:
        visit(node)
    return found


def function_source(rebuilt: Rebuilt, name: str) -> str | None:
    """The source of the last `def name` in the rebuilt code."""
    tree = parse(rebuilt.source)
    defs = [
        n
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
    ]
    return ast.get_source_segment(rebuilt.source, defs[-1]) if defs else None


def changed_from_reference(rebuilt: Rebuilt, name: str, reference) -> int | None:
    """How many statements tell the function from the reference's code (names and layout aside) when
    it is a copy: the reference's statements all there, in order, and at most NEAR_COPY others (a
    copy with a no-op line in it), or, for a reference of LONG statements or more, at most
    NEAR_COPY added, removed or changed. None when it is not a copy, or cannot be read. A short
    reference less a statement is left alone: that is how an honest one-line answer looks."""
    mine = function_source(rebuilt, name)
    try:
        theirs = statements(inspect.getsource(reference))
    except (OSError, TypeError, SyntaxError):
        return None
    if mine is None:
        return None
    ours = statements(mine)
    kept = sum(
        b.size
        for b in difflib.SequenceMatcher(None, theirs, ours, autojunk=False).get_matching_blocks()
    )
    missing, added = len(theirs) - kept, len(ours) - kept
    if missing == 0 and added <= NEAR_COPY:
        return added
    if len(theirs) >= LONG and missing + added <= min(NEAR_COPY, len(theirs) // 5):
        return missing + added
    return None
