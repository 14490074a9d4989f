"""`workbook release OUT [--branch NAME]`: write what a student gets, and nothing else.

    $ python -m harness release ../student --branch student
    wrote ../student: 13 lessons, the harness package, README.md, pyproject.toml
    committed it to branch student (a1b2c3d) for nbgitpuller; push it: git push origin student

A release holds the lessons (built from solutions/, so never stale) with the glossary and every
other file a lesson links to, their pristine copies for `workbook reset` (.workbook/pristine/), the
`harness` package and `pyproject.toml` to install it (which also installs jupyter/overrides.json,
the settings that silence JupyterLab's news toast), and a README for students. It holds no
solutions/, no tests, no CI and no author notes. A release is refused, naming the cell, when a check
cell is no longer the call alone (its exercise would vanish from `workbook check` and the
gradebook), or when a lesson links to a file that does not exist.

OUT must be new, empty, or an earlier release (its files are replaced; a `.git` in it is kept, so
OUT can be a clone of a student repository). `--branch NAME` also commits the release to branch NAME
of this repository, one commit on top of the last, without touching the working tree: the branch an
nbgitpuller link pulls, whatever the repository is called.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from harness.workbook import PRISTINE, ROOT, SOLUTIONS
from harness.workbook.build import CHECK_CELL, expected_files, expected_lessons

# a markdown link; its #anchor dropped
LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?:#[^)\s]*)?\)")
# what a check cell starts with
CALLS_CHECK = re.compile(r"^\s*check\(\s*[\"']\d+\.\d+[\"']", re.MULTILINE)
MARKER = Path(".workbook") / "release.json"  # says "this folder is a release": safe to replace
SHIPPED = (
    "pyproject.toml",
    "jupyter/overrides.json",  # copied as they are, beside the package
    "jupyter/jupyter_server_config.d/context-engineering-workbook.json",
)
# Lessons an earlier release shipped under another name: old file -> new file. `workbook update`
# (run by the link too) carries a student's cells from the old file to the new one, so a room that
# pulled the old numbering loses nothing. Add a line whenever a lesson is renumbered; never remove
# one. A lesson the release renamed -> its new name: a room on an older numbering keeps its work
# (update.py). The capstone was 09, then 12 (lessons 09-11 came before it), then 14 (lessons 12 and
# 13).
RENAMED = {"09_capstone.ipynb": "14_capstone.ipynb", "12_capstone.ipynb": "14_capstone.ipynb"}
GITIGNORE = ".venv/\n__pycache__/\n*.egg-info/\nbuild/\n.ipynb_checkpoints/\n.env\nlessons/*.backup-*.ipynb\n"
STUDENT_README = """\
# Context Engineering Workbook

Build a small LLM-agent harness and measure what the model sees on every call. Open `lessons/`
and start with `00_first_call.ipynb`; each exercise ends with a `check(...)` cell that says whether
your function passes.

## On your own machine

    python3 -m venv .venv
    .venv/bin/pip install .
    .venv/bin/jupyter lab lessons

(Python 3.11 or newer. On Windows: `.venv\\Scripts\\pip` and `.venv\\Scripts\\jupyter`.) On a
JupyterHub all this is done for you.

## Commands (in a terminal, from this folder or your home)

    workbook check        # run copies of all your lessons: each exercise passed, failed or not attempted
    workbook check 03     # one lesson
    workbook reset 03     # lesson 03 as handed out; yours is kept beside it as a backup
    workbook update       # your instructor's latest fixes, never over your work (see Updates)

`reset` refuses while the lesson is open in JupyterLab: save it (Ctrl+S), then File > Close and
Shut Down Notebook, then run it again. `python -m harness check` does the same as `workbook check`.

## Offline or on Gemini

Every lesson runs offline, against the glass box (a deterministic stand-in for Gemini on loopback).
With `GEMINI_API_KEY` set (in the environment or a `.env` file here) the same cells call Gemini and
cost money; `WORKBOOK_OFFLINE=1` forces the glass box. Your key is never printed or saved.

## Updates

When your instructor publishes a fix: save and close your lessons (File > Close and Shut Down
Notebook), then click the workbook link again (or run `workbook update` in a terminal: the same).
It pulls the fix and lists every change your copy did not take, cell by cell: a cell you never
edited gets the fix; beside a cell you edited, the new version appears in a cell marked "Update
from your instructor", and yours is never written over. A lesson that was renumbered keeps your
work: it is moved into the lesson's new file. If a lesson was open and JupyterLab says "File
Changed", choose Revert if you had saved; if you chose Overwrite, click the link again (or run
`workbook update`): it brings back what the old tab dropped. A fix to the `harness` package
reaches a running notebook after Kernel > Restart.
"""


class ReleaseError(ValueError):
    """OUT cannot take a release, or the branch cannot be written; the message says what to do."""


def source_commit(repo: Path = ROOT) -> str:
    """The commit the release is made from, or "uncommitted" outside git."""
    done = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() if done.returncode == 0 else "uncommitted"


def _prepare(out: Path) -> None:
    """Make `out` an empty folder (keeping a .git), refusing a folder that is not a release."""
    if out.exists() and not out.is_dir():
        raise ReleaseError(f"{out} is a file: give a folder for the release.")
    entries = [p for p in out.iterdir() if p.name != ".git"] if out.is_dir() else []
    if entries and not (out / MARKER).is_file():
        raise ReleaseError(
            f"{out} is not empty and holds no earlier release ({MARKER} is missing): "
            "give a new or empty folder, so nothing of yours is overwritten."
        )
    for entry in entries:
        shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    out.mkdir(parents=True, exist_ok=True)


def malformed_check_cells(solutions: Path = SOLUTIONS) -> list[str]:
    """Each code cell that calls `check("N.M", ...)` but is not exactly a check cell (a comment
    after it, a second statement): the build cannot mark it, so `workbook check` and grading skip
    that exercise.
    """
    found = []
    for path in sorted(solutions.glob("*.ipynb")):
        for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            if (
                cell["cell_type"] == "code"
                and CALLS_CHECK.search(source)
                and not CHECK_CELL.fullmatch(source)
            ):
                found.append(
                    f"{path.name}, cell {index} (id {cell.get('id', '?')}): {source.strip()[:80]!r}"
                )
    return found


def linked_files(out: Path, project: Path = ROOT) -> None:
    """Copy into `out` every file a released lesson links to that is not there yet; refuse a dead
    link."""
    for lesson in sorted((out / "lessons").glob("*.ipynb")):
        for cell in json.loads(lesson.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for match in LINK.finditer("".join(cell["source"])):
                target = match["target"]
                if ":" in target:  # https:, mailto:: not a file of the release
                    continue
                released, source = out / "lessons" / target, project / "lessons" / target
                if not released.resolve().is_relative_to(out.resolve()):
                    raise ReleaseError(
                        f"{lesson.name} links to {target}, outside the release: link inside it."
                    )
                if not released.exists():
                    if not source.is_file():
                        raise ReleaseError(
                            f"{lesson.name} links to {target}, which does not exist: fix the link "
                            f"in solutions/{lesson.name}, then `python -m harness build`."
                        )
                    released.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(source, released)


def write_release(out: Path, solutions: Path = SOLUTIONS, project: Path = ROOT) -> list[str]:
    """Write the student release into `out`; return the lesson file names."""
    lessons = expected_lessons(solutions)
    if not lessons:
        raise ReleaseError(f"{solutions} holds no solution notebooks: nothing to release.")
    if malformed := malformed_check_cells(solutions):
        raise ReleaseError(
            'A check cell must be the call alone, `check("3.1", build_context)`, or `workbook '
            "check` and grading skip its exercise. Not released; fix these cells (move a comment "
            "to the cell above), then `python -m harness build`:\n  " + "\n  ".join(malformed)
        )
    _prepare(out)
    (out / PRISTINE).mkdir(parents=True)
    for name, text in lessons.items():
        (out / PRISTINE / name).write_text(text, encoding="utf-8")
    (out / "lessons").mkdir()
    for name, text in expected_files(solutions).items():  # the lessons and the glossary beside them
        (out / "lessons" / name).write_text(text, encoding="utf-8")
    shutil.copytree(
        project / "harness", out / "harness", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    for name in SHIPPED:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(project / name, out / name)
    (out / "README.md").write_text(STUDENT_README, encoding="utf-8")
    (out / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
    linked_files(out, project)
    renamed = {old: new for old, new in RENAMED.items() if new in lessons and old not in lessons}
    (out / MARKER).write_text(
        json.dumps(
            {"from_commit": source_commit(project), "lessons": list(lessons), "renamed": renamed},
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    return list(lessons)


def _git(repo: Path, *args: str, env: dict | None = None) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise ReleaseError(f"git {' '.join(args[:2])} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def commit_to_branch(folder: Path, branch: str, repo: Path = ROOT) -> str | None:
    """Commit `folder`'s files as the next commit of `branch` in `repo`; None when nothing changed.

    A temporary index and `commit-tree` leave the repository's working tree and index alone.
    """
    if _git(repo, "branch", "--show-current") == branch:
        raise ReleaseError(
            f"Branch {branch} is checked out here: give another branch name for the release."
        )
    parent = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--verify", "-q", f"refs/heads/{branch}"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    git_dir = _git(repo, "rev-parse", "--absolute-git-dir")
    with tempfile.TemporaryDirectory(prefix="workbook-release-index-") as tmp:
        env = dict(
            os.environ,
            GIT_DIR=git_dir,
            GIT_WORK_TREE=str(folder.resolve()),
            GIT_INDEX_FILE=str(Path(tmp) / "index"),
        )
        _git(folder, "add", "--all", "--force", ".", env=env)
        tree = _git(folder, "write-tree", env=env)
    if parent and _git(repo, "rev-parse", f"{parent}^{{tree}}") == tree:
        return None
    message = f"Student release from {source_commit(repo)[:12]}"
    commit = _git(repo, "commit-tree", tree, *(["-p", parent] if parent else []), "-m", message)
    _git(repo, "update-ref", f"refs/heads/{branch}", commit, *([parent] if parent else []))
    return commit


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="workbook release", description=__doc__.split("\n")[0])
    parser.add_argument(
        "out",
        type=Path,
        metavar="OUT",
        help="the folder to write (new, empty or an earlier release)",
    )
    parser.add_argument(
        "--branch", metavar="NAME", help="also commit the release to this branch (e.g. student)"
    )
    args = parser.parse_args(argv)
    try:
        lessons = write_release(args.out)
        print(
            f"wrote {args.out}: {len(lessons)} lessons, the harness package, README.md,"
            " pyproject.toml"
        )
        if args.branch:
            commit = commit_to_branch(args.out, args.branch)
            if commit is None:
                print(f"branch {args.branch} already holds this release: nothing committed")
            else:
                print(
                    f"committed it to branch {args.branch} ({commit[:7]}) for nbgitpuller; "
                    f"push it: git push origin {args.branch}"
                )
    except ReleaseError as error:
        print(error, file=sys.stderr)
        return 2
    return 0
