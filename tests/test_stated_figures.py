"""The figures README.md, INSTRUCTORS.md and harness/__init__.py state about the code, held to the
code: a constant that changes without its sentence fails here."""

import ast
from pathlib import Path

from harness.checks import docs
from harness.workbook.execute import OUTPUT_LIMIT

ROOT = Path(__file__).resolve().parent.parent


def _prose(name: str) -> str:
    """A Markdown file's text with every run of spaces and line breaks made one space."""
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())


def test_the_readme_states_how_many_inputs_a_check_compares_and_for_how_long():
    readme = _prose("README.md")
    assert docs.inputs_phrase() in readme, f"README must say {docs.inputs_phrase()!r}"
    assert docs.time_limits_phrase() in readme, f"README must say {docs.time_limits_phrase()!r}"


def test_the_graders_output_limit_is_stated_per_cell_in_characters():
    stated = f"output past {OUTPUT_LIMIT:,} characters in one cell is dropped"
    assert stated in _prose("INSTRUCTORS.md"), f"INSTRUCTORS.md must say {stated!r}"


def test_the_set_up_figures_name_the_script_that_measured_them():
    for name in ("README.md", "INSTRUCTORS.md"):
        text = _prose(name)
        assert "benchmarks/setup_cost.py" in text, f"{name}: say which script measured set-up"
        assert "half a minute" not in text and "390 MB" not in text


def test_the_harness_docstring_names_every_module_at_its_root():
    """harness/__init__.py lists the course's modules in lesson order: a new lesson's module too."""
    package = ROOT / "harness"
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
    words = set(doc.replace("·", " ").replace(",", " ").replace(":", " ").split())
    modules = {p.stem for p in package.glob("*.py") if not p.stem.startswith("_")}
    packages = {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    missing = sorted(m for m in modules | packages if m not in words and f"`{m}`" not in words)
    assert not missing, f"harness/__init__.py's docstring does not name {missing}"
