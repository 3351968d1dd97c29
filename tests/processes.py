"""Find the processes a test started, by a marker in their environment.

A test that stops a run (Ctrl-C, SIGTERM, a time limit) must also see that the run's
worker processes ended. It starts the run with a variable of its own in the
environment (``OPTIMAL_MM_TEST_<uuid>``), which every worker inherits, and looks for
the processes that still hold it.
"""

from __future__ import annotations

import os
from pathlib import Path


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
