"""The hub's default mode, as root: one OS account per student, the hub's secrets its own.

Two students, the second calling themselves `root`, log in with the class password, get a server
each (their accounts are created then), pull the student release with nbgitpuller, and each one's
kernel tries to read, overwrite and list the other's files, and to read the admin password, the
cookie secret, the hub's database, the hub's environment and the course clone's solutions/: the OS
must refuse every attempt (EACCES), and the kernel's own environment holds no secret of the hub.
`workbook check 03` runs in a student's terminal, as the student. Loopback ports are not separated
by uids, so reaching a classmate's glass box is not tested here (INSTRUCTORS.md says so).
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
from hub_client import Student
from running_hub import CLASS_PASSWORD, remove_accounts

from harness.workbook import ROOT
from harness.workbook.gradebook import file_key

LESSON = "03_budgeted_assembly"
TARGET = "context-engineering-workbook"
KILLED_GONE_S = 30  # a killed process is gone well within this, however loaded the machine
# a student who calls themselves root gets an account of their own, not root's
NAMES = (
    "ivy",
    "root",
)

# The start of each probe run in a student's kernel: what the OS says to one action.
ATTEMPT = """
import errno, json, os, pwd

def attempt(action):
    try:
        action()
        return "allowed"
    except OSError as error:
        return errno.errorcode[error.errno]
"""
# Run in one student's kernel: who am I, and what does the OS let me do to a classmate's files?
PROBE = (
    ATTEMPT
    + """
other_home, other_notebook, hub_files = {other_home!r}, {other_notebook!r}, {hub_files!r}
hub_secrets = {{name: attempt(lambda path=path: open(path, "rb").read()) for name, path in hub_files.items()}}
print(json.dumps({{
    **hub_secrets,
    "umask": os.umask(0o077), "uid": os.getuid(), "gid": os.getgid(),
    "user": pwd.getpwuid(os.getuid()).pw_name, "home": os.path.expanduser("~"),
    "read": attempt(lambda: open(other_notebook).read()),
    "overwrite": attempt(lambda: open(other_notebook, "a").write(" ")),
    "plant": attempt(lambda: open(os.path.join(other_home, "planted.py"), "w").write("x")),
    "list": attempt(lambda: os.listdir(other_home)),
    "list_homes": attempt(lambda: os.listdir(os.path.dirname(other_home))),
}}))
"""
)


# Run in a student's kernel after grading: what the OS lets them do to the instructor's grades.
GRADES_PROBE = (
    ATTEMPT
    + """
print(json.dumps({{**{{name: attempt(lambda path=path: open(path, "rb").read()) for name, path in {grades!r}.items()}},
                  "list": attempt(lambda: os.listdir({out!r}))}}))
"""
)
# Run in a student's kernel: a process in a session of its own, which outlives its kernel.
DETACH = "import subprocess\nprint(subprocess.Popen(['sleep', '3600'], start_new_session=True).pid)"


def run_cell(student: Student, code: str) -> str:
    """Run `code` in a new kernel of `student` (as a one-cell notebook); what it printed."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    student.save("probe.ipynb", notebook)
    ran, _ = student.run_all("probe.ipynb")
    outputs = ran.cells[0].outputs
    assert all(out.output_type == "stream" for out in outputs), (
        f"the probe failed for {student.name}: {outputs}"
    )
    return "".join(out.text for out in outputs)


def test_students_are_separate_os_accounts(hub):
    students = {name: Student(hub["url"], name) for name in NAMES}
    homes = hub["state"] / "homes"
    figures = {}

    # 0. A name that cannot become an OS account name is refused at the login form.
    refused = Student(hub["url"], "ada lovelace")
    refused.session.get(f"{hub['url']}/hub/login")
    answer = refused.session.post(
        f"{hub['url']}/hub/login?next=",
        allow_redirects=False,
        data={
            "username": "Ada Lovelace",
            "password": CLASS_PASSWORD,
            "_xsrf": refused.session.cookies.get("_xsrf", ""),
        },
    )
    assert answer.status_code != 302 and "lowercase letters" in answer.text, (
        f"the name 'Ada Lovelace' was let in ({answer.status_code}): OS account names cannot hold a"
        " space"
    )

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
        assert (home.st_uid, stat.S_IMODE(home.st_mode)) == (
            account.pw_uid,
            0o700,
        ), f"{name}'s home: owner uid {home.st_uid}, mode {oct(stat.S_IMODE(home.st_mode))}"
        assert (
            grp.getgrgid(account.pw_gid).gr_mem == []
            and grp.getgrgid(account.pw_gid).gr_name == account.pw_name
        ), f"{name}'s primary group is not private: {grp.getgrgid(account.pw_gid)}"
    for secret in (
        "jupyterhub.sqlite",
        "cookie_secret",
        "admin_password",
        "class_password",
        "proxy_token",
    ):
        mode = stat.S_IMODE((hub["state"] / "hub" / secret).stat().st_mode)
        assert mode & 0o077 == 0, f"the hub's {secret} is open to students: mode {oct(mode)}"
    assert stat.S_IMODE((hub["state"] / "hub").stat().st_mode) == 0o700
    for folder in (hub["state"], homes):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o711, f"{folder} lets students list it"
    state = requests.get(f"{hub['url']}/hub/api/users/{NAMES[0]}", headers=hub["admin"]).json()
    server = psutil.Process(state["servers"][""]["state"]["pid"])
    assert server.uids().real == accounts[NAMES[0]].pw_uid, (
        f"{NAMES[0]}'s server runs as uid {server.uids()}"
    )

    # 2. The release pulled into each home, owned by the student.
    with ThreadPoolExecutor(len(NAMES)) as pool:
        pulled = dict(
            zip(
                NAMES,
                pool.map(lambda s: s.git_pull(hub["repo"], "student", TARGET), students.values()),
            )
        )
    for name, events in pulled.items():
        assert events[-1].get("phase") == "finished", f"{name}'s pull: {events[-3:]}"
        lesson = homes / name / TARGET / "lessons" / f"{LESSON}.ipynb"
        assert lesson.is_file() and lesson.stat().st_uid == accounts[name].pw_uid, (
            f"{name}'s pulled lesson: {lesson}"
        )

    # 3. Each kernel runs as its student and is refused the classmate's files and the hub's by the
    #    OS.
    private = hub["state"] / "hub"
    hub_files = {
        "admin_password": str(private / "admin_password"),
        "class_password_file": str(private / "class_password"),
        "cookie_secret": str(private / "cookie_secret"),
        "database": str(private / "jupyterhub.sqlite"),
        "proxy_token": str(private / "proxy_token"),
        "hub_environ": f"/proc/{hub['pid']}/environ",
        "solutions": str(hub["clone"] / "solutions" / f"{LESSON}.ipynb"),
    }
    assert all(Path(path).exists() for path in hub_files.values()), (
        "a file the probe tries does not exist"
    )
    hub_secrets = [
        Path(hub_files[n]).read_text().strip()
        for n in ("admin_password", "cookie_secret", "proxy_token")
    ]
    environment = run_cell(
        students[NAMES[0]], "import os, json; print(json.dumps(dict(os.environ)))"
    )
    assert not [s for s in hub_secrets if s in environment], (
        "a secret of the hub is in a student's environment"
    )
    for name, other in zip(NAMES, reversed(NAMES)):
        report = json.loads(
            run_cell(
                students[name],
                PROBE.format(
                    other_home=str(homes / other),
                    other_notebook=str(homes / other / TARGET / "lessons" / f"{LESSON}.ipynb"),
                    hub_files=hub_files,
                ),
            )
        )
        account = accounts[name]
        assert (report["uid"], report["gid"], report["user"], report["home"]) == (
            account.pw_uid,
            account.pw_gid,
            account.pw_name,
            str(homes / name),
        ), f"{name}'s kernel: {report}"
        assert report["umask"] == 0o077, (
            f"{name}'s kernel makes files others may read: umask {oct(report['umask'])}"
        )
        refused = {
            what: report[what]
            for what in ("read", "overwrite", "plant", "list", "list_homes", *hub_files)
        }
        assert refused == dict.fromkeys(refused, errno.errorcode[errno.EACCES]), (
            f"{name}'s kernel was allowed at {other}'s files: {refused}"
        )
    kernels = [p for p in server.children(recursive=True) if "ipykernel" in " ".join(p.cmdline())]
    assert kernels and {p.uids().real for p in kernels} == {accounts[NAMES[0]].pw_uid}, (
        f"{NAMES[0]}'s kernels run as {[p.uids() for p in kernels]}"
    )

    # 4. `workbook check 03` in a terminal, as the student, on the student's own copy.
    first = students[NAMES[0]]
    status, output = first.terminal("id -un")
    assert status == 0 and accounts[NAMES[0]].pw_name in output, output[-500:]
    start = time.monotonic()
    status, output = first.terminal("workbook check 03")
    figures["check_s"] = round(time.monotonic() - start, 1)
    said = re.findall(
        rf"^\s*{LESSON}\s+(\S+)\s+not attempted",
        re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output),
        re.M,
    )
    assert status == 1 and sorted(said) == [
        "3.1",
        "3.2",
    ], f"`workbook check 03` said:\n{output[-1500:]}"

    # 5. Graded into a folder a student can reach (INSTRUCTORS.md's /root/grades is closed anyway):
    #    grade makes it the instructor's alone, so no student reads the gradebook nor a classmate's
    #    results.
    collected, out, pristine = (
        hub["base"] / "collected",
        hub["base"] / "grades-outside-root",
        hub["base"] / "lesson",
    )
    shutil.copytree(homes, collected, symlinks=True)
    pristine.mkdir()
    shutil.copy2(hub["release"] / "lessons" / f"{LESSON}.ipynb", pristine)
    graded = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "grade",
            str(collected),
            "--out",
            str(out),
            "--lessons",
            str(pristine),
            "--jobs",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert graded.returncode == 0 and "0700" in graded.stdout, (
        graded.stdout[-1500:] + graded.stderr[-1500:]
    )
    for name, other in zip(NAMES, reversed(NAMES)):
        grades = {
            "gradebook": str(out / "gradebook.csv"),
            "lms": str(out / "lms.csv"),
            "classmate": str(out / "results" / f"{file_key(other)}.json"),
            "own_feedback": str(out / "feedback" / f"{file_key(name)}.html"),
        }
        assert all(Path(path).is_file() for path in grades.values()), grades
        tried = json.loads(
            run_cell(students[name], GRADES_PROBE.format(grades=grades, out=str(out)))
        )
        assert tried == dict.fromkeys(tried, errno.errorcode[errno.EACCES]), (
            f"{name} reached the grades: {tried}"
        )

    # 6. A process a kernel detached (a new session: no signal to the server's group reaches it)
    #    ends with the student's server: the spawner's stop ends every process of the account.
    detached = int(run_cell(first, DETACH).strip())
    uid = accounts[NAMES[0]].pw_uid
    assert psutil.Process(detached).uids().real == uid
    stopped = requests.delete(
        f"{hub['url']}/hub/api/users/{NAMES[0]}/server", headers=hub["admin"], timeout=300
    )
    assert stopped.status_code in (
        202,
        204,
    ), f"stopping the server: {stopped.status_code} {stopped.text[:300]}"
    while requests.get(f"{hub['url']}/hub/api/users/{NAMES[0]}", headers=hub["admin"]).json()[
        "servers"
    ]:
        # 202: the stop is under way; the API lists the server until its stop() has returned
        time.sleep(0.5)
    # Killed, a process may still take a moment to go (a page fault on a loaded machine, then its
    # reaping): what counts is that none is left running, so the check waits a while for them.
    deadline = time.monotonic() + KILLED_GONE_S
    while left := [
        p.pid
        for p in psutil.process_iter(["uids", "status"])
        if p.info["uids"]
        and p.info["uids"].real == uid
        and p.info["status"] != psutil.STATUS_ZOMBIE
    ]:
        if time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert not left, (
        f"{NAMES[0]}'s processes {left} outlived the server by {KILLED_GONE_S} s (the detached one"
        f" was {detached})"
    )

    # other work on the machine at the time
    figures["load_average_1min"] = round(os.getloadavg()[0], 1)
    print("\nreal-users hub figures (measured here):", json.dumps(figures))


def test_an_account_or_home_not_made_for_the_workbook_is_refused():
    sys.path.insert(0, str(ROOT / "hub"))
    from real_users import ensure_account

    tag = secrets.token_hex(2)
    prefix, group = f"wbt{tag}-", f"wbt{tag}"
    homes = Path(tempfile.mkdtemp(prefix="workbook-real-users-"))
    try:
        subprocess.run(
            ["useradd", "--no-create-home", "--home-dir", str(homes / "taken"), f"{prefix}taken"],
            check=True,
        )
        with pytest.raises(PermissionError, match="not in group"):
            ensure_account(f"{prefix}taken", group, homes / "taken")
        (homes / "left").mkdir()  # a folder left by the other mode, owned by root
        with pytest.raises(PermissionError, match="does not belong to"):
            ensure_account(f"{prefix}left", group, homes / "left")
        made = ensure_account(f"{prefix}new", group, homes / "new")
        assert made.pw_uid != 0 and stat.S_IMODE((homes / "new").stat().st_mode) == 0o700
        # a second start finds it
        assert ensure_account(f"{prefix}new", group, homes / "new") == made
    finally:
        remove_accounts(prefix, group)
        shutil.rmtree(homes, ignore_errors=True)
