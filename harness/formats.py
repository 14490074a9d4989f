"""Every text format one side of the workbook writes and the other reads, writer beside parser.

The harness writes texts into requests (a transcript, a compaction's summary and state block, a
masked output), the tools and pytest write outputs, and the glass box reads all of them back.
Each format has its writer and its parser here, side by side, so rewording one side cannot
silently break the other (tests/test_formats.py round-trips each one):

    >>> verdict_line("collected 6 items\\n=== 1 failed, 5 passed in 0.02s ===")
    '=== 1 failed, 5 passed in 0.02s ==='
    >>> parse_heading(heading_line("Changes made", ["a.py", "b.py"]))
    ('Changes made', 'a.py; b.py')
    >>> parse_state(state_block({"b.py", "a.py"}, "1 failed, 5 passed"))
    (['a.py', 'b.py'], '1 failed, 5 passed')
    >>> parse_entry(call_entry("model", "read_file", '{"path": "README.md"}'))
    Entry(kind='call', role='model', name='read_file', text='{"path": "README.md"}')

Leaf module: it imports nothing of the workbook but the argument checks, so the engine and the
harness may both use it.
"""

import re
from collections.abc import Iterable
from typing import NamedTuple

from harness.plumbing.arguments import checked

# --- Tool outputs (harness.tools writes them)
# -------------------------------------------------------
ERROR_PREFIX = "ERROR:"  # a refused or failed tool call starts so; the model may try something else
STALE_EDIT = "old text not found"  # edit_file's error when the file no longer holds the old text


@checked
def is_error_output(output: str) -> bool:
    """True for the output of a refused or failed tool call."""
    return output.startswith(ERROR_PREFIX)


# --- The verdict line (pytest writes it last)
# -------------------------------------------------------
_VERDICT = re.compile(r"\d+ (passed|failed)")


@checked
def verdict_line(output: str) -> str | None:
    """The last line of `output` that reports tests (`N passed` or `N failed`), stripped; None if
    none."""
    lines = [line.strip() for line in output.splitlines() if _VERDICT.search(line)]
    return lines[-1] if lines else None


# --- The truncation marker (lesson 04's truncate_output writes it between head and tail)
# ------------
@checked
def truncation_marker(omitted: int) -> str:
    """The line that stands for the characters a cap cut out."""
    return f"[... {omitted} characters omitted ...]"


@checked
def names_count(text: str, count: int) -> bool:
    """True when `text` names `count` as a number (thousands may be grouped: 14,000 or 14 000)."""
    plain = re.sub(r"(?<=\d)[,_ \u202f](?=\d{3}\b)", "", text)
    return re.search(rf"(?<![\d.]){count}(?![\d])", plain) is not None


# --- Summary headings (compaction's and probes' prompts ask for them; the summariser writes them)
# ----
AGENT_HEADINGS = (
    "Objective",
    "Files read",
    "Changes made",
    "Last tests",
    "Discarded hypotheses",
    "Still to do",
)
CONVERSATION_HEADINGS = ("User facts", "Topics discussed", "Open questions")
KNOWN_HEADINGS = AGENT_HEADINGS + CONVERSATION_HEADINGS
ITEM_SEPARATOR = "; "  # between the items of one heading line
_NAMES = "|".join(re.escape(h) for h in KNOWN_HEADINGS)
# Lenient on purpose: a real model writes "## Files read:", "- **Files read**:" or "Files read:".
_HEADING_LINE = re.compile(rf"^[\s*#>-]*({_NAMES})[\s*]*:[\s*]*(.*)$", re.IGNORECASE)


@checked
def heading_line(heading: str, items: Iterable[str]) -> str:
    """`**Heading:** item; item`, the line a summary gives each heading."""
    return f"**{heading}:** {ITEM_SEPARATOR.join(items)}".rstrip()


@checked
def parse_heading(line: str) -> tuple[str, str] | None:
    """(heading as spelt in KNOWN_HEADINGS, the rest of the line) for a heading line; None
    otherwise."""
    found = _HEADING_LINE.match(line)
    if not found:
        return None
    heading = next(h for h in KNOWN_HEADINGS if h.lower() == found.group(1).lower())
    return heading, found.group(2)


@checked
def headings_named(text: str) -> list[str]:
    """The known headings `text` names, in the order it names them."""
    found = [(text.lower().find(h.lower()), h) for h in KNOWN_HEADINGS]
    return [h for at, h in sorted(found) if at >= 0]


@checked
def file_item(path: str, line: str = "") -> str:
    """A "Files read" item: the path, and the line that matters in backquotes."""
    return path + (f" (`{line}`)" if line else "")


_FILE_ITEM = re.compile(r"([\w./-]+\.\w+)(?: \(`(.*?)`\))?")


@checked
def parse_file_item(item: str) -> tuple[str, str] | None:
    """(path, quoted line or '') of a "Files read" item; None if it names no file."""
    found = _FILE_ITEM.match(item.strip())
    return (found.group(1), found.group(2) or "") if found else None


# --- The harness-held state block (lesson 06 writes it after a summary)
# -----------------------------
STATE_HEADER = (
    "[Harness-held state: recorded by the harness from the tool calls themselves; authoritative.]"
)
EDITED_LABEL, VERDICT_LABEL = "Edited files:", "Last test verdict:"
NO_EDITS, NO_VERDICT = "none", "no tests run yet"
# A student's block (and a real model) may word its labels otherwise: the glass box reads them all,
# and the summary's own labels too ("Changes made:", "Last tests:"), since it reads a summary's
# lines and a state block's alike. These tuples are the one list: the check's hints and the lesson
# name them.
FILES_LABELS = (
    "Edited files",
    "Files edited",
    "Modified files",
    "Files modified",
    "Changed files",
    "Files changed",
    "Changes made",
)
VERDICT_LABELS = ("Last test verdict", "Last test run", "Last test result", "Last tests")
# "Harness-held state", "Harness held state", "HARNESS_HELD STATE", "State held by the harness"
_STATE_HEADING = re.compile(
    r"harness[\W_]*held[\W_]*state|state[\W_]+held[\W_]+by[\W_]+the[\W_]+harness", re.I
)
_BULLET = r"[\s>*•+#-]*"  # the prefixes a summary heading may carry too (bullets, bold, "## ")


def _label(labels) -> str:
    return "|".join(r"[ _]".join(map(re.escape, label.lower().split())) + "s?" for label in labels)


_EDITED = re.compile(rf"^{_BULLET}(?:{_label(FILES_LABELS)})[\s*]*:[\s*]*(.*)$", re.I)
_LAST_VERDICT = re.compile(rf"^{_BULLET}(?:{_label(VERDICT_LABELS)})[\s*]*:[\s*]*(.*)$", re.I)
_ITEM = re.compile(r"^[\s>]*[*•+-]\s*(.+?)\s*$")
# a.py, invoicing/amounts.py, src/b-c/d_e.py
_PATH_TOKEN = re.compile(r"[\w-]+(?:[./][\w-]+)*\.\w+")
_NO_FILES = {"none", "(none)", "no files", "no edits", "nothing", "-"}


@checked
def state_block(edited_files: Iterable[str], last_verdict: str | None) -> str:
    """The state block: a header, the edited files sorted (or "none"), the last verdict."""
    files = ", ".join(sorted(edited_files)) or NO_EDITS
    return f"{STATE_HEADER}\n{EDITED_LABEL} {files}\n{VERDICT_LABEL} {last_verdict or NO_VERDICT}"


@checked
def is_state_heading(line: str) -> bool:
    """True for a line that heads a block as harness-held state."""
    return _STATE_HEADING.search(line) is not None


def _paths(value: str) -> list[str]:
    """The paths a files line or item names: path-like words ("a.py (the comparison)" names a.py),
    else the item itself ("Makefile"); none for "none" and its like."""
    if value.strip(" `*.").lower() in _NO_FILES:
        return []
    paths = []
    for item in re.split(r"[,;]", value):
        item = item.strip(" `*")
        paths += _PATH_TOKEN.findall(item) or ([item] if item else [])
    return paths


@checked
def parse_state(text: str) -> tuple[list[str] | None, str | None]:
    """(edited files, last verdict) from the state block's lines in `text`; None where a line is
    absent.

    The files line may be labelled as in FILES_LABELS ("Edited files:", "Files edited:", "Changes
    made:" ...) in any case, in bold, as a bullet or a "##" heading, with its paths after the label
    (separated by commas or semicolons) or as bullet lines below it; "none" means no file. Every
    files line counts (in order, each path once); the verdict is the last line labelled as in
    VERDICT_LABELS that reports tests.

    >>> parse_state("State held by the harness\\n- **Files edited:**\\n  - `b.py`\\n  - a.py\\nLast test run: 6 passed")
    (['b.py', 'a.py'], '6 passed')
    """
    edited = verdict = None
    listing = False  # reading the bullet lines under a files label with nothing after it
    for line in text.splitlines():
        files, last = _EDITED.match(line), _LAST_VERDICT.match(line)
        item = (
            _ITEM.match(line)
            if listing and not files and not last and not parse_heading(line)
            else None
        )
        if item:
            edited += [p for p in _paths(item.group(1)) if p not in edited]
            continue
        listing = False
        if files:
            edited = (edited or []) + [p for p in _paths(files.group(1)) if p not in (edited or [])]
            listing = not files.group(1).strip(" *")
        elif last:
            verdict = verdict_line.unchecked(last.group(1)) or verdict
    return edited, verdict


# --- Transcript entries (harness.transcript writes them; the summariser reads them)
# ------------------
class Entry(NamedTuple):
    kind: str  # "text", "call" or "response"
    role: str  # "user" or "model"; "tool" for a response
    name: str  # the function's name ("" for a text)
    text: str  # the text, the call's JSON arguments, or the first line of the output


@checked
def text_entry(role: str, text: str) -> str:
    return f"{role}: {text}"


@checked
def call_entry(role: str, name: str, args_json: str) -> str:
    return f"{role} called {name}({args_json})"


@checked
def response_entry(name: str, output: str) -> str:
    return f"tool {name} returned: {output}"


_ENTRY = re.compile(
    r"^(?:(user|model): (.*)|(user|model) called (\w+)\((.*)\)|tool (\w+) returned: (.*))$"
)


@checked
def parse_entry(line: str) -> Entry | None:
    """The entry a transcript line starts; None for a continuation line."""
    found = _ENTRY.match(line)
    if not found:
        return None
    if found.group(1):
        return Entry("text", found.group(1), "", found.group(2))
    if found.group(3):
        return Entry("call", found.group(3), found.group(4), found.group(5))
    return Entry("response", "tool", found.group(6), found.group(7))


# --- Masked outputs (lesson 04's masking writes them)
# ------------------------------------------------
MASK_PREFIX = "[masked "


_MASKED = re.compile(rf"^{re.escape(MASK_PREFIX)}([^\s:\]]+)")


@checked
def masked_stub(reference: str, key_line: str, length: int) -> str:
    """What the model sees instead of a masked output: its reference, key line and size."""
    return (
        f"{MASK_PREFIX}{reference}: {key_line[:80]} ({length} chars). Full text kept by the harness"
        f" under {reference}.]"
    )


@checked
def masked_reference(output: str) -> str | None:
    """The reference a masked output names (`[masked REF...`); None for an output that is not
    masked. What follows the reference is free: the glass box reads only this.

    >>> masked_reference(masked_stub("obs-1", "# title", 300)), masked_reference("# title")
    ('obs-1', None)
    """
    found = _MASKED.match(output)
    return found.group(1) if found else None


@checked
def is_masked(output: str) -> bool:
    return masked_reference.unchecked(output) is not None


# --- Which call a function response answers (the wire's rule, whatever the representation)
# ----------
class CallMatcher:
    """Responses answer calls in the order they were made: each takes the oldest unanswered call
    of its name, so two read_file calls in one turn keep their own paths.

    >>> calls = CallMatcher()
    >>> calls.called("read_file", "README.md"); calls.called("read_file", "a.py")
    >>> calls.answered("read_file"), calls.answered("read_file"), calls.answered("read_file", "?")
    ('README.md', 'a.py', '?')
    """

    def __init__(self):
        self._pending: list[tuple[str, object]] = []

    def called(self, name: str, call) -> None:
        """Note a call (any object: an SDK FunctionCall, a wire dict, a transcript's args)."""
        self._pending.append((name, call))

    def answered(self, name: str, default=None):
        """The call a response named `name` answers, now no longer pending; `default` if none is."""
        for index, (pending, call) in enumerate(self._pending):
            if pending == name:
                del self._pending[index]
                return call
        return default


# --- Retrieved documents (lesson 09's harness attaches them; its category split reads them)
# ---------
DOCUMENT_PREFIX = "[Retrieved document "


@checked(rank=(1, None))
def document_text(rank: int, title: str, text: str) -> str:
    """A retrieved document as the model sees it: a header line with its rank (1 = most relevant),
    then its text.

    >>> document_text(2, "Rounding", "Half up.")
    '[Retrieved document 2: Rounding]\\nHalf up.'
    """
    return f"{DOCUMENT_PREFIX}{rank}: {title}]\n{text}"


@checked
def is_document(text: str) -> bool:
    """True for a text part written by `document_text`."""
    return text.startswith(DOCUMENT_PREFIX)


# --- A knowledge base's index (lesson 13's harness writes it; the library tutor's glass box reads
# it) --
INDEX_NAME = "INDEX.md"
INDEX_HEADER = (
    "# INDEX: one line per file, newest first. Read a file when its line matches the question."
)
_INDEX_ENTRY = re.compile(r"^- ([^\s:()][^\s:]*): (.*)$", re.M)


@checked
def entry_line(path: str, description: str) -> str:
    """The index line of one file: `- path: description`."""
    return f"- {path}: {description}"


@checked
def omitted_line(count: int) -> str:
    """The index's last line when it leaves out the `count` oldest files.

    >>> index_entries("\\n".join([INDEX_HEADER, entry_line("notes/a.md", "Godot: my toolkit"), omitted_line(3)]))
    [('notes/a.md', 'Godot: my toolkit')]
    """
    return f"- ({count} older file{'s' if count != 1 else ''} not listed: grep -rl finds them)"


@checked
def index_entries(index: str) -> list[tuple[str, str]]:
    """(path, description) of each entry line of an index text, in its order."""
    return [(found.group(1), found.group(2)) for found in _INDEX_ENTRY.finditer(index)]
