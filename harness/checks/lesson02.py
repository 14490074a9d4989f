"""Checks for lesson 02, ordering: stable_prefix_tokens (2.1).

The second request of each case is built from fresh strings (equal text, different objects), so a
comparison by identity shows; and the requests come in both orders and in different lengths, since
the lesson compares each request with the previous one, which may be shorter or longer.
"""

from harness.checks import ExerciseFailed, call, exercise, rule
from harness.checks.compare import Case, agreeing, compare, generator
from harness.ordering import stable_prefix_tokens
from harness.tokens import approx_tokens

SYSTEM = "You are the support assistant of an invoicing tool. Quote the rules exactly."
FACTS = "Facts: Ana is on team Blue. Ana invoices in euros."
SUMMARY = "Summary: Ana asked how discounts work."
TURN = "user: What is the discount threshold?"
QUESTION = "Which currency do I use?"
LENGTHS_RULE = "requests of different lengths must work both ways round"


def _fresh(blocks):
    """Equal strings that are not the same objects."""
    return ["".join(list(block)) for block in blocks]


def _shared(ex, fn, a, b, **kwargs):
    try:
        out = call(ex, fn, a, _fresh(b), **kwargs)
    except ExerciseFailed as failure:
        if isinstance(failure.__cause__, IndexError) and len(a) != len(b):
            rule(
                False,
                ex,
                f"{LENGTHS_RULE}: with {len(a)} blocks in request_a and {len(b)} in request_b "
                f"your function failed ({failure.rule}).",
                "the lesson compares each request with the previous one, which may be shorter: "
                "stop where either request ends.",
            )
        raise
    rule(
        isinstance(out, int) and not isinstance(out, bool),
        ex,
        f"return a number of tokens (an int), got {out!r:.80}.",
        "add up the token counts of the blocks the two requests share.",
    )
    return out


@exercise(
    "2.1",
    "stable_prefix_tokens: what a prefix cache can reuse",
    reference="harness.ordering.stable_prefix_tokens",
)
def check_stable_prefix_tokens(fn):
    """The answer is held to: the tokens (by `count`) of the leading blocks two requests share,
    compared by text, up to the first difference, for requests of any two lengths."""
    ex = "2.1"
    a = [SYSTEM, FACTS, SUMMARY, TURN, QUESTION]
    every = sum(approx_tokens(block) for block in a)
    got = _shared(ex, fn, a, a)
    rule(
        got == every,
        ex,
        f"two identical requests share all {every} tokens, got {got}.",
        "count every shared block with `count` (approx_tokens by default), compared by its text.",
    )
    head = every - approx_tokens(QUESTION)
    got = _shared(ex, fn, a, a[:4] + ["Which team am I on?"])
    rule(
        got == head,
        ex,
        f"requests differing only in the question share {head} tokens, got {got}.",
        "add blocks while they are equal; the first block that differs is not shared.",
    )
    got = _shared(ex, fn, ["It is 09:14."] + a, ["It is 09:15."] + a)
    rule(
        got == 0,
        ex,
        f"a timestamp in the first block leaves nothing to share, yet you counted {got}.",
        "a prefix cache stops at the first difference, even if later blocks are identical again.",
    )
    shorter = sum(approx_tokens(block) for block in a[:3])
    for first, second in ((a[:3], a), (a, a[:3])):
        got = _shared(ex, fn, first, second)
        rule(
            got == shorter,
            ex,
            f"{LENGTHS_RULE}: a request that is the start of the other shares all of its own"
            f" {shorter} tokens; with {len(first)} and {len(second)} blocks you counted {got}.",
            "the shorter request ends where the shared prefix ends.",
        )
    rule(
        _shared(ex, fn, [], a) == 0 and _shared(ex, fn, a, []) == 0,
        ex,
        "an empty request shares nothing: 0 tokens.",
        "no blocks, no shared prefix.",
    )
    for variant in (SYSTEM + "\n", SYSTEM.lower()):
        got = _shared(ex, fn, [SYSTEM, FACTS], [variant, FACTS])
        rule(
            got == 0,
            ex,
            "a first block that differs only by"
            f" {'a newline' if variant[-1] == chr(10) else 'case'} is a different block: those"
            f" requests share 0 tokens, yet you counted {got}.",
            "a prefix cache compares the bytes it is sent: compare the blocks exactly as they are.",
        )
    got, want = (
        _shared(ex, fn, ["Hi", "there", "x"], ["Hi", "there", "y"]),
        approx_tokens("Hi") + approx_tokens("there"),
    )
    rule(
        got == want,
        ex,
        "with the blocks 'Hi' and 'there' shared, the prefix holds count('Hi') + count('there') = "
        f"{want} tokens, got {got}.",
        "count each shared block on its own and add the counts: joined into one text, two blocks"
        " can count otherwise.",
    )
    got = _shared(ex, fn, [SYSTEM, FACTS, TURN], [SYSTEM, SUMMARY, TURN], count=len)
    rule(
        got == len(SYSTEM),
        ex,
        f"with count=len, only the system block is shared: {len(SYSTEM)}, got {got}.",
        "use the `count` you are given, not approx_tokens directly.",
    )
    compare(
        ex,
        fn,
        stable_prefix_tokens,
        _prefix_cases(),
        agreeing(
            "the tokens, by `count`, of the leading blocks both requests share, up to the first"
            " difference",
            "add blocks while they are equal; stop at the first difference or where either request"
            " ends.",
            "the shared leading blocks",
            lambda got, want: type(got) is int and got == want,
        ),
        _smaller_prefix,
    )
    return "stops at the first difference, works for any two lengths, honours count"


# The last three differ from a block above only by a newline or case, or join into fewer tokens:
# a comparison that strips or lowers, or a count of the joined text, differs from the rule on them.
_BLOCKS = (
    SYSTEM,
    FACTS,
    SUMMARY,
    TURN,
    QUESTION,
    "It is 09:14.",
    SYSTEM + "\n",
    FACTS.lower(),
    "there",
)


def _pcase(a, b, by_length) -> Case:
    kwargs = {"count": len} if by_length else {}
    case = Case(
        list(a),
        _fresh(b),
        note=f"stable_prefix_tokens({_names(a)}, {_names(b)}{', count=len' if by_length else ''})",
        **kwargs,
    )
    case.spec = (a, b, by_length)
    return case


def _names(blocks) -> str:
    return "[" + ", ".join(f"block {_BLOCKS.index(b) + 1}" for b in blocks) + "]"


def _prefix_cases() -> list:
    rng = generator()
    cases = []
    for _ in range(80):
        a = [
            rng.choice(_BLOCKS[:3]) if rng.random() < 0.5 else rng.choice(_BLOCKS)
            for _ in range(rng.randint(0, 5))
        ]
        b = a[: rng.randint(0, len(a))] + [rng.choice(_BLOCKS) for _ in range(rng.randint(0, 3))]
        cases.append(
            _pcase(a, b, rng.random() < 0.3)
            if rng.random() < 0.5
            else _pcase(b, a, rng.random() < 0.3)
        )
    return cases


def _smaller_prefix(case) -> list:
    a, b, by_length = case.spec
    out = [_pcase(a[:-1], b, by_length)] if a else []
    return out + ([_pcase(a, b[:-1], by_length)] if b else [])
