"""Lesson 13: move, don't delete. Details go to files, one index lists the files, the agent reads
the index.

The tutor article's third tier: write the details into files, keep one index file that lists them
all, and let the agent read only the index and follow its lines as the task needs. Nothing is lost
(a file can always be read back), and the context grows with what the question needs, not with the
length of the session. A knowledge base here is one folder:

    INDEX.md            one line per file, newest first: `- path: description`
    course/<id>.md      the course passages (harness.scenarios.course), one file each
    notes/turn-NN.md    what the session moved out of the window, one exchange each

>>> entries = [("notes/turn-00.md", "I build tours in Godot."), ("notes/turn-01.md", "What is a cache?")]
>>> build_index(entries, budget=100).splitlines()[1:]
['- notes/turn-01.md: What is a cache?', '- notes/turn-00.md: I build tours in Godot.']

Under a budget the index lists the newest files that fit and says how many older ones it leaves out
(13.1); a file left out of the index is still there, for `grep` to find.
"""

import os
from pathlib import Path
from typing import Callable

from harness.formats import INDEX_HEADER, INDEX_NAME, entry_line, omitted_line
from harness.models import Price
from harness.plumbing.arguments import (
    checked,
    require_callable,
    require_path,
)
from harness.scenarios.course import Passage
from harness.tokens import approx_tokens

UNLIMITED = 10**9  # the budget of an index that lists every file
DESCRIPTION_WORDS = (
    30  # a moved exchange is described by the student's words: 30 hold a planted message whole
)


def _checked_entries(entries) -> list[tuple[str, str]]:
    if isinstance(entries, (str, bytes)) or not isinstance(entries, (list, tuple)):
        raise ValueError(
            f"entries must be a list of (path, description) pairs, got {type(entries).__name__}."
        )
    for index, entry in enumerate(entries):
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise ValueError(f"entries[{index}] must be a (path, description) pair, got {entry!r}.")
        path, description = entry
        if not isinstance(path, str) or not path.strip() or not isinstance(description, str):
            raise ValueError(
                f"entries[{index}] must pair a path (non-empty text) with a description (text), "
                f"got {entry!r}."
            )
        if "\n" in path + description:
            raise ValueError(f"entries[{index}] holds a line break: an index entry is one line.")
    return [tuple(entry) for entry in entries]


def build_index(entries, budget: int, count: Callable = approx_tokens) -> str:
    """The index text (13.1): INDEX_HEADER, then one `entry_line` per entry, newest first.

    `entries` are (path, description) pairs, oldest first. When the whole index is over `budget`
    (counted with `count` on the text returned), it lists the newest entries while the index, with
    an `omitted_line` counting the others as its last line, still fits; it stops at the first entry
    that does not fit (it never skips one to list an older one). ValueError when even the header and
    that last line do not fit, or for a budget that is not a positive whole number of tokens.
    """
    entries = _checked_entries(entries)
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError(f"budget must be a positive whole number of tokens, got {budget!r}.")
    require_callable("count", count)
    lines = [INDEX_HEADER] + [entry_line(path, text) for path, text in reversed(entries)]
    if count("\n".join(lines)) <= budget:
        return "\n".join(lines)
    listed = 1  # the header
    while (
        listed < len(lines) - 1
        and count("\n".join(lines[: listed + 1] + [omitted_line(len(lines) - listed - 1)]))
        <= budget
    ):
        listed += 1
    index = "\n".join(lines[:listed] + [omitted_line(len(lines) - listed)])
    if count(index) > budget:
        raise ValueError(
            f"budget {budget} is too small for the index's header and its last line "
            f"({count(index)} tokens); give the index a larger budget."
        )
    return index


@checked(words=(1, None))
def describe(text: str, words: int = DESCRIPTION_WORDS) -> str:
    """A one-line description of a moved text: its first `words` words."""
    kept = text.split()
    return " ".join(kept[:words]) + (" ..." if len(kept) > words else "")


class KnowledgeBase:
    """A folder of files with one index (see the module docstring); the harness writes, the agent
    reads.

    `entries` are the files in the order they were written (the course first, then the notes);
    `index_budget` is the index's budget in tokens (None: every file is listed); `build` writes the
    index from them (13.1's function).
    """

    @checked(root=require_path, index_budget=(1, None))
    def __init__(
        self,
        root: str | os.PathLike,
        passages: list[Passage] = (),
        index_budget: int | None = None,
        count: Callable = approx_tokens,
        build: Callable | None = None,
    ):
        self.root = Path(root)
        if self.root.exists() and any(self.root.iterdir()):
            raise ValueError(
                f"{self.root} already holds files; a knowledge base starts in an empty folder."
            )
        self.index_budget, self.count, self.build = index_budget, count, build or build_index
        self.entries: list[tuple[str, str]] = []
        (self.root / "notes").mkdir(parents=True)
        for passage in passages:
            self.write(
                f"course/{passage.id}.md", f"# {passage.title}\n\n{passage.text}\n", passage.title
            )

    def write(self, path: str, text: str, description: str) -> str:
        """Write a file, list it in the index, and return its index line (the pointer kept)."""
        (self.root / path).parent.mkdir(parents=True, exist_ok=True)
        (self.root / path).write_text(text, encoding="utf-8")
        self.entries.append((path, " ".join(description.split())))
        (self.root / INDEX_NAME).write_text(self.index() + "\n", encoding="utf-8")
        return entry_line(*self.entries[-1])

    def move_out(self, turn: int, student: str, tutor: str) -> str:
        """Move one exchange out of the window into notes/turn-NN.md; its index line."""
        text = f"# Turn {turn}\n\nStudent: {student}\n\nTutor: {tutor}\n"
        return self.write(f"notes/turn-{turn:02d}.md", text, describe(student))

    def index(self) -> str:
        """INDEX.md's text: every entry, or those `build` lists within the index budget."""
        return self.build(self.entries, self.index_budget or UNLIMITED, self.count)

    def __repr__(self):
        return f"KnowledgeBase({str(self.root)!r}, {len(self.entries)} files)"


@checked(cleared=(1, None))
def calls_to_repay(cleared: int, rewritten: int, price: Price) -> float:
    """Calls after which clearing `cleared` tokens has paid for the cache it broke.

    Clearing changes the prompt from the cut on, so the next call reads the `rewritten` tokens after
    the cut at the full input rate instead of the cached one; every call after that reads `cleared`
    tokens fewer, each at the cached rate (the Anthropic page's reason for `clear_at_least`).

    >>> from harness.billing import Price
    >>> calls_to_repay(5_000, 35_000, Price(input=1.0, cached_input=0.1, output=4.0))
    63.0
    """
    if not price.cached_input > 0:  # a free cached read: clearing saves nothing to repay with
        raise ValueError(f"price.cached_input must be above 0 to repay anything, got {price!r}.")
    return rewritten * (price.input - price.cached_input) / (cleared * price.cached_input)
