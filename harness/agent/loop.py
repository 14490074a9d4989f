"""The agent loop: call the model, run the tools it asks for, manage the context, record every turn.

Each turn: (masking) -> generate_content -> run each function call in the workspace -> truncate
the outputs the model will see -> append the call and its responses -> if the prompt passed
ratio x budget, compact before the next call -> checkpoint. The loop ends when the model answers
in text, at `max_turns`, or at the session token cap.

>>> report = run_agent(AgentConfig(max_turns=2))   # doctest: +SKIP
>>> report.status                                    # doctest: +SKIP
'stopped: max turns 2 reached'
"""

import os
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from google.genai import types

from harness.agent.checkpoint import (
    append_turn,
    damaged_line,
    open_checkpoint,
    recover,
    require_on_damage,
)
from harness.agent.config import AgentConfig
from harness.agent.report import RunReport, TurnRecord
from harness.agent.reused_runs import ReusingWorkspace
from harness.compaction import compact, harness_state, summarizer_for
from harness.context import as_content
from harness.masking import mask_observations
from harness.plumbing import sessions_in_process
from harness.plumbing.arguments import (
    checked,
    optional,
    require_client,
    require_list_of_text,
    require_non_empty_text,
    require_path,
)
from harness.plumbing.jail import remove_tree
from harness.scenarios import CACHES, copy_task, restore_task, task_named
from harness.tools import TOOL, Workspace, recorded_verdict
from harness.truncation import truncate_output

SYSTEM_PROMPT = (
    "You are a careful coding agent working in a small Python project through four tools. "
    "Read before you edit, copy the exact text you replace, run the tests with `pytest` after each "
    "fix, and when they pass, report what you changed in two sentences."
)


def _run_calls(
    calls, workspace: Workspace, config: AgentConfig, record: TurnRecord, truncate
) -> types.Content:
    """Run each call; the responses the model will see (cut by `truncate`) as one user content."""
    parts = []
    for call in calls:
        output = workspace.call(call.name, dict(call.args or {}))
        if call.name == "edit_file" and not output.startswith("ERROR:"):
            record.edited.append((call.args or {}).get("path", ""))
        # read from the full output: truncation cannot hide it from us
        if call.name == "run_command":
            record.verdict = (
                recorded_verdict((call.args or {}).get("command"), output) or record.verdict
            )
        shown = (
            truncate(output, config.tool_output_max_chars, config.effective_head_ratio)
            if config.truncate
            else output
        )
        parts.append(types.Part.from_function_response(name=call.name, response={"output": shown}))
    first_line = output.splitlines()[0] if output else ""
    record.result = record.verdict or first_line[:60]
    return types.Content(role="user", parts=parts)


def _with_documents(history: list, documents) -> list:
    """The history with the retrieved documents (most relevant first) as extra parts of the task
    message: the harness holds them and attaches them to every request, so compaction never folds
    them."""
    if not documents:
        return history
    head = types.Content(
        role="user", parts=[*history[0].parts, *(types.Part.from_text(text=d) for d in documents)]
    )
    return [head, *history[1:]]


def _apply_policy(policy, history, documents, act) -> tuple:
    """Ask `policy` what to do to the next request and do it, until it answers "none" (lesson 09).
    `act[action](history)` does the masking and the compaction; returns (history, documents,
    actions).
    """
    done = []
    while True:
        action = policy(SYSTEM_PROMPT, [TOOL], _with_documents(history, documents), tuple(done))
        if action == "none" or action in done:
            return history, documents, done
        if action == "drop_document":
            documents = documents[:-1]  # sorted most relevant first: the last is the least relevant
        elif action in act:
            history = act[action](history)
        else:
            raise ValueError(
                f"the policy answered {action!r}: it must answer 'mask', 'compact', 'drop_document'"
                " or 'none'."
            )
        done.append(action)


def _task_copy(workdir, task: str, reuse: bool) -> Path:
    """A fresh copy of the task in `workdir`. A resumed run may pass the folder of the run it
    resumes: the task's files are then put back as they were (the workspace is rebuilt from the task
    and the checkpoint, never trusted from disk) and every other file there is kept, with a warning
    naming it.
    """
    workdir = Path(workdir)
    task_names = {p.name for p in task_named(task).folder.iterdir()} - CACHES
    if not (reuse and workdir.is_dir() and task_names <= {p.name for p in workdir.iterdir()}):
        return copy_task(workdir, task)
    kept = restore_task(workdir, task)
    if kept:
        shown = ", ".join(map(str, kept[:10])) + (
            f" and {len(kept) - 10} more" if len(kept) > 10 else ""
        )
        warnings.warn(
            f"{workdir}: resuming keeps {len(kept)} entries that are not the task's: {shown}. "
            "The agent's tools can see them; move them elsewhere if they should stay private.",
            stacklevel=4,
        )
    return workdir


def _replay(workspace: Workspace, edits: list, checkpoint):
    """Apply a resumed run's edits; the damage report of the first that fails, else None."""
    for line, edit in edits:
        output = workspace.call("edit_file", edit)
        # the workspace would differ from the history the model resumes with
        if output.startswith("ERROR:"):
            return damaged_line(
                checkpoint, line, f"its edit of {edit.get('path')!r} fails on replay ({output})"
            )
    return None


def _prepare(workdir, checkpoint, task, config: AgentConfig, on_damage):
    """Workspace, history and report for a new run, or for a resumed one (edits replayed)."""
    resuming = bool(checkpoint) and Path(checkpoint).exists()
    while True:  # each recovery shortens the checkpoint, so this ends
        resumed = open_checkpoint(checkpoint, task, on_damage) if checkpoint else None
        workspace, report = (
            ReusingWorkspace(_task_copy(workdir, config.task, reuse=resuming)),
            RunReport(),
        )
        if resumed is None:
            return workspace, [as_content("user", task)], report
        damage = _replay(workspace, resumed.edits, checkpoint)
        if damage is None:
            report.turns = resumed.records
            return workspace, resumed.history, report
        recover(damage, on_damage)


@checked(
    client=optional(require_client),
    workdir=optional(require_path),
    checkpoint=optional(require_path),
    task=optional(require_non_empty_text),
    on_damage=require_on_damage,
    documents=require_list_of_text,
)
def run_agent(
    config: AgentConfig | None = None,
    *,
    client=None,
    workdir: str | os.PathLike | None = None,
    checkpoint: str | os.PathLike | None = None,
    on_turn: Callable | None = None,
    task: str | None = None,
    on_damage: str = "stop",
    compact: Callable = compact,
    truncate: Callable = truncate_output,
    mask: Callable = mask_observations,
    state: Callable = harness_state,
    documents=(),
    policy: Callable | None = None,
) -> RunReport:
    """Run the agent on `config.task` (the invoicing task by default) and return its report.

    `task`: the first user message, if not the task's own prompt. `compact`, `truncate`, `mask`,
    `state`: the functions the loop manages the context with, the harness's own by default; a lesson
    passes the student's (exercises 5.2, 4.1, 4.3, 6.1), with the signatures of
    `harness.compaction.compact`, `truncate_output`, `mask_observations`, `harness_state`.
    `workdir`: an empty folder for the task copy, kept after the run so you can look at the edits
    (default: a temporary folder, removed at the end). `checkpoint`: a .jsonl path; if it already
    holds turns, the run resumes after the last one (into a fresh copy of the task, which may be the
    killed run's own `workdir`). `on_damage`: what to do with a damaged checkpoint: "stop" (raise,
    naming the line), "resume" (from the last good turn) or "restart"; the last two keep the old
    file as a backup first. `on_turn(record)`: called after each turn is checkpointed (a progress
    bar, a delay in tests). `documents`: retrieved documents (texts written by
    `formats.document_text`, most relevant first), attached to the task message of every request.
    `policy(system_instruction, tools, contents, done)`: if given, it replaces the ratio trigger
    (lesson 09): before each call the loop asks it for an action ("mask", "compact", "drop_document"
    or "none"), does it, and asks again with the actions done so far, until "none". See
    `harness.triggers`.
    """
    from harness import connect

    # a checkpoint replays the history, not the policy's rewrites of it
    if policy is not None and checkpoint:
        raise ValueError("run_agent cannot checkpoint a run with a policy; pass one or the other.")
    documents = list(documents)
    config = config or AgentConfig()
    client = client or connect()
    if workdir is None:  # a throwaway copy of the task, removed when the run ends
        folder = tempfile.mkdtemp(prefix="workbook-task-")
        try:
            return run_agent.unchecked(
                config,
                client=client,
                workdir=folder,
                checkpoint=checkpoint,
                on_turn=on_turn,
                task=task,
                on_damage=on_damage,
                compact=compact,
                truncate=truncate,
                mask=mask,
                state=state,
                documents=documents,
                policy=policy,
            )
        finally:
            remove_tree(folder)  # whatever is left there, at any depth
    workspace, history, report = _prepare(
        workdir, checkpoint, task or task_named(config.task).prompt, config, on_damage
    )
    # resumed after the final answer: nothing left to do
    if report.turns and not report.turns[-1].tool:
        warnings.warn(
            f"{checkpoint} holds a finished run (turn {report.turns[-1].turn} answered); nothing"
            " was run. Use a new checkpoint path to run the task again.",
            stacklevel=2,
        )
        report.status, report.history = "finished", history
        return report
    summarize, store = summarizer_for(client, config.model, config.summary_max_tokens), {}
    request = types.GenerateContentConfig(system_instruction=SYSTEM_PROMPT, tools=[TOOL])
    report.status = f"stopped: max turns {config.max_turns} reached"
    folded = []  # messages folded by the policy's compaction before the current call (lesson 09)

    def compact_now(old):
        block = state(set(report.edited), report.last_verdict) if config.harness_state else ""
        new, n = compact(old, config.keep_recent_turns, summarize, block)
        folded.append(n)
        return new

    act = {"mask": lambda old: mask(old, store, config.mask_keep_last), "compact": compact_now}
    for turn in range(len(report.turns) + 1, config.max_turns + 1):
        if config.over_cap(report.input_tokens + report.output_tokens):
            report.status = f"stopped: session token cap {config.session_token_cap:,} reached"
            break
        workspace.new_turn()
        started = time.perf_counter()
        actions = []
        folded.clear()
        if policy is not None:
            history, documents, actions = _apply_policy(policy, history, documents, act)
        view = mask(history, store, config.mask_keep_last) if config.masking else history
        # client.models.generate_content, the same bytes to the glass box without the SDK's
        # conversions when that is the same request (harness.plumbing.sessions_in_process)
        response = sessions_in_process.generate_content(
            client, model=config.model, contents=_with_documents(view, documents), config=request
        )
        record = TurnRecord(turn, response.usage_metadata)
        if actions:  # done to this request before it was sent
            record.trigger = "before this call: " + ", ".join(actions)
            record.compacted = sum(folded)
            if record.compacted:
                record.summary_usage, record.summary_finish = (
                    summarize.usages[-1],
                    summarize.finish_reasons[-1],
                )
        content = response.candidates[0].content if response.candidates else None
        if content is None or not content.parts:
            report.status = "stopped: the model returned an empty response"
            report.turns.append(record)
            break
        new = [content]
        calls = [part.function_call for part in content.parts if part.function_call]
        if calls:
            record.tool, record.args = calls[0].name, dict(calls[0].args or {})
            new.append(_run_calls(calls, workspace, config, record, truncate))
        else:
            record.result = (response.text or "").strip()
        history = history + new
        record.seconds = time.perf_counter() - started
        compacted = None
        if (
            policy is None
            and calls
            and config.compaction
            and record.prompt_tokens > config.compact_threshold
        ):
            block = (
                state(
                    set(report.edited) | set(record.edited), record.verdict or report.last_verdict
                )
                if config.harness_state
                else ""
            )
            history, record.compacted = compact(history, config.keep_recent_turns, summarize, block)
            if record.compacted:
                compacted, record.summary_usage = history, summarize.usages[-1]
                record.summary_finish = summarize.finish_reasons[-1]
                record.trigger = f"{record.prompt_tokens} > {config.compact_threshold:g}"
        report.turns.append(record)
        if checkpoint:
            append_turn(checkpoint, new, record, compacted)
        if on_turn:
            on_turn(record)
        if not calls:
            report.status = "finished"
            break
    report.history, report.store = history, store
    return report
