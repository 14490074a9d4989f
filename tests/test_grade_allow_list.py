"""The grading kernel's view, by allow-list (harness.plumbing.jail): its own copy of one submission,
the workbook's code read-only and Python; nothing else of the course clone nor of the machine.

One grade run: eve's notebook tries to read each kind of file outside its copy and reports what it
found; then mallory's looks for what eve left in /tmp and /dev/shm.
"""

import csv
import os
import subprocess
import sys

import pytest
from test_workbook_check import write_fake_lesson

from harness.workbook import ROOT
from harness.workbook.sandbox import can_isolate

pytestmark = pytest.mark.skipif(
    not can_isolate(), reason="needs root to run the kernel in the jail as a user of its own"
)
# built here: no key-shaped literal in the repository
FAKE_KEY = "AIza" + "Sy" + "0123456789abcdefghijklmnopqrstuvw"

PROBE = """import os
def probe(path):
    try:
        if os.path.isdir(path):
            return 'LISTED ' + ','.join(sorted(os.listdir(path)))
        return 'READ ' + open(path, errors='replace').read(200)
    except OSError as error:
        return 'NOTHING ' + type(error).__name__
raise RuntimeError(' | '.join(f'{name}={probe(path)}' for name, path in {targets!r}.items()))
"""
FILL = """import os
said = []
for folder in ('/tmp', '/dev/shm'):
    open(folder + '/eve-was-here', 'w').write('x')
    try:
        with open(folder + '/big', 'wb') as file:
            for _ in range(100):
                file.write(b'x' * (1 << 20))
        said.append(folder + ' took 100 MiB')
    except OSError as error:
        said.append(folder + ' full at ' + str(os.path.getsize(folder + '/big') >> 20) + ' MiB')
raise RuntimeError('FILL ' + '; '.join(said))
"""
LEFT = (
    "import os\nraise RuntimeError('LEFT ' + repr([f for d in ('/tmp', '/dev/shm') for f in"
    " os.listdir(d)]))"
)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("allow")
    (root / "reference").mkdir()
    write_fake_lesson(root / "reference" / "91_one.ipynb")
    bob = write_fake_lesson(root / "submissions" / "bob" / "91_one.ipynb", "    return 2 * x")
    out = root / "out"
    (root / ".env").write_text(f"GEMINI_API_KEY={FAKE_KEY}\n")
    (root / "submissions" / ".env").write_text(f"GEMINI_API_KEY={FAKE_KEY}\n")
    targets = {
        "course .env": str(root / ".env"),
        "submissions .env": str(root / "submissions" / ".env"),
        "classmate": str(bob),
        "submissions": str(root / "submissions"),
        "gradebook folder": str(out),
        "clone": str(ROOT),
        "solutions": str(ROOT / "solutions"),
        "lessons": str(ROOT / "lessons"),
        "clone .env": str(ROOT / ".env"),
        "lessons .env": str(ROOT / "lessons" / ".env"),
        "git": str(ROOT / ".git"),
        "home": "/root",
        "shadow": "/etc/shadow",
        "proc 1 environ": "/proc/1/environ",
    }
    write_fake_lesson(
        root / "submissions" / "eve" / "91_one.ipynb",
        extra=(PROBE.replace("{targets!r}", repr(targets)), FILL),
    )
    write_fake_lesson(root / "submissions" / "mallory" / "91_one.ipynb", extra=(LEFT,))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "grade",
            str(root / "submissions"),
            "--lessons",
            str(root / "reference"),
            "--out",
            str(out),
            "--jobs",
            "1",
            "--cell-timeout",
            "30",
        ],
        cwd=root,
        env={"PATH": "/usr/bin:/bin", "GEMINI_API_KEY": FAKE_KEY},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with (out / "gradebook.csv").open(encoding="utf-8") as file:
        return list(csv.DictReader(file))


def said(rows, student: str, start: str) -> str:
    return next(r["message"] for r in rows if r["student"] == student and start in r["message"])


@pytest.mark.parametrize(
    "name",
    [
        "course .env",
        "submissions .env",
        "classmate",
        "submissions",
        "gradebook folder",
        "solutions",
        "lessons",
        "clone .env",
        "lessons .env",
        "git",
        "home",
        "shadow",
    ],
)
def test_nothing_outside_its_copy_is_visible(graded, name):
    found = said(graded, "eve", "course .env=").split(f"{name}=", 1)[1].split(" | ")[0]
    # a pyenv under /root: the way to it shows, nothing beside it
    python = os.path.realpath(sys.base_prefix)
    on_the_way = (
        name == "home" and python.startswith("/root/") and found == "LISTED " + python.split("/")[2]
    )
    assert found.startswith("NOTHING") or on_the_way, f"the kernel saw {name}: {found[:120]}"


def test_of_the_clone_only_the_workbooks_code_and_python_are_visible(graded):
    found = said(graded, "eve", "clone=").split("clone=", 1)[1].split(" | ")[0]
    assert found.startswith("LISTED ") and set(found[7:].split(",")) <= {"harness", ".venv"}, found


def test_tmp_and_shm_are_capped_and_vanish_with_the_kernel(graded):
    # 64 MiB each
    assert said(graded, "eve", "FILL").count("full at 6") == 2, said(graded, "eve", "FILL")
    assert "eve-was-here" not in said(graded, "mallory", "LEFT")


def test_the_key_reaches_no_row(graded):
    assert all(FAKE_KEY not in r["message"] for r in graded)
