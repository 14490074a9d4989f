"""A real JupyterHub on loopback with several students: slow, so `make test` never collects it;
`make test-hub` installs JupyterHub and configurable-http-proxy and sets WORKBOOK_HUB=1.

One hub for every test here, in the shipped default mode (one OS account per student, run as root),
with idle kernels culled after 90 s so that culling is seen within the test."""

import os
import sys
import time

import pytest

if os.environ.get("WORKBOOK_HUB") != "1":
    collect_ignore_glob = ["test_*.py"]

# 30 s culled kernels mid-run at load average 6: too short for a shared machine
KERNEL_IDLE_MINUTES = "1.5"


@pytest.fixture(scope="session")
def hub():
    if os.geteuid() != 0:
        pytest.fail(
            "the hub's default mode creates one OS account per student: run `make test-hub` as root"
        )
    from running_hub import student_accounts_hub

    from harness.workbook import ROOT

    started = time.time()
    with student_accounts_hub(
        ROOT / "build" / "hub" / "jupyterhub.log", WORKBOOK_KERNEL_IDLE_MINUTES=KERNEL_IDLE_MINUTES
    ) as running:
        yield running
    from capacity import capacity_block

    print(capacity_block(started), file=sys.stderr)
