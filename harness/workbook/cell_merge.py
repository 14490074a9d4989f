"""Which upstream changes to a lesson did not land in a student's copy, cell by cell, and how to
bring them back without touching the student's work.

nbgitpuller merges a release with `git merge -Xours`: where the instructor's fix and the student's
edit touch neighbouring lines, the student's side wins and the fix is dropped with no word. A
JupyterLab tab left open during the pull saves its old copy over the merged file ("File Changed" >
Overwrite), which drops every fix of that lesson. Both leave cells whose upstream version changed
but whose copy here does not hold the change. For each cell of the release (found by cell id):

- the student's copy equals an earlier release's text (they never edited it, the stale tab put the
  old text back): the new text replaces it, in place ("restored"; nothing of theirs is in that
  cell);
- the student edited it and the lines the release's last change brought are not all in it: the new
  text is put beside theirs, in a marked markdown cell that never runs ("offered"), once per
  version;
- the release added a cell their copy lacks: it is put back where the release has it ("added").

A lesson renamed by the release (the capstone renumbered from 09 to 12) keeps its cell ids, so
`carry_cells` moves the student's cells from the copy under the old name into the new one
("carried"), and puts a cell they edited in both beside the new one, marked, never over it.

    >>> old = {"cells": [{"id": "a", "cell_type": "code", "source": "x = 1", "metadata": {}}]}
    >>> new = {"cells": [{"id": "a", "cell_type": "code", "source": "x = 2", "metadata": {}}]}
    >>> merged, changes = reconcile(old, [new, old], "r2")
    >>> merged["cells"][0]["source"], changes[0].kind
    ('x = 2', 'restored')
"""

import copy
import hashlib
from dataclasses import dataclass

META = "workbook_update"  # cell metadata of this module's own: never the grader's "workbook" key


@dataclass(frozen=True)
class Change:
    cell_id: str
    kind: str  # "restored", "offered", "added" or "carried"
    first_line: str  # of the release's version, to name the cell to the student

    def describe(self) -> str:
        what = {
            "restored": (
                "the fix was missing: the cell now holds the new version (you had not edited it)"
            ),
            "offered": (
                "you edited this cell, so the new version is beside yours, in a cell marked "
                "'Update from your instructor': take what you need from it, then delete it"
            ),
            "added": "a new cell of the release was missing: it is back in its place",
            "carried": (
                "your version of this cell, from the lesson's old file, is now in the new one"
            ),
        }[self.kind]
        return f"cell {self.cell_id} ({self.first_line[:60]!r}): {what}"


def source_of(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def version_key(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def _landed(mine: str, new: str, before: str) -> bool:
    """Whether the lines the last upstream change brought (and removed) are so in `mine`."""
    mine_lines, new_lines, old_lines = (set(s.splitlines()) for s in (mine, new, before))
    added, removed = new_lines - old_lines, old_lines - new_lines
    return added <= mine_lines and not (removed & mine_lines) if added or removed else True


def marked_copy(cell: dict, release: str, heading: str = "") -> dict:
    """The release's cell as a markdown cell that never runs (a code cell would redefine the
    student's function with the stub), fenced so its text shows as it is."""
    source = source_of(cell)
    fence = "`" * max(3, 1 + _longest_backticks(source))
    language = "python" if cell["cell_type"] == "code" else "markdown"
    key = version_key(source)
    heading = heading or (
        f"**Update from your instructor** (release {release}) to the cell above, which is "
        "yours and was not changed. Take what you need from it, then delete this cell."
    )
    return {
        "id": f"{cell['id'][:40]}-update-{key[:8]}",
        "cell_type": "markdown",
        "metadata": {META: {"update_of": cell["id"], "version": key, "release": release}},
        "source": f"{heading}\n\n{fence}{language}\n{source}\n{fence}",
    }


def _longest_backticks(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return longest


def reconcile(mine: dict, history: list[dict], release: str) -> tuple[dict, list[Change]]:
    """`mine` with every upstream change that did not land brought back, and the list of them.

    history: the lesson in each release, newest first (history[0] is the release just pulled).
    `mine` is not modified. Running it again on its own result changes nothing.
    """
    merged = copy.deepcopy(mine)
    cells = merged["cells"]
    offered = {
        (c["metadata"][META]["update_of"], c["metadata"][META]["version"])
        for c in cells
        if "update_of" in c.get("metadata", {}).get(META, {})
    }
    changes = []
    previous_id = None
    for upstream in history[0]["cells"]:
        new = source_of(upstream)
        older = [
            source_of(cell)
            for release_notebook in history[1:]
            for cell in release_notebook["cells"]
            if cell.get("id") == upstream["id"]
        ]
        before = next((text for text in older if text != new), None)
        index = next((i for i, c in enumerate(cells) if c.get("id") == upstream["id"]), None)
        if index is None:
            # new in the release, or changed since they deleted it
            if not older or before is not None:
                at = 1 + next((i for i, c in enumerate(cells) if c.get("id") == previous_id), -1)
                cells.insert(at, _fresh(upstream))
                changes.append(Change(upstream["id"], "added", new.split("\n")[0]))
        else:
            changes += _bring_back(cells, index, upstream, new, older, before, offered, release)
        previous_id = upstream["id"]
    return merged, changes


def _bring_back(cells, index, upstream, new, older, before, offered, release) -> list[Change]:
    cell = cells[index]
    here = source_of(cell)
    if here == new or before is None:  # up to date, or a cell the release never changed
        return []
    if here in older:  # an earlier release's text: the student never edited it
        cells[index] = {
            **_fresh(upstream),
            "metadata": {**cell.get("metadata", {}), **upstream.get("metadata", {})},
        }
        return [Change(upstream["id"], "restored", new.split("\n")[0])]
    key = version_key(new)
    seen = cell.get("metadata", {}).get(META, {}).get("offered")
    if _landed(here, new, before) or (upstream["id"], key) in offered or seen == key:
        return []
    # offered once: a deleted copy stays deleted
    cell.setdefault("metadata", {})[META] = {"offered": key}
    cells.insert(index + 1, marked_copy(upstream, release))
    offered.add((upstream["id"], key))
    return [Change(upstream["id"], "offered", new.split("\n")[0])]


def _fresh(cell: dict) -> dict:
    fresh = copy.deepcopy(cell)
    if fresh["cell_type"] == "code":
        fresh.update(outputs=[], execution_count=None)
    return fresh


def carry_cells(
    old: dict, new: dict, history: list[dict], release: str, old_name: str
) -> tuple[dict, list[Change]]:
    """`new` (the student's copy under a lesson's new name) with the cells the student wrote in
    `old` (their copy under the old name) carried over, and the list of them.

    history: the lesson in each release, under either name. A cell is the student's when its text is
    in none of them. A cell of theirs from `old` replaces the same cell of `new` when that one still
    holds a release's text, is put beside it (marked) when they edited that one too, and is inserted
    after the cell it followed when `new` lacks it. Neither notebook is modified.
    """
    released = {}
    for notebook in history:
        for cell in notebook["cells"]:
            released.setdefault(cell.get("id"), set()).add(source_of(cell))
    merged = copy.deepcopy(new)
    cells = merged["cells"]
    changes, previous_id = [], None
    for cell in old["cells"]:
        cell_id, mine = cell.get("id"), source_of(cell)
        index = next((i for i, c in enumerate(cells) if c.get("id") == cell_id), None)
        # a marked copy: never the student's work
        ours = "update_of" in cell.get("metadata", {}).get(META, {})
        if (
            ours
            or mine in released.get(cell_id, ())
            or (index is not None and source_of(cells[index]) == mine)
        ):
            previous_id = cell_id if index is not None else previous_id
            continue
        if index is None:
            index = 1 + next((i for i, c in enumerate(cells) if c.get("id") == previous_id), -1)
            cells.insert(index, copy.deepcopy(cell))
        elif source_of(cells[index]) in released.get(cell_id, ()):
            cells[index] = {
                **copy.deepcopy(cell),
                "metadata": {**cells[index].get("metadata", {}), **cell.get("metadata", {})},
            }
        else:
            cells.insert(
                index + 1,
                marked_copy(
                    cell,
                    release,
                    f"**Your version from {old_name}**, the lesson's "
                    "old file (the cell above is yours too). Keep what "
                    "you need, then delete this cell.",
                ),
            )
        changes.append(Change(cell_id, "carried", mine.split("\n")[0]))
        previous_id = cell_id
    return merged, changes
