"""A real Jupyter server on loopback, for the tests that need what a JupyterLab tab does: open a
notebook (a session), load it and save it back (the contents API)."""

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

START_SECONDS = 90  # a cold start on a loaded 2-core machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    url: str  # ends with "/"
    token: str

    def call(self, method: str, path: str, **kwargs) -> requests.Response:
        headers = {"Authorization": f"token {self.token}"}
        answer = requests.request(method, self.url + path, headers=headers, timeout=60, **kwargs)
        answer.raise_for_status()
        return answer

    def open_notebook(self, path: str) -> dict:
        """What opening a notebook tab does: a session with a kernel on `path` (relative to the
        root)."""
        return self.call(
            "POST",
            "api/sessions",
            json={
                "path": path,
                "name": Path(path).name,
                "type": "notebook",
                "kernel": {"name": "python3"},
            },
        ).json()

    def save_unchanged(self, path: str) -> None:
        """What Ctrl+S on an untouched notebook does: load the model, put the same model back."""
        model = self.call("GET", f"api/contents/{path}", params={"content": 1}).json()
        self.call(
            "PUT",
            f"api/contents/{path}",
            json={"type": "notebook", "format": "json", "content": model["content"]},
        )


@contextmanager
def jupyter_server(root: Path, runtime_dir: Path, token: str = "test-token"):
    """A jupyter_server serving `root`, writing its runtime file to `runtime_dir`; stopped on
    exit."""
    port = free_port()
    log = open(runtime_dir.parent / f"jupyter-server-{port}.log", "w")
    command = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--ServerApp.root_dir={root}",
        f"--IdentityProvider.token={token}",
        "--allow-root",
    ]
    process = subprocess.Popen(
        command,
        env=dict(os.environ, JUPYTER_RUNTIME_DIR=str(runtime_dir)),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = Server(f"http://127.0.0.1:{port}/", token)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                server.call("GET", "api/status")
                break
            except requests.RequestException:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"jupyter_server did not start: see {log.name}")
                time.sleep(0.3)
        yield server
    finally:
        stop_process(process, grace=20)
        log.close()


def stop_process(process: subprocess.Popen, grace: float) -> None:
    """SIGTERM (a server then stops what it started), SIGKILL if it is still there after `grace`
    s."""
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
