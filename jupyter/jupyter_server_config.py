"""JupyterLab's terminals for the workbook: they open where the lessons are, with `workbook` on the
PATH.

`make setup` copies this file into the venv's etc/jupyter, so it holds however the server is started
(`make lab`, the venv's `jupyter lab`, a hub's single-user server from the same venv).
"""

import os
import sys

c = get_config()  # noqa: F821 - provided by Jupyter's config loader

# The venv's bin/ first (its `workbook`, `python`, `pytest`), whatever PATH the server was started
# with.
os.environ["PATH"] = os.pathsep.join(
    [os.path.join(sys.prefix, "bin"), os.environ.get("PATH", os.defpath)]
)
# An explicit shell: left unset, a server started without a terminal gives each terminal a login
# shell (`sh -l`), and Debian's /etc/profile resets PATH, so `workbook` was "command not found". The
# shell starts in the server's root directory (lessons/ under `make lab`), not where the server was
# started.
c.ServerApp.terminado_settings = {
    "shell_command": [
        "/bin/sh",
        "-c",
        'cd "${JUPYTER_SERVER_ROOT:-.}" && exec "${SHELL:-/bin/sh}" -i',
    ]
}
