"""The colour overlap of black-and-white scoring: a filter and a bound (compiled, numba).

Blacks plus whites, ``k = b + w``, counts the colours a guess and a secret share
(``sum_c min``, colour by colour): it depends on their colour *multisets* alone, not
on where the colours stand. So every guess of one multiset sends the same number
``h(k)`` of the secrets of a state ``S`` to the answers with ``b + w = k``, and one
partition per multiset (792 for Logik, against 32,768 guesses) bounds the parts of
every guess:

* the answers with ``b + w = k`` are at most ``k + 1`` (``b = 0 .. k``) for
  ``k < P``, and for ``k = P`` only ``P - 1`` besides the win (``b = P - 1`` is
  impossible: the last peg's colour would be a black), the win holding the guess
  alone;
* so, by pigeonhole, a guess whose ``h(k)`` exceeds ``(k + 1) cap`` (``(P - 1) cap
  + 1`` for ``k = P``) has a part above ``cap`` secrets (:func:`overlap_pass`, the
  worst case's filter), and a guess costs at least ``|S|`` plus the least total of
  ``k + 1`` parts holding ``h(k)`` secrets, summed over ``k`` (:func:`overlap_bound`,
  the expected case's).

Neither drops a guess the full scoring would keep, nor changes a value or a tree:
they only skip partitions. In the worst case a state whose every multiset fails is
refuted without scoring a guess; below a Logik refutation (sets of 200 to 400
secrets within 3 guesses, at most 20 a part) that is nearly every set, about 50
times cheaper than scoring the 30,000 guesses left (docs/LOGIK.md).

The multisets are numbered in :func:`optimal_mm._search_arrays.code_masks` (column
2 of a code's row; column 3 lists each multiset's first code, its representative).
Black-only answers carry no overlap; the skew-aware bound
(:mod:`optimal_mm._skew_bound`) is theirs.
"""

from __future__ import annotations

import numpy as np

from ._numba import njit
from ._search_arrays import INF


@njit(cache=True, inline="always")
def _overlap_of_answers(pegs):
    """``b + w`` of every black-and-white answer id ``b (P + 1) + w``."""
    base = pegs + 1
    overlap = np.empty(base * base, dtype=np.int64)
    for a in range(base * base):
        overlap[a] = a // base + a % base
    return overlap


#: The filter and the bound run where the codes are at least this many times the
#: colour multisets (one partition per multiset must cost well below one per guess).
CODES_PER_MULTISET = 4


@njit(cache=True, inline="always")
def overlap_applies(n_slots, pegs, masks):
    """Whether the colour-overlap filter and bound apply: black-and-white scoring, and
    few multisets for the codes (:data:`CODES_PER_MULTISET`)."""
    n_codes = masks.shape[0]
    return (n_slots == (pegs + 1) * (pegs + 1)
            and masks[(n_codes - 1) // CODES_PER_MULTISET, 3] < 0)


@njit(cache=True)
def overlap_pass(S, table, masks, cap, pegs, win, ok):
    """The colour-overlap filter of the worst case: sets ``ok[i]`` to whether a guess
    of colour multiset ``i`` may leave no part of ``S`` above ``cap`` secrets, and
    returns how many multisets may (0: ``S`` cannot be split within ``cap``).

    One partition per multiset, stopping at the first overflow (module docstring):
    the filter never drops a guess the full scoring would keep.
    """
    n = len(S)
    base = pegs + 1
    overlap = _overlap_of_answers(pegs)
    room = np.empty(base, dtype=np.int64)
    for k in range(pegs):
        room[k] = (k + 1) * cap
    room[pegs] = (pegs - 1) * cap + 1
    h = np.zeros(base, dtype=np.int64)
    passed = 0
    i = 0
    while i < masks.shape[0] and masks[i, 3] >= 0:
        row = table[masks[i, 3]]
        for k in range(base):
            h[k] = 0
        fits = True
        for j in range(n):
            k = overlap[row[S[j]]]
            h[k] += 1
            if h[k] > room[k]:
                fits = False
                break
        ok[i] = fits
        if fits:
            passed += 1
        i += 1
    return passed


@njit(cache=True, inline="always")
def _balanced_parts(row, total, parts):
    """The least sum of ``row[size]`` over ``parts`` parts (empty ones allowed, ``row[0]
    = 0``) holding ``total`` secrets: the sizes as even as possible, ``row`` being
    convex (its increments, the depths of the greedy tree, never decrease)."""
    if total == 0:
        return np.int64(0)
    if parts == 0:
        return np.int64(INF)
    q = total // parts
    r = total - q * parts
    value = (parts - r) * min(row[q], INF)
    if r:
        value += r * min(row[q + 1], INF)
    return min(value, INF)


@njit(cache=True)
def overlap_bound(S, table, masks, row, pegs, bounds):
    """The colour-overlap bound of the expected case: sets ``bounds[i]``, a lower bound
    on the cost at ``S`` of any guess of colour multiset ``i`` whose parts have the
    bound row ``row`` (``LB[d - 1, .]``), and returns the least over the multisets, a
    bound on the node.

    The ``h(k)`` secrets sharing ``k`` colours with the guess fall into at most
    ``k + 1`` answers (``P - 1`` besides the win for ``k = P``, where the guess
    itself may be the win), so the guess costs at least ``|S| + sum_k`` (the least
    sum of ``row`` over that many parts holding ``h(k)`` secrets: the even split,
    ``row`` being convex). The secrets sharing no colour with the guess make one part:
    that is what lifts this bound above the balanced one, which spreads ``|S|`` over
    every answer.
    """
    n = len(S)
    overlap = _overlap_of_answers(pegs)
    h = np.zeros(pegs + 1, dtype=np.int64)
    best = np.int64(INF)
    i = 0
    while i < masks.shape[0] and masks[i, 3] >= 0:
        guess_row = table[masks[i, 3]]
        for k in range(pegs + 1):
            h[k] = 0
        for j in range(n):
            h[overlap[guess_row[S[j]]]] += 1
        value = np.int64(n)
        for k in range(pegs):
            value += _balanced_parts(row, h[k], k + 1)
        value += _balanced_parts(row, max(h[pegs] - 1, 0), pegs - 1)
        value = min(value, INF)
        bounds[i] = value
        if value < best:
            best = value
        i += 1
    return best


@njit(cache=True)
def overlap_keep(guesses, masks, ok):
    """The guesses whose colour multiset passed :func:`overlap_pass`, in order."""
    out = np.empty(len(guesses), dtype=np.int64)
    m = 0
    for g in guesses:
        if ok[masks[g, 2]]:
            out[m] = g
            m += 1
    return out[:m]
