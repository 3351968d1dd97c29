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

Either objective may be restricted to *consistent* guesses (hard mode: every guess
could still be the secret).

How the work is split
    The root's guesses are cut to one per orbit of the full symmetry group
    (:mod:`optimal_mm.symmetry`); each part of a first guess (the secrets giving one
    answer) is a *task*, whose own guesses are cut to one per orbit of the group
    fixing the first guess and the part. Tasks run in parallel with joblib (loky
    processes by default), largest first; each process keeps its own
    transposition table between tasks. Every task's answer is exact or a proven
    bound fixed before dispatch, so the result does not depend on the number of
    jobs or on the order in which tasks finish.

    Expected case, in two phases: (1) the first guess with the best lower bound is
    solved exactly, one task per part, which gives an upper bound ``U``; (2) every
    other first guess whose bound is below ``U`` is searched as one task, its parts
    in sequence, with budget ``U``: it is kept only if it proves strictly better.
    Worst case: for ``t`` from the counting bound upwards, first guesses are tried
    in order of their largest part; a first guess proves ``t`` when all its parts
    are feasible within ``t - 1``; ``t`` is refuted when none does.

Memory: the answer table (``N**2`` bytes) plus, per process, a transposition table
of at most ``table_entries`` states (about 40 bytes each; new states are not stored
once it is full).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import numpy as np

from . import __version__
from . import _search
from .errors import InfeasibleError, InvalidGameError, TooLargeError
from .game import Game, partition_counts
from .symmetry import orbit_representatives
from .tree import Node, Strategy

OBJECTIVES = ("worst-case", "expected", "worst-then-expected")
#: Exact search refuses games with more codes than this (see :func:`check_feasible`).
MAX_EXACT_CODES = 12_000
DEFAULT_TABLE_ENTRIES = 8_000_000


def check_feasible(game: Game) -> None:
    """Refuse, up front, a game too big for exact search, saying why and what is feasible."""
    n = game.n_codes
    if n > MAX_EXACT_CODES:
        raise TooLargeError(
            f"{game.spec} has {n:,} codes: exact search needs the {n * n / 2**30:.1f} GiB "
            f"answer table and a search far beyond hours; it is limited to "
            f"{MAX_EXACT_CODES:,} codes (e.g. p4c8, p4c10n, p5c6, p6c4). Use "
            f"'optimal-mm strategy {game.spec} --heuristic entropy' instead"
        )


@dataclass
class SearchStats:
    """Counters of the search, summed over all processes."""

    states: int = 0
    table_hits: int = 0
    guesses: int = 0
    stored: int = 0

    def add(self, counters) -> None:
        self.states += int(counters[0])
        self.table_hits += int(counters[1])
        self.guesses += int(counters[2])
        self.stored += int(counters[3])

    def __str__(self) -> str:
        return (f"states {self.states:,}, table hits {self.table_hits:,}, "
                f"guesses evaluated {self.guesses:,}")


@dataclass
class Solution:
    """What a search proved, and the tree that attains it."""

    game: Game
    objective: str
    guesses: str
    max_guesses: int | None
    value: int | None
    strategy: Strategy | None
    stats: SearchStats
    seconds: float
    proof: list[str] = field(default_factory=list)

    @property
    def feasible(self) -> bool:
        return self.strategy is not None


# ---------------------------------------------------------------------------
# Per-process search context
# ---------------------------------------------------------------------------
class _Context:
    """Everything the compiled search needs for one game and guess rule."""

    def __init__(self, game: Game, consistent: bool, table_entries: int):
        self.game = game
        self.consistent = consistent
        self.table = game.answer_table()
        self.all_guesses = np.arange(game.n_codes, dtype=np.int64)
        r = len(game.possible_answers) - 1
        self.lb = _search.lower_bound_table(game.n_codes, max(r, 1))
        self.win = game.win
        self.n_slots = game.n_answer_slots
        self.exp_tt = _search.new_table()
        self.wc_tt = _search.new_table()
        self.counters = np.zeros(5, dtype=np.int64)
        self.counters[4] = table_entries
        self.rules = (game.codes, game.colours, game.repeats)

    def _top(self, top):
        return np.asarray(top if top is not None else [], dtype=np.int64)

    def exp(self, S, beta, d, top=None):
        return _search.exp_search(S, beta, d, self._top(top), self.table, self.all_guesses,
                                  self.lb, self.win, self.n_slots, self.consistent,
                                  self.exp_tt, self.counters, *self.rules)

    def wc(self, S, d, top=None) -> bool:
        ok, _ = _search.wc_search(S, d, self._top(top), self.table, self.all_guesses, self.lb,
                                  self.win, self.n_slots, self.consistent, self.wc_tt,
                                  self.counters, *self.rules)
        return bool(ok)

    def split(self, g, S):
        answers = self.table[g][S]
        return [(int(a), S[answers == a]) for a in np.unique(answers) if a != self.win]

    def exp_tree(self, S, d, top=None):
        """``(guess, {answer: subtree})`` of an optimal subtree (``S`` must be feasible)."""
        if len(S) <= 2:
            g = int(S[0])
        else:
            guesses = top if top is not None else (S if self.consistent else self.all_guesses)
            v, g = self.exp(S, _search.INF, d, guesses)
            if g < 0:
                raise InfeasibleError(f"no subtree within {d} guesses for {len(S)} secrets")
        child_d = d if d >= _search.NO_CAP else d - 1
        return (int(g), {a: self.exp_tree(part, child_d) for a, part in self.split(g, S)})

    def wc_tree(self, S, d):
        """``(guess, {answer: subtree})`` of a subtree within ``d`` guesses."""
        g = int(_search.wc_pick(S, d, self.table, self.all_guesses, self.lb, self.win,
                                self.n_slots, self.consistent, self.wc_tt, self.counters,
                                *self.rules))
        if g < 0:
            raise InfeasibleError(f"no subtree within {d} guesses for {len(S)} secrets")
        return (g, {a: self.wc_tree(part, d - 1) for a, part in self.split(g, S)})


_CONTEXTS: dict = {}


def _context(game: Game, consistent: bool, table_entries: int) -> _Context:
    key = (game, consistent, table_entries)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        _CONTEXTS.clear()  # one game at a time per process keeps memory bounded
        ctx = _CONTEXTS[key] = _Context(game, consistent, table_entries)
    return ctx


def _part_guesses(game, first, part, consistent, symmetry):
    """Guesses to try at the node below ``first`` whose secrets are ``part``."""
    if not symmetry:
        return part if consistent else None
    return orbit_representatives(game, [first], secrets=part,
                                 candidates=part if consistent else None)


# Tasks run in worker processes: module-level functions of plain arguments.
def _exp_part_task(game, consistent, entries, symmetry, first, part, budget, d, want_tree):
    ctx = _context(game, consistent, entries)
    before = ctx.counters.copy()
    top = _part_guesses(game, first, part, consistent, symmetry)
    value, _ = ctx.exp(part, budget, d, top)
    tree = None
    if want_tree and value < budget:
        tree = ctx.exp_tree(part, d, top)
    return int(value), tree, ctx.counters[:4] - before[:4]


def _exp_guess_task(game, consistent, entries, symmetry, first, parts, lbs, n, bound, d):
    """Total of ``first`` if it is below ``bound`` (parts in sequence), else None."""
    ctx = _context(game, consistent, entries)
    before = ctx.counters.copy()
    acc, rem = n, int(sum(lbs))
    result = None
    for part, lb in zip(parts, lbs):
        rem -= lb
        budget = bound - acc - rem
        top = _part_guesses(game, first, part, consistent, symmetry)
        value, _ = ctx.exp(part, budget, d, top)
        acc += int(value)
        if acc + rem >= bound:
            break
    else:
        result = acc
    return result, ctx.counters[:4] - before[:4]


def _wc_part_task(game, consistent, entries, symmetry, first, part, d, want_tree):
    ctx = _context(game, consistent, entries)
    before = ctx.counters.copy()
    top = _part_guesses(game, first, part, consistent, symmetry)
    ok = ctx.wc(part, d, top)
    tree = ctx.wc_tree(part, d) if ok and want_tree else None
    return ok, tree, ctx.counters[:4] - before[:4]


# ---------------------------------------------------------------------------
# The solver
# ---------------------------------------------------------------------------
class Solver:
    """Exact solver for one game.

    Parameters
    ----------
    game : Game
    guesses : {"any", "consistent"}
    symmetry : bool
        Cut guesses to one per orbit at the top two levels (``False`` for comparison).
    jobs : int
        Worker processes (joblib); ``-1`` or ``None`` means all cores, 1 runs in-process.
    backend : str
        joblib backend (``"loky"`` by default).
    table_entries : int
        Capacity of each process's transposition table.
    progress : callable, optional
        Called with a one-line message as phases and tasks complete.
    """

    def __init__(self, game: Game, guesses: str = "any", symmetry: bool = True,
                 jobs: int | None = None, backend: str = "loky",
                 table_entries: int = DEFAULT_TABLE_ENTRIES, progress=None):
        if guesses not in ("any", "consistent"):
            raise InvalidGameError(f"guesses must be 'any' or 'consistent', got {guesses!r}")
        check_feasible(game)
        self.game = game
        self.guesses = guesses
        self.consistent = guesses == "consistent"
        self.symmetry = symmetry
        self.jobs = os.cpu_count() or 1 if jobs in (None, -1, 0) else int(jobs)
        self.backend = backend
        self.entries = int(table_entries)
        self.progress = progress or (lambda message: None)
        self.stats = SearchStats()
        self._ctx = _context(game, self.consistent, self.entries)

    # -------------------------------------------------------------- running
    def _run(self, fn, arg_lists):
        """Run tasks (each a tuple of arguments after the common ones), in order."""
        common = (self.game, self.consistent, self.entries, self.symmetry)
        if self.jobs == 1 or len(arg_lists) <= 1:
            return [fn(*common, *args) for args in arg_lists]
        from joblib import Parallel, delayed

        with Parallel(n_jobs=self.jobs, backend=self.backend) as parallel:
            return parallel(delayed(fn)(*common, *args) for args in arg_lists)

    def _root(self):
        game, ctx = self.game, self._ctx
        secrets = ctx.all_guesses
        if self.symmetry:
            reps = orbit_representatives(game, [])
        else:
            reps = secrets
        return secrets, reps

    def _parts(self, g, secrets):
        """Parts of ``secrets`` under ``g``, largest first (ties by answer)."""
        parts = self._ctx.split(g, secrets)
        parts.sort(key=lambda ap: (-len(ap[1]), ap[0]))
        return parts

    def _strategy(self, objective, cap, tree, optimal, seconds, extra):
        game = self.game

        def build(sub):
            g, children = sub
            return Node(game.code_str(g),
                        {game.answer_str(a): build(c) for a, c in sorted(children.items())})

        meta = {"solver": f"optimal_mm {__version__}", "seconds": round(seconds, 3),
                "symmetry": self.symmetry, "jobs": self.jobs}
        meta.update(extra)
        strategy = Strategy(game, build(tree), self.guesses, objective, cap, optimal, meta=meta)
        strategy.declared = strategy.validate()
        return strategy

    # ----------------------------------------------------------- worst case
    def worst_case(self, max_guesses: int | None = None) -> Solution:
        """Find ``t*`` (or test one cap) and a tree within it."""
        start = time.perf_counter()
        game, ctx = self.game, self._ctx
        secrets, reps = self._root()
        n = len(secrets)
        counting = next(d for d in range(1, _search.NO_CAP + 1) if ctx.lb[d, n] < _search.INF)
        proof = []
        if max_guesses is not None:
            depths = [max_guesses]
        else:
            depths = range(counting, _search.NO_CAP + 1)
        order = self._wc_order(reps, secrets)
        for d in depths:
            if d < counting:
                proof.append(f"{d} guesses: impossible by the counting bound "
                             f"({n} secrets, {len(game.possible_answers)} answers)")
                continue
            found = self._wc_try(d, order, secrets)
            if found is not None:
                g, subtrees = found
                seconds = time.perf_counter() - start
                tree = (g, dict(subtrees))
                # With a cap, only that cap was tested: t* itself may be smaller.
                strategy = self._strategy("worst-case", d, tree, max_guesses is None, seconds,
                                          {})
                return Solution(game, "worst-case", self.guesses, d, d, strategy, self.stats,
                                seconds, proof)
            proof.append(f"{d} guesses: impossible ({len(order)} first-guess classes refuted)")
            self.progress(proof[-1])
        seconds = time.perf_counter() - start
        return Solution(game, "worst-case", self.guesses, max_guesses, None, None, self.stats,
                        seconds, proof)

    def _wc_order(self, reps, secrets):
        counts = partition_counts(self.game, reps, secrets)
        counts[:, self.game.win] = 0
        biggest = counts.max(axis=1)
        squares = (counts.astype(np.int64) ** 2).sum(axis=1)
        in_s = np.isin(reps, secrets)
        keys = sorted(range(len(reps)), key=lambda k: (biggest[k], squares[k], not in_s[k],
                                                       reps[k]))
        return [int(reps[k]) for k in keys if biggest[k] < len(secrets) or in_s[k]]

    def _wc_try(self, d, order, secrets):
        ctx = self._ctx
        for g in order:
            parts = self._parts(g, secrets)
            if any(ctx.lb[d - 1, len(p)] >= _search.INF for _, p in parts):
                continue
            if d == 1:
                continue
            # Parts go out a batch (one per job) at a time, largest first: the first
            # infeasible part refutes the guess, and the rest need not be searched.
            results = []
            for i in range(0, len(parts), self.jobs):
                batch = self._run(_wc_part_task, [(g, p, d - 1, True)
                                                  for _, p in parts[i:i + self.jobs]])
                for _, _, counters in batch:
                    self.stats.add(counters)
                results.extend(batch)
                if not all(ok for ok, _, _ in batch):
                    break
            if len(results) == len(parts) and all(ok for ok, _, _ in results):
                self.progress(f"{d} guesses: feasible with first guess {self.game.code_str(g)}")
                return g, {a: tree for (a, _), (_, tree, _) in zip(parts, results)}
        return None

    # -------------------------------------------------------- expected case
    def expected(self, max_guesses: int | None = None) -> Solution:
        """The least total number of guesses, with a tree that attains it."""
        start = time.perf_counter()
        game, ctx = self.game, self._ctx
        secrets, reps = self._root()
        n = len(secrets)
        d = _search.NO_CAP if max_guesses is None else int(max_guesses)
        child_d = d if d >= _search.NO_CAP else d - 1
        proof = []
        if ctx.lb[d, n] >= _search.INF:
            return Solution(game, "expected", self.guesses, max_guesses, None, None,
                            self.stats, time.perf_counter() - start,
                            [f"{d} guesses: impossible by the counting bound"])
        # Order first guesses by the balanced-tree bound on their total.
        bounds = {}
        for g in reps:
            g = int(g)
            parts = self._parts(g, secrets)
            if len(parts) == 1 and len(parts[0][1]) == n:
                continue
            bounds[g] = (n + sum(int(ctx.lb[child_d, len(p)]) for _, p in parts), parts)
        order = sorted(bounds, key=lambda g: (bounds[g][0], g))
        if not order:
            raise InfeasibleError("no first guess splits the secrets")
        # Phase 1: the most promising first guess, solved exactly, part by part.
        best_g, best_value, best_trees = None, _search.INF, None
        for g in order:
            parts = bounds[g][1]
            results = self._run(_exp_part_task, [(g, p, _search.INF, child_d, True)
                                                  for _, p in parts])
            for _, _, counters in results:
                self.stats.add(counters)
            if all(v < _search.INF for v, _, _ in results):
                best_g = g
                best_value = n + sum(v for v, _, _ in results)
                best_trees = {a: t for (a, _), (_, t, _) in zip(parts, results)}
                self.progress(f"first guess {game.code_str(g)}: total {best_value}")
                break
            self.progress(f"first guess {game.code_str(g)}: impossible within {d} guesses")
        if best_g is None:
            proof.append(f"impossible within {d} guesses")
            return Solution(game, "expected", self.guesses, max_guesses, None, None,
                            self.stats, time.perf_counter() - start, proof)
        # Phase 2: every other first guess whose bound is below the incumbent.
        rivals = [g for g in order if g != best_g and bounds[g][0] < best_value]
        args = []
        for g in rivals:
            parts = bounds[g][1]
            args.append((g, [p for _, p in parts],
                         [int(ctx.lb[child_d, len(p)]) for _, p in parts], n, best_value,
                         child_d))
        results = self._run(_exp_guess_task, args)
        improved = []
        for g, (value, counters) in zip(rivals, results):
            self.stats.add(counters)
            if value is not None and value < best_value:
                improved.append((value, order.index(g), g))
        pruned = len(order) - 1 - len(rivals)
        proof.append(f"{len(order)} first-guess classes: {game.code_str(best_g)} solved "
                     f"exactly (total {best_value}); {len(rivals)} searched against it, "
                     f"{pruned} cut by the lower bound")
        if improved:
            best_value, _, best_g = min(improved)
            proof.append(f"first guess {game.code_str(best_g)} proved better: total {best_value}")
            parts = bounds[best_g][1]
            results = self._run(_exp_part_task, [(best_g, p, _search.INF, child_d, True)
                                                  for _, p in parts])
            for _, _, counters in results:
                self.stats.add(counters)
            best_trees = {a: t for (a, _), (_, t, _) in zip(parts, results)}
        seconds = time.perf_counter() - start
        strategy = self._strategy("expected", max_guesses, (best_g, best_trees), True, seconds,
                                  {})
        if strategy.declared.total != best_value:  # a broken invariant, never user input
            raise AssertionError(f"tree total {strategy.declared.total} != value {best_value}")
        return Solution(game, "expected", self.guesses, max_guesses, best_value, strategy,
                        self.stats, seconds, proof)

    def worst_then_expected(self) -> Solution:
        """The least total among trees with the optimal worst case."""
        wc = self.worst_case()
        if wc.value is None:
            return wc
        sol = self.expected(max_guesses=wc.value)
        sol.objective = "worst-then-expected"
        sol.proof = wc.proof + sol.proof
        if sol.strategy is not None:
            sol.strategy.objective = "expected"
        return sol


def solve(game: Game, objective: str = "worst-case", guesses: str = "any",
          max_guesses: int | None = None, **options) -> Solution:
    """Solve ``game`` exactly for ``objective``; see :class:`Solver` for options.

    >>> sol = solve(Game.from_spec("p2c3"), "expected", jobs=1)
    >>> sol.value, sol.strategy.validate().max
    (21, 3)
    """
    if objective not in OBJECTIVES:
        raise InvalidGameError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
    if max_guesses is not None and (not isinstance(max_guesses, int) or max_guesses < 1):
        raise InfeasibleError(f"--max-guesses must be a positive integer, got {max_guesses!r}")
    solver = Solver(game, guesses, **options)
    if objective == "worst-case":
        return solver.worst_case(max_guesses)
    if objective == "expected":
        return solver.expected(max_guesses)
    if max_guesses is not None:
        raise InvalidGameError("worst-then-expected sets its own cap; drop --max-guesses")
    return solver.worst_then_expected()
