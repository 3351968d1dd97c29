"""Sprague-Grundy values by search over a game's move graph.

The *Sprague-Grundy value* (or nim-value) of a position is the least
non-negative integer that is not the value of a position one move away, the
*mex* of the values below it; a position with no move has value 0. The player
to move wins exactly when the value is not 0: from a non-zero position some
move reaches value 0, and from value 0 every move reaches a non-zero value. The
book's chapter builds the table of the subtraction game this way: ``SG(0) = 0``,
``SG(1) = mex{0} = 1``, ..., ``SG(7) = mex{1..6} = 0``.

*Misère play* (the player who makes the last move loses) is solved by the same
search with one change: a position with no move gets value 1 instead of 0
(the player to move there has won, since the opponent moved last). The values
are then the *misère Grundy values*; 0 still means the player to move loses,
but sums no longer add by XOR, so a sum is searched as one game.

:class:`GrundySolver` searches depth first with an explicit stack (a heap of a
million matches is a path a million moves long; no recursion limit applies),
memoises every position under :meth:`~optimal_mm.impartial.game.ImpartialGame.key`,
and reports a cycle in the move graph as
:class:`~optimal_mm.impartial.errors.CyclicGameError` (values exist only on
acyclic graphs). The same pass computes each position's *remoteness*: how many
moves the game lasts when the winner hurries and the loser delays, which is
what a computer that stands to lose plays for.

Cost: time proportional to the moves of the positions reached; memory about
260 bytes kept per position reached, and about 560 at the peak when the whole
search is one path (tracemalloc, subtraction heap of 100,000 searched plainly).

>>> from optimal_mm.impartial import find_game
>>> solver = GrundySolver(find_game("subtraction"))
>>> [solver.value(p) for p in range(10)]
[0, 1, 2, 3, 4, 5, 6, 0, 1, 2]
>>> solver.remoteness(7), solver.remoteness(8)   # 7: lose in 2 moves; 8: win in 3
(2, 3)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from ..errors import TooLargeError
from .errors import CyclicGameError

#: Default cap on the positions one solver stores (a few hundred MB at most).
MAX_POSITIONS = 3_000_000


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not in ``values`` ("minimum excludant").

    >>> mex([1, 2, 3]), mex([0, 2]), mex([])
    (0, 1, 0)
    """
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def remoteness_from(children: list[tuple[int, int]]) -> int:
    """Remoteness of a position from its children's ``(value, remoteness)`` pairs.

    No children: 0. If some child has value 0 (the mover wins), one more than
    the least remoteness among those children (win quickly); otherwise one
    more than the largest remoteness (lose slowly).
    """
    if not children:
        return 0
    winning = [r for v, r in children if v == 0]
    return 1 + (min(winning) if winning else max(r for _, r in children))


class GrundySolver:
    """Values, outcomes and remoteness of positions of ``game``, by memoised search.

    Parameters
    ----------
    game : ImpartialGame
    misere : bool
        Misère play: a position with no move has value 1 (its mover has won).
    use_theorems : bool
        Under normal play, take a position's value from
        :meth:`~optimal_mm.impartial.game.ImpartialGame.theorem_value` when the
        game has one (Nim's XOR, a sum's XOR), instead of searching.
        Remoteness is always searched.
    max_positions : int
        Refuse (:class:`~optimal_mm.errors.TooLargeError`) to store more positions.
    """

    def __init__(self, game, misere: bool = False, use_theorems: bool = True,
                 max_positions: int = MAX_POSITIONS):
        self.game = game
        self.misere = misere
        self.use_theorems = use_theorems and not misere
        self.max_positions = max_positions
        self._solved: dict[Hashable, tuple[int, int]] = {}
        self._part_solvers: dict = {}

    # ------------------------------------------------------------ queries
    def value(self, position: Hashable) -> int:
        """The Sprague-Grundy value (misère value under misère play) of ``position``."""
        if self.use_theorems:
            shortcut = self.game.theorem_value(position, self._part_value)
            if shortcut is not None:
                return shortcut
        return self._solve(position)[0]

    def wins(self, position: Hashable) -> bool:
        """Whether the player to move at ``position`` wins with perfect play."""
        return self.value(position) != 0

    def remoteness(self, position: Hashable) -> int:
        """Moves left with perfect play when the winner hurries and the loser delays."""
        return self._solve(position)[1]

    def winning_moves(self, position: Hashable) -> list:
        """The positions, one move away, of value 0 (empty when the mover loses)."""
        return [child for child in self.game.moves(position) if self.value(child) == 0]

    def positions_stored(self) -> int:
        """How many positions the search has solved so far."""
        return len(self._solved)

    # ------------------------------------------------------------- search
    def _part_value(self, game, position) -> int:
        """Value of a component of a sum, by that component's own solver."""
        solver = self._part_solvers.get(game)
        if solver is None:
            solver = self._part_solvers[game] = solver_for(game, misere=False,
                                                           use_theorems=True)
        return solver.value(position)

    def _solve(self, position: Hashable) -> tuple[int, int]:
        game, solved = self.game, self._solved
        root = game.key(position)
        if root in solved:
            return solved[root]
        terminal = 1 if self.misere else 0
        # Each frame: key, position, iterator over its moves. A key is on the
        # path from the root while its frame is on the stack.
        stack = [(root, position, iter(game.moves(position)))]
        on_path = {root}
        while stack:
            key, pos, pending = stack[-1]
            descended = False
            for child in pending:
                child_key = game.key(child)
                if child_key in solved:
                    continue
                if child_key in on_path:
                    raise CyclicGameError(
                        f"the {game.name} game's move graph has a cycle through "
                        f"{game.format(child)!r}: Sprague-Grundy values need an acyclic graph")
                on_path.add(child_key)
                stack.append((child_key, child, iter(game.moves(child))))
                descended = True
                break
            if descended:
                continue
            stack.pop()
            on_path.discard(key)
            children = [solved[game.key(child)] for child in game.moves(pos)]
            value = mex(v for v, _ in children) if children else terminal
            solved[key] = (value, remoteness_from(children))
            if len(solved) > self.max_positions:
                raise TooLargeError(
                    f"solving {game.format(position)!r} of the {game.name} game needs more "
                    f"than {self.max_positions} positions")
        return solved[root]


def solver_for(game, misere: bool = False, use_theorems: bool = True):
    """The best solver for ``game``: its own (a periodic subtraction game) or a search.

    A game class may define ``solver(misere, use_theorems)``; the others get a
    :class:`GrundySolver`.
    """
    make = getattr(game, "solver", None)
    if make is not None:
        return make(misere=misere, use_theorems=use_theorems)
    return GrundySolver(game, misere=misere, use_theorems=use_theorems)
