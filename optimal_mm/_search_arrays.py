"""The arrays the compiled search takes, built with numpy (no numba needed).

The kernels of :mod:`optimal_mm._search` work on plain arrays: a transposition
table (:func:`new_table`), the images of every code under colour swaps
(:func:`colour_swaps`, :func:`position_swaps`), each code's colour and inversion
bit masks (:func:`code_masks`) and the balanced-tree lower bounds
(:func:`lower_bound_table`). They are built here, apart from the kernels, so that
a process running ahead-of-time compiled kernels (:mod:`optimal_mm.kernels`) never
imports numba.
"""

from __future__ import annotations

import signal

import numpy as np

#: A value above every total the search can meet ("no answer", "infeasible").
INF = 1 << 40
#: "Guesses left" when there is no cap; deep enough for any game searched.
NO_CAP = 64
#: A budget this large bounds nothing: :data:`INF` less the costs of parts searched
#: before (every real cost is below ``INF // 2``), as a rival, a first guess's part,
#: or a part below a node with no guess within the cap found yet receives it.
UNBUDGETED = INF // 2
#: The search's counters (``stats``): 0 states expanded, 1 table hits, 2 guesses
#: evaluated (partitions computed), 3 table entries stored, 4 guesses cut by the
#: worst case's remembered refuting parts (no partition, no table read).
STATS = ("states", "table hits", "guesses evaluated", "stored", "refuter cuts")
#: The ``stats`` slot after the counters, which the kernels read and never write: a
#: signal's number lands in its bytes while a kernel runs (:mod:`optimal_mm.stopping`),
#: and a stop signal's makes the kernel return at once (its result then means nothing).
STOP = len(STATS)
#: The signals that stop a kernel: Ctrl-C and ``kill``'s default (SIGINT, SIGTERM),
#: and the alarm of a time limit (SIGALRM, :class:`optimal_mm.stopping.time_limit`;
#: its number stands in where the platform has no such signal).
STOP_SIGNALS = (int(signal.SIGINT), int(signal.SIGTERM),
                int(getattr(signal, "SIGALRM", 14)))


def new_stats():
    """Zeroed counters for the kernels' ``stats`` argument: :data:`STATS`, then the
    :data:`STOP` slot."""
    return np.zeros(len(STATS) + 1, dtype=np.int64)


def new_table(entries: int):
    """An empty transposition table for at most ``entries`` states.

    A tuple ``(slots, links, heads, meta)``: ``slots[i]`` holds entry ``i``'s key and
    word, filled in order; ``links[i]`` chains entries of one bucket; ``heads[b]``
    starts bucket ``b`` (entry indices plus one, 0 for none); ``meta`` holds the
    number of entries and of buckets in use. The arrays are allocated at their
    final size but touched only as far as they are used (the buckets in use grow
    with the entries), so a small search pays for little memory: the operating
    system commits a page on its first write, which is slow on some machines.
    """
    entries = max(int(entries), 0)
    max_buckets = 16
    while max_buckets * 2 < entries:
        max_buckets *= 2
    meta = np.zeros(2, dtype=np.int64)
    meta[1] = min(1024, max_buckets)
    return (untouched_zeros((entries, 2), np.int64), untouched_zeros(entries, np.int32),
            untouched_zeros(max_buckets, np.int32), meta)


#: Arrays of at least this many bytes are mapped by :func:`untouched_zeros`.
MAPPED_BYTES = 1 << 20


def untouched_zeros(shape, dtype) -> np.ndarray:
    """``np.zeros(shape, dtype)`` whose pages the process commits only on first write,
    however its heap stands: an anonymous memory map, from :data:`MAPPED_BYTES` up.

    ``np.zeros`` asks ``calloc``, which gives fresh zero pages only for a block
    above glibc's mmap threshold; glibc raises that threshold (up to 32 MiB) each
    time the process frees a mapped block, and then serves such arrays from its
    heap, writing zeros over every byte. A table of 8,000,000 entries then cost 35
    ms instead of 0.2 ms to make, and 65 ms in a process forked from it (each page
    copied on write: the task samplers' children, ``scripts/forked_timing.py``,
    where a 5 ms task took 60 ms after the tests of ``tests/test_search.py`` had
    run in the parent). A map is zero and untouched whatever came before; it is
    unmapped when the array is freed. Like numpy's own large arrays on Linux, it
    asks for transparent huge pages where the system offers them (fewer misses of
    the address cache in a table read at random).
    """
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    if count * dtype.itemsize < MAPPED_BYTES:
        return np.zeros(shape, dtype=dtype)
    import mmap

    size = count * dtype.itemsize
    if hasattr(mmap, "MAP_PRIVATE"):  # private: a forked child copies what it writes
        block = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    else:
        block = mmap.mmap(-1, size)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            block.madvise(mmap.MADV_HUGEPAGE)
        except OSError:  # a kernel without them: plain pages
            pass
    return np.frombuffer(block, dtype=dtype).reshape(shape)


def colour_swaps(codes: np.ndarray, n_colours: int, lookup: np.ndarray) -> np.ndarray:
    """``(C*(C-1)/2, N)`` int32: the image of every code under each colour swap.

    Row ``p`` is the swap of colours ``a < b`` in lexicographic pair order;
    ``lookup`` maps ``sum c[i] * C**(P-1-i)`` to a code index.
    """
    codes = codes.astype(np.int64)
    pegs = codes.shape[1]
    rows = []
    for a in range(n_colours):
        for b in range(a + 1, n_colours):
            image = codes.copy()
            image[codes == a] = b
            image[codes == b] = a
            keys = np.zeros(len(codes), dtype=np.int64)
            for i in range(pegs):
                keys = keys * n_colours + image[:, i]
            rows.append(lookup[keys])
    if not rows:
        return np.zeros((0, len(codes)), dtype=np.int32)
    return np.asarray(rows, dtype=np.int32)


def position_swaps(codes: np.ndarray, n_colours: int, lookup: np.ndarray) -> np.ndarray:
    """``(P * C*(C-1)/2, N)`` int32: the image of every code under the swap of colours
    ``a < b`` at one position ``i`` only (row ``i * C*(C-1)/2 + pair``).

    Only black-only scoring with repeats is invariant under such swaps: a black
    counts a position where guess and secret agree, which a renaming of one
    position's colours keeps, and every image is a legal code.
    """
    codes = codes.astype(np.int64)
    pegs = codes.shape[1]
    rows = []
    for i in range(pegs):
        for a in range(n_colours):
            for b in range(a + 1, n_colours):
                image = codes.copy()
                image[codes[:, i] == a, i] = b
                image[codes[:, i] == b, i] = a
                keys = np.zeros(len(codes), dtype=np.int64)
                for j in range(pegs):
                    keys = keys * n_colours + image[:, j]
                rows.append(lookup[keys])
    return np.asarray(rows, dtype=np.int32).reshape(len(rows), len(codes))


#: Up to this many colours, the pairs of colours fit in one int64 bit mask and the
#: symmetry filter of :func:`_candidates` works on bit masks.
MASK_COLOURS = 11


def code_masks(codes: np.ndarray, n_colours: int) -> np.ndarray:
    """``(N, 4)`` int64, one row of facts per code:

    * column 0: the colours the code uses (bit ``c``);
    * column 1: its *inversions*: bit ``p`` for the ``p``-th pair of colours
      ``a < b`` (lexicographic, as in :func:`colour_swaps`) when the code uses both
      and ``b`` first appears before ``a`` (left empty above :data:`MASK_COLOURS`
      colours);
    * column 2: its colour multiset, numbered in order of first appearance (code 0
      has multiset 0, the first code with another multiset has 1, ...);
    * column 3, row ``i``: the first code of multiset ``i``, its representative; -1 in
      the rows past the last multiset.

    The multisets serve the worst case's colour-overlap filter
    (:func:`optimal_mm._overlap.overlap_pass`): the blacks plus whites of two codes
    depend on their multisets alone.
    """
    n, pegs = codes.shape
    first = np.full((n, n_colours), pegs, dtype=np.int64)
    for i in range(pegs - 1, -1, -1):
        first[np.arange(n), codes[:, i]] = i
    used = first < pegs
    out = np.zeros((n, 4), dtype=np.int64)
    for c in range(n_colours):
        out[:, 0] |= used[:, c].astype(np.int64) << c
    if n_colours <= MASK_COLOURS:
        p = 0
        for a in range(n_colours):
            for b in range(a + 1, n_colours):
                inverted = used[:, a] & used[:, b] & (first[:, b] < first[:, a])
                out[:, 1] |= inverted.astype(np.int64) << p
                p += 1
    counts = np.zeros((n, n_colours), dtype=np.int64)
    for i in range(pegs):
        counts[np.arange(n), codes[:, i]] += 1
    _, firsts, inverse = np.unique(counts, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(len(firsts), dtype=np.int64)
    rank[np.argsort(firsts)] = np.arange(len(firsts))
    out[:, 2] = rank[inverse.ravel()]
    out[:, 3] = -1
    out[:len(firsts), 3] = np.sort(firsts)
    return out


def lower_bound_table(n_max: int, r: int, d_max: int = NO_CAP,
                      cap_weight: int = 0) -> np.ndarray:
    """``LB[d, n]``: least conceivable cost of ``n`` secrets within ``d`` guesses.

    The tree filled greedily (one secret at depth 1, ``r`` at depth 2, ``r**2`` at
    depth 3, ...) puts its ``k``-th secret at depth ``level[k]``; ``n`` secrets cost
    at least ``level[1] + ... + level[n]`` guesses in total, and need ``level[n]``
    guesses. ``INF`` where that is more than ``d``: the counting bound says ``n``
    secrets cannot be told apart.

    With ``cap_weight`` ``w > 0`` the cost is lexicographic: a secret found by the
    ``d``-th guess, the last one allowed, costs ``w`` more (the ``fewest-at-worst``
    objective, :mod:`optimal_mm._search`). The greedy tree also puts the fewest
    secrets at depth ``d`` (the others fill every place above it), so the bound adds
    ``w`` times the number of ``k <= n`` with ``level[k] == d``. The row ``NO_CAP``
    (no cap) has no last guess and stays unweighted. The cells of one and two
    secrets are exact: the search reads their cost from the table.

    >>> lb = lower_bound_table(6, 2, d_max=4, cap_weight=100)
    >>> [int(x) for x in lb[3, 1:]]  # levels 1, 2, 2, 3, 3, 3
    [1, 3, 5, 108, 211, 314]
    >>> int(lb[0, 0]), int(lb[1, 1]), int(lb[2, 2]), int(lb[4, 6])
    (0, 101, 103, 14)
    """
    level = [0]
    width, depth = 1, 1
    while len(level) <= n_max:
        level.extend([depth] * min(width, n_max + 1 - len(level)))
        width, depth = min(width * r, n_max), depth + 1
    level = np.asarray(level, dtype=np.int64)
    total = np.cumsum(level)
    d = np.arange(d_max + 1, dtype=np.int64)[:, None]
    cost = total[None, :]
    if cap_weight:
        at_cap = np.cumsum((level[None, :] == d) & (level[None, :] > 0), axis=1)
        at_cap[d[:, 0] >= NO_CAP] = 0
        cost = cost + int(cap_weight) * at_cap
    return np.where(level[None, :] <= d, cost, INF).astype(np.int64)
