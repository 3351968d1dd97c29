"""A node's guesses: how they split its secrets, which of them to try, in what order.

Every objective expands a state ``S`` the same way (:mod:`optimal_mm._search`): for
each candidate guess, split ``S`` into parts by answer (:func:`_split`, or counted
only, :func:`_score`, along rows of the answer table that :func:`_columns` copies
when that pays), bound the parts, and try the guesses in order of their bounds
(:func:`_pop_min`). This module holds the pieces the expected and the worst case
share.

Symmetry at every node: two colours are *interchangeable* in ``S`` when swapping
them maps ``S`` onto itself (tested directly, pair by pair, with a precomputed
table of the swaps: :func:`_colour_classes`). Interchangeable colours fall into
classes; renaming colours within a class fixes ``S`` and maps a guess's partition
onto the partition of its image, so only one guess per orbit is tried
(:func:`_candidates`): the one whose class colours, read left to right at their
first occurrence, are the smallest of their class in increasing order. Colours in
no secret (*dead*) are interchangeable too, and with repeats more: a dead peg never
scores, so every dead peg may as well be the smallest dead colour. This generalises
the history stabilizer of the top two levels (:mod:`optimal_mm.symmetry`) to every
state, without knowing the history. Black-only scoring with repeats has more
symmetry: the colours of each position may be renamed on their own (a black is a
position where guess and secret agree). There the classes are found per position
too (:func:`_position_classes`), and the group that leaves fewer guesses is used
(turning the black-only tables from minutes per game into seconds). The classes
become bit masks (:func:`_orbits`) that filter the pools of guesses, secrets first
(:func:`_orbit_guesses`).

Guesses are evaluated secrets first (:func:`_secrets_first`), one partition at a
time, so that a node closes as soon as one guess meets the node's bound (a secret
splitting the rest into singletons costs ``2n - 1``, the least possible; when no
secret does, ``2n`` is the least and a guess meeting it closes the node). The exact
two-guess test (:func:`_two_guess_test`) is the same idea at ``d = 2``: ``S`` is
solvable within two guesses iff some guess gives every secret its own answer.
"""

from __future__ import annotations

import numpy as np

from ._numba import njit
from ._search_arrays import MASK_COLOURS


#: Largest copy of answer rows made by :func:`_columns` (bytes).
_COLUMNS_BYTES = 1 << 19


@njit(cache=True)
def _columns(table, S, narrow=False):
    """The answers of every code against the secrets of ``S``: row ``j`` is
    ``table[S[j]]``. The answer table is symmetric (a guess scores against a secret
    as the secret would against the guess), so column ``g`` holds guess ``g``'s
    answers, and the rows, copied in one sequential pass, stay in the fastest cache
    while every guess is scored against them (measured: a third faster on Bulls and
    Cows, whose 25 MB table does not fit the cache). Above :data:`_COLUMNS_BYTES`
    the copy would cost more than it saves: no rows are copied then, and
    :func:`_score` reads the table itself.

    With ``narrow`` (a node of consistent guesses, whose guesses are its secrets),
    only the secrets' columns, in the order of ``S``: column ``i`` holds guess
    ``S[i]``'s answers. A copy of every code's column cost such nodes more than their
    scoring (``perf``, ``solve p6c7nb --objective expected --guesses consistent``:
    9.5 % of the processor time in this copy, and more in ``malloc`` and page
    faults, for rows of 5,040 answers of which a node reads a few)."""
    n_cols = len(S) if narrow else table.shape[1]
    rows = len(S) if len(S) * n_cols <= _COLUMNS_BYTES else 0
    sub = np.empty((rows, n_cols), dtype=table.dtype)
    for j in range(rows):
        x = S[j]
        if narrow:
            for i in range(n_cols):
                sub[j, i] = table[x, S[i]]
        else:
            for g in range(n_cols):
                sub[j, g] = table[x, g]
    return sub


@njit(cache=True)
def _score(table, sub, g, S, cnt, seen, cap, win):
    """Part sizes of ``S`` under guess ``g``: ``cnt[a]`` for the answers ``seen[:k]``
    that occur (returns ``k``), read from the rows of :func:`_columns` when it made
    them. ``cnt`` must be all zero; the caller zeroes the entries it read, so no
    pass over every answer is needed. Gives up (returns -1, ``cnt`` zeroed) as soon
    as a part other than ``win`` exceeds ``cap`` secrets."""
    k = 0
    over = False
    for j in range(len(S)):
        a = sub[j, g] if sub.shape[0] else table[g, S[j]]
        if cnt[a] == 0:
            seen[k] = a
            k += 1
        cnt[a] += 1
        if cnt[a] > cap and a != win:
            over = True
            break
    if over:
        for j in range(k):
            cnt[seen[j]] = 0
        return -1
    return k


@njit(cache=True, inline="always")
def _popcount(x):
    """Number of bits set in the non-negative int64 ``x``."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def _twin_table(S, codes, n_colours, n_guesses):
    """What :func:`_twin` needs at a node of ``S`` where the answer is a function of
    the blacks (:func:`~optimal_mm._search_keys._blacks_decide`): each position's
    colours that some secret has there, as a bit mask, and an empty hash set (-1 a
    free slot) of at least twice as many slots as it can get keys (the fewer of
    ``n_guesses`` and the patterns possible); an empty one where no guess can have a
    twin, as no position has two colours that no secret has there."""
    pegs = codes.shape[1]
    alive = np.zeros(pegs, dtype=np.int64)
    for j in range(len(S)):
        x = S[j]
        for p in range(pegs):
            alive[p] |= np.int64(1) << codes[x, p]
    # A guess with a dead colour somewhere is the one its set records: at most one
    # per pattern with a dead position, fewer than the product of the positions'
    # choices (a live colour, or dead), and fewer than the guesses.
    some = False
    patterns = 1
    for p in range(pegs):
        live = _popcount(alive[p])
        some = some or n_colours - live >= 2
        patterns = min(patterns * (live + 1), n_guesses)
    size = 0
    if some:
        size = 64
        while size < 2 * patterns:
            size *= 2
    return alive, np.full(size, -1, dtype=np.int64)


@njit(cache=True, inline="always")
def _twin(g, codes, n_colours, alive, met):
    """Whether a guess met before at this node splits ``S`` as ``g`` does, because
    it has the same colour as ``g`` at each position or, where not, two colours no
    secret has there (``alive``, from :func:`_twin_table`); else ``g``'s pattern is
    added to ``met``.

    Where the answer is a function of the blacks, a guess scores a secret by the
    positions where the two agree, and a colour that no secret of ``S`` has at a
    position agrees with none there, whichever it is. So the guesses of one pattern
    (each position's colour, or "none of theirs") split ``S`` alike: the same parts,
    the same bound and the same value. The search tries the first of them in its
    order, as it did when it scored them all (the others could only tie it, and a
    tie keeps the first). A secret of ``S`` is its own pattern's only code (every
    one of its colours is alive where it stands). Such twins abound in small states:
    in p4c8nb's states below 1234 2356 (343 drawn at random, medians), the 1,680
    codes fall into 76 patterns at 3 to 7 secrets (52 different splits), 289 at 8
    to 19, 1,065 at 20 to 59 and 1,318 from 60 secrets on."""
    pegs = codes.shape[1]
    key = np.int64(0)
    dead = False
    for p in range(pegs):
        c = np.int64(codes[g, p])
        if (alive[p] >> c) & 1:
            key = key * (n_colours + 1) + c
        else:
            key = key * (n_colours + 1) + n_colours
            dead = True
    if not dead:  # its pattern is itself: no other code has it
        return False
    mask = len(met) - 1
    h = ((key * np.int64(0x5BD1E995)) >> 7) & mask
    while True:
        slot = met[h]
        if slot == key:
            return True
        if slot < 0:
            met[h] = key
            return False
        h = (h + 1) & mask


@njit(cache=True)
def _twins_apply(codes, n_colours, n_slots, repeats, consistent):
    """Whether a node's guesses are checked for twins (:func:`_twin`): where the
    answer is a function of the blacks (black-only scoring, as a permutation game's
    too), with any guesses (a node of consistent guesses has none: its guesses are
    its secrets), without repeats (with them the colour classes of each position
    already leave one guess of each pattern, :func:`_orbits`) and with colours to
    spare: in a permutation game a guess has none, and twins are too few to pay for
    the look-up (a tenth of p6c6nb's guesses; its fewest at 7, ``--jobs 1``: 0.97 s
    -> 1.11 s when every node looked them up). And where a pattern's key fits."""
    pegs = codes.shape[1]
    if not (n_slots == pegs + 1 and not consistent and not repeats and n_colours > pegs):
        return False
    span = 1  # every pattern's key (_twin) must fit an int64: (colours + 1) ** pegs
    for _ in range(pegs):
        span *= n_colours + 1
        if span >= 1 << 62:
            return False
    return True


@njit(cache=True)
def _without_twins(guesses, S, codes, n_colours):
    """``guesses`` less their twins at ``S`` (:func:`_twin`), in their order: the
    first of each pattern stays."""
    alive, met = _twin_table(S, codes, n_colours, len(guesses))
    if len(met) == 0:
        return guesses
    out = np.empty(len(guesses), dtype=np.int64)
    m = 0
    for k in range(len(guesses)):
        g = guesses[k]
        if not _twin(g, codes, n_colours, alive, met):
            out[m] = g
            m += 1
    return out[:m]


@njit(cache=True)
def _split(row, S, n_slots):
    """Parts of ``S`` by answer: (sorted secrets grouped by answer, start offsets)."""
    counts = np.zeros(n_slots + 1, dtype=np.int64)
    for i_x in range(len(S)):
        x = S[i_x]
        counts[row[x] + 1] += 1
    for a in range(n_slots):
        counts[a + 1] += counts[a]
    pos = counts[:-1].copy()
    out = np.empty(len(S), dtype=np.int64)
    for i_x in range(len(S)):
        x = S[i_x]
        a = row[x]
        out[pos[a]] = x
        pos[a] += 1
    return out, counts


@njit(cache=True)
def _in_set(S, n_codes):
    mask = np.zeros(n_codes, dtype=np.bool_)
    for i_x in range(len(S)):
        x = S[i_x]
        mask[x] = True
    return mask


@njit(cache=True)
def _colour_classes(S, in_s, codes, n_colours, swaps):
    """Each colour's class in ``S`` and its rank there: ``(root, rank, size)``.

    ``root[c]`` is the smallest colour of ``c``'s class, ``rank[c]`` the number of
    class colours below ``c`` and ``size[root]`` the size of the class. Dead colours
    (in no secret) form one class; two live colours share a class when a chain of
    swaps, each mapping ``S`` onto itself, joins them (the swaps then generate every
    permutation of the class, all fixing ``S``).
    """
    present = np.zeros(n_colours, dtype=np.bool_)
    for i_x in range(len(S)):
        x = S[i_x]
        for i in range(codes.shape[1]):
            present[codes[x, i]] = True
    root = np.arange(n_colours)
    first_dead = -1
    pair = 0
    for a in range(n_colours):
        if not present[a]:
            if first_dead < 0:
                first_dead = a
            root[a] = first_dead
            pair += n_colours - a - 1
            continue
        for b in range(a + 1, n_colours):
            if present[b]:
                ra = root[a]
                while root[ra] != ra:
                    ra = root[ra]
                rb = root[b]
                while root[rb] != rb:
                    rb = root[rb]
                if ra != rb:
                    row = swaps[pair]
                    fixed = True
                    for i_x in range(len(S)):
                        x = S[i_x]
                        if not in_s[row[x]]:
                            fixed = False
                            break
                    if fixed:
                        root[max(ra, rb)] = min(ra, rb)
            pair += 1
    rank = np.zeros(n_colours, dtype=np.int64)
    size = np.zeros(n_colours, dtype=np.int64)
    for c in range(n_colours):
        r = root[c]
        while root[r] != r:
            r = root[r]
        root[c] = r
        rank[c] = size[r]
        size[r] += 1
    return root, rank, size, first_dead


@njit(cache=True)
def _position_classes(S, in_s, codes, n_colours, swaps):
    """``root[i, c]``: the smallest colour of ``c``'s class at position ``i`` (black-only
    scoring with repeats; the rows of :func:`~optimal_mm._search_arrays.position_swaps`
    follow the colour swaps in ``swaps``). Colours in no secret at position ``i`` form
    one class there; two others share a class when a chain of swaps at position ``i``,
    each mapping ``S`` onto itself, joins them."""
    pegs = codes.shape[1]
    pairs = n_colours * (n_colours - 1) // 2
    present = np.zeros((pegs, n_colours), dtype=np.bool_)
    for i_x in range(len(S)):
        for i in range(pegs):
            present[i, codes[S[i_x], i]] = True
    root = np.empty((pegs, n_colours), dtype=np.int64)
    for i in range(pegs):
        for c in range(n_colours):
            root[i, c] = c
        first_dead = -1
        pair = 0
        for a in range(n_colours):
            if not present[i, a]:
                if first_dead < 0:
                    first_dead = a
                root[i, a] = first_dead
                pair += n_colours - a - 1
                continue
            for b in range(a + 1, n_colours):
                if present[i, b]:
                    ra = a
                    while root[i, ra] != ra:
                        ra = root[i, ra]
                    rb = b
                    while root[i, rb] != rb:
                        rb = root[i, rb]
                    if ra != rb:
                        row = pairs * (1 + i) + pair
                        fixed = True
                        for i_x in range(len(S)):
                            if not in_s[swaps[row, S[i_x]]]:
                                fixed = False
                                break
                        if fixed:
                            root[i, max(ra, rb)] = min(ra, rb)
                pair += 1
        for c in range(n_colours):
            r = c
            while root[i, r] != r:
                r = root[i, r]
            root[i, c] = r
    return root


@njit(cache=True, inline="always")
def _canonical_pegs(codes, g, root, rank, size, first_dead, repeats, seen, nxt):
    """Whether guess ``g`` is its orbit's representative, read peg by peg: each
    class's colours first appear as the class's smallest, in increasing order (the
    dead colours, with repeats: only the smallest is used)."""
    ok = True
    pegs = codes.shape[1]
    for i in range(pegs):
        c = codes[g, i]
        r = root[c]
        if size[r] <= 1:
            continue
        if repeats and r == first_dead:
            if c != first_dead:
                ok = False
                break
            continue
        if not seen[c]:
            if rank[c] != nxt[r]:
                ok = False
                break
            seen[c] = True
            nxt[r] += 1
    for i in range(pegs):
        c = codes[g, i]
        seen[c] = False
        nxt[root[c]] = 0
    return ok


@njit(cache=True, inline="always")
def _canonical_bits(used, inversions, banned, pair_mask, class_masks, n_classes):
    """:func:`_canonical_pegs` on bit masks: no banned colour (a dead one other than
    the smallest, with repeats), no two colours of a class in decreasing order of
    first appearance, and each class's colours in use the smallest of the class
    (``x`` is such a prefix of class ``K`` iff every colour of ``K`` missing from
    ``x`` is above all of ``x``)."""
    if used & banned or inversions & pair_mask:
        return False
    for j in range(n_classes):
        k = class_masks[j]
        x = used & k
        rest = k ^ x
        if rest != 0 and x >= (rest & -rest):
            return False
    return True


@njit(cache=True)
def _secrets_first(S, in_s, all_guesses, consistent):
    """The secrets, then (unless only consistent guesses are allowed) the other codes."""
    if consistent:
        return S
    out = np.empty(len(all_guesses), dtype=np.int64)
    out[:len(S)] = S
    m = len(S)
    for i_g in range(len(all_guesses)):
        g = all_guesses[i_g]
        if not in_s[g]:
            out[m] = g
            m += 1
    return out[:m]


@njit(cache=True)
def _candidates(S, in_s, top_guesses, all_guesses, consistent, codes, n_colours, repeats,
                swaps, masks, symmetry):
    """The guesses to try at ``S`` and how many of them, at the front, are secrets.

    The caller's ``top_guesses`` if any (symmetry representatives of the top
    levels); else one guess per orbit of the colour classes of ``S`` (see the
    module docstring; every code when ``symmetry`` is off), the secrets first, then
    (unless only consistent guesses are allowed) the other codes.
    """
    if len(top_guesses):
        return top_guesses, 0
    if not symmetry:  # for comparison only: every code, the secrets first
        return _secrets_first(S, in_s, all_guesses, consistent), len(S)
    out = np.empty(len(S) if consistent else len(S) + len(all_guesses), dtype=np.int64)
    orbits = _orbits(S, in_s, codes, n_colours, repeats, swaps)
    m, n_secrets = _orbit_guesses(S, in_s, all_guesses, consistent, codes, n_colours, repeats,
                                  swaps, masks, orbits, 0, 1 if consistent else 2, out, 0)
    return out[:m], n_secrets


@njit(cache=True, inline="always")
def _lazy_candidates(swaps, n_colours, consistent, top_guesses, symmetry):
    """Whether a node may take its secrets first and the other codes only if none of
    the secrets closes it (about half the nodes close on a secret). Not with the
    per-position group, whose choice needs the whole count."""
    return (symmetry and not consistent and len(top_guesses) == 0
            and not _position_group(swaps, n_colours))


@njit(cache=True, inline="always")
def _position_group(swaps, n_colours):
    """Whether ``swaps`` also holds the swaps at one position (black-only scoring
    with repeats, :func:`~optimal_mm._search_arrays.position_swaps`): more rows than
    colour pairs."""
    return swaps.shape[0] > n_colours * (n_colours - 1) // 2


@njit(cache=True)
def _orbits(S, in_s, codes, n_colours, repeats, swaps):
    """The colour classes of ``S`` (:func:`_colour_classes`) and, for the bit-mask
    filter, each class of two or more colours as a mask, the banned colours (the
    dead ones but the smallest, with repeats) and the pairs within a class."""
    root, rank, size, first_dead = _colour_classes(S, in_s, codes, n_colours, swaps)
    # The classes as bit masks (used when the colours are few enough).
    class_masks = np.zeros(n_colours, dtype=np.int64)
    n_classes = 0
    banned = np.int64(0)
    pair_mask = np.int64(0)
    for r in range(n_colours):
        if root[r] != r or size[r] <= 1:
            continue
        k = np.int64(0)
        for c in range(n_colours):
            if root[c] == r:
                k |= np.int64(1) << c
        if repeats and r == first_dead:
            banned = k ^ (np.int64(1) << r)
            continue
        class_masks[n_classes] = k
        n_classes += 1
    if n_colours <= MASK_COLOURS:
        p = 0
        for a in range(n_colours):
            for b in range(a + 1, n_colours):
                if root[a] == root[b] and not (repeats and root[a] == first_dead):
                    pair_mask |= np.int64(1) << p
                p += 1
    return root, rank, size, first_dead, class_masks, n_classes, banned, pair_mask


@njit(cache=True)
def _orbit_guesses(S, in_s, all_guesses, consistent, codes, n_colours, repeats, swaps, masks,
                   orbits, first_phase, end_phase, out, start):
    """One guess per orbit of the colour classes of ``S`` (``orbits``, from
    :func:`_orbits`), from the pools of phases ``first_phase`` to ``end_phase - 1``
    (phase 0 the secrets, phase 1 the other codes), written to ``out`` from index
    ``start`` on. Returns the end of what was written and how many of the guesses
    are secrets (the first ones)."""
    root, rank, size, first_dead, class_masks, n_classes, banned, pair_mask = orbits
    nontrivial = n_classes > 0 or banned != 0
    m = start
    seen = np.zeros(n_colours, dtype=np.bool_)
    nxt = np.zeros(n_colours, dtype=np.int64)
    n_secrets = 0
    # Black-only scoring with repeats: the colours of each position may also be renamed
    # on their own. One guess per orbit of those renamings has each peg the smallest
    # colour of its class at its position; that group is used (second pass) when it
    # leaves fewer guesses (both are groups fixing S: either choice is exact).
    by_position = (_position_group(swaps, n_colours) and first_phase == 0
                   and end_phase == (1 if consistent else 2))
    proot = np.zeros((0, n_colours), dtype=np.int64)
    for use_position in (False, True):
        if use_position:
            if not by_position:
                break
            proot = _position_classes(S, in_s, codes, n_colours, swaps)
            count = 1
            for i in range(codes.shape[1]):
                count *= np.sum(proot[i] == np.arange(n_colours))
            if count >= m - start:
                break
            m = start
        for phase in range(first_phase, end_phase):
            pool = S if phase == 0 else all_guesses
            for i_g in range(len(pool)):
                g = pool[i_g]
                if phase == 1 and in_s[g]:
                    continue
                ok = True
                if use_position:
                    for i in range(codes.shape[1]):
                        if proot[i, codes[g, i]] != codes[g, i]:
                            ok = False
                            break
                elif nontrivial:
                    if n_colours <= MASK_COLOURS:
                        ok = _canonical_bits(masks[g, 0], masks[g, 1], banned, pair_mask,
                                             class_masks, n_classes)
                    else:
                        ok = _canonical_pegs(codes, g, root, rank, size, first_dead,
                                             repeats, seen, nxt)
                if ok:
                    out[m] = g
                    m += 1
            if phase == 0:
                n_secrets = m - start
    return m, n_secrets


_TAKEN = 1 << 62

#: Guesses picked one at a time (a linear scan each) before the rest are heaped: most
#: states are settled by their first guess or two, where building a heap would cost
#: more than all of the node's partitions.
_SCANS = 8


@njit(cache=True, inline="always")
def _before(keys, a, b):
    """Whether index ``a`` comes before ``b``: the lesser key, ties the lower index."""
    return keys[a] < keys[b] or (keys[a] == keys[b] and a < b)


@njit(cache=True, inline="always")
def _sift_down(keys, heap, i, size):
    """Restore the heap order of ``heap[:size]`` (indices, least by :func:`_before`
    at the root) below position ``i``."""
    x = heap[i]
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and _before(keys, heap[c + 1], heap[c]):
            c += 1
        if not _before(keys, heap[c], x):
            break
        heap[i] = heap[c]
        i = c
    heap[i] = x


@njit(cache=True)
def _pop_min(keys, order, pick, limit):
    """The index of the least key not yet taken (ties: the lowest index), or -1.

    ``pick`` counts the picks made (item 0), the indices left in the heap (item 1)
    and whether the rest has been read (item 2). The first :data:`_SCANS` picks scan
    ``keys``; taken keys are marked :data:`_TAKEN`. Then the indices whose keys are
    below ``limit`` (at most :data:`_TAKEN`) go to a binary heap in ``order``, built
    in linear time and popped one at a time: a node pops few of its guesses, so
    sorting them all (as before: 13 % of the processor time of ``solve p4c7nb
    --objective fewest-at-worst --jobs 1`` by ``perf``) cost more than it saved. The
    caller stops at the first key at or above ``limit`` (an expected-case node:
    twice its best total, when the heap is built, since its keys are twice a guess's
    bound plus a bit); that key, the least of the rest, is returned once the heap is
    empty, the one the caller's fail-soft bound needs.
    """
    picks = pick[0]
    pick[0] += 1
    if picks < _SCANS:
        best = -1
        low = _TAKEN
        for k in range(len(keys)):
            if keys[k] < low:
                low = keys[k]
                best = k
        if best >= 0:
            keys[best] = _TAKEN
        return best
    if picks == _SCANS:
        size = 0
        for k in range(len(keys)):
            if keys[k] < limit:  # at most _TAKEN: taken keys never enter
                order[size] = k
                size += 1
        for i in range(size // 2 - 1, -1, -1):
            _sift_down(keys, order, i, size)
        pick[1] = size
    size = pick[1]
    if size > 0:
        k = order[0]
        size -= 1
        order[0] = order[size]
        pick[1] = size
        if size > 0:
            _sift_down(keys, order, 0, size)
        keys[k] = _TAKEN
        return k
    if pick[2] == 0:  # the least key at or above the limit, once
        pick[2] = 1
        best = -1
        low = _TAKEN
        for k in range(len(keys)):
            if limit <= keys[k] < low:
                low = keys[k]
                best = k
        return best
    return -1


@njit(cache=True, inline="always")
def _signed_size(starts, a, negate):
    c = starts[a + 1] - starts[a]
    return -c if negate else c


@njit(cache=True, inline="always")
def _parts_by_size(starts, win, out, largest_first):
    """Answers of the non-empty parts other than ``win``, smallest part first (or
    largest first; ties: the lower answer), into ``out``; returns how many."""
    m = 0
    for a in range(len(starts) - 1):
        c = starts[a + 1] - starts[a]
        if c == 0 or a == win:
            continue
        if largest_first:
            c = -c
        j = m
        while j > 0 and _signed_size(starts, out[j - 1], largest_first) > c:
            out[j] = out[j - 1]
            j -= 1
        out[j] = a
        m += 1
    return m


@njit(cache=True)
def _perfect(row, S, seen):
    """Whether the guess with answer row ``row`` gives every secret of ``S`` its own answer."""
    for a in range(len(seen)):
        seen[a] = False
    for i_x in range(len(S)):
        x = S[i_x]
        a = row[x]
        if seen[a]:
            return False
        seen[a] = True
    return True


@njit(cache=True)
def _two_guess_test(S, guesses, table, n_slots, stats):
    """The exact two-guess test: ``S`` is solvable within 2 guesses iff some guess
    gives every secret a different answer (``guesses`` puts the secrets first, for
    an early hit)."""
    seen = np.zeros(n_slots, dtype=np.bool_)
    stats[0] += 1
    for i_g in range(len(guesses)):
        g = guesses[i_g]
        stats[2] += 1
        if _perfect(table[g], S, seen):
            return True, g
    return False, -1
