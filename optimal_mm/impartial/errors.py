"""Errors of the impartial games: bad positions, illegal moves, unsolvable graphs.

Each is a small subclass of :class:`~optimal_mm.errors.OptimalMMError` (hence a
:class:`ValueError`) whose message quotes the offending input, so that the
command line prints it on one line, and ``impartial play`` prints it and asks
again.
"""

from __future__ import annotations

from ..errors import InvalidGameError, OptimalMMError


class UnknownImpartialGameError(InvalidGameError):
    """A game name that :func:`optimal_mm.impartial.find_game` does not know."""


class InvalidPositionError(OptimalMMError):
    """A position that cannot be parsed or does not exist (``31.2``, ``7:9,0,0,0,0,0``)."""


class IllegalMoveError(OptimalMMError):
    """A well-formed position or move that the rules do not allow from where the game stands."""


class CyclicGameError(OptimalMMError):
    """A move graph with a cycle: Sprague-Grundy values are defined only on acyclic graphs."""
