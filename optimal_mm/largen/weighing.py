"""Coin weighing with a spring scale: detecting matrices, built explicitly.

``n`` coins each weigh 0 or 1; a *weighing* puts a subset of them on a scale
that tells the total. A 0/1 matrix whose rows are the weighings is
*detecting* when different weight vectors always give different rows of sums,
so that all the weighings can be chosen in advance (non-adaptively). Erdos and
Renyi showed that about ``2n / log2 n`` weighings are needed and suffice; the
seed text (Pawlik and Zablocki, "Rozwazmy Masterminda", Delta) quotes the same
figure. Explicit detecting matrices of that order were built by

* B. Lindstrom, "On a combinatory detection problem I", Magyar Tud. Akad. Mat.
  Kutato Int. Kozl. 9 (1964) 195-207, and
* D. G. Cantor and W. H. Mills, "Determination of a subset from certain
  combinatorial properties", Canad. J. Math. 18 (1966) 42-48.

This module builds its matrices by a recursive doubling of the kind these
constructions use (a simple one, with a short proof). From a detecting
``m x n`` matrix ``D`` (unknown weights ``x``, ``y`` in ``{0,1}^n`` and ``z`` in
``{0,1}^m``)::

         [ D   D      I ]      D x + D y + z
    D' = [ D   J - D  0 ]      D x + |y| - D y
         [ 0   1...1  0 ]      |y|

is a detecting ``(2m + 1) x (2n + m)`` matrix: the sum of the first two blocks of
answers is ``2 D x + z + |y|``, so its parity gives ``z``; then ``D x`` and ``D y``
follow and ``D`` decodes each. If ``D`` needs the total weight of its coins
besides its rows, so does ``D'``, and it has it: ``|y|`` is its last row and
``|x| = total - |y| - |z|``. Two-colour Mastermind tells the total for free (its
first question), so the best family starts from *no weighing at all* for one
coin (its weight is the total) and gives ``2^k - 1`` weighings for
``2, 5, 13, 33, 81, 193, 449, 1025, ...`` coins, that is ``k 2^(k-1) + 1``: the
count of Lindstrom's and Cantor and Mills' constructions, plus the total; its
second member is the seed's five coins in four weighings (three rows and the
total). Where no total comes for free, the total is one more weighing, and the
families that need none compete: the doublings of ``(1)`` (``1, 3, 9, 25, 65,
...`` coins for ``2^k - 1`` weighings) and of the seed's example
``A+D+E, B+D+E, C+E, A+B+C+D+E``. All have ``n ~ m log2(m) / 2``, i.e.
``m ~ 2 n / log2 n``.

A game of ``n`` coins that fits no matrix exactly is covered by
:func:`cover`: consecutive blocks of coins, each weighed with the first columns
of one matrix (rows that are then empty are not asked), chosen by dynamic
programming for the fewest weighings.

>>> m = total_family()[3]              # 7 weighings and the total for 13 coins
>>> m.shape
(7, 13)
>>> x = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0])
>>> m.decode(m.matrix @ x, total=int(x.sum())).tolist() == x.tolist()
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from ..errors import InconsistentAnswersError

#: The seed's example: five coins A..E in four weighings A+D+E, B+D+E, C+E, A+B+C+D+E.
SEED_WEIGHINGS = np.array([[1, 0, 0, 1, 1],
                           [0, 1, 0, 1, 1],
                           [0, 0, 1, 0, 1],
                           [1, 1, 1, 1, 1]], dtype=np.int8)


@dataclass(frozen=True, eq=False)
class DetectingMatrix:
    """A detecting 0/1 matrix with its decoder.

    ``parent`` is the matrix it was doubled from (``None`` for a base matrix,
    decoded by a table of all its ``2^n`` weight vectors). ``needs_total``: the
    rows tell the weights apart only together with their total.
    """

    matrix: np.ndarray
    parent: "DetectingMatrix | None" = None
    needs_total: bool = False
    _table: dict = field(default_factory=dict, repr=False)

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape

    @property
    def n_weighings(self) -> int:
        return self.matrix.shape[0]

    @property
    def n_coins(self) -> int:
        return self.matrix.shape[1]

    def doubled(self) -> "DetectingMatrix":
        """The ``(2m + 1) x (2n + m)`` doubling of this matrix (see the module docstring)."""
        d = self.matrix
        m, n = d.shape
        top = np.hstack([d, d, np.eye(m, dtype=np.int8)])
        middle = np.hstack([d, 1 - d, np.zeros((m, m), dtype=np.int8)])
        bottom = np.hstack([np.zeros(n, dtype=np.int8), np.ones(n, dtype=np.int8),
                            np.zeros(m, dtype=np.int8)])[None, :]
        return DetectingMatrix(np.vstack([top, middle, bottom]).astype(np.int8), self,
                               self.needs_total)

    def decode(self, sums, total: int | None = None) -> np.ndarray:
        """The 0/1 weights whose weighings give ``sums`` (one per row), with their
        ``total`` where the matrix :attr:`needs_total`.

        Raises
        ------
        InconsistentAnswersError
            When no 0/1 vector gives these sums.
        """
        sums = np.asarray(sums, dtype=np.int64)
        if sums.shape != (self.n_weighings,):
            raise InconsistentAnswersError(
                f"{len(sums)} sums for a matrix of {self.n_weighings} weighings")
        if self.needs_total and total is None:
            raise InconsistentAnswersError("these weighings need the total weight")
        if self.parent is None:
            return self._decode_base(sums, total)
        m = self.parent.n_weighings
        first, second, total_y = sums[:m], sums[m:2 * m], int(sums[2 * m])
        both = first + second                      # 2 D x + z + |y|
        z = (both - total_y) % 2
        dx2 = both - z - total_y
        dy2 = first - second - z + total_y         # 2 D y
        if (dx2 % 2).any() or (dy2 % 2).any():
            raise InconsistentAnswersError(f"weighings {sums.tolist()} have no 0/1 solution")
        total_x = None if total is None else total - total_y - int(z.sum())
        x = self.parent.decode(dx2 // 2, total_x)
        y = self.parent.decode(dy2 // 2, total_y)
        out = np.concatenate([x, y, z.astype(np.int8)])
        if int(y.sum()) != total_y or (total is not None and int(out.sum()) != total):
            raise InconsistentAnswersError(f"weighings {sums.tolist()} have no 0/1 solution")
        return out

    def _key(self, sums, total) -> tuple:
        return tuple(int(v) for v in sums) + ((int(total),) if self.needs_total else ())

    def _decode_base(self, sums: np.ndarray, total: int | None) -> np.ndarray:
        if not self._table:
            n = self.n_coins
            for bits in itertools.product((0, 1), repeat=n):
                bits = np.array(bits, dtype=np.int64)
                self._table[self._key(self.matrix @ bits, bits.sum())] = bits.astype(np.int8)
        found = self._table.get(self._key(sums, total))
        if found is None:
            raise InconsistentAnswersError(f"weighings {sums.tolist()} have no 0/1 solution")
        return found.copy()

    @cached_property
    def first_columns(self) -> np.ndarray:
        """Each row's first column with a 1, sorted: a block using the first ``w``
        columns asks ``searchsorted(first_columns, w)`` rows."""
        return np.sort(np.argmax(self.matrix != 0, axis=1))

    def rows_asked(self, width: int) -> int:
        """Rows not empty on the first ``width`` columns."""
        return int(np.searchsorted(self.first_columns, width))

    def is_detecting(self) -> bool:
        """Check by brute force (``2^n`` vectors) that all sums (and totals, where
        needed) differ."""
        n = self.n_coins
        vectors = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(np.int64)
        sums = vectors @ self.matrix.T.astype(np.int64)
        if self.needs_total:
            sums = np.hstack([sums, vectors.sum(axis=1, keepdims=True)])
        return len(np.unique(sums, axis=0)) == 2**n


def _family(base: np.ndarray, max_coins: int, needs_total: bool = False
            ) -> tuple[DetectingMatrix, ...]:
    out = [DetectingMatrix(base, needs_total=needs_total)]
    while out[-1].n_coins < max_coins:
        out.append(out[-1].doubled())
    return tuple(out)


@lru_cache(maxsize=None)
def lindstrom_family(max_coins: int = 4096) -> tuple[DetectingMatrix, ...]:
    """The doublings of ``(1)``: ``2^k - 1`` weighings, up to ``max_coins`` coins."""
    return _family(np.ones((1, 1), dtype=np.int8), max_coins)


@lru_cache(maxsize=None)
def total_family(max_coins: int = 4096) -> tuple[DetectingMatrix, ...]:
    """The doublings of no weighing for one coin, with the total:
    ``2^k - 1`` weighings and the total for ``k 2^(k-1) + 1`` coins."""
    return _family(np.zeros((0, 1), dtype=np.int8), max_coins, needs_total=True)


@lru_cache(maxsize=None)
def seed_family(max_coins: int = 4096) -> tuple[DetectingMatrix, ...]:
    """The doublings of the seed's five coins in four weighings."""
    return _family(SEED_WEIGHINGS, max_coins)


@dataclass(frozen=True)
class Block:
    """Coins ``start .. start + width - 1`` weighed with the first ``width``
    columns of ``detector``; ``rows`` are the rows not empty on those columns.
    ``weigh_total``: the block's total is asked as one more weighing (a detector
    that needs it, where it does not come for free)."""

    start: int
    width: int
    detector: DetectingMatrix
    rows: tuple[int, ...]
    weigh_total: bool = False

    @property
    def n_weighings(self) -> int:
        return len(self.rows) + self.weigh_total

    def weighings(self) -> list[np.ndarray]:
        """Each asked weighing as the array of coin numbers it puts on the scale."""
        cols = self.detector.matrix[:, :self.width]
        out = [self.start + np.flatnonzero(cols[r]) for r in self.rows]
        if self.weigh_total:
            out.append(self.start + np.arange(self.width))
        return out

    def decode(self, sums, total: int | None = None) -> np.ndarray:
        """Weights of this block's coins from the sums of its weighings (and its
        ``total`` where the detector needs it and it is not weighed)."""
        sums = list(sums)
        if self.weigh_total:
            total = sums.pop()
        full = np.zeros(self.detector.n_weighings, dtype=np.int64)
        full[list(self.rows)] = sums
        weights = self.detector.decode(full, total if self.detector.needs_total else None)
        if weights[self.width:].any():
            raise InconsistentAnswersError(f"weighings {sums} have no 0/1 solution")
        return weights[:self.width]


def _catalogue(max_coins: int) -> tuple[DetectingMatrix, ...]:
    top = max(max_coins, 5)
    return total_family(top) + lindstrom_family(top) + seed_family(top)


def _asked_rows(detector: DetectingMatrix, width: int) -> tuple[int, ...]:
    return tuple(int(r) for r in np.flatnonzero(detector.matrix[:, :width].any(axis=1)))


@lru_cache(maxsize=64)
def cover(n_coins: int, total_known: bool = False) -> tuple[Block, ...]:
    """The fewest weighings that find ``n_coins`` 0/1 weights, as blocks of coins.

    Blocks are chosen by dynamic programming over the detectors of the three
    families, each cut to the columns it needs. With ``total_known`` (the sum of
    all weights is told for free, as the first all-one-colour question of
    two-colour Mastermind tells it) the last block gets its total for free: the
    total less the weights of the blocks before it.

    >>> [b.width for b in cover(10)], sum(b.n_weighings for b in cover(10))
    ([9, 1], 8)
    >>> [(b.width, b.n_weighings) for b in cover(1025, total_known=True)]
    [(1025, 255)]
    """
    catalogue = _catalogue(n_coins)
    best = [0] + [None] * n_coins      # best[k]: fewest weighings for the first k coins
    choice: list = [None] * (n_coins + 1)
    for k in range(1, n_coins + 1):
        for det in catalogue:
            width = min(k, det.n_coins)
            cost = det.rows_asked(width) + det.needs_total + best[k - width]
            if best[k] is None or cost < best[k]:
                best[k], choice[k] = cost, (det, width, det.needs_total)
    if total_known and n_coins:
        for det in catalogue:          # the last block, its total for free
            width = min(n_coins, det.n_coins)
            cost = det.rows_asked(width) + best[n_coins - width]
            if cost < best[n_coins] or (cost == best[n_coins] and choice[n_coins][2]):
                best[n_coins], choice[n_coins] = cost, (det, width, False)
    blocks, k = [], n_coins
    while k:
        det, width, weigh_total = choice[k]
        blocks.append(Block(k - width, width, det, _asked_rows(det, width), weigh_total))
        k -= width
    return tuple(reversed(blocks))


def weighings_needed(n_coins: int, total_known: bool = False) -> int:
    """Number of weighings :func:`cover` uses for ``n_coins``."""
    return sum(b.n_weighings for b in cover(n_coins, total_known))
