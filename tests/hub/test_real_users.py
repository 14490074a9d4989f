"""The hub in real-users mode (WORKBOOK_HUB_REAL_USERS=1, run as root): one OS account per student.

Two students, the second calling themselves `root`, log in with the class password, get a server
each (their accounts are created then), pull the student release with nbgitpuller, and each one's
kernel tries to read, overwrite and list the other's files: the OS must refuse every attempt
(EACCES). `workbook check 03` runs in a student's terminal, as the student. Loopback ports are not
separated by uids, so reaching a classmate's glass box is not tested here (INSTRUCTORS.md says so).

The accounts are named with a random prefix and group of their own (`wbt1a2b-ada`, group
`wbt1a2b`), which no real account uses, and are removed with their homes when the test ends,
passed or not.
"""
import errno
import grp
import json
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import psutil
import pytest
import requests

from harness.workbook import ROOT
from hub_client import Student
from running_hub import CLASS_PASSWORD, release_repository, running_hub

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="real-users mode creates OS accounts: run as root "
                                                          "(CI does); as another user it cannot be tested")
LESSON = "03_budgeted_assembly"
TARGET = "context-engineering-workbook"
NAMES = ("ada", "root")  # a student who calls themselves root gets an account of their own, not root's
LOG = ROOT / "build" / "hub" / "real_users_jupyterhub.log"

# Run in one student's kernel: who am I, and what does the OS let me do to a classmate's files?
PROBE = '''
import errno, json, os, pwd

def attempt(action):
    try:
        action()
        return "allowed"
    except OSError as error:
        return errno.errorcode[error.errno]

other_home, other_notebook = {other_home!r}, {other_notebook!r}
print(json.dumps({{
    "umask": os.umask(0o077), "uid": os.getuid(), "gid": os.getgid(),
    "user": pwd.getpwuid(os.getuid()).pw_name, "home": os.path.expanduser("~"),
    "read": attempt(lambda: open(other_notebook).read()),
    "overwrite": attempt(lambda: open(other_notebook, "a").write(" ")),
    "plant": attempt(lambda: open(os.path.join(other_home, "planted.py"), "w").write("x")),
    "list": attempt(lambda: os.listdir(other_home)),
    "list_homes": attempt(lambda: os.listdir(os.path.dirname(other_home))),
}}))
'''


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


@pytest.fixture(scope="module")
def hub():
    python = Path(os.environ.get("WORKBOOK_HUB_PYTHON", sys.executable))
    # The interpreter and its venv (the stdlib is beside it; the workbook is a copy in it, not this clone).
    if closed := closed_to_others(python.resolve()):
        pytest.fail(f"{closed} is closed to other accounts, so a student's server cannot use {python}: run "
                    f"`make test-hub` (it makes /var/tmp/workbook-hub-venv from HUB_PYTHON, /usr/bin/python3), "
                    f"or set WORKBOOK_HUB_PYTHON to a venv every account can run.")
    tag = secrets.token_hex(2)
    prefix, group = f"wbt{tag}-", f"wbt{tag}"
    # Not under pytest's tmp folder: it is 0700 to root, and the students must reach their homes.
    base = Path(tempfile.mkdtemp(prefix="workbook-real-users-"))
    base.chmod(0o711)
    try:
        upstream = release_repository(base)
        # A repository on the hub machine belongs to root, and git refuses to pull from another user's
        # repository ("dubious ownership") unless a global or system config marks it safe; an
        # instructor serves it over https or marks it in /etc/gitconfig, the test in a config of its own.
        marked = base / "gitconfig"
        marked.write_text(f"[safe]\n\tdirectory = {upstream / '.git'}\n")
        safe = f"c.Spawner.environment['GIT_CONFIG_GLOBAL'] = {str(marked)!r}\n"
        with running_hub(base, safe, str(python), WORKBOOK_HUB_REAL_USERS="1", WORKBOOK_HUB_ACCOUNT_PREFIX=prefix,
                         WORKBOOK_HUB_ACCOUNT_GROUP=group) as running:
            yield {**running, "repo": str(upstream), "prefix": prefix, "group": group}
    finally:
        if (base / "jupyterhub.log").exists():  # kept for a failure's reader: base goes with the accounts
            LOG.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(base / "jupyterhub.log", LOG)
        remove_accounts(prefix, group)
        shutil.rmtree(base, ignore_errors=True)


def run_cell(student: Student, code: str) -> str:
    """Run `code` in a new kernel of `student` (as a one-cell notebook); what it printed."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    student.save("probe.ipynb", notebook)
    ran, _ = student.run_all("probe.ipynb")
    outputs = ran.cells[0].outputs
    assert all(out.output_type == "stream" for out in outputs), f"the probe failed for {student.name}: {outputs}"
    return "".join(out.text for out in outputs)


def test_students_are_separate_os_accounts(hub):
    students = {name: Student(hub["url"], name) for name in NAMES}
    homes = hub["state"] / "homes"
    figures = {}

    # 0. A name that cannot become an OS account name is refused at the login form.
    refused = Student(hub["url"], "ada lovelace")
    refused.session.get(f"{hub['url']}/hub/login")
    answer = refused.session.post(f"{hub['url']}/hub/login?next=", allow_redirects=False,
                                  data={"username": "Ada Lovelace", "password": CLASS_PASSWORD,
                                        "_xsrf": refused.session.cookies.get("_xsrf", "")})
    assert answer.status_code != 302 and "lowercase letters" in answer.text, \
        f"the name 'Ada Lovelace' was let in ({answer.status_code}): OS account names cannot hold a space"

    # 1. Log in, spawn both at once: each account is created at its first start.
    for student in students.values():
        student.login(CLASS_PASSWORD)
    start = time.monotonic()
    with ThreadPoolExecutor(len(NAMES)) as pool:
        spawn = dict(zip(NAMES, pool.map(lambda s: s.spawn(), students.values())))
    figures["spawn_s"] = {name: round(seconds, 1) for name, seconds in spawn.items()}
    figures["spawn_both_s"] = round(time.monotonic() - start, 1)
    accounts = {name: pwd.getpwnam(hub["prefix"] + name) for name in NAMES}
    for name, account in accounts.items():
        assert account.pw_uid != 0 and account.pw_name in grp.getgrnam(hub["group"]).gr_mem, account
        home = os.lstat(homes / name)
        assert (home.st_uid, stat.S_IMODE(home.st_mode)) == (account.pw_uid, 0o700), \
            f"{name}'s home: owner uid {home.st_uid}, mode {oct(stat.S_IMODE(home.st_mode))}"
        assert grp.getgrgid(account.pw_gid).gr_mem == [] and grp.getgrgid(account.pw_gid).gr_name == account.pw_name, \
            f"{name}'s primary group is not private: {grp.getgrgid(account.pw_gid)}"
    for private in ("jupyterhub.sqlite", "cookie_secret"):
        mode = stat.S_IMODE((hub["state"] / private).stat().st_mode)
        assert mode & 0o077 == 0, f"the hub's {private} is open to students: mode {oct(mode)}"
    for folder in (hub["state"], homes):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o711, f"{folder} lets students list it"
    state = requests.get(f"{hub['url']}/hub/api/users/{NAMES[0]}", headers=hub["admin"]).json()
    server = psutil.Process(state["servers"][""]["state"]["pid"])
    assert server.uids().real == accounts[NAMES[0]].pw_uid, f"{NAMES[0]}'s server runs as uid {server.uids()}"

    # 2. The release pulled into each home, owned by the student.
    with ThreadPoolExecutor(len(NAMES)) as pool:
        pulled = dict(zip(NAMES, pool.map(lambda s: s.git_pull(hub["repo"], "student", TARGET), students.values())))
    for name, events in pulled.items():
        assert events[-1].get("phase") == "finished", f"{name}'s pull: {events[-3:]}"
        lesson = homes / name / TARGET / "lessons" / f"{LESSON}.ipynb"
        assert lesson.is_file() and lesson.stat().st_uid == accounts[name].pw_uid, f"{name}'s pulled lesson: {lesson}"

    # 3. Each kernel runs as its student and is refused the classmate's files by the OS.
    for name, other in zip(NAMES, reversed(NAMES)):
        report = json.loads(run_cell(students[name], PROBE.format(
            other_home=str(homes / other), other_notebook=str(homes / other / TARGET / "lessons" / f"{LESSON}.ipynb"))))
        account = accounts[name]
        assert (report["uid"], report["gid"], report["user"], report["home"]) == \
               (account.pw_uid, account.pw_gid, account.pw_name, str(homes / name)), f"{name}'s kernel: {report}"
        assert report["umask"] == 0o077, f"{name}'s kernel makes files others may read: umask {oct(report['umask'])}"
        refused = {what: report[what] for what in ("read", "overwrite", "plant", "list", "list_homes")}
        assert refused == dict.fromkeys(refused, errno.errorcode[errno.EACCES]), \
            f"{name}'s kernel was allowed at {other}'s files: {refused}"
    kernels = [p for p in server.children(recursive=True) if "ipykernel" in " ".join(p.cmdline())]
    assert kernels and {p.uids().real for p in kernels} == {accounts[NAMES[0]].pw_uid}, \
        f"{NAMES[0]}'s kernels run as {[p.uids() for p in kernels]}"

    # 4. `workbook check 03` in a terminal, as the student, on the student's own copy.
    first = students[NAMES[0]]
    status, output = first.terminal("id -un")
    assert status == 0 and accounts[NAMES[0]].pw_name in output, output[-500:]
    start = time.monotonic()
    status, output = first.terminal("workbook check 03")
    figures["check_s"] = round(time.monotonic() - start, 1)
    said = re.findall(rf"^\s*{LESSON}\s+(\S+)\s+not attempted", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output), re.M)
    assert status == 1 and sorted(said) == ["3.1", "3.2"], f"`workbook check 03` said:\n{output[-1500:]}"

    figures["load_average_1min"] = round(os.getloadavg()[0], 1)  # other work on the machine at the time
    print("\nreal-users hub figures (measured here):", json.dumps(figures))


def test_an_account_or_home_not_made_for_the_workbook_is_refused():
    sys.path.insert(0, str(ROOT / "hub"))
    from real_users import ensure_account

    tag = secrets.token_hex(2)
    prefix, group = f"wbt{tag}-", f"wbt{tag}"
    homes = Path(tempfile.mkdtemp(prefix="workbook-real-users-"))
    try:
        subprocess.run(["useradd", "--no-create-home", "--home-dir", str(homes / "taken"), f"{prefix}taken"],
                       check=True)
        with pytest.raises(PermissionError, match="not in group"):
            ensure_account(f"{prefix}taken", group, homes / "taken")
        (homes / "left").mkdir()  # a folder left by the other mode, owned by root
        with pytest.raises(PermissionError, match="does not belong to"):
            ensure_account(f"{prefix}left", group, homes / "left")
        made = ensure_account(f"{prefix}new", group, homes / "new")
        assert made.pw_uid != 0 and stat.S_IMODE((homes / "new").stat().st_mode) == 0o700
        assert ensure_account(f"{prefix}new", group, homes / "new") == made  # a second start finds it
    finally:
        remove_accounts(prefix, group)
        shutil.rmtree(homes, ignore_errors=True)
