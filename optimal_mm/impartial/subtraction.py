"""The subtraction game: one heap, a move takes ``s`` matches for some ``s`` in a set.

The book's game allows taking 1 to 6 matches, and whoever takes the last match
wins; its Sprague-Grundy values are ``SG(p) = p mod 7`` (the heaps that are
multiples of 7 lose for the player to move). Any finite set of moves can be
given, ``--moves 1,3,4`` or ``--moves 1-6``. A position is the number of
matches, written ``37``.

Values of any heap come from the period of the value sequence
(:mod:`optimal_mm.impartial.periodic`), so a heap of a million matches costs
nothing more than a heap of ten; remoteness (for the computer's choice between
moves) is computed upwards from heap 0 into flat arrays, a few bytes per heap.

>>> game = SubtractionGame()
>>> solver = game.solver()
>>> solver.value(37), solver.winning_moves(37)
(2, [35])
>>> SubtractionGame("1,3,4").describe()
'subtraction game: one heap, a move takes 1, 3 or 4 matches; taking the last match wins'
"""

from __future__ import annotations

from array import array

from ..errors import TooLargeError
from .errors import IllegalMoveError, InvalidPositionError
from .game import ImpartialGame, parse_int, parse_int_set, register_game
from .grundy import GrundySolver
from .periodic import EventuallyPeriodic

#: The book's moves: take 1 to 6 matches.
BOOK_MOVES = (1, 2, 3, 4, 5, 6)
#: Largest move accepted (the period search keeps windows of this many values).
MAX_MOVE = 1000
#: Largest heap accepted as a position.
MAX_HEAP = 10**12
#: Largest heap whose remoteness is computed (arrays of about 9 bytes per heap).
MAX_REMOTENESS_HEAP = 10**7
#: The start when no heap is given (the chapter fixes none).
DEFAULT_HEAP = 37


@register_game
class SubtractionGame(ImpartialGame):
    """One heap; a move takes ``s`` matches, ``s`` in :attr:`moves_allowed`.

    Parameters
    ----------
    moves : str or tuple of int, optional
        The set of moves, ``"1,3,4"``, ``"1-6"`` or a tuple; default the book's 1 to 6.
    """

    name = "subtraction"
    aliases = ("matches",)
    options = ("moves",)
    notation = "the number of matches, e.g. 37"
    move_hint = "how many matches you take"

    def __init__(self, moves: "str | tuple[int, ...] | None" = None):
        if moves is None:
            moves = BOOK_MOVES
        elif isinstance(moves, str):
            moves = parse_int_set(moves, f"--moves {moves!r}", MAX_MOVE)
        self.moves_allowed: tuple[int, ...] = tuple(sorted(set(moves)))

    def rules(self) -> dict:
        return {"moves": list(self.moves_allowed)}

    def describe(self) -> str:
        return (f"subtraction game: one heap, a move takes {_say_set(self.moves_allowed)} "
                f"matches; taking the last match wins")

    def parse(self, text: str) -> int:
        return parse_int(text, "a heap (number of matches)", InvalidPositionError, 0, MAX_HEAP)

    def format(self, position: int) -> str:
        return str(position)

    def start(self) -> int:
        return DEFAULT_HEAP

    def moves(self, position: int):
        return [position - s for s in self.moves_allowed if s <= position]

    def parse_move(self, position: int, text: str) -> int:
        """A move is the number of matches taken (``3``)."""
        taken = parse_int(text, "the number of matches to take", IllegalMoveError, 1)
        if taken not in self.moves_allowed:
            raise IllegalMoveError(
                f"you may take {_say_set(self.moves_allowed)} matches, not {text.strip()!r}")
        if taken > position:
            raise IllegalMoveError(f"only {position} matches are left, cannot take {taken}")
        return position - taken

    def describe_move(self, position: int, target: int) -> str:
        taken = position - target
        return f"take {taken} match{'' if taken == 1 else 'es'}, leaving {target}"

    def solver(self, misere: bool = False, use_theorems: bool = True):
        """:class:`SubtractionSolver` (periodic values), or a plain search without theorems."""
        if not use_theorems:
            return GrundySolver(self, misere=misere, use_theorems=False)
        return SubtractionSolver(self, misere=misere)


def _say_set(values) -> str:
    """``1 to 6`` for a run, ``1, 3 or 4`` otherwise."""
    values = list(values)
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} to {values[-1]}"
    if len(values) == 1:
        return str(values[0])
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


class SubtractionSolver:
    """Solver of a subtraction game: values from the period, remoteness from flat arrays.

    Same queries as :class:`~optimal_mm.impartial.grundy.GrundySolver`
    (``value``, ``wins``, ``remoteness``, ``winning_moves``); the tests check
    both against each other.
    """

    def __init__(self, game: SubtractionGame, misere: bool = False):
        self.game = game
        self.misere = misere
        self.sequence = EventuallyPeriodic.of_subtraction(game.moves_allowed,
                                                          terminal=1 if misere else 0)
        self._remoteness = array("q")

    def value(self, position: int) -> int:
        return self.sequence[position]

    def wins(self, position: int) -> bool:
        return self.value(position) != 0

    def winning_moves(self, position: int) -> list[int]:
        return [child for child in self.game.moves(position) if self.value(child) == 0]

    def remoteness(self, position: int) -> int:
        """Remoteness, computed upwards from heap 0 once (time and memory ``O(position)``).

        Raises
        ------
        TooLargeError
            Above :data:`MAX_REMOTENESS_HEAP` matches.
        """
        known = self._remoteness
        if position >= len(known):
            if position > MAX_REMOTENESS_HEAP:
                raise TooLargeError(
                    f"the remoteness of a heap of {position} matches is computed up to "
                    f"{MAX_REMOTENESS_HEAP} matches only")
            # remoteness_from, unrolled: this loop runs once per heap.
            moves, value = self.game.moves_allowed, self.sequence
            smallest = moves[0]
            for n in range(len(known), position + 1):
                if n < smallest:
                    known.append(0)
                elif value[n]:
                    known.append(1 + min(known[n - s] for s in moves
                                         if s <= n and not value[n - s]))
                else:
                    known.append(1 + max(known[n - s] for s in moves if s <= n))
        return known[position]


__all__ = ["SubtractionGame", "SubtractionSolver", "BOOK_MOVES"]
