"""The glass box as a coding agent: it works through a coding task by rules that read the request
only.

Generic: it knows the four workspace tools and pytest, nothing of any task. What a task's rules
mean in code comes from the skills its scenario registers (`harness.engine.scenario.Skill`), and a
skill fires only when its rule and its code are both in view. Its memory is its context window.
Each call it rebuilds what it knows from what it can see (tool calls and outputs in view, a
summary, a harness-held state block) and takes the first action whose rule applies:

    1. no file listing in view (nor any file named)        -> list_files(".")
    2. an edit failed with "old text not found"            -> read that file again
    3. an edit with no test verdict after it               -> run_command("pytest")
    4. the latest verdict passes                           -> report, in text
    5. README, a module or (before any run) a test unseen  -> read_file(it)
    6. no test verdict in view                             -> run_command("pytest")
    7. visible code breaks a rule stated in view, unfixed  -> edit_file with the exact text seen
    (3 and 6 give up, in text, after MAX_BLIND_RUNS runs whose verdict was cut off)

>>> CodingAgent().act({"contents": [{"role": "user", "parts": [{"text": "Fix the tests."}]}],
...                    "tools": [{"functionDeclarations": [{"name": "list_files"}]}]})
[{'functionCall': {'name': 'list_files', 'args': {'path': '.'}}}]

So when truncation hides the verdict it re-runs the tests, and when a summary says "Changes made:
none" while the edit is out of view, it edits again and meets "old text not found". A harness-held
state block listing the edited files is authoritative and prevents that.
"""

import re
from dataclasses import dataclass, field

from harness.engine.prompt import response_output
from harness.engine.scenario import Scenario, Skill, all_skills
from harness.formats import (
    ITEM_SEPARATOR,
    STALE_EDIT,
    CallMatcher,
    is_error_output,
    is_masked,
    parse_file_item,
    parse_heading,
    parse_state,
    verdict_line,
)

MAX_BLIND_RUNS = 4  # test runs in a row without a readable verdict before it gives up (3 re-runs)
TEST_COMMAND = "pytest"
# harness.tools' workspace
TOOLS = frozenset({"list_files", "read_file", "edit_file", "run_command"})

_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.(?:py|md|ini|txt)")


@dataclass
class View:
    """What the request shows, in order of appearance (`pos` counts tool results; -1 is the
    head)."""

    listed: bool = False
    paths: set = field(default_factory=set)  # every file path named anywhere in view
    code: dict = field(default_factory=dict)  # path -> latest text seen (output or summary line)
    edited: dict = field(default_factory=dict)  # path -> position of its last successful edit
    stale: dict = field(default_factory=dict)  # path -> position of an "old text not found"
    read_at: dict = field(default_factory=dict)  # path -> position of its last read
    verdicts: list = field(default_factory=list)  # (position, verdict or None) for each test run
    rules: str = ""  # every text that may state the README's rules


def _outputs(request: dict):
    """(name, args, output) for every tool call in view that has its response, in order."""
    calls = CallMatcher()
    for content in request.get("contents") or []:
        for part in content.get("parts") or []:
            if "functionCall" in part:
                calls.called(part["functionCall"].get("name"), part["functionCall"])
            elif "functionResponse" in part:
                name = part["functionResponse"].get("name")
                call = calls.answered(name, {"args": {}})
                yield name, call.get("args") or {}, response_output(part)


def _read_head(view: View, text: str) -> None:
    """Knowledge from user texts: a summary's headings and a harness-held state block."""
    view.rules += "\n" + text
    view.paths.update(_PATH.findall(text))
    edited, verdict = parse_state(text)
    view.edited.update({p: -1 for p in edited or []})
    if verdict:
        view.verdicts.append((-1, verdict))
    for line in text.splitlines():
        heading, items = parse_heading(line.strip()) or ("", "")
        if heading == "Files read":
            for item in items.split(ITEM_SEPARATOR):
                found = parse_file_item(item)
                if found:
                    view.code.setdefault(*found)
        elif heading == "Changes made" and items.strip().lower() != "none":
            view.edited.update({p: -1 for p in _PATH.findall(items)})
        elif heading == "Last tests" and verdict_line(items):
            view.verdicts.append((-1, verdict_line(items)))


def see(request: dict) -> View:
    """Everything the policy knows, rebuilt from the request alone."""
    view = View()
    for content in request.get("contents") or []:
        if content.get("role", "user") == "user":
            for part in content.get("parts") or []:
                if part.get("text"):
                    _read_head(view, part["text"])
    for pos, (name, args, output) in enumerate(_outputs(request)):
        path, failed, masked = args.get("path", ""), is_error_output(output), is_masked(output)
        if name == "list_files" and not failed and not masked:
            view.listed = True
            view.paths.update(
                line.strip() for line in output.splitlines() if _PATH.fullmatch(line.strip())
            )
        elif name == "read_file" and masked:  # read before, but its text is no longer in view
            view.paths.add(path)
        elif name == "read_file" and not failed:
            view.code[path], view.read_at[path] = output, pos
            view.paths.add(path)
            if path.lower().startswith("readme"):
                view.rules += "\n" + output
        elif name == "edit_file" and STALE_EDIT in output:
            view.stale[path] = pos
        elif name == "edit_file" and not failed:
            view.edited[path] = pos
        elif name == "run_command" and TEST_COMMAND in args.get("command", "") and not masked:
            view.verdicts.append((pos, verdict_line(output)))
    return view


def _fix(path: str, code: str, rules: str, skills) -> dict | None:
    """edit_file args that make `code` follow a rule stated in `rules`; None if no skill applies."""
    for skill in skills:
        found = skill.fix(code, rules)
        if found:
            return {"path": path, "old": found[0], "new": found[1]}
    return None


def _call(name: str, **args) -> list[dict]:
    return [{"functionCall": {"name": name, "args": args}}]


def _say(text: str) -> list[dict]:
    return [{"text": text}]


def _tests(view: View, last_edit: int) -> list[dict]:
    """Run the tests, unless MAX_BLIND_RUNS runs since `last_edit` all hid their verdict: then
    give up."""
    blind = [pos for pos, verdict in view.verdicts if pos > last_edit and not verdict]
    if len(blind) >= MAX_BLIND_RUNS:
        return _say(
            f"I ran the tests {len(blind)} times and could not read a verdict: the output I am"
            " shown stops before pytest's summary line. I am stopping here; show me the end of the"
            " output (or its verdict line) and I can go on."
        )
    return _call("run_command", command=TEST_COMMAND)


def decide(view: View, skills: list[Skill]) -> list[dict]:
    """The next action, by the first rule that applies (see the module docstring)."""
    modules = sorted(
        p
        for p in view.paths | set(view.edited)
        if p.endswith(".py")
        and not p.startswith("tests/")
        and p.rsplit("/", 1)[-1] not in ("__init__.py", "conftest.py")
    )
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
    verdicts = [
        v for pos, v in view.verdicts if v and (pos > last_edit or (pos == -1 and last_edit == -2))
    ]
    if last_edit > -2 and not verdicts:
        return _tests(view, last_edit)
    if verdicts and "failed" not in verdicts[-1]:
        changed = ", ".join(sorted(view.edited)) or "nothing"
        return _say(
            f"Done: the tests pass ({verdicts[-1].strip(' =')}). Files I changed: {changed}."
        )
    for path in [readme, *modules] + (tests if not view.verdicts else []):
        if path not in view.code and path not in view.edited:
            return _call("read_file", path=path)
    if not verdicts:
        return _tests(view, last_edit)
    for path in modules:
        fix = (
            _fix(path, view.code.get(path, ""), view.rules, skills)
            if path not in view.edited
            else None
        )
        if fix:
            return _call("edit_file", **fix)
    suspicious = any(skill.breaks(view.code.get(p, "")) for skill in skills for p in modules)
    if suspicious and readme not in view.read_at:
        return _call("read_file", path=readme)  # the rule may be in the README, out of view
    return _say(
        f"The tests still fail ({verdicts[-1].strip(' =')}) and nothing I can see tells me what"
        " else to change."
    )


class CodingAgent(Scenario):
    """The policy of every coding task: subclass it per task and set `name` and `skills`.

    Its skills are those of every registered scenario (its weights), so two tasks that share the
    workspace tool set are both fixed whichever of them the request selects.
    """

    tools = TOOLS

    def act(self, request: dict) -> list[dict]:
        return decide(see(request), all_skills())
