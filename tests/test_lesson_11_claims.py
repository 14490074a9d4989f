"""Each claim lesson 11's text makes about its own outputs, checked against those outputs (the
pattern of test_lesson_claims.py): the sentence must still be in the lesson, and what it says (a
direction, an equality, a share) must still hold for the figures the lesson's cells compute."""

import re

import pytest
from lesson_outputs import executed, printed_by
from test_lesson_claims import claim

from harness.billing import bill, cache_hit_rate
from harness.engine.interactions import RETENTION_SECONDS
from harness.probes import probe_results
from harness.server_state import ServerPlan, run_server_session, uploaded_tokens
from harness.widgets.lesson11 import BUDGETS, MAX_QUESTIONS


@pytest.fixture(scope="module")
def names():
    """Every code cell of the lesson run in order (panel and quiz left out), and what each
    printed."""
    return executed("11")


def test_the_retention_the_idea_reports_is_the_glass_box_s():
    claim("11", "kept 55 days on the paid tier, 1 day on the free tier")
    claim("11", "a 55-day retention")
    assert RETENTION_SECONDS == 55 * 24 * 3600


def test_the_second_turn_s_input_includes_the_first(names):
    claim("11", "the second turn's input includes the first turn")
    first, second = names["first"].usage, names["second"].usage
    assert second.total_input_tokens >= first.total_input_tokens + first.total_output_tokens


def test_client_and_server_held_sessions_bill_the_same_and_the_server_uploads_under_a_tenth(names):
    claim("11", "Both sessions bill the same input tokens at the same cost, cache for cache")
    claim("11", "harness uploads less than a tenth of it")
    client_held, server_held, price = names["client_held"], names["server_held"], names["price"]
    assert [b.prompt_tokens for b in client_held.bundles] == [
        b.prompt_tokens for b in server_held.bundles
    ]
    assert [b.cached_tokens for b in client_held.bundles] == [
        b.cached_tokens for b in server_held.bundles
    ]
    assert bill(client_held.usages(), price) == pytest.approx(bill(server_held.usages(), price))
    assert uploaded_tokens(server_held) < uploaded_tokens(client_held) / 10


def test_restarts_lose_the_cache_keep_the_budget_and_cost_more_and_forget(names):
    claim(
        "11",
        "the restart right after it starts from 0% cached. So the session as a whole falls from"
        " most of its input cached to almost none, above all because its prompts now sit under the"
        " minimum",
    )
    claim("11", "Restarting keeps every prompt within the budget")
    claim(
        "11",
        "costs more than letting the server keep everything, and the model recalls fewer planted"
        " facts",
    )
    restarting, server_held, price, budget = (
        names["restarting"],
        names["server_held"],
        names["price"],
        names["BUDGET"],
    )
    restarts = [b for b in restarting.bundles if b.compactions]
    assert restarts and all(b.cached_tokens == 0 for b in restarts)
    assert cache_hit_rate(server_held.usages()) > 0.5 > 0.1 > cache_hit_rate(restarting.usages())
    assert (
        max(b.prompt_tokens for b in restarting.bundles)
        <= budget
        < max(b.prompt_tokens for b in server_held.bundles)
    )
    assert bill(restarting.usages(), price) > bill(server_held.usages(), price)
    assert sum(probe_results(restarting)) < sum(probe_results(server_held))


def test_client_held_compaction_at_the_same_budget_reads_the_same_tokens(names):
    claim("11", "the same tokens, restart for compaction")
    assert [b.prompt_tokens for b in names["client_compacting"].bundles] == [
        b.prompt_tokens for b in names["restarting"].bundles
    ]


def test_restarting_pays_only_on_the_longer_session_and_loses_every_fact(names):
    claim(
        "11",
        "At 14 questions the restart costs more than it saves; at 28 it costs less than keeping"
        " everything, and by then the model has lost every planted fact",
    )
    rows = [line.split() for line in printed_by(names, "11", "LONG_BUDGET = ").splitlines()[1:]]
    figures = {int(row[0]): (float(row[1]), float(row[3]), row[6]) for row in rows}
    assert (
        figures[14][1] > figures[14][0]
        and figures[28][1] < figures[28][0]
        and figures[28][2] == "0/3"
    )


def test_store_false_rules_out_continuing_reading_back_and_background(names):
    claim(
        "11",
        "no stored interaction for `interactions.get`, none to continue from, and no background"
        " execution",
    )
    shown = printed_by(names, "11", "store=False)\nattempts")
    assert (
        "continue it: 404" in shown
        and "read it back: 404" in shown
        and "run in the background: 400" in shown
    )


def test_the_panel_s_claims_about_14_and_28_questions(names):
    claim(
        "11",
        "At 14 questions no budget of the panel makes the session cheaper than letting the server"
        " keep everything; slide to 28 questions to find budgets where restarting pays a little,"
        " with every planted fact lost",
    )
    client, policy, price = names["client"], names["should_restart"], names["price"]
    for questions, pays in ((14, False), (MAX_QUESTIONS, True)):
        kept = bill(run_server_session(client, ServerPlan(), questions).usages(), price)
        runs = [
            run_server_session(client, ServerPlan("restart", budget=b), questions, policy=policy)
            for b in BUDGETS
        ]
        cheaper = [run for run in runs if bill(run.usages(), price) < kept]
        assert bool(cheaper) is pays
        assert all(sum(probe_results(run)) == 0 for run in cheaper)


def test_a_restart_loses_a_cache_the_session_had_and_the_lesson_names_the_minimum(names):
    """ "Starts from 0% cached" tells of a cache lost: only a restart after a cached call shows
    it. The glass box caches nothing under the model's minimum, which the lesson names and
    counts."""
    from harness import MODEL
    from harness.models import model_row

    claim("11", "it caches a prefix only from 4,096 tokens on")
    claim(
        "11",
        "keeps almost every prompt under it, so almost every call pays the full rate, restart or"
        " not (the line under the table counts them)",
    )
    minimum = model_row(MODEL).implicit_cache_min
    assert minimum == 4_096 and names["MINIMUM"] == minimum
    bundles = names["restarting"].bundles
    under = sum(b.prompt_tokens < minimum for b in bundles)
    assert under >= 0.8 * len(bundles) and all(
        b.cached_tokens == 0 for b in bundles if b.prompt_tokens < minimum
    )
    cached = [b for b in bundles if b.cached_tokens]
    assert (
        printed_by(names, "11", "for b in restarting.bundles").splitlines()[-1]
        == f"{under} of {len(bundles)} calls under the 4,096-token cache minimum; {len(cached)}"
        " cached"
    )
    calls = [b for b in bundles if b.kind != "summary"]
    after_cached = [b for a, b in zip(calls, calls[1:]) if b.compactions and a.cached_tokens]
    assert after_cached and all(b.cached_tokens == 0 for b in after_cached)


def test_in_the_longer_sessions_the_call_before_the_restart_is_cached_and_the_restart_is_not(names):
    claim(
        "11",
        "the last column shows the call before the restart mostly cached and the restart call"
        " at 0%",
    )
    rows = printed_by(names, "11", "LONG_BUDGET = ").splitlines()[1:]
    assert len(rows) == 2
    for row in rows:
        before, at = (int(x) for x in re.search(r"(\d+)% -> (\d+)%$", row).groups())
        assert before > 50 and at == 0, row


def test_the_plain_rule_rests_on_the_figures(names):
    claim(
        "11",
        "the bill is the same as the client-held one (measured above), the upload a small fraction,"
        " and nothing is forgotten",
    )
    client_held, server_held, price = names["client_held"], names["server_held"], names["price"]
    assert bill(server_held.usages(), price) == pytest.approx(bill(client_held.usages(), price))
    assert uploaded_tokens(server_held) < uploaded_tokens(client_held) / 10
    assert sum(probe_results(server_held)) == 3
