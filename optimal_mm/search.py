"""Exact search: prove the best strategy for a game and emit its tree.

Two objectives share one search core (:mod:`optimal_mm._search`):

``worst-case``
    The least ``t*`` such that some strategy finds every secret within ``t*``
    guesses; every ``t < t*`` is refuted (the proof), and the emitted tree, among
    those reaching ``t*``, is steered towards a small total by a cheap estimate.
``expected``
    The least total number of guesses over all secrets (every secret equally
    likely), by fail-soft branch and bound, optionally under a guess cap.
``worst-then-expected``
    The least total among trees with the optimal worst case: ``t*`` first, then
    ``expected`` under the cap ``t*``.
``fewest-at-worst``
    Among the trees with the optimal worst case, the fewest secrets that need all
    ``t*`` guesses (ties: the least total): ``t*`` first, then the expected search
    under the cap ``t*`` with a lexicographic cost, in which a secret found by the
    ``t*``-th guess costs ``w = N t* + 1`` more (``N`` codes; every total within the
    cap is below ``w``). The least cost ``c`` gives both figures: ``c // w`` secrets
    at the cap, total ``c % w``. Bounds, symmetry and the split into tasks are those
    of the expected case (:mod:`optimal_mm._search` says why they stay exact). Given
    a cap ``T`` (``t*`` proven elsewhere), it skips the worst case and proves ``t*``
    itself: one secret or more at ``T`` in the best tree within ``T`` means that no
    tree stays within ``T - 1``.

Every objective may be restricted to *consistent* guesses (hard mode: every guess
could still be the secret).

How the work is split
    The root's guesses are cut to one per orbit of the full symmetry group
    (:mod:`optimal_mm.symmetry`); each part of a first guess (the secrets giving one
    answer) is a *task*, whose own guesses are cut to one per orbit of the group
    fixing the first guess and the part. Tasks are sent, largest first, to a
    :class:`~optimal_mm.runner.TaskRunner` (in-process, joblib or dask, with
    checkpoints: :mod:`optimal_mm.runner`); each process keeps its own
    transposition table between tasks. Every task's answer is exact or a proven
    bound fixed before dispatch, so the result does not depend on the number of
    jobs or on the order in which tasks finish.

    The worst case (:mod:`optimal_mm.search_worst`) and the expected-type
    objectives (:mod:`optimal_mm.search_expected`) each decide which tasks to run
    and what their answers prove; the tasks themselves are in
    :mod:`optimal_mm.search_tasks`, the per-process context they run on in
    :mod:`optimal_mm.search_context`, the capped costs and lower bounds from
    elsewhere in :mod:`optimal_mm.search_costs`. :class:`Solver` joins them: it
    checks the options, plans memory, owns the task runner and the checkpoint,
    and turns each search's answer into a :class:`~optimal_mm.solution.Solution`
    with its tree.

Long runs (see ``docs/LONG_RUNS.md``)
    Every batch of tasks is one *phase* of a :class:`~optimal_mm.progress.Progress`
    (a first guess solved exactly, its rivals, one worst-case depth and first
    guess). With a checkpoint directory, a killed search rerun with the same
    arguments computes only the tasks that are missing and ends with the same value
    and the same tree (:mod:`optimal_mm.runner` says how; :meth:`Solver.run_key`
    says what a task's result depends on besides its own arguments).

Memory: the answer table and a transposition table per process, counted by
:mod:`optimal_mm.memory`; with a ``memory_limit``, :class:`Solver` refuses a run
whose fixed part does not fit and shrinks ``table_entries`` so that the rest does
(:meth:`Solver.memory_plan`).
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

import numpy as np

from . import __version__
# INF, NO_CAP, UNBUDGETED, physical_memory, PROCESS_BYTES, TABLE_ENTRY_BYTES, BACKENDS,
# LOCAL_DASK_CONFIG and the names of the search's own modules below are imported for
# the modules and tests that take them from here: the search's public face.
from ._search_arrays import INF, NO_CAP, UNBUDGETED  # noqa: F401
from .errors import InfeasibleError, InvalidGameError, InvalidOptionError, TooLargeError
from .game import Game, as_game
from .memory import parse_size
from .memory import (PROCESS_BYTES, TABLE_ENTRY_BYTES, MemoryPlan,  # noqa: F401
                     _size_text, physical_memory)
from .progress import CallbackProgress, Progress
from .runner import BACKENDS, LOCAL_DASK_CONFIG, TaskRunner  # noqa: F401
from .search_context import (WC_TREE_RULES, ContextsApart, _context,  # noqa: F401
                             check_wc_tree, first_guess_classes, node_guess_classes)
from .search_costs import (CEILING_OBJECTIVES, FLOOR_OBJECTIVES,  # noqa: F401
                           CappedCost, LowerBound, PartFloor, UpperBound, cap_weight,
                           check_ceiling, check_floor)
from .search_expected import ExpectedSearch
from .search_races import BesideSlots
from .search_tasks import _tree_arg
from .search_worst import WC_SPLIT_SECRETS, WorstCaseSearch, worst_case_order  # noqa: F401
from .solution import SearchStats, Solution
from .symmetry import SolvedUpToRenaming
from .tree import Node, Strategy

if TYPE_CHECKING:  # imported when a run has a checkpoint: most have none
    from .checkpoint import Checkpoint

OBJECTIVES = ("worst-case", "expected", "worst-then-expected", "fewest-at-worst")
#: The objectives that run the worst case, then an expected search capped at ``t*``.
CAPPED_OBJECTIVES = ("worst-then-expected", "fewest-at-worst")
#: With the default number of jobs, games up to this many codes run in-process.
SERIAL_CODES = 2000
DEFAULT_TABLE_ENTRIES = 8_000_000
#: The version of what a task computes, in every checkpoint's run key
#: (:meth:`Solver.run_key`). Bump it with any change that can alter a task's
#: arguments or its result: a task function's signature or return value, how a part
#: or its guesses are cut (``WC_SPLIT_SECRETS``, ``SPLIT_SECRETS``, the symmetry
#: reduction), the order in which equal guesses are chosen (it decides the tree), a
#: bound that is not exact. A change that only makes a task faster leaves it: then
#: a checkpoint of a weeks-long run survives it. Checkpoints of another format are
#: recomputed, never trusted.
TASK_FORMAT = 1


def _capped(game: Game, worst: int) -> int:
    """``t*`` as the cap of a search under the optimal worst case, which must be below
    :data:`NO_CAP` (the tables' level for no cap): p1c64's 64 is not."""
    if worst >= NO_CAP:
        raise TooLargeError(f"{game.name}'s worst case, {worst} guesses, is beyond the "
                            f"deepest cap the exact search takes ({NO_CAP - 1})")
    return worst


def check_max_guesses(max_guesses) -> int | None:
    """The guess cap as the search uses it: ``None`` or an integer from 1 to 63.

    The search's tables have :data:`NO_CAP` (64) levels, and the last stands for no
    cap at all. A cap of 64 or more is refused, not read as 64 or as none: a game of
    one peg and 100 colours needs 100 guesses, and "impossible within 64" is no answer
    to "within 100"; nor may a tree that needs 71 guesses pass for one within 64.
    Leave the cap out for none.

    >>> check_max_guesses(5), check_max_guesses(63), check_max_guesses(None)
    (5, 63, None)
    >>> check_max_guesses(True)
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidOptionError: --max-guesses must be a positive integer, got True
    >>> check_max_guesses(64)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidOptionError: --max-guesses must be at most 63, ..., got 64 (...)
    """
    if max_guesses is None:
        return None
    if not isinstance(max_guesses, (int, np.integer)) or isinstance(max_guesses, (bool, np.bool_)):
        raise InvalidOptionError(f"--max-guesses must be a positive integer, got {max_guesses!r}")
    if max_guesses < 1:
        raise InfeasibleError(f"--max-guesses must be a positive integer, got {max_guesses!r}")
    if max_guesses >= NO_CAP:
        raise InvalidOptionError(f"--max-guesses must be at most {NO_CAP - 1}, the deepest "
                                 f"cap the exact search takes, got {max_guesses} (leave it "
                                 "out for no cap)")
    return int(max_guesses)


def check_jobs(jobs) -> None:
    """Refuse a ``jobs`` that is not ``None``, -1, 0 (all cores) or a positive integer."""
    if jobs is None:
        return
    if (not isinstance(jobs, (int, np.integer)) or isinstance(jobs, (bool, np.bool_))
            or jobs < -1):
        raise InvalidOptionError(f"--jobs must be -1 or 0 (all cores) or a positive integer, "
                                 f"got {jobs!r}")


def check_feasible(game: Game, memory_limit: int | None = None) -> None:
    """Refuse, up front, a game whose answer table cannot be held in memory.

    Exact search needs the game's codes listed and its ``N * N`` byte answer table
    built (p5c8: 32,768 codes, 1.0 GiB), whatever :data:`~optimal_mm.game.TABLE_BYTES_LIMIT`
    says for the heuristics. Against ``memory_limit`` (bytes; this machine's physical
    memory when ``None``) only the table and one interpreter are counted here;
    :class:`Solver` then checks its whole plan (:meth:`Solver.memory_plan`). Whether
    the search ends in reasonable time is another matter: docs/LOGIK.md estimates it
    for p5c8.

    >>> check_feasible(Game.from_spec("p5c8"), memory_limit=2**30)
    Traceback (most recent call last):
    ...
    optimal_mm.errors.TooLargeError: p5c8 has 32,768 codes: exact search needs their 1.0 GiB answer table and 160.0 MiB of interpreter, over the memory limit of 1.0 GiB
    """  # noqa: E501 (a doctest's output line)
    game.check_enumerable("search exactly")
    limit, what = memory_limit, "the memory limit"
    if limit is None:
        limit, what = physical_memory(), "this machine's memory"
    need = game.table_bytes() + PROCESS_BYTES
    if limit is not None and need > limit:
        raise TooLargeError(
            f"{game.spec} has {game.n_codes:,} codes: exact search needs their "
            f"{_size_text(game.table_bytes())} answer table and "
            f"{_size_text(PROCESS_BYTES)} of interpreter, over {what} of "
            f"{_size_text(limit)}"
        )


# ---------------------------------------------------------------------------
# The solver
# ---------------------------------------------------------------------------
class Solver(WorstCaseSearch, ExpectedSearch):
    """Exact solver for one game.

    Parameters
    ----------
    game : Game or str
        A game, or its spec or preset name (``"p4c6"``, ``"mastermind"``).
    guesses : {"any", "consistent"}
    symmetry : bool
        Cut guesses to one per orbit at the top two levels (``False`` for comparison).
    jobs : int
        Worker processes (joblib); ``-1``, ``0`` or ``None`` mean all cores (in-process for
        games of at most :data:`SERIAL_CODES` codes, where a pool costs more than it
        saves), 1 runs in-process (with a ``checkpoint``, the tasks in search contexts
        of the session's own, :class:`~optimal_mm.search_context.ContextsApart`, or
        in one worker process where the ``progress`` display tells time, which the
        waiting parent then ticks: :attr:`~optimal_mm.progress.Progress.tells_time`).
        With ``backend="dask"`` and no scheduler, the number of local dask workers.
    backend : {"loky", "threading", "dask"}
        joblib backend (``"loky"`` by default). ``"threading"`` gains nothing (the
        compiled search holds the GIL) but is handy for debugging. ``"dask"`` sends
        tasks to a dask cluster: the one at ``scheduler``, or a ``LocalCluster`` of
        ``jobs`` single-threaded worker processes started for the run.
    table_entries : int
        Capacity of each process's transposition table (per objective).
    progress : Progress or callable, optional
        A :class:`~optimal_mm.progress.Progress`, told of phases, finished tasks, the
        best value and bound; a plain callable gets the one-line messages only.
    checkpoint : path-like, optional
        Directory where finished tasks are stored and from which a rerun resumes.
    scheduler : str, optional
        Address of a dask scheduler (``tcp://host:8786``); only with ``backend="dask"``.
    memory_limit : int or str, optional
        Bytes (or a size such as ``"4G"``, :func:`~optimal_mm.memory.parse_size`) this
        machine may spend on the run (see :meth:`memory_plan`): a run
        whose answer tables alone exceed it is refused with
        :class:`~optimal_mm.errors.TooLargeError`, otherwise ``table_entries`` is cut
        to fit. ``None`` checks nothing.
    split_secrets : int
        Worst case: a part of the first guess with this many secrets or more is
        searched one second guess per task (:data:`WC_SPLIT_SECRETS` by default). Less
        makes a long refutation save its progress more often (a checkpoint holds
        finished tasks only). It may cost speed (each task starts with an empty
        transposition table) or save much (a split part's subtree starts with the
        first second guess that succeeds, where a whole part's task picks each of its
        guesses for a small total: p5c7nb with consistent guesses solved in two
        minutes split at 500, docs/LONG_RUNS.md). The worst case found is the
        same; the tree may start such a part with another second guess. Tasks do
        not depend on it, so a checkpoint may be resumed with another value (its
        tasks are used where the run asks for them).
    split_depth : int
        Worst case: how deep the split goes. 1 (the default): a split part's second
        guesses are one task each. 2: a second guess that leaves a part of
        ``split_secrets`` or more is searched by its parts, such a part one third
        guess per task, and so on down to ``split_depth`` guesses below the first
        (:meth:`_wc_split_node`). A second-guess task of p5c8nb within 9 ran 50
        minutes unfinished, all of it lost at the stop; split deeper, its pieces are
        saved as they end. The guesses at the levels above the tasks are searched one
        after another (the tasks of each run in parallel). The worst case found is
        the same; tasks do not depend on it (a refuted guess searched by pieces is
        saved as its own task's answer), so a checkpoint may be resumed with another
        value.
    wc_tree : {"small-total", "first"}
        Worst case: how the tree below the first guess picks its guesses once a part
        is proven feasible (:meth:`~optimal_mm.search_context._Context.wc_guess`).
        ``"small-total"`` (the default) refutes, at every node, each guess whose
        balanced-tree bound on the total is smaller than the one kept's; ``"first"``
        keeps the guess the search
        found (least largest part first): the same worst case, a larger total, and
        on a big part a fraction of the time (p5c7nb with consistent guesses, the
        1,214 secrets after 12345 within 7: 48 s to decide, 34 s for the "first"
        tree, more than 8 minutes for the "small-total" one). Refutations in a
        checkpoint serve either rule; a feasible part's tree is the rule's own.
    chain_secrets : int, optional
        Expected-type objectives, below the first guess: a part of this many secrets
        or more is never one task. A rival guess with such a part (a second guess of a
        big part, or deeper) is searched as a chain of tasks (:meth:`_guess_by_parts`),
        and such a part to be solved exactly (below a big part's first second guess,
        or deeper) is split by its own guesses (:meth:`_solve_node`), each piece saved
        when done; the answer of a chain or a split part is then saved as the one
        task's (:meth:`_saved_or`). ``None`` (the default) keeps them one task each,
        which is cheaper (``scripts/time_rival.py``), but on big black-only parts one
        such task can run for hours as one compiled call (p4c8nb's rival second
        guesses, p3c10nb's 527 secrets below their first second guess), all of it
        lost when the run stops. Rival first guesses are chains from
        :data:`SPLIT_SECRETS` secrets either way. The values and trees are the same.
        Tasks do not depend on it: a checkpoint may be resumed with another value, or
        without it.
    checkpoint_min_seconds : float
        With a checkpoint: a finished task of less processor time than this is not
        saved, but computed again when asked for (0, the default, saves every task).
        Chains on a big game run tasks of milliseconds by the ten thousand, each an
        entry: p5c6b's capped total with ``chain_secrets=250`` wrote 37,000 entries
        of under half a second (318 s of processor time in all) in 15 minutes. A
        chain's or a split part's answer is saved when its pieces took as long in
        all.

    Attributes
    ----------
    checkpoint : Checkpoint or None
        The store of the last run (its ``loaded``, ``stored`` and ``rejected``
        counters say what it did), kept after the run ends or is interrupted.

    Tasks are run by a :class:`~optimal_mm.runner.TaskRunner` that the solver owns.
    The searches themselves are its two bases: :class:`~optimal_mm.search_worst.WorstCaseSearch`
    (``worst-case``) and :class:`~optimal_mm.search_expected.ExpectedSearch` (the
    others, which run it under a cap); this class holds what they share.
    """

    def __init__(self, game: Game, guesses: str = "any", symmetry: bool = True,
                 jobs: int | None = None, backend: str = "loky",
                 table_entries: int = DEFAULT_TABLE_ENTRIES, progress=None,
                 checkpoint=None, scheduler: str | None = None,
                 memory_limit: "int | str | None" = None,
                 split_secrets: int = WC_SPLIT_SECRETS, wc_tree: str = "small-total",
                 chain_secrets: int | None = None, checkpoint_min_seconds: float = 0.0,
                 split_depth: int = 1):
        game = as_game(game)
        if guesses not in ("any", "consistent"):
            raise InvalidGameError(f"guesses must be 'any' or 'consistent', got {guesses!r}")
        if scheduler is not None and backend != "dask":
            raise InvalidOptionError(f"a scheduler ({scheduler}) needs backend 'dask', "
                                     f"got {backend!r}")
        check_jobs(jobs)
        if backend not in BACKENDS:
            raise InvalidOptionError(f"backend must be one of {BACKENDS}, got {backend!r}")
        if (not isinstance(table_entries, (int, np.integer)) or isinstance(table_entries, bool)
                or table_entries < 0):
            raise InvalidOptionError(f"table entries must be 0 or more, got {table_entries!r}")
        if (not isinstance(split_secrets, (int, np.integer)) or isinstance(split_secrets, bool)
                or split_secrets < 1):
            raise InvalidOptionError(f"split secrets must be 1 or more, got {split_secrets!r}")
        if (not isinstance(split_depth, (int, np.integer)) or isinstance(split_depth, bool)
                or split_depth < 1):
            raise InvalidOptionError(f"split depth must be 1 or more, got {split_depth!r}")
        if chain_secrets is not None and (
                not isinstance(chain_secrets, (int, np.integer))
                or isinstance(chain_secrets, bool) or chain_secrets < 1):
            raise InvalidOptionError(f"chain secrets must be 1 or more, got {chain_secrets!r}")
        number = (int, float, np.integer, np.floating)
        if (isinstance(checkpoint_min_seconds, bool)
                or not isinstance(checkpoint_min_seconds, number)
                or not 0 <= checkpoint_min_seconds < float("inf")):
            raise InvalidOptionError(f"checkpoint min seconds must be a finite number of 0 "
                                     f"or more, got {checkpoint_min_seconds!r}")
        check_wc_tree(wc_tree)
        if not isinstance(symmetry, (bool, np.bool_)):
            raise InvalidOptionError(f"symmetry must be True or False, got {symmetry!r}")
        if memory_limit is not None:
            memory_limit = parse_size(memory_limit)
        check_feasible(game, memory_limit)
        if checkpoint is not None:
            from .checkpoint import check_checkpoint_dir

            check_checkpoint_dir(checkpoint)
        self.game = game
        self.guesses = guesses
        self.consistent = guesses == "consistent"
        self.symmetry = symmetry
        if jobs in (None, -1, 0):
            # All cores, except for small games: there, starting a process pool costs
            # more than the whole search (mastermind: 1.2 s in-process, 2.6 s with
            # 2 workers, results/bench.md).
            small = game.n_codes <= SERIAL_CODES and backend != "dask"
            self.jobs = 1 if small else os.cpu_count() or 1
        else:
            self.jobs = int(jobs)
        self.backend = backend
        self.scheduler = scheduler
        self.entries = int(table_entries)
        self.split_secrets = int(split_secrets)
        self.split_depth = int(split_depth)
        self.chain_secrets = None if chain_secrets is None else int(chain_secrets)
        self.wc_tree = wc_tree
        self._tree_arg = _tree_arg(wc_tree)
        if progress is None:
            progress = Progress()
        elif not isinstance(progress, Progress):
            progress = CallbackProgress(progress)
        self.checkpoint_dir = checkpoint
        self.memory_limit = None if memory_limit is None else int(memory_limit)
        self.stats = SearchStats()
        # A run with a checkpoint is a long one. With several jobs its tasks are all
        # computed away from this process, whose threads then only wait (chains side
        # by side: optimal_mm.runner, "Isolated sessions"). With one job, so too
        # where the display tells time (a wait ticks it, a compiled call would not);
        # else here, in search contexts of the session's own (ContextsApart).
        apart = checkpoint is not None and self.jobs == 1 and not progress.tells_time
        self._runner = TaskRunner(self.jobs, backend, scheduler, progress,
                                  isolated=checkpoint is not None and not apart,
                                  min_save_seconds=checkpoint_min_seconds,
                                  apart=ContextsApart if apart else None)
        self._depth = 0
        # The best complete tree of the expected-case search under way (or of the last
        # one): (objective, cap, first guess, its parts' trees, the search's seconds
        # when it was found), the UpperBound's tree given to it (a Strategy) while
        # it has built none better, or None (best_so_far)
        self._best = None
        self._floor, self._floor_cache = None, {}  # a LowerBound with a tree (floor_of)
        self._nodes = {}  # the split parts solved in this expected search (_solve_node)
        self._opened = {}  # those whose first guess's parts are solved, their race to run
        # Chains of rivals that may run beside the race's own thread
        # (RivalRaces._second_guess_rounds): one per job beyond the first, where
        # every task goes to a worker; none otherwise.
        self._beside = BesideSlots(self.jobs - 1) if (
            self.jobs > 1 and self._runner.dispatches_all()) else None
        # The small parts of chains solved so far, found again renamed
        # (RivalRaces._renamed_values), each filed with its value and whether the
        # checkpoint holds it, ``(value, held)``; not without symmetry
        self._renamed = SolvedUpToRenaming(game) if symmetry else None
        if self.memory_limit is not None:
            plan = self.memory_plan("expected")
            if plan.fixed > self.memory_limit:
                raise TooLargeError(
                    f"{game.spec} needs {_size_text(plan.fixed)} before any table entry "
                    f"({plan.processes} process{'es' if plan.processes > 1 else ''} with "
                    f"the {_size_text(plan.answer_table)} answer table and "
                    f"{_size_text(PROCESS_BYTES)} of interpreter each), over the memory "
                    f"limit of {_size_text(self.memory_limit)}; use fewer --jobs or raise "
                    f"--memory-limit")
        self._ctx = _context(game, self.consistent, self.entries, self.symmetry)

    # ------------------------------------------------------- run key, memory
    def run_key(self, objective: str, max_guesses: int | None = None) -> dict:
        """What a task's result depends on besides its own arguments.

        Game (spec and alphabet), objective, guess rule, cap (of ``expected``: the
        worst case's and ``fewest-at-worst``'s tasks carry theirs, and their runs share
        the key without one), symmetry reduction, and
        :data:`TASK_FORMAT`, the version of what a task computes, bumped by hand with
        every change that can alter a task's arguments or result (so that a checkpoint
        never mixes the results of two searches that disagree).

        Not the number of jobs, the backend or the table size: they change how fast a
        task runs, never its result (the search is exact and picks among equal
        guesses in a fixed order), so a run may resume with others. Not the package
        version nor a digest of the source either: a refutation of p5c8 runs for weeks
        (docs/LOGIK.md), and its checkpoint must outlive a release or a faster kernel,
        which change neither a value nor a tree. The tree's ``meta`` still records
        the version that wrote it.

        >>> Solver(Game.from_spec("p2c3"), jobs=1).run_key("expected")["game"]
        'p2c3'
        """
        return {"game": self.game.spec, "alphabet": self.game.alphabet,
                "objective": objective, "guesses": self.guesses, "max_guesses": max_guesses,
                "symmetry": bool(self.symmetry), "task_format": TASK_FORMAT}

    def memory_plan(self, objective: str, entries: int | None = None,
                    max_guesses: int | None = None) -> MemoryPlan:
        """The most memory the run may take on this machine, as a :class:`MemoryPlan`:
        one transposition table per process, two under a cap (the expected search
        asks the worst case's, :meth:`~optimal_mm.search_context._Context.exp`).

        >>> plan = Solver(Game.from_spec("mastermind"), jobs=1).memory_plan("expected")
        >>> plan.processes, plan.answer_table, plan.tables
        (1, 1679616, 1)
        """
        capped = objective in CAPPED_OBJECTIVES or (objective == "expected"
                                                    and max_guesses is not None)
        tables = 2 if capped else 1
        processes, helpers = self._runner.processes()
        return MemoryPlan(processes, helpers, self.game.table_bytes(), tables,
                          self.entries if entries is None else entries)

    def _fit_memory(self, objective: str, max_guesses) -> None:
        """Cut ``table_entries`` so that the plan fits ``memory_limit``."""
        if self.memory_limit is None:
            return
        plan = self.memory_plan(objective, max_guesses=max_guesses)
        if plan.fixed > self.memory_limit:
            raise TooLargeError(f"{self.game.spec} {objective} needs {plan}, over the memory "
                                f"limit of {_size_text(self.memory_limit)}")
        if plan.total <= self.memory_limit:
            return
        per_entry = plan.processes * plan.tables * TABLE_ENTRY_BYTES
        entries = (self.memory_limit - plan.fixed) // per_entry
        self.progress.message(
            f"transposition tables cut from {self.entries:,} to {entries:,} entries per "
            f"process to fit the memory limit of {_size_text(self.memory_limit)} "
            f"(the search may be slower, never wrong)")
        self.entries = int(entries)
        self._ctx = _context(self.game, self.consistent, self.entries, self.symmetry)

    # -------------------------------------------------------------- session
    @property
    def checkpoint(self) -> Checkpoint | None:
        """The checkpoint of the last run, or ``None`` (see the class docstring)."""
        return self._runner.checkpoint

    @property
    def progress(self) -> Progress:
        """The progress display this thread reports to (the one given, or, in a chain
        run beside the search's own thread, one without its phases:
        :meth:`optimal_mm.runner.TaskRunner.beside`)."""
        return self._runner.progress

    @contextlib.contextmanager
    def _session(self, objective: str, max_guesses):
        """Around one public search: memory plan, checkpoint, workers, clean-up.

        Nested calls (``worst_then_expected`` runs two searches) share the outer one.
        """
        outer = self._depth == 0
        if outer:
            self._best = None
            self._floor, self._floor_cache, self._nodes, self._opened = None, {}, {}, {}
            self._fit_memory(objective, max_guesses)
            key = (None if self.checkpoint_dir is None
                   else self.run_key(objective, max_guesses))
            self._runner.prepare((self.game, self.consistent, self.entries, self.symmetry),
                                 self.checkpoint_dir, key)
        self._depth += 1
        try:
            with self._runner.workers() if outer else contextlib.nullcontext():
                yield
        finally:
            self._depth -= 1
            if outer:
                self.progress.close()

    def _root(self):
        """Every secret, and the first guesses to try (:func:`first_guess_classes`)."""
        return self._ctx.all_guesses, first_guess_classes(self.game, self.consistent,
                                                          self.symmetry)

    def _parts(self, g, secrets):
        """Parts of ``secrets`` under ``g``, largest first (ties by answer)."""
        parts = self._ctx.split(g, secrets)
        parts.sort(key=lambda ap: (-len(ap[1]), ap[0]))
        return parts

    def split(self, g, secrets):
        """``[(answer, part)]``: ``secrets`` by their answer to ``g``, in answer order,
        the winning answer left out (the parts the tasks below a guess search)."""
        return self._ctx.split(g, np.asarray(secrets, dtype=np.int64))

    def first_guess_parts(self, g):
        """``[(answer, secrets)]``: the whole game's secrets split by first guess ``g``,
        largest first (ties by answer), the parts a worst-case run's tasks search."""
        return self._parts(g, self._root()[0])

    def _strategy(self, objective, cap, tree, optimal, seconds, extra):
        game = self.game
        keys = [game.answer_str(a) for a in range(game.n_answer_slots)]

        def build(sub):
            g, children = sub
            return Node(game.code_str(g),
                        {keys[a]: build(c) for a, c in sorted(children.items())})

        meta = {"solver": f"optimal_mm {__version__}", "seconds": round(seconds, 3),
                "symmetry": self.symmetry, "jobs": self.jobs}
        if self.backend != "loky":
            meta["backend"] = self.backend
        if self.checkpoint is not None:
            meta["resumed_tasks"] = self._runner.resumed
        meta.update(extra)
        strategy = Strategy(game, build(tree), self.guesses, objective, cap, optimal, meta=meta)
        strategy.declared = strategy.validate()
        return strategy

    # ----------------------------------------------------------- worst case
    def worst_case(self, max_guesses: int | None = None) -> Solution:
        """Find ``t*`` (or test one cap) and a tree within it.

        The checkpoint is the run's without a cap: a worst-case task's arguments hold
        the guesses left, so a run that tests one cap (``solve --max-guesses 9``, a
        probe) and the run that finds ``t*`` (the optimal table's) share their tasks."""
        max_guesses = check_max_guesses(max_guesses)
        with self._session("worst-case", None):
            return self._worst_case(max_guesses)

    # -------------------------------------------------------- expected case
    def expected(self, max_guesses: int | None = None,
                 floor: "LowerBound | None" = None,
                 ceiling: "UpperBound | None" = None) -> Solution:
        """The least total number of guesses, with a tree that attains it.

        ``floor`` (a :class:`LowerBound`), if given, ends the search as soon as its
        tree's total meets it. ``ceiling`` (an :class:`UpperBound`, a complete tree
        known before) is the best tree so far until the search builds a better one."""
        max_guesses = check_max_guesses(max_guesses)
        floor = check_floor("expected", floor)
        ceiling = check_ceiling("expected", ceiling)
        with self._session("expected", max_guesses):
            return self._expected(max_guesses, floor=floor, ceiling=ceiling)

    def best_so_far(self) -> "Strategy | None":
        """The best complete tree of the last expected-case search (``expected``,
        ``worst-then-expected``, ``fewest-at-worst``), whether it ended or was stopped
        (a time limit, Ctrl-C): from the end of phase (1)'s first batch, the first
        guess's tree with each big part under its first second guess, then with each
        big part under the best second guess its race has found so far (a rival that
        takes the lead, its tree built at once), until each race ends (the tree that
        solves the first guess exactly), then that of a rival first guess proved
        better once that tree is built. Replayed for every secret like any tree the
        solver builds, with ``optimal`` false: a search that ended proves its own
        tree, this one only bounds the optimum from above (``meta["upper_bound"]``).
        Before such a tree, the :class:`UpperBound` the search was given (its own
        tree, fitted to the search's rules, as long as the search has built none
        better), else None; None too for a worst-case search, whose first tree
        within ``t`` guesses is its answer."""
        if self._best is None:
            return None
        if isinstance(self._best, Strategy):  # the UpperBound given, not beaten yet
            return self._best
        objective, cap, first, trees, seconds = self._best
        return self._strategy(objective, cap, (first, trees), False, seconds,
                              {"upper_bound": "the best tree the search had built, "
                                              "not proven optimal"})

    def worst_then_expected(self, floor: "LowerBound | None" = None,
                            ceiling: "UpperBound | None" = None) -> Solution:
        """The least total among trees with the optimal worst case.

        ``floor`` (a :class:`LowerBound`; typically the optimal total without the
        cap, which no capped tree can beat) ends the capped search as soon as its
        tree meets it. ``ceiling`` (an :class:`UpperBound`: a tree within ``t*``,
        such as the worst case's own) is the best tree so far until the search
        builds a better one; one that needs more than ``t*`` guesses is refused."""
        floor = check_floor("worst-then-expected", floor)
        ceiling = check_ceiling("worst-then-expected", ceiling)
        with self._session("worst-then-expected", None):
            wc = self.worst_case()
            if wc.value is None:
                return wc
            sol = self.expected(max_guesses=_capped(self.game, wc.value), floor=floor,
                                ceiling=ceiling)
        sol.objective = "worst-then-expected"
        sol.proof = wc.proof + sol.proof
        if sol.strategy is not None:
            sol.strategy.objective = "expected"
        return sol

    def fewest_at_worst(self, max_guesses: int | None = None,
                        ceiling: "UpperBound | None" = None) -> Solution:
        """The fewest secrets that need the optimal worst case ``t*``, then the least
        total: the Solution's value is that number, its tree has the least total
        among the trees with ``t*`` guesses and that number at depth ``t*``.

        With ``max_guesses`` (a cap ``T``), the worst-case search is skipped: the
        fewest secrets that need all ``T`` guesses among the trees within ``T``. The
        search proves ``t*`` itself when ``T`` is it: a tree exists within ``T``, and
        one or more secrets at the cap in the best of them means that no tree keeps
        every secret within ``T - 1`` (such a tree would cost less). Given the
        worst case's ``t*`` from elsewhere (the optimal table's worst-case entry),
        it answers the same question as the run without a cap, and checks that
        ``t*`` on its way; a ``T`` above ``t*`` gives 0, below it no tree. p4c10nb's
        runs spent 400 s on the worst case before their first expected task.

        The checkpoint is the run's without a cap: every task carries its cap and
        weight in its arguments, so the runs with and without one share it.
        ``ceiling`` (an :class:`UpperBound`: a tree within the cap, such as the worst
        case's) is the best tree so far until the search builds a better one.
        """
        ceiling = check_ceiling("fewest-at-worst", ceiling)
        with self._session("fewest-at-worst", None):
            if max_guesses is None:
                wc = self.worst_case()
                if wc.value is None:
                    return wc
                cap, proof = _capped(self.game, wc.value), wc.proof
            else:
                cap, proof = max_guesses, []
            weight = cap_weight(self.game, cap)
            sol = self._expected(cap, weight, ceiling=ceiling)
        sol.objective = "fewest-at-worst"
        sol.proof = proof + sol.proof
        if sol.value is None:  # only under a cap given: t* is above it
            return sol
        at_cap, total = divmod(sol.value, weight)
        sol.value = at_cap
        line = (f"{cap} guesses: {at_cap} secrets at the worst depth at the fewest (total "
                f"{total}), among {cap}-guess trees")
        if max_guesses is not None and at_cap:
            line += (f"; none has 0, so no tree keeps every secret within {cap - 1} "
                     f"guesses: {cap} is the optimal worst case")
        elif max_guesses is not None:
            line += (f"; a tree keeps every secret within {cap - 1} guesses: {cap} is "
                     f"above the optimal worst case")
        sol.proof.append(line)
        sol.strategy.objective = "fewest-at-worst"
        return sol

    def solve(self, objective: str = "worst-case", max_guesses: int | None = None,
              floor: "LowerBound | None" = None,
              ceiling: "UpperBound | None" = None) -> Solution:
        """Run the search for ``objective`` (see :func:`solve`)."""
        max_guesses = _check_request(objective, max_guesses)
        floor = check_floor(objective, floor)
        ceiling = check_ceiling(objective, ceiling)
        if objective == "worst-case":
            return self.worst_case(max_guesses)
        if objective == "expected":
            return self.expected(max_guesses, floor, ceiling)
        if objective == "fewest-at-worst":
            return self.fewest_at_worst(max_guesses, ceiling)
        return self.worst_then_expected(floor, ceiling)


def _check_request(objective, max_guesses) -> int | None:
    """Refuse a bad objective or cap; the cap as the search uses it."""
    if objective not in OBJECTIVES:
        raise InvalidGameError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
    max_guesses = check_max_guesses(max_guesses)
    if objective == "worst-then-expected" and max_guesses is not None:
        raise InvalidGameError(f"{objective} sets its own cap; drop --max-guesses (expected "
                               f"takes one)")
    return max_guesses


def solve(game: "Game | str", objective: str = "worst-case", guesses: str = "any",
          max_guesses: int | None = None, floor: "LowerBound | None" = None,
          ceiling: "UpperBound | None" = None, **options) -> Solution:
    """Solve ``game`` (a :class:`Game` or a spec) exactly for ``objective``.

    Every argument is checked before anything is built: see :class:`Solver` for the
    options; a bad value raises an :class:`~optimal_mm.errors.OptimalMMError`
    quoting it, and so is a cap above 63 (:func:`check_max_guesses`).
    ``floor``, for the totals (:data:`FLOOR_OBJECTIVES`), is a lower bound proven
    elsewhere (:class:`LowerBound`) that ends the search once its tree meets it.
    ``ceiling``, for the expected-type objectives (:data:`CEILING_OBJECTIVES`), is a
    complete tree known before (:class:`UpperBound`): the search's best so far until
    it builds a better one.

    >>> sol = solve(Game.from_spec("p2c3"), "expected", jobs=1)
    >>> sol.value, sol.strategy.validate().max
    (21, 3)
    """
    max_guesses = _check_request(objective, max_guesses)
    floor = check_floor(objective, floor)
    ceiling = check_ceiling(objective, ceiling)
    return Solver(game, guesses, **options).solve(objective, max_guesses, floor, ceiling)


def subtree_within(game: Game, secrets, d: int, consistent: bool = False,
                   table_entries: int = DEFAULT_TABLE_ENTRIES, wc_tree: str = "small-total"):
    """``(guess, {answer: subtree})`` finding each of ``secrets`` within ``d`` guesses,
    or ``None`` when no such subtree exists: the worst-case search decides, exactly;
    the subtree picks its guesses by the tree rule ``wc_tree`` (:data:`WC_TREE_RULES`,
    :meth:`~optimal_mm.search_context._Context.wc_guess`).

    The building block of :mod:`optimal_mm.within`. Runs in this process, on the
    process's search context for the game (its transposition table kept between
    calls, so the parts of one tree share what the search has learnt).

    >>> g, children = subtree_within(Game.from_spec("p2c3"), range(9), 3)
    >>> subtree_within(Game.from_spec("p2c3"), range(9), 2) is None
    True
    """
    ctx = _context(game, bool(consistent), int(table_entries), True)
    part = np.asarray(secrets, dtype=np.int64)
    check_wc_tree(wc_tree)
    return ctx.wc_tree(part, int(d), wc_tree) if ctx.wc(part, int(d)) else None
