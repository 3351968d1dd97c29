"""The expected-type searches: the least total, under a cap or not, and its trees.

The search runs in two phases. First guesses are ranked by a *probed* bound:
each part's balanced-tree bound raised by one null-window search (budget
bound + 1, cheap; its fail-soft value is a better bound). (1) The first guess
with the best bound is solved exactly, one task per part, which gives an upper
bound ``U``; (2) every other first guess whose bound is below ``U`` is one task
(:func:`_exp_guess_task`): more probes, then its parts in sequence, smallest
first, with budget ``U``; it is kept only if it proves strictly better, and then
played as that task built it (a rival that beats its budget has solved every
part exactly, and builds their trees while its table holds them). A first
guess with parts of :data:`SPLIT_SECRETS` secrets or more is a chain of tasks
instead (Logik's would each run for hours, longer than a session): its small
parts together, then each big part by its second guesses, with the budget the
parts before leave it (:meth:`Solver._guess_by_parts`); the chains run one after
another, each with ``U`` or the best total of the rivals finished before it as
budget.

A part of :data:`SPLIT_SECRETS` secrets or more would keep one worker busy long
after the others (Bulls and Cows: 1440 secrets, 186 s of the 200 s the whole
search takes in one process), so in phase (1) it is split by its own guesses the
same way: the parts of its most promising guess are tasks of the same batch,
then its other guesses are rivals, a stream of tasks, each given to a worker
as soon as one is free with the best total so far as budget
(:meth:`Solver._split_part`, :meth:`Solver._second_guess_rounds`).

``worst-then-expected`` and ``fewest-at-worst`` run this search under the cap
``t*``, the latter with the lexicographic cost of :mod:`optimal_mm.search_costs`.
This module is the root of that search: the first guesses ranked, the best solved,
the others raced, the tree and its proof. Solving parts exactly is
:mod:`optimal_mm.search_parts` (:class:`~optimal_mm.search_parts.PartSolving`), racing
rival guesses :mod:`optimal_mm.search_races`
(:class:`~optimal_mm.search_races.RivalRaces`); :class:`ExpectedSearch` takes both in.
It is the expected-case part of :class:`~optimal_mm.search.Solver`, a mixin that
reads the solver's game, guess rule and options, its search context (``_ctx``), task
runner (``_runner``), progress and counters (``stats``), and calls its ``_session``,
``_root``, ``_parts`` and ``_strategy``.
"""

from __future__ import annotations

import time

from ._search_arrays import INF, NO_CAP
from .errors import InfeasibleError
from .search_context import _classes, _part_guesses, beyond_depth
from .search_costs import (CappedCost, _check_ceiling, _check_tree_floor, _cost_text,
                           _tree_cost)
from .search_parts import PartSolving, PartsFloor, _phase
from .search_races import RivalRaces
from .search_tasks import _exp_guess_task, _guess_answer
from .solution import Solution


class ExpectedSearch(PartSolving, RivalRaces):
    """The expected case of :class:`~optimal_mm.search.Solver`: :meth:`_expected`
    proves the least total (or capped cost) and builds its tree."""

    def first_guess_order(self, d, weight=0) -> list[tuple[int, int]]:
        """The first-guess classes as the expected-case search ranks them, ``[(guess,
        probed bound)]`` in the order it tries them (``d`` guesses left in their parts;
        with a ``weight``, the cost of ``fewest-at-worst``): :meth:`_first_guess_bounds`,
        a null-window search per part, cheap (one state per part for Logik). The
        first whose parts all fit is solved exactly; every other one whose bound is
        below that total is searched as a rival, the rest are cut.

        Mastermind's five classes, no cap (its optimum is 5625, under 1123):

        >>> from optimal_mm import Game
        >>> from optimal_mm.search import NO_CAP, Solver
        >>> game = Game.from_spec("mastermind")
        >>> order = Solver(game, jobs=1).first_guess_order(NO_CAP)
        >>> [(game.code_str(g), bound) for g, bound in order]
        [('1123', 5429), ('1234', 5477), ('1122', 5508), ('1112', 5596), ('1111', 6018)]
        """
        secrets, reps = self._root()
        bounds, order = self._first_guess_bounds(secrets, reps, d, weight)
        return [(int(g), int(bounds[g][0])) for g in order]

    def _probe(self, first, part, lb, d, weight):
        """A lower bound on the cost of ``part`` below ``first``, at least ``lb``."""
        if lb >= INF:
            return lb
        top = _part_guesses(self.game, (first,), part, self.consistent, self.symmetry)
        before = self._ctx.counters.copy()
        value, _ = self._ctx.exp(part, lb + 1, d, top, weight)
        self.stats.add(self._ctx.counters - before)
        return max(lb, int(value))

    def _first_guess_bounds(self, secrets, reps, d, weight):
        """Each first guess of ``reps`` (wasted ones left out) as ``{g: (bound, parts,
        part bounds)}``, and the guesses in the order the search tries them: least
        bound first (ties by index). The bound of a part (``d`` guesses left in it) is
        its balanced-tree bound raised by one null-window probe (a search with budget
        bound + 1, cheap, whose fail-soft value is a better bound or the part's exact
        cost); with a single first-guess class (Bulls and Cows) nothing is probed:
        there is nothing to rank."""
        n = len(secrets)
        lb_child = self._ctx.bounds(weight)[d]
        bounds = {}
        for g in reps:
            g = int(g)
            parts = self._parts(g, secrets)
            if len(parts) == 1 and len(parts[0][1]) == n:
                continue
            lbs = [int(lb_child[len(p)]) for _, p in parts]
            if len(reps) > 1:
                lbs = [self._probe(g, p, lb, d, weight) for (_, p), lb in zip(parts, lbs)]
            bounds[g] = (n + sum(lbs), parts, lbs)
        order = sorted(bounds, key=lambda g: (bounds[g][0], g))
        if not order:
            raise InfeasibleError("no first guess splits the secrets")
        return bounds, order

    def _uncapped_checkpoint(self, floor, d: int, weight: int):
        """The checkpoint of the search without the cap that ``floor`` names
        (:attr:`LowerBound.checkpoint`), read as the lower bounds of this search's
        rivals (:meth:`TaskRunner.bound_by`); None where it bounds nothing: no such
        directory, no cap, a cap weight (costs that are not totals), or no
        checkpoint of this search's own (the runner looks tasks up in it first)."""
        if (floor is None or floor.checkpoint is None or weight or d >= NO_CAP
                or self.checkpoint_dir is None):
            return None
        from .checkpoint import Checkpoint

        return Checkpoint(floor.checkpoint, self.run_key("expected", None), writable=False)

    def _expected(self, max_guesses, weight=0, floor=None, ceiling=None):
        """The expected case under the cap ``max_guesses``; with a ``weight``, the
        lexicographic cost of ``fewest-at-worst`` (the Solution's value is that cost).
        ``floor``: a :class:`LowerBound` on the total (no weight), met by a tree
        found, ends the search there (:meth:`_solve_parts`; no rival first guess);
        its tree, if it has one, bounds each part on its path (:meth:`floor_of`).
        ``ceiling``: an :class:`UpperBound`, the best tree (``self._best``) until a
        tree of the search's own costs less; the optimum may not exceed its cost."""
        start = time.perf_counter()
        game, ctx = self.game, self._ctx
        secrets, reps = self._root()
        n = len(secrets)
        self.bound_below(floor if not weight else None)
        self._nodes, self._opened = {}, {}
        d = NO_CAP if max_guesses is None else int(max_guesses)
        self._runner.bound_by(self._uncapped_checkpoint(floor, d, weight))
        child_d = d if d >= NO_CAP else d - 1

        def shown(value):  # for messages and proof lines
            return _cost_text(value, weight)

        def figure(value):  # for the progress display's best and bound; None (not
            # shown) for INF, no tree within the cap, which the proof lines say
            if value >= INF:
                return None
            return CappedCost.of(value, weight) if weight else value

        def proven(bound):  # the search's own bound, or the floor it was given
            return figure(bound if floor is None else max(bound, floor.value))

        label = "fewest-at-worst" if weight else "expected"  # of a tree kept: best_so_far
        known = INF  # the cost of the ceiling's tree, the best kept until one beats it
        if ceiling is not None:
            self._best = ceiling.fitted(game, self.guesses, label, max_guesses)
            known = _tree_cost(self._best.declared, d, weight)

        def keep(value, g, trees, tell=True):  # a complete tree of the search's own,
            if value < known:  # if better (told, unless it was when proved)
                self._best = (label, max_guesses, g, trees, time.perf_counter() - start)
                if tell:
                    self.progress.update(best=figure(value))

        def upper(g, parts, cost, trees):  # phase (1)'s first complete trees
            keep(n + cost, g, {a: t for (a, _), t in zip(parts, trees)})

        proof = []
        renamed_before = 0 if self._renamed is None else self._renamed.found
        if ctx.lb[d, n] >= INF:
            if max_guesses is None:  # the tables' 64 levels cannot hold the tree
                raise beyond_depth(game, f"the counting bound: {n} secrets, "
                                         f"{len(game.possible_answers)} answers")
            return Solution(game, "expected", self.guesses, max_guesses, None, None,
                            self.stats, time.perf_counter() - start,
                            [f"{d} guesses: impossible by the counting bound"],
                            self._runner.resumed)
        self.progress.reset()
        if ceiling is not None:  # before the first guesses are ranked (a probe per
            # part of each: a while on a big game)
            self.progress.update(best=figure(known))
            self.progress.message(f"upper bound {shown(known)}: the tree given "
                                  f"({ceiling.source}), the best so far")
        bounds, order = self._first_guess_bounds(secrets, reps, child_d, weight)
        self.progress.update(bound=proven(bounds[order[0]][0]))
        # The proven bound is the least over the first guesses of what each costs at
        # least: its probed bound, and, for the one being solved, its parts' bounds as
        # they rise (PartsFloor) to their exact values; a run stopped in phase 1
        # keeps it (p5c8nb's consistent total: 43830 by the balanced-tree bound of
        # 12345's parts, its only first guess, for five sittings of its races).
        least = {g: bounds[g][0] for g in order}

        def rose(g, cost):
            least[g] = min(n + cost, INF)
            low = min(least.values())
            if low < INF:
                self.progress.update(bound=proven(low))

        # Phase 1: the most promising first guess, solved exactly, part by part.
        best_g, best_value, best_trees = None, INF, None
        for g in order:
            parts = bounds[g][1]
            values, trees = self._solve_parts(
                g, parts, child_d,
                f"{_phase(weight)}: first guess {game.code_str(g)} exact", weight,
                lambda cost, trees, g=g, parts=parts: upper(g, parts, cost, trees),
                None if floor is None else floor.value - n, proof,
                PartsFloor(bounds[g][2], lambda cost, g=g: rose(g, cost)))
            if all(v < INF for v in values):
                best_g = g
                best_value = n + sum(values)
                best_trees = {a: t for (a, _), t in zip(parts, trees)}
                keep(best_value, best_g, best_trees)
                self.progress.message(f"first guess {game.code_str(g)}: {shown(best_value)}")
                break
            self.progress.message(f"first guess {game.code_str(g)}: impossible within {d} "
                                  f"guesses")
        if best_g is None:
            _check_ceiling(ceiling, known, None, shown)
            proof.append(f"impossible within {d} guesses")
            return Solution(game, "expected", self.guesses, max_guesses, None, None,
                            self.stats, time.perf_counter() - start, proof, self._runner.resumed)
        met = floor is not None and best_value <= floor.value
        if met:
            _check_tree_floor(floor, best_value, game.code_str(best_g))
            proof.append(f"{_classes(len(order))}: {game.code_str(best_g)} solved "
                         f"({shown(best_value)}), which meets the lower bound "
                         f"{floor.value} ({floor.source}): no tree does better, no other "
                         f"first guess searched")
        # Phase 2: every other first guess whose bound is below the incumbent: one task
        # each, or a chain of tasks for one with big parts (_guess_by_parts).
        rivals = [] if met else [g for g in order
                                 if g != best_g and bounds[g][0] < best_value]
        chained = [g for g in rivals if self._chained((), [p for _, p in bounds[g][1]])]
        whole = [g for g in rivals if g not in chained]
        # The proven bound is the least of the incumbent and of the rivals' own
        # bounds (their exact totals once known); it rises as rivals are refuted.
        open_bounds = {g: bounds[g][0] for g in rivals}
        totals = {}

        def rival_done(g, value, budget):
            totals[g] = value
            open_bounds[g] = budget if value is None else value
            self.progress.update(bound=proven(min([best_value, *open_bounds.values()])))

        def chain_budget(g):
            # A chain runs after the rivals before it have finished, so it need only
            # beat the best of them: their totals, plus one for those after it in
            # the order (a tie goes to the first in order, as below). The budgets
            # follow from the order alone, not from --jobs.
            budget = best_value
            for r, value in totals.items():
                if value is not None:
                    budget = min(budget, value + (order.index(g) < order.index(r)))
            return budget

        args = [((), g, [p for _, p in bounds[g][1]], bounds[g][2], n, best_value, child_d,
                 weight) for g in whole]
        results = self._runner.run(_exp_guess_task, args,
                                   f"{_phase(weight)}: {len(whole)} rivals against "
                                   f"{shown(best_value)}",
                                   lambda i, result: rival_done(whole[i], result[0],
                                                                best_value))
        rival_trees = {}  # the trees of the parts of each rival that proved better
        for g, result in zip(whole, results):
            _, rival_trees[g], counters = _guess_answer(result)
            self.stats.add(counters)
        for g in chained:
            budget = chain_budget(g)
            rival_done(g, self._guess_by_parts((), g, [p for _, p in bounds[g][1]],
                                               bounds[g][2], n, budget, child_d, weight),
                       budget)
        improved = [(totals[g], order.index(g), g) for g in rivals
                    if totals[g] is not None and totals[g] < best_value]
        pruned = len(order) - 1 - len(rivals)
        if not met:
            proof.append(f"{_classes(len(order))}: {game.code_str(best_g)} solved "
                         f"exactly ({shown(best_value)}); {len(rivals)} searched against "
                         f"it, {pruned} cut by the lower bound")
        if improved:
            best_value, _, best_g = min(improved)
            if floor is not None:
                _check_tree_floor(floor, best_value, game.code_str(best_g))
            proof.append(f"first guess {game.code_str(best_g)} proved better: "
                         f"{shown(best_value)}")
            if best_value < known:
                self.progress.update(best=figure(best_value))
            self.progress.message(proof[-1])
            parts = bounds[best_g][1]
            trees = rival_trees.get(best_g)
            if trees is None or any(self._splits(p, child_d) for _, p in parts):
                # Built again part by part: a chain's, an entry's of an earlier
                # version, or parts that --chain-secrets splits (their trees then
                # follow the split, as the exact solve's would)
                trees = self._solve_parts(
                    best_g, parts, child_d,
                    f"{_phase(weight)}: first guess {game.code_str(best_g)} tree", weight)[1]
            else:
                trees = [tree for _, tree in trees]
            best_trees = {a: t for (a, _), t in zip(parts, trees)}
            keep(best_value, best_g, best_trees, tell=False)
        _check_ceiling(ceiling, known, best_value, shown)
        seconds = time.perf_counter() - start
        strategy = self._strategy("expected", max_guesses, (best_g, best_trees), True, seconds,
                                  {})
        cost = _tree_cost(strategy.declared, d, weight)
        if cost != best_value:  # a broken invariant, never user input
            raise AssertionError(f"tree {shown(cost)} != value {shown(best_value)}")
        renamed = 0 if self._renamed is None else self._renamed.found - renamed_before
        if renamed:
            proof.append(f"{renamed:,} small part{'' if renamed == 1 else 's'} of chains "
                         f"valued as a renaming of one solved before (a renaming keeps "
                         f"every answer)")
        if self._runner.bounded:
            proof.append(f"{self._runner.bounded:,} rival guesses not better, read from "
                         f"the search without the cap ({floor.checkpoint}): a total "
                         f"within the cap is at least the total without it")
        return Solution(game, "expected", self.guesses, max_guesses, best_value, strategy,
                        self.stats, seconds, proof, self._runner.resumed)

    def expected_upper_bound(self, first=None) -> Solution:
        """The strategy of the expected search's first batch, without its rivals: an
        upper bound on the optimal total, **not** a proof of optimality.

        The exact search (:meth:`expected`) first solves the most promising first
        guess's batch (:meth:`_first_batch`): every small part exactly, every big
        part below its most promising second guess exactly. Those trees together are
        a complete strategy, as good as the optimum wherever the search made no
        choice yet, and usually close to it; the search then spends most of its time
        on rivals (other second guesses, other first guesses) that may only lower
        it. On a game whose rivals take days (Logik with any guesses,
        docs/LOGIK_EXPECTED.md) this is the best strategy known so far and its total
        the best upper bound; with a checkpoint it shares the run's tasks both ways.

        ``first`` (a code string) replaces the first guess the search would try.
        The value is the tree's total; ``strategy.optimal`` is False.
        """
        with self._session("expected", None):
            start = time.perf_counter()
            game = self.game
            secrets, reps = self._root()
            if first is None:
                bounds, order = self._first_guess_bounds(secrets, reps, NO_CAP, 0)
                g, parts = order[0], bounds[order[0]][1]
            else:
                g = game.code_index(first)
                parts = self._parts(g, secrets)
            values, trees, plans, incumbents, pending = self._first_batch(
                g, parts, NO_CAP, f"expected: first guess {game.code_str(g)}, first batch", 0)
            self._finish_pending(pending, NO_CAP, 0, values, trees, incumbents)
            for i, plan in plans.items():
                values[i] = len(parts[i][1]) + sum(v for v, _ in incumbents[i].values())
                trees[i] = (plan[0][0], {a: t for a, (_, t) in incumbents[i].items()})
            total = len(secrets) + sum(values)
            seconds = time.perf_counter() - start
            strategy = self._strategy(
                "expected", None, (g, {a: t for (a, _), t in zip(parts, trees)}), False,
                seconds, {"upper_bound": "the expected search's first batch, without its "
                                         "rivals: not proven optimal"})
            cost = strategy.declared.total
            if cost != total:  # a broken invariant, never user input
                raise AssertionError(f"tree total {cost} != batch total {total}")
            split = ", ".join(f"{len(parts[i][1])} secrets after "
                              f"{game.code_str(plan[0][0])}" for i, plan in plans.items())
            proof = [f"upper bound: first guess {game.code_str(g)}, {len(parts)} parts solved "
                     f"exactly" + (f", big parts below their first second guess ({split})"
                                   if plans else "") + "; rivals not searched"]
            return Solution(game, "expected", self.guesses, None, total, strategy, self.stats,
                            seconds, proof, self._runner.resumed)
