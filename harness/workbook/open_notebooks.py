"""Whether a running Jupyter server has a notebook open, so `reset` never writes under an open tab.

A server cannot know about edits still in the browser, but it knows which notebooks have a session
(a kernel attached to a path): every tab of a notebook that ran a cell has one, and it lasts until
the student chooses File > Close and Shut Down Notebook. The servers of this user are found through
their runtime files (`jpserver-*.json` in `jupyter --runtime-dir`, which hold their URL and token);
each is asked for `GET /api/sessions`. On a hub the single-user server checks hub tokens instead:
the terminal's `JUPYTERHUB_API_TOKEN` is tried when the file holds none.

    >>> open_in_jupyter(Path("lessons/03_budgeted_assembly.ipynb"))     # doctest: +SKIP
    OpenState(open_at=['http://localhost:8888/'], unasked=[])
"""

import json
import os
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ASK_SECONDS = 3  # a server that does not answer in this time counts as "could not ask"


@dataclass
class OpenState:
    # URLs of servers with a session on the notebook
    open_at: list[str] = field(default_factory=list)
    # URLs of servers serving its folder that did not answer
    unasked: list[str] = field(default_factory=list)


def _sessions(server: dict) -> list[dict]:
    token = server.get("token") or os.environ.get("JUPYTERHUB_API_TOKEN", "")
    request = urllib.request.Request(
        server["url"].rstrip("/") + "/api/sessions",
        headers={"Authorization": f"token {token}"} if token else {},
    )
    with urllib.request.urlopen(request, timeout=ASK_SECONDS) as answer:
        return json.load(answer)


def open_in_jupyter(notebook: Path) -> OpenState:
    """Which running Jupyter servers of this user have `notebook` open (or could not be asked)."""
    from jupyter_server.serverapp import list_running_servers  # slow to import: only when asked

    target, state = notebook.resolve(), OpenState()
    for server in list_running_servers():
        root = Path(server.get("root_dir") or server.get("notebook_dir") or "/").resolve()
        if not target.is_relative_to(root):
            continue
        try:
            sessions = _sessions(server)
        except (OSError, ValueError):  # refused, timed out, 403 from a hub, not JSON
            state.unasked.append(server["url"])
            continue
        if any((root / s.get("path", "")).resolve() == target for s in sessions):
            state.open_at.append(server["url"])
    return state
