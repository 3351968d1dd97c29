"""The worst-case search: the least ``t*`` within which every secret is found.

For ``t`` from the counting bound upwards, first guesses are tried
in order of their largest part; a first guess proves ``t`` when all its parts
are feasible within ``t - 1``; ``t`` is refuted when none does. A part of
:data:`WC_SPLIT_SECRETS` secrets or more (Logik's, whose refutation takes weeks)
is one task per second guess, tried in the compiled search's order until one
keeps it within ``t - 1`` (:meth:`Solver._wc_split_node`); with ``split_depth``,
the parts its guesses leave are split the same way, down to that many guesses.

These are the worst-case methods of :class:`~optimal_mm.search.Solver`, a mixin that
reads the solver's game, guess rule and options, its search context (``_ctx``), task
runner (``_runner``), progress and counters (``stats``), and calls its ``_root``,
``_parts`` and ``_strategy``; with them, the order in which the compiled search tries
guesses (:func:`worst_case_order`).
"""

from __future__ import annotations

import threading
import time

import numpy as np

from ._search_arrays import INF, NO_CAP, new_stats
from .game import Game, partition_counts
from .search_context import _classes, _part_guesses, beyond_depth
from .search_tasks import _wc_guess_task, _wc_part_task, _wc_subpart_task
from .solution import Solution

#: Worst-case parts of the first guess with at least this many secrets are split by
#: their own guesses, one task per second guess (:meth:`Solver._wc_split_node`). Every
#: first guess of p5c8 (Logik) has such a part, and refuting one takes weeks
#: (docs/LOGIK.md): split, a run saves its progress every few minutes. In smaller games
#: only poor first guesses (1111) have one; smaller parts are searched or refuted
#: whole within seconds, where one task is cheaper than hundreds.
WC_SPLIT_SECRETS = 2000


class WorstCaseSearch:
    """The worst case of :class:`~optimal_mm.search.Solver`: :meth:`_worst_case`
    finds ``t*`` (or tests a cap) and builds a tree within it."""

    def _worst_case(self, max_guesses):
        start = time.perf_counter()
        game, ctx = self.game, self._ctx
        secrets, reps = self._root()
        n = len(secrets)
        counting = next((d for d in range(1, NO_CAP + 1) if ctx.lb[d, n] < INF), NO_CAP + 1)
        if max_guesses is None and counting > NO_CAP:
            raise beyond_depth(game, f"the counting bound: {n} secrets, "
                                     f"{len(game.possible_answers)} answers")
        proof = []
        self.progress.reset()
        if max_guesses is not None:
            depths = [max_guesses]
        else:
            depths = range(counting, NO_CAP + 1)
            self.progress.update(bound=counting)
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
                self.progress.update(best=d)
                # With a cap, only that cap was tested: t* itself may be smaller.
                extra = self._tree_rules()
                strategy = self._strategy("worst-case", d, tree, max_guesses is None, seconds,
                                          extra)
                return Solution(game, "worst-case", self.guesses, d, d, strategy, self.stats,
                                seconds, proof, self._runner.resumed)
            proof.append(f"{d} guesses: impossible ({_classes(len(order))} refuted)")
            if max_guesses is None:
                self.progress.update(bound=d + 1)
            self.progress.message(proof[-1])
        if max_guesses is None:  # every depth the search has, refuted
            raise beyond_depth(game, f"proven: {proof[-1]}")
        seconds = time.perf_counter() - start
        return Solution(game, "worst-case", self.guesses, max_guesses, None, None, self.stats,
                        seconds, proof, self._runner.resumed)

    def _tree_rules(self) -> dict:
        """What besides the game and guess rule decides a worst-case tree's guesses,
        for its ``meta``: the tree rule, and the split of big parts (a split part's
        subtree starts with the first feasible guess in the search's order), where
        they are not the defaults."""
        extra = {} if self.wc_tree == "small-total" else {"wc_tree": self.wc_tree}
        if self.split_secrets != WC_SPLIT_SECRETS:
            extra["split_secrets"] = self.split_secrets
        if self.split_depth != 1:
            extra["split_depth"] = self.split_depth
        return extra

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
        """The first guess of ``order`` whose parts are all solvable within ``d - 1``
        guesses, with their subtrees, as ``(guess, {answer: subtree})``; None if none is.

        Parts of ``split_secrets`` secrets or more (:data:`WC_SPLIT_SECRETS` unless
        the solver was given another) are split by their own guesses
        (:meth:`_wc_split_node`), largest first; the others are one task each.
        """
        ctx = self._ctx
        for g in order:
            parts = self._parts(g, secrets)
            if any(ctx.lb[d - 1, len(p)] >= INF for _, p in parts):
                continue
            if d == 1:
                continue
            if self._refuted_whole(g, parts, d - 1):
                continue
            trees = {}
            split = [(a, p) for a, p in parts if len(p) >= self.split_secrets and d > 2]
            refuted = False
            for a, p in split:
                tree = self._wc_split_node((g,), a, p, d - 1)
                if tree is None:
                    refuted = True
                    break
                trees[a] = tree
            rest = [(a, p) for a, p in parts if a not in trees]
            if not refuted:
                refuted = self._wc_parts(g, rest, d, trees)
            if not refuted:
                self.progress.message(f"{d} guesses: feasible with first guess "
                                      f"{self.game.code_str(g)}")
                return g, {a: trees[a] for a, _ in parts}
        return None

    def _refuted_whole(self, g, parts, d) -> bool:
        """Whether the checkpoint holds a refutation of one of ``parts`` (below first
        guess ``g``, within ``d`` guesses) searched whole, as one task. Asked before any
        part is searched: a run under a larger ``split_secrets`` may have refuted whole
        a part that this run splits, or refuted ``g`` by a small part that this run,
        splitting its big parts first, would come to last. Only refutations are taken
        (under either tree rule), which add nothing to the tree: the tree stays the
        one this run's threshold and tree rule build."""
        args = [(g, p, d, self._tree_arg) for _, p in parts]
        _, results = self._runner.known(_wc_part_task, args, count=False)
        for (a, p), r in zip(parts, results):
            if r is not None and not r[0]:
                # Read back as the batch of g's parts would have been: counted, stats.
                for found in self._runner.known(_wc_part_task, args)[1]:
                    if found is not None:
                        self.stats.add(found[2])
                self.progress.message(f"first guess {self.game.code_str(g)}: the {len(p)} "
                                      f"secrets after {self.game.answer_str(a)} need more "
                                      f"than {d} guesses (searched whole, in the "
                                      f"checkpoint)")
                return True
        return False

    def _wc_batch(self, fn, args, label):
        """A worst-case batch of tasks ``fn(*args[i])`` opened as the progress phase
        ``label``: the task keys, the results (those in the checkpoint, counted in the
        statistics; ``None`` elsewhere), and the ``sink(i, result)`` that
        :meth:`~optimal_mm.runner.TaskRunner.execute` calls as each task finishes."""
        keys, results = self._runner.known(fn, args)
        self.progress.phase(label, len(args), sum(r is not None for r in results))
        for r in results:
            if r is not None:
                self.stats.add(r[2])

        def sink(i, result):
            results[i] = result
            self.stats.add(result[2])

        return keys, results, sink

    def _wc_parts(self, g, parts, d, trees, history=()):
        """Search ``parts`` of guess ``g`` (played after ``history``: the first guess
        when there is none) within ``d - 1``, one task each; put their subtrees in
        ``trees``; True when one of them is infeasible. Below the first guess the
        tasks are :func:`_wc_subpart_task` (pieces of a deep split)."""
        if history:
            fn, args = _wc_subpart_task, [(p, d - 1, self._tree_arg) for _, p in parts]
            label = (f"worst case: {len(parts)} parts after {self._line(history, g)}, "
                     f"within {d - 1}")
        else:
            fn, args = _wc_part_task, [(g, p, d - 1, self._tree_arg) for _, p in parts]
            label = f"worst case within {d}: first guess {self.game.code_str(g)}"
        _, results, sink = self._wc_batch(fn, args, label)
        # Parts go out largest first, each to a worker as soon as one is free
        # (TaskRunner.stream), until one is infeasible: it refutes the guess, and the
        # rest need not be searched. Parts already in the checkpoint count without
        # being searched again.
        lock = threading.Lock()

        def refuted():
            return any(r is not None and not r[0] for r in results)

        def draws():
            for i, r in enumerate(results):
                with lock:
                    if refuted():
                        return
                if r is None:
                    yield args[i]

        def finished(task, result):
            with lock:
                sink(next(i for i, a in enumerate(args) if a is task), result)

        self._runner.stream(fn, draws(), finished)
        if refuted():
            return True
        trees.update({a: r[1] for (a, _), r in zip(parts, results)})
        return False

    def wc_second_guesses(self, g, part, d):
        """The guesses at the node of ``part`` (below first guess ``g``, to be solved
        within ``d``) in the order the compiled search tries them: least largest part,
        then least sum of squared part sizes, then guesses that may be the secret, then
        index; those leaving a part beyond the counting bound of ``d - 1`` left out.
        A part split one second guess per task (:meth:`_wc_split_node`) has one task
        for each."""
        return self.wc_node_guesses((g,), part, d)

    def wc_node_guesses(self, history, part, d):
        """:meth:`wc_second_guesses` at the node after the guesses ``history``: one
        per class of the group fixing the history and the part, in the compiled
        search's order."""
        game, ctx = self.game, self._ctx
        top = _part_guesses(game, tuple(history), part, self.consistent, self.symmetry)
        top = ctx.all_guesses if top is None else top
        return worst_case_order(game, top, part, ctx.lb[d - 1]).tolist()

    def _line(self, history, g=None) -> str:
        """The guesses ``history`` (and ``g``), as people read them."""
        return " ".join(self.game.code_str(h) for h in (*history, *(() if g is None else (g,))))

    def _wc_split_node(self, history, answer, part, d):
        """The subtree of a big ``part`` (answer ``answer`` to the last of the guesses
        ``history``) within ``d`` guesses, or None when it has none, searched one guess
        per task.

        Each task asks whether one guess keeps every part it leaves solvable within
        ``d - 1`` (:func:`_wc_guess_task`); the part is feasible at the first guess
        that does, infeasible when all are refuted. Guesses go out in the compiled
        search's order (:meth:`wc_node_guesses`), each to a worker as soon as one is
        free (:meth:`TaskRunner.stream`; they went out in batches before, and a long
        refutation waited for the slowest task of each), until one before the next
        is known feasible: the tasks then running are the only ones wasted (still
        saved). The guess kept is the first feasible one in that order, whatever the
        number of workers and whatever a checkpoint already holds: a feasible guess
        found later in the order is used only once every guess before it is refuted.
        So a refutation that takes weeks is checkpointed a guess at a time.

        Above ``split_depth`` guesses, a guess that leaves a part of ``split_secrets``
        or more is searched by pieces instead (:meth:`_wc_guess_by_parts`), the
        guesses one after another: such a task would be one compiled call of hours
        (p5c8nb within 9: a second guess of the 3,539 secrets after 12345 ran over
        50 minutes unfinished), all of it lost when the run stops.

        The subtree starts with the guess kept (under the "small-total" tree rule,
        the whole part's search would have picked its first guess for a small total,
        :meth:`_Context.wc_tree`): the same worst case, a total that may differ (p5c8
        within 7: 181,018 against 181,389). Below it, the solver's tree rule.
        """
        guesses = self.wc_node_guesses(history, part, d)
        first = "first guess" if len(history) == 1 else "guesses"
        where = f"{first} {self._line(history)}"
        secrets = f"{len(part)} secrets after {self.game.answer_str(answer)}"
        which = f"{len(guesses)} {_ordinal(len(history) + 1)} guesses"

        def refuted():
            self.progress.message(f"{where}: the {secrets} need more than {d} guesses "
                                  f"({which} refuted)")

        if len(history) < self.split_depth and d > 2:
            self.progress.message(f"worst case within {d + len(history)}: {where}, "
                                  f"{secrets}: {which}, each searched by its parts")
            for g in guesses:
                tree = self._wc_guess_by_parts(history, g, part, d)
                if tree is not None:
                    return tree
            return refuted()
        args = [(tuple(history), g, part, d, self._tree_arg) for g in guesses]
        _, results, sink = self._wc_batch(
            _wc_guess_task, args,
            f"worst case within {d + len(history)}: {where}, {secrets}: {which}")
        lock = threading.Lock()

        def draws():  # in order, until a guess before the next one is known feasible
            for i, r in enumerate(results):
                with lock:
                    if any(q is not None and q[0] for q in results[:i]):
                        return
                if r is None:
                    yield args[i]

        def finished(task, result):
            with lock:
                sink(guesses.index(task[1]), result)

        self._runner.stream(_wc_guess_task, draws(), finished)
        # Every guess before the first not refuted was drawn, so it has its result.
        kept = next((i for i, r in enumerate(results) if r is None or r[0]), None)
        if kept is None:
            return refuted()
        return results[kept][1]

    def _wc_guess_by_parts(self, history, g, part, d):
        """:func:`_wc_guess_task`'s question for the guess ``g`` at the node of
        ``part`` (after ``history``), answered by pieces: its parts of
        ``split_secrets`` secrets or more each split again (:meth:`_wc_split_node`),
        largest first, then the others, one :func:`_wc_subpart_task` each. The
        subtree ``(g, {answer: subtree})``, or None when a part does not fit within
        ``d - 1``.

        A refutation is saved as the task's own answer (its pieces hold the work), so
        that a rerun, or a run without the deep split, reads it back whole, and the
        checkpoint report counts the guess as refuted; a feasible answer is not, since
        its tree is built from the pieces' (a task's would pick its own guesses), and
        a rerun reads its pieces back."""
        task = (tuple(history), g, part, d, self._tree_arg)
        _, (found,) = self._runner.known(_wc_guess_task, [task])
        if found is not None:
            self.stats.add(found[2])
            return found[1] if found[0] else None
        since = self._runner.clock()
        parts = self._parts(g, part)
        trees, refuted = {}, False
        for a, p in parts:
            if len(p) >= self.split_secrets:
                tree = self._wc_split_node((*history, g), a, p, d - 1)
                if tree is None:
                    refuted = True
                    break
                trees[a] = tree
        if not refuted:
            rest = [(a, p) for a, p in parts if a not in trees]
            refuted = self._wc_parts(g, rest, d, trees, history)
        if refuted:
            self._runner.record(_wc_guess_task, task, (False, None, new_stats()), since)
            return None
        return int(g), {a: trees[a] for a, _ in parts}


def _ordinal(n: int) -> str:
    """``"second"`` for 2, and so on: the guesses of a split node, by their place.

    >>> _ordinal(2), _ordinal(4), _ordinal(11)
    ('second', 'fourth', '11th')
    """
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")
    return words[n - 1] if n <= len(words) else f"{n}th"


def worst_case_order(game: Game, guesses, secrets, lb_next) -> np.ndarray:
    """``guesses`` at the node of ``secrets`` in the order the compiled worst-case
    search tries them: least largest part, then least sum of squared part sizes, then
    guesses that may be the secret, then their order in ``guesses``; those that tell
    nothing or leave a part beyond ``lb_next`` (the counting bound of the guesses left
    after them: ``INF`` where a part of that size cannot be solved) left out.

    >>> game = Game.from_spec("p2c3")
    >>> from optimal_mm._search_arrays import lower_bound_table
    >>> lb = lower_bound_table(9, len(game.possible_answers) - 1)
    >>> [game.code_str(g) for g in worst_case_order(game, range(9), np.arange(9), lb[2])]
    ['12', '13', '21', '23', '31', '32', '11', '22', '33']
    """
    guesses = np.asarray(guesses, dtype=np.int64)
    counts = partition_counts(game, guesses, secrets).astype(np.int64)
    counts[:, game.win] = 0
    biggest = counts.max(axis=1)
    squares = (counts ** 2).sum(axis=1)
    useful = np.flatnonzero((biggest < len(secrets)) & (lb_next[biggest] < INF))
    may_win = np.isin(guesses[useful], secrets)
    order = np.lexsort((useful, ~may_win, squares[useful], biggest[useful]))
    return guesses[useful[order]]
