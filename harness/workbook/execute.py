"""Run a notebook top to bottom with nbclient, in a sandbox, whatever its cells do.

    >>> run = execute(prepared.notebook, box, cell_timeout=60)                          # doctest: +SKIP
    >>> run.timed_out, run.stopped                                                        # doctest: +SKIP
    (set(), None)

Every cell runs (`allow_errors`): an exception is an error output and the next cell goes on. A cell
still busy after `cell_timeout` seconds is interrupted and recorded in `timed_out`. A cell that
ends the kernel stops the run at that cell, `stopped_at`: `exit()` (whose reply asks the frontend
to end the kernel, which ipykernel then does a tenth of a second later: whether the next cell
started first was a race) as surely as `os._exit` or a signal (the cell never replies). Outputs stop
being kept once a cell has shown `output_limit` bytes (the rest is replaced by one line), so
50 MB of prints cannot fill the grader's memory or the gradebook. The kernel talks to the grader
over Unix sockets in the sandbox's folder, which no other student's kernel can open. If the whole
run takes longer than `total_timeout`, every process of the sandbox is killed and `stopped` says so.
"""

import subprocess
import threading
from dataclasses import dataclass, field

import nbformat
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbformat.v4 import new_output

from harness.workbook.sandbox import Sandbox

OUTPUT_LIMIT = 2_000_000  # characters of output kept per cell (of each message's content, as text)
GRADER_CELL_TIMEOUT = 180  # the import cell loads the harness: slow on a loaded machine


def _timeout_for(cell_timeout: float):
    """The student's cells get `cell_timeout`; the lesson's import cell is never cut short by it."""

    def timeout(cell) -> float:
        ours = cell.get("metadata", {}).get("workbook", {}).get("import")
        return max(cell_timeout, GRADER_CELL_TIMEOUT) if ours else cell_timeout

    return timeout


@dataclass
class Run:
    notebook: nbformat.NotebookNode
    timed_out: set[int] = field(default_factory=set)  # indexes of the cells interrupted
    stopped: str | None = None  # why the run ended early, if it did
    stopped_at: int | None = None  # the index of the cell running when it did


class KernelExited(Exception):
    """A cell called exit() or quit(): the run ends there, as the kernel is about to."""


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel started through the sandbox's jail, its connection file and sockets in its
    folder."""

    sandbox: Sandbox = None

    def format_kernel_cmd(self, extra_arguments=None):
        return self.sandbox.wrap(super().format_kernel_cmd(extra_arguments), self.connection_file)


class GradingClient(NotebookClient):
    def __init__(self, notebook, output_limit: int, **kwargs):
        super().__init__(notebook, **kwargs)
        self.output_limit, self.output_bytes, self.timed_out = output_limit, {}, set()
        self.running: int | None = None  # the cell being run: where a kernel that dies stopped

    async def async_execute_cell(self, cell, cell_index: int, *args, **kwargs):
        self.running = cell_index
        return await super().async_execute_cell(cell, cell_index, *args, **kwargs)

    async def _check_raise_for_error(self, cell, cell_index: int, exec_reply) -> None:
        payloads = ((exec_reply or {}).get("content") or {}).get("payload") or []
        if any(
            p.get("source") == "ask_exit" and not p.get("keepkernel")
            for p in payloads
            if isinstance(p, dict)
        ):
            raise KernelExited()
        await super()._check_raise_for_error(cell, cell_index, exec_reply)

    async def _async_handle_timeout(self, timeout, cell=None):
        if cell is not None:
            self.timed_out.add(self.nb.cells.index(cell))
        return await super()._async_handle_timeout(timeout, cell)

    def output(self, outs, msg, display_id, cell_index):
        size = len(str(msg.get("content", "")))
        shown = self.output_bytes[cell_index] = self.output_bytes.get(cell_index, 0) + size
        if shown > self.output_limit:
            if shown - size <= self.output_limit:  # say it once
                outs.append(
                    new_output(
                        "stream",
                        name="stderr",
                        text=(
                            "[the grader stopped keeping output here: more than"
                            f" {self.output_limit:,} characters]\n"
                        ),
                    )
                )
            return None
        return super().output(outs, msg, display_id, cell_index)


def execute(
    notebook: nbformat.NotebookNode,
    box: Sandbox,
    cell_timeout: float,
    total_timeout: float | None = None,
    output_limit: int = OUTPUT_LIMIT,
) -> Run:
    """Run `notebook` (changed in place) in `box`; see the module's docstring."""
    manager = SandboxedKernelManager(
        kernel_name="python3",
        transport="ipc",
        ip=str(box.folder / "kernel"),
        connection_file=str(box.folder / "kernel.json"),
    )
    manager.sandbox = box
    client = GradingClient(
        notebook,
        output_limit,
        km=manager,
        timeout_func=_timeout_for(cell_timeout),
        allow_errors=True,
        # No made-up reply on a timeout: wait for the interrupted cell's own, so the
        # next cell's reply is never taken for this one's.
        interrupt_on_timeout=True,
        error_on_timeout=None,
        skip_cells_with_tag="\0never\0",
        record_timing=False,
        shutdown_kernel="immediate",
    )
    run, fired = Run(notebook), threading.Event()

    def stop_everything():
        fired.set()
        box.kill_all()

    watchdog = threading.Timer(total_timeout, stop_everything) if total_timeout else None
    if watchdog:
        watchdog.start()
    try:
        # cleanup_kc: nbclient leaves a kernel it did not create running, its channels open and,
        # once killed, its process unwaited; this one is ours to end (and `box.kill_all` ends the
        # rest).
        client.execute(
            cwd=str(box.folder),
            env=box.env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cleanup_kc=True,
        )
    except KernelExited:
        run.stopped = "the cell called exit(), which ends the kernel"
    except DeadKernelError:
        run.stopped = "the kernel died (the notebook ended Python, or ran out of memory or time)"
    except Exception as error:  # the grader goes on with the next notebook whatever happened here
        run.stopped = (
            f"the notebook could not be run to the end ({type(error).__name__}: {str(error)[:200]})"
        )
    finally:
        if watchdog:
            watchdog.cancel()
        if fired.is_set():
            run.stopped = f"the notebook was stopped after {total_timeout:g} s in all"
    run.timed_out = client.timed_out
    run.stopped_at = client.running if run.stopped else None
    return run
