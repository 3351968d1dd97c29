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

    Expected case, in two phases. First guesses are ranked by a *probed* bound:
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
    Worst case: for ``t`` from the counting bound upwards, first guesses are tried
    in order of their largest part; a first guess proves ``t`` when all its parts
    are feasible within ``t - 1``; ``t`` is refuted when none does. A part of
    :data:`WC_SPLIT_SECRETS` secrets or more (Logik's, whose refutation takes weeks)
    is one task per second guess, tried in the compiled search's order until one
    keeps it within ``t - 1`` (:meth:`Solver._wc_split_part`).

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
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import __version__
from . import kernels, stopping
from ._search_arrays import (INF, NO_CAP, UNBUDGETED, code_masks, colour_swaps,
                             lower_bound_table, new_stats, new_table, position_swaps)
from .errors import (FloorError, InfeasibleError, InvalidGameError, InvalidOptionError,
                     TooLargeError)
from .game import Game, as_game, partition_counts
# physical_memory, PROCESS_BYTES, TABLE_ENTRY_BYTES, BACKENDS and LOCAL_DASK_CONFIG are
# imported for the modules and tests that take them from here.
from .memory import parse_size
from .memory import (PROCESS_BYTES, TABLE_ENTRY_BYTES, MemoryPlan,  # noqa: F401
                     _size_text, physical_memory)
from .progress import CallbackProgress, Progress
from .runner import BACKENDS, LOCAL_DASK_CONFIG, TaskRunner  # noqa: F401
from .symmetry import _code_lookup, orbit_representatives
from .tree import Node, Strategy

if TYPE_CHECKING:  # imported when a run has a checkpoint: most have none
    from .checkpoint import Checkpoint

OBJECTIVES = ("worst-case", "expected", "worst-then-expected", "fewest-at-worst")
#: The objectives that run the worst case, then an expected search capped at ``t*``.
CAPPED_OBJECTIVES = ("worst-then-expected", "fewest-at-worst")
#: With the default number of jobs, games up to this many codes run in-process.
SERIAL_CODES = 2000
DEFAULT_TABLE_ENTRIES = 8_000_000
#: Parts of the first guess solved exactly with at least this many secrets are split
#: by their own guesses into separate tasks (:meth:`Solver._solve_parts`).
SPLIT_SECRETS = 400
#: Worst-case parts of the first guess with at least this many secrets are split by
#: their own guesses, one task per second guess (:meth:`Solver._wc_split_part`). Every
#: first guess of p5c8 (Logik) has such a part, and refuting one takes weeks
#: (docs/LOGIK.md): split, a run saves its progress every few minutes. In smaller games
#: only poor first guesses (1111) have one; smaller parts are searched or refuted
#: whole within seconds, where one task is cheaper than hundreds.
WC_SPLIT_SECRETS = 2000
#: How a worst-case tree picks its guesses once a part is proven feasible
#: (:meth:`_Context.wc_guess`): for a small total (the default), or the search's own
#: first feasible guess (far cheaper on big parts, a larger total).
WC_TREE_RULES = ("small-total", "first")
#: The version of what a task computes, in every checkpoint's run key
#: (:meth:`Solver.run_key`). Bump it with any change that can alter a task's
#: arguments or its result: a task function's signature or return value, how a part
#: or its guesses are cut (``WC_SPLIT_SECRETS``, ``SPLIT_SECRETS``, the symmetry
#: reduction), the order in which equal guesses are chosen (it decides the tree), a
#: bound that is not exact. A change that only makes a task faster leaves it: then
#: a checkpoint of a weeks-long run survives it. Checkpoints of another format are
#: recomputed, never trusted.
TASK_FORMAT = 1


def check_max_guesses(max_guesses) -> int | None:
    """The guess cap as the search uses it: ``None`` or an integer from 1 to :data:`NO_CAP`.

    A cap above :data:`NO_CAP` (64, the deepest level the search tables have) is
    the same as 64: no game the exact search accepts needs anywhere near that many
    guesses, so such a cap can never bind, and it is clamped rather than refused.

    >>> check_max_guesses(5), check_max_guesses(10**23), check_max_guesses(None)
    (5, 64, None)
    >>> check_max_guesses(True)
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidOptionError: --max-guesses must be a positive integer, got True
    """
    if max_guesses is None:
        return None
    if not isinstance(max_guesses, (int, np.integer)) or isinstance(max_guesses, (bool, np.bool_)):
        raise InvalidOptionError(f"--max-guesses must be a positive integer, got {max_guesses!r}")
    if max_guesses < 1:
        raise InfeasibleError(f"--max-guesses must be a positive integer, got {max_guesses!r}")
    return min(int(max_guesses), NO_CAP)


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
    """
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


@dataclass
class SearchStats:
    """Counters of the search, summed over all processes
    (:data:`~optimal_mm._search_arrays.STATS`)."""

    states: int = 0
    table_hits: int = 0
    guesses: int = 0
    stored: int = 0
    #: Guesses the worst case dropped by its remembered refuting parts, with no
    #: partition and no table read (0 from counters saved before they were kept).
    refuter_cuts: int = 0

    def add(self, counters) -> None:
        self.states += int(counters[0])
        self.table_hits += int(counters[1])
        self.guesses += int(counters[2])
        self.stored += int(counters[3])
        if len(counters) > 4:
            self.refuter_cuts += int(counters[4])

    def __str__(self) -> str:
        text = (f"states {self.states:,}, table hits {self.table_hits:,}, "
                f"guesses evaluated {self.guesses:,}")
        if self.refuter_cuts:
            text += f", guesses cut by refuting parts {self.refuter_cuts:,}"
        return text


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
    #: Tasks read back from the checkpoint rather than computed in this run.
    resumed: int = 0

    @property
    def feasible(self) -> bool:
        return self.strategy is not None


# ---------------------------------------------------------------------------
# Per-process search context
# ---------------------------------------------------------------------------
#: The expected kernels' worst-case arguments that ask nothing (:meth:`_Context._wc_args`).
_NO_WC = (np.zeros((0, 0), dtype=np.int64), new_table(0))


class _Context:
    """Everything the compiled search needs for one game and guess rule."""

    def __init__(self, game: Game, consistent: bool, table_entries: int,
                 symmetry: bool = True):
        self.game = game
        self.consistent = consistent
        # Built whatever its size (TABLE_BYTES_LIMIT is for the heuristics): its
        # memory was planned before (check_feasible, Solver.memory_plan).
        self.table = game.answer_table(limit_bytes=game.table_bytes())
        self.all_guesses = np.arange(game.n_codes, dtype=np.int64)
        r = len(game.possible_answers) - 1
        self.lb = lower_bound_table(game.n_codes, max(r, 1))
        self._bounds = {0: self.lb}
        self.win = game.win
        self.n_slots = game.n_answer_slots
        self.entries = table_entries
        self._tables = {}
        self.counters = new_stats()
        self.rules = _rules(game, symmetry)
        #: Whether the expected search asks the worst case if a state with no budget
        #: fits under the cap (:meth:`exp`); off, only to compare (the same values).
        self.ask_fits = True

    @property
    def exp_tt(self):
        """The expected-case transposition table, allocated on first use."""
        return self._table("exp")

    @property
    def wc_tt(self):
        """The worst-case transposition table, allocated on first use."""
        return self._table("wc")

    def _table(self, name):
        tt = self._tables.get(name)
        if tt is None:
            tt = self._tables[name] = new_table(self.entries)
        return tt

    def bounds(self, weight: int = 0):
        """The lower-bound table of the cost whose secrets at the cap weigh ``weight``
        more (0: the total; :func:`~optimal_mm._search_arrays.lower_bound_table`)."""
        lb = self._bounds.get(weight)
        if lb is None:
            r = max(len(self.game.possible_answers) - 1, 1)
            lb = self._bounds[weight] = lower_bound_table(self.game.n_codes, r,
                                                          cap_weight=weight)
        return lb

    def _top(self, top):
        return np.asarray(top if top is not None else [], dtype=np.int64)

    def _run(self, kernel, head, lb, tt):
        """``kernel(*head, <the game's arrays, lb, tt>, stats, *rules)``, the argument
        order every search kernel shares, through :func:`optimal_mm.stopping.run`, which
        hands it the ``stats`` array that Ctrl-C and SIGTERM reach while it runs (the
        counters are copied in and out)."""
        return stopping.run(lambda stats: kernel(
            *head, self.table, self.all_guesses, lb, self.win, self.n_slots,
            self.consistent, tt, stats, *self.rules), self.counters)

    def exp(self, S, beta, d, top=None, weight=0):
        """The compiled expected-case search of ``S`` with ``d`` guesses left:
        ``(value, guess)``, exact below ``beta``, else a bound (:func:`kernels.exp_search`).

        Under a cap, every node of the search with no budget (:data:`UNBUDGETED`:
        ``S`` itself when ``beta`` is, a part below a node with no guess within the
        cap found yet) asks the worst-case search first whether its state fits within
        its guesses left (:func:`~optimal_mm._search.wc_search`, with this context's
        worst-case table, :meth:`_wc_args`): where it does not, the answer is
        :data:`INF` at once. The expected search finds that out too, but only by
        trying every guess at every node, since no total bounds a part that no tree
        solves: p5c6b's 166 secrets after 11111 12222 21123 13334 (1B each but the
        third, 0B), 5 guesses left, took it 258 s against the worst case's 2.1 s.
        Asked at the root only (as first built), mastermind's total within 5 still
        spent half of its partitions in the nodes below that fit nowhere. With a
        budget the expected search mostly fails soon on its own, and the worst
        case's proof that a part *does* fit (its whole tree) costs about as much as
        the expected search: asked before every capped search, it made p4c7's total
        within 6 take 11.8 s, not 5.4.
        """
        return self._run(kernels.exp_search, (S, beta, d, self._top(top), *self._wc_args(d)),
                         self.bounds(weight), self.exp_tt)

    def _wc_args(self, d):
        """``(wc_lb, wc_tt)`` for the expected kernels with ``d`` guesses left: the
        worst-case search's bounds and table, which they ask whether a state with no
        budget fits under the cap; or an empty pair, which asks nothing (no cap, or
        :attr:`ask_fits` off)."""
        if d >= NO_CAP or not self.ask_fits:
            return _NO_WC
        return self.lb, self.wc_tt

    def fits(self, S, d, top=None) -> bool:
        """Whether a tree solves ``S`` within ``d`` guesses (always, uncapped), its
        first guess among ``top`` if given: the worst-case search (:meth:`wc`), which
        keeps what it learns of each state in its own table (of ``S`` itself only
        without ``top``)."""
        return d >= NO_CAP or self.wc(S, d, top)

    def wc(self, S, d, top=None) -> bool:
        return bool(self._wc_search(S, d, self._top(top))[0])

    def _wc_search(self, S, d, top):
        return self._run(kernels.wc_search, (S, d, top), self.lb, self.wc_tt)

    def split(self, g, S):
        """``[(answer, part)]``: the secrets of ``S`` by their answer to ``g``, in
        answer order, each part in the order of ``S`` (the winning answer left out)."""
        answers = self.table[g, S]
        # One stable sort and slices of it: a mask per answer costs 3x as much on the
        # parts a tree is built from, and np.unique 10x.
        ranked = S[np.argsort(answers, kind="stable")]
        out, start = [], 0
        for a, size in enumerate(np.bincount(answers, minlength=self.n_slots).tolist()):
            if size:
                if a != self.win:
                    out.append((a, ranked[start:start + size]))
                start += size
        return out

    def exp_tree(self, S, d, top=None, weight=0, value=None):
        """``(guess, {answer: subtree})`` of an optimal subtree (``S`` must be feasible)
        for the cost of cap weight ``weight`` (0: the total), built by the compiled
        :func:`~optimal_mm._search.exp_tree_nodes` from what the search left in the
        transposition table. ``top`` restricts the root's guesses (the caller's
        symmetry representatives); ``value``, the cost of ``S`` when known, is the
        budget (plus one) of the search that picks the root's guess: every worse guess
        is then cut at its bound, and the guess picked is the same (the first in
        index order that meets the optimum, whatever the budget above it).

        Below the root, each node tries the first code in index order of each class
        of guesses that a renaming fixing its secrets or a change of dead pegs maps
        onto each other (the compiled search's own representatives; every guess
        allowed without the symmetry reduction). The guesses of one class share their
        parts' sizes, their value and whether they may win, and the representative is
        the least code of its class (each colour class renamed to its smallest colours
        in order of first appearance, each dead peg the smallest dead colour, under
        black-only scoring each position's colours too), so trying the representatives
        alone chooses the same guess as trying every guess, at a fraction of the
        partitions (tests/test_tree_guesses.py checks both against a node-by-node build).
        """
        head = (np.asarray(S, dtype=np.int64), d, -1 if value is None else int(value),
                self._top(top), *self._wc_args(d))
        guess, parent, answer = self._run(kernels.exp_tree_nodes, head, self.bounds(weight),
                                          self.exp_tt)
        if len(guess) == 0:
            raise InfeasibleError(f"no subtree within {d} guesses for {len(S)} secrets")
        nodes = [(g, {}) for g in guess.tolist()]
        for node, up, a in zip(nodes[1:], parent[1:].tolist(), answer[1:].tolist()):
            nodes[up][1][a] = node
        return nodes[0]

    def wc_guess(self, S, d, rule: str = "small-total", top=None) -> int:
        """A guess that keeps ``S`` within ``d`` guesses, picked by the tree rule
        ``rule`` (:data:`WC_TREE_RULES`); :class:`InfeasibleError` if there is none.

        ``"small-total"``
            The compiled :func:`~optimal_mm._search.wc_pick`: guesses in order of
            their balanced-tree bound on the total, the first feasible one kept. Each
            guess ahead of it must be refuted, and the search that proved ``S``
            feasible never tried most of them: on a big part this costs many times
            the proof (p5c7nb's part of 1,214 secrets within 7 guesses: 48 s to
            decide, more than 8 minutes for its tree).
        ``"first"``
            The guess the search itself keeps: the first, in its order (least
            largest part, ...), whose parts are all feasible within ``d - 1``. The
            node's own candidates (or ``top``, the caller's representatives at the
            root of a task) are passed to :func:`~optimal_mm._search.wc_search` as
            the guesses to try, so that the transposition table does not answer for
            ``S`` whole; the parts it refuted on the way are in that table. The
            guess depends on the search's order alone, not on what the table held.
        """
        S = np.asarray(S, dtype=np.int64)
        if rule == "first":
            if top is None:
                in_s = np.zeros(self.table.shape[1], dtype=np.bool_)
                in_s[S] = True
                top, _ = kernels.candidates(S, in_s, self.all_guesses[:0], self.all_guesses,
                                            self.consistent, *self.rules)
            ok, g = self._wc_search(S, d, self._top(top))
            g = int(g) if ok else -1
        else:
            g = int(self._run(kernels.wc_pick, (S, d), self.lb, self.wc_tt))
        if g < 0:
            raise InfeasibleError(f"no subtree within {d} guesses for {len(S)} secrets")
        return g

    def wc_tree(self, S, d, rule: str = "small-total", top=None):
        """``(guess, {answer: subtree})`` of a subtree within ``d`` guesses, each guess
        picked by ``rule`` (:meth:`wc_guess`; ``top`` for the root's only)."""
        g = self.wc_guess(S, d, rule, top)
        return (g, {a: self.wc_tree(part, d - 1, rule) for a, part in self.split(g, S)})


def _rules(game: Game, symmetry: bool) -> tuple:
    """The game's arrays the compiled search takes after its tables (cached on the
    game): codes, colours, repeats, the colour swaps (then, for black-only scoring
    with repeats, the swaps at one position), the code masks, the symmetry switch."""
    key = f"_search_rules_{bool(symmetry)}"
    rules = game.__dict__.get(key)
    if rules is None:
        swaps = colour_swaps(game.codes, game.colours, _code_lookup(game))
        if game.black_only and game.repeats and symmetry:
            swaps = np.concatenate([swaps, position_swaps(game.codes, game.colours,
                                                                  _code_lookup(game))])
        masks = code_masks(game.codes, game.colours)
        rules = (game.codes, game.colours, game.repeats, swaps, masks, bool(symmetry))
        game.__dict__[key] = rules
    return rules


_CONTEXTS: dict = {}


def _context(game: Game, consistent: bool, table_entries: int,
             symmetry: bool = True) -> _Context:
    key = (game, consistent, table_entries, symmetry)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        _CONTEXTS.clear()  # one game at a time per process keeps memory bounded
        ctx = _CONTEXTS[key] = _Context(game, consistent, table_entries, symmetry)
    return ctx


#: The last :data:`_PART_GUESSES_KEPT` answers of :func:`_part_guesses`: the expected
#: case asks for the same parts' guesses when it ranks the first guesses, when it
#: solves the best one's parts and when it searches its rivals (p5c4: 174 calls,
#: 89 distinct, each tens of microseconds of Python).
_PART_GUESSES = {}
_PART_GUESSES_KEPT = 512


def _part_guesses(game, history, part, consistent, symmetry):
    """Guesses to try at the node after the guesses ``history`` whose secrets are
    ``part``: one per orbit of the group fixing the history and the part.

    With black-only scoring and repeats, the compiled search's own choice at that
    node (one guess per orbit of the renamings of each position's colours that fix
    the part) is taken instead when it leaves fewer guesses. The answer is shared
    by later calls with the same arguments (:data:`_PART_GUESSES`): the caller must
    not write into it.
    """
    if not symmetry:
        return part if consistent else None
    key = (game, tuple(int(g) for g in history), np.asarray(part, dtype=np.int64).tobytes(),
           consistent)
    reps = _PART_GUESSES.get(key)
    if reps is None:
        if len(_PART_GUESSES) >= _PART_GUESSES_KEPT:
            _PART_GUESSES.clear()
        reps = _PART_GUESSES[key] = _orbit_guesses_of_part(game, history, part, consistent)
    return reps


def _orbit_guesses_of_part(game, history, part, consistent):
    """:func:`_part_guesses` with symmetry, computed."""
    reps = orbit_representatives(game, list(history), secrets=part,
                                 candidates=part if consistent else None)
    if game.black_only and game.repeats:
        everything = np.arange(game.n_codes, dtype=np.int64)
        in_s = np.zeros(game.n_codes, dtype=np.bool_)
        in_s[part] = True
        own, _ = kernels.candidates(np.asarray(part, dtype=np.int64), in_s, everything[:0],
                                     everything, consistent, *_rules(game, True))
        if len(own) < len(reps):
            return own
    return reps


def node_guess_classes(game: Game, history, part, consistent: bool) -> np.ndarray:
    """The guesses worth trying at the node after the guesses ``history`` whose
    secrets are ``part``: one per class of guesses that the renamings fixing the
    history and the part map onto each other, the classes the search itself uses
    there (with black-only scoring and repeats, those of each position's colours on
    its own where they leave fewer: :func:`first_guess_classes`). Every guess of a
    class splits the part into parts of the same sizes and shapes, so a search that
    tries one of each loses nothing. The array may be shared: do not write into it.

    >>> g = Game.from_spec("p3c3b")
    >>> len(node_guess_classes(g, (), np.arange(g.n_codes), False))
    1
    """
    return np.asarray(_part_guesses(game, tuple(int(h) for h in history), part,
                                    consistent, True), dtype=np.int64)


def _classes(n: int) -> str:
    return f"{n} first-guess class" + ("es" if n != 1 else "")


def first_guess_classes(game: Game, consistent: bool, symmetry: bool = True) -> np.ndarray:
    """The first guesses a search tries: one per class of codes that the game's
    symmetries map onto each other (every code without symmetry).

    The classes are the orbits of the colour and position renamings, except with
    black-only scoring and repeats: there renaming the colours of each position on
    its own keeps every answer too (a black is an agreement at one position, and a
    renaming applied to guess and secret alike keeps each agreement), and those
    renamings take any code to any other, so every first guess is as good as any
    other and there is one class (p5c5b: ``11111``, where the colour and position
    renamings alone leave 7 classes, whose searches the transposition table found
    equal one state at a time). The nodes below use the same group
    (:func:`_part_guesses`).

    >>> [Game.from_spec(s).code_str(int(g)) for s in ("p4c6", "p4c6b")
    ...  for g in first_guess_classes(Game.from_spec(s), consistent=False)]
    ['1111', '1112', '1122', '1123', '1234', '1111']
    """
    codes = np.arange(game.n_codes, dtype=np.int64)
    if not symmetry:
        return codes
    if game.black_only and game.repeats:
        return np.asarray(_part_guesses(game, (), codes, consistent, True), dtype=np.int64)
    return np.asarray(orbit_representatives(game, []), dtype=np.int64)


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


def _part_size(args) -> int:
    """How many secrets an :func:`_exp_part_task` searches (arguments after the common
    ones): its cost grows steeply with it, so a batch dispatches the largest first."""
    return len(args[1])


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
    tops = [_part_guesses(game, (*history, first), part, consistent, symmetry)
            for part in parts]
    exact = [False] * len(parts)
    for _ in range(PROBE_ROUNDS):
        for i, part in enumerate(parts):
            if exact[i]:
                continue
            value, _ = ctx.exp(part, cur[i] + 1, d, tops[i], weight)
            exact[i] = value <= cur[i]
            cur[i] = max(cur[i], int(value))
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


def _first_by(plan, guess) -> list:
    """The guesses ``plan`` (``(guess, bound)`` in the search's order) with ``guess``
    first, where it is among them (a lower bound's tree's guess:
    :meth:`Solver._floor_of`), the others after it in their order: the rivals that
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


def check_wc_tree(rule) -> None:
    """:class:`InvalidOptionError` unless ``rule`` is one of :data:`WC_TREE_RULES`."""
    if rule not in WC_TREE_RULES:
        raise InvalidOptionError(f"wc_tree must be one of {', '.join(WC_TREE_RULES)}, "
                                 f"got {rule!r}")


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
    ctx = _context(game, consistent, entries, symmetry)
    before = ctx.counters.copy()
    top = _part_guesses(game, (first,), part, consistent, symmetry)
    ok = ctx.wc(part, d, top)
    rule = _tree_rule(want_tree)
    tree = ctx.wc_tree(part, d, rule, top) if ok and rule else None
    return ok, tree, ctx.counters - before


def _wc_guess_task(game, consistent, entries, symmetry, history, guess, part, d, want_tree):
    """Whether the guess ``guess``, played at the node of ``part`` (after the guesses
    ``history``), keeps every part it leaves solvable within ``d - 1`` guesses, so that
    ``part`` is solved within ``d``: ``(ok, subtree or None, counters)``.

    One of the tasks a big worst-case part is split into
    (:meth:`Solver._wc_split_part`); the parts are searched largest first, as the
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


# ---------------------------------------------------------------------------
# The solver
# ---------------------------------------------------------------------------
class Solver:
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
        saves), 1 runs in-process, or in one worker process with a ``checkpoint``
        (:mod:`optimal_mm.runner`, "Isolated sessions").
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
    wc_tree : {"small-total", "first"}
        Worst case: how the tree below the first guess picks its guesses once a part
        is proven feasible (:meth:`_Context.wc_guess`). ``"small-total"`` (the
        default) refutes, at every node, each guess whose balanced-tree bound on the
        total is smaller than the one kept's; ``"first"`` keeps the guess the search
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
    """

    def __init__(self, game: Game, guesses: str = "any", symmetry: bool = True,
                 jobs: int | None = None, backend: str = "loky",
                 table_entries: int = DEFAULT_TABLE_ENTRIES, progress=None,
                 checkpoint=None, scheduler: str | None = None,
                 memory_limit: "int | str | None" = None,
                 split_secrets: int = WC_SPLIT_SECRETS, wc_tree: str = "small-total",
                 chain_secrets: int | None = None, checkpoint_min_seconds: float = 0.0):
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
        self.chain_secrets = None if chain_secrets is None else int(chain_secrets)
        self.wc_tree = wc_tree
        self._tree_arg = _tree_arg(wc_tree)
        if progress is None:
            progress = Progress()
        elif not isinstance(progress, Progress):
            progress = CallbackProgress(progress)
        self.progress = progress
        self.checkpoint_dir = checkpoint
        self.memory_limit = None if memory_limit is None else int(memory_limit)
        self.stats = SearchStats()
        # A run with a checkpoint is a long one: its tasks are computed away from this
        # process, which then answers Ctrl-C at once (optimal_mm.runner, "Isolated").
        self._runner = TaskRunner(self.jobs, backend, scheduler, progress,
                                  isolated=checkpoint is not None,
                                  min_save_seconds=checkpoint_min_seconds)
        self._depth = 0
        # The best complete tree of the expected-case search under way (or of the last
        # one): (objective, cap, first guess, its parts' trees, the search's seconds
        # when it was found), or None (best_so_far)
        self._best = None
        self._floor, self._floor_cache = None, {}  # a LowerBound with a tree (_floor_of)
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

        Game (spec and alphabet), objective, guess rule, cap, symmetry reduction, and
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
        asks the worst case's, :meth:`_Context.exp`).

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

    @contextlib.contextmanager
    def _session(self, objective: str, max_guesses):
        """Around one public search: memory plan, checkpoint, workers, clean-up.

        Nested calls (``worst_then_expected`` runs two searches) share the outer one.
        """
        outer = self._depth == 0
        if outer:
            self._best = None
            self._floor, self._floor_cache = None, {}
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
        """Find ``t*`` (or test one cap) and a tree within it."""
        max_guesses = check_max_guesses(max_guesses)
        with self._session("worst-case", max_guesses):
            return self._worst_case(max_guesses)

    def _worst_case(self, max_guesses):
        start = time.perf_counter()
        game, ctx = self.game, self._ctx
        secrets, reps = self._root()
        n = len(secrets)
        counting = next(d for d in range(1, NO_CAP + 1) if ctx.lb[d, n] < INF)
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
                extra = {} if self.wc_tree == "small-total" else {"wc_tree": self.wc_tree}
                strategy = self._strategy("worst-case", d, tree, max_guesses is None, seconds,
                                          extra)
                return Solution(game, "worst-case", self.guesses, d, d, strategy, self.stats,
                                seconds, proof, self._runner.resumed)
            proof.append(f"{d} guesses: impossible ({_classes(len(order))} refuted)")
            if max_guesses is None:
                self.progress.update(bound=d + 1)
            self.progress.message(proof[-1])
        seconds = time.perf_counter() - start
        return Solution(game, "worst-case", self.guesses, max_guesses, None, None, self.stats,
                        seconds, proof, self._runner.resumed)

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
        (:meth:`_wc_split_part`), largest first; the others are one task each.
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
                tree = self._wc_split_part(g, a, p, d - 1)
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

    def _wc_parts(self, g, parts, d, trees):
        """Search ``parts`` of first guess ``g`` within ``d - 1``, one task each; put
        their subtrees in ``trees``; True when one of them is infeasible."""
        args = [(g, p, d - 1, self._tree_arg) for _, p in parts]
        label = f"worst case within {d}: first guess {self.game.code_str(g)}"
        _, results, sink = self._wc_batch(_wc_part_task, args, label)
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

        self._runner.stream(_wc_part_task, draws(), finished)
        if refuted():
            return True
        trees.update({a: r[1] for (a, _), r in zip(parts, results)})
        return False

    def split(self, g, secrets):
        """``[(answer, part)]``: ``secrets`` by their answer to ``g``, in answer order,
        the winning answer left out (the parts the tasks below a guess search)."""
        return self._ctx.split(g, np.asarray(secrets, dtype=np.int64))

    def first_guess_parts(self, g):
        """``[(answer, secrets)]``: the whole game's secrets split by first guess ``g``,
        largest first (ties by answer), the parts a worst-case run's tasks search."""
        return self._parts(g, self._root()[0])

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

    def wc_second_guesses(self, g, part, d):
        """The guesses at the node of ``part`` (below first guess ``g``, to be solved
        within ``d``) in the order the compiled search tries them: least largest part,
        then least sum of squared part sizes, then guesses that may be the secret, then
        index; those leaving a part beyond the counting bound of ``d - 1`` left out.
        A part split one second guess per task (:meth:`_wc_split_part`) has one task
        for each."""
        game, ctx = self.game, self._ctx
        top = _part_guesses(game, (g,), part, self.consistent, self.symmetry)
        top = ctx.all_guesses if top is None else top
        return worst_case_order(game, top, part, ctx.lb[d - 1]).tolist()

    def _wc_split_part(self, g, answer, part, d):
        """The subtree of a big ``part`` (answer ``answer`` to first guess ``g``) within
        ``d`` guesses, or None when it has none, searched one second guess per task.

        Each task asks whether one second guess keeps every part it leaves solvable
        within ``d - 1`` (:func:`_wc_guess_task`); the part is feasible at the first
        guess that does, infeasible when all are refuted. Guesses go out in the
        compiled search's order (:meth:`wc_second_guesses`), each to a worker as soon
        as one is free (:meth:`TaskRunner.stream`; they went out in batches before,
        and a long refutation waited for the slowest task of each), until one before
        the next is known feasible: the tasks then running are the only ones wasted
        (still saved). The guess kept is the first feasible one in that order, whatever the
        number of workers and whatever a checkpoint already holds: a feasible guess
        found later in the order is used only once every guess before it is refuted.
        So a refutation that takes weeks is checkpointed a second guess at a time.

        The subtree starts with that guess (under the "small-total" tree rule, the
        whole part's search would have picked its first guess for a small total,
        :meth:`_Context.wc_tree`): the same worst case, a total that may differ (p5c8
        within 7: 181,018 against 181,389). Below it, the solver's tree rule.
        """
        game = self.game
        guesses = self.wc_second_guesses(g, part, d)
        args = [((g,), g2, part, d, self._tree_arg) for g2 in guesses]
        _, results, sink = self._wc_batch(
            _wc_guess_task, args,
            f"worst case within {d + 1}: first guess {game.code_str(g)}, {len(part)} "
            f"secrets after {game.answer_str(answer)}: {len(guesses)} second guesses")
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
        first = next((i for i, r in enumerate(results) if r is None or r[0]), None)
        if first is None:
            self.progress.message(f"first guess {game.code_str(g)}: the {len(part)} "
                                  f"secrets after {game.answer_str(answer)} need more "
                                  f"than {d} guesses ({len(guesses)} second guesses "
                                  f"refuted)")
            return None
        return results[first][1]

    # -------------------------------------------------------- expected case
    def expected(self, max_guesses: int | None = None,
                 floor: "LowerBound | None" = None) -> Solution:
        """The least total number of guesses, with a tree that attains it.

        ``floor`` (a :class:`LowerBound`), if given, ends the search as soon as its
        tree's total meets it."""
        max_guesses = check_max_guesses(max_guesses)
        floor = check_floor("expected", floor)
        with self._session("expected", max_guesses):
            return self._expected(max_guesses, floor=floor)

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

    def _expected(self, max_guesses, weight=0, floor=None):
        """The expected case under the cap ``max_guesses``; with a ``weight``, the
        lexicographic cost of ``fewest-at-worst`` (the Solution's value is that cost).
        ``floor``: a :class:`LowerBound` on the total (no weight), met by a tree
        found, ends the search there (:meth:`_solve_parts`; no rival first guess);
        its tree, if it has one, bounds each part on its path (:meth:`_floor_of`)."""
        start = time.perf_counter()
        game, ctx = self.game, self._ctx
        secrets, reps = self._root()
        n = len(secrets)
        self._floor, self._floor_cache = (floor if not weight else None), {}
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

        def upper(g, parts, cost, trees):  # phase (1)'s first complete trees
            self._best = (label, max_guesses, g, {a: t for (a, _), t in zip(parts, trees)},
                          time.perf_counter() - start)
            self.progress.update(best=figure(n + cost))

        proof = []
        if ctx.lb[d, n] >= INF:
            return Solution(game, "expected", self.guesses, max_guesses, None, None,
                            self.stats, time.perf_counter() - start,
                            [f"{d} guesses: impossible by the counting bound"],
                            self._runner.resumed)
        bounds, order = self._first_guess_bounds(secrets, reps, child_d, weight)
        self.progress.reset()
        self.progress.update(bound=proven(bounds[order[0]][0]))
        # Phase 1: the most promising first guess, solved exactly, part by part.
        best_g, best_value, best_trees = None, INF, None
        for g in order:
            parts = bounds[g][1]
            values, trees = self._solve_parts(
                g, parts, child_d, f"expected: first guess {game.code_str(g)} exact", weight,
                lambda cost, trees, g=g, parts=parts: upper(g, parts, cost, trees),
                None if floor is None else floor.value - n, proof)
            if all(v < INF for v in values):
                best_g = g
                best_value = n + sum(values)
                best_trees = {a: t for (a, _), t in zip(parts, trees)}
                self._best = (label, max_guesses, best_g, best_trees,
                              time.perf_counter() - start)
                self.progress.update(best=figure(best_value))
                self.progress.message(f"first guess {game.code_str(g)}: {shown(best_value)}")
                break
            self.progress.message(f"first guess {game.code_str(g)}: impossible within {d} "
                                  f"guesses")
        if best_g is None:
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
                                   f"expected: {len(whole)} rivals against {shown(best_value)}",
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
                    f"expected: first guess {game.code_str(best_g)} tree", weight)[1]
            else:
                trees = [tree for _, tree in trees]
            best_trees = {a: t for (a, _), t in zip(parts, trees)}
            self._best = (label, max_guesses, best_g, best_trees,
                          time.perf_counter() - start)
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
        guess (solved exactly there), then as each big part's own search ends. So a
        run stopped while its big parts' rivals are searched still has an upper bound
        and its tree (p4c8nb's expected case: its three big parts ran past 900 s),
        and whenever a big part's race finds a rival better than the best so far
        whose task built its tree.

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
        values, trees, plans, incumbents = self._first_batch(
            g, parts, d, label, weight, settled,
            {i: f.guess for i, f in enumerate(part_floors) if f is not None})
        upper = {i: len(parts[i][1]) + sum(v for v, _ in incumbents[i].values())
                 for i in plans}
        # Each big part under its first second guess until a better one is known
        upper_trees = {i: (plan[0][0], {a: tree for a, (_, tree) in incumbents[i].items()})
                       for i, plan in plans.items()}
        lock = threading.Lock()  # a race may report a better rival from a drawing thread

        def tell():
            cost = sum(v for i, v in enumerate(values) if i not in plans) + sum(upper.values())
            if on_upper is not None and cost < INF:
                on_upper(cost, [upper_trees.get(i, t) for i, t in enumerate(trees)])

        def better(i, value, tree):  # a rival of big part i took the lead
            with lock:
                if value < upper[i]:
                    upper[i], upper_trees[i] = value, tree
                    tell()

        tell()
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

        Returns ``(values, trees, plans, incumbents)``: ``values[i]`` and ``trees[i]``
        for the small parts (0 and None at the big ones), ``plans[i]`` the second
        guesses of big part ``i`` (:meth:`exp_second_guesses`), ``incumbents[i]`` its
        first second guess's ``{answer: (value, tree)}``.
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
        for i, a, history, sub in deferred:
            if a is None:  # a part of the first guess
                values[i], trees[i] = self._solve_node(history, sub, d, weight)
            else:
                incumbents.setdefault(i, {})[a] = self._solve_node(history, sub, d2, weight)
        for i in plans:  # in answer order, as the batch alone would give them
            incumbents[i] = dict(sorted(incumbents[i].items()))
        return values, trees, plans, incumbents

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

    def _solve_node(self, history, part, d, weight):
        """Exact ``(value, subtree)`` of ``part`` after the guesses ``history`` (``d``
        guesses left; ``INF`` and None where it cannot be solved within them): one
        task (:func:`_exp_part_task`), or, for a part of ``chain_secrets`` secrets or
        more, split by its own guesses as the first guess's big parts are: its most
        promising guess's parts solved the same way, then its other guesses as rivals
        (:meth:`_split_part`), so that a part whose exact search runs for hours as one
        compiled call (p3c10nb's 527 secrets after 012, below their first second
        guess) is saved a piece at a time.

        On a lower bound's tree's path (:meth:`_floor_of`), a part its subtree settles
        takes that subtree; else it is split by the tree's guess there first (its
        parts are on the path too), and its race stops at its floor
        (:meth:`_split_part`)."""
        known = self._floor_of(history, part, d)
        if known is not None and known.tree is not None:
            return known.cost, known.tree
        task = (tuple(history), part, INF, d, True, weight)
        plan = self.exp_second_guesses(history, part, d, weight) if self._splits(part, d) \
            else []
        if not plan:
            (value, tree, counters), = self._runner.run(
                _exp_part_task, [task], f"expected: {len(part)} secrets after "
                f"{' '.join(self.game.code_str(h) for h in history)}")
            self.stats.add(counters)
            return value, tree
        if known is not None:  # the tree's guess first: its parts are on the path too
            plan = _first_by(plan, known.guess)
        d2 = d if d >= NO_CAP else d - 1
        after = (*history, plan[0][0])

        def split():
            incumbent = self._solve_subparts(
                after, self._ctx.split(plan[0][0], part), d2, weight,
                f"expected: the parts after {' '.join(self.game.code_str(h) for h in after)}")
            value, tree = self._split_part(history, part, plan, incumbent, d, weight)
            return int(value), tree, new_stats()

        value, tree, _ = self._saved_or(_exp_part_task, task, split)
        return value, tree

    def _solve_subparts(self, history, subs, d, weight, label, known=None):
        """``{answer: (value, subtree)}`` of the parts ``subs`` (``(answer, part)``)
        after the guesses ``history``: the small ones in one batch, the ones
        :meth:`_splits` names each by :meth:`_solve_node`. ``known``, if given, holds
        the ``(value, subtree)`` of each part in order, found already (a rival's
        task that proved better): taken as they are, except the parts that
        :meth:`_splits` names, whose trees follow their split."""
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
            if a not in out:
                out[a] = self._solve_node(history, sub, d, weight)
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
            values, trees, plans, incumbents = self._first_batch(
                g, parts, NO_CAP, f"expected: first guess {game.code_str(g)}, first batch", 0)
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
            f"rivals of {self.game.code_str(plan[0][0])}", enough, told)
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
                f"expected: {self.game.code_str(best_g)} tree", trees)
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
            f"expected: the tree of {line}, a rival that proved better")
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
        with the budget they leave.

        ``enough`` (from a :class:`LowerBound`, :meth:`_solve_parts`): a total that
        ends the race once the best so far is at most it (the part is then at its
        optimum, which the floor proves; the guess that holds it is the first found,
        not always the earliest in order). Such a race first looks for it in the
        checkpoint among every rival already settled (:meth:`_known_race`), so that
        a resumed run does not start the unsettled rivals drawn before it; tasks in
        flight when a live race meets it still run to their end. (The guess a lower
        bound's tree plays at the part is no rival: it goes first, :meth:`_first_batch`,
        :meth:`_solve_node`.) ``on_better(total, guess, trees)``, if given, is told
        each rival that takes the lead with the trees its task built (a chain's has
        none: not told).

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
                return value < best and trees is not None
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
                    if lead and on_better is not None:
                        on_better(value, plan[k][0], trees)
                    self.progress.advance()
                with lock:
                    taken = take(chains=False)

        def sink(args, result):
            value, trees, counters = _guess_answer(result)
            with lock:
                self.stats.add(counters)
                lead = keep(order[args[1]], value, trees)
            if lead and on_better is not None:
                on_better(value, args[1], trees)

        while True:
            with lock:
                taken = take(chains=True)
                if taken is None:
                    break
                k, args, chained = taken
                left = sum(b < race["best"] for _, b in plan[k:])
                label = f"expected: {what} ({n} secrets after {after}), {left} " + (
                    f"with a bound below {_cost_text(race['best'], weight)}"
                    if race["best"] < UNBUDGETED else "to search, none within the cap so far")
            if chained:  # with the budget of every guess before it
                value = self._chain_of(args)
                with lock:
                    keep(k, value)
                continue
            self.progress.phase(label, left)
            self._runner.stream(_exp_guess_task, draws(taken), sink)
        if race["holder"] < 0:
            return best, None, None
        return race["best"], plan[race["holder"]][0], race["trees"]

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

    def _saved_or(self, fn, task, compute):
        """The result of the task ``fn(*common, *task)`` from the checkpoint, or else
        ``compute()`` (a chain or a split part that gives the same answer in pieces)
        saved there as that task's result: the checkpoint report reads it as the
        task's, and a run that asks for the task whole reads it back. ``compute``
        returns zero work counters: the pieces' own tasks hold the work. An answer
        whose pieces took less processor time than ``checkpoint_min_seconds`` is not
        saved (:meth:`TaskRunner.record`)."""
        _, (found,) = self._runner.known(fn, [task])
        if found is not None:
            return found
        before = self._runner.task_seconds
        result = compute()
        self._runner.record(fn, task, result, self._runner.task_seconds - before)
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
                                      f"expected: rival {line}, probes of its big parts")
            if n + sum(lbs) >= bound:
                return None
        known = n + sum(lbs[i] for i in big)  # the exact total once every part is known
        if small:
            (result,) = self._runner.run(
                _exp_guess_task,
                [(tuple(history), g, [parts[i] for i in small], [lbs[i] for i in small],
                  known, bound, d, weight)],
                f"expected: rival {line}, its {len(small)} small parts")
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

    def best_so_far(self) -> "Strategy | None":
        """The best complete tree of the last expected-case search (``expected``,
        ``worst-then-expected``, ``fewest-at-worst``), whether it ended or was stopped
        (a time limit, Ctrl-C): from the end of phase (1)'s first batch, the first
        guess's tree with each big part under its first second guess, then with each
        big part under its best second guess as its search ends (the tree that
        solves the first guess exactly), then that of a rival first guess proved
        better once that tree is built. Replayed for every secret like any tree the
        solver builds, with ``optimal`` false: a search that ended proves its own
        tree, this one only bounds the optimum from above (``meta["upper_bound"]``).
        None before such a tree, and for a worst-case search, whose first tree
        within ``t`` guesses is its answer."""
        if self._best is None:
            return None
        objective, cap, first, trees, seconds = self._best
        return self._strategy(objective, cap, (first, trees), False, seconds,
                              {"upper_bound": "the best tree the search had built, "
                                              "not proven optimal"})

    def worst_then_expected(self, floor: "LowerBound | None" = None) -> Solution:
        """The least total among trees with the optimal worst case.

        ``floor`` (a :class:`LowerBound`; typically the optimal total without the
        cap, which no capped tree can beat) ends the capped search as soon as its
        tree meets it."""
        floor = check_floor("worst-then-expected", floor)
        with self._session("worst-then-expected", None):
            wc = self.worst_case()
            if wc.value is None:
                return wc
            sol = self.expected(max_guesses=wc.value, floor=floor)
        sol.objective = "worst-then-expected"
        sol.proof = wc.proof + sol.proof
        if sol.strategy is not None:
            sol.strategy.objective = "expected"
        return sol

    def fewest_at_worst(self, max_guesses: int | None = None) -> Solution:
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
        """
        with self._session("fewest-at-worst", None):
            if max_guesses is None:
                wc = self.worst_case()
                if wc.value is None:
                    return wc
                cap, proof = wc.value, wc.proof
            else:
                cap, proof = max_guesses, []
            weight = cap_weight(self.game, cap)
            sol = self._expected(cap, weight)
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
              floor: "LowerBound | None" = None) -> Solution:
        """Run the search for ``objective`` (see :func:`solve`)."""
        max_guesses = _check_request(objective, max_guesses)
        floor = check_floor(objective, floor)
        if objective == "worst-case":
            return self.worst_case(max_guesses)
        if objective == "expected":
            return self.expected(max_guesses, floor)
        if objective == "fewest-at-worst":
            return self.fewest_at_worst(max_guesses)
        return self.worst_then_expected(floor)


def cap_weight(game: Game, cap: int) -> int:
    """The extra cost of a secret found by the ``cap``-th guess under the lexicographic
    cost of ``fewest-at-worst``: one more than every total within the cap (``N``
    codes, each found within ``cap`` guesses), so that one secret fewer at the cap
    outweighs any total.

    >>> cap_weight(Game.from_spec("mastermind"), 5)
    6481
    """
    return game.n_codes * cap + 1


def _tree_cost(stats, cap, weight) -> int:
    """The cost of a tree of these replay ``stats`` that the search minimised: its
    total, plus ``weight`` per secret found by guess ``cap`` (with a weight)."""
    counts = stats.depth_counts
    at_cap = counts[cap - 1] if weight and len(counts) >= cap else 0
    return stats.total + weight * at_cap


@dataclass(frozen=True)
class CappedCost:
    """A ``fewest-at-worst`` cost as the progress display receives it: the secrets
    found by the cap-th guess and the total, which it prints as people read them,
    kept as numbers for a caller that records them (the optimal table keeps what a
    timed-out entry had proven: ``at_cap`` of the bound and of the best tree).

    The search minimises ``weight * at_cap + total`` with ``total < weight``
    (:func:`cap_weight`), so a bound ``B`` on that cost gives ``at_cap >= B // weight``
    and a tree of cost ``U`` has ``U // weight`` secrets at the cap.

    >>> c = CappedCost.of(3 * 6481 + 5800, 6481)
    >>> c.at_cap, c.total, str(c)
    (3, 5800, '3 at the cap, total 5800')
    """
    at_cap: int
    total: int

    @classmethod
    def of(cls, value: int, weight: int) -> "CappedCost":
        """The cost ``value`` of the search under ``weight``, split."""
        return cls(*divmod(int(value), weight))

    def __str__(self) -> str:
        return f"{self.at_cap} at the cap, total {self.total}"


#: The objectives whose value is a total, which a :class:`LowerBound` may bound.
FLOOR_OBJECTIVES = ("expected", "worst-then-expected")


@dataclass(frozen=True)
class LowerBound:
    """A lower bound on the optimal total proven elsewhere, and where it comes from.

    The search (``expected``, ``worst-then-expected``) stops as soon as it holds a
    tree whose total meets it: no tree can do better, so that tree is optimal and
    the rivals left need not be searched. The case it is made for is the capped
    optimum: a tree within ``t*`` guesses is a tree, so its total is at least the
    optimum without the cap, and a capped search that finds a tree of that total
    (p4c9nb with consistent guesses: 24220, the uncapped optimum, within 10 guesses
    below 1234 2345) is done, where proving its part's other second guesses no
    better would take hours.

    The answer is only as sound as the bound: a ``value`` above the true optimum
    would stop the search early on a tree that is not optimal, so ``source`` says
    where it was proven and goes into the proof lines; a tree *below* the value
    shows it wrong, and the search refuses it (:class:`~optimal_mm.errors.FloorError`).

    ``first`` and ``parts`` (:meth:`from_tree`) bound each part below a first guess
    too: ``(answer, least cost, guess)``, the part's optimum without the cap and the
    guess that attains it; ``subtrees``, the tree below, bounds every position on
    its path (:meth:`at`). Where the search's first guess is ``first``, a big part
    starts from that guess and its race stops once it meets its own floor, whatever
    the others do; a part whose subtree keeps to the cap takes it unsearched, and so
    on down the path (:meth:`Solver._floor_of`). p4c8nb's total within 9 with any
    guesses: 2.7 s from nothing, its 1,001-secret part's subtree within the cap; its
    536-secret part's optimum under the cap is the uncapped tree's 1356, the 18th
    second guess in the search's own order.

    >>> LowerBound(24220, "the optimum without the cap").value
    24220
    """
    value: int
    source: str = "given by the caller"
    first: str | None = None
    parts: tuple = ()
    #: Each part's subtree in the tree (:meth:`from_tree`), in the order of ``parts``
    subtrees: tuple = field(default=(), compare=False, repr=False)

    def __post_init__(self):
        if isinstance(self.value, bool) or not isinstance(self.value, (int, np.integer)) \
                or self.value < 0:
            raise InvalidOptionError(f"a lower bound must be a whole number of guesses "
                                     f"of 0 or more, got {self.value!r}")
        object.__setattr__(self, "value", int(self.value))

    @classmethod
    def from_tree(cls, strategy: Strategy, source: str, game: Game | None = None,
                  guesses: str | None = None) -> "LowerBound":
        """The bounds that an optimal tree without a cap proves: its total, and each
        part below its first guess at its subtree's cost (a subtree of an optimal
        tree is optimal for its part, else the whole would do better), with the
        subtree's guess. The tree is replayed for every secret first; that it is
        optimal is the caller's word, named by ``source``. Given the ``game`` and
        ``guesses`` of the search it is to bound, the tree must say that it is an
        optimal expected-case tree of that game without a cap, of any guesses or of
        that rule (the optimum of any guesses bounds the consistent one).

        >>> from optimal_mm import Game
        >>> tree = solve(Game.from_spec("p2c3"), "expected", jobs=1).strategy
        >>> bound = LowerBound.from_tree(tree, "p2c3's optimal tree")
        >>> bound.value, bound.first, bound.parts[:2]
        (21, '12', (('0B0W', 1, '33'), ('0B1W', 3, '23')))
        """
        if game is not None:
            _check_floor_tree(strategy, game, guesses)
        total = strategy.validate().total
        game, root = strategy.game, strategy.root
        costs: dict[str, int] = {}
        for s in range(game.n_codes):
            path = strategy.path_for(game.code_str(s))
            if len(path) > 1:
                answer = game.answer_str(game.score(root.guess, game.code_str(s)))
                costs[answer] = costs.get(answer, 0) + len(path) - 1
        parts = tuple((a, cost, root.next[a].guess) for a, cost in sorted(costs.items()))
        subtrees = tuple(root.next[a] for a, _, _ in parts)
        return cls(total, source, root.guess, parts, subtrees)

    def at(self, game: Game, history, secret: int):
        """``(cost, guess, node)`` of the position after the guesses ``history``
        (indices) that ``secret`` (an index, not yet found) answered, or None where
        this bound's tree did not play those guesses. Below the first guess,
        ``cost`` is the part's as ``parts`` gives it; deeper, None (the caller
        walks ``node``, the subtree, for it: :meth:`Solver._floor_of`). ``guess``:
        the tree's next guess (index); ``node``: None for a bound without its tree.

        >>> from optimal_mm import Game
        >>> game = Game.from_spec("p2c3")
        >>> bound = LowerBound.from_tree(solve(game, "expected", jobs=1).strategy, "p2c3")
        >>> first, secret = game.code_index("12"), game.code_index("33")
        >>> cost, guess, node = bound.at(game, (first,), secret)
        >>> cost, game.code_str(guess), node.guess
        (1, '33', '33')
        >>> bound.at(game, (game.code_index("13"),), 0) is None  # another first guess
        True
        """
        if self.first is None or not history or game.code_index(self.first) != history[0]:
            return None
        code = game.code_str(secret)
        answer = game.answer_str(game.score(self.first, code))
        found = next((k for k, (a, _, _) in enumerate(self.parts) if a == answer), None)
        if found is None:
            return None
        _, cost, guess = self.parts[found]
        node = self.subtrees[found] if self.subtrees else None
        for h in history[1:]:
            if node is None or game.code_index(node.guess) != h:
                return None
            node = node.next.get(game.answer_str(game.score(node.guess, code)))
            cost = None
            if node is None:
                return None
            guess = node.guess
        return cost, game.code_index(guess), node


class PartFloor(NamedTuple):
    """What a :class:`LowerBound`'s tree says of a part on its path (the secrets left
    after guesses it played: :meth:`Solver._floor_of`): the part's least ``cost``
    (guesses from there on, summed over its secrets), the ``guess`` (index) that
    attains it without a cap, and ``tree``: the subtree as the search's own tree
    where it keeps to the search's cap and guess rule (then it *is* an optimal tree
    of the part under them, and the part needs no search), else None."""
    cost: int
    guess: int
    tree: "tuple | None" = None


def _cost_text(value, weight) -> str:
    """A cost as people read it: the total, or the secrets at the cap and the total.

    >>> _cost_text(5625, 0), _cost_text(3 * 6481 + 5800, 6481)
    ('total 5625', '3 at the cap, total 5800')
    """
    if not weight or value >= INF:
        return f"total {value}"
    return str(CappedCost.of(value, weight))


def _check_floor_tree(strategy: Strategy, game: Game, guesses: str | None) -> None:
    """Refuse a tree whose totals do not bound a search of ``game`` under the guess
    rule ``guesses`` from below (:meth:`LowerBound.from_tree`)."""
    problem = None
    if strategy.game.spec != game.spec or strategy.game.alphabet != game.alphabet:
        problem = f"is a tree of {strategy.game.spec}, not {game.spec}"
    elif strategy.objective != "expected" or strategy.max_guesses is not None:
        cap = "" if strategy.max_guesses is None else f" within {strategy.max_guesses}"
        problem = (f"was built for {strategy.objective}{cap}, not for the expected case "
                   f"without a cap")
    elif not strategy.optimal:
        problem = "is not marked optimal"
    elif strategy.guesses not in ("any", guesses):
        problem = f"is a tree of {strategy.guesses} guesses, not of any or {guesses}"
    if problem is not None:
        raise InvalidOptionError(f"the lower-bound tree {problem}")


def _check_tree_floor(floor: "LowerBound", total: int, first: str) -> None:
    """Refuse a lower bound that a tree the search built beats."""
    if total < floor.value:
        raise FloorError(f"the lower bound {floor.value} ({floor.source}) is wrong: first "
                         f"guess {first} has a tree of total {total}")


def check_floor(objective, floor) -> "LowerBound | None":
    """Refuse a lower bound where the objective's value is not a total; a bare
    number is taken as one given by the caller."""
    if floor is None:
        return None
    if objective not in FLOOR_OBJECTIVES:
        raise InvalidOptionError(f"a lower bound on the total applies to "
                                 f"{' and '.join(FLOOR_OBJECTIVES)}, not {objective}")
    return floor if isinstance(floor, LowerBound) else LowerBound(floor)


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
          **options) -> Solution:
    """Solve ``game`` (a :class:`Game` or a spec) exactly for ``objective``.

    Every argument is checked before anything is built: see :class:`Solver` for the
    options; a bad value raises an :class:`~optimal_mm.errors.OptimalMMError`
    quoting it, and caps above 64 are clamped (:func:`check_max_guesses`).
    ``floor``, for the totals (:data:`FLOOR_OBJECTIVES`), is a lower bound proven
    elsewhere (:class:`LowerBound`) that ends the search once its tree meets it.

    >>> sol = solve(Game.from_spec("p2c3"), "expected", jobs=1)
    >>> sol.value, sol.strategy.validate().max
    (21, 3)
    """
    max_guesses = _check_request(objective, max_guesses)
    floor = check_floor(objective, floor)
    return Solver(game, guesses, **options).solve(objective, max_guesses, floor)


def worst_case_order(game: Game, guesses, secrets, lb_next) -> np.ndarray:
    """``guesses`` at the node of ``secrets`` in the order the compiled worst-case
    search tries them: least largest part, then least sum of squared part sizes, then
    guesses that may be the secret, then their order in ``guesses``; those that tell
    nothing or leave a part beyond ``lb_next`` (the counting bound of the guesses left
    after them: ``INF`` where a part of that size cannot be solved) left out.

    >>> game = Game.from_spec("p2c3")
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


def subtree_within(game: Game, secrets, d: int, consistent: bool = False,
                   table_entries: int = DEFAULT_TABLE_ENTRIES, wc_tree: str = "small-total"):
    """``(guess, {answer: subtree})`` finding each of ``secrets`` within ``d`` guesses,
    or ``None`` when no such subtree exists: the worst-case search decides, exactly;
    the subtree picks its guesses by the tree rule ``wc_tree`` (:data:`WC_TREE_RULES`,
    :meth:`_Context.wc_guess`).

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
