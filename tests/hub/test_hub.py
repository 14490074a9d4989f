"""A real JupyterHub on 127.0.0.1, run with the shipped hub/jupyterhub_config.py, and a small class.

Each student logs in with the class password, gets a server, pulls the student release with
nbgitpuller (from a local git repository of it, branch `student`), answers lesson 03 (some of it,
all of it, or wrongly), runs it top to bottom through the kernel protocol (all students at once, as
when the room presses Run All), saves it through the contents API, and runs `workbook check 03` in
a JupyterLab terminal. The instructor then collects the homes and grades them. Every step is
asserted; timings and memory are printed and written to build/hub/figures.json (never asserted).

    make test-hub                       # WORKBOOK_HUB_STUDENTS=5 make test-hub for more
"""

import csv
import json
import os
import re
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import requests
from hub_client import Student
from running_hub import CLASS_PASSWORD, documented, run_documented

from harness.workbook import ROOT, SOLUTIONS
from harness.workbook.build import BEGIN, END

LESSON = "03_budgeted_assembly"
TARGET = "context-engineering-workbook"  # the nbgitpuller link's targetpath
PLANS = ("3.1", "", "3.1 3.2", "wrong")  # what each student answers, in turn: see answer()
EXPECTED = {
    "3.1": {"3.1": "passed", "3.2": "not attempted"},
    "": {"3.1": "not attempted", "3.2": "not attempted"},
    "3.1 3.2": {"3.1": "passed", "3.2": "passed"},
    "wrong": {"3.1": "failed", "3.2": "not attempted"},
}
NAMES = ("ada", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
STUDENTS = int(os.environ.get("WORKBOOK_HUB_STUDENTS", "4"))
FIGURES = ROOT / "build" / "hub" / "figures.json"


def reference_cells() -> dict[str, str]:
    """Cell id -> the solution's source without its markers (what a student who solved it wrote)."""
    notebook = json.loads((SOLUTIONS / f"{LESSON}.ipynb").read_text(encoding="utf-8"))
    cells = {}
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if "BEGIN SOLUTION" in source:
            cells[cell["id"]] = "\n".join(
                line for line in source.split("\n") if not (BEGIN.match(line) or END.match(line))
            )
    return cells


def answer(notebook, plan: str) -> None:
    """Fill in the exercises `plan` names with the reference; "wrong" answers 3.1 with nothing."""
    solved = reference_cells()
    for cell in notebook.cells:
        stub = next(
            (e for e in ("3.1", "3.2") if f'NotImplementedError("Exercise {e}")' in cell.source),
            None,
        )
        if stub and stub in plan.split():
            cell.source = solved[cell.id]
        elif stub == "3.1" and plan == "wrong":
            cell.source = (
                cell.source.split("    # YOUR CODE HERE")[0] + "    return system, [], 0\n"
            )


def progress(step: str, figures: dict) -> None:
    print(f"\n[hub test] {step}: {json.dumps(figures)}", file=sys.stderr, flush=True)


def kernel_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) used so far by what a server started: its kernels."""
    return sum(sum(p.cpu_times()[:2]) for p in psutil.Process(pid).children(recursive=True))


def rss_mib(pid: int) -> float:
    """Resident memory of a server and everything it started (its kernels), in MiB."""
    process = psutil.Process(pid)
    total = 0
    for part in [process, *process.children(recursive=True)]:
        try:
            total += part.memory_info().rss
        # a kernel culled as we read: it holds nothing
        except (
            psutil.ZombieProcess,
            psutil.NoSuchProcess,
        ):
            pass
    return total / 2**20


def test_a_class_on_the_hub(hub):
    names = NAMES[:STUDENTS]
    plans = {name: PLANS[i % len(PLANS)] for i, name in enumerate(names)}
    students = {name: Student(hub["url"], name) for name in names}
    figures = {"students": STUDENTS, "cores": os.cpu_count()}

    # 1. Log in and spawn, everyone at once.
    for student in students.values():
        student.login(CLASS_PASSWORD)
    with ThreadPoolExecutor(len(names)) as pool:
        spawn = dict(zip(names, pool.map(lambda s: s.spawn(), students.values())))
    figures["spawn_s"] = {name: round(seconds, 1) for name, seconds in spawn.items()}
    pids = {
        name: (
            requests.get(f"{hub['url']}/hub/api/users/{name}", headers=hub["admin"]).json()[
                "servers"
            ][""]["state"]["pid"]
        )
        for name in names
    }
    figures["server_rss_mib"] = {name: round(rss_mib(pid)) for name, pid in pids.items()}

    progress("spawned", figures)

    # 2. INSTRUCTORS.md's link: its page, its pull API as the page's JavaScript calls it, then the
    #    page it sends the browser to, the workbook's update (nothing to bring back: straight on to
    #    the lesson).
    first = students[names[0]]
    link = documented("user-redirect/git-pull", {**hub["paths"], "https://HUB": hub["url"]}).strip()
    page = first.session.get(link)
    assert page.ok and page.url.startswith(f"{first.server}git-pull?"), (
        f"the link ended at {page.url}"
    )
    goes_to = re.search(r'data-path="([^"]+)"', page.text).group(1)
    assert goes_to.startswith(f"workbook-update/{TARGET}/lessons/"), (
        f"the link's page goes on to {goes_to}"
    )
    start = time.monotonic()

    def click(student):
        return student.git_pull(hub["repo"], "student", TARGET), student.follow_link(
            goes_to.split("/", 1)[1]
        )

    with ThreadPoolExecutor(len(names)) as pool:
        pulled = dict(zip(names, pool.map(click, students.values())))
    # the pull and the update, the room at once
    figures["link_all_s"] = round(time.monotonic() - start, 1)
    for name, (events, landed) in pulled.items():
        assert events[-1].get("phase") == "finished", f"{name}'s pull: {events[-3:]}"
        assert landed.status_code == 302 and landed.headers["Location"].endswith(
            goes_to.split("/", 1)[1]
        ), f"{name}'s update page after the first pull: {landed.status_code} {landed.text[:500]}"
        home = hub["state"] / "homes" / name / TARGET
        assert (home / "lessons" / f"{LESSON}.ipynb").is_file() and not (
            home / "solutions"
        ).exists()
        assert (home / "lessons" / "GLOSSARY.md").is_file(), (
            "the glossary every lesson links to is missing"
        )

    progress("pulled", figures)

    # 3. Answer, run all at once through the kernel protocol, save through the contents API.
    path = f"{TARGET}/lessons/{LESSON}.ipynb"
    for name, student in students.items():
        notebook = student.load(path)
        answer(notebook, plans[name])
        student.save(path, notebook)
    start = time.monotonic()
    with ThreadPoolExecutor(len(names)) as pool:
        runs = dict(zip(names, pool.map(lambda s: s.run_all(path), students.values())))
    figures["run_all_wall_s"] = round(time.monotonic() - start, 1)
    figures["kernel_cpu_s"] = {name: round(kernel_cpu_s(pid), 1) for name, pid in pids.items()}
    # other work on the machine at the time
    figures["load_average_1min"] = round(os.getloadavg()[0], 1)
    figures["lesson_run_s"] = {name: round(seconds, 1) for name, (_, seconds) in runs.items()}
    figures["rss_with_kernel_mib"] = {name: round(rss_mib(pid)) for name, pid in pids.items()}
    for name, (notebook, _) in runs.items():
        students[name].save(path, notebook)
        results = {
            out["data"]["application/vnd.workbook.check+json"]["exercise"]: out["data"][
                "application/vnd.workbook.check+json"
            ]["status"]
            for cell in students[name].load(path).cells
            if cell.cell_type == "code"
            for out in cell.get("outputs", [])
            if "application/vnd.workbook.check+json" in out.get("data", {})
        }
        assert results == EXPECTED[plans[name]], (
            f"{name} ({plans[name]!r}): the saved check results are {results}"
        )
        errors = [
            out
            for cell in notebook.cells
            if cell.cell_type == "code"
            for out in cell.outputs
            if out.output_type == "error" and out.ename != "NotImplementedError"
        ]
        assert not errors, f"{name}: {errors[0].ename}: {errors[0].evalue}"

    progress("ran and saved", figures)

    # 4. `workbook check 03` and `workbook reset 03` typed in a JupyterLab terminal (it opens in the
    #    home).
    def check_in_terminal(student):
        start = time.monotonic()
        return (*student.terminal("workbook check 03"), round(time.monotonic() - start, 1))

    # the room checks at the end of the lesson: at once
    with ThreadPoolExecutor(len(names)) as pool:
        checked = dict(zip(names, pool.map(check_in_terminal, students.values())))
    figures["check_s"] = {name: seconds for name, (_, _, seconds) in checked.items()}
    for name, (status, output, _) in checked.items():
        said = {}
        for line in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output).splitlines():
            words = line.split()
            if words[:1] == [LESSON] and len(words) >= 3:
                said[words[1]] = " ".join(words[2:4]) if words[2] == "not" else words[2]
        assert said == EXPECTED[plans[name]], f"{name}: `workbook check 03` said:\n{output[-1500:]}"
        assert status == (0 if plans[name] == "3.1 3.2" else 1), output[-800:]
    progress("checked in terminals", figures)

    # 5. The instructor collects the homes (a snapshot) and grades them: INSTRUCTORS.md's commands,
    #    from the hub's venv (a copy of the workbook, no solutions/ in it), against lesson 03 only,
    #    the one the class ran.
    pristine = hub["base"] / "pristine"
    pristine.mkdir()
    shutil.copy2(hub["release"] / "lessons" / f"{LESSON}.ipynb", pristine)
    start = time.monotonic()
    run_documented("harness grade", {**hub["paths"], "/root/workbook/lessons": str(pristine)})
    figures["grade_s"] = round(time.monotonic() - start, 1)
    with (Path(hub["paths"]["/root/grades"]) / "gradebook.csv").open(encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["lesson"] == LESSON]
    for name in names:
        graded = {row["exercise"]: row["status"] for row in rows if row["student"] == name}
        assert graded == EXPECTED[plans[name]], f"{name} was graded {graded}"

    # 6. `workbook reset 03` while the lesson is open, then after doing what it says.
    # The lesson open in a tab (again: its kernel from the run may have been culled as idle by now).
    first.api(
        "POST",
        "api/sessions",
        json={"path": path, "type": "notebook", "name": path, "kernel": {"name": "python3"}},
    )
    status, output = first.terminal("workbook reset 03")
    assert (
        status == 1
        and "is open in JupyterLab" in output
        and "File > Close and Shut Down Notebook" in output
    ), output[-1500:]
    for session in first.api("GET", "api/sessions").json():  # File > Close and Shut Down Notebook
        first.api("DELETE", f"api/sessions/{session['id']}")
    status, output = first.terminal("workbook reset 03")
    assert status == 0 and "Restored" in output and "Your version is kept" in output, output[-1500:]
    backups = list(
        (hub["state"] / "homes" / names[0] / TARGET / "lessons").glob(f"{LESSON}.backup-*.ipynb")
    )
    # the run's outputs kept
    assert len(backups) == 1 and "check+json" in backups[0].read_text(encoding="utf-8")

    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FIGURES.write_text(json.dumps(figures, indent=1) + "\n")
    print("\nhub figures (measured here):", json.dumps(figures, indent=1))
