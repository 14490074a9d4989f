"""The figures INSTRUCTORS.md's capacity table needs, from this session's hub tests, in one block to
paste.

test_hub.py writes build/hub/figures.json (the class: spawn, pull, Run All, CPU, memory, check,
grade) and test_kernel_culling.py build/hub/culling.json (one student opening every lesson in turn,
idle kernels culled). A file not written by this session (an earlier run's) is left out, said so.
"""

import json
from pathlib import Path

from harness.workbook import ROOT

FIGURES = ROOT / "build" / "hub" / "figures.json"
CULLING = ROOT / "build" / "hub" / "culling.json"


def _span(values) -> str:
    values = sorted(values.values()) if isinstance(values, dict) else [values]
    return f"{values[0]:,}" if values[0] == values[-1] else f"{values[0]:,}-{values[-1]:,}"


def _this_session(path: Path, started: float) -> dict | None:
    return (
        json.loads(path.read_text(encoding="utf-8"))
        if path.is_file() and path.stat().st_mtime >= started
        else None
    )


def capacity_block(started: float) -> str:
    """Markdown rows for the capacity table (measured here), from the files written since
    `started`."""
    rows = [
        "",
        "=== capacity figures for INSTRUCTORS.md (measured here, this run) ===",
        "| per student | measured |",
        "|---|---|",
    ]
    room = _this_session(FIGURES, started)
    if room:
        n = room["students"]
        rows += [
            f"| CPU for Run All of lesson 03 | {_span(room['kernel_cpu_s'])} CPU-seconds |",
            f"| memory, server idle | {_span(room['server_rss_mib'])} MiB |",
            f"| memory, server + lesson 03 kernel | {_span(room['rss_with_kernel_mib'])} MiB |",
            f"| spawn, {n} at once (accounts made then) | {_span(room['spawn_s'])} s |",
            (
                f"| the link (pull, then `workbook update`), {n} at once | {room['link_all_s']} s"
                " in all |"
            ),
            (
                f"| Run All of lesson 03, {n} at once | {_span(room['lesson_run_s'])} s each, "
                f"{room['run_all_wall_s']} s for the room |"
            ),
            f"| `workbook check 03` in a terminal, {n} at once | {_span(room['check_s'])} s |",
            f"| grading the {n} homes, lesson 03 | {room['grade_s']} s |",
            (
                f"| (load average during the room's Run All: {room['load_average_1min']};"
                f" {room['cores']} cores) | |"
            ),
        ]
    else:
        rows.append("| (test_hub.py did not run in this session: no class figures) | |")
    culled = _this_session(CULLING, started)
    if culled:
        lessons = len(culled["kernel_mib_each"])
        rows += [
            (
                f"| one student opening all {lessons} lessons in turn, tabs left open, idle kernels"
                f" culled | peak {culled['peak_mib_seen']:,} MiB"
                f" ({max(culled['kernels_alive_after_each_lesson'].values())} kernels alive),"
                f" {culled['server_mib_all_culled']:,} MiB once all were culled |"
            ),
            (
                "| the same with culling off (server idle + every kernel, computed) | "
                f"{culled['all_open_mib_computed']:,} MiB |"
            ),
            (
                "| each lesson's kernel just after its Run All |"
                f" {_span(culled['kernel_mib_each'])} MiB |"
            ),
            (
                f"| CPU for Run All of all {lessons} lessons | {culled['course_kernel_cpu_s']}"
                " CPU-seconds |"
            ),
        ]
    else:
        rows.append(
            "| (test_kernel_culling.py did not run in this session: no culling figures) | |"
        )
    return "\n".join(rows)
