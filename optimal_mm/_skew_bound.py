"""A lower bound that knows black-only answers are skewed (compiled, numba).

The balanced-tree bound (:func:`~optimal_mm._search_arrays.lower_bound_table`)
assumes that a guess can split ``n`` secrets into ``r`` parts of about ``n / r``.
With black-only scoring that is far from what any guess achieves: a black is a
position where guess and secret agree, and few secrets agree with a guess anywhere.
This module bounds a state from its own per-position colour counts. It holds as
well wherever the answer is a function of the blacks: in a permutation game (every
code has each of the ``P = C`` colours once, so the whites are ``P`` less the
blacks), black-and-white scoring splits the secrets exactly as black-only scoring
does, and the search applies it there too (:func:`~optimal_mm._search_keys._blacks_decide`).

The constraint. Let ``f_p(c)`` be the number of secrets of ``S`` with colour ``c`` at
position ``p`` and ``F_p = max_c f_p(c)``. Under a guess ``g``, the secrets of the
part with ``k`` blacks (``m_k`` of them) each agree with ``g`` at exactly ``k``
positions, and the secrets agreeing with ``g`` at ``p`` number ``f_p(g_p)``, so,
counting the pairs (secret, position where it agrees with ``g``) both ways::

    sum_k k * m_k = sum_p f_p(g_p) <= sum_p F_p = B.

If ``g`` is a secret of ``S`` (``w = 1``) it is its own part with ``P`` blacks, and
the other parts share ``n - 1`` secrets and at most ``B_S - P`` blacks, where
``B_S = max over secrets s of sum_p f_p(s_p)`` (at most ``B``); otherwise (``w = 0``)
they share ``n`` secrets and at most ``B`` blacks. In particular the zero-black part
keeps at least ``n - B`` secrets, whatever the guess. When only consistent guesses
are allowed, ``w = 1`` always.

Constant positions. A position where every secret of ``S`` has the same colour
gives each of them the same black (or none): it shifts every answer alike and splits
nothing, yet it would add ``n`` to ``B``. So blacks are counted on the other
``P' = P - c`` positions only (``c`` constant ones): label a part by its blacks
there, ``k' = k - (constant positions g matches)``. The counting above holds with
``B'``, ``B'_S`` (the same sums over those positions) and ``P'``. A guessed secret
matches every constant position, so the other secrets take labels ``0 .. P' - 1``
and share ``B'_S - P'``; any other guess has labels ``0 .. P' - 1``, and also ``P'``
if it misses a constant position (a secret agreeing everywhere else is then not
found), sharing ``B'`` (:func:`_labels`). With ``c = 0`` this is the plain case.
A state after a few guesses often has settled positions; the bound rises there.

The bound. With ``L = LB[d - 1, .]`` the balanced-tree bound of a part (increasing
and convex in its size: its increments are the depths of the greedy tree, which never
decrease), every guess costs at least ``n + sum_k L(m_k)`` for its own part sizes,
hence at least::

    n + min over w in {0, 1} of  min { sum_{k<P} L(m_k) : m_k >= 0,
        sum_k m_k = n - w, sum_k k m_k <= B - P w },

(written for ``c = 0``; with constant positions, the labels and budgets above),

and so does the state's optimum, the least cost over its guesses. The inner
minimum is bounded from below by Lagrangian relaxation (weak duality): for any
``lam >= 0``, adding ``lam * (sum_k k m_k - (B - P w))``, which is ``<= 0`` on every
feasible vector, can only lower the minimum, and leaves one constraint, under which
the minimum of a separable convex cost is greedy: the ``n - w`` least of the
marginal costs ``L(i) - L(i - 1) + lam * k`` (part ``k``'s ``i``-th secret; each part
takes its cheapest first because the increments never decrease). The dual function
``h(lam)`` is concave and piecewise linear, with breakpoints where two marginal costs
meet, ``lam = (v - v') / (k' - k)``: multiples of ``1 / Q`` for ``Q = lcm(1..P-1)``,
so a search over ``lam = j / Q`` on the sign of the slope (the blacks of the greedy
choice less the budget) finds its maximum exactly (integer arithmetic scaled by
``Q``). Every value is rounded up: costs are integers. When no
vector is feasible at all (the parts cannot hold ``n - w`` secrets within ``B - P w``
blacks) that ``w`` is impossible, and with both impossible the state is too.

The worst case uses the same constraint: ``S`` is feasible within ``d`` guesses only
if its parts fit the counting bound of ``d - 1`` guesses, at most ``cap`` secrets
each; the fewest blacks ``n - w`` secrets need then is to fill part 0 to ``cap``,
then part 1, and so on (:func:`skew_feasible`).

Both cost ``O(n P)`` for the counts and ``O(n)`` to read the bound table's row, a
fraction of one guess's partition at the node (the node scores every guess).
"""

from __future__ import annotations

import numpy as np

from ._numba import njit
from ._search_arrays import INF

#: Most distinct marginal costs a bound row can have (depths up to ``NO_CAP``, and one
#: weighted depth of the ``fewest-at-worst`` cost).
_MAX_GROUPS = 130

#: Most breakpoints of the dual listed for its search (:func:`_breakpoints`); past
#: that many (rows with many distinct increments) it halves over every ``j``.
_MAX_BREAKPOINTS = 512


@njit(cache=True)
def position_blacks(S, codes, n_colours):
    """The blacks a guess can earn on ``S`` where they tell secrets apart:
    ``(any code, a secret, constant positions)``.

    A position where every secret of ``S`` has the same colour (a *constant* one) gives
    all of them the same black or none, which moves every answer by the same amount
    and splits nothing, so it is left out of the first two figures: the first is
    ``B' = sum_p F_p`` over the other positions (``F_p`` the count of the most frequent
    colour at ``p``), the second the most ``sum_p f_p(s_p)`` over the secrets ``s``
    on those positions (a secret's own blacks there included); the third is the
    number ``c`` of constant positions."""
    pegs = codes.shape[1]
    n = len(S)
    counts = np.zeros((pegs, n_colours), dtype=np.int64)
    for i_x in range(n):
        x = S[i_x]
        for p in range(pegs):
            counts[p, codes[x, p]] += 1
    total = 0
    constant = 0
    for p in range(pegs):
        most = 0
        for c in range(n_colours):
            if counts[p, c] > most:
                most = counts[p, c]
        if most == n:
            constant += 1
            for c in range(n_colours):
                counts[p, c] = 0  # no secret counts blacks here
        else:
            total += most
    secret = 0
    for i_x in range(n):
        x = S[i_x]
        own = 0
        for p in range(pegs):
            own += counts[p, codes[x, p]]
        if own > secret:
            secret = own
    return total, secret, constant


@njit(cache=True)
def _marginal_groups(row, n, values, sizes):
    """The increments of the bound row ``row`` over sizes ``1..n`` as runs:
    ``values[i]`` repeated ``sizes[i]`` times (non-decreasing); returns the number of
    runs. Sizes where the row is ``INF`` are left out (a part cannot hold them)."""
    g = 0
    for i in range(1, n + 1):
        if row[i] >= INF:
            break
        v = row[i] - row[i - 1]
        if g > 0 and values[g - 1] == v:
            sizes[g - 1] += 1
        elif g < len(values):
            values[g] = v
            sizes[g] = 1
            g += 1
        else:
            break
    return g


@njit(cache=True)
def _dual(j, q, need, budget, parts, values, sizes, n_groups, ptr, used):
    """``(Q h(j / Q), slope)``: the ``need`` least marginal costs ``Q v + j k`` over the
    parts ``k < parts`` (a ``parts``-way merge of the runs), less ``j * budget``; and
    ``H(j + 1) - H(j)`` for ``H(j) = Q h(j / Q)``, read off the same merge.

    The slope: ``H`` is linear between integers (its breakpoints are multiples of
    ``1 / Q``), so ``H(j + 1) - H(j)`` is its right derivative at ``j``, the blacks
    less the budget of the minimiser at ``j`` that uses the fewest blacks (the one
    still optimal just above ``j``). The merge finds it: every marginal cost below
    the last one taken is taken by any minimiser, and among equal ones it takes the
    parts with the fewest blacks first (the least ``k`` wins a tie)."""
    for k in range(parts):
        ptr[k] = 0
        used[k] = 0
    total = 0
    blacks = 0
    left = need
    while left > 0:
        best_k = -1
        best_v = 0
        for k in range(parts):
            if ptr[k] < n_groups:
                v = values[ptr[k]] * q + j * k
                if best_k < 0 or v < best_v:
                    best_k = k
                    best_v = v
        if best_k < 0:  # cannot happen: the caller checked the capacity
            return np.int64(INF) * q, np.int64(0)
        take = sizes[ptr[best_k]] - used[best_k]
        if take > left:
            take = left
        total += take * best_v
        blacks += take * best_k
        left -= take
        used[best_k] += take
        if used[best_k] == sizes[ptr[best_k]]:
            ptr[best_k] += 1
            used[best_k] = 0
    return total - j * budget, blacks - budget


@njit(cache=True)
def _least_blacks(need, parts, cap):
    """The fewest blacks ``need`` secrets take in ``parts`` parts of at most ``cap``:
    part 0 filled first, then part 1, ... (-1 when they do not fit)."""
    blacks = 0
    for k in range(parts):
        take = need if need < cap else cap
        blacks += take * k
        need -= take
        if need == 0:
            return blacks
    return -1


@njit(cache=True)
def _breakpoints(q, parts, values, n_groups, top):
    """The breakpoints of ``H`` (:func:`_dual`) in ``(0, top)``, sorted, then ``top``:
    every ``(v - v') * q / (k' - k)`` for run values ``v > v'`` and
    ``1 <= k' - k < parts`` (a multiple of ``1 / q`` scaled by ``q``: an integer).
    Empty when there are more than :data:`_MAX_BREAKPOINTS` of them."""
    m = n_groups * (n_groups - 1) // 2 * (parts - 1)
    if m > _MAX_BREAKPOINTS:
        return np.empty(0, dtype=np.int64)
    out = np.empty(m + 1, dtype=np.int64)
    i = 0
    for a in range(1, n_groups):
        for b in range(a):
            gap = (values[a] - values[b]) * q
            for dk in range(1, parts):
                out[i] = gap // dk
                i += 1
    out[:m].sort()
    out[m] = top
    return out


@njit(cache=True)
def _parts_minimum(need, budget, parts, q, values, sizes, n_groups, cap, ptr, used):
    """Lower bound on ``min sum_k L(m_k)`` over ``sum m_k = need`` and
    ``sum k m_k <= budget`` (``INF`` when no such vector fits the row): the maximum
    of the Lagrangian dual over ``lam = j / q``, by a search on its slope (it is
    concave: the slope never rises)."""
    if need == 0:
        return 0
    if budget < 0:
        return np.int64(INF)
    least = _least_blacks(need, parts, cap)
    if least < 0 or least > budget:
        return np.int64(INF)
    # H rises while its slope (the least blacks of a greedy choice less the
    # budget) is positive: its maximum is at the least j where the slope is not,
    # one merge a probe. Where the budget does not bind that is 0. Else it is a
    # breakpoint, a j where marginal costs of two parts meet: (v - v') * Q / (k' - k)
    # for run values v > v' and parts k < k' (between breakpoints the greedy choice
    # does not change, nor the slope). So the search runs over those few
    # candidates, sorted, rather than over every j up to ``top``, which grows with
    # the fewest-at-worst cost's weight: p6c7nb's consistent fewest at 9 spent 18 to
    # 27 % of its processor time in merges, over 40 a bound, by halving [0, top]
    # with H(mid + 1) and H(mid) compared.
    _, slope = _dual(0, q, need, budget, parts, values, sizes, n_groups, ptr, used)
    lo = 0
    if slope > 0:
        # Beyond lam = spread every part k >= 1 costs more than any of part 0:
        # the greedy weight stops falling and h decreases from there.
        top = (values[n_groups - 1] - values[0] + 1) * q
        cand = _breakpoints(q, parts, values, n_groups, top)
        listed = len(cand) > 0
        # Halve the candidates' indices, or (0, top] itself where they were too
        # many to list: the slope is positive below ``lo``, not above ``hi``.
        lo = 0 if listed else 1
        hi = len(cand) - 1 if listed else top
        while lo < hi:
            mid = (lo + hi) // 2
            _, slope = _dual(cand[mid] if listed else mid, q, need, budget, parts,
                             values, sizes, n_groups, ptr, used)
            if slope > 0:
                lo = mid + 1
            else:
                hi = mid
        if listed:
            lo = cand[lo]
    h, _ = _dual(lo, q, need, budget, parts, values, sizes, n_groups, ptr, used)
    return -((-h) // q)


@njit(cache=True)
def _labels(pegs, constant, w, blacks, blacks_secret):
    """``(parts, budget)``: how many part labels the secrets other than the guess can
    take, and the blacks they share at most, counting blacks on the ``P' = P - c``
    positions that are not constant (module docstring). A secret guessed (``w = 1``)
    matches every constant position, so the others are labelled ``0 .. P' - 1`` and
    share ``B'_S - P'``; any other guess has labels ``0 .. P' - 1``, and also ``P'``
    when a constant position exists that it may miss, sharing ``B'``."""
    free = pegs - constant
    if w:
        return free, blacks_secret - free
    return free + (1 if constant > 0 else 0), blacks


@njit(cache=True)
def skew_bound(S, codes, n_colours, row, consistent):
    """Lower bound on the cost of the black-only state ``S`` whose parts have the
    bound row ``row`` (``LB[d - 1, .]``, ``d`` guesses left): ``n`` plus the least
    total of parts that respect the black budget (module docstring); ``INF`` when no
    guess can split ``S`` within the row's counting bound. With ``consistent`` only
    the secrets may be guessed (``w = 1``)."""
    n = len(S)
    pegs = codes.shape[1]
    blacks, blacks_secret, constant = position_blacks(S, codes, n_colours)
    values = np.empty(_MAX_GROUPS, dtype=np.int64)
    sizes = np.empty(_MAX_GROUPS, dtype=np.int64)
    n_groups = _marginal_groups(row, n, values, sizes)
    if n_groups == 0:
        return np.int64(INF)
    cap = 0
    for i in range(n_groups):
        cap += sizes[i]
    q = 1
    for k in range(2, pegs):
        a, b = q, k
        while b:
            a, b = b, a % b
        q = q * k // a
    ptr = np.empty(pegs, dtype=np.int64)
    used = np.empty(pegs, dtype=np.int64)
    best = np.int64(INF)
    for w in range(1 if consistent else 0, 2):
        parts, budget = _labels(pegs, constant, w, blacks, blacks_secret)
        v = _parts_minimum(n - w, budget, parts, q, values, sizes, n_groups, cap, ptr, used)
        if v < best:
            best = v
    if best >= INF:
        return np.int64(INF)
    return n + best


@njit(cache=True)
def skew_feasible(S, codes, n_colours, cap, consistent):
    """Whether the black-only state ``S`` may be solved when every part must hold at
    most ``cap`` secrets (the counting bound of the guesses left after this one): a
    necessary condition, the fewest blacks its parts need within the budget. With
    ``consistent`` only the secrets may be guessed."""
    n = len(S)
    pegs = codes.shape[1]
    blacks, blacks_secret, constant = position_blacks(S, codes, n_colours)
    for w in range(1 if consistent else 0, 2):
        parts, budget = _labels(pegs, constant, w, blacks, blacks_secret)
        least = _least_blacks(n - w, parts, cap)
        if 0 <= least <= budget:
            return True
    return False
