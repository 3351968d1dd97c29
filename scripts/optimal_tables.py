#!/usr/bin/env python3
"""Tables of proven optima for every small game; writes results/optimal_{table}.{json,md}.

For every game with at most ``--max-codes`` codes (pegs 2..8, colours 2..10, with
and without repeats, black-white and black-only scoring) and both guess rules
(any, consistent), solve exactly for the worst case (``t*``) and the expected case
(least total), each in a forked worker process with a time limit. Two more columns
build on those: ``fewest-at-worst`` (the fewest secrets that need ``t*`` guesses) for
every entry whose worst case is solved, and ``worst-then-expected`` (the least total
within ``t*`` guesses) for every entry whose optimal expected tree needs more than
``t*`` guesses (elsewhere it is the total itself). Every value is proven by the
project's own search; where a published value exists (shared/REFERENCE.md) the
table says whether it agrees. A ``fewest-at-worst`` entry takes its worst-case
entry's ``t*`` as its cap rather than searching the worst case again, and its search
proves that ``t*`` on its way (:func:`table_entries.cap_for`).

Long runs lose no finished work: each result is written to the JSON file (atomically)
as soon as it is known, and a rerun skips what is already there (``--redo`` to
recompute). Runs may share the table (an entry of hours beside a batch of short
ones, on other cores): each result is merged, under a lock, into the table as it is
then (:func:`table_store.update_table`). Usage::

    python scripts/optimal_tables.py --time-limit 600        # the full tables
    python scripts/optimal_tables.py --max-codes 500 --time-limit 30   # a quick pass
    python scripts/optimal_tables.py --time-limit 60 \
        --objectives fewest-at-worst worst-then-expected        # the two later columns

An entry that needs more than one sitting runs with ``--checkpoint DIR``: its finished
tasks are saved under ``DIR/<spec>-<objective>[-consistent]`` as it goes (a timeout
kills the worker, never a saved task), and a retry reads them back, so an entry may
take several limits, or sessions, to finish (``--retry-timeouts --checkpoint DIR``).
A run of ``optimal-mm solve SPEC --objective OBJ --guesses G --checkpoint D`` is the
same search: an entry resumes from ``D`` moved to its name. The table marks the time
of such an entry as that of its last sitting. ``--jobs N`` gives each entry's search
N worker processes (one long entry on every core; its time is then the wall time of
N workers, which the run's paragraph says).

An entry that times out still says what its search had proven when it was stopped
(every objective): the proven lower bound (``>= L``; for the worst case, one more than
the last depth refuted) and, for the others, the best complete tree found (``<= U``:
its total, its secrets at t*, or its total within t*), as the search
reported them to its progress display (:func:`_bounds_progress`). The worker's search
stops itself at the limit and writes that best tree, which becomes the cell's upper
tree (``results/trees/upper/``, listed in ``results/upper_trees.md``:
:func:`upper_index.keep_run_tree`) when the table's ``<= U`` is its figure, so that
every bound has its tree, from the run that found it. A retry keeps the
best bounds of all its runs (each is a proof on its own) and the longest time limit
it was given. A run stopped before its limit (Ctrl-C, or SIGTERM from a service
manager or a CI limit) records its running entries the same way, marked
``"stopped"`` (``interrupted`` or ``terminated``) with the seconds they ran, each
worker asked to stop and hand over its tree first (:meth:`Entry.halt`), and ends in
one line (exit status 130 or 143); an entry that was solved stays solved.

The table's parts are modules of their own beside this script: :mod:`table_entries`
(the cells and the rules between them), :mod:`table_store` (the JSON and its page on
disk, under a lock) and :mod:`table_page` (the Markdown page). This script runs the
cells: each in a spawned worker process (:class:`Entry`, :func:`_worker`) under its
time limit, its result merged into the table as it comes (:func:`_record`).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import multiprocessing as mp
import os
import platform
import shlex
import signal
import sys
import tempfile
import time
from pathlib import Path
from queue import Empty

from table_entries import (OBJECTIVES, cap_for, ceiling_for, ceiling_record,
                           checkpoint_dir, eligible, floor_checkpoint, floor_for,
                           floor_tree, games, merged_entry, published, shown)
import table_store
from table_store import read_entries, update_table
from upper_index import TREE_OBJECTIVES, keep_run_tree, tree_name

#: How the script's one-line messages name it
PROG = "optimal_tables.py"


def _at_cap(value):
    """What a ``fewest-at-worst`` search's progress value says of the entry: the
    secrets at the cap of a :class:`~optimal_mm.search.CappedCost` (the capped search's
    bound or best tree), nothing for a plain number (the depths of the worst-case
    search that comes first, which bound t*, not the entry)."""
    from optimal_mm.search import CappedCost

    return value.at_cap if isinstance(value, CappedCost) else None


def _bounds_progress(queue, objective="expected"):
    """A :class:`~optimal_mm.progress.Progress` that sends each new best and bound to
    ``queue`` as ``{"partial": True, "best": ..., "bound": ...}``, for :class:`Entry`
    to keep in case the entry times out. The search reports, per objective:

    * worst case: ``bound`` the counting bound, then one more than each depth refuted;
      ``best`` the depth found feasible (the entry is then solved);
    * expected: ``bound`` the least first-guess bound, rising as first guesses are
      refuted or solved, and as the parts of the one being solved are learnt
      (docs/SEARCH.md, "The bound a run reports"); ``best`` the total of the best
      complete tree so far;
    * fewest-at-worst: the same two for the capped search's cost, read as the
      secrets at the cap (:func:`_at_cap`): at least ``bound``, at most ``best``;
    * worst-then-expected: the expected search's two, once the worst case that comes
      first (its depths bound t*, not the entry) has ended: the search resets its
      progress as each of the two begins.
    """
    from optimal_mm.progress import Progress

    class Bounds(Progress):
        def __init__(self):
            self.best = self.bound = None
            self.phases = 0  # searches begun (each resets the progress)

        def reset(self):
            self.phases += 1
            self.best = self.bound = None

        def read(self, value):
            if value is None:
                return None
            if objective == "worst-then-expected":
                return value if self.phases >= 2 else None
            if objective != "fewest-at-worst":
                return value
            # A bound of 0 secrets says nothing (some secret needs all t* guesses in
            # every tree whose worst case is t*): the black-only roots report it for long.
            return _at_cap(value) or None

        def update(self, best=None, bound=None):
            best, bound = self.read(best), self.read(bound)
            if best is None and bound is None:
                return
            if best is not None:
                self.best = best
            if bound is not None:
                self.bound = bound
            queue.put({"partial": True, "best": self.best, "bound": self.bound})

    return Bounds()


def _progress(queue, key, interval=None):
    """The progress of entry ``key``'s search: its bounds sent to ``queue``
    (:func:`_bounds_progress`) and, with an ``interval``, log lines on stderr, each
    after the key (at most one line a phase every ``interval`` seconds, as
    ``optimal-mm solve --progress-interval`` writes them), so that a run of hours
    shows what it is doing.

    >>> import queue, sys
    >>> type(_progress(queue.Queue(), "p3c4/any/expected")).__name__
    'Bounds'
    >>> [type(d).__name__ for d in _progress(queue.Queue(), "p3c4/any/expected", 30).displays]
    ['Bounds', 'LogProgress']
    """
    from optimal_mm.progress import LogProgress, TeeProgress

    bounds = _bounds_progress(queue, key.rsplit("/", 1)[1])
    if interval is None:
        return bounds
    return TeeProgress(bounds, LogProgress(sys.stderr, interval, prefix=f"{key} "))


def _worker(spec, objective, guesses, checkpoint, queue, split_secrets=None, wc_tree=None,
            chain_secrets=None, jobs=1, floor=None, min_seconds=None, progress_interval=None,
            cap=None, split_depth=None, table_entries=None, ceiling=None, deadline=None,
            best_tree=None):
    """Solve one entry and put its result on ``queue`` (its bounds so far as the
    search reports them, before); with ``progress_interval``, the search's progress
    goes to stderr too, each line after the entry's key (:func:`_progress`).
    ``cap``: :func:`table_entries.cap_for`'s ``(t*, key)``, the cap given to
    ``fewest-at-worst``; ``table_entries``: each search process's transposition table
    (None: ``solve``'s default); ``ceiling``: :func:`table_entries.ceiling_for`'s
    ``(path, figure)``, the tree the search starts from as its best so far. The
    tuning options left None take ``solve``'s defaults
    (:mod:`optimal_mm.cli.search_options`). ``floor``: :func:`table_entries.floor_for`'s
    ``(value, key)``, with that entry's tree where it has one; with a ``checkpoint``,
    that entry's directory there too, if it has one under the same guess rule: its
    rivals' answers bound this capped entry's from below (``LowerBound.checkpoint``).

    ``deadline`` (a :func:`time.time`): the search stops itself then, as ``solve
    --time-limit`` does, or on SIGTERM (:meth:`Entry.halt`), and the result is
    ``{"status": "timeout"}``; with ``best_tree`` (a path), the best complete tree it
    had built goes there first, if it beats ``ceiling`` (:func:`_at_the_limit`), and
    the result names it and its figure (``best``)."""
    from optimal_mm import Game, Strategy
    from optimal_mm.cli import Terminated, on_sigterm
    from optimal_mm.errors import TimeLimitReached
    from optimal_mm.search import LowerBound, Solver, UpperBound, solve
    from optimal_mm.stopping import time_limit

    # Load the compiled search (JIT cache) first, so that only the search is timed.
    solve(Game.from_spec("p2c3"), objective, guesses, jobs=1)
    options = {"jobs": jobs,
               "progress": _progress(queue, f"{spec}/{guesses}/{objective}",
                                     progress_interval)}
    if checkpoint:
        options["checkpoint"] = checkpoint_dir(checkpoint, spec, guesses, objective)
        if min_seconds is not None:
            options["checkpoint_min_seconds"] = min_seconds
    if split_secrets is not None:
        options["split_secrets"] = split_secrets
    if split_depth is not None and objective != "expected":
        options["split_depth"] = split_depth
    if wc_tree is not None and objective == "worst-case":
        options["wc_tree"] = wc_tree
    if chain_secrets is not None and objective != "worst-case":
        options["chain_secrets"] = chain_secrets
    if table_entries is not None:
        options["table_entries"] = table_entries
    source = f"the optimum of {floor[1]} in results/optimal_table.json" if floor else None
    below = (floor_checkpoint(checkpoint, floor[1], guesses)  # its answers bound this
             if floor is not None and checkpoint else None)      # entry's rivals
    if floor is not None and len(floor) > 2:  # with that entry's optimal tree
        bound = LowerBound.from_tree(Strategy.load(floor[2]), f"{source}, its tree "
                                     f"{shown(floor[2])}",
                                     Game.from_spec(spec), guesses, checkpoint=below)
    else:
        bound = None if floor is None else LowerBound(floor[0], source, checkpoint=below)
    given = (None if ceiling is None
             else UpperBound(Strategy.load(ceiling[0]), shown(ceiling[0])))
    solver = Solver(Game.from_spec(spec), guesses, **options)
    left = None if deadline is None else deadline - time.time()
    start = time.perf_counter()
    previous = signal.signal(signal.SIGTERM, on_sigterm)  # the run's halt: as the limit
    try:
        if left is not None and left <= 0:
            raise TimeLimitReached(0)
        with contextlib.nullcontext() if left is None else time_limit(left):
            sol = solver.solve(objective, None if cap is None else cap[0], bound, given)
    except (TimeLimitReached, Terminated):
        queue.put(_at_the_limit(solver, best_tree, ceiling))
        return
    finally:
        signal.signal(signal.SIGTERM, previous)
    seconds = time.perf_counter() - start
    if cap is not None and not sol.value:  # None: no tree within t*; 0: one within t* - 1
        why = ("no tree keeps within it" if sol.value is None
               else f"a tree keeps within {cap[0] - 1} guesses")
        raise ValueError(f"{spec}/{guesses}/{objective}: {cap[1]}'s {cap[0]} is not the "
                         f"optimal worst case: {why}")
    stats = sol.strategy.validate() if sol.strategy else None
    result = {"value": sol.value, "seconds": round(seconds, 3),
              "tree_total": stats.total if stats else None,
              "tree_max": stats.max if stats else None,
              "first_guess": sol.strategy.root.guess if sol.strategy else None,
              "states": sol.stats.states, "resumed_tasks": sol.resumed or None,
              "wc_tree": options.get("wc_tree")}
    if cap is not None:  # proven again by the search: the tree, secrets at the cap
        result["cap"] = {"value": cap[0], "entry": cap[1]}
    if ceiling is not None:  # the best so far it started from
        result["ceiling"] = ceiling_record(ceiling)
    # What the proof may rest on: a total that meets the floor (the search may have
    # stopped there), or any part's race stopped at its own floor (from the tree)
    if floor is not None and (sol.value == floor[0] or len(floor) > 2):
        result["floor"] = {"value": floor[0], "entry": floor[1]}
        if len(floor) > 2:
            result["floor"]["tree"] = shown(floor[2])
    queue.put(result)


def _at_the_limit(solver, best_tree, ceiling) -> dict:
    """The result of a worker whose search its ``deadline`` (or SIGTERM) stopped: a
    timeout (the bounds its search had proven are the partial reports before it). With
    ``best_tree`` (a path), the best complete tree the search had built
    (:meth:`~optimal_mm.search.Solver.best_so_far`) is written there and named
    (``"best_tree"``), unless it is none better than ``ceiling``, the tree it started
    from (``(path, figure)``, already on file): the run's ``<= U`` then has its tree,
    where a worker killed at its limit took it along (p6c7n's expected case once
    kept a bound of 29163 over a tree of 29154 built in its run, until a resumed
    run rebuilt it). Nothing is written on the way there that a kill would leave
    half done (:meth:`~optimal_mm.tree.Strategy.save` writes atomically)."""
    from upper_index import figures

    result = {"status": "timeout"}
    best = None if best_tree is None else solver.best_so_far()
    value = None if best is None else figures(best, best.declared)["value"]
    if value is not None and (ceiling is None or value < ceiling[1]):
        best.save(best_tree, stats=best.declared)
        result.update(best=value, best_tree=str(best_tree))
    return result


class Entry:
    """One table entry solved in its own spawned worker process, within a time limit."""

    #: Seconds past its limit that a worker is given to stop itself (its search
    #: stopped at the deadline) and write its best tree, before it is killed.
    GRACE = 60

    def __init__(self, key, spec, objective, guesses, time_limit, checkpoint=None,
                 **options):
        """``options``: :func:`_worker`'s keywords (``jobs``, ``floor``, ...). The
        worker's search stops itself at the limit (``deadline``); an entry of an
        expected-type objective has its best tree written to a scratch file then
        (``best_tree``), for :func:`_record` to keep or drop."""
        self.key, self.time_limit = key, time_limit
        options["deadline"] = time.time() + time_limit
        if objective in TREE_OBJECTIVES:
            options["best_tree"] = str(Path(tempfile.gettempdir()) / (
                f"optimal_tables-{os.getpid()}-{tree_name(key)}"))
        ctx = mp.get_context("spawn")  # fork is unsafe once numba has started threads
        self.queue = ctx.Queue()
        # daemon: a worker never outlives this script (Ctrl-C or an error here kills
        # it). A daemon process may not start processes of its own (joblib then runs
        # one job), so a worker of several jobs is not one: main() kills it on the
        # way out instead (:meth:`stop`).
        self.proc = ctx.Process(target=_worker,
                                args=(spec, objective, guesses, checkpoint, self.queue),
                                kwargs=options, daemon=options.get("jobs", 1) == 1)
        self.start = time.perf_counter()
        self.bounds = {}
        self.ceiling = options.get("ceiling")
        # Started with Ctrl-C ignored, which it keeps (a terminal sends Ctrl-C to the
        # whole process group): this run's process decides, as the search's own
        # workers leave it to theirs (:meth:`halt`).
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            self.proc.start()
        finally:
            signal.signal(signal.SIGINT, previous)

    def stop(self) -> None:
        """Kill the worker if it still runs (its finished tasks are in its checkpoint)."""
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()

    def poll(self):
        """The result once known (a timeout or an error included), else None.

        The limit counts from the start of the process, start-up and the warm-up (a
        second or two) included: the worker's search stops itself then and says so,
        with its best tree's file if it wrote one (``"best_tree"``). One that has
        not within :attr:`GRACE` seconds more is killed, a timeout all the same.
        The worker's partial reports (best and bound so far) are kept and go into a
        timeout's result.
        """
        result = self._read(timeout=0.2)
        elapsed = time.perf_counter() - self.start
        if (result is None and self.proc.is_alive()
                and elapsed < self.time_limit + self.GRACE):
            return None
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        if result is None:
            status = "timeout" if self.proc.exitcode in (None, -9) else "error"
            return self._unfinished(status, elapsed)
        if result.get("status") == "timeout":  # stopped at its limit
            return {**self._unfinished("timeout", elapsed), **result}
        result["status"] = "solved"
        return result

    def halt(self, why: str) -> dict:
        """The result of an entry whose run is stopped before its limit (``why``:
        ``"interrupted"`` by Ctrl-C, ``"terminated"`` by SIGTERM): what its search
        had proven, as a timeout's, marked ``"stopped": why``; or its result, had it
        just finished. The worker is asked to stop (SIGTERM: its search stops as at
        its limit, and writes its best tree, which the result names) and given
        :attr:`GRACE` seconds, then killed (its finished tasks are in its
        checkpoint)."""
        elapsed = time.perf_counter() - self.start
        result = self._read()
        if result is None and self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(timeout=self.GRACE)
            result = self._read(timeout=1)
        self.stop()
        if result is None or result.get("status") == "timeout":
            return {**self._unfinished("timeout", elapsed), **(result or {}), "stopped": why}
        result["status"] = "solved"
        return result

    def _read(self, timeout=None):
        """The worker's result if it has come, else None; its partial reports (best
        and bound so far) read on the way are kept. With a ``timeout``, each read
        waits up to that many seconds for an item; without, it takes only those
        already there."""
        while True:
            try:
                item = (self.queue.get(timeout=timeout) if timeout
                        else self.queue.get_nowait())
            except Empty:
                return None
            if not item.pop("partial", False):
                return item
            self.bounds = item

    def _unfinished(self, status, elapsed) -> dict:
        """The result of a run that did not end: an error, or a timeout with the
        bounds its search had sent and the tree it started from."""
        result = {"status": status, "seconds": round(elapsed, 1)}
        if status == "timeout":
            result.update({k: v for k, v in self.bounds.items() if v is not None})
            if self.ceiling is not None:
                result["ceiling"] = ceiling_record(self.ceiling)
        return result


def _command(argv) -> str:
    """The command line of this run as a shell would take it, less the remarks (the
    table prints them apart)."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--note", "--run-note"):
            skip = True
        elif not arg.startswith(("--note=", "--run-note=")):
            kept.append(arg)
    return shlex.join(["python", "scripts/optimal_tables.py", *kept])


def build_parser() -> argparse.ArgumentParser:
    """The script's command line (:func:`main`; :func:`resume_command` reads the
    runs the table recorded with it)."""
    from optimal_mm.cli.search_options import add_tuning_options

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--render", action="store_true",
                        help="solve nothing: refresh every entry's published value and source "
                             "from published() and rewrite the markdown from the JSON")
    parser.add_argument("--max-codes", type=int, default=5000)
    parser.add_argument("--time-limit", type=float, default=600)
    parser.add_argument("--objectives", nargs="*", choices=OBJECTIVES,
                        default=["worst-case", "expected"],
                        help="fewest-at-worst and worst-then-expected run only where they "
                             "belong (see eligible), after the entries they build on")
    parser.add_argument("--guesses", nargs="*", default=["any", "consistent"])
    parser.add_argument("--only", nargs="*", help="only these specs")
    parser.add_argument("--redo", action="store_true", help="recompute entries already present")
    parser.add_argument("--note", help="a remark printed above the table (e.g. on machine load)")
    parser.add_argument("--run-note", help="a remark on this run (not the first), printed "
                                          "with its command and time limit")
    parser.add_argument("--retry-timeouts", action="store_true",
                        help="recompute entries that timed out (e.g. with a longer limit)")
    parser.add_argument("--parallel", type=int, default=1,
                        help="entries solved at a time, each in its own process (default 1)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="worker processes of each entry's search (optimal-mm solve "
                             "--jobs; default 1): one long entry on every core, its "
                             "time the wall time of N workers")
    parser.add_argument("--retry-errors", action="store_true",
                        help="recompute entries whose worker failed")
    parser.add_argument("--checkpoint", metavar="DIR",
                        help="save each entry's finished tasks under DIR/<spec>-<objective>"
                             "[-consistent] and resume from them (an entry may then span "
                             "several runs)")
    tuning = parser.add_argument_group(
        "search tuning", "passed on to each entry's search as optimal-mm solve takes them: "
                         "only those given, each to the objectives it applies to")
    add_tuning_options(tuning, defaults=False)
    parser.add_argument("--progress-interval", type=float, metavar="SECONDS",
                        help="write each entry's search progress to stderr, every line "
                             "after the entry's key, at most one line a phase every "
                             "SECONDS (optimal-mm solve --progress-interval; default: "
                             "none, the table's lines only)")
    return parser


#: What chose a run's own cells besides those a resume command sets (``--only``,
#: ``--guesses``, ``--objectives``, ``--max-codes``), and its remarks: a resume
#: command leaves them at their defaults.
_RUN_ONLY = ("redo", "retry_errors", "render", "note", "run_note", "parallel")


@functools.lru_cache(maxsize=None)
def _recorded_options(command: str) -> dict | None:
    """The options of a run the table recorded, parsed once however many cells ask
    (None: a command of an older version of the script, or not a command at all)."""
    try:  # quietly: argparse writes its refusal to stderr before SystemExit
        words = shlex.split(command)[2:]  # after "python scripts/optimal_tables.py"
        with contextlib.redirect_stderr(io.StringIO()):
            return vars(_parser().parse_args(words))
    except (SystemExit, ValueError):
        return None


_parser = functools.lru_cache(maxsize=None)(build_parser)


def _covers(args, spec: str, guesses: str, objective: str) -> bool:
    """Whether the run of the parsed command ``args`` took the cell (had it open)."""
    specs = args.only if args.only is not None else games(args.max_codes)
    return (spec in specs and guesses in args.guesses and objective in args.objectives
            and not args.render)


def resume_command(runs, spec: str, guesses: str, objective: str) -> str | None:
    """The command that goes on with an open cell from its checkpoint: the options of
    the latest of ``runs`` (the table's ``meta.runs``, in the order they ran) that took
    the cell, narrowed to the cell (``--only``, ``--guesses``, ``--objectives``), with
    ``--retry-timeouts`` and ``--checkpoint results/checkpoints`` (where
    ``scripts/open_cells.py`` reads it) added where that run lacked them, and
    ``--max-codes`` raised to the game's codes where needed. None where no run
    recorded took it. Its ``--time-limit`` is that run's: give it what the
    sitting allows.

    >>> runs = [{"command": "python scripts/optimal_tables.py --time-limit 600"},
    ...         {"command": "python scripts/optimal_tables.py --time-limit 60 --only p3c4 "
    ...                     "--objectives fewest-at-worst --jobs 2 --chain-secrets 250"}]
    >>> print(resume_command(runs, "p3c4", "any", "fewest-at-worst"))
    ... # doctest: +NORMALIZE_WHITESPACE
    python scripts/optimal_tables.py --time-limit 60 --objectives fewest-at-worst
    --guesses any --only p3c4 --retry-timeouts --jobs 2 --checkpoint
    results/checkpoints --chain-secrets 250
    >>> print(resume_command(runs, "p3c4", "consistent", "expected"))
    ... # doctest: +NORMALIZE_WHITESPACE
    python scripts/optimal_tables.py --objectives expected --guesses consistent
    --only p3c4 --retry-timeouts --checkpoint results/checkpoints
    >>> resume_command(runs, "p3c4", "any", "worst-then-expected") is None
    True
    """
    from optimal_mm import Game

    for run in reversed(runs):
        options = _recorded_options(run["command"])
        if options is None:
            continue
        args = argparse.Namespace(**options)  # a copy: the parse is shared
        if not _covers(args, spec, guesses, objective):
            continue
        args.only, args.guesses, args.objectives = [spec], [guesses], [objective]
        args.max_codes = max(args.max_codes, Game.from_spec(spec).n_codes)
        args.retry_timeouts = True
        args.checkpoint = args.checkpoint or "results/checkpoints"
        parser = _parser()
        for dest in _RUN_ONLY:
            setattr(args, dest, parser.get_default(dest))
        out = []
        for action in parser._actions:
            value = getattr(args, action.dest, None)
            if (not action.option_strings or action.dest == "help"
                    or value == action.default):
                continue
            flag = action.option_strings[0]
            if action.nargs == 0:  # a switch
                out.append(flag)
            elif isinstance(value, list):
                out += [flag, *map(str, value)]
            else:
                out += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
        return shlex.join(["python", "scripts/optimal_tables.py", *out])
    return None


def main(argv=None) -> int:
    from optimal_mm.cli.search_options import check_tuning

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be 1 or more, got {args.jobs}")
    if args.progress_interval is not None and not 0 <= args.progress_interval < float("inf"):
        parser.error(f"--progress-interval must be a finite number of 0 or more, got "
                     f"{args.progress_interval}")
    from optimal_mm.errors import OptimalMMError, check_time_limit

    try:  # the rules of every time limit (optimal_mm.errors) and of solve's options
        check_time_limit(args.time_limit)
        check_tuning(args)
    except OptimalMMError as exc:
        parser.error(str(exc))
    if args.parallel < 1:
        parser.error(f"--parallel must be 1 or more, got {args.parallel}")
    if args.max_codes < 1:
        parser.error(f"--max-codes must be 1 or more, got {args.max_codes}")
    for rule in args.guesses:
        if rule not in ("any", "consistent"):
            parser.error(f"--guesses takes any and consistent, got {rule!r}")
    if args.checkpoint is not None:  # refused here, before any entry is touched
        try:
            Path(args.checkpoint).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"optimal_tables.py: cannot use --checkpoint {args.checkpoint}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 2
    from optimal_mm import Game
    from optimal_mm.game import _count_str  # a count for a message

    for spec in args.only or ():  # refused here, before any entry is touched
        try:
            codes = Game.from_spec(spec).n_codes
        except ValueError as exc:  # the project's errors subclass it
            parser.error(f"--only {spec}: {exc}")
        if codes > args.max_codes:  # the table's games (p99c99 wrote errors into it)
            parser.error(f"--only {spec}: {_count_str(codes)} codes, more than --max-codes "
                         f"{args.max_codes:,}: the table holds the games of at most "
                         f"--max-codes codes")

    if args.render:
        def republish(entries, meta):
            for entry in entries.values():
                game = Game.from_spec(entry["spec"])
                entry["published"], entry["source"] = published(
                    entry["spec"], game.pegs, game.colours, game.repeats, game.scoring,
                    entry["guesses"], entry["objective"])
        update_table(republish)
        return 0

    # The first run describes the table (time limit, command, games); each later run
    # (other columns, bigger games, retries) adds its own paragraph, so that every
    # entry's limit stays on record. A run of the same command again (a long cell
    # resumed, sitting after sitting) adds its own too, told apart by when it began:
    # it replaced the older one's until 2026-12-06, and with it that run's note.
    run = {"time_limit": args.time_limit, "parallel": args.parallel,
           "command": _command(argv or sys.argv[1:])}
    if args.jobs != 1:  # the runs before this option all had one
        run["jobs"] = args.jobs

    def add_run(entries, meta):
        if not meta:
            meta.update(run, machine=f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
                        max_codes=args.max_codes)
        else:
            began = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            meta["runs"] = meta.get("runs", []) + [
                {**run, "started": began, "note": args.run_note}]
        if args.note is not None or "note" not in meta:
            meta["note"] = args.note

    # What to run, from the table as it stands: a run with nothing to do leaves no
    # record (its paragraph would say a run was made)
    entries = read_entries()
    todo = []
    for spec in args.only or games(args.max_codes):
        for guesses in args.guesses:
            for objective in args.objectives:
                key = f"{spec}/{guesses}/{objective}"
                old = entries.get(key)
                retry = ((args.retry_timeouts and old and old["status"] == "timeout")
                         or (args.retry_errors and old and old["status"] == "error"))
                if not eligible(entries, spec, guesses, objective):
                    continue
                if not old or args.redo or retry:
                    todo.append((key, spec, guesses, objective))
    if not todo:
        print(f"{PROG}: nothing to run: every entry asked for is in the table already "
              f"(--redo solves them again, --retry-timeouts those that timed out) or does "
              f"not belong there yet; the table is unchanged")
        return 0
    update_table(add_run)
    running = []
    try:
        _run_entries(args, todo, running, run["command"])
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as guarded() raises it
        from optimal_mm.cli import interrupted_status, interruption

        why = interruption(exc)
        for entry, spec, guesses, objective in running:
            _record(entry, spec, guesses, objective, entry.halt(why), run["command"])
        print(_stopped_line(why, [entry.key for entry, *_ in running], args.checkpoint),
              file=sys.stderr, flush=True)
        return interrupted_status(exc)
    finally:  # Ctrl-C, SIGTERM or an error: no worker outlives the run
        for entry, *_ in running:
            entry.stop()
    return 0


def _stopped_line(why, keys, checkpoint) -> str:
    """The one line a run stopped before its limit ends with.

    >>> print(_stopped_line("interrupted", ["p4c8/any/expected"], "cp"))
    ... # doctest: +NORMALIZE_WHITESPACE
    optimal_tables.py: interrupted; p4c8/any/expected recorded as stopped, with what
    its search had proven; its finished tasks are in cp: rerun the same command to
    resume
    >>> print(_stopped_line("terminated", ["a", "b"], None))
    ... # doctest: +NORMALIZE_WHITESPACE
    optimal_tables.py: terminated; a, b recorded as stopped, with what their searches
    had proven; without --checkpoint, their finished tasks are lost
    >>> _stopped_line("terminated", [], None)
    'optimal_tables.py: terminated; no entry was running'
    """
    if not keys:
        return f"{PROG}: {why}; no entry was running"
    whose, searches = ("its", "its search") if len(keys) == 1 else ("their", "their searches")
    saved = (f"{whose} finished tasks are in {checkpoint}: rerun the same command to resume"
             if checkpoint else f"without --checkpoint, {whose} finished tasks are lost")
    return (f"{PROG}: {why}; {', '.join(keys)} recorded as stopped, with what {searches} "
            f"had proven; {saved}")


def _run_entries(args, todo, running, command) -> None:
    """Solve the entries ``todo``, ``args.parallel`` at a time (``running``: those
    started), each result merged into the table as it comes (``command``: the run's,
    which an upper tree it keeps names)."""
    while todo or running:
        while todo and len(running) < args.parallel:
            key, spec, guesses, objective = todo.pop(0)
            # The table as it is now: an entry solved since the start may bound this one
            now = read_entries()
            floor = floor_for(now, spec, guesses, objective)
            tree = None if floor is None else floor_tree(floor[1], floor[0])
            floor = floor if tree is None else (*floor, tree)
            cap = cap_for(now, spec, guesses, objective)
            ceiling = (None if objective == "worst-case"
                       else ceiling_for(now, spec, guesses, objective))
            running.append((Entry(key, spec, objective, guesses, args.time_limit,
                                  args.checkpoint, split_secrets=args.split_secrets,
                                  split_depth=args.split_depth,
                                  wc_tree=args.wc_tree, chain_secrets=args.chain_secrets,
                                  jobs=args.jobs, floor=floor,
                                  min_seconds=args.checkpoint_min_seconds,
                                  progress_interval=args.progress_interval, cap=cap,
                                  table_entries=args.table_entries, ceiling=ceiling),
                            spec, guesses, objective))
        for item in list(running):
            entry, spec, guesses, objective = item
            result = entry.poll()
            if result is None:
                continue
            running.remove(item)
            _record(entry, spec, guesses, objective, result, command)


def _record(entry, spec, guesses, objective, result, command) -> None:
    """Merge an entry's ``result`` into the table as it is now (another run may have
    written since), with the game's published value, and say so in one line. A
    timeout's best tree (``"best_tree"``, the file its worker wrote at the limit)
    becomes the cell's upper tree if the table's ``≤`` is now its figure
    (:func:`upper_index.keep_run_tree`, beside the table: ``command`` names it)."""
    from optimal_mm import Game

    tree = result.pop("best_tree", None)
    game = Game.from_spec(spec)
    value, source = published(spec, game.pegs, game.colours, game.repeats,
                              game.scoring, guesses, objective)
    result.update({"spec": spec, "codes": game.n_codes, "guesses": guesses,
                   "objective": objective, "published": value, "source": source})

    def put(entries, meta):
        entries[entry.key] = merged_entry(entries.get(entry.key), result)

    entries = update_table(put)[0]
    kept = entries[entry.key]
    note = (f"; the entry keeps its earlier {kept['status']}"
            if kept["status"] != result["status"] else "")
    said = [result["status"] + (f", {result['stopped']}" if result.get("stopped") else "")]
    if result.get("value") is not None:
        said.append(str(result["value"]))
    print(f"{entry.key}: {' '.join(said)} ({result['seconds']} s){note}", flush=True)
    if tree is not None:
        print(keep_run_tree(table_store.JSON_PATH.parent, entries, entry.key, Path(tree),
                            command), flush=True)


if __name__ == "__main__":
    # A stopped run (Ctrl-C; SIGTERM from kill or a CI limit, raised as Ctrl-C is
    # while main() runs) exits through Python: it records what its running entries
    # had proven and kills their workers; every entry finished so far is already
    # saved. Stopped elsewhere, or on bad input: one line.
    from optimal_mm.cli import guarded

    sys.exit(guarded(PROG, main))
