"""Players and a game between the computer and a person.

:class:`ExactPlayer` plays perfectly: from a winning position it moves to a
position of value 0, the one that ends the game soonest; from a losing
position it makes the move that keeps the game going longest (greatest
remoteness), hoping for a slip. Ties are broken by the ``random.Random`` it is
given. :class:`BookPlayer` is the book's approximate card player
(:mod:`optimal_mm.impartial.book_cards`).

:class:`Match` holds a game in progress: whose turn it is, the position, the
moves so far; it takes a person's move as text (raising a one-line error for
a malformed or illegal one and leaving the position unchanged) and asks the
computer's player for its move. The command ``impartial play`` only reads and
prints.

>>> import random
>>> from optimal_mm.impartial import find_game
>>> game = find_game("subtraction")
>>> match = Match(game, 10, ExactPlayer(game, rng=random.Random(0)), human_first=True)
>>> match.human_move("3"), match.computer_move()
(7, 3)
>>> match.over, match.winner
(False, None)
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ..errors import InvalidOptionError
from .grundy import solver_for

PLAYERS = ("exact", "book")


class ExactPlayer:
    """Perfect play, from the game's solver.

    Parameters
    ----------
    game : ImpartialGame
    misere : bool
    rng : random.Random, optional
        Breaks ties between equally good moves (default ``random.Random(0)``).
    """

    def __init__(self, game, misere: bool = False, rng: random.Random | None = None, solver=None):
        self.game = game
        self.solver = solver or solver_for(game, misere=misere)
        self.rng = rng or random.Random(0)

    def candidates(self, position: Hashable) -> list:
        """The best moves: quickest wins if any, else the longest resistance."""
        children = list(self.game.moves(position))
        winning = [c for c in children if self.solver.value(c) == 0]
        if len(winning) == 1:
            return winning          # no need to search how long the game lasts
        if winning:
            best = min(self.solver.remoteness(c) for c in winning)
            return [c for c in winning if self.solver.remoteness(c) == best]
        best = max(self.solver.remoteness(c) for c in children)
        return [c for c in children if self.solver.remoteness(c) == best]

    def choose(self, position: Hashable):
        """The position after the player's move (``position`` must have a move)."""
        return self.rng.choice(self.candidates(position))


class BookPlayer:
    """The book's approximate card player as a player (``rng`` unused: it is deterministic)."""

    def __init__(self, game, misere: bool = False, rng: random.Random | None = None):
        from .book_cards import BookCardPlayer
        from .cards import CardGame

        if not isinstance(game, CardGame) or misere:
            raise InvalidOptionError(
                f"--player book is the book's approximate card player (normal play); "
                f"the {game.name} game{' under misère play' if misere else ''} has only "
                f"--player exact")
        self.game = game
        self.book = BookCardPlayer(game)

    def choose(self, position: Hashable):
        return self.book.choose(position)


def make_player(kind: str, game, misere: bool = False, rng: random.Random | None = None):
    """``exact`` or ``book``; :class:`InvalidOptionError` otherwise."""
    if kind == "exact":
        return ExactPlayer(game, misere=misere, rng=rng)
    if kind == "book":
        return BookPlayer(game, misere=misere, rng=rng)
    raise InvalidOptionError(f"unknown player {kind!r}: choose from {', '.join(PLAYERS)}")


class Match:
    """A game between a person and the computer.

    Parameters
    ----------
    game : ImpartialGame
    position : position
        Where the game starts.
    computer : ExactPlayer or BookPlayer
    human_first : bool
    misere : bool
        The player who makes the last move loses.
    """

    def __init__(self, game, position: Hashable, computer, human_first: bool = True,
                 misere: bool = False):
        self.game = game
        self.position = position
        self.computer = computer
        self.misere = misere
        self.to_move = "human" if human_first else "computer"
        self.history: list[tuple[str, Hashable]] = []

    @property
    def over(self) -> bool:
        """No move is left."""
        return next(iter(self.game.moves(self.position)), None) is None

    @property
    def winner(self) -> str | None:
        """``"human"`` or ``"computer"`` once the game is over, else ``None``."""
        if not self.over:
            return None
        if self.misere:
            return self.to_move
        return "computer" if self.to_move == "human" else "human"

    def _played(self, who: str, position: Hashable) -> Hashable:
        self.history.append((who, position))
        self.position = position
        self.to_move = "computer" if who == "human" else "human"
        return position

    def human_move(self, text: str) -> Hashable:
        """Play the person's move ``text``; raises (position unchanged) if it is not legal."""
        if self.to_move != "human" or self.over:
            raise RuntimeError("it is not the person's turn")
        return self._played("human", self.game.parse_move(self.position, text))

    def computer_move(self) -> Hashable:
        """Play the computer's move and return the new position."""
        if self.to_move != "computer" or self.over:
            raise RuntimeError("it is not the computer's turn")
        return self._played("computer", self.computer.choose(self.position))
