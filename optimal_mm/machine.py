"""What machine a figure was measured on, as the benchmark scripts record it.

Speed figures compare only within one machine, so every script that writes timings
into ``results/`` names the CPU beside them.

>>> isinstance(cpu_model(), str) and cpu_model() != ""
True
"""

from __future__ import annotations

import platform


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``'s first ``model name``), else what
    :mod:`platform` knows, else ``"unknown"``."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"
