"""An attacking submission, graded: each attack is stopped, and the gradebook says what was
enforced.

Each attack is a cell that raises an error saying what it managed, so its result lands in the
gradebook as an "error" row: the test reads the row and the files the attack went for.
"""

import base64
import csv
import subprocess
import sys
import time

import pytest
from test_workbook_check import write_fake_lesson

from harness.plumbing.redaction import redact
from harness.workbook import ROOT
from harness.workbook.sandbox import can_isolate

# built here: no key-shaped literal in the repository
FAKE_KEY = "AIza" + "Sy" + "0123456789abcdefghijklmnopqrstuvw"


def attacks(classmate, out) -> tuple[str, ...]:
    return (
        "import os\nraise RuntimeError('environ key: ' + repr(os.environ.get('GEMINI_API_KEY')))",
        "import os\nraise RuntimeError('HOME: ' + os.environ['HOME'])",
        f"raise RuntimeError('dotenv: ' + open({str(out.parent / '.env')!r}).read())",
        f"raise RuntimeError('classmate: ' + open({str(classmate)!r}).read()[:40])",
        f"open({str(classmate)!r}, 'w').write('destroyed')",
        f"open({str(ROOT / 'harness' / 'backdoor.py')!r}, 'w').write('print(1)')",
        (
            "import subprocess, sys\ncode = 'import time; time.sleep(12); open(%r,"
            ' "w").write("owned")\' %'
            f" {str(out / 'gradebook.csv')!r}\nsubprocess.Popen([sys.executable, '-c', code],"
            " start_new_session=True)\nraise RuntimeError('detached process started')"
        ),
    )


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    root = tmp_path_factory.mktemp("attack")
    (root / "reference").mkdir()
    write_fake_lesson(root / "reference" / "91_one.ipynb")
    classmate = write_fake_lesson(root / "submissions" / "bob" / "91_one.ipynb", "    return 2 * x")
    before = classmate.read_bytes()
    out = root / "out"
    write_fake_lesson(root / "submissions" / "eve" / "91_one.ipynb", extra=attacks(classmate, out))
    (root / ".env").write_text(f"GEMINI_API_KEY={FAKE_KEY}\n", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "GEMINI_API_KEY": FAKE_KEY}
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
            "20",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    time.sleep(14)  # longer than the detached process would wait before rewriting the gradebook
    with (out / "gradebook.csv").open(encoding="utf-8") as file:
        rows = [
            r for r in csv.DictReader(file) if r["student"] == "eve" and r["exercise"] == "notebook"
        ]
    return root, classmate, before, rows


def message(rows, start: str) -> str:
    return next(r["message"] for r in rows if start in r["message"])


def test_the_key_never_reaches_the_kernel_nor_the_gradebook(attacked):
    root, _, _, rows = attacked
    assert "environ key: None" in message(rows, "environ key")
    assert "Error" in message(rows, "dotenv") and "RuntimeError: dotenv" not in message(
        rows, "dotenv"
    )
    assert all(
        FAKE_KEY not in p.read_text(errors="replace")
        for p in (root / "out").rglob("*")
        if p.is_file()
    )


def test_home_is_fresh(attacked):
    assert "/root" not in message(attacked[3], "HOME:") and "home" in message(attacked[3], "HOME:")


@pytest.mark.skipif(not can_isolate(), reason="needs root to run the kernel as a user of its own")
def test_classmates_work_is_out_of_reach(attacked):
    _, classmate, before, rows = attacked
    assert "Error" in message(rows, "classmate") and "RuntimeError: classmate" not in message(
        rows, "classmate"
    )
    assert classmate.read_bytes() == before


@pytest.mark.skipif(not can_isolate(), reason="needs root to make the clone read-only")
def test_the_instructors_clone_gets_no_module(attacked):
    assert not (ROOT / "harness" / "backdoor.py").exists()


def test_a_detached_process_cannot_rewrite_the_gradebook(attacked):
    root = attacked[0]
    assert "detached process started" in message(attacked[3], "detached")
    assert (root / "out" / "gradebook.csv").read_text(encoding="utf-8").startswith("student,")


def test_the_gradebook_says_what_was_enforced(attacked):
    page = (attacked[0] / "out" / "gradebook.html").read_text(encoding="utf-8")
    assert "How the notebooks were run" in page and "every process killed at the end" in page


def test_encoded_forms_of_a_key_are_redacted(monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "sk-not-shaped-like-google-0123")
    secret = "sk-not-shaped-like-google-0123"
    for form in (
        secret,
        secret[::-1],
        base64.b64encode(secret.encode()).decode(),
        secret.encode().hex(),
    ):
        assert redact(f"leak: {form}.") == "leak: [key hidden]."
    for form in (
        FAKE_KEY,
        FAKE_KEY[::-1],
        base64.b64encode(FAKE_KEY.encode()).decode(),
        FAKE_KEY.encode().hex(),
    ):
        assert "[key hidden]" in redact(form) and FAKE_KEY[6:20] not in redact(form)


@pytest.mark.skipif(not can_isolate(), reason="needs root to mount and to change user")
def test_a_workbook_inside_a_closed_folder_is_reachable_but_its_secrets_are_not(tmp_path):
    """A clone in /root (0700): the jail (an allow-list) shows the clone's code read-only, and
    nothing else of the folder around it nor the clone's .env."""
    import shutil
    import tempfile
    from pathlib import Path

    from harness.plumbing import jail as jail_program
    from harness.workbook.sandbox import Sandbox

    base = Path(tempfile.mkdtemp(prefix="workbook-jail-test-"))
    try:
        base.chmod(0o711)
        closed = base / "home"
        clone = closed / "clone"
        clone.mkdir(parents=True)
        closed.chmod(0o700)
        (clone / "code.py").write_text("print('the code runs')\n")
        (clone / ".env").write_text(f"GEMINI_API_KEY={FAKE_KEY}\n")
        (closed / "diary.txt").write_text("private\n")
        with Sandbox.create(tmp_path) as box:
            jail = [
                sys.executable,
                "-I",
                "-S",
                jail_program.__file__,
                "--uid",
                str(box.uid),
                "--gid",
                str(box.uid),
                "--read",
                str(clone / "code.py"),
            ]
            shell = (
                f"cat {clone / 'code.py'}; cat {clone / '.env'}; ls -a {closed}; touch"
                f" {clone / 'new'} 2>&1"
            )
            done = subprocess.run(
                [*jail, "--", "/bin/sh", "-c", shell], capture_output=True, text=True, timeout=60
            )
        said = done.stdout + done.stderr
        assert "the code runs" in said, said
        assert FAKE_KEY not in said and "diary" not in said, said
        assert ("Read-only file system" in said or "Permission denied" in said) and not (
            clone / "new"
        ).exists(), said
    finally:
        shutil.rmtree(base, ignore_errors=True)
