"""Eventually periodic value sequences: subtraction games on huge heaps.

In a subtraction game with a finite set of moves ``S`` (take ``s`` matches for
some ``s`` in ``S``), the value of a heap of ``n >= k`` matches, ``k = max(S)``,
depends only on the values of the ``k`` heaps below it. So the *window*
``(g(j), ..., g(j + k - 1))`` determines the next value, and the windows follow
a deterministic map on a finite set: they must repeat, and from the first
repeat on the values are periodic. With moves 1 to 6 the window of heaps 0..5
comes back at 7..12, giving the book's rule ``SG(p) = p mod 7``.

:func:`find_period` finds the start ``mu`` and the length ``lam`` of that
cycle with Brent's algorithm, which keeps two windows at a time (memory
``O(k)``, not one entry per heap) and takes ``O(mu + lam)`` steps; the values
of heaps ``0..mu + lam - 1`` then answer every heap in constant time.
Misère play uses the same map, with value 1 for a heap from which no move is
possible.

>>> seq = EventuallyPeriodic.of_subtraction((1, 2, 3, 4, 5, 6))
>>> seq.preperiod, seq.period, seq[10**6]
(0, 7, 1)
>>> EventuallyPeriodic.of_subtraction((1, 3, 4)).values
(0, 1, 0, 1, 2, 3, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import TooLargeError
from .grundy import mex

#: Brent's search gives up after this many steps (then values are streamed).
MAX_PERIOD_STEPS = 5_000_000


def subtraction_value(window: tuple[int, ...], moves: tuple[int, ...]) -> int:
    """Value of the heap just above ``window`` (the values of the heaps below it, oldest
    first), when every move in ``moves`` fits in the window."""
    k = len(window)
    return mex(window[k - s] for s in moves)


def first_values(moves: tuple[int, ...], count: int, terminal: int) -> list[int]:
    """Values of heaps ``0..count - 1`` straight from the rule (small heaps, where some
    moves do not fit)."""
    values: list[int] = []
    for n in range(count):
        children = [values[n - s] for s in moves if s <= n]
        values.append(mex(children) if children else terminal)
    return values


def find_period(moves: tuple[int, ...], terminal: int = 0,
                max_steps: int = MAX_PERIOD_STEPS) -> tuple[int, int] | None:
    """``(mu, lam)``: the values repeat with period ``lam`` from heap ``mu`` on.

    Brent's cycle finding on the windows of ``k = max(moves)`` values; ``None``
    when no cycle shows within ``max_steps`` steps. The windows repeat exactly,
    so the answer is a proof, not a guess from a finite prefix.
    """
    k = max(moves)

    def step(window):
        return window[1:] + (subtraction_value(window, moves),)

    start = tuple(first_values(moves, k, terminal))
    power = lam = 1
    tortoise, hare = start, step(start)
    steps = 1
    while tortoise != hare:
        if power == lam:
            tortoise, power, lam = hare, power * 2, 0
        hare = step(hare)
        lam += 1
        steps += 1
        if steps > max_steps:
            return None
    tortoise = hare = start
    for _ in range(lam):
        hare = step(hare)
    mu = 0
    while tortoise != hare:
        tortoise, hare = step(tortoise), step(hare)
        mu += 1
    return mu, lam


@dataclass(frozen=True)
class EventuallyPeriodic:
    """A sequence given by its first ``preperiod + period`` values, periodic afterwards.

    ``seq[n]`` is ``values[n]`` below ``preperiod + period`` and
    ``values[preperiod + (n - preperiod) % period]`` above.
    """

    values: tuple[int, ...]
    preperiod: int
    period: int

    def __getitem__(self, n: int) -> int:
        if n < 0:
            raise IndexError(n)
        if n >= self.preperiod + self.period:
            n = self.preperiod + (n - self.preperiod) % self.period
        return self.values[n]

    @classmethod
    def of_subtraction(cls, moves: tuple[int, ...], terminal: int = 0,
                       max_steps: int = MAX_PERIOD_STEPS) -> "EventuallyPeriodic":
        """The values of the subtraction game ``moves`` (``terminal``: 1 for misère).

        Raises
        ------
        TooLargeError
            If no period shows within ``max_steps`` steps.
        """
        found = find_period(moves, terminal, max_steps)
        if found is None:
            raise TooLargeError(
                f"the values of the subtraction game {','.join(map(str, moves))} show no "
                f"period within {max_steps} heaps")
        mu, lam = found
        return cls(tuple(first_values(moves, mu + lam, terminal)), mu, lam)
