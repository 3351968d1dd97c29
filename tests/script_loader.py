"""Load a file of ``scripts/`` as a module, for the tests of the scripts.

The scripts are programs, not a package: a test reads one by its path, with
``scripts/`` on ``sys.path`` while it loads so that a script may import its
siblings (as it can when run as ``python scripts/NAME.py``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_script(name: str):
    """The module of ``scripts/NAME.py``, freshly executed."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPTS))
    # Registered under its name, as an import would: doctest finds a function through
    # ``sys.modules[function.__module__]``, which a sibling's import of the same
    # script (time_rival.py imports forked_timing) would otherwise hold.
    sys.modules[name] = module
    return module
