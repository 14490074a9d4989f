"""The agent's commands in the jail (harness.plumbing.jail): each escape of issue 19, tried jailed
and with the jail forced off (where every command is then refused unless the student opts in); then
issue 29's, as root (CI runs as root): the host's kernel settings, its keyrings, the exit status,
the limits, and a hostile set by class, each tried as model-written test code would.

"Outside" is a folder beside the workspace holding a secret, as a student's other files would be.
"""

import ast
import ctypes
import os
import platform
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from harness import tools
from harness.plumbing import jail as jail_program
from harness.scenarios import copy_task
from harness.tools import Workspace

SECRET = "outside-secret-3141"
# built here: no key-shaped string in the repo
FAKE_KEY = "AIza" + "FAKE-secret-key-0123456789abcdefghijk"


@pytest.fixture(params=["jailed", "jail forced off"])
def mode(request, monkeypatch):
    if request.param == "jailed":
        assert tools.jail_mode() is not None, (
            "this Linux machine should jail commands (root or user namespaces)"
        )
    else:
        monkeypatch.setattr(tools, "jail_mode", lambda: None)
        monkeypatch.delenv(tools.UNJAILED_SWITCH, raising=False)
    tools._discard_warm_helper()
    yield request.param
    tools._discard_warm_helper()


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(SECRET + "\n")
    (folder / "test_outside.py").write_text(f"def test_outside():\n    print({SECRET!r})\n")
    return folder


@pytest.fixture
def ws(tmp_path):
    return Workspace(copy_task(tmp_path / "task"))


def refused_or(mode, out: str) -> bool:
    """Jail forced off, nothing the model wrote may run: the command must be refused outright."""
    if mode != "jailed":
        assert out.startswith("ERROR: this machine cannot run the model's commands in a jail"), out[
            :300
        ]
        assert tools.UNJAILED_SWITCH in out, "the refusal must name the switch that opts in"
    return True


def nothing_written(folder) -> bool:
    return sorted(p.name for p in folder.iterdir()) == ["secret.txt", "test_outside.py"]


def _ini(ws, *lines):
    (ws.root / "pytest.ini").write_text("[pytest]\n" + "\n".join(lines) + "\n")


@pytest.mark.parametrize(
    "lines",
    [
        ("log_file = {o}/log.txt",),
        ("addopts = --junitxml={o}/junit.xml",),
        ("testpaths = {o}",),
        ("addopts = --rootdir={o} {o}",),
        ("cache_dir = {o}/cache", "addopts = -p cacheprovider"),
    ],
    ids=["log_file", "junitxml", "testpaths", "rootdir", "cache_dir"],
)
def test_pytest_ini_options_reach_nothing_outside(ws, outside, mode, lines):
    _ini(ws, *(line.format(o=outside) for line in lines))
    out = ws.run_command("pytest -s")
    assert refused_or(mode, out) and SECRET not in out and nothing_written(outside)


def test_pytest_reading_its_arguments_from_a_file_reaches_nothing_outside(ws, outside, mode):
    (ws.root / "README.md").write_text(
        f"-o\nlog_file={outside}/log.txt\n-s\n{outside}/test_outside.py\n"
    )
    out = ws.run_command("pytest @README.md")
    assert refused_or(mode, out) and SECRET not in out and nothing_written(outside)


def test_wc_reading_file_names_from_a_file_reads_nothing_outside(ws, outside, mode):
    (ws.root / "README.md").write_text(f"{outside}/secret.txt\0")
    out = ws.run_command("wc -c --files0-from=README.md")
    assert refused_or(mode, out) and f"{len(SECRET) + 1} {outside}" not in out


def test_a_conftest_reads_and_writes_nothing_outside(ws, outside, mode):
    (ws.root / "conftest.py").write_text(
        f"import os\nfor path in ({str(outside / 'secret.txt')!r}, '/etc/shadow',"
        " os.path.expanduser('~/.bash_history')):\n    try:\n        print('READ',"
        " open(path).read())\n    except OSError as error:\n        print('NO', error)\nfor path"
        f" in ({str(outside / 'written.txt')!r}, '/usr/written.txt', '/written.txt'):\n    try:\n  "
        "      open(path, 'w').write('x')\n        print('WROTE', path)\n    except OSError as"
        " error:\n        print('NO', error)\n"
    )
    out = ws.run_command("pytest -q -s")
    assert refused_or(mode, out) and SECRET not in out and "READ" not in out and "WROTE" not in out
    assert nothing_written(outside) and not os.path.exists("/usr/written.txt")


def test_the_jail_sees_only_the_workspace_python_and_system_folders(ws, mode):
    (ws.root / "conftest.py").write_text(
        "import os\nprint('ROOT', sorted(os.listdir('/')))\n"
        "print('PIDS', sorted(p for p in os.listdir('/proc') if p.isdigit()))\n"
    )
    out = ws.run_command("pytest -q -s")
    if refused_or(mode, out) and mode == "jailed":
        top = eval(out.split("ROOT ", 1)[1].splitlines()[0])
        assert set(top) <= {
            "bin",
            "dev",
            "etc",
            "lib",
            "lib32",
            "lib64",
            "libx32",
            "proc",
            "sbin",
            "tmp",
            "usr",
            *str(ws.root).split("/")[1:2],
            *os.path.realpath(os.sys.base_prefix).split("/")[1:2],
            *os.path.realpath(os.sys.prefix).split("/")[1:2],
        }, top
        pids = eval(out.split("PIDS ", 1)[1].splitlines()[0])
        assert len(pids) <= 3, f"/proc shows other processes: {pids}"


def test_the_harness_environment_is_out_of_reach(ws, mode, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", FAKE_KEY)
    # a secret under a name no rule catches
    monkeypatch.setenv("SOMETHING_INNOCENT", FAKE_KEY[::-1])
    tools._discard_warm_helper()
    # The jail alone must keep the environment out: the output's redaction, a second layer, is off
    # here (it would also rewrite a base64 line that happens to end like a reversed key: 32 in
    # 60,000 random workbook-command paths did).
    monkeypatch.setattr(tools, "redact", lambda text: text)
    (ws.root / "conftest.py").write_text(
        "import base64, os\nfor pid in [p for p in os.listdir('/proc') if p.isdigit()]:\n    try:\n"
        "        data = open(f'/proc/{pid}/environ', 'rb').read()\n    except OSError:\n       "
        " continue\n    print('ENV', pid, base64.b64encode(data).decode(),"
        " data[::-1])\nprint('MINE', base64.b64encode(repr(dict(os.environ)).encode()).decode())\n"
    )
    out = ws.run_command("pytest -q -s")
    import base64

    decoded = " ".join(
        base64.b64decode(word + "==").decode(errors="replace")
        for line in out.splitlines()
        for word in line.split()[1:3]
        if line.startswith(("ENV", "MINE")) and len(word) > 20
    )
    assert refused_or(mode, out)
    assert "AIza" not in decoded and FAKE_KEY[::-1] not in decoded and FAKE_KEY[::-1] not in out
    assert FAKE_KEY.encode()[::-1].decode() not in out


def test_no_process_outlives_its_command(ws, outside, mode):
    marker = f"survivor-{os.getpid()}-{time.monotonic_ns()}"
    (ws.root / "conftest.py").write_text(
        "import subprocess, sys\ncode = 'import time\\nwhile True: time.sleep(0.1)  #"
        f" {marker}'\nfor _ in range(3):\n    subprocess.Popen([sys.executable, '-c', code],"
        " start_new_session=True, stdout=subprocess.DEVNULL,\n                    "
        " stderr=subprocess.DEVNULL)\nimport os\nif os.fork() == 0:\n    os.setsid()\n    import"
        " time\n    time.sleep(60)\n    os._exit(0)\n"
    )
    out = ws.run_command("pytest -q")
    assert refused_or(mode, out)
    time.sleep(0.3)
    alive = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in open(f"/proc/{pid}/cmdline", "rb").read():
                alive.append(pid)
        except OSError:
            pass
    for pid in alive:
        os.kill(int(pid), signal.SIGKILL)
    assert alive == [], f"{len(alive)} processes outlived the command"


def _swapper(ws, outside, stop):
    """Swap notes.txt between a plain file and a symlink to the secret, as fast as it goes."""
    target = ws.root / "notes.txt"
    while not stop.is_set():
        try:
            target.unlink()
            os.symlink(outside / "secret.txt", target)
            target.unlink()
            target.write_text("plain notes\n")
        except OSError:
            pass


def test_swapping_a_file_for_a_symlink_leaks_nothing(ws, outside, mode):
    """The race the issue found (46 of 5,000 read_file calls leaked): checked at use, none can."""
    (ws.root / "notes.txt").write_text("plain notes\n")
    before = (outside / "secret.txt").read_text()
    stop = threading.Event()
    thread = threading.Thread(target=_swapper, args=(ws, outside, stop), daemon=True)
    thread.start()
    try:
        outputs = [ws.read_file("notes.txt") for _ in range(1500)]
        outputs += [ws.edit_file("notes.txt", "plain", "edited") for _ in range(300)]
        outputs += [ws.list_files(".") for _ in range(50)]
        outputs += [ws.run_command("grep -R . notes.txt") for _ in range(10)]
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not any(SECRET in out for out in outputs)
    assert (outside / "secret.txt").read_text() == before, "edit_file rewrote a file outside"


def test_a_hard_link_to_a_file_outside_is_refused(ws, outside, mode):
    (ws.root / "tests" / "test_link.py").write_text(
        f"import os\ndef test_link():\n    os.link({str(outside / 'secret.txt')!r}, 'linked.txt')\n"
    )
    out = ws.run_command("pytest -q tests/test_link.py")
    assert refused_or(mode, out) and not (ws.root / "linked.txt").exists()
    # The link made for it (the jail shows no outside file to link to): the file tools refuse it at
    # use.
    os.link(outside / "secret.txt", ws.root / "notes.txt")
    assert ws.read_file("notes.txt").startswith("ERROR: notes.txt is a hard link")
    assert ws.edit_file("notes.txt", "outside", "x").startswith("ERROR: notes.txt is a hard link")
    assert (outside / "secret.txt").read_text() == SECRET + "\n"


def test_a_fifo_does_not_hang_a_tool(ws):
    os.mkfifo(ws.root / "pipe.txt")
    assert ws.read_file("pipe.txt").startswith("ERROR: pipe.txt is not a plain file")


def test_list_files_is_capped(ws):
    folder = ws.root / "many"
    folder.mkdir()
    for i in range(20_000):
        (folder / f"file_with_a_rather_long_name_{i:06d}.txt").touch()
    out = ws.list_files(".")
    assert len(out.encode()) <= tools.OUTPUT_CAP_BYTES and "[list cut at 100,000 bytes" in out


def test_exit_codes_are_the_programs(ws, mode):
    out = ws.run_command("cat nothere.txt")
    if refused_or(mode, out) and mode == "jailed":
        assert out.startswith("exit code 1\n"), out
        (ws.root / "conftest.py").write_text(
            "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
        )
        assert ws.run_command("pytest -q").startswith("killed by SIGKILL"), (
            "a killed program must say so"
        )


def test_opting_in_runs_the_command_without_a_jail(ws, monkeypatch):
    monkeypatch.setattr(tools, "jail_mode", lambda: None)
    monkeypatch.setenv(tools.UNJAILED_SWITCH, "1")
    tools._discard_warm_helper()
    try:
        assert ws.run_command("cat nothere.txt").startswith("exit code 1")
    finally:
        tools._discard_warm_helper()


def test_an_empty_root_is_refused():
    with pytest.raises(ValueError, match="root is empty"):
        Workspace("")


# --- issue 29: the jail as root (the program's own uid), its limits, the keeper's word ---------


def _run_test(ws, body: str) -> str:
    """`body` as the one test of tests/test_hostile.py, run with pytest -q -s: the tool's text."""
    (ws.root / "tests" / "test_hostile.py").write_text(
        "def test_hostile():\n" + textwrap.indent(textwrap.dedent(body), "    ") + "\n"
    )
    ws.new_turn()
    return ws.run_command("pytest -q -s tests/test_hostile.py")


def _printed(out: str, tag: str):
    """The Python value the test printed after `tag` (on a line of its own)."""
    # pytest -v prints the test's name first, on the same line
    found = re.search(rf"(?:^|\s){tag} (.*)$", out, re.MULTILINE)
    assert found, f"the test printed no {tag} line:\n{out[:2000]}"
    return ast.literal_eval(found.group(1))


@pytest.fixture
def jailed(ws):
    """A workspace whose commands run in the jail: as root wherever the tests run as root (CI)."""
    assert tools.jail_mode() == ("root" if os.geteuid() == 0 else "user namespace"), (
        tools.jail_mode()
    )
    return ws


HOST_SETTINGS = (
    "/proc/sys/fs/lease-break-time",
    "/proc/sys/kernel/core_pattern",
    "/proc/sys/kernel/hostname",
    "/proc/sys/vm/drop_caches",
    "/proc/sys/kernel/pid_max",
    "/proc/sys/vm/overcommit_memory",
    "/proc/sysrq-trigger",
    "/proc/irq/default_smp_affinity",
    "/proc/sys/kernel/sysrq",
)


def test_no_host_kernel_setting_opens_for_writing(jailed):
    """Every file of /proc (but the program's own processes') and /sys that is not open to all,
    opened for writing and closed unwritten: none may open (a write to core_pattern runs a program
    as the host's root). Those open to all (a process's attr/, timerslack_ns) are checked at write:
    the jail's keepers' current values, written back, must be refused."""
    out = _run_test(
        jailed,
        f"""\
        import os
        own = {{str(os.getpid()), "self", "thread-self"}}
        opened = []
        for pid in ("1", "2"):
            for name in ("timerslack_ns", "attr/current", "comm", "oom_score_adj"):
                try:
                    value = open(f"/proc/{{pid}}/{{name}}", "rb").read()
                    with open(f"/proc/{{pid}}/{{name}}", "wb", buffering=0) as file:
                        file.write(value)
                    opened.append(f"/proc/{{pid}}/{{name}} written")
                except OSError:
                    pass
        for path in {HOST_SETTINGS!r}:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                opened.append(path)
            except OSError:
                pass
        for top in ("/proc", "/sys"):
            folders = [top]
            while folders:
                folder = folders.pop()
                try:
                    entries = list(os.scandir(folder))
                except OSError:
                    continue
                for entry in entries:
                    theirs = entry.name.isdigit() and entry.name not in ("1", "2")  # 1, 2: keepers
                    if folder == "/proc" and (entry.name in own or theirs):
                        continue  # the program's own processes
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(entry.path)
                    elif entry.is_file(follow_symlinks=False) and not entry.stat().st_mode & 0o002:
                        try:
                            os.close(os.open(entry.path, os.O_WRONLY | os.O_NONBLOCK))
                            opened.append(entry.path)
                        except OSError:
                            pass
        print("OPENED", sorted(set(opened)))
        """,
    )
    assert _printed(out, "OPENED") == [], out[:3000]


def test_what_proc_tells_of_the_machine_is_hidden(jailed):
    out = _run_test(
        jailed,
        """\
        shown = {}
        for name in ("kcore", "keys", "key-users", "timer_list", "sched_debug", "interrupts"):
            try:
                shown[name] = len(open("/proc/" + name, "rb").read(4096))
            except OSError:
                pass
        print("SHOWN", {name: size for name, size in shown.items() if size})
        """,
    )
    assert _printed(out, "SHOWN") == {}, out[:2000]


KEY_CALLS = """\
    import ctypes, os, platform
    libc = ctypes.CDLL(None, use_errno=True)
    x86 = platform.machine() == "x86_64"
    ADD_KEY, REQUEST_KEY, KEYCTL = (248, 249, 250) if x86 else (217, 218, 219)
    def call(number, *args):
        result = libc.syscall(number, *args)
        return result if result >= 0 else -ctypes.get_errno()
    made = {}
    rings = (("thread", -1), ("process", -2), ("session", -3), ("user", -4), ("user-session", -5))
    for name, ring in rings:
        made["add " + name] = call(ADD_KEY, b"user", NAME, b"secret", 6, ctypes.c_int(ring))
    made["request"] = call(REQUEST_KEY, b"user", NAME, None, ctypes.c_int(-4))
    made["join session"] = call(KEYCTL, 1, NAME)  # KEYCTL_JOIN_SESSION_KEYRING
    made["user keyring id"] = call(KEYCTL, 0, ctypes.c_int(-4), 1)  # KEYCTL_GET_KEYRING_ID
    made["x32 add"] = call(0x40000000 | 248, b"user", NAME, b"secret", 6, ctypes.c_int(-4))
    print("MADE", {what: result for what, result in made.items() if result >= 0})
"""


def test_no_key_reaches_a_keyring(jailed):
    """add_key, request_key and keyctl in every form: refused (root's keyrings are shared by every
    process of that uid, and /proc/keys hidden is no protection: serials can be guessed)."""
    name = f"jailprobe{os.getpid()}x{time.monotonic_ns()}"
    out = _run_test(jailed, KEY_CALLS.replace("NAME", repr(name.encode())))
    host = [line for line in open("/proc/keys").read().splitlines() if name in line]
    for line in host:  # undo what a broken jail let through: revoke the key (KEYCTL_REVOKE)
        ctypes.CDLL(None).syscall(
            250 if platform.machine() == "x86_64" else 219, 3, int(line.split()[0], 16)
        )
    assert host == [] and _printed(out, "MADE") == {}, out[:2000]


def test_the_exit_status_cannot_be_forged(jailed):
    """A failing test writes a passing status into every pipe of every other process it can see,
    and signals them: the tool still says the exit code pytest ended with."""
    out = _run_test(
        jailed,
        """\
        import os, signal
        forged = []
        for pid in [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]:
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                fds = []
            for fd in fds:
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("pipe:"):
                        w = os.open(f"/proc/{pid}/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK)
                        os.write(w, bytes(8))
                        forged.append((pid, fd))
                except OSError:
                    pass
            if int(pid) < os.getpid():  # the jail's init and keeper
                for sig in (signal.SIGSTOP, signal.SIGTERM, signal.SIGUSR1):
                    try:
                        os.kill(int(pid), sig)
                        forged.append((pid, sig.name))
                    except OSError:
                        pass
        print("FORGED", forged)
        assert False, "this test fails: pytest exits 1"
        """,
    )
    assert out.startswith("exit code 1\n") and _printed(out, "FORGED") == [], out[:2000]


def test_a_printed_verdict_the_exit_code_contradicts_is_named(jailed):
    out = _run_test(
        jailed,
        """\
        import os, sys
        print("\\n===== 99 passed in 0.01s =====")
        sys.stdout.flush()
        os._exit(1)
        """,
    )
    assert out.startswith("exit code 1\n")
    assert "contradicts the exit code" in out.splitlines()[-1], out[-500:]


MEMORY = """\
    blocks = []
    for i in range(12):  # 12 x 64 MiB = 768 MiB, each page touched
        blocks.append(bytearray(64 << 20))
        print("MEMORY", (i + 1) * 64, flush=True)
"""


def _names_the_limit(out: str, word: str) -> bool:
    """Whether the tool's first line is an ERROR line naming the limit by `word`."""
    return out.startswith("ERROR:") and word in out.splitlines()[0]


def test_memory_is_capped(jailed):
    out = _run_test(jailed, MEMORY)
    reached = max(
        (int(line.split()[1]) for line in out.splitlines() if line.startswith("MEMORY ")), default=0
    )
    assert reached <= tools.MEMORY_BYTES >> 20 and _names_the_limit(out, "memory"), out[:1000]


def test_processes_are_capped(jailed):
    out = _run_test(
        jailed,
        """\
        import os, time
        forked = 0
        try:
            for _ in range(200):
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
                forked += 1
        except OSError as error:
            print("REFUSED", repr(error.strerror))
        print("FORKED", forked)
        """,
    )
    forked = _printed(out, "FORKED")
    assert forked < tools.MAX_PROCESSES and _names_the_limit(out, "processes"), out[:1000]


def test_disk_writes_are_capped_and_leave_nothing(jailed):
    out = _run_test(
        jailed,
        """\
        written = 0
        try:
            with open("fill.bin", "wb") as file:
                for _ in range(160):
                    file.write(bytes(1 << 20))
                    file.flush()
                    written += 1
        except OSError as error:
            print("REFUSED", repr(error.strerror))
        print("WRITTEN", written)
        """,
    )
    written = _printed(out, "WRITTEN")
    assert written <= tools.WRITE_BYTES >> 20 and _names_the_limit(out, "MiB"), out[:1000]
    assert not (jailed.root / "fill.bin").exists()


# --- a broader hostile set: each class closed, not only the instance the issue found -------------


def test_the_program_holds_no_privilege_and_can_regain_none(jailed):
    """As root: a uid no account has; always: no capability in any set, no_new_privs, seccomp."""
    out = _run_test(
        jailed,
        """\
        lines = open("/proc/self/status").read().splitlines()
        fields = dict(line.split(":\\t", 1) for line in lines if ":\\t" in line)
        names = ("Uid", "Gid", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs",
                 "Seccomp")
        print("STATUS", {name: fields[name].split()[0] for name in names})
        print("GROUPS", fields["Groups"].split())
        """,
    )
    status = _printed(out, "STATUS")
    assert all(
        int(status[name], 16) == 0 for name in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")
    ), status
    assert (
        status["NoNewPrivs"] == "1" and status["Seccomp"] == "2" and _printed(out, "GROUPS") == []
    )
    if os.geteuid() == 0:
        assert (
            int(status["Uid"]) in jail_program.UIDS and int(status["Gid"]) in jail_program.UIDS
        ), status


def test_the_keepers_cannot_be_traced_read_or_stopped(jailed):
    out = _run_test(
        jailed,
        """\
        import ctypes, os, signal
        libc = ctypes.CDLL(None, use_errno=True)
        reached = []
        for pid in (1, 2):
            for what, reach in (("environ", lambda: open(f"/proc/{pid}/environ", "rb").read()),
                                ("mem", lambda: open(f"/proc/{pid}/mem", "rb").read(1)),
                                ("fd", lambda: os.listdir(f"/proc/{pid}/fd")),
                                ("ptrace", lambda: libc.ptrace(16, pid, None, None) == 0 or 1 / 0),
                                ("SIGKILL", lambda: os.kill(pid, signal.SIGKILL)),
                                ("SIGSTOP", lambda: os.kill(pid, signal.SIGSTOP))):
                try:
                    reach()
                    reached.append((pid, what))
                except (OSError, ZeroDivisionError):
                    pass
        print("REACHED", reached)
        """,
    )
    assert out.startswith("exit code 0\n") and _printed(out, "REACHED") == [], out[:2000]


def test_no_namespace_of_its_own_nor_a_kernel_interface_tests_never_need(jailed):
    out = _run_test(
        jailed,
        """\
        import ctypes, os, platform, subprocess, sys
        libc = ctypes.CDLL(None, use_errno=True)
        x86 = platform.machine() == "x86_64"
        calls = {"unshare user": (272 if x86 else 97, 0x10000000),
                 "unshare net": (272 if x86 else 97, 0x40000000),
                 "setns": (308 if x86 else 268, 0, 0),
                 "clone newuser": (56 if x86 else 220, 0x10000000 | 17, 0),
                 "bpf": (321 if x86 else 280, 0, 0, 0),
                 "perf": (298 if x86 else 241, 0, 0, -1, -1, 0),
                 "userfaultfd": (323 if x86 else 282, 0), "io_uring": (425, 1, 0)}
        allowed = {}
        for name, (number, *args) in calls.items():
            result = libc.syscall(number, *[ctypes.c_long(a) for a in args])
            if result >= 0 or ctypes.get_errno() not in (1, 38):  # EPERM, or ENOSYS
                allowed[name] = (result, ctypes.get_errno())
        code = "import threading; threading.Thread(target=print, args=('THREAD ok',)).start()"
        threads = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        print("ALLOWED", allowed)
        print(threads.stdout.strip(), threads.returncode)
        """,
    )
    assert _printed(out, "ALLOWED") == {} and "THREAD ok 0" in out, out[:2000]


NESTED = """\
import sys, tempfile
from harness import tools
from harness.scenarios import copy_task
from harness.tools import Workspace
print("MODE", repr(tools.jail_mode()))
print("FIRST", repr(Workspace(copy_task(tempfile.mkdtemp())).run_command("pytest -q").splitlines()[0]))
"""


@pytest.mark.skipif(
    os.geteuid() != 0, reason="a graded kernel runs as a uid of its own as root only"
)
def test_a_graded_kernel_still_jails_the_agent_s_commands(tmp_path):
    """The grader's jail (a pool uid, namespaces allowed) around a kernel that runs the agent: its
    commands are jailed in turn, through a user namespace (only the agent's commands may make none).
    """
    root = str(Path(__file__).resolve().parents[1])
    uid = jail_program.claim_uid()
    tmp_path.chmod(0o777)
    try:
        words = [
            sys.executable,
            "-I",
            "-S",
            jail_program.__file__,
            "--uid",
            str(uid),
            "--loopback",
            "--write",
            str(tmp_path),
            "--cwd",
            str(tmp_path),
            "--read",
            root,
        ]
        words += [word for path in jail_program.python_paths() for word in ("--read", path)]
        env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHONPATH": root}
        run = subprocess.run(
            [*words, "--", sys.executable, "-c", NESTED],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        jail_program.release_uid(uid)
    out = run.stdout + run.stderr
    assert _printed(out, "MODE") == "user namespace" and _printed(out, "FIRST") == "exit code 1", (
        out
    )


INTERRUPTED = """import signal, sys, time
signal.signal(signal.SIGINT, lambda *_: (print("INTERRUPTED", flush=True), sys.exit(0)))
print("READY", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="a program runs as a uid of its own as root only")
def test_an_interrupt_reaches_a_program_running_as_its_own_uid(tmp_path):
    """A graded kernel's cell is interrupted by SIGINT to the jail: the keeper (uid 0, no other
    capability) must pass it on to the program, which runs as a pool uid, not die trying."""
    uid = jail_program.claim_uid()
    tmp_path.chmod(0o777)
    try:
        words = [
            sys.executable,
            "-I",
            "-S",
            jail_program.__file__,
            "--uid",
            str(uid),
            "--write",
            str(tmp_path),
            "--cwd",
            str(tmp_path),
        ]
        words += [word for path in jail_program.python_paths() for word in ("--read", path)]
        process = subprocess.Popen(
            [*words, "--", sys.executable, "-c", INTERRUPTED],
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        assert process.stdout.readline().strip() == "READY"
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
    finally:
        jail_program.release_uid(uid)
    assert "INTERRUPTED" in out and process.returncode == 0, (process.returncode, out)


# Test code that meets a limit, and the limit; each ends by printing TOUCHED all, if it gets there.
LIMIT_HITS = {
    "mmap": (
        (
            "import mmap\nblock = mmap.mmap(-1, 768 << 20)\n"
            "for i in range(0, 768 << 20, 4096):\n    block[i] = 1\n"
        ),
        "memory",
    ),
    "memfd": (
        "import os\nfor _ in range(4):\n    os.write(os.memfd_create('x'), bytes(192 << 20))\n",
        "memory",
    ),
    "threads": (
        (
            "import threading, time\nfor _ in range(200):\n"
            "    threading.Thread(target=time.sleep, args=(20,), daemon=True).start()\n"
        ),
        "processes",
    ),
    "fork bomb": (
        (
            "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n"
            "        os._exit(0)\n"
        ),
        "processes",
    ),
    "small files": ("for i in range(40_000):\n    open(f'f{i}', 'w').close()\n", "disk"),
    "small files in /tmp": (
        "for i in range(40_000):\n    open(f'/tmp/f{i}', 'w').close()\n",
        "disk",
    ),
    "/dev/shm": ("open('/dev/shm/big', 'wb').write(bytes(96 << 20))\n", "disk"),
    "many files": (
        (
            "import os\nos.mkdir('d')\nfor i in range(80):\n"
            "    open(f'd/f{i}', 'wb').write(os.urandom(1 << 20))\n"
        ),
        "disk",
    ),
}
NAMED = {"memory": "memory", "processes": "processes", "disk": "MiB"}  # what the ERROR line says


@pytest.mark.parametrize("name", LIMIT_HITS)
def test_every_way_to_a_limit_meets_it_and_says_so(jailed, name, cgroups_made, monkeypatch):
    # Each program meets its limit in about a second alone; on a loaded machine, touching 512 MiB
    # page by page took more than the agent's 8 s (CI, 2026-12-03). The time limit is not what is
    # tried here, so it is out of the way.
    monkeypatch.setattr(tools, "COMMAND_TIMEOUT_SECONDS", 120)
    body, limit = LIMIT_HITS[name]
    out = _run_test(jailed, body + "print('TOUCHED all', flush=True)\n")
    assert "TOUCHED all" not in out and _names_the_limit(out, NAMED[limit]), out[:1500]
    assert _jail_leftovers(cgroups_made) == (
        [],
        [],
    ), "a cgroup or a process of the jail outlived its command"


@pytest.fixture
def cgroups_made(monkeypatch) -> list[str]:
    """The cgroups this test's commands were given: others' commands, run at the same time by
    another test process, have theirs too, which must not count here."""
    made = []

    def recorded(*args, **kwargs):
        made.extend(folders := real(*args, **kwargs))
        return folders

    real = jail_program.cgroups_for
    monkeypatch.setattr(jail_program, "cgroups_for", recorded)
    return made


def _jail_leftovers(cgroups_made: list[str]) -> tuple[list[str], list[str]]:
    """This test's cgroups still on the machine, and the processes of this process's command uid."""
    found = [folder for folder in cgroups_made if os.path.exists(folder)]
    uid = tools._command_uid() if os.geteuid() == 0 else None
    mine = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if uid is not None and os.stat(f"/proc/{pid}").st_uid == uid:
                mine.append(pid)
        except OSError:
            pass
    return found, mine


def test_sparse_and_huge_files_are_refused_and_leave_nothing(jailed):
    out = _run_test(
        jailed,
        """\
        import errno, os
        refused = []
        with open("sparse.bin", "wb", buffering=0) as file:
            try:
                file.truncate(1 << 40)
            except OSError as error:
                refused.append(errno.errorcode[error.errno])
            try:
                file.seek(300 << 20)
                file.write(b"x")
                file.flush()
            except OSError as error:
                refused.append(errno.errorcode[error.errno])
        try:
            os.posix_fallocate(os.open("fallocated.bin", os.O_CREAT | os.O_WRONLY), 0, 128 << 20)
        except OSError as error:
            refused.append(errno.errorcode[error.errno])
        print("REFUSED", refused)
        """,
    )
    assert _printed(out, "REFUSED") == ["EFBIG", "EFBIG", "ENOSPC"], out[:1500]
    assert (
        not (jailed.root / "sparse.bin").exists() and not (jailed.root / "fallocated.bin").exists()
    )


def _tree(root) -> dict:
    """Every path under `root`, with its owner, mode and size: what a command must leave as is."""
    found = {}
    for folder, subfolders, files in os.walk(root):
        for name in subfolders + files:
            info = os.lstat(os.path.join(folder, name))
            found[os.path.relpath(os.path.join(folder, name), root)] = (
                info.st_uid,
                info.st_mode,
                info.st_size,
            )
    return found


def test_what_a_command_makes_is_gone_and_the_workspace_as_it_was(
    jailed, outside, removed_at_end, cgroups_made
):
    removed_at_end.append(jailed.root / "deep")  # were it written through: 1,200 levels deep
    before = _tree(jailed.root)
    out = _run_test(
        jailed,
        f"""\
        import os, socket, stat
        made = []
        def attempt(what, action):
            try:
                action()
                made.append(what)
            except OSError as error:
                print("NO", what, error.strerror)
        def locked():
            os.makedirs("locked/inner")
            open("locked/inner/f", "w").write("x")
            os.chmod("locked/inner", 0o500)
            os.chmod("locked", 0o500)
        attempt("nested read-only", locked)
        def deep():
            os.mkdir("deep")
            fd = os.open("deep", os.O_RDONLY)
            for _ in range(1200):
                os.mkdir("d", dir_fd=fd)
                fd, old = os.open("d", os.O_RDONLY, dir_fd=fd), fd
                os.close(old)
        attempt("deep", deep)
        attempt("setuid", lambda: (open("suid", "w").write("x"), os.chmod("suid", 0o4755)))
        attempt("fifo", lambda: os.mkfifo("fifo"))
        attempt("socket", lambda: socket.socket(socket.AF_UNIX).bind("sock"))
        attempt("device", lambda: os.mknod("mem", 0o666 | stat.S_IFCHR, os.makedev(1, 1)))
        attempt("symlink out", lambda: os.symlink({str(outside)!r}, "out"))
        attempt("hard link out", lambda: os.link("/usr/bin/env", "env"))
        attempt("edit", lambda: open("README.md", "a").write("changed by a command"))
        attempt("chmod", lambda: os.chmod("invoicing", 0o777))
        attempt("remove", lambda: os.unlink("pytest.ini"))
        print("MADE", made)
        """,
    )
    made = _printed(out, "MADE")
    assert "device" not in made and "hard link out" not in made, made
    assert "edit" in made and "deep" in made, (
        f"the workspace must look writable to the command: {out[:1500]}"
    )
    after = _tree(jailed.root)
    assert after.keys() == before.keys() | {"tests/test_hostile.py"}, sorted(
        after.keys() ^ before.keys()
    )
    assert {path: after[path] for path in before} == before
    assert _jail_leftovers(cgroups_made) == ([], [])


def test_a_workspace_path_with_overlay_syntax_in_it_is_shown_throwaway(tmp_path):
    """`,` `:` and `\\` in the workspace's path are escaped in the overlay's options."""
    ws = Workspace(copy_task(tmp_path / "odd, name:with\\marks"))
    out = _run_test(ws, "open('made.txt', 'w').write('x')\nprint('WROTE', True)\n")
    assert _printed(out, "WROTE") is True and not (ws.root / "made.txt").exists(), out[:1500]


# --- the pieces, each on its own ---------------------------------------------------------------

MOUNTINFO_V1 = (
    "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
    "39 31 0:36 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
)
MEMBERSHIP = "8:pids:/\n4:memory:/box/a\n0::/box/a\n"


def _fake_cgroups(tmp_path, delegated: str) -> str:
    for folder in (
        "sys/fs/cgroup/memory/box/a",
        "sys/fs/cgroup/pids",
        "sys/fs/cgroup/unified/box/a",
    ):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "sys/fs/cgroup/unified/box/a/cgroup.subtree_control").write_text(delegated)
    return str(tmp_path)


@pytest.mark.parametrize("delegated, version", [("cpu memory pids\n", 2), ("memory\n", 1), ("", 1)])
def test_cgroup_v2_only_where_both_controllers_are_handed_down(tmp_path, delegated, version):
    root = _fake_cgroups(tmp_path, delegated)
    found = jail_program.cgroup_parents(MOUNTINFO_V1, MEMBERSHIP, root)
    v2 = f"{root}/sys/fs/cgroup/unified/box/a"
    expected = (
        {"memory": v2, "pids": v2}
        if version == 2
        else {"memory": f"{root}/sys/fs/cgroup/memory/box/a", "pids": f"{root}/sys/fs/cgroup/pids"}
    )
    assert found == (version, expected)


def test_no_cgroup_without_both_controllers_nor_outside_the_mount(tmp_path):
    root = _fake_cgroups(tmp_path, "")
    assert (
        jail_program.cgroup_parents(MOUNTINFO_V1.replace("rw,pids", "rw,cpu"), MEMBERSHIP, root)
        is None
    )
    subtree = MOUNTINFO_V1.replace(
        "0:32 / /sys/fs/cgroup/memory", "0:32 /other /sys/fs/cgroup/memory"
    )
    assert jail_program.cgroup_parents(subtree, MEMBERSHIP, root) is None
    mounted_below = MOUNTINFO_V1.replace(
        "0:32 / /sys/fs/cgroup/memory", "0:32 /box /sys/fs/cgroup/memory"
    )
    assert (
        jail_program.cgroup_parents(mounted_below, MEMBERSHIP, root)[1]["memory"]
        == f"{root}/sys/fs/cgroup/memory/a"
    )


@pytest.mark.parametrize(
    "delegated, written",
    [
        ("memory pids", {"unified/box/a/jail1": {"memory.max": "1000", "pids.max": "7"}}),
        (
            "",
            {
                "memory/box/a/jail1": {"memory.limit_in_bytes": "1000"},
                "pids/jail1": {"pids.max": "7"},
            },
        ),
    ],
)
def test_cgroups_for_makes_and_caps_the_folders_and_reads_their_hits(tmp_path, delegated, written):
    root = _fake_cgroups(tmp_path, delegated)
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/mountinfo").write_text(MOUNTINFO_V1)
    (tmp_path / "proc/cgroup").write_text(MEMBERSHIP)
    made = jail_program.cgroups_for("jail1", 1000, 7, proc=f"{root}/proc", root=root)
    assert made == [f"{root}/sys/fs/cgroup/{folder}" for folder in written]
    for folder, files in written.items():
        assert {
            name: (tmp_path / "sys/fs/cgroup" / folder / name).read_text() for name in files
        } == files
    assert jail_program.cgroup_limits_hit(made) == []
    events = (
        ("memory.events", "oom_kill 1\nmax 3\n")
        if delegated
        else ("memory.oom_control", "oom_kill 2\n")
    )
    (Path(made[0]) / events[0]).write_text(events[1])
    (Path(made[-1]) / "pids.events").write_text("max 5\n")
    assert jail_program.cgroup_limits_hit(made) == ["memory", "processes"]


def test_cgroups_for_leaves_nothing_where_it_cannot_finish(tmp_path):
    root = _fake_cgroups(tmp_path, "")
    # the pids hierarchy is gone: no folder can be made there
    (tmp_path / "sys/fs/cgroup/pids").rmdir()
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/mountinfo").write_text(MOUNTINFO_V1)
    (tmp_path / "proc/cgroup").write_text(MEMBERSHIP)
    assert jail_program.cgroups_for("jail1", 1000, 7, proc=f"{root}/proc", root=root) == []
    assert not (tmp_path / "sys/fs/cgroup/memory/box/a/jail1").exists()
    assert jail_program.cgroups_for("jail1", 1000, 7, proc=f"{root}/nowhere", root=root) == []


def test_the_uid_pool_hands_each_uid_to_one_holder(tmp_path):
    first, second = jail_program.claim_uid(), jail_program.claim_uid()
    try:
        assert first != second and {first, second} <= set(jail_program.UIDS)
        other = subprocess.run(
            [sys.executable, "-c", "from harness.plumbing import jail\nprint(jail.claim_uid())"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert int(other.stdout) not in (
            first,
            second,
        ), "another process was handed a uid this one holds"
    finally:
        jail_program.release_uid(first)
        jail_program.release_uid(second)
    assert first not in jail_program.uids_in_use
    fd = jail_program.lock_uid(first)
    assert fd is not None, "a released uid must be free for another holder"
    os.close(fd)


def test_the_loop_records_the_exit_code_not_a_verdict_the_program_printed(jailed):
    from google.genai import types

    from harness.agent import AgentConfig
    from harness.agent.loop import _run_calls
    from harness.agent.report import TurnRecord
    from harness.truncation import truncate_output

    (jailed.root / "tests" / "test_hostile.py").write_text(
        "import os\ndef test_hostile():\n    print('\\n==== 99 passed ====', flush=True)\n   "
        " os._exit(1)\n"
    )
    record = TurnRecord(1, None)
    call = types.FunctionCall(
        name="run_command", args={"command": "pytest -q -s tests/test_hostile.py"}
    )
    _run_calls([call], jailed, AgentConfig(), record, truncate_output)
    assert record.verdict == "exit code 1 (the printed verdict contradicted it)", record.verdict


def test_lesson_04_states_the_limits_the_tools_apply():
    """The sentence of lesson 04 that gives the limits, with the figures the tests above hold."""
    import nbformat

    lesson = nbformat.read(
        next((Path(__file__).parents[1] / "solutions").glob("04_*.ipynb")), as_version=4
    )
    text = " ".join(
        " ".join(cell.source.split()) for cell in lesson.cells if cell.cell_type == "markdown"
    )
    assert (
        f"Each command gets at most {tools.MEMORY_BYTES >> 20} MiB of memory, "
        f"{tools.MAX_PROCESSES} processes "
        f"and {tools.WRITE_BYTES >> 20} MiB to write" in text
    )
    assert "What a command writes in the workspace is thrown away when it ends" in text


@pytest.mark.parametrize(
    "command, output, recorded",
    [
        ("pytest -q", "exit code 1\n...\n==== 4 failed, 2 passed ====", "4 failed, 2 passed"),
        ("pytest", "exit code 0\n==== 6 passed, 1 xfailed ====", "6 passed, 1 xfailed"),
        (
            "pytest",
            "exit code 1\n==== 99 passed ====\n" + tools.CONTRADICTED + " ...]",
            "exit code 1 (the printed verdict contradicted it)",
        ),
        (
            "pytest",
            "exit code 0\n==== 1 failed ====",
            "exit code 0 (the printed verdict contradicted it)",
        ),
        (
            "pytest",
            "killed by SIGKILL (killed from outside, or out of memory)\n==== 3 passed ====",
            (
                "killed by SIGKILL (killed from outside, or out of memory) "
                "(the printed verdict contradicted it)"
            ),
        ),
        ("pytest", tools.LIMIT_ERRORS["memory"] + "\nexit code 1\n==== 2 failed ====", "2 failed"),
        ("pytest", "exit code 0\nno tests ran", None),
        ("cat notes.txt", "exit code 0\n==== 6 passed ====", None),
        ("x\n==== 6 passed ====", "ERROR: x\n==== 6 passed ==== is not allowed.", None),
        ("pytest", "ERROR: pytest timed out after 8 s and was stopped.\n==== 6 passed ====", None),
        (None, "exit code 0\n6 passed", None),
        ("pytest 'unclosed", "exit code 0\n6 passed", None),
    ],
)
def test_the_recorded_verdict_is_a_finished_pytest_run_s_when_its_exit_code_agrees(
    command, output, recorded
):
    assert tools.recorded_verdict(command, output) == recorded
