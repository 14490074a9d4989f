"""Start a grading kernel as root inside fresh namespaces, hide paths, drop to its own user, exec.

Run by path with `python -I` (it must not import the project it protects), under `unshare --mount --net`:

    unshare --mount --net -- python -I jail.py --uid 61001 --gid 61001 --hide /srv/submissions \\
        --read-only /srv/workbook --own /tmp/grade/x/kernel.json -- python -m ipykernel_launcher -f ...

Each --hide gets an empty tmpfs (a folder) or /dev/null (a file) mounted over it; each --keep, a
path inside a hidden folder that the kernel needs (the Python installation of a pyenv in the
instructor's HOME), is moved back into it read-only; each --read-only is bind-mounted read-only;
each --own is given to the user. Then the process gives up
root for good (no groups, the user's gid and uid, no new privileges), caps its processes and file
sizes, and becomes the kernel. Only this mount namespace sees the mounts; they vanish with it.
"""
import argparse
import ctypes
import fcntl
import os
import resource
import socket
import struct
import subprocess
import sys
import tempfile

MAX_PROCESSES = 256          # per user: stops a fork bomb, leaves room for the kernel's threads
MAX_FILE_BYTES = 256 << 20   # no single file over 256 MiB
PR_SET_NO_NEW_PRIVS = 38
SIOCSIFFLAGS, IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x8914, 0x1, 0x8, 0x40


def loopback_up() -> None:
    """A new network namespace has only `lo`, and it is down: the glass box serves on loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", IFF_UP | IFF_LOOPBACK | IFF_RUNNING, b""))


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def hide(path: str) -> None:
    """An empty folder (tmpfs) over a folder, /dev/null over a file."""
    if os.path.isdir(path):
        mount("-t", "tmpfs", "-o", "size=64k,mode=711", "workbook-hidden", path)
    elif os.path.exists(path):
        mount("--bind", "/dev/null", path)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--uid", type=int, required=True)
    parser.add_argument("--gid", type=int, required=True)
    parser.add_argument("--hide", action="append", default=[])
    parser.add_argument("--loopback", action="store_true", help="bring up lo (in a new network namespace)")
    parser.add_argument("--keep", action="append", default=[])
    parser.add_argument("--read-only", action="append", default=[])
    parser.add_argument("--own", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.loopback:
        loopback_up()
    for path in args.read_only:
        mount("--bind", path, path)
        mount("-o", "remount,bind,ro", path)
    staged = {}
    for path in args.keep:  # set aside before the folder around it is hidden
        staged[path] = tempfile.mkdtemp(prefix="workbook-keep-")
        mount("--bind", path, staged[path])
    # A path inside a kept one (the workbook's .env) is hidden once the kept path is back: a bind
    # mount does not carry the mounts below it, so hiding it earlier would not survive the move.
    within = [path for path in args.hide if any(path.startswith(kept.rstrip("/") + "/") for kept in args.keep)]
    for path in [path for path in args.hide if path not in within]:
        hide(path)
    for path, stage in staged.items():
        os.makedirs(path, exist_ok=True)
        mount("--move", stage, path)
        mount("-o", "remount,bind,ro", path)
        os.rmdir(stage)
    for path in within:
        hide(path)
    for path in args.own:
        os.chown(path, args.uid, args.gid)
    os.setgroups([])
    os.setgid(args.gid)
    os.setuid(args.uid)
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    resource.setrlimit(resource.RLIMIT_NPROC, (MAX_PROCESSES, MAX_PROCESSES))
    resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_FILE_BYTES, MAX_FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
