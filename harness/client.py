"""One way to get a model: `connect()` returns a real `google.genai.Client`.

Offline (no key, or WORKBOOK_OFFLINE=1) the client talks to the glass-box engine on loopback;
with GEMINI_API_KEY or GOOGLE_API_KEY set it talks to Gemini. WORKBOOK_RECORDING=record:<file> also
writes every exchange to a JSONL file, replay:<file> answers from such a file instead, auto:<file>
answers from it what it holds and records the rest (http_recording.py).
Lessons never branch on the mode: the same cells run on all of them. The key is read from the environment or a `.env` file and never
printed, logged or stored.
"""
import functools
import os
import re
import ssl
from pathlib import Path

from google import genai
from google.genai import types

from harness.arguments import require_instance, require_int, require_list

KEY_VARIABLES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")  # the SDK prefers GOOGLE_API_KEY: so do we
KEY_SHAPE = re.compile(r"AIza[0-9A-Za-z_-]{35}")  # what a Google API key looks like, to hide it
OFFLINE_KEY = "glass-box-offline"  # what the SDK sends to the engine; the engine ignores it


# A loopback answer takes milliseconds; one that has not come in two minutes never will, and a
# cell that says so beats a notebook stuck at [*] (the SDK's own default is to wait for ever).
GLASS_BOX_TIMEOUT_MS = 120_000


def _is_project_root(folder: Path) -> bool:
    """The workbook's top folder: the one that holds lessons/ (a student's copy) or pyproject.toml."""
    return (folder / "lessons").is_dir() or (folder / "pyproject.toml").is_file()


def dotenv_path(start: Path | None = None) -> Path | None:
    """The .env that counts: in the current folder, else in the folders above it up to the project's top
    (kernels run in lessons/, and the README puts .env at the top). Outside a project only the current
    folder counts, so a stray .env in a home folder is never read."""
    if start is not None:
        require_instance("start", start, Path, "a folder as a pathlib.Path")
    here = (start or Path.cwd()).resolve()
    root = next((folder for folder in (here, *here.parents) if _is_project_root(folder)), here)
    chain = [here, *here.parents]
    for folder in chain[:chain.index(root) + 1]:
        if (folder / ".env").is_file():
            return folder / ".env"
    return None


def _read_dotenv(path: Path | None = None) -> dict:
    """KEY=VALUE lines of the project's .env file (see dotenv_path), if there is one."""
    path = path or dotenv_path()
    if path is None or not path.is_file():
        return {}
    pairs = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        name, sep, value = line.strip().partition("=")
        if sep and not name.startswith("#"):
            pairs[name.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return pairs


def api_key() -> str | None:
    """The Gemini key from the environment, else from .env; None when there is none."""
    dotenv = _read_dotenv()
    for name in KEY_VARIABLES:
        value = os.environ.get(name) or dotenv.get(name)
        if value:
            return value
    return None


def is_offline() -> bool:
    """True when lessons run on the glass box: no key, or WORKBOOK_OFFLINE set to 1."""
    return os.environ.get("WORKBOOK_OFFLINE", "") not in ("", "0") or api_key() is None


def start_cold() -> bool:
    """Offline, make the glass box forget earlier requests, so a measurement does not depend on
    what ran before it (True). Online there is nothing to clear: Gemini's cache is not ours (False)."""
    if not is_offline():
        return False
    from harness.engine.cache import reset_implicit_cache

    reset_implicit_cache()
    return True


@functools.cache
def _unused_tls() -> ssl.SSLContext:
    """A TLS context with no certificate authority loaded: it verifies nothing, so it trusts nothing."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _plain_http(client_args: dict | None = None, async_client_args: dict | None = None) -> dict:
    """HttpOptions arguments for the loopback glass box, which speaks plain HTTP.

    Left to itself, each new SDK client builds three TLS contexts and loads the system's certificate
    authorities into each: 0.16 s of every `connect()` (measured here, google-genai 3.6.1, 2026-12-01),
    paid again by every agent run that connects. Given one, it builds none; over plain HTTP none is used.
    """
    tls = _unused_tls()
    return {"client_args": {"verify": tls, **(client_args or {})},
            "async_client_args": {"verify": tls, "ssl": tls, **(async_client_args or {})}}


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
    from harness.http_recording import recording_setting

    setting = recording_setting()  # WORKBOOK_RECORDING=<mode>:<file>, or None
    if setting and setting[0] == "replay":  # the recording answers, on the API version it was made on
        from harness.engine.server import ensure_replaying

        base_url, version = ensure_replaying(str(setting[1]))
        options = types.HttpOptions(base_url=base_url, api_version=version or "v1", retry_options=retry,
                                    timeout=GLASS_BOX_TIMEOUT_MS, **_plain_http())
        return genai.Client(api_key=OFFLINE_KEY, vertexai=False, http_options=options)
    recording, async_recording, version = {}, {}, None  # the HTTP clients' arguments that record, the file's version
    if setting:
        from harness.engine.replay import Replay
        from harness.http_recording import recording_args

        replay = Replay(setting[1], missing_ok=True) if setting[0] == "auto" else None
        version = replay.api_version if replay else None  # auto asks on the paths the file holds
        recording, async_recording = recording_args(setting[1], replay)  # the sync and the aio client both
    if is_offline():
        import harness.scenarios  # noqa: F401  (each scenario registers what the glass box knows of it)
        from harness.engine.server import ensure_running

        # Vertex mode would send the client elsewhere; the glass box speaks the Gemini API.
        os.environ.pop("GOOGLE_GENAI_USE_VERTEXAI", None)
        options = types.HttpOptions(base_url=ensure_running(), api_version=version or "v1beta", retry_options=retry,
                                    timeout=GLASS_BOX_TIMEOUT_MS, **_plain_http(recording, async_recording))
        return genai.Client(api_key=OFFLINE_KEY, vertexai=False, http_options=options)
    options = (types.HttpOptions(retry_options=retry, client_args=recording or None,
                                 async_client_args=async_recording or None, api_version=version or None)
               if retry or recording else None)
    return genai.Client(api_key=api_key(), vertexai=False, http_options=options)


def plain(contents: str | types.Content | list | tuple):
    """`contents` as the SDK's plain dicts (its documented `ContentDict` form): the same request on the wire.

    The SDK checks each `types.Content` it is given against every member of its union types, attribute
    by attribute: 40 ms for a 60-message history against 8 ms for the same messages as dicts (measured
    here with google-genai 3.6.1 on 2026-12-01). A session that re-sends its whole history every turn
    spent most of a lesson's time there on the glass box. A string or a lone Content goes as it is.
    """
    if isinstance(contents, (str, types.Content)):
        return contents
    require_list("contents", contents, "types.Content messages (or the SDK's dicts)")
    return [c.model_dump(exclude_none=True) if isinstance(c, types.Content) else c for c in contents]


def mode_line() -> str:
    """The one line a lesson prints to say where its calls go (never the key)."""
    from harness import MODEL
    from harness.http_recording import recording_setting

    setting = recording_setting()
    if setting and setting[0] == "replay":
        return f"Replay: calls are answered from the recording {setting[1]}, posing as {MODEL}."
    if is_offline():
        return f"Offline: calls go to the glass-box model on loopback, posing as {MODEL}. No key, no network."
    return f"Online: calls go to Gemini ({MODEL}) with the key from your environment. They cost money."
