"""A strategy within a given number of guesses, found by a bounded search.

Why
    The exact worst-case search (:mod:`optimal_mm.search`) decides whether ``D``
    guesses suffice. To say no it must refute every guess at every node; to say yes
    it needs a single tree, but it looks for one in the same exhaustive way, and on
    the largest black-only games a first wrong second guess can keep it busy for
    hours before the right one is tried. Once the search has refuted ``D - 1`` (so
    that ``t* >= D`` is proven), any tree of ``D`` guesses settles ``t* = D``. This
    module looks for such a tree, giving up exhaustiveness where the parts are big.

How
    At a node of more than ``exact`` secrets with ``d`` guesses left, one guess per
    symmetry class of the node (:func:`~optimal_mm.search.node_guess_classes`, the
    classes the exact search tries there) is ranked by the exact search's own
    order: the size of its largest part, then the sum of squared part sizes, then
    whether it may be the secret, then index; guesses
    that leave a part too big for ``d - 1`` guesses by the counting bound are left
    out. The first ``breadth`` guesses are tried in turn, each solving its parts
    recursively, largest first (the largest is the likeliest to fail, and fails
    soonest); the first guess whose parts all succeed is kept. A node of at most
    ``exact`` secrets is decided by the exact worst-case search
    (:func:`optimal_mm.search.subtree_within`), which finds a subtree whenever one
    exists. So the search is exact below ``exact`` secrets and a beam of width
    ``breadth`` above: a tree it finds is a proof that ``D`` guesses suffice, and
    "none found" proves nothing.

What it gives
    A :class:`~optimal_mm.tree.Strategy` (objective ``worst-case``, capped at ``D``,
    ``optimal`` false: the depth is an upper bound on ``t*``, optimal only when a
    lower bound meets it), validated by replaying every secret, or ``None``.

>>> from optimal_mm.game import Game
>>> tree = find_within(Game.from_spec("p3c5b"), 7, exact=20)
>>> tree.stats().max <= 7, find_within(Game.from_spec("p3c5b"), 6, exact=20)
(True, None)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from . import __version__
from ._search_arrays import INF, NO_CAP, lower_bound_table
from .errors import InvalidOptionError
from .game import Game
from .search import (DEFAULT_TABLE_ENTRIES, check_feasible, check_wc_tree, node_guess_classes,
                     subtree_within, worst_case_order)
from .tree import Node, Strategy
from .wording import plural

#: Nodes of at most this many secrets are decided by the exact search by default.
EXACT_SECRETS = 150
#: Guesses tried by default at a node above that size.
BREADTH = 3


@dataclass
class WithinStats:
    """What a :func:`find_within` run did: nodes decided exactly (and how many of
    them had no subtree), nodes searched by the beam, guesses tried there."""
    exact: int = 0
    exact_failed: int = 0
    beam: int = 0
    tried: int = 0

    def proof(self, game: Game, exact: int) -> str | None:
        """Why no tree exists, where a run that found none proved it, else None (the
        beam left guesses out: that proves nothing). The root was cut by the counting
        bound (nothing searched), or decided by the exact search (no beam node), or
        the beam ranked every first guess and the counting bound kept none."""
        if self.beam == 0 and self.exact == 0:
            return (f"the counting bound: {game.n_codes} secrets, "
                    f"{len(game.possible_answers)} answers")
        if self.beam == 0:
            return (f"the exact search decided the whole game: {game.n_codes} secrets, at "
                    f"most --exact {exact}")
        if self.beam == 1 and self.tried == 0:
            return "the counting bound cuts every first guess"
        return None

    def __str__(self) -> str:
        return (f"{plural(self.beam, 'node')} by the beam "
                f"({plural(self.tried, 'guess')} tried), "
                f"{self.exact} decided exactly ({self.exact_failed} without a subtree)")


def check_within_options(depth, breadth, exact) -> None:
    """One-line errors for options out of range. The depth, like ``solve
    --max-guesses`` (:func:`~optimal_mm.search.check_max_guesses`), is at most 63:
    the search's tables have 64 levels, the last of which stands for no cap."""
    for name, value, least in (("depth", depth, 1), ("breadth", breadth, 1),
                               ("exact", exact, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
            raise InvalidOptionError(f"{name} must be an integer of at least {least}, "
                                     f"got {value!r}")
    if depth >= NO_CAP:
        raise InvalidOptionError(f"depth must be at most {NO_CAP - 1}, the deepest the exact "
                                 f"search takes, got {depth}")


class _Beam:
    """One run of the search: the game, its options, the counting bound, statistics."""

    def __init__(self, game: Game, consistent: bool, breadth: int, exact: int,
                 table_entries: int, report, wc_tree: str):
        self.game = game
        self.consistent = consistent
        self.breadth = breadth
        self.exact = exact
        self.table_entries = table_entries
        self.report = report
        self.wc_tree = wc_tree
        self.lb = lower_bound_table(game.n_codes, max(len(game.possible_answers) - 1, 1))
        self.table = game.answer_table(limit_bytes=game.table_bytes())
        self.stats = WithinStats()

    def ranked(self, history: tuple, secrets: np.ndarray, d: int) -> np.ndarray:
        """The guesses worth trying at this node, best first (module docstring)."""
        reps = node_guess_classes(self.game, history, secrets, self.consistent)
        return worst_case_order(self.game, reps, secrets, self.lb[d - 1])

    def split(self, g: int, secrets: np.ndarray) -> list:
        answers = self.table[g, secrets]
        return [(int(a), secrets[answers == a]) for a in np.unique(answers)
                if a != self.game.win]

    def solve(self, history: tuple, secrets: np.ndarray, d: int):
        """``(guess, {answer: subtree})`` within ``d`` guesses, or None."""
        n = len(secrets)
        if d < 1 or self.lb[d, n] >= INF:
            return None
        if n <= self.exact:
            self.stats.exact += 1
            tree = subtree_within(self.game, secrets, d, self.consistent, self.table_entries,
                                  self.wc_tree)
            self.stats.exact_failed += tree is None
            return tree
        self.stats.beam += 1
        for rank, g in enumerate(self.ranked(history, secrets, d)[:self.breadth]):
            g = int(g)
            self.stats.tried += 1
            parts = sorted(self.split(g, secrets), key=lambda part: -len(part[1]))
            children = {}
            for a, part in parts:
                child = self.solve(history + (g,), part, d - 1)
                if child is None:
                    break
                children[a] = child
            else:
                self._tell(history, n, d, g, rank, "works")
                return g, children
            self._tell(history, n, d, g, rank, "fails")
        return None

    def _tell(self, history: tuple, n: int, d: int, g: int, rank: int, verdict: str) -> None:
        """Report a guess of the first two levels as it works or fails."""
        if len(history) <= 1 and self.report is not None:
            self.report(f"{'  ' * len(history)}{plural(n, 'secret')}, {plural(d, 'guess')} "
                        f"left: {self.game.code_str(g)} (choice {rank + 1}) {verdict}")


def find_within(game: Game, depth: int, breadth: int = BREADTH, exact: int = EXACT_SECRETS,
                guesses: str = "any", table_entries: int = DEFAULT_TABLE_ENTRIES,
                report=None, stats: WithinStats | None = None,
                wc_tree: str = "small-total") -> Strategy | None:
    """A strategy that finds every secret within ``depth`` guesses, or None if the
    bounded search finds none (which proves nothing: module docstring).

    ``breadth``: guesses tried at a node of more than ``exact`` secrets; ``guesses``:
    ``"any"`` or ``"consistent"``; ``report(line)``: told which guess works at the
    top two levels; ``stats``: a :class:`WithinStats` to fill in (as the search goes,
    so that it also tells how far an interrupted one got); ``wc_tree``: how the
    subtree of a node decided exactly picks its guesses
    (:data:`~optimal_mm.search.WC_TREE_RULES`: ``"first"`` skips the search for a
    small total, much the longer part of a big node's work).
    """
    check_within_options(depth, breadth, exact)
    if guesses not in ("any", "consistent"):
        raise InvalidOptionError(f"guesses must be 'any' or 'consistent', got {guesses!r}")
    check_wc_tree(wc_tree)
    game.check_enumerable("search a whole strategy tree for")
    check_feasible(game, None)
    start = time.perf_counter()
    beam = _Beam(game, guesses == "consistent", int(breadth), int(exact), table_entries,
                 report, wc_tree)
    if stats is not None:  # filled in as the search goes: an interrupted run says how far
        beam.stats = stats
    depth = int(depth)
    found = beam.solve((), np.arange(game.n_codes, dtype=np.int64), depth)
    if found is None:
        return None
    keys = [game.answer_str(a) for a in range(game.n_answer_slots)]

    def build(sub):
        g, children = sub
        return Node(game.code_str(g), {keys[a]: build(c) for a, c in sorted(children.items())})

    meta = {"solver": f"optimal_mm {__version__}", "method": "within",
            "breadth": int(breadth), "exact": int(exact), "wc_tree": wc_tree,
            "seconds": round(time.perf_counter() - start, 3)}
    strategy = Strategy(game, build(found), guesses, "worst-case", int(depth), False,
                        meta=meta)
    strategy.declared = strategy.validate()
    return strategy
