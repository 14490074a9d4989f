"""Hide API keys in text that leaves the harness: the one set of rules for the grader, the agent's
tools and the recorder.

    >>> redact("key=" + "AIza" + "x" * 35)
    'key=[key hidden]'
    >>> redact("spaced: " + " ".join("AIza" + "y" * 35), marker="[redacted]")
    'spaced: [redacted]'

The keys are the values of the key variables in the environment and in every `.env` file a
lesson or a student could have written one in: the current folder's, HOME's, and any in the
course clone up to three folders down (`lessons/.env`, where the README leads people). Each key
is hidden as it is, reversed, in base64 (standard and URL-safe, with or without padding) and in
hex (either case), each of them also with spaces or punctuation between its letters; any string
shaped like a Google key, or like one reversed, base64-encoded or hex-encoded, is hidden too.
"""

import base64
import os
import re
from functools import lru_cache
from pathlib import Path

from harness.plumbing.arguments import checked
from harness.plumbing.keys import KEY_SHAPE, KEY_VARIABLES, read_dotenv

HIDDEN = "[key hidden]"
MIN_SECRET = 8  # a shorter value is no secret and would mangle ordinary text
DOTENV_DEPTH = 3  # folders below the clone searched for a .env
ROOT = Path(__file__).resolve().parents[2]  # the clone: harness/plumbing/ is two below it
SPACER = r"[\s.,;:|/\\'\"`*~+_-]{0,3}"  # what a student may put between a key's letters
# spaced letter by letter
SHAPES = [
    KEY_SHAPE,
    re.compile(r"[0-9A-Za-z_-]{35}azIA"),  # as it is, reversed
    re.compile(r"QUl6Y[0-9A-Za-z+/_-]{46,}={0,2}"),  # base64 of "AIza..."
    re.compile(r"41497a61(?:[0-9a-f]{2}){35}", re.IGNORECASE),  # hex of "AIza..."
    re.compile(SPACER.join("AIza") + f"(?:{SPACER}[0-9A-Za-z_-]){{35}}"),
]


@checked
def encodings(secret: str) -> set[str]:
    raw = secret.encode()
    forms = {secret, secret[::-1], raw.hex(), raw.hex().upper()}
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        text = encode(raw).decode()
        forms |= {text, text.rstrip("=")}
    return forms


def dotenv_files() -> list[Path]:
    """Every .env a key may sit in: here, HOME, and the clone's (not in .git, .venv or other
    hidden folders)."""
    found = [Path.cwd() / ".env", Path.home() / ".env"]
    for folder, subfolders, files in os.walk(ROOT):
        depth = len(Path(folder).relative_to(ROOT).parts)
        subfolders[:] = (
            []
            if depth >= DOTENV_DEPTH
            else [d for d in subfolders if not d.startswith(".") and d != "node_modules"]
        )
        found += [Path(folder) / ".env"] if ".env" in files else []
    return found


@lru_cache(maxsize=1)
def _dotenv_secrets() -> tuple[str, ...]:
    found = []
    for path in dotenv_files():
        try:
            values = read_dotenv(path)
        except OSError:
            continue
        found += [values[name] for name in KEY_VARIABLES if name in values]
    return tuple(found)


def secrets() -> set[str]:
    values = [os.environ.get(name, "") for name in KEY_VARIABLES] + list(_dotenv_secrets())
    return {form for value in values if len(value) >= MIN_SECRET for form in encodings(value)}


@lru_cache(maxsize=64)
def _spaced(form: str) -> re.Pattern:
    return re.compile(
        SPACER.join(re.escape(c) for c in form),
        re.IGNORECASE if re.fullmatch(r"[0-9a-fA-F]+", form) else 0,
    )


@checked
def redact(text: str, marker: str = HIDDEN) -> str:
    """`text` with every key (as it is, encoded, or spaced out) replaced by `marker`."""
    for form in sorted(secrets(), key=len, reverse=True):
        text = _spaced(form).sub(marker, text.replace(form, marker))
    for shape in SHAPES:
        text = shape.sub(marker, text)
    return text
