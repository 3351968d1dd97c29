"""The book's approximate player for the card game.

The exact values of the card game depend on how many cards of each value are
left, which the book's program does not track. It computes Sprague-Grundy
numbers of the *totals* only, as if the values still available could be taken
without limit: with values ``V`` available, ``SG(50) = 0`` and ``SG(t)`` is
the mex of ``SG(t + v)`` for ``v`` in ``V`` with ``t + v <= 50``. With all six
values these are ``(50 - t) mod 7``, the book's "reach 50 up to a multiple of
7". Once the four aces are gone (its example, total 16) it finds
``SG(50) = SG(49) = 0``, ``SG(48) = SG(47) = 1`` and the zero totals
42, 41, 34, 33, 26, 25, 18, 17.

Its player (:class:`BookCardPlayer`) takes a card that reaches a total of
value 0 when it can (the smallest such card); otherwise it takes the value
with the fewest copies left (the smallest such value on a tie), and it
recomputes the numbers each time a value runs out (each turn, from the values
still available, which is the same thing). ``results/impartial.md`` lists where
this differs from the exact solution.

>>> values = book_values({2, 3, 4, 5, 6})
>>> values[50], values[49], values[48], values[47]
(0, 0, 1, 1)
>>> [t for t in range(50, 16, -1) if values[t] == 0 and t < 49]
[42, 41, 34, 33, 26, 25, 18, 17]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from .cards import LIMIT, VALUES, CardGame
from .grundy import mex


def book_values(available: Iterable[int], limit: int = LIMIT) -> list[int]:
    """The book's ``SG(t)`` for ``t = 0..limit`` when the card values ``available`` may be
    taken without limit on copies."""
    return list(_book_values(tuple(sorted(set(available))), limit))


@lru_cache(maxsize=128)
def _book_values(values_available: tuple[int, ...], limit: int) -> tuple[int, ...]:
    sg = [0] * (limit + 1)
    for total in range(limit, -1, -1):
        sg[total] = mex(sg[total + v] for v in values_available if total + v <= limit)
    return tuple(sg)


def available_values(position) -> list[int]:
    """The card values with at least one copy left."""
    return [v for v in range(1, VALUES + 1) if position[1][v - 1]]


class BookCardPlayer:
    """The book's move choice at a card position (deterministic; ``rng`` is not needed).

    Parameters
    ----------
    game : CardGame
    """

    def __init__(self, game: CardGame):
        if not isinstance(game, CardGame):
            raise TypeError("the book's approximate player plays the card game only")
        self.game = game

    def book_zero_cards(self, position) -> list[int]:
        """The playable cards that reach a total of book value 0."""
        sg = book_values(available_values(position))
        return [v for v in CardGame.playable(position) if sg[position[0] + v] == 0]

    def choose_card(self, position) -> int:
        """The card the book's program takes at ``position`` (which must have a move)."""
        zero = self.book_zero_cards(position)
        if zero:
            return zero[0]
        counts = position[1]
        return min(CardGame.playable(position), key=lambda v: (counts[v - 1], v))

    def choose(self, position):
        """The position after the book's move."""
        return CardGame.take(position, self.choose_card(position))


# ------------------------------------------------------------- comparison
def reachable_positions(game: CardGame, start=None) -> list:
    """Every position reachable from ``start`` (default the game's start), in order of
    total, then counts."""
    start = game.start() if start is None else start
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for position in frontier:
            for child in game.moves(position):
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return sorted(seen)


def play_out(game: CardGame, first, second, start=None) -> tuple[int, list]:
    """Play ``first`` against ``second`` (objects with ``choose(position)``) from ``start``;
    returns the winner (0 for ``first``, 1 for ``second``) and the positions played."""
    position = game.start() if start is None else start
    line = [position]
    players = (first, second)
    turn = 0
    while game.playable(position):
        position = players[turn].choose(position)
        line.append(position)
        turn = 1 - turn
    return 1 - turn, line


@dataclass(frozen=True)
class BookComparison:
    """Where the book's approximate player and its values differ from the exact solution,
    over every position reachable from the start.

    Attributes
    ----------
    positions : int
        Positions reachable from the start (the start and the end included).
    won_positions : int
        Non-final positions from which the player to move wins with perfect play.
    book_misses : tuple
        Won positions where the book's move hands a won position to the opponent.
    value_disagreements : int
        Positions where the book's value of the total (from the values left) is 0
        and the exact value is not, or the reverse.
    """

    positions: int
    won_positions: int
    book_misses: tuple
    value_disagreements: int


def compare_with_exact(game: CardGame, solver) -> BookComparison:
    """Compare :class:`BookCardPlayer` and :func:`book_values` with ``solver`` (exact)."""
    book = BookCardPlayer(game)
    won = 0
    misses, disagreements = [], 0
    positions = reachable_positions(game)
    for position in positions:
        total = position[0]
        exact_zero = solver.value(position) == 0
        if (book_values(available_values(position))[total] == 0) != exact_zero:
            disagreements += 1
        if exact_zero or not game.playable(position):
            continue
        won += 1
        if solver.value(book.choose(position)) != 0:
            misses.append(position)
    return BookComparison(len(positions), won, tuple(misses), disagreements)
