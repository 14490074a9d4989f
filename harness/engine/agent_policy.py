"""The glass box as an agent: it works through the lesson task by rules that read the request only.

Its memory is its context window. Each call it rebuilds what it knows from what it can see (tool
calls and outputs in view, a summary, a harness-held state block) and takes the first action whose
rule applies:

    1. no file listing in view (nor any file named)        -> list_files(".")
    2. an edit failed with "old text not found"            -> read that file again
    3. an edit with no test verdict after it               -> run_command("pytest")
    4. the latest verdict passes                           -> report, in text
    5. README, a module or (before any run) a test unseen  -> read_file(it)
    6. no test verdict in view                             -> run_command("pytest")
    7. visible code breaks a visible README rule, unfixed  -> edit_file with the exact text seen
    (3 and 6 give up, in text, after MAX_BLIND_RUNS runs whose verdict was cut off)

>>> act({"contents": [{"role": "user", "parts": [{"text": "Fix the tests."}]}],
...      "tools": [{"functionDeclarations": [{"name": "list_files"}]}]})
[{'functionCall': {'name': 'list_files', 'args': {'path': '.'}}}]

So when truncation hides the verdict it re-runs the tests, and when a summary says "Changes made:
none" while the edit is out of view, it edits again and meets "old text not found". A harness-held
state block listing the edited files is authoritative and prevents that.
"""
import re
from dataclasses import dataclass, field

from harness.engine.behaviours import declared_functions
from harness.engine.prompt import response_output
from harness.truncation import extract_verdict

MAX_BLIND_RUNS = 4  # test runs in a row without a readable verdict before it gives up (3 re-runs)
TEST_COMMAND = "pytest"

_HEADING = re.compile(r"^\*\*([A-Za-z ]+):\*\*\s*(.*)$")
_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.(?:py|md|ini|txt)")
_FILE_READ = re.compile(r"([\w./-]+\.\w+)(?: \(`(.*?)`\))?")
_INCLUSIVE_RULE = re.compile(r"\b(\d+) units or more|\bfrom (?:exactly )?(\d+) units|\bat least (\d+) units", re.I)
_HALF_UP_RULE = re.compile(r"half[- ]up|ROUND_HALF_UP", re.I)
_STRICT = re.compile(r"if (\w*quantity\w*) > (\w+):")
_QUANTIZE = re.compile(r"(\w+)\.quantize\((\w+)\)")


@dataclass
class View:
    """What the request shows, in order of appearance (`pos` counts tool results; -1 is the head)."""
    listed: bool = False
    paths: set = field(default_factory=set)          # every file path named anywhere in view
    code: dict = field(default_factory=dict)          # path -> latest text seen (output or summary line)
    edited: dict = field(default_factory=dict)        # path -> position of its last successful edit
    stale: dict = field(default_factory=dict)         # path -> position of an "old text not found"
    read_at: dict = field(default_factory=dict)       # path -> position of its last read
    verdicts: list = field(default_factory=list)      # (position, verdict or None) for each test run
    rules: str = ""                                   # every text that may state the README's rules


def _outputs(request: dict):
    """(name, args, output) for every tool call in view that has its response, in order."""
    pending = []
    for content in request.get("contents") or []:
        for part in content.get("parts") or []:
            if "functionCall" in part:
                pending.append(part["functionCall"])
            elif "functionResponse" in part:
                name = part["functionResponse"].get("name")
                call = next((c for c in pending if c.get("name") == name), {"args": {}})
                if call in pending:
                    pending.remove(call)
                yield name, call.get("args") or {}, response_output(part)


def _read_head(view: View, text: str) -> None:
    """Knowledge from user texts: a summary's headings and a harness-held state block."""
    view.rules += "\n" + text
    view.paths.update(_PATH.findall(text))
    for line in text.splitlines():
        heading = _HEADING.match(line.strip())
        if line.startswith("Edited files:") and "none" not in line:
            view.edited.update({p: -1 for p in _PATH.findall(line)})
        elif line.startswith("Last test verdict:") and extract_verdict(line):
            view.verdicts.append((-1, extract_verdict(line)))
        elif heading and heading.group(1) == "Files read":
            for item in heading.group(2).split("; "):
                found = _FILE_READ.match(item.strip())
                if found:
                    view.code.setdefault(found.group(1), found.group(2) or "")
        elif heading and heading.group(1) == "Changes made" and heading.group(2).strip().lower() != "none":
            view.edited.update({p: -1 for p in _PATH.findall(heading.group(2))})
        elif heading and heading.group(1) == "Last tests" and extract_verdict(heading.group(2)):
            view.verdicts.append((-1, extract_verdict(heading.group(2))))


def see(request: dict) -> View:
    """Everything the policy knows, rebuilt from the request alone."""
    view = View()
    for content in request.get("contents") or []:
        if content.get("role", "user") == "user":
            for part in content.get("parts") or []:
                if part.get("text"):
                    _read_head(view, part["text"])
    for pos, (name, args, output) in enumerate(_outputs(request)):
        path, failed, masked = args.get("path", ""), output.startswith("ERROR:"), output.startswith("[masked ")
        if name == "list_files" and not failed and not masked:
            view.listed = True
            view.paths.update(line.strip() for line in output.splitlines() if _PATH.fullmatch(line.strip()))
        elif name == "read_file" and masked:  # read before, but its text is no longer in view
            view.paths.add(path)
        elif name == "read_file" and not failed:
            view.code[path], view.read_at[path] = output, pos
            view.paths.add(path)
            if path.lower().startswith("readme"):
                view.rules += "\n" + output
        elif name == "edit_file" and "old text not found" in output:
            view.stale[path] = pos
        elif name == "edit_file" and not failed:
            view.edited[path] = pos
        elif name == "run_command" and TEST_COMMAND in args.get("command", "") and not masked:
            view.verdicts.append((pos, extract_verdict(output)))
    return view


def _fix(path: str, code: str, rules: str) -> dict | None:
    """edit_file args that make `code` follow a rule stated in `rules`; None if nothing is wrong."""
    strict = _STRICT.search(code)
    if strict and _INCLUSIVE_RULE.search(rules):
        return {"path": path, "old": strict.group(0), "new": strict.group(0).replace(" > ", " >= ")}
    quantize = _QUANTIZE.search(code)
    if quantize and _HALF_UP_RULE.search(rules):
        prefix = "decimal." if "import decimal" in code or "\n" not in code else ""
        new = f"{quantize.group(1)}.quantize({quantize.group(2)}, rounding={prefix}ROUND_HALF_UP)"
        return {"path": path, "old": quantize.group(0), "new": new}
    return None


def _call(name: str, **args) -> list[dict]:
    return [{"functionCall": {"name": name, "args": args}}]


def _say(text: str) -> list[dict]:
    return [{"text": text}]


def _tests(view: View, last_edit: int) -> list[dict]:
    """Run the tests, unless MAX_BLIND_RUNS runs since `last_edit` all hid their verdict: then give up."""
    blind = [pos for pos, verdict in view.verdicts if pos > last_edit and not verdict]
    if len(blind) >= MAX_BLIND_RUNS:
        return _say(f"I ran the tests {len(blind)} times and could not read a verdict: the output I am shown "
                    "stops before pytest's summary line. I am stopping here; show me the end of the output "
                    "(or its verdict line) and I can go on.")
    return _call("run_command", command=TEST_COMMAND)


def decide(view: View) -> list[dict]:
    """The next action, by the first rule that applies (see the module docstring)."""
    modules = sorted(p for p in view.paths | set(view.edited) if p.endswith(".py") and not p.startswith("tests/")
                     and p.rsplit("/", 1)[-1] not in ("__init__.py", "conftest.py"))
    tests = sorted(p for p in view.paths if p.startswith("tests/test_"))
    readme = next((p for p in sorted(view.paths) if p.lower() == "readme.md"), "README.md")
    if not view.listed and not modules:
        return _call("list_files", path=".")
    for path, pos in view.stale.items():
        if view.read_at.get(path, -2) < pos:
            return _call("read_file", path=path)
    last_edit = max(view.edited.values(), default=-2)
    # A verdict counts if it came after the last edit; one from the head (-1) only if no edit is
    # known, since the head cannot say whether its verdict came before or after its edits.
    verdicts = [v for pos, v in view.verdicts if v and (pos > last_edit or (pos == -1 and last_edit == -2))]
    if last_edit > -2 and not verdicts:
        return _tests(view, last_edit)
    if verdicts and "failed" not in verdicts[-1]:
        changed = ", ".join(sorted(view.edited)) or "nothing"
        return _say(f"Done: the tests pass ({verdicts[-1].strip(' =')}). Files I changed: {changed}.")
    for path in [readme, *modules] + (tests if not view.verdicts else []):
        if path not in view.code and path not in view.edited:
            return _call("read_file", path=path)
    if not verdicts:
        return _tests(view, last_edit)
    for path in modules:
        fix = _fix(path, view.code.get(path, ""), view.rules) if path not in view.edited else None
        if fix:
            return _call("edit_file", **fix)
    suspicious = any(_STRICT.search(view.code.get(p, "")) or _QUANTIZE.search(view.code.get(p, "")) for p in modules)
    if suspicious and readme not in view.read_at:
        return _call("read_file", path=readme)  # the rule may be in the README, out of view
    return _say(f"The tests still fail ({verdicts[-1].strip(' =')}) and nothing I can see tells me what else to change.")


def act(request: dict) -> list[dict]:
    """The agent's response parts (camelCase wire dicts) for a generateContent request with tools."""
    if "list_files" not in declared_functions(request):
        return _say("I work on the lesson task with list_files, read_file, edit_file and run_command; "
                    "this request declares other tools, so I have nothing to do.")
    return decide(see(request))
