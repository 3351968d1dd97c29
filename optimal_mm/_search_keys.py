"""How the compiled search keys a state: hashes of its image under the game's symmetry.

A state is the sorted array ``S`` of secrets still possible, and states that are
images of each other under a symmetry of the game have the same value. The
transposition table (:mod:`optimal_mm._search_table`) keys a state by two
independent hashes of the set of secret indices, or of their image under a group
element: a 64-bit key and a 32-bit check. Each is a sum of the mixed words of the
elements (:func:`_fold`), so no sorted copy is made: the image is hashed as it is
computed, in scratch space allocated once per node (:func:`_form_work`; measured on
the 2-core machine, ``--jobs 1``, the expected case's median solve in one process,
fresh tables each time: p5c4 80 -> 72 ms, mastermind 76 -> 72 ms, p4c8n 341 -> 320
ms, the same states). Distinct states collide with probability about
``m**2 / 2**97`` for ``m`` stored states: far below any hardware error rate, but it
is a hash, and the proof is exact up to that event.

Black-only scoring with repeats has a far bigger group: the colours of each position
may be renamed on their own and the positions permuted, whatever the history. The
table keys such a state by an image of it under that group (:func:`_normal_form`:
colours ranked by their count at each position, positions by those counts), shared
by many symmetric states, so one search serves them all: p4c7b's worst case with
consistent guesses from 1,442,499 states to 629, p4c6b's expected case from 44 s to
0.4 s, p8c3b's worst case with consistent guesses (t* = 10) from hours without an
end to under a second, every value of the table's black-only games with repeats
unchanged. Every other game keys its states by their image under one colour
permutation and one position permutation, the symmetries every game has
(:func:`_global_form`; under black-and-white scoring only from
:data:`_GLOBAL_FORM_SECRETS` secrets on with repeats, from
:data:`_GLOBAL_FORM_SECRETS_NO_REPEATS` without): p3c9nb's expected case from 2.35
million states to 48,776 (36 s to 2.4 s), Bulls and Cows' from 2.0 million to 1.04
million (26.4 s to 15.0 s, ``--jobs 1``); with its colours told apart by their
counts at the positions (where every code has every colour, their counts alone
tie), p3c9nb's to 20,118 states (1.2 s), Bulls and Cows' to 781,530 (11.9 s).
Permutation games (as many colours as pegs, no repeats) have one symmetry more:
inverting every code (colour ``x`` at position ``p`` becomes colour ``p`` at
position ``x``) keeps every answer, so a state of :data:`_INVERSE_SECRETS` secrets or
more whose positions' count profiles differ from its colours' is keyed by whichever
of itself and its inverse comes first (:func:`_orientation`): p6c6nb's
fewest-at-worst case from 35,890 states to 31,765, p6c6n's from 60,917 to 54,420.
:func:`_state_hash` picks the key of a state as its game allows
(:func:`_normalises`).
"""

from __future__ import annotations

import numpy as np

from ._numba import njit


#: States of this many secrets or more are keyed by their :func:`_global_form` under
#: black-and-white scoring with repeats.
_GLOBAL_FORM_SECRETS = 12

#: The same without repeats, where more small states are symmetric images of each
#: other (expected case, ``--jobs 1``, median of 4 solves in one process, from 12 /
#: 6 / 3 secrets: p4c8n 315 / 272 / 286 ms, p6c6n 638 / 444 / 465 ms, p5c6n 226 /
#: 148 / 158 ms; with repeats, 6 made p5c4 slower, 72 -> 79 ms).
_GLOBAL_FORM_SECRETS_NO_REPEATS = 6

#: Permutation games key states of this many secrets or more by the one of the state
#: and its inverse that :func:`_orientation` picks (``solve p6c6nb --objective
#: expected --jobs 1``: from 3 secrets on, 15,142 states -> 11,794, 0.43 -> 0.54 s,
#: the test costing more than it saves on small states; from 12, 13,483 and 0.46 s;
#: keying both and the smaller key where the test cannot tell, 10,570 and 1.5 s).
_INVERSE_SECRETS = 12


@njit(cache=True, inline="always")
def _mix(x):
    """splitmix64's finaliser on an int64 (its shifts made logical): a bijection of
    the 64-bit words that spreads every input bit over the whole word."""
    x = (x ^ ((x >> 30) & 0x3FFFFFFFF)) * np.int64(-4658895280553007687)
    x = (x ^ ((x >> 27) & 0x1FFFFFFFFF)) * np.int64(-7723592293110705685)
    return x ^ ((x >> 31) & 0x1FFFFFFFF)


@njit(cache=True, inline="always")
def _fold(s1, s2, x):
    """The two sums of a set (:func:`_set_key`) with the element ``x`` added: each
    element's word is mixed, twice, and the words summed, so the sums do not depend
    on the order of the elements and no sorted copy of a state is needed."""
    m = _mix(x ^ np.int64(0x2545F4914F6CDD1D))
    return s1 + m, s2 + _mix(m + np.int64(-7046029254386353131))


@njit(cache=True, inline="always")
def _set_key(s1, s2, n, d, weight):
    """The 64-bit key (never 0, the mark of an empty slot) and the 32-bit check of
    the state of ``n`` secrets whose :func:`_fold` sums are ``s1, s2``, with ``d``
    guesses left, under the cost of :func:`~optimal_mm._search._cap_weight` ``weight``."""
    seed = _mix(_mix(_mix(np.int64(weight)) + d) + n)
    h1 = _mix(s1 ^ seed)
    if h1 == 0:
        h1 = 1
    h2 = _mix(s2 + _mix(seed ^ np.int64(0x5851F42D4C957F2D)))
    return h1, (h2 >> 17) & 0xFFFFFFFF


@njit(cache=True, inline="always")
def _hash(S, d, weight):
    """The key and check (:func:`_set_key`) of the state ``(S, d)``, the set of
    secret indices ``S``."""
    s1 = np.int64(0)
    s2 = np.int64(0)
    for i in range(len(S)):
        s1, s2 = _fold(s1, s2, np.int64(S[i]))
    return _set_key(s1, s2, len(S), d, weight)


@njit(cache=True, inline="always")
def _image_hash(S, d, weight, codes, n_colours, rank, pos):
    """:func:`_hash` of the image of ``S`` (its codes' :func:`_image_key`), whose
    sorted keys are :func:`_image_keys`."""
    s1 = np.int64(0)
    s2 = np.int64(0)
    for i in range(len(S)):
        s1, s2 = _fold(s1, s2, _image_key(codes, S[i], n_colours, rank, pos))
    return _set_key(s1, s2, len(S), d, weight)


@njit(cache=True, inline="always")
def _form_work(pegs, n_colours):
    """Scratch space for :func:`_normal_map` and :func:`_global_map`, one per search
    node, not one per state keyed (a node keys every part of every guess it tries):
    ``pegs`` rows each of ranks, profiles and counts, three rows of colours or
    positions, and a signature row per colour."""
    return np.empty((3 * pegs + 3 + n_colours, max(pegs, n_colours)), dtype=np.int64)


@njit(cache=True, inline="always")
def _peg_counts(S, codes, cnt):
    """``cnt[p, c]`` := how many codes of ``S`` have colour ``c`` at position ``p``."""
    cnt[:, :] = 0
    for i in range(len(S)):
        for p in range(codes.shape[1]):
            cnt[p, codes[S[i], p]] += 1


@njit(cache=True, inline="always")
def _insert_desc(row, n, x):
    """Insert ``x`` into ``row[:n]``, sorted in decreasing order, making ``row[:n + 1]``
    (one step of an insertion sort)."""
    j = n
    while j > 0 and row[j - 1] < x:
        row[j] = row[j - 1]
        j -= 1
    row[j] = x


@njit(cache=True, inline="always")
def _rank_desc(values, order):
    """``order`` := the indices of ``values`` by decreasing value (ties: the lower
    index first); an insertion sort, for a handful of colours."""
    for i in range(len(values)):
        v = values[i]
        j = i
        while j > 0 and values[order[j - 1]] < v:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i


@njit(cache=True)
def _normal_map(S, codes, n_colours, work):
    """The symmetry of black-only scoring with repeats that takes ``S`` to its
    normal form (:func:`_normal_form`), as ``(rank, pos)`` (:func:`_image_key`),
    views of ``work`` (:func:`_form_work`)."""
    pegs = codes.shape[1]
    rank = work[:pegs, :n_colours]
    cnt = work[pegs:2 * pegs, :n_colours]
    order = work[3 * pegs, :n_colours]
    row = work[3 * pegs + 1, :n_colours]
    pos = work[3 * pegs + 2, :pegs]
    _peg_counts(S, codes, cnt)
    for p in range(pegs):
        _rank_desc(cnt[p], order)
        for r in range(n_colours):
            rank[p, order[r]] = r
            row[r] = cnt[p, order[r]]
        cnt[p, :] = row  # the counts so ranked: the position's profile
    _positions_by(cnt, pos)
    return rank, pos


@njit(cache=True)
def _global_map(S, codes, n_colours, work, inverse=False):
    """The colour and position permutation that takes ``S`` to its global form
    (:func:`_global_form`), as :func:`_normal_map` gives its map; with ``inverse``
    (permutation games only: as many colours as pegs, no repeats), the map of the
    state of the inverse codes (:func:`_inverse_key`), whose peg counts are those of
    ``S`` transposed."""
    pegs = codes.shape[1]
    rank = work[:pegs, :n_colours]
    cnt = work[pegs:2 * pegs, :n_colours]  # the profile, counts in the colours' order
    raw = work[2 * pegs:3 * pegs, :n_colours]
    order = work[3 * pegs, :n_colours]
    total = work[3 * pegs + 1, :n_colours]
    pos = work[3 * pegs + 2, :pegs]
    sig = work[3 * pegs + 3:3 * pegs + 3 + n_colours, :pegs]
    _peg_counts(S, codes, raw)
    if inverse:  # colour c at position p is, in the inverse code, colour p at c
        for p in range(pegs):
            for c in range(p + 1, n_colours):
                raw[p, c], raw[c, p] = raw[c, p], raw[p, c]
    for c in range(n_colours):  # each colour's counts over the positions, sorted
        t = 0
        for p in range(pegs):
            t += raw[p, c]
            _insert_desc(sig[c], p, raw[p, c])
        total[c] = t
    _rank_desc(total, order)
    _refine(total, sig, order)
    for step in range(2):
        for p in range(pegs):  # the counts in the colours' order: the profile
            for r in range(n_colours):
                cnt[p, r] = raw[p, order[r]]
        _positions_by(cnt, pos)
        if step == 0:  # tied colours: by their counts at the positions so ranked
            for c in range(n_colours):
                for q in range(pegs):
                    sig[c, q] = raw[pos[q], c]
            _refine(total, sig, order)
    for r in range(n_colours):
        for p in range(pegs):
            rank[p, order[r]] = r
    return rank, pos


@njit(cache=True, inline="always")
def _refine(total, sig, order):
    """Re-sort ``order`` (colours by decreasing ``total``) by decreasing ``sig``
    within each run of equal total (ties keep their order)."""
    _sort_by_rows(order, sig, total, True)


@njit(cache=True, inline="always")
def _sort_by_rows(order, rows, group, grouped):
    """Sort ``order`` by decreasing ``rows[order[i]]``, compared left to right, with
    ties kept in their order (an insertion sort: a handful of items); ``grouped``,
    an item moves only past items of its own ``group`` value."""
    for i in range(1, len(order)):
        j = i
        while j > 0:
            a, b = order[j - 1], order[j]
            if grouped and group[a] != group[b]:
                break
            before = False
            for q in range(rows.shape[1]):
                if rows[a, q] != rows[b, q]:
                    before = rows[b, q] > rows[a, q]
                    break
            if not before:
                break
            order[j - 1], order[j] = b, a
            j -= 1


@njit(cache=True)
def _normal_form(S, codes, n_colours):
    """``S`` moved by a symmetry of black-only scoring with repeats, in a form that
    many of the states symmetric to it share (sorted code indices).

    A black is a position where guess and secret agree, so renaming the colours of
    each position on its own, and permuting the positions, keeps every answer; with
    repeats every code maps to a code. States related by such a map have the same
    value under either guess rule, so the transposition table may key a state by
    its image. Here each position's colours are ranked by how many secrets of ``S``
    have them there (ties: the lower colour first), and the positions by the counts
    so ranked (ties: the lower position first). Ties make this a normalisation, not
    a canonical form: two symmetric states may still get two images (a missed table
    hit, never a wrong one), since whatever the ties, the map applied is a symmetry.
    The search hashes the image without making it (:func:`_state_hash`).
    """
    rank, pos = _normal_map(S, codes, n_colours, _form_work(codes.shape[1], n_colours))
    return _image_keys(S, codes, n_colours, rank, pos)


@njit(cache=True)
def _global_form(S, codes, n_colours):
    """``S`` renamed by one colour permutation and one position permutation (the
    symmetries of every game), as sorted mixed-radix code keys: colours ranked by how
    many pegs of ``S`` have them, then by their counts at the positions, sorted
    (which tells colours apart where every code has every colour: without repeats,
    as many colours as pegs); positions by their counts of the ranked colours; then
    the colours of equal count ranked again by their counts at the positions in
    that order, and the positions again (ties as in :func:`_normal_form`; a second
    round gained little more). Measured, ``solve GAME --objective expected --jobs 1``
    (states): p6c6nb 332,045 with colours ranked by count alone, 33,892 with the
    sorted counts, 15,142 with the second ranking; p3c9nb 48,776, 39,080, 20,118;
    p6c6n 306,013, 88,900, 53,424; p4c7nb 219,087, 140,000, 118,749."""
    rank, pos = _global_map(S, codes, n_colours, _form_work(codes.shape[1], n_colours))
    return _image_keys(S, codes, n_colours, rank, pos)


@njit(cache=True, inline="always")
def _positions_by(profile, pos):
    """``pos`` := the positions in decreasing order of their rows of ``profile``,
    compared left to right (ties: the lower position first)."""
    for i in range(profile.shape[0]):
        pos[i] = i
    _sort_by_rows(pos, profile, pos, False)


@njit(cache=True, inline="always")
def _image_key(codes, c, n_colours, rank, pos):
    """The mixed-radix key of code ``c`` with the colour ``x`` of position ``p``
    renamed ``rank[p, x]`` and position ``pos[q]`` moved to ``q`` (with repeats, the
    key is the image's code index)."""
    x = np.int64(0)
    for q in range(codes.shape[1]):
        p = pos[q]
        x = x * n_colours + rank[p, codes[c, p]]
    return x


@njit(cache=True)
def _orientation(S, codes, work):
    """Which of a permutation game's state ``S`` and its inverse to key: -1, ``S``;
    1, the inverse; 0, undecided. Inverting the codes transposes the peg counts
    (colours become positions), and the positions' sorted count profiles, sorted,
    do not change under colour or position renamings: the state whose profiles come
    first (compared with those of its colours) is keyed."""
    pegs = codes.shape[1]
    raw = work[2 * pegs:3 * pegs, :pegs]
    rows = work[:pegs, :pegs]
    cols = work[pegs:2 * pegs, :pegs]
    order_r = work[3 * pegs, :pegs]
    order_c = work[3 * pegs + 1, :pegs]
    _peg_counts(S, codes, raw)
    for p in range(pegs):
        for c in range(pegs):  # each row and each column, sorted
            _insert_desc(rows[p], c, raw[p, c])
            _insert_desc(cols[p], c, raw[c, p])
    for i in range(pegs):
        order_r[i] = i
        order_c[i] = i
    _sort_by_rows(order_r, rows, order_r, False)
    _sort_by_rows(order_c, cols, order_c, False)
    for i in range(pegs):
        for q in range(pegs):
            a = rows[order_r[i], q]
            b = cols[order_c[i], q]
            if a != b:
                return -1 if a > b else 1
    return 0


@njit(cache=True, inline="always")
def _inverse_key(codes, c, n_colours, rank, pos):
    """:func:`_image_key` of the inverse of code ``c`` in a permutation game (as many
    colours as pegs, no repeats): the code with colour ``p`` at position ``x`` where
    ``c`` has colour ``x`` at position ``p``."""
    x = np.int64(0)
    for q in range(codes.shape[1]):
        colour = pos[q]  # the inverse's position pos[q] is the colour pos[q] of c
        p = 0
        while codes[c, p] != colour:
            p += 1
        x = x * n_colours + rank[colour, p]
    return x


@njit(cache=True, inline="always")
def _inverse_hash(S, d, weight, codes, n_colours, rank, pos):
    """:func:`_image_hash` of the state of the inverse codes of ``S``."""
    s1 = np.int64(0)
    s2 = np.int64(0)
    for i in range(len(S)):
        s1, s2 = _fold(s1, s2, _inverse_key(codes, S[i], n_colours, rank, pos))
    return _set_key(s1, s2, len(S), d, weight)


@njit(cache=True, inline="always")
def _image_keys(S, codes, n_colours, rank, pos):
    """The sorted :func:`_image_key` of the codes of ``S``."""
    out = np.empty(len(S), dtype=np.int64)
    for i in range(len(S)):
        out[i] = _image_key(codes, S[i], n_colours, rank, pos)
    out.sort()
    return out


@njit(cache=True, inline="always")
def _state_hash(S, d, weight, codes, n_colours, normal, work):
    """:func:`_hash` of ``S``, or, when it has three secrets or more, of its
    :func:`_normal_form` (``normal`` 1) or :func:`_global_form` (``normal`` 2; 3 from
    :data:`_GLOBAL_FORM_SECRETS` secrets on, 4 from
    :data:`_GLOBAL_FORM_SECRETS_NO_REPEATS`): :func:`_normalises`. ``work``:
    :func:`_form_work`."""
    n = len(S)
    if normal == 1 and n >= 3:
        rank, pos = _normal_map(S, codes, n_colours, work)
        return _image_hash(S, d, weight, codes, n_colours, rank, pos)
    if ((normal == 2 and n >= 3) or (normal == 3 and n >= _GLOBAL_FORM_SECRETS)
            or (normal == 4 and n >= _GLOBAL_FORM_SECRETS_NO_REPEATS)):
        if (normal != 3 and codes.shape[1] == n_colours and n >= _INVERSE_SECRETS
                and _orientation(S, codes, work) > 0):
            # A permutation game: inverting every code keeps every answer (the
            # blacks of two codes are the fixed points of one's inverse times the
            # other, and the whites all the rest), so a state and its inverse share
            # their value: the one of the two that :func:`_orientation` picks is
            # keyed (the state itself where it cannot tell).
            rank, pos = _global_map(S, codes, n_colours, work, True)
            return _inverse_hash(S, d, weight, codes, n_colours, rank, pos)
        rank, pos = _global_map(S, codes, n_colours, work)
        return _image_hash(S, d, weight, codes, n_colours, rank, pos)
    return _hash(S, d, weight)


@njit(cache=True, inline="always")
def _normalises(n_slots, codes, n_colours, repeats, symmetry):
    """How states are keyed: 1, by their :func:`_normal_form` (black-only scoring with
    repeats); 2, by their :func:`_global_form` (black-only without repeats); 3, by
    their global form from :data:`_GLOBAL_FORM_SECRETS` secrets on (black-and-white
    scoring with repeats, where the form costs more than the table hits it brings on
    small states: p5c4's expected case 0.09 s of search keying every state, 0.08 s
    from 12 secrets, while p3c9nb's takes 2.4 s keying every state and 3.6 s from
    12); 4, from :data:`_GLOBAL_FORM_SECRETS_NO_REPEATS` on (black-and-white scoring
    without repeats); 0, by themselves (symmetry off). A permutation game with
    black-and-white scoring is keyed as its black-only twin (2): its answers are its
    blacks' (``solve p6c6n --objective expected --jobs 1``: 28,877 states -> 13,483,
    p6c6nb's own count; fewest-at-worst 60,777 -> 31,765; the same search times)."""
    if not symmetry:
        return 0
    if _blacks_decide(n_slots, codes, n_colours, repeats):
        return 1 if repeats else 2  # a permutation game has no repeats
    return 3 if repeats else 4


@njit(cache=True, inline="always")
def _blacks_decide(n_slots, codes, n_colours, repeats):
    """Whether a guess's answer is a function of its blacks alone, so that the
    skew-aware bound and test (:mod:`optimal_mm._skew_bound`), which count blacks
    from the codes, apply: black-only scoring, or a permutation game (every code has
    every colour once, so the whites are the pegs less the blacks). For permutation
    games with black-and-white scoring (measured on the 2-core machine beside a table
    run, ``solve p7c7n --objective worst-case --jobs 1``): 73,613 states, 364.6
    million guesses evaluated, 42.2 s -> 20,669 states, 97.7 million, 11.6 s."""
    pegs = codes.shape[1]
    return n_slots == pegs + 1 or (not repeats and n_colours == pegs)
