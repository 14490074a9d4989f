"""A real JupyterHub on 127.0.0.1 run with the shipped hub/jupyterhub_config.py, for the hub tests,
and the local git repository of the student release its students pull."""
import os
import secrets
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import requests

from harness.workbook import ROOT
from harness.workbook.release import commit_to_branch, write_release
from running_jupyter import free_port, stop_process

CONFIG = ROOT / "hub" / "jupyterhub_config.py"
CHP = os.environ.get("WORKBOOK_CHP", "configurable-http-proxy")
CLASS_PASSWORD = "class-password-for-the-test"
START_SECONDS = 120


def release_repository(base: Path) -> Path:
    """base/course.git: a git repository whose branch `student` holds the release (base/release)."""
    upstream = base / "course.git"
    subprocess.run(["git", "init", "-q", "-b", "main", str(upstream)], check=True)
    subprocess.run(["git", "-C", str(upstream), "commit", "-q", "--allow-empty", "-m", "course"], check=True)
    write_release(base / "release")
    assert commit_to_branch(base / "release", "student", upstream)
    return upstream


@contextmanager
def running_hub(base: Path, extra_config: str = "", python: str = sys.executable, **extra_env: str):
    """The hub of the environment of `python`, its state in base/state, its log in base/jupyterhub.log;
    stopped (with every server it spawned, and its proxy) on exit. Yields url, state, env and the
    headers of an admin service."""
    admin_token = secrets.token_hex(16)
    overlay = base / "test_config.py"  # the shipped config, plus a token for the test's own admin calls
    overlay.write_text(f"load_subconfig({str(CONFIG)!r})\n"
                       f"c.JupyterHub.services.append({{'name': 'hub-test', 'api_token': {admin_token!r}}})\n"
                       "c.JupyterHub.load_roles.append({'name': 'hub-test', 'scopes': ['admin:users', "
                       "'admin:servers', 'admin:server_state'], 'services': ['hub-test']})\n" + extra_config)
    port = free_port()
    env = dict(os.environ, WORKBOOK_HUB_DIR=str(base / "state"), WORKBOOK_HUB_IP="127.0.0.1",
               WORKBOOK_HUB_PORT=str(port), WORKBOOK_HUB_API_PORT=str(free_port()),
               WORKBOOK_PROXY_API_PORT=str(free_port()), WORKBOOK_CHP=CHP,
               WORKBOOK_CLASS_PASSWORD=CLASS_PASSWORD, **extra_env)
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "WORKBOOK_OFFLINE", "WORKBOOK_CHECKS_RAISE"):
        env.pop(name, None)  # students run as a student would: no key, checks that do not raise
    log_path = base / "jupyterhub.log"
    log = open(log_path, "w")
    process = subprocess.Popen([str(Path(python).with_name("jupyterhub")), "-f", str(overlay)],
                               cwd=base, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if requests.get(f"{url}/hub/api/", timeout=5).ok:
                    break
            except requests.RequestException:
                pass
            assert process.poll() is None and time.monotonic() < deadline, \
                f"JupyterHub did not start: {log_path.read_text()[-2000:]}"
            time.sleep(0.5)
        yield {"url": url, "state": base / "state", "base": base, "log": log_path,
               "admin": {"Authorization": f"token {admin_token}"}, "env": env}
    finally:
        stop_process(process, grace=60)  # the hub stops every server it spawned, and its proxy
        log.close()
