"""Names and keys in the gradebook: no two students share a result file, names show as they are, no
key gets out.

These build results with `gradebook.record` directly (no notebook runs): the file names, the CSV
cells and the HTML pages are what is under test.
"""

import base64
import csv

import pytest

from harness.plumbing import redaction
from harness.workbook import gradebook
from harness.workbook.runner import Result

NAMES = [
    "Zoé",
    "Zoë",
    "王伟",
    "李娜",
    "ann lee",
    "annlee",
    "ann  lee",
    "Ann",
    "ann",
    " =1+1",
    "\t=1+1",
    "=1+1",
    "a_5a_",
]
# built here: no key-shaped literal in the repository
FAKE_KEY = "AIza" + "Sy" + "0123456789abcdefghijklmnopqrstuvw"


@pytest.fixture
def graded(tmp_path):
    out = tmp_path / "out"
    for index, name in enumerate(NAMES):
        results = [
            Result(
                "91_one",
                "99.1",
                "passed" if index % 2 else "failed",
                f"note {index}",
                "" if index % 2 else "rule a",
                [{"name": "rule a", "passed": bool(index % 2)}, {"name": "rule b", "passed": True}],
            )
        ]
        gradebook.record(out, name, {"91_one": results}, [])
    gradebook.export(out, {}, share_of_rules=("99.1",))
    return out


def test_every_name_has_a_file_of_its_own_that_gives_the_name_back(graded):
    files = sorted((graded / "results").glob("*.json"))
    assert len(files) == len(NAMES)
    assert sorted(gradebook.student_of(p.stem) for p in files) == sorted(NAMES)
    assert len({p.stem.lower() for p in files}) == len(NAMES)  # distinct on a case-blind disk too


def test_every_student_keeps_their_own_marks_in_both_csvs(graded):
    with (graded / "gradebook.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    shown = {row["student"].removeprefix("'"): row["message"] for row in rows}
    assert shown == {name: f"note {i}" for i, name in enumerate(NAMES)}
    with (graded / "lms.csv").open(encoding="utf-8", newline="") as file:
        marks = {row["student"].removeprefix("'"): row["99.1"] for row in csv.DictReader(file)}
    # a share of rules, as asked
    assert marks == {name: "1.0" if i % 2 else "0.5" for i, name in enumerate(NAMES)}


def test_formula_names_are_neutralised_in_the_csvs(graded):
    for path in (graded / "gradebook.csv", graded / "lms.csv"):
        with path.open(encoding="utf-8", newline="") as file:
            students = [row["student"] for row in csv.DictReader(file)]
        assert all(s.startswith("'") for s in students if s.lstrip(" ").startswith(("=", "\t")))
        assert "'\t=1+1" in students and "' =1+1" in students


def test_the_html_gradebook_shows_each_name_as_it_is_and_the_rules_missed(graded):
    page = (graded / "gradebook.html").read_text(encoding="utf-8")
    for name in ("Zoé", "Zoë", "王伟", "李娜", "ann  lee"):
        assert f">{name}</a>" in page
    feedback = (graded / "feedback" / f"{gradebook.file_key('Zoé')}.html").read_text(
        encoding="utf-8"
    )
    assert "Feedback for Zoé" in feedback and "✘ rule a" in feedback and "note 0" in feedback


def test_regrading_keeps_one_file_per_student(graded):
    gradebook.record(graded, "Zoé", {"91_one": [Result("91_one", "99.1", "passed")]}, [])
    cohort = gradebook.export(graded, {})
    assert len(cohort) == len(NAMES) and cohort["Zoé"]["results"][0].status == "passed"
    assert cohort["Zoë"]["results"][0].message == "note 1"


def test_a_key_in_lessons_env_is_hidden_in_every_form(tmp_path, monkeypatch):
    clone = tmp_path / "clone"
    (clone / "lessons").mkdir(parents=True)
    secret = "sk-a-key-in-lessons-dotenv-0123"
    (clone / "lessons" / ".env").write_text(f"GEMINI_API_KEY={secret}\n", encoding="utf-8")
    monkeypatch.setattr(redaction, "ROOT", clone)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    redaction._dotenv_secrets.cache_clear()
    try:
        forms = [
            secret,
            secret[::-1],
            " ".join(secret),
            "-".join(secret[::-1]),
            base64.b64encode(secret.encode()).decode(),
            secret.encode().hex(),
            " ".join(secret.encode().hex().upper()),
        ]
        for form in forms:
            assert redaction.redact(f"leak: {form}.") == "leak: [key hidden].", form
    finally:
        redaction._dotenv_secrets.cache_clear()


def test_a_key_shaped_string_spaced_letter_by_letter_is_hidden():
    assert redaction.redact("the key: " + " ".join(FAKE_KEY)) == "the key: [key hidden]"
    assert redaction.redact(FAKE_KEY, marker="[redacted]") == "[redacted]"


def test_a_key_never_reaches_the_gradebook_or_a_feedback_page(tmp_path, monkeypatch):
    secret = "sk-not-shaped-like-google-0123"
    monkeypatch.setenv("GEMINI_API_KEY", secret)
    out = tmp_path / "out"
    gradebook.record(
        out,
        "eve",
        {
            "91_one": [
                Result(
                    "91_one",
                    "99.1",
                    "failed",
                    "key: " + " ".join(secret),
                    " ".join(secret[::-1]),
                    [{"name": secret.encode().hex(), "passed": False}],
                )
            ]
        },
        [],
    )
    gradebook.export(out, {})
    for path in out.rglob("*"):
        if path.is_file() and path.suffix in (".csv", ".html"):
            text = path.read_text(encoding="utf-8")
            assert (
                secret not in text
                and " ".join(secret) not in text
                and secret.encode().hex() not in text
            ), path
