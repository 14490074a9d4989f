"""Why stable blocks go first: the prefix two requests share is what a prefix cache can reuse
(exercise 2.1).

A request is read in a fixed order, most stable first:

    system text, facts, summary, recent turns, question

Prefix caching (Gemini's implicit cache, and the glass box's) reuses the leading part of a
request that is identical to an earlier one. It stops at the first difference: a block that
changes on every call (a timestamp, the question) costs the cache everything after it, even if
the rest is the same. So volatile blocks go last.

>>> stable_prefix_tokens(["Be brief.", "Ana likes tea.", "Hi?"], ["Be brief.", "Ana likes tea.", "Bye?"])
9
>>> stable_prefix_tokens(["09:14", "Be brief.", "Ana likes tea."], ["09:15", "Be brief.", "Ana likes tea."])
0
"""

from typing import Callable, Sequence

from harness.plumbing.arguments import checked, require_contents
from harness.tokens import approx_tokens


@checked
def stable_prefix_tokens(
    request_a: Sequence[str], request_b: Sequence[str], count: Callable[[str], int] = approx_tokens
) -> int:
    """Tokens of the leading blocks two requests have in common, up to the first that differs."""
    shared = 0
    for block_a, block_b in zip(request_a, request_b):
        if block_a != block_b:
            break  # NOTE: later blocks may match again, but a prefix cache never sees them
        shared += count(block_a)
    return shared


@checked(contents=require_contents)
def request_lines(system_instruction: str, contents: list) -> list[str]:
    """A request as the lines a prefix cache compares: the system instruction's, then each part's.

    The glass box caches whole lines (Gemini caches tokens); a changed line ends the shared prefix.
    """
    lines = system_instruction.split("\n") if system_instruction else []
    for content in contents:
        for part in content.parts or []:
            if part.text is not None:
                lines += part.text.split("\n")
    return lines
