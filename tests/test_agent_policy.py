"""The glass box's coding agent decides from the request alone, by rules, never by turn number.

These tests drive it on the invoicing task; tests/test_scenarios.py runs every registered task."""

from google.genai import types

from harness.checks.lesson04 import agent_history
from harness.engine.agent_policy import MAX_BLIND_RUNS, CodingAgent
from harness.scenarios import TASK_DIR  # importing the scenarios registers their skills

act = CodingAgent().act

TOOLS = [
    {
        "functionDeclarations": [
            {"name": n} for n in ("list_files", "read_file", "edit_file", "run_command")
        ]
    }
]
LISTING = "README.md\ninvoicing/amounts.py\ninvoicing/discounts.py\ntests/test_amounts.py\ntests/test_discounts.py"
FAILING = "exit code 1\n... 18,000 characters of log ...\n===== 4 failed, 2 passed in 0.05s ====="


def request(history):
    return {
        "contents": [c.model_dump(mode="json", exclude_none=True, by_alias=True) for c in history],
        "tools": TOOLS,
    }


def task_file(path):
    return (TASK_DIR / path).read_text()


def explored(*more):
    """The history of an agent that has listed and read everything, then `more` turns."""
    reads = [("read_file", {"path": p}, task_file(p)) for p in LISTING.splitlines()]
    return agent_history(("list_files", {"path": "."}, LISTING), *reads, *more)


def with_head(history, text):
    """`history` with `text` added to its first (task) message, as a compaction's head would be."""
    head = types.Content(role="user", parts=[*history[0].parts, types.Part.from_text(text=text)])
    return [head, *history[1:]]


def action(history):
    part = act(request(history))[0]
    return (
        ("text", part["text"])
        if "text" in part
        else (part["functionCall"]["name"], part["functionCall"]["args"])
    )


SUMMARY = (
    "[Summary of the 12 earlier messages, compacted by the harness. The messages after this one are"
    " kept word for word and take precedence over this summary.]\n**Objective:** Fix the invoicing"
    " tests.\n**Files read:** README.md (`Amounts round half-up to the cent; 50 units or more"
    " ...`); invoicing/discounts.py (`if quantity > BULK_THRESHOLD:`)\n**Changes made:**"
    " none\n**Last tests:** 4 failed, 2 passed in 0.05s\n**Discarded hypotheses:** none\n**Still to"
    " do:** fix the code the failing tests point to, then re-run the tests"
)


# --- it explores what it has not seen
# ------------------------------------------------------------------


def test_with_nothing_in_view_it_lists_the_files():
    assert action(agent_history()) == ("list_files", {"path": "."})


def test_it_reads_the_readme_first_then_the_modules():
    h = agent_history(("list_files", {"path": "."}, LISTING))
    assert action(h) == ("read_file", {"path": "README.md"})
    h = agent_history(
        ("list_files", {"path": "."}, LISTING),
        ("read_file", {"path": "README.md"}, task_file("README.md")),
    )
    assert action(h) == ("read_file", {"path": "invoicing/amounts.py"})


def test_with_everything_read_and_no_verdict_it_runs_the_tests():
    assert action(explored()) == ("run_command", {"command": "pytest"})


# --- it fixes what the visible code and README show is wrong, with the exact text it saw
# ---------------


def test_it_fixes_a_visible_bug_with_the_exact_text():
    name, args = action(explored(("run_command", {"command": "pytest"}, FAILING)))
    assert name == "edit_file" and args["old"] in task_file(args["path"])


def test_after_an_edit_it_re_runs_the_tests_and_reports_when_they_pass():
    edit = (
        "edit_file",
        {"path": "invoicing/amounts.py", "old": "a", "new": "b"},
        "Edited invoicing/amounts.py",
    )
    h = explored(("run_command", {"command": "pytest"}, FAILING), edit)
    assert action(h) == ("run_command", {"command": "pytest"})
    done = explored(
        ("run_command", {"command": "pytest"}, FAILING),
        edit,
        ("run_command", {"command": "pytest"}, "===== 6 passed in 0.01s ====="),
    )
    kind, text = action(done)
    assert kind == "text" and "6 passed" in text


# --- a hidden verdict makes it re-run, a bounded number of times
# -------------------------------------


def test_without_a_readable_verdict_it_re_runs_then_gives_up():
    blind = (
        "run_command",
        {"command": "pytest"},
        "exit code 1\n== test session starts ==\n[... omitted ...]",
    )
    assert action(explored(*[blind] * (MAX_BLIND_RUNS - 1))) == (
        "run_command",
        {"command": "pytest"},
    )
    kind, text = action(explored(*[blind] * MAX_BLIND_RUNS))
    assert kind == "text" and "could not read a verdict" in text


# --- a summary is visible knowledge; a harness-held state block is authoritative
# ----------------------


def test_a_stale_summary_with_the_edit_out_of_view_makes_it_edit_again():
    h = with_head(agent_history(), SUMMARY)
    assert action(h) == (
        "edit_file",
        {
            "path": "invoicing/discounts.py",
            "old": "if quantity > BULK_THRESHOLD:",
            "new": "if quantity >= BULK_THRESHOLD:",
        },
    )


def test_the_kept_edit_in_view_takes_precedence_over_the_summary():
    edit = (
        "edit_file",
        {
            "path": "invoicing/discounts.py",
            "old": "if quantity > BULK_THRESHOLD:",
            "new": "if quantity >= BULK_THRESHOLD:",
        },
        "Edited invoicing/discounts.py",
    )
    assert action(with_head(agent_history(edit), SUMMARY)) == ("run_command", {"command": "pytest"})


def test_a_harness_held_state_block_stops_the_repeat_edit():
    state = (
        "[Harness-held state: recorded by the harness from the tool calls themselves;"
        " authoritative.]\nEdited files: invoicing/discounts.py\nLast test verdict: 2 failed, 4"
        " passed"
    )
    assert action(with_head(agent_history(), SUMMARY + "\n" + state))[0] != "edit_file"


def test_old_text_not_found_makes_it_read_the_file_again():
    failed = (
        "edit_file",
        {"path": "invoicing/discounts.py", "old": "if quantity > BULK_THRESHOLD:", "new": "x"},
        "ERROR: old text not found in invoicing/discounts.py.",
    )
    assert action(with_head(agent_history(failed), SUMMARY)) == (
        "read_file",
        {"path": "invoicing/discounts.py"},
    )


# --- it reads the request and nothing else
# --------------------------------------------------------------


def test_the_same_request_gets_the_same_answer():
    h = explored(("run_command", {"command": "pytest"}, FAILING))
    assert act(request(h)) == act(request(h))


def test_without_the_readme_rule_in_view_it_does_not_edit():
    """A skill fires only when its rule is in the window: the code alone is not enough."""
    reads = [
        ("read_file", {"path": p}, task_file(p)) for p in LISTING.splitlines() if p != "README.md"
    ]
    h = agent_history(
        ("list_files", {"path": "."}, LISTING),
        ("read_file", {"path": "README.md"}, "# invoicing"),
        *reads,
        ("run_command", {"command": "pytest"}, FAILING),
    )
    kind, text = action(h)
    assert kind == "text" and "nothing I can see" in text
