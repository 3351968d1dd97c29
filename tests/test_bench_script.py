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


def test_timed_run_sees_the_end_without_polling_delay():
    """A child that sleeps 0.07 s is timed close to that, not at the 0.11 s that
    ``subprocess.run(timeout=)``'s growing polling sleeps report."""
    import sys
    bench = _script()
    code = "import time; time.sleep(0.07)"
    walls = sorted(bench.timed_run([sys.executable, "-S", "-c", code], 30)[1]
                   for _ in range(5))
    proc, _ = bench.timed_run([sys.executable, "-S", "-c", "print('ok')"], 30)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok"
    # The interpreter's own start is a few milliseconds; the polling grid's next
    # point after 0.0635 s is 0.1135 s.
    assert 0.07 <= walls[0] < 0.105, walls


def test_timed_run_kills_past_the_timeout():
    import subprocess
    import sys
    bench = _script()
    with pytest.raises(subprocess.TimeoutExpired):
        bench.timed_run([sys.executable, "-S", "-c", "import time; time.sleep(30)"], 0.5)
