"""Lesson 11: the tutor session kept by the server (the Interactions API), and a harness that
restarts it from its own compacted context.

With `previous_interaction_id` the server holds the history and replays all of it into every turn:
the harness sends only the new message, but each turn still bills the whole stored context (cached
implicitly, so the replayed prefix is cheap). Nothing stored can be truncated, masked or compacted.
To shrink it anyway the harness keeps its own copy of the conversation, compacts that copy
(harness.compaction.compact) and starts a *new* interaction from it, with no previous id: a fresh
prefix, so that turn's cache is lost. `should_restart` (exercise 11.1) decides when:

    >>> from google.genai.interactions import Usage
    >>> should_restart(Usage(total_input_tokens=2_500, total_output_tokens=301), budget=4_000)
    True
    >>> # 2,800 tokens so far is not past 0.7 x 4,000
    >>> should_restart(Usage(total_input_tokens=2_500, total_output_tokens=300), budget=4_000)
    False

    >>> run = run_server_session(connect(), ServerPlan("restart at 0.7 x 4,000", budget=4_000))   # doctest: +SKIP
    >>> run.compaction_count(), recall(run)                                                        # doctest: +SKIP
    (3, 0.33)

A run is a `Recording` like lesson 07's and 08's (one bundle per call, usage as generateContent
names it), so `billing.bill`, `cache_hit_rate` and `probes.recall` read it unchanged.
"""

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from google import genai
from google.genai import types
from google.genai.interactions import Usage

from harness import MODEL
from harness.compaction import compact
from harness.models import require_model
from harness.plumbing import sessions_in_process
from harness.plumbing.arguments import (
    checked,
    require_client,
    require_fields,
    require_non_empty_text,
    require_number,
)
from harness.plumbing.client import is_offline, start_cold
from harness.plumbing.session_bundles import Bundle, Recording, usage_dict
from harness.probes import CONVERSATION_SUMMARY, MAX_QUESTIONS, script_turns
from harness.scenarios.course import SEARCH_COURSE, TUTOR_SYSTEM, passages, search_course
from harness.scenarios.course.script import OPENING, QUESTIONS

RESTART_RATIO = (
    0.7  # restart once the resent context passes 70% of the budget, as lesson 05 compacts
)
TUTOR_TOOL = {
    "type": "function",
    "name": SEARCH_COURSE.name,
    "description": SEARCH_COURSE.description,
    "parameters": SEARCH_COURSE.parameters.json_schema.model_dump(mode="json", exclude_none=True),
}


def _ratio(name: str, ratio) -> None:
    if require_number(name, ratio, 0.0, 1.0) == 0.0:
        raise ValueError(f"{name} must be above 0 (a share of the budget, such as 0.7), got 0.")


@checked(budget=(1, None), ratio=_ratio)
def should_restart(usage: Usage, budget: int, ratio: float = RESTART_RATIO) -> bool:
    """True when the context the server will replay into the next turn passes `ratio` x `budget`.

    That context is this turn's input (cached tokens included: cheap, but they fill the window just
    the same) plus its output (the answer is stored and replayed too). Thinking tokens are not
    replayed. A field the API leaves out (None) counts as 0. Strictly past: at the threshold, no.
    """
    resent = (usage.total_input_tokens or 0) + (usage.total_output_tokens or 0)
    return resent > ratio * budget


@checked
def usage_metadata(usage: Usage | None) -> types.GenerateContentResponseUsageMetadata:
    """An interaction's usage under generateContent's names, so billing.bill reads it."""
    usage = usage or Usage()
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=usage.total_input_tokens,
        cached_content_token_count=usage.total_cached_tokens,
        candidates_token_count=usage.total_output_tokens,
        thoughts_token_count=usage.total_thought_tokens,
        total_token_count=usage.total_tokens,
    )


@checked
def as_steps(history: list[types.Content]) -> list[dict]:
    """A history as an interaction's input steps: what a new interaction starts from.

    User text and function responses go in user_input steps, model text in model_output steps, each
    function call in a function_call step (its id kept, so its result still matches it).
    """
    steps = []
    for content in history:
        if content.role == "model":
            for part in content.parts or []:
                if part.function_call:
                    call = part.function_call
                    steps.append(
                        {
                            "type": "function_call",
                            "id": call.id,
                            "name": call.name,
                            "arguments": dict(call.args or {}),
                        }
                    )
                elif part.text and not part.thought:
                    steps.append(
                        {"type": "model_output", "content": [{"type": "text", "text": part.text}]}
                    )
            continue
        items = [
            (
                {
                    "type": "function_result",
                    "call_id": p.function_response.id,
                    "name": p.function_response.name,
                    "result": p.function_response.response,
                }
                if p.function_response
                else {"type": "text", "text": p.text}
            )
            for p in content.parts or []
            if p.function_response or p.text
        ]
        steps.append({"type": "user_input", "content": items})
    return steps


@dataclass(frozen=True)
class ServerPlan:
    """How a server-held session is run. Defaults: never restart, keep everything on the server.

    budget: tokens of context the harness allows before restarting (None: never restart);
    ratio: the share of the budget that triggers a restart (0.7, as lesson 05's compaction);
    keep_recent_turns: turns the compacted context keeps word for word (1: a restart should pay);
    summary_words: the summariser's word budget (60, as lesson 08's): facts compete for it.
    """

    name: str = "server-held, no restart"
    budget: int | None = None
    ratio: float = RESTART_RATIO
    keep_recent_turns: int = 1
    summary_words: int = 60
    policy_name: str = field(default="should_restart", compare=False)

    def __post_init__(self):
        require_fields(
            self,
            name=require_non_empty_text,
            budget=(1, None),
            ratio=_ratio,
            keep_recent_turns=(1, 10**6),
            summary_words=(1, 10**6),
        )


def _user(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part.from_text(text=text)])


class _ServerSession:
    """One running server-held session: the last interaction's id, and the harness's own copy."""

    def __init__(self, client, plan: ServerPlan, policy, model: str):
        self.client, self.plan, self.policy, self.model = client, plan, policy, model
        # the harness's copy: what it would resend, and what it compacts
        self.history = [_user(OPENING)]
        self.previous, self.last_usage, self.summary, self.events = None, None, "", []
        self.record = Recording(
            plan.name,
            config={
                "budget": plan.budget,
                "ratio": plan.ratio,
                "model": model,
                "server_held": True,
                "policy": plan.policy_name,
            },
        )

    def create(self, turn: int, input_, probe=None):
        interaction = sessions_in_process.create_interaction(
            self.client,
            model=self.model,
            input=input_,
            system_instruction=TUTOR_SYSTEM,
            tools=[TUTOR_TOOL],
            **({"previous_interaction_id": self.previous} if self.previous else {}),
        )
        calls = [s for s in interaction.steps if s.type == "function_call"]
        answer = (
            ""
            if calls
            else "".join(
                c.text
                for s in interaction.steps
                if s.type == "model_output"
                for c in s.content or []
                if c.type == "text"
            )
        )
        self.record.add(
            Bundle(
                turn,
                usage_dict(usage_metadata(interaction.usage)),
                tools=[c.name for c in calls],
                compactions=self.events,
                answer=answer,
                probe=probe._asdict() if probe and not calls else None,
            )
        )
        self.events, self.previous, self.last_usage = [], interaction.id, interaction.usage
        parts = [
            types.Part(
                function_call=types.FunctionCall(id=c.id, name=c.name, args=dict(c.arguments or {}))
            )
            for c in calls
        ] or [types.Part.from_text(text=answer)]
        self.history.append(types.Content(role="model", parts=parts))
        return calls

    def summarize(self, turn: int, transcript: str) -> str:
        """A summary made by a stateless interaction (store=false: nothing to keep of it)."""
        reply = sessions_in_process.create_interaction(
            self.client,
            model=self.model,
            input=self.summary + "\n" + transcript,
            store=False,
            system_instruction=CONVERSATION_SUMMARY.format(words=self.plan.summary_words),
        )
        self.record.add(Bundle(turn, usage_dict(usage_metadata(reply.usage)), kind="summary"))
        self.summary = "".join(
            c.text for s in reply.steps if s.type == "model_output" for c in s.content or []
        )
        return self.summary

    def restart_due(self, turn: int) -> bool:
        plan = self.plan
        if plan.budget is None or self.last_usage is None:
            return False
        if not self.policy(self.last_usage, plan.budget, plan.ratio):
            return False
        history, folded = compact(
            self.history, plan.keep_recent_turns, lambda text: self.summarize(turn, text)
        )
        if not folded:
            return False
        resent = (self.last_usage.total_input_tokens or 0) + (
            self.last_usage.total_output_tokens or 0
        )
        # a new interaction: no previous id, a fresh prefix
        self.history, self.previous = (
            history,
            None,
        )
        self.events.append(
            {
                "turn": turn,
                "messages": folded,
                "trigger": f"{resent} > {plan.ratio * plan.budget:g}",
            }
        )
        return True

    def turn(self, turn: int, text: str, probe) -> None:
        restarted = self.restart_due(turn)
        # turn 0: the opening goes with the first message
        first = self.previous is None and not restarted
        self.history.append(_user(text))
        if restarted or first:
            input_ = as_steps(self.history)
        else:
            input_ = text
        for _ in range(3):  # a question, a search, an answer; a real model may take a detour
            calls = self.create(turn, input_, probe)
            if not calls:
                return
            results = [
                {
                    "type": "function_result",
                    "call_id": c.id,
                    "name": c.name,
                    "result": {"output": search_course(str((c.arguments or {}).get("query", "")))},
                }
                for c in calls
            ]
            self.history.append(
                types.Content(
                    role="user",
                    parts=[
                        types.Part(
                            function_response=types.FunctionResponse(
                                id=r["call_id"], name=r["name"], response=r["result"]
                            )
                        )
                        for r in results
                    ],
                )
            )
            input_ = results


@checked
def uploaded_tokens(run: Recording) -> int:
    """Tokens the harness itself sent over a run (the bill counts what the model read).

    Client-held, every call sends its whole prompt. Server-held, a call sends only what the stored
    history lacks: its prompt less the previous call's prompt and output; the first call, a restart
    and a stateless summary send everything.
    """
    total, previous = 0, None
    for bundle in run.bundles:
        chained = (
            run.config.get("server_held")
            and bundle.kind == "turn"
            and previous
            and not bundle.compactions
        )
        replayed = (
            previous.prompt_tokens + int(previous.usage.get("candidatesTokenCount") or 0)
            if chained
            else 0
        )
        total += bundle.prompt_tokens - replayed
        previous = bundle if bundle.kind == "turn" else previous
    return total


_GLASS_BOX_RUNS: dict[tuple, Recording] = {}  # as probes.run_session: one glass-box run per setting


@checked(client=require_client, questions=(0, MAX_QUESTIONS), model=require_model)
def run_server_session(
    client,
    plan: ServerPlan = ServerPlan(),
    questions: int = len(QUESTIONS),
    policy: Callable = should_restart,
    model: str = MODEL,
) -> Recording:
    """Run the tutor session with the server holding its history; restart from a compacted context
    whenever `policy(last_usage, plan.budget, plan.ratio)` says so. Returns the recording.

    Offline each run starts from a cold cache, as probes.run_session does, so plans compare on
    equal terms; a glass-box run is kept per (plan, length, policy, model) and handed out as a copy.
    """
    key = (
        (plan, questions, policy, model, passages())
        if is_offline() and isinstance(client, genai.Client)
        else None
    )
    if key in _GLASS_BOX_RUNS:
        return copy.deepcopy(_GLASS_BOX_RUNS[key])
    start_cold()
    session = _ServerSession(client, plan, policy, model)
    for turn, (text, probe) in enumerate(script_turns(questions)):
        session.turn(turn, text, probe)
    if key:
        _GLASS_BOX_RUNS[key] = copy.deepcopy(session.record)
    return session.record
