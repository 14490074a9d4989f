"""Lesson 13's sessions: the tutor working from a knowledge base, with and without moving turns out.

`run_library_session` runs lesson 08's tutor session (facts planted at turn 0, course questions,
then probes) with the library tutor (harness.scenarios.library): each turn it reads INDEX.md and
the files whose lines match the question. With `offload` the harness moves every exchange older
than `keep_recent` out of the window into notes/turn-NN.md (harness.offload), so the window holds
the system text, the opening, the recent exchanges and this turn's reads; without it the window
keeps everything, every earlier read included.

    >>> run = run_library_session(connect(), LibraryPlan("moved out"))          # doctest: +SKIP
    >>> [tokens for _, tokens in turn_prompts(run)][-3:]                         # doctest: +SKIP

`run_battery` asks the BATTERY's single-turn questions, each in a fresh session, with one of three
tool sets (the shell ablation of the tutor article) and says, per question, which tools it used,
whether the right passage was reached by search or by any tool, and whether the answer quotes it.
"""

import copy
import tempfile
from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import Callable, NamedTuple

from google.genai import types

from harness import MODEL
from harness.corpus_shell import CorpusShell
from harness.memory import MEMORY_BUDGET, MemoryStore, consolidate, distill, inject
from harness.offload import KnowledgeBase, build_index
from harness.plumbing import sessions_in_process
from harness.plumbing.arguments import (
    checked,
    require_callable,
    require_client,
    require_fields,
    require_instance,
    require_int,
    require_text,
)
from harness.plumbing.client import start_cold
from harness.plumbing.session_bundles import Bundle, Recording, usage_dict
from harness.probes import MAX_QUESTIONS, _replay_key, script_turns
from harness.scenarios.course import TUTOR_SYSTEM, TUTOR_TOOLS, passages, search_course
from harness.scenarios.course.script import OPENING as COURSE_OPENING
from harness.scenarios.library import (
    BATTERY,
    LIBRARY_SYSTEM,
    MEMORY_PROBES,
    MEMORY_SESSIONS,
    OPENING,
    MemoryProbe,
    library_tools,
)
from harness.scenarios.library.glass_box import READ, SEARCH, SHELL
from harness.tools import Workspace

MAX_CALLS = (
    10  # model calls in one turn: index, two files, two greps, two more files, a search, the answer
)


@dataclass(frozen=True)
class LibraryPlan:
    """How a library session keeps its window. Defaults: move every exchange but the last out."""

    name: str = "moved out"
    _: KW_ONLY
    offload: bool = True  # move old exchanges to notes/ (False: the window keeps everything)
    keep_recent: int = 1  # exchanges kept word for word in the window
    index_budget: int | None = None  # tokens of INDEX.md (None: every file listed)
    shell: bool = False  # declare corpus_shell

    def __post_init__(self):
        require_fields(self, index_budget=(1, None))


@checked(budget=(1, None))
def budget_plan(budget: int | None, shell: bool = False) -> LibraryPlan:
    """Moved out, the index held to `budget` tokens (None: all files listed), the shell if asked."""
    name = "index: every file" if budget is None else f"index {budget:,}"
    return LibraryPlan(name + (" + shell" if shell else ""), index_budget=budget, shell=shell)


def _user(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part.from_text(text=text)])


def _model(text: str) -> types.Content:
    return types.Content(role="model", parts=[types.Part.from_text(text=text)])


class _Tools:
    """The library tutor's tools on one knowledge base; `used`: (name, args, output), in order."""

    def __init__(self, kb: KnowledgeBase):
        self.files, self.shell, self.used = Workspace(kb.root), CorpusShell(kb.root), []

    def run(self, call: types.FunctionCall) -> str:
        args = call.args or {}
        if call.name == READ:
            output = self.files.read_file(str(args.get("path", "")))
        elif call.name == SHELL:
            output = self.shell.run(str(args.get("command", "")))
        elif call.name == SEARCH:
            output = search_course(str(args.get("query", "")))
        else:
            output = (
                f"ERROR: unknown tool {call.name!r}; the tools are {READ}, {SEARCH} and {SHELL}."
            )
        self.used.append((call.name, dict(args), output))
        return output


def _turn(client, model, record, config, contents, run_tool, turn, probe=None) -> str:
    """Call the model until it answers in text, running its calls with `run_tool`; the answer
    ('' if it never does within MAX_CALLS). `contents` grows with the turn's calls and outputs."""
    for _ in range(MAX_CALLS):
        reply = sessions_in_process.generate_content(
            client, model=model, contents=contents, config=config
        )
        calls = reply.function_calls or []
        record.add(
            Bundle(
                turn,
                usage_dict(reply.usage_metadata),
                tools=[c.name for c in calls],
                answer="" if calls else (reply.text or ""),
                probe=probe._asdict() if probe and not calls else None,
            )
        )
        contents.append(reply.candidates[0].content)
        if not calls:
            return reply.text or ""
        contents.append(
            types.Content(
                role="user",
                parts=[
                    types.Part.from_function_response(name=c.name, response={"output": run_tool(c)})
                    for c in calls
                ],
            )
        )
    return ""


def run_library_session(
    client,
    plan: LibraryPlan = LibraryPlan(),
    questions: int = 14,
    model: str = MODEL,
    build: Callable = build_index,
) -> Recording:
    """Run the tutor session from a fresh knowledge base under `plan`; one bundle per call.

    `build` writes INDEX.md (13.1's `build_index`, the harness's by default). Offline, the glass box
    starts cold and a session already run in this process is handed out again (a copy)."""
    require_client("client", client)
    require_instance("plan", plan, LibraryPlan, "a library.LibraryPlan")
    require_int("questions", questions, 0, MAX_QUESTIONS)
    require_text("model", model, empty=False)
    require_callable("build", build)
    key = _replay_key(client, (plan, build), questions, model)
    if key in _RUNS:
        return copy.deepcopy(_RUNS[key])
    start_cold()
    kb = KnowledgeBase(
        tempfile.mkdtemp(prefix="workbook-library-"), passages(), plan.index_budget, build=build
    )
    tools = _Tools(kb)
    record = Recording(plan.name, config={"plan": plan.name, "model": model})
    config = types.GenerateContentConfig(
        system_instruction=LIBRARY_SYSTEM, tools=library_tools(plan.shell)
    )
    history, recent = [_user(OPENING)], []
    for turn, (text, probe) in enumerate(script_turns(questions)):
        if plan.offload:
            while len(recent) > plan.keep_recent:
                kb.move_out(*recent.pop(0))
            history = [_user(OPENING)] + [
                c for _, said, answer in recent for c in (_user(said), _model(answer))
            ]
        history.append(_user(text))
        tools.shell.new_turn()
        answer = _turn(client, model, record, config, history, tools.run, turn, probe)
        recent.append((turn, text, answer))
    record.config["files"] = len(kb.entries)
    if key:
        _RUNS[key] = copy.deepcopy(record)
    return record


# glass-box sessions already run in this process (see probes._GLASS_BOX_RUNS)
_RUNS: dict[tuple, Recording] = {}


def turn_prompts(run: Recording) -> list[tuple[int, int]]:
    """(turn, prompt tokens of the turn's last call): what the window held for the answer."""
    require_instance(
        "run", run, Recording, "a Recording (from run_library_session or probes.run_session)"
    )
    last = {}
    for bundle in run.bundles:
        last[bundle.turn] = bundle.prompt_tokens
    return sorted(last.items())


class BatteryRow(NamedTuple):
    question: str
    expected: str  # the id of the passage that answers it
    kind: str  # "titled" or "paraphrased"
    calls: dict  # tool name -> calls in this turn
    by_search: bool  # the passage came back from search_course
    by_any_tool: (
        bool  # the passage came back from any tool (read_file, the shell's output, a search)
    )
    grounded: bool  # the answer quotes a sentence of the passage


TOOL_SETS = {  # the shell ablation, as the tutor article ran it and one step further
    "files + shell": dict(tools=lambda: library_tools(shell=True), system=LIBRARY_SYSTEM),
    "files, no shell": dict(tools=lambda: library_tools(shell=False), system=LIBRARY_SYSTEM),
    "search only": dict(tools=lambda: TUTOR_TOOLS, system=TUTOR_SYSTEM),
}


def _reached(passage_id: str, used: list, names: set) -> bool:
    """True when a tool of `names` brought the passage back: its file read, or its id shown."""
    path = f"course/{passage_id}.md"
    return any(
        name in names
        and (args.get("path") == path or f"[{passage_id}]" in output or path in output)
        for name, args, output in used
    )


def run_battery(client, tool_set: str = "files + shell", model: str = MODEL) -> list[BatteryRow]:
    """Each BATTERY question in a fresh session with the tool set named (a key of TOOL_SETS)."""
    require_client("client", client)
    require_text("model", model, empty=False)
    require_text("tool_set", tool_set)
    if tool_set not in TOOL_SETS:
        raise ValueError(f"tool_set must be one of {', '.join(TOOL_SETS)}; got {tool_set!r}.")
    key = _replay_key(client, ("battery", tool_set), 0, model)
    if key in _RUNS:
        return copy.deepcopy(_RUNS[key])
    start_cold()
    kb = KnowledgeBase(tempfile.mkdtemp(prefix="workbook-library-"), passages())
    texts = {p.id: p.text for p in passages()}
    config = types.GenerateContentConfig(
        system_instruction=TOOL_SETS[tool_set]["system"], tools=TOOL_SETS[tool_set]["tools"]()
    )
    rows = []
    for question, expected, kind in BATTERY:
        tools = _Tools(kb)
        answer = _turn(client, model, Recording(tool_set), config, [_user(question)], tools.run, 0)
        calls = {}
        for name, _, _ in tools.used:
            calls[name] = calls.get(name, 0) + 1
        quoted = [q for q in answer.split('"')[1::2] if q]
        rows.append(
            BatteryRow(
                question,
                expected,
                kind,
                calls,
                _reached(expected, tools.used, {SEARCH}),
                _reached(expected, tools.used, {READ, SHELL, SEARCH}),
                any(q.removesuffix(" ...") in texts[expected] for q in quoted),
            )
        )
    if key:
        _RUNS[key] = copy.deepcopy(rows)
    return rows


class MemoryRun(NamedTuple):
    sessions: list  # a Recording per session, the probe session last
    blocks: list  # the memory block injected at the start of each session ("" when none)
    memories: list  # the memory after each session
    probes: list  # (MemoryProbe, answer, passed) for each probe of the last session


@checked
def memory_probe_passed(probe: MemoryProbe, answer: str) -> bool:
    """Every key point in the answer and none of the facts it should have forgotten."""
    said = " ".join(answer.lower().split())
    return all(" ".join(p.lower().split()) in said for p in probe.key_points) and not any(
        " ".join(p.lower().split()) in said for p in probe.absent
    )


def _search_only(call: types.FunctionCall) -> str:
    if call.name != SEARCH:
        return f"ERROR: unknown tool {call.name!r}; the only tool is {SEARCH}(query)."
    return search_course(str((call.args or {}).get("query", "")))


def run_memory_sessions(
    client,
    remember: bool = True,
    consolidate_fn: Callable = consolidate,
    budget: int = MEMORY_BUDGET,
    model: str = MODEL,
) -> MemoryRun:
    """MEMORY_SESSIONS, then a session of MEMORY_PROBES, with the course tutor (search_course).

    With `remember`, each session ends by distilling what the student stated and consolidating it
    (`consolidate_fn`, 13.2's function) into a memory file, and each next session starts with that
    memory injected into its system instruction (`inject`, within `budget` tokens)."""
    require_client("client", client)
    require_instance("remember", remember, bool, "True or False")
    require_callable("consolidate_fn", consolidate_fn)
    require_int("budget", budget, 1)
    require_text("model", model, empty=False)
    key = _replay_key(client, ("memory", remember, consolidate_fn, budget), 0, model)
    if key in _RUNS:
        return copy.deepcopy(_RUNS[key])
    start_cold()
    store = MemoryStore(Path(tempfile.mkdtemp(prefix="workbook-memory-")) / "memory.json")
    scripts = list(MEMORY_SESSIONS) + [tuple(p.question for p in MEMORY_PROBES)]
    run = MemoryRun([], [], [], [])
    for session, messages in enumerate(scripts):
        block = inject(store.load(), budget)[0] if remember else ""
        config = types.GenerateContentConfig(
            system_instruction=TUTOR_SYSTEM + (f"\n\n{block}" if block else ""), tools=TUTOR_TOOLS
        )
        record, history, answers = Recording(f"session {session}"), [_user(COURSE_OPENING)], []
        for turn, text in enumerate(messages):
            history.append(_user(text))
            answers.append(_turn(client, model, record, config, history, _search_only, turn))
        if remember:
            store.save(consolidate_fn(store.load(), distill(messages, session)))
        run.sessions.append(record)
        run.blocks.append(block)
        run.memories.append(store.load())
    run.probes.extend(
        (probe, answer, memory_probe_passed(probe, answer))
        for probe, answer in zip(MEMORY_PROBES, answers)
    )
    if key:
        _RUNS[key] = copy.deepcopy(run)
    return run
