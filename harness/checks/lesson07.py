"""Checks for lesson 07, caching economics: 7.1 `bill` and 7.2 `break_even_cached_price`.

After the named cases each is compared with the reference on generated usages and traces
(`harness.checks.compare`): fields left None, nothing cached, everything cached, thinking only,
one call or several, prices as dicts and as objects, traces with equal cached tokens.
"""

from types import SimpleNamespace

from google.genai import types

from harness.billing import bill as reference_bill
from harness.billing import break_even_cached_price as reference_break_even
from harness.checks import ExerciseFailed, call, exercise, rule
from harness.checks.compare import Case, agreeing, compare, generator

# Round rates ($/M) that make the expected figures easy to check by hand; a student's bill must work
# at any rates, so these need not be a real model's (the lesson bills at harness.MODEL's row).
FLASH = {"input": 0.30, "cached_input": 0.03, "output": 2.50}


def usage(prompt=None, cached=None, output=None, thoughts=None):
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt,
        cached_content_token_count=cached,
        candidates_token_count=output,
        thoughts_token_count=thoughts,
    )


# What a wrong bill of 10,000 prompt tokens (8,000 cached) and 200 output tokens at FLASH says it
# did.
WARM_SYMPTOMS = [
    (
        0.0035,
        (
            "you billed all 10,000 prompt tokens at the input rate: does prompt_token_count hold"
            " the cached tokens, and at which rate do they bill?"
        ),
    ),
    (
        0.00374,
        "your bill counts the 8,000 cached tokens twice: prompt_token_count already includes them.",
    ),
    (
        0.0009,
        "your 200 output tokens are billed at the input rate: the model's own tokens cost more.",
    ),
    (0.00084, "your 200 output tokens are missing."),
]


def _close(got, want) -> bool:
    return isinstance(got, (int, float)) and abs(got - want) <= 1e-12 + 1e-9 * abs(want)


def _rounded(got, want) -> bool:
    """True when `got` is `want` rounded to 3-8 decimals, not `want` itself (0 is another
    mistake)."""
    return (
        bool(got)
        and not _close(got, want)
        and any(_close(got, round(want, places)) for places in range(3, 9))
    )


@exercise("7.1", "bill a call or a session", reference="harness.billing.bill")
def check_bill(bill):
    """The answer is held to: uncached input, cached input and output (thinking included) each at
    its rate per million, None as 0, one usage or a list, a price as dict or object."""
    cold = call("7.1", bill, usage(prompt=1_000_000), FLASH)
    rule(
        _close(cold, 0.30),
        "7.1",
        f"1,000,000 uncached prompt tokens should cost $0.30 at input 0.30 $/M; got {cold!r}.",
        (
            "Rates are dollars per MILLION tokens: divide the tokens by 1e6 before multiplying."
            if _close(cold, 300_000)
            else (
                "your bill is below zero: this usage reports prompt_token_count only (every other"
                " field is None, total_token_count too); which of the counts you bill comes out"
                " negative?"
                if isinstance(cold, (int, float)) and cold < 0
                else (
                    "this usage is 1,000,000 prompt tokens and nothing else: they bill at the input"
                    " rate, per million tokens."
                )
            )
        ),
    )
    warm = call("7.1", bill, usage(prompt=10_000, cached=8_000, output=200), FLASH)
    rule(
        not _rounded(warm, 0.00134),
        "7.1",
        "10,000 prompt tokens (8,000 of them cached) and 200 output tokens cost "
        f"$0.00134; your bill rounds it to {warm!r}.",
        "Return the dollars unrounded: a session adds up many small bills, and rounding each one"
        " loses them. Round only where you print.",
    )
    rule(
        _close(warm, 0.00134),
        "7.1",
        "10,000 prompt tokens (8,000 of them cached) and 200 output tokens should cost $0.00134;"
        f" got {warm!r}.",
        next(
            (hint for cost, hint in WARM_SYMPTOMS if _close(warm, cost)),
            "bill each kind of token at its own rate: which of the three parts of your bill is"
            " off?",
        ),
    )
    thinking = call("7.1", bill, usage(prompt=0, output=100, thoughts=300), FLASH)
    rule(
        _close(thinking, 0.001),
        "7.1",
        f"100 output + 300 thinking tokens should cost $0.001; got {thinking!r}.",
        "Thinking tokens (thoughts_token_count) bill at the output rate.",
    )
    empty = call("7.1", bill, usage(prompt=500), FLASH)
    rule(
        _close(empty, 0.00015),
        "7.1",
        f"A usage with only prompt_token_count=500 should cost $0.00015; got {empty!r}.",
        "Fields the API leaves out are None: count them as 0.",
    )
    listed = call(
        "7.1",
        bill,
        [usage(prompt=1_000_000), usage(prompt=10_000, cached=8_000, output=200)],
        FLASH,
    )
    rule(
        _close(listed, 0.30134),
        "7.1",
        f"A list of usages should cost the sum of its calls ($0.30134); got {listed!r}.",
        "Accept a list of usage records too, and add their costs.",
    )
    try:  # a dict-only answer fails here with a TypeError or a KeyError: name the rule instead
        as_object = call(
            "7.1", bill, usage(prompt=10_000, cached=8_000, output=200), SimpleNamespace(**FLASH)
        )
    except ExerciseFailed as failure:
        as_object = f"{type(failure.__cause__).__name__} ({failure.__cause__})"
    rule(
        _close(as_object, 0.00134),
        "7.1",
        f"A price given as an object with attributes should work too; got {as_object}.",
        "The price may be a dict ({'input': ...}) or an object (price.input): handle both.",
    )
    compare(
        "7.1",
        bill,
        reference_bill,
        _bill_cases(),
        agreeing(
            "uncached input = prompt - cached at the input rate, cached at the cached rate, output"
            " and thinking at the output rate, None as 0, per million tokens",
            "bill each kind of token at its own rate.",
            "every token at its rate",
            lambda got, want: _close(got, want),
        ),
        _smaller_bill,
    )
    return "uncached, cached, output and thinking tokens all billed at their rates"


def _random_usage(rng):
    cached = rng.choice((None, 0, 0, 1_000, 250_000))
    prompt = (cached or 0) + rng.choice((0, 1, 3_000, 1_000_000)) if rng.random() < 0.9 else None
    return usage(
        prompt,
        cached if prompt is not None else None,
        rng.choice((None, 0, 40, 20_000)),
        rng.choice((None, None, 0, 300, 8_000)),
    )


def _price(rng):
    rates = {
        "input": rng.choice((0.3, 1.25, 2.0)),
        "cached_input": rng.choice((0.0, 0.03, 0.3125)),
        "output": rng.choice((2.5, 10.0)),
    }
    return rates if rng.random() < 0.6 else SimpleNamespace(**rates)


def _shown_usage(u) -> str:
    fields = {
        "prompt": u.prompt_token_count,
        "cached": u.cached_content_token_count,
        "output": u.candidates_token_count,
        "thoughts": u.thoughts_token_count,
    }
    return "usage(" + ", ".join(f"{k}={v}" for k, v in fields.items() if v is not None) + ")"


def _shown_usages(value) -> str:
    return (
        "[" + ", ".join(map(_shown_usage, value)) + "]"
        if isinstance(value, list)
        else _shown_usage(value)
    )


def _bcase(usages, price) -> Case:
    return Case(usages, price, note=f"bill({_shown_usages(usages)}, {price})")


def _bill_cases() -> list:
    rng = generator()
    cases = []
    for _ in range(80):
        calls = [_random_usage(rng) for _ in range(rng.randint(1, 3))]
        cases.append(
            _bcase(calls if len(calls) > 1 or rng.random() < 0.5 else calls[0], _price(rng))
        )
    return cases


def _smaller_bill(case) -> list:
    usages, price = case.args
    return (
        [_bcase(usages[:i] + usages[i + 1 :], price) for i in range(len(usages))]
        if isinstance(usages, list) and len(usages) > 1
        else ([_bcase(usages[0], price)] if isinstance(usages, list) else [])
    )


def crossing_hint(got, want) -> str:
    """A hint from what a wrong crossing price matches: the sign, the unit, or neither."""
    if isinstance(got, (int, float)) and want and _close(got, -want):
        return (
            "your price has the right size and the wrong sign: which trace's fixed part do you"
            " subtract?"
        )
    if isinstance(got, (int, float)) and want and _close(got * 1e6, want):
        return "your price is a million times too small: rates are dollars per MILLION tokens."
    return (
        "bill both traces at the price you return (the other rates as given): they should cost the"
        " same."
    )


def trace(uncached, cached, output=0, thoughts=None):
    """A one-call trace with these token counts."""
    return [usage(prompt=uncached + cached, cached=cached, output=output, thoughts=thoughts)]


@exercise("7.2", "the break-even cached price", reference="harness.billing.break_even_cached_price")
def check_break_even(break_even):
    """The answer is held to: the cached price at which two traces cost the same, symmetric, None
    when both cache as many tokens, negative when no real price crosses."""
    full, compacted = trace(1_000_000, 9_000_000), trace(3_000_000, 1_000_000)
    price = call("7.2", break_even, full, compacted, FLASH)
    rule(
        _close(price, 0.075),
        "7.2",
        "Full (1M uncached + 9M cached) vs compacted (3M uncached + 1M cached) at input 0.30"
        f" should cross at 0.075 $/M; got {price!r}.",
        crossing_hint(price, 0.075),
    )
    swapped = call("7.2", break_even, compacted, full, FLASH)
    rule(
        _close(swapped, 0.075),
        "7.2",
        f"Swapping the traces must give the same price; got {swapped!r}.",
        "The crossing point does not depend on which trace you call A.",
    )
    with_output = call(
        "7.2", break_even, trace(1_000_000, 9_000_000, 10_000), trace(3_000_000, 1_000_000), FLASH
    )
    rule(
        _close(with_output, 0.071875),
        "7.2",
        "When trace A also has 10,000 more output tokens the price should be 0.071875 $/M; got"
        f" {with_output!r}.",
        "Output tokens are part of each trace's fixed cost, at the output rate.",
    )
    thinking = call(
        "7.2",
        break_even,
        trace(1_000_000, 9_000_000, thoughts=10_000),
        trace(3_000_000, 1_000_000),
        FLASH,
    )
    rule(
        _close(thinking, 0.071875),
        "7.2",
        "When trace A also has 10,000 more thinking tokens the price should be 0.071875 $/M; got"
        f" {thinking!r}.",
        "A thinking model reports thoughts_token_count beside candidates_token_count: the provider"
        " bills both.",
    )
    # dividing by the zero gap is the usual slip here: name the rule, not the ZeroDivisionError
    try:
        parallel = call(
            "7.2", break_even, trace(1_000_000, 2_000_000), trace(3_000_000, 2_000_000), FLASH
        )
    except ExerciseFailed as failure:
        if not isinstance(failure.__cause__, ZeroDivisionError):
            raise
        parallel = "ZeroDivisionError"
    rule(
        parallel is None,
        "7.2",
        f"Traces with the same cached tokens never cross: expected None, got {parallel!r}.",
        "both traces cache 2M tokens: their lines are parallel, and the exercise says what to"
        " return then.",
    )
    never = call(
        "7.2", break_even, trace(1_000_000, 9_000_000), trace(2_000_000, 10_000_000), FLASH
    )
    rule(
        isinstance(never, (int, float)) and never < 0,
        "7.2",
        "A trace with fewer uncached AND fewer cached tokens is cheaper at every price: expected a"
        f" negative price, got {never!r}.",
        "Do not clip the result at zero: its sign carries the message.",
    )
    compare(
        "7.2",
        break_even,
        reference_break_even,
        _break_even_cases(),
        agreeing(
            "the cached rate at which both traces cost the same; None when they cache as many"
            " tokens",
            "bill both traces at the price you return (the other rates as given): they should cost"
            " the same.",
            "the crossing price",
            lambda got, want: got is None if want is None else _close(got, want),
        ),
        _smaller_break_even,
    )
    return "crossing found, symmetric, None for parallel lines, negative when no real price crosses"


def _ecase(a, b, price) -> Case:
    return Case(
        a,
        b,
        price,
        note=f"break_even_cached_price({_shown_usages(a)}, {_shown_usages(b)}, {price})",
    )


def _break_even_cases() -> list:
    rng = generator()
    cases = []
    for _ in range(80):
        a, b = ([_random_usage(rng) for _ in range(rng.randint(1, 2))] for _ in range(2))
        if rng.random() < 0.15:  # as many cached tokens on both sides: parallel lines
            b = [usage((u.prompt_token_count or 0), u.cached_content_token_count, 10) for u in a]
        cases.append(_ecase(a, b, _price(rng)))
    return cases


def _smaller_break_even(case) -> list:
    a, b, price = case.args
    out = [_ecase(a[:-1], b, price)] if len(a) > 1 else []
    return out + ([_ecase(a, b[:-1], price)] if len(b) > 1 else [])
