"""The hub files an instructor deploys without this machine's hub test: hub/config.yaml (Zero to
JupyterHub) and hub/Dockerfile. Their pins agree with the chart, their placeholders are counted as
INSTRUCTORS.md counts them, and the postStart pull reports a failure in the student's home."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
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
    values = [
        line
        for line in text.splitlines()
        if "CHANGE-ME" in line and not line.lstrip().startswith("#")
    ]
    assert len(values) == 4 and "four CHANGE-ME values" in text
    assert "four `CHANGE-ME` values" in " ".join(
        (ROOT / "INSTRUCTORS.md").read_text(encoding="utf-8").split()
    )


def test_idle_kernels_are_culled_open_tabs_included():
    culling = CONFIG["singleuser"]["extraFiles"]["kernel-culling"]["data"]["MappingKernelManager"]
    assert culling["cull_connected"] is True and 0 < culling["cull_idle_timeout"] <= 3600


def run_post_start(home: Path, repository: str) -> None:
    command = POST_START.replace("/home/student", str(home)).replace(
        "CHANGE-ME-repository-url", repository
    )
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    # never kills the pod
    assert subprocess.run(["sh", "-c", command], env=env, timeout=120).returncode == 0


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
        (ROOT / "lessons" / "00_first_call.ipynb").read_text(encoding="utf-8"), encoding="utf-8"
    )
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "release"], check=True)
    run_post_start(home, str(upstream))
    assert (home / "context-engineering-workbook" / "lessons" / "00_first_call.ipynb").is_file()
    assert not (home / "WORKBOOK-PULL-FAILED.txt").exists(), (
        home / ".workbook-pull.log"
    ).read_text()


def load_config(tmp_path, monkeypatch, uid: int, **env: str):
    """hub/jupyterhub_config.py as JupyterHub loads it, here with a stand-in get_config."""
    # `make test-hub` installs it; without it, nothing here to load
    pytest.importorskip("jupyterhub")
    from traitlets.config import Config

    monkeypatch.setattr(os, "geteuid", lambda: uid)
    for name in ("WORKBOOK_CLASS_PASSWORD", "WORKBOOK_ADMIN_PASSWORD", "WORKBOOK_HUB_MODE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in {"WORKBOOK_HUB_DIR": str(tmp_path / "state"), **env}.items():
        monkeypatch.setenv(name, value)
    config = Config()
    path = ROOT / "hub" / "jupyterhub_config.py"
    umask = os.umask(0o022)
    try:  # the config sets the hub's umask (077): the test process gets its own back
        exec(
            compile(path.read_text(encoding="utf-8"), str(path), "exec"),
            {"get_config": lambda: config, "__file__": str(path)},
        )
    finally:
        os.umask(umask)
    return config


def test_the_default_needs_root_and_no_password_is_taken_from_the_environment(
    tmp_path, monkeypatch
):
    with pytest.raises(SystemExit, match="run it as root"):
        load_config(tmp_path, monkeypatch, uid=1000)
    with pytest.raises(SystemExit, match="WORKBOOK_ADMIN_PASSWORD is set"):
        load_config(
            tmp_path,
            monkeypatch,
            uid=1000,
            WORKBOOK_HUB_MODE="trusted-room",
            WORKBOOK_ADMIN_PASSWORD="x" * 40,
        )


def test_a_trusted_room_is_named_and_its_secrets_are_files_of_the_hub_alone(tmp_path, monkeypatch):
    config = load_config(tmp_path, monkeypatch, uid=1000, WORKBOOK_HUB_MODE="trusted-room")
    private = tmp_path / "state" / "hub"
    assert config.JupyterHub.spawner_class == "simple" and (private.stat().st_mode & 0o777) == 0o700
    for name in ("class_password", "admin_password", "proxy_token"):
        assert (private / name).stat().st_mode & 0o077 == 0, f"{name} is readable by others"
    assert (
        config.SharedPasswordAuthenticator.admin_password
        == (private / "admin_password").read_text().strip()
    )
    assert len(config.SharedPasswordAuthenticator.admin_password) >= 32
    with pytest.raises(SystemExit, match="trusted-room"):
        load_config(tmp_path, monkeypatch, uid=1000, WORKBOOK_HUB_MODE="single")


SCHEMA = ROOT / "build" / "hub" / "z2jh-4.3.5-values.schema.yaml"
DEFAULTS = ROOT / "build" / "hub" / "z2jh-4.3.5-values.yaml"


def _merged(defaults: dict, values: dict) -> dict:
    """What helm validates: the chart's values.yaml with ours over it, key by key."""
    merged = dict(defaults)
    for key, value in values.items():
        merged[key] = (
            _merged(merged[key], value)
            if isinstance(value, dict) and isinstance(merged.get(key), dict)
            else value
        )
    return merged


@pytest.mark.skipif(
    not (SCHEMA.is_file() and DEFAULTS.is_file()),
    reason=(
        "chart 4.3.5's schema is not here (no network to fetch it from): curl -sfL -o"
        " build/hub/z2jh-4.3.5-values.schema.yaml"
        " https://raw.githubusercontent.com/jupyterhub/zero-to-jupyterhub-k8s/4.3.5/jupyterhub/values.schema.yaml,"
        " and the same for jupyterhub/values.yaml into build/hub/z2jh-4.3.5-values.yaml"
    ),
)
def test_config_yaml_is_valid_values_for_chart_4_3_5():
    """helm checks the values against the chart's values.schema.json before rendering anything; the
    schema refuses unknown keys at most levels, so a misspelt key fails here, not on the cluster."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(yaml.safe_load(SCHEMA.read_text(encoding="utf-8")))
    values = _merged(yaml.safe_load(DEFAULTS.read_text(encoding="utf-8")), CONFIG)
    errors = [
        f"{'.'.join(map(str, error.path))}: {error.message}"
        for error in validator.iter_errors(values)
    ]
    assert not errors, errors
    misspelt = _merged(values, {"singleuser": {"memroy": {}}})
    assert list(validator.iter_errors(misspelt)), (
        "the schema let a misspelt key through: is it the chart's?"
    )
