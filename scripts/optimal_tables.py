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
proves that ``t*`` on its way (:func:`cap_for`).

Long runs lose no finished work: each result is written to the JSON file (atomically)
as soon as it is known, and a rerun skips what is already there (``--redo`` to
recompute). Runs may share the table (an entry of hours beside a batch of short
ones, on other cores): each result is merged, under a lock, into the table as it is
then (:func:`update_table`). Usage::

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
reported them to its progress display (:func:`_bounds_progress`). A retry keeps the
best bounds of all its runs (each is a proof on its own) and the longest time limit
it was given. A run stopped before its limit (Ctrl-C, or SIGTERM from a service
manager or a CI limit) records its running entries the same way, marked
``"stopped"`` (``interrupted`` or ``terminated``) with the seconds they ran, and
ends in one line (exit status 130 or 143); an entry that was solved stays solved.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import math
import multiprocessing as mp
import os
import platform
import re
import shlex
import signal
import sys
import tempfile
import time
from pathlib import Path
from queue import Empty

# The trees that close open worst cases (their own script, results/within.json).
from within_trees import least_tree

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
JSON_PATH = RESULTS / "optimal_table.json"
MD_PATH = RESULTS / "optimal_table.md"
#: How the script's one-line messages name it
PROG = "optimal_tables.py"
#: Optimal trees of solved entries, named as their checkpoints (:func:`checkpoint_dir`;
#: ``scripts/make_trees.py`` makes them from those): an entry whose floor
#: (:func:`floor_for`) is one of them takes its parts' bounds too.
FLOOR_TREES = RESULTS / "trees"

# Published values (shared/REFERENCE.md), black-white scoring, any guesses.
GODDARD_TOTALS = {
    (2, 2): 8, (2, 3): 21, (2, 4): 45, (2, 5): 81, (3, 2): 18, (3, 3): 73, (3, 4): 206,
    (3, 5): 451, (4, 2): 44, (4, 3): 246, (4, 4): 905, (4, 5): 2463, (5, 2): 97, (5, 3): 816,
    (6, 2): 224, (7, 2): 496,
}


def published(spec: str, pegs: int, colours: int, repeats: bool, scoring: str, guesses: str,
              objective: str):
    """The published value for this entry and its source, or (None, None)."""
    if scoring != "black-white":
        return None, None
    if guesses == "consistent":
        if objective == "expected" and spec in ("p4c6", "p3c5"):
            return {"p4c6": 5660, "p3c5": 455}[spec], "Super Master Mind, optimal strategy page"
        return None, None
    if objective == "fewest-at-worst":
        return None, None
    if objective == "worst-then-expected":
        if spec == "p4c8":  # the tree of its solution-4-8-* file capped at 6 guesses
            return 20473, "arfst23/Mastermind 2023"
        return (5626, "Koyama and Lai 1993") if spec == "p4c6" else (None, None)
    if objective == "expected":
        if spec in ("p4c8", "p4c8n"):  # totals of the trees in its solution-4-8-* files
            return {"p4c8": 20471, "p4c8n": 7817}[spec], "arfst23/Mastermind 2023"
        if repeats and (pegs, colours) in GODDARD_TOTALS:
            return GODDARD_TOTALS[(pegs, colours)], "Goddard 2003/2004"
        if spec == "p4c6":
            return 5625, "Koyama and Lai 1993"
        if spec == "p4c7":
            return 11228, "Ville 2013"
        if spec == "p4c10n":
            return 26274, "Tanaka 1996"
        return None, None
    if spec == "p4c6":
        return 5, "Knuth 1977"
    if spec == "p4c10n":
        return 7, "Jager and Peczarski 2015"
    if spec == "p4c7":
        return 6, "Jager and Peczarski 2009"
    if spec == "p4c5":
        return 5, "Jager and Peczarski 2009"
    if repeats and pegs == 2:
        return colours // 2 + 2, "Goddard 2004"
    if repeats and pegs == 3 and colours >= 5:
        return (colours - 1) // 3 + 4, "Jager and Peczarski 2009"
    return None, None


def games(max_codes: int):
    out = []
    for pegs in range(2, 9):
        for colours in range(2, 11):
            for repeats in (True, False):
                n = colours**pegs if repeats else (math.perm(colours, pegs)
                                                    if pegs <= colours else 0)
                if not 0 < n <= max_codes:
                    continue
                for black in (False, True):
                    spec = f"p{pegs}c{colours}" + ("" if repeats else "n") + ("b" if black else "")
                    out.append((n, spec))
    out.sort()
    return [spec for _, spec in out]


#: The objectives of the table, each with the columns it fills.
OBJECTIVES = ("worst-case", "expected", "fewest-at-worst", "worst-then-expected")


def eligible(entries, spec, guesses, objective) -> bool:
    """Whether the entry belongs in the table: ``fewest-at-worst`` needs the worst
    case solved, ``worst-then-expected`` an optimal expected tree that needs more than
    ``t*`` guesses (else the capped optimum is the total itself)."""
    if objective in ("worst-case", "expected"):
        return True
    wc = entries.get(f"{spec}/{guesses}/worst-case")
    if not wc or wc["status"] != "solved":
        return False
    if objective == "fewest-at-worst":
        return True
    ex = entries.get(f"{spec}/{guesses}/expected")
    return bool(ex and ex["status"] == "solved" and ex["tree_max"] > wc["value"])


def checkpoint_dir(root, spec, guesses, objective) -> str:
    """Where ``--checkpoint root`` keeps the finished tasks of one entry: the name
    ``scripts/make_trees.py`` gives a tree of the same search named by its spec
    (``p5c8n-worst-case``, ``p4c7-expected-consistent``), so that the tree and the
    table entry share one run."""
    return str(Path(root) / (f"{spec}-{objective}"
                             + ("-consistent" if guesses == "consistent" else "")))


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
      refuted or solved; ``best`` the total of the best complete tree so far;
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


def merge_bounds(old, new) -> dict:
    """The bounds of two runs of one entry, each a proof on its own: the greater lower
    bound and the lesser upper bound (``None`` where neither run had one)."""
    out = {}
    for key, pick in (("bound", max), ("best", min)):
        known = [e[key] for e in (old or {}, new) if e.get(key) is not None]
        out[key] = pick(known) if known else None
    return out


def keep_proofs(old, result) -> dict:
    """A timed-out ``result`` with what an earlier timeout of its entry (``old``) had
    proven: the best bounds of both (:func:`merge_bounds`) and the longer time, since
    the cell says "not solved in more than so many seconds"."""
    result = dict(result)
    old = old if old and old["status"] == "timeout" else None
    result.update({k: v for k, v in merge_bounds(old, result).items() if v is not None})
    if old:
        result["seconds"] = max(result["seconds"], old["seconds"])
    return result


def merged_entry(old, result) -> dict:
    """The entry a finished run's ``result`` leaves in the table over the entry ``old``:
    a timeout keeps what an earlier timeout had proven (:func:`keep_proofs`); an
    error (a worker lost: killed, out of memory) leaves a timed-out or solved entry as
    it was, since it proves nothing and its proofs still hold (the run's finished
    tasks are in its checkpoint), where it once wiped a cell's bounds. A run stopped
    before its limit (``"stopped"``, :meth:`Entry.halt`) leaves a solved entry as it
    was too (a ``--redo`` cut short), and counts as a timeout elsewhere."""
    if result.get("stopped") and old and old["status"] == "solved":
        return dict(old)
    if result["status"] == "timeout":
        return keep_proofs(old, result)
    if result["status"] == "error" and old and old["status"] in ("timeout", "solved"):
        return dict(old)
    return result


def floor_for(entries, spec, guesses, objective):
    """``(value, key)``: the best lower bound on the total of an entry that another
    solved entry proves (``key``), or None. A tree within t* guesses is a tree, so
    the capped total (``worst-then-expected``) is at least the optimum without the
    cap; a strategy of consistent guesses is one of any guesses, so the consistent
    optimum is at least the any-guess one (for the capped total, where both rules
    have the same t*, the cap of both). The entry's search stops as soon as its tree
    meets it (:class:`optimal_mm.search.LowerBound`): p4c9nb's capped total with
    consistent guesses, whose part of 1,909 secrets had a rival second guess
    meeting it, was left to prove its other rivals no better for hours.

    >>> entries = {"p4c6/any/expected": {"status": "solved", "value": 5625}}
    >>> floor_for(entries, "p4c6", "any", "worst-then-expected")
    (5625, 'p4c6/any/expected')
    >>> floor_for(entries, "p4c6", "consistent", "expected")
    (5625, 'p4c6/any/expected')
    >>> floor_for(entries, "p4c6", "any", "expected") is None
    True
    """
    keys = []
    if objective == "worst-then-expected":
        keys.append(f"{spec}/{guesses}/expected")
    if guesses == "consistent" and objective in ("expected", "worst-then-expected"):
        twin = {"status": "solved", "objective": objective, "spec": spec, "guesses": "any"}
        if objective == "expected" or _same_cap(entries, dict(twin, guesses=guesses), twin):
            keys.append(f"{spec}/any/{objective}")
    found = [(entries[k]["value"], k) for k in keys
             if entries.get(k, {}).get("status") == "solved"]
    return max(found, default=None, key=lambda vk: vk[0])


def cap_for(entries, spec, guesses, objective):
    """``(t*, key)``: the cap a ``fewest-at-worst`` entry runs under, its worst-case
    entry's optimum, or None. The search then skips the worst case (400 s of every
    run of p4c10nb's before its first expected task) and proves ``t*`` again on its
    way: one secret or more at the cap in its best tree means that no tree stays
    within ``t* - 1`` (:meth:`optimal_mm.search.Solver.fewest_at_worst`); a result of
    0 would show the worst-case entry wrong, and is refused (:func:`_worker`).

    >>> entries = {"p4c6/any/worst-case": {"status": "solved", "value": 5}}
    >>> cap_for(entries, "p4c6", "any", "fewest-at-worst")
    (5, 'p4c6/any/worst-case')
    >>> cap_for(entries, "p4c6", "consistent", "fewest-at-worst") is None
    True
    >>> cap_for(entries, "p4c6", "any", "worst-then-expected") is None
    True
    """
    wc = entries.get(f"{spec}/{guesses}/worst-case", {})
    if objective != "fewest-at-worst" or wc.get("status") != "solved":
        return None
    return wc["value"], f"{spec}/{guesses}/worst-case"


def ceiling_for(entries, spec, guesses, objective, folder: Path = FLOOR_TREES):
    """``(path, figure)``: the tree of ``results/trees`` (and its ``upper/`` and
    ``within/``) that bounds the entry best from above, and what it gives the table
    (the total; for ``fewest-at-worst`` the secrets at the cap), or None. The search
    starts from it as its best so far (:class:`optimal_mm.search.UpperBound`): a run
    stopped before its own first complete tree still bounds the cell (p6c7nb's fewest
    at 8 and p5c6b's total within 9 ran 20 and 15 minutes and left none, though a
    tree within the cap was in ``within/``). A candidate is any tree file named
    after the game that replays under the entry's guess rule within its cap (the
    worst-case entry's ``t*``, which the capped objectives need solved): an earlier
    run's best so far (``upper/``), a tree within ``t*`` (``within/``, the worst
    case's), a tree of another objective; the least cost wins (ties: the first by
    name). Nothing is searched: each candidate is only replayed.

    >>> ceiling_for({}, "p4c6", "any", "fewest-at-worst") is None  # t* not solved
    True
    """
    from optimal_mm import Game, Strategy
    from optimal_mm.errors import OptimalMMError
    from optimal_mm.search import UpperBound, cap_weight
    from optimal_mm.search_costs import _tree_cost

    cap = None
    if objective != "expected":
        wc = entries.get(f"{spec}/{guesses}/worst-case", {})
        if wc.get("status") != "solved":
            return None
        cap = wc["value"]
    game = Game.from_spec(spec)
    weight = cap_weight(game, cap) if objective == "fewest-at-worst" else 0
    label = "fewest-at-worst" if weight else "expected"
    names = {f"{spec}-", f"{game.name}-"}
    found = []
    for path in sorted(p for sub in ("", "upper", "within")
                       for p in (folder / sub).glob("*.json.gz")
                       if any(p.name.startswith(n) for n in names)):
        try:
            tree = UpperBound(Strategy.load(path), str(path)).fitted(game, guesses, label,
                                                                      cap)
        except OptimalMMError:  # another game's, another rule's, beyond the cap
            continue
        cost = _tree_cost(tree.declared, cap, weight)
        found.append((cost, str(path), divmod(cost, weight)[0] if weight else cost))
    if not found:
        return None
    _, path, figure = min(found, key=lambda f: f[0])
    return path, figure


def floor_tree(key: str, value: int, folder: Path = FLOOR_TREES) -> str | None:
    """The path of the optimal tree of the solved expected-case entry ``key`` in
    ``folder`` (``p4c8nb-expected.json.gz``), or None if there is none; a tree whose
    total is not ``value``, the entry's proven optimum, is refused (ValueError): only
    a tree of that total is optimal, and only an optimal tree's subtrees bound its
    parts (a capped tree bounds none: the capped entries' keys give None)."""
    from optimal_mm import Strategy

    spec, guesses, objective = key.split("/")
    if objective != "expected":  # only a tree without a cap bounds the parts
        return None
    path = Path(checkpoint_dir(folder, spec, guesses, objective) + ".json.gz")
    if not path.exists():
        return None
    total = Strategy.load(path).validate().total
    if total != value:
        raise ValueError(f"{path}: its total {total} is not {key}'s optimum {value}")
    return str(path)


def _shown(path) -> str:
    """A path as the table and the command lines name it: from the repository's root
    where it is inside (``scripts/upper_trees.py`` names its paths so too)."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _ceiling_record(ceiling) -> dict:
    """:func:`ceiling_for`'s ``(path, figure)`` as an entry records it (``ceiling``),
    solved or timed out: the tree its search started from and what it gives.

    >>> _ceiling_record((str(ROOT / "results" / "trees" / "x.json.gz"), 7))
    {'tree': 'results/trees/x.json.gz', 'value': 7}
    """
    return {"tree": _shown(ceiling[0]), "value": ceiling[1]}


def _worker(spec, objective, guesses, checkpoint, queue, split_secrets=None, wc_tree=None,
            chain_secrets=None, jobs=1, floor=None, min_seconds=0.0, progress_interval=None,
            cap=None, split_depth=None, table_entries=None, ceiling=None):
    """Solve one entry and put its result on ``queue`` (its bounds so far as the
    search reports them, before); with ``progress_interval``, the search's progress
    goes to stderr too, each line after the entry's key (:func:`_progress`).
    ``cap``: :func:`cap_for`'s ``(t*, key)``, the cap given to ``fewest-at-worst``;
    ``table_entries``: each search process's transposition table (None: ``solve``'s
    default); ``ceiling``: :func:`ceiling_for`'s ``(path, figure)``, the tree the
    search starts from as its best so far."""
    from optimal_mm import Game, Strategy
    from optimal_mm.search import LowerBound, UpperBound, solve

    # Load the compiled search (JIT cache) first, so that only the search is timed.
    solve(Game.from_spec("p2c3"), objective, guesses, jobs=1)
    options = {"jobs": jobs,
               "progress": _progress(queue, f"{spec}/{guesses}/{objective}",
                                     progress_interval)}
    if checkpoint:
        options["checkpoint"] = checkpoint_dir(checkpoint, spec, guesses, objective)
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
    if floor is not None and len(floor) > 2:  # with that entry's optimal tree
        bound = LowerBound.from_tree(Strategy.load(floor[2]), f"{source}, its tree "
                                     f"{Path(floor[2]).relative_to(ROOT)}",
                                     Game.from_spec(spec), guesses)
    else:
        bound = None if floor is None else LowerBound(floor[0], source)
    if ceiling is not None:
        options["ceiling"] = UpperBound(Strategy.load(ceiling[0]), _shown(ceiling[0]))
    start = time.perf_counter()
    sol = solve(Game.from_spec(spec), objective, guesses, None if cap is None else cap[0],
                floor=bound, **options)
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
        result["ceiling"] = _ceiling_record(ceiling)
    # What the proof may rest on: a total that meets the floor (the search may have
    # stopped there), or any part's race stopped at its own floor (from the tree)
    if floor is not None and (sol.value == floor[0] or len(floor) > 2):
        result["floor"] = {"value": floor[0], "entry": floor[1]}
        if len(floor) > 2:
            result["floor"]["tree"] = str(Path(floor[2]).relative_to(ROOT))
    queue.put(result)


class Entry:
    """One table entry solved in its own spawned worker process, within a time limit."""

    def __init__(self, key, spec, objective, guesses, time_limit, checkpoint=None,
                 **options):
        """``options``: :func:`_worker`'s keywords (``jobs``, ``floor``, ...)."""
        self.key, self.time_limit = key, time_limit
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

        The limit counts from the start of the process; start-up and the warm-up (a
        second or two) are granted on top. The worker's partial reports (best and
        bound so far) are kept and go into a timeout's result.
        """
        result = self._read(timeout=0.2)
        elapsed = time.perf_counter() - self.start
        if result is None and self.proc.is_alive() and elapsed < self.time_limit + 10:
            return None
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        if result is None:
            status = "timeout" if self.proc.exitcode in (None, -9) else "error"
            return self._unfinished(status, elapsed)
        result["status"] = "solved"
        return result

    def halt(self, why: str) -> dict:
        """The result of an entry whose run is stopped before its limit (``why``:
        ``"interrupted"`` by Ctrl-C, ``"terminated"`` by SIGTERM): what its search
        had proven, as a timeout's, marked ``"stopped": why``; or its result, had it
        just finished. The worker is stopped (its finished tasks are in its
        checkpoint)."""
        elapsed = time.perf_counter() - self.start
        result = self._read()
        self.stop()
        if result is not None:
            result["status"] = "solved"
            return result
        return {**self._unfinished("timeout", elapsed), "stopped": why}

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
                result["ceiling"] = _ceiling_record(self.ceiling)
        return result


def _write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def save(entries, meta):
    """Write the table's JSON and its Markdown page: each atomically, and the two
    together, a Ctrl-C or SIGTERM that comes meanwhile held until both are written
    (one once stopped a run between the two, leaving the page behind the JSON)."""
    RESULTS.mkdir(exist_ok=True)
    doc = {"meta": meta, "entries": entries}
    texts = [(JSON_PATH, json.dumps(doc, indent=1, sort_keys=True) + "\n"),
             (MD_PATH, markdown(entries, meta))]
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        for path, text in texts:
            _write_atomic(path, text)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def update_table(change) -> tuple[dict, dict]:
    """Read the table, apply ``change(entries, meta)`` to it in place and write it
    back (JSON and markdown), under an exclusive lock on a file beside the JSON.

    Several runs may share the table (one entry that takes hours beside a batch of
    short ones): each merges its result into what the others have written since it
    started, rather than writing back the table as it read it then. Returns the
    entries and meta as written."""
    RESULTS.mkdir(exist_ok=True)
    with open(JSON_PATH.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        doc = json.loads(JSON_PATH.read_text()) if JSON_PATH.exists() else {}
        entries, meta = doc.get("entries", {}), doc.get("meta", {})
        change(entries, meta)
        save(entries, meta)
    return entries, meta


def read_entries() -> dict:
    """The table's entries as other runs have written them so far (under the lock)."""
    if not JSON_PATH.exists():
        return {}
    with open(JSON_PATH.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        return json.loads(JSON_PATH.read_text()).get("entries", {})


def bounds_text(entry, twin=None, marks=("", ""), same_cap: bool = False) -> str:
    """A cell of an entry that is not solved: ``(timeout)``, and what its searches
    had proven when stopped (``(timeout) ≥ 18402, ≤ 18763``).

    ``twin``, the same game and objective under the other guess rule, adds what it
    implies, marked ``*``: a strategy of consistent guesses is also one of any
    guesses, so the optimum with any guesses is at most the consistent one (at most
    its value if solved, else its best tree), and the consistent one at least the
    optimum with any guesses (at least its value, else its proven bound)
    (``(timeout) ≥ 8, ≤ 9*``). For the capped objectives (``fewest-at-worst``,
    ``worst-then-expected``) this holds only where both rules have the same optimal
    worst case, the cap of both searches (``same_cap``): then the consistent trees
    within the cap are some of the any-guess ones. A capped cell never collapses to
    a lone value, since its tie-break (the total) stays unproven.
    """
    text = f"({entry['status']})"
    low, high = entry.get("bound"), entry.get("best")
    low_text = high_text = ""
    if low is not None:
        low_text = f"≥ {low}{marks[0]}"
    if high is not None:
        high_text = f"≤ {high}{marks[1]}"
        if _from_ceiling(entry):
            high_text += "°"
    capped = entry.get("objective") in ("fewest-at-worst", "worst-then-expected")
    if (twin and entry.get("status") == "timeout"
            and (entry["objective"] in ("worst-case", "expected") or capped and same_cap)):
        solved = twin.get("status") == "solved"
        if entry["guesses"] == "any":
            value = twin["value"] if solved else twin.get("best")
            if value is not None and (high is None or value < high):
                high, high_text = value, f"≤ {value}*"
        else:
            value = twin["value"] if solved else twin.get("bound")
            if value is not None and (low is None or value > low):
                low_text = f"≥ {value}*"
    if entry.get("status") == "timeout" and entry.get("objective") == "worst-case":
        proven = max([v for v in (low, _implied_low(entry, twin)) if v is not None],
                     default=None)
        tree = closed_by_tree(entry["spec"], entry["guesses"])
        if proven is not None and tree == proven:
            return f"{tree}‡"
        if tree is not None and (high is None or tree < high):
            high, high_text = tree, f"≤ {tree}‡"
    if (entry.get("status") == "timeout" and low is not None and high_text == f"≤ {low}*"
            and not capped):
        return f"{low}*"  # its own bound meets what the other rule's optimum implies
    known = [t for t in (low_text, high_text) if t]
    return text + (" " + ", ".join(known) if known else "")


def same_game(spec: str):
    """The spec of the same game under the other scoring, for a permutation game (as
    many colours as pegs, no repeats: every code has every colour, so whites are
    ``P - blacks`` and black-only scoring tells exactly as much), else None.

    >>> same_game("p7c7n"), same_game("p7c7nb"), same_game("p6c7n")
    ('p7c7nb', 'p7c7n', None)
    """
    m = re.fullmatch(r"p(\d+)c(\d+)n(b?)", spec)
    if not m or m.group(1) != m.group(2):
        return None
    return spec[:-1] if m.group(3) else spec + "b"


def with_same_game(entry, same):
    """An open ``entry`` with the bounds of its twin under the other scoring
    (:func:`same_game`) where they are better, and the marks of :func:`bounds_text`
    (``§`` on what the twin gives)."""
    low, high = entry.get("bound"), entry.get("best")
    other_low, other_high = (same or {}).get("bound"), (same or {}).get("best")
    merged, marks = dict(entry), ["", ""]
    if other_low is not None and (low is None or other_low > low):
        merged["bound"], marks[0] = other_low, "§"
    if other_high is not None and (high is None or other_high < high):
        merged["best"], marks[1] = other_high, "§"
    return merged, tuple(marks)


def same_game_text(entry, same) -> str | None:
    """The cell of an open entry of a permutation game whose twin under the other
    scoring (:func:`same_game`, same guess rule and objective) knows more: its value
    (``3924§``), or both entries' bounds combined (``(timeout) ≥ 29423§, ≤ 33389``,
    ``§`` on what the twin gives); None where the twin adds nothing."""
    if not same or entry.get("status") == "solved":
        return None
    if same.get("status") == "solved":
        return f"{same['value']}§"
    merged, marks = with_same_game(entry, same)
    return bounds_text(merged, None, marks) if marks != ("", "") else None


def open_cell(entries, entry) -> str:
    """The cell of an open entry: what its searches proved (:func:`bounds_text`), with
    what the other guess rule's entry implies (``*``; that entry's value may come from
    the same game under the other scoring) and the twin under the other scoring's
    bounds (``§``), or the twin's value where it is solved."""
    spec, guesses, objective = entry["spec"], entry["guesses"], entry["objective"]
    other = "consistent" if guesses == "any" else "any"
    twin = entries.get(f"{spec}/{other}/{objective}")
    same_spec = same_game(spec)
    same = entries.get(f"{same_spec}/{guesses}/{objective}") if same_spec else None
    if same and same.get("status") == "solved":
        return same_game_text(entry, same)
    twin_same = entries.get(f"{same_spec}/{other}/{objective}") if same_spec else None
    if twin_same and twin_same.get("status") == "solved" and (
            not twin or twin.get("status") != "solved"):
        twin = twin_same  # the other rule's optimum, known through the same game
    merged, marks = with_same_game(entry, same)
    if objective == "worst-then-expected":
        # A tree within t* is a tree: its total is at least the optimum without a cap.
        total = entries.get(f"{spec}/{guesses}/expected", {})
        if total.get("status") == "solved" and (merged.get("bound") is None
                                                or total["value"] > merged["bound"]):
            merged["bound"], marks = total["value"], ("", marks[1])
    return bounds_text(merged, twin, marks, same_cap=twin is not None and _same_cap(
        entries, entry, twin))


def _same_cap(entries, entry, twin) -> bool:
    """Whether two entries of one game have the same optimal worst case, solved for
    both (the cap of their capped searches); a twin from the same game under the
    other scoring (:func:`same_game`) is looked up under its own spec."""
    caps = [entries.get(f"{e['spec']}/{e['guesses']}/worst-case", {}) for e in (entry, twin)]
    return (all(c.get("status") == "solved" for c in caps)
            and caps[0]["value"] == caps[1]["value"])


SAME_GAME_NOTE = ("§ from the same game under the other scoring: in a permutation game "
                  "(pPcPn, as many colours as pegs, no repeats) every code has every "
                  "colour, so the whites are P minus the blacks and pPcPn and pPcPnb "
                  "tell the same; their solved entries above agree row for row.")


def _from_ceiling(entry) -> bool:
    """Whether a timed-out entry's best is the tree its search started from
    (:func:`ceiling_for`), not one it built: marked ``°``.

    >>> _from_ceiling({"status": "timeout", "best": 7, "ceiling": {"value": 7}})
    True
    >>> _from_ceiling({"status": "timeout", "best": 6, "ceiling": {"value": 7}})
    False
    """
    ceiling = entry.get("ceiling")
    return (entry.get("status") == "timeout" and ceiling is not None
            and entry.get("best") == ceiling["value"])


def _ceiling_note(entries) -> str:
    """The legend of ``°``: each entry whose cell shows it, and its tree (not those
    whose cell shows a better bound that the other guess rule implies)."""
    cells = [f"{k} (`{e['ceiling']['tree']}`)" for k, e in sorted(entries.items())
             if _from_ceiling(e) and "°" in open_cell(entries, e)]
    return ("° the best tree known is one of `results/trees/` that the entry's search "
            "started from (`optimal_mm.search.UpperBound`: a tree of its guess rule "
            "within its cap, such as the worst case's own or an earlier run's best, "
            "replayed), not one it built: " + "; ".join(cells) + ".")


def _implied_low(entry, twin):
    """The lower bound a consistent entry takes from its any-guess twin, or None."""
    if not twin or entry.get("guesses") != "consistent":
        return None
    return twin["value"] if twin.get("status") == "solved" else twin.get("bound")


def closed_by_tree(spec: str, guesses: str):
    """The fewest guesses of a tree ``scripts/within_trees.py`` found for this open
    worst case, replayed for every secret (results/within.json), or None."""
    return least_tree(f"{spec}/{guesses}")


CLOSED_NOTE = ("‡ a tree of this many guesses found by the bounded search of "
               "`optimal-mm within`, replayed for every secret (`python "
               "scripts/within_trees.py`, results/within.md): alone (*8‡*) it closes the "
               "entry, the entry's search (or, for consistent guesses, the any-guess "
               "entry) having proved that one guess fewer does not suffice; after *≤* it "
               "is an upper bound. A tree of consistent guesses counts for the any-guess "
               "entry too.")


IMPLIED_NOTE = ("* implied by the entry of the other guess rule (its value, or what its "
                "search had proven): a strategy of consistent guesses is also one of any "
                "guesses, so the optimum with any guesses is at most the consistent one "
                "(in the columns *at t\\** and *total ≤ t\\**, where both rules have the "
                "same t\\*). Alone (*11\\**), the entry's own proven lower bound meets "
                "that upper bound: the optimum.")


def markdown(entries, meta) -> str:
    lines = [
        "# Proven optima of small Mastermind-family games",
        "",
        "Every value below was proven by this project's exact search "
        "(`python scripts/optimal_tables.py`), on " + meta["machine"] + ", one process per "
        f"entry (jobs 1; {meta.get('parallel', 1)} entries at a time), time limit "
        f"{meta['time_limit']} s each; *s* is the search time in "
        "seconds, tree replay excluded. Spec: `pPcC`, suffix `n` = no "
        "repeated colours, `b` = black-only scoring. *t\\** = fewest guesses that always "
        "suffice; *total* = least number of guesses summed over all secrets (final guess "
        "included); *at t\\** = fewest secrets that need all t\\* guesses, over the trees "
        "with the optimal worst case (`--objective fewest-at-worst`; the least total among "
        "those trees follows the slash; runs since 2026-12-01 take the worst-case entry's "
        "t\\* as their cap, `--max-guesses`, and prove it again: one secret or more at "
        "t\\* in the best tree within t\\* means that none keeps within t\\* - 1); "
        "*total ≤ t\\** = least total within t\\* guesses "
        "(`--objective worst-then-expected`), run where the optimal expected tree needs "
        "more than t\\* guesses (blank elsewhere: there it equals *total*; *(not run)* "
        "where it is needed but has not been run yet). An entry "
        "that timed out shows what its search had proven when stopped (worst case and "
        "expected, runs since 2026-11-25; at t\\*, runs from the day's later commits; "
        "total ≤ t\\*, runs from 2026-11-27): "
        "≥ its lower bound (a total within t\\*, at least the total without the cap), "
        "≤ the best complete tree it had found (its total, or its "
        "secrets at t\\*; for some, that tree is in `results/upper_trees.md`, "
        "replayed for every secret; runs since 2026-12-04 start from the best tree of "
        "`results/trees/` that fits the entry's cap and guess rule, named in the JSON "
        "as its `ceiling`); `*` marks what the other guess rule's entry "
        "implies. "
        "`results/black_only.md` brackets the open entries further. Agreement with "
        "a published value is marked: = agrees, ≠ DISAGREES.",
        "",
        *([meta["note"], ""] if meta.get("note") else []),
        *[line for run in meta.get("runs", []) for line in (_run_text(run), "")],
        "| game | codes | guesses | t* | s | total | average | s | at t* | s | total ≤ t* "
        "| s | published |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    by_key = {}
    for e in entries.values():
        by_key.setdefault((e["codes"], e["spec"], e["guesses"]), {})[e["objective"]] = e
    for (codes, spec, guesses), objs in sorted(by_key.items()):
        wc, ex = objs.get("worst-case", {}), objs.get("expected", {})
        fa, we = objs.get("fewest-at-worst", {}), objs.get("worst-then-expected", {})

        def cell(e, key):
            if not e:
                return "", ""
            if e["status"] != "solved":
                return (open_cell(entries, e),
                        f"> {e['seconds']}" if e["status"] == "timeout" else "")
            resumed = "†" if e.get("resumed_tasks") else ""
            return str(e[key]), f"{e['seconds']:.2f}{resumed}"

        t, ts = cell(wc, "value")
        tot, es = cell(ex, "value")
        at_worst, fs = cell(fa, "value")
        if fa.get("status") == "solved":
            at_worst += f" / {fa['tree_total']}"
        capped, ws = cell(we, "value")
        if not we and eligible(entries, spec, guesses, "worst-then-expected"):
            capped = "(not run)"  # needed (the optimal tree is deeper than t*), not yet run
        avg = f"{ex['value'] / codes:.4f}" if ex.get("status") == "solved" else ""
        notes = []
        for e in (wc, ex, we):
            if e and e.get("published") is not None:
                mark = "=" if e.get("value") == e["published"] else (
                    "?" if e["status"] != "solved" else "≠")
                notes.append(f"{e['published']} {mark} ({e['source']})")
        lines.append(f"| {spec} | {codes} | {guesses} | {t} | {ts} | {tot} | {avg} | {es} | "
                     f"{at_worst} | {fs} | {capped} | {ws} | {'; '.join(notes)} |")
    if any("*" in line for line in lines[-len(by_key):]):
        lines += ["", IMPLIED_NOTE]
    if any("§" in line for line in lines[-len(by_key):]):
        lines += ["", SAME_GAME_NOTE]
    if any("‡" in line for line in lines[-len(by_key):]):
        lines += ["", CLOSED_NOTE]
    if any("°" in line for line in lines[-len(by_key):]):
        lines += ["", _ceiling_note(entries)]
    floored = sorted(k for k, e in entries.items()
                     if e.get("status") == "solved" and e.get("floor"))
    if floored:
        lines += ["", "Solved with another entry's optimum as a lower bound "
                  "(`optimal_mm.search.LowerBound`: the search stops where its tree meets "
                  "it, the rivals left unsearched; the two proofs together prove the "
                  "entry): " + "; ".join(_floor_text(k, entries[k]) for k in floored) + "."]
    if any(e.get("resumed_tasks") for e in entries.values()):
        lines += ["", "† the last sitting of an entry solved over several "
                  "(`--checkpoint`): it read the tasks finished before from its checkpoint; "
                  "the runs above give the whole time."]
    missing = [f"{spec}/{guesses}/{objective}" for spec in games(meta.get("max_codes", 5000))
               for guesses in ("any", "consistent") for objective in OBJECTIVES
               if f"{spec}/{guesses}/{objective}" not in entries
               and eligible(entries, spec, guesses, objective)]
    if missing:
        lines += ["", f"Not run yet ({len(missing)}; a rerun of the command resumes with "
                  "them): " + ", ".join(missing) + "."]
    return "\n".join(lines) + "\n"


def _floor_text(key: str, entry: dict) -> str:
    """An entry solved with a floor, for the table's note: which entry's optimum,
    its tree where its subtrees bounded the parts on its path too, and why it bounds."""
    floor = entry["floor"]
    tree = (f" and its tree's subtrees (`{floor['tree']}`)"
            if floor.get("tree") else "")
    return (f"{key} ({floor['entry']}'s {floor['value']}{tree}: "
            f"{_floor_why(key, floor['entry'])})")


def _floor_why(key: str, source: str) -> str:
    """Why the solved entry ``source`` bounds the entry ``key`` from below
    (:func:`floor_for`): an uncapped optimum bounds a capped one, an any-guess
    optimum a consistent one."""
    if source.rsplit("/", 1)[1] != key.rsplit("/", 1)[1]:
        return "a tree within t\\* is a tree"
    return "consistent guesses are guesses"


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


def _run_text(run) -> str:
    """The paragraph on a run after the first (its own command, limit and remark)."""
    text = (f"Then `{run['command']}`: one process per entry (jobs {run.get('jobs', 1)}; "
            f"{run['parallel']} at a time), time limit {run['time_limit']} s each.")
    return text + (f" {run['note']}" if run.get("note") else "")


def main(argv=None) -> int:
    from optimal_mm.search import DEFAULT_TABLE_ENTRIES, WC_TREE_RULES

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
    parser.add_argument("--split-secrets", type=int, metavar="N",
                        help="worst case: search a first guess's parts of N secrets or "
                             "more one second guess per task (optimal-mm solve "
                             "--split-secrets), so that a long refutation saves its "
                             "progress in the checkpoint more often")
    parser.add_argument("--split-depth", type=int, metavar="D",
                        help="worst case: split deeper, down to D guesses below the first "
                             "(optimal-mm solve --split-depth; default 1), so that tasks "
                             "of hours are saved in pieces")
    parser.add_argument("--wc-tree", choices=WC_TREE_RULES,
                        help="worst case: how the tree picks its guesses (optimal-mm solve "
                             "--wc-tree; default small-total): first builds a big game's "
                             "tree in a fraction of the time, with a larger total")
    parser.add_argument("--chain-secrets", type=int, metavar="N",
                        help="expected, fewest-at-worst, worst-then-expected: below the "
                             "first guess, never search a part of N secrets or more as one "
                             "task (optimal-mm solve --chain-secrets), so that work of "
                             "hours is saved in the checkpoint a piece at a time")
    parser.add_argument("--checkpoint-min-seconds", type=float, default=0.0, metavar="S",
                        help="with --checkpoint: do not save a task of less than S seconds "
                             "of processor time (optimal-mm solve --checkpoint-min-seconds; "
                             "default 0: save all)")
    parser.add_argument("--progress-interval", type=float, metavar="SECONDS",
                        help="write each entry's search progress to stderr, every line "
                             "after the entry's key, at most one line a phase every "
                             "SECONDS (optimal-mm solve --progress-interval; default: "
                             "none, the table's lines only)")
    parser.add_argument("--table-entries", type=int, metavar="N",
                        help="transposition-table entries of each search process "
                             "(optimal-mm solve --table-entries; default "
                             f"{DEFAULT_TABLE_ENTRIES:,}, at most 24 bytes each): a task "
                             "that searches more states than its table holds searches "
                             "some of them again")
    args = parser.parse_args(argv)
    if args.table_entries is not None and args.table_entries < 0:
        parser.error(f"--table-entries must be 0 or more, got {args.table_entries}")
    if args.split_secrets is not None and args.split_secrets < 1:
        parser.error(f"--split-secrets must be 1 or more, got {args.split_secrets}")
    if args.split_depth is not None and args.split_depth < 1:
        parser.error(f"--split-depth must be 1 or more, got {args.split_depth}")
    if args.chain_secrets is not None and args.chain_secrets < 1:
        parser.error(f"--chain-secrets must be 1 or more, got {args.chain_secrets}")
    if args.jobs < 1:
        parser.error(f"--jobs must be 1 or more, got {args.jobs}")
    for option in ("checkpoint_min_seconds", "progress_interval"):
        value = getattr(args, option)
        if value is not None and not 0 <= value < float("inf"):
            parser.error(f"--{option.replace('_', '-')} must be a finite number of 0 or "
                         f"more, got {value}")
    from optimal_mm.errors import OptimalMMError, check_time_limit

    try:  # the rule of every time limit (optimal_mm.errors)
        check_time_limit(args.time_limit)
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
    # entry's limit stays on record.
    run = {"time_limit": args.time_limit, "parallel": args.parallel,
           "command": _command(argv or sys.argv[1:])}
    if args.jobs != 1:  # the runs before this option all had one
        run["jobs"] = args.jobs

    def add_run(entries, meta):
        if not meta:
            meta.update(run, machine=f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
                        max_codes=args.max_codes)
        else:
            runs = [r for r in meta.get("runs", []) if r["command"] != run["command"]]
            meta["runs"] = runs + [{**run, "note": args.run_note}]
        if args.note is not None or "note" not in meta:
            meta["note"] = args.note

    entries, meta = update_table(add_run)
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
    running = []
    try:
        _run_entries(args, todo, running)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as guarded() raises it
        from optimal_mm.cli import interrupted_status, interruption

        why = interruption(exc)
        for entry, spec, guesses, objective in running:
            _record(entry, spec, guesses, objective, entry.halt(why))
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


def _run_entries(args, todo, running) -> None:
    """Solve the entries ``todo``, ``args.parallel`` at a time (``running``: those
    started), each result merged into the table as it comes."""
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
            _record(entry, spec, guesses, objective, result)


def _record(entry, spec, guesses, objective, result) -> None:
    """Merge an entry's ``result`` into the table as it is now (another run may have
    written since), with the game's published value, and say so in one line."""
    from optimal_mm import Game

    game = Game.from_spec(spec)
    value, source = published(spec, game.pegs, game.colours, game.repeats,
                              game.scoring, guesses, objective)
    result.update({"spec": spec, "codes": game.n_codes, "guesses": guesses,
                   "objective": objective, "published": value, "source": source})

    def put(entries, meta):
        entries[entry.key] = merged_entry(entries.get(entry.key), result)

    kept = update_table(put)[0][entry.key]
    note = (f"; the entry keeps its earlier {kept['status']}"
            if kept["status"] != result["status"] else "")
    said = [result["status"] + (f", {result['stopped']}" if result.get("stopped") else "")]
    if result.get("value") is not None:
        said.append(str(result["value"]))
    print(f"{entry.key}: {' '.join(said)} ({result['seconds']} s){note}", flush=True)


if __name__ == "__main__":
    # A stopped run (Ctrl-C; SIGTERM from kill or a CI limit, raised as Ctrl-C is
    # while main() runs) exits through Python: it records what its running entries
    # had proven and kills their workers; every entry finished so far is already
    # saved. Stopped elsewhere, or on bad input: one line.
    from optimal_mm.cli import guarded

    sys.exit(guarded(PROG, main))
