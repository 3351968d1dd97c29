"""Strategies of the theory for black-peg games far too big to enumerate.

Seed 004 (D. Pawlik and A. Zablocki, "Rozwazmy Masterminda", a Polish survey)
explains two: two-colour black-peg Mastermind is coin weighing (about
``2n / log2 n`` questions, :mod:`.coin_weighing` over the explicit matrices of
:mod:`.weighing`), and ``n`` pegs with ``n`` colours is solved block by block in
``O(n log log n)`` questions (:mod:`.blocks`). Codes are numpy arrays of colour
numbers; answers are counted by :mod:`.oracle`; :func:`.strategy.play` drives a
strategy against any answer source, and :class:`.strategy.LargeCodebreaker`
holds a game against a person, refusing answers that contradict the others.
Nothing here enumerates codes.

>>> sorted(STRATEGIES)
['blocks', 'coin-weighing']
"""

from __future__ import annotations

from ..errors import UnknownHeuristicError
from .blocks import Blocks
from .coin_weighing import CoinWeighing
from .oracle import BlackPegOracle, black_pegs
from .strategy import LargeCodebreaker, LargeStrategy, Playthrough, play

#: The large-n strategies by name (the names ``--heuristic`` takes).
STRATEGIES: dict[str, type[LargeStrategy]] = {s.name: s for s in (CoinWeighing, Blocks)}

__all__ = ["STRATEGIES", "BlackPegOracle", "Blocks", "CoinWeighing", "LargeCodebreaker",
           "LargeStrategy", "Playthrough", "black_pegs", "default_strategy", "play",
           "strategy_for"]


def strategy_for(name: str, pegs: int, colours: int, repeats: bool = True,
                 black_only: bool = True) -> LargeStrategy:
    """The strategy ``name`` set up for a game, or an error saying why it cannot play it.

    >>> strategy_for("coin-weighing", 1024, 2).pegs
    1024
    >>> strategy_for("coin-weighing", 8, 8)
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidGameError: --heuristic coin-weighing plays only two-colour black-peg games with repeats (pNc2b)
    """  # noqa: E501 (a doctest's output line)
    cls = STRATEGIES.get(name)
    if cls is None:
        raise UnknownHeuristicError(f"unknown large-game strategy {name!r}: choose one of "
                                    f"{', '.join(STRATEGIES)}")
    cls.check(pegs, colours, repeats, black_only)
    return cls(pegs, colours)


def default_strategy(pegs: int, colours: int, repeats: bool = True,
                     black_only: bool = True) -> str | None:
    """The strategy that plays a game too big to list its codes, when one is made for it.

    Coin weighing for two colours, blocks for as many colours as pegs (both black
    pegs only, with repeats); None otherwise (such games get the consistent-guess
    player of :mod:`optimal_mm.consistent`).

    >>> (default_strategy(1024, 2), default_strategy(256, 256),
    ...  default_strategy(12, 12, black_only=False))
    ('coin-weighing', 'blocks', None)
    """
    if CoinWeighing.refusal(pegs, colours, repeats, black_only) is None:
        return CoinWeighing.name
    if colours == pegs and Blocks.refusal(pegs, colours, repeats, black_only) is None:
        return Blocks.name
    return None
