"""How big each prompt of a naive chat loop is, before sending anything (exercise 1.1).

A naive loop re-sends the whole history on every turn. Turn k's prompt holds the system
instruction, every earlier exchange (user message and model reply) and the new user message:

    prompt_k = system + (u_1 + m_1) + ... + (u_{k-1} + m_{k-1}) + u_k

So with n turns of the same size the session's input grows like n²: twice the turns, about four
times the input tokens.

>>> naive_prompt_sizes(10, [(5, 20), (5, 20), (5, 20)])
[15, 40, 65]
>>> sum(naive_prompt_sizes(10, [(5, 20)] * 6)) / sum(naive_prompt_sizes(10, [(5, 20)] * 3))
3.875
"""

from harness.plumbing.arguments import checked, require_instance, require_int, require_list, shown


def _exchanges(name: str, exchanges) -> None:
    """A list of (user, model) pairs of token counts."""
    require_list(name, exchanges, "(user, model) token counts")
    for index, pair in enumerate(exchanges):
        require_instance(
            f"{name}[{index}]", pair, (tuple, list), "a (user, model) pair of token counts"
        )
        if len(pair) != 2:
            raise ValueError(
                f"{name}[{index}] must be a (user, model) pair of token counts, got {shown(pair)}."
            )
        require_int(f"{name}[{index}][0]", pair[0], 0, 10**12)
        require_int(f"{name}[{index}][1]", pair[1], 0, 10**12)


@checked(system_tokens=(0, 10**12), exchanges=_exchanges)
def naive_prompt_sizes(system_tokens: int, exchanges: list[tuple[int, int]]) -> list[int]:
    """Prompt tokens of each call of a naive loop; `exchanges` are (user, model) token counts per
    turn."""
    sizes, history = [], system_tokens
    for user_tokens, model_tokens in exchanges:
        sizes.append(history + user_tokens)
        history += user_tokens + model_tokens  # the reply joins the history only for the next turn
    return sizes
