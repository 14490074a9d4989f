"""Real-browser tests: JupyterLab on loopback driven by Debian's Chromium through Playwright.

They are slow and need Chromium, so `make test` never collects them; `make test-browser` sets
WORKBOOK_BROWSER=1 and installs what they need. The `lab` fixture serves a temporary copy of
solutions/ (and, under `pristine/`, of the generated lessons, as a student first opens them) from a
JupyterLab with private config, data, runtime and settings folders (the machine's own Jupyter set-up
is never read or written), no token, and no news toast. Its kernels run as a student's do: offline,
and with checks that show one line instead of raising.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.workbook import LESSONS, SOLUTIONS

if os.environ.get("WORKBOOK_BROWSER") != "1":
    collect_ignore_glob = ["test_*.py"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_TIMEOUT_S = 90  # a cold JupyterLab on a small machine takes 5-20 s
# Written to the private user-settings folder: plugin id -> settings.
LAB_SETTINGS = {
    # The news toast ("Would you like to receive official Jupyter news?") would cover the notebook.
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    # Every cell kept in the DOM, so widgets far down the notebook can be found.
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    # The served copies stay as the repository has them: a lesson opened again in the same page
    # (tests/browser/test_lessons_browser.py) starts with no outputs, and nothing is saved unasked.
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"JupyterLab exited with {process.returncode}:\n{log.read_text()[-3000:]}"
            )
        try:
            with urllib.request.urlopen(f"{url}/api/status", timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(
        f"JupyterLab did not answer on {url} within {START_TIMEOUT_S} s:\n{log.read_text()[-3000:]}"
    )


@dataclass
class Lab:
    url: str  # http://127.0.0.1:PORT, no token
    served: Path  # the temporary copy of solutions/ it serves
    log: Path  # the server's output: kernel starts, restarts and deaths
    workspaces: Path  # where JupyterLab saves each workspace's open tabs and layout

    def forget_workspaces(self) -> None:
        """Delete every saved workspace, so the next page opens with no tab of an earlier lesson.

        Restored, each earlier lesson's tab started a kernel of its own again: by lesson 06 the page
        held seven notebooks and their kernels, ran slowly, lost replies and asked "Select Kernel".
        """
        for saved in self.workspaces.glob("*"):
            saved.unlink()

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def sessions(self) -> list[dict]:
        with urllib.request.urlopen(f"{self.url}/api/sessions", timeout=30) as answer:
            return json.load(answer)

    def stop_kernel(self, notebook: str) -> None:
        """End the notebook's session (and its kernel), so ten lessons never hold ten kernels."""
        for session in self.sessions():
            if session["path"] == notebook:
                request = urllib.request.Request(
                    f"{self.url}/api/sessions/{session['id']}", method="DELETE"
                )
                with urllib.request.urlopen(request, timeout=60):
                    pass

    def kernel_of(self, notebook: str) -> dict | None:
        """The kernel model (id, execution_state, ...) of the notebook's session, if it has one."""
        return next(
            (session["kernel"] for session in self.sessions() if session["path"] == notebook), None
        )

    def dump_kernel_stacks(self, notebook: str) -> str:
        """SIGABRT the notebook's kernel: faulthandler (on in every kernel here) writes each of its
        threads' stacks into JupyterLab's log, which says where a hung cell is waiting. Returns
        what happened, then the lines the dump added to the log."""
        before = len(self.log.read_text(errors="replace").splitlines())
        said = self._abort_kernel(notebook)
        return "\n".join([said, *self.log.read_text(errors="replace").splitlines()[before:]])

    def _abort_kernel(self, notebook: str) -> str:
        kernel = self.kernel_of(notebook)
        if not kernel:
            return "no kernel to dump"
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if kernel["id"].encode() in command and b"ipykernel" in command:
                os.kill(int(pid), signal.SIGABRT)
                time.sleep(2)  # let the dump reach the log
                return (
                    f"kernel {kernel['id']} (pid {pid}) was {kernel['execution_state']}; its stacks"
                    " are in the log"
                )
        return f"kernel {kernel['id']} was {kernel['execution_state']}; its process was not found"

    def start_kernel(self, notebook: str) -> None:
        """Start the notebook's kernel through the REST API before the page opens it.

        Left to itself, a freshly opened notebook may start a kernel, drop it for another one
        and lose the cells queued on the first; given a session, the page simply joins it.
        """
        body = json.dumps(
            {"path": notebook, "name": notebook, "type": "notebook", "kernel": {"name": "python3"}}
        )
        request = urllib.request.Request(
            f"{self.url}/api/sessions",
            data=body.encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60):
            pass


def stop(process: subprocess.Popen) -> None:
    """SIGTERM the server's process group (it shuts its kernels down), SIGKILL if it lingers."""
    for sig, grace in ((signal.SIGTERM, 20), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
            process.wait(timeout=grace)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab serving a copy of solutions/, stopped after the module's tests."""
    home = tmp_path_factory.mktemp("lab")
    served = home / "notebooks"
    shutil.copytree(SOLUTIONS, served, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    from lab_driver import PRISTINE

    shutil.copytree(
        LESSONS,
        served / PRISTINE,
        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "*.backup-*"),
    )
    for plugin, values in LAB_SETTINGS.items():
        extension, _, name = plugin.partition(":")
        path = home / "user-settings" / extension / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port = free_port()
    # as a student has it
    env = {name: value for name, value in os.environ.items() if name != "WORKBOOK_CHECKS_RAISE"}
    # a kernel that hangs can be made to say where (dump_kernel_stacks)
    env.update(
        WORKBOOK_OFFLINE="1",
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
        JUPYTER_PLATFORM_DIRS="1",
        PYTHONFAULTHANDLER="1",
    )
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--ServerApp.open_browser=False",
        # No token already means no protection on loopback; this lets start_kernel() POST.
        "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={served}",
        f"--LabApp.user_settings_dir={home / 'user-settings'}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
    ]
    if os.geteuid() == 0:  # CI containers run as root; JupyterLab refuses that unless told
        command.append("--allow-root")
    log = home / "jupyterlab.log"
    with log.open("w") as out:
        # A session of its own, so stop() can signal the server and everything it started.
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, process, log)
        yield Lab(url, served, log, home / "workspaces")
    finally:
        stop(process)


@pytest.fixture(scope="module")
def page(lab):
    """A Chromium page (1400x1000) that fails the test on any uncaught JavaScript error."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).is_file():
        pytest.fail(
            f"{CHROMIUM} is missing: run `make test-browser`, which installs Debian's chromium."
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        from lab_driver import SCREENSHOTS

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.js_errors = []
        page.on("pageerror", lambda error: page.js_errors.append(str(error)))
        yield page
        browser.close()
