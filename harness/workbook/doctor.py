"""`workbook doctor`: check a machine (or a hub's student server) before class, in a few lines.

    $ workbook doctor
    ok  model       gemini-3.8-flash: live, prices and limits as of 2026-12-01
    ok  mode        Offline: calls go to the glass-box model on loopback, posing as gemini-3.8-flash. No key, no network.
    ok  key         none found (GOOGLE_API_KEY, GEMINI_API_KEY or .env here): the lessons run offline
    ok  glass box   answered one call in 0.14 s (51 tokens)
    ok  commands    the agent's commands run with no network, in a jail (the task's folder and Python only)
    ok  jupyterlab  4.6.6 serves /lab (started in 4.8 s); widgets: ipywidgets, plotly; news toast off
    ok  lesson 00   00_first_call.ipynb ran headless in 3.5 s here (offline; checks reported: 1)

The first line says whether WORKBOOK_MODEL is in the workbook's table (harness/models.py) and open
to new keys: an id the table lacks stops the report there, not as "could not reach Gemini"; a model
closed to new keys is a warning that names its replacements; an id Gemini has shut down (a 404
everywhere) or an embedding model stops the report too, naming what to set instead; a `-latest`
alias (v1beta only) is one too, which fails the line when the calls would go online. With a key it
also asks Gemini: `models.get` for the model and one tiny call. A 404 ("no longer available to new
users") names the models open to new keys from harness/models.py; a network failure says to set
WORKBOOK_OFFLINE=1. The key itself is never printed. The SDK's own `GOOGLE_GEMINI_BASE_URL` points
the online checks at another server (the tests use a fake Gemini on loopback). `--quick` skips
starting JupyterLab and running lesson 00. Exit status 1 when a line is not ok.
"""  # noqa: E501

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from harness.plumbing.client import connect, is_offline, mode_line
from harness.plumbing.keys import KEY_VARIABLES, api_key, dotenv_path, read_dotenv
from harness.workbook import LESSONS, LessonsNotFound, find_workbook

# Front-end name -> its labextension folder. Without plotly's, a panel's chart shows as the line
# "plotly chart: N trace(s)" (harness/widgets/chart.py).
WIDGET_EXTENSIONS = {
    "ipywidgets": "@jupyter-widgets/jupyterlab-manager",
    "plotly": "jupyterlab-plotly",
}
LAB_START_SECONDS = 60
PING = "Reply with the single word OK."
NOT_IN_TABLE = "is not in the workbook's table (harness/models.py)"


def key_line() -> tuple[bool, str]:
    """Where the key comes from (never its value)."""
    dotenv = read_dotenv()
    for name in KEY_VARIABLES:
        if os.environ.get(name) or dotenv.get(name):
            where = "the environment" if os.environ.get(name) else f"{dotenv_path()}"
            return True, f"found: {name} from {where} (not shown)"
    return True, f"none found ({', '.join(KEY_VARIABLES)} or .env here): the lessons run offline"


@contextmanager
def _offline():
    """The glass box whatever keys are set, for this block only."""
    before = os.environ.get("WORKBOOK_OFFLINE")
    os.environ["WORKBOOK_OFFLINE"] = "1"
    try:
        yield
    finally:
        (
            os.environ.pop("WORKBOOK_OFFLINE")
            if before is None
            else os.environ.update(WORKBOOK_OFFLINE=before)
        )


def glass_box_line() -> tuple[bool, str]:
    from harness import MODEL

    with _offline():
        start = time.perf_counter()
        try:
            # kept in a name: a dropped client closes its connection
            client = connect(retry_attempts=1)
            reply = client.models.generate_content(model=MODEL, contents=PING)
        except Exception as error:  # the report must go on: say what broke
            return (
                False,
                f"does not answer: {type(error).__name__}: {str(error).splitlines()[0][:160]}",
            )
    return (
        True,
        (
            f"answered one call in {time.perf_counter() - start:.2f} s"
            f" ({reply.usage_metadata.total_token_count} tokens)"
        ),
    )


def model_line() -> tuple[bool, str]:
    """Whether WORKBOOK_MODEL is a row of the workbook's table, and whether a new key may call
    it. A model the table lacks is said here, so the Gemini line never blames the network for it."""
    from harness import MODEL
    from harness.models import (
        EMBEDDING_MODELS,
        LATEST,
        ROUTED,
        SHUT_DOWN,
        UnknownModel,
        legacy_models_allowed,
        live_models,
        model_row,
    )

    name = MODEL.removeprefix("models/")
    if name in SHUT_DOWN:  # said apart from a typo: the id was real, and what replaced it is known
        day, replacement, _ = SHUT_DOWN[name]
        return (
            False,
            (
                f"{name!r} {NOT_IN_TABLE}: Gemini shut it down on {day}, and every call to it is a"
                f" 404, online and offline. Set WORKBOOK_MODEL={replacement}"
            ),
        )
    if name in EMBEDDING_MODELS:
        return (
            False,
            (
                f"{name!r} {NOT_IN_TABLE} of models that generate: it is an embedding model, and"
                " the lessons generate text. Set WORKBOOK_MODEL to one of"
                f" {', '.join(live_models())}"
            ),
        )
    try:
        row = model_row(MODEL)
    except UnknownModel as error:
        return False, f"{MODEL!r} {NOT_IN_TABLE}. {error}"
    if name in ROUTED:
        return (
            True,
            (
                f"{name} is deprecated: Gemini answers it with {row.id} (the reply's model_version"
                f" says so); set WORKBOOK_MODEL={row.id}"
            ),
        )
    if name in LATEST:
        # The SDK (google-genai >= 3.0) calls v1 unless told otherwise, and the aliases live on
        # v1beta only: offline the glass box speaks v1beta and answers, online Gemini says 404.
        said = (
            f"{name} is an alias Gemini serves on v1beta only (today {row.id}); the workbook calls"
            f" v1 online, where it is a 404: set WORKBOOK_MODEL={row.id}"
        )
        return is_offline(), said if not is_offline() else f"{said} before you go online"
    if not row.open_to_new_keys:
        warning = (
            f"{row.id} is closed to new keys (Gemini's 404: no longer available to new users); use "
            f"{replacements(row.id)}"
        )
        if legacy_models_allowed():
            return True, f"{warning}. WORKBOOK_LEGACY_MODELS=1 says this project still has it"
        return (
            False,
            (
                f"{warning}, or set WORKBOOK_LEGACY_MODELS=1 if your project used it before"
                " September 2026"
            ),
        )
    return True, f"{row.id}: {row.status}, prices and limits as of {row.as_of}"


def replacements(model: str) -> str:
    """What to use instead of `model`: its row's replacement first, then the live models."""
    from harness.models import live_models, model_row

    row_says = [model_row(model).replacement] if model_row(model).replacement else []
    return ", ".join(dict.fromkeys(row_says + live_models()))


def gemini_line() -> tuple[bool, str]:
    """Online only: `models.get` and one tiny call, each failure named with what to do."""
    from google.genai import errors

    from harness import MODEL

    start = time.perf_counter()
    try:
        client = connect(retry_attempts=1)
        limit = client.models.get(model=MODEL).input_token_limit
        reply = client.models.generate_content(model=MODEL, contents=PING)
    except errors.APIError as error:
        said = (error.message or str(error)).split("\n")[0][:200]
        if error.code == 404:
            return (
                False,
                (
                    f"Gemini does not serve {MODEL} to this key (404: {said}). Models open to new"
                    f" keys: {replacements(MODEL)}. Set WORKBOOK_MODEL to one of them."
                ),
            )
        if error.code in (400, 401, 403) and "key" in said.lower():
            return (
                False,
                (
                    f"Gemini refused the key ({error.code}: {said}). Check it, or set"
                    " WORKBOOK_OFFLINE=1."
                ),
            )
        return (
            False,
            f"Gemini answered {error.code}: {said}. For the offline mode set WORKBOOK_OFFLINE=1.",
        )
    # DNS, refused, TLS, timeout: the transport's classes vary with the SDK's version
    except Exception as error:
        return (
            False,
            (
                f"could not reach Gemini ({type(error).__name__}: {str(error)[:120]}). "
                "For the offline mode set WORKBOOK_OFFLINE=1."
            ),
        )
    return (
        True,
        (
            f"{MODEL} answered in {time.perf_counter() - start:.1f} s "
            f"(input limit {limit} tokens, {reply.usage_metadata.total_token_count} tokens used)"
        ),
    )


def _labextensions() -> set[str]:
    from jupyter_core.paths import jupyter_path

    found = set()
    for folder in map(Path, jupyter_path("labextensions")):
        found |= {
            name
            for name, ext in WIDGET_EXTENSIONS.items()
            if (folder / ext / "package.json").is_file()
        }
    return found


def _news_toast_off() -> bool:
    from jupyter_core.paths import jupyter_path

    files = [Path(sys.prefix, "share", "jupyter", "lab", "settings", "overrides.json")]
    files += [Path(folder, "overrides.json") for folder in jupyter_path("lab", "settings")]
    return any(
        f.is_file() and '"fetchNews": "false"' in f.read_text(encoding="utf-8") for f in files
    )


def _serves_lab() -> float:
    """Start `jupyter lab` on a free loopback port, fetch /lab, stop it; the seconds it took."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = os.urandom(8).hex()
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        "--allow-root",
    ]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - start < LAB_START_SECONDS:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/lab?token={token}", timeout=5
                ) as page:
                    if page.status == 200 and b"JupyterLab" in page.read():
                        return time.perf_counter() - start
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(f"jupyter lab exited with status {process.returncode}")
                time.sleep(0.3)
        raise TimeoutError(f"no /lab page within {LAB_START_SECONDS} s")
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def jupyterlab_line(quick: bool) -> tuple[bool, str]:
    try:
        import jupyterlab
    except ImportError:
        return False, "not installed: run `make setup` (or pip install the workbook)"
    extensions = _labextensions()
    missing = sorted(set(WIDGET_EXTENSIONS) - extensions)
    parts = [jupyterlab.__version__]
    ok = not missing
    if not quick:
        try:
            parts[0] += f" serves /lab (started in {_serves_lab():.1f} s)"
        except (RuntimeError, TimeoutError, OSError) as error:
            ok, parts[0] = False, parts[0] + f" does not start: {error}"
    parts.append(
        "widgets: "
        + ", ".join(sorted(extensions))
        + (
            f"; MISSING {', '.join(missing)} "
            "(reinstall: pip install --force-reinstall ipywidgets plotly)"
            if missing
            else ""
        )
    )
    toast_off = _news_toast_off()
    parts.append(
        "news toast off"
        if toast_off
        else (
            "news toast ON: copy jupyter/overrides.json to"
            f" {Path(sys.prefix, 'share/jupyter/lab/settings')}/"
        )
    )
    return ok and toast_off, "; ".join(parts)


def lesson_line() -> tuple[bool, str]:
    """Run lesson 00 headless on the glass box (a copy; the student's file is untouched) and time
    it."""
    from harness.workbook.check import find_lesson
    from harness.workbook.runner import run_notebooks

    try:
        folder = find_workbook().lessons
    except LessonsNotFound:
        folder = LESSONS
    try:
        lesson = find_lesson("00", folder)
    except LookupError as error:
        return False, str(error)
    start = time.perf_counter()
    results = run_notebooks({lesson.stem: lesson}, cell_timeout=120, offline=True, expected={})
    seconds = time.perf_counter() - start
    broken = [r for r in results if r.status in ("error", "missing")]
    if broken:
        return (
            False,
            (
                f"{lesson.name} did not run cleanly in {seconds:.1f} s:"
                f" {broken[0].message.splitlines()[0][:160]}"
            ),
        )
    return (
        True,
        (
            f"{lesson.name} ran headless in {seconds:.1f} s here (offline; checks reported:"
            f" {len(results)})"
        ),
    )


def commands_line() -> tuple[bool, str]:
    """Whether the agent's commands run in a jail here (harness.plumbing.jail; lesson 04, the
    tools)."""
    from harness.tools import UNJAILED_SWITCH, jail_mode

    if jail_mode():
        return (
            True,
            (
                "the agent's commands run with no network, in a jail (the task's folder and Python"
                " only)"
            ),
        )
    return (
        False,
        (
            "the agent's commands cannot be jailed here (not Linux, or no user namespaces): they"
            f" are refused unless you set {UNJAILED_SWITCH}=1; see lesson 04, the tools"
        ),
    )


def report(quick: bool = False):
    """Yield (label, ok, text) for each line of the doctor's report, as each check finishes."""
    known, said = model_line()
    yield "model", known, said
    if NOT_IN_TABLE in said:  # every later line would fail on the same unknown id
        return
    checks = [("mode", lambda: (True, mode_line())), ("key", key_line)]
    checks += [("gemini", gemini_line)] if not is_offline() else []
    checks += [
        ("glass box", glass_box_line),
        ("commands", commands_line),
        ("jupyterlab", lambda: jupyterlab_line(quick)),
    ]
    checks += [("lesson 00", lesson_line)] if not quick else []
    for label, run in checks:
        yield (label, *run())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="workbook doctor", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="skip starting JupyterLab and running lesson 00"
    )
    args = parser.parse_args(argv)
    from harness.workbook.runner import redact

    key, all_ok = api_key(), True
    for label, ok, text in report(args.quick):
        all_ok &= ok
        print(
            f"{'ok' if ok else '!!'}  {label:<10} "
            f" {redact(text.replace(key, '[key hidden]') if key else text)}",
            flush=True,
        )
    return 0 if all_ok else 1
