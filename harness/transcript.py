"""Render a `types.Content` history as plain text: what a summariser reads and what we measure.

One line (or block) per part, in the entry format of `harness.formats`, so the glass-box
summariser can parse it back:

    user: Fix the invoicing package.
    model: Let me look around.
    model called read_file({"path": "README.md"})
    tool read_file returned: # Invoicing ...

Tool outputs are cut to `max_output_chars` (600 by default, as in « Le budget de contexte »): a
summary needs the gist of an output, not all of it, and a long log would crowd out the rest of the
transcript. The cut keeps the head and the tail (lesson 04's `truncate_output`): a pytest verdict
sits at the end, and a summariser shown only the head would report the tests as never run.
"""

import json

from google.genai import types

from harness.formats import call_entry, response_entry, text_entry
from harness.plumbing.arguments import checked, require_text
from harness.truncation import truncate_output


def _role(name: str, value) -> None:
    require_text(name, value, empty=False)


@checked(role=_role, max_output_chars=(1, 10**9))
def render_part(role: str, part: types.Part, max_output_chars: int = 600) -> str:
    """One part as one transcript entry; '' for parts with nothing to show (thought signatures)."""
    if part.text is not None:
        return text_entry(role, part.text)
    if part.function_call is not None:
        args = json.dumps(dict(part.function_call.args or {}), ensure_ascii=False, sort_keys=True)
        return call_entry(role, part.function_call.name, args)
    if part.function_response is not None:
        response = part.function_response.response or {}
        output = response.get(
            "output", response.get("result", json.dumps(response, ensure_ascii=False))
        )
        output = truncate_output.unchecked(str(output), max_output_chars)
        return response_entry(part.function_response.name, output)
    return ""


@checked(max_output_chars=(1, 10**9))
def transcript_text_of(history: list[types.Content], max_output_chars: int = 600) -> str:
    """The whole history as text, one entry per part, in order."""
    lines = []
    for content in history:
        for part in content.parts or []:
            line = render_part.unchecked(content.role, part, max_output_chars)
            if line:
                lines.append(line)
    return "\n".join(lines)
