"""The workbook link's last step: once nbgitpuller has pulled, `workbook update` runs and says what
it did.

nbgitpuller has no hook after a pull: when the pull is done, its page sends the browser to the
link's `urlpath`. The workbook's link points that at this Jupyter server extension's page, with
the lesson to open after it:

    https://HUB/hub/user-redirect/git-pull?repo=https://GIT/ORG/REPO&branch=student&targetpath=context-engineering-workbook&urlpath=workbook-update/context-engineering-workbook/lessons/00_first_call.ipynb

`GET workbook-update/PATH` runs `workbook update --no-pull` on the copy that holds PATH, in the
student's own server (so as the student), then opens PATH in JupyterLab straight away when there
was nothing to bring back, or first shows what the update brought back, or why it failed, with
a link on to the lesson. Every install of the workbook enables it
(jupyter/jupyter_server_config.d/context-engineering-workbook.json, installed by pyproject.toml).
"""

import asyncio
import html
import sys
from pathlib import Path

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_escape, url_path_join
from tornado import web

ROUTE = "workbook-update"
UPDATE_SECONDS = 300  # the room clicking at once on two cores; the pull before it has its own limit
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font-family: sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }}
pre {{ white-space: pre-wrap; background: #f4f4f4; padding: 1rem; }}
a.go {{ font-size: 1.2rem; }}</style></head>
<body><h1>{title}</h1><p>{lead}</p><pre>{report}</pre>
<p><a class="go" href="{lesson_url}">Open {lesson}</a></p></body></html>
"""


class UpdateHandler(JupyterHandler):
    """Runs `workbook update --no-pull` on the copy holding the path, then opens it (see the
    module)."""

    @web.authenticated
    async def get(self, path: str) -> None:
        root = Path(self.settings["server_root_dir"]).expanduser().resolve()
        target = (root / path).resolve()
        if not target.is_relative_to(root) or not target.exists():
            raise web.HTTPError(404, f"{path} is not in your files: check the link's urlpath")
        folder = target if target.is_dir() else target.parent
        lesson_url = url_path_join(self.base_url, "lab", "tree", url_escape(path))
        status, report = await _update(folder)
        from harness.workbook.update import NOTHING  # its imports are slow: not at server start

        if status == 0 and NOTHING in report:
            self.redirect(lesson_url)
            return
        title = "Your lessons are up to date" if status == 0 else "The update did not finish"
        lead = (
            "The link pulled your instructor's release, then <code>workbook update</code> brought"
            " back what the pull had not put in your copy. Nothing of yours was written over."
            if status == 0
            else (
                "Your files are as they were. Open a terminal and run <code>workbook update</code>;"
                " if it fails again, show this page to your instructor."
            )
        )
        self.finish(
            PAGE.format(
                title=title,
                lead=lead,
                report=html.escape(report),
                lesson_url=html.escape(lesson_url),
                lesson=html.escape(target.name),
            )
        )


async def _update(folder: Path) -> tuple[int, str]:
    """`workbook update --no-pull` in `folder`, as a separate process: (exit status, what it
    printed)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "harness",
        "update",
        "--no-pull",
        "--lessons",
        str(folder),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), UPDATE_SECONDS)
    except asyncio.TimeoutError:
        process.kill()
        return 1, f"workbook update did not finish within {UPDATE_SECONDS} s."
    return process.returncode, output.decode("utf-8", "replace")


def _jupyter_server_extension_points() -> list[dict]:
    return [{"module": "harness.workbook.link"}]


def _load_jupyter_server_extension(server_app) -> None:
    web_app = server_app.web_app
    route = url_path_join(web_app.settings["base_url"], ROUTE, "(.+)")
    web_app.add_handlers(".*", [(route, UpdateHandler)])
