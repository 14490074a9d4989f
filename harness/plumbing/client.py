"""One way to get a model: `connect()` returns a real `google.genai.Client`.

Offline (no key, or WORKBOOK_OFFLINE=1) the client talks to the glass-box engine on loopback; with
GEMINI_API_KEY or GOOGLE_API_KEY set it talks to Gemini. WORKBOOK_RECORDING=record:<file> also
writes every exchange to a JSONL file, replay:<file> answers from such a file instead, auto:<file>
answers from it what it holds and records the rest (recording.py). Lessons never branch on the mode:
the same cells run on all of them. The key comes from keys.py and is never printed, logged or
stored.
"""

import functools
import os
import ssl

from google import genai
from google.genai import types

from harness.plumbing.arguments import require_int, require_list
from harness.plumbing.keys import api_key

OFFLINE_KEY = "glass-box-offline"  # what the SDK sends to the engine; the engine ignores it

# A loopback answer takes milliseconds; one that has not come in two minutes never will, and a
# cell that says so beats a notebook stuck at [*] (the SDK's own default is to wait for ever).
GLASS_BOX_TIMEOUT_MS = 120_000


def is_offline() -> bool:
    """True when lessons run on the glass box: no key, or WORKBOOK_OFFLINE set to 1."""
    return os.environ.get("WORKBOOK_OFFLINE", "") not in ("", "0") or api_key() is None


def start_cold() -> bool:
    """Offline, make the glass box forget earlier requests, so a measurement does not depend on
    what ran before it (True). Online there is nothing to clear: Gemini's cache is not ours (False).
    """
    if not is_offline():
        return False
    from harness.engine.cache import reset_implicit_cache

    reset_implicit_cache()
    return True


@functools.cache
def _unused_tls() -> ssl.SSLContext:
    """A TLS context with no certificate authority loaded: it verifies nothing, so it trusts
    nothing."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _plain_http(client_args: dict | None = None, async_client_args: dict | None = None) -> dict:
    """HttpOptions arguments for the loopback glass box, which speaks plain HTTP.

    Left to itself, each new SDK client builds three TLS contexts and loads the system's certificate
    authorities into each: 0.16 s of every `connect()` (measured here, google-genai 3.6.1,
    2026-12-01), paid again by every agent run that connects. Given one, it builds none; over plain
    HTTP none is used.
    """
    tls = _unused_tls()
    return {
        "client_args": {"verify": tls, **(client_args or {})},
        "async_client_args": {"verify": tls, "ssl": tls, **(async_client_args or {})},
    }


def connect(retry_attempts: int | None = None) -> genai.Client:
    """A google-genai client: on the glass box offline, on Gemini when a key is set.

    `retry_attempts=1` turns the SDK's retries off, which tests of error paths want.
    """
    from harness import MODEL
    from harness.models import model_row

    if retry_attempts is not None:
        require_int("retry_attempts", retry_attempts, 1, 100)
    model_row(MODEL)  # an unknown WORKBOOK_MODEL is one clear error here, not a crash after a run
    retry = types.HttpRetryOptions(attempts=retry_attempts) if retry_attempts else None
    from harness.plumbing.recording import recording_setting

    setting = recording_setting()  # WORKBOOK_RECORDING=<mode>:<file>, or None
    # the recording answers, on the API version it was made on
    if setting and setting[0] == "replay":
        from harness.engine.server import ensure_replaying

        base_url, version = ensure_replaying(str(setting[1]))
        options = types.HttpOptions(
            base_url=base_url,
            api_version=version or "v1",
            retry_options=retry,
            timeout=GLASS_BOX_TIMEOUT_MS,
            **_plain_http(),
        )
        return genai.Client(api_key=OFFLINE_KEY, vertexai=False, http_options=options)
    # the HTTP clients' arguments that record, the file's version
    recording, async_recording, version = (
        {},
        {},
        None,
    )
    if setting:
        from harness.engine.replay import Replay
        from harness.plumbing.recording import recording_args

        replay = Replay(setting[1], missing_ok=True) if setting[0] == "auto" else None
        version = replay.api_version if replay else None  # auto asks on the paths the file holds
        # the sync and the aio client both
        recording, async_recording = recording_args(setting[1], replay)
    if is_offline():
        import harness.scenarios  # noqa: F401  (each scenario registers what the glass box knows of it)
        from harness.engine.server import ensure_running

        # Vertex mode would send the client elsewhere; the glass box speaks the Gemini API.
        os.environ.pop("GOOGLE_GENAI_USE_VERTEXAI", None)
        options = types.HttpOptions(
            base_url=ensure_running(),
            api_version=version or "v1beta",
            retry_options=retry,
            timeout=GLASS_BOX_TIMEOUT_MS,
            **_plain_http(recording, async_recording),
        )
        client = genai.Client(api_key=OFFLINE_KEY, vertexai=False, http_options=options)
        if not setting:  # the harness's own sessions may ask this glass box in-process
            from harness.plumbing.sessions_in_process import register

            register(client)
        return client
    options = (
        types.HttpOptions(
            retry_options=retry,
            client_args=recording or None,
            async_client_args=async_recording or None,
            api_version=version or None,
        )
        if retry or recording
        else None
    )
    return genai.Client(api_key=api_key(), vertexai=False, http_options=options)


def plain(contents: str | types.Content | list | tuple):
    """`contents` as the SDK's plain dicts (its documented `ContentDict` form): the same request on
    the wire.

    The SDK checks each `types.Content` it is given against every member of its union types,
    attribute by attribute: 40 ms for a 60-message history against 8 ms for the same messages as
    dicts (measured here with google-genai 3.6.1 on 2026-12-01). A session that re-sends its whole
    history every turn spent most of a lesson's time there on the glass box. A string or a lone
    Content goes as it is.
    """
    if isinstance(contents, (str, types.Content)):
        return contents
    require_list("contents", contents, "types.Content messages (or the SDK's dicts)")
    return [
        c.model_dump(exclude_none=True) if isinstance(c, types.Content) else c for c in contents
    ]


def mode_line() -> str:
    """The one line a lesson prints to say where its calls go (never the key)."""
    from harness import MODEL
    from harness.plumbing.recording import recording_setting

    setting = recording_setting()
    if setting and setting[0] == "replay":
        return f"Replay: calls are answered from the recording {setting[1]}, posing as {MODEL}."
    if is_offline():
        return (
            f"Offline: calls go to the glass-box model on loopback, posing as {MODEL}. No key, no"
            " network."
        )
    return (
        f"Online: calls go to Gemini ({MODEL}) with the key from your environment. They cost money."
    )
