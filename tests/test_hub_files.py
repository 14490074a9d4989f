"""The hub files an instructor deploys without this machine's hub test: hub/config.yaml (Zero to
JupyterHub) and hub/Dockerfile. Their pins agree with the chart, their placeholders are counted as
INSTRUCTORS.md counts them, and the postStart pull reports a failure in the student's home."""
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from harness.workbook import ROOT

CHART_HUB = "5.4.6"  # Zero to JupyterHub chart 4.3.5, images/hub/requirements.txt (read 2026-12-01)
CONFIG = yaml.safe_load((ROOT / "hub" / "config.yaml").read_text(encoding="utf-8"))
POST_START = CONFIG["singleuser"]["lifecycleHooks"]["postStart"]["exec"]["command"][-1]


def test_the_image_and_the_hub_test_run_the_chart_hubs_version():
    assert f'"jupyterhub=={CHART_HUB}"' in (ROOT / "hub" / "Dockerfile").read_text(encoding="utf-8")
    assert f"'jupyterhub=={CHART_HUB}'" in (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--version 4.3.5" in (ROOT / "hub" / "config.yaml").read_text(encoding="utf-8")


def test_the_change_me_values_are_as_many_as_the_docs_say():
    text = (ROOT / "hub" / "config.yaml").read_text(encoding="utf-8")
    values = [line for line in text.splitlines() if "CHANGE-ME" in line and not line.lstrip().startswith("#")]
    assert len(values) == 4 and "four CHANGE-ME values" in text
    assert "four `CHANGE-ME` values" in " ".join((ROOT / "INSTRUCTORS.md").read_text(encoding="utf-8").split())


def test_idle_kernels_are_culled_open_tabs_included():
    culling = CONFIG["singleuser"]["extraFiles"]["kernel-culling"]["data"]["MappingKernelManager"]
    assert culling["cull_connected"] is True and 0 < culling["cull_idle_timeout"] <= 3600


def run_post_start(home: Path, repository: str) -> None:
    command = POST_START.replace("/home/student", str(home)).replace("CHANGE-ME-repository-url", repository)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    assert subprocess.run(["sh", "-c", command], env=env, timeout=120).returncode == 0  # never kills the pod


def test_a_failed_post_start_pull_is_reported_in_the_home_and_a_good_one_clears_it(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    run_post_start(home, str(tmp_path / "no-such-repository"))
    report = (home / "WORKBOOK-PULL-FAILED.txt").read_text(encoding="utf-8")
    assert "workbook update" in report and re.search(r"(?i)fatal|error|not", report), report

    upstream = tmp_path / "course"
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t", "-C", str(upstream)]
    subprocess.run(["git", "init", "-q", "-b", "student", str(upstream)], check=True)
    (upstream / "lessons").mkdir()
    (upstream / "lessons" / "00_first_call.ipynb").write_text(
        (ROOT / "lessons" / "00_first_call.ipynb").read_text(encoding="utf-8"), encoding="utf-8")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "release"], check=True)
    run_post_start(home, str(upstream))
    assert (home / "context-engineering-workbook" / "lessons" / "00_first_call.ipynb").is_file()
    assert not (home / "WORKBOOK-PULL-FAILED.txt").exists(), (home / ".workbook-pull.log").read_text()
