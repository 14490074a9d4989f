"""The summariser: an extractive summary under the headings it is asked for, within a word budget.

A request asks for a summary when its system instruction (or its last user message) says
"summar..." and names at least three known headings. The summary is built from the transcript in
the request only (the `harness.transcript` format, or plain messages), by fixed rules:

    >>> print(summarise("Summarise under Objective, Changes made, Last tests.",
    ...     ["user: Fix the failing tests.", 'model called run_command({"command": "pytest"})',
    ...      "tool run_command returned: 4 passed, 2 failed in 0.02s"]))
    **Objective:** Fix the failing tests.
    **Changes made:** none
    **Last tests:** 4 passed, 2 failed in 0.02s

"none" is literal: edits made in turns it was not handed do not exist for it (the "changes made:
none" trap of « Le budget de contexte »). Items fill the budget (150 words, or "at most N words") in
heading order, newest facts first, so each summary of a summary loses the oldest facts.
"""

import json
import re

from harness.engine.prompt import canonical, content_text, response_output, system_text
from harness.engine.scenario import all_skills
from harness.formats import (
    ERROR_PREFIX,
    KNOWN_HEADINGS,
    CallMatcher,
    call_entry,
    file_item,
    heading_line,
    headings_named,
    is_error_output,
    parse_entry,
    parse_heading,
    response_entry,
    text_entry,
    verdict_line,
)

DEFAULT_WORD_BUDGET = 150  # small on purpose: facts must compete for room
MAX_ITEM_WORDS = 20  # no single item may eat the budget

# What a heading says when the transcript gives it nothing.
DEFAULTS = {"Objective": "not stated in the transcript", "Last tests": "not run"}
PLACEHOLDERS = {"none", *DEFAULTS.values()}

# Where numeric code decides something: a comparison or a rounding. Worth quoting in "Files read".
_DECISIVE = re.compile(r"[<>]=?|==|round", re.IGNORECASE)
_FACT = re.compile(
    r"\b(I am|I'm|I work|I prefer|I live|I have|I own|I like|my)\b|\d", re.IGNORECASE
)
_BUDGET = re.compile(r"at most (\d+) words", re.IGNORECASE)


def _is_instruction(text: str) -> bool:
    return "summar" in text.lower() and len(headings_named(text)) >= 3


def find_instruction(request: dict) -> tuple[str, int | None] | None:
    """(instruction, index of the content holding it, or None for the system instruction)."""
    if _is_instruction(system_text(request)):
        return system_text(request), None
    contents = request.get("contents") or []
    # Only the very last message can ask: a compacted history's first message carries an old
    # summary with the same headings, and that is material, not a request.
    last = len(contents) - 1
    if (
        last >= 0
        and (contents[last].get("role") or "user") == "user"
        and _is_instruction(content_text(contents[last]))
    ):
        return content_text(contents[last]), last
    return None


def transcript_lines(request: dict, holder: int | None) -> list[str]:
    """The request's contents as transcript lines; plain messages become `role: text` entries.

    In the message holding the instruction, only the transcript it carries counts: lines before
    its first entry, and lines that ask for the summary, are the instruction, not material.
    """
    lines = []
    for index, content in enumerate(request.get("contents") or []):
        role = content.get("role") or "user"
        for part in content.get("parts") or []:
            if "functionCall" in part:
                call = part["functionCall"]
                lines.append(call_entry(role, call.get("name"), canonical(call.get("args") or {})))
            elif "functionResponse" in part:
                output = response_output(part)
                lines += response_entry(part["functionResponse"].get("name"), output).split("\n")
            elif part.get("text"):
                lines += _text_lines(part["text"], role, is_holder=index == holder)
    return lines


def _text_lines(text: str, role: str, is_holder: bool) -> list[str]:
    raw = text.split("\n")
    starts = [i for i, line in enumerate(raw) if parse_entry(line) or parse_heading(line)]
    if not starts:  # a plain message: one entry of its role (none if it is the instruction)
        return [] if is_holder else [text_entry(role, raw[0])] + raw[1:]
    kept = raw[starts[0] :]
    return [
        line
        for line in kept
        if not (is_holder and ("summar" in line.lower() or len(headings_named(line)) >= 2))
    ]


def _clip(text: str, words: int = MAX_ITEM_WORDS) -> str:
    cut = text.split()
    return " ".join(cut[:words]) + (" ..." if len(cut) > words else "")


def _path(args: str) -> str:
    try:
        return str(json.loads(args).get("path", ""))
    except (ValueError, AttributeError):  # args cut short in the transcript: fall back to a regex
        found = re.search(r'"path":\s*"([^"]*)"', args)
        return found.group(1) if found else ""


def extract(lines: list[str]) -> dict[str, list[str]]:
    """Every heading's items, in priority order, from transcript lines."""
    items = {h: [] for h in KNOWN_HEADINGS}
    previous = {h: [] for h in KNOWN_HEADINGS}  # material from a summary inside the transcript
    calls, section, user_texts = CallMatcher(), None, []
    last_edit = last_verdict = -1
    for number, line in enumerate(lines):
        heading, entry = parse_heading(line), parse_entry(line)
        if heading:
            section = heading[0]
            previous[section] += [i.strip() for i in heading[1].split(";") if i.strip()]
        elif not line.strip():
            section = None  # a blank line ends a summary section: later bullets are not its items
        elif section and re.match(r"^\s*[-*]\s+", line) and not entry:
            previous[section].append(re.sub(r"^\s*[-*]\s+", "", line).strip())
        elif entry:
            section = None
            if entry.kind == "text" and entry.role == "user":
                user_texts.append(" ".join([entry.text] + _continuation(lines, number)))
            elif entry.kind == "call":
                calls.called(entry.name, (entry.name, entry.text))
            elif entry.kind == "response":
                call = calls.answered(entry.name, (entry.name, "{}"))
                output = entry.text + "\n" + "\n".join(_continuation(lines, number))
                last_edit = _tool_result(items, call, output.strip(), number, last_edit)
        if verdict_line(line):  # the verdict itself, without the entry or heading around it
            said = (
                entry.text
                if entry and entry.kind == "response"
                else heading[1]
                if heading
                else line
            )
            items["Last tests"], last_verdict = [said.strip(" =")], number
    _conversation(items, user_texts)
    for heading in KNOWN_HEADINGS:  # an old summary's items come after this transcript's own
        if heading in ("Last tests", "Still to do") or (heading == "Objective" and items[heading]):
            continue  # one verdict, one objective, and a to-do derived afresh from the state below
        items[heading] += [
            i for i in previous[heading] if i not in items[heading] and i not in PLACEHOLDERS
        ]
    items["Still to do"] = _still_to_do(items, last_edit, last_verdict)
    return items


def _continuation(lines: list[str], number: int) -> list[str]:
    out = []
    for line in lines[number + 1 :]:
        if parse_entry(line) or parse_heading(line):
            break
        out.append(line)
    return out


def _line_that_matters(text: str) -> str:
    """The line of a file to quote: the first a registered skill would rewrite, else the first that
    decides something (a comparison, a rounding), else the first that states a skill's rule; '' if
    none.
    """
    lines, skills = [ln.strip() for ln in text.splitlines()], all_skills()
    rewritten = (ln for ln in lines if any(skill.breaks(ln) for skill in skills))
    decisive = (ln for ln in lines if _DECISIVE.search(ln))
    stated = (ln for ln in lines if any(skill.rule.search(ln) for skill in skills))
    return next(rewritten, None) or next(decisive, None) or next(stated, "")


def _tool_result(
    items: dict, call: tuple[str, str], output: str, number: int, last_edit: int
) -> int:
    name, args = call
    if is_error_output(output):
        target = _path(args) or _clip(args, 6)
        error = output.splitlines()[0].removeprefix(ERROR_PREFIX).strip()
        items["Discarded hypotheses"].append(f"{name} {target} failed: {_clip(error, 12)}")
    elif name == "read_file" and not any(
        i.split(" (`")[0] == _path(args) for i in items["Files read"]
    ):
        interest = _line_that_matters(output)
        items["Files read"].append(file_item(_path(args), _clip(interest, 10) if interest else ""))
    elif name == "edit_file":
        if _path(args) not in items["Changes made"]:
            items["Changes made"].append(_path(args))
        return number
    return last_edit


def _conversation(items: dict, user_texts: list[str]) -> None:
    if user_texts:
        task = re.split(r"(?<=[.!?])\s+", user_texts[0].strip())[0]  # its first sentence
        items["Objective"] = [_clip(task, 16)]
    sentences = [
        s.strip() for text in user_texts for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()
    ]
    questions = [s for s in sentences if s.endswith("?")]
    facts = [
        s
        for s in reversed(sentences)
        if _FACT.search(s) and not s.endswith("?") and "summar" not in s.lower()
    ]
    items["User facts"] = list(dict.fromkeys(facts))
    items["Topics discussed"] = list(
        dict.fromkeys(_clip(re.split(r"[,;:]| and | but ", q)[0], 8) for q in questions)
    )
    items["Open questions"] = questions[-1:]


def _still_to_do(items: dict, last_edit: int, last_verdict: int) -> list[str]:
    verdict = " ".join(items["Last tests"])
    todo = [] if items["Files read"] else ["read the README and the code"]
    if not verdict:
        todo.append("run the tests")
    elif "failed" in verdict and last_edit < last_verdict:
        todo.append("fix the code the failing tests point to, then re-run the tests")
    elif last_edit > last_verdict:
        todo.append("re-run the tests to check the changes")
    else:
        todo.append("report the result")
    return todo


def summarise(instruction: str, lines: list[str]) -> str:
    """The summary text: one `**Heading:** item; item` line per heading the instruction names."""
    headings = headings_named(instruction)
    found = _BUDGET.search(instruction)
    budget = int(found.group(1)) if found else DEFAULT_WORD_BUDGET
    found_items = extract(lines)
    items = {h: [_clip(i) for i in found_items[h]] or [DEFAULTS.get(h, "none")] for h in headings}
    chosen = {h: [] for h in headings}
    used = sum(len(f"**{h}:**".split()) for h in headings)
    # First every heading's best item, then the rest in heading order until the budget is spent.
    queue = [(h, items[h][0]) for h in headings] + [(h, i) for h in headings for i in items[h][1:]]
    for heading, item in queue:
        if used + len(item.split()) > budget:
            break
        chosen[heading].append(item)
        used += len(item.split())
    return "\n".join(heading_line(h, chosen[h]) for h in headings)


def respond(request: dict) -> list[dict] | None:
    """The summary as response parts, or None when the request does not ask for one."""
    found = find_instruction(request)
    if found is None:
        return None
    instruction, holder = found
    return [{"text": summarise(instruction, transcript_lines(request, holder))}]
