"""`workbook update`: pull your instructor's latest release, then bring back every fix the pull
dropped.

    $ workbook update
    Pulled the release (a1b2c3d).
    03_budgeted_assembly.ipynb: 2 fixes did not land in your copy
      cell build-context (...): you edited this cell, so the new version is beside yours, ...
      cell intro (...): the fix was missing: the cell now holds the new version (you had not edited it)
    Your copy before this update is kept as lessons/03_budgeted_assembly.backup-20261201-101500.ipynb.

The pull is nbgitpuller's, the same as clicking the workbook link again: your edits win every
conflicting line (`git merge -Xours`), so an instructor's fix next to a line you changed is dropped,
and a tab left open during the pull that you then save with "Overwrite" puts the old lesson back.
This command finds those, cell by cell, against every release the branch holds
(`harness.workbook.cell_merge`), and never writes over a cell you edited. Run it after clicking the
link, or instead of it; run it again after any "File Changed" > Overwrite: it finds the fixes the
old tab dropped and brings them back the same way. Nothing is deleted: the notebook is backed up
first.

A lesson the release renamed (its `.workbook/release.json` says which: the capstone went from 09 to
12) is carried too: the cells the student wrote in the old file move into the new one, and the old
file is kept as a backup, then removed, so no work is left behind under a name no lesson has.

The link runs this command itself (`harness.workbook.link`), with `--no-pull` after its own pull.
"""

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.workbook import LessonsNotFound, find_workbook, keep_backup
from harness.workbook.build import render
from harness.workbook.cell_merge import Change, carry_cells, reconcile
from harness.workbook.release import MARKER

RELEASES_READ = (
    200  # a term's releases, and more: older ones cannot matter to a copy made this term
)
FILE_CHANGED = (
    '{lesson} is open in JupyterLab. When its tab says "File Changed": choose Revert if you had'
    " saved (the file on disk holds your work and the fixes); with unsaved work in the tab, choose"
    " Cancel, then File > Save Notebook As... to keep it under a new name. If you chose Overwrite,"
    " run `workbook update` again: it brings the fixes back."
)
NOTHING = "Every change of the release is in your copy: nothing to bring back."


class UpdateError(RuntimeError):
    """The copy is not one nbgitpuller made, or the pull failed; the message says what to do."""


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True)
    if done.returncode:
        raise UpdateError(f"git {' '.join(args[:2])} failed in {folder}: {done.stderr.strip()}")
    return done.stdout


def upstream_of(folder: Path) -> tuple[str, str]:
    """(remote URL, branch) this copy was pulled from."""
    if subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--git-dir"], capture_output=True
    ).returncode:
        raise UpdateError(
            f"{folder} is not a copy made by the workbook link (it is not a git repository): "
            "ask your instructor for the link, or `git pull` your own clone."
        )
    branch = _git(folder, "branch", "--show-current").strip()
    remote = subprocess.run(
        ["git", "-C", str(folder), "remote", "get-url", "origin"], capture_output=True, text=True
    )
    if not branch or remote.returncode:
        raise UpdateError(
            f"{folder} has no branch or no `origin` to pull from: ask your instructor for the link."
        )
    return remote.stdout.strip(), branch


def pull(folder: Path, url: str, branch: str) -> None:
    """What the workbook link does (nbgitpuller)."""
    try:
        from nbgitpuller.pull import GitPuller
    except ImportError:
        raise UpdateError(
            "nbgitpuller is not installed here: `pip install nbgitpuller` (a hub has it)."
        ) from None
    try:
        for _ in GitPuller(url, str(folder), branch=branch).pull():
            pass
    except subprocess.CalledProcessError as error:
        raise UpdateError(
            f"the pull failed ({' '.join(error.cmd[-3:])}): your files are untouched. "
            "Save and close your lessons, then run `workbook update` again."
        ) from None


def deepen(folder: Path, branch: str) -> None:
    """The branch's whole history, which a link's clone (one commit deep) lacks and the
    comparison needs."""
    if _git(folder, "rev-parse", "--is-shallow-repository").strip() == "true":
        _git(folder, "fetch", "--quiet", "--unshallow", "origin", branch)


def release_history(folder: Path, ref: str, path: str) -> list[dict]:
    """The notebook at `path` in each commit of `ref` that changed it (not the one that removed
    it), newest first."""
    commits = _git(
        folder,
        "log",
        f"--max-count={RELEASES_READ}",
        "--diff-filter=AMR",
        "--format=%H",
        ref,
        "--",
        path,
    ).split()
    return [json.loads(_git(folder, "show", f"{commit}:{path}")) for commit in commits]


def renamed_lessons(folder: Path, ref: str) -> dict[str, str]:
    """Old lesson file -> new one, as the release records them ({} for a release that records
    none)."""
    shown = subprocess.run(
        ["git", "-C", str(folder), "show", f"{ref}:{MARKER.as_posix()}"],
        capture_output=True,
        text=True,
    )
    return json.loads(shown.stdout).get("renamed", {}) if shown.returncode == 0 else {}


@dataclass(frozen=True)
class Moved:
    """A renamed lesson whose old file was still here: what was carried, and where both are kept."""

    old: Path
    new: Path
    changes: list[Change]
    old_backup: Path
    new_backup: Path | None  # None when nothing had to be carried


def carry_renamed(folder: Path, ref: str) -> list[Moved]:
    """Move the student's cells of each renamed lesson still here under its old name into the new
    file."""
    release = _git(folder, "rev-parse", "--short", ref).strip()
    moved = []
    for old_name, new_name in renamed_lessons(folder, ref).items():
        old, new = folder / "lessons" / old_name, folder / "lessons" / new_name
        if not old.is_file():
            continue  # the pull's rename already took their edits along, or they never opened it
        if not new.is_file():
            new.write_text(_git(folder, "show", f"{ref}:lessons/{new_name}"), encoding="utf-8")
        try:
            mine_old, mine_new = (
                json.loads(path.read_text(encoding="utf-8")) for path in (old, new)
            )
        except ValueError:
            # a notebook JupyterLab cannot open either: left as it is for the student to see
            continue
        history = [
            *release_history(folder, ref, f"lessons/{new_name}"),
            *release_history(folder, ref, f"lessons/{old_name}"),
        ]
        merged, changes = carry_cells(mine_old, mine_new, history, release, old_name)
        new_backup = keep_backup(new) if changes else None
        if changes:
            new.write_text(render(merged), encoding="utf-8")
        old_backup = keep_backup(old)
        _remove(folder, old)
        moved.append(Moved(old, new, changes, old_backup, new_backup))
    return moved


def _remove(folder: Path, path: Path) -> None:
    """Remove `path`, from git's index too when the copy tracks it, so the next pull does not
    bring it back."""
    relative = path.relative_to(folder).as_posix()
    tracked = subprocess.run(
        ["git", "-C", str(folder), "ls-files", "--error-unmatch", relative], capture_output=True
    )
    if tracked.returncode:
        path.unlink()
    else:
        _git(folder, "rm", "--quiet", "--force", "--", relative)


def update_lessons(folder: Path, ref: str) -> dict[Path, tuple[list[Change], Path]]:
    """Reconcile every lesson of `ref` with its copy in `folder`: {path: (changes, backup)} of
    those changed."""
    release = _git(folder, "rev-parse", "--short", ref).strip()
    changed = {}
    for path in _git(folder, "ls-tree", "--name-only", ref, "lessons/").split():
        target = folder / path
        if not path.endswith(".ipynb") or not target.is_file():
            continue
        try:
            mine = json.loads(target.read_text(encoding="utf-8"))
        except ValueError:
            continue  # a notebook JupyterLab cannot open either: `workbook reset` is the way back
        merged, changes = reconcile(mine, release_history(folder, ref, path), release)
        if changes:
            backup = keep_backup(target)
            target.write_text(render(merged), encoding="utf-8")
            changed[target] = (changes, backup)
    return changed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="workbook update", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--lessons",
        type=Path,
        default=None,
        metavar="DIR",
        help="your workbook folder (default: found from the current folder)",
    )
    parser.add_argument(
        "--no-pull", action="store_true", help="only compare with the release already pulled"
    )
    args = parser.parse_args(argv)
    try:
        workbook = find_workbook(args.lessons)
        url, branch = upstream_of(workbook.root)
        if not args.no_pull:
            pull(workbook.root, url, branch)
        deepen(workbook.root, branch)
        ref = f"origin/{branch}"
        print(f"Pulled the release ({_git(workbook.root, 'rev-parse', '--short', ref).strip()}).")
        moved = carry_renamed(workbook.root, ref)
        changed = update_lessons(workbook.root, ref)
    except (LessonsNotFound, UpdateError) as error:
        print(error, file=sys.stderr)
        return 2
    for move in moved:
        print(
            f"{move.old.name} is now {move.new.name} (the lessons were renumbered): "
            f"{len(move.changes)} cell(s) of yours carried into it"
        )
        for change in move.changes:
            print(f"  {change.describe()}")
        kept = (
            f", and {move.new.name} before this update as {workbook.shown(move.new_backup)}"
            if move.new_backup
            else ""
        )
        print(f"Your {move.old.name} is kept as {workbook.shown(move.old_backup)}{kept}.")
        _warn_if_open(move.old)
        _warn_if_open(move.new)
    if not changed and not moved:
        print(NOTHING)
    for target, (changes, backup) in changed.items():
        print(f"{target.name}: {len(changes)} change(s) of the release did not land in your copy")
        for change in changes:
            print(f"  {change.describe()}")
        print(f"Your copy before this update is kept as {workbook.shown(backup)}.")
        _warn_if_open(target)
    return 0


def _warn_if_open(target: Path) -> None:
    from harness.workbook.open_notebooks import open_in_jupyter

    if open_in_jupyter(target).open_at:
        print(FILE_CHANGED.format(lesson=target.name))
