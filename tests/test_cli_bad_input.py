"""Every command of `workbook ...` answers bad arguments, missing folders and unreadable, malformed
or huge notebooks with a sentence naming what was wrong, a non-zero exit status and no traceback
(issue 29). Each case is run in-process through `harness.__main__.main`, as the console script runs
it; none of them reaches the last-resort message of an error the command did not foresee."""

import nbformat
import pytest

from harness.__main__ import COMMANDS, main

LAST_RESORT = "show this line to your instructor"  # __main__'s words for an error nobody foresaw


def run(argv, capsys) -> tuple[int, str]:
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse has printed the usage and what was wrong
        status = stop.code
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def notebook(path, cells=(), **metadata):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    nb.metadata.update(metadata)
    nbformat.write(nb, path)
    return path


BAD_ARGUMENTS = {
    "build": [["--bogus"], ["lessons"]],
    "check": [
        ["--cell-timeout", "nan"],
        ["--cell-timeout", "-5"],
        ["--cell-timeout", "abc"],
        ["--bogus"],
    ],
    "grade": [["--jobs", "0"], ["--jobs", "10000"], ["--cell-timeout", "inf"], []],
    "update": [["--bogus"]],
    "reset": [[], ["03", "04"]],
    "release": [[], ["--branch"]],
    "doctor": [["--bogus"]],
    "demo": [["--budget", "-1"], ["--task", "nope"], ["--keep", "abc"]],
}


def test_every_command_has_bad_arguments_here():
    assert set(BAD_ARGUMENTS) == set(COMMANDS)


@pytest.mark.parametrize(
    "argv",
    [[name, *args] for name, cases in BAD_ARGUMENTS.items() for args in cases],
    ids=lambda argv: " ".join(argv) or "-",
)
def test_bad_arguments_get_a_sentence_and_a_non_zero_status(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no workbook around: nothing of the project can be touched
    status, said = run(argv, capsys)
    assert status not in (0, None), f"workbook {' '.join(argv)} exited 0: {said[-300:]}"
    assert "Traceback" not in said and LAST_RESORT not in said, said[-600:]
    assert "error" in said.lower() or "usage" in said.lower(), said[-300:]


def test_an_unknown_command_names_the_commands(capsys):
    status, said = run(["grdae"], capsys)
    assert status == 2 and "Unknown command 'grdae'" in said and "grade" in said


@pytest.mark.parametrize(
    "argv, words",
    [
        (["check", "--lessons", "missing-folder"], "missing-folder"),
        (["reset", "03", "--lessons", "missing-folder"], "missing-folder"),
        (["update", "--no-pull", "--lessons", "missing-folder"], "missing-folder"),
        (["grade", "missing-folder"], "not a folder of student folders"),
        (["check", "99"], "No lessons found"),
        (["with lessons", "check", "99"], "No lesson '99'"),
        (["with lessons", "reset", "03"], "No pristine lessons"),
        (["with lessons", "update", "--no-pull"], "not a copy made by the workbook link"),
    ],
)
def test_a_missing_folder_or_lesson_is_named(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # a folder that looks like a workbook, but holds no pristine copy or git
    if argv[0] == "with lessons":
        argv = argv[1:]
        (tmp_path / "lessons").mkdir()
        notebook(tmp_path / "lessons" / "03_budgeted_assembly.ipynb")
    status, said = run(argv, capsys)
    assert status == 2 and words in said and "Traceback" not in said and LAST_RESORT not in said, (
        said[-600:]
    )


def test_a_notebook_with_no_exercise_is_nothing_to_check_never_passed(capsys, tmp_path):
    """A notebook of 60 MB and no cells was reported 'passed' (exit 0)."""
    empty = notebook(tmp_path / "empty.ipynb")
    big = notebook(tmp_path / "big.ipynb", note="x" * 60_000_000)
    status, said = run(["check", str(empty), str(big)], capsys)
    assert status == 1 and said.count("nothing to check  no check") == 2 and "passed" not in said, (
        said[-600:]
    )


def test_a_malformed_or_unreadable_notebook_is_named_with_why(capsys, tmp_path):
    (tmp_path / "json.ipynb").write_text('{"cells": 5}')
    (tmp_path / "bytes.ipynb").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "half.ipynb").write_text('{"cells": [')
    paths = [str(tmp_path / name) for name in ("json.ipynb", "bytes.ipynb", "half.ipynb")]
    status, said = run(["check", *paths], capsys)
    assert status == 1 and said.count("not a valid notebook") == 3 and LAST_RESORT not in said, (
        said[-800:]
    )


def test_what_a_command_did_not_foresee_is_one_sentence_not_a_traceback(capsys, monkeypatch):
    import harness.workbook.doctor as doctor

    def broken(quick):
        raise OSError("the disk is full")

    monkeypatch.setattr(doctor, "report", broken)
    status, said = run(["doctor", "--quick"], capsys)
    assert (
        status == 1 and "workbook doctor: OSError: the disk is full" in said and LAST_RESORT in said
    )
    assert "Traceback" not in said
