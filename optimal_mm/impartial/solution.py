"""The answer to "who wins from here, and how": a position's value and winning moves.

:func:`solve_position` is what ``optimal-mm impartial solve`` prints: the
value of the position, whether the player to move wins, and every winning
move, written as the positions they reach in the game's notation.
:meth:`PositionSolution.to_dict` gives the command's JSON object, with exactly
the keys ``game``, ``position``, ``value``, ``wins`` and ``winning_moves``.

>>> from optimal_mm.impartial import find_game
>>> solve_position(find_game("subtraction"), "37").to_dict()
{'game': 'subtraction', 'position': '37', 'value': 2, 'wins': True, 'winning_moves': ['35']}

A position with no move at all ends the game, and who has won then depends on
the rule of play: in normal play the player to move, having no move, loses; in
misère play the last mover loses, so the player to move has already won. Such a
position has no winning move to list either way, so its JSON reads ``"wins":
false`` or ``"wins": true`` with ``"winning_moves": []``, and the text says that
no move is left rather than describing moves that do not exist.

>>> solve_position(find_game("subtraction"), "0", misere=True).lines()[1]
'no move is left: the player to move wins, having no move (the last mover loses)'
"""

from __future__ import annotations

from dataclasses import dataclass

from .grundy import solver_for


@dataclass(frozen=True)
class PositionSolution:
    """A solved position, everything in the game's notation."""

    game: str
    position: str
    value: int
    wins: bool
    winning_moves: tuple[str, ...]
    misere: bool = False
    #: No move is left: the game is over, and ``wins`` follows from the rule alone.
    terminal: bool = False

    def to_dict(self) -> dict:
        """The JSON object of ``impartial solve --json``."""
        return {"game": self.game, "position": self.position, "value": self.value,
                "wins": self.wins, "winning_moves": list(self.winning_moves)}

    def lines(self) -> list[str]:
        """Plain text for the terminal."""
        kind = "misère value" if self.misere else "Sprague-Grundy value"
        who = "the player to move wins" if self.wins else "the player to move loses"
        out = [f"{self.game} {self.position}: {kind} {self.value}; {who}"]
        if self.winning_moves:
            out.append(f"winning moves ({len(self.winning_moves)}): to "
                       + ", ".join(self.winning_moves))
        elif self.terminal:
            out.append("no move is left: the player to move wins, having no move "
                       "(the last mover loses)" if self.wins
                       else "no move is left: the player to move loses")
        else:
            out.append("no winning move: every move leaves a position of non-zero value")
        return out


def solve_position(game, position=None, misere: bool = False, solver=None) -> PositionSolution:
    """Solve ``position`` (text or a parsed position; ``None``: the game's start).

    Parameters
    ----------
    game : ImpartialGame
    position : str or position, optional
    misere : bool
        The player who makes the last move loses.
    solver : optional
        A solver to reuse (default :func:`~optimal_mm.impartial.grundy.solver_for`).

    Raises
    ------
    InvalidPositionError
        If ``position`` cannot be parsed.
    """
    if position is None:
        position = game.start()
    elif isinstance(position, str):
        position = game.parse(position)
    solver = solver or solver_for(game, misere=misere)
    value = solver.value(position)
    winning = tuple(game.format(p) for p in solver.winning_moves(position))
    # Only a position without a winning move can be one without any move; asking
    # for the first move alone keeps this cheap where moves are generated.
    terminal = not winning and next(iter(game.moves(position)), None) is None
    return PositionSolution(game.name, game.format(position), value, value != 0,
                            winning, misere, terminal)
