"""The tasks of the exact search: what a worker process computes.

Each task is a module-level function of plain arguments (a game, the guess rule, the
table size, the symmetry switch, then its own), so that joblib and dask can send it
to a worker and a checkpoint can key it by its name and arguments
(:mod:`optimal_mm.checkpoint`). Each runs on its process's search context
(:mod:`optimal_mm.search_context`) and returns its answer with the counters it added.
The :class:`~optimal_mm.search.Solver` decides which tasks to run and what their
answers prove (:mod:`optimal_mm.search_worst`, :mod:`optimal_mm.search_expected` and the
modules it names).

A task's ``checkpoint_reuse`` attribute says which argument may differ between the
run that saved its answer and the run that asks for it, and how to read the answer
under the new value (:mod:`optimal_mm.checkpoint`, "Results under another value").
Its ``checkpoint_always`` attribute names the tasks a checkpoint keeps however short
they were (:mod:`optimal_mm.runner`, ``min_save_seconds``).
"""

from __future__ import annotations

from ._search_arrays import INF, NO_CAP, new_stats
from .search_context import PartGuesses, _context, _part_guesses

# Tasks run in worker processes: module-level functions of plain arguments.


def _exp_part_task(game, consistent, entries, symmetry, history, part, budget, d, want_tree,
                   weight):
    ctx = _context(game, consistent, entries, symmetry)
    before = ctx.counters.copy()
    top = _part_guesses(game, history, part, consistent, symmetry)
    value, _ = ctx.exp(part, budget, d, top, weight)
    tree = None
    if want_tree and value < budget:
        tree = ctx.exp_tree(part, d, top, weight, int(value))
    return int(value), tree, ctx.counters - before


def part_task(history, part, d, weight) -> tuple:
    """The arguments (after the common ones) of the :func:`_exp_part_task` that solves
    ``part`` exactly after the guesses ``history``, within ``d`` more guesses (or
    :data:`NO_CAP`), and builds its tree: no budget. Every search that solves a part,
    and every reader that looks for one solved in a checkpoint, keys it so.

    >>> part_task([0, 5], "part", NO_CAP, 0)[::2] == ((0, 5), INF, True)
    True
    """
    return tuple(history), part, INF, d, True, weight


def probe_task(history, part, lb, d, weight) -> tuple:
    """The arguments of a *null-window probe* of ``part`` above its lower bound ``lb``
    (:func:`_exp_part_task` with budget ``lb + 1`` and no tree): its value is at most
    ``lb`` where the part costs exactly that, else a bound above ``lb``."""
    return tuple(history), part, int(lb) + 1, d, False, weight


def value_task(history, part, d, weight) -> tuple:
    """The arguments of the :func:`_exp_part_task` that finds ``part``'s exact value
    after the guesses ``history`` (``d`` guesses left, or :data:`NO_CAP`) and builds
    no tree: no budget, so its answer holds under any bound a search asks of it.
    A chain's small parts are solved so, each its own task
    (:meth:`~optimal_mm.search_races.RivalRaces._small_parts`).

    >>> value_task([0, 5], "part", NO_CAP, 0)[2:5] == (INF, NO_CAP, False)
    True
    """
    return tuple(history), part, INF, d, False, weight


def value_slot(task) -> tuple:
    """``(part, key)``: how :class:`~optimal_mm.symmetry.SolvedUpToRenaming` files the
    answer of the :func:`value_task` ``task``. A part's value holds for every renaming
    of it with the same guesses left and cap weight, whatever guesses came before.

    >>> value_slot(value_task([0, 5], "part", 4, 1))
    ('part', (4, 1))
    """
    _, part, _, d, _, weight = task
    return part, (d, weight)


def _exp_batch_task(game, consistent, entries, symmetry, history, part, guesses, budget, d,
                    weight):
    """One batch of a part's first guesses (:mod:`optimal_mm.search_batches`): the
    least cost of ``part`` after the guesses ``history``, ``d`` guesses left, over
    the guesses ``guesses`` alone at its root, if below ``budget`` (exact, then);
    else a bound at least ``budget``: ``(value, None, counters)``. The least over a
    part's batches, each under the best of those before it, is the part's value
    (:class:`~optimal_mm.search_batches.PartBatches`)."""
    ctx = _context(game, consistent, entries, symmetry)
    before = ctx.counters.copy()
    value, _ = ctx.exp(part, budget, d, guesses, weight)
    return int(value), None, ctx.counters - before


def batch_task(history, part, guesses, budget, d, weight) -> tuple:
    """The arguments of :func:`_exp_batch_task` after the common ones.

    >>> batch_task([0, 5], "part", "guesses", INF, 4, 0)[2:] == ("guesses", INF, 4, 0)
    True
    """
    return tuple(history), part, guesses, int(budget), d, weight


def _batch_result_under(result, ran, wanted):
    """:func:`_exp_batch_task`'s result under budget ``wanted``, from its result under
    budget ``ran``, or None when that does not settle it: an exact value (below
    ``ran``) answers any budget (at or above ``wanted`` it is a bound as good as
    any); a bound at least ``ran`` answers any budget up to ``ran``.

    >>> exact, bound = (7, None, None), (10, None, None)  # under budget 10
    >>> _batch_result_under(exact, 10, 5)[0], _batch_result_under(bound, 10, 12)
    (7, None)
    """
    value = int(result[0])
    return result if value < ran or wanted <= ran else None


# A batch's budget is the best of the batches before it, which depends on which
# finished first (the number of jobs): a checkpoint answers it under another budget
# when it can (optimal_mm.checkpoint, "Results under another value").
_exp_batch_task.checkpoint_reuse = (3, _batch_result_under)


def saved_small_parts(args) -> bool:
    """Whether a saved :func:`_exp_guess_task` (its entry's arguments after the common
    ones, each part a ``{"shape", "array"}`` record as :mod:`optimal_mm.checkpoint`
    writes it) is a chain's small parts rather than a rival's own task. A rival's
    ``n`` is its parts' secrets, plus one if the guess may be the secret; the small
    parts' ``n`` adds the big parts' lower bounds
    (:meth:`~optimal_mm.search_races.RivalRaces._guess_by_parts`), and a big part
    costs more than its secrets. The report of a checkpoint and the capped search's
    floor (:func:`~optimal_mm.search_races._small_floors`) tell them apart so.

    >>> part = {"shape": [40], "array": "..."}
    >>> saved_small_parts([[0], 5, [part, part], [50, 50], 81, 9000, 9, 0])
    False
    >>> saved_small_parts([[0], 5, [part, part], [50, 50], 412, 9000, 9, 0])
    True
    """
    return sum(p["shape"][0] for p in args[2]) + 1 < args[4]


def _part_size(args) -> int:
    """How many secrets an :func:`_exp_part_task` searches (arguments after the common
    ones): its cost grows steeply with it, so a batch dispatches the largest first."""
    return len(args[1])


def _top_part_tree(args) -> bool:
    """Whether an :func:`_exp_part_task` (arguments after the common ones) builds the
    tree of a part under at most two guesses. Such a task is saved in a checkpoint
    whatever its time (``checkpoint_always``, :mod:`optimal_mm.runner`): a report of
    the checkpoint (:mod:`optimal_mm.checkpoint_report`) reads a rival second
    guess's tree as built only when it finds the task of each of its parts, and a
    part of a few secrets takes milliseconds."""
    history, want_tree = args[0], args[4]
    return len(history) <= 2 and bool(want_tree)


_exp_part_task.checkpoint_always = _top_part_tree


#: Rounds of null-window probes on every part before a rival first guess is searched.
PROBE_ROUNDS = 2


def _exp_guess_task(game, consistent, entries, symmetry, history, first, parts, lbs, n,
                    bound, d, weight):
    """Total of the guess ``first`` (played after ``history``) over the ``n`` secrets
    of its ``parts`` if it is below ``bound``, else None (the cost of cap weight
    ``weight`` in place of the total when it is not 0), as ``(total, trees,
    counters)`` (:func:`_guess_answer` reads it, and the ``(total, counters)`` of
    the entries written before rivals kept their trees): :func:`_rival`."""
    return _rival(game, consistent, entries, symmetry, history, first, parts, lbs, n,
                  bound, d, weight)


def _exp_trees_task(game, consistent, entries, symmetry, history, first, parts, lbs, n,
                    total, d, weight):
    """``(trees, counters)``: the ``(value, subtree)`` of each of the ``parts`` of the
    guess ``first``, known to cost ``total`` (a rival that proved better, whose
    checkpoint entry was written before rivals kept their trees): its own search
    again, with the budget ``total + 1``, which builds them (:func:`_rival`).

    With its total known, the rival's search cuts every guess that would exceed it,
    part after part; the parts' trees searched without a budget took longer than
    the rival's whole task (p6c7nb's 2,119-secret part after 123456: 474 s as a
    rival, its tree unfinished after 16 minutes)."""
    value, trees, counters = _rival(game, consistent, entries, symmetry, history, first,
                                    parts, lbs, n, total + 1, d, weight)
    if value != total or trees is None:  # a broken invariant, never user input
        raise AssertionError(f"the rival's total {value} != {total}, or no trees")
    return trees, counters


def _rival(game, consistent, entries, symmetry, history, first, parts, lbs, n, bound, d,
           weight):
    """The search of :func:`_exp_guess_task`: ``(total or None, trees, counters)``.

    A rival that proves better has solved every part exactly, so it builds their
    trees too, ``trees[i] = (value, subtree)`` of ``parts[i]`` (None otherwise, and
    for the small parts of a chain, which do not cover the ``n`` secrets), while its
    transposition table still holds their states: the search then plays them as
    they are, where it built the winner's tree again part by part before, in a
    worker that held none of them.

    Most rivals are refuted, and a refutation only needs the parts' lower bounds to
    add up to ``bound``. So the parts' bounds are first raised cheaply: a few rounds
    of *null-window probes*, each a search of one part with budget ``bound + 1``,
    which either proves the part costs more (the fail-soft value is a better bound)
    or solves it exactly. Then the parts are searched in sequence, smallest first,
    each with the budget the others leave: small parts are solved exactly at little
    cost, and their excess over their bounds shrinks the budget of the big ones,
    which then fail soon.
    """
    ctx = _context(game, consistent, entries, symmetry)
    before = ctx.counters.copy()
    order = sorted(range(len(parts)), key=lambda i: (len(parts[i]), i))
    parts = [parts[i] for i in order]
    cur = [int(lbs[i]) for i in order]
    tops = PartGuesses(game, (*history, first), parts, consistent, symmetry)
    _probe_rounds(ctx, parts, cur, tops, n, bound, d, weight)
    if n + sum(cur) >= bound:
        return None, None, ctx.counters - before
    acc, rem, values = n, sum(cur), []
    for i, part in enumerate(parts):
        rem -= cur[i]
        value, _ = ctx.exp(part, bound - acc - rem, d, tops[i], weight)
        acc += int(value)
        values.append(int(value))  # exact while acc + rem stays below the bound
        if acc + rem >= bound:
            return None, None, ctx.counters - before
    trees = None
    if sum(len(part) for part in parts) + 1 >= n:  # every secret: the guess's own total
        trees = [None] * len(parts)
        for i, part in enumerate(parts):
            trees[order[i]] = (values[i], ctx.exp_tree(part, d, tops[i], weight, values[i]))
    return acc, trees, ctx.counters - before


def _probe_rounds(ctx, parts, cur, tops, n, bound, d, weight) -> list:
    """Raise the lower bounds ``cur`` of ``parts`` (in place; ``tops`` their guesses,
    ``d`` guesses left) by :data:`PROBE_ROUNDS` rounds of null-window probes, each
    a search of one part with budget ``cur[i] + 1``: its fail-soft value is the new
    bound, and a value within the old one solves the part. Stops as soon as ``n``
    plus the bounds reach ``bound``. Returns which parts a probe solved."""
    exact = [False] * len(parts)
    for _ in range(PROBE_ROUNDS):
        for i, part in enumerate(parts):
            if exact[i]:
                continue
            value, _ = ctx.exp(part, cur[i] + 1, d, tops[i], weight)
            exact[i] = value <= cur[i]
            cur[i] = max(cur[i], int(value))
            if n + sum(cur) >= bound:
                return exact
    return exact


def _exp_probe_task(game, consistent, entries, symmetry, history, first, parts, lbs, n,
                    bound, d, weight):
    """The probes with which :func:`_rival` begins, alone: the lower bounds ``lbs`` of
    the ``parts`` of the guess ``first`` (after ``history``, ``d`` guesses left in
    each) raised by :func:`_probe_rounds`, smallest part first, as ``(bounds,
    solved, counters)`` in the parts' order (``solved[i]``: part i's bound is its
    value). They stop once ``n`` plus the bounds reach ``bound``: the guess is
    refuted. A chain probes its small parts so, in one task, before it solves each
    exactly (:meth:`~optimal_mm.search_races.RivalRaces._small_parts`): a guess
    whose small parts fail high together is refuted at the price of probes."""
    ctx = _context(game, consistent, entries, symmetry)
    before = ctx.counters.copy()
    order = sorted(range(len(parts)), key=lambda i: (len(parts[i]), i))
    cur = [int(lbs[i]) for i in order]
    ordered = [parts[i] for i in order]
    tops = PartGuesses(game, (*history, first), ordered, consistent, symmetry)
    exact = _probe_rounds(ctx, ordered, cur, tops, n, bound, d, weight)
    bounds, solved = [0] * len(parts), [False] * len(parts)
    for k, i in enumerate(order):
        bounds[i], solved[i] = cur[k], exact[k]
    return bounds, solved, ctx.counters - before


def _first_by(plan, guess) -> list:
    """The guesses ``plan`` (``(guess, bound)`` in the search's order) with ``guess``
    first, where it is among them (a lower bound's tree's guess:
    :meth:`Solver.floor_of`), the others after it in their order: the rivals that
    race it stay ordered by bound.

    >>> _first_by([(5, 10), (7, 11), (2, 12)], 2)
    [(2, 12), (5, 10), (7, 11)]
    >>> _first_by([(5, 10), (7, 11)], 9)
    [(5, 10), (7, 11)]
    """
    k = next((k for k, (g, _) in enumerate(plan) if g == guess), None)
    return plan if not k else [plan[k], *plan[:k], *plan[k + 1:]]


def _guess_answer(result):
    """``(total, trees, counters)`` of an :func:`_exp_guess_task` result, or of an
    entry written before rivals kept their trees (``(total, counters)``: no trees),
    or of a chain's answer saved as the task's (:meth:`Solver._chain_of`)."""
    if len(result) == 2:
        return result[0], None, result[1]
    return result


def _guess_result_under(result, ran, wanted):
    """:func:`_exp_guess_task`'s result under budget ``wanted``, from its result under
    budget ``ran``, or None when that does not settle it: a total (below ``ran``)
    answers any budget; "not below ``ran``" answers any budget up to ``ran``."""
    value, _, counters = _guess_answer(result)
    if value is not None:
        return result if value < wanted else (None, None, counters)
    return result if wanted <= ran else None


# The budget (argument 5 after the common ones: ``bound``) of a rival depends on the
# rivals before it in its round, hence on the number of jobs: a checkpoint answers
# the same rival under another budget when it can (optimal_mm.checkpoint).
_exp_guess_task.checkpoint_reuse = (5, _guess_result_under)


def _uncapped_guess(args):
    """The arguments of :func:`_exp_guess_task` (after the common ones) for the same
    rival without the cap, or None where that bounds nothing: no cap, or a cap
    weight (``fewest-at-worst``'s costs are not totals)."""
    history, first, parts, lbs, n, bound, d, weight = args
    if weight or d >= NO_CAP:
        return None
    return history, first, parts, lbs, n, bound, NO_CAP, weight


def _uncapped_guess_under(result, ran, wanted):
    """The capped :func:`_exp_guess_task`'s answer under budget ``wanted`` from the
    same rival's answer without the cap under budget ``ran`` (:func:`_uncapped_guess`),
    or None when that does not settle it. A tree within the cap is a tree, so the
    capped total is at least the uncapped one: at least its exact total, or at least
    ``ran`` where it was "not below ``ran``". Where that reaches ``wanted``, the rival
    is not better here either (no work counted: none was done).

    >>> _uncapped_guess_under((7911, None, None), 7889, 7890)[0] is None
    True
    >>> bool(_uncapped_guess_under((None, None, None), 7902, 7890)[2].any())
    False
    >>> _uncapped_guess_under((None, None, None), 7889, 7890) is None
    True
    """
    value, _, _ = _guess_answer(result)
    least = ran if value is None else value
    return (None, None, new_stats()) if least >= wanted else None


def _guess_below(args, below):
    """The answer of the capped :func:`_exp_guess_task` of ``args`` (after the common
    ones) that ``below``, the :class:`~optimal_mm.checkpoint.Checkpoint` of the search
    without the cap, settles: "not better" where the rival costs at least its budget
    there; else None (and always without a cap, or with a cap weight:
    :func:`_uncapped_guess`). A tree within the cap is a tree, so the rival costs at
    least what the search without the cap found:

    * the same rival's answer there (:func:`_uncapped_guess_under`), under any budget;
    * else its parts' exact optima there, where that search solved them (the parts of
      a guess it raced as its first, not as a rival: p6c7n's 124367, 7911 over its
      1,590 secrets, against 7890 within 7; or a chain's small parts, each its own
      task: :func:`value_task`), each part it did not at its lower bound ``lbs``, as
      the rival's own search starts.

    Read only; the caller keeps what it settles (:meth:`TaskRunner.bound_by`)."""
    from .checkpoint import task_key  # (hashlib: not for a search without checkpoint)

    mapped = _uncapped_guess(args)
    if mapped is None:
        return None
    history, first, parts, lbs, n, wanted = mapped[:6]
    found = below.reuse(task_key(_exp_guess_task.__name__, mapped), 5,
                        lambda result, ran: _uncapped_guess_under(result, ran, wanted),
                        count=False)
    if found is not None:
        return found
    after = (*history, first)
    least = int(n) + sum(int(lb) for lb in lbs)  # each part at its bound, then raised
    for part, lb in zip(parts, lbs):
        if least >= wanted:
            break
        for task in (part_task(after, part, NO_CAP, 0), value_task(after, part, NO_CAP, 0)):
            solved = below.get(task_key(_exp_part_task.__name__, task), count=False)
            if solved is not None:
                least += max(0, int(solved[0]) - int(lb))
                break
    return (None, None, new_stats()) if least >= wanted else None


# A capped search reads the search without the cap's answers as lower bounds
# (LowerBound.checkpoint, TaskRunner.bound_by).
_exp_guess_task.checkpoint_below = _guess_below


def _tree_arg(rule: str):
    """A worst-case task's ``want_tree`` argument for the tree rule ``rule``: ``True``
    for ``"small-total"`` (the value of every task written before there was a
    choice, so that their checkpoints stay valid), the rule's name otherwise."""
    return True if rule == "small-total" else rule


def _tree_rule(want_tree):
    """The tree rule of a task's ``want_tree`` argument, or None: no tree wanted."""
    if not want_tree:
        return None
    return "small-total" if want_tree is True else str(want_tree)


def _wc_part_task(game, consistent, entries, symmetry, first, part, d, want_tree):
    """Whether ``part`` (the secrets of one answer to ``first``) can be solved within
    ``d`` guesses: ``(ok, subtree or None, counters)``. ``want_tree``: False (no
    tree), or the tree rule as :func:`_tree_arg` writes it."""
    top = _part_guesses(game, (first,), part, consistent, symmetry)
    return _wc_decide(_context(game, consistent, entries, symmetry), part, d, want_tree, top)


def _wc_subpart_task(game, consistent, entries, symmetry, part, d, want_tree):
    """Whether ``part`` can be solved within ``d`` guesses: ``(ok, subtree or None,
    counters)``, its first guess unrestricted (the compiled search's own classes).

    One part left by a guess that a deep split searches by pieces
    (:meth:`Solver._wc_guess_by_parts`): the same question as one of the calls of
    :func:`_wc_guess_task`, asked alone. It depends on the part and ``d`` only, not on
    the guesses that led to it."""
    return _wc_decide(_context(game, consistent, entries, symmetry), part, d, want_tree)


def _wc_decide(ctx, part, d, want_tree, top=None):
    """``(ok, subtree or None, counters)`` of ``part`` within ``d`` guesses on the
    context ``ctx``, its first guess among ``top`` if given: the body of the tasks
    that decide one part."""
    before = ctx.counters.copy()
    ok = ctx.wc(part, d, top)
    rule = _tree_rule(want_tree)
    tree = ctx.wc_tree(part, d, rule, top) if ok and rule else None
    return ok, tree, ctx.counters - before


def _wc_guess_task(game, consistent, entries, symmetry, history, guess, part, d, want_tree):
    """Whether the guess ``guess``, played at the node of ``part`` (after the guesses
    ``history``), keeps every part it leaves solvable within ``d - 1`` guesses, so that
    ``part`` is solved within ``d``: ``(ok, subtree or None, counters)``.

    One of the tasks a big worst-case part is split into
    (:meth:`Solver._wc_split_node`); the parts are searched largest first, as the
    compiled search does below a guess, and the first one that fails ends the task.
    """
    ctx = _context(game, consistent, entries, symmetry)
    before = ctx.counters.copy()
    parts = sorted(ctx.split(guess, part), key=lambda ap: (-len(ap[1]), ap[0]))
    ok = all(ctx.wc(sub, d - 1) for _, sub in parts)
    rule = _tree_rule(want_tree)
    tree = None
    if ok and rule:
        tree = (int(guess), {a: ctx.wc_tree(sub, d - 1, rule) for a, sub in parts})
    return ok, tree, ctx.counters - before


def _refutation_under(result, ran, wanted):
    """A worst-case task's result under the tree argument ``wanted`` from its result
    under ``ran``: a refutation has no tree, so it answers any; a feasible part's
    tree is the rule's own, so it is computed again."""
    return result if not result[0] else None


# A refutation does not depend on the tree rule (argument ``want_tree``): a checkpoint
# answers it under either rule (optimal_mm.checkpoint, "Results under another value").
_wc_part_task.checkpoint_reuse = (3, _refutation_under)
_wc_guess_task.checkpoint_reuse = (4, _refutation_under)
_wc_subpart_task.checkpoint_reuse = (2, _refutation_under)
