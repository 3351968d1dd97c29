"""Two colours, black pegs only (``pNc2b``) as coin weighing.

Reduction (seed 004, Pawlik and Zablocki; Erdos-Renyi; Lindstrom 1964; Cantor
and Mills 1966): write the secret as bits ``b_i`` (colour 2 is 1). The first
question is all colour 1; its answer ``a0`` counts the zeros, so
``|b| = n - a0``. A question with colour 2 exactly on a set ``S`` of positions
scores ``a0 + sum over S of (2 b_i - 1)``, so::

    sum over S of b_i = (answer - a0 + |S|) / 2

and every question is a weighing of the coins in ``S``. The weighings are the
rows of the explicit detecting matrices of :mod:`optimal_mm.largen.weighing`,
all fixed before any answer (non-adaptive), about ``2n / log2 n`` of them. The
finish is adaptive: the blocks of coins are decoded one after the other and
the questions of the blocks still to come are skipped once the total ``|b|``
says they are all 0 or all 1; the last block takes the rest of the total as its
own; then the secret itself is asked. For ``n = 1025`` and ``n = 1024`` that is
255 weighings (``2^8 - 1``), 257 questions in all.

>>> from optimal_mm.largen.oracle import BlackPegOracle
>>> from optimal_mm.largen.strategy import play
>>> oracle = BlackPegOracle([1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0])
>>> record = play(CoinWeighing(12, 2), oracle.ask)
>>> record.secret.tolist() == oracle.secret.tolist(), record.guesses <= guess_bound(12)
(True, True)
"""

from __future__ import annotations

import numpy as np

from ..errors import InconsistentAnswersError
from .strategy import LargeStrategy, Questions, contradiction
from .weighing import cover, weighings_needed


def guess_bound(pegs: int) -> int:
    """Most guesses the strategy ever asks: the all-colour-1 question, the
    weighings of :func:`~optimal_mm.largen.weighing.cover`, and the secret."""
    return weighings_needed(pegs, total_known=True) + 2


def answers_after(first: int, pegs: int, changed: int) -> range:
    """The answers a question may get that puts colour 2 on ``changed`` of ``pegs``
    places, after the all-colour-1 question got ``first``.

    Each changed peg adds a black where the secret has colour 2 and takes one
    away where it has colour 1: the answer moves from ``first`` by an amount of
    the parity of ``changed`` and at most ``changed``, and no more pegs of
    either colour can turn than the secret has (``first`` of colour 1).

    >>> list(answers_after(2, 4, 1)), list(answers_after(0, 4, 2)), list(answers_after(3, 4, 2))
    ([1, 3], [2], [1, 3])
    """
    least = max(0, changed - first)              # pegs of colour 2 among the changed
    most = min(changed, pegs - first)
    return range(first + 2 * least - changed, first + 2 * most - changed + 1, 2)


def _one_of(values: range) -> str:
    """``1 or 3``; ``an even number from 0 to 40`` for a long range."""
    if len(values) > 4:
        parity = "an even" if values.start % 2 == 0 else "an odd"
        return f"{parity} number from {values.start} to {values[-1]}"
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def non_adaptive_questions(pegs: int) -> list[np.ndarray]:
    """Every question of the strategy but the last, fixed in advance: all colour 1,
    then colour 2 on each weighed set (colours 0-based)."""
    out = [np.zeros(pegs, dtype=np.int32)]
    for block in cover(pegs, total_known=True):
        for coins in block.weighings():
            question = np.zeros(pegs, dtype=np.int32)
            question[coins] = 1
            out.append(question)
    return out


class CoinWeighing(LargeStrategy):
    """The coin-weighing strategy for ``pNc2b``."""

    name = "coin-weighing"
    summary = "two colours, black pegs: explicit detecting matrices, about 2n/log2 n questions"

    @classmethod
    def refusal(cls, pegs, colours, repeats, black_only):
        if colours != 2 or not black_only or not repeats:
            return "plays only two-colour black-peg games with repeats (pNc2b)"
        return None

    def questions(self) -> Questions:
        n = self.pegs
        bits = np.zeros(n, dtype=np.int32)
        a0 = yield np.zeros(n, dtype=np.int32)
        total = n - a0
        asked = 1                       # questions asked so far
        found = 0                       # ones among the coins decoded so far
        decoded = 0                     # coins decoded so far (a prefix)
        for block in cover(n, total_known=True):
            if total - found in (0, n - decoded):    # the total settles every coin left
                break
            sums = []
            for coins in block.weighings():
                question = np.zeros(n, dtype=np.int32)
                question[coins] = 1
                answer = yield question
                asked += 1
                allowed = answers_after(a0, n, len(coins))
                if answer not in allowed:
                    raise contradiction(
                        (0, asked - 1),
                        f"guess {asked} changes {len(coins)} "
                        f"peg{'s' * (len(coins) != 1)} of guess 1, so its answer must be "
                        f"{_one_of(allowed)}, not {answer}")
                sums.append((answer - a0 + len(coins)) // 2)
            # only the last block may lack its total, which is then the rest of |b|
            weights = block.decode(sums, total - found)
            bits[block.start:block.start + block.width] = weights
            found += int(weights.sum())
            decoded = block.start + block.width
        left, rest = total - found, n - decoded
        if left == rest:
            bits[decoded:] = 1
        elif left:
            raise InconsistentAnswersError(f"the answers leave {left} of colour 2 for "
                                           f"{rest} pegs")
        return bits
