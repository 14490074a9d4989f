"""Checks for lesson 01, the growing history: naive_prompt_sizes (1.1).

A wrong answer is usually one of a few misreadings of "what the request of turn k holds"; each has
its own shape, so `_misreading` recognises it and the failure says what the function did, with a
hint about the missing idea (never the formula).
"""

from itertools import accumulate

from harness.checks import call, exercise, rule
from harness.checks.compare import Case, agreeing, compare, generator
from harness.history import naive_prompt_sizes

# Each misreading: (what the function did, a hint, the sizes it gives). `u` and `m` are the user and
# model tokens of each exchange, `s` the system tokens.
MISREADINGS = [
    (
        (
            "you returned running totals (each prompt plus all the ones before it): that is the"
            " session's cumulative input, not the size of each prompt"
        ),
        "return what ONE request holds; the lesson sums the list itself afterwards.",
        lambda s, u, m: list(accumulate(_right(s, u, m))),
    ),
    (
        "your prompt of turn k already holds the reply of turn k",
        "when turn k's request is sent, has the model written its reply yet?",
        lambda s, u, m: [s + sum(u[: k + 1]) + sum(m[: k + 1]) for k in range(len(u))],
    ),
    (
        "your prompts leave out the user's message of their own turn",
        "what is the last message of the request the model answers?",
        lambda s, u, m: [s + sum(u[:k]) + sum(m[:k]) for k in range(len(u))],
    ),
    (
        "your prompts leave out the model's earlier replies",
        "the loop appends each reply to the history, and sends the history again.",
        lambda s, u, m: [s + sum(u[: k + 1]) for k in range(len(u))],
    ),
    (
        "your prompts count the system instruction only once, in the first",
        "the model keeps nothing between calls: what must every request carry again?",
        lambda s, u, m: [size - (s if k else 0) for k, size in enumerate(_right(s, u, m))],
    ),
    (
        "your prompts leave out the system instruction",
        "the system instruction is part of every request.",
        lambda s, u, m: [size - s for size in _right(s, u, m)],
    ),
]


def _right(s, u, m) -> list[int]:
    """The sizes a naive loop sends (the check's own statement of the rule, for the misreadings)."""
    return [s + sum(u[:k]) + sum(m[:k]) + u[k] for k in range(len(u))]


def _sizes(ex, fn, system_tokens, exchanges):
    out = call(ex, fn, system_tokens, [tuple(e) for e in exchanges])
    shown = (
        f"{out!r:.120}"
        if isinstance(out, (list, tuple, int, type(None)))
        else f"a {type(out).__name__}"
    )
    rule(
        isinstance(out, list),
        ex,
        f"for {len(exchanges)} exchanges, return a list of {len(exchanges)} prompt sizes; got"
        f" {shown}.",
        (
            "the lesson reads the sizes more than once (prints them, sums them): a generator is"
            " used up after one reading, so build the list and return it."
            if hasattr(out, "__next__")
            else "put the sizes in a list, one int per turn, and return it."
        ),
        name="return a list",
    )
    rule(
        len(out) == len(exchanges),
        ex,
        f"for {len(exchanges)} exchanges, return a list of {len(exchanges)} prompt sizes; got"
        f" {shown}.",
        "one prompt per turn: the loop calls the model once per user message.",
    )
    return out


def _check_case(ex, fn, system_tokens, exchanges):
    out = _sizes(ex, fn, system_tokens, exchanges)
    u, m = [e[0] for e in exchanges], [e[1] for e in exchanges]
    if out == _right(system_tokens, u, m):
        return
    for did, hint, sizes in MISREADINGS:
        if out == sizes(system_tokens, u, m):
            rule(
                False,
                ex,
                f"system {system_tokens}, exchanges {exchanges}: {did} (got {out}).",
                hint,
            )
    rule(
        False,
        ex,
        f"system {system_tokens}, exchanges {exchanges}: got {out}, which is not what each request"
        " holds.",
        "picture the request of turn k at the moment it is sent, and list what it holds.",
    )


@exercise(
    "1.1",
    "naive_prompt_sizes: predict each prompt of a naive loop",
    reference="harness.history.naive_prompt_sizes",
)
def check_naive_prompt_sizes(fn):
    """The answer is held to: each prompt of a naive loop: the system text, every earlier
    exchange and this turn's user message, for any session (none too), with nothing kept between
    calls."""
    ex = "1.1"
    rule(
        _sizes(ex, fn, 50, []) == [],
        ex,
        "no exchanges means no prompts: return [].",
        "start from an empty list.",
    )
    once, twice = _sizes(ex, fn, 100, [(10, 40)] * 3), _sizes(ex, fn, 100, [(10, 40)] * 3)
    rule(
        once == twice,
        ex,
        f"the same call gave {once}, then {twice}: your function keeps something between calls.",
        "compute each prompt from the arguments of this call only (a default such as `history=[]`"
        " is shared by every call).",
    )
    # Distinct sizes, so that every misreading gives a different list; then the boundaries.
    for system, exchanges in (
        (100, [(10, 40), (20, 60), (5, 5)]),
        (50, [(7, 30)]),
        (0, [(3, 9), (4, 11)]),
        (100, [(10, 40), (20, 60), (5, 5), (0, 15)]),
    ):
        _check_case(ex, fn, system, exchanges)
    big = _sizes(ex, fn, 0, [(50, 50)] * 20)
    rule(
        sum(big) == 20000,
        ex,
        f"20 turns of 50 + 50 tokens should send 20,000 input tokens in all; got {sum(big)}.",
        "a long session follows the same rule as the small cases.",
    )
    compare(
        ex,
        fn,
        naive_prompt_sizes,
        _size_cases(),
        agreeing(
            "each prompt: the system, every earlier exchange, and this turn's user message",
            "picture the request of turn k at the moment it is sent, and list what it holds.",
            "what each request holds",
            lambda got, want: isinstance(got, list) and got == want,
        ),
        _smaller_sizes,
    )
    return "system every turn, earlier replies re-sent, the current reply not yet"


def _ncase(system, exchanges) -> Case:
    return Case(system, list(exchanges), note=f"naive_prompt_sizes({system}, {exchanges})")


def _size_cases() -> list:
    rng = generator()
    return [
        _ncase(
            rng.choice((0, 1, 50, 100)),
            [(rng.randint(0, 60), rng.randint(0, 60)) for _ in range(rng.randint(0, 5))],
        )
        for _ in range(80)
    ]


def _smaller_sizes(case) -> list:
    system, exchanges = case.args
    out = [_ncase(system, exchanges[:-1])] if exchanges else []
    return out + ([_ncase(0, exchanges)] if system else [])
