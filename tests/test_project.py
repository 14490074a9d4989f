"""Project plumbing: the README's commands, CI, and the two dependency lists staying in step."""

import re
import tomllib

from harness.workbook import ROOT


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[]", requirement.strip(), maxsplit=1)[0].lower()


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = {_name(r): r.replace(" ", "") for r in pyproject["project"]["dependencies"]}
    pip_section = (ROOT / "environment.yml").read_text().split("- pip:", 1)[1]
    pip_lines = re.findall(r"^\s+- (?!-e)(\S+)\s*$", pip_section, re.M)
    listed = {_name(r): r for r in pip_lines}
    assert listed == wanted, "environment.yml and pyproject.toml disagree: update environment.yml"


def test_environment_yml_asks_for_the_same_python():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    minimum = pyproject["project"]["requires-python"].removeprefix(">=")
    assert f"python>={minimum}" in (ROOT / "environment.yml").read_text()


def test_readme_opens_with_the_two_commands():
    opening = (ROOT / "README.md").read_text().split("\n## ")[0]
    assert "make lab" in opening and "make test" in opening


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_makefile_test_target_runs_the_notebooks_in_parallel_by_file():
    makefile = (ROOT / "Makefile").read_text()
    test_recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "--nbval-lax" in test_recipe and "--dist loadfile" in test_recipe
