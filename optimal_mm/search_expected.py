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
These are the expected-case methods of :class:`~optimal_mm.search.Solver`, a mixin
that reads the solver's game, guess rule and options, its search context (``_ctx``),
task runner (``_runner``), progress and counters (``stats``), and calls its
``_session``, ``_root``, ``_parts`` and ``_strategy``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from ._search_arrays import INF, NO_CAP, UNBUDGETED, new_stats
from .errors import FloorError, InfeasibleError, InvalidOptionError
from .game import partition_counts
from .progress import _clock_text
from .search_context import _classes, _part_guesses
from .search_costs import (CappedCost, PartFloor, _check_ceiling, _check_tree_floor,
                           _cost_text, _tree_cost)
from .search_tasks import (PROBE_ROUNDS, _exp_guess_task, _exp_part_task, _exp_trees_task,
                           _first_by, _guess_answer, _part_size)
from .solution import Solution

#: Parts of the first guess solved exactly with at least this many secrets are split
#: by their own guesses into separate tasks (:meth:`Solver._solve_parts`).
SPLIT_SECRETS = 400


def _node_key(history, part, d, weight) -> tuple:
    """The name of a split part in the search's memory
    (:meth:`ExpectedSearch._solve_node`): its history and first secret (the parts
    after one history are disjoint), its guesses left and its cost's weight."""
    return tuple(int(h) for h in history), int(part[0]), d, weight


@dataclass
class _Opened:
    """A split part under its first guess, its race not yet run
    (:meth:`ExpectedSearch._node_start`): its guesses in order (``plan``), its first
    guess's parts' ``{answer: (value, subtree)}`` (``incumbent``), the processor and
    wall seconds they took (``spent``), and those parts still under their own first
    guess (``children``, ``(answer, part)``), to solve exactly before the race."""
    plan: list
    incumbent: dict
    spent: tuple
    children: list


def _phase(weight) -> str:
    """How a progress line of these searches begins: the objective whose cost they
    minimise, ``fewest-at-worst`` under a ``weight`` (the secrets at the cap first,
    then the total), else ``expected`` (the total, under a cap or not)."""
    return "fewest-at-worst" if weight else "expected"


def _chain_answer_text(race: str, guess: str, value, budget: int, lead: bool,
                       weight: int, seconds: float | None, left: int, best: int) -> str:
    """The log's line for a rival of ``race`` searched as a chain, once it has its
    answer: ``value`` (None: not below ``budget``), whether it took the lead, how
    long it ran (None: read back from the checkpoint), and the rivals not yet drawn
    (``left``) whose bound is below the best total now (``best``): those in flight
    beside it are not counted.

    >>> race = "expected: rivals of 1213 (90 secrets after 1122)"
    >>> print(_chain_answer_text(race, "1345", None, 402, False, 0, 75.2, 3, 402))
    expected: rivals of 1213 (90 secrets after 1122): 1345, a chain, not below total 402, \
in 0:01:15; 3 rivals still to draw with a bound below total 402
    >>> print(_chain_answer_text(race, "1345", 398, 402, True, 0, None, 0, 398))
    expected: rivals of 1213 (90 secrets after 1122): 1345, a chain, total 398, the best \
so far, read back; no rival still to draw with a bound below total 398
    """
    if value is not None:
        answer = _cost_text(value, weight) + (", the best so far" if lead else
                                              ", not better than the best")
    elif budget >= UNBUDGETED:
        answer = "none within the cap"
    else:
        answer = f"not below {_cost_text(budget, weight)}"
    when = "read back" if seconds is None else f"in {_clock_text(seconds)}"
    rest = f"{left:,} rival{'s' if left != 1 else ''}" if left else "no rival"
    below = (f"with a bound below {_cost_text(best, weight)}" if best < UNBUDGETED
             else "(none within the cap so far)")
    return f"{race}: {guess}, a chain, {answer}, {when}; {rest} still to draw {below}"


def _beside_wait_text(race: str, running) -> str:
    """The log's line for a race of rivals whose own thread has drawn every rival and
    waits for the chains still running beside it (``running``: ``(guess, seconds
    since drawn)``): their phases are not shown, so without it the log would go
    quiet until each says its answer (33 minutes in p5c6b's fewest at 9).

    >>> race = "expected: rivals of 1213 (90 secrets after 1122)"
    >>> print(_beside_wait_text(race, [("1345", 75.2)]))
    expected: rivals of 1213 (90 secrets after 1122): every rival drawn; waiting for \
1345, a chain beside, drawn 0:01:15 ago
    >>> print(_beside_wait_text(race, [("1345", 75.2), ("2345", 3.0)]))
    expected: rivals of 1213 (90 secrets after 1122): every rival drawn; waiting for \
2 chains beside: 1345, drawn 0:01:15 ago; 2345, drawn 0:00:03 ago
    """
    if len(running) == 1:
        guess, seconds = running[0]
        waits = f"{guess}, a chain beside, drawn {_clock_text(seconds)} ago"
    else:
        waits = f"{len(running)} chains beside: " + "; ".join(
            f"{guess}, drawn {_clock_text(seconds)} ago" for guess, seconds in running)
    return f"{race}: every rival drawn; waiting for {waits}"


class ExpectedSearch:
    """The expected case of :class:`~optimal_mm.search.Solver`: :meth:`_expected`
    proves the least total (or capped cost) and builds its tree."""

    def first_guess_order(self, d, weight=0) -> list[tuple[int, int]]:
        """The first-guess classes as the expected-case search ranks them, ``[(guess,
        probed bound)]`` in the order it tries them (``d`` guesses left in their parts;
        with a ``weight``, the cost of ``fewest-at-worst``): :meth:`_first_guess_bounds`,
        a null-window search per part, cheap (one state per part for Logik). The
        first whose parts all fit is solved exactly; every other one whose bound is
        below that total is searched as a rival, the rest are cut."""
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

    def _expected(self, max_guesses, weight=0, floor=None, ceiling=None):
        """The expected case under the cap ``max_guesses``; with a ``weight``, the
        lexicographic cost of ``fewest-at-worst`` (the Solution's value is that cost).
        ``floor``: a :class:`LowerBound` on the total (no weight), met by a tree
        found, ends the search there (:meth:`_solve_parts`; no rival first guess);
        its tree, if it has one, bounds each part on its path (:meth:`_floor_of`).
        ``ceiling``: an :class:`UpperBound`, the best tree (``self._best``) until a
        tree of the search's own costs less; the optimum may not exceed its cost."""
        start = time.perf_counter()
        game, ctx = self.game, self._ctx
        secrets, reps = self._root()
        n = len(secrets)
        self._floor = floor if not weight else None
        self._floor_cache, self._nodes, self._opened = {}, {}, {}
        d = NO_CAP if max_guesses is None else int(max_guesses)
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
        if ctx.lb[d, n] >= INF:
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
        # Phase 1: the most promising first guess, solved exactly, part by part.
        best_g, best_value, best_trees = None, INF, None
        for g in order:
            parts = bounds[g][1]
            values, trees = self._solve_parts(
                g, parts, child_d,
                f"{_phase(weight)}: first guess {game.code_str(g)} exact", weight,
                lambda cost, trees, g=g, parts=parts: upper(g, parts, cost, trees),
                None if floor is None else floor.value - n, proof)
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
        return Solution(game, "expected", self.guesses, max_guesses, best_value, strategy,
                        self.stats, seconds, proof, self._runner.resumed)

    def _solve_parts(self, g, parts, d, label, weight, on_upper=None, floor=None,
                     notes=None):
        """Exact values and subtrees of the ``parts`` of first guess ``g`` (``INF`` and
        ``None`` for a part that cannot be solved within ``d`` guesses).

        Each part is one task, except the parts of :data:`SPLIT_SECRETS` secrets or
        more, which would each keep one worker busy long after the others are done:
        they are split once more (:meth:`_split_part`). All the tasks that need no
        bound go out in one batch (:meth:`_first_batch`).

        ``on_upper(cost, trees)``, if given, is told the parts' cost in a complete
        tree, and that tree's parts (as returned), as soon as there is one and whenever
        it falls: after the first batch, with each big part under its first second
        guess (solved exactly there) and each part split by its own guesses
        (``chain_secrets``) under its first guess, then as each of those parts' own
        search ends, and as each part split below them is solved before their races
        (:meth:`_solve_node`'s ``on_progress``). So a run stopped while the rivals of
        a big part or of a split part are searched still has an upper bound and its
        tree (p4c8nb's expected case: its three big parts ran past 900 s; p6c7n's
        fewest at the worst depth: its 264-secret part raced for hours), and whenever
        a big part's race, or a split part's of the first guess, finds a rival better
        than the best so far (a rival searched as a chain has its tree built as it
        takes the lead).

        ``floor``, a lower bound on the parts' cost (a :class:`LowerBound` less the
        secrets), lets each big part's race stop as soon as its best total brings the
        whole to the floor, counting the other big parts at the best they are known
        to reach (their first second guess, or a rival the checkpoint already holds:
        a resumed run), which their own searches can only lower. Once the parts meet
        the floor they cannot cost less, so each is at its optimum. A lower bound's
        tree (:meth:`_floor_of`) bounds each part from below too: its big part's
        race stops at that part's own floor, whatever the others do, and tries the
        tree's guess first; a part whose subtree there keeps to the cap and the
        guess rule is settled by it, no task run. ``notes``, a list, is told each
        part so settled, as a proof line.
        """
        part_floors = [self._floor_of((g,), part, d) for _, part in parts]
        settled = {}
        for i, (a, part) in enumerate(parts):
            known = part_floors[i]
            if known is not None and known.tree is not None:
                settled[i] = (known.cost, known.tree)
                line = (f"the part after {self.game.code_str(g)} {self.game.answer_str(a)} "
                        f"({len(part)} secrets): the lower bound's own subtree "
                        f"(under {self.game.code_str(known.guess)}, total {known.cost}) "
                        f"keeps to this search's cap and guesses, so is optimal here: not "
                        f"searched")
                self.progress.message(line)
                if notes is not None:
                    notes.append(line)
        values, trees, plans, incumbents, pending = self._first_batch(
            g, parts, d, label, weight, settled,
            {i: f.guess for i, f in enumerate(part_floors) if f is not None})
        upper, upper_trees = {}, {}
        lock = threading.Lock()  # a race may report a better rival from a drawing thread

        def tell():
            cost = sum(v for i, v in enumerate(values) if i not in plans) + sum(upper.values())
            if on_upper is not None and cost < INF:
                on_upper(cost, [upper_trees.get(i, t) for i, t in enumerate(trees)])

        def under_first(i):  # big part i under its first second guess, as now known
            upper[i] = len(parts[i][1]) + sum(v for v, _ in incumbents[i].values())
            upper_trees[i] = (plans[i][0][0],
                              {a: tree for a, (_, tree) in incumbents[i].items()})

        def better(i, value, tree):  # a rival of big part i took the lead
            with lock:
                if value < upper[i]:
                    upper[i], upper_trees[i] = value, tree
                    tell()

        def lead(i, value, tree):  # a rival took the lead in the race of part i
            with lock:
                if value < values[i]:
                    values[i], trees[i] = value, tree
                    tell()

        def sub_better(i, a, value, tree):  # a pending split part of big part i's
            # first second guess has a better tree: big part i under that guess
            view = {**incumbents[i], a: (value, tree)}
            total = len(parts[i][1]) + sum(v for v, _ in view.values())
            if total < INF:
                better(i, total, (plans[i][0][0], {b: t for b, (_, t) in view.items()}))

        def finished(i):  # a pending split part's race is over (_finish_pending)
            with lock:
                if i in plans:
                    under_first(i)
                tell()

        for i in plans:  # each big part under its first second guess until a better
            under_first(i)  # one is known
        tell()  # a complete tree, the split parts pending under their first guess
        self._finish_pending(pending, d, weight, values, trees, incumbents, finished, lead,
                             sub_better)
        hoped = dict(upper)  # the best each big part is known to reach, for the floor
        if floor is not None:
            for i, plan in plans.items():
                found = self._known_race((g,), parts[i][1], plan[1:], upper[i], d, weight)
                if found is not None:
                    hoped[i] = found[0]
        for i, plan in plans.items():
            enough = None
            if floor is not None:
                others = (sum(v for j, v in enumerate(values) if j not in plans)
                          + sum(v for j, v in hoped.items() if j != i))
                enough = floor - others if others < INF else None
            if part_floors[i] is not None:
                least = part_floors[i].cost
                enough = least if enough is None else max(enough, least)
            values[i], trees[i] = self._split_part(
                (g,), parts[i][1], plan, incumbents[i], d, weight, enough,
                lambda value, tree, i=i: better(i, value, tree))
            with lock:
                upper[i] = hoped[i] = values[i]
                upper_trees[i] = trees[i]
                tell()
        for (a, _), value, part_floor in zip(parts, values, part_floors):
            if part_floor is not None and value < part_floor.cost:  # a wrong floor
                raise FloorError(f"the lower bound's part after {self.game.code_str(g)} "
                                 f"{self.game.answer_str(a)} is wrong: it costs "
                                 f"{part_floor.cost} there, a tree of {value} was found")
        return values, trees

    def _first_batch(self, g, parts, d, label, weight, settled=None, hints=None):
        """The batch of :meth:`_solve_parts`: each small part of first guess ``g``
        solved exactly, and each big part split by its most promising second guess
        (``plans[i][0]``), whose parts are solved exactly. ``settled[i]``, a part's
        ``(value, tree)`` known already, is taken as it is; ``hints[i]``, a lower
        bound's tree's guess at big part ``i``, goes first instead (its parts are on
        the tree's path: :meth:`_floor_of`), the others after it in their order.

        Returns ``(values, trees, plans, incumbents, pending)``: ``values[i]`` and
        ``trees[i]`` for the small parts (0 and None at the big ones), ``plans[i]`` the
        second guesses of big part ``i`` (:meth:`exp_second_guesses`), ``incumbents[i]``
        its first second guess's ``{answer: (value, tree)}``. A part split by its own
        guesses (:meth:`_splits`: ``chain_secrets``) is there under its first guess
        only (:meth:`_node_start`), and listed in ``pending`` as ``(i, answer or None,
        history, part)`` until its race is run (:meth:`_finish_pending`): the values
        are then a complete tree's, an upper bound, before any race begins.
        """
        d2 = d if d >= NO_CAP else d - 1
        settled = settled or {}
        plans, args, owners, deferred, incumbents = {}, [], [], [], {}
        for i, (_, part) in enumerate(parts):
            if i in settled:
                continue
            plan = (self.exp_second_guesses((g,), part, d, weight) if len(part) >= SPLIT_SECRETS
                    else [])
            plan = _first_by(plan, (hints or {}).get(i))
            if plan:
                plans[i] = plan
                for a, sub in self._ctx.split(plan[0][0], part):
                    known = self._floor_of((g, plan[0][0]), sub, d2)
                    if known is not None and known.tree is not None:
                        incumbents.setdefault(i, {})[a] = (known.cost, known.tree)
                        continue
                    if self._splits(sub, d2):  # solved after the batch, split in turn
                        deferred.append((i, a, (g, plan[0][0]), sub))
                        continue
                    args.append(((g, plan[0][0]), sub, INF, d2, True, weight))
                    owners.append((i, a))
            elif self._splits(part, d):  # below SPLIT_SECRETS, split with chain_secrets
                deferred.append((i, None, (g,), part))
            else:
                args.append(((g,), part, INF, d, True, weight))
                owners.append((i, None))
        results = self._runner.run(_exp_part_task, args, label, cost=_part_size)
        values, trees = [0] * len(parts), [None] * len(parts)
        for i, (value, tree) in settled.items():
            values[i], trees[i] = value, tree
        for (i, a), (value, tree, counters) in zip(owners, results):
            self.stats.add(counters)
            if a is None:
                values[i], trees[i] = value, tree
            else:
                incumbents.setdefault(i, {})[a] = (value, tree)
        pending = []
        for i, a, history, sub in deferred:  # a part of the first guess where a is None
            value, tree, final = self._node_start(history, sub, d if a is None else d2,
                                                  weight)
            if a is None:
                values[i], trees[i] = value, tree
            else:
                incumbents.setdefault(i, {})[a] = value, tree
            if not final:
                pending.append((i, a, history, sub))
        for i in plans:  # in answer order, as the batch alone would give them
            incumbents[i] = dict(sorted(incumbents[i].items()))
        return values, trees, plans, incumbents, pending

    def _finish_pending(self, pending, d, weight, values, trees, incumbents,
                        on_part=None, on_better=None, on_sub=None) -> None:
        """Solve exactly the split parts that :meth:`_first_batch` left ``pending``
        (each under its first guess), in order, into ``values`` and ``trees`` (a part
        of the first guess) or ``incumbents`` (a part of a big part's first second
        guess): their races (:meth:`_solve_node`). ``on_part(i)`` is told after each,
        ``on_better(i, value, tree)`` each rival that takes the lead in a part of the
        first guess's race (deeper races build no tree on a lead), and each better
        tree of such a part as the parts split below it are solved before its race
        (``on_progress``); ``on_sub(i, a, value, tree)`` the same of the part after
        answer ``a`` to big part ``i``'s first second guess."""
        d2 = d if d >= NO_CAP else d - 1
        for i, a, history, sub in pending:
            if a is None:
                told = None if on_better is None else (
                    lambda value, tree, i=i: on_better(i, value, tree))
                values[i], trees[i] = self._solve_node(history, sub, d, weight, told, told)
            else:
                told = None if on_sub is None else (
                    lambda value, tree, i=i, a=a: on_sub(i, a, value, tree))
                incumbents[i][a] = self._solve_node(history, sub, d2, weight,
                                                    on_progress=told)
            if on_part is not None:
                on_part(i)

    def _floor_of(self, history, part, d) -> "PartFloor | None":
        """What the lower bound's tree says of ``part``, the secrets left after the
        guesses ``history`` (``d`` guesses left): None unless the tree played those
        guesses (``self._floor``, :meth:`LowerBound.at`), else its
        :class:`PartFloor`. A subtree of an optimal tree is optimal for the secrets
        left at its root, whatever path led there, so its cost bounds ``part`` from
        below under any cap and guess rule; where it also keeps to this search's
        (:meth:`_witness`), it is the part's optimal tree here."""
        if self._floor is None or not len(part):
            return None
        key = (tuple(int(h) for h in history), int(part[0]), d)
        if key not in self._floor_cache:
            found = self._floor.at(self.game, key[0], key[1])
            if found is not None:
                cost, guess, node = found
                tree = None
                if node is not None:
                    tree, walked = self._witness(node, part, d)
                    if cost is None:
                        cost = walked
                    elif walked != cost:  # a bound its own tree does not attain: no witness
                        tree = None
                found = None if cost is None else PartFloor(cost, guess, tree)
            self._floor_cache[key] = found
        return self._floor_cache[key]

    def _witness(self, node, part, d):
        """``(tree, cost)`` of the subtree ``node`` (a :class:`~optimal_mm.tree.Node`
        of a lower bound's tree) for ``part``, the secrets left at its root (``d``
        guesses left): ``cost`` the guesses it takes, summed over them, and ``tree``
        it as the search's own ``(guess, {answer: subtree})``, or None where the
        search may not return it: a secret not found within ``d`` guesses (the cap),
        or, with consistent guesses, a guess that cannot be the secret. A lower
        bound's subtree is optimal for its part without the cap, so one that keeps to
        the cap is optimal under it too.

        >>> from optimal_mm import Game
        >>> from optimal_mm.search import Solver, solve
        >>> game = Game.from_spec("p2c3")
        >>> tree = solve(game, "expected", jobs=1).strategy.root
        >>> solver = Solver(game, jobs=1)
        >>> (a, part), *_ = solver.split(game.code_index(tree.guess), np.arange(9))
        >>> node = tree.next[game.answer_str(a)]
        >>> solver._witness(node, part, 1)  # the one secret, guessed at once
        ((8, {}), 1)
        >>> solver._witness(node, part, 0)
        (None, 1)
        """
        game = self.game

        def walk(node, secrets, left):
            g = game.code_index(node.guess)
            keeps = left >= 1 and (not self.consistent or bool(np.isin(g, secrets)))
            children, cost = {}, len(secrets)
            for a, sub in self._ctx.split(g, secrets):
                child = node.next.get(game.answer_str(a))
                if child is None:  # the tree was replayed: never
                    raise InvalidOptionError(f"the lower bound's tree has no branch for "
                                             f"{game.answer_str(a)} after {node.guess}")
                tree, c = walk(child, sub, left - 1)
                cost += c
                keeps = keeps and tree is not None
                children[a] = tree
            return ((g, children) if keeps else None), cost

        return walk(node, np.asarray(part, dtype=np.int64), d)

    def _splits(self, part, d) -> bool:
        """Whether a part to be solved exactly (``d`` guesses left; a part of the first
        guess under :data:`SPLIT_SECRETS`, or any part below) is split by its own
        guesses (:meth:`_solve_node`): only with ``chain_secrets``, from that many
        secrets."""
        return (self.chain_secrets is not None and len(part) >= self.chain_secrets
                and d > 1)

    def _solve_node(self, history, part, d, weight, on_better=None, on_progress=None):
        """Exact ``(value, subtree)`` of ``part`` after the guesses ``history`` (``d``
        guesses left; ``INF`` and None where it cannot be solved within them): one
        task (:func:`_exp_part_task`), or, for a part of ``chain_secrets`` secrets or
        more, split by its own guesses as the first guess's big parts are: its most
        promising guess's parts solved the same way, then its other guesses as rivals
        (:meth:`_split_part`, ``on_better`` told each rival that takes the lead), so
        that a part whose exact search runs for hours as one compiled call (p3c10nb's
        527 secrets after 012, below their first second guess) is saved a piece at a
        time. A split part is solved once per search: asked again (the tree of a
        chain that took the lead of its race, :meth:`_lead_trees`, then again at the
        race's end), it is read from memory, with or without a checkpoint. Its first
        guess's parts may have been solved already (:meth:`_node_start`): the race
        takes them as they are, and the part's saved answer counts their time.

        Those of its first guess's parts that are split in turn wait under their own
        first guess until they are solved exactly, each just before this part's race.
        ``on_progress(value, subtree)``, if given, is told the part under its first
        guess each time one of them is (and, passed down, each time one of theirs
        is): a complete tree that costs less, which a run stopped in those races
        still has (p6c7nb's expected case: seven split parts of the first guess,
        with parts split below them whose races outlast a run, while its table cell
        kept the first batch's 33941). Their races' leads are not told: they
        would build a tree per lead, work the exact solve does not need.

        On a lower bound's tree's path (:meth:`_floor_of`), a part its subtree settles
        takes that subtree; else it is split by the tree's guess there first (its
        parts are on the path too), and its race stops at its floor
        (:meth:`_split_part`)."""
        known = self._floor_of(history, part, d)
        if known is not None and known.tree is not None:
            return known.cost, known.tree
        task = (tuple(history), part, INF, d, True, weight)
        key = _node_key(history, part, d, weight)
        opened = self._opened.get(key)
        plan = self._node_plan(history, part, d, weight, known) if opened is None \
            else opened.plan
        if not plan:
            (value, tree, counters), = self._runner.run(
                _exp_part_task, [task], f"{_phase(weight)}: {len(part)} secrets after "
                f"{' '.join(self.game.code_str(h) for h in history)}")
            self.stats.add(counters)
            return value, tree

        def split():
            if opened is None:
                incumbent = self._node_incumbent(history, part, plan, d, weight)
            else:  # its parts split in turn are still under their first guess: each
                del self._opened[key]  # solved exactly before this race
                incumbent = opened.incumbent
                d2 = d if d >= NO_CAP else d - 1
                g = plan[0][0]

                def report(view):  # the part under g, its parts as ``view`` has them
                    value = len(part) + sum(v for v, _ in view.values())
                    if on_progress is not None and value < INF:
                        on_progress(value, (g, {a: t for a, (_, t) in view.items()}))

                for a, sub in opened.children:
                    told = None if on_progress is None else (
                        lambda v, t, a=a: report({**incumbent, a: (v, t)}))
                    incumbent[a] = self._solve_node((*history, g), sub, d2, weight,
                                                    on_progress=told)
                    report(incumbent)
            value, tree = self._split_part(history, part, plan, incumbent, d, weight,
                                           on_better=on_better)
            return int(value), tree, new_stats()

        if key not in self._nodes:
            value, tree, _ = self._saved_or(_exp_part_task, task, split,
                                            None if opened is None else opened.spent)
            self._nodes[key] = value, tree
        return self._nodes[key]

    def _node_start(self, history, part, d, weight):
        """``(value, subtree, final)``: :meth:`_solve_node`'s answer where it has no
        race left to run (a lower bound's tree settles the part, it is one task, this
        search solved it or the checkpoint holds it: ``final`` True); else the part
        under its first guess (``final`` False), an upper bound that a run stopped in
        the race still has: p6c7n's 264 secrets after 123456 raced for hours, over
        four runs, and no tree of the game was told. That guess's parts are solved
        here and kept for :meth:`_solve_node`, exactly, or, where split in turn,
        under their own first guess again, all the way down (p6c7nb's first batch
        raced 1,805 and 4,366 guesses in parts three guesses deep before any tree);
        :meth:`_solve_node` solves those exactly first, then runs this part's race."""
        known = self._floor_of(history, part, d)
        key = _node_key(history, part, d, weight)
        if ((known is not None and known.tree is not None) or key in self._nodes
                or not self._splits(part, d)):
            return (*self._solve_node(history, part, d, weight), True)
        _, (found,) = self._runner.known(_exp_part_task,
                                         [(tuple(history), part, INF, d, True, weight)])
        if found is not None:
            self._nodes[key] = found[0], found[1]
            return found[0], found[1], True
        if key not in self._opened:
            plan = self._node_plan(history, part, d, weight, known)
            if not plan:  # no useful guess: one task
                return (*self._solve_node(history, part, d, weight), True)
            since, children = self._runner.clock(), []
            incumbent = self._node_incumbent(history, part, plan, d, weight, children)
            now = self._runner.clock()
            self._opened[key] = _Opened(plan, incumbent,
                                        (now[0] - since[0], now[1] - since[1]), children)
        opened = self._opened[key]
        value = len(part) + sum(v for v, _ in opened.incumbent.values())
        if value >= INF:
            return INF, None, False
        return value, (opened.plan[0][0],
                       {a: tree for a, (_, tree) in opened.incumbent.items()}), False

    def _node_plan(self, history, part, d, weight, known) -> list:
        """The guesses that :meth:`_solve_node` splits ``part`` by, in the order it
        tries them (:meth:`exp_second_guesses`; empty: the part is one task), the
        guess of ``known``, a lower bound's tree there, first: its parts are on that
        tree's path too."""
        plan = self.exp_second_guesses(history, part, d, weight) if self._splits(part, d) \
            else []
        if plan and known is not None:
            plan = _first_by(plan, known.guess)
        return plan

    def _node_incumbent(self, history, part, plan, d, weight, pending=None) -> dict:
        """``{answer: (value, subtree)}`` of the parts of ``part``'s first guess in
        ``plan`` (after the guesses ``history``), each solved exactly, or, given a
        list ``pending``, those split in turn under their own first guess
        (:meth:`_solve_subparts`)."""
        d2 = d if d >= NO_CAP else d - 1
        after = (*history, plan[0][0])
        return self._solve_subparts(
            after, self._ctx.split(plan[0][0], part), d2, weight,
            f"{_phase(weight)}: the parts after "
            f"{' '.join(self.game.code_str(h) for h in after)}", pending=pending)

    def _solve_subparts(self, history, subs, d, weight, label, known=None, pending=None):
        """``{answer: (value, subtree)}`` of the parts ``subs`` (``(answer, part)``)
        after the guesses ``history``: the small ones in one batch, the ones
        :meth:`_splits` names each by :meth:`_solve_node`. ``known``, if given, holds
        the ``(value, subtree)`` of each part in order, found already (a rival's
        task that proved better): taken as they are, except the parts that
        :meth:`_splits` names, whose trees follow their split. ``pending``, a list,
        asks for those split parts under their first guess only (:meth:`_node_start`),
        each whose race is left appended as ``(answer, part)``."""
        out = {}
        if known is not None:
            out = {a: found for (a, sub), found in zip(subs, known)
                   if not self._splits(sub, d)}
        for a, sub in subs:  # the parts a lower bound's tree settles
            floor = self._floor_of(history, sub, d)
            if a not in out and floor is not None and floor.tree is not None:
                out[a] = (floor.cost, floor.tree)
        whole = [(a, sub) for a, sub in subs if a not in out and not self._splits(sub, d)]
        results = self._runner.run(_exp_part_task,
                                   [(tuple(history), sub, INF, d, True, weight)
                                    for _, sub in whole],
                                   label, cost=_part_size) if whole else []
        for (a, _), (value, tree, counters) in zip(whole, results):
            self.stats.add(counters)
            out[a] = (value, tree)
        for a, sub in subs:
            if a in out:
                continue
            if pending is None:
                out[a] = self._solve_node(history, sub, d, weight)
            else:
                value, tree, final = self._node_start(history, sub, d, weight)
                out[a] = value, tree
                if not final:
                    pending.append((a, sub))
        return dict(sorted(out.items()))

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

    def _chain_secrets(self, history) -> int | None:
        """The size from which a part makes a rival guess played after ``history`` a
        chain of tasks: :data:`SPLIT_SECRETS` for a rival first guess, ``chain_secrets``
        below it (None: such rivals stay one task)."""
        return SPLIT_SECRETS if not history else self.chain_secrets

    def _chained(self, history, parts) -> bool:
        """Whether a rival guess played after ``history``, with these ``parts``, is
        searched as a chain of tasks (:meth:`_guess_by_parts`)."""
        least = self._chain_secrets(history)
        return least is not None and any(len(p) >= least for p in parts)

    def exp_second_guesses(self, history, part, d, weight):
        """The guesses at the node of ``part`` (the secrets left after the guesses
        ``history``, ``d`` guesses left) as ``(guess, bound)``, in the order the
        compiled search tries them: balanced-tree bound on the total, then guesses
        that may be the secret, then index; wasted and infeasible guesses left out."""
        game, ctx = self.game, self._ctx
        d2 = d if d >= NO_CAP else d - 1
        top = _part_guesses(game, tuple(history), part, self.consistent, self.symmetry)
        top = ctx.all_guesses if top is None else np.asarray(top, dtype=np.int64)
        counts = partition_counts(game, top, part).astype(np.int64)
        counts[:, game.win] = 0
        bound = len(part) + ctx.bounds(weight)[d2][counts].sum(axis=1)
        useful = (counts.max(axis=1) < len(part)) & (bound < INF)
        may_win = np.isin(top, part)
        order = sorted(np.flatnonzero(useful), key=lambda k: (bound[k], not may_win[k], k))
        return [(int(top[k]), int(bound[k])) for k in order]

    def _split_part(self, history, part, plan, incumbent, d, weight, enough=None,
                    on_better=None):
        """Value and subtree of a big ``part`` after the guesses ``history`` (below the
        first guess, or deeper with ``chain_secrets``), split by its own guesses
        (``plan``, from :meth:`exp_second_guesses`; the parts of the first were solved
        exactly: ``incumbent``).

        Its other guesses are searched as rivals (:meth:`_second_guess_rounds`), each
        with the budget of the best total so far, until the next one's bound reaches
        it; a rival is kept only if strictly better (the earliest in order on a tie),
        so the choice is the compiled search's, whatever the number of workers.
        ``enough`` and ``on_better``: as :meth:`_second_guess_rounds` takes them,
        ``on_better(total, subtree)`` told the rival's subtree of the part; without
        ``enough``, a part on a lower bound's tree's path takes its own floor
        (:meth:`_floor_of`).
        """
        d2 = d if d >= NO_CAP else d - 1
        history = tuple(history)
        best = len(part) + sum(v for v, _ in incumbent.values())
        best = INF if best >= INF else best
        floor = self._floor_of(history, part, d) if enough is None else None
        if floor is not None:  # a part on a lower bound's tree's path, deeper down
            enough = floor.cost

        def told(total, guess, trees):
            if on_better is not None:
                subs = self._ctx.split(guess, part)
                on_better(total, (guess, {a: tree for (a, _), (_, tree) in zip(subs, trees)}))

        best, best_g, trees = self._second_guess_rounds(
            history, part, plan[1:], best, d, weight,
            f"rivals of {self.game.code_str(plan[0][0])}", enough,
            None if on_better is None else told)
        if best_g is None:
            best_g = plan[0][0]
        else:
            incumbent = None
        if best >= INF:
            return INF, None
        if incumbent is None:  # a rival won: its subtrees, as its task built them
            subs = self._ctx.split(best_g, part)
            if trees is None and not any(self._splits(sub, d2) for _, sub in subs):
                # Its parts' own tasks, where the checkpoint holds them all (an earlier
                # version's, or a run with --chain-secrets), else one task for them all
                tasks = [((*history, best_g), sub, INF, d2, True, weight) for _, sub in subs]
                if None in self._runner.known(_exp_part_task, tasks, count=False)[1]:
                    trees = self._rival_trees(history, best_g, part, subs, best, d2, weight)
            incumbent = self._solve_subparts(
                (*history, best_g), subs, d2, weight,
                f"{_phase(weight)}: {self.game.code_str(best_g)} tree", trees)
        return best, (best_g, {a: tree for a, (_, tree) in incumbent.items()})

    def _rival_trees(self, history, g, part, subs, total, d2, weight):
        """The ``(value, subtree)`` of each of ``subs``, the parts of guess ``g`` at
        ``part`` (after the guesses ``history``; ``d2`` guesses left in each), a rival
        known to cost ``total`` whose answer came without them (an entry written
        before rivals kept their trees, or a chain): one task
        (:func:`_exp_trees_task`), its search again with that total as budget."""
        lb = self._ctx.bounds(weight)[d2]
        parts = [sub for _, sub in subs]
        line = " ".join(self.game.code_str(h) for h in (*history, g))
        (result,) = self._runner.run(
            _exp_trees_task, [(tuple(history), g, parts, [int(lb[len(q)]) for q in parts],
                               len(part), total, d2, weight)],
            f"{_phase(weight)}: the tree of {line}, a rival that proved better")
        trees, counters = result
        self.stats.add(counters)
        return trees

    def _second_guess_rounds(self, history, part, plan, best, d, weight, what, enough=None,
                             on_better=None):
        """The least total below ``best`` of the guesses ``plan`` (from
        :meth:`exp_second_guesses`) at ``part`` (the secrets left after the guesses
        ``history``, ``d`` guesses left), as ``(total, guess, trees)``: ``trees`` that
        guess's parts' ``(value, subtree)``, as its task built them (None: a chain, or
        an entry written before tasks kept them); ``(best, None, None)`` when none is
        below it.

        The guesses are a stream of tasks (:func:`_exp_guess_task`,
        :meth:`TaskRunner.stream`): each is drawn, in order, as soon as a worker is
        free, with the best total so far as its budget, until the next one's bound
        reaches it. (They went out in rounds of one per worker before, and every
        worker waited for the slowest rival of each round.) The answer is the
        *earliest guess in order with the least total*, whatever the number of
        workers and whichever task finishes first: a result is kept if it is below
        the best so far, or equal to it and earlier in order than the guess that
        holds it. That earliest guess always comes back exact: when it was drawn, the
        best so far was held by a guess before it, so was above its total. The
        budgets do depend on the order tasks finish in; a checkpoint answers a rival
        under another budget where it can (:mod:`optimal_mm.checkpoint`), and one
        read back counts as it is drawn. A guess whose parts make it a chain
        (:meth:`_chained`) is searched here, once the tasks before it have finished,
        with the budget they leave; or, where every task goes to a worker and a slot
        is free (one per job beyond the first), in a thread beside this one
        (:meth:`optimal_mm.runner.TaskRunner.beside`), with the best total when
        drawn, while the race goes on: its answer is kept as a task's would be, so
        the earliest guess with the least total still wins, and comes back exact
        (every guess drawn before it is worse), whatever ran beside it.

        ``enough`` (from a :class:`LowerBound`, :meth:`_solve_parts`): a total that
        ends the race once the best so far is at most it (the part is then at its
        optimum, which the floor proves; the guess that holds it is the first found,
        not always the earliest in order). Such a race first looks for it in the
        checkpoint among every rival already settled (:meth:`_known_race`), so that
        a resumed run does not start the unsettled rivals drawn before it; tasks in
        flight when a live race meets it still run to their end. (The guess a lower
        bound's tree plays at the part is no rival: it goes first, :meth:`_first_batch`,
        :meth:`_solve_node`.) ``on_better(total, guess, trees)``, if given, is told
        each rival that takes the lead with the trees its task built, or, a chain's
        answer having none, the trees :meth:`_lead_trees` builds for it at once.

        With no total to beat under a cap (``best`` at least :data:`UNBUDGETED`: the
        first guess's parts do not all fit, or a rival's chain has no budget), the
        worst case is asked first whether the part fits at all; where it does not,
        no guess is searched (p5c6b's 480 secrets after 11111 12222 21123, 6 guesses
        left: refuted in 5.6 s, where 320 rivals were being searched one by one).
        """
        if best >= UNBUDGETED and not self._ctx.fits(part, d):
            return best, None, None
        n = len(part)
        if enough is not None:
            if best <= enough:
                return best, None, None
            found = self._known_race(history, part, plan, best, d, weight)
            if found is not None and found[0] <= enough:
                value, k, trees, args = found
                _, (result,) = self._runner.known(_exp_guess_task, [args])  # counted now
                self.stats.add(_guess_answer(result)[2])
                self.progress.message(f"{what} ({n} secrets): "
                                      f"{self.game.code_str(plan[k][0])} reaches "
                                      f"{_cost_text(value, weight)}, the floor's share")
                return value, plan[k][0], trees
        after = " ".join(self.game.code_str(h) for h in history)
        order = {g: k for k, (g, _) in enumerate(plan)}
        lock = threading.Lock()
        # The best total so far, the index in ``plan`` of the guess that holds it (-1:
        # the guess the rivals are searched against), the next guess to draw.
        race = {"best": best, "holder": -1, "next": 0, "trees": None}

        def keep(k, value, trees=None):  # under the lock; True if it took the lead
            if value is not None and (value < race["best"] or
                                      value == race["best"] and k < race["holder"]):
                race["best"], race["holder"], race["trees"] = value, k, trees
                return value < best
            return False

        def task(k):  # under the lock: ((arguments), chained?)
            args = self._rival_task(history, plan[k][0], part, race["best"], d, weight)
            return args, self._chained(history, args[2])

        def take(chains: bool):
            """Under the lock: ``(index, arguments, chained?)`` of the next guess, the
            race moved past it; None if its bound reaches the best total (or, unless
            ``chains``, if it is a chain: the stream ends before it)."""
            k = race["next"]
            if k >= len(plan) or plan[k][1] >= race["best"] or (
                    enough is not None and race["best"] <= enough):
                return None
            args, chained = task(k)
            if chained and not chains:
                return None
            race["next"] += 1
            return k, args, chained

        def draws(taken):  # the stream's tasks, from the guess ``taken`` on
            while taken is not None:
                k, args, _ = taken
                _, (found,) = self._runner.known(_exp_guess_task, [args])
                if found is None:
                    yield args
                else:
                    value, trees, counters = _guess_answer(found)
                    with lock:
                        self.stats.add(counters)
                        lead = keep(k, value, trees)
                    if lead and trees is not None and on_better is not None:
                        on_better(value, plan[k][0], trees)
                    self.progress.advance(resumed=True)
                with lock:
                    taken = take(chains=False)

        def sink(args, result):
            value, trees, counters = _guess_answer(result)
            with lock:
                self.stats.add(counters)
                lead = keep(order[args[1]], value, trees)
            if lead and trees is not None and on_better is not None:
                on_better(value, args[1], trees)

        # A rival of a first guess's big part, a chain, runs for minutes to hours under
        # phases of its own: the log says each one's answer as it comes, and which ones
        # the race waits for once every rival is drawn (not for the deeper races:
        # thousands, whose label is not built)
        told = len(history) == 1
        race_label = f"{_phase(weight)}: {what} ({n} secrets after {after})" if told else None

        def settle(k, args):  # a chain: its answer, and its tree if it took the lead
            start = time.monotonic()
            # one look at the checkpoint: an answer found there is told as read back,
            # and _chain_of (which would look again) computes only one not found
            found = self._runner.known(_exp_guess_task, [args])[1][0] if told else None
            read_back = found is not None
            value = found[0] if read_back else self._chain_of(args)
            with lock:
                lead = keep(k, value)
                if told:  # (not the deeper chains': thousands, whose plans are long)
                    held = race["best"]
                    left = sum(b < held for _, b in plan[race["next"]:])
            if told:
                self.progress.message(_chain_answer_text(
                    race_label, self.game.code_str(plan[k][0]),
                    value, args[5], lead, weight,
                    None if read_back else time.monotonic() - start, left, held))
            if lead and on_better is not None and self._known_race(
                    history, part, plan[k + 1:], value, d, weight) is None:
                # its tree now, not after the race (unless the checkpoint of a
                # resumed run already holds a later rival that beats it)
                trees = self._lead_trees(history, plan[k][0], part, value, d, weight)
                with lock:
                    if race["holder"] == k:  # (a chain beside may have beaten it since)
                        race["trees"] = trees
                on_better(value, plan[k][0], trees)

        beside = []  # chains running in threads beside this one
        while True:
            with lock:
                taken = take(chains=True)
                if taken is None:
                    break
                k, args, chained = taken
                left = sum(b < race["best"] for _, b in plan[k:])
                label = f"{_phase(weight)}: {what} ({n} secrets after {after}), {left} " + (
                    f"with a bound below {_cost_text(race['best'], weight)}"
                    if race["best"] < UNBUDGETED
                    else "to search, none within the cap so far")
            if chained:  # with the budget of every guess before it (and beside)
                if self._beside is not None and self._beside.acquire(blocking=False):
                    beside.append((plan[k][0], time.monotonic(), self._runner.beside(
                        lambda k=k, args=args: self._settle_beside(settle, k, args))))
                else:
                    settle(k, args)
                continue
            self.progress.phase(label, left)
            self._runner.stream(_exp_guess_task, draws(taken), sink)
        running = [(self.game.code_str(g), time.monotonic() - drawn)
                   for g, drawn, chain in beside if chain.running]
        if told and running:
            self.progress.message(_beside_wait_text(race_label, running))
        for _, _, chain in beside:  # (after Ctrl-C, none is waited for: daemon threads)
            chain.join()
        if race["holder"] < 0:
            return best, None, None
        return race["best"], plan[race["holder"]][0], race["trees"]

    def _settle_beside(self, settle, k, args) -> None:
        """``settle(k, args)`` in a thread beside the race's own, its slot given back
        at the end (:meth:`_second_guess_rounds`)."""
        try:
            settle(k, args)
        finally:
            self._beside.release()

    def _lead_trees(self, history, g, part, total, d, weight) -> list:
        """The ``(value, subtree)`` of each part of the guess ``g`` at ``part`` (after
        the guesses ``history``, ``d`` guesses left), a chain that has just taken the
        lead of its race at ``total``: its parts solved exactly
        (:meth:`_solve_subparts`), as the race's end would solve them.

        A chain's answer is its total alone, and the race used to build the winner's
        tree only once every rival had settled: a race that outlasts its sessions
        (p6c7nb's 1,854 secrets after 123456, a rival better by 4 secrets at the cap
        found hours before the race's end) kept its better total out of the table,
        whose entries are the trees a run has built. Built at once, the tree goes to
        ``on_better`` and so into the run's best tree so far; if it stays the lead,
        the race's end reads its parts back from the checkpoint or the solver's
        own tables, and if a later rival beats it, one part tree was built in vain
        (a resumed run, replaying the race from its checkpoint, builds none for a
        lead that the checkpoint shows beaten).
        The parts must add up to the chain's total (an :class:`AssertionError` if not)."""
        d2 = d if d >= NO_CAP else d - 1
        subs = self._ctx.split(g, part)
        line = " ".join(self.game.code_str(h) for h in (*history, g))
        solved = self._solve_subparts((*history, g), subs, d2, weight,
                                      f"{_phase(weight)}: the tree of {line}, "
                                      "a rival that took the lead")
        trees = [solved[a] for a, _ in subs]
        if len(part) + sum(v for v, _ in trees) != total:
            raise AssertionError(f"the tree of {line} costs "
                              f"{len(part) + sum(v for v, _ in trees)}, its chain found {total}")
        return trees

    def _rival_task(self, history, rival, part, budget, d, weight) -> tuple:
        """The arguments of :func:`_exp_guess_task` for the guess ``rival`` at ``part``
        (after the guesses ``history``, ``d`` guesses left) under ``budget``: its parts
        (the third), their balanced-tree bounds, the secrets, the budget."""
        d2 = d if d >= NO_CAP else d - 1
        lb = self._ctx.bounds(weight)[d2]
        subs = [sub for _, sub in self._ctx.split(rival, part)]
        return (tuple(history), rival, subs, [int(lb[len(q)]) for q in subs], len(part),
                budget, d2, weight)

    def _known_race(self, history, part, plan, best, d, weight):
        """The least total below ``best`` that the checkpoint already holds among the
        rival guesses ``plan`` at ``part`` (the earliest in order on a tie), as
        ``(total, index in plan, trees, task arguments)``, or None: each rival with
        a bound below the best so far looked up under that budget (a result under
        another one answers where it can), nothing computed, nothing counted."""
        if self._runner.checkpoint is None:
            return None
        found = None
        for k, (rival, bound) in enumerate(plan):
            if bound >= best:
                break  # the plan runs by bound
            args = self._rival_task(history, rival, part, best, d, weight)
            _, (result,) = self._runner.known(_exp_guess_task, [args], count=False)
            value = None if result is None else _guess_answer(result)[0]
            if value is not None and value < best:
                best, found = value, (value, k, _guess_answer(result)[1], args)
        return found

    def _chain_of(self, task):
        """:func:`_exp_guess_task`'s answer for ``task`` (its arguments after the
        common ones), computed as a chain (:meth:`_guess_by_parts`)."""
        return self._saved_or(_exp_guess_task, task,
                              lambda: (self._guess_by_parts(*task), new_stats()))[0]

    def _saved_or(self, fn, task, compute, spent=None):
        """The result of the task ``fn(*common, *task)`` from the checkpoint, or else
        ``compute()`` (a chain or a split part that gives the same answer in pieces)
        saved there as that task's result: the checkpoint report reads it as the
        task's, and a run that asks for the task whole reads it back. ``compute``
        returns zero work counters: the pieces' own tasks hold the work. An answer
        whose pieces took less processor time than ``checkpoint_min_seconds`` is not
        saved (:meth:`TaskRunner.record`). ``spent``: the processor and wall seconds
        of pieces computed before this call, counted too (a split part's first
        guess's parts: :meth:`_node_start`)."""
        _, (found,) = self._runner.known(fn, [task])
        if found is not None:
            return found
        since = self._runner.clock()
        if spent is not None:
            since = (since[0] - spent[0], since[1] - spent[1])
        result = compute()
        self._runner.record(fn, task, result, since)
        return result

    def _guess_by_parts(self, history, g, parts, lbs, n, bound, d, weight):
        """Total of guess ``g`` played after ``history`` (its ``parts`` of the ``n``
        secrets, with lower bounds ``lbs``, ``d`` guesses left in each) if below
        ``bound``, else None: :func:`_exp_guess_task`'s answer, for a guess with parts
        of :data:`SPLIT_SECRETS` secrets or more. The search uses it for rival first
        guesses (``history`` empty); a rival second guess of a big part stays one task,
        which is cheaper at that size (docs/LOGIK_EXPECTED.md, ``scripts/time_rival.py``),
        unless ``chain_secrets`` asks for chains below the first guess
        (:meth:`_chained`): then the rivals of a big part's rounds may be chains
        themselves, their parts of ``chain_secrets`` secrets or more the big ones.

        As one task, such a rival would run for hours (Logik: one to five hours each,
        longer than a session, and lost whole when the run is killed). Here it is a
        chain of tasks, each saved when done: below the first guess, probes that
        raise the big parts' bounds (:meth:`_probe_parts`); one for its small parts
        together (the big ones counted at their bounds), then each big part, smallest
        first, split by its second guesses (:meth:`_second_guess_rounds`) with the
        budget that the parts known so far leave it; the first part that reaches its
        budget refutes the guess.
        """
        least = self._chain_secrets(history)
        least = SPLIT_SECRETS if least is None else least
        big = sorted((i for i, p in enumerate(parts) if len(p) >= least),
                     key=lambda i: (len(parts[i]), i))
        small = [i for i in range(len(parts)) if i not in big]
        line = " ".join(self.game.code_str(h) for h in (*history, g))
        lbs, exact = [int(b) for b in lbs], set()
        if history:  # below the first guess (chain_secrets): raise the big parts' bounds
            exact = self._probe_parts((*history, g), parts, big, lbs, d, weight,
                                      f"{_phase(weight)}: rival {line}, probes of its big parts")
            if n + sum(lbs) >= bound:
                return None
        known = n + sum(lbs[i] for i in big)  # the exact total once every part is known
        if small:
            (result,) = self._runner.run(
                _exp_guess_task,
                [(tuple(history), g, [parts[i] for i in small], [lbs[i] for i in small],
                  known, bound, d, weight)],
                f"{_phase(weight)}: rival {line}, its {len(small)} small parts")
            value, _, counters = _guess_answer(result)
            self.stats.add(counters)
            if value is None:
                return None
            known = value
        for i in big:
            if i in exact:  # its bound is its value
                continue
            budget = bound - (known - lbs[i])  # what part i may cost, g still below bound
            plan = self.exp_second_guesses((*history, g), parts[i], d, weight)
            value, guess, _ = self._second_guess_rounds(
                (*history, g), parts[i], plan, budget, d, weight, f"guesses of rival {line}")
            if guess is None:
                return None
            known += value - lbs[i]
        return known

    def _probe_parts(self, history, parts, which, lbs, d, weight, label) -> set:
        """Raise ``lbs[i]`` for the parts ``which`` (after the guesses ``history``, ``d``
        guesses left) by :data:`PROBE_ROUNDS` rounds of null-window probes, each a task
        (:func:`_exp_part_task` with budget ``lbs[i] + 1``, no tree): a probe either
        proves the part costs more (its fail-soft value, the new bound) or solves it
        within its bound (then the bound is its value). Returns the parts solved.

        A rival searched as one task probes its parts so before it searches any
        (:func:`_exp_guess_task`); a chain does the same for its big parts, so that
        the parts searched first get the budget that the others' true bounds leave
        them, not the balanced-tree bound's (p4c8nb's rival second guesses: the
        352-secret part before the 524-secret one)."""
        exact = set()
        for _ in range(PROBE_ROUNDS):
            open_ = [i for i in which if i not in exact]
            if not open_:
                break
            results = self._runner.run(
                _exp_part_task, [(tuple(history), parts[i], lbs[i] + 1, d, False, weight)
                                 for i in open_], label, cost=_part_size)
            for i, (value, _, counters) in zip(open_, results):
                self.stats.add(counters)
                if value <= lbs[i]:
                    exact.add(i)
                lbs[i] = max(lbs[i], int(value))
        return exact
