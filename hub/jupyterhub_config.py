"""JupyterHub for one machine, The Littlest JupyterHub style: local spawner, one home per student,
idle servers and idle kernels culled, nbgitpuller to hand out the workbook.

    jupyterhub -f hub/jupyterhub_config.py

Students log in with any name and the class password (WORKBOOK_CLASS_PASSWORD, 8+ characters);
the instructor logs in as `instructor`, the admin, with WORKBOOK_ADMIN_PASSWORD (32+ characters).
Each student gets WORKBOOK_HUB_DIR/homes/NAME as home and notebook folder.

NOTE: SimpleLocalProcessSpawner runs every student's server as the one OS user running the hub.
Homes are separate folders, not separate permissions: a student's kernel can read a classmate's
notebooks and reach a classmate's loopback ports. With WORKBOOK_HUB_REAL_USERS=1 the hub (run as
root) creates one OS account per student, `wb-NAME` (WORKBOOK_HUB_ACCOUNT_PREFIX), in group
workbook-students (WORKBOOK_HUB_ACCOUNT_GROUP), and starts each server as that account, home 0700
(hub/real_users.py): the OS keeps students out of each other's files, not off each other's loopback
ports. Zero to JupyterHub (hub/config.yaml) gives each student a container.

Everything a test or a second hub on the same machine needs to move is an environment variable:
WORKBOOK_HUB_DIR (state, homes; default /srv/workbook-hub), WORKBOOK_HUB_PORT (8000),
WORKBOOK_HUB_IP (0.0.0.0), WORKBOOK_HUB_API_PORT (8081), WORKBOOK_PROXY_API_PORT (8001),
WORKBOOK_CHP (the configurable-http-proxy command), WORKBOOK_IDLE_MINUTES (60).
"""
import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821  (JupyterHub provides it)
env = os.environ.get

state = Path(env("WORKBOOK_HUB_DIR", "/srv/workbook-hub"))
homes = state / "homes"
homes.mkdir(parents=True, exist_ok=True)
idle_seconds = int(float(env("WORKBOOK_IDLE_MINUTES", "60")) * 60)

# Where the hub listens, where it keeps its database, secret and proxy.
c.JupyterHub.bind_url = f"http://{env('WORKBOOK_HUB_IP', '0.0.0.0')}:{env('WORKBOOK_HUB_PORT', '8000')}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{env('WORKBOOK_HUB_API_PORT', '8081')}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{env('WORKBOOK_PROXY_API_PORT', '8001')}"
c.ConfigurableHTTPProxy.command = [env("WORKBOOK_CHP", "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")

# One class password; the instructor is the admin, with a password of their own.
class_password = env("WORKBOOK_CLASS_PASSWORD", "")
if len(class_password) < 8:
    sys.exit("Set WORKBOOK_CLASS_PASSWORD (8 characters or more) before starting the hub: students log in with it.")
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = class_password
c.SharedPasswordAuthenticator.admin_password = env("WORKBOOK_ADMIN_PASSWORD", "")  # 32+ characters; unset: no admin
c.Authenticator.admin_users = {"instructor"}
c.Authenticator.allow_all = True  # any name with the class password: the room is the allow list

# One home per student; JupyterLab; kernels culled when idle (browser tabs left open included).
real_users = env("WORKBOOK_HUB_REAL_USERS") == "1"
if real_users:  # one OS account per student: see hub/real_users.py
    if os.geteuid() != 0:
        sys.exit("WORKBOOK_HUB_REAL_USERS=1 needs the hub run as root: it creates one OS account per student "
                 "and starts each student's server as that account.")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from real_users import StudentSpawner, username_pattern

    os.umask(0o077)  # what the hub writes (database, cookie secret, logs) is unreadable by students
    for folder in (state, homes):
        folder.chmod(0o711)  # students pass through to their own home but list nobody's
    c.JupyterHub.spawner_class = StudentSpawner
    c.StudentSpawner.homes = str(homes)
    c.StudentSpawner.account_prefix = prefix = env("WORKBOOK_HUB_ACCOUNT_PREFIX", "wb-")
    c.StudentSpawner.account_group = env("WORKBOOK_HUB_ACCOUNT_GROUP", "workbook-students")
    c.Authenticator.username_pattern = username_pattern(prefix)
    c.JupyterHub.template_vars = {"announcement_login": "Your name: lowercase letters, digits, - or _, "
                                                        "starting with a letter."}
else:
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(homes / "{username}")
c.Spawner.default_url = "/lab"
# The workbook's python first on the PATH: `workbook check 03` and `python` work in a hub terminal.
c.Spawner.environment = {"PATH": os.pathsep.join([str(Path(sys.executable).parent), env("PATH", "/usr/bin:/bin")])}
c.Spawner.args = [
    f"--MappingKernelManager.cull_idle_timeout={idle_seconds // 2}",  # an idle kernel holds ~250 MiB
    "--MappingKernelManager.cull_interval=120",
    "--MappingKernelManager.cull_connected=False",  # an open tab keeps its kernel; the server culler ends it
    # Terminals as a non-login shell: a login shell rereads /etc/profile, whose PATH (Debian's) drops
    # the one set below, and then `workbook` is "command not found" in the student's terminal.
    f"--ServerApp.terminado_settings=shell_command={shutil.which('bash') or '/bin/sh'}",
    *(["--allow-root"] if os.geteuid() == 0 and not real_users else []),  # containers, some VMs: all as root
]
c.Spawner.start_timeout = 120  # 30 students spawning at once on a small machine
c.Spawner.http_timeout = 120

# Idle servers stopped by jupyterhub-idle-culler (a hub service with only the scopes it needs).
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={idle_seconds}"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
