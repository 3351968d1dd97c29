"""The worker processes of a run: how they start, what they ignore, how they end.

:class:`~optimal_mm.runner.TaskRunner` sends its tasks to loky's worker processes.
This module holds what it takes for them to behave through a long run's faults:
Ctrl-C, a parent killed with ``kill -9``, a worker killed mid-message, a thread
beside that ends (docs/RELIABILITY.md tells each fault and what it did before).

They ignore Ctrl-C
    A terminal sends Ctrl-C to the whole process group; the parent alone decides to
    stop (:mod:`optimal_mm.runner`, "Ctrl-C"). Workers are started while the thread
    that starts them blocks SIGINT (:func:`_sigint_blocked`); a process inherits its
    signal mask through ``fork`` and ``exec``, and Python never unblocks it, so a
    worker ignores Ctrl-C from its very first instruction, even while it is still
    importing (before, a Ctrl-C then printed each worker's traceback). A Ctrl-C
    that arrives in that window waits, blocked, and is raised as soon as it ends.

They end with their parent
    Each worker asks the kernel to kill it when its parent dies (:func:`_worker_start`:
    ``PR_SET_PDEATHSIG`` on Linux), so a parent killed with ``kill -9`` leaves no
    worker computing, or idling for minutes, behind. For the kernel that parent is
    the *thread* that started the worker, so workers are started only by a thread
    that lasts as long as the process (:func:`_from_a_lasting_thread`), never by a
    thread beside (:func:`_started`).

They end cleanly when killed
    A pool stopped by Ctrl-C has its workers killed here (:func:`_end_pool`), and
    the resource trackers that clean up after them are started told not to warn
    (:func:`_start_trackers`), so that the command's last line is its own one-line
    message.

They keep what they grow
    A search worker's transposition tables fill as it works, by design: loky's leak
    guard, which would end such a worker and start another, is off
    (:func:`_allow_growth`).
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import threading
import warnings
import weakref


_PR_SET_PDEATHSIG = 1


def _worker_start(parent_pid: int) -> None:
    """Loky worker initializer: die with the parent, ignore Ctrl-C (module docstring),
    and keep growing (:func:`_allow_growth`).

    ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` makes the kernel kill this process when its
    parent ends, however it ends; where that call does not exist (not Linux) the
    worker still ends when loky notices its parent gone. Checking the parent after
    the call closes the window where it died before.
    """
    with contextlib.suppress(Exception):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _allow_growth()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent_pid:
        os._exit(1)


#: The modules whose resource tracker processes :func:`_start_trackers` starts.
TRACKERS = ("multiprocessing.resource_tracker", "joblib.externals.loky.backend.resource_tracker")


def _start_trackers() -> None:
    """Start the resource tracker processes, told to clean up without warning.

    A resource tracker is a helper process that unlinks the semaphores and folders
    that processes which ended badly left registered. Ending workers on Ctrl-C
    (``kill_workers``) is such an end: a worker killed while it held a reference to
    one of the pool's semaphores never tells the tracker it let go, so the tracker,
    exiting after the parent, finds it "leaked", unlinks it (or finds it already
    gone) and would print a two-line ``UserWarning`` after the command's one-line
    message (docs/RELIABILITY.md, "Exit codes and messages"). The cleanup is the tracker's job and
    still happens; only its warnings are filtered, by a ``PYTHONWARNINGS`` entry for
    the tracker's own module, set while its process starts (it inherits the
    environment) and restored at once. Two threads at once (the main one and
    :func:`_from_a_lasting_thread`'s) each put back what the other had set, and the
    variable grew by the filters at every call: after ten minutes of a race, setting
    it took most of the parent's processor time. So one thread at a time.
    """
    with _trackers_lock:  # one thread at a time: each puts back what it found
        _start_quiet_trackers()


_trackers_lock = threading.Lock()


def _start_quiet_trackers() -> None:
    """:func:`_start_trackers`, under its lock."""
    quiet = ",".join(f"ignore::UserWarning:{module}" for module in TRACKERS)
    before = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = f"{before},{quiet}" if before else quiet
    try:
        with contextlib.suppress(Exception):
            from multiprocessing import resource_tracker

            resource_tracker.ensure_running()
        with contextlib.suppress(Exception):
            from joblib.externals.loky.backend import resource_tracker as loky_tracker

            loky_tracker.ensure_running()
    finally:
        if before is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = before


@contextlib.contextmanager
def _sigint_blocked():
    """Block SIGINT in this thread (the main one, or the one of :func:`_from_a_lasting_thread`)
    while worker processes are started.

    Processes and threads started meanwhile inherit the mask, so loky's workers never
    see Ctrl-C (module docstring); a Ctrl-C that comes meanwhile is raised on leaving.
    """
    if not hasattr(signal, "pthread_sigmask") or not _lasts():
        yield
        return
    # Start the resource trackers first: starting its tracker, the standard library
    # (Python < 3.12) unblocks SIGINT in this thread, which would end the window early.
    _start_trackers()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


#: The thread that starts worker processes for threads that end (:func:`_from_a_lasting_thread`),
#: and its queue of ``(work, future)`` requests, made at the first request.
_starter: "threading.Thread | None" = None
_requests: "queue.SimpleQueue | None" = None
_starter_lock = threading.Lock()
#: The loky executors whose workers :func:`_started` has started (not kept alive by it).
_started_pools = weakref.WeakSet()


def _lasts() -> bool:
    """Whether this thread lasts as long as the process: the main thread, or the
    thread of :func:`_from_a_lasting_thread`."""
    current = threading.current_thread()
    return current is threading.main_thread() or current is _starter


def _from_a_lasting_thread(work):
    """``work()`` run in a thread that lasts as long as this process; its result.

    A worker process asks the kernel to kill it when its parent ends
    (:func:`_worker_start`), and for the kernel the parent is the *thread* that
    started it (``PR_SET_PDEATHSIG``). Workers started by a thread beside
    (:meth:`TaskRunner.beside`) died when that thread's rival chain was done, under
    the tasks the other threads had given them: a resumed p5c6b race, whose
    checkpoint answered every task of the main thread, so that a thread beside
    submitted the first task, lost a worker within four minutes, twice. So workers
    are started only here: in the main thread itself, and for any other thread in
    one daemon thread kept for it, which waits for requests until the process ends.
    """
    if _lasts():
        return work()
    global _starter, _requests
    with _starter_lock:
        if _starter is None:
            _requests = queue.SimpleQueue()
            _starter = threading.Thread(target=_serve, args=(_requests,), daemon=True,
                                        name="optimal_mm: worker starter")
            _starter.start()
    from concurrent.futures import Future

    done = Future()
    _requests.put((work, done))
    return done.result()


def _serve(requests) -> None:
    """The loop of :func:`_from_a_lasting_thread`'s thread: run each request, hand back
    its result or its exception."""
    while True:
        work, done = requests.get()
        try:
            done.set_result(work())
        except BaseException as exc:  # handed to the thread that asked
            done.set_exception(exc)


def _nothing() -> None:
    """A task that does nothing: the first one a new pool is given (:func:`_started`)."""


def _started(make):
    """The loky executor ``make()`` returns, its workers running, started from a
    thread that lasts (:func:`_from_a_lasting_thread`) with SIGINT blocked.

    An executor starts its missing workers in whichever thread submits to it, so the
    first submission to a new one is :func:`_nothing`, made by that thread and waited
    for (the worker is up). ``make`` runs in the caller's thread (making an executor
    starts no worker) and may return one already started (loky's reusable one,
    reused): then no other thread is asked, and nothing is submitted. The resource
    trackers are started first (:func:`_start_trackers`): the executor's locks
    would otherwise start loky's without the filter that keeps it quiet."""
    _start_trackers()  # before ``make``, whose locks would start them unquieted
    pool = make()
    if pool not in _started_pools:
        _from_a_lasting_thread(lambda: _start(pool))
    return pool


def _start(pool) -> None:
    """Start ``pool``'s workers in this thread, unless another thread has (:func:`_started`)."""
    if pool not in _started_pools:
        with _sigint_blocked():
            pool.submit(_nothing).result()
        _started_pools.add(pool)


def _end_pool(pool, kill: bool) -> None:
    """Shut a loky executor down and wait for it; with ``kill``, its workers first.

    The workers are killed here rather than by ``shutdown(kill_workers=True)``: that
    empties the executor's table of pending tasks while the id of one just submitted
    may still wait in the queue its manager thread reads, and the thread then dies
    printing a KeyError traceback (a race of loky's, lost most times when Ctrl-C
    comes just after a submission). A dead worker makes a broken pool instead: the
    manager thread fails the pending futures and ends, and the shutdown returns.
    """
    processes = getattr(pool, "_processes", None)
    if kill and processes is not None:
        for pid in list(processes):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        # A worker killed while it sent a result (a tree of a big part can take a
        # while to go through the pipe) leaves the manager thread waiting for the rest
        # of the message for ever: this process holds the pipe's other write end. With
        # it closed, the read ends (EOF) and the thread sees a broken pool. (Measured:
        # a worker killed 0.55 s into sending 400 MB hung the shutdown below.)
        writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
        if writer is not None:
            with contextlib.suppress(OSError):
                _end_write_end(writer.fileno())
    with contextlib.suppress(Exception):
        pool.shutdown(wait=True, kill_workers=kill and processes is None)


def _end_write_end(fd: int) -> None:
    """Close the pipe's write end behind descriptor ``fd`` without freeing ``fd``.

    ``/dev/null`` takes the descriptor's place in one step (``dup2``): the pipe's
    reader sees the end of the file, and the descriptor stays valid and owned by its
    connection, which loky's manager thread closes when it sees the broken pool.
    Closing the connection here instead raced that thread: both closed the one
    descriptor, and the second close failed (``OSError: [Errno 9] Bad file
    descriptor``, printed by the thread; measured 2 times in 40 under load) or, had
    the number been reused meanwhile, closed someone else's file.
    """
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd, inheritable=False)
    finally:
        os.close(null)


def _allow_growth() -> None:
    """Turn off loky's leak guard in this worker: with psutil installed (Dask's
    ``distributed`` brings it), a loky worker whose memory has grown by 300 MB since
    its first task ends itself after a task as if it leaked, and loky starts another.
    A search worker grows by design: its transposition tables fill as it works
    (their size is planned, :mod:`optimal_mm.memory`). Each such end threw away the
    tables the worker had filled and printed loky's warning ("... or by a memory
    leak"): a long ``solve --checkpoint`` of p5c6b lost its one worker within its
    first minute. loky has no option for it, so its module's threshold is raised."""
    with contextlib.suppress(Exception):
        from joblib.externals.loky import process_executor

        process_executor._MAX_MEMORY_LEAK_SIZE = 1 << 62


#: The warning loky gives when an idle worker reached its timeout (joblib's pool lets
#: a worker go after 300 s without work) at the moment new tasks were submitted: it
#: starts a new worker and runs them all, so nothing is lost, but "This can be caused
#: by a too short worker timeout or by a memory leak" reads like a fault. A worker
#: that dies (killed, out of memory) is not this warning: it breaks the batch with
#: :class:`~optimal_mm.errors.WorkerLostError`.
LOKY_RESPAWN_WARNING = r"A worker stopped while some jobs were given to the executor"


def _quiet_loky_respawn() -> None:
    """Hide :data:`LOKY_RESPAWN_WARNING` (only it, only from loky's executor).

    Installed before each pooled batch rather than once at import: a caller's
    ``warnings.catch_warnings`` (pytest wraps every test in one) restores the filters
    it found, which would drop a filter installed inside it."""
    warnings.filterwarnings("ignore", message=LOKY_RESPAWN_WARNING, category=UserWarning,
                            module=r"joblib\.externals\.loky\.process_executor")


def _daemonic() -> bool:
    """Whether this process is a daemonic multiprocessing process (no children allowed)."""
    import multiprocessing

    return bool(multiprocessing.current_process().daemon)


def _worker_failures() -> tuple:
    """The exceptions that mean a worker died or the pipe to the workers broke."""
    failures = [BrokenPipeError, EOFError]
    with contextlib.suppress(ImportError):
        from joblib.externals.loky.process_executor import (BrokenProcessPool,
                                                            TerminatedWorkerError)
        failures += [TerminatedWorkerError, BrokenProcessPool]
    with contextlib.suppress(ImportError):
        from concurrent.futures.process import BrokenProcessPool as StdBroken
        failures.append(StdBroken)
    return tuple(failures)


def _return_as() -> str:
    """Results as tasks finish (joblib >= 1.4), else as a generator in order (1.3)."""
    import joblib

    try:
        major, minor = (int(x) for x in joblib.__version__.split(".")[:2])
    except ValueError:
        return "generator_unordered"
    return "generator_unordered" if (major, minor) >= (1, 4) else "generator"
