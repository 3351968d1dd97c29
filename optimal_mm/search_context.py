"""The per-process search context, and the guesses a node tries.

A :class:`_Context` holds what the compiled search (:mod:`optimal_mm._search`, through
:mod:`optimal_mm.kernels`) needs for one game and guess rule: the answer table, the
counting bounds, the transposition tables (allocated on first use) and the game's
symmetry arrays. Each process keeps one (:func:`_context`), so the tasks it runs in
turn share what the search has learnt. Its methods are the search's only calls into
compiled code: the expected case's value and tree (:meth:`_Context.exp`,
:meth:`_Context.exp_tree`), the worst case's decision and tree (:meth:`_Context.wc`,
:meth:`_Context.wc_tree`), and the split of a part by a guess.

The guesses a node tries are one per class of guesses that the renamings fixing the
history and the part map onto each other (:func:`node_guess_classes`,
:func:`first_guess_classes` at the root): every guess of a class splits the part the
same way, so a search that tries one of each loses nothing.
"""

from __future__ import annotations

import numpy as np

from . import kernels, stopping
from ._search_arrays import (NO_CAP, code_masks, colour_swaps, lower_bound_table,
                             new_stats, new_table, position_swaps)
from .errors import InfeasibleError, InvalidOptionError, TooLargeError
from .game import Game
from .symmetry import _code_lookup, orbit_representatives

#: How a worst-case tree picks its guesses once a part is proven feasible
#: (:meth:`_Context.wc_guess`): for a small total (the default), or the search's own
#: first feasible guess (far cheaper on big parts, a larger total).
WC_TREE_RULES = ("small-total", "first")


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
        its guesses left (:func:`~optimal_mm._search_wc.wc_search`, with this context's
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
            The compiled :func:`~optimal_mm._search_wc.wc_pick`: guesses in order of
            their balanced-tree bound on the total, the first feasible one kept. Each
            guess ahead of it must be refuted, and the search that proved ``S``
            feasible never tried most of them: on a big part this costs many times
            the proof (p5c7nb's part of 1,214 secrets within 7 guesses: 48 s to
            decide, more than 8 minutes for its tree).
        ``"first"``
            The guess the search itself keeps: the first, in its order (least
            largest part, ...), whose parts are all feasible within ``d - 1``. The
            node's own candidates (or ``top``, the caller's representatives at the
            root of a task) are passed to :func:`~optimal_mm._search_wc.wc_search` as
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


class ContextsApart:
    """The search contexts of one session's tasks, apart from this process's own: a
    reusable context manager inside which :func:`_context` answers from the
    session's own store (empty at first), as a worker process of the session's own
    would (:class:`~optimal_mm.runner.TaskRunner`'s ``apart``).

    A one-job run with a checkpoint and a silent display computed its tasks in such
    a worker until 2026-12-07 (the "isolated session" of :mod:`optimal_mm.runner`,
    built to answer Ctrl-C before the kernels heard it themselves:
    :mod:`optimal_mm.stopping`; a display that tells time keeps it, to be ticked). Its
    tables then started empty and held the session's tasks alone, not the probes
    of the parent, which rank first guesses in the solver's own context: a result
    that is a bound (a rival refuted under its budget) may depend on what a table
    holds, so a run, the same run stopped and its resumption saved the same
    entries. Computed here, the tasks keep that, without the worker's start (about
    0.3 s a session) and its round trip (about 0.65 ms a task: mastermind's total
    within 5 guesses with chains from 20 secrets, 4,059 tasks, took 8.0 s in a
    worker, 5.4 s here).

    One thread at a time: :func:`_context` is the process's, so another thread
    looking up a context meanwhile would see this store.
    """

    def __init__(self):
        self._store: dict = {}
        self._saved: list = []

    def __enter__(self):
        global _CONTEXTS
        self._saved.append(_CONTEXTS)
        _CONTEXTS = self._store

    def __exit__(self, *exc):
        global _CONTEXTS
        _CONTEXTS = self._saved.pop()


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


class PartGuesses:
    """The root guesses of each of ``parts`` (:func:`_part_guesses`, after the
    guesses ``history``), each found when first asked for (``tops[i]``).

    A rival's probes go through its parts smallest first and stop as soon as their
    bounds refute it (:func:`~optimal_mm.search_tasks._probe_rounds`), so most
    rivals never search their biggest parts: their guesses need not be found. In the
    first 90 s of p4c10nb's consistent expected case, 13 % of the parts were never
    asked for (237,399 found of 273,251), each a renaming group's orbits at a
    history met once (then 150 microseconds; since, :func:`_orbit_guesses_of_part`).

    >>> game = Game.from_spec("p3c3")
    >>> tops = PartGuesses(game, (0,), [np.arange(1, 9), np.arange(9, 27)], False, True)
    >>> len(tops), len(tops._found)
    (2, 0)
    >>> bool(np.array_equal(tops[1], _part_guesses(game, (0,), np.arange(9, 27), False,
    ...                                            True))), sorted(tops._found)
    (True, [1])
    """

    def __init__(self, game, history, parts, consistent, symmetry):
        self._args = (game, tuple(int(h) for h in history), consistent, symmetry)
        self._parts = parts
        self._found = {}

    def __len__(self) -> int:
        return len(self._parts)

    def __getitem__(self, i):
        top = self._found.get(i)
        if top is None and i not in self._found:
            game, history, consistent, symmetry = self._args
            top = self._found[i] = _part_guesses(game, history, self._parts[i], consistent,
                                                 symmetry)
        return top


def _orbit_guesses_of_part(game, history, part, consistent):
    """:func:`_part_guesses` with symmetry, computed.

    With consistent guesses the candidates are the part's secrets, which hold no
    dead colour (a played colour no secret has): a swap of dead colours fixes each
    of them, and as the part is invariant under the whole group (its secrets are
    those that answer the history so), the group's orbits on it are those of the
    renamings that fix the history alone. The dead colours are then left out, so
    that the parts below one guess share one group
    (:func:`~optimal_mm.symmetry._state_labels` keeps it) where each part's dead
    colours made a group of its own: p4c10nb's consistent chains spent 31 % of their
    processor time here, 120,470 calls in their first minute, each at a history met
    for a few parts."""
    reps = orbit_representatives(game, list(history), secrets=None if consistent else part,
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


def beyond_depth(game: Game, why: str) -> TooLargeError:
    """The error of a game whose trees need more guesses than the search's tables
    go deep (:data:`NO_CAP`, 64): a game of one peg and 65 colours or more, whose
    answers only say right or wrong. ``why`` says how that is known."""
    return TooLargeError(f"{game.name} needs more than {NO_CAP} guesses ({why}): beyond "
                         f"the {NO_CAP} levels of the exact search")


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


def check_wc_tree(rule) -> None:
    """:class:`InvalidOptionError` unless ``rule`` is one of :data:`WC_TREE_RULES`."""
    if rule not in WC_TREE_RULES:
        raise InvalidOptionError(f"wc_tree must be one of {', '.join(WC_TREE_RULES)}, "
                                 f"got {rule!r}")
