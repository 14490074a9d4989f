"""Checks for lesson 06: the harness-held state block (6.1) and compaction that carries it (6.2)."""
from harness.checks import call, exercise, rule
from harness.checks.lesson05 import SUMMARY, _dump, _history


@exercise("6.1", "harness-held state", reference="harness.compaction.harness_state")
def check_state(fn) -> str:
    rid = "6.1"
    edited = {"invoicing/discounts.py", "invoicing/amounts.py"}
    block = call(rid, fn, edited, "1 failed, 5 passed")
    rule(isinstance(block, str) and "harness-held state" in block.splitlines()[0].lower(), rid,
         "the block's first line must head it as harness-held state.",
         "start with a line such as '[Harness-held state: ...]'.")
    rule(edited == {"invoicing/discounts.py", "invoicing/amounts.py"}, rid, "the set of edited files must not be changed.",
         "sort a copy: sorted(edited_files).")
    amounts, discounts = block.find("invoicing/amounts.py"), block.find("invoicing/discounts.py")
    rule(0 <= amounts < discounts, rid, "the state block must list every edited file, sorted.",
         "', '.join(sorted(edited_files)).")
    rule("1 failed, 5 passed" in block, rid, "the block must give the last test verdict.", "add a line with last_verdict.")
    empty = call(rid, fn, set(), None).lower()
    rule("none" in empty and "no tests" in empty, rid,
         "with no edits and no verdict, the block must say 'none' and a 'no tests run' phrase.",
         "use `or 'none'` and `or 'no tests run yet'`.")
    return "edited files sorted, last verdict, explicit 'none'"


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
