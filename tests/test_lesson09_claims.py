"""Each claim lesson 09's text makes about its own outputs, checked against those outputs.

The same pattern as tests/test_lesson_claims.py: assert the sentence is still in the lesson, then
recompute what it says from the lesson's own cells (run once, panel and quiz left out).
"""

import pytest
from test_lesson_claims import claim, notebook, run_cells

from harness import MODEL
from harness.models import model_row
from harness.triggers import next_action, reductions

LESSON = "09"


@pytest.fixture(scope="module")
def names():
    return run_cells(LESSON, len(notebook(LESSON).cells) - 1)


def _actions(policy) -> list[list[str]]:
    return [turn["actions"] for turn in policy.turns]


def _measured(policy, index) -> dict:
    return policy.turns[index]["steps"][0][0]


def test_the_scaled_window_stands_for_the_real_one(names):
    claim(LESSON, "the current Flash takes 1,048,576 input tokens")
    claim(LESSON, "the window is scaled down about 175 times")
    claim(LESSON, "A task on the glass box sends at most a few thousand tokens per call")
    assert model_row(MODEL).input_token_limit == 1_048_576
    assert round(1_048_576 / names["WINDOW"]) == 175
    runs = (names["single"], names["budgeted"], names["lean"])
    assert max(t.prompt_tokens for run in runs for t in run.turns) < names["WINDOW"]


def test_tool_outputs_grow_fastest_and_pass_half_by_the_eighth_call(names):
    claim(LESSON, "System prompt, tool definitions and documents are the same on every call")
    claim(LESSON, "**tool outputs grow fastest** and pass half of the request by the eighth call")
    policy, report = names["single_policy"], names["single"]
    sent = [policy.sent(i) for i in range(len(report.turns))]
    for name in ("system", "tools", "documents"):
        assert len({usage[name] for usage in sent}) == 1, name
    growth = {
        name: max(u[name] for u in sent) - sent[0][name] for name in ("history", "tool_outputs")
    }
    assert growth["tool_outputs"] > growth["history"]
    assert sent[7]["tool_outputs"] > sum(sent[7].values()) / 2


def test_the_single_trigger_fires_again_and_again_on_ever_fewer_messages_and_gives_up(names):
    claim(LESSON, "so it fires again, and again")
    claim(LESSON, "Each summary is made from fewer messages than the last")
    claim(LESSON, "the agent ends the session with the tests still failing")
    folded = [n for _, n in names["single"].compactions]
    assert len(folded) >= 3 and all(a > b for a, b in zip(folded, folded[1:]))
    assert "failed" in names["single"].last_verdict


def test_the_category_policy_passes_the_tests_the_single_trigger_fails(names):
    claim(
        LESSON,
        "Under the category policy all six tests pass; under the single trigger the agent stops"
        " with tests failing",
    )
    assert names["budgeted"].last_verdict == "6 passed" and "failed" in names["single"].last_verdict


def test_it_masks_first_when_tool_outputs_dominate_and_compacts_once_after_masking(names):
    claim(
        LESSON,
        "When the total passed the threshold with tool outputs over half of it, the policy masked",
    )
    claim(LESSON, "the one compaction came only when masking was not enough")
    policy, window = names["budgeted_policy"], names["WINDOW"]
    over = [
        i
        for i in range(len(policy.turns))
        if sum(_measured(policy, i).values()) > 0.7 * window
        and _measured(policy, i)["tool_outputs"] > sum(_measured(policy, i).values()) / 2
    ]
    assert over and all(policy.turns[i]["actions"][0] == "mask" for i in over)
    compacting = [actions for actions in _actions(policy) if "compact" in actions]
    assert compacting == [["mask", "compact"]]


def test_reductions_against_the_seed_targets(names):
    claim(
        LESSON,
        "each masking that replaced an output removed at least the seed's 60% of what it replaced",
    )
    claim(LESSON, "The category policy's compaction lands in the seed's 50-70% range")
    claim(LESSON, "The single trigger's compactions mostly fall short of it")
    masked = reductions(names["budgeted_policy"], "mask")
    assert masked and min(masked) >= 0.6
    [compacted] = reductions(names["budgeted_policy"], "compact")
    assert 0.5 <= compacted <= 0.7
    single = reductions(names["single_policy"], "compact")
    assert sum(r < 0.5 for r in single) > len(single) / 2


def test_the_category_policy_costs_more_because_the_agent_reads_masked_files_again(names):
    claim(LESSON, "The category policy costs more here, in turns and in dollars")
    claim(LESSON, "the glass-box agent reads a masked file again when it needs it")
    budgeted, single = names["budgeted"], names["single"]
    assert len(budgeted.turns) > len(single.turns) and budgeted.cost > single.cost
    reads = [t.args.get("path") for t in budgeted.turns if t.tool == "read_file"]
    masked_files = {path for path in reads if reads.count(path) > 1}
    assert masked_files


def test_the_documents_trigger_fires_alone_and_stops_once_they_fit(names):
    claim(
        LESSON,
        "Lower the documents' allocation to 10% (600 tokens of 6,000): the five pages take more",
    )
    claim(LESSON, "drops the least relevant page, one per call, until they fit")
    claim(LESSON, "The documents' trigger fired on the first two calls and then stayed quiet")
    policy, window = names["lean_policy"], names["WINDOW"]
    limit = policy.allocations["documents"] * window
    assert limit == 600 and _measured(policy, 0)["documents"] > limit
    # "whatever the total": far from the threshold
    assert sum(_measured(policy, 0).values()) <= 0.7 * window
    dropping = [i for i, actions in enumerate(_actions(policy)) if "drop_document" in actions]
    assert dropping == [0, 1]
    sent = [policy.sent(i)["documents"] for i in range(len(policy.turns))]
    assert sent[0] > limit >= sent[1] or sent[1] > limit >= sent[2]
    assert len(set(sent[2:])) == 1 and sent[2] <= limit


def test_the_quiz_figures_follow_the_policy():
    from harness.budgets import SEED_ALLOCATIONS

    heavy = {"system": 100, "tools": 500, "documents": 1000, "history": 1000, "tool_outputs": 5000}
    assert sum(heavy.values()) == 7600 and next_action(heavy, SEED_ALLOCATIONS, 10_000) == "mask"
    documents = {
        "system": 100,
        "tools": 500,
        "documents": 2100,
        "history": 800,
        "tool_outputs": 500,
    }
    assert (
        sum(documents.values()) == 4000
        and next_action(documents, SEED_ALLOCATIONS, 10_000) == "drop_document"
    )


def _run(**shares_and_threshold):
    from harness.budgets import SEED_ALLOCATIONS, split_by_category
    from harness.widgets.lesson09 import run_policy

    threshold = shares_and_threshold.pop("threshold", 0.7)
    allocations = {
        **{k: v for k, v in SEED_ALLOCATIONS.items() if k != "reserve"},
        **shares_and_threshold,
    }
    return run_policy(split_by_category, next_action, allocations, 6000, threshold)


def _first(policy, action):
    return next(i for i, actions in enumerate(_actions(policy)) if action in actions)


def test_what_the_panel_text_says_each_setting_does():
    claim(LESSON, "Try a tool-output allocation of 0.1 (masking fires earlier)")
    claim(LESSON, "a history allocation of 0.05 (history's own trigger compacts)")
    claim(LESSON, "documents at 0 (every page is dropped)")
    claim(LESSON, "or a threshold of 1.0 (the category triggers alone)")
    _, seed = _run()
    _, early = _run(tool_outputs=0.1)
    assert _first(early, "mask") < _first(seed, "mask")
    _, history = _run(history=0.05)
    compacting = [i for i, actions in enumerate(_actions(history)) if "compact" in actions]
    # not the total's trigger
    assert any(sum(_measured(history, i).values()) <= 0.7 * 6000 for i in compacting)
    _, bare = _run(documents=0.0)
    assert bare.sent(len(bare.turns) - 1)["documents"] == 0
    report, alone = _run(threshold=1.0)
    assert any(_actions(alone)) and max(t.prompt_tokens for t in report.turns) <= 6000


def test_an_allocation_below_what_one_step_needs_masks_every_call_and_never_finishes(names):
    claim(LESSON, "Give tool outputs 0.20 of the window (1,200 tokens of 6,000)")
    claim(
        LESSON,
        "it never runs the tests, and the turn limit ends the session. The category policy of"
        " section 3, with the seed's 0.35 for tool outputs, finished the same task",
    )
    starved, policy = names["starved"], names["starved_policy"]
    masked = [i for i, actions in enumerate(_actions(policy)) if "mask" in actions]
    assert policy.allocations["tool_outputs"] * names["WINDOW"] == 1_200
    assert masked[-1] == len(starved.turns) - 1 and set(
        range(masked[-1] - 10, masked[-1] + 1)
    ) <= set(masked)
    assert (
        starved.status == f"stopped: max turns {len(starved.turns)} reached"
        and starved.last_verdict is None
    )
    assert not any(t.tool == "run_command" for t in starved.turns)
    reads = [t.args["path"] for t in starved.turns if t.tool == "read_file"]
    assert len(reads) > 2 * len(set(reads))  # the same files, again and again
    assert (
        names["budgeted"].last_verdict == "6 passed"
        and names["SEED_ALLOCATIONS"]["tool_outputs"] == 0.35
    )


def test_the_quiz_tells_the_starved_run_as_the_lesson_prints_it(names):
    from harness.quizzes.lesson09 import QUESTIONS

    said = next(q for q in QUESTIONS if "0.20 of the window" in q.prompt).right[1]
    starved = names["starved"]
    masked = [i for i, actions in enumerate(_actions(names["starved_policy"])) if "mask" in actions]
    calls = len(starved.turns)
    first = next(i for i in range(calls) if set(range(i, calls)) <= set(masked))
    reads = [t.args["path"] for t in starved.turns if t.tool == "read_file"]
    assert f"every call from turn {starved.turns[first].turn}" in said
    assert f"the same {len(set(reads))} files read {len(reads)} times" in said.replace("five", "5")
    assert f"stopped at {calls} turns" in said
