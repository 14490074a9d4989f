"""Checks for lesson 01, the growing history: naive_prompt_sizes (1.1)."""
from harness.checks import call, exercise, rule


def _sizes(ex, fn, system_tokens, exchanges):
    out = call(ex, fn, system_tokens, [tuple(e) for e in exchanges])
    rule(isinstance(out, list) and len(out) == len(exchanges), ex,
         f"for {len(exchanges)} exchanges, return a list of {len(exchanges)} prompt sizes; got {out!r:.120}.",
         "one prompt per turn: the loop calls the model once per user message.")
    return out


@exercise("1.1", "naive_prompt_sizes: predict each prompt of a naive loop", reference="harness.history.naive_prompt_sizes")
def check_naive_prompt_sizes(fn):
    ex = "1.1"
    rule(_sizes(ex, fn, 50, []) == [], ex, "no exchanges means no prompts: return [].", "start from an empty list.")
    first = _sizes(ex, fn, 50, [(7, 30)])
    rule(first == [57], ex, f"the first prompt (system 50, user 7, reply 30) is not {first[0]}.",
         "the first request holds the system instruction and the first user message; the reply comes after it.")
    two = _sizes(ex, fn, 50, [(7, 30), (5, 20)])
    rule(two[1] == 92, ex, f"the second prompt (after an exchange of 7 + 30, then a user message of 5) is not {two[1]}.",
         "the loop re-sends everything: the system instruction, the earlier user message AND the model's reply.")
    sizes = _sizes(ex, fn, 100, [(10, 40), (20, 60), (5, 5), (0, 15)])
    rule(sizes == [110, 170, 235, 240], ex, f"system 100, exchanges (10,40) (20,60) (5,5) (0,15): got {sizes}.",
         "each prompt = system + every earlier exchange + the new user message; the system is sent every time.")
    big = _sizes(ex, fn, 0, [(50, 50)] * 20)
    rule(sum(big) == 20000 and big[-1] == 1950, ex,
         f"20 turns of 50 + 50 tokens should send 20,000 input tokens in all; got {sum(big)}.",
         "compute each prompt from the arguments of this call only, as the small cases above do.")
    return "system every turn, earlier replies re-sent, the current reply not yet"
