"""A Gemini key never lands in a file the project writes or ships, nor on the screen.

A fake key shaped like a real one (`AIza` + 35 characters) is put in the environment; the
notebooks, checkpoints and gradebooks are scanned for it and for anything else of that shape.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_workbook_check import write_fake_lesson

import harness
from harness.workbook import ROOT

KEY_SHAPE = re.compile(r"AIza[0-9A-Za-z_-]{35}")
FAKE_KEY = "AIza" + "FakeKeyForTheHygieneTests_".ljust(35, "x")
LEAKY_CELL = (  # a careless student
    "import os\nraise RuntimeError('my key is ' + os.environ['GEMINI_API_KEY'])"
)


def leaks(text: str) -> list[str]:
    return KEY_SHAPE.findall(text) + ([FAKE_KEY] if FAKE_KEY in text else [])


def shipped_files() -> list[Path]:
    """Lessons, solutions, and every checkpoint (*.jsonl) in the project outside the venv."""
    files = [
        p for folder in ("lessons", "solutions") for p in (ROOT / folder).rglob("*") if p.is_file()
    ]
    files += [
        p for p in ROOT.rglob("*.jsonl") if not {".venv", ".git"} & set(p.relative_to(ROOT).parts)
    ]
    return files


def test_the_fake_key_has_the_shape_the_scan_looks_for():
    assert KEY_SHAPE.fullmatch(FAKE_KEY) and leaks(f"x{FAKE_KEY}x")


def test_dotenv_is_ignored_by_git():
    done = subprocess.run(["git", "check-ignore", "--no-index", "-q", ".env"], cwd=ROOT)
    assert done.returncode == 0, ".env must be listed in .gitignore: it holds the student's key"


def test_no_key_in_lessons_solutions_or_checkpoints():
    found = {
        str(p.relative_to(ROOT)): leaks(p.read_text(encoding="utf-8", errors="replace"))
        for p in shipped_files()
    }
    assert not {name: keys for name, keys in found.items() if keys}


@pytest.fixture
def fake_key(monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", FAKE_KEY)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    return FAKE_KEY


def test_gradebooks_never_hold_a_key(fake_key, tmp_path):
    write_fake_lesson(tmp_path / "reference" / "91_one.ipynb")
    write_fake_lesson(tmp_path / "cohort" / "ada" / "91_one.ipynb", extra=(LEAKY_CELL,))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "grade",
            str(tmp_path / "cohort"),
            "--lessons",
            str(tmp_path / "reference"),
            "--out",
            str(tmp_path / "out"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    csv_text = (tmp_path / "out" / "gradebook.csv").read_text(encoding="utf-8")
    # The leaky cell ran and was reported, and the key never reached it: graded kernels get a
    # scrubbed environment (the gradebook's redaction of keys that do reach output is tested in
    # test_grade*).
    assert "KeyError: 'GEMINI_API_KEY'" in csv_text
    for text in (
        csv_text,
        (tmp_path / "out" / "gradebook.html").read_text(encoding="utf-8"),
        done.stdout,
        done.stderr,
    ):
        assert not leaks(text)  # ...without the key


def test_check_never_prints_a_key(fake_key, tmp_path):
    lesson = write_fake_lesson(tmp_path / "91_one.ipynb", extra=(LEAKY_CELL,))
    done = subprocess.run(
        [sys.executable, "-m", "harness", "check", str(lesson)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "WORKBOOK_OFFLINE": "1"},
    )
    assert "my key is [key hidden]" in done.stdout
    assert not leaks(done.stdout + done.stderr)


def test_connect_and_mode_line_never_echo_the_key(fake_key, monkeypatch, capsys):
    monkeypatch.delenv("WORKBOOK_OFFLINE", raising=False)
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    client = harness.connect()  # a real Gemini client: constructing it makes no network call
    line = harness.mode_line()
    assert line.startswith("Online")  # the key was seen...
    captured = capsys.readouterr()
    for text in (repr(client), str(client), line, captured.out, captured.err):
        assert not leaks(text)  # ...and never shown
