"""JupyterLab's terminals open in the server's root with the venv's `workbook` on the PATH, even
when the server was started with a PATH that lacks it (Debian's login shell used to reset it)."""

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

CONFIG = Path(__file__).resolve().parents[1] / "jupyter" / "jupyter_server_config.py"


def test_a_terminal_opens_in_the_lessons_with_workbook_on_its_path(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # a server started without the venv on its PATH
    config = SimpleNamespace(ServerApp=SimpleNamespace())
    exec(compile(CONFIG.read_text(), str(CONFIG), "exec"), {"get_config": lambda: config})  # noqa: S102
    assert os.environ["PATH"].split(os.pathsep)[0] == os.path.join(sys.prefix, "bin")
    shell = config.ServerApp.terminado_settings["shell_command"]
    env = {
        "PATH": os.environ["PATH"],
        "JUPYTER_SERVER_ROOT": str(tmp_path),
        "SHELL": "/bin/sh",
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        shell,
        input="pwd; command -v workbook\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.stdout.split() == [str(tmp_path), os.path.join(sys.prefix, "bin", "workbook")]
