"""Checks for lesson 04: truncate a tool output (4.1), find the verdict (4.2), mask old outputs (4.3)."""
from google.genai import types

from harness.checks import call, exercise, must_refuse, rule

# A long output whose every slice is recognisable: line numbers at the start of each line.
LOG = "".join(f"{n:05d} collected line of a long pytest log\n" for n in range(500))
PYTEST_TAIL = "FAILED tests/test_amounts.py::test_half_cent_rounds_up\n=========== 1 failed, 5 passed in 0.02s ===========\n"


def agent_history(*turns) -> list:
    """A history: the task, then one (model call, user response) pair per (name, args, output) turn."""
    history = [types.Content(role="user", parts=[types.Part.from_text(text="Fix the invoicing tests.")])]
    for name, args, output in turns:
        history.append(types.Content(role="model", parts=[types.Part.from_function_call(name=name, args=args)]))
        history.append(types.Content(role="user", parts=[
            types.Part.from_function_response(name=name, response={"output": output})]))
    return history


@exercise("4.1", "truncate a tool output", reference="harness.truncation.truncate_output")
def check_truncate(fn) -> str:
    rid = "4.1"
    short = "3 passed in 0.01s"
    rule(call(rid, fn, short, 4000, 0.4) == short, rid, "a text that fits must come back unchanged.",
         "compare len(text) with max_chars first.")
    exact = LOG[:4000]
    rule(call(rid, fn, exact, 4000, 0.4) == exact, rid, "a text of exactly max_chars characters must come back unchanged.",
         "it fits: only a text longer than max_chars is cut.")
    out = call(rid, fn, LOG, 4000, 0.4)
    rule(isinstance(out, str) and out.startswith(LOG[:1600]) and LOG[1600:1700] not in out, rid,
         "with max_chars=4000 and head_ratio=0.4 the result must start with exactly the first 1,600 characters.",
         "head = int(max_chars * head_ratio).")
    rule(out.endswith(LOG[-2400:]) and LOG[-2500:-2400] not in out, rid,
         "the result must end with exactly the last 2,400 characters (max_chars - head).",
         "the tail is the text's last (max_chars - head) characters: that is where pytest writes its verdict.")
    marker = out[1600:len(out) - 2400]
    rule(str(len(LOG) - 4000) in marker, rid,
         f"the marker between head and tail must name the number of omitted characters ({len(LOG) - 4000} here).",
         "omitted = len(text) - max_chars; put it in a line of its own between head and tail.")
    just_over = call(rid, fn, LOG[:4001], 4000, 0.4)
    rule(just_over.startswith(LOG[:1600]) and just_over.endswith(LOG[4001 - 2400:4001])
         and "1" in just_over[1600:len(just_over) - 2400], rid,
         "a text one character over max_chars must be cut too: head, a marker naming 1 omitted character, tail.",
         "only a text of at most max_chars characters comes back unchanged; one more and it is cut.")
    head_only = call(rid, fn, LOG, 1000, 1.0)
    rule(head_only.startswith(LOG[:1000]) and LOG[-100:] not in head_only, rid,
         "head_ratio=1.0 must keep the first max_chars characters and no tail at all.",
         "with a tail of 0 characters, text[-0:] is the WHOLE text: handle an empty tail on its own.")
    tail_only = call(rid, fn, LOG, 1000, 0.0)
    rule(tail_only.endswith(LOG[-1000:]) and LOG[:100] not in tail_only, rid,
         "head_ratio=0.0 must keep the last max_chars characters and no head at all.",
         "0 is a valid head_ratio: a head of 0 characters, the whole cap for the tail.")
    must_refuse(rid, fn, (((LOG, 0, 0.4), "max_chars=0"), ((LOG, 100, 1.5), "head_ratio=1.5"),
                          ((LOG, 100, -0.1), "head_ratio=-0.1")),
                "max_chars must be at least 1 and head_ratio between 0 and 1.")
    return "head 40%, tail 60%, marker, bad arguments refused"


@exercise("4.2", "find the test verdict", reference="harness.truncation.extract_verdict")
def check_verdict(fn) -> str:
    rid = "4.2"
    out = call(rid, fn, LOG + PYTEST_TAIL)
    rule(out == "=========== 1 failed, 5 passed in 0.02s ===========", rid,
         "on a pytest log, return the whole verdict line (stripped), e.g. '=== 1 failed, 5 passed in 0.02s ==='.",
         "find the lines that report a count of tests, and return the line itself, not only the part that matched.")
    two = "tests/test_x.py: 2 passed\n  6 passed in 0.01s  \n"
    rule(call(rid, fn, two) == "6 passed in 0.01s", rid,
         "when several lines match, return the LAST one, stripped of surrounding spaces.",
         "the summary line comes last; keep the last match and .strip() it.")
    trailer = "=== 6 passed in 0.01s ===\nWrote coverage report.\n"
    rule(call(rid, fn, trailer) == "=== 6 passed in 0.01s ===", rid,
         "the verdict is the last MATCHING line, even when other lines follow it.",
         "filter the lines that match first, then take the last of those, not the output's last line.")
    # `pytest && ruff check .` ends with ruff's line: the word without a count is not a verdict.
    linted = "=== 6 passed in 0.01s ===\nAll checks passed!\n"
    rule(call(rid, fn, linted) == "=== 6 passed in 0.01s ===", rid,
         "a verdict counts tests ('6 passed'): a line where 'passed' or 'failed' follows no number, "
         "like ruff's 'All checks passed!', is not a verdict.",
         "look at what stands just before 'passed' in a real verdict line, and make your pattern require it.")
    rule(call(rid, fn, LOG) is None, rid, "an output with no verdict line must give None.",
         "return None when no line matches (a head-only truncation cuts the verdict off).")
    rule(call(rid, fn, "") is None, rid, "an empty output must give None.", "no lines, no verdict.")
    return "last line that counts tests, stripped; None without one"


def _output(content) -> str | None:
    part = content.parts[0]
    return (part.function_response.response or {}).get("output", "") if part.function_response else None


@exercise("4.3", "mask old tool outputs", reference="harness.masking.mask_observations")
def check_masking(fn) -> str:
    rid = "4.3"
    readme = "# invoicing\n" + "Amounts round half-up to the cent. " * 40
    red = "collected 6 items\n=========== 1 failed, 5 passed in 0.02s ===========\n"
    turns = (("read_file", {"path": "README.md"}, readme),                                   # outputs[2]
             ("read_file", {"path": "missing.py"}, "ERROR: missing.py does not exist."),     # [4] live error
             ("run_command", {"command": "pytest"}, LOG + PYTEST_TAIL),                      # [6] superseded run
             ("edit_file", {"path": "invoicing/amounts.py", "old": "x", "new": "y"},
              "ERROR: old text not found in invoicing/amounts.py."),                        # [8] superseded
             ("edit_file", {"path": "invoicing/amounts.py", "old": "a", "new": "b"},
              "Edited invoicing/amounts.py"),                                                # [10]
             ("run_command", {"command": "pytest"}, red),                                    # [12] live red run
             ("read_file", {"path": "invoicing/amounts.py"}, "import decimal\n" * 30),       # [14]
             ("read_file", {"path": "invoicing/discounts.py"}, "BULK = 10\n" * 30),          # [16] kept
             ("read_file", {"path": "tests/test_amounts.py"}, "def test_a(): pass\n" * 20))  # [18] kept
    history = agent_history(*turns)
    original = [_output(c) for c in history]
    before = [c.model_dump() for c in history]
    store = {}
    new = call(rid, fn, history, store, 2)
    rule([c.model_dump() for c in history] == before, rid, "the history passed in must not be changed.",
         "build a new list; make new Content/Part objects for what you mask.")
    rule(isinstance(new, list) and [c.role for c in new] == [c.role for c in history], rid,
         "the new history must have the same messages, in the same roles.", "replace outputs, never drop messages.")
    outputs = [_output(c) for c in new]
    rule(all(new[i].model_dump() == history[i].model_dump() for i in range(len(history)) if i % 2 == 1), rid,
         "function calls must stay as they are.", "mask only function responses.")
    rule(outputs[-1] == original[-1] and outputs[-3] == original[-3], rid,
         "with keep_last=2 the outputs of the last two turns must stay word for word.",
         "count turns from the end by model messages; only outputs before those are masked.")
    rule(outputs[4] == original[4], rid, "an error that is still the latest news about its file must stay visible.",
         "an 'ERROR:' output with no later output for the same tool and path is still being debugged.")
    rule(outputs[12] == original[12], rid,
         "the latest test run, when its verdict reports failures, is an error still being debugged: it must stay visible.",
         "a red test run counts as an error too: read its verdict with your extract_verdict.")
    rule(outputs[14] != original[14], rid,
         "with keep_last=2 the output of the third turn from the end must be masked.",
         "exactly keep_last turns are kept: count model messages from the end, and mask everything before them.")
    rule(outputs[8] != original[8] and outputs[6] != original[6], rid,
         "an error followed by a later output of the same tool on the same path is no longer being debugged "
         "(here a failed edit_file of invoicing/amounts.py, then a successful one; a red test run, then another "
         "run): it must be masked.",
         "an error stays visible only while it is the LATEST output for its tool and path; compare positions.")
    masked = outputs[2]
    rule(len(masked) < len(readme) / 4, rid, "an old, long output must be replaced by a short reference.",
         "replace the README's text with one line naming a reference.")
    refs = [key for key in store if key in masked]
    rule(bool(refs) and store[refs[0]] == readme, rid,
         "the reference in the masked output must be a key of the store holding the full original text.",
         "store[ref] = output, and put ref in the replacement text.")
    wider = call(rid, fn, history, {}, 3)
    rule(wider[14].model_dump() == history[14].model_dump(), rid,
         "with keep_last=3 the output of the third turn from the end must stay word for word.",
         "use the keep_last you are given: it says how many recent turns are never masked.")
    return "old outputs masked, recent and live errors kept, full text in the store"
