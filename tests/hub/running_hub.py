"""A real JupyterHub on 127.0.0.1, set up by running INSTRUCTORS.md's own commands, for the hub
tests.

`student_accounts_hub` is the shipped default: one OS account per student (the hub as root). It
runs every command block of INSTRUCTORS.md's "Hosting on JupyterHub" section as written there,
read from the page, with the test's paths put in (`HostingPaths`): a bare copy of this repository
stands for the git host and for `/srv/course.git`; the instructor's clone, made from it, is
`/root/workbook`; the release is built and pushed from that clone, and the hub runs its config.
So the hub runs this repository's last commit: commit before `make test-hub`. Its accounts are
named with a random prefix and group of their own (`wbt1a2b-ada`, group `wbt1a2b`), which no real
account uses, and are removed with their homes when the tests end, passed or not.
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
from hub_client import Student
from running_jupyter import free_port, stop_process

from harness.workbook import ROOT

GUIDE = ROOT / "INSTRUCTORS.md"
HOSTING = "\n## Hosting on JupyterHub\n"
CLASS_PASSWORD = "class-password-for-the-test"
START_SECONDS = 120
RAN: list[str] = []  # the guide's blocks run so far in this session, for the test that all were


def guide_blocks() -> list[str]:
    """Every fenced block of INSTRUCTORS.md's hosting section, unindented (blocks inside list
    items)."""
    section = GUIDE.read_text(encoding="utf-8").split(HOSTING, 1)[1].split("\n## ", 1)[0]
    return [
        "".join(line[len(found[1]) :] for line in found[2].splitlines(keepends=True))
        for found in re.finditer(r"^( *)```\n(.*?)^\1```$", section, re.S | re.M)
    ]


def documented(containing: str, paths: dict[str, str]) -> str:
    """The one block of the hosting section that holds `containing`, with the instructor's paths
    replaced by the test's (documented text -> the test's, longest first); recorded as run."""
    blocks = [block for block in guide_blocks() if containing in block]
    assert len(blocks) == 1, (
        f"INSTRUCTORS.md's hosting section has {len(blocks)} blocks holding {containing!r}"
    )
    RAN.append(blocks[0])
    text = blocks[0]
    for written, here in sorted(paths.items(), key=lambda item: -len(item[0])):
        text = text.replace(written, here)
    return text


def run_documented(containing: str, paths: dict[str, str]) -> subprocess.CompletedProcess:
    """Run the block holding `containing` as one shell script that stops at the first failing
    line."""
    script = documented(containing, paths)
    done = subprocess.run(["sh", "-e", "-c", script], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, (
        f"INSTRUCTORS.md's\n{script}\nfailed: {done.stdout[-1500:]}{done.stderr[-1500:]}"
    )
    return done


def hosting_paths(base: Path, hub_venv: Path, prefix: str, group: str) -> dict[str, str]:
    """The guide's paths and names -> this test's: everything lives in `base`, the venv is
    `hub_venv`."""
    return {
        "https://GIT/ORG/REPO": str(base / "course.git"),
        "/srv/course.git": str(base / "course.git"),
        "/root/workbook": str(base / "workbook"),
        "/opt/workbook": str(hub_venv),
        "/srv/workbook-hub": str(base / "state"),
        "/root/submissions": str(base / "submissions"),
        "/root/grades": str(base / "grades"),
        "the class password": CLASS_PASSWORD,
        # npm's global folder and /etc/gitconfig belong to the machine: the test uses its own
        "npm install -g": f"npm install --prefix {ROOT / 'build' / 'hub' / 'node'}",
        "git config --system": f"git config --file {base / 'gitconfig'}",
        "workbook-students": group,
        "wb-ada": f"{prefix}ada",
    }


@contextmanager
def running_hub(base: Path, paths: dict[str, str], **extra_env: str):
    """INSTRUCTORS.md's start command, its state in base/state, its log in base/jupyterhub.log;
    stopped (with every server it spawned, and its proxy) on exit. Yields url, state, env, pid, the
    hub's python and the headers of the instructor (the admin, logged in with the guide's password).
    """
    command = documented("bin/jupyterhub -f", paths)
    hub_binary, config = re.fullmatch(r"\s*(\S+/jupyterhub) -f (\S+)\s*", command).groups()
    # the shipped config, and git pointed at the test's /etc/gitconfig
    overlay = base / "test_config.py"
    overlay.write_text(
        f"load_subconfig({config!r})\n"
        f"c.Spawner.environment['GIT_CONFIG_GLOBAL'] = {str(base / 'gitconfig')!r}\n"
    )
    port = free_port()
    env = dict(
        os.environ,
        WORKBOOK_HUB_DIR=str(base / "state"),
        WORKBOOK_HUB_IP="127.0.0.1",
        WORKBOOK_HUB_PORT=str(port),
        WORKBOOK_HUB_API_PORT=str(free_port()),
        WORKBOOK_PROXY_API_PORT=str(free_port()),
        WORKBOOK_CHP=str(
            ROOT / "build" / "hub" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
        ),
        **extra_env,
    )
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "WORKBOOK_OFFLINE", "WORKBOOK_CHECKS_RAISE"):
        env.pop(name, None)  # students run as a student would: no key, checks that do not raise
    log_path = base / "jupyterhub.log"
    log = open(log_path, "w")
    process = subprocess.Popen(
        [hub_binary, "-f", str(overlay)], cwd=base, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if requests.get(f"{url}/hub/api/", timeout=5).ok:
                    break
            except requests.RequestException:
                pass
            assert process.poll() is None and time.monotonic() < deadline, (
                f"JupyterHub did not start: {log_path.read_text()[-2000:]}"
            )
            time.sleep(0.5)
        instructor = Student(url, "instructor")
        instructor.login(run_documented("admin_password", paths).stdout.strip())
        yield {
            "url": url,
            "state": base / "state",
            "base": base,
            "log": log_path,
            "env": env,
            "pid": process.pid,
            "admin": {"Authorization": f"token {instructor.token}"},
            "python": str(Path(hub_binary).with_name("python")),
        }
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
    """Every account named with `prefix`: its processes killed, then `userdel -r`; then the
    group."""
    accounts = [entry for entry in pwd.getpwall() if entry.pw_name.startswith(prefix)]
    uids = {entry.pw_uid for entry in accounts}
    for process in psutil.process_iter(["uids"]):
        if process.info["uids"] and process.info["uids"].real in uids:
            process.kill()
    psutil.wait_procs(
        [
            p
            for p in psutil.process_iter(["uids"])
            if p.info["uids"] and p.info["uids"].real in uids
        ],
        timeout=10,
    )
    for entry in accounts:
        subprocess.run(["userdel", "--remove", entry.pw_name], capture_output=True)
    subprocess.run(["groupdel", group], capture_output=True)
    left = [entry.pw_name for entry in pwd.getpwall() if entry.pw_name.startswith(prefix)]
    assert not left, f"could not remove the test's accounts {left}: remove them with userdel -r"


@contextmanager
def student_accounts_hub(log_copy: Path, **extra_env: str):
    """The shipped configuration as an instructor sets it up and runs it, from INSTRUCTORS.md: as
    root, one OS account per student. Yields running_hub's dict plus repo, clone, release, paths,
    prefix and group."""
    import pytest

    hub_venv = Path(os.environ.get("WORKBOOK_HUB_PYTHON", sys.executable)).parent.parent
    if hub_venv.resolve() == Path(sys.prefix).resolve():
        # INSTRUCTORS.md's install runs `python3 -m venv` over the hub's venv: over this one, it
        # would rewrite the venv the tests run from (seen 2026-12-02: Debian's python named in its
        # pyvenv.cfg, stdlib lost).
        pytest.fail(
            f"The hub test installs the workbook into a venv of its own, and {hub_venv} is the one"
            " running the tests: run `make test-hub`, or set WORKBOOK_HUB_PYTHON to another venv's"
            " python (make test-hub uses /var/tmp/workbook-hub-venv/bin/python)."
        )
    if closed := closed_to_others(hub_venv.resolve()):
        pytest.fail(
            f"{closed} is closed to other accounts, so a student's server cannot use {hub_venv}:"
            " run `make test-hub` (it makes /var/tmp/workbook-hub-venv from HUB_PYTHON,"
            " /usr/bin/python3), or set WORKBOOK_HUB_PYTHON to a venv every account can run."
        )
    if subprocess.run(
        [
            "git",
            "-C",
            str(ROOT),
            "diff",
            "--quiet",
            "HEAD",
            "--",
            "harness",
            "hub",
            "solutions",
            "lessons",
            "INSTRUCTORS.md",
            "pyproject.toml",
            "jupyter",
        ]
    ).returncode:
        print(
            "\n[hub test] uncommitted changes are not tested: the hub runs the last commit",
            file=sys.stderr,
        )
    tag = secrets.token_hex(2)
    prefix, group = f"wbt{tag}-", f"wbt{tag}"
    # Not under pytest's tmp folder: it is 0700 to root, and the students must reach their homes.
    base = Path(tempfile.mkdtemp(prefix="workbook-hub-"))
    base.chmod(0o711)
    paths = hosting_paths(base, hub_venv, prefix, group)
    try:
        # The git host: a bare copy of this repository (its current branch is the clone's).
        subprocess.run(
            ["git", "clone", "--quiet", "--bare", str(ROOT), str(base / "course.git")], check=True
        )
        run_documented("git clone", paths)  # step 1: the closed clone, the venv, the proxy
        run_documented("harness release", paths)  # the release, pushed to branch student
        run_documented("safe.directory", paths)  # step 2, the route without a git host
        run_documented("class_password)", paths)  # step 3
        with running_hub(
            base,
            paths,
            WORKBOOK_HUB_ACCOUNT_PREFIX=prefix,
            WORKBOOK_HUB_ACCOUNT_GROUP=group,
            **extra_env,
        ) as running:
            yield {
                **running,
                "repo": str(base / "course.git"),
                "clone": base / "workbook",
                "paths": paths,
                "release": base / "workbook" / "build" / "student",
                "prefix": prefix,
                "group": group,
            }
    finally:
        # kept for a failure's reader: base goes with the accounts
        if (base / "jupyterhub.log").exists():
            log_copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(base / "jupyterhub.log", log_copy)
        remove_accounts(prefix, group)
        shutil.rmtree(base, ignore_errors=True)
