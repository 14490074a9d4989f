"""Checks for lesson 11, server-held state: 11.1 `should_restart`.

The policy is held first to what it does to a session: the tutor session run with the server
holding its history and restarts from a compacted context whenever the policy says so. At the first
turn where the answer and the rule decide differently, the failure names that turn's usage and what
the whole session then costs and still knows (the planted facts the probes ask about). Then the
named cases, then generated usages around the threshold (`harness.checks.compare`). The sessions
run where `connect()` points: the glass box offline, Gemini with a key (as 14.1's do).
"""

from google.genai.interactions import Usage

from harness.billing import bill, price_for
from harness.checks import ExerciseFailed, call, exercise, must_refuse, rule, tried
from harness.checks.compare import Case, Diff, compare, generator
from harness.probes import probe_results
from harness.server_state import ServerPlan, run_server_session
from harness.server_state import should_restart as reference_restart

CHECK_PLAN = ServerPlan("the 11.1 check's session", budget=4_000)  # restarts twice in 8 questions
CHECK_QUESTIONS = 8
HINT = (
    "the next turn replays this turn's input (cached tokens too) and its output, not its thinking;"
    " restart only when that is strictly past ratio x budget."
)


def usage(input_=None, output=None, cached=None, thoughts=None) -> Usage:
    total = (
        None
        if input_ is None and output is None
        else (input_ or 0) + (output or 0) + (thoughts or 0)
    )
    return Usage(
        total_input_tokens=input_,
        total_output_tokens=output,
        total_cached_tokens=cached,
        total_thought_tokens=thoughts,
        total_tokens=total,
    )


def _shown(u: Usage) -> str:
    fields = {
        "input": u.total_input_tokens,
        "output": u.total_output_tokens,
        "cached": u.total_cached_tokens,
        "thoughts": u.total_thought_tokens,
    }
    return "Usage(" + ", ".join(f"{k}={v:,}" for k, v in fields.items() if v is not None) + ")"


def _as_usage(bundle) -> Usage:
    """A recorded call's usage back under the Interactions API's names."""
    u = bundle.usage
    return Usage(
        total_input_tokens=u.get("promptTokenCount"),
        total_output_tokens=u.get("candidatesTokenCount"),
        total_cached_tokens=u.get("cachedContentTokenCount"),
        total_thought_tokens=u.get("thoughtsTokenCount"),
        total_tokens=u.get("totalTokenCount"),
    )


def _decision_points(run) -> list[tuple[int, Usage]]:
    """(turn, the usage the policy was asked about: the previous turn's last call) for every turn
    after the first."""
    points, last = [], None
    for bundle in run.bundles:
        if bundle.kind != "turn":
            continue
        if last is not None and bundle.turn != last.turn:
            points.append((bundle.turn, _as_usage(last)))
        last = bundle
    return points


def _summary(run) -> str:
    restarts = [event["turn"] for b in run.bundles for event in b.compactions]
    known = sum(probe_results(run))
    where = (
        f" (at turn{'s' if len(restarts) > 1 else ''} {', '.join(map(str, restarts))})"
        if restarts
        else ""
    )
    largest = max(b.prompt_tokens for b in run.bundles)
    fits = "within" if largest <= CHECK_PLAN.budget else "over"
    return (
        f"restarts {len(restarts)} time{'s' if len(restarts) != 1 else ''}{where}, its largest"
        f" prompt is {largest:,} tokens ({fits} the budget), it bills"
        f" ${bill(run.usages(), price_for()):.5f} and still knows {known} of 3 planted facts"
    )


def _check_session(should_restart) -> None:
    """The session with the answer as its policy: its first wrong decision, and what it costs."""
    from harness import connect

    client = connect()
    want = run_server_session(client, CHECK_PLAN, CHECK_QUESTIONS)
    plan = CHECK_PLAN
    for turn, last in _decision_points(want):
        mine = call("11.1", should_restart, last, plan.budget, plan.ratio)
        rule(
            isinstance(mine, bool),
            "11.1",
            f"should_restart must return True or False; it returned {mine!r} for {_shown(last)}.",
            "return the comparison itself (a bool).",
            name="returns a bool",
        )
        if mine != reference_restart(last, plan.budget, plan.ratio):
            got = run_server_session(client, plan, CHECK_QUESTIONS, policy=should_restart)
            resent = (last.total_input_tokens or 0) + (last.total_output_tokens or 0)
            rule(
                False,
                "11.1",
                f"before turn {turn} of an {CHECK_QUESTIONS}-question session (budget"
                f" {plan.budget:,}, ratio {plan.ratio}) the last turn's usage was {_shown(last)}:"
                f" {resent:,} tokens will be replayed,"
                f" {'past' if resent > plan.ratio * plan.budget else 'not past'}"
                f" {plan.ratio * plan.budget:,g}, so the rule"
                f" {'restarts' if not mine else 'keeps going'} and yours"
                f" {'restarts' if mine else 'does not'}. With your policy the session"
                f" {_summary(got)}; with the rule it {_summary(want)}.",
                HINT,
                name="restarts at the rule's turns",
            )
    tried("restarts at the rule's turns", True)


# one or two 8-question sessions: ~1 s each on the glass box, a minute on Gemini
@exercise(
    "11.1",
    "when to restart from a compacted context",
    reference="harness.server_state.should_restart",
    time_limit=120,
)
def check_should_restart(should_restart):
    """The answer is held to: the session's restarts, cost and recall as the rule's; replayed =
    input + output (cached included, thinking not), strictly past ratio x budget, None as 0, bad
    budget or ratio refused.
    """
    _check_session(should_restart)
    cases = [
        (
            usage(2_500, 300),
            4_000,
            0.7,
            False,
            "exactly at the threshold (2,800 = 0.7 x 4,000) is not past it",
            "restart only when the replayed tokens are strictly past ratio x budget (>, not >=).",
        ),
        (usage(2_500, 301), 4_000, 0.7, True, "one token past the threshold restarts", HINT),
        (
            usage(2_000, 900),
            4_000,
            0.7,
            True,
            "the answer is stored and replayed: output tokens count",
            (
                "add total_output_tokens to total_input_tokens: the model's answer is part of the"
                " stored history."
            ),
        ),
        (
            usage(3_000, 0, cached=2_900),
            4_000,
            0.7,
            True,
            "cached tokens still fill the window",
            "do not subtract total_cached_tokens: cached tokens are cheaper, not smaller.",
        ),
        (
            usage(2_000, 300, thoughts=5_000),
            4_000,
            0.7,
            False,
            "thinking is not replayed into the next turn",
            (
                "use input + output, not total_tokens: total_tokens counts thinking, which the next"
                " turn does not resend."
            ),
        ),
        (
            usage(3_000, None),
            4_000,
            0.7,
            True,
            "a field left out (None) counts as 0",
            "read None as 0.",
        ),
        (usage(None, None), 4_000, 0.7, False, "an empty usage never restarts", "read None as 0."),
        (
            usage(2_100, 0),
            4_000,
            0.5,
            True,
            "the threshold is ratio x budget",
            "multiply the budget by the ratio given.",
        ),
    ]
    for u, budget, ratio, want, what, hint in cases:
        got = call("11.1", should_restart, u, budget, ratio)
        rule(
            got is want,
            "11.1",
            f"for should_restart({_shown(u)}, {budget:,}, {ratio}) you returned {got!r}; the "
            f"rule gives {want} ({what}).",
            hint,
            name=what,
        )
    must_refuse(
        "11.1",
        should_restart,
        [
            ((usage(10, 10), 0, 0.7), "budget=0"),
            ((usage(10, 10), -100, 0.7), "budget=-100"),
            ((usage(10, 10), 4_000, 0.0), "ratio=0"),
            ((usage(10, 10), 4_000, 1.5), "ratio=1.5"),
        ],
        "raise ValueError when the budget is not a positive number of tokens or the ratio is not in"
        " (0, 1].",
    )
    # text, not a number of tokens: refused, whichever error says so
    for budget in (
        "6000",
        "4,000",
    ):
        try:
            got = call("11.1", should_restart, usage(10, 10), budget, 0.7)
        except ExerciseFailed as failure:
            if isinstance(failure.__cause__, (TypeError, ValueError)):
                continue
            raise
        rule(
            False,
            "11.1",
            f"should_restart(usage, budget={budget!r}, 0.7) returned {got!r}: a budget that is not"
            " a number of tokens must be refused (ValueError).",
            "a budget read from a file or a form arrives as text: check what kind of value it is,"
            " not only its size.",
            name="bad arguments raise ValueError",
        )
    compare("11.1", should_restart, reference_restart, _cases(), _differs, _smaller)
    return "restarts exactly when the replayed context passes ratio x budget"


def _differs(case, got, want):
    if got is want:
        return None
    u, budget, ratio = case.args
    threshold, replayed = ratio * budget, (u.total_input_tokens or 0) + (u.total_output_tokens or 0)
    hint = (
        f"ratio x budget is {threshold:g} here, not a whole number: compare with it as it is."
        if threshold != int(threshold)
        else (
            f"the replayed context is exactly {threshold:g} here: is that strictly past ratio x"
            " budget?"
            if replayed == threshold
            else HINT
        )
    )
    return Diff(
        f"for {case.note} you returned {got!r}; the rule gives {want!r} (restart when input +"
        " output is strictly past ratio x budget, cached included, thinking not, None as 0).",
        hint,
        "agrees with the rule on generated usages",
    )


def _case(u: Usage, budget: int, ratio: float) -> Case:
    return Case(u, budget, ratio, note=f"should_restart({_shown(u)}, {budget:,}, {ratio})")


def _cases() -> list[Case]:
    rng = generator()
    cases = []
    for _ in range(150):
        budget, ratio = (
            rng.choice((1, 7, 1_000, 4_000, 4_001, 1_048_576)),
            rng.choice((0.5, 0.7, 0.75, 0.8, 1.0)),
        )
        edge = int(ratio * budget) + rng.choice((-1, 0, 0, 1, 2))  # around the threshold
        output = rng.choice((None, 0, 1, 37, 600))
        input_ = None if rng.random() < 0.05 else max(edge - (output or 0), 0)
        cached = rng.choice((None, 0, (input_ or 0) // 2, input_))
        cases.append(
            _case(usage(input_, output, cached, rng.choice((None, 0, 50, 9_000))), budget, ratio)
        )
    return cases


def _smaller(case: Case) -> list[Case]:
    u, budget, ratio = case.args
    simpler = []
    if u.total_thought_tokens:
        simpler.append(usage(u.total_input_tokens, u.total_output_tokens, u.total_cached_tokens))
    if u.total_cached_tokens:
        simpler.append(
            usage(u.total_input_tokens, u.total_output_tokens, None, u.total_thought_tokens)
        )
    return [_case(s, budget, ratio) for s in simpler]
