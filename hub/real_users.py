"""One OS account per student, so that the OS keeps students out of each other's homes; the hub's
secrets in files only the hub's account reads.

JupyterHub's own way (`LocalAuthenticator.create_system_users`) belongs to PAM-style authenticators
and names the account after the hub user: the class password (`shared-password`) is not one, and a
student who logs in as `root`, `daemon` or `instructor` would be given that system account. Here the
spawner creates the account itself, at the student's first start, under a prefix that no system
account uses (hub user `ada` -> OS account `wb-ada`), in a group that marks it as the workbook's:
an existing account outside that group is never taken over, the spawn is refused instead.

    c.JupyterHub.spawner_class = StudentSpawner
    c.StudentSpawner.homes = "/srv/workbook-hub/homes"   # ada's home: /srv/workbook-hub/homes/ada, mode 0700

The hub must run as root (useradd, and starting each server as its student).
"""

import asyncio
import grp
import os
import pwd
import secrets
import stat
import subprocess
import threading
from contextlib import suppress
from pathlib import Path

from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid
from traitlets import Unicode

from harness.workbook.sandbox import kill_user_processes

_ACCOUNTS = threading.Lock()


def username_pattern(prefix: str) -> str:
    """Hub names that make valid OS account names once prefixed: a rule useradd accepts everywhere,
    and Linux's 32-character limit.

    >>> username_pattern("wb-")
    '^[a-z][a-z0-9_-]{0,28}$'
    """
    return rf"^[a-z][a-z0-9_-]{{0,{31 - len(prefix)}}}$"


class StudentSpawner(LocalProcessSpawner):
    """LocalProcessSpawner whose OS account is `account_prefix + hub name`, created when missing."""

    homes = Unicode(
        config=True, help="Folder holding one home per student, named after the hub user."
    )
    account_prefix = Unicode(
        "wb-", config=True, help="Put before the hub name to make the OS account name."
    )
    account_group = Unicode(
        "workbook-students",
        config=True,
        help="Group every account made here belongs to; accounts outside it are not used.",
    )

    @property
    def account(self) -> str:
        return self.account_prefix + self.user.name

    @property
    def home(self) -> Path:
        return Path(self.homes) / self.user.name

    async def start(self):
        def ensure():
            # one useradd at a time: the room logs in at once, /etc/passwd has one lock
            with _ACCOUNTS:
                ensure_account(self.account, self.account_group, self.home)

        await asyncio.to_thread(ensure)
        return await super().start()

    async def stop(self, now=False):
        """Stop the server, then every process left under the student's account: a kernel's child
        started with setsid (or a double fork) is in no process group the server's stop reaches."""
        await super().stop(now=now)
        with suppress(KeyError):
            uid = pwd.getpwnam(self.account).pw_uid
            await asyncio.to_thread(kill_user_processes, uid)

    def make_preexec_fn(self, name):
        return set_user_setuid(self.account)  # not the hub name JupyterHub passes

    def user_env(self, env):
        entry = pwd.getpwnam(self.account)
        env.update(USER=self.account, LOGNAME=self.account, HOME=entry.pw_dir, SHELL=entry.pw_shell)
        return env


def ensure_account(account: str, group: str, home: Path) -> pwd.struct_passwd:
    """The account, created (with its private group, in `group`) if missing; its home made 0700.

    Raises PermissionError, saying what to do, for an account or a home that is not the workbook's.
    """
    try:
        grp.getgrnam(group)
    except KeyError:
        _run("groupadd", "--system", group)
    try:
        entry = pwd.getpwnam(account)
    except KeyError:
        _run(
            "useradd",
            "--no-create-home",
            "--home-dir",
            str(home),
            "--user-group",
            "--groups",
            group,
            "--shell",
            "/bin/bash",
            "--comment",
            "workbook student",
            account,
        )
        entry = pwd.getpwnam(account)
    if account not in grp.getgrnam(group).gr_mem:
        raise PermissionError(
            f"The OS account {account} exists but is not in group {group}: it was not made "
            "for the workbook, so it is not used. Remove it, or give the student another name."
        )
    if Path(entry.pw_dir) != home:
        raise PermissionError(
            f"The OS account {account} has home {entry.pw_dir}, not {home}: "
            f"run `usermod --home {home} {account}` or remove the account."
        )
    try:
        home.mkdir(mode=0o700)
        os.chown(home, entry.pw_uid, entry.pw_gid)
    except FileExistsError:  # a home made earlier, or a folder left by another mode or account
        if home.is_symlink() or home.lstat().st_uid != entry.pw_uid:
            raise PermissionError(
                f"{home} exists and does not belong to {account}: move it away, or "
                f"`chown -R {account}: {home}` if it is really this student's."
            ) from None
    home.chmod(0o700)  # at every start: a home opened to the class is closed again
    return entry


def _run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip()}")


def secret_file(path: Path, random_bytes: int) -> str:
    """The secret in `path` (the hub's account's alone, mode 0600), written at random if missing,
    so a secret is never in an environment that a student's process, or `ps e`, can read."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        path.chmod(0o600)  # a file written with a loose umask is closed again
        value = path.read_text(encoding="utf-8").strip()
        if not value:
            raise SystemExit(
                f"{path} is empty: write the secret in it, or delete it and a random one is made."
            )
        return value
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(secrets.token_urlsafe(random_bytes) + "\n")
    return path.read_text(encoding="utf-8").strip()


def readable_by_others(folder: Path) -> Path | None:
    """A file in `folder` that any account may read (every folder on the way open to others), or
    None."""
    for step in [*reversed(folder.resolve().parents), folder.resolve()]:
        if step.exists() and not step.stat().st_mode & stat.S_IXOTH:
            return None  # a closed folder on the way: nothing below it can be reached
    if not folder.is_dir():
        return None
    return next(
        (p for p in sorted(folder.rglob("*")) if p.is_file() and p.stat().st_mode & stat.S_IROTH),
        None,
    )
