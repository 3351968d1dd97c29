"""The task runner's dispatch order: costliest tasks first, results in batch order."""

import os
import sys
import threading
import time

import pytest

from optimal_mm.progress import Progress
from optimal_mm.runner import TaskRunner

_started: list[int] = []
_lock = threading.Lock()


def _task(i, cost):
    with _lock:
        _started.append(i)
    time.sleep(0.01)
    return i * 10 + cost


COSTS = [1, 5, 3, 6, 2, 4]


def _run(jobs, backend, cost):
    _started.clear()
    runner = TaskRunner(jobs=jobs, backend=backend, scheduler=None,
                        progress=Progress())
    args = [(i, c) for i, c in enumerate(COSTS)]
    results = runner.run(_task, args, cost=cost)
    return results, list(_started)


def test_workers_take_the_costliest_tasks_first():
    results, started = _run(2, "threading", cost=lambda a: a[1])
    # Results come back in the batch's order, whatever order the tasks ran in.
    assert results == [i * 10 + c for i, c in enumerate(COSTS)]
    # Dispatched in decreasing cost: the two workers start with the two costliest,
    # and the cheapest starts last.
    assert set(started[:2]) == {3, 1}
    assert started[-1] == 0
    assert sorted(started) == list(range(len(COSTS)))


def test_without_cost_and_in_process_the_batch_order_is_kept():
    _, started = _run(1, "loky", cost=lambda a: a[1])
    assert started == list(range(len(COSTS)))
    _, started = _run(2, "threading", cost=None)
    assert set(started[:2]) == {0, 1}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_long_task_is_told_while_it_runs(monkeypatch, jobs):
    """A phase whose one task runs for hours said nothing in a log until the task
    came back (p6c7n's race, 2026-12-06: 68 minutes of silence); the thread that
    waits on the workers now ticks the display, which writes a line once the last
    is ``interval`` seconds old. Both waits: the pool's (two jobs) and the one
    worker's of an isolated session."""
    import io

    from optimal_mm import runner as runner_module
    from optimal_mm.progress import LogProgress

    monkeypatch.setattr(runner_module, "TICK_SECONDS", 0.05)
    out = io.StringIO()
    runner = TaskRunner(jobs=jobs, backend="loky", scheduler=None,
                        progress=LogProgress(out, interval=0.3), isolated=True)
    with runner.workers():
        assert runner.run(time.sleep, [(1.5,)], label="a long task") == [None]
    lines = out.getvalue().splitlines()
    running = [line for line in lines if "phase running" in line]
    assert lines[0].endswith("a long task: 0/1 tasks") and "phase done in" in lines[-1]
    # About 30 ticks while the task runs, a line only every 0.3 s (a slow start of
    # the worker may add one: its wait begins late).
    assert 2 <= len(running) <= 10 and all("0/1 tasks" in line for line in running), lines
    # The phase's time (whole seconds) goes on from line to line.
    told = [line.rsplit("phase running ", 1)[1] for line in running]
    assert told == sorted(told) and told[-1] >= "0:00:01", told


def _pid():
    import os

    return os.getpid()


def test_an_isolated_runner_computes_every_task_in_one_worker_process():
    import os

    runner = TaskRunner(jobs=1, backend="loky", scheduler=None, progress=Progress(),
                        isolated=True)
    assert runner.isolated and runner.processes() == (2, 0)
    with runner.workers():
        first = runner.run(_pid, [(), (), ()])
        single = runner.run(_pid, [()])
    assert len(set(first + single)) == 1 and first[0] != os.getpid()
    # Not isolated: the same batch runs here.
    plain = TaskRunner(jobs=1, backend="loky", scheduler=None, progress=Progress())
    assert plain.run(_pid, [(), ()]) == [os.getpid()] * 2 and plain.processes() == (1, 0)


def _isolated_in_a_daemon(queue):
    runner = TaskRunner(jobs=1, backend="loky", scheduler=None, progress=Progress(),
                        isolated=True)
    queue.put((runner.isolated, runner.run(_pid, [()])[0] == _pid()))


def test_a_daemonic_process_computes_in_process_even_when_isolation_is_asked():
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_isolated_in_a_daemon, args=(queue,), daemon=True)
    proc.start()
    assert queue.get(timeout=120) == (False, True)
    proc.join(30)


def test_ending_a_one_worker_session_just_after_a_submission_leaves_no_traceback(monkeypatch):
    """Ctrl-C (or SIGTERM) may come just after a task was handed to the one worker of
    an isolated session. Ending the pool then must kill the worker and fail the task
    quietly: loky's own ``shutdown(kill_workers=True)`` lost that race most times,
    its manager thread dying with a KeyError traceback on stderr."""
    import os

    from joblib.externals.loky import ProcessPoolExecutor

    errors = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    runner = TaskRunner(jobs=1, backend="loky", scheduler=None, progress=Progress(),
                        isolated=True)
    for _ in range(12):
        runner._solo = pool = ProcessPoolExecutor(max_workers=1)
        assert pool.submit(_pid).result() != os.getpid()
        workers = list(pool._processes.values())
        late = pool.submit(_pid)
        runner._end_solo(kill=True)
        assert runner._solo is None and late.done()
        assert all(not worker.is_alive() for worker in workers)
    assert errors == []


def _square(x):
    return x * x


def _warn_from_loky(message: str) -> None:
    """Give ``message`` as loky's executor module gives its warnings."""
    import warnings

    warnings.warn_explicit(message, UserWarning, "process_executor.py", 787,
                           module="joblib.externals.loky.process_executor")


def test_a_pooled_batch_hides_lokys_idle_worker_respawn_warning_and_no_other():
    """The warning loky gives when an idle worker timed out just as tasks came (it
    starts another and runs them all) is hidden after a batch on the pool; another
    warning of loky's, or the same words from another module, still shows."""
    import warnings

    respawn = ("A worker stopped while some jobs were given to the executor. This can "
               "be caused by a too short worker timeout or by a memory leak.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _warn_from_loky(respawn)
        assert len(caught) == 1  # shown before any batch
        runner = TaskRunner(jobs=2, backend="loky", scheduler=None, progress=Progress())
        assert runner.run(_square, [(i,) for i in range(4)]) == [0, 1, 4, 9]
        caught.clear()
        _warn_from_loky(respawn)
        _warn_from_loky("some other warning of loky's")
        warnings.warn_explicit(respawn, UserWarning, "elsewhere.py", 1, module="elsewhere")
    assert [str(w.message) for w in caught] == ["some other warning of loky's", respawn]


def _half_a_result():
    """Play a worker killed while it sent its result: write the first bytes of a
    message of a megabyte to the pool's result pipe, then wait to be killed."""
    import os
    import struct
    import sys

    frame = sys._getframe()
    while "result_queue" not in frame.f_locals:  # loky's worker loop, up the stack
        frame = frame.f_back
    writer = frame.f_locals["result_queue"]._writer
    os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"the first bytes")
    time.sleep(600)


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_ending_a_pool_whose_worker_was_sending_a_result_does_not_hang():
    """A worker killed while its result was going through the pipe (a big part's
    tree can be megabytes) left loky's manager thread waiting for the rest of the
    message, and the pool's shutdown, hence a Ctrl-C'd command, waiting for ever
    (seen once in CI: the command never exited after SIGTERM). The pool must end,
    and loky's manager thread must not fail on the way: the pipe's write end, once
    closed here as a connection, was closed again by that thread (EBADF, a race seen
    once in CI and 2 times in 40 under load), so each round is also a try of that."""
    import os

    from joblib.externals.loky import ProcessPoolExecutor

    from optimal_mm.workers import _end_pool, _worker_start

    for _ in range(3):
        pool = ProcessPoolExecutor(max_workers=1, initializer=_worker_start,
                                   initargs=(os.getpid(),))
        pool.submit(_square, 3).result()  # the worker is up
        pool.submit(_half_a_result)
        time.sleep(0.5)  # the manager thread reads the header, waits for the rest
        ender = threading.Thread(target=_end_pool, args=(pool, True), daemon=True)
        ender.start()
        ender.join(30)
        assert not ender.is_alive(), "the pool did not end"


def test_the_write_end_ends_while_its_descriptor_stays_its_owners():
    # The reader sees the end of the file, and the descriptor is still open for the
    # connection that owns it to close once (the race was two closes of one number).
    import os

    from optimal_mm.workers import _end_write_end

    read_end, write_end = os.pipe()
    os.write(write_end, b"half")
    _end_write_end(write_end)
    assert os.read(read_end, 100) == b"half"
    assert os.read(read_end, 100) == b""  # end of file: no write end is left
    os.fstat(write_end)  # still a valid descriptor (now /dev/null's)
    assert not os.get_inheritable(write_end)
    os.close(write_end)
    os.close(read_end)


_gate = threading.Event()


def _gated(i):
    """Task 0 holds its worker until task 3 has run (at most 30 s); the others pass."""
    if i == 0:
        return _gate.wait(timeout=30)
    if i == 3:
        _gate.set()
    return True


def test_a_stream_gives_a_free_worker_the_next_task_at_once():
    # Task 0 holds its worker until task 3 has run. In batches of one task per worker
    # the second batch would wait for task 0, which would wait the whole 30 s for
    # nothing; a stream runs tasks 1, 2 and 3 on the other worker meanwhile.
    _gate.clear()
    runner = TaskRunner(jobs=2, backend="threading", scheduler=None, progress=Progress())
    seen = []
    runner.stream(_gated, ((i,) for i in range(5)),
                  lambda args, result: seen.append((args[0], result)))
    assert sorted(seen) == [(i, True) for i in range(5)]
    order = [i for i, _ in seen]
    assert order.index(3) < order.index(0)


def test_a_stream_of_one_job_draws_each_task_after_the_last_result():
    # In-process, drawing, computing and handing on alternate: a task drawn from the
    # results so far sees every one of them.
    runner = TaskRunner(jobs=1, backend="loky", scheduler=None, progress=Progress())
    seen, known_when_drawn = [], []

    def tasks():
        for i in range(4):
            known_when_drawn.append(len(seen))
            yield (i, sum(seen))

    runner.stream(_task, tasks(), lambda args, result: seen.append(result))
    assert known_when_drawn == [0, 1, 2, 3]
    assert seen == [0, 10, 20 + 10, 30 + 40]


def _grow_and_pid(megabytes):
    """Keep ``megabytes`` of touched memory alive in this worker, and say who it is."""
    import os

    import numpy as np

    _KEPT.append(np.ones(megabytes << 20, dtype=np.uint8))
    return os.getpid()


_KEPT = []


def test_a_worker_whose_tables_grow_is_kept():
    """A worker that grows by more than loky's 300 MB leak guard (as transposition
    tables do, by design) keeps working: the same process, and its memory, serve
    the next tasks (before, loky ended it after the task and started another)."""
    runner = TaskRunner(jobs=1, backend="loky", scheduler=None, progress=Progress(),
                        isolated=True)
    with runner.workers():
        pids = runner.run(_grow_and_pid, [(1,)])  # loky measures the worker after it
        time.sleep(1.5)  # and looks again at most once a second, after a task
        pids += runner.run(_grow_and_pid, [(400,)])
        pids += runner.run(_pid, [()]) + runner.run(_pid, [()])
    assert len(set(pids)) == 1


def test_pooled_batches_leave_no_folders_or_exit_callbacks_behind():
    """Pooled batches go to the loky pool directly (TaskRunner._dispatch_to_pool):
    joblib's Parallel, which it replaced, made a memmapping folder (in /dev/shm where
    it could) and left an atexit callback or two for every batch while its pool
    lived, which a run of thousands of phases piled up."""
    import atexit
    import glob
    import os
    import tempfile

    def folders():
        roots = {os.environ.get("JOBLIB_TEMP_FOLDER") or "/dev/shm", tempfile.gettempdir()}
        return {path for root in roots for path in
                glob.glob(os.path.join(root, f"joblib_memmapping_folder_{os.getpid()}_*"))}

    runner = TaskRunner(jobs=2, backend="loky", scheduler=None, progress=Progress())
    with runner.workers():
        runner.run(_square, [(i,) for i in range(4)])  # the pool
        before, callbacks = folders(), atexit._ncallbacks()
        for k in range(20):
            assert runner.run(_square, [(i,) for i in range(k, k + 4)]) == [
                i * i for i in range(k, k + 4)]
        assert folders() <= before
        assert atexit._ncallbacks() == callbacks


def _pid_after(seconds):
    time.sleep(seconds)
    return _pid()


@pytest.mark.parametrize("jobs", [1, 2])
def test_workers_first_used_by_a_thread_beside_outlive_it(jobs):
    """The kernel kills a worker when the *thread* that started it ends
    (``PR_SET_PDEATHSIG``). A resumed race whose checkpoint answered the main
    thread's tasks had a thread beside submit the first task, so its workers died
    when that thread was done, under another thread's task (WorkerLostError). The
    workers now come from a thread that lasts: the same processes serve every thread."""
    runner = TaskRunner(jobs=jobs, backend="loky", scheduler=None, progress=Progress(),
                        isolated=True)
    runner._stop_pools()  # no pool kept from other tests: a thread beside starts it
    runner.prepare(())
    with runner.workers():
        if jobs == 1:  # one job: the session's own one-worker pool, one thread at a time
            pids = runner.beside(lambda: runner.run(_pid_after, [(0.0,)])).join()
        else:
            slow = runner.beside(lambda: runner.run(_pid_after, [(1.5,)]))
            quick = runner.beside(lambda: runner.run(_pid_after, [(0.0,)]))
            pids = quick.join()
            time.sleep(0.3)  # the quick thread has ended; the slow one's task goes on
            pids += slow.join()
        again = runner.run(_pid_after, [(0.0,)] * 4)
    assert len(set(pids + again)) <= jobs  # no worker replaced


def test_starting_the_trackers_from_several_threads_leaves_the_environment_as_it_was(
        monkeypatch):
    """``_start_trackers`` sets PYTHONWARNINGS while the trackers start and puts back
    what it found: two threads at once each put back what the other had set, and the
    variable grew at every call (a race's parent then spent most of its time setting it)."""
    from optimal_mm import workers

    monkeypatch.setenv("PYTHONWARNINGS", "default")
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch often: a race shows at once

    def often():
        for _ in range(200):
            workers._start_trackers()

    threads = [threading.Thread(target=often) for _ in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert os.environ["PYTHONWARNINGS"] == "default"


_TRACKER_ENV = """
import os, sys
sys.path.insert(0, {tests!r})
from optimal_mm.progress import Progress
from optimal_mm.runner import TaskRunner
from test_runner import _pid_after

runner = TaskRunner(jobs=2, backend="loky", scheduler=None, progress=Progress(), isolated=True)
runner.prepare(())
with runner.workers():
    runner.run(_pid_after, [(0.0,)] * 2)
    for name in os.listdir("/proc"):
        try:
            parent = int(open(f"/proc/{{name}}/stat").read().rsplit(")", 1)[1].split()[1])
            command = open(f"/proc/{{name}}/cmdline", "rb").read()
            environ = open(f"/proc/{{name}}/environ", "rb").read().split(b"\\0")
        except (OSError, ValueError):
            continue
        if parent == os.getpid() and b"resource_tracker" in command:
            warnings = [e for e in environ if e.startswith(b"PYTHONWARNINGS=")]
            print(b"loky" in command, warnings[0].decode() if warnings else "")
"""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_a_pools_resource_trackers_start_told_to_be_quiet():
    """Both resource trackers (the standard library's and loky's) start with the
    filter that hides their leak warnings (``_start_trackers``): the first pool of a
    fresh process made its executor, whose locks started loky's tracker, before the
    trackers were started, and a table run ended by its time limit printed loky's
    "leaked semlock objects" warning."""
    from pathlib import Path

    from processes import fresh_python

    out = fresh_python(_TRACKER_ENV.format(tests=str(Path(__file__).parent)))
    trackers = dict(line.partition(" ")[::2] for line in out.splitlines())
    assert set(trackers) == {"True", "False"}
    for warnings in trackers.values():
        assert "ignore::UserWarning:joblib.externals.loky.backend.resource_tracker" in warnings


def test_a_runner_reading_only_computes_nothing(tmp_path):
    # Within reading_only a batch or stream whose tasks are all saved is read back;
    # one with a task to compute raises NotSaved before any task starts.
    from optimal_mm.runner import NotSaved

    runner = TaskRunner(jobs=1, backend="loky", scheduler=None, progress=Progress())
    runner.prepare((), tmp_path / "cp", {"run": "reading"})
    with runner.workers():
        saved = runner.run(_task, [(0, 1), (1, 2)])
    _started.clear()
    assert not runner.only_reading
    with runner.workers(), runner.reading_only():
        assert runner.only_reading
        assert runner.run(_task, [(1, 2), (0, 1)]) == saved[::-1]
        with pytest.raises(NotSaved):
            runner.run(_task, [(0, 1), (2, 3)])
        with pytest.raises(NotSaved):
            runner.stream(_task, iter([(2, 3)]), lambda args, result: None)
        runner.stream(_task, iter([]), lambda args, result: None)  # nothing to draw
    assert _started == [] and not runner.only_reading
    with runner.workers():  # outside it, the missing task is computed
        assert runner.run(_task, [(2, 3)]) == [23] and _started == [2]
