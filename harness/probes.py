"""Measuring memory: plant facts, grow a tutor session past compaction, probe, grade the facts only.

A run is one tutor session (harness.scenarios.course.script) under one `Strategy`, recorded call by
call as a `Recording`, so it can be graded and billed again later without calling a model:

    >>> run = run_session(connect(), STRATEGIES["full history"])          # doctest: +SKIP
    >>> recall(run), compaction_fired_before_probe(run)                   # doctest: +SKIP
    (1.0, False)

    >>> grade_probe("From what I can see: \\"I build it in  GODOT.\\"", ["godot"])
    True

A `Strategy` is a `SessionConfig` (harness.agent.config), like the agent's `AgentConfig`: the knobs
they share (context_budget, compact_ratio, keep_recent_turns, tool_output_max_chars, head_ratio,
truncation_mode, session_token_cap) have one meaning, so one config panel can drive both.
"""

import copy
import re
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import KW_ONLY, asdict, dataclass, replace

from google import genai
from google.genai import types

from harness import MODEL
from harness.agent.config import SessionConfig
from harness.compaction import compact
from harness.formats import CONVERSATION_HEADINGS
from harness.models import require_model
from harness.plumbing import sessions_in_process
from harness.plumbing.arguments import (
    checked,
    require_client,
    require_instance,
    require_int,
    require_list_of_text,
    require_mapping,
)
from harness.plumbing.client import is_offline, start_cold
from harness.plumbing.session_bundles import Bundle, Recording, usage_dict
from harness.scenarios.course import TUTOR_SYSTEM, TUTOR_TOOLS, passages, search_course
from harness.scenarios.course.script import OPENING, PLANTED, PROBES, QUESTIONS
from harness.truncation import truncate_output
from harness.usage import output_tokens

# Asks the glass-box summariser (and a real model) for a conversation checkpoint. "at most N words"
# is the fixed budget that makes facts compete for room.
CONVERSATION_SUMMARY = (
    "Summarise the conversation so far as a checkpoint, under the headings "
    f"{', '.join(CONVERSATION_HEADINGS)}. Keep what the student said about themselves. "
    "Use at most {words} words."
)


@dataclass(frozen=True)
class Strategy(SessionConfig):
    """How a tutor session manages its context. Defaults: keep everything, as it came.

    Knobs shared with the agent's `AgentConfig` (same names, same meanings):
        truncate, tool_output_max_chars: cap each search result before it enters the history (1,200 chars);
        head_ratio, truncation_mode: the share of the cap kept from the start (0.4), "head_and_tail" or "head_only";
        compaction: summarise old turns when the last prompt passes compact_ratio (0.7) x context_budget (4,000);
        keep_recent_turns: turns a compaction keeps word for word (3);
        session_token_cap: stop the session once this many tokens are billed (400,000).
    The tutor's own:
        summary_words: the summariser's word budget (60): facts compete for it;
        prefix_preserving: summarise by appending one instruction to the unchanged history (cache-friendly);
        timestamp_in_system: the cache-breaking mistake, the time on the system prompt's first line.
    """

    name: str = "full history"
    _: KW_ONLY
    truncate: bool = False  # cap each tool output (truncate_output) before it enters the history
    tool_output_max_chars: int = (
        1200  # the cap: a search returns 2,000-2,300 chars, so this cuts about half
    )
    compaction: bool = False  # summarise old turns when the last prompt passes ratio x budget
    context_budget: int = 4000  # tokens: small, so compaction fires in a 20-turn session
    summary_words: int = 60  # the summariser's word budget
    prefix_preserving: bool = (
        False  # summarise by appending one instruction to the unchanged history
    )
    timestamp_in_system: bool = False  # the cache-breaking mistake: the time on the first line

    def _broken(self) -> list[str]:
        broken = super()._broken()
        if self.summary_words < 1:
            broken.append(f"summary_words must be at least 1, got {self.summary_words!r}")
        return broken


STRATEGIES = {
    s.name: s
    for s in (
        Strategy("full history"),
        Strategy("capped outputs", truncate=True),
        Strategy("compaction at threshold", truncate=True, compaction=True),
        Strategy(
            "aggressive compaction",
            truncate=True,
            compaction=True,
            context_budget=2000,
            keep_recent_turns=1,
        ),
        Strategy(
            "prefix-preserving summary", truncate=True, compaction=True, prefix_preserving=True
        ),
    )
}


MAX_QUESTIONS = 1_000  # a session of 14 questions takes a minute online: 1,000 is already a day


@checked(questions=(0, MAX_QUESTIONS))
def script_turns(questions: int = len(QUESTIONS)) -> list[tuple[str, object]]:
    """(user text, probe or None) for each turn: the plant, `questions` course questions, the
    probes."""
    asked = [QUESTIONS[i % len(QUESTIONS)] for i in range(questions)]
    return [(PLANTED, None)] + [(q, None) for q in asked] + [(p.question, p) for p in PROBES]


def _user(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part.from_text(text=text)])


def _one_item_per_line(summary: str) -> str:
    """'**User facts:** a; b' -> '**User facts:** a' and '- b': each item reads as its own
    sentence."""
    return "\n".join(re.sub(r";\s+", "\n- ", line) for line in summary.splitlines())


class _Session:
    """The state of one running session: history, recording, the clock for timestamps."""

    def __init__(self, client, strategy: Strategy, model: str):
        self.client, self.strategy, self.model = client, strategy, model
        self.history = [_user(OPENING)]
        self.summary = ""  # the latest summary: the next one is written from it plus the new turns
        self.record = Recording(strategy.name, config=asdict(strategy) | {"model": model})
        self.events, self.last_prompt, self.calls = [], 0, 0

    def config(self) -> types.GenerateContentConfig:
        system = TUTOR_SYSTEM
        # a fake clock: reproducible, and different every call
        if self.strategy.timestamp_in_system:
            system = f"Current time: 09:{self.calls // 60:02d}:{self.calls % 60:02d}\n" + system
        return types.GenerateContentConfig(system_instruction=system, tools=TUTOR_TOOLS)

    def call(
        self, turn: int, contents, config, kind="turn", probe=None
    ) -> types.GenerateContentResponse:
        started = time.perf_counter()
        reply = sessions_in_process.generate_content(
            self.client, model=self.model, contents=contents, config=config
        )
        self.calls += 1
        calls = reply.function_calls or []
        self.record.add(
            Bundle(
                turn,
                usage_dict(reply.usage_metadata),
                kind=kind,
                tools=[c.name for c in calls],
                compactions=self.events,
                seconds=round(time.perf_counter() - started, 4),
                answer="" if calls else (reply.text or ""),
                probe=probe._asdict() if probe and not calls else None,
            )
        )
        self.events = []
        if kind == "turn":
            self.last_prompt = reply.usage_metadata.prompt_token_count or 0
        return reply

    def summarize(self, turn: int, transcript: str) -> str:
        instruction = CONVERSATION_SUMMARY.format(words=self.strategy.summary_words)
        # same prefix as the last turn: the summariser's call hits the cache
        if self.strategy.prefix_preserving:
            contents, config = self.history + [_user(instruction)], self.config()
        else:  # a fresh request: the previous summary, then the turns it did not cover
            contents = [_user(self.summary + "\n" + transcript)]
            config = types.GenerateContentConfig(system_instruction=instruction)
        self.summary = _one_item_per_line(
            self.call(turn, contents, config, kind="summary").text or ""
        )
        return self.summary

    def maybe_compact(self, turn: int) -> None:
        s = self.strategy
        if not s.compaction or self.last_prompt <= s.compact_threshold:
            return
        trigger = f"{self.last_prompt} > {s.compact_threshold:g}"  # worded as the agent's
        # compact() keeps only the task of history[0]: the old summary reaches the new one through
        # summarize().
        history, folded = compact(
            self.history, s.keep_recent_turns, lambda text: self.summarize(turn, text)
        )
        if folded:
            self.history = history
            self.events.append({"turn": turn, "messages": folded, "trigger": trigger})

    def tool_output(self, call: types.FunctionCall) -> str:
        if call.name != "search_course":
            return f"ERROR: unknown tool {call.name!r}; the only tool is search_course(query)."
        output = search_course(str((call.args or {}).get("query", "")))
        s = self.strategy
        return (
            truncate_output(output, s.tool_output_max_chars, s.effective_head_ratio)
            if s.truncate
            else output
        )

    def turn(self, turn: int, text: str, probe) -> None:
        self.maybe_compact(turn)
        self.history.append(_user(text))
        for _ in range(3):  # a question, a search, an answer; a real model may take a detour
            reply = self.call(turn, self.history, self.config(), probe=probe)
            self.history.append(reply.candidates[0].content)
            if not reply.function_calls:
                return
            self.history.append(
                types.Content(
                    role="user",
                    parts=[
                        types.Part.from_function_response(
                            name=c.name, response={"output": self.tool_output(c)}
                        )
                        for c in reply.function_calls
                    ],
                )
            )


@checked(client=require_client, questions=(0, MAX_QUESTIONS), model=require_model)
def run_session(
    client, strategy: Strategy = Strategy(), questions: int = len(QUESTIONS), model: str = MODEL
) -> Recording:
    """Run the tutor session under `strategy` and return its recording (one bundle per call).

    Offline, each run starts with a cold implicit cache, as a session started after the cache's
    lifetime would, so strategies compare on equal terms whatever ran before them.
    """
    key = _replay_key(client, strategy, questions, model)
    if key in _GLASS_BOX_RUNS:
        return copy.deepcopy(_GLASS_BOX_RUNS[key])
    start_cold()
    session = _Session(client, strategy, model)
    for turn, (text, probe) in enumerate(script_turns.unchecked(questions)):
        if strategy.over_cap(
            sum(b.prompt_tokens + output_tokens(b.usage) for b in session.record.bundles)
        ):
            session.record.config["stopped"] = f"session token cap reached before turn {turn}"
            break
        session.turn(turn, text, probe)
    if key:
        _GLASS_BOX_RUNS[key] = copy.deepcopy(session.record)
    return session.record


# Sessions already run on the glass box in this process. From a cold cache the glass box answers the
# same requests the same way, so lessons that compare strategies (07, 08, 14 and the 14.1 check) pay
# for each session once; a copy is handed out, so renaming a run changes nobody else's.
_GLASS_BOX_RUNS: dict[tuple, Recording] = {}


def _replay_key(client, strategy: Strategy, questions: int, model: str) -> tuple | None:
    """What decides a glass-box session: the strategy, its length, the model and the course; None on
    Gemini (a real model's answers vary) or with a stand-in client."""
    if not (is_offline() and isinstance(client, genai.Client)):
        return None
    return strategy, questions, model, passages()


def _key_points(name: str, key_points) -> None:
    require_list_of_text(name, key_points)
    if isinstance(key_points, Collection) and not key_points:
        raise ValueError(
            f"{name} must name at least one key point; with none, every answer would pass."
        )


@checked(key_points=_key_points)
def grade_probe(answer: str, key_points: Iterable[str]) -> bool:
    """True iff every key point appears in `answer`, ignoring case and runs of whitespace.

    An empty list of key points is refused (ValueError): it would pass every answer, so it is a
    probe written without its key points, a mistake to hear about rather than a recall of 100%.
    """

    def norm(text: str) -> str:
        return " ".join(str(text).lower().split())

    return all(norm(point) in norm(answer) for point in key_points)


@checked
def probe_results(run: Recording) -> list[bool]:
    """Each probe of the run graded on its own key points."""
    return [grade_probe(b.answer, b.probe["key_points"]) for b in run.bundles if b.probe]


@checked
def recall(run: Recording) -> float:
    """Share of the run's probes answered with every key point (0.0 for a run with no probe)."""
    results = probe_results.unchecked(run)
    return sum(results) / len(results) if results else 0.0


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
CLIP = (  # how the tutor marks a long sentence it quotes only in part (its own brevity, not a cut)
    " ..."
)


def course_sentences() -> frozenset[str]:
    """Every whole sentence of the course passages."""
    return frozenset(s for p in passages() for s in _SENTENCE_END.split(p.text) if s[-1:] in ".!?")


@checked
def quotes_whole_sentence(answer: str) -> bool:
    """True when the answer quotes at least one whole sentence of the course.

    A quote cut by a tool-output cap ("A cap keeps the head and the tail of a lo") is not one; a
    long sentence the tutor itself shortened with " ..." counts when what it kept starts a sentence.

    >>> quotes_whole_sentence('From what I can see: "Safe cut points are the places just before a model message."')
    True
    >>> quotes_whole_sentence('From what I can see: "Safe cut points are the pla"')
    False
    """
    whole = course_sentences()
    for quote in re.findall(r'"([^"]+)"', answer):
        kept = quote.removesuffix(CLIP)
        if quote in whole or (kept != quote and any(s.startswith(kept) for s in whole)):
            return True
    return False


@checked
def course_answers(run: Recording) -> list[str]:
    """The tutor's final answers to the course questions (not the acknowledgement, not the
    probes)."""
    return [
        b.answer
        for b in run.bundles
        if b.kind == "turn" and b.answer and not b.probe and b.turn > 0
    ]


@checked
def whole_answer_share(run: Recording) -> float:
    """Share of the course answers that quote a whole course sentence (0.0 with no answer)."""
    answers = course_answers.unchecked(run)
    return sum(map(quotes_whole_sentence.unchecked, answers)) / len(answers) if answers else 0.0


@checked
def compaction_fired_before_probe(run: Recording) -> bool:
    """True when some compaction event was recorded at or before the run's first probe answer."""
    fired = False
    for bundle in run.bundles:
        # recorded on a call: it happened before that call
        fired = fired or bool(bundle.compactions)
        if bundle.probe:
            return fired
    return False  # no probe at all: nothing was tested


@checked
def filter_triggered(runs: list[Recording]) -> list[Recording]:
    """Only the runs whose probes test memory: compaction fired before the first probe."""
    return [run for run in runs if compaction_fired_before_probe.unchecked(run)]


def _strategies(name: str, strategies) -> None:
    if strategies is not None:
        require_mapping(
            name,
            strategies,
            "strategies, name -> probes.Strategy (like STRATEGIES)",
            Strategy,
            "a probes.Strategy",
        )


def _lengths(name: str, lengths) -> None:
    require_instance(name, lengths, (list, tuple, range), "a list of session lengths")
    for index, length in enumerate(lengths):
        require_int(f"{name}[{index}]", length, 0, MAX_QUESTIONS)


@checked(client=require_client, strategies=_strategies, lengths=_lengths, model=require_model)
def run_battery(
    client,
    strategies: Mapping[str, Strategy] | None = None,
    lengths: Iterable[int] = (6, 10, 14),
    model: str = MODEL,
) -> list[Recording]:
    """Every strategy at every session length (number of course questions before the probes)."""
    strategies = STRATEGIES if strategies is None else strategies
    runs = []
    for strategy in strategies.values():
        for questions in lengths:
            run = run_session.unchecked(client, strategy, questions, model)
            run.name = f"{strategy.name}, {questions} questions"
            runs.append(run)
    return runs


@checked
def with_knobs(strategy: Strategy, **knobs) -> Strategy:
    """A copy of `strategy` with some knobs changed (unknown knob names are an error)."""
    return replace(strategy, **knobs)


_HEDGES = re.compile(r"\b(i don't know|not sure|cannot tell|no idea)\b", re.I)
_QUESTION_WORDS = frozenset(
    "which what when where does should would could have that this with from about your".split()
)


@checked
def global_quality(question: str, answer: str) -> float:
    """A blind "is this a good tutor answer?" judge: the share of three checks the answer passes.

    On topic (shares a content word with the question), well formed (a few words, closed sentences
    or quotes), confident (no hedge such as "I don't know"). Like the blind judges of the Towards AI
    tutor article it never sees what the student said earlier, so it cannot notice a forgotten fact.

    >>> global_quality("Which topic is my weak spot?", 'From what I can see: "Plan one topic at a time."')
    1.0
    """
    words = {w for w in re.findall(r"[a-z]{4,}", question.lower()) if w not in _QUESTION_WORDS}
    on_topic = any(w[:5] in answer.lower() for w in words)  # "builds" counts "build"
    well_formed = 3 <= len(answer.split()) <= 80 and answer.rstrip()[-1:] in (".", '"', "!", ")")
    confident = not _HEDGES.search(answer)
    return (on_topic + well_formed + confident) / 3
