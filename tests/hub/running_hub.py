"""A real JupyterHub on 127.0.0.1 run with the shipped hub/jupyterhub_config.py, for the hub tests,
and the local git repository of the student release its students pull.

`student_accounts_hub` is the shipped default: one OS account per student (the hub as root). Its
accounts are named with a random prefix and group of their own (`wbt1a2b-ada`, group `wbt1a2b`),
which no real account uses, and are removed with their homes when the tests end, passed or not.
The course clone (this one) is closed to other accounts while it runs, as INSTRUCTORS.md says to.
"""
import os
import pwd
import re
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import psutil

import requests

from harness.workbook import ROOT
from harness.workbook.release import commit_to_branch, write_release
from running_jupyter import free_port, stop_process

CONFIG = ROOT / "hub" / "jupyterhub_config.py"
GUIDE = ROOT / "INSTRUCTORS.md"
CHP = os.environ.get("WORKBOOK_CHP", "configurable-http-proxy")
CLASS_PASSWORD = "class-password-for-the-test"
START_SECONDS = 120


def documented_command(containing: str, **paths: str) -> str:
    """The one command line of INSTRUCTORS.md's "One machine" section that holds `containing`, with
    the instructor's paths replaced by the test's (`paths`: documented path -> the test's), so the
    hub test runs the guide's own text, not a copy of it."""
    section = GUIDE.read_text(encoding="utf-8").split("### One machine", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines() if containing in line]
    assert len(lines) == 1, f"INSTRUCTORS.md's One machine section has {len(lines)} commands holding {containing!r}"
    command = lines[0].split("  # ")[0]
    for documented, here in sorted(paths.items(), key=lambda item: -len(item[0])):  # longest first
        command = command.replace(documented, here)
    return command


def run_documented(containing: str, **paths: str) -> subprocess.CompletedProcess:
    command = documented_command(containing, **paths)
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"INSTRUCTORS.md's `{command}` failed: {done.stdout[-1500:]}{done.stderr[-1500:]}"
    return done


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
    # The class password, written as INSTRUCTORS.md says (the hub makes the others at its first start).
    for step in ("mkdir -p -m 700", "class_password)"):
        run_documented(step, **{"/srv/workbook-hub": str(base / "state"), "the class password": CLASS_PASSWORD})
    port = free_port()
    env = dict(os.environ, WORKBOOK_HUB_DIR=str(base / "state"), WORKBOOK_HUB_IP="127.0.0.1",
               WORKBOOK_HUB_PORT=str(port), WORKBOOK_HUB_API_PORT=str(free_port()),
               WORKBOOK_PROXY_API_PORT=str(free_port()), WORKBOOK_CHP=CHP,
               **extra_env)
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
               "admin": {"Authorization": f"token {admin_token}"}, "env": env, "pid": process.pid,
               "python": python}
    finally:
        stop_process(process, grace=60)  # the hub stops every server it spawned, and its proxy
        log.close()


def closed_to_others(path: Path) -> Path | None:
    """The first folder on the way to `path` that other accounts cannot enter, or None."""
    for folder in [*reversed(path.parents), path]:
        if folder.is_dir() and not folder.stat().st_mode & stat.S_IXOTH:
            return folder
    return None


def remove_accounts(prefix: str, group: str) -> None:
    """Every account named with `prefix`: its processes killed, then `userdel -r`; then the group."""
    accounts = [entry for entry in pwd.getpwall() if entry.pw_name.startswith(prefix)]
    uids = {entry.pw_uid for entry in accounts}
    for process in psutil.process_iter(["uids"]):
        if process.info["uids"] and process.info["uids"].real in uids:
            process.kill()
    psutil.wait_procs([p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real in uids],
                      timeout=10)
    for entry in accounts:
        subprocess.run(["userdel", "--remove", entry.pw_name], capture_output=True)
    subprocess.run(["groupdel", group], capture_output=True)
    left = [entry.pw_name for entry in pwd.getpwall() if entry.pw_name.startswith(prefix)]
    assert not left, f"could not remove the test's accounts {left}: remove them with userdel -r"


@contextmanager
def student_accounts_hub(log_copy: Path, **extra_env: str):
    """The shipped configuration as an instructor runs it: as root, one OS account per student, the
    course clone closed to other accounts. Yields running_hub's dict plus repo, prefix and group."""
    import pytest

    python = Path(os.environ.get("WORKBOOK_HUB_PYTHON", sys.executable))
    if closed := closed_to_others(python.resolve()):
        pytest.fail(f"{closed} is closed to other accounts, so a student's server cannot use {python}: run "
                    f"`make test-hub` (it makes /var/tmp/workbook-hub-venv from HUB_PYTHON, /usr/bin/python3), "
                    f"or set WORKBOOK_HUB_PYTHON to a venv every account can run.")
    tag = secrets.token_hex(2)
    prefix, group = f"wbt{tag}-", f"wbt{tag}"
    # Not under pytest's tmp folder: it is 0700 to root, and the students must reach their homes.
    base = Path(tempfile.mkdtemp(prefix="workbook-hub-"))
    base.chmod(0o711)
    clone_mode = stat.S_IMODE(ROOT.stat().st_mode)
    ROOT.chmod(clone_mode & ~0o077)  # INSTRUCTORS.md: the clone the hub runs from is closed to students
    try:
        upstream = release_repository(base)
        # A repository on the hub machine belongs to root, and git refuses to pull from another user's
        # repository ("dubious ownership") unless a global or system config marks it safe; an
        # instructor marks it in /etc/gitconfig (INSTRUCTORS.md's command), the test in a config of its own.
        marked = base / "gitconfig"
        # (the test's repository has a work tree, so the path git checks is its .git, a bare one's is itself)
        run_documented("safe.directory", **{"--system": f"--file {marked}", "/srv/course.git": str(upstream / ".git")})
        safe = f"c.Spawner.environment['GIT_CONFIG_GLOBAL'] = {str(marked)!r}\n"
        with running_hub(base, safe, str(python), WORKBOOK_HUB_ACCOUNT_PREFIX=prefix,
                         WORKBOOK_HUB_ACCOUNT_GROUP=group, **extra_env) as running:
            yield {**running, "repo": str(upstream), "prefix": prefix, "group": group}
    finally:
        ROOT.chmod(clone_mode)
        if (base / "jupyterhub.log").exists():  # kept for a failure's reader: base goes with the accounts
            log_copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(base / "jupyterhub.log", log_copy)
        remove_accounts(prefix, group)
        shutil.rmtree(base, ignore_errors=True)
