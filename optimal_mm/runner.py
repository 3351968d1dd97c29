"""Running a batch of independent top-level tasks: in-process, on a joblib pool or a
dask cluster, with checkpoint lookup and saving, progress counting and clean
interruption.

What a task is
    A call ``fn(*common, *args)`` of a module-level function (so that it can be sent
    to another process) with plain, picklable arguments: ``common`` is the same for
    every task of a session (for the exact search of :mod:`optimal_mm.search`: the
    game, the guess rule, the table size and the symmetry switch), ``args`` are the
    task's own (a first guess and one of its parts, a budget, a depth). A batch is a
    list of such argument tuples for one function; :meth:`TaskRunner.run` returns
    their results in the same order.

Why results do not depend on the number of jobs or on the order
    A task's result must be a function of its arguments alone: whatever a process
    keeps between tasks (the search keeps its transposition table) may change how
    fast a task runs, never what it returns, and the caller fixes every argument (a
    budget, a bound) before the batch is dispatched, never from the results of
    tasks of the same batch. Results come back with their index and are put in
    place as they arrive, so a batch gives the same list with one job or many,
    in-process, on loky processes or on dask workers, whatever order the tasks
    finish in. A *stream* (:meth:`TaskRunner.stream`) is the exception: its caller
    draws each task when a worker is free, from the results so far, so that no
    worker waits for a batch's slowest task; the caller's answer must then not
    depend on the order the tasks finish in, and the checkpoint answers a task
    under another budget where it can.

Where tasks run
    With one job, or a single task to compute, in this process, unless the session
    is *isolated* (below). Otherwise on worker processes: ``"loky"`` by default,
    the pool that joblib keeps for reuse (a steady pool of ``jobs`` workers, so
    that their tables stay warm between batches), each task submitted to it
    directly (:meth:`TaskRunner._dispatch_to_pool`); or through joblib's
    ``Parallel``: ``"threading"`` (gains nothing: the compiled search holds the GIL,
    but handy for debugging), or ``"dask"``: the cluster at ``scheduler``, or a
    local cluster of ``jobs`` single-threaded worker processes started for the
    session (:data:`LOCAL_DASK_CONFIG`). Dask gets one task per worker thread at a
    time.

Isolated sessions: a long run answers Ctrl-C at once
    A task is one call of the compiled search, and a compiled call holds the
    interpreter until it returns (the ahead-of-time exports cannot release it):
    Python runs a signal handler only between two bytecodes, so a task computed in
    this process heard Ctrl-C or SIGTERM only when it ended, hours later on a hard
    game, until the kernels learned to watch for the signal themselves
    (:mod:`optimal_mm.stopping`). An *isolated* runner, built before that, never
    computes a task in this process: with
    one job it keeps a loky pool of one worker for the session (its own, not the
    reusable pool joblib manages; the worker's tables stay warm between batches),
    given one task at a time (:meth:`TaskRunner._execute_in_one_worker`), and
    a single task under
    several jobs goes to the pool as well. This process only waits, and a wait
    answers a signal at once. The solver isolates its sessions with a checkpoint
    and several jobs, whose threads beside (:meth:`TaskRunner.beside`) then only
    ever wait. Its one-job sessions with a checkpoint are isolated too
    where the display tells time (:attr:`~optimal_mm.progress.Progress.tells_time`:
    the waiting thread ticks it); with a silent one, since 2026-12-07, they compute
    here, where the kernels hear a signal, each task in a state of the session's
    own (``apart``), as that worker kept it.

Checkpoints (see ``docs/LONG_RUNS.md``)
    With a checkpoint directory, each finished task is stored in a
    :class:`~optimal_mm.checkpoint.Checkpoint` as soon as the parent process receives
    it, and looked up before anything is dispatched, so a killed run rerun with the
    same arguments computes only what is missing and ends with the same result.
    Tasks are keyed by their function's name and their own arguments (arrays
    hashed); the *run key* (:meth:`optimal_mm.search.Solver.run_key`) holds the
    rest, with the version of what a task computes
    (:data:`optimal_mm.search.TASK_FORMAT`), and deliberately not the number of jobs,
    the backend or the table size, which change how fast a task runs but not its
    result. Every task read back or finished counts as progress
    (:class:`~optimal_mm.progress.Progress`); a labelled batch is one progress
    *phase*. While a thread waits on the loky workers it ticks the display every
    :data:`TICK_SECONDS`, so that a log says a phase whose one task takes an hour is
    still going.

Ctrl-C
    A terminal sends Ctrl-C to the whole process group. Worker processes ignore it:
    the parent alone decides to stop, keeps what has been saved (each result is
    saved before anything else happens to it), ends the workers itself (the loky
    pool kept for reuse, or the dask client and local cluster), and lets the
    ``KeyboardInterrupt`` go on to its caller. SIGTERM to the parent is turned into
    a ``KeyboardInterrupt`` by the command line (:class:`optimal_mm.cli.Terminated`)
    and ends the workers like Ctrl-C. How the workers come to ignore Ctrl-C, die
    with their parent and end cleanly when killed is :mod:`optimal_mm.workers`.

A worker that dies
    A worker killed during a run (by the out-of-memory killer, say), or a broken pipe
    to the workers, ends the batch with :class:`~optimal_mm.errors.WorkerLostError`:
    one line saying what happened and, with a checkpoint, how many tasks are saved
    and that rerunning the command resumes from them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
import warnings
import weakref
from typing import TYPE_CHECKING

from .errors import InvalidOptionError, MissingDependencyError, WorkerLostError
from .workers import (_daemonic, _end_pool, _quiet_loky_respawn, _return_as, _sigint_blocked,
                      _started, _worker_failures, _worker_start)

if TYPE_CHECKING:  # imported when a session has a checkpoint: most have none
    from .checkpoint import Checkpoint

BACKENDS = ("loky", "threading", "dask")
#: Seconds between two ticks of the progress display (:meth:`Progress.tick
#: <optimal_mm.progress.Progress.tick>`) while a thread waits on a worker's task: the
#: display itself decides whether a tick is worth a line.
TICK_SECONDS = 5.0
#: Dask settings of the local cluster that ``backend="dask"`` starts without a scheduler
#: (``docs/LONG_RUNS.md`` says how to give a real cluster the same):
#:
#: * no worker time-to-live: the compiled search holds the GIL for a whole task, so a
#:   worker cannot heartbeat while it runs one, and the scheduler would restart any
#:   worker busy with a task longer than the time-to-live (5 minutes by default);
#: * no ``MALLOC_TRIM_THRESHOLD_`` in the workers: nannies set it to make glibc give
#:   memory back eagerly, which also stops glibc from tuning its mmap threshold; the
#:   search allocates many short-lived arrays and ran about twice as slowly.
LOCAL_DASK_CONFIG = {"distributed.scheduler.worker-ttl": None,
                     "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}


def _always_saved(fn, args) -> bool:
    """Whether the task ``fn(*common, *args)`` is saved in a checkpoint even when it
    took less than ``min_save_seconds``: the task function's ``checkpoint_always``
    predicate says so (a task that a report of the checkpoint needs to find, such
    as the part trees under a search's first two guesses)."""
    keep = getattr(fn, "checkpoint_always", None)
    return keep is not None and bool(keep(args))


def _timed_call(fn, args):
    """``fn(*args)`` and how long it took: ``(result, (wall seconds, processor seconds
    of this thread, UTC epoch at the end))``, for the task's checkpoint entry."""
    start, cpu = time.perf_counter(), time.thread_time()
    result = fn(*args)
    return result, (time.perf_counter() - start, time.thread_time() - cpu, time.time())


def _remote(fn, index, parent_pid, args):
    """Run one task away from the parent: ``(index, result, timing)``
    (:func:`_timed_call`).

    The index lets results arrive in any order. A worker process ignores Ctrl-C
    (see the module docstring).
    """
    if os.getpid() != parent_pid and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return (index, *_timed_call(fn, args))


#: How long a session stopped by Ctrl-C (or a time limit) waits for each thread beside
#: its own (:meth:`TaskRunner.beside`) to see its workers gone and end, so that none
#: writes to the terminal after the command's last line.
BESIDE_STOP_SECONDS = 10.0


class NotSaved(Exception):
    """A task had to be computed while the runner was only reading the checkpoint
    (:meth:`TaskRunner.reading_only`): what was asked for is not all saved."""


class SessionHalted(Exception):
    """A thread beside the caller's (:meth:`TaskRunner.beside`) asked to dispatch
    after Ctrl-C (or a time limit) stopped the session's workers: it ends there."""


class Beside:
    """Work in a thread of its own, beside the thread that started it
    (:meth:`TaskRunner.beside`): :meth:`join` waits for it.

    The thread is a daemon: a session that Ctrl-C or a time limit ends does not wait
    for it (its dispatches fail once the workers are stopped, :class:`SessionHalted`),
    and what it saved before stays in the checkpoint."""

    def __init__(self, runner: "TaskRunner", work):
        from .progress import PhasesHidden

        self._runner, self._work = runner, work
        self._context = ([0.0], PhasesHidden(runner._progress), runner._session_halt(),
                         getattr(runner._local, "uncharged", False))
        self._result = self._error = None
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="optimal_mm: beside")
        self._thread.start()

    def _run(self) -> None:
        self._runner._enter(self._context)
        try:
            self._result = self._work()
        except BaseException as exc:  # handed to join(): a thread has no caller
            self._error = exc

    def wait(self, seconds: float) -> None:
        """Wait at most ``seconds`` for the thread to end, whatever its outcome."""
        self._thread.join(seconds)

    @property
    def running(self) -> bool:
        """Whether the work is still going on (its thread alive)."""
        return self._thread.is_alive()

    def join(self):
        """Wait for the work; charge its processor seconds to this thread
        (:meth:`TaskRunner.clock`); return its result, or raise its exception."""
        self._thread.join()
        self._runner._charge(self._context[0][0])
        self._context[0][0] = 0.0
        if self._error is not None:
            raise self._error
        return self._result


class TaskRunner:
    """Runs batches of tasks for one solver (see the module docstring).

    A session is :meth:`prepare` (common arguments, checkpoint) then
    ``with runner.workers():`` around the batches (:meth:`run`, or :meth:`known`
    and :meth:`execute` for a caller that dispatches a batch in slices).

    >>> from optimal_mm.progress import Progress
    >>> runner = TaskRunner(jobs=1, backend="loky", scheduler=None, progress=Progress())
    >>> runner.prepare((10,))
    >>> with runner.workers():
    ...     runner.run(divmod, [(3,), (4,)])
    [(3, 1), (2, 2)]

    Parameters
    ----------
    jobs : int
        Tasks at once (1 runs them in-process); with ``backend="dask"`` and no
        scheduler, the number of local dask workers.
    backend : {"loky", "threading", "dask"}
    scheduler : str or None
        Address of a dask scheduler; only with ``backend="dask"``.
    progress : Progress
        Told of phases and finished tasks (and of the dask cluster).
    isolated : bool
        Never compute a task in this process (module docstring, "Isolated sessions");
        only with the loky backend, the default of ``--checkpoint`` runs with several
        jobs, and not in a daemonic process, which may not start one.
    apart : callable, optional
        For the tasks computed in this process: called as each session starts
        (:meth:`prepare`), it makes a context manager that every such task then runs
        inside, so that they keep a state of the session's own, apart from the
        caller's, as a worker process of their own would (the solver's one-job runs
        with a checkpoint: :class:`~optimal_mm.search_context.ContextsApart`).
    min_save_seconds : float
        A finished task that took less processor time than this is not saved in the
        checkpoint, but computed again when asked for: the chains of
        ``--chain-secrets`` on a big game run tasks of 10 ms by the ten thousand, whose
        entries (a few kilobytes each) outweigh their work. 0 (the default) saves every
        task. A chain's or a split part's answer (:meth:`record`) is saved when its
        pieces took this much in all (:meth:`clock`): p4c10b's fewest at the
        worst depth, saving every such answer, wrote 18,615 of them in 10 minutes
        (76 MB), most from chains of a few milliseconds. A task function may name
        the tasks it always saves, whatever their time (``fn.checkpoint_always``, a
        predicate of the task's own arguments): those a report of the checkpoint
        reads (:func:`_always_saved`).

    Attributes
    ----------
    checkpoint : Checkpoint or None
        The store of the current (or last) session, kept after it ends.
    task_seconds : float
        Processor seconds of the tasks finished so far (computed, not read back from
        the checkpoint), summed in this process as their results arrive.
    read_seconds : float
        Processor seconds that the entries read back so far record (those with a
        timing; a look that may go unused is not counted): with
        :attr:`task_seconds`, what :meth:`clock` marks.
    resumed : int
        Tasks read back from the checkpoint in this session rather than computed.
    """

    def __init__(self, jobs: int, backend: str, scheduler: str | None, progress,
                 isolated: bool = False, min_save_seconds: float = 0.0, apart=None):
        self.jobs = jobs
        self.apart = apart
        self._apart = None  # the session's (prepare)
        self.min_save_seconds = float(min_save_seconds)
        self.task_seconds = self.read_seconds = 0.0
        self.backend = backend
        # A daemonic process (a multiprocessing worker, like the table script's entry
        # processes) may not start children: it computes in-process as before.
        self.isolated = bool(isolated) and backend == "loky" and not _daemonic()
        self.scheduler = scheduler
        self._progress = progress
        self.common: tuple = ()
        self.checkpoint: Checkpoint | None = None
        # The checkpoint of the search without the cap, read as lower bounds (bound_by),
        # and the entries of the tasks it settled this session
        self.below: Checkpoint | None = None
        self._from_below: set[str] = set()
        self.resumed = 0
        self._client = self._cluster = None
        self._solo = None  # the one-worker pool of an isolated one-job session
        # A stream's tasks are drawn (and looked up) in one of joblib's threads while
        # this one saves results: the checkpoint is used under this lock.
        self._store = threading.RLock()
        # What a thread of the caller's is charged with and reports to (beside()):
        # its processor seconds (clock) and its progress display.
        self._local = threading.local()
        self._root = [0.0]
        # Set when the session's workers are stopped (Ctrl-C, a time limit): a thread
        # that dispatches for that session, the caller's or one beside, stops there.
        # A new one per session: a thread beside an ended session never dispatches
        # for the next.
        self._halt = threading.Event()
        self._besides = weakref.WeakSet()  # the threads beside that may be running

    # ------------------------------------------------------- threads beside
    @property
    def progress(self):
        """The progress display of this thread: the session's own, or, in a thread
        started by :meth:`beside`, one that keeps its phases to itself."""
        shown = getattr(self._local, "progress", None)
        return self._progress if shown is None else shown

    def dispatches_all(self) -> bool:
        """Whether every task goes to a worker, none computed in this process (an
        isolated session, or a dask cluster): then a thread of the caller's only ever
        waits, and several may wait at once (:meth:`beside`)."""
        return self.isolated or self.backend == "dask"

    def beside(self, work) -> "Beside":
        """Start ``work()`` in a thread of its own, beside the caller's, and return
        its :class:`Beside` (``join()`` it for the result).

        A search whose steps come one after another (a race of rival guesses, each
        a chain of tasks that needs the last one's answer) keeps one worker busy at a
        time; two such steps side by side keep two. The thread dispatches its own
        tasks, saves them to the checkpoint (under the runner's lock) and is charged
        with its own processor seconds (:meth:`clock`), which its ``join()`` adds to
        the caller's; its progress phases are not shown (they would overwrite the
        caller's: the display has one phase at a time), its messages are. Only for a
        runner that :meth:`dispatches_all`: a task computed in this process would
        hold the interpreter and stop every other thread's dispatching."""
        if not self.dispatches_all():
            raise ValueError("threads beside need a runner that dispatches every task")
        chain = Beside(self, work)
        self._besides.add(chain)
        return chain

    def _charge(self, seconds: float) -> None:
        """Count ``seconds`` of processor time to this thread (:meth:`clock`)."""
        tally = getattr(self._local, "tally", None)
        with self._store:
            (self._root if tally is None else tally)[0] += seconds

    def _context(self) -> tuple:
        """This thread's tally, progress, session's halt (None: the session's own) and
        whether its reads are charged (:meth:`uncharged`), to hand to a thread that
        works for it (a stream's drawing thread)."""
        return (getattr(self._local, "tally", None), getattr(self._local, "progress", None),
                getattr(self._local, "halt", None), getattr(self._local, "uncharged", False))

    def _enter(self, context) -> None:
        """Take on the tally, progress, halt and charging of :meth:`_context`."""
        (self._local.tally, self._local.progress, self._local.halt,
         self._local.uncharged) = context

    @contextlib.contextmanager
    def _flagged(self, name: str):
        """Within it, this thread's flag ``name`` (of ``self._local``) is set."""
        before = getattr(self._local, name, False)
        setattr(self._local, name, True)
        try:
            yield
        finally:
            setattr(self._local, name, before)

    def uncharged(self):
        """Within it, this thread's reads of the checkpoint (and those of the threads
        that work for it) charge no processor time to it (:meth:`clock`): answers that
        another search computed, which an answer in pieces rests on without having
        cost it (a race read back from the race of an image of its part,
        :meth:`~optimal_mm.search_races.RivalRaces._raced_as`)."""
        return self._flagged("uncharged")

    def reading_only(self):
        """Within it, this thread only reads the checkpoint: a batch or stream with a
        task to compute raises :class:`NotSaved` before it starts any (threads
        beside are not started either: :attr:`only_reading`). For work worth doing
        only if it costs nothing, such as a tree whose parts a resumed run may hold
        (:meth:`~optimal_mm.search_races.RivalRaces._saved_lead_trees`)."""
        return self._flagged("reading")

    @property
    def only_reading(self) -> bool:
        """Whether this thread is within :meth:`reading_only`."""
        return getattr(self._local, "reading", False)

    def _session_halt(self) -> threading.Event:
        """The halt of the session this thread works for (a thread beside keeps the
        one of the session that started it)."""
        halt = getattr(self._local, "halt", None)
        return self._halt if halt is None else halt

    def processes(self) -> tuple[int, int]:
        """``(processes, helpers)`` on this machine, as :class:`~optimal_mm.memory.MemoryPlan`
        counts them: processes that run tasks (the parent included), dask nannies."""
        if self.backend == "dask":
            processes = 1 if self.scheduler else self.jobs + 1
            helpers = 0 if self.scheduler else self.jobs
            return processes, helpers
        if self.jobs > 1 and self.backend != "threading" or self.isolated:
            return self.jobs + 1, 0
        if self.apart is not None:  # the caller's state and the tasks' own, as two
            return 2, 0
        return 1, 0

    # -------------------------------------------------------------- session
    def prepare(self, common: tuple, checkpoint_dir=None, run_key: dict | None = None) -> None:
        """Start a session: the arguments every task gets first, and the checkpoint."""
        self.resumed = 0
        self._halt = threading.Event()
        self.common = tuple(common)
        self._apart = None if self.apart is None else self.apart()
        self.checkpoint = self.below = None
        self._from_below = set()
        if checkpoint_dir is not None:
            from .checkpoint import Checkpoint

            self.checkpoint = Checkpoint(checkpoint_dir, run_key)

    @contextlib.contextmanager
    def workers(self):
        """Around a session's batches: the dask client if any; workers ended on Ctrl-C."""
        try:
            if self.backend == "dask":
                self._connect()
            yield
        except KeyboardInterrupt:
            self._stop_workers()
            raise
        finally:
            self._disconnect()
            self._end_solo(kill=False)
            self._apart = None  # its tables freed, as a worker's were when it ended

    def _end_solo(self, kill: bool) -> None:
        """End the one-worker pool of an isolated session, if one was started."""
        solo, self._solo = self._solo, None
        if solo is not None:
            _end_pool(solo, kill)

    def _connect(self) -> None:
        """Open the dask client (and the local cluster when there is no scheduler)."""
        try:
            import distributed
        except ImportError:
            raise MissingDependencyError(
                "the dask backend needs dask.distributed, which is not installed: "
                "pip install 'optimal_mm[dask]'") from None
        if self.scheduler:
            try:
                self._client = distributed.Client(self.scheduler, timeout=30)
            except (OSError, TimeoutError) as exc:
                raise InvalidOptionError(
                    f"cannot reach the dask scheduler at {self.scheduler}: {exc}") from None

            def worker_ttl(dask_scheduler=None):  # runs on the scheduler (sent by value)
                return dask_scheduler.worker_ttl

            with contextlib.suppress(Exception):
                ttl = self._client.run_on_scheduler(worker_ttl)
                if ttl:
                    self.progress.message(
                        f"warning: the scheduler restarts a worker silent for {ttl:.0f} s, "
                        f"and a task longer than that holds its worker silent; start it "
                        f"with DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL=None (docs/LONG_RUNS.md)")
        else:
            import dask

            # See LOCAL_DASK_CONFIG: no worker time-to-live, no malloc trimming.
            with dask.config.set(LOCAL_DASK_CONFIG):
                self._cluster = distributed.LocalCluster(
                    n_workers=self.jobs, threads_per_worker=1, processes=True,
                    dashboard_address=None)
            self._client = distributed.Client(self._cluster)
        self.progress.message(f"dask: {self.width()} worker threads at "
                              f"{self._client.scheduler.address}")

    def _disconnect(self) -> None:
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        with contextlib.suppress(Exception):
            if client is not None:
                client.close()
        with contextlib.suppress(Exception):
            if cluster is not None:
                cluster.close()

    def _stop_workers(self) -> None:
        """After Ctrl-C: make sure no worker goes on computing for nothing (and no
        thread beside the caller's starts them again)."""
        self._halt.set()
        self._end_solo(kill=True)
        try:
            self._stop_pools()
        finally:
            if threading.current_thread() is threading.main_thread():
                for chain in list(self._besides):  # their waits end with the workers
                    chain.wait(BESIDE_STOP_SECONDS)

    def _stop_pools(self) -> None:
        """End the workers' pools (:meth:`_stop_workers`)."""
        if self.backend == "loky":
            # joblib aborts its own call; this also ends the pool it keeps for reuse.
            with contextlib.suppress(Exception):
                from joblib.externals.loky import reusable_executor

                executor = getattr(reusable_executor, "_executor", None)
                if executor is not None:
                    _end_pool(executor, kill=True)
        self._disconnect()

    def width(self) -> int:
        """How many tasks run at once."""
        if self._client is not None:
            return max(1, sum(self._client.nthreads().values()))
        return self.jobs

    # -------------------------------------------------------------- running
    def known(self, fn, arg_lists, count: bool = True):
        """Task keys and the results already in the checkpoint (``None`` where missing).

        Counted as resumed (and loaded) unless ``count`` is false: a look whose
        results may go unused."""
        if self.checkpoint is None:
            return [None] * len(arg_lists), [None] * len(arg_lists)
        with self._store:
            return self._known(fn, arg_lists, count)

    def _known(self, fn, arg_lists, count: bool):
        """:meth:`known`, under the checkpoint's lock."""
        from .checkpoint import task_key

        keys = [task_key(fn.__name__, args) for args in arg_lists]
        results = []
        for key in keys:
            result, cpu = self.checkpoint.get_timed(key, count)
            results.append(result)
            if count and cpu is not None and not getattr(self._local, "uncharged", False):
                self.read_seconds += cpu
                self._charge(cpu)
        # A task under another value of one argument (checkpoint.py, "Results under
        # another value").
        reuse = getattr(fn, "checkpoint_reuse", None)
        if reuse is not None:
            index, adapt = reuse
            for i, args in enumerate(arg_lists):
                if results[i] is None:
                    results[i] = self.checkpoint.reuse(
                        keys[i], index,
                        lambda result, ran, wanted=args[index]: adapt(result, ran, wanted),
                        count)
        # The same task without the cap, in the search without it: a lower bound
        # (bound_by)
        below = getattr(fn, "checkpoint_below", None)
        if below is not None and self.below is not None:
            for i, args in enumerate(arg_lists):
                if results[i] is None:
                    results[i] = below(args, self.below)
                    if results[i] is not None:  # kept as this run's own, untimed: a
                        # resumed run and a report need no other directory for it
                        self.checkpoint.put(keys[i], results[i])
                        self._from_below.add(self.checkpoint.path(keys[i]).name)
        if count:
            self.resumed += sum(r is not None for r in results)
        return keys, results

    def bound_by(self, checkpoint) -> None:
        """Read the answers of ``checkpoint`` (a :class:`~optimal_mm.checkpoint.Checkpoint`
        of the same search without the cap; None: none) as lower bounds of this
        session's tasks, where a task function says how (``fn.checkpoint_below(args,
        checkpoint)``, its answer or None: :func:`~optimal_mm.search_tasks._guess_below`).
        Only read, never written; an answer it gives is saved in this session's own
        checkpoint, without a timing (none was computed), and counts as resumed
        (read, not computed), and in :attr:`bounded`."""
        self.below = checkpoint

    @property
    def bounded(self) -> int:
        """How many tasks :meth:`bound_by`'s checkpoint settled this session."""
        return len(self._from_below)

    def clock(self) -> tuple[float, float]:
        """A mark to give :meth:`record` when a task's answer is begun in pieces: the
        processor seconds of the tasks finished or read back so far by this thread
        and those it waited for (:attr:`task_seconds` and :attr:`read_seconds` where
        the caller has no thread beside it: :meth:`beside`), and the wall clock."""
        tally = getattr(self._local, "tally", None)
        return (self._root if tally is None else tally)[0], time.time()

    def record(self, fn, args, result, since: tuple[float, float] | None = None) -> None:
        """Save ``result`` as the result of the task ``fn(*common, *args)``, computed
        another way (a chain of smaller tasks whose answer is the task's own: search,
        ``Solver._second_guess_rounds``), so that a later run asks for it as one task
        or reads it back either way.

        ``since``, the :meth:`clock` of when the pieces began: the entry keeps their
        processor seconds in all, those computed here and those read back, as a
        timing marked ``pieces`` (:func:`~optimal_mm.checkpoint.task_timing`), so that
        a report prices a rival by the chains already settled (p6c7nb's rivals of
        the 1,854 secrets, each over an hour of tasks mostly too short to be saved,
        were priced at a part tree of 70 minutes). Below ``min_save_seconds``, not
        saved, as a task of that time would not be (its pieces are computed again
        when asked for). Without a checkpoint, nothing to do."""
        seconds = None if since is None else self.clock()[0] - since[0]
        if self.checkpoint is None or (seconds is not None
                                       and seconds < self.min_save_seconds
                                       and not _always_saved(fn, args)):
            return
        from .checkpoint import task_key, task_timing

        timing = None if since is None else task_timing(
            time.time() - since[1], seconds, time.time(), pieces=True)
        with self._store:
            self.checkpoint.put(task_key(fn.__name__, args), result, timing)

    def execute(self, fn, arg_lists, indices, keys, sink, cost=None) -> None:
        """Compute the tasks ``indices``, calling ``sink(i, result)`` as each finishes.

        Each result is saved to the checkpoint (in this process) before anything else
        happens to it, and counted as progress. With ``cost`` (a function of a task's
        arguments, larger for a longer task), workers take the costliest tasks first:
        a long task dispatched last would keep one worker busy while the others idle
        (longest-processing-time-first scheduling). The order changes when results
        arrive, never what they are, and in-process tasks keep the batch's order.
        """
        if not indices:
            return
        if self.only_reading:
            raise NotSaved(f"{len(indices)} {fn.__name__} task(s) not in the checkpoint")

        def finished(i, result, timing):
            self._save(lambda: keys[i], result, timing, _always_saved(fn, arg_lists[i]))
            sink(i, result)
            self.progress.advance()

        here = self._client is None and not self.isolated
        if here and (self.jobs == 1 or len(indices) == 1):
            self._compute_here(fn, ((i, arg_lists[i]) for i in indices), finished)
        elif self._client is None and self.isolated and self.jobs == 1:
            self._execute_in_one_worker(fn, ((i, arg_lists[i]) for i in indices), finished)
        else:
            if cost is not None:
                indices = sorted(indices, key=lambda i: -cost(arg_lists[i]))
            self._dispatch(fn, ((i, arg_lists[i]) for i in indices), finished, ahead=True)

    def stream(self, fn, tasks, sink) -> None:
        """Compute the tasks the iterator ``tasks`` yields (argument tuples), each drawn
        only when a worker is free to start it, calling ``sink(args, result)`` in this
        thread as each finishes (saved to the checkpoint first, counted as progress;
        ``args`` is the very object yielded).

        A batch (:meth:`run`, :meth:`execute`) fixes every task before the first
        starts, so a caller that wants a task's arguments to follow the results of
        the tasks before it (a rival's budget: the best total so far) would run
        batches of one task per worker, and every worker would wait for the slowest
        task of each batch (as the search did until 2026-11-27: on two workers, the
        rival second guesses of a long search kept about 70% of the processor busy).
        A stream draws the next task as soon as a worker is free, from whatever the
        results handed to ``sink`` so far have taught the caller. The price: which
        arguments a task gets depends on which tasks finished first, so the caller
        must make its *answer* independent of that order
        (``search.Solver._second_guess_rounds`` does), and a checkpoint must
        answer a task under other arguments where it can ("Results under another
        value" in :mod:`optimal_mm.checkpoint`).

        With one job in this process, drawing, computing and handing on strictly
        alternate, as a batch of one at a time would. Otherwise ``tasks`` may be
        drawn in one of joblib's threads while this one runs ``sink``: what the two
        share needs a lock. The checkpoint is not looked up here: a caller that may
        find a task there does so while drawing it (:meth:`known`), and yields only
        what must be computed.
        """
        drawn: dict = {}
        context = self._context()
        if self.only_reading:  # the first task drawn is one to compute
            tasks = iter(tasks)
            first = next(tasks, None)
            if first is not None:
                raise NotSaved(f"a {fn.__name__} task not in the checkpoint")

        def items():
            # Drawn by whichever thread joblib pulls with (this one, or one it shares
            # between the streams of threads beside): each draw's look-ups are charged
            # to this thread (:meth:`clock`), its count to this thread's display.
            tasks_left, i = iter(tasks), 0
            while True:
                self._enter(context)
                args = next(tasks_left, None)
                if args is None:
                    return
                drawn[i] = args
                yield i, tuple(args)
                i += 1

        def finished(i, result, timing):
            args = drawn.pop(i)
            from .checkpoint import task_key

            self._save(lambda: task_key(fn.__name__, args), result, timing,
                       _always_saved(fn, args))
            sink(args, result)
            self.progress.advance()

        if self._client is None and not self.isolated and self.jobs == 1:
            self._compute_here(fn, items(), finished)
        elif self._client is None and self.isolated and self.jobs == 1:
            self._execute_in_one_worker(fn, items(), finished)
        else:
            self._dispatch(fn, items(), finished, ahead=False)

    def _save(self, key_of, result, timing, always: bool = False) -> None:
        """Save one finished task's result and timing, if there is a checkpoint (and
        it took ``min_save_seconds`` or more, or is ``always`` saved); count its
        processor time. ``key_of()`` gives the task's key, made only for a task
        saved: most tasks of a long run are too short to be, and a key hashes every
        array the task was given (p4c10nb's consistent chains: 1 % of their time, ``py-spy``)."""
        self.task_seconds += timing[1]
        self._charge(timing[1])
        cp = self.checkpoint
        if cp is None or (timing[1] < self.min_save_seconds and not always):
            return
        from .checkpoint import task_timing

        key = key_of()
        with self._store:
            unsaved = cp.unsaved
            cp.put(key, result, task_timing(*timing))
        if cp.unsaved and not unsaved:
            self.progress.message(f"warning: checkpoint entries cannot be written "
                                  f"({cp.unsaved_reason}); going on without saving them")

    def _compute_here(self, fn, items, finished) -> None:
        """The tasks ``items`` (``(index, args)`` pairs) in this process, in order,
        each inside the session's context manager ``apart`` makes, if any."""
        apart = self._apart
        for i, args in items:
            if apart is None:
                finished(i, *_timed_call(fn, self.common + tuple(args)))
                continue
            with apart:
                done = _timed_call(fn, self.common + tuple(args))
            finished(i, *done)

    def _dispatch(self, fn, items, finished, ahead: bool) -> None:
        """The tasks ``items`` (``(index, args)`` pairs, drawn lazily) on the joblib
        pool or the dask cluster, ``finished(i, result, timing)`` called in this
        thread as each arrives. ``ahead``: a loky or threading worker holds one task
        queued behind the one it runs (no idle gap between tasks); a stream's tasks
        are drawn only when a worker is free (their arguments may wait on results).
        """
        from joblib import Parallel, delayed, parallel_config

        halt = self._session_halt()
        if halt.is_set():  # a thread beside a session that Ctrl-C ended
            raise SessionHalted("the session's workers were stopped")
        if self._client is None and self.backend == "loky":
            self._dispatch_to_pool(fn, items, finished, ahead, halt)
            return
        common = self.common
        queued = "2 * n_jobs" if ahead else "n_jobs"
        if self._client is not None:
            config = parallel_config(backend="dask", client=self._client)
            n_jobs = self.width()
            # One task per worker thread at a time: the compiled search holds the GIL,
            # so a worker cannot send a result back while it runs a queued next task.
            queued = "n_jobs"
        elif self.backend == "loky":
            config = parallel_config(backend="loky", initializer=_worker_start,
                                     initargs=(os.getpid(),))
            n_jobs = self.jobs  # a steady pool keeps its workers' tables warm
        else:
            config = parallel_config(backend=self.backend)
            n_jobs = self.jobs
        pid = os.getpid()
        failures = _worker_failures()
        _quiet_loky_respawn()

        def until_halted():  # drawn by joblib, maybe after Ctrl-C ended the workers
            for i, args in items:
                if halt.is_set():
                    return
                yield delayed(_remote)(fn, i, pid, common + tuple(args))

        with config:
            try:
                with _sigint_blocked():  # the first dispatch starts the workers
                    results = Parallel(n_jobs=n_jobs, batch_size=1, pre_dispatch=queued,
                                       return_as=_return_as())(until_halted())
            except failures as exc:
                raise self._lost(exc) from None
            try:
                while True:
                    try:
                        i, result, timing = next(results)
                    except StopIteration:
                        break
                    except failures as exc:
                        raise self._lost(exc) from None
                    finished(i, result, timing)
            finally:
                # Ends the workers' current tasks if we leave early (Ctrl-C).
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    results.close()

    def _dispatch_to_pool(self, fn, items, finished, ahead: bool, halt) -> None:
        """:meth:`_dispatch` on the loky pool that joblib keeps for reuse, its tasks
        submitted to it directly.

        joblib's ``Parallel`` starts each batch by setting up, and ends it by
        tearing down, a folder for arrays to share with the workers: about 11 ms
        a batch on a 2-core VM, against 0.5 ms for a task submitted to the pool and
        its result read back, and an ``atexit`` callback or two left registered by
        each call. A long search of chains runs batches of a task or two by the
        ten thousand (p5c6b's race: 27 % of its parent's samples ended in joblib's
        clean-up, on a list of callbacks that kept growing). The tasks' arrays are
        small (the sets of secrets), so nothing is lost by sending them whole.

        The workers never leave for idleness (``timeout=None``; loky's own default
        is 10 s, joblib's 300 s): a worker that left would take its warm tables with
        it, and loky starts its replacement in the thread that submits next, which
        may be a thread beside (:meth:`beside`) that ends soon after, and a worker
        dies with the *thread* that started it (``PR_SET_PDEATHSIG``,
        :func:`~optimal_mm.workers._worker_start`): p5c6b's race lost a worker so 7 minutes in, the
        run ended by :class:`~optimal_mm.errors.WorkerLostError`.

        ``width`` tasks are in flight at once (twice the jobs ``ahead``, else one per
        worker: a stream's next task is drawn only when a worker is free), results
        handed to ``finished`` in this thread as they come; leaving early (Ctrl-C,
        an error) cancels the tasks not yet started (:meth:`_stop_workers` ends the
        rest), and a task is never submitted once ``halt`` is set.
        """
        from concurrent.futures import FIRST_COMPLETED, wait

        from joblib.externals.loky import get_reusable_executor

        pid = os.getpid()
        failures = _worker_failures()
        _quiet_loky_respawn()
        width = (2 if ahead else 1) * self.jobs
        source, pending, drawn_all = iter(items), set(), False
        try:
            pool = _started(lambda: get_reusable_executor(
                max_workers=self.jobs, timeout=None, initializer=_worker_start,
                initargs=(pid,)))
            while True:
                while not drawn_all and len(pending) < width:
                    item = None if halt.is_set() else next(source, None)
                    if item is None:
                        drawn_all = True
                        break
                    i, args = item
                    with _sigint_blocked():  # (a pool restarted by loky starts here)
                        pending.add(pool.submit(_remote, fn, i, pid,
                                                self.common + tuple(args)))
                if not pending:
                    return
                done, pending = wait(pending, timeout=TICK_SECONDS,
                                     return_when=FIRST_COMPLETED)
                if not done:
                    self.progress.tick()
                for future in done:
                    finished(*future.result())
        except failures as exc:
            raise self._lost(exc) from None
        finally:
            for future in pending:
                future.cancel()

    def _execute_in_one_worker(self, fn, items, finished) -> None:
        """An isolated session's tasks with one job: computed in order by one loky
        worker while this process waits (module docstring, "Isolated sessions").

        joblib runs ``n_jobs=1`` in the caller, so the worker is the session's own
        loky executor (ended with the session, or killed by :meth:`_stop_workers`),
        started with the initializer of joblib's workers here: Ctrl-C ignored, death
        with the parent. One worker computes the tasks (``(index, args)`` pairs) in
        the order they are submitted, so they finish, are saved and are handed on in
        that order, as in-process.
        """
        from joblib.externals.loky import ProcessPoolExecutor

        pid = os.getpid()
        failures = _worker_failures()
        future = None
        try:
            for i, args in items:
                # One task at a time: with tasks queued behind the running one, loky's
                # shutdown on Ctrl-C races its manager thread (a KeyError there, or,
                # with the queued ones cancelled first, a worker never killed and a
                # command that hung at exit until the task ended).
                if self._solo is None:
                    self._solo = _started(lambda: ProcessPoolExecutor(
                        max_workers=1, initializer=_worker_start, initargs=(pid,)))
                future = self._solo.submit(_remote, fn, i, pid, self.common + tuple(args))
                finished(*self._ticking(future))  # a wait, which Ctrl-C interrupts
        except failures as exc:
            raise self._lost(exc) from None
        finally:
            if future is not None and not future.done():  # leaving early: Ctrl-C
                self._end_solo(kill=True)

    def _ticking(self, future):
        """``future.result()``, the progress display ticked every :data:`TICK_SECONDS`
        of the wait."""
        from concurrent.futures import wait

        while not wait((future,), timeout=TICK_SECONDS).done:
            self.progress.tick()
        return future.result()

    def _lost(self, exc: BaseException) -> WorkerLostError:
        """The one-line error for a dead worker or a broken pipe to the workers."""
        if isinstance(exc, (BrokenPipeError, EOFError)):
            what = f"the pipe to the worker processes broke ({exc.__class__.__name__})"
        else:
            # loky says which signal ended the worker; keep its first sentence.
            detail = str(exc).split(". ")[0].strip()
            what = f"a worker process died ({detail or exc.__class__.__name__})"
            if "SIGKILL" in str(exc) or "-9" in str(exc):
                what += ", perhaps killed by the out-of-memory killer"
        with contextlib.suppress(Exception):
            self._stop_workers()
        cp = self.checkpoint
        if cp is None:
            return WorkerLostError(f"{what}; nothing was saved (--checkpoint DIR makes a long "
                                   f"search resumable)")
        n = cp.loaded + cp.stored
        return WorkerLostError(f"{what}; {n} task{'' if n == 1 else 's'} saved in "
                               f"{str(cp.directory)!r}: rerun the same command to resume "
                               f"(with fewer --jobs or a --memory-limit if memory ran out)")

    def run(self, fn, arg_lists, label: str | None = None, on_result=None, cost=None):
        """Run tasks (each a tuple of arguments after the common ones), results in order.

        With ``label``, the batch is a progress phase. ``on_result(i, result)`` is
        called for each task read back or finished, in the order they come. ``cost``:
        see :meth:`execute`.
        """
        keys, results = self.known(fn, arg_lists)
        missing = [i for i, r in enumerate(results) if r is None]
        if label is not None:
            self.progress.phase(label, len(arg_lists), len(arg_lists) - len(missing))

        def sink(i, result):
            results[i] = result
            if on_result is not None:
                on_result(i, result)

        if on_result is not None:
            for i, r in enumerate(results):
                if r is not None:
                    on_result(i, r)
        self.execute(fn, arg_lists, missing, keys, sink, cost)
        return results
