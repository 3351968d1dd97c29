"""Faults: dead workers, signals to the parent, broken pipes, damaged checkpoints.

Holds the promises of docs/RELIABILITY.md, "Runs" and "Exit codes". The tests that
start a pool of workers run the CLI in a child process of its own session (process
group), so that they can send it signals and then look for anything it left behind.
"""

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from optimal_mm import cli
from optimal_mm.checkpoint import Checkpoint, task_key
from optimal_mm.cli import main
from optimal_mm.errors import InvalidOptionError, WorkerLostError
from optimal_mm.progress import Progress
from optimal_mm.runner import TaskRunner

AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
#: A pooled run long enough to be caught in the middle, well past its start-up: 12 s
#: with 2 workers on a 2-core VM beside a search (p4c7's, once this one, came to take
#: 2.4 s, and a Ctrl-C 3 s in found it done).
LONG_SOLVE = ["solve", "p4c8", "--objective", "expected", "--jobs", "2"]


def start_cli(argv, tmp_path):
    """The CLI in a new session, output to files (pipes could fill up)."""
    out = open(tmp_path / "out.txt", "w")
    err = open(tmp_path / "err.txt", "w")
    proc = subprocess.Popen([sys.executable, "-m", "optimal_mm", *argv], stdout=out,
                            stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
    out.close()
    err.close()
    return proc


def wait_for(predicate, timeout=120.0, step=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes of a process group."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, pgrp = fields[0], int(fields[2])
        if pgrp == pgid and state != "Z":
            alive.append(int(entry.name))
    return alive


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def loky_workers(pid: int) -> list[int]:
    found = []
    for child in children(pid):
        try:
            if b"popen_loky" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:
            pass
    return found


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def mid_run_solve(tmp_path):
    """A pooled solve with a checkpoint, once its workers run and a first task is back
    (the premise of the tests that interrupt one): ``(process, checkpoint, workers)``."""
    cp = tmp_path / "cp"
    proc = start_cli(LONG_SOLVE + ["--checkpoint", str(cp), "-o", str(tmp_path / "t.json")],
                     tmp_path)
    try:
        assert wait_for(lambda: list(cp.glob("task-*.json")) and loky_workers(proc.pid))
    except BaseException:
        kill_group(proc)
        raise
    return proc, cp, loky_workers(proc.pid)


def is_live(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ------------------------------------------------------------- worker death
@needs_proc
@pytest.mark.slow
def test_a_worker_killed_mid_run_ends_in_one_line_naming_the_checkpoint(tmp_path):
    proc, cp, workers = mid_run_solve(tmp_path)
    try:
        os.kill(workers[0], signal.SIGKILL)  # as the out-of-memory killer would
        assert proc.wait(120) == 2
    finally:
        kill_group(proc)
    err = (tmp_path / "err.txt").read_text().splitlines()
    assert "Traceback" not in "\n".join(err)
    assert err[-1].startswith("optimal-mm solve: error: a worker process died"), err
    assert str(cp) in err[-1] and "rerun the same command to resume" in err[-1]
    assert not (tmp_path / "t.json").exists()
    assert wait_for(lambda: not group_members(proc.pid), 20)


def test_the_runner_turns_a_dead_worker_into_worker_lost_error(tmp_path):
    runner = TaskRunner(jobs=2, backend="loky", scheduler=None, progress=Progress())
    runner.prepare((), tmp_path / "cp", {"run": "abort"})
    with pytest.raises(WorkerLostError, match="a worker process died") as info:
        with runner.workers():
            runner.run(os.abort, [(), ()])  # each worker dies of SIGABRT
    assert "0 tasks saved" in str(info.value) and "rerun the same command" in str(info.value)


# ------------------------------------------------------------------ SIGTERM
@needs_proc
def test_sigterm_is_handled_like_ctrl_c_and_leaves_no_process(tmp_path):
    proc, cp, workers = mid_run_solve(tmp_path)
    try:
        os.kill(proc.pid, signal.SIGTERM)  # the parent only, as a service manager would
        assert proc.wait(60) == 128 + signal.SIGTERM
        assert wait_for(lambda: not group_members(proc.pid), 30), group_members(proc.pid)
        assert not [w for w in workers if is_live(w)]
    finally:
        kill_group(proc)
    err = (tmp_path / "err.txt").read_text().splitlines()
    # "terminated; N tasks saved ..." or, once a bound is proven, "terminated (so far:
    # bound B); N tasks saved ...": either way one line that says how to resume.
    assert re.match(r"optimal-mm solve: terminated( \(so far: [^)]*\))?; ", err[-1]), err
    assert "resume" in err[-1]
    assert "Traceback" not in "\n".join(err)
    # The checkpoint is intact: every entry reads back as a whole JSON document.
    entries = list(cp.glob("task-*.json"))
    assert entries and all(json.loads(p.read_text())["sha256"] for p in entries)


@needs_proc
@pytest.mark.slow
def test_kill_9_of_the_parent_takes_the_workers_with_it(tmp_path):
    proc, cp, workers = mid_run_solve(tmp_path)
    try:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
        # The workers were reparented when their parent died: gone, not zombies of it.
        assert wait_for(lambda: not [w for w in workers if is_live(w)], 20)
    finally:
        kill_group(proc)


def _ctrl_c(tmp_path, when):
    proc = start_cli(LONG_SOLVE + ["-o", str(tmp_path / "t.json")], tmp_path)
    try:
        when(proc)
        assert proc.poll() is None, "premise: the solve still runs when Ctrl-C comes"
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal does
        proc.wait(60)
        assert wait_for(lambda: not group_members(proc.pid), 30)
    finally:
        kill_group(proc)
    err = (tmp_path / "err.txt").read_text()
    assert "Traceback" not in err and "Fatal Python error" not in err, err
    assert proc.returncode == 130
    assert err.splitlines()[-1].startswith("optimal-mm"), err


#: A run whose first expected-case task computes for hours (p3c9nb's lexicographic
#: search below t* = 10): computed in the parent, it heard Ctrl-C only when it returned,
#: until the kernels watched for the signal themselves (optimal_mm.stopping).
HOURS_PER_TASK = ["solve", "p3c9nb", "--objective", "fewest-at-worst", "--jobs", "1"]


@needs_proc
@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("quiet", [False, True])
def test_a_one_job_run_with_a_checkpoint_answers_a_signal_mid_task(tmp_path, sig, status,
                                                                   quiet):
    cp = tmp_path / "cp"
    err_path = tmp_path / "err.txt"
    proc = start_cli(HOURS_PER_TASK + ["--checkpoint", str(cp), "-o", str(tmp_path / "t.json")]
                     + ["--quiet"] * quiet, tmp_path)
    try:
        if not quiet:
            # Premise: the lexicographic expected-case tasks were handed to the one worker,
            # which is computing the first of them (the worst case before it takes a
            # second): its log's display tells time, which the parent ticks while it waits.
            assert wait_for(lambda: "fewest-at-worst: first guess" in err_path.read_text()
                            and loky_workers(proc.pid), 120)
            time.sleep(1.0)
        else:
            # Silent, it computes in the parent: the worst case, then the first task
            assert wait_for(lambda: cp.is_dir(), 120)
            time.sleep(3.0)
            assert not loky_workers(proc.pid)
        assert proc.poll() is None
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # what a terminal does
        else:
            os.kill(proc.pid, sig)  # the parent only, as a service manager would
        assert proc.wait(60) == status
        assert wait_for(lambda: not group_members(proc.pid), 30), group_members(proc.pid)
    finally:
        kill_group(proc)
    err = err_path.read_text().splitlines()
    assert "Traceback" not in "\n".join(err)
    word = "interrupted" if sig == signal.SIGINT else "terminated"
    assert err[-1].startswith(f"optimal-mm solve: {word}") and "resume" in err[-1], err
    assert not (tmp_path / "t.json").exists()


LEAK_AFTER_START = """
import sys
from joblib.externals.loky.backend import resource_tracker as loky_tracker
from multiprocessing import resource_tracker
from optimal_mm import workers
if sys.argv[1] == "runner":
    workers._start_trackers()
else:
    resource_tracker.ensure_running()
    loky_tracker.ensure_running()
# What a killed worker leaves: names the trackers still count, already unlinked.
loky_tracker.register("/optimal-mm-test-gone", "semlock")
resource_tracker.register("/optimal-mm-test-gone", "semaphore")
print("registered", flush=True)
"""


@needs_proc
@pytest.mark.parametrize("start", ["runner", "plain"])
def test_resource_trackers_started_by_the_runner_clean_up_without_warning(tmp_path, start):
    # Both trackers exit after this process (their pipe closes) and clean up the names
    # left registered; the ones the runner starts say nothing, plain ones warn (the
    # control: the leak is real and warned of). This is what a worker killed by Ctrl-C
    # leaves behind, after the command's one-line message.
    err_path = tmp_path / "err.txt"
    with open(err_path, "w") as err:
        proc = subprocess.Popen([sys.executable, "-c", LEAK_AFTER_START, start],
                                stdout=subprocess.PIPE, stderr=err, text=True,
                                start_new_session=True)
    try:
        assert proc.communicate(timeout=60)[0] == "registered\n"
        assert wait_for(lambda: not group_members(proc.pid), 30)
    finally:
        kill_group(proc)
    err = err_path.read_text()
    if start == "runner":
        assert err == ""
    else:
        assert "leaked semlock" in err and "leaked semaphore" in err, err


@needs_proc
@pytest.mark.parametrize("after", [0.3, pytest.param(0.1, marks=pytest.mark.slow),
                                   pytest.param(0.6, marks=pytest.mark.slow)])
def test_ctrl_c_while_workers_start_prints_one_line(tmp_path, after):
    # Premise: the worker processes exist and are still importing (that takes about a
    # second), which is when they used to print their tracebacks.
    def workers_starting(proc):
        assert wait_for(lambda: loky_workers(proc.pid), 60, step=0.01)
        time.sleep(after)

    _ctrl_c(tmp_path, workers_starting)


@needs_proc
@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.3, 0.6, 1.0, 2.0, 3.0])
def test_ctrl_c_at_any_moment_of_start_up_prints_one_line(tmp_path, delay):
    _ctrl_c(tmp_path, lambda proc: time.sleep(delay))


# ------------------------------------------------------------- broken pipes
def _raise_broken_pipe(args):
    raise BrokenPipeError(32, "Broken pipe")


def test_a_broken_pipe_that_is_not_stdout_is_a_failure(monkeypatch, capsys):
    import argparse

    parser = argparse.ArgumentParser()
    parser.set_defaults(func=_raise_broken_pipe, command="solve")
    monkeypatch.setattr(cli, "build_parser", lambda command=None: parser)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("optimal-mm solve: error: a pipe to another process broke")


def test_a_closed_stdout_ends_quietly(monkeypatch):
    import argparse

    parser = argparse.ArgumentParser()
    parser.set_defaults(func=_raise_broken_pipe, command="show")
    monkeypatch.setattr(cli, "build_parser", lambda command=None: parser)
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone (`| head` that exited)
    saved = os.dup(1)
    try:
        os.dup2(write_end, 1)
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.FileIO(1, "w", closefd=False)))
        assert cli.stdout_closed()
        assert main([]) == 0
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(write_end)


def test_show_into_a_closed_pipe_exits_0_without_traceback(tmp_path):
    # `optimal-mm show TREE | head -1` with a tree longer than the pipe holds.
    tree = Path(__file__).resolve().parent.parent / "optimal_mm" / "data" / "mastermind.json.gz"
    proc = subprocess.Popen([sys.executable, "-m", "optimal_mm", "show", str(tree)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 0 and err == ""


# -------------------------------------------------------------- checkpoints
RUN = {"game": "p2c3", "objective": "expected"}


def test_a_fifo_entry_is_skipped_without_blocking_then_replaced(tmp_path):
    cp = Checkpoint(tmp_path, RUN)
    key = task_key("_exp_part_task", (5, np.arange(3), 10))
    os.mkfifo(cp.path(key))
    assert cp.get(key) is None and cp.rejected == 1  # returns at once: no writer needed
    cp.put(key, (7, None))
    assert cp.path(key).is_file() and cp.get(key) == (7, None)


def test_a_look_up_opens_only_the_files_the_directory_held(tmp_path, monkeypatch):
    from optimal_mm import checkpoint

    cp = Checkpoint(tmp_path, RUN)
    held, missing = (task_key("_exp_part_task", (k, np.arange(3), 10)) for k in (5, 6))
    cp.put(held, (7, None))
    opened = []
    real = checkpoint._read_regular
    monkeypatch.setattr(checkpoint, "_read_regular",
                        lambda path: opened.append(path.name) or real(path))
    assert cp.get(missing) is None and cp.get(held) == (7, None) and cp.rejected == 0
    assert opened == [cp.path(held).name]
    cp.put(missing, (8, None))  # what it writes, it finds
    assert cp.get(missing) == (8, None)
    # An entry another process writes after the listing: not seen by this run (a task
    # computed again), seen by the next.
    other = task_key("_exp_part_task", (7, np.arange(3), 10))
    Checkpoint(tmp_path, RUN).put(other, (9, None))
    assert cp.get(other) is None and Checkpoint(tmp_path, RUN).get(other) == (9, None)


def test_a_directory_entry_is_skipped_and_not_saved_over(tmp_path):
    cp = Checkpoint(tmp_path, RUN)
    key = task_key("_exp_part_task", (5, np.arange(3), 10))
    cp.path(key).mkdir()
    assert cp.get(key) is None and cp.rejected == 1
    cp.put(key, (7, None))  # goes on without saving
    assert cp.unsaved == 1 and cp.stored == 0 and "directory" in cp.unsaved_reason
    assert cp.path(key).is_dir()


def test_a_deeply_nested_entry_is_recomputed_not_a_crash(tmp_path):
    cp = Checkpoint(tmp_path, RUN)
    key = task_key("_exp_part_task", (1,))
    cp.path(key).write_text("[" * 100_000 + "]" * 100_000)
    assert cp.get(key) is None and cp.rejected == 1


def test_checkpoint_directory_problems_are_one_line_each(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    for where, words in (("", "needs a directory name"), (str(afile), "is not a directory"),
                         (str(afile / "sub"), "cannot create")):
        assert main(["solve", "p2c3", "--jobs", "1", "--quiet", "--checkpoint", where,
                     "-o", str(tmp_path / "t.json")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err and repr(where) in err, err
    with pytest.raises(InvalidOptionError):
        Checkpoint("", RUN)


@pytest.mark.skipif(AS_ROOT, reason="root may write in any directory")
def test_an_unwritable_checkpoint_directory_is_refused_up_front(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert main(["solve", "p2c3", "--jobs", "1", "--checkpoint", str(folder),
                     "-o", str(tmp_path / "t.json")]) == 2
        assert "cannot write in the checkpoint directory" in capsys.readouterr().err
    finally:
        folder.chmod(0o700)
