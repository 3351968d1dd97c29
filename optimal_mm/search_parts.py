"""Solving the parts of a guess exactly, for the expected-type searches.

A guess splits the secrets left into *parts*, one per answer, and costs the
secrets plus its parts' costs; the expected search proves what a guess costs by
solving each of its parts exactly (:meth:`PartSolving._solve_parts`, for the first
guess). Most parts are one task each (:func:`~optimal_mm.search_tasks._exp_part_task`),
sent out together in one batch (:meth:`PartSolving._first_batch`). A part too big
for one task is split by its own guesses instead:

* a part of the first guess of :data:`SPLIT_SECRETS` secrets or more, by its
  second guesses: the parts of the most promising one are tasks of the same batch,
  and its other guesses are rivals, raced after it (:mod:`optimal_mm.search_races`);
* with ``chain_secrets``, any part of that many secrets or more, at any depth
  (:meth:`PartSolving._solve_node`), so that a part whose exact search would run for
  hours as one compiled call is saved a piece at a time. Such a part first stands
  under its first guess (:meth:`PartSolving._node_start`): a complete tree, an upper
  bound that a run stopped in its race still has.

A lower bound's tree (:meth:`PartSolving.floor_of`) settles each part whose subtree
keeps to the search's cap and guess rule, and bounds the others from below.

These are methods of :class:`~optimal_mm.search.Solver`, in a mixin of
:class:`~optimal_mm.search_expected.ExpectedSearch` (whose module says what they
read of the solver) beside :class:`~optimal_mm.search_races.RivalRaces`, whose
methods they call, as it calls theirs.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from ._search_arrays import INF, NO_CAP, new_stats
from .errors import FloorError, InvalidOptionError
from .search_costs import LowerBound, PartFloor
from .search_tasks import _exp_part_task, _first_by, _part_size, part_task

#: Parts of the first guess solved exactly with at least this many secrets are split
#: by their own guesses into separate tasks (:meth:`PartSolving._solve_parts`).
#: Read where it is used, at the call: a script or test that sets it reaches every
#: reader (the rival chains of :mod:`optimal_mm.search_races` too).
SPLIT_SECRETS = 400

#: How many guesses deep :meth:`PartSolving._part_low` bounds a split part of
#: :data:`LOW_SECRETS` secrets or more whose race has not ended, for the proven bound
#: of a run stopped there (:class:`PartsFloor`); a smaller one is bounded one guess
#: deep. Two guesses deep costs at most 0.05 s for each of p5c8nb's three big parts
#: with consistent guesses (0.1 to 0.5 s with any, beside two table runs), and raises
#: each by 150 to 650 over one guess deep; such parts race for hours. Below that size
#: a part is solved in seconds, and the deeper bound would be much of the cost:
#: mastermind's tests with parts of 60 secrets and more split took 25 s instead of
#: 12 with every split part bounded two deep.
LOW_DEPTH = 2
LOW_SECRETS = 400


def _node_key(history, part, d, weight) -> tuple:
    """The name of a split part in the search's memory
    (:meth:`PartSolving._solve_node`): its history and first secret (the parts
    after one history are disjoint), its guesses left and its cost's weight."""
    return tuple(int(h) for h in history), int(part[0]), d, weight


@dataclass
class _Opened:
    """A split part under its first guess, its race not yet run
    (:meth:`PartSolving._node_start`): its guesses in order (``plan``), its first
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


class PartsFloor:
    """The proven lower bound on the cost of a guess's parts while they are solved,
    for the progress display's bound (and so a stopped run's ``>= L``): each part
    counts at the best bound known for it, and the sum rises as the solve learns
    more. ``lows`` are the parts' bounds to start from (the balanced-tree bound,
    or the probed one: :meth:`~optimal_mm.search_expected.ExpectedSearch._first_guess_bounds`);
    ``on_rise(total)`` is told each higher sum.

    A part rises (:meth:`rise`) to its exact value once solved, and, while it is
    split by its guesses and raced, to the least over them of what each costs at
    least (:meth:`PartSolving._part_low`), its first guess's bound raised as that
    guess's parts are solved. A value below what the part has is ignored: every
    value told is a lower bound on its own.

    >>> told = []
    >>> floor = PartsFloor([10, 20], told.append)
    >>> floor.rise(1, 25); floor.rise(1, 22); floor.rise(0, 12)
    >>> told, floor.total
    ([35, 37], 37)
    """

    def __init__(self, lows, on_rise):
        self.lows = [int(v) for v in lows]
        self._on_rise = on_rise

    @property
    def total(self) -> int:
        return sum(self.lows)

    def rise(self, i: int, value) -> None:
        """Part ``i`` costs at least ``value``: the sum is told if it rose."""
        if value > self.lows[i]:
            self.lows[i] = int(value)
            self._on_rise(self.total)


class PartSolving:
    """The exact solve of parts: a guess's parts, one task each or split by their
    own guesses, and the lower bound's tree where it settles them."""

    def _solve_parts(self, g, parts, d, label, weight, on_upper=None, floor=None,
                     notes=None, proven=None):
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
        tree (:meth:`floor_of`) bounds each part from below too: its big part's
        race stops at that part's own floor, whatever the others do, and tries the
        tree's guess first; a part whose subtree there keeps to the cap and the
        guess rule is settled by it, no task run. ``notes``, a list, is told each
        part so settled, as a proof line.

        The big parts' races run one after another, but a race whose own thread
        has drawn every rival while chains run beside it
        (:class:`~optimal_mm.search_races.InFlight`) does not hold the next one
        up: that one begins at once, and the first is taken once its chains end
        (at the latest after the last race), so that a worker is not left idle
        for the hour a chain may take. Its best tree so far counts for the floor
        meanwhile.

        ``proven``, a :class:`PartsFloor` over the parts, is raised as they are
        learnt: each part to be split to its own bound (:meth:`_part_low`) before the
        batch; each small part to its exact value after it; each split part
        to the least of its first guess's bound (raised by that guess's parts, each
        solved or at its own bound, :meth:`_part_low`) and its rivals' bounds; as its
        race answers a rival, to the least of the race's best so far and the bounds
        of the rivals left; and to its exact value once its race is over.
        """
        part_floors = [self.floor_of((g,), part, d) for _, part in parts]
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
        lows = {}  # for ``proven``: each split part's guesses' own bounds, found once
        if proven is not None:  # the parts to be split, at their bound before the
            # batch, which may take hours (p5c8nb's first guess, with any guesses:
            # its four chained parts' first guesses solved in it, a run of 120 s
            # ended inside)
            for i, (_, part) in enumerate(parts):
                if i not in settled and (len(part) >= SPLIT_SECRETS or self._splits(part, d)):
                    proven.rise(i, self._part_low((g,), part, d, weight,
                                                  memo=lows.setdefault(i, {})))
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

        # For ``proven``: the parts below a big part's first second guess that are
        # still pending count at their own guesses' least bound until solved
        # (their value until then is an upper bound), the others at their value
        d2 = d if d >= NO_CAP else d - 1
        waiting = {} if proven is None else {
            (i, a): self._part_low(history, sub, d2, weight)
            for i, a, history, sub in pending if a is not None}

        # ... and its other second guesses at their least bound (``lows``), less
        # those its race has answered, which cost at least its best so far
        answered = {i: set() for i in plans}

        def rivals_low(i):
            rivals = [(h, b) for h, b in plans[i][1:] if h not in answered[i]]
            return (self._part_low((g,), parts[i][1], d, weight, plan=rivals,
                                   memo=lows.setdefault(i, {})) if rivals else INF)

        def big_low(i):  # big part i, at least: its first second guess's bound raised
            # by its parts (pending ones at their least bound), or a rival's
            first = len(parts[i][1]) + sum(waiting.get((i, a), v)
                                           for a, (v, _) in incumbents[i].items())
            return min(max(plans[i][0][1], first), rivals_low(i))

        def answer(i, guess, best):  # a rival of big part i answered, the race's best
            with lock:  # so far ``best``: the part costs at least that or a rival left
                answered[i].add(guess)
                proven.rise(i, min(best, rivals_low(i)))

        def finished(i, a):  # a pending split part's race is over (_finish_pending)
            with lock:
                if i in plans:
                    under_first(i)
                    waiting.pop((i, a), None)
                    if proven is not None:
                        proven.rise(i, big_low(i))
                elif proven is not None:
                    proven.rise(i, values[i])
                tell()

        for i in plans:  # each big part under its first second guess until a better
            under_first(i)  # one is known
        tell()  # a complete tree, the split parts pending under their first guess
        if proven is not None:
            # (a chained part keeps the bound it had before the batch until its race
            # has run: the batch only put it under its first guess)
            chained = {i for i, a, _, _ in pending if a is None}
            for i in range(len(parts)):
                if i in plans:
                    proven.rise(i, big_low(i))
                elif i not in chained:
                    proven.rise(i, values[i])
        self._finish_pending(pending, d, weight, values, trees, incumbents, finished, lead,
                             sub_better)
        hoped = dict(upper)  # the best each big part is known to reach, for the floor
        if floor is not None:
            for i, plan in plans.items():
                found = self._known_race((g,), parts[i][1], plan[1:], upper[i], d, weight)
                if found is not None:
                    hoped[i] = found[0]
        flying = {}  # the races whose own thread is done, with chains beside still running

        def land(i):  # race i's answer, its chains beside ended
            values[i], trees[i] = flying.pop(i).result()
            with lock:
                upper[i] = hoped[i] = values[i]
                upper_trees[i] = trees[i]
                tell()
                if proven is not None:
                    proven.rise(i, values[i])

        for i, plan in plans.items():
            for j in [j for j, race in flying.items() if not race.busy]:
                land(j)
            enough = None
            if floor is not None:
                with lock:  # (a race in flight: its best tree so far, upper, counts)
                    others = (sum(v for j, v in enumerate(values) if j not in plans)
                              + sum(min(v, upper[j]) for j, v in hoped.items() if j != i))
                enough = floor - others if others < INF else None
            if part_floors[i] is not None:
                least = part_floors[i].cost
                enough = least if enough is None else max(enough, least)
            flying[i] = self._split_part_started(
                (g,), parts[i][1], plan, incumbents[i], d, weight, enough,
                lambda value, tree, i=i: better(i, value, tree),
                None if proven is None else (
                    lambda guess, best, i=i: answer(i, guess, best)))
            if not flying[i].busy:
                land(i)
            elif any(j > i for j in plans):  # the next part's race begins beside them
                flying[i].moving_on()
        for i in sorted(flying):
            land(i)
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
        the tree's path: :meth:`floor_of`), the others after it in their order.

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
                    known = self.floor_of((g, plan[0][0]), sub, d2)
                    if known is not None and known.tree is not None:
                        incumbents.setdefault(i, {})[a] = (known.cost, known.tree)
                        continue
                    if self._splits(sub, d2):  # solved after the batch, split in turn
                        deferred.append((i, a, (g, plan[0][0]), sub))
                        continue
                    args.append(part_task((g, plan[0][0]), sub, d2, weight))
                    owners.append((i, a))
            elif self._splits(part, d):  # below SPLIT_SECRETS, split with chain_secrets
                deferred.append((i, None, (g,), part))
            else:
                args.append(part_task((g,), part, d, weight))
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
        guess): their races (:meth:`_solve_node`). ``on_part(i, a)`` is told after each,
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
                on_part(i, a)

    def _part_low(self, history, part, d, weight, depth=None, plan=None,
                  memo=None) -> int:
        """A lower bound on the cost of ``part``, the secrets left after the guesses
        ``history`` (``d`` guesses left), ``depth`` guesses deep, for
        :class:`PartsFloor`: at depth 0 the balanced-tree bound of its size; deeper,
        the least over its guesses (``plan``, default
        :meth:`~optimal_mm.search_races.RivalRaces.exp_second_guesses`) of the
        secrets plus their parts' bounds one guess less deep, but never below the
        size's. Every tree of the part begins with one of those guesses (none that
        wastes a guess or cannot fit is optimal), so the least is a bound. The
        guesses are taken least one-deep bound first and end at the first whose
        bound reaches the least found: a deeper bound is never lower. ``depth`` None:
        :data:`LOW_DEPTH` for a part of :data:`LOW_SECRETS` secrets or more, else 1.
        ``memo``, a dict, keeps each guess's deeper bound for the next call on the
        same part (a race's rivals, asked again as each is answered).

        The guesses tried are one per orbit of the symmetries that fix ``history``
        and ``part`` (:func:`~optimal_mm.search_context._part_guesses`), so
        ``history`` must be the guesses that led to ``part``.

        >>> from optimal_mm import Game
        >>> from optimal_mm.search import NO_CAP, Solver
        >>> solver = Solver(Game.from_spec("mastermind"), jobs=1)
        >>> first = solver.game.code_index("1123")
        >>> with solver._session("expected", None):
        ...     (a, part), *_ = solver.first_guess_parts(first)
        ...     lows = [solver._part_low((first,), part, NO_CAP, 0, k) for k in range(3)]
        >>> solver.game.answer_str(a), len(part), lows  # its optimum: 975
        ('0B1W', 276, [906, 950, 972])
        """
        own = int(self._ctx.bounds(weight)[d][len(part)])
        if depth is None:
            depth = LOW_DEPTH if len(part) >= LOW_SECRETS else 1
        if depth <= 0 or len(part) <= 2 or d <= 1 or own >= INF:
            return own
        if plan is None and depth == 1:  # the least bound alone: no order needed
            _, bounds, useful = self._guess_bounds(history, part, d, weight)
            return max(own, int(bounds[useful].min())) if useful.any() else own
        if plan is None:
            plan = self.exp_second_guesses(history, part, d, weight)
        best = INF
        for h, b in sorted(plan, key=lambda item: item[1]):
            if b >= best:
                break
            if depth == 1:
                low = b
            else:
                low = None if memo is None else memo.get((h, depth))
                if low is None:
                    low = len(part) + sum(
                        self._part_low((*history, h), sub, d if d >= NO_CAP else d - 1,
                                       weight, depth - 1)
                        for _, sub in self._ctx.split(h, part))
                    if memo is not None:
                        memo[h, depth] = low
            best = min(best, low)
        return max(own, best) if plan else own

    def bound_below(self, floor: LowerBound | None) -> None:
        """Take ``floor``'s tree as the bound of each part on its path
        (:meth:`floor_of`), as an expected-case search given it does; None: no
        floor. :mod:`optimal_mm.checkpoint_report` reads a run with it so, to count
        the parts that the run took from the tree, unsearched."""
        self._floor, self._floor_cache = floor, {}

    def floor_of(self, history, part, d) -> "PartFloor | None":
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

        On a lower bound's tree's path (:meth:`floor_of`), a part its subtree settles
        takes that subtree; else it is split by the tree's guess there first (its
        parts are on the path too), and its race stops at its floor
        (:meth:`_split_part`)."""
        known = self.floor_of(history, part, d)
        if known is not None and known.tree is not None:
            return known.cost, known.tree
        task = part_task(history, part, d, weight)
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
                # solved exactly before this race (the part forgotten as opened once
                # solved: a tree only read back, reading_only, may stop on the way)
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
            self._opened.pop(key, None)
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
        known = self.floor_of(history, part, d)
        key = _node_key(history, part, d, weight)
        if ((known is not None and known.tree is not None) or key in self._nodes
                or not self._splits(part, d)):
            return (*self._solve_node(history, part, d, weight), True)
        _, (found,) = self._runner.known(_exp_part_task,
                                         [part_task(history, part, d, weight)])
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
            floor = self.floor_of(history, sub, d)
            if a not in out and floor is not None and floor.tree is not None:
                out[a] = (floor.cost, floor.tree)
        whole = [(a, sub) for a, sub in subs if a not in out and not self._splits(sub, d)]
        results = self._runner.run(_exp_part_task,
                                   [part_task(history, sub, d, weight) for _, sub in whole],
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

    def _saved_or(self, fn, task, compute, spent=None, on_found=None):
        """The result of the task ``fn(*common, *task)`` from the checkpoint, or else
        ``compute()`` (a chain or a split part that gives the same answer in pieces)
        saved there as that task's result: the checkpoint report reads it as the
        task's, and a run that asks for the task whole reads it back. ``compute``
        returns zero work counters: the pieces' own tasks hold the work. An answer
        whose pieces took less processor time than ``checkpoint_min_seconds`` is not
        saved (:meth:`TaskRunner.record`). ``spent``: the processor and wall seconds
        of pieces computed before this call, counted too (a split part's first
        guess's parts: :meth:`_node_start`). ``on_found()`` is called when the
        answer is read back (a chain's small parts then lend their values:
        :meth:`~optimal_mm.search_races.RivalRaces._small_answer`)."""
        _, (found,) = self._runner.known(fn, [task])
        if found is not None:
            if on_found is not None:
                on_found()
            return found
        since = self._runner.clock()
        if spent is not None:
            since = (since[0] - spent[0], since[1] - spent[1])
        result = compute()
        self._runner.record(fn, task, result, since)
        return result
