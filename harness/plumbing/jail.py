"""A jail by allow-list: a process that sees only the paths it is given, in namespaces of its own.

Used for every program the agent's `run_command` starts (`harness.tools`, `harness.plumbing.warm_pytest`)
and for every kernel the grader starts (`harness.workbook.sandbox`). What the jailed process gets:
- its own mount namespace whose root is an empty tmpfs holding only the paths given: `write`
  bind-mounted read-write, `read` read-only, a few system folders (programs and libraries) and
  /dev's harmless devices read-only; /tmp and /dev/shm fresh tmpfs with a size cap, gone with it;
  nothing else of the machine (no home, no other folder, no `.env`), so no path leads out;
- its own pid namespace: the program is its pid 1, `/proc` shows only its own processes, and
  when it ends (or the process that started it dies) the kernel kills every process it left;
- its own network namespace: no interface up, or loopback only (`loopback`);
- no capability left (nor any way back through exec), or, as root, the uid given.

Where user namespaces are allowed (most Linux machines) this works without root; as root it
also works without them. `available()` says which; elsewhere (macOS, locked-down kernels) it is
None and callers must not pretend.

Run as a script it jails a command (this file imports nothing but the standard library, so it can
be run by path with `python -I -S`):

    python -I -S confine.py --write /tmp/task --read /opt/data --cwd /tmp/task -- cat notes.txt
"""
import argparse
import ctypes
import fcntl
import os
import resource
import select
import signal
import socket
import struct
import sys
import time

CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x20000, 0x8000000, 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18
KEPT_MOUNT_FLAGS = 1 | 2 | 4 | 8 | 1024 | 2048 | 4096  # statvfs's ST_* equal MS_* for these: a remount must keep them
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 24, 38, 47
SIOCSIFFLAGS, IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x8914, 0x1, 0x8, 0x40
TMP_BYTES = 64 << 20         # /tmp and /dev/shm each: the task's tests write a few kilobytes
MAX_FILE_BYTES = 256 << 20   # no single file over 256 MiB
# Programs and their libraries; each is a folder or, on merged-/usr systems, a symlink kept as one.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# Of /etc, only what a program needs to start and name its user: no host keys, no shadow, no config.
ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf")
DEVICES = ("null", "zero", "full", "random", "urandom")
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p)
_libc.umount2.argtypes = (ctypes.c_char_p, ctypes.c_int)
_libc.prctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
SYS_PIVOT_ROOT = 155  # x86-64; aarch64 has 41
if os.uname().machine in ("aarch64", "arm64"):
    SYS_PIVOT_ROOT = 41


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def _mount(source, target, fstype, flags: int, data: str | None = None) -> None:
    encode = lambda s: None if s is None else os.fsencode(s)  # noqa: E731
    _check(_libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data)), f"mount {target}")


def _place(source: str, target: str) -> None:
    """An empty file or folder at `target` (and the folders above it) for `source` to be mounted on."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    elif not os.path.exists(target):
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o600))


def _bind(source: str, target: str, read_only: bool) -> None:
    _place(source, target)
    _mount(source, target, None, MS_BIND | MS_REC)
    if read_only:  # a bind mount takes the read-only flag only on a remount, which must keep its other flags
        kept = os.statvfs(target).f_flag & KEPT_MOUNT_FLAGS
        _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | kept)


def _tmpfs(target: str, size: int, mode: str = "1777") -> None:
    os.makedirs(target, exist_ok=True)
    _mount("workbook-jail", target, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode={mode}")


def _show(path: str, new_root: str, read_only: bool) -> None:
    """Make `path` of the machine (seen under /oldroot) appear at the same path in the new root."""
    old, new = "/oldroot" + path, new_root + path
    if os.path.islink(old) and path in SYSTEM:  # /lib -> usr/lib on merged-/usr systems
        os.symlink(os.readlink(old), new)
    elif os.path.exists(old):
        _bind(old, new, read_only)


def _build_root(write: list[str], read: list[str], tmp_bytes: int, with_proc: bool) -> None:
    """Turn this mount namespace into the jail's: only the paths allowed, the machine's root detached.

    The steps bubblewrap takes: an empty tmpfs becomes the root with the old one under /oldroot,
    each allowed path is bind-mounted from there into /newroot, and /newroot becomes the root.
    """
    _mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing done here reaches the machine's mounts
    _tmpfs("/tmp", 1 << 20, "0755")  # only in this namespace: the machine's /tmp is still under /oldroot
    os.mkdir("/tmp/oldroot")
    os.mkdir("/tmp/newroot")
    _check(_libc.syscall(SYS_PIVOT_ROOT, b"/tmp", b"/tmp/oldroot"), "pivot_root")
    os.chdir("/")
    new_root = "/newroot"
    _mount(new_root, new_root, None, MS_BIND | MS_REC)
    _tmpfs(new_root + "/dev", 1 << 16, "0755")
    for device in DEVICES:
        _bind(f"/oldroot/dev/{device}", f"{new_root}/dev/{device}", read_only=False)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{new_root}/dev/{name}")
    _tmpfs(new_root + "/dev/shm", tmp_bytes)
    _tmpfs(new_root + "/tmp", tmp_bytes)
    # After /tmp's tmpfs, so a workdir under /tmp appears in it; the writable last, over any read-only parent.
    for path in SYSTEM + ETC + tuple(read):
        _show(path, new_root, read_only=True)
    for path in write:
        _show(path, new_root, read_only=False)
    if with_proc:
        os.makedirs(new_root + "/proc")
        try:  # this pid namespace's own processes only
            _mount("proc", new_root + "/proc", "proc", MS_NOSUID | MS_NODEV | 8)
        except OSError:
            pass  # a kernel that refuses it leaves /proc empty, which hides no less
    _check(_libc.umount2(b"/oldroot", MNT_DETACH), "umount /oldroot")
    os.chdir(new_root)
    _check(_libc.syscall(SYS_PIVOT_ROOT, b".", b"."), "pivot_root")
    _check(_libc.umount2(b".", MNT_DETACH), "umount the staging root")
    os.chdir("/")
    kept = os.statvfs("/").f_flag & KEPT_MOUNT_FLAGS
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept)  # no new top-level folder either


def _drop_capabilities() -> None:
    """No capability now, none through exec (even of a setuid or a root-owned program), none to regain."""
    for capability in range(64):
        if _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            break  # past the last capability this kernel knows
    _libc.prctl(PR_CAP_AMBIENT, 4, 0, 0, 0)  # PR_CAP_AMBIENT_CLEAR_ALL
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()                  # effective, permitted, inheritable: all empty
    _check(_libc.capset(header, data), "capset")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def loopback_up() -> None:
    """A new network namespace has only `lo`, and it is down: the glass box serves on loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", IFF_UP | IFF_LOOPBACK | IFF_RUNNING, b""))


def _unshare(user_namespace: bool, network: bool) -> None:
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | (0 if network else CLONE_NEWNET)
    flags |= CLONE_NEWUSER if user_namespace else 0
    _check(_libc.unshare(flags), "unshare")
    if user_namespace:  # the same ids inside, so the files of the workdir stay ours
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as file:
                file.write(text)


def _pass_on_signals(child: int) -> None:
    for sig in FORWARDED:
        signal.signal(sig, lambda number, _frame: os.kill(child, number))


def _wait_for(child: int) -> int:
    """`child`'s wait status, reaping any other child (orphans come to pid 1) on the way."""
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return 1 << 8
        except InterruptedError:
            continue
        if pid == child:
            return status


def _end_as(status: int) -> None:
    """End this process as the one whose wait status this is: by the same signal, or with the same code."""
    if os.WIFSIGNALED(status):  # so the caller reads "killed by ..." as it would have
        number = os.WTERMSIG(status)
        if number not in (signal.SIGKILL, signal.SIGSTOP):  # those two cannot be caught, nor set
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status))


def _wait_following_parent(child: int, parent: int) -> int:
    """Outside the jail: `child`'s wait status. If our own parent dies first (a grader killed), the jail is
    killed: its programs are not children of pid 1, so they cannot tell that nobody waits for them."""
    while True:
        try:
            pid, status = os.waitpid(child, os.WNOHANG)
        except InterruptedError:
            continue
        if pid == child:
            return status
        if os.getppid() != parent:
            os.kill(child, signal.SIGKILL)
        time.sleep(0.2)


def _init(status_write: int) -> None:
    """Pid 1 of the jail, reaping orphans; the program runs as pid 3, under a keeper (pid 2) that sends
    its status out. Not pid 1 itself, which ignores the signals it sends itself (a test's own SIGKILL
    would do nothing); not a child of pid 1, which a program takes for a sign its parent died
    (ipykernel then exits). As pid 1 ends, the kernel kills every process left in the namespace."""
    keeper = os.fork()
    if keeper == 0:
        program = os.fork()
        if program == 0:
            os.close(status_write)
            return
        _pass_on_signals(program)
        os.write(status_write, _wait_for(program).to_bytes(4, "little"))
        os._exit(0)
    _pass_on_signals(keeper)
    _wait_for(keeper)
    os._exit(0)


def enter(write: list[str], read: list[str] = (), cwd: str | None = None, user_namespace: bool = False,
          loopback: bool = False, tmp_bytes: int = TMP_BYTES, uid: int | None = None, gid: int | None = None,
          own: list[str] = (), network: bool = False) -> None:
    """Jail this process (which must have a single thread); return in the jailed one, never in the other.

    This process stays outside, passes signals on and ends with the jailed one's exit status; the
    jailed one is pid 1 of a new pid namespace, in a session of its own, killed if this one dies.
    `user_namespace`: through a user namespace (not root); else this must be root. `uid`/`gid`
    (root only): become that user, after chowning each of `own` to it. `network`: keep the machine's
    (grading online); else none, or loopback only with `loopback`.
    """
    paths = [os.path.realpath(p) for p in (*write, *read, *([cwd] if cwd else []))]
    if not all(os.path.isabs(p) for p in paths):
        raise ValueError("confine.enter: every path must be absolute")
    parent = os.getppid()
    _unshare(user_namespace, network)
    parent_alive_read, parent_alive_write = os.pipe()
    status_read, status_write = os.pipe()
    child = os.fork()
    if child:  # outside the jail: pass signals on, end as the program ended
        os.close(parent_alive_read)
        os.close(status_write)
        _pass_on_signals(child)
        _wait_following_parent(child, parent)
        status = os.read(status_read, 4)
        _end_as(int.from_bytes(status, "little") if len(status) == 4 else signal.SIGKILL)
    os.close(parent_alive_write)
    os.close(status_read)
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if select.select([parent_alive_read], [], [], 0)[0]:  # the parent died before the line above
        os._exit(137)
    os.close(parent_alive_read)
    os.setsid()
    for path in own:
        os.chown(path, uid, gid)
    _build_root([os.path.realpath(p) for p in write], [os.path.realpath(p) for p in read], tmp_bytes, with_proc=True)
    if loopback:
        loopback_up()
    os.chdir(os.path.realpath(cwd) if cwd else "/")
    if uid is not None:
        os.setgroups([])
        os.setgid(gid if gid is not None else uid)
        os.setuid(uid)
    _drop_capabilities()
    _init(status_write)
    resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_FILE_BYTES, MAX_FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def python_paths() -> list[str]:
    """What a Python program needs to run here: the interpreter's installation and its venv."""
    return sorted({os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix),
                   os.path.dirname(os.path.realpath(sys.executable))})


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="run a command in a jail by allow-list")
    parser.add_argument("--write", action="append", default=[])
    parser.add_argument("--read", action="append", default=[])
    parser.add_argument("--cwd")
    parser.add_argument("--user-namespace", action="store_true")
    parser.add_argument("--loopback", action="store_true")
    parser.add_argument("--network", action="store_true")
    parser.add_argument("--tmp-bytes", type=int, default=TMP_BYTES)
    parser.add_argument("--uid", type=int)
    parser.add_argument("--gid", type=int)
    parser.add_argument("--own", action="append", default=[])
    parser.add_argument("--max-processes", type=int)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    enter(args.write, args.read, args.cwd, args.user_namespace, args.loopback, args.tmp_bytes, args.uid, args.gid,
          args.own, args.network)
    if args.max_processes:
        resource.setrlimit(resource.RLIMIT_NPROC, (args.max_processes, args.max_processes))
    try:
        os.execvp(command[0], command)
    except OSError as error:
        print(f"confine: cannot run {command[0]}: {error.strerror}", file=sys.stderr)
        os._exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
