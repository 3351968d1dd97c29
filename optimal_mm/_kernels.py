"""Hot numerical kernels, compiled with numba.

Everything here works on plain arrays: codes as ``(N, P)`` uint8 arrays of colour
numbers, answers as uint8 ids (``black * (P + 1) + white``, or ``black`` for
black-only scoring). Each numba kernel has a slow, obviously correct NumPy twin
(``*_reference``) with the same signature; the tests check that both agree, so a
faster implementation can replace a kernel without touching its callers.

The JIT cache is kept on disk (``cache=True``): only the first run on a machine pays
the compilation.
"""

from __future__ import annotations

import numpy as np
from ._numba import njit, prange


@njit(cache=True, inline="always")
def _score_pair(g, s, n_colours, black_only, gcount, scount):
    pegs = g.shape[0]
    black = 0
    for i in range(pegs):
        if g[i] == s[i]:
            black += 1
    if black_only:
        return black
    for c in range(n_colours):
        gcount[c] = 0
        scount[c] = 0
    for i in range(pegs):
        gcount[g[i]] += 1
        scount[s[i]] += 1
    common = 0
    for c in range(n_colours):
        common += min(gcount[c], scount[c])
    return black * (pegs + 1) + common - black


@njit(cache=True)
def score_rows(guess, secrets, n_colours, black_only):
    """Answers of one guess (``(P,)`` colours) against ``(S, P)`` secrets."""
    out = np.empty(secrets.shape[0], dtype=np.uint8)
    gcount = np.zeros(n_colours, dtype=np.int32)
    scount = np.zeros(n_colours, dtype=np.int32)
    for j in range(secrets.shape[0]):
        out[j] = _score_pair(guess, secrets[j], n_colours, black_only, gcount, scount)
    return out


@njit(cache=True)
def colour_counts(codes, n_colours):
    """``(N, C)`` int8: how many pegs of each colour every code has."""
    out = np.zeros((codes.shape[0], n_colours), dtype=np.int8)
    for i in range(codes.shape[0]):
        for p in range(codes.shape[1]):
            out[i, codes[i, p]] += 1
    return out


#: Games of fewer than this many positions times colours score a pair with bit masks
#: (:func:`code_bits`): every bit fits in an int64, bit 63 left clear.
BIT_SCORING = 64


@njit(cache=True, inline="always")
def _bit_count(x):
    """Set bits of ``x`` (an int64 whose bit 63 is clear), summed by halves, nibbles
    and bytes."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def code_bits(codes, n_colours):
    """``(N, 2)`` int64 bit masks of every code, for ``P * C`` below :data:`BIT_SCORING`.

    Column 0, *places*: bit ``p * C + c`` when colour ``c`` is at position ``p``, so
    the blacks of a pair are the bits both masks have. Column 1, *multiset*: bit
    ``c * P + k`` when colour ``c`` appears more than ``k`` times; both masks have
    ``min(count_g(c), count_s(c))`` of colour ``c``'s bits, so the bits in common are
    the colour matches, blacks and whites together.
    """
    n, pegs = codes.shape
    out = np.zeros((n, 2), dtype=np.int64)
    seen = np.zeros(n_colours, dtype=np.int64)
    one = np.int64(1)
    for i in range(n):
        seen[:] = 0
        for p in range(pegs):
            c = np.int64(codes[i, p])
            out[i, 0] |= one << (p * n_colours + c)
            out[i, 1] |= one << (c * pegs + seen[c])
            seen[c] += 1
    return out


@njit(cache=True, parallel=True)
def score_table(codes, n_colours, black_only):
    """The ``(N, N)`` table of answers, ``table[guess, secret]``.

    Scoring is symmetric, so each pair is scored once and written to both cells.
    Below :data:`BIT_SCORING` positions times colours a pair costs two ANDs and two
    bit counts (:func:`code_bits`); otherwise each code's colour counts are taken
    once (:func:`colour_counts`) and a pair costs ``P`` comparisons for the blacks
    and ``C`` minima for the colours in common.
    """
    n, pegs = codes.shape
    out = np.empty((n, n), dtype=np.uint8)
    if pegs * n_colours < BIT_SCORING:
        bits = code_bits(codes, n_colours)
        for i in prange(n):
            place, multi = bits[i, 0], bits[i, 1]
            for j in range(i, n):
                black = _bit_count(place & bits[j, 0])
                answer = black
                if not black_only:
                    answer = black * pegs + _bit_count(multi & bits[j, 1])
                out[i, j] = answer
                out[j, i] = answer
        return out
    counts = colour_counts(codes, n_colours)
    for i in prange(n):
        g = codes[i]
        cg = counts[i]
        for j in range(i, n):
            s = codes[j]
            black = 0
            for p in range(pegs):
                if g[p] == s[p]:
                    black += 1
            answer = black
            if not black_only:
                cs = counts[j]
                common = 0
                for c in range(n_colours):
                    common += min(cg[c], cs[c])
                answer = black * (pegs + 1) + common - black
            out[i, j] = answer
            out[j, i] = answer
    return out


def score_table_reference(codes, n_colours, black_only):
    """NumPy twin of :func:`score_table`."""
    codes = np.asarray(codes, dtype=np.int64)
    pegs = codes.shape[1]
    black = (codes[:, None, :] == codes[None, :, :]).sum(axis=2)
    if black_only:
        return black.astype(np.uint8)
    counts = np.stack([(codes == c).sum(axis=1) for c in range(n_colours)], axis=1)
    common = np.minimum(counts[:, None, :], counts[None, :, :]).sum(axis=2)
    return (black * (pegs + 1) + common - black).astype(np.uint8)


@njit(cache=True, parallel=True)
def partition_counts(table, guesses, secrets, n_slots):
    """Part sizes: ``out[k, a]`` = secrets that answer ``a`` to guess ``guesses[k]``."""
    out = np.zeros((guesses.shape[0], n_slots), dtype=np.int32)
    for k in prange(guesses.shape[0]):
        row = table[guesses[k]]
        for j in range(secrets.shape[0]):
            out[k, row[secrets[j]]] += 1
    return out


def partition_counts_reference(table, guesses, secrets, n_slots):
    """NumPy twin of :func:`partition_counts`."""
    sub = np.asarray(table)[np.ix_(np.asarray(guesses), np.asarray(secrets))]
    out = np.zeros((len(guesses), n_slots), dtype=np.int32)
    for k in range(len(guesses)):
        out[k] = np.bincount(sub[k], minlength=n_slots)[:n_slots]
    return out


@njit(cache=True, parallel=True)
def partition_counts_codes(codes, guesses, secrets, n_colours, black_only, n_slots):
    """Like :func:`partition_counts` but scoring on the fly from ``(N, P)`` codes.

    For games whose answer table does not fit in memory.
    """
    out = np.zeros((guesses.shape[0], n_slots), dtype=np.int32)
    for k in prange(guesses.shape[0]):
        gcount = np.zeros(n_colours, dtype=np.int32)
        scount = np.zeros(n_colours, dtype=np.int32)
        g = codes[guesses[k]]
        for j in range(secrets.shape[0]):
            a = _score_pair(g, codes[secrets[j]], n_colours, black_only, gcount, scount)
            out[k, a] += 1
    return out


@njit(cache=True, inline="always")
def _root(parent, x):
    """The root of ``x``'s tree, halving the path on the way (every parent is no
    greater than its child, so the root is the tree's least element)."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def orbit_labels(perms):
    """The least element of each element's orbit under the group the permutations
    ``perms`` (rows, each a permutation of ``0..n-1``) generate.

    An orbit of a finite group is a connected part of the graph that joins ``i`` to
    ``perm[i]`` for every generator (an inverse is a power), found by union-find: each
    edge joins two trees under the lesser root, so a parent never exceeds its child
    and, read in increasing order, ``parent[parent[i]]`` is already a root.
    """
    n = perms.shape[1]
    parent = np.arange(n)
    for g in range(perms.shape[0]):
        row = perms[g]
        for i in range(n):
            a = _root(parent, i)
            b = _root(parent, row[i])
            if a < b:
                parent[b] = a
            elif b < a:
                parent[a] = b
    for i in range(n):
        parent[i] = parent[parent[i]]
    return parent


def orbit_labels_reference(perms):
    """NumPy twin of :func:`orbit_labels`: each label lowered to the least label of its
    images and preimages, then to its own label's, until nothing moves."""
    perms = np.asarray(perms, dtype=np.int64)
    labels = np.arange(perms.shape[1], dtype=np.int64)
    while True:
        new = labels.copy()
        for perm in perms:  # a permutation: no index repeats in new[perm]
            np.minimum(new, labels[perm], out=new)
            new[perm] = np.minimum(new[perm], labels)
        new = new[new]
        if np.array_equal(new, labels):
            return labels
        labels = new
