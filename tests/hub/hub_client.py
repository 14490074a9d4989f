"""What a student's browser does on the hub, over HTTP and websockets: log in, wait for the server,
follow the nbgitpuller link, open and run a notebook through the kernel protocol, save it through
the contents API, type a command in a JupyterLab terminal.

Every wait has a deadline and fails saying what it waited for: a websocket read alone only times
out when nothing at all arrives, and a kernel or a shell that keeps talking without ever finishing
(a hang seen once) would otherwise hold the test for ever."""

import json
import re
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlencode

import nbformat
import requests
import websocket
from nbformat.v4 import output_from_msg

READY_SECONDS = 180  # a server spawning while the rest of the room spawns too
CELL_SECONDS = 300  # one cell of a lesson, the room running at once on two cores
PULL_SECONDS = 300  # nbgitpuller's pull and, after it, the link's `workbook update`
COMMAND_SECONDS = (
    600  # a command typed in a terminal: `workbook check 03` while the room checks too
)


@dataclass
class Student:
    hub: str  # http://127.0.0.1:PORT
    name: str
    session: requests.Session = field(default_factory=requests.Session)
    token: str = ""

    @property
    def server(self) -> str:
        return f"{self.hub}/user/{self.name}/"

    def login(self, password: str) -> None:
        """The login form, then a token for the API calls (JupyterHub's own token page does the
        same)."""
        self.session.get(f"{self.hub}/hub/login").raise_for_status()
        answer = self.session.post(
            f"{self.hub}/hub/login?next=",
            allow_redirects=False,
            data={
                "username": self.name,
                "password": password,
                "_xsrf": self.session.cookies.get("_xsrf", ""),
            },
        )
        assert answer.status_code == 302, f"login of {self.name} answered {answer.status_code}"
        # The token the page itself uses (window.jhdata.xsrf_token): after a login the jar can hold
        # two _xsrf cookies (before and after), and JupyterHub 5.4 refuses the stale one.
        home = self.session.get(f"{self.hub}/hub/home")
        home.raise_for_status()
        xsrf = re.search(r'xsrf_token: "([^"]+)"', home.text)
        assert xsrf, f"no xsrf_token in {self.name}'s hub page"
        made = self.session.post(
            f"{self.hub}/hub/api/users/{self.name}/tokens",
            json={"note": "hub test"},
            headers={"X-XSRFToken": xsrf.group(1)},
        )
        made.raise_for_status()
        self.token = made.json()["token"]
        self.session.headers["Authorization"] = f"token {self.token}"

    def spawn(self) -> float:
        """Start the server and wait until the hub says it is ready; the seconds it took."""
        start = time.monotonic()
        answer = self.session.post(f"{self.hub}/hub/api/users/{self.name}/server")
        assert answer.status_code in (
            201,
            202,
        ), f"spawn of {self.name}: {answer.status_code} {answer.text[:200]}"
        while time.monotonic() - start < READY_SECONDS:
            servers = (
                self.session.get(f"{self.hub}/hub/api/users/{self.name}").json().get("servers", {})
            )
            if servers.get("", {}).get("ready"):
                return time.monotonic() - start
            time.sleep(0.5)
        raise AssertionError(f"the server of {self.name} was not ready within {READY_SECONDS} s")

    def api(self, method: str, path: str, **kwargs) -> requests.Response:
        answer = self.session.request(method, self.server + path, timeout=120, **kwargs)
        answer.raise_for_status()
        return answer

    def git_pull(self, repo: str, branch: str, targetpath: str) -> list[dict]:
        """nbgitpuller's event stream, read as the page's JavaScript reads it, until it finishes."""
        query = urlencode({"repo": repo, "branch": branch, "targetpath": targetpath})
        events, deadline = [], time.monotonic() + PULL_SECONDS
        with self.session.get(
            f"{self.server}git-pull/api?{query}", stream=True, timeout=PULL_SECONDS
        ) as stream:
            stream.raise_for_status()
            for line in stream.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    events.append(json.loads(line[5:]))
                    if events[-1].get("phase") in ("finished", "error"):
                        break
                if time.monotonic() > deadline:
                    raise AssertionError(
                        f"{self.name}'s pull sent no 'finished' within {PULL_SECONDS} s:"
                        f" {events[-3:]}"
                    )
        return events

    def follow_link(self, lesson: str) -> requests.Response:
        """Where the link's page sends the browser once the pull is done: its urlpath, the
        workbook's update page (harness/workbook/link.py), not followed further."""
        answer = self.session.get(
            f"{self.server}workbook-update/{lesson}", allow_redirects=False, timeout=PULL_SECONDS
        )
        assert answer.status_code in (
            200,
            302,
        ), f"{self.name}'s update page: {answer.status_code} {answer.text[:500]}"
        return answer

    def load(self, path: str) -> nbformat.NotebookNode:
        return nbformat.from_dict(
            self.api("GET", f"api/contents/{path}", params={"content": 1}).json()["content"]
        )

    def save(self, path: str, notebook: dict) -> None:
        self.api(
            "PUT",
            f"api/contents/{path}",
            json={"type": "notebook", "format": "json", "content": notebook},
        )

    def run_all(self, path: str) -> tuple[nbformat.NotebookNode, float]:
        """Open the notebook in a session, run every code cell in order over the kernel's websocket,
        keep the outputs as JupyterLab would; return the notebook and the seconds the run took."""
        notebook = self.load(path)
        opened = self.api(
            "POST",
            "api/sessions",
            json={"path": path, "type": "notebook", "name": path, "kernel": {"name": "python3"}},
        ).json()
        url = re.sub("^http", "ws", self.server) + f"api/kernels/{opened['kernel']['id']}/channels"
        channel = websocket.create_connection(
            url, header=[f"Authorization: token {self.token}"], timeout=CELL_SECONDS
        )
        start = time.monotonic()
        try:
            for index, cell in enumerate(notebook.cells):
                if cell.cell_type == "code":
                    cell.outputs, cell.execution_count = _execute(
                        channel, cell.source, f"{self.name}'s {path}, cell {index}"
                    )
        finally:
            channel.close()
        return notebook, time.monotonic() - start

    def terminal(self, command: str) -> tuple[int, str]:
        """Type `command` in a new JupyterLab terminal (it opens in the home folder); (status,
        output)."""
        name = self.api("POST", "api/terminals").json()["name"]
        url = re.sub("^http", "ws", self.server) + f"terminals/websocket/{name}"
        shell = websocket.create_connection(
            url, header=[f"Authorization: token {self.token}"], timeout=CELL_SECONDS
        )
        output, deadline = "", time.monotonic() + COMMAND_SECONDS
        try:
            shell.send(json.dumps(["stdin", f"{command}; echo __STATUS__$?\r"]))
            while not (done := re.search(r"__STATUS__(\d+)", output)):
                kind, *payload = json.loads(
                    receive(
                        shell,
                        deadline,
                        f"`{command}` to end in {self.name}'s terminal "
                        f"(its output so far: {output[-300:]!r})",
                    )
                )
                output += payload[0] if kind == "stdout" else ""
        finally:
            shell.close()
            self.api("DELETE", f"api/terminals/{name}")
        return int(done.group(1)), output


def receive(socket, deadline: float, waited_for: str) -> str:
    """The next websocket message, or an AssertionError naming what was waited for once `deadline`
    (time.monotonic()) has passed, however many other messages arrived meanwhile."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise AssertionError(f"gave up waiting for {waited_for}: the deadline passed")
    socket.settimeout(left)
    try:
        return socket.recv()
    except websocket.WebSocketTimeoutException:
        raise AssertionError(
            f"gave up waiting for {waited_for} after {left:.0f} s of silence"
        ) from None


def _execute(channel, code: str, cell: str) -> tuple[list, int | None]:
    """One execute_request on the kernel's channels; its outputs in nbformat form and its count."""
    msg_id = uuid.uuid4().hex
    channel.send(
        json.dumps(
            {
                "header": {
                    "msg_id": msg_id,
                    "msg_type": "execute_request",
                    "username": "student",
                    "session": uuid.uuid4().hex,
                    "version": "5.3",
                },
                "parent_header": {},
                "metadata": {},
                "channel": "shell",
                "buffers": [],
                "content": {
                    "code": code,
                    "silent": False,
                    "store_history": True,
                    "user_expressions": {},
                    "allow_stdin": False,
                    "stop_on_error": True,
                },
            }
        )
    )
    outputs, count, deadline = [], None, time.monotonic() + CELL_SECONDS
    while True:
        message = json.loads(
            receive(channel, deadline, f"{cell} to finish running (idle) within {CELL_SECONDS} s")
        )
        if (
            message.get("parent_header", {}).get("msg_id") != msg_id
            or message.get("channel") != "iopub"
        ):
            continue
        kind = message["msg_type"]
        if kind == "execute_input":
            count = message["content"]["execution_count"]
        elif kind in ("stream", "display_data", "execute_result", "error"):
            outputs.append(output_from_msg(message))
        elif kind == "status" and message["content"]["execution_state"] == "idle":
            return outputs, count
