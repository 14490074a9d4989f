"""A request as an ordered list of blocks, and its token count: one rule for everything.

Usage metadata, `countTokens` and both caches count a request with `count_tokens`, so the numbers
a lesson prints always agree with each other and with `approx_tokens` on the same texts.

The blocks, in order: the system instruction split into lines, each tool's function declaration
(canonical JSON), then every part of every content (a text split into lines; a function call as
`name {json args}`; a function response as `name {json response}`).

    >>> request = {"systemInstruction": {"parts": [{"text": "Be brief.\\nCite the README."}]},
    ...            "contents": [{"role": "user", "parts": [{"text": "Who pays VAT?"}]}]}
    >>> [(b.kind, b.text, b.tokens) for b in blocks(request)]
    [('system', 'Be brief.', 4), ('system', 'Cite the README.', 5), ('user', 'Who pays VAT?', 4)]
    >>> count_tokens(request)
    13

NOTE: `approx_tokens` never counts across a newline, so splitting a text into lines leaves its
count unchanged: prompt tokens of a text-only request = approx_tokens(system) + the parts' counts.
"""

import base64
import json
import re
from typing import NamedTuple

from harness.tokens import approx_tokens


class Block(NamedTuple):
    """One line of a request. `first` marks the first line of a part: two requests share a
    cached prefix only if their parts start at the same places, as turn markers do for real."""

    kind: str  # "system", "tool", "user" or "model"
    text: str
    tokens: int
    first: bool


_TEXT_MIME = re.compile(r"text/|application/(json|xml|x-yaml|yaml)\b")  # inline data that is text


def canonical(value) -> str:
    """JSON with sorted keys: the same object always gives the same text (and the same cache
    key)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def part_text(part: dict) -> str | None:
    """What a part counts as; None for parts that carry nothing to read (a bare thought
    signature)."""
    if "text" in part:
        return part["text"] or ""
    if "functionCall" in part:
        call = part["functionCall"]
        return f"{call.get('name', '')} {canonical(call.get('args') or {})}"
    if "functionResponse" in part:
        response = part["functionResponse"]
        return f"{response.get('name', '')} {canonical(response.get('response') or {})}"
    if _TEXT_MIME.match(str((part.get("inlineData") or {}).get("mimeType", ""))):
        # a text file sent inline counts as its text, as Gemini's tokenizer reads it
        return base64.b64decode(part["inlineData"].get("data") or "", altchars=b"-_").decode(
            "utf-8", "replace"
        )
    media = [key for key in part if key not in ("thoughtSignature", "thought")]
    # Images, files and code parts: the glass box cannot read them, so they cost one marker.
    return f"[{media[0]}]" if media else None


def _lines_of(kind: str, text: str) -> list[Block]:
    lines = text.split("\n")
    return [Block(kind, line, approx_tokens(line), i == 0) for i, line in enumerate(lines)]


def blocks(request: dict) -> list[Block]:
    """The request's blocks in the order the model reads them (see the module docstring)."""
    out = []
    for part in (request.get("systemInstruction") or {}).get("parts") or []:
        out += _lines_of("system", part_text(part) or "")
    for tool in request.get("tools") or []:
        declarations = tool.get("functionDeclarations")
        for declaration in declarations if declarations is not None else [tool]:
            text = canonical(declaration)
            out.append(Block("tool", text, approx_tokens(text), True))
    for content in request.get("contents") or []:
        role = content.get("role") or "user"
        for part in content.get("parts") or []:
            text = part_text(part)
            if text is not None:
                out += _lines_of(role, text)
    return out


def count_tokens(request: dict) -> int:
    """Prompt tokens of a request: the sum of its blocks' tokens."""
    return sum(block.tokens for block in blocks(request))


def parts_tokens(parts: list) -> int:
    """Tokens of a list of parts, counted like a prompt's (used for candidatesTokenCount)."""
    return sum(approx_tokens(part_text(part) or "") for part in parts)


def response_output(part: dict) -> str:
    """What a functionResponse part says the tool returned: its "output" (the workbook's harness),
    else its "result" (the SDK's convention), else the whole response."""
    response = part["functionResponse"].get("response") or {}
    return str(response.get("output", response.get("result", canonical(response))))


def system_text(request: dict) -> str:
    """The system instruction's text parts joined by newlines ('' when there is none)."""
    return content_text(request.get("systemInstruction") or {})


def content_text(content: dict) -> str:
    """A content's text parts joined by newlines (function calls and responses left out)."""
    return "\n".join(
        part.get("text") or "" for part in content.get("parts") or [] if "text" in part
    )
