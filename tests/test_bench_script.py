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


def test_shipped_bench_commands_name_no_local_path_and_every_row_its_run():
    path = ROOT / "results" / "bench.json"
    if not path.exists():
        pytest.skip("results/bench.json not generated")
    report = json.loads(path.read_text())
    bench = _script()
    rows = bench._rows(report)
    assert rows and all("command" in r and "date" in r for r in rows)
    for command in (report["command"], *(r["command"] for r in rows)):
        assert command.startswith("python scripts/bench.py"), command
        assert not re.search(r"(^|\s|=)/\S", command), command
    # The page shipped is the one the JSON renders: each run listed once, by number.
    assert (ROOT / "results" / "bench.md").read_text() == bench.markdown(report)


def test_timed_run_sees_the_end_without_polling_delay(monkeypatch):
    """The wait for the child blocks until it exits: it never takes the polling path
    of ``subprocess.run(timeout=)``, whose sleeps grow to 50 ms and round a 0.07 s
    command up to 0.11 s. Checked by the path taken, not by a time measured, which a
    loaded machine would stretch."""
    import subprocess
    import sys
    import time
    import types
    bench = _script()
    polls = []

    def sleep(seconds):  # subprocess's polling wait is the only caller of this sleep
        polls.append(seconds)
        time.sleep(seconds)

    clock = {name: getattr(time, name) for name in dir(time) if not name.startswith("_")}
    monkeypatch.setattr(subprocess, "time",
                        types.SimpleNamespace(**{**clock, "sleep": sleep}))
    proc, wall = bench.timed_run([sys.executable, "-S", "-c",
                                  "import time; time.sleep(0.07); print('ok')"], 30)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok"
    assert polls == []
    assert wall >= 0.07  # the child's own sleep is inside the time measured
    # The same wait with a timeout does poll: the check above can fail.
    subprocess.run([sys.executable, "-S", "-c", "import time; time.sleep(0.07)"],
                   timeout=30)
    assert polls


def test_timed_run_kills_past_the_timeout():
    import subprocess
    import sys
    bench = _script()
    with pytest.raises(subprocess.TimeoutExpired):
        bench.timed_run([sys.executable, "-S", "-c", "import time; time.sleep(30)"], 0.5)


def _side_row(game, cpu=None):
    row = {"game": game, "cpp_rules": "r", "runs": 3, "value": 1, "cpp_value": 1,
           "ours_wall_s": 0.2, "ours_search_s": 0.1, "ours_startup_s": 0.1,
           "cpp_wall_s": 0.3, "cpp_search_s": 0.3, "cpp_startup_s": 0.003,
           "python_numpy_floor_s": 0.08, "load_avg_1_5_15_before_after": [0] * 6}
    return row if cpu is None else {**row, "cpu": cpu}


def test_a_merge_keeps_the_cpu_each_row_was_measured_on():
    bench = _script()
    case = {"case": "p4c7-exp", "game": "p4c7", "objective": "expected", "args": [],
            "value": 11228, "median_s": 3.8, "runs_s": [3.8], "target_s": None, "jobs": -1,
            "search_median_s": 3.6, "reference": "", "kernels": "aot", "states": 1,
            "table_hits": 1, "guesses_evaluated": 1}
    old = {"machine": {"cpus": 2, "cpu": "Old CPU", "python": "3.11"}, "jobs": -1,
           "repeat": 3, "long_s": 60, "no_symmetry_timeout_s": 120,
           "peak_rss_mb_largest_process": 300, "cases": [case], "symmetry": [],
           "depth3_tree": [], "side_by_side": [_side_row("mastermind"), _side_row("p5c4")],
           "command": "python scripts/bench.py"}
    new = {"machine": {"cpus": 2, "cpu": "New CPU", "python": "3.11"}, "jobs": -1,
           "repeat": 15, "long_s": 60, "no_symmetry_timeout_s": 120,
           "peak_rss_mb_largest_process": 100, "cases": [], "symmetry": [],
           "depth3_tree": [], "side_by_side": [_side_row("p5c4", "New CPU")],
           "command": "python scripts/bench.py --side-by-side-only"}
    merged = bench.merge(old, new)
    assert [r["cpu"] for r in merged["cases"]] == ["Old CPU"]
    assert [(r["game"], r["cpu"]) for r in merged["side_by_side"]] == [
        ("mastermind", "Old CPU"), ("p5c4", "New CPU")]
    text = bench.markdown(merged)
    assert "| mastermind |" in text and "| Old CPU |" in text and "| New CPU |" in text
    assert "Machine of the last run: 2 CPUs (New CPU)" in text
    # Rows written before rows recorded their run say so, and the report's command is
    # the latest run's, not a chain of every run's.
    assert merged["command"] == "python scripts/bench.py --side-by-side-only"
    assert "A row with no run was measured by an earlier run" in text


def test_a_merge_numbers_the_runs_and_names_each_rows():
    bench = _script()
    case = {"case": "p4c7-exp", "game": "p4c7", "objective": "expected", "args": [],
            "value": 11228, "median_s": 3.8, "runs_s": [3.8], "target_s": None, "jobs": -1,
            "search_median_s": 3.6, "reference": "", "kernels": "aot", "states": 1,
            "table_hits": 1, "guesses_evaluated": 1, "cpu": "CPU",
            "command": "python scripts/bench.py --cases p4c7-exp", "date": "2026-11-26"}
    later = {"command": "python scripts/bench.py --cpp-solver DIR --side-by-side-only",
             "date": "2026-12-05"}
    old = {"machine": {"cpus": 2, "cpu": "CPU", "python": "3.11"}, "jobs": -1, "repeat": 3,
           "long_s": 60, "no_symmetry_timeout_s": 120, "peak_rss_mb_largest_process": 300,
           "cases": [case], "symmetry": [], "depth3_tree": [],
           "side_by_side": [_side_row("mastermind", "CPU")], "command": case["command"]}
    new = {**old, "cases": [], "repeat": 15, "command": later["command"],
           "side_by_side": [{**_side_row(game, "CPU"), **later}
                            for game in ("mastermind", "p5c4")]}
    merged = bench.merge(old, new)
    assert bench._runs(merged) == {("2026-11-26", case["command"]): 1,
                                   ("2026-12-05", later["command"]): 2}
    text = bench.markdown(merged)
    assert f"1. 2026-11-26: `{case['command']}`" in text
    assert f"2. 2026-12-05: `{later['command']}`" in text
    lines = text.splitlines()
    assert next(x for x in lines if x.startswith("| p4c7-exp |")).endswith("| CPU | 1 |")
    assert [x.endswith("| CPU | 2 |") for x in lines
            if x.startswith(("| mastermind |", "| p5c4 |"))] == [True, True]
    assert "earlier run" not in text


@pytest.mark.parametrize("option, value, words", [
    ("--repeat", "0", "--repeat: must be at least 1, got 0"),
    ("--timeout", "-1", "--timeout: must be at least 1"),
    ("--no-symmetry-timeout", "0", "--no-symmetry-timeout: must be at least 1"),
    ("--jobs", "-2", "--jobs must be -1 or 0 (all cores) or a positive integer"),
    ("--long", "nan", "--long must be a finite number"),
])
def test_bad_options_are_refused_before_any_run(monkeypatch, capsys, option, value, words):
    def no_run(*args, **kwargs):
        raise AssertionError("a case ran")

    bench = _script()
    monkeypatch.setattr(bench, "run_once", no_run)
    with pytest.raises(SystemExit) as exit_:
        bench.main([option, value, "--quick"])
    assert exit_.value.code == 2 and words in capsys.readouterr().err


def test_doctests():
    import doctest
    result = doctest.testmod(_script())
    assert result.attempted > 0 and result.failed == 0


def test_the_machine_module_doctests():
    import doctest

    from optimal_mm import machine
    result = doctest.testmod(machine)
    assert result.attempted > 0 and result.failed == 0


def test_paths_that_cannot_serve_are_refused_before_any_benchmark(tmp_path, capsys):
    """A C++ checkout that is not there, a results folder that is a file: refused in
    argparse's one line before the minutes of benchmarks (before, after them)."""
    with pytest.raises(SystemExit) as exit_:
        load_script("bench").main(["--cpp-solver", str(tmp_path / "none"), "--quick"])
    assert exit_.value.code == 2
    assert "--cpp-solver" in capsys.readouterr().err.splitlines()[-1]
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(SystemExit) as exit_:
        load_script("bench_play").main(["--results", str(afile)])
    assert exit_.value.code == 2
    assert f"--results {afile} is not a folder" in capsys.readouterr().err
