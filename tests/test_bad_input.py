"""Bad input to a public function gets a clear ValueError or TypeError naming the argument, at once.

The sweep calls each public function the lessons import with good arguments, then with one argument
at a time replaced by a wrong type or an edge value. A call may succeed (many values are legal);
it may not raise anything but ValueError/TypeError, its message must name the argument, and it
must return within 2 seconds.
"""
import math
import signal

import pytest
from google.genai import types

from harness import billing, checks, compaction, context, history, masking, ordering, probes, quiz, session_bundles
from harness import tokens, transcript, truncation, usage
from harness.agent import AgentConfig
from harness.session_bundles import Recording
from harness.tools import Workspace

BAD = {"None": None, "empty": "", "str": "abc", "list": ["x"], "-1": -1, "huge": 10**18,
       "nan": float("nan"), "object": object()}
USAGE = types.GenerateContentResponseUsageMetadata(prompt_token_count=100, cached_content_token_count=40,
                                                   candidates_token_count=10)
HISTORY = [context.as_content("user", "Fix the tests."), context.as_content("model", "Done.")]
PRICE = billing.price_for("gemini-2.5-flash")
CONTEXT = dict(system="Be brief.", facts=["Ana likes tea."], summary="", turns=[("user", "Hi"), ("model", "Hello")],
               question="Which team?", budget=100)

# function, good keyword arguments
CALLS = [
    (context.render_system, dict(system="Be brief.", facts=["Ana likes tea."], summary="")),
    (context.render_docs, dict(docs=["A doc."])),
    (context.as_content, dict(role="user", text="Hi")),
    (context.fit_budget, CONTEXT), (context.build_context, CONTEXT), (context.build_context_naive, CONTEXT),
    (truncation.truncate_output, dict(text="abc" * 10, max_chars=10, head_ratio=0.4)),
    (truncation.extract_verdict, dict(output="1 passed in 0.1s")),
    (compaction.safe_split_points, dict(history=HISTORY)),
    (compaction.task_text, dict(history=HISTORY)),
    (compaction.compact, dict(history=HISTORY, keep_recent_turns=1, summarize=lambda text: "Summary.", state="")),
    (compaction.harness_state, dict(edited_files=["a.py"], last_verdict="1 passed")),
    (masking.reference_of, dict(output="text")),
    (masking.is_error, dict(output="ERROR: x")),
    (masking.mask_observations, dict(history=HISTORY, store={}, keep_last=3)),
    (billing.priced_model, dict(model="gemini-2.5-flash")),
    (billing.price_for, dict(model="gemini-2.5-flash")),
    (billing.rate, dict(price=PRICE, name="input")),
    (billing.token_count, dict(usage=USAGE, field="prompt_token_count")),
    (billing.usages_of, dict(usage=USAGE)),
    (billing.split_tokens, dict(usage=USAGE)),
    (billing.bill, dict(usage=USAGE, price=PRICE)),
    (billing.break_even_cached_price, dict(trace_a=[USAGE], trace_b=[USAGE, USAGE], price=PRICE)),
    (billing.storage_cost, dict(tokens=1000, ttl_seconds=60, price=PRICE)),
    (billing.cache_hit_rate, dict(usage=USAGE)),
    (billing.perfect_cache_floor, dict(usage=USAGE, price=PRICE)),
    (billing.rebill, dict(usage=USAGE)),
    (probes.script_turns, dict(questions=6)),
    (probes.grade_probe, dict(answer="Godot is late.", key_points=["godot"])),
    (probes.probe_results, dict(run=Recording("r"))),
    (probes.recall, dict(run=Recording("r"))),
    (probes.compaction_fired_before_probe, dict(run=Recording("r"))),
    (probes.filter_triggered, dict(runs=[Recording("r")])),
    (probes.quotes_whole_sentence, dict(answer='From what I can see: "Plan one topic at a time."')),
    (probes.course_answers, dict(run=Recording("r"))),
    (probes.whole_answer_share, dict(run=Recording("r"))),
    (probes.global_quality, dict(question="Which team?", answer="Blue.")),
    (tokens.approx_tokens, dict(text="some text")),
    (transcript.render_part, dict(role="user", part=types.Part.from_text(text="Hi"), max_output_chars=600)),
    (transcript.transcript_text_of, dict(history=HISTORY, max_output_chars=600)),
    (ordering.stable_prefix_tokens, dict(request_a=["a", "b"], request_b=["a", "c"])),
    (ordering.request_lines, dict(system_instruction="Be brief.", contents=HISTORY)),
    (history.naive_prompt_sizes, dict(system_tokens=10, exchanges=[(5, 7)])),
    (usage.describe_usage, dict(usage=USAGE)),
    (session_bundles.usage_dict, dict(usage=USAGE)),
    (quiz.Question, dict(prompt="Why?", right=("a", "yes"), wrong=[("b", "no")])),
    (checks.run_check, dict(exercise_id="4.1", fn=truncation.truncate_output)),
    (checks.check, dict(exercise_id="4.1", fn=truncation.truncate_output)),
    (checks.mine, dict(exercise_id="4.1", fn=truncation.truncate_output)),
    (quiz.quiz, dict(lesson="00")),
    (AgentConfig, dict(context_budget=5000, compact_ratio=0.7, keep_recent_turns=3, max_turns=5, head_ratio=0.4,
                       tool_output_max_chars=4000, session_token_cap=1000, mask_keep_last=3)),
]


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow


def sweep():
    for fn, good in CALLS:
        for name in good:
            for label, value in BAD.items():
                yield pytest.param(fn, good, name, value, id=f"{fn.__name__}-{name}-{label}")


@pytest.mark.parametrize("fn, good, name, value", list(sweep()))
def test_bad_values_get_a_clear_error_at_once(fn, good, name, value, monkeypatch):
    monkeypatch.delenv("WORKBOOK_CHECKS_RAISE", raising=False)  # check() shows a failed answer, never raises
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, 2)
    try:
        fn(**{**good, name: value})
    except (ValueError, TypeError) as error:
        assert name in str(error), f"{fn.__name__}({name}={value!r}): the message does not name {name!r}: {error}"
    except Slow:
        pytest.fail(f"{fn.__name__}({name}={value!r}) ran for over 2 s: a count must be bounded")
    except Exception as error:  # noqa: BLE001 (the point of the test)
        pytest.fail(f"{fn.__name__}({name}={value!r}) raised {type(error).__name__}: {error}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("fn, good", CALLS, ids=[fn.__name__ for fn, _ in CALLS])
def test_the_good_arguments_of_the_sweep_are_good(fn, good):
    fn(**good)


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


def test_a_quiz_takes_a_lesson_number():
    with pytest.raises(ValueError, match="lesson"):
        quiz.quiz("Why?")


def test_workspace_and_run_agent_check_their_arguments(tmp_path):
    with pytest.raises(TypeError, match="root"):
        Workspace(None)
    with pytest.raises(ValueError, match="root"):
        Workspace(tmp_path / "missing")
    from harness.agent import run_agent
    for kwargs, name in ((dict(config="fast"), "config"), (dict(on_turn=5), "on_turn"), (dict(task=""), "task"),
                         (dict(on_damage="skip"), "on_damage"), (dict(checkpoint=5), "checkpoint")):
        with pytest.raises((TypeError, ValueError), match=name):
            run_agent(**kwargs)
