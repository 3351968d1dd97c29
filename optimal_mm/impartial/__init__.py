"""Impartial games solved by Sprague-Grundy values, and played against the computer.

In an impartial game both players have the same moves from every position, so
the game is a graph of positions and moves. Every position has a
Sprague-Grundy value, the least non-negative integer that no move reaches
(:mod:`~optimal_mm.impartial.grundy`); the player to move wins exactly when it
is not 0, by moving to a position of value 0. The value of a sum of games is
the XOR of the values of its parts.

The four games of Jacques Arsac's chapter (*Programming games and puzzles*,
games 16 to 19), each a small rule class found by name
(:func:`find_game`):

* ``subtraction`` (:mod:`~optimal_mm.impartial.subtraction`): take 1 to 6
  matches (or any finite set), ``SG(p) = p mod 7``;
* ``date`` (:mod:`~optimal_mm.impartial.date`): move the date forward by day or
  by month, whoever reaches 31 December wins;
* ``cards`` (:mod:`~optimal_mm.impartial.cards`): take cards 1 to 6 without
  passing a total of 50, with the book's approximate player
  (:mod:`~optimal_mm.impartial.book_cards`);
* ``nim`` (:mod:`~optimal_mm.impartial.nim`): Bouton's XOR rule;

and ``sum`` (:mod:`~optimal_mm.impartial.sums`) for sums of these. Misère
play (the last mover loses) is solved by the same search. Tables
(:mod:`~optimal_mm.impartial.tables`), move-graph and table export
(:mod:`~optimal_mm.impartial.export`) and play against the computer
(:mod:`~optimal_mm.impartial.players`) complete the package. It shares the
project's errors and file writing, not the Mastermind search.

>>> from optimal_mm.impartial import find_game, solve_position
>>> solve_position(find_game("date")).winning_moves
('20.1',)
"""

from .errors import (CyclicGameError, IllegalMoveError, InvalidPositionError,
                     UnknownImpartialGameError)
from .game import GAMES, ImpartialGame, find_game, game_names, register_game
from .grundy import GrundySolver, mex, solver_for
from .solution import PositionSolution, solve_position

__all__ = [
    "CyclicGameError", "GAMES", "GrundySolver", "IllegalMoveError", "ImpartialGame",
    "InvalidPositionError", "PositionSolution", "UnknownImpartialGameError", "find_game",
    "game_names", "mex", "register_game", "solve_position", "solver_for",
]
