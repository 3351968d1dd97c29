"""Long exact searches: progress, checkpoint and resume, Ctrl-C, dask, memory guard.

What is checked is the contract of a long run, on games small enough to run in a few
seconds: a search killed at any moment and rerun with the same command ends with the
same value and the same tree (everything but the tree's ``meta``, which holds the
run time); damaged or foreign checkpoint entries are recomputed, never trusted; an
interrupted search stops its workers and says how to resume; dask gives the same
answer as local processes; a run that cannot fit in memory is refused up front.
No assertion depends on how fast the machine is.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from optimal_mm import Game, TooLargeError
from optimal_mm.cli import main
from optimal_mm.progress import Progress
from optimal_mm import search_parts
from optimal_mm.search import (LOCAL_DASK_CONFIG, PROCESS_BYTES, TABLE_ENTRY_BYTES,
                               Solver, solve)

from processes import processes_with

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args: str, env=None, **popen) -> subprocess.Popen:
    """``python -m optimal_mm ARGS`` as a child process, output piped."""
    full_env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep
                    + os.environ.get("PYTHONPATH", ""), **(env or {}))
    return subprocess.Popen([sys.executable, "-m", "optimal_mm", *args], env=full_env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **popen)


def _tree(path) -> dict:
    """A saved tree without its ``meta`` (run time, jobs): what must not change."""
    doc = json.loads(Path(path).read_text())
    doc.pop("meta")
    return doc


def _doc(strategy) -> dict:
    doc = json.loads(json.dumps(strategy.to_dict()))
    doc.pop("meta")
    return doc


def _entries(folder) -> list[Path]:
    return sorted(Path(folder).glob("task-*.json"))


@pytest.fixture(scope="module")
def mastermind_expected():
    """The uninterrupted reference: Mastermind, expected case (a few seconds)."""
    return solve(Game.from_spec("mastermind"), "expected", jobs=1)


# ---------------------------------------------------------------------------
# Checkpoint and resume
# ---------------------------------------------------------------------------
def test_resume_after_kill_gives_the_same_tree(tmp_path, mastermind_expected):
    folder, out = tmp_path / "ckpt", tmp_path / "tree.json"
    args = ("solve", "mastermind", "--objective", "expected", "--jobs", "1", "--quiet",
            "--checkpoint", str(folder), "-o", str(out))
    first = _cli(*args)
    deadline = time.monotonic() + 120
    while not _entries(folder) and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    first.kill()  # SIGKILL: no clean-up of any kind
    first.communicate()
    saved = len(_entries(folder))
    assert saved >= 1

    second = _cli(*args)
    stdout, stderr = second.communicate(timeout=300)
    assert second.returncode == 0, stderr
    line = next(ln for ln in stdout.splitlines() if ln.startswith("checkpoint"))
    loaded = int(line.split(": ")[1].split()[0])
    # Every entry the killed run finished is trusted and used (all of them if it
    # happened to finish before the kill).
    assert loaded == saved
    assert "optimal total: 5625" in stdout
    assert _tree(out) == _doc(mastermind_expected.strategy)
    assert json.loads(out.read_text())["meta"]["resumed_tasks"] == saved


def test_interrupted_then_resumed_with_other_jobs(tmp_path):
    """A deterministic interruption (KeyboardInterrupt after 5 tasks), resumed with
    another number of jobs: the run key leaves jobs out on purpose."""
    game = Game.from_spec("p4c4")
    reference = solve(game, "worst-then-expected", jobs=1)

    class StopAfter(Progress):
        def __init__(self, n):
            self.n = n

        def advance(self, n=1, resumed=False):
            self.n -= n
            if self.n == 0:
                raise KeyboardInterrupt

    solver = Solver(game, jobs=1, checkpoint=tmp_path, progress=StopAfter(5))
    with pytest.raises(KeyboardInterrupt):
        solver.solve("worst-then-expected")
    assert solver.checkpoint.stored == 5 and len(_entries(tmp_path)) == 5

    resumed = Solver(game, jobs=2, checkpoint=tmp_path)
    sol = resumed.solve("worst-then-expected")
    assert sol.resumed == 5 and resumed.checkpoint.loaded == 5
    assert sol.value == reference.value
    assert _doc(sol.strategy) == _doc(reference.strategy)
    again = Solver(game, jobs=1, checkpoint=tmp_path, table_entries=1000)
    assert again.solve("worst-then-expected").resumed == len(_entries(tmp_path))
    assert again.checkpoint.stored == 0


def test_damaged_and_foreign_entries_are_recomputed(tmp_path, capsys):
    folder, other = tmp_path / "ckpt", tmp_path / "other"
    out = tmp_path / "tree.json"
    base = ["--objective", "expected", "--jobs", "1", "--quiet", "-o", str(out)]
    assert main(["solve", "p4c4", *base, "--checkpoint", str(folder)]) == 0
    reference = _tree(out)
    assert main(["solve", "p3c4", *base, "--checkpoint", str(other)]) == 0
    capsys.readouterr()

    entries = _entries(folder)
    truncated, foreign = entries[0], entries[1]
    truncated.write_bytes(truncated.read_bytes()[:40])
    foreign.write_bytes(_entries(other)[0].read_bytes())  # a p3c4 entry under a p4c4 name

    assert main(["solve", "p4c4", *base, "--checkpoint", str(folder)]) == 0
    stdout = capsys.readouterr().out
    assert "2 damaged or foreign entries recomputed" in stdout
    assert f"{len(entries) - 2} tasks loaded, 2 computed and saved" in stdout
    assert _tree(out) == reference

    # Both entries were rewritten: a third run trusts everything.
    assert main(["solve", "p4c4", *base, "--checkpoint", str(folder)]) == 0
    stdout = capsys.readouterr().out
    assert f"{len(entries)} tasks loaded, 0 computed and saved" in stdout
    assert "entries recomputed" not in stdout


def test_run_key_leaves_out_speed_settings():
    game = Game.from_spec("p3c4")
    one = Solver(game, jobs=1, table_entries=10).run_key("expected")
    two = Solver(game, jobs=2, backend="threading").run_key("expected")
    assert one == two
    assert Solver(game, jobs=1).run_key("expected", 5) != one
    assert Solver(game, jobs=1, symmetry=False).run_key("expected") != one
    assert Solver(game, "consistent", jobs=1).run_key("expected") != one


def test_run_key_holds_the_task_format_not_the_version(monkeypatch):
    """A checkpoint outlives a release and any change that leaves tasks as they are
    (the source of the search is not in the key), not a change of TASK_FORMAT."""
    from optimal_mm import search

    game = Game.from_spec("p3c4")
    key = Solver(game, jobs=1).run_key("worst-case")
    assert key["task_format"] == search.TASK_FORMAT
    assert "version" not in key and "code" not in key
    monkeypatch.setattr(search, "__version__", "99.0")
    assert Solver(game, jobs=1).run_key("worst-case") == key
    monkeypatch.setattr(search, "TASK_FORMAT", search.TASK_FORMAT + 1)
    assert Solver(game, jobs=1).run_key("worst-case") != key


def test_entries_of_another_task_format_are_recomputed(tmp_path, monkeypatch):
    from optimal_mm import search

    game = Game.from_spec("p3c4")
    first = Solver(game, jobs=1, checkpoint=tmp_path)
    reference = first.solve("worst-case")
    saved = first.checkpoint.stored
    assert saved >= 1
    monkeypatch.setattr(search, "TASK_FORMAT", search.TASK_FORMAT + 1)
    again = Solver(game, jobs=1, checkpoint=tmp_path)
    assert again.solve("worst-case").value == reference.value
    assert again.checkpoint.loaded == 0 and again.checkpoint.stored == saved


# ---------------------------------------------------------------------------
# Ctrl-C
# ---------------------------------------------------------------------------
@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_ctrl_c_stops_workers_and_says_how_to_resume(tmp_path):
    marker = f"OPTIMAL_MM_TEST_{uuid.uuid4().hex}"
    folder = tmp_path / "ckpt"
    # p4c7 expected takes minutes: it is certainly still running when interrupted.
    # The child takes Ctrl-C even where this process ignores it (a shell starts its
    # background jobs so, and Python then never raises KeyboardInterrupt).
    run = _cli("solve", "p4c7", "--objective", "expected", "--jobs", "2",
               "--checkpoint", str(folder), "-o", str(tmp_path / "tree.json"),
               "--progress-interval", "0", env={marker: "1"}, start_new_session=True,
               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    err = ""
    deadline = time.monotonic() + 120
    while "tasks" not in err and time.monotonic() < deadline:  # the first phase began
        ready, _, _ = select.select([run.stderr], [], [], 1.0)
        if ready:
            err += os.read(run.stderr.fileno(), 65536).decode()
    assert "tasks" in err, err
    # Workers started and busy: one task has come back from them. (A Ctrl-C while a
    # worker is still starting up, before it can ignore it, prints that worker's
    # KeyboardInterrupt traceback: a known gap, not what this test is about.)
    while not re.search(r" [1-9][0-9]*/[0-9]+ tasks", err) and time.monotonic() < deadline:
        ready, _, _ = select.select([run.stderr], [], [], 1.0)
        if ready:
            err += os.read(run.stderr.fileno(), 65536).decode()
    assert re.search(r" [1-9][0-9]*/[0-9]+ tasks", err), err
    time.sleep(0.5)
    os.killpg(run.pid, signal.SIGINT)  # as a terminal does: the whole process group
    stdout, rest = run.communicate(timeout=120)
    err += rest
    assert run.returncode == 130, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if "interrupted" in ln]
    assert len(lines) == 1 and err.rstrip().endswith(lines[0])
    assert str(folder) in lines[0] and "rerun the same command to resume" in lines[0]
    # What had been proven: a lower bound on the total, at most Ville's 11228.
    so_far = re.search(r"interrupted \(so far: (?:best (\d+), )?bound (\d+)\)", lines[0])
    assert so_far, lines[0]
    assert int(so_far.group(2)) <= 11228 <= int(so_far.group(1) or 11228)
    assert not (tmp_path / "tree.json").exists()
    deadline = time.monotonic() + 30
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with(marker) == []


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_to_the_parent_alone_ends_a_one_worker_session(tmp_path, signum, status):
    """``kill -INT PID`` or ``timeout``, not a terminal: the signal reaches the parent
    only, while the one worker of a ``--jobs 1`` run with a checkpoint computes a
    task. The parent must kill it and exit at once (it used to print its line, then
    hang at exit until the worker's task ended)."""
    marker = f"OPTIMAL_MM_TEST_{uuid.uuid4().hex}"
    run = _cli("solve", "p4c8", "--objective", "expected", "--jobs", "1",
               "--checkpoint", str(tmp_path / "ckpt"), "-o", str(tmp_path / "tree.json"),
               "--progress-interval", "0", env={marker: "1", "PYTHONFAULTHANDLER": "1"},
               start_new_session=True,
               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    err, deadline = "", time.monotonic() + 120
    while not re.search(r" [1-9][0-9]*/[0-9]+ tasks", err) and time.monotonic() < deadline:
        ready, _, _ = select.select([run.stderr], [], [], 1.0)
        if ready:
            err += os.read(run.stderr.fileno(), 65536).decode()
    assert re.search(r" [1-9][0-9]*/[0-9]+ tasks", err), err  # the worker is busy
    os.kill(run.pid, signum)
    try:
        _, rest = run.communicate(timeout=60)  # p4c8's expected case takes minutes
    except subprocess.TimeoutExpired:
        os.kill(run.pid, signal.SIGABRT)  # the fault handler prints where each thread is
        try:
            _, rest = run.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            rest = ""
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        pytest.fail(f"the run went on after the signal; its threads:\n{rest[-4000:]}")
    err += rest
    assert run.returncode == status, err
    assert "Traceback" not in err and "Exception" not in err
    assert "rerun the same command to resume" in err.splitlines()[-1]
    deadline = time.monotonic() + 30
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with(marker) == []


# ---------------------------------------------------------------------------
# Dask
# ---------------------------------------------------------------------------
def test_dask_cluster_gives_the_same_answer():
    distributed = pytest.importorskip("distributed")
    import dask

    game = Game.from_spec("p4c4")
    local = solve(game, "worst-then-expected", jobs=1)
    # Without the nannies' malloc setting (which they also put in this process's
    # environment, slowing every later worker); the worker time-to-live is left at
    # its default, which the solver warns about.
    no_trim = {k: v for k, v in LOCAL_DASK_CONFIG.items() if "MALLOC" in k}
    messages = []
    with dask.config.set(no_trim), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None) as cluster:
        sol = solve(game, "worst-then-expected", backend="dask",
                    scheduler=cluster.scheduler_address, progress=messages.append)
    assert sol.value == local.value
    assert _doc(sol.strategy) == _doc(local.strategy)
    assert sol.strategy.meta["backend"] == "dask"
    assert any("WORKER_TTL=None" in m for m in messages)


def test_scheduler_needs_the_dask_backend(capsys):
    assert main(["solve", "p3c4", "--scheduler", "tcp://127.0.0.1:8786", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--backend dask" in err


def test_missing_dask_is_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    assert main(["solve", "p3c4", "--backend", "dask", "-o", "-", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'optimal_mm[dask]'" in err


# ---------------------------------------------------------------------------
# Memory guard
# ---------------------------------------------------------------------------
def test_memory_limit_refuses_up_front(tmp_path, capsys):
    out = tmp_path / "tree.json"
    assert main(["solve", "mastermind", "--memory-limit", "1M", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "memory limit of 1.0 MiB" in err and "MiB" in err
    assert not out.exists()


@pytest.mark.parametrize("value", ["lots", "-5G", "0", "4X"])
def test_memory_limit_parse_error(value, capsys):
    assert main(["solve", "p3c4", f"--memory-limit={value}", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--memory-limit" in err and "Traceback" not in err


def test_memory_limit_shrinks_the_tables(capsys):
    game = Game.from_spec("p3c4")
    limit = PROCESS_BYTES + game.table_bytes() + 1000 * TABLE_ENTRY_BYTES
    messages = []
    solver = Solver(game, jobs=1, memory_limit=limit, progress=messages.append)
    sol = solver.solve("expected")
    assert sol.value == 206 and solver.entries == 1000
    assert any("cut from 8,000,000 to 1,000 entries" in m for m in messages)
    with pytest.raises(TooLargeError, match="memory limit"):
        Solver(game, jobs=4, memory_limit=PROCESS_BYTES)
    plan = Solver(game, jobs=3).memory_plan("worst-then-expected", entries=10)
    assert (plan.processes, plan.tables) == (4, 2)
    # A capped expected search asks the worst case too: two tables, as above
    assert Solver(game, jobs=3).memory_plan("expected", entries=10, max_guesses=4) == plan
    assert Solver(game, jobs=3).memory_plan("expected", entries=10).tables == 1
    assert plan.total == 4 * (PROCESS_BYTES + 64 * 64) + 4 * 2 * 10 * TABLE_ENTRY_BYTES


# ---------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------
def test_progress_lines_on_a_pipe_and_none_when_quiet(tmp_path):
    # A file, not "-": "-o -" writes the tree to stdout and the report to stderr.
    args = ("solve", "p3c4", "--objective", "expected", "--jobs", "1", "-o",
            str(tmp_path / "t.json"))
    stdout, stderr = _cli(*args).communicate(timeout=120)
    assert "optimal total: 206" in stdout
    assert re.search(r"^\[0:00:\d\d\] expected: first guess \d{3} exact: 0/\d+ tasks", stderr,
                     re.MULTILINE)
    assert "phase done" in stderr and "best 206" in stderr
    assert re.search(r"^  first guess \d{3}: total \d+$", stderr, re.MULTILINE)
    stdout, stderr = _cli(*args, "--quiet").communicate(timeout=120)
    assert "optimal total: 206" in stdout and stderr == ""


def test_plain_callable_progress_still_gets_messages():
    messages = []
    solve(Game.from_spec("p3c4"), "worst-case", jobs=1, progress=messages.append)
    assert messages == ["3 guesses: impossible (3 first-guess classes refuted)",
                        "4 guesses: feasible with first guess 123"]


def test_a_checkpoint_may_leave_out_its_cheapest_tasks(tmp_path, monkeypatch, capsys):
    # checkpoint_min_seconds: tasks quicker than it are computed again, not saved; so
    # is a chain's answer (timed by its pieces: "pieces" in its timing) whose pieces
    # took less in all; the value and tree do not change.
    from optimal_mm import runner
    from optimal_mm.errors import InvalidOptionError

    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c4")
    plain = Solver(game, jobs=1, chain_secrets=10).solve("worst-then-expected")

    def lean_run(folder, min_seconds):
        lean = Solver(game, jobs=1, chain_secrets=10, checkpoint=folder,
                      checkpoint_min_seconds=min_seconds)
        sol = lean.solve("worst-then-expected")
        assert sol.value == plain.value and _doc(sol.strategy) == _doc(plain.strategy)
        kept = [json.loads(path.read_text()) for path in _entries(folder)]
        assert lean.checkpoint.stored == len(kept)
        return kept

    def report_reads(entry):
        """A part tree under the first two guesses: saved whatever its time, as the
        checkpoint report reads them (``search_tasks._top_part_tree``)."""
        fn, args = entry["task"]["function"], entry["task"]["args"]
        return fn == "_exp_part_task" and len(args[0]) <= 2 and bool(args[4])

    def of_pieces(entry):
        return bool(entry.get("timing", {}).get("pieces"))

    # Nothing took that long: only the part trees the report reads are kept (tasks,
    # or split parts' answers timed by their pieces)
    top = lean_run(tmp_path / "none", 1e6)
    assert top and all(report_reads(entry) for entry in top)
    full = lean_run(tmp_path / "all", 0)
    assert all("timing" in entry for entry in full)
    tasks = [entry for entry in full if not of_pieces(entry)]
    chains = [entry for entry in full if of_pieces(entry)]
    assert tasks and chains and len(full) > len(top)

    def tasks_of(entries):
        return sorted(json.dumps(e["task"], sort_keys=True) for e in entries)

    assert tasks_of(top) == tasks_of(e for e in full if report_reads(e))
    # Every task made to take one second of processor time: at a threshold of 1.5 no
    # task is saved, but every chain of two pieces or more is
    real = runner.TaskRunner._save
    monkeypatch.setattr(runner.TaskRunner, "_save",
                        lambda self, key, result, timing, always=False: real(
                            self, key, result, (timing[0], 1.0, timing[2]), always))
    kept = [e for e in lean_run(tmp_path / "chains", 1.5) if not report_reads(e)]
    assert kept and all(of_pieces(entry) for entry in kept)
    assert all(e["timing"]["cpu_seconds"] >= 2.0 for e in kept)  # two pieces or more
    assert len(kept) <= len(chains) and len(full) > 10 * len(kept)
    assert len(lean_run(tmp_path / "every", 0.5)) == len(full)
    monkeypatch.setattr(runner.TaskRunner, "_save", real)
    again = Solver(game, jobs=1, chain_secrets=10, checkpoint=tmp_path / "chains")
    assert again.solve("worst-then-expected").value == plain.value
    for bad in (-1, float("nan"), float("inf"), "1", True):
        with pytest.raises(InvalidOptionError, match="checkpoint min seconds"):
            Solver(game, jobs=1, checkpoint_min_seconds=bad)
    out = tmp_path / "t.json"
    assert main(["solve", "p3c4", "--quiet", "--checkpoint", str(tmp_path / "c"),
                 "--checkpoint-min-seconds", "-1", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--checkpoint-min-seconds must be a finite number" in err and not out.exists()


def test_an_entry_loaded_counts_once_and_not_when_this_run_wrote_it(tmp_path):
    """``loaded`` counts the entries read back, each once however often it is read
    (a race read from its part's image reads its image's entries again), and not the
    entries the same checkpoint object wrote; under another budget
    (:meth:`Checkpoint.reuse`) an entry is the same entry."""
    from optimal_mm.checkpoint import Checkpoint, task_key

    run = {"game": "p2c3", "objective": "expected"}
    writer = Checkpoint(tmp_path, run)
    keys = [task_key("_exp_part_task", (k, np.arange(3), 10)) for k in range(3)]
    for k, key in enumerate(keys[:2]):
        writer.put(key, (k, np.zeros(2, dtype=np.int64)))
    assert writer.get(keys[0]) is not None and writer.get(keys[0]) is not None
    assert writer.loaded == 0 and writer.stored == 2  # its own: computed, not loaded
    reader = Checkpoint(tmp_path, run)
    for _ in range(3):
        assert reader.get(keys[0])[0] == 0
    assert reader.get(keys[2]) is None and reader.get(keys[1], count=False)[0] == 1
    assert reader.loaded == 1
    other = task_key("_exp_part_task", (0, np.arange(3), 12))  # keys[0] at budget 12
    assert reader.reuse(other, 2, lambda result, ran: result) is not None
    assert reader.loaded == 1  # the entry of keys[0] again
    assert reader.get(keys[1])[0] == 1 and reader.loaded == 2
