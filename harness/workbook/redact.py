"""Hide API keys in anything the grader writes, in the plain and in the encoded forms a student might print.

    >>> redact("key=" + "AIza" + "x" * 35)
    'key=[key hidden]'

The keys are the values of the key variables here and in the `.env` files a lesson could read
(the project's, the current folder's, HOME's). Each is hidden as it is, reversed, in base64
(standard and URL-safe, with or without padding) and in hex; any string shaped like a Google key,
or like one reversed, base64-encoded or hex-encoded, is hidden too.
"""
import base64
import os
import re
from functools import lru_cache
from pathlib import Path

from harness.client import KEY_SHAPE, KEY_VARIABLES, _read_dotenv
from harness.workbook import ROOT

HIDDEN = "[key hidden]"
MIN_SECRET = 8  # a shorter value is no secret and would mangle ordinary text
SHAPES = [KEY_SHAPE, re.compile(r"[0-9A-Za-z_-]{35}azIA"),           # as it is, reversed
          re.compile(r"QUl6Y[0-9A-Za-z+/_-]{46,}={0,2}"),            # base64 of "AIza..."
          re.compile(r"41497a61(?:[0-9a-f]{2}){35}", re.IGNORECASE)]  # hex of "AIza..."


def encodings(secret: str) -> set[str]:
    raw = secret.encode()
    forms = {secret, secret[::-1], raw.hex(), raw.hex().upper()}
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        text = encode(raw).decode()
        forms |= {text, text.rstrip("=")}
    return forms


@lru_cache(maxsize=1)
def _dotenv_secrets() -> tuple[str, ...]:
    found = []
    for folder in (ROOT, Path.cwd(), Path.home()):
        try:
            values = _read_dotenv(folder / ".env")
        except OSError:
            continue
        found += [values[name] for name in KEY_VARIABLES if name in values]
    return tuple(found)


def secrets() -> set[str]:
    values = [os.environ.get(name, "") for name in KEY_VARIABLES] + list(_dotenv_secrets())
    return {form for value in values if len(value) >= MIN_SECRET for form in encodings(value)}


def redact(text: str) -> str:
    """`text` with every key (as it is or encoded) replaced by [key hidden]."""
    for form in sorted(secrets(), key=len, reverse=True):
        text = text.replace(form, HIDDEN)
    for shape in SHAPES:
        text = shape.sub(HIDDEN, text)
    return text
