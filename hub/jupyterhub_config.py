"""JupyterHub for one machine, The Littlest JupyterHub style: one OS account per student, created at
their first login, home theirs alone (mode 0700); idle servers and idle kernels culled; nbgitpuller
to hand out the workbook. Run it as root:

    sudo /opt/workbook/bin/jupyterhub -f /root/workbook/hub/jupyterhub_config.py

Students log in with any name (lowercase) and the class password; the instructor logs in as
`instructor`, the admin. Hub user `ada` runs as OS account `wb-ada` (hub/real_users.py), home
WORKBOOK_HUB_DIR/homes/ada.

Secrets live in files of WORKBOOK_HUB_DIR/hub/ (mode 0700, the hub's account only), never in an
environment: class_password, admin_password (written at random at the first start, if missing: read
them there), proxy_token, cookie_secret, jupyterhub.sqlite. The hub refuses to start when the course
clone it runs from lets other accounts read solutions/.

WORKBOOK_HUB_MODE=trusted-room is the one other choice: every student's server runs as the hub's own
OS account, so any student's kernel can read every classmate's notebooks, the hub's secrets (and so
log in as the instructor, the admin) and, if the hub runs as root, do anything as root. Only for a
room where everyone could be given the admin password. INSTRUCTORS.md, "A trusted room", says it in
full.

Everything a test or a second hub on the same machine needs to move is an environment variable:
WORKBOOK_HUB_DIR (state, homes; default /srv/workbook-hub), WORKBOOK_HUB_PORT (8000),
WORKBOOK_HUB_IP (0.0.0.0), WORKBOOK_HUB_API_PORT (8081), WORKBOOK_PROXY_API_PORT (8001),
WORKBOOK_CHP (the configurable-http-proxy command), WORKBOOK_IDLE_MINUTES (servers, 60),
WORKBOOK_KERNEL_IDLE_MINUTES (kernels, 20), WORKBOOK_HUB_ACCOUNT_PREFIX (wb-),
WORKBOOK_HUB_ACCOUNT_GROUP (workbook-students).
"""

import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821  (JupyterHub provides it)
env = os.environ.get
sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_users import (  # noqa: E402  (after the path it is found on)
    StudentSpawner,
    readable_by_others,
    secret_file,
    username_pattern,
)  # noqa: E402

mode = env("WORKBOOK_HUB_MODE", "accounts")
if mode not in ("accounts", "trusted-room"):
    sys.exit(
        f"WORKBOOK_HUB_MODE={mode!r}: use accounts (the default, one OS account per student) or"
        " trusted-room."
    )
accounts = mode == "accounts"
if accounts and os.geteuid() != 0:
    sys.exit(
        "The hub creates one OS account per student and starts each student's server as that"
        " account: run it as root. (WORKBOOK_HUB_MODE=trusted-room runs everyone as one account:"
        " read its risk in INSTRUCTORS.md first.)"
    )
for leaked in ("WORKBOOK_CLASS_PASSWORD", "WORKBOOK_ADMIN_PASSWORD"):
    if env(leaked):
        sys.exit(
            f"{leaked} is set: a password in an environment can leak to students. Unset it and"
            " write the "
            f'password in the file the hub reads (INSTRUCTORS.md, "Passwords").'
        )

# what the hub writes (database, cookie secret, secrets, logs) is the hub's account's alone
os.umask(0o077)
state = Path(env("WORKBOOK_HUB_DIR", "/srv/workbook-hub"))
private, homes = state / "hub", state / "homes"
for folder, folder_mode in ((state, 0o711), (private, 0o700), (homes, 0o711)):
    folder.mkdir(parents=True, exist_ok=True)
    # students pass through state/ and homes/ to their own home, list nobody's
    folder.chmod(folder_mode)
clone = Path(__file__).resolve().parents[1]
if accounts and (open_file := readable_by_others(clone / "solutions")):
    sys.exit(
        f"Students could read the solutions: {open_file} is readable by every account. Close the"
        f" clone (`chmod 700 {clone}`), or run the hub from a clone under /root."
    )
idle_seconds = int(float(env("WORKBOOK_IDLE_MINUTES", "60")) * 60)
kernel_idle_seconds = int(float(env("WORKBOOK_KERNEL_IDLE_MINUTES", "20")) * 60)

# Where the hub listens, where it keeps its database, secret and proxy.
c.JupyterHub.bind_url = (
    f"http://{env('WORKBOOK_HUB_IP', '0.0.0.0')}:{env('WORKBOOK_HUB_PORT', '8000')}"
)
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{env('WORKBOOK_HUB_API_PORT', '8081')}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{env('WORKBOOK_PROXY_API_PORT', '8001')}"
c.ConfigurableHTTPProxy.command = [env("WORKBOOK_CHP", "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(private / "proxy.pid")
c.ConfigurableHTTPProxy.auth_token = secret_file(private / "proxy_token", 32)
c.JupyterHub.db_url = f"sqlite:///{private / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(private / "cookie_secret")
c.JupyterHub.pid_file = str(private / "jupyterhub.pid")

# One class password; the instructor is the admin, with a password of their own.
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = secret_file(private / "class_password", 9)
c.SharedPasswordAuthenticator.admin_password = secret_file(private / "admin_password", 32)
c.Authenticator.admin_users = {"instructor"}
c.Authenticator.allow_all = True  # any name with the class password: the room is the allow list

# One home per student; JupyterLab; kernels culled when idle (browser tabs left open included).
if accounts:
    c.JupyterHub.spawner_class = StudentSpawner
    c.StudentSpawner.homes = str(homes)
    c.StudentSpawner.account_prefix = prefix = env("WORKBOOK_HUB_ACCOUNT_PREFIX", "wb-")
    c.StudentSpawner.account_group = env("WORKBOOK_HUB_ACCOUNT_GROUP", "workbook-students")
    c.Authenticator.username_pattern = username_pattern(prefix)
    c.JupyterHub.template_vars = {
        "announcement_login": (
            "Your name: lowercase letters, digits, - or _, starting with a letter."
        )
    }
else:
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(homes / "{username}")
c.Spawner.default_url = "/lab"
# The workbook's python first on the PATH: `workbook check 03` and `python` work in a hub terminal.
c.Spawner.environment = {
    "PATH": os.pathsep.join([str(Path(sys.executable).parent), env("PATH", "/usr/bin:/bin")])
}
c.Spawner.args = [
    # An idle kernel holds ~130 MiB, and a student who opened every lesson holds one each: each goes
    # after WORKBOOK_KERNEL_IDLE_MINUTES idle, its tab open or not (the tab then starts a fresh
    # kernel).
    f"--MappingKernelManager.cull_idle_timeout={kernel_idle_seconds}",
    f"--MappingKernelManager.cull_interval={max(5, min(120, kernel_idle_seconds // 2))}",
    "--MappingKernelManager.cull_connected=True",
    # Terminals as a non-login shell: a login shell rereads /etc/profile, whose PATH (Debian's)
    # drops the one set below, and then `workbook` is "command not found" in the student's terminal.
    f"--ServerApp.terminado_settings=shell_command={shutil.which('bash') or '/bin/sh'}",
    # a trusted room's hub run as root
    *(["--allow-root"] if os.geteuid() == 0 and not accounts else []),
]
c.Spawner.start_timeout = 120  # 30 students spawning at once on a small machine
c.Spawner.http_timeout = 120

# Idle servers stopped by jupyterhub-idle-culler (a hub service with only the scopes it needs).
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={idle_seconds}"],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
