"""Checks for lesson 07, caching economics: 7.1 `bill` and 7.2 `break_even_cached_price`."""
from types import SimpleNamespace

from google.genai import types

from harness.checks import ExerciseFailed, call, exercise, rule

# Round rates ($/M) that make the expected figures easy to check by hand; a student's bill must work
# at any rates, so these need not be a real model's (the lesson bills at harness.MODEL's row).
FLASH = {"input": 0.30, "cached_input": 0.03, "output": 2.50}


def usage(prompt=None, cached=None, output=None, thoughts=None):
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt, cached_content_token_count=cached,
        candidates_token_count=output, thoughts_token_count=thoughts)


def _close(got, want) -> bool:
    return isinstance(got, (int, float)) and abs(got - want) <= 1e-12 + 1e-9 * abs(want)


@exercise("7.1", "bill a call or a session", reference="harness.billing.bill")
def check_bill(bill):
    cold = call("7.1", bill, usage(prompt=1_000_000), FLASH)
    rule(_close(cold, 0.30), "7.1", f"1,000,000 uncached prompt tokens should cost $0.30 at input 0.30 $/M; got {cold!r}.",
         "Rates are dollars per MILLION tokens: divide the tokens by 1e6 before multiplying.")
    warm = call("7.1", bill, usage(prompt=10_000, cached=8_000, output=200), FLASH)
    rule(_close(warm, 0.00134), "7.1",
         f"10,000 prompt tokens (8,000 of them cached) and 200 output tokens should cost $0.00134; got {warm!r}.",
         "prompt_token_count INCLUDES the cached tokens: bill prompt - cached at the input rate, cached at the cached rate.")
    thinking = call("7.1", bill, usage(prompt=0, output=100, thoughts=300), FLASH)
    rule(_close(thinking, 0.001), "7.1", f"100 output + 300 thinking tokens should cost $0.001; got {thinking!r}.",
         "Thinking tokens (thoughts_token_count) bill at the output rate.")
    empty = call("7.1", bill, usage(prompt=500), FLASH)
    rule(_close(empty, 0.00015), "7.1", f"A usage with only prompt_token_count=500 should cost $0.00015; got {empty!r}.",
         "Fields the API leaves out are None: count them as 0.")
    listed = call("7.1", bill, [usage(prompt=1_000_000), usage(prompt=10_000, cached=8_000, output=200)], FLASH)
    rule(_close(listed, 0.30134), "7.1", f"A list of usages should cost the sum of its calls ($0.30134); got {listed!r}.",
         "Accept a list of usage records too, and add their costs.")
    try:  # a dict-only answer fails here with a TypeError or a KeyError: name the rule instead
        as_object = call("7.1", bill, usage(prompt=10_000, cached=8_000, output=200), SimpleNamespace(**FLASH))
    except ExerciseFailed as failure:
        as_object = f"{type(failure.__cause__).__name__} ({failure.__cause__})"
    rule(_close(as_object, 0.00134), "7.1", f"A price given as an object with attributes should work too; got {as_object}.",
         "The price may be a dict ({'input': ...}) or an object (price.input): handle both.")
    return "uncached, cached, output and thinking tokens all billed at their rates"


def trace(uncached, cached, output=0, thoughts=None):
    """A one-call trace with these token counts."""
    return [usage(prompt=uncached + cached, cached=cached, output=output, thoughts=thoughts)]


@exercise("7.2", "the break-even cached price", reference="harness.billing.break_even_cached_price")
def check_break_even(break_even):
    full, compacted = trace(1_000_000, 9_000_000), trace(3_000_000, 1_000_000)
    price = call("7.2", break_even, full, compacted, FLASH)
    rule(_close(price, 0.075), "7.2",
         f"Full (1M uncached + 9M cached) vs compacted (3M uncached + 1M cached) at input 0.30 should cross at "
         f"0.075 $/M; got {price!r}.",
         "Write each trace's cost as fixed + cached_tokens x c and solve fixed_a + cached_a c = fixed_b + cached_b c.")
    swapped = call("7.2", break_even, compacted, full, FLASH)
    rule(_close(swapped, 0.075), "7.2", f"Swapping the traces must give the same price; got {swapped!r}.",
         "The crossing point does not depend on which trace you call A.")
    with_output = call("7.2", break_even, trace(1_000_000, 9_000_000, 10_000), trace(3_000_000, 1_000_000), FLASH)
    rule(_close(with_output, 0.071875), "7.2",
         f"When trace A also has 10,000 more output tokens the price should be 0.071875 $/M; got {with_output!r}.",
         "Output tokens are part of each trace's fixed cost, at the output rate.")
    thinking = call("7.2", break_even, trace(1_000_000, 9_000_000, thoughts=10_000), trace(3_000_000, 1_000_000), FLASH)
    rule(_close(thinking, 0.071875), "7.2",
         f"When trace A also has 10,000 more thinking tokens the price should be 0.071875 $/M; got {thinking!r}.",
         "A thinking model reports thoughts_token_count beside candidates_token_count: the provider bills both.")
    try:  # dividing by the zero gap is the usual slip here: name the rule, not the ZeroDivisionError
        parallel = call("7.2", break_even, trace(1_000_000, 2_000_000), trace(3_000_000, 2_000_000), FLASH)
    except ExerciseFailed as failure:
        if not isinstance(failure.__cause__, ZeroDivisionError):
            raise
        parallel = "ZeroDivisionError"
    rule(parallel is None, "7.2", f"Traces with the same cached tokens never cross: expected None, got {parallel!r}.",
         "Check for equal cached token counts before dividing.")
    never = call("7.2", break_even, trace(1_000_000, 9_000_000), trace(2_000_000, 10_000_000), FLASH)
    rule(isinstance(never, (int, float)) and never < 0, "7.2",
         f"A trace with fewer uncached AND fewer cached tokens is cheaper at every price: expected a negative "
         f"price, got {never!r}.", "Do not clip the result at zero: its sign carries the message.")
    return "crossing found, symmetric, None for parallel lines, negative when no real price crosses"
