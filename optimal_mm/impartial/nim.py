"""Nim: any number of heaps; a move takes any positive number of matches from one heap.

A position is the tuple of heap sizes, written ``3,4,5``. A single heap of
``n`` matches has value ``n`` (every smaller heap is one move away). Bouton's
theorem (1902), which the book reaches by looking at the binary digits of the
heaps, says a position loses for the player to move exactly when every binary
digit has an even number of ones among the heaps: when the XOR of the heaps is
0. More generally its value *is* that XOR (the Sprague-Grundy theorem for the
sum of single heaps); :meth:`NimGame.theorem_value` uses it, and the tests
check it against the plain search.

Heaps in another order play alike, so the solver stores positions under the
sorted heaps without the empty ones (:meth:`NimGame.key`), while moves keep
the heaps in the order the player wrote them.

>>> game = NimGame()
>>> game.theorem_value(game.parse("3,4,5"), None)
2
>>> [game.format(p) for p in game.moves(game.parse("1,2"))]
['0,2', '1,0', '1,1']
"""

from __future__ import annotations

from functools import reduce
from operator import xor

from .errors import InvalidPositionError
from .game import ImpartialGame, parse_int, register_game

#: At most this many heaps, each of at most :data:`MAX_NIM_HEAP` matches (a position
#: has up to their product of moves, listed one by one for its winning moves).
MAX_HEAPS = 32
MAX_NIM_HEAP = 100_000
#: The start when no position is given.
DEFAULT_HEAPS = (3, 4, 5)


@register_game
class NimGame(ImpartialGame):
    """Heaps as a tuple of ints; take any positive number from one heap."""

    name = "nim"
    notation = "heap sizes separated by commas, e.g. 3,4,5"
    move_hint = "the heaps after your move, e.g. 3,4,1"

    def describe(self) -> str:
        return "nim: a move takes any positive number of matches from one heap; " \
               "taking the last match wins"

    def parse(self, text: str) -> tuple[int, ...]:
        parts = str(text).split(",")
        if len(parts) > MAX_HEAPS:
            raise InvalidPositionError(f"at most {MAX_HEAPS} heaps, got {len(parts)} in {text!r}")
        return tuple(parse_int(part, f"every heap of {text!r}", InvalidPositionError, 0,
                               MAX_NIM_HEAP) for part in parts)

    def format(self, position: tuple[int, ...]) -> str:
        return ",".join(map(str, position))

    def start(self) -> tuple[int, ...]:
        return DEFAULT_HEAPS

    def moves(self, position: tuple[int, ...]):
        # A generator: a position of big heaps has many moves, and most callers stop early.
        return (position[:i] + (smaller,) + position[i + 1:]
                for i, heap in enumerate(position) for smaller in range(heap))

    def key(self, position: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(heap for heap in position if heap))

    def theorem_value(self, position: tuple[int, ...], value_of) -> int:
        """The XOR of the heaps (Bouton; Sprague-Grundy)."""
        return reduce(xor, position, 0)

    @staticmethod
    def misere_wins_by_rule(position: tuple[int, ...]) -> bool:
        """Bouton's misère rule: while some heap has 2 or more, the player to move wins
        exactly as in normal Nim (XOR not 0); with heaps of 0 and 1 only, exactly when
        the number of ones is even. (Misère play is solved by search; the tests check
        this rule against it.)

        >>> NimGame.misere_wins_by_rule((1, 1, 1)), NimGame.misere_wins_by_rule((1, 1))
        (False, True)
        """
        if max(position, default=0) >= 2:
            return reduce(xor, position, 0) != 0
        return sum(position) % 2 == 0

    def why_illegal(self, position, target) -> str:
        if len(target) != len(position):
            return f": keep {len(position)} heaps (write an empty heap as 0)"
        changed = [i for i, (a, b) in enumerate(zip(position, target)) if a != b]
        if not changed:
            return ": a move must take at least one match"
        if len(changed) > 1:
            return ": take from one heap only"
        return ": heaps only shrink"
