"""optimal_mm: exact optimal strategies for Mastermind-family games.

>>> from optimal_mm import Game
>>> Game.from_spec("mastermind").n_codes
1296
"""

__version__ = "0.1.0"

from .errors import (InfeasibleError, InvalidAnswerError, InvalidCodeError, InvalidGameError,
                     InvalidTreeError, OptimalMMError, TooLargeError)

# Game, Node, Stats and Strategy are imported on first use (PEP 562), so that the
# command line starts without numpy and can turn a Ctrl-C during its imports into
# its one-line message (docs/RELIABILITY.md).
_LAZY = {"Game": "game", "Node": "tree", "Stats": "tree", "Strategy": "tree"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Game", "Node", "Stats", "Strategy", "OptimalMMError", "InvalidGameError",
    "InvalidCodeError", "InvalidAnswerError", "InvalidTreeError", "InfeasibleError",
    "TooLargeError", "__version__",
]
