"""optimal_mm: exact optimal strategies for Mastermind-family games.

>>> from optimal_mm import Game
>>> Game.from_spec("mastermind").n_codes
1296
"""

__version__ = "0.1.0"

from .errors import (InfeasibleError, InvalidAnswerError, InvalidCodeError, InvalidGameError,
                     InvalidTreeError, OptimalMMError, TooLargeError)
from .game import Game
from .tree import Node, Stats, Strategy

__all__ = [
    "Game", "Node", "Stats", "Strategy", "OptimalMMError", "InvalidGameError",
    "InvalidCodeError", "InvalidAnswerError", "InvalidTreeError", "InfeasibleError",
    "TooLargeError", "__version__",
]
