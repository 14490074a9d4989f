"""What a student reads: sources they can follow, a glossary one click away, dollars that render."""

import re

import nbformat
import pytest

from harness.workbook import LESSONS, ROOT, SOLUTIONS
from harness.workbook.sources import GLOSSARY_LINK, SOURCES, cited_in, sources_cell

NOTEBOOKS = sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb"))
UNDEFINED = re.compile(r"seed [0-9]{3}|FACTS\.md", re.IGNORECASE)
GLOSSARY_TERMS = [
    "turn",
    "message",
    "prefix cache",
    "implicit cache",
    "observation masking",
    "RAG",
    "split point",
]


def cells(path):
    return nbformat.read(path, as_version=4).cells


def student_files():
    yield from (ROOT / name for name in ("README.md", "INSTRUCTORS.md"))
    yield from sorted((ROOT / "harness").rglob("*.py"))
    yield from sorted((ROOT / "benchmarks").glob("*.py"))
    yield from sorted(SOLUTIONS.iterdir())
    yield from sorted(p for p in LESSONS.iterdir() if ".backup-" not in p.name)


def test_no_source_is_named_by_a_word_the_student_cannot_follow():
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in student_files()
        if path.is_file()
        for match in UNDEFINED.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "name the source by its own title (harness/workbook/sources.py), not: " + "; ".join(found)
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_lesson_ends_with_the_sources_it_cites(path):
    *body, last = cells(path)
    assert last.cell_type == "markdown" and last.source.startswith("## Sources"), (
        f"{path.name}: no Sources cell at the end"
    )
    cited = cited_in("\n".join(cell.source for cell in body))
    assert last.source == sources_cell(*cited), (
        f"{path.name}: its Sources cell should list exactly what it cites ({cited}); rewrite it"
        " with harness.workbook.sources.sources_cell"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_glossary_is_one_click_from_the_first_cell(path):
    assert "](GLOSSARY.md)" in cells(path)[0].source


def test_the_glossary_defines_the_terms_the_lessons_use():
    text = (LESSONS / "GLOSSARY.md").read_text(encoding="utf-8")
    assert text == (SOLUTIONS / "GLOSSARY.md").read_text(encoding="utf-8")
    missing = [term for term in GLOSSARY_TERMS if f"**{term}**" not in text]
    assert not missing, f"the glossary lacks {missing}"
    assert "GLOSSARY.md" in GLOSSARY_LINK


def test_every_source_says_its_language_and_author():
    for source in SOURCES.values():
        assert source.language and source.author and source.cite.strip("«»“” ")


def unescaped_dollars(line: str) -> list[int]:
    """Positions of `$` outside `code` spans and not written `\\$`: JupyterLab pairs them as
    LaTeX."""
    found, in_code = [], False
    for i, char in enumerate(line):
        if char == "`":
            in_code = not in_code
        elif char == "$" and not in_code and line[i - 1 : i] != "\\":
            found.append(i)
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_dollars_in_markdown_are_escaped(path):
    bad = [
        line
        for cell in cells(path)
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if unescaped_dollars(line)
    ]
    # Markdown tables built in code: a "$" in a table row must be written "\\$" in the Python
    # source.
    bad += [
        line
        for cell in cells(path)
        if cell.cell_type == "code" and "Markdown(" in cell.source
        for line in cell.source.splitlines()
        if "|" in line and re.search(r"(?<!\\\\)\$", line)
    ]
    assert not bad, f"{path.name}: write \\$ so JupyterLab does not read these as LaTeX: {bad}"


def test_lesson_02_draws_the_request_layout():
    assert any("```mermaid" in cell.source for cell in cells(SOLUTIONS / "02_ordering.ipynb"))
