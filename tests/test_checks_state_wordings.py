"""6.1 passes a state block exactly when the glass box can use it, whatever its wording.

The wording of the block is free: its heading's words, its labels, bold, bullets, a note beside a
path. For each wording here, the check's verdict must be the glass box's: the agent policy's own
view of the request (`harness.engine.agent_policy.see`) must find every edited file and the last
verdict on every input the check generates, exactly when 6.1 passes. All these wordings keep what
the contract fixes (a heading line, the paths sorted, "none", a "no tests" phrase), so only the
labels and layout decide.
"""

import pytest

from harness.checks import run_check
from harness.checks.lesson06 import _state_cases
from harness.engine.agent_policy import see
from harness.formats import verdict_line


def worded(files_label, verdict_label="Last test verdict:", item=lambda path: path, joined=", "):
    """A correct harness_state whose files and verdict lines are labelled and laid out as given."""

    def harness_state(edited_files, last_verdict):
        paths = sorted(edited_files)
        if not paths:
            files = " none"
        elif joined == "bullets":
            files = "".join(f"\n  - {item(p)}" for p in paths)
        else:
            files = " " + joined.join(item(p) for p in paths)
        return (
            f"[Harness-held state]\n{files_label}{files}\n{verdict_label}"
            f" {last_verdict or 'no tests run yet'}"
        )

    return harness_state


READ_BY_THE_GLASS_BOX = {
    "Edited files:": worded("Edited files:"),
    "summary labels": worded("Changes made:", "Last tests:"),
    "summary labels in bold": worded("**Changes made:**", "**Last tests:**"),
    "summary labels as headings": worded("## Changes made:", "## Last tests:"),
    "summary label, bullets": worded("- Changes made:", joined="bullets"),
    "lowercase summary labels": worded("changes made:", "last tests:"),
    "Files changed:, semicolons": worded("Files changed:", joined="; "),
    "Files modified:, backquotes": worded("Files modified:", item=lambda p: f"`{p}`"),
    "a note beside each path": worded("Edited files:", item=lambda p: f"{p} (edited by the agent)"),
    "paths joined by 'and'": worded("Edited files:", joined=" and "),
    "bullets with a note": worded(
        "Modified files:", item=lambda p: f"`{p}`: fixed", joined="bullets"
    ),
    "Last test result:": worded("Edited files:", "Last test result:"),
}
NOT_READ_BY_THE_GLASS_BOX = {
    "Touched:": worded("Touched:"),
    "Files:": worded("Files:"),
    "Changes:": worded("Changes:"),
    "Edited:": worded("Edited:"),
    "Tests:": worded("Edited files:", "Tests:"),
    "Test verdict:": worded("Edited files:", "Test verdict:"),
    "Verdict on one line with the files": worded("Edited files:", "; last test verdict:"),
}


def glass_box_reads(harness_state) -> bool:
    """True when the agent policy finds the edited files and the verdict on every case 6.1 tries."""
    for case in _state_cases():
        files, verdict = case.args
        view = see(
            {"contents": [{"role": "user", "parts": [{"text": harness_state(files, verdict)}]}]}
        )
        seen = [v for _, v in view.verdicts]
        if set(view.edited) != set(files) or (seen[-1] if seen else None) != verdict_line(
            verdict or ""
        ):
            return False
    return True


@pytest.mark.parametrize("wording", sorted(READ_BY_THE_GLASS_BOX))
def test_6_1_passes_a_wording_the_glass_box_reads(wording):
    answer = READ_BY_THE_GLASS_BOX[wording]
    assert glass_box_reads(answer)
    result = run_check("6.1", answer)
    assert result.status == "passed", result.line()


@pytest.mark.parametrize("wording", sorted(NOT_READ_BY_THE_GLASS_BOX))
def test_6_1_fails_a_wording_the_glass_box_cannot_read_naming_what_it_read(wording):
    answer = NOT_READ_BY_THE_GLASS_BOX[wording]
    assert not glass_box_reads(answer)
    result = run_check("6.1", answer)
    assert result.status == "failed" and "the glass box reads your block as" in result.rule, (
        result.line()
    )
