"""Where the Gemini key comes from: the environment, else the project's `.env`; never printed.

The SDK prefers GOOGLE_API_KEY to GEMINI_API_KEY, and so do we. A `.env` counts in the current
folder or a folder above it up to the project's top (kernels run in lessons/, the README puts `.env`
at the top); outside a project only the current folder's counts, so a stray `.env` in a home folder
is never read. The client (`client.py`) asks for the key here, and the redactor (`redaction.py`)
hides it.
"""

import os
import re
from pathlib import Path

from harness.plumbing.arguments import require_instance

KEY_VARIABLES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")  # the SDK prefers GOOGLE_API_KEY: so do we
KEY_SHAPE = re.compile(r"AIza[0-9A-Za-z_-]{35}")  # what a Google API key looks like, to hide it


def _is_project_root(folder: Path) -> bool:
    """The workbook's top folder: the one that holds lessons/ (a student's copy) or
    pyproject.toml."""
    return (folder / "lessons").is_dir() or (folder / "pyproject.toml").is_file()


def dotenv_path(start: Path | None = None) -> Path | None:
    """The .env that counts: in the current folder, else in the folders above it up to the
    project's top (kernels run in lessons/, and the README puts .env at the top). Outside a
    project only the current folder counts, so a stray .env in a home folder is never read."""
    if start is not None:
        require_instance("start", start, Path, "a folder as a pathlib.Path")
    here = (start or Path.cwd()).resolve()
    root = next((folder for folder in (here, *here.parents) if _is_project_root(folder)), here)
    chain = [here, *here.parents]
    for folder in chain[: chain.index(root) + 1]:
        if (folder / ".env").is_file():
            return folder / ".env"
    return None


def read_dotenv(path: Path | None = None) -> dict:
    """KEY=VALUE lines of the project's .env file (see dotenv_path), if there is one."""
    if path is not None:
        require_instance("path", path, Path, "a .env file as a pathlib.Path")
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
    dotenv = read_dotenv()
    for name in KEY_VARIABLES:
        value = os.environ.get(name) or dotenv.get(name)
        if value:
            return value
    return None
