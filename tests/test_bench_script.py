"""``scripts/bench.py`` records the command beside its figures without local paths."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from script_loader import load_script

ROOT = Path(__file__).resolve().parents[1]


def _script():
    return load_script("bench")


@pytest.mark.parametrize("argv, expected", [
    (["--cpp-solver", "/home/me/mastermind", "--cpp-build", "/tmp/b", "--repeat", "9"],
     "python scripts/bench.py --cpp-solver DIR --cpp-build DIR --repeat 9"),
    (["--cpp-solver=/x/y", "--side-by-side-only"],
     "python scripts/bench.py --cpp-solver=DIR --side-by-side-only"),
    (["--cases", "mastermind-exp", "--repeat", "3"],
     "python scripts/bench.py --cases mastermind-exp --repeat 3"),
])
def test_recorded_command_hides_local_paths(argv, expected):
    assert _script().recorded_command(argv) == expected


def test_shipped_bench_command_names_no_local_path():
    path = ROOT / "results" / "bench.json"
    if not path.exists():
        pytest.skip("results/bench.json not generated")
    command = json.loads(path.read_text())["command"]
    assert not re.search(r"(^|\s|=)/\S", command), command
