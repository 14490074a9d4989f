"""Checks for lesson 02, ordering: stable_prefix_tokens (2.1)."""
from harness.checks import call, exercise, rule
from harness.tokens import approx_tokens

SYSTEM = "You are the support assistant of an invoicing tool. Quote the rules exactly."
FACTS = "Facts: Ana is on team Blue. Ana invoices in euros."
SUMMARY = "Summary: Ana asked how discounts work."
TURN = "user: What is the discount threshold?"


def _shared(ex, fn, a, b, **kwargs):
    out = call(ex, fn, a, b, **kwargs)
    rule(isinstance(out, int) and not isinstance(out, bool), ex, f"return a number of tokens (an int), got {out!r:.80}.",
         "add up the token counts of the blocks the two requests share.")
    return out


@exercise("2.1", "stable_prefix_tokens: what a prefix cache can reuse", reference="harness.ordering.stable_prefix_tokens")
def check_stable_prefix_tokens(fn):
    ex = "2.1"
    a = [SYSTEM, FACTS, SUMMARY, TURN, "Which currency do I use?"]
    every = sum(approx_tokens(block) for block in a)
    rule(_shared(ex, fn, a, list(a)) == every, ex, f"two identical requests share all {every} tokens.",
         "count every block with `count` (approx_tokens by default).")
    head = approx_tokens(SYSTEM) + approx_tokens(FACTS) + approx_tokens(SUMMARY) + approx_tokens(TURN)
    got = _shared(ex, fn, a, a[:4] + ["Which team am I on?"])
    rule(got == head, ex, f"requests differing only in the question share {head} tokens, got {got}.",
         "add blocks while they are equal; stop at the first that differs.")
    got = _shared(ex, fn, ["It is 09:14."] + a, ["It is 09:15."] + a)
    rule(got == 0, ex, f"a timestamp in the first block leaves nothing to share, yet you counted {got}.",
         "a prefix cache stops at the first difference, even if later blocks are identical again.")
    got = _shared(ex, fn, a[:3], a)
    rule(got == every - approx_tokens(TURN) - approx_tokens(a[4]), ex,
         f"a request that is the start of another shares all of its own tokens; got {got}.",
         "the shorter request ends where the shared prefix ends.")
    got = _shared(ex, fn, [SYSTEM, FACTS, TURN], [SYSTEM, SUMMARY, TURN], count=len)
    rule(got == len(SYSTEM), ex, f"with count=len, only the system block is shared: {len(SYSTEM)}, got {got}.",
         "use the `count` you are given, not approx_tokens directly.")
    return "stops at the first difference, honours count"
