"""Races of rival guesses at a part, for the expected-type searches.

Once the most promising guess at a part is solved exactly
(:mod:`optimal_mm.search_parts`), its total is the budget that every other guess
there must beat. The race (:meth:`RivalRaces._second_guess_rounds`) draws those
rivals in the order of their balanced-tree bounds (:meth:`RivalRaces.exp_second_guesses`),
each a task (:func:`~optimal_mm.search_tasks._exp_guess_task`) with the best total so far
as its budget, until the next bound reaches it; the earliest guess with the least
total wins, whatever the number of workers and the order in which tasks finish.

A rival with parts too big for one task is a *chain* of tasks instead
(:meth:`RivalRaces._guess_by_parts`: probes of its big parts, its small parts
probed together and then solved one task each (:meth:`RivalRaces._small_parts`),
then each big part raced by its own guesses with the budget the others leave it),
searched in the race's thread or in one beside it; the rival first guesses are
chains the same way. A rival that takes the lead has its tree built
(:meth:`RivalRaces._rival_trees`, :meth:`RivalRaces._lead_trees`), so that a run
stopped mid-race keeps the best tree it found, and a run resumed from its checkpoint
reads those trees back (:meth:`RivalRaces._saved_lead_trees`). A race whose own thread is done
while its chains beside run on is an :class:`InFlight`: the next big part's race
begins meanwhile (:meth:`~optimal_mm.search_parts.PartSolving._solve_parts`).

These are methods of :class:`~optimal_mm.search.Solver`, in a mixin of
:class:`~optimal_mm.search_expected.ExpectedSearch` (whose module says what they
read of the solver) beside :class:`~optimal_mm.search_parts.PartSolving`.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time

import numpy as np

from . import search_batches, search_parts, symmetry
from ._search_arrays import INF, NO_CAP, UNBUDGETED, new_stats
from .game import partition_counts
from .progress import _clock_text
from .runner import NotSaved
from .search_context import _part_guesses
from .search_costs import _cost_text
from .search_parts import _phase
from .search_tasks import (PROBE_ROUNDS, _exp_batch_task, _exp_guess_task, _exp_part_task,
                           _exp_probe_task, _exp_trees_task, _guess_answer, _part_size,
                           part_task, probe_task, saved_small_parts, value_slot, value_task)


def _small_key(history, g, parts) -> tuple:
    """How :func:`_small_floors` names the small parts ``parts`` of a chain's guess
    ``g`` after ``history``: by the guesses and the parts' hashes (as a task's key
    names them), not by their bounds or budget."""
    from .checkpoint import task_key  # (hashlib: not for a search without checkpoint)

    digests = task_key("", tuple(parts))["args"]
    return (tuple(int(h) for h in history), int(g),
            frozenset(a["array"] for a in digests))


@functools.lru_cache(maxsize=4)
def _small_floors(below) -> dict:
    """``{small parts (_small_key): least total}`` from the entries of the
    :class:`~optimal_mm.checkpoint.Checkpoint` ``below`` (the search without the
    cap): each answer of a chain's small parts (an :func:`_exp_guess_task` whose
    parts hold fewer than its secrets), their total if it was below the budget,
    else the budget less the rest; the largest where several answer the same
    parts. Read once per checkpoint."""
    floors = {}
    for task, result in below.tasks_of(_exp_guess_task.__name__):
        history, g, parts, _, known, bound = task["args"][:6]
        if not saved_small_parts(task["args"]):
            continue  # a rival's own task
        key = (tuple(history), g, frozenset(p["array"] for p in parts))
        least = (bound if result[0] is None else result[0]) - known
        floors[key] = max(least, floors.get(key, least))
    return floors


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
    rest = _left_text(left, best, weight, still=True)
    return f"{race}: {guess}, a chain, {answer}, {when}; {rest}"


def _race_start_text(race: str, left: int, best: int, weight: int) -> str:
    """The log's line as the race of a first guess's big part begins: how many rivals
    it has to draw (``left``), those whose bound is below the total to beat (``best``).
    Its rivals may then run for an hour before the first answer is told, so the log
    names the race at once (p6c7n's race of 1,590 secrets was named by its first answer,
    32 minutes in).

    >>> print(_race_start_text("expected: rivals of 1213 (90 secrets after 1122)", 12, 402, 0))
    expected: rivals of 1213 (90 secrets after 1122): the race begins; 12 rivals to draw \
with a bound below total 402
    >>> print(_race_start_text("expected: rivals of 1213 (90 secrets after 1122)", 0, 402, 0))
    expected: rivals of 1213 (90 secrets after 1122): the race begins; no rival to draw \
with a bound below total 402
    """
    return f"{race}: the race begins; {_left_text(left, best, weight)}"


def _left_text(left: int, best: int, weight: int, still: bool = False) -> str:
    """``"12 rivals to draw with a bound below total 402"``: the rivals not yet drawn
    whose bound is below the best total (``still``: "still to draw", once the race
    has drawn some)."""
    rest = f"{left:,} rival{'s' if left != 1 else ''}" if left else "no rival"
    below = (f"with a bound below {_cost_text(best, weight)}" if best < UNBUDGETED
             else "(none within the cap so far)")
    return f"{rest} {'still ' if still else ''}to draw {below}"


def _beside_wait_text(race: str, running, state: str = "waiting") -> str:
    """The log's line for a race of rivals whose own thread waits while chains run
    beside it (``running``: ``(guess, seconds since drawn)``): their phases are not
    shown, so without it the log would go quiet until each says its answer (33
    minutes in p5c6b's fewest at 9). ``state``: ``"waiting"``, every rival drawn, the
    race waits for them; ``"moving_on"``, every rival drawn, the next big part's race
    begins beside them (:meth:`InFlight.moving_on`); ``"drawing"``, the race waits
    for a chain to end before it draws its next rival (every slot held).

    >>> race = "expected: rivals of 1213 (90 secrets after 1122)"
    >>> print(_beside_wait_text(race, [("1345", 75.2)]))
    expected: rivals of 1213 (90 secrets after 1122): every rival drawn; waiting for \
1345, a chain beside, drawn 0:01:15 ago
    >>> print(_beside_wait_text(race, [("1345", 75.2), ("2345", 3.0)]))
    expected: rivals of 1213 (90 secrets after 1122): every rival drawn; waiting for \
2 chains beside: 1345, drawn 0:01:15 ago; 2345, drawn 0:00:03 ago
    >>> print(_beside_wait_text(race, [("1345", 75.2)], "moving_on"))
    expected: rivals of 1213 (90 secrets after 1122): every rival drawn; the next \
part's race begins beside 1345, a chain beside, drawn 0:01:15 ago
    >>> print(_beside_wait_text(race, [("1345", 75.2), ("2345", 3.0)], "drawing"))
    expected: rivals of 1213 (90 secrets after 1122): the next rival waits for a \
slot beside 2 chains beside: 1345, drawn 0:01:15 ago; 2345, drawn 0:00:03 ago
    """
    if len(running) == 1:
        guess, seconds = running[0]
        waits = f"{guess}, a chain beside, drawn {_clock_text(seconds)} ago"
    else:
        waits = f"{len(running)} chains beside: " + "; ".join(
            f"{guess}, drawn {_clock_text(seconds)} ago" for guess, seconds in running)
    then = {"waiting": "every rival drawn; waiting for",
            "moving_on": "every rival drawn; the next part's race begins beside",
            "drawing": "the next rival waits for a slot beside"}[state]
    return f"{race}: {then} {waits}"


class InFlight:
    """A race of rivals (:meth:`RivalRaces._race_started`) whose own thread has drawn
    every rival: its answer, once the chains still running beside it end.

    The race of a first guess's big part may end its own work with a chain beside
    it that runs for an hour (p4c8nb's 1,001 secrets after 1234: the race waited 54
    minutes for 1356, one worker idle). ``PartSolving._solve_parts``
    (:mod:`optimal_mm.search_parts`) starts the next big part's race meanwhile, and
    takes this one's :meth:`result` once its chains have ended (:attr:`busy`) or
    every race has been started."""

    def __init__(self, finish, chains=(), tell=None):
        self._finish, self._chains, self._tell = finish, tuple(chains), tell

    @property
    def busy(self) -> bool:
        """Whether a chain beside the race is still running (:meth:`result` would
        wait for it)."""
        return any(chain.running for chain in self._chains)

    def then(self, fn) -> "InFlight":
        """The race whose result is ``fn`` of this one's, with the same chains."""
        return InFlight(lambda: fn(self._finish()), self._chains, self._tell)

    def moving_on(self) -> None:
        """Say in the log which chains the race leaves running as the next part's
        race begins (:func:`_beside_wait_text`), for a race whose log names its
        chains (a first guess's big part's)."""
        if self._tell is not None:
            self._tell("moving_on")

    def result(self):
        """The race's answer: the chains beside it joined first (their exceptions
        raised here)."""
        return self._finish()


class BesideSlots:
    """The threads that chains may run in beside the race's own
    (:meth:`RivalRaces._race_started`): one per job beyond the first, so that as many
    threads compute as there are workers.

    A thread that waits (:meth:`lent`: for its chains beside, or for a slot to put a
    chain in) computes nothing meanwhile, so its slot goes to the chains: a chain
    beside may then put its own rivals' chains beside it. Once its wait is over, the
    thread waits again until a slot is free before it computes on: no more threads
    compute than there are jobs. Without the loan, p4c8nb's fewest at 9 had one chain
    beside (1356, two hours) searching its own chains one after another, every task
    of each in a row, while the race's thread waited for it and one worker idled.

    A race's thread that draws a chain while every slot is held lends its own to it
    (:meth:`take_waiting` within :meth:`lent`) rather than search the chain itself:
    searched in the race's thread, a chain kept the race from drawing its next rival
    until it ended, whatever ended beside it (p6c7n's race of 1,590 secrets: one
    worker idle while 214567's chain ran, the chain beside it done in 2 s).

    >>> slots = BesideSlots(1)
    >>> slots.take(), slots.take()  # one chain beside, none more
    (True, False)
    >>> with slots.lent():  # this thread waits: its slot to a second chain
    ...     slots.take_waiting()
    ...     finished = threading.Timer(0.05, slots.give)  # (the first ends)
    ...     finished.start()
    >>> slots.free  # both slots held: the thread's own came back as the first ended
    0
    >>> slots.give(); slots.free  # the second chain ended
    1
    """

    def __init__(self, n: int):
        self._lock = threading.Condition()
        self._free = n

    @property
    def free(self) -> int:
        """The slots free now (never below zero)."""
        return self._free

    def take(self) -> bool:
        """A slot for a chain beside, if one is free (never waits)."""
        with self._lock:
            if self._free > 0:
                self._free -= 1
                return True
            return False

    def take_waiting(self, waiting=None) -> None:
        """A slot, waited for as long as every slot is held (a chain beside gives
        its own back as it ends, :meth:`give`). ``waiting(seconds)``, if given, is
        called as the wait begins and about every second of it, with the seconds
        waited so far (outside the lock: it may log).

        >>> slots, told = BesideSlots(0), []
        >>> threading.Timer(1.5, slots.give).start()  # a chain ends in 1.5 s
        >>> slots.take_waiting(told.append)
        >>> told[0] < 0.5, len(told) >= 2, slots.free
        (True, True, 0)
        """
        start = time.monotonic()
        while not self.take():
            if waiting is not None:
                waiting(time.monotonic() - start)
            with self._lock:
                if self._free <= 0:
                    self._lock.wait(1.0)

    def give(self) -> None:
        """A chain beside has ended: its slot back, to a thread waiting for one if
        any."""
        with self._lock:
            self._free += 1
            self._lock.notify_all()

    @contextlib.contextmanager
    def lent(self, waiting=None):
        """While the calling thread waits, its slot to the chains beside; taken back
        after, once one is free (:meth:`take_waiting`, told to ``waiting``)."""
        self.give()
        try:
            yield
        finally:
            self.take_waiting(waiting)


class RivalRaces:
    """The races of rival guesses at a part, and the chains of tasks that search a
    rival too big for one."""

    def _chain_secrets(self, history) -> int | None:
        """The size from which a part makes a rival guess played after ``history`` a
        chain of tasks: :data:`SPLIT_SECRETS` for a rival first guess, ``chain_secrets``
        below it (None: such rivals stay one task)."""
        return search_parts.SPLIT_SECRETS if not history else self.chain_secrets

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
        top, bound, useful = self._guess_bounds(history, part, d, weight)
        may_win = np.isin(top, part)
        order = sorted(np.flatnonzero(useful), key=lambda k: (bound[k], not may_win[k], k))
        return [(int(top[k]), int(bound[k])) for k in order]

    def _guess_bounds(self, history, part, d, weight):
        """The guesses at the node of ``part`` (after the guesses ``history``, ``d``
        guesses left), one per symmetry class, as ``(guesses, bounds, useful)``
        arrays: each guess's balanced-tree bound on the total, and whether it splits
        the part and may fit (:meth:`exp_second_guesses` orders the useful ones)."""
        game, ctx = self.game, self._ctx
        d2 = d if d >= NO_CAP else d - 1
        top = _part_guesses(game, tuple(history), part, self.consistent, self.symmetry)
        top = ctx.all_guesses if top is None else np.asarray(top, dtype=np.int64)
        counts = partition_counts(game, top, part).astype(np.int64)
        counts[:, game.win] = 0
        bound = len(part) + ctx.bounds(weight)[d2][counts].sum(axis=1)
        return top, bound, (counts.max(axis=1) < len(part)) & (bound < INF)

    def _split_part(self, history, part, plan, incumbent, d, weight, enough=None,
                    on_better=None):
        """:meth:`_split_part_started`'s race, waited for: ``(value, subtree)``."""
        return self._split_part_started(history, part, plan, incumbent, d, weight, enough,
                                        on_better).result()

    def _split_part_started(self, history, part, plan, incumbent, d, weight, enough=None,
                            on_better=None, on_answer=None) -> InFlight:
        """Value and subtree of a big ``part`` after the guesses ``history`` (below the
        first guess, or deeper with ``chain_secrets``), split by its own guesses
        (``plan``, from :meth:`exp_second_guesses`; the parts of the first were solved
        exactly: ``incumbent``).

        Its other guesses are searched as rivals (:meth:`_second_guess_rounds`), each
        with the budget of the best total so far, until the next one's bound reaches
        it; a rival is kept only if strictly better (the earliest in order on a tie),
        so the choice is the compiled search's, whatever the number of workers.
        ``enough``, ``on_better`` and ``on_answer``: as :meth:`_race_started` takes
        them, ``on_better(total, subtree)`` told the rival's subtree of the part; without
        ``enough``, a part on a lower bound's tree's path takes its own floor
        (:meth:`floor_of`).

        Returns the race as it stands once its own thread has drawn every rival
        (:class:`InFlight`, :meth:`_race_started`): its ``(value, subtree)`` once the
        chains beside it have ended.
        """
        d2 = d if d >= NO_CAP else d - 1
        history = tuple(history)
        best = len(part) + sum(v for v, _ in incumbent.values())
        best = INF if best >= INF else best
        floor = self.floor_of(history, part, d) if enough is None else None
        if floor is not None:  # a part on a lower bound's tree's path, deeper down
            enough = floor.cost

        def told(total, guess, trees):
            if on_better is not None:
                subs = self._ctx.split(guess, part)
                on_better(total, (guess, {a: tree for (a, _), (_, tree) in zip(subs, trees)}))

        def tree_of(answer):  # the race's answer: the part's value and subtree
            best, best_g, trees = answer
            first = best_g is None
            if first:
                best_g = plan[0][0]
            if best >= INF:
                return INF, None
            subtrees = incumbent
            if not first:  # a rival won: its subtrees, as its task built them
                subs = self._ctx.split(best_g, part)
                if trees is None and not any(self._splits(sub, d2) for _, sub in subs):
                    # Its parts' own tasks, where the checkpoint holds them all (an
                    # earlier version's, or a run with --chain-secrets), else one task
                    # for them all
                    tasks = [part_task((*history, best_g), sub, d2, weight) for _, sub in subs]
                    if None in self._runner.known(_exp_part_task, tasks, count=False)[1]:
                        trees = self._rival_trees(history, best_g, part, subs, best, d2,
                                                  weight)
                subtrees = self._solve_subparts(
                    (*history, best_g), subs, d2, weight,
                    f"{_phase(weight)}: {self.game.code_str(best_g)} tree", trees)
            return best, (best_g, {a: tree for a, (_, tree) in subtrees.items()})

        return self._race_started(
            history, part, plan[1:], best, d, weight,
            f"rivals of {self.game.code_str(plan[0][0])}", enough,
            None if on_better is None else told, on_answer).then(tree_of)

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
        """:meth:`_race_started`'s race, waited for: ``(total, guess, trees)``."""
        return self._race_started(history, part, plan, best, d, weight, what, enough,
                                  on_better).result()

    def _race_started(self, history, part, plan, best, d, weight, what, enough=None,
                      on_better=None, on_answer=None) -> InFlight:
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
        (:meth:`_chained`) is searched in a thread beside this one
        (:meth:`optimal_mm.runner.TaskRunner.beside`, one per job beyond the first)
        with the best total when drawn, while the race goes on; while every such
        thread is busy, this one lends the chain its own (:meth:`BesideSlots.lent`)
        and waits for a slot back before it draws the next rival.
        Its answer is kept as a task's would be, so the earliest guess with the
        least total still wins, and comes back exact (every guess drawn before it is
        worse), whatever ran beside it. Where no chain may run beside (one job, a
        task computed in this process, a run only reading its checkpoint), a chain
        is searched here, once the tasks before it have finished, with the budget
        they leave. A chain whose answer the checkpoint holds is read back here,
        never beside: a resumed race then draws each rival under a budget no looser
        than the run that saved it did (the answers before it saved too), which the
        saved answer then answers.

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
        answer having none, the trees :meth:`_lead_trees` builds for it at once (a
        chain read back whose lead the checkpoint shows a later rival taking: its
        trees only if the checkpoint holds them, :meth:`_saved_lead_trees`).
        ``on_answer(guess, best)``, if given, is told each rival as its answer comes
        (searched, or read back), with the race's best total so far: the rival costs
        at least that, so the part costs at least the least of it and the bounds of
        the rivals not yet answered (:class:`~optimal_mm.search_parts.PartsFloor`).

        With no total to beat under a cap (``best`` at least :data:`UNBUDGETED`: the
        first guess's parts do not all fit, or a rival's chain has no budget), the
        worst case is asked first whether the part fits at all; where it does not,
        no guess is searched (p5c6b's 480 secrets after 11111 12222 21123, 6 guesses
        left: refuted in 5.6 s, where 320 rivals were being searched one by one).

        Returns the race once its own thread has drawn every rival and every task
        has come back (:class:`InFlight`): the chains beside it may still be running,
        and its :meth:`~InFlight.result` waits for them.
        """
        if best >= UNBUDGETED and not self._ctx.fits(part, d):
            return InFlight(lambda: (best, None, None))
        n = len(part)
        if enough is not None:
            if best <= enough:
                return InFlight(lambda: (best, None, None))
            found = self._known_race(history, part, plan, best, d, weight)
            if found is not None and found[0] <= enough:
                value, k, trees, args = found
                _, (result,) = self._runner.known(_exp_guess_task, [args])  # counted now
                self.stats.add(_guess_answer(result)[2])
                self.progress.message(f"{what} ({n} secrets): "
                                      f"{self.game.code_str(plan[k][0])} reaches "
                                      f"{_cost_text(value, weight)}, the floor's share")
                return InFlight(lambda: (value, plan[k][0], trees))
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
                        held = race["best"]
                    if on_answer is not None:
                        on_answer(plan[k][0], held)
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
                held = race["best"]
            if on_answer is not None:
                on_answer(args[1], held)
            if lead and trees is not None and on_better is not None:
                on_better(value, args[1], trees)

        # A rival of a first guess's big part, a chain, runs for minutes to hours under
        # phases of its own: the log says each one's answer as it comes, and which ones
        # the race waits for once every rival is drawn (not for the deeper races:
        # thousands, whose label is not built)
        told = len(history) == 1
        race_label = f"{_phase(weight)}: {what} ({n} secrets after {after})" if told else None
        if told:
            self.progress.message(_race_start_text(
                race_label, sum(b < best for _, b in plan), best, weight))

        def settle(k, args, found=None):  # a chain: its answer (``found``: the one
            # the checkpoint holds, told as read back; else _chain_of's, which looks
            # again and computes it if missing), and its tree if it took the lead
            start = time.monotonic()
            read_back = found is not None
            value = found[0] if read_back else self._chain_of(args)
            with lock:
                lead = keep(k, value)
                answered.add(k)
                held = race["best"]
                if told:  # (not the deeper chains': thousands, whose plans are long)
                    left = sum(b < held for _, b in plan[race["next"]:])
            if on_answer is not None:
                on_answer(plan[k][0], held)
            if told:
                self.progress.message(_chain_answer_text(
                    race_label, self.game.code_str(plan[k][0]),
                    value, args[5], lead, weight,
                    None if read_back else time.monotonic() - start, left, held))
            if lead and on_better is not None:
                if self._known_race(history, part, plan[k + 1:], value, d, weight) is None:
                    # its tree now, not after the race
                    trees = self._lead_trees(history, plan[k][0], part, value, d, weight)
                    with lock:
                        if race["holder"] == k:  # (a chain beside may have beaten it)
                            race["trees"] = trees
                else:  # the checkpoint of a resumed run holds a later rival that beats
                    # it: its tree only if the checkpoint holds that too
                    trees = self._saved_lead_trees(history, plan[k][0], part, value, d,
                                                   weight)
                if trees is not None:
                    on_better(value, plan[k][0], trees)

        beside = []  # chains running in threads beside this one: (k, drawn, Beside)
        answered = set()  # the chains (indices in ``plan``) whose answer has come

        def put_beside(k, args):  # a chain in a thread beside, its slot taken
            beside.append((k, time.monotonic(), self._runner.beside(
                lambda: self._settle_beside(settle, k, args))))

        def tell_running(state="waiting"):  # the chains beside not yet answered, if any
            # (one that has told its answer may still be building its lead's tree)
            with lock:
                running = [(self.game.code_str(plan[k][0]), time.monotonic() - drawn)
                           for k, drawn, chain in beside
                           if chain.running and k not in answered]
            if told and running:
                self.progress.message(_beside_wait_text(race_label, running, state))

        def waiting_for_slot():  # the log, while this thread waits to draw again:
            # once as it begins, then every --progress-interval (the chains' phases
            # are hidden, and the log would say nothing until one answers)
            every, said = self.progress.interval, []

            def tell(seconds):
                if not said or every is not None and seconds - said[-1] >= every:
                    said.append(seconds)
                    tell_running("drawing")
            return tell

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
                # An answer the checkpoint holds is settled here, before the next
                # rival is drawn. Settled beside, the lead it takes could come after
                # that draw, whose budget would be the looser one from before; the
                # checkpoint, holding that rival's answer under the tighter budget,
                # may not answer it, and a resumed run searched again a rival it had
                # settled (p4c8nb's upper tree rebuilt: 300 s on 2345's chain, known)
                found = self._runner.known(_exp_guess_task, [args])[1][0]
                if found is not None:  # its small parts' values, for their renamings
                    self._remember_chain(args)
                if (found is None and self._beside is not None
                        and not self._runner.only_reading):
                    if self._beside.take():
                        put_beside(k, args)
                        continue
                    # Every slot held: this thread lends its own to the chain rather
                    # than search it here, where it would hold up every draw after it,
                    # whatever ended beside it; then waits for a slot back
                    with self._beside.lent(waiting_for_slot()):
                        self._beside.take_waiting()  # (the one just lent)
                        with lock:  # drawn again, under the best total now
                            if plan[k][1] >= race["best"] or (
                                    enough is not None and race["best"] <= enough):
                                self._beside.give()
                                break  # (the plan runs by bound: no rival is left)
                            args = task(k)[0]
                        found = self._runner.known(_exp_guess_task, [args])[1][0]
                        if found is None:
                            put_beside(k, args)
                            continue
                        self._beside.give()
                settle(k, args, found)
                continue
            self.progress.phase(label, left)
            self._runner.stream(_exp_guess_task, draws(taken), sink)

        def finish():
            tell_running()
            waits = any(chain.running for _, _, chain in beside)
            with (self._beside.lent() if waits else contextlib.nullcontext()):
                for _, _, chain in beside:  # (after Ctrl-C, none is waited for: daemons)
                    chain.join()
            if race["holder"] < 0:
                return best, None, None
            return race["best"], plan[race["holder"]][0], race["trees"]

        return InFlight(finish, [chain for _, _, chain in beside], tell_running)

    def _settle_beside(self, settle, k, args) -> None:
        """``settle(k, args)`` in a thread beside the race's own, its slot given back
        at the end (:meth:`_second_guess_rounds`)."""
        try:
            settle(k, args)
        finally:
            self._beside.give()

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
        lead that the checkpoint shows beaten: it reads its tree back if the
        checkpoint holds it all, :meth:`_saved_lead_trees`).
        The parts must add up to the chain's total (an :class:`AssertionError` if not)."""
        d2 = d if d >= NO_CAP else d - 1
        subs = self._ctx.split(g, part)
        line = " ".join(self.game.code_str(h) for h in (*history, g))
        solved = self._solve_subparts((*history, g), subs, d2, weight,
                                      f"{_phase(weight)}: the tree of {line}, "
                                      "a rival that took the lead")
        trees = [solved[a] for a, _ in subs]
        if len(part) + sum(v for v, _ in trees) != total:
            cost = len(part) + sum(v for v, _ in trees)
            raise AssertionError(f"the tree of {line} costs {cost}, its chain found {total}")
        return trees

    def _saved_lead_trees(self, history, g, part, total, d, weight) -> list | None:
        """:meth:`_lead_trees` of a chain that took the lead of its race and lost it
        to a later rival, as a resumed run reads the race back: the trees, if the
        checkpoint holds every task they need (nothing computed:
        :meth:`~optimal_mm.runner.TaskRunner.reading_only`), else None (what was read
        on the way counted, as the tree a live run builds for a lead beaten later).

        A run stopped while the tree of its race's latest lead was being built has
        built the trees of the leads before (each at once, :meth:`_lead_trees`), and
        its best tree so far held them; the resumed run, building only the latest
        lead's, would start from the tree it was given (p6c7n's expected case: a
        rebuild wrote 29163, the tree on file, where the checkpoint held the parts
        of one of 29154, while the latest lead's tree needed a task of 75 minutes).
        Read back, the beaten lead's tree is the best so far until a better one is
        built."""
        try:
            with self._runner.reading_only():
                return self._lead_trees(history, g, part, total, d, weight)
        except NotSaved:
            return None

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
        raise the big parts' bounds (:meth:`_probe_parts`); its small parts, the big
        ones counted at their bounds (:meth:`_small_parts`: probed in one task, then
        one task each; their answer is saved as that of the one task that searched
        them all before 2026-12-06, so a checkpoint of then still answers it); then
        each big part, smallest first, split by its second guesses
        (:meth:`_second_guess_rounds`) with the budget that the parts known so far
        leave it; the first part that reaches its budget refutes the guess. A capped
        search that reads the search without the cap may count the small parts at
        their total there and solve them last instead (:meth:`_small_floor`).
        """
        least = self._chain_secrets(history)
        least = search_parts.SPLIT_SECRETS if least is None else least
        big = sorted((i for i, p in enumerate(parts) if len(p) >= least),
                     key=lambda i: (len(parts[i]), i))
        small = [i for i in range(len(parts)) if i not in big]
        line = " ".join(self.game.code_str(h) for h in (*history, g))
        lbs, exact = [int(b) for b in lbs], set()
        looked = {}

        def images(i):  # big part i's images, looked for once (none without a checkpoint)
            if i not in looked:
                looked[i] = ([] if self._runner.checkpoint is None
                             else self._images((*history, g), parts[i], parts))
            return looked[i]

        if history:  # below the first guess (chain_secrets): raise the big parts' bounds
            exact = self._image_values((*history, g), parts, big, lbs, d, weight, images)
            exact |= self._probe_parts((*history, g), parts,
                                       [i for i in big if i not in exact], lbs, d, weight,
                                       f"{_phase(weight)}: rival {line}, probes of its big parts")
            if n + sum(lbs) >= bound:
                return None
        known = n + sum(lbs[i] for i in big)  # the exact total once every part is known
        task = floor = None
        if small:
            task = (tuple(history), g, [parts[i] for i in small], [lbs[i] for i in small],
                    known, bound, d, weight)
            floor = self._small_floor(task)
            if floor is None:  # the small parts first
                known = self._small_answer(task, line)
                if known is None:
                    return None
            else:  # counted at their floor until the big parts are done
                known += floor
                if known >= bound:
                    return None
        for i in big:
            if i in exact:  # its bound is its value
                continue
            budget = bound - (known - lbs[i])  # what part i may cost, g still below bound
            part, image = self._raced_as((*history, g), parts[i], images(i), budget, d,
                                         weight)
            plan = self.exp_second_guesses((*history, g), part, d, weight)
            with self._runner.uncharged() if image else contextlib.nullcontext():
                value, guess, _ = self._second_guess_rounds(
                    (*history, g), part, plan, budget, d, weight,
                    f"guesses of rival {line}{image}")
            if guess is None:
                return None
            known += value - lbs[i]
        if floor is not None:  # the small parts last: their value for their floor
            value = self._small_answer(task, line)
            if value is None:
                return None
            known += value - task[4] - floor
            if known >= bound:
                return None
        return known

    def _small_answer(self, task, line: str) -> int | None:
        """The answer of the small parts' :func:`_exp_guess_task` ``task`` (a chain's,
        ``line`` its guesses): read back, or found in pieces (:meth:`_small_parts`)
        and saved as that task's; the total (its ``known`` plus their values) if
        below its bound, else None."""
        label = f"{_phase(task[7])}: rival {line}, its {len(task[2])} small parts"
        value, _, counters = _guess_answer(self._saved_or(
            _exp_guess_task, task, lambda: self._small_parts(*task, label),
            on_found=lambda: self._remember_values((*task[0], task[1]), task[2],
                                                   task[6], task[7])))
        self.stats.add(counters)
        return value

    def _small_floor(self, task) -> int | None:
        """What the small parts of a chain (``task``: their :func:`_exp_guess_task`
        arguments) cost together at least, by the search without the cap
        (:meth:`~optimal_mm.runner.TaskRunner.bound_by`), where it is above their
        bounds and this search does not hold their answer yet; else None.

        A tree within the cap is a tree, so each part costs at least its optimum
        without the cap, and that search's answer for the same small parts (found by
        the guesses and the parts, whatever their bounds and budget there) bounds
        them: their total there, or the budget they reached. The chain then races
        its big parts first with the small parts at that floor and solves the small
        parts last, only if no big part refutes it: p6c7n's capped race solved them
        first, 60 s to 65 min a rival (about 3 h in all for nine rivals), and in all
        eight rivals with both answers their capped total was the one without the
        cap, so the big parts' budgets were the same."""
        history, g, parts, lbs, _, _, d, weight = task
        below = self._runner.below
        if below is None or weight or d >= NO_CAP:
            return None  # a cap weight's costs are not totals (_uncapped_guess)
        if self._runner.known(_exp_guess_task, [task], count=False)[1][0] is not None:
            return None  # held here: read back first, as always
        floor = _small_floors(below).get(_small_key(history, g, parts))
        return floor if floor is not None and floor > sum(int(b) for b in lbs) else None

    def _small_parts(self, history, g, parts, lbs, known, bound, d, weight, label) -> tuple:
        """:func:`_exp_guess_task`'s answer for a chain's small ``parts`` (those of the
        guess ``g`` after ``history`` below the chain's threshold, lower bounds ``lbs``,
        ``d`` guesses left in each), ``known`` the secrets plus the big parts' bounds:
        ``(total, None, zero counters)`` if the total is below ``bound``, else
        ``(None, None, zero counters)``; the tasks hold the work (:meth:`_saved_or`,
        which saves this as that one task's answer).

        The parts are probed first, in one task (:func:`_exp_probe_task`, the
        probes one task of them all would begin with), and the chain ends there if
        their bounds reach ``bound``; each part the probes did not solve is then
        solved exactly, a task of its own (:func:`~optimal_mm.search_tasks.value_task`:
        no budget, so a run under another bound reads it back), all of them in one
        batch on every worker. As one task (the search until 2026-12-06), p6c7n's
        rival 234567's small parts ran 65 minutes on one worker, and a run stopped
        meanwhile kept nothing of them."""
        after = (*history, g)
        (probed,) = self._runner.run(
            _exp_probe_task, [(tuple(history), g, parts, [int(b) for b in lbs], known,
                               bound, d, weight)], f"{label}, probes")
        lbs, exact, counters = probed
        self.stats.add(counters)
        lbs = [int(b) for b in lbs]
        if known + sum(lbs) >= bound:
            return None, None, new_stats()
        todo = [i for i in range(len(parts)) if not exact[i]]
        tasks = [value_task(after, parts[i], d, weight) for i in todo]
        results = self._renamed_values(tasks)
        run = [j for j, r in enumerate(results) if r is None]
        while run:  # (again only for those whose renaming a chain beside gave up)
            mine, theirs = self._claimed(tasks, run)
            try:
                def solved(k, result, mine=mine):
                    results[mine[k]] = result
                    if self._renamed is not None:
                        task = tasks[mine[k]]
                        self._renamed.add(*value_slot(task),
                                          (int(result[0]), self._held(task)))

                if mine:
                    self._solve_values([tasks[j] for j in mine], label, solved)
            finally:  # (a claim not solved, after Ctrl-C: whoever waits solves it)
                if self._renamed is not None:
                    for j in mine:
                        self._renamed.release(*value_slot(tasks[j]))
            if not all(event.is_set() for event in theirs.values()):
                # a chain beside solves a renaming: wait, this thread's slot lent
                with self._beside.lent():
                    for event in theirs.values():
                        event.wait()
            if theirs:
                for j, result in zip(theirs, self._renamed_values([tasks[j] for j in theirs])):
                    results[j] = result
            run = [j for j in theirs if results[j] is None]
        for i, task, (value, _, counters) in zip(todo, tasks, results):
            self.stats.add(counters)
            lbs[i] = int(value)
        total = known + sum(lbs)
        return (total if total < bound else None), None, new_stats()

    def _solve_values(self, tasks, label, on_result) -> None:
        """Solve the value tasks ``tasks`` (:func:`value_task`), calling
        ``on_result(k, result)`` for each: the parts of
        :data:`~optimal_mm.search_batches.BATCH_SECRETS` secrets or more first,
        largest first, each in batches of its first guesses
        (:meth:`_batched_value`), then the others, one task each, in one batch on
        every worker. A batched part's answer is saved as its value task's, so a
        later run, or a renaming of it, reads it back as if one task had found it."""
        whole = []
        for k in sorted(range(len(tasks)), key=lambda k: -len(tasks[k][1])):
            task = tasks[k]
            if len(task[1]) < search_batches.BATCH_SECRETS or not self.symmetry:
                whole.append(k)
                continue
            _, (held,) = self._runner.known(_exp_part_task, [task])
            if held is None:
                history, part, _, d, _, weight = task
                ranked = [g for g, _ in self.exp_second_guesses(history, part, d, weight)]
                if not ranked:  # no guess fits (the value is beyond the cap): one task
                    whole.append(k)
                    continue
                held = self._batched_value(task, search_batches.cut(ranked), label)
            on_result(k, held)
        if whole:
            self._runner.run(_exp_part_task, [tasks[k] for k in whole], label,
                             on_result=lambda i, result: on_result(whole[i], result),
                             cost=_part_size)

    def _batched_value(self, task, batches, label) -> tuple:
        """The answer of the value task ``task`` found in ``batches`` of its part's
        first guesses, each a task (:func:`_exp_batch_task`) under the best value
        found so far (:class:`~optimal_mm.search_batches.PartBatches`); saved as the
        value task's own, timed by the batches together.

        The first batch to compute runs alone: drawn beside it, a second would run
        under no budget too (p7c7n's second batch of a 249-secret part so took 489 s,
        its first 201 s). The rest are then drawn as workers are free, each under the
        best so far."""
        part = search_batches.PartBatches(task, batches)
        lock = threading.Lock()
        since = self._runner.clock()
        self.progress.phase(f"{label}: a part of {len(task[1])} secrets, its first guesses "
                            f"in {len(batches)} batches", len(batches))

        def draws(most):  # at most ``most`` tasks to compute; those saved read back
            while most > 0:
                with lock:
                    args = part.next_task()
                if args is None:
                    return
                _, (found,) = self._runner.known(_exp_batch_task, [args])
                if found is None:
                    most -= 1
                    yield args
                    continue
                with lock:
                    part.found(found)
                self.progress.advance(resumed=True)

        def sink(args, result):
            with lock:
                part.found(result)

        self._runner.stream(_exp_batch_task, draws(1), sink)
        self._runner.stream(_exp_batch_task, draws(len(batches)), sink)
        result = part.result()
        self._runner.record(_exp_part_task, task, result, since)
        return result

    def _claimed(self, tasks, run) -> tuple:
        """The value tasks ``run`` (indices in ``tasks``) this thread solves, and
        ``{index: event}`` for those whose renaming a chain beside is solving
        (:meth:`~optimal_mm.symmetry.SolvedUpToRenaming.claim`): two rivals whose
        small parts are renamings of each other have the same bounds, so they are
        drawn one after the other and run side by side (p7c7n's 895 and 899 took 652
        and 667 s on their 248-secret parts). Without chains beside, all its own."""
        if self._renamed is None or self._beside is None:
            return list(run), {}
        mine, theirs = [], {}
        for j in run:
            event = self._renamed.claim(*value_slot(tasks[j]))
            if event is None:
                mine.append(j)
            else:
                theirs[j] = event
        return mine, theirs

    def _renamed_values(self, tasks) -> list:
        """For each :func:`value_task` of ``tasks`` that the checkpoint lacks and whose
        part is a renaming of one solved before in this session
        (:class:`~optimal_mm.symmetry.SolvedUpToRenaming`), its answer: that part's
        value, which it shares, saved as its own (untimed: no work of its own) where
        the checkpoint holds the part it renames (:meth:`_held`); None for the
        others. In p7c7n's expected run of 2026-12-06, three pairs of small
        parts of 246 and 248 secrets were renamings of each other; each part of such
        a pair took 1 to 11 minutes."""
        if self._renamed is None or not tasks:
            return [None] * len(tasks)
        _, held = self._runner.known(_exp_part_task, tasks, count=False)
        out = []
        for task, found in zip(tasks, held):
            got = None if found is not None else self._renamed.get(*value_slot(task))
            out.append(None if got is None else (got[0], None, new_stats()))
            if got is not None and got[1]:
                self._runner.record(_exp_part_task, task, out[-1])
        return out

    def _held(self, task) -> bool:
        """Whether the checkpoint holds the value task ``task`` (just solved, or read
        back): a renaming of its part then saves the value as its own too
        (:meth:`_renamed_values`). One solved in less than ``--checkpoint-min-seconds``
        is not held, and its renamings are not saved either: a later run solves it
        again at that small cost and finds them renamings again. Saved regardless,
        p5c8nb's consistent expected run of 2026-12-07 wrote 23,491 such copies of
        parts solved in milliseconds in 40 minutes, beside 586 other entries."""
        return self._runner.known(_exp_part_task, [task], count=False)[1][0] is not None

    def _remember_chain(self, args) -> None:
        """:meth:`_remember_values` for the small parts of the chain whose
        :func:`_exp_guess_task` arguments are ``args`` (its parts under the
        threshold :meth:`_guess_by_parts` splits them by)."""
        history, g, parts, _, _, _, d, weight = args
        least = self._chain_secrets(history)
        least = search_parts.SPLIT_SECRETS if least is None else least
        self._remember_values((*history, g), [p for p in parts if len(p) < least], d,
                              weight)

    def _remember_values(self, after, parts, d, weight) -> None:
        """Keep the values the checkpoint holds for ``parts`` (small parts of a chain
        played after the guesses ``after``, ``d`` guesses left in each) as solved
        value tasks (:func:`value_task`), where the chain's answer, or its small
        parts', is read back whole: a renaming of one of them met later in the run
        then takes its value (:meth:`_renamed_values`), as it would had the run
        solved it."""
        if self._renamed is None or not parts:
            return
        tasks = [value_task(after, p, d, weight) for p in parts]
        _, held = self._runner.known(_exp_part_task, tasks, count=False)
        for task, found in zip(tasks, held):
            if found is not None:
                self._renamed.add(*value_slot(task), (int(found[0]), True))

    def _images(self, history, part, parts) -> list:
        """The other parts that hold the secrets of ``part`` (a big part of the guesses
        ``history``) renamed by the game's symmetry
        (:func:`~optimal_mm.symmetry.image_map`), among those whose race or exact solve
        a checkpoint may hold: the same guesses' ``parts``, and below a first guess,
        the last guess's parts in the first guess's other parts.

        A part and its image cost the same, so what is known of one holds for the
        other. p4c8nb's rivals of 1234 split its parts of 1,001 and 536 secrets
        alike: 2356's race of its 344-secret part in the first took 3.0 h of
        processor time, and the race of the image in the second had run 2.3 h more,
        under a lower budget, before this."""
        seen = [p for p in parts if len(p) == len(part) and p is not part]
        if len(history) == 2:
            first, g = history
            for _, other in self.first_guess_parts(first):
                if len(other) >= len(part):
                    seen += [p for _, p in self.split(g, other) if len(p) == len(part)]
        ours = np.sort(part)
        return [p for p in seen if not np.array_equal(np.sort(p), ours)
                and symmetry.image_map(self.game, p, part) is not None]

    def _raced_as(self, history, part, images, budget, d, weight) -> tuple:
        """The part whose race answers that of ``part`` (a big part of the guesses
        ``history``, ``d`` guesses left), as ``(part, text for the progress line)``:
        ``part`` itself, or one of its ``images`` (:meth:`_images`) whose race the
        checkpoint holds more of under ``budget``. A
        race run before under a budget at least this one answers this one by its
        tasks' results (a task above its budget is above this one too); only the
        tasks it lacks are computed. The tree of a rival that wins is built from its
        own parts (:meth:`_lead_trees`), not from its race."""
        best, held = part, None
        for p in images:
            if held is None:
                held = self._race_held(history, part, budget, d, weight)
            n = self._race_held(history, p, budget, d, weight)
            if n > held:
                best, held = p, n
        if best is part:
            return part, ""
        return best, (f", its part of {len(part):,} secrets raced as an image of it "
                      f"({held:,} third guesses held)")

    def _image_values(self, history, parts, which, lbs, d, weight, images) -> set:
        """Of the big ``parts`` ``which`` of the guesses ``history`` (``d`` guesses left
        in each), those with an image (``images(i)``, :meth:`_images`) that the
        checkpoint holds solved exactly (as the parts of a big part's first second
        guess are): each one's bound in ``lbs`` raised to that value. Returns them."""
        exact = set()
        for i in which:
            for p in images(i):
                _, (found,) = self._runner.known(
                    _exp_part_task, [part_task(history, p, d, weight)],
                    count=False)  # another search's answer: no time of this one
                if found is not None:
                    lbs[i] = int(found[0])
                    exact.add(i)
                    break
        return exact

    def _race_held(self, history, part, budget, d, weight) -> int:
        """How many guesses of the race at ``part`` (after ``history``) with a bound
        below ``budget`` the checkpoint answers under that budget."""
        args = [self._rival_task(history, h, part, budget, d, weight)
                for h, b in self.exp_second_guesses(history, part, d, weight) if b < budget]
        _, results = self._runner.known(_exp_guess_task, args, count=False)
        return sum(r is not None for r in results)

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
                _exp_part_task, [probe_task(history, parts[i], lbs[i], d, weight)
                                 for i in open_], label, cost=_part_size)
            for i, (value, _, counters) in zip(open_, results):
                self.stats.add(counters)
                if value <= lbs[i]:
                    exact.add(i)
                lbs[i] = max(lbs[i], int(value))
        return exact
