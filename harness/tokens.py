"""One deterministic token counter for the whole workbook.

Gemini's real tokenizer (SentencePiece) cannot run offline here: the SDK's LocalTokenizer downloads
its model at first use. So the harness and the glass-box engine share this approximation instead: a
word costs one token per started group of four characters, and every punctuation mark or symbol
costs one token. It is built on the usual rule of thumb (about four characters of English per
token), not calibrated against Gemini here: with a key, compare it with
`client.models.count_tokens`. What matters for the lessons is that it is the same number everywhere
in the workbook.

>>> approx_tokens("Invoices round half-up to the cent.")
11
"""

import functools
import re

from harness.plumbing.arguments import checked, require_text

# Up to four letters/digits/underscores of a word, or a single non-space symbol: a word of n
# characters is cut into ceil(n / 4) such pieces, so counting the pieces is the rule above, with
# no Python loop over the words (10-12% less CPU than summing ceil(len / 4), here 2026-12-03).
_TOKEN = re.compile(r"\w{1,4}|[^\w\s]")


def _text(name: str, text) -> None:
    # None is refused rather than counted as 0: it is what `part.text` holds for a part that is not
    # text (a function call), and counting that as nothing would hide it from a budget.
    if text is None:
        raise TypeError(
            f"{name} must be a string, got None; a part that is not text has text None: count its "
            "text with approx_tokens(part.text or '') only if ignoring it is what you mean."
        )
    require_text(name, text)


@checked(text=_text)
def approx_tokens(text: str) -> int:
    """Count tokens in `text`: ceil(len/4) per word, 1 per symbol; 0 for ""."""
    return _count(text) if text else 0


# The glass box counts every part of every request, and a conversation resends the same parts on
# each call; the count is a pure function of the text, so each distinct text is counted once.
@functools.lru_cache(maxsize=4_096)
def _count(text: str) -> int:
    return len(_TOKEN.findall(text))
