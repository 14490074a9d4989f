"""A lesson kernel's start: the workbook's start-up speed-ups (harness/plumbing/startup.py), run
once before the first cell, so that `import harness` in a lesson stays plain.

`make setup` copies this file into the venv's etc/ipython, which every IPython kernel of the venv
reads.
"""

c = get_config()  # noqa: F821 - provided by IPython's config loader

# One expression, nothing left in the student's namespace; a failure is a warning, never a dead
# kernel.
c.IPKernelApp.exec_lines = [
    "__import__('harness.plumbing.startup', fromlist=['prepare_kernel']).prepare_kernel()"
]
