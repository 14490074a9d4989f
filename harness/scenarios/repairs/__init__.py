"""Lesson 10's task: four small independent packages, each with its own README rule, one bug and its
tests.

The packages (stock, grades, greetings, thermo) share no code, so the task splits into
independent sub-tasks: `subtask(["stock", "thermo"])` registers and returns a task whose workspace
holds only those packages, their README sections and their tests. One agent can fix the whole
task ("repairs"); a coordinator can give each sub-agent its own `subtask` (lesson 10).

>>> name = subtask(["grades"])
>>> name, sorted(p.name for p in TASKS[name].folder.iterdir() if p.is_dir())
('repairs:grades', ['grades', 'tests'])
>>> TASKS[name].bugs
1

The four bugs, each against its package's rule: a stock count of zero is not "out of stock"
(`< 0`), the pass mark itself fails (`> PASS_MARK`), names print in lower case, Fahrenheit adds
23 instead of 32. Fixed, `pytest` prints "10 passed". (With a fifth package, the scenario
invariant's hand-made trim of a compacted run no longer holds every module it must see.)
"""

import atexit
import re
import shutil
import tempfile
from pathlib import Path

from harness.engine.agent_policy import CodingAgent
from harness.engine.scenario import Skill, register
from harness.plumbing.arguments import checked, require_instance, shown
from harness.scenarios import TASKS, CodingTask, add_task

FOLDER = Path(__file__).parent / "task"
# sub-tasks 1..4, in the order the lesson adds them
PACKAGES = (
    "stock",
    "grades",
    "greetings",
    "thermo",
)
MODULES = {
    "stock": "stock/levels.py",
    "grades": "grades/marks.py",
    "greetings": "greetings/names.py",
    "thermo": "thermo/convert.py",
}


def require_packages(name: str, packages) -> None:
    """A non-empty list (or tuple) of distinct names among PACKAGES; checked before a name becomes a
    path or a pattern, so a wrong one costs nothing."""
    require_instance(name, packages, (list, tuple), "a list of package names")
    for index, package in enumerate(packages):
        require_package(f"{name}[{index}]", package)
    if not packages or len(set(packages)) != len(packages):
        raise ValueError(
            f"{name} must name distinct packages among {', '.join(PACKAGES)}, at least one; "
            f"got {shown(packages)}."
        )


def require_package(name: str, package) -> None:
    """One of PACKAGES."""
    if package not in PACKAGES:
        raise ValueError(
            f"{name} must be one of the task's packages {', '.join(PACKAGES)}, got"
            f" {shown(package)}."
        )


@checked(packages=require_packages)
def prompt_for(packages) -> str:
    """The first user message of a run on `packages`: it names their modules, so that an agent whose
    file listing was compacted away still knows which files are its own."""
    named = ", ".join(f"{p} ({MODULES[p]})" for p in packages)
    return (
        f"The tests of the packages in your workspace fail: {named}. Make each package follow its"
        " rule in README.md, run the tests to confirm, and when they pass, say what you changed."
    )


TASK = add_task(CodingTask("repairs", FOLDER, prompt=prompt_for(PACKAGES), bugs=len(PACKAGES)))
# the folder of this process's sub-task copies, made on first use, removed at exit
_BUILT: list[Path] = []


def _built() -> Path:
    if not _BUILT:
        _BUILT.append(Path(tempfile.mkdtemp(prefix="workbook-repairs-")))
        atexit.register(shutil.rmtree, _BUILT[0], True)
    return _BUILT[0]


@checked(package=require_package)
def readme_section(package: str) -> str:
    """The README's section of `package`: its heading line to the next heading."""
    found = re.search(
        rf"^## {package}\n.*?(?=^## |\Z)", (FOLDER / "README.md").read_text(), re.M | re.S
    )
    return found.group(0).rstrip() + "\n"


@checked(packages=require_packages)
def subtask(packages) -> str:
    """Register the sub-task made of `packages` (a few of PACKAGES) and return its task name.

    Its workspace is the task's own files cut down to those packages: their folders, their tests
    and a README holding the task's introduction and their sections only.
    """
    name = "repairs:" + "+".join(packages)
    if name not in TASKS:
        folder = _built() / name.replace(":", "_").replace("+", "_")
        folder.mkdir()
        for path in ("pytest.ini", "conftest.py", *packages):
            copy = shutil.copytree if (FOLDER / path).is_dir() else shutil.copy2
            copy(FOLDER / path, folder / path)
        (folder / "tests").mkdir()
        for package in packages:
            shutil.copy2(FOLDER / "tests" / f"test_{package}.py", folder / "tests")
        intro = (FOLDER / "README.md").read_text().split("\n## ", 1)[0].rstrip()
        sections = "\n".join(readme_section(p) for p in packages)
        (folder / "README.md").write_text(f"{intro}\n\n{sections}")
        add_task(CodingTask(name, folder, prompt=prompt_for(packages), bugs=len(packages)))
    return name


class Repairs(CodingAgent):
    name = "repairs"
    skills = (
        Skill(
            "out of stock at zero",
            rule=re.compile(r"\bcount reaches zero\b", re.I),
            code=re.compile(r"return (\w+) < 0\b"),
            rewrite=lambda found, code: f"return {found.group(1)} <= 0",
        ),
        Skill(
            "the pass mark passes",
            rule=re.compile(r"\bequal to the pass mark passes\b", re.I),
            code=re.compile(r"return (\w+) > PASS_MARK\b"),
            rewrite=lambda found, code: f"return {found.group(1)} >= PASS_MARK",
        ),
        Skill(
            "names in title case",
            rule=re.compile(r"\bin title case\b", re.I),
            code=re.compile(r"return (\w+)\.lower\(\)"),
            rewrite=lambda found, code: f"return {found.group(1)}.title()",
        ),
        Skill(
            "Fahrenheit adds 32",
            rule=re.compile(r"\badd 32\b", re.I),
            code=re.compile(r"\* 9 / 5 \+ 23\b"),
            rewrite=lambda found, code: "* 9 / 5 + 32",
        ),
    )


register(Repairs())
