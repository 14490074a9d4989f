"""The Gemini cookbook's text-only quickstart cells run against the glass box: how many come out
clean.

Prints, per edition, the count of cells that are clean / silent / 4xx / 5xx / client / crash, and
each cell that is not clean with its cause and the earlier cell it follows, if any. It is a
measurement, not a test (the cookbook is not part of the workbook, and its cells change). Two
editions, chosen by date from a clone of github.com/google-gemini/cookbook:

    june    the last commit before 2026-06-22 (generateContent, before the quickstarts moved to the
            Interactions API on 2026-06-23), with each notebook's model dropdown set to LIVE_MODEL
    august  the last commit (the Interactions API quickstarts; 2026-08-07 in the copy read here),
            run as shipped

Run: .venv/bin/python benchmarks/cookbook_counts.py [path/to/cookbook] [june|august ...] [--triage]
(--triage also writes benchmarks/cookbook_triage.md: each cell that is not clean, its cause and
whose fault it is, by the rules of benchmarks/cookbook_triage.py)

What runs: every code cell of quickstarts/*.ipynb outside the notebooks of SKIPPED_NOTEBOOKS (media,
live audio, files, OAuth, batch jobs: not text), less the cells whose code matches a MEDIA_MARKERS
pattern (media sent, received, opened or fetched; the Files or Live API), `%%` cell magics (curl and
shell), and the lines starting with `%` or `!` (installs) or importing PIL. Each notebook runs top
to bottom in a fresh IPython shell in its own process, offline, with `google.colab.userdata`
answering the glass box's key, `time.sleep` shortened (the glass box has no rate limit) and the
Gemini host rewritten to the glass box. A cell is

    clean    it ran, and printed something if the cookbook's saved output shows it printed
    silent   it ran, but printed nothing (or only "None") where the saved output shows more (and the
             cell's code can show something: see can_show)
    4xx/5xx  an API error of that class (the SDK's, or the openai SDK's)
    client   an exception before any request reached the glass box, raised by Python (a SyntaxError
             in the cookbook's cell) or inside google-genai or openai (the SDK refusing an argument,
             as `create() got unexpected keyword argument(s): config`): the cookbook's code fails
             on real Gemini too. The worker counts the requests the glass box serves during each cell.
             A NameError for a name that no earlier cell binds (the notebook defines it further down)
             is "client" too.
    crash    any other exception (a NameError after an earlier failure counts here too, and is
             counted apart as well)

The six classes cover every counted cell once, so they add up to the total.

Each NameError names the cell it follows (the last earlier cell binding the missing name, traced
back through NameErrors), and the report ends with those root cells and how many NameErrors each
caused; a silent or crashed cell names the earlier failed cell whose name it read
(benchmarks/cookbook_triage.py).

A cell whose import fails (ModuleNotFoundError: pandas, sklearn... that the notebook's `%pip` line
would install) is listed but not counted.
"""

import ast
import datetime
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from cookbook_triage import Cell, report_of, root_of, write_triage

from harness.models import DEFAULT_MODEL, UnknownModel, model_row

LIVE_MODEL = (
    DEFAULT_MODEL  # the current Flash (harness/models.py); what a text-model dropdown is set to
)
DEFAULT_CLONE = Path("/work/.mirror/google-gemini+cookbook/repo")
EDITIONS = {"june": "2026-06-22", "august": None}  # None: the last commit
CELL_SECONDS = (
    30  # a cell still running after this is a crash (the glass box answers in milliseconds)
)
NOTEBOOK_SECONDS = 300
CLASSES = ("clean", "silent", "4xx", "5xx", "client", "crash")  # every counted cell is one of these
# Google's hosted agents, not a model's text
SKIPPED_NOTEBOOKS = (
    "Audio",
    "Video",
    "Image",
    "imagen",
    "Veo",
    "TTS",
    "Lyria",
    "LiveAPI",
    "LiveTranslate",
    "Spatial",
    "Nano_Banana",
    "PDF",
    "File_API",
    "File_Search",
    "robotics",
    "Omni",
    "Authentication_with_OAuth",
    "Batch_mode",
    "Webhooks",
    "Template",
    "New_in_002",  # the retired google-generativeai SDK
    "Deep_Research",
    "managed_agents",
)
# A cell is left out when its code shows it sends, receives, opens or fetches media, or uses the
# Files or Live API (what the glass box does not serve); each pattern with what it shows. They match
# code, not names: `image_bytes` is media, an innocent `image_count` or the word "video" in a prompt
# is not.
MEDIA_MARKERS = (
    (r"\bImage\.open\(|\bPIL\.Image\b", "opens an image"),
    (r"\.(jpe?g|png|gif|webp|svg|mp3|wav|ogg|mp4|mov|pdf)\b", "names a media file"),
    (r"\bfiles\.\w+\(|colab import files|\w*file_id\b", "uses the Files API"),
    (r"\b(from_uri|file_uri|FileData|file_data)\b", "sends a file by URI"),
    (
        r"(mime_type|mimeType)['\"]?\s*[=:]\s*['\"](image|audio|video|application/pdf)",
        "sends image, audio, video or PDF bytes",
    ),
    (
        r"\b(image|audio|video|img)_?(bytes|data|file|files|path|url|urls|filename|sample)\b|\b\w+_(pdfs?|images?|imgs?|audios?|videos?)\b",
        "holds media",
    ),
    (
        r"['\"]type['\"]\s*:\s*['\"](image|audio|video|document)['\"]",
        "sends media to the Interactions API",
    ),
    (r"\boutput_image\b|\bas_image\(|response_modalities|-image['\"]|imagen", "generates images"),
    (r"\b(Audio|Video)\(|display\(Image\(filename", "plays or shows a media file"),
    (r"\.live\.|native-audio|LiveConnectConfig", "uses the Live API"),
    (r"\bwget\b|\bcurl |urllib\.request|requests\.get\(", "downloads a file"),
)
# NOTE: a URL given to the url_context tool is text the model is asked to fetch, so in such a cell a
# media file name inside a URL does not leave it out (the cell then meets the tool's 400, as
# counted).
URL_CONTEXT = "url_context"
# Lines dropped from every cell, as the install lines are: the cell keeps its other imports (json,
# display), and a cell that then uses PIL is left out by the patterns above.
DROPPED_LINES = re.compile(r"^\s*(%|!|import PIL\b|from PIL\b)")
GEMINI_HOST = "https://generativelanguage.googleapis.com"
TRIAGE_FLAG = "--triage"  # also write the table of the cells that are not clean
TRIAGE = Path(__file__).with_name("cookbook_triage.md")
# What a Gemini model id says when the model does not answer text with text (cookbook dropdowns,
# 2026).
NON_TEXT_MODELS = (
    "embedding",
    "image",
    "imagen",
    "veo",
    "live",
    "tts",
    "audio",
    "lyria",
    "robotics",
)


def edition_commit(clone: Path, before: str | None) -> str:
    args = (
        ["git", "-C", str(clone), "rev-list", "-1"]
        + ([f"--before={before}"] if before else [])
        + ["HEAD"]
    )
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()


def notebooks(clone: Path, commit: str) -> tuple[dict[str, dict], list[str]]:
    """The notebooks counted, and the names of those the clone lists but does not hold (a snapshot
    may leave its largest files out)."""
    names = subprocess.run(
        ["git", "-C", str(clone), "ls-tree", "--name-only", commit, "quickstarts/"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    found, absent = {}, []
    for name in names:
        if name.endswith(".ipynb") and not any(skip in name for skip in SKIPPED_NOTEBOOKS):
            raw = subprocess.run(
                ["git", "-C", str(clone), "show", f"{commit}:{name}"], capture_output=True
            )
            if raw.returncode:
                absent.append(Path(name).stem)
            else:
                found[name] = json.loads(raw.stdout)
    return found, absent


def printed(outputs: list) -> str:
    """The text a cell's saved outputs show (stdout and displays; the worker captures no stderr
    either)."""
    texts = []
    for output in outputs:
        data = output.get("data") or {}
        if output.get("name") == "stderr":
            # a warning the SDK logged (as "Both GOOGLE_API_KEY and GEMINI_API_KEY are set"), not
            # output
            continue
        text = output.get("text") or data.get("text/markdown") or data.get("text/plain") or ""
        texts.append("".join(text) if isinstance(text, list) else text)
    return "".join(texts).strip()


def can_show(code: str) -> bool:
    """Whether the code, as the worker runs it, could show anything: it calls something that
    prints or displays (or runs code: exec), or ends on an expression. When it cannot, its saved
    output came from a line the count dropped (`!wget` prints its progress) or from an older
    version of the cell (August JSON_mode 24 shows JSON but only defines a class), so the cell is
    not expected to print."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return True  # the worker reports the SyntaxError itself
    shows = any(
        isinstance(node, ast.Call) and any(word in _called(node).lower() for word in SHOWING)
        for node in ast.walk(tree)
    )
    return shows or bool(tree.body and isinstance(tree.body[-1], ast.Expr))


def _called(call: ast.Call) -> str:
    """The name a call calls: `print` for print(...), `show` for fig.show(...), "" for f()()."""
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None) or ""


def runnable(source: str, set_model: bool) -> str:
    """The cell's Python as the worker runs it: less install lines, on the glass box's host."""
    lines = [line for line in source.splitlines() if not DROPPED_LINES.match(line)]
    code = "\n".join(lines).replace(GEMINI_HOST, "{GLASS_BOX}")
    if set_model:
        code = "\n".join(on_live_model(line) for line in code.splitlines())
    return code


def on_live_model(line: str) -> str:
    """The line with its model dropdown set to LIVE_MODEL, when it is a dropdown of text models.

    `MODEL_ID = "gemini-3.5-flash" # @param ["gemini-2.5-flash", ...]` becomes `MODEL_ID =
    "gemini-3.8-flash"`. A dropdown whose default is a model of another kind (its id says embedding,
    image, live, audio...: NON_TEXT_MODELS) stays on its default: a text model there is the
    benchmark's mistake, not the cookbook's. A text model the workbook has no row for (LearnLM) is
    set, as a student picking a live model in that dropdown would.
    """
    name, _, rest = line.partition("=")
    if "@param" not in rest or "MODEL" not in name:
        return line
    default = rest.split("#")[0].strip().strip("\"'")
    try:
        model_row(default)  # a row of harness/models.py: a text model
    except UnknownModel:
        if any(kind in default for kind in NON_TEXT_MODELS):
            return line
    return f'{name}= "{LIVE_MODEL}"'


# The worker: one notebook's cells in one IPython shell, one JSON line per cell on stdout.
WORKER = r"""
import json, os, signal, sys, time, traceback, types
os.environ["WORKBOOK_OFFLINE"] = "1"
from harness.plumbing.client import OFFLINE_KEY
from harness.engine.server import ensure_running
base = ensure_running()
# Count the requests the glass box serves, so a cell the SDK refuses before sending anything is told
# apart from one the glass box answered wrongly (the server calls `answer` once per HTTP request).
from harness.engine import server as glass_box_server
served = [0]
the_server = glass_box_server._servers[""]
def counted(*request, answer=the_server.answer):
    served[0] += 1
    return answer(*request)
the_server.answer = counted
os.environ.update(GOOGLE_GEMINI_BASE_URL=base, GOOGLE_API_KEY=OFFLINE_KEY, GEMINI_API_KEY=OFFLINE_KEY)
colab = types.ModuleType("google.colab"); colab.userdata = types.SimpleNamespace(get=lambda name: OFFLINE_KEY)
sys.modules["google.colab"] = colab
real_sleep = time.sleep
time.sleep = lambda seconds: real_sleep(min(seconds, 0.01))
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
shell = InteractiveShell.instance()
# What a notebook's import cell would give, where that cell is left out for also importing PIL.
shell.run_cell("from IPython.display import HTML, Image, Markdown, display")
def timed_out(*_):
    raise TimeoutError("cell still running after %d s")
signal.signal(signal.SIGALRM, timed_out)
SDK_FOLDERS = (os.sep.join(("", "google", "genai", "")), os.sep.join(("", "openai", "")))
for line in sys.stdin:
    cell = json.loads(line)
    signal.alarm(cell["seconds"])
    served[0] = 0
    with capture_output() as seen:
        result = shell.run_cell(cell["code"].replace("{GLASS_BOX}", base), silent=False)
    signal.alarm(0)
    error = result.error_in_exec or result.error_before_exec
    text = (seen.stdout + "".join(str(o.data.get("text/plain", "")) + str(o.data.get("text/markdown", ""))
                                  for o in seen.outputs)).strip()
    codes = [getattr(error, name, None) for name in ("code", "status_code")]
    # Whether the exception came from inside a client SDK (google-genai or openai), not from the cell's
    # own code or a library the cell called itself (pydantic reading an earlier answer is the answer's fault).
    frames = traceback.extract_tb(error.__traceback__) if error is not None else []
    in_sdk = any(sdk in frame.filename for frame in frames for sdk in SDK_FOLDERS)
    print(json.dumps({"error": f"{type(error).__name__}: {str(error)[:160]}" if error else None,
                      "code": next((c for c in codes if isinstance(c, int)), None), "printed": text[:300],
                      "requests": served[0], "before_exec": result.error_before_exec is not None,
                      "in_sdk": in_sdk}), flush=True)
"""


def classify(report: dict, saved: str) -> str:
    if (report["error"] or "").startswith("ModuleNotFoundError"):
        return (  # a library the notebook's %pip line installs (pandas, sklearn...): not counted
            "package"
        )
    if report["error"]:
        code = report["code"] or 0
        if 400 <= code < 600:
            return "4xx" if code < 500 else "5xx"
        if not report["requests"] and (report["before_exec"] or report["in_sdk"]):
            return (  # refused by Python or the SDK before any request: it fails on Gemini too
                "client"
            )
        return "crash"
    if saved not in ("", "None") and report["printed"] in ("", "None"):
        return "silent"
    return "clean"


def left_out_because(source: str) -> str:
    """Why the count leaves the cell out ("" when it runs)."""
    if source.lstrip().startswith("%%"):
        return "a %% cell magic (shell or curl)"
    code = "\n".join(line for line in source.splitlines() if not DROPPED_LINES.match(line))
    scanned = re.sub(r"https?://\S+", "", code) if URL_CONTEXT in code else code
    for pattern, what in MEDIA_MARKERS:
        if found := re.search(pattern, scanned):
            return f"{what} ({found.group(0)!r})"
    return "" if code.strip() else "only install or shell lines"


def run_notebook(notebook: dict, set_model: bool) -> list[Cell]:
    """Every code cell of the notebook, run or left out, in order."""
    cells = [
        Cell(i, "".join(c.get("source", "")), "left out", "")
        for i, c in enumerate(notebook.get("cells", []))
        if c.get("cell_type") == "code"
    ]
    saved = {i: printed(c.get("outputs") or []) for i, c in enumerate(notebook.get("cells", []))}
    runs = []
    for cell in cells:
        cell.detail = left_out_because(cell.source)
        if not cell.detail:
            runs.append((cell, runnable(cell.source, set_model)))
    if not runs:
        return cells
    stdin = "".join(json.dumps({"code": code, "seconds": CELL_SECONDS}) + "\n" for _, code in runs)
    try:
        done = subprocess.run(
            [sys.executable, "-c", WORKER],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=NOTEBOOK_SECONDS,
            cwd=Path(__file__).resolve().parents[1],
        )
        reports = [
            json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"error"')
        ]
    except subprocess.TimeoutExpired:
        reports = []
    for position, (cell, _) in enumerate(runs):
        if position < len(reports):
            report = reports[position]
            expected = saved[cell.index] if can_show(runnable(cell.source, set_model)) else ""
            cell.outcome = classify(report, expected)
            cell.detail = report["error"] or report["printed"][:80]
        else:
            cell.outcome, cell.detail = "crash", "the notebook's process ended before this cell"
    for position, cell in enumerate(cells):
        if (
            cell.outcome == "crash"
            and cell.detail.startswith("NameError")
            and root_of(cells, position) is None
        ):
            # No earlier cell binds the name: the notebook uses it before it defines it (its saved
            # output came from running the cells out of order), so it fails on real Gemini too.
            cell.outcome = "client"
    return cells


# Words in the name of a call that prints or displays something in a notebook (print, pprint,
# display, fig.show, the cookbook's own show_parts or display_code_execution_result, exec of
# generated code).
SHOWING = ("print", "display", "show", "markdown", "html", "write", "exec", "eval")


def main(argv: list[str]) -> None:
    triage = TRIAGE if TRIAGE_FLAG in argv else None
    argv = [arg for arg in argv if arg != TRIAGE_FLAG]
    clone = Path(argv[0]) if argv and argv[0] not in EDITIONS else DEFAULT_CLONE
    wanted = [name for name in argv if name in EDITIONS] or list(EDITIONS)
    ran, headlines = {}, []
    for edition in wanted:
        commit = edition_commit(clone, EDITIONS[edition])
        counts, misses, roots = Counter(), [], Counter()
        held, absent = notebooks(clone, commit)
        ran[edition] = {}
        for name, notebook in held.items():
            cells = ran[edition][Path(name).stem] = run_notebook(
                notebook, set_model=edition == "june"
            )
            for position, cell in enumerate(cells):
                counts[cell.outcome] += 1
                if cell.outcome == "crash" and cell.detail.startswith("NameError"):
                    counts["after"] += (
                        1  # a NameError follows an earlier cell that failed or was left out
                    )
                    root = root_of(cells, position)
                    roots[
                        (
                            f"{Path(name).stem} cell {root.index} ({root.outcome}:"
                            f" {root.detail[:60]})"
                            if root
                            else f"{Path(name).stem}: no earlier cell binds the name"
                        )
                    ] += 1
            misses += report_of(cells, Path(name).stem)
        total = sum(counts[kind] for kind in CLASSES)
        headlines.append(
            f"{edition} edition ({commit[:8]}): {counts['clean']} of {total} clean, "
            f"{counts['silent']} silent, {counts['4xx']} 4xx, {counts['5xx']} 5xx, "
            f"{counts['client']} client, {counts['crash']} crash"
        )
        print(
            f"{headlines[-1]} ({counts['after']} of them a NameError after an earlier cell failed"
            f" or was left out); {counts['package']} cells not counted (they import a package the"
            f" workbook does not install), {counts['left out']} code cells left out"
        )
        if absent:
            print(f"  not in this copy of the cookbook, so not run: {', '.join(absent)}")
        print("\n".join(misses))
        print(f"  the cells the {counts['after']} NameErrors follow:")
        print("\n".join(f"    {count:2} after {root}" for root, count in roots.most_common()))
    if triage:
        write_triage(
            triage,
            ran,
            "# The cookbook's cells that are not clean on the glass box\n\nWritten by "
            f"`benchmarks/cookbook_counts.py {TRIAGE_FLAG}` on {datetime.date.today()}: "
            + "; ".join(headlines)
            + ". Class, cause and whose fault come from the rules of "
            "benchmarks/cookbook_triage.py; the notes below the table are written by hand.",
        )
        print(f"triage written to {triage}")


if __name__ == "__main__":
    main(sys.argv[1:])
