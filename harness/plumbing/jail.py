"""A jail by allow-list: a process that sees only the paths it is given, in namespaces of its own.

Used for every program the agent's `run_command` starts (`harness.tools`,
`harness.plumbing.warm_start`) and for every kernel the grader starts (`harness.workbook.sandbox`).
What the jailed process gets:
- its own mount namespace whose root is an empty tmpfs holding only the paths given: `write`
  bind-mounted read-write, `read` read-only, a few system folders (programs and libraries) and
  /dev's harmless devices read-only; /tmp and /dev/shm fresh tmpfs with a size cap, gone with it;
  nothing else of the machine (no home, no other folder, no `.env`), so no path leads out;
- its own pid namespace: the program is its pid 1, `/proc` shows only its own processes, and
  when it ends (or the process that started it dies) the kernel kills every process it left;
- its own network namespace: no interface up, or loopback only (`loopback`); its own hostname;
- no capability left (nor any way back through exec), or, as root, the uid given (a uid of the
  pool, `claim_uid`); its `/proc` shows nothing that writes to the machine or tells of it;
- no kernel keyring, no namespace of its own: the calls are refused (a seccomp filter);
- limits, when asked: what it writes thrown away with it, in a space of its own size
  (`write_bytes`); memory and processes (cgroups made by `cgroups_for`, else rlimits); its exit
  status reported in a file (`report`) by a process it cannot reach.

Where user namespaces are allowed (most Linux machines) this works without root; as root it
also works without them. `available()` says which; elsewhere (macOS, locked-down kernels) it is
None and callers must not pretend.

Run as a script it jails a command (this file imports nothing but the standard library, so it can
be run by path with `python -I -S`):

    python -I -S confine.py --write /tmp/task --read /opt/data --cwd /tmp/task -- cat notes.txt
"""

import argparse
import contextlib
import ctypes
import errno
import fcntl
import os
import pwd
import resource
import select
import signal
import socket
import struct
import sys
import threading
import time

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = (
    0x20000,
    0x4000000,
    0x8000000,
    0x10000000,
    0x20000000,
    0x40000000,
)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = (
    1,
    2,
    4,
    32,
    4096,
    16384,
    1 << 18,
)
# statvfs's ST_* equal MS_* for these: a remount must keep them
KEPT_MOUNT_FLAGS = 1 | 2 | 4 | 8 | 1024 | 2048 | 4096
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_SECCOMP, PR_CAPBSET_DROP = 1, 4, 22, 24
PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 38, 47
SIOCSIFFLAGS, IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x8914, 0x1, 0x8, 0x40
TMP_BYTES = 64 << 20  # /tmp and /dev/shm each: the task's tests write a few kilobytes
MAX_FILE_BYTES = 256 << 20  # no single file over 256 MiB
MAX_FILES = 16_384  # files and folders in each tmpfs: the task has 20
MAX_DEPTH = 64  # folders a walk enters, one in another: the task's deepest is 3 down
# Of a fresh /proc, what writes to the machine is read-only and what tells of it (kernel memory,
# keys, timers, interrupts) hidden: Docker's lists (moby, oci/defaults.go), with key-users added.
PROC_READ_ONLY = ("bus", "fs", "irq", "sys", "sysrq-trigger")
PROC_HIDDEN = (
    "acpi",
    "asound",
    "interrupts",
    "kcore",
    "keys",
    "key-users",
    "latency_stats",
    "sched_debug",
    "scsi",
    "timer_list",
    "timer_stats",
)
# Programs and their libraries; each is a folder or, on merged-/usr systems, a symlink kept as one.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# Of /etc, only what a program needs to start and name its user: no host keys, no shadow, no config.
ETC = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/localtime",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
)
DEVICES = ("null", "zero", "full", "random", "urandom")
CAP_KILL = 5  # linux/capability.h
FORWARDED = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
)

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mount.argtypes = (
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_ulong,
    ctypes.c_char_p,
)
_libc.umount2.argtypes = (ctypes.c_char_p, ctypes.c_int)
_libc.prctl.argtypes = (
    ctypes.c_int,
    ctypes.c_ulong,
    ctypes.c_ulong,
    ctypes.c_ulong,
    ctypes.c_ulong,
)
# System call numbers and seccomp's tag of the architecture: x86-64, else aarch64.
SYSCALLS = {
    "pivot_root": 155,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "unshare": 272,
    "setns": 308,
    "bpf": 321,
    "perf_event_open": 298,
    "userfaultfd": 323,
    "io_uring_setup": 425,
    "clone": 56,
    "clone3": 435,
}
AUDIT_ARCH = 0xC000003E
if os.uname().machine in ("aarch64", "arm64"):
    SYSCALLS = {
        "pivot_root": 41,
        "add_key": 217,
        "request_key": 218,
        "keyctl": 219,
        "unshare": 97,
        "setns": 268,
        "bpf": 280,
        "perf_event_open": 241,
        "userfaultfd": 282,
        "io_uring_setup": 425,
        "clone": 220,
        "clone3": 435,
    }
    AUDIT_ARCH = 0xC00000B7
SYS_PIVOT_ROOT, SYS_KEYCTL = SYSCALLS["pivot_root"], SYSCALLS["keyctl"]
KEYCTL_JOIN_SESSION_KEYRING = 1
# What the jailed program may not call (EPERM): the kernel's keyrings (a uid's are shared by all its
# processes, root's too, and a key's serial can be guessed), as in Docker's default profile, and,
# as there too, kernel interfaces a test never needs, each a frequent way into the kernel. With
# `namespaces=False`, namespaces of its own too (NAMESPACE_CALLS): clone is refused only with a
# CLONE_NEW* flag; clone3, whose flags seccomp cannot read, answers ENOSYS, on which glibc falls
# back to clone. A graded kernel keeps them: it jails its agent's commands in a user namespace.
REFUSED_CALLS = (
    "add_key",
    "request_key",
    "keyctl",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
)
NAMESPACE_CALLS = ("unshare", "setns")
CLONE_NEW_FLAGS = 0x7E020000  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def _mount(source, target, fstype, flags: int, data: str | None = None) -> None:
    encode = lambda s: None if s is None else os.fsencode(s)  # noqa: E731
    _check(
        _libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data)),
        f"mount {target}",
    )


def _place(source: str, target: str) -> None:
    """An empty file or folder at `target` (and the folders above it) for `source` to be mounted
    on."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    elif not os.path.exists(target):
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o600))


def _bind(source: str, target: str, read_only: bool) -> None:
    _place(source, target)
    _mount(source, target, None, MS_BIND | MS_REC)
    # a bind mount takes the read-only flag only on a remount, which must keep its other flags
    if read_only:
        kept = os.statvfs(target).f_flag & KEPT_MOUNT_FLAGS
        _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | kept)


def _tmpfs(target: str, size: int, mode: str = "1777") -> None:
    os.makedirs(target, exist_ok=True)
    options = f"size={size},nr_inodes={MAX_FILES},mode={mode}"
    _mount("workbook-jail", target, "tmpfs", MS_NOSUID | MS_NODEV, options)


def _show(path: str, new_root: str, read_only: bool) -> None:
    """Make `path` of the machine (seen under /oldroot) appear at the same path in the new root."""
    old, new = "/oldroot" + path, new_root + path
    if os.path.islink(old) and path in SYSTEM:  # /lib -> usr/lib on merged-/usr systems
        os.symlink(os.readlink(old), new)
    elif os.path.exists(old):
        _bind(old, new, read_only)


def walk_tree(fd: int, max_depth: int, skip: tuple[str, ...] = ()):
    """Each entry under the folder open as `fd`, parents first, as (the descriptor of its folder,
    its path relative to `fd`, its os.DirEntry, its depth: 1 for the entries of `fd` itself).

    Walked by descriptors, without recursion: no symlink is followed and nothing swapped in while
    it walks leads out. At most `max_depth` folders are open at once: a folder at that depth is
    yielded, not entered. Names starting with one of `skip` are left out, with all they hold.
    `fd` stays open; a folder's descriptor is valid until the walk moves on."""
    stack = [(os.dup(fd), "")]
    iterators = [os.scandir(stack[0][0])]
    try:
        while iterators:
            entry = next(iterators[-1], None)
            if entry is None:
                iterators.pop().close()
                os.close(stack.pop()[0])
                continue
            if skip and entry.name.startswith(skip):
                continue
            folder, prefix = stack[-1]
            yield folder, prefix + entry.name, entry, len(stack)
            if len(stack) < max_depth and entry.is_dir(follow_symlinks=False):
                flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
                try:
                    child = os.open(entry.name, flags, dir_fd=folder)
                except OSError:
                    continue  # gone, or swapped for a symlink, since it was listed
                stack.append((child, f"{prefix}{entry.name}/"))
                iterators.append(os.scandir(child))
    finally:
        for iterator in iterators:
            iterator.close()
        for folder, _ in stack:
            os.close(folder)


def remove_tree(path) -> None:
    """Remove the folder `path` and all it holds, however deep (shutil.rmtree and os.walk recurse
    on Python < 3.12 and raise RecursionError near 1,000 levels): each folder met is first moved up
    into `path` under a new name, so no walk goes more than one level down. Symlinks are removed,
    never followed; a folder the program made read-only is made writable first. Nothing if `path`
    is gone."""
    try:
        top = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    tag = f".workbook-removing-{os.getpid()}-{time.monotonic_ns()}-"  # no name the tree holds
    moved, pending = 0, [None]  # None: `path` itself; else the name a folder was moved to in it
    try:
        while pending:
            name = pending.pop()
            flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = top if name is None else os.open(name, flags, dir_fd=top)
            try:
                with contextlib.suppress(OSError):
                    os.chmod(fd, 0o700)
                for entry in list(os.scandir(fd)):
                    if name is None and entry.name.startswith(tag):
                        continue  # moved here already: on the pending list
                    if entry.is_dir(follow_symlinks=False):
                        moved += 1
                        os.rename(entry.name, f"{tag}{moved}", src_dir_fd=fd, dst_dir_fd=top)
                        pending.append(f"{tag}{moved}")
                    else:
                        os.unlink(entry.name, dir_fd=fd)
            finally:
                if fd != top:
                    os.close(fd)
            if name is not None:
                os.rmdir(name, dir_fd=top)
    finally:
        os.close(top)
    os.rmdir(path)


def _throwaway(path: str, new_root: str, size: int, owner: tuple[int, int] | None) -> None:
    """`path` of the machine shown writable, but every write lands in a tmpfs of `size` bytes gone
    with the jail: an overlay whose lower layer is the folder (never written) and whose upper layer
    is that tmpfs. `owner`: the (uid, gid) the program runs as, made the owner of what it sees
    there, in the overlay only (metacopy: the ownership is copied up, not the data); the machine's
    files keep theirs. Folders deeper than MAX_DEPTH stay the machine's owner's: readable only."""
    stage = f"/stage{len(os.listdir('/'))}"  # in the staging root, detached: the overlay holds it
    _tmpfs(stage, size, "0755")
    os.mkdir(stage + "/upper")
    os.mkdir(stage + "/work")
    target = new_root + path
    os.makedirs(target, exist_ok=True)
    lower = "".join("\\" + c if c in "\\,:" else c for c in "/oldroot" + path)  # options' syntax
    options = f"lowerdir={lower},upperdir={stage}/upper,workdir={stage}/work"
    try:
        _mount("overlay", target, "overlay", MS_NOSUID | MS_NODEV, options + ",metacopy=on")
    except OSError:  # a kernel without metacopy, or one that refuses it in a user namespace
        _mount("overlay", target, "overlay", MS_NOSUID | MS_NODEV, options)
    if owner:
        top = os.open(target, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fchown(top, *owner)
            for folder, _, entry, _ in walk_tree(top, MAX_DEPTH):
                os.chown(entry.name, *owner, dir_fd=folder, follow_symlinks=False)
        except OSError:
            pass  # no room left for the ownership copied up: the rest stays read-only to it
        finally:
            os.close(top)


def _harden_proc(proc: str) -> None:
    """In a fresh /proc: what writes to the machine read-only, what tells of it hidden (behind
    /dev/null or an empty read-only tmpfs)."""
    for name in PROC_READ_ONLY:
        if os.path.exists(f"{proc}/{name}"):
            _bind(f"{proc}/{name}", f"{proc}/{name}", read_only=True)
    for name in PROC_HIDDEN:
        path = f"{proc}/{name}"
        if os.path.isdir(path):
            flags = MS_RDONLY | MS_NOSUID | MS_NODEV
            _mount("workbook-jail", path, "tmpfs", flags, "size=0,mode=0555")
        elif os.path.exists(path):
            _bind("/oldroot/dev/null", path, read_only=True)


def _build_root(
    write: list[str],
    read: list[str],
    tmp_bytes: int,
    with_proc: bool,
    write_bytes: int | None = None,
    owner: tuple[int, int] | None = None,
) -> None:
    """Turn this mount namespace into the jail's: only the paths allowed, the machine's root
    detached.

    The steps bubblewrap takes: an empty tmpfs becomes the root with the old one under /oldroot,
    each allowed path is bind-mounted from there into /newroot, and /newroot becomes the root.
    `write_bytes`: each `write` path is a throwaway overlay of that size (`_throwaway`), else it is
    bind-mounted, written through (and so where the kernel has no overlayfs).
    """
    _mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing done here reaches the machine's mounts
    # only in this namespace: the machine's /tmp is still under /oldroot
    _tmpfs("/tmp", 1 << 20, "0755")
    os.mkdir("/tmp/oldroot")
    os.mkdir("/tmp/newroot")
    _check(_libc.syscall(SYS_PIVOT_ROOT, b"/tmp", b"/tmp/oldroot"), "pivot_root")
    os.chdir("/")
    new_root = "/newroot"
    _mount(new_root, new_root, None, MS_BIND | MS_REC)
    _tmpfs(new_root + "/dev", 1 << 16, "0755")
    for device in DEVICES:
        _bind(f"/oldroot/dev/{device}", f"{new_root}/dev/{device}", read_only=False)
    for name, target in (
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ):
        os.symlink(target, f"{new_root}/dev/{name}")
    _tmpfs(new_root + "/dev/shm", tmp_bytes)
    _tmpfs(new_root + "/tmp", tmp_bytes)
    # After /tmp's tmpfs, so a workdir under /tmp appears in it; the writable last, over any
    # read-only parent.
    for path in SYSTEM + ETC + tuple(read):
        _show(path, new_root, read_only=True)
    for path in write:
        if write_bytes:
            try:
                _throwaway(path, new_root, write_bytes, owner)
                continue
            except OSError:  # no overlayfs here (or none in a user namespace before Linux 5.11)
                pass
        _show(path, new_root, read_only=False)
    if with_proc:
        os.makedirs(new_root + "/proc")
        try:  # this pid namespace's own processes only
            _mount("proc", new_root + "/proc", "proc", MS_NOSUID | MS_NODEV | 8)
        except OSError:
            pass  # a kernel that refuses it leaves /proc empty, which hides no less
        else:
            _harden_proc(new_root + "/proc")
    _check(_libc.umount2(b"/oldroot", MNT_DETACH), "umount /oldroot")
    os.chdir(new_root)
    _check(_libc.syscall(SYS_PIVOT_ROOT, b".", b"."), "pivot_root")
    _check(_libc.umount2(b".", MNT_DETACH), "umount the staging root")
    os.chdir("/")
    kept = os.statvfs("/").f_flag & KEPT_MOUNT_FLAGS
    # no new top-level folder either
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept)


def _drop_capabilities(
    uid: int | None = None, gid: int | None = None, keep: int | None = None
) -> None:
    """No capability now, none through exec (even of a setuid or a root-owned program), none to
    regain, but `keep` if given; then, as root, become `uid` (and `gid`, else the same number). In
    that order: dropping from the bounding set takes a capability that becoming another user takes
    away."""
    for capability in range(64):
        if capability != keep and _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            break  # past the last capability this kernel knows
    _libc.prctl(PR_CAP_AMBIENT, 4, 0, 0, 0)  # PR_CAP_AMBIENT_CLEAR_ALL
    if uid is not None:
        os.setgroups([])
        os.setresgid(*[uid if gid is None else gid] * 3)
        os.setresuid(uid, uid, uid)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: all empty
    if keep is not None:  # but `keep`, effective and permitted
        data[0] = data[1] = 1 << keep
    _check(_libc.capset(header, data), "capset")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def _assemble(lines: list[tuple]) -> list[int]:
    """Classic BPF words from (label, code, k, label if true, label if false) lines: a jump names
    the line it goes to; None goes to the next line."""
    where = {line[0]: index for index, line in enumerate(lines) if line[0]}
    words = []
    for index, (_, code, k, true, false) in enumerate(lines):
        jumps = [where[label] - index - 1 if label else 0 for label in (true, false)]
        words.append(code | jumps[0] << 16 | jumps[1] << 24 | k << 32)
    return words


def _refuse_calls(namespaces: bool) -> None:
    """A seccomp filter: REFUSED_CALLS fail with EPERM, and every call of another ABI (32-bit, x32:
    their numbers differ); without `namespaces`, NAMESPACE_CALLS and clone with a CLONE_NEW* flag
    too, and clone3 with ENOSYS. Needs no_new_privs, set before."""
    refused = REFUSED_CALLS + (() if namespaces else NAMESPACE_CALLS)
    clones = [] if namespaces else [("clone3", "absent"), ("clone", "clone")]
    load, equal, at_least, any_bit, answer = 0x20, 0x15, 0x35, 0x45, 0x06  # classic BPF's codes
    allow, refuse, absent = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
    program = _assemble(
        [  # over struct seccomp_data: nr at 0, arch at 4, args[0] from 16
            (None, load, 4, None, None),
            (None, equal, AUDIT_ARCH, None, "refuse"),
            (None, load, 0, None, None),
            (None, at_least, 0x40000000, "refuse", None),  # x32's numbers
            *[(None, equal, SYSCALLS[name], "refuse", None) for name in refused],
            *[(None, equal, SYSCALLS[name], label, None) for name, label in clones],
            (None, answer, allow, None, None),
            ("clone", load, 16, None, None),
            (None, any_bit, CLONE_NEW_FLAGS, "refuse", None),
            (None, answer, allow, None, None),
            ("refuse", answer, refuse, None, None),
            ("absent", answer, absent, None, None),
        ]
    )
    filters = (ctypes.c_uint64 * len(program))(*program)
    header = struct.pack("HxxxxxxQ", len(program), ctypes.addressof(filters))  # struct sock_fprog
    fprog = ctypes.create_string_buffer(header)
    _check(_libc.prctl(PR_SET_SECCOMP, 2, ctypes.addressof(fprog), 0, 0), "seccomp")  # MODE_FILTER


def loopback_up() -> None:
    """A new network namespace has only `lo`, and it is down: the glass box serves on loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        fcntl.ioctl(
            sock,
            SIOCSIFFLAGS,
            struct.pack("16sH14s", b"lo", IFF_UP | IFF_LOOPBACK | IFF_RUNNING, b""),
        )


def _unshare(user_namespace: bool, network: bool) -> None:
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
    flags |= 0 if network else CLONE_NEWNET
    flags |= CLONE_NEWUSER if user_namespace else 0
    _check(_libc.unshare(flags), "unshare")
    if user_namespace:  # the same ids inside, so the files of the workdir stay ours
        for name, text in (
            ("setgroups", "deny"),
            ("uid_map", f"{uid} {uid} 1"),
            ("gid_map", f"{gid} {gid} 1"),
        ):
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
    """End this process as the one whose wait status this is: by the same signal, or with the
    same code."""
    if os.WIFSIGNALED(status):  # so the caller reads "killed by ..." as it would have
        number = os.WTERMSIG(status)
        if number not in (signal.SIGKILL, signal.SIGSTOP):  # those two cannot be caught, nor set
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status))


def _wait_following_parent(child: int, parent: int) -> int:
    """Outside the jail: `child`'s wait status. If our own parent dies first (a grader killed), the
    jail is killed: its programs are not children of pid 1, so they cannot tell that nobody waits
    for them.
    """
    try:  # readable the moment the child ends: a plain sleep here added 0-200 ms to every command
        ended = os.pidfd_open(child)
    except (AttributeError, OSError):  # before Linux 5.3
        ended = None
    try:
        while True:
            try:
                pid, status = os.waitpid(child, os.WNOHANG)
            except InterruptedError:
                continue
            if pid == child:
                return status
            if os.getppid() != parent:
                os.kill(child, signal.SIGKILL)
            if ended is None:
                time.sleep(0.2)
            else:
                select.select([ended], [], [], 0.2)
    finally:
        if ended is not None:
            os.close(ended)


# What the keeper sends out when the program ends: its wait status, and whether a space it may
# write in is full (it met its disk limit), as FILLED.
REPORT = struct.Struct("<iI")
FILLED = 1


def _filled(paths: list[str]) -> bool:
    """Whether any of `paths` (the jail's own tmpfs and overlays) has no room or no file left."""
    for path in paths:
        with contextlib.suppress(OSError):
            info = os.statvfs(path)
            if info.f_bavail * info.f_frsize < 64 << 10 or info.f_favail == 0:
                return True
    return False


def _init(
    status_write: int, uid: int | None, gid: int | None, watched: list[str], namespaces: bool
) -> None:
    """Pid 1 of the jail, reaping orphans; the program runs as pid 3, under a keeper (pid 2) that
    sends its status out. Not pid 1 itself, which ignores the signals it sends itself (a test's own
    SIGKILL would do nothing); not a child of pid 1, which a program takes for a sign its parent
    died (ipykernel then exits). As pid 1 ends, the kernel kills every process left in the
    namespace.

    Only the keeper holds the status pipe, and the program cannot reach it: pid 1 and the keeper
    keep no capability and are not dumpable (their /proc/N/fd opens for no one without
    CAP_SYS_PTRACE), and as root they stay uid 0 while the program runs as `uid`, so it cannot
    signal them either. `watched`: the spaces the program may write in, whose filling the keeper
    reports; `namespaces`: whether the program may make namespaces of its own (`_refuse_calls`)."""
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    keeper = os.fork()
    if keeper == 0:
        program = os.fork()
        if program == 0:
            os.close(status_write)
            _drop_capabilities(uid, gid)
            _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # its own /proc/self, as any program's
            _refuse_calls(namespaces)
            return
        # CAP_KILL alone: the program runs as another uid, and a signal passed on to it (a
        # kernel's interrupt) would otherwise fail with EPERM and end the keeper instead.
        _drop_capabilities(keep=CAP_KILL)
        _pass_on_signals(program)
        status = _wait_for(program)
        os.write(status_write, REPORT.pack(status, FILLED if _filled(watched) else 0))
        os._exit(0)
    os.close(status_write)
    _drop_capabilities()
    _pass_on_signals(keeper)
    _wait_for(keeper)
    os._exit(0)


def enter(
    write: list[str],
    read: list[str] = (),
    cwd: str | None = None,
    user_namespace: bool = False,
    loopback: bool = False,
    tmp_bytes: int = TMP_BYTES,
    uid: int | None = None,
    gid: int | None = None,
    own: list[str] = (),
    network: bool = False,
    write_bytes: int | None = None,
    cgroups: list[str] = (),
    report: str | None = None,
    max_processes: int | None = None,
    memory_bytes: int | None = None,
    namespaces: bool = True,
) -> None:
    """Jail this process (which must have a single thread); return in the jailed one, never in the
    other.

    This process stays outside, passes signals on and ends with the jailed one's exit status; the
    jailed one is pid 1 of a new pid namespace, in a session of its own, killed if this one dies.
    `user_namespace`: through a user namespace (not root); else this must be root. `uid`/`gid`
    (root only): the program runs as that user, after chowning each of `own` to it. `network`: keep
    the machine's (grading online); else none, or loopback only with `loopback`.
    Limits: `write_bytes`, the `write` paths are throwaway (`_throwaway`) with that much room;
    `cgroups`, folders made by `cgroups_for` that the whole jail joins; else `max_processes` and
    `memory_bytes` are rlimits (RLIMIT_NPROC counts a uid's processes and
    spares root: set for a `uid` or in a user namespace only; RLIMIT_AS caps address space, not
    memory: set at twice `memory_bytes`). `report`: a file this process writes once the program has
    ended, "STATUS FLAGS" (its wait status; FILLED if it filled a space it may write in), through a
    descriptor opened before the jail exists: a channel the program cannot reach. `namespaces`:
    whether the program may make namespaces of its own (a graded kernel jails the agent's commands).
    """
    paths = [os.path.realpath(p) for p in (*write, *read, *([cwd] if cwd else []))]
    if not all(os.path.isabs(p) for p in paths):
        raise ValueError("confine.enter: every path must be absolute")
    parent = os.getppid()
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW
    report_fd = os.open(report, flags, 0o600) if report else None
    _unshare(user_namespace, network)
    parent_alive_read, parent_alive_write = os.pipe()
    status_read, status_write = os.pipe()
    child = os.fork()
    if child:  # outside the jail: pass signals on, end as the program ended
        os.close(parent_alive_read)
        os.close(status_write)
        _pass_on_signals(child)
        _wait_following_parent(child, parent)
        message = os.read(status_read, REPORT.size)
        whole = len(message) == REPORT.size
        status, kept = REPORT.unpack(message) if whole else (signal.SIGKILL, 0)
        if report_fd is not None:
            os.write(report_fd, f"{status} {kept}".encode())
        _end_as(status)
    if report_fd is not None:
        os.close(report_fd)
    os.close(parent_alive_write)
    os.close(status_read)
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if select.select([parent_alive_read], [], [], 0)[0]:  # the parent died before the line above
        os._exit(137)
    os.close(parent_alive_read)
    os.setsid()
    for folder in cgroups:  # before anything else starts: every process of the jail is counted
        with open(os.path.join(folder, "cgroup.procs"), "w") as file:
            file.write(str(os.getpid()))
    _libc.syscall(SYS_KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None)  # new and empty: not the caller's
    for path in own:
        os.chown(path, uid, gid)
    write = [os.path.realpath(p) for p in write]
    owner = None if uid is None else (uid, uid if gid is None else gid)
    _build_root(
        write,
        [os.path.realpath(p) for p in read],
        tmp_bytes,
        with_proc=True,
        write_bytes=write_bytes,
        owner=owner,
    )
    if loopback:
        loopback_up()
    os.chdir(os.path.realpath(cwd) if cwd else "/")
    watched = ["/tmp", "/dev/shm", *(write if write_bytes else [])]
    _init(status_write, uid, gid, watched, namespaces)
    resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_FILE_BYTES, MAX_FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if cgroups:
        return  # they count every process and page of the jail, and tell which limit was met
    if max_processes and (uid is not None or user_namespace):  # per user namespace since Linux 5.14
        resource.setrlimit(resource.RLIMIT_NPROC, (max_processes, max_processes))
    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (2 * memory_bytes, 2 * memory_bytes))


# --- limits: a jail's own cgroups ----------------------------------------------------------------
# What is written in a new cgroup, by version then controller: (file, the limit it holds, or 0);
# a file marked "?" (swap) is skipped where the kernel has none. Then what tells of a hit: (file,
# key, limit).
CGROUP_SETTINGS = {
    1: {
        "memory": (("memory.limit_in_bytes", "memory"), ("memory.memsw.limit_in_bytes?", "memory")),
        "pids": (("pids.max", "processes"),),
    },
    2: {
        "memory": (("memory.max", "memory"), ("memory.swap.max?", 0)),
        "pids": (("pids.max", "processes"),),
    },
}
CGROUP_EVENTS = (
    ("memory.events", "oom_kill", "memory"),
    ("memory.oom_control", "oom_kill", "memory"),
    ("pids.events", "max", "processes"),
)


def cgroup_parents(mountinfo: str, membership: str, root: str = "") -> tuple[int, dict] | None:
    """(cgroup version, {"memory": folder, "pids": folder}) where this process may make a jail's
    cgroups, from its /proc/self/mountinfo and /proc/self/cgroup texts (`root`: where the machine's
    root is, for a test's fake tree); None where the pair is not there.

    cgroup v2 where this process's own cgroup already hands both controllers down (a v2 cgroup
    with processes in it cannot start to: someone must have delegated them); else v1's memory and
    pids hierarchies. The v2 path is untested on a real kernel here (the test machine has none)."""
    own = {}
    for line in membership.splitlines():
        _, controllers, path = line.split(":", 2)
        own.update({name: path for name in controllers.split(",")})
    folders = {}
    for line in mountinfo.splitlines():
        fields, _, after = line.partition(" - ")
        fstype, _, options = (after.split() + ["", "", ""])[:3]
        mount_root, point = fields.split()[3:5]
        for controller in ("", "memory", "pids"):
            wanted = "cgroup2" if controller == "" else "cgroup"
            named = controller == "" or controller in options.split(",")
            if fstype != wanted or controller not in own or not named:
                continue
            path = own[controller]  # under the mount's own root (a container may mount a subtree)
            if mount_root == "/" or path == mount_root or path.startswith(mount_root + "/"):
                inside = path[len(mount_root) :] if mount_root != "/" else path
                folders[controller] = root + os.path.normpath(f"{point}/{inside}")
    if "" in folders:
        delegated = os.path.join(folders[""], "cgroup.subtree_control")
        with contextlib.suppress(OSError), open(delegated) as file:
            if {"memory", "pids"} <= set(file.read().split()):
                return 2, {"memory": folders[""], "pids": folders[""]}
    if "memory" in folders and "pids" in folders:
        return 1, {"memory": folders["memory"], "pids": folders["pids"]}
    return None


def cgroups_for(
    name: str, memory_bytes: int, max_processes: int, proc: str = "/proc/self", root: str = ""
) -> list[str]:
    """New cgroups `name` capping a jail's memory and processes (give them to `enter`, then to
    `cgroup_limits_hit` and `remove_cgroups`), or [] where this process cannot make them (not root,
    no such controller): the jail then falls back on rlimits."""
    try:
        with open(f"{proc}/mountinfo") as mountinfo, open(f"{proc}/cgroup") as membership:
            found = cgroup_parents(mountinfo.read(), membership.read(), root)
    except (OSError, ValueError):
        found = None
    if found is None:
        return []
    version, parents = found
    values = {"memory": memory_bytes, "processes": max_processes, 0: 0}
    made = []
    try:
        for parent in parents.values():  # every folder first: an empty one can be removed
            folder = os.path.join(parent, name)
            if folder not in made:
                os.mkdir(folder)
                made.append(folder)
        for controller, parent in parents.items():
            for setting, value in CGROUP_SETTINGS[version][controller]:
                optional = setting.endswith("?")
                path = os.path.join(parent, name, setting.rstrip("?"))
                if optional and not os.path.exists(path):
                    continue
                with open(path, "w") as file:
                    file.write(str(values[value]))
    except OSError:
        remove_cgroups(made)
        return []
    return made


def cgroup_limits_hit(folders: list[str]) -> list[str]:
    """Which limits ("memory", "processes") the jail in `folders` met: a process killed for memory,
    a fork refused."""
    hit = []
    for folder in folders:
        for events, key, limit in CGROUP_EVENTS:
            path = os.path.join(folder, events)
            with contextlib.suppress(OSError, ValueError), open(path) as file:
                counts = dict(line.split() for line in file if len(line.split()) == 2)
                if int(counts.get(key, 0)) > 0 and limit not in hit:
                    hit.append(limit)
    return hit


def remove_cgroups(folders: list[str]) -> None:
    """Remove a jail's cgroups once it has ended: any process still in one is killed first (its last
    ones may take a moment to leave)."""
    for folder in folders:
        for _ in range(100):
            procs = os.path.join(folder, "cgroup.procs")
            with contextlib.suppress(OSError, ValueError), open(procs) as file:
                for pid in file.read().split():
                    with contextlib.suppress(OSError):
                        os.kill(int(pid), signal.SIGKILL)
            try:
                os.rmdir(folder)
                break
            except FileNotFoundError:
                break
            except OSError as error:
                if error.errno != errno.EBUSY:
                    break
                time.sleep(0.01)


# --- the uid pool: a user of its own for each jail run as root -----------------------------------
FIRST_UID = 61000  # no account on a Debian or Ubuntu system uses 61000-61999
UIDS = range(FIRST_UID, FIRST_UID + 1000)
# NOTE: a uid must be free across PROCESSES, not only threads: two graders (or two test workers)
# sharing one would kill each other's kernels when one of them ends. Each uid in use holds an
# exclusive flock on its own file, which the OS releases even if its holder dies. The folder is
# fixed, not TMPDIR's: two processes with different TMPDIRs must still see each other's locks.
UID_LOCKS = "/tmp/workbook-grading-uids"
uids_in_use: dict[int, int] = {}  # uid -> the file descriptor holding its lock
uids_lock = threading.Lock()


def lock_uid(uid: int) -> int | None:
    """The fd of `uid`'s lock file, locked for this process; None when another process holds it."""
    os.makedirs(UID_LOCKS, mode=0o700, exist_ok=True)
    fd = os.open(os.path.join(UID_LOCKS, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def claim_uid() -> int:
    """A uid of the pool that no account has and no other process holds, held by this one until
    `release_uid` (or its end)."""
    with uids_lock:
        for uid in UIDS:
            if uid in uids_in_use:
                continue
            with contextlib.suppress(KeyError):
                pwd.getpwuid(uid)
                continue  # an account has it
            fd = lock_uid(uid)
            if fd is None:
                continue  # another process has it
            uids_in_use[uid] = fd
            return uid
    raise RuntimeError(
        f"no free uid left in {UIDS.start}-{UIDS.stop - 1}: run fewer jails at once "
        "(grade with fewer --jobs)"
    )


def release_uid(uid: int) -> None:
    """Give `uid` back to the pool (closing its lock file releases the lock)."""
    with uids_lock:
        fd = uids_in_use.pop(uid, None)
    if fd is not None:
        os.close(fd)


def python_paths() -> list[str]:
    """What a Python program needs to run here: the interpreter's installation and its venv."""
    return sorted(
        {
            os.path.realpath(sys.base_prefix),
            os.path.realpath(sys.prefix),
            os.path.dirname(os.path.realpath(sys.executable)),
        }
    )


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
    parser.add_argument("--memory-bytes", type=int)
    parser.add_argument("--write-bytes", type=int)
    parser.add_argument("--cgroup", action="append", default=[])
    parser.add_argument("--report")
    parser.add_argument("--no-namespaces", dest="namespaces", action="store_false")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    enter(
        args.write,
        args.read,
        args.cwd,
        args.user_namespace,
        args.loopback,
        args.tmp_bytes,
        args.uid,
        args.gid,
        args.own,
        args.network,
        args.write_bytes,
        args.cgroup,
        args.report,
        args.max_processes,
        args.memory_bytes,
        args.namespaces,
    )
    become(command)


def become(command: list[str]) -> None:
    """Turn this (jailed) process into `command`, found on PATH; if it cannot run, say why and
    exit 127, as a shell does."""
    try:
        os.execvp(command[0], command)
    except OSError as error:
        print(f"confine: cannot run {command[0]}: {error.strerror}", file=sys.stderr)
        sys.stderr.flush()
        os._exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
