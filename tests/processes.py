"""Processes of the tests: a fresh interpreter's output, and the processes a test
started, found by a marker in their environment.

A test that stops a run (Ctrl-C, SIGTERM, a time limit) must also see that the run's
worker processes ended. It starts the run with a variable of its own in the
environment (``OPTIMAL_MM_TEST_<uuid>``), which every worker inherits, and looks for
the processes that still hold it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def fresh_python(code: str) -> str:
    """The standard output of ``code`` run by a new interpreter (this one's), which
    must succeed: what a command imports at start-up, for one, shows only there."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout


def processes_with(marker: str) -> list[int]:
    """Processes (ours) whose environment holds ``marker``: the run and its workers."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{name}/environ").read_bytes():
                    found.append(int(name))
            except OSError:
                pass
    return found
