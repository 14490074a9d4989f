"""The category split, the trigger policy and the loop's two hooks (documents, policy) of lesson
09."""

import pytest
from google.genai import types

from harness.agent import AgentConfig, run_agent
from harness.budgets import CATEGORIES, SEED_ALLOCATIONS, check_allocations, split_by_category
from harness.formats import document_text, is_document
from harness.scenarios.retrieval import retrieved_documents
from harness.triggers import TriggerPolicy, next_action, reductions, single_trigger

WINDOW = 6000


@pytest.fixture(scope="module")
def budgeted():
    policy = TriggerPolicy(SEED_ALLOCATIONS, WINDOW)
    return run_agent(AgentConfig(), documents=retrieved_documents(), policy=policy), policy


def test_the_five_categories_add_up_to_the_prompt_tokens_on_every_call(budgeted):
    """The lesson's "so the five add up to the request's prompt_token_count", on every call of a
    real run."""
    report, policy = budgeted
    assert len(policy.turns) == len(report.turns)
    for index, record in enumerate(report.turns):
        assert sum(policy.sent(index).values()) == record.prompt_tokens, record.turn


def test_the_documents_reach_the_model_on_every_call_and_compaction_never_folds_them(budgeted):
    report, policy = budgeted
    assert report.compactions  # the run compacted once ...
    assert all(
        policy.sent(i)["documents"] == policy.sent(0)["documents"] > 0
        for i in range(len(report.turns))
    )
    # held by the harness
    assert not any(is_document(p.text or "") for c in report.history for p in c.parts or [])


def test_the_policy_replaces_the_ratio_trigger():
    """With a policy that never acts, nothing compacts, whatever the config's budget says."""
    never = TriggerPolicy(SEED_ALLOCATIONS, WINDOW, decide=lambda *args: "none")
    report = run_agent(AgentConfig(context_budget=2000), policy=never)
    assert report.compactions == [] and report.last_verdict == "6 passed"


def test_each_action_is_done_once_per_call_and_recorded_on_the_turn(budgeted):
    report, policy = budgeted
    for record, turn in zip(report.turns, policy.turns):
        assert len(turn["actions"]) == len(set(turn["actions"]))
        assert len(turn["steps"]) == len(turn["actions"]) + 1  # measured again after each action
        assert record.trigger == (
            "before this call: " + ", ".join(turn["actions"]) if turn["actions"] else ""
        )


def test_a_document_trigger_drops_the_least_relevant_first():
    policy = TriggerPolicy({"documents": 0.1}, WINDOW)
    report = run_agent(AgentConfig(max_turns=3), documents=retrieved_documents(), policy=policy)
    kept = [
        p.text.splitlines()[0]
        for p in policy.turns[-1]["steps"][-1][1][0].parts
        if is_document(p.text or "")
    ]
    assert kept == [
        "[Retrieved document 1: Commercial rounding]",
        "[Retrieved document 2: Volume discounts]",
        "[Retrieved document 3: Invoice numbering]",
    ]
    assert report.turns[0].trigger == "before this call: drop_document"


def test_a_policy_answering_something_else_is_refused_by_name():
    with pytest.raises(ValueError, match="'shrink'"):
        run_agent(AgentConfig(max_turns=2), policy=lambda *args: "shrink")
    with pytest.raises(ValueError, match="'shrink'"):
        run_agent(
            AgentConfig(max_turns=2),
            policy=TriggerPolicy({}, WINDOW, decide=lambda *args: "shrink"),
        )


def test_a_checkpointed_run_takes_no_policy(tmp_path):
    with pytest.raises(ValueError, match="checkpoint"):
        run_agent(
            AgentConfig(max_turns=1), checkpoint=tmp_path / "run.jsonl", policy=lambda *args: "none"
        )


def test_documents_must_be_texts():
    with pytest.raises(TypeError, match="documents"):
        run_agent(AgentConfig(max_turns=1), documents=[3])


def test_the_single_trigger_compacts_only_past_the_threshold():
    usage = {"system": 100, "tools": 500, "documents": 0, "history": 3000, "tool_outputs": 600}
    assert single_trigger(usage, {}, 6000) == "none"  # 4,200 is not past 0.7 x 6,000
    usage["history"] += 1
    assert (
        single_trigger(usage, {}, 6000) == "compact"
        and single_trigger(usage, {}, 6000, done=("compact",)) == "none"
    )


def test_reductions_measure_what_each_action_rewrote(budgeted):
    _, policy = budgeted
    assert all(0 < r < 1 for r in reductions(policy, "mask") + reductions(policy, "compact"))
    with pytest.raises(ValueError, match="'mask' or 'compact'"):
        reductions(policy, "drop_document")


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: split_by_category(None, [], []), TypeError, "system_instruction"),
        (lambda: split_by_category("", ["not a tool"], []), TypeError, "types.Tool"),
        (lambda: split_by_category("", [], "Fix the tests."), TypeError, "contents"),
        (
            lambda: check_allocations({"tool_outputs": 0.7, "history": 0.5}),
            ValueError,
            "add up to 1.20",
        ),
        (lambda: check_allocations({"system": 0.1}), ValueError, "never cut"),
        (lambda: check_allocations({"history": 2}), ValueError, "allocations['history']"),
        (lambda: next_action({"system": 1}, {}, 6000), ValueError, "usage lacks"),
        (lambda: next_action(dict.fromkeys(CATEGORIES, 1), {}, 0), ValueError, "window"),
        (
            lambda: next_action(dict.fromkeys(CATEGORIES, 1), {}, 6000, threshold=1.5),
            ValueError,
            "threshold",
        ),
        (
            lambda: next_action(dict.fromkeys(CATEGORIES, 1), {}, 6000, done="mask"),
            TypeError,
            "done",
        ),
        (lambda: TriggerPolicy(SEED_ALLOCATIONS, WINDOW, split="split"), TypeError, "split"),
    ],
)
def test_bad_arguments_get_an_error_that_names_them(call, error, words):
    with pytest.raises(error, match=words.replace("[", r"\[").replace("(", r"\(")):
        call()


def test_a_document_reads_back_as_one():
    text = document_text(4, "Payment terms", "Thirty days.")
    assert is_document(text) and not is_document("Fix the tests. " + text)
    content = types.Content(role="user", parts=[types.Part.from_text(text=text)])
    assert split_by_category("", [], [content])["documents"] > 0
