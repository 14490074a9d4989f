"""Bad input to a public function gets a clear ValueError or TypeError naming the argument, at once.

The sweep is generated: every public function and class of the modules a lesson or a student
calls (MODULES) is either in CALLS, with good keyword arguments, or in NOT_SWEPT with the reason.
Each call is then made with one argument at a time replaced by each value of BAD, and judged by
the parameter's annotation, which is its documentation:

- a value the annotation does not admit (None for `str`, a string for `int`, nan for `float`, a
  list of the wrong things), or a negative number, must raise TypeError or ValueError whose
  message names the argument, unless the CALLS entry lists it as documented (ACCEPTS);
- any other value may also return, and what it returns must fit the return annotation (a float
  that is nan does not);
- nothing else may escape (no AttributeError, KeyError, ZeroDivisionError), and every call ends
  within 2 seconds of CPU.
"""

import importlib
import inspect
import math
import pkgutil
import signal
import types as pytypes
import typing
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import numpy as np
import pytest
from google.genai import types

import harness
import harness.workbook
from harness import (
    billing,
    budgets,
    capstone,
    checks,
    compaction,
    context,
    coordinator,
    corpus_shell,
    formats,
    history,
    library,
    masking,
    memory,
    models,
    offload,
    ordering,
    partitioning,
    probes,
    retrieval,
    scenarios,
    server_state,
    tokens,
    transcript,
    triggers,
    truncation,
    usage,
)
from harness import quizzes as quiz
from harness.agent import AgentConfig, TurnRecord, checkpoint, loop, report
from harness.agent import config as agent_config
from harness.plumbing import client, keys, recording, redaction, session_bundles, steady_output
from harness.plumbing.session_bundles import Bundle, Recording
from harness.scenarios import course, repairs, wiki
from harness.scenarios import library as library_scenario
from harness.tools import Workspace
from harness.workbook import sources

BAD = {
    "None": None,
    "empty": "",
    "str": "abc",
    "bytes": b"x",
    "True": True,
    "0": 0,
    "-1": -1,
    "1.5": 1.5,
    "huge": 10**18,
    "nan": float("nan"),
    "inf": float("inf"),
    "object": object(),
    "dict": {"a": 1},
    "empty dict": {},
    "empty list": [],
    "list": ["x"],
    "list of None": [None],
    "list of objects": [object()],
    "list of -1": [-1],
    "nested": [[]],
    "tuple of None": (None,),
}
USAGE = types.GenerateContentResponseUsageMetadata(
    prompt_token_count=100, cached_content_token_count=40, candidates_token_count=10
)
HISTORY = [context.as_content("user", "Fix the tests."), context.as_content("model", "Done.")]
PRICE = billing.price_for("gemini-2.5-flash")
CONTEXT = dict(
    system="Be brief.",
    facts=["Ana likes tea."],
    summary="",
    turns=[("user", "Hi"), ("model", "Hello")],
    question="Which team?",
    budget=100,
)


class StandIn:
    """A client that answers every call with one text reply: enough to run a session's code
    paths."""

    class models:  # noqa: N801 (the SDK's attribute name)
        @staticmethod
        def generate_content(**_):
            return types.GenerateContentResponse(
                candidates=[types.Candidate(content=context.as_content("model", "Noted."))],
                usage_metadata=USAGE,
            )


def a_run() -> Recording:
    run = Recording("r")
    run.add(
        Bundle(
            1,
            {"promptTokenCount": 10},
            answer="Godot.",
            probe={"question": "Engine?", "key_points": ["godot"]},
        )
    )
    return run


def a_checkpoint(folder: Path) -> Path:
    path = folder / "run.jsonl"
    checkpoint.start_checkpoint(path, "Fix the tests.")
    return path


def glass_box(folder: Path):
    """A client of the glass box, made when a test needs it (not at import)."""
    return harness.connect()


def empty_folder(folder: Path) -> Path:
    (folder / "empty").mkdir()
    return folder / "empty"


def a_task_copy(folder: Path) -> Path:
    return scenarios.copy_task(folder / "copy")


def a_backup_target(folder: Path) -> Path:
    (folder / "notes.ipynb").write_text("{}")
    return folder / "notes.ipynb"


VECTORS = np.eye(2, 4, dtype=np.float32)  # two unit rows, the pages' vectors of AN_INDEX
AN_INDEX = retrieval.SearchIndex(["a", "b"], ["Amounts round half up.", "Bulk discount."], VECTORS)


def a_knowledge_base(folder: Path) -> Path:
    (folder / "kb").mkdir()
    (folder / "kb" / "INDEX.md").write_text("- notes/a.md: Godot\n")
    return folder / "kb"


def a_library_run() -> Recording:
    run = Recording("moved out")
    run.add(Bundle(0, {"promptTokenCount": 1200}, answer="Noted."))
    return run


def a_damage(folder: Path) -> checkpoint.CheckpointDamaged:
    return checkpoint.CheckpointDamaged(a_checkpoint(folder), 2, "a torn line", 1, 0)


def a_policy(folder: Path) -> triggers.TriggerPolicy:
    return triggers.TriggerPolicy(budgets.SEED_ALLOCATIONS, window=8000)


FACTORIES = (
    a_checkpoint,
    a_knowledge_base,
    glass_box,
    empty_folder,
    a_task_copy,
    a_backup_target,
    a_policy,
    a_damage,
)
USAGE_BY_CATEGORY = {
    "system": 100,
    "tools": 500,
    "documents": 900,
    "history": 1200,
    "tool_outputs": 3600,
}
# a sub-agent that stops after one call: cheap to run
ONE_TURN = AgentConfig(task="repairs", max_turns=1)
MEASURED = {"largest request": 1500, "recall": 1.0, "whole answers": 0.5, "cost": 0.01}
ROWS = [
    {"subtasks": 1, "single": 100, "partitioned": 120, "refused": False},
    {"subtasks": 2, "single": 300, "partitioned": 250, "refused": False},
]


# (function, good keyword arguments[, {argument: labels of BAD its documentation admits}])
CALLS = [
    (context.render_system, dict(system="Be brief.", facts=["Ana likes tea."], summary="")),
    (context.render_docs, dict(docs=["A doc."])),
    (context.as_content, dict(role="user", text="Hi")),
    (context.fit_budget, CONTEXT),
    (context.build_context, CONTEXT),
    (context.build_context_naive, CONTEXT),
    (truncation.truncate_output, dict(text="abc" * 10, max_chars=10, head_ratio=0.4)),
    (truncation.extract_verdict, dict(output="1 passed in 0.1s")),
    (compaction.safe_split_points, dict(history=HISTORY)),
    (compaction.task_text, dict(history=HISTORY)),
    (
        compaction.compact,
        dict(history=HISTORY, keep_recent_turns=1, summarize=lambda text: "Summary.", state=""),
    ),
    (compaction.keep_signatures, dict(old_turn=HISTORY[1:], rebuilt_turn=HISTORY[1:])),
    (compaction.harness_state, dict(edited_files=["a.py"], last_verdict="1 passed")),
    (
        compaction.summarizer_for,
        dict(client=StandIn(), model="gemini-2.5-flash", max_output_tokens=100),
    ),
    (masking.reference_of, dict(output="text")),
    (masking.is_error, dict(output="ERROR: x")),
    (masking.mask_observations, dict(history=HISTORY, store={}, keep_last=3)),
    (billing.priced_model, dict(model="gemini-2.5-flash")),
    (billing.price_for, dict(model="gemini-2.5-flash")),
    (billing.rate, dict(price=PRICE, name="input")),
    (billing.usages_of, dict(usage=USAGE)),
    (billing.split_tokens, dict(usage=USAGE)),
    (billing.bill, dict(usage=USAGE, price=PRICE)),
    (billing.break_even_cached_price, dict(trace_a=[USAGE], trace_b=[USAGE, USAGE], price=PRICE)),
    (billing.storage_cost, dict(tokens=1000, ttl_seconds=60, price=PRICE)),
    (billing.cache_hit_rate, dict(usage=USAGE)),
    (billing.perfect_cache_floor, dict(usage=USAGE, price=PRICE)),
    (billing.rebill, dict(usage=USAGE, prices={"flash": PRICE})),
    (usage.token_count, dict(usage=USAGE, field="prompt_token_count")),
    (usage.output_tokens, dict(usage=USAGE)),
    (usage.describe_usage, dict(usage=USAGE)),
    (models.Price, dict(input=0.3, cached_input=0.03, output=2.5, storage_per_hour=1.0, note="")),
    (models.model_row, dict(model="gemini-2.5-flash")),
    (models.price_of, dict(model="gemini-2.5-flash")),
    (probes.Strategy, dict(name="mine", context_budget=4000, summary_words=60)),
    (probes.script_turns, dict(questions=6)),
    (
        probes.run_session,
        dict(client=StandIn(), strategy=probes.Strategy(), questions=0, model="gemini-2.5-flash"),
    ),
    (
        probes.run_battery,
        dict(
            client=StandIn(),
            strategies={"full": probes.Strategy()},
            lengths=[0],
            model="gemini-2.5-flash",
        ),
    ),
    (probes.with_knobs, dict(strategy=probes.Strategy(), context_budget=3000)),
    (probes.grade_probe, dict(answer="Godot is late.", key_points=["godot"])),
    (probes.probe_results, dict(run=a_run())),
    (probes.recall, dict(run=a_run())),
    (probes.compaction_fired_before_probe, dict(run=a_run())),
    (probes.filter_triggered, dict(runs=[a_run()])),
    (probes.quotes_whole_sentence, dict(answer='From what I can see: "Plan one topic at a time."')),
    (probes.course_answers, dict(run=a_run())),
    (probes.whole_answer_share, dict(run=a_run())),
    (probes.global_quality, dict(question="Which team?", answer="Blue.")),
    (tokens.approx_tokens, dict(text="some text")),
    (
        transcript.render_part,
        dict(role="user", part=types.Part.from_text(text="Hi"), max_output_chars=600),
    ),
    (transcript.transcript_text_of, dict(history=HISTORY, max_output_chars=600)),
    (ordering.stable_prefix_tokens, dict(request_a=["a", "b"], request_b=["a", "c"])),
    (ordering.request_lines, dict(system_instruction="Be brief.", contents=HISTORY)),
    (history.naive_prompt_sizes, dict(system_tokens=10, exchanges=[(5, 7)])),
    (keys.dotenv_path, dict(start=Path("."))),
    (keys.read_dotenv, dict(path=Path(".env"))),
    (session_bundles.usage_dict, dict(usage=USAGE)),
    (
        session_bundles.Bundle,
        dict(turn=1, usage={"promptTokenCount": 10}, kind="turn", seconds=0.1, answer="Hi."),
    ),
    (session_bundles.Recording, dict(name="r", config={}, bundles=[])),
    (session_bundles.save, dict(recording=a_run(), path="saved/run.jsonl")),
    (session_bundles.save_all, dict(recordings=[a_run()], folder="saved")),
    (quiz.Question, dict(prompt="Why?", right=("a", "yes"), wrong=[("b", "no")])),
    (quiz.feedback, dict(option=("a", "yes", True))),
    (quiz.questions, dict(lesson="00")),
    (quiz.quiz, dict(lesson="00")),
    (checks.run_check, dict(exercise_id="4.1", fn=truncation.truncate_output)),
    (checks.check, dict(exercise_id="4.1", fn=truncation.truncate_output)),
    (checks.mine, dict(exercise_id="4.1", fn=truncation.truncate_output)),
    (client.connect, dict(retry_attempts=1)),
    (client.plain, dict(contents=HISTORY)),
    (sources.cited_in, dict(text="As the Towards AI tutor article reports.")),
    (
        AgentConfig,
        dict(
            context_budget=5000,
            compact_ratio=0.7,
            keep_recent_turns=3,
            max_turns=5,
            head_ratio=0.4,
            tool_output_max_chars=4000,
            session_token_cap=1000,
            mask_keep_last=3,
        ),
    ),
    (agent_config.SessionConfig, dict(context_budget=5000, compact_ratio=0.7, keep_recent_turns=3)),
    (
        TurnRecord,
        dict(
            turn=1,
            usage=USAGE,
            seconds=0.1,
            tool="read_file",
            args={"path": "a"},
            result="x",
            edited=["a.py"],
            verdict=None,
            compacted=0,
            trigger="",
        ),
    ),
    (
        report.RunReport,
        dict(
            turns=[TurnRecord(1, USAGE)], status="finished", price=PRICE, history=HISTORY, store={}
        ),
    ),
    (
        loop.run_agent,
        dict(
            config=AgentConfig(max_turns=1),
            client=StandIn(),
            workdir=None,
            checkpoint=None,
            on_turn=None,
            task="Fix the tests.",
            on_damage="stop",
        ),
    ),
    (checkpoint.start_checkpoint, dict(path="fresh.jsonl", task="Fix the tests.")),
    (checkpoint.load_checkpoint, dict(path=a_checkpoint)),
    (checkpoint.open_checkpoint, dict(path=a_checkpoint, task="Fix the tests.", on_damage="stop")),
    (
        checkpoint.append_turn,
        dict(path=a_checkpoint, contents=HISTORY[1:], record=TurnRecord(1, USAGE), history=None),
    ),
    (checkpoint.recover, dict(damage=a_damage, on_damage="resume")),
    (budgets.part_tokens, dict(part=types.Part.from_text(text="Hi"))),
    (
        budgets.tool_tokens,
        dict(tools=[types.Tool(function_declarations=[types.FunctionDeclaration(name="f")])]),
    ),
    (budgets.category_of, dict(content=HISTORY[0], part=HISTORY[0].parts[0])),
    (budgets.split_by_category, dict(system_instruction="Be brief.", tools=[], contents=HISTORY)),
    (budgets.check_allocations, dict(allocations={"history": 0.3})),
    (
        triggers.next_action,
        dict(
            usage=USAGE_BY_CATEGORY,
            allocations={"history": 0.3},
            window=8000,
            threshold=0.7,
            done=("mask",),
        ),
    ),
    (
        triggers.single_trigger,
        dict(usage=USAGE_BY_CATEGORY, allocations={}, window=8000, threshold=0.7, done=()),
    ),
    (
        triggers.TriggerPolicy,
        dict(
            allocations={"history": 0.3},
            window=8000,
            threshold=0.7,
            split=budgets.split_by_category,
            decide=triggers.next_action,
        ),
    ),
    (triggers.reductions, dict(policy=a_policy, action="mask")),
    (
        partitioning.SubResult,
        dict(packages=("stock",), finished=True, edits={"a.py": "x"}, tokens=10, verdict=""),
    ),
    (partitioning.split_task, dict(subtasks=[("stock", 300)], window=1000, share=0.6)),
    (
        partitioning.merge_results,
        dict(results=[partitioning.SubResult(("stock",), True)], partitions=[["stock"]]),
    ),
    (
        coordinator.Coordination,
        dict(
            partitions=[["stock"]],
            results=[],
            merged=None,
            refused="",
            verdict="",
            overhead_tokens=0,
        ),
    ),
    (coordinator.tokens_of, dict(report=report.RunReport())),
    (coordinator.input_and_output, dict(usage=USAGE)),
    (coordinator.passing, dict(verdict="6 passed")),
    (coordinator.estimate_tokens, dict(package="stock")),
    (coordinator.estimate_context, dict(packages=["stock"])),
    (coordinator.run_single, dict(packages=["stock"], config=ONE_TURN)),
    (coordinator.run_subagent, dict(packages=["stock"], config=ONE_TURN)),
    (
        coordinator.plan,
        dict(packages=["stock", "grades"], window=8000, share=0.6, split=partitioning.split_task),
    ),
    (
        coordinator.coordinate,
        dict(partitions=[["stock"]], merge=partitioning.merge_results, config=ONE_TURN),
    ),
    (coordinator.sweep, dict(max_subtasks=1, merge=partitioning.merge_results, config=ONE_TURN)),
    (coordinator.crossing, dict(rows=ROWS)),
    (
        server_state.should_restart,
        dict(usage=server_state.Usage(total_input_tokens=10), budget=4000, ratio=0.7),
    ),
    (server_state.usage_metadata, dict(usage=server_state.Usage(total_input_tokens=10))),
    (server_state.as_steps, dict(history=HISTORY)),
    (
        server_state.ServerPlan,
        dict(
            name="restart",
            budget=4000,
            ratio=0.7,
            keep_recent_turns=1,
            summary_words=60,
            policy_name="should_restart",
        ),
    ),
    (server_state.uploaded_tokens, dict(run=a_run())),
    (
        server_state.run_server_session,
        dict(
            client=glass_box,
            plan=server_state.ServerPlan(),
            questions=0,
            policy=server_state.should_restart,
            model="gemini-3.8-flash",
        ),
    ),
    (capstone.measure, dict(strategy=probes.Strategy("full history"))),
    (capstone.verdict, dict(got=MEASURED, full=MEASURED)),
    (capstone.opening_config, dict(my_config=capstone.reference_config)),
    (formats.is_error_output, dict(output="ERROR: x")),
    (formats.verdict_line, dict(output="1 passed")),
    (formats.truncation_marker, dict(omitted=5)),
    (formats.names_count, dict(text="14,000 tokens", count=14000)),
    (formats.heading_line, dict(heading="Changes made", items=["a.py"])),
    (formats.parse_heading, dict(line="**Changes made:** a.py")),
    (formats.headings_named, dict(text="Objective and Files read")),
    (formats.file_item, dict(path="a.py", line="x = 1")),
    (formats.parse_file_item, dict(item="a.py (`x = 1`)")),
    (formats.state_block, dict(edited_files=["a.py"], last_verdict="1 passed")),
    (formats.is_state_heading, dict(line="[Harness-held state]")),
    (formats.parse_state, dict(text="Edited files: a.py")),
    (formats.text_entry, dict(role="user", text="Hi")),
    (formats.call_entry, dict(role="model", name="read_file", args_json="{}")),
    (formats.response_entry, dict(name="read_file", output="x")),
    (formats.parse_entry, dict(line="user: Hi")),
    (formats.masked_stub, dict(reference="obs-1", key_line="# title", length=300)),
    (formats.masked_reference, dict(output="[masked obs-1: x]")),
    (formats.is_masked, dict(output="[masked obs-1: x]")),
    (formats.document_text, dict(rank=1, title="Rounding", text="Half up.")),
    (formats.is_document, dict(text="[Retrieved document 1: x]")),
    (formats.entry_line, dict(path="notes/a.md", description="Godot: my toolkit")),
    (formats.omitted_line, dict(count=3)),
    (formats.index_entries, dict(index="- notes/a.md: Godot: my toolkit")),
    (retrieval.reciprocal_rank_fusion, dict(rankings=[["a", "b"], ["b", "c"]], k=60)),
    *(
        (fn, dict(passages=[("a", "Half up.", 0.5)], budget=100, count=len, min_score=0.1))
        for fn in (retrieval.fill_budget, retrieval.check_fill_arguments)
    ),
    (retrieval.keyword_tokens, dict(texts=["Amounts round half up."])),
    (offload.build_index, dict(entries=[("notes/a.md", "Godot")], budget=1000, count=len)),
    (offload.describe, dict(text="My platform is Godot.", words=3)),
    (offload.calls_to_repay, dict(cleared=5000, rewritten=35000, price=models.Price(1, 0.1, 4))),
    (memory.distill, dict(messages=["My platform is Godot."], session=0)),
    (memory.consolidate, dict(memories=[("platform", "Unity", 0)], notes=[("os", "Linux", 1)])),
    (memory.inject, dict(memories=[("platform", "Godot", 1)], budget=200, count=len)),
    (memory.looks_like_instruction, dict(value="Godot")),
    (memory.MemoryStore, dict(path="memory.json")),
    (offload.KnowledgeBase, dict(root=empty_folder, passages=(), index_budget=None, count=len)),
    (corpus_shell.CorpusShell, dict(root=a_knowledge_base)),
    (retrieval.Knobs, dict(dense_k=15, keyword_k=30, threshold=0.1, budget=3000)),
    (library.LibraryPlan, dict(name="moved out", offload=True, keep_recent=1, index_budget=None)),
    (library.budget_plan, dict(budget=400, shell=True)),
    (library.turn_prompts, dict(run=a_library_run())),
    (
        library.memory_probe_passed,
        dict(probe=library_scenario.MEMORY_PROBES[0], answer="Unity, since session 1."),
    ),
    (library_scenario.library_tools, dict(shell=True)),
    (
        retrieval.SearchIndex,
        dict(ids=["a", "b"], texts=["Amounts round half up.", "Bulk discount."], vectors=VECTORS),
    ),
    (
        retrieval.embed,
        dict(client=glass_box, texts=["Half up."], task_type="RETRIEVAL_QUERY", dimensions=8),
    ),
    (
        retrieval.hybrid_search,
        dict(
            index=AN_INDEX,
            question="half up",
            query=VECTORS[0],
            knobs=retrieval.Knobs(),
            fuse=retrieval.reciprocal_rank_fusion,
            fill=retrieval.fill_budget,
        ),
    ),
    (
        retrieval.needle_recall,
        dict(
            index=AN_INDEX,
            needles=[wiki.Needle("code name", "a", "Which way do amounts round?", "Half up.")],
            queries=VECTORS[:1],
            knobs=retrieval.Knobs(),
            fuse=retrieval.reciprocal_rank_fusion,
            fill=retrieval.fill_budget,
        ),
    ),
    (wiki.make_wiki, dict(tokens=wiki.SIZES[0], topic_share=0.25, seed=12)),
    (
        library.run_library_session,
        dict(
            client=StandIn(),
            plan=library.LibraryPlan(),
            questions=0,
            model="gemini-2.5-flash",
            build=offload.build_index,
        ),
    ),
    (
        library.run_memory_sessions,
        dict(
            client=StandIn(),
            remember=True,
            consolidate_fn=memory.consolidate,
            budget=200,
            model="gemini-2.5-flash",
        ),
    ),
    (
        library.run_battery,
        dict(client=StandIn(), tool_set="files, no shell", model="gemini-2.5-flash"),
    ),
    (checks.reference, dict(exercise_id="4.1")),
    (
        scenarios.CodingTask,
        dict(
            name="copy", folder=scenarios.task_named("invoicing").folder, prompt="Fix it.", bugs=2
        ),
    ),
    (scenarios.add_task, dict(task=scenarios.task_named("invoicing"))),
    (scenarios.task_named, dict(name="invoicing")),
    (scenarios.copy_task, dict(dest=empty_folder, task="invoicing")),
    (scenarios.restore_task, dict(dest=a_task_copy, task="invoicing")),
    (course.search_course, dict(query="safe cut points", k=2)),
    (repairs.prompt_for, dict(packages=["stock"])),
    (repairs.readme_section, dict(package="stock")),
    (repairs.subtask, dict(packages=["stock"])),
    (redaction.encodings, dict(secret="abc")),
    (redaction.redact, dict(text="no key here", marker="[key hidden]")),
    (recording.redact, dict(text="no key here")),
    (recording.recording_args, dict(path="run.jsonl", replay=None)),
    (steady_output.steady, dict(text="/tmp/x/a.py", root="/tmp/x")),
    (harness.workbook.names_lesson, dict(wanted="3", file_name="03_budgeted_assembly.ipynb")),
    (harness.workbook.keep_backup, dict(path=a_backup_target)),
]

# What a parameter's documentation admits beyond its annotation: (function, argument) -> BAD labels.
ALL = set(BAD)
ACCEPTS = {
    # check and run_check take any answer: a wrong one is the rule it breaks, shown, never raised
    **{(fn, "fn"): ALL for fn in (checks.check, checks.run_check)},
    (loop.run_agent, "client"): {"None"},  # None: harness.connect()
    # None: "its sub-agent never reported", and the documented answer is MergeRefused naming the
    # partition
    (partitioning.merge_results, "results"): {"list of None", "tuple of None"},
    # a cosine can be below 0: a negative floor keeps every passage of a dense search
    **{(fn, "min_score"): {"-1"} for fn in (retrieval.fill_budget, retrieval.check_fill_arguments)},
    (retrieval.Knobs, "threshold"): {"-1"},
    # no file yet: the index is its header alone (check 13.1); no memory yet: the first session's
    (offload.build_index, "entries"): {"empty list"},
    **{(memory.consolidate, name): {"empty list"} for name in ("memories", "notes")},
    (memory.inject, "memories"): {"empty list"},
}

# Every module of the harness package is swept, but for the packages and modules below, each with
# why; within the rest, every public function and class is in CALLS or in NOT_SWEPT with why.
NOT_SWEPT_PACKAGES = {
    "harness.engine": (
        "the glass box: its callers are HTTP requests, checked at the server's door "
        "(tests/test_engine_fuzz.py: no 5xx on any body)"
    ),
    "harness.widgets": "the panels a lesson cell draws, from results the swept functions made",
    "harness.checks.lesson": (
        "a check, reached through run_check(exercise_id, fn), swept with any fn"
    ),
    "harness.checks.compare": "the checks' comparison engine, reached through run_check",
    "harness.checks.compaction_cases": (
        "generated cases of checks 5.2 and 6.2, reached through run_check"
    ),
    "harness.checks.masking_cases": "generated cases of check 4.3, reached through run_check",
    "harness.checks.docs": (
        "writes the exercise tables of the docs at build time; no caller passes it anything"
    ),
    "harness.plumbing.arguments": (
        "the argument checks themselves: each raises by design (tests/test_checked.py)"
    ),
    "harness.plumbing.jail": (
        "the jail every command runs in: hostile calls are swept in tests/test_jail.py (h/jail)"
    ),
    "harness.plumbing.warm_start": (
        "the jail's warm helper, started by Workspace (tests/test_warm_start.py)"
    ),
    "harness.plumbing.startup": "start-up hooks pytest and the kernel call, never a caller",
    "harness.plumbing.sdk_models": (
        "an import hook start-up installs into the SDK; no caller passes it anything"
    ),
    "harness.plumbing.sessions_in_process": (
        "the harness's own sessions' shortcut, called by run_session and "
        "run_server_session with what they checked (tests/test_sessions_in_process.py)"
    ),
    "harness.agent.reused_runs": (
        "the Workspace run_agent makes offline, from arguments run_agent checked "
        "(tests/test_reused_runs.py)"
    ),
    "harness.tools": (
        "the agent's tools, called with what a model wrote: never raise (tests/test_tools.py,"
        " h/jail)"
    ),
    "harness.agent.checkpoint_lines": (
        "load_checkpoint's readers of one line: damaged and re-signed lines are "
        "swept through load_checkpoint (tests/test_checkpoint.py)"
    ),
    "harness.agent.demo": "the `demo` command: swept in tests/test_cli_bad_input.py",
    "harness.__main__": "the command line: every command swept in tests/test_cli_bad_input.py",
    **{
        f"harness.workbook.{name}": (
            "a step of a `workbook` command, called with what its argparse parsed: the "
            "command is swept in tests/test_cli_bad_input.py"
        )
        for name in (
            "build",
            "cell_merge",
            "check",
            "doctor",
            "execute",
            "link",
            "open_notebooks",
            "rebuild",
            "release",
            "reset",
            "update",
        )
    },
    **{
        f"harness.workbook.{name}": (
            "grading (h/grading rewrites it): `workbook grade` is swept in "
            "tests/test_cli_bad_input.py, hostile notebooks in tests/test_grade_*.py"
        )
        for name in (
            "grade",
            "gradebook",
            "guard",
            "runner",
            "sandbox",
            "restore",
            "verify",
            "channel",
            "service",
            "surface",
        )
    },
}
NOT_SWEPT = {
    "harness.checks.whose": "a panel's caption, called by the panels (not swept) with what mine() gave",
    "harness.checks.ran_by": "a panel's caption, called by the panels (not swept) with what mine() gave",
    "harness.plumbing.keys.api_key": "takes no argument",
    "harness.models.legacy_models_allowed": "takes no argument",
    "harness.plumbing.client.is_offline": "takes no argument",
    "harness.plumbing.client.start_cold": "takes no argument",
    "harness.plumbing.client.mode_line": "takes no argument",
    "harness.workbook.sources.Source": (
        "a row of the sources table, built by the workbook, never by a lesson"
    ),
    "harness.workbook.sources.sources_cell": (
        "takes source keys as *args: swept in test_sources_cell_names_an_unknown_key"
    ),
    "harness.models.Model": (
        "a row of the model table, built by the workbook, never by a lesson (checks its fields)"
    ),
    "harness.models.EmbeddingModel": (
        "a row of the embedding models' table, built by the workbook (checks its fields)"
    ),
    "harness.billing.PriceSheets": (
        "the type of billing.PRICES, built by the workbook, never by a lesson"
    ),
    "harness.models.UnknownModel": "an exception class",
    "harness.models.live_models": "takes no argument",
    "harness.probes.course_sentences": "takes no argument",
    "harness.quizzes.known_lessons": "takes no argument",
    "harness.plumbing.session_bundles.load": (
        "reads a file; its path is swept through save, the same check"
    ),
    "harness.plumbing.session_bundles.load_all": (
        "reads a folder; its path is swept through save_all, the same check"
    ),
    "harness.plumbing.session_bundles.from_run_report": (
        "converts a RunReport; swept through its name in test_recordings_below"
    ),
    "harness.agent.checkpoint.CheckpointDamaged": (
        "an exception the loader raises, not built by a caller"
    ),
    "harness.agent.checkpoint.Resumed": "what load_checkpoint returns, not built by a caller",
    "harness.agent.checkpoint.damaged_line": "the loop's own helper for a replay that fails",
    "harness.agent.checkpoint.require_on_damage": (
        "an argument check, like harness.plumbing.arguments"
    ),
    "harness.context.Fit": "what fit_budget returns (a NamedTuple), not built by a caller",
    "harness.usage.require_usage": (
        "an argument check of the harness's own functions, like harness.plumbing.arguments"
    ),
    "harness.billing.require_price": "an argument check, like harness.plumbing.arguments",
    "harness.models.require_model": "an argument check, like harness.plumbing.arguments",
    "harness.checks.registered": (
        "the loader behind reference and run_check, which check the exercise id"
    ),
    "harness.billing.require_usages": "an argument check, like harness.plumbing.arguments",
    "harness.scenarios.repairs.require_package": (
        "an argument check, like harness.plumbing.arguments"
    ),
    "harness.scenarios.repairs.require_packages": (
        "an argument check, like harness.plumbing.arguments"
    ),
    "harness.partitioning.MergeRefused": "an exception merge_results raises",
    "harness.capstone.scale": "takes no argument",
    "harness.capstone.full_history": "takes no argument",
    "harness.capstone.reference_config": "takes no argument",
    "harness.formats.Entry": "what parse_entry returns (a NamedTuple), not built by a caller",
    "harness.formats.CallMatcher": "takes no argument",
    "harness.checks.exercises": "takes no argument",
    "harness.checks.ExerciseFailed": "the exception a check raises for a broken rule",
    "harness.checks.CheckResult": "what run_check returns, not built by a caller",
    **{
        f"harness.checks.{name}": (
            "the framework harness/checks/lesson*.py write checks with; a student calls "
            "check, run_check and mine (swept)"
        )
        for name in ("Exercise", "exercise", "rule_name", "tried", "rule", "must_refuse", "call")
    },
    "harness.scenarios.course.Passage": (
        "a row of the course corpus (a NamedTuple), built by the scenario"
    ),
    "harness.scenarios.course.script.Probe": (
        "a row of the tutor's script (a NamedTuple), built by the scenario"
    ),
    "harness.scenarios.course.glass_box.Tutor": "the tutor's policy, instantiated by the glass box",
    "harness.scenarios.invoicing.Invoicing": "the task's policy, instantiated by the glass box",
    "harness.scenarios.shipping.Shipping": "the task's policy, instantiated by the glass box",
    "harness.scenarios.repairs.Repairs": "the task's policy, instantiated by the glass box",
    "harness.scenarios.retrieval.retrieved_documents": "takes no argument",
    "harness.plumbing.recording.recording_setting": "takes no argument (reads WORKBOOK_RECORDING)",
    "harness.plumbing.recording.RecordingTransport": "an httpx transport recording_args builds",
    "harness.plumbing.recording.AsyncRecordingTransport": (
        "an httpx transport recording_args builds"
    ),
    "harness.plumbing.redaction.dotenv_files": "takes no argument",
    "harness.plumbing.redaction.secrets": "takes no argument",
    "harness.workbook.LessonsNotFound": "an exception find_workbook raises",
    "harness.workbook.Workbook": "what find_workbook returns, not built by a caller",
    "harness.workbook.find_workbook": (
        "looks for a workbook from a folder; what it finds (or LessonsNotFound) is "
        "swept through every command in tests/test_cli_bad_input.py"
    ),
    "harness.corpus_shell.installed_programs": "takes no argument",
    "harness.scenarios.library.MemoryProbe": "a row of the memory script (a NamedTuple)",
    "harness.scenarios.library.glass_box.Librarian": "the tutor's policy, made by the glass box",
    "harness.retrieval.Retrieved": "what hybrid_search returns, not built by a caller",
    "harness.library.BatteryRow": "what run_battery returns (a NamedTuple), not built by a caller",
    "harness.library.MemoryRun": "what run_memory_sessions returns (a NamedTuple)",
    "harness.memory.Memory": "a fact as consolidate returns it (a NamedTuple)",
    "harness.scenarios.wiki.Needle": "a needle of the wiki make_wiki returns, not built by a caller",
    "harness.scenarios.wiki.Wiki": "what make_wiki returns, not built by a caller",
    "harness.scenarios.course.passages": "takes no argument",
}


def _exempt(module_name: str) -> bool:
    return any(module_name.startswith(prefix) for prefix in NOT_SWEPT_PACKAGES)


MODULES = [
    importlib.import_module(info.name)
    for info in pkgutil.walk_packages(harness.__path__, "harness.")
    if not _exempt(info.name)
]


CPU_SECONDS = 2


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow


def _hints(fn) -> dict:
    target = fn.__init__ if inspect.isclass(fn) else fn
    try:
        return typing.get_type_hints(target)
    except Exception:  # noqa: BLE001 (an unresolvable annotation documents nothing)
        return {}


def fits(value, kind) -> bool:
    """Whether `value` is one of the values the annotation `kind` documents (nan is no number)."""
    if kind is typing.Any or kind is object:
        return True
    if kind is None or kind is type(None):
        return value is None
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, pytypes.UnionType):
        return any(fits(value, arg) for arg in args)
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return (
            isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        )
    if kind is str:
        return isinstance(value, str)
    if origin in (Callable, typing.Callable) or kind in (Callable, typing.Callable):
        return callable(value)
    if origin is tuple:
        if not isinstance(value, (tuple, list)):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits(item, args[0]) for item in value)
        return len(args) == len(value) and all(fits(item, arg) for item, arg in zip(value, args))
    if origin in (list, set, frozenset) or (
        origin is not None and issubclass(origin, Iterable) and not issubclass(origin, Mapping)
    ):
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            return False
        return not args or all(fits(item, args[0]) for item in value)
    if origin is not None and issubclass(origin, Mapping):
        return isinstance(value, Mapping)
    if isinstance(kind, type):
        if kind in (list, tuple):
            return isinstance(value, (list, tuple))
        return isinstance(value, kind)
    return False


def must_refuse(fn, name: str, value, label: str) -> bool:
    """True when the documentation of `name` does not admit `value`: then only a clear error will
    do."""
    if label in ACCEPTS.get((fn, name), ()):
        return False
    hints = _hints(fn)
    if name not in hints:  # undocumented: no wrong value may pass silently
        return True
    negative = isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0
    return negative or not fits(value, hints[name])


def sweep():
    for fn, good, *_ in CALLS:
        for name in good:
            for label, value in BAD.items():
                yield pytest.param(fn, good, name, value, label, id=f"{fn.__name__}-{name}-{label}")


def _ready(good: dict, folder: Path) -> dict:
    """The good arguments, with each factory (a fresh checkpoint, say) called for this test."""
    return {
        name: value(folder) if any(value is factory for factory in FACTORIES) else value
        for name, value in good.items()
    }


@pytest.mark.parametrize("fn, good, name, value, label", list(sweep()))
def test_bad_values_get_a_clear_error_at_once(fn, good, name, value, label, monkeypatch, tmp_path):
    # check() shows a failed answer, never raises
    monkeypatch.delenv("WORKBOOK_CHECKS_RAISE", raising=False)
    monkeypatch.chdir(tmp_path)  # a path-shaped value lands here, never in the project
    # CPU seconds, not wall seconds: a loop that never ends spends them, a machine under load does
    # not (wall time failed this test by chance at a load of 20 on 2 cores).
    previous = signal.signal(signal.SIGPROF, _alarm)
    call = f"{fn.__name__}({name}={value!r})"
    signal.setitimer(signal.ITIMER_PROF, CPU_SECONDS)
    try:
        result = fn(**{**_ready(good, tmp_path), name: value})
    except (ValueError, TypeError) as error:
        # a documented value: its documented refusal
        documented = label in ACCEPTS.get((fn, name), ())
        assert documented or name in str(error), (
            f"{call}: the message does not name {name!r}: {error}"
        )
        return
    except Slow:
        pytest.fail(f"{call} spent over {CPU_SECONDS} CPU-s: a count must be bounded")
    except Exception as error:  # noqa: BLE001 (the point of the test)
        pytest.fail(f"{call} raised {type(error).__name__}: {error}")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    assert not must_refuse(fn, name, value, label), (
        f"{call} returned {result!r}: a wrong value passed silently"
    )
    returns = _hints(fn).get("return")
    if returns is not None and not inspect.isclass(fn):
        assert fits(result, returns), f"{call} returned {result!r}, not the documented {returns}"


@pytest.mark.parametrize("fn, good", [c[:2] for c in CALLS], ids=[c[0].__name__ for c in CALLS])
def test_the_good_arguments_of_the_sweep_are_good(fn, good, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    fn(**_ready(good, tmp_path))


def test_every_public_function_of_the_harness_is_swept():
    swept = {f"{fn.__module__}.{fn.__qualname__}" for fn, *_ in CALLS}
    public = {
        f"{module.__name__}.{name}"
        for module in MODULES
        for name, value in vars(module).items()
        if not name.startswith("_")
        # a function behind functools.cache is public too (it is no plain function)
        and (inspect.isfunction(inspect.unwrap(value)) or inspect.isclass(value))
        and value.__module__ == module.__name__
    }
    missing = sorted(public - swept - set(NOT_SWEPT))
    assert not missing, (
        f"public functions nobody sweeps (add them to CALLS, or to NOT_SWEPT with why): {missing}"
    )
    assert not set(NOT_SWEPT) - public, "NOT_SWEPT names something that is no longer public"
    every = {info.name for info in pkgutil.walk_packages(harness.__path__, "harness.")}
    assert all(any(name.startswith(prefix) for name in every) for prefix in NOT_SWEPT_PACKAGES), (
        "NOT_SWEPT_PACKAGES names a module that is gone"
    )
    exported = {name for name in harness.__all__ if callable(getattr(harness, name))}
    assert exported <= {
        "connect",
        "is_offline",
        "mode_line",
        "start_cold",
    }, "a new harness export: sweep it"


def test_a_string_is_never_taken_for_a_list():
    with pytest.raises(TypeError, match="key_points"):
        probes.grade_probe("good dot", "godot")
    with pytest.raises(TypeError, match="facts"):
        context.render_system("Be brief.", "Ana likes tea.", "")
    with pytest.raises(TypeError, match="facts"):
        context.build_context(**{**CONTEXT, "facts": "Ana likes tea."})


def test_the_named_crashes_are_clear_errors():
    with pytest.raises(ValueError, match="questions"):
        probes.script_turns(10**18)
    with pytest.raises(TypeError, match="output"):
        truncation.extract_verdict(None)
    with pytest.raises(TypeError, match="model"):
        billing.priced_model(5)
    with pytest.raises(ValueError, match="head_ratio"):
        truncation.truncate_output("abc", 2, math.nan)


def test_the_calls_issue_19_named_are_clear_errors():
    """Each of these returned a wrong answer or raised AttributeError before."""
    with pytest.raises(TypeError, match="usage must be a response's usage_metadata"):
        billing.bill("abc", PRICE)  # was 0.0
    with pytest.raises(TypeError, match="usage"):
        usage.token_count(None, "prompt_token_count")  # was 0
    with pytest.raises(TypeError, match="usage"):
        billing.cache_hit_rate(object())  # was 0.0
    with pytest.raises(TypeError, match="text must be a string, got None"):
        tokens.approx_tokens(None)  # was 0
    with pytest.raises((TypeError, ValueError), match="Price: input"):
        models.Price(input=-1, cached_input=math.nan, output=None)  # was accepted
    with pytest.raises(ValueError, match="cached_input"):
        models.Price(input=1, cached_input=math.nan, output=1)
    with pytest.raises(TypeError, match="output"):
        models.Price(input=1, cached_input=0, output=None)
    with pytest.raises(TypeError, match="prices must be a dict"):
        billing.rebill([], prices=5)  # was AttributeError
    with pytest.raises(TypeError, match="client must be a client with models.generate_content"):
        probes.run_session(None, probes.Strategy(), 0)  # was AttributeError
    with pytest.raises(TypeError, match="strategies must be a dict"):
        probes.run_battery(StandIn(), strategies=5)  # was AttributeError
    with pytest.raises(ValueError, match="key_points must name at least one"):
        probes.grade_probe("Godot.", [])  # was True
    with pytest.raises(ValueError, match="usage has no field 'prompt'"):
        billing.bill({"prompt": 1000}, PRICE)  # was 0.0


def test_the_pinned_contract_still_holds_for_correct_calls():
    """DESIGN.md's contract: None fields count 0, a list of usages bills as its sum, '' counts 0
    tokens."""
    sparse = types.GenerateContentResponseUsageMetadata(prompt_token_count=500)
    assert billing.bill(
        sparse, {"input": 0.3, "cached_input": 0.03, "output": 2.5}
    ) == pytest.approx(0.00015)
    assert billing.bill([sparse, sparse], PRICE) == pytest.approx(2 * billing.bill(sparse, PRICE))
    assert billing.bill([], PRICE) == 0.0 and billing.cache_hit_rate([]) == 0.0
    assert billing.bill({"promptTokenCount": 500}, PRICE) == billing.bill(sparse, PRICE)
    assert tokens.approx_tokens("") == 0 and probes.grade_probe("Godot.", ["godot"]) is True


def test_sources_cell_names_an_unknown_key():
    for key in (None, 5, "no such source"):
        with pytest.raises((TypeError, ValueError), match="key|source"):
            sources.sources_cell(key)


def test_a_quiz_takes_a_lesson_number():
    with pytest.raises(ValueError, match="lesson"):
        quiz.quiz("Why?")


def test_recordings_below_name_their_arguments():
    with pytest.raises(TypeError, match="name"):
        session_bundles.from_run_report(report.RunReport(), None)
    with pytest.raises((TypeError, ValueError), match="path"):
        session_bundles.load(None)


def test_workspace_and_run_agent_check_their_arguments(tmp_path):
    with pytest.raises(TypeError, match="root"):
        Workspace(None)
    with pytest.raises(ValueError, match="root"):
        Workspace(tmp_path / "missing")
    for kwargs, name in (
        (dict(config="fast"), "config"),
        (dict(on_turn=5), "on_turn"),
        (dict(task=""), "task"),
        (dict(on_damage="skip"), "on_damage"),
        (dict(checkpoint=5), "checkpoint"),
        (dict(client=5), "client"),
    ):
        with pytest.raises((TypeError, ValueError), match=name):
            loop.run_agent(**kwargs)
