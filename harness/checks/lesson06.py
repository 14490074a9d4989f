"""Checks for lesson 06: the harness-held state block (6.1) and compaction that carries it (6.2)."""
import re

from harness.checks import call, exercise, rule
from harness.checks.lesson05 import SUMMARY, _dump, _history

# "Harness-held state", "Harness held state", "HARNESS_HELD STATE", "State held by the harness"
_HEADING = re.compile(r"harness[\W_]*held[\W_]*state|state[\W_]+held[\W_]+by[\W_]+the[\W_]+harness", re.I)


class _Unsorted(set):
    """A set whose iteration order is reverse-sorted under every hash seed, so an answer that joins
    the set without sorting it fails every time, not only under some PYTHONHASHSEED values."""

    def __iter__(self):
        return iter(sorted(set.__iter__(self), reverse=True))


@exercise("6.1", "harness-held state", reference="harness.compaction.harness_state")
def check_state(fn) -> str:
    rid = "6.1"
    files = ("invoicing/amounts.py", "invoicing/discounts.py", "tests/test_amounts.py")
    edited = _Unsorted(files)
    block = call(rid, fn, edited, "1 failed, 5 passed")
    rule(isinstance(block, str), rid, f"harness_state must return a str, got {type(block).__name__}.",
         "build the block as one string with a line per fact.")
    lines = [line for line in block.splitlines() if line.strip()]
    rule(bool(lines) and _HEADING.search(lines[0]) is not None, rid,
         "the block's first line must head it as harness-held state.",
         "start with a line such as '[Harness-held state: ...]'.")
    rule(set(edited) == set(files), rid, "the set of edited files must not be changed.",
         "sort a copy; never add to or remove from the set you were given.")
    rule(len(lines) >= 3 and not any(path in lines[0] or "1 failed" in lines[0] for path in files), rid,
         "the heading, the edited files and the last verdict must each be on a line of their own "
         f"(your block has {len(lines)} line{'s' if len(lines) != 1 else ''}).",
         "join the lines with '\\n': one for the heading, one for the files, one for the verdict.")
    positions = [block.find(path) for path in files]
    rule(all(p >= 0 for p in positions), rid, "the state block must list every edited file.",
         "put each path of edited_files on the files line.")
    rule(positions == sorted(positions), rid,
         f"the edited files must be listed sorted ({', '.join(files)}); a set has no order of its own.",
         "sort the paths before joining them.")
    rule("1 failed, 5 passed" in block, rid, "the block must give the last test verdict.", "add a line with last_verdict.")
    empty = call(rid, fn, set(), None).lower()
    rule("none" in empty and "no tests" in empty, rid,
         "with no edits and no verdict, the block must say 'none' and a 'no tests run' phrase.",
         "an empty set joins to '': say 'none' instead; a missing verdict needs its own words too.")
    return "heading, edited files sorted, last verdict, each on its line; explicit 'none'"


@exercise("6.2", "compact with harness-held state", reference="harness.compaction.compact")
def check_compact_state(fn) -> str:
    rid = "6.2"
    history = _history(5)
    state = "[Harness-held state: recorded by the harness.]\nEdited files: invoicing/amounts.py\nLast test verdict: 6 passed"
    new, folded = call(rid, fn, history, 3, lambda text: SUMMARY, state)
    text = "\n".join(p.text or "" for p in new[0].parts or [])
    rule(state in text, rid, "the state text must appear, whole, in the first message after compaction.",
         "append `state` to the head message, after the summary.")
    rule(text.find(SUMMARY) < text.find(state), rid, "the state must come after the summary.",
         "order: task, note, summary, state.")
    rule(folded == 6 and _dump(new[1:]) == _dump(history[7:]), rid,
         "adding state must not change what is folded or kept.", "only the head message changes.")
    plain, _ = call(rid, fn, history, 3, lambda text: SUMMARY)
    rule("Harness-held" not in "\n".join(p.text or "" for p in plain[0].parts or []), rid,
         "with the default state='' the head must hold no state block.", "add the state only when it is not empty.")
    return "state after the summary, in the first message"
