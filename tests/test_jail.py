"""The agent's commands in the jail (harness.plumbing.jail): each escape of issue 19, tried jailed and with the
jail forced off (where every command is then refused unless the student opts in).

"Outside" is a folder beside the workspace holding a secret, as a student's other files would be.
"""
import os
import signal
import threading
import time

import pytest

from harness import tools
from harness.scenarios import copy_task
from harness.tools import Workspace

SECRET = "outside-secret-3141"
FAKE_KEY = "AIza" + "FAKE-secret-key-0123456789abcdefghijk"  # built here: no key-shaped string in the repo


@pytest.fixture(params=["jailed", "jail forced off"])
def mode(request, monkeypatch):
    if request.param == "jailed":
        assert tools.jail_mode() is not None, "this Linux machine should jail commands (root or user namespaces)"
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
        assert out.startswith("ERROR: this machine cannot run the model's commands in a jail"), out[:300]
        assert tools.UNJAILED_SWITCH in out, "the refusal must name the switch that opts in"
    return True


def nothing_written(folder) -> bool:
    return sorted(p.name for p in folder.iterdir()) == ["secret.txt", "test_outside.py"]


def _ini(ws, *lines):
    (ws.root / "pytest.ini").write_text("[pytest]\n" + "\n".join(lines) + "\n")


@pytest.mark.parametrize("lines", [("log_file = {o}/log.txt",), ("addopts = --junitxml={o}/junit.xml",),
                                   ("testpaths = {o}",), ("addopts = --rootdir={o} {o}",),
                                   ("cache_dir = {o}/cache", "addopts = -p cacheprovider")],
                         ids=["log_file", "junitxml", "testpaths", "rootdir", "cache_dir"])
def test_pytest_ini_options_reach_nothing_outside(ws, outside, mode, lines):
    _ini(ws, *(line.format(o=outside) for line in lines))
    out = ws.run_command("pytest -s")
    assert refused_or(mode, out) and SECRET not in out and nothing_written(outside)


def test_pytest_reading_its_arguments_from_a_file_reaches_nothing_outside(ws, outside, mode):
    (ws.root / "README.md").write_text(f"-o\nlog_file={outside}/log.txt\n-s\n{outside}/test_outside.py\n")
    out = ws.run_command("pytest @README.md")
    assert refused_or(mode, out) and SECRET not in out and nothing_written(outside)


def test_wc_reading_file_names_from_a_file_reads_nothing_outside(ws, outside, mode):
    (ws.root / "README.md").write_text(f"{outside}/secret.txt\0")
    out = ws.run_command("wc -c --files0-from=README.md")
    assert refused_or(mode, out) and f"{len(SECRET) + 1} {outside}" not in out


def test_a_conftest_reads_and_writes_nothing_outside(ws, outside, mode):
    (ws.root / "conftest.py").write_text(
        "import os\n"
        f"for path in ({str(outside / 'secret.txt')!r}, '/etc/shadow', os.path.expanduser('~/.bash_history')):\n"
        "    try:\n        print('READ', open(path).read())\n    except OSError as error:\n        print('NO', error)\n"
        f"for path in ({str(outside / 'written.txt')!r}, '/usr/written.txt', '/written.txt'):\n"
        "    try:\n        open(path, 'w').write('x')\n        print('WROTE', path)\n"
        "    except OSError as error:\n        print('NO', error)\n")
    out = ws.run_command("pytest -q -s")
    assert refused_or(mode, out) and SECRET not in out and "READ" not in out and "WROTE" not in out
    assert nothing_written(outside) and not os.path.exists("/usr/written.txt")


def test_the_jail_sees_only_the_workspace_python_and_system_folders(ws, mode):
    (ws.root / "conftest.py").write_text("import os\nprint('ROOT', sorted(os.listdir('/')))\n"
                                         "print('PIDS', sorted(p for p in os.listdir('/proc') if p.isdigit()))\n")
    out = ws.run_command("pytest -q -s")
    if refused_or(mode, out) and mode == "jailed":
        top = eval(out.split("ROOT ", 1)[1].splitlines()[0])
        assert set(top) <= {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "tmp", "usr",
                            *str(ws.root).split("/")[1:2], *os.path.realpath(os.sys.base_prefix).split("/")[1:2],
                            *os.path.realpath(os.sys.prefix).split("/")[1:2]}, top
        pids = eval(out.split("PIDS ", 1)[1].splitlines()[0])
        assert len(pids) <= 3, f"/proc shows other processes: {pids}"


def test_the_harness_environment_is_out_of_reach(ws, mode, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("SOMETHING_INNOCENT", FAKE_KEY[::-1])  # a secret under a name no rule catches
    tools._discard_warm_helper()
    (ws.root / "conftest.py").write_text(
        "import base64, os\n"
        "for pid in [p for p in os.listdir('/proc') if p.isdigit()]:\n"
        "    try:\n        data = open(f'/proc/{pid}/environ', 'rb').read()\n    except OSError:\n        continue\n"
        "    print('ENV', pid, base64.b64encode(data).decode(), data[::-1])\n"
        "print('MINE', base64.b64encode(repr(dict(os.environ)).encode()).decode())\n")
    out = ws.run_command("pytest -q -s")
    import base64
    decoded = " ".join(base64.b64decode(word + "==").decode(errors="replace") for line in out.splitlines()
                       for word in line.split()[1:3] if line.startswith(("ENV", "MINE")) and len(word) > 20)
    assert refused_or(mode, out)
    assert "AIza" not in decoded and FAKE_KEY[::-1] not in decoded and FAKE_KEY[::-1] not in out
    assert FAKE_KEY.encode()[::-1].decode() not in out


def test_no_process_outlives_its_command(ws, outside, mode):
    marker = f"survivor-{os.getpid()}-{time.monotonic_ns()}"
    (ws.root / "conftest.py").write_text(
        "import subprocess, sys\n"
        f"code = 'import time\\nwhile True: time.sleep(0.1)  # {marker}'\n"
        "for _ in range(3):\n"
        "    subprocess.Popen([sys.executable, '-c', code], start_new_session=True, stdout=subprocess.DEVNULL,\n"
        "                     stderr=subprocess.DEVNULL)\n"
        "import os\nif os.fork() == 0:\n    os.setsid()\n    import time\n    time.sleep(60)\n    os._exit(0)\n")
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
        f"import os\ndef test_link():\n    os.link({str(outside / 'secret.txt')!r}, 'linked.txt')\n")
    out = ws.run_command("pytest -q tests/test_link.py")
    assert refused_or(mode, out) and not (ws.root / "linked.txt").exists()
    # The link made for it (the jail shows no outside file to link to): the file tools refuse it at use.
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
        (ws.root / "conftest.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
        assert ws.run_command("pytest -q").startswith("killed by SIGKILL"), "a killed program must say so"


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
