"""The harness's own sessions, offline: the request the SDK would send, answered in this process.

Some lessons compare strategies by running whole sessions of the harness's own and showing their
tables: the tutor sessions (probes.run_session, server_state.run_server_session,
library.run_library_session and run_battery) and the agent (agent.loop.run_agent, its summaries by
compaction.summarizer_for, the coordinator's report call): dozens of calls each, every one
re-sending the whole history. Through google-genai each call converts every message to the wire
format in Python and parses the answer through pydantic; on the glass box a 35-call session cost
0.43-0.48 CPU-s that way against 0.13-0.16 CPU-s for the same bytes answered in-process (the glass
box's own work included in both; google-genai 3.6.1, measured here 2026-12-03), and an in-process
HTTP transport under the SDK saved a tenth only. So such a session sends `glass_box` the very bytes
the SDK would send (tests/test_sessions_in_process.py compares them for every config field accepted
here, and whole sessions and agent runs) and reads the answer with the SDK's own converters: the
objects the session sees are the ones the SDK builds.

Only there, and only for a client that `connect()` pointed at the glass box with no recording
set, with the config fields below: anything else goes through the client. A lesson's own cells,
every call on Gemini and every recorded or replayed run go through the real client over loopback.
"""

import json
import weakref

from google.genai import types

# Clients connect() made for the glass box with no recording: the only ones asked in-process.
_GLASS_BOX_CLIENTS: "weakref.WeakSet" = weakref.WeakSet()
# The GenerateContentConfig fields a session may set and still be asked in-process.
CONFIG_FIELDS = frozenset({"system_instruction", "tools", "max_output_tokens"})


def register(client) -> None:
    """Called by connect() for a client it points at the glass box with no recording set."""
    _GLASS_BOX_CLIENTS.add(client)


def _wire(model) -> dict:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def _message(content) -> types.Content:
    if isinstance(content, str):
        return types.Content(role="user", parts=[types.Part(text=content)])
    return content if isinstance(content, types.Content) else types.Content.model_validate(content)


def request_body(contents, config: types.GenerateContentConfig) -> bytes:
    """The bytes google-genai sends for generate_content(contents=..., config=...), for a config
    of CONFIG_FIELDS only: the messages, the system instruction, the tools, the generation config.
    """
    if isinstance(contents, (str, types.Content)):
        contents = [contents]
    body = {"contents": [_wire(_message(c)) for c in contents]}
    if config.system_instruction is not None:
        body["systemInstruction"] = _wire(_message(config.system_instruction))
    if config.tools:
        body["tools"] = [_wire(tool) for tool in config.tools]
    generation = {}
    if config.max_output_tokens is not None:
        generation["maxOutputTokens"] = config.max_output_tokens
    body["generationConfig"] = generation
    return json.dumps(body).encode()


def _asked_in_process(client, config: types.GenerateContentConfig) -> bool:
    """A glass-box client of connect()'s, a config of CONFIG_FIELDS, its tools declarations only
    (a Python function among them, the SDK would call it: automatic function calling)."""
    fields = {name for name, value in config if value is not None}
    declared = all(isinstance(tool, types.Tool) for tool in config.tools or [])
    return client in _GLASS_BOX_CLIENTS and fields <= CONFIG_FIELDS and declared


def generate_content(client, *, model: str, contents, config: types.GenerateContentConfig):
    """`client.models.generate_content(model=..., contents=..., config=...)`, answered in-process
    when that is the same request to the same glass box (see the module's docstring)."""
    from google.genai import _extra_utils
    from google.genai.models import _GenerateContentResponse_from_mldev

    from harness.engine.server import glass_box
    from harness.plumbing.client import plain

    if _asked_in_process(client, config):
        path = f"/v1beta/models/{model}:generateContent"
        status, _, answer, *_ = glass_box("POST", path, "", request_body(contents, config))
        # Read as the SDK reads an answer (google/genai/models.py, Models._generate_content and
        # generate_content), with its own private converter: tests/test_sessions_in_process.py
        # fails if a new SDK reads it otherwise.
        if status == 200:
            raw = _GenerateContentResponse_from_mldev(json.loads(answer), None, None)
            reply = types.GenerateContentResponse._from_response(response=raw, kwargs={})
            if not (reply.candidates and reply.candidates[0].continuation_token):
                # As the SDK returns it: an empty list, None where a declared function could be
                # called (its automatic function calling then steps aside).
                if not _extra_utils.find_afc_incompatible_tool_indexes(config):
                    reply.automatic_function_calling_history = []
                return reply
    # Anything else, an error or an answer to be continued: the SDK's own, over loopback.
    return client.models.generate_content(model=model, contents=plain(contents), config=config)


def interaction_body(fields: dict) -> bytes:
    """The bytes the SDK's Interactions client sends for `interactions.create(**fields)`, made by
    its own code (google/genai/_gaos/interactions.py, Interactions.create): the keyword arguments
    read into its request model, then written out by its serializer."""
    from google.genai._gaos import models, utils

    request = utils.unmarshal({"body": fields}, models.CreateInteractionRequest)
    body = models.CreateInteractionRequestBody
    return utils.serialize_request_body(request.body, False, False, "json", body).content.encode()


def create_interaction(client, **fields):
    """`client.interactions.create(**fields)`, answered in-process when that is the same request to
    the same glass box: the SDK's own request bytes (interaction_body), its answer read as the
    client reads a 200 (its _speakeasy_parse_response). Streamed and background ones go through it.
    """
    from google.genai._gaos.types.interactions import Interaction
    from google.genai._gaos.utils.unmarshal_json_response import unmarshal_json_response

    from harness.engine.server import glass_box

    if client in _GLASS_BOX_CLIENTS and not (fields.get("stream") or fields.get("background")):
        status, _, answer, *_ = glass_box(
            "POST", "/v1beta/interactions", "", interaction_body(fields)
        )
        if status == 200:
            return unmarshal_json_response(Interaction, None, answer.decode(), validate=False)
    # Anything else, an error among them: the SDK's own, over loopback.
    return client.interactions.create(**fields)
