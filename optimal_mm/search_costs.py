"""What the capped searches minimise, and lower bounds proven elsewhere.

``fewest-at-worst`` minimises a lexicographic cost: the total plus
:func:`cap_weight` for each secret that needs all the cap's guesses
(:class:`CappedCost` splits it back). ``expected`` and ``worst-then-expected`` may be
given a :class:`LowerBound` on their total (the optimum without the cap, with its
tree), which ends the search as soon as its tree meets it and bounds each part on
the tree's path (:class:`PartFloor`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ._search_arrays import INF
from .errors import FloorError, InvalidOptionError, InvalidTreeError
from .game import Game
from .tree import Strategy


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
    on down the path (:meth:`Solver.floor_of`). p4c8nb's total within 9 with any
    guesses: 2.7 s from nothing, its 1,001-secret part's subtree within the cap; its
    536-secret part's optimum under the cap is the uncapped tree's 1356, the 18th
    second guess in the search's own order.

    ``checkpoint``, the checkpoint directory of the search of the same game and guess
    rule without the cap, bounds each rival guess of a capped search (weight 0) from
    below: the same rival without the cap costs no more, so one that the search
    without the cap found to cost at least the capped budget (its exact total, or
    "not below" a budget as high) is not better here, unsearched
    (:func:`~optimal_mm.search_tasks._guess_below`). p6c7n's part of 1,590 secrets
    within 7 guesses races its rivals against 7890, one more than without the cap: 8
    of its 28 rivals were refuted there against 7902 or more, 4.8 of the race's 8.9
    hours, and a ninth, 124367, was solved there by its parts, 7911.

    >>> LowerBound(24220, "the optimum without the cap").value
    24220
    """
    value: int
    source: str = "given by the caller"
    first: str | None = None
    parts: tuple = ()
    #: Each part's subtree in the tree (:meth:`from_tree`), in the order of ``parts``
    subtrees: tuple = field(default=(), compare=False, repr=False)
    checkpoint: str | None = None

    def __post_init__(self):
        if isinstance(self.value, bool) or not isinstance(self.value, (int, np.integer)) \
                or self.value < 0:
            raise InvalidOptionError(f"a lower bound must be a whole number of guesses "
                                     f"of 0 or more, got {self.value!r}")
        object.__setattr__(self, "value", int(self.value))
        if self.checkpoint is not None and not Path(self.checkpoint).is_dir():
            raise InvalidOptionError(f"the checkpoint of the search without the cap, "
                                     f"{str(self.checkpoint)!r}, is not a directory")

    @classmethod
    def from_tree(cls, strategy: Strategy, source: str, game: Game | None = None,
                  guesses: str | None = None, checkpoint: str | None = None) -> "LowerBound":
        """The bounds that an optimal tree without a cap proves: its total, and each
        part below its first guess at its subtree's cost (a subtree of an optimal
        tree is optimal for its part, else the whole would do better), with the
        subtree's guess. The tree is replayed for every secret first; that it is
        optimal is the caller's word, named by ``source``. Given the ``game`` and
        ``guesses`` of the search it is to bound, the tree must say that it is an
        optimal expected-case tree of that game without a cap, of any guesses or of
        that rule (the optimum of any guesses bounds the consistent one).
        ``checkpoint``: that search's checkpoint directory (the class's
        ``checkpoint``).

        >>> from optimal_mm import Game
        >>> from optimal_mm.search import solve
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
        return cls(total, source, root.guess, parts, subtrees, checkpoint)

    def at(self, game: Game, history, secret: int):
        """``(cost, guess, node)`` of the position after the guesses ``history``
        (indices) that ``secret`` (an index, not yet found) answered, or None where
        this bound's tree did not play those guesses. Below the first guess,
        ``cost`` is the part's as ``parts`` gives it; deeper, None (the caller
        walks ``node``, the subtree, for it: :meth:`Solver.floor_of`). ``guess``:
        the tree's next guess (index); ``node``: None for a bound without its tree.

        >>> from optimal_mm import Game
        >>> from optimal_mm.search import solve
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
    after guesses it played: :meth:`Solver.floor_of`): the part's least ``cost``
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


#: The objectives whose search keeps a best tree so far, which an :class:`UpperBound`
#: may start (a worst-case search's first tree within ``t`` is its answer).
CEILING_OBJECTIVES = ("expected", "worst-then-expected", "fewest-at-worst")


@dataclass(frozen=True)
class UpperBound:
    """A complete tree known before the search, and where it comes from: the best
    tree so far until the search builds a better one.

    The expected-type searches (:data:`CEILING_OBJECTIVES`) report a best tree only
    once their first batch has a complete one, and under a cap they may go long
    without: a part split by its own guesses whose first guess keeps no tree within
    the guesses left has none until its race finds one (p6c7nb's fewest at 8 and
    p5c6b's total within 9 ran for 20 and 15 minutes and reported none). A tree
    known from elsewhere, an earlier run's best so far or a tree within ``t*``
    guesses (the worst case's, :mod:`optimal_mm.within`'s), bounds the optimum all
    the same: given as this, it is the search's best so far from the start
    (:meth:`~optimal_mm.search.Solver.best_so_far`, the progress display's best,
    the optimal table's ``≤``) until a tree of the search's own costs less.

    It only reports: no budget and no task changes, so a checkpoint is shared with
    the runs without it, and the search proves its optimum as it would alone. That
    optimum is at most the tree's cost, an invariant the search checks.

    >>> from optimal_mm.search import solve
    >>> tree = solve(Game.from_spec("p2c3"), "worst-case", jobs=1).strategy
    >>> UpperBound(tree, "p2c3's worst-case tree").fitted(
    ...     Game.from_spec("p2c3"), "any", "expected", 3).declared.max
    3
    """
    tree: Strategy
    source: str = "given by the caller"

    def fitted(self, game: Game, guesses: str, objective: str,
               cap: int | None) -> Strategy:
        """The tree as a strategy of the search it bounds (``game``, guess rule
        ``guesses``, ``objective``'s label, ``cap``), replayed for every secret under
        that rule and cap, ``optimal`` false; refused (InvalidOptionError, naming
        ``source``) if it is another game's, breaks the rule or needs more guesses."""
        tree = self.tree
        problem = None
        if tree.game.spec != game.spec or tree.game.alphabet != game.alphabet:
            problem = f"is a tree of {tree.game.spec}, not {game.spec}"
        else:
            fitted = Strategy(game, tree.root, guesses, objective, None, False,
                              meta={"upper_bound": f"a tree given to the search "
                                                   f"({self.source}): its best so far, "
                                                   f"not proven optimal"})
            try:
                fitted.declared = fitted.validate()
            except InvalidTreeError as exc:
                problem = f"fails replay under {guesses} guesses: {exc}"
            else:
                if cap is not None and fitted.declared.max > cap:
                    problem = (f"needs {fitted.declared.max} guesses, over this search's "
                               f"cap of {cap}")
                fitted.max_guesses = cap
        if problem is not None:
            raise InvalidOptionError(f"the upper-bound tree ({self.source}) {problem}")
        return fitted


def _check_ceiling(ceiling, known, value, shown) -> None:
    """Refuse an optimum (``value``; None: no tree within the cap) above the cost
    ``known`` of the :class:`UpperBound` tree given (replayed, so a real tree): the
    search would have missed a tree that costs less, a broken invariant."""
    if ceiling is not None and (value is None or value > known):
        found = "no tree" if value is None else shown(value)
        raise AssertionError(f"the search proved {found}, but the tree given "
                             f"({ceiling.source}) has {shown(known)}")


def check_ceiling(objective, ceiling) -> "UpperBound | None":
    """Refuse an upper-bound tree where the objective's search keeps no best tree;
    a bare :class:`~optimal_mm.tree.Strategy` is taken as one given by the caller."""
    if ceiling is None:
        return None
    if objective not in CEILING_OBJECTIVES:
        raise InvalidOptionError(f"an upper-bound tree applies to "
                                 f"{', '.join(CEILING_OBJECTIVES)}, not {objective}: its "
                                 f"first tree within t guesses is its answer")
    return ceiling if isinstance(ceiling, UpperBound) else UpperBound(ceiling)


def check_floor(objective, floor) -> "LowerBound | None":
    """Refuse a lower bound where the objective's value is not a total; a bare
    number is taken as one given by the caller."""
    if floor is None:
        return None
    if objective not in FLOOR_OBJECTIVES:
        raise InvalidOptionError(f"a lower bound on the total applies to "
                                 f"{' and '.join(FLOOR_OBJECTIVES)}, not {objective}")
    return floor if isinstance(floor, LowerBound) else LowerBound(floor)
