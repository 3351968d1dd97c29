"""The worst case's compiled search: can every secret be found within ``d`` guesses?

``feasible(S, d)`` (:func:`wc_search`) is true when some guess leaves every part
feasible within ``d - 1``. A guess is dropped while it is being scored, as soon as
one of its parts outgrows the counting bound of ``d - 1`` guesses (proving a state
infeasible means dropping every guess, and most go at the first few secrets). The
guesses left are tried by least largest part, then least sum of squared part sizes,
secrets first on ties (:func:`_wc_key`). Before a guess's parts are searched, the
table is asked whether one of them is already known to fail
(:func:`_wc_known_refuted`), and each node remembers a few parts that refuted its
guesses (:func:`_keeps_together`): a guess that keeps one of them together in a
part is refuted without being searched.

On big answer tables (Logik's 1 GiB) guesses are scored in blocks along the
secrets' rows rather than one at a time along their own (:func:`_wc_keys_blocked`):
the same keys, a few times faster, since a guess's row is then fetched from memory
a line per secret.

The lower bounds are the ones of :mod:`optimal_mm._search` (counting, skew-aware,
colour overlap), used as tests of feasibility; the transposition table
(:mod:`optimal_mm._search_table`) holds, per state, the fewest guesses known to
suffice and the most known not to (:func:`_wc_store`). A tree's guesses are
picked by :func:`wc_pick`: the first feasible guess in order of its balanced-tree
bound on the total, so that the worst-case tree is also small on average.
"""

from __future__ import annotations

import numpy as np

from ._numba import njit
from ._overlap import overlap_applies, overlap_keep, overlap_pass
from ._search_arrays import INF
from ._search_guesses import (
    _COLUMNS_BYTES, _TAKEN, _candidates, _columns, _in_set, _parts_by_size, _perfect, _pop_min,
    _score, _split, _twins_apply, _two_guess_test, _without_twins)
from ._search_keys import _blacks_decide, _form_work, _normalises, _state_hash
from ._search_table import _stopped, _tt_find, _tt_put
from ._skew_bound import skew_feasible


#: Codes from which the answer table (``N * N`` bytes: 64 MiB here) is far beyond
#: any cache, and a guess's answers, a row of it, are fetched from memory one
#: cache line per secret. From there the worst case scores guesses in blocks against
#: the secrets' rows instead (:func:`_wc_keys_blocked`, :func:`_two_guess_blocked`):
#: each row is then read in order, a block at a time. Below, the rows of a guess stay
#: in cache and the guess-at-a-time loops, which stop at the first secret that
#: settles a guess and use the symmetry of the state, are cheaper.
_SCAN_CODES = 8192

#: Guesses scored together (their counters fit the fastest cache), and the secrets
#: scored between two passes that drop the guesses already refuted.
_BLOCK_GUESSES = 256
_BLOCK_SECRETS = 8


@njit(cache=True, inline="always")
def _scan_rows(table, n):
    """Whether a worst-case node of ``n`` secrets scores guesses in blocks (above)."""
    return (table.shape[1] >= _SCAN_CODES and n * table.shape[1] > _COLUMNS_BYTES
            and n < 65535 - _BLOCK_SECRETS)  # the counters are 16-bit


@njit(cache=True, inline="always")
def _wc_key(biggest, total, n, lb_next, in_s_g):
    """The worst-case order of a guess whose largest part (besides the win) has
    ``biggest`` secrets and whose part sizes squared add up to ``total``: least
    largest part, then least sum of squares, then guesses that may be the secret;
    :data:`~optimal_mm._search_guesses._TAKEN` for a guess that cannot help (no split,
    a part too big for the guesses left ``lb_next``)."""
    if biggest == n or lb_next[biggest] >= INF:
        return _TAKEN
    return (biggest * (n * n + 1) + total) * 2 + (0 if in_s_g else 1)


@njit(cache=True, inline="always")
def _drain_parts(cnt, seen, n_seen, win, weight):
    """The largest part but the win and the sum of ``weight[size]`` over those parts,
    for the answers ``seen[:n_seen]`` counted in ``cnt`` by
    :func:`~optimal_mm._search_guesses._score`; zeroes the counts it reads, so ``cnt``
    is ready for the next guess."""
    biggest = 0
    total = 0
    for j in range(n_seen):
        a = seen[j]
        c = cnt[a]
        cnt[a] = 0
        if a == win:
            continue
        total += weight[c]
        if c > biggest:
            biggest = c
    return biggest, total


@njit(cache=True)
def _wc_keys(S, guesses, table, cap, lb_next, win, n_slots, in_s, order_key, stats):
    """The order key (:func:`_wc_key`) of every guess of a worst-case node, one guess
    at a time; a guess with a part above ``cap`` secrets is
    :data:`~optimal_mm._search_guesses._TAKEN` as soon as the part outgrows it. Returns
    the index of the first guess that splits ``S`` into singletons (the keys after it
    are not computed), or -1.
    """
    n = len(S)
    cnt = np.zeros(n_slots, dtype=np.int64)
    seen = np.empty(n_slots, dtype=np.int64)
    sub = _columns(table, S)
    squares = np.arange(len(S) + 1, dtype=np.int64) ** 2
    for k in range(len(guesses)):
        g = guesses[k]
        n_seen = _score(table, sub, g, S, cnt, seen, cap, win)
        stats[2] += 1
        if n_seen < 0:
            order_key[k] = _TAKEN
            continue
        biggest, total = _drain_parts(cnt, seen, n_seen, win, squares)
        order_key[k] = _wc_key(biggest, total, n, lb_next, in_s[g])
        if biggest <= 1 and order_key[k] < _TAKEN:
            return k
    return -1


@njit(cache=True)
def _wc_keys_blocked(S, guesses, table, cap, lb_next, win, n_slots, in_s, order_key,
                     stats):
    """:func:`_wc_keys` computed in blocks of guesses: the same keys, the same
    answer, the same count of guesses evaluated.

    For a block of :data:`_BLOCK_GUESSES` guesses, the secrets' rows of the answer
    table (row ``x`` holds every guess's answer to secret ``x``: the table is
    symmetric) are read in turn at the block's guesses, and each guess's part sizes
    grow in a small array of 16-bit counters (a live guess's parts never exceed
    ``cap``, nor a dropped one's ``cap + _BLOCK_SECRETS``). Every
    :data:`_BLOCK_SECRETS` secrets, the guesses with a part above ``cap`` are dropped
    from the block, so that a refuted guess costs about as many secrets as it does
    one at a time. Reading a row at a block
    of guesses touches a few neighbouring cache lines, where scoring one guess
    touches a line per secret (about 190 scattered reads per guess below a Logik
    task, :data:`_SCAN_CODES`).
    """
    n = len(S)
    m = len(guesses)
    block = _BLOCK_GUESSES
    cnt = np.zeros((block, n_slots), dtype=np.uint16)
    live = np.empty(block, dtype=np.int64)
    dead = np.zeros(block, dtype=np.bool_)
    for k0 in range(0, m, block):
        width = min(block, m - k0)
        n_live = width
        for b in range(width):
            live[b] = b
            dead[b] = False
        j = 0
        while j < n and n_live > 0:
            j1 = min(n, j + _BLOCK_SECRETS)
            for jj in range(j, j1):
                row = table[S[jj]]
                for t in range(n_live):
                    b = live[t]
                    a = row[guesses[k0 + b]]
                    c = cnt[b, a] + 1
                    cnt[b, a] = c
                    if c > cap and a != win:
                        dead[b] = True
            kept = 0
            for t in range(n_live):
                b = live[t]
                if not dead[b]:
                    live[kept] = b
                    kept += 1
            n_live = kept
            j = j1
        found = -1
        for b in range(width):
            k = k0 + b
            if dead[b]:
                order_key[k] = _TAKEN
            else:
                biggest = 0
                total = 0
                for a in range(n_slots):
                    c = cnt[b, a]
                    if a == win or c == 0:
                        continue
                    total += c * c
                    if c > biggest:
                        biggest = c
                order_key[k] = _wc_key(biggest, total, n, lb_next, in_s[guesses[k]])
                if biggest <= 1 and order_key[k] < _TAKEN:
                    found = k
                    break
        cnt[:width] = 0
        if found >= 0:
            stats[2] += found + 1
            return found
    stats[2] += m
    return -1


@njit(cache=True)
def _two_guess_blocked(S, table, n_slots, consistent, stats):
    """:func:`~optimal_mm._search_guesses._two_guess_test` for a big table
    (:data:`_SCAN_CODES`): the secrets first, each scored against the others, then
    every other code, in blocks read along the secrets' rows, a bit per answer (at most
    64 answers). The same answer; the guess returned is the first that separates the
    secrets in that order (every code, not one per orbit, and counted so in the
    statistics)."""
    n = len(S)
    seen = np.zeros(n_slots, dtype=np.bool_)
    stats[0] += 1
    for i in range(n):
        g = S[i]
        stats[2] += 1
        if _perfect(table[g], S, seen):
            return True, g
    if consistent:
        return False, -1
    n_codes = table.shape[1]
    block = _BLOCK_GUESSES
    bits = np.zeros(block, dtype=np.uint64)
    clash = np.zeros(block, dtype=np.uint64)
    one = np.uint64(1)
    for g0 in range(0, n_codes, block):
        width = min(block, n_codes - g0)
        for b in range(width):
            bits[b] = 0
            clash[b] = 0
        for j in range(n):
            row = table[S[j]]
            for b in range(width):
                bit = one << np.uint64(row[g0 + b])
                clash[b] |= bits[b] & bit
                bits[b] |= bit
        stats[2] += width
        for b in range(width):
            if clash[b] == 0:
                return True, g0 + b
    return False, -1


@njit(cache=True)
def wc_search(S, d, top_guesses, table, all_guesses, lb, win, n_slots, consistent,
              tt, stats, codes, n_colours, repeats, swaps, masks, symmetry):
    """Whether ``S`` can be solved within ``d`` guesses; returns ``(ok, guess)``.

    ``guess`` is a guess that keeps every part feasible (-2 when the answer came
    from the table, -1 when infeasible).
    """
    n = len(S)
    if n == 0:
        return True, -1
    if d <= 0:
        return False, -1
    if n == 1:
        return True, S[0]
    if lb[d, n] >= INF:
        return False, -1
    if n == 2:
        return True, S[0]
    use_tt = len(top_guesses) == 0
    in_s = _in_set(S, table.shape[1])
    if d == 2 and use_tt:
        if _blacks_decide(n_slots, codes, n_colours, repeats) and not skew_feasible(
                S, codes, n_colours, _counting_cap(lb, 1, n), consistent):
            return False, -1  # black-only: too few blacks (below)
        if overlap_applies(n_slots, codes.shape[1], masks):
            ok_two = np.empty(masks.shape[0], dtype=np.bool_)
            if overlap_pass(S, table, masks, 1, codes.shape[1], win, ok_two) == 0:
                return False, -1  # no multiset can separate S (below)
        if _scan_rows(table, n) and n_slots <= 64:
            return _two_guess_blocked(S, table, n_slots, consistent, stats)
        guesses, _ = _candidates(S, in_s, top_guesses, all_guesses, consistent, codes,
                                 n_colours, repeats, swaps, masks, symmetry)
        return _two_guess_test(S, guesses, table, n_slots, stats)
    key = np.int64(0)
    check = np.int64(0)
    normal = _normalises(n_slots, codes, n_colours, repeats, symmetry)
    work = _form_work(codes.shape[1], n_colours)
    if use_tt:
        key, check = _state_hash(S, 0, 0, codes, n_colours, normal, work)
        entry = _tt_find(tt, key, check)
        if entry >= 0:
            feasible_from = (entry >> 8) & 0xFF  # least d known feasible (0: none)
            infeasible_to = entry & 0xFF  # greatest d known infeasible
            if feasible_from and d >= feasible_from:
                stats[1] += 1
                return True, -2
            if d <= infeasible_to:
                stats[1] += 1
                return False, -1
    # Parts above cap secrets cannot be solved within d - 1 (the counting bound).
    cap = _counting_cap(lb, d - 1, n)
    if _blacks_decide(n_slots, codes, n_colours, repeats) and not skew_feasible(
            S, codes, n_colours, cap, consistent):
        _wc_store(tt, use_tt, key, check, d, False, stats)  # black-only: too few blacks
        return False, -1
    overlap = overlap_applies(n_slots, codes.shape[1], masks)
    ok_multisets = np.empty(masks.shape[0] if overlap else 0, dtype=np.bool_)
    if overlap and overlap_pass(S, table, masks, cap, codes.shape[1], win,
                                 ok_multisets) == 0:
        _wc_store(tt, use_tt, key, check, d, False, stats)  # no guess keeps parts in cap
        return False, -1
    if _stopped(stats):
        return False, -1
    stats[0] += 1
    guesses, _ = _candidates(S, in_s, top_guesses, all_guesses, consistent, codes,
                             n_colours, repeats, swaps, masks, symmetry)
    if overlap:
        guesses = overlap_keep(guesses, masks, ok_multisets)
    if _twins_apply(codes, n_colours, n_slots, repeats, consistent):
        guesses = _without_twins(guesses, S, codes, n_colours)
    m = len(guesses)
    order_key = np.empty(m, dtype=np.int64)
    part_order = np.empty(n_slots, dtype=np.int64)
    empty = top_guesses[:0]
    if _scan_rows(table, n):
        found = _wc_keys_blocked(S, guesses, table, cap, lb[d - 1], win, n_slots, in_s,
                                 order_key, stats)
    else:
        found = _wc_keys(S, guesses, table, cap, lb[d - 1], win, n_slots, in_s, order_key,
                         stats)
    if found >= 0:
        # Every part is a singleton: found within two guesses, or one.
        _wc_store(tt, use_tt, key, check, d, True, stats)
        return True, guesses[found]
    order = np.empty(m, dtype=np.int64)
    pick = np.zeros(3, dtype=np.int64)
    # The parts that refuted the guesses tried so far (the smallest kept): a guess
    # that keeps one of them within a single part leaves a superset of it, which
    # cannot be solved within d - 1 either (:func:`_keeps_together`). Any guesses
    # only: with consistent guesses a superset allows guesses the part did not.
    n_refuters = 0 if consistent else _REFUTERS
    refuters = np.empty((n_refuters, n), dtype=np.int64)
    refuter_len = np.zeros(n_refuters, dtype=np.int64)
    while True:
        if _stopped(stats):
            return False, -1
        idx = _pop_min(order_key, order, pick, _TAKEN)
        if idx < 0:
            break
        g = guesses[idx]
        if _keeps_together(table[g], refuters, refuter_len, win):
            stats[4] += 1
            continue
        parts, starts = _split(table[g], S, n_slots)
        n_parts = _parts_by_size(starts, win, part_order, True)
        if _wc_known_refuted(parts, starts, part_order, n_parts, d - 1, tt, codes,
                             n_colours, normal, work):
            stats[1] += 1
            continue
        ok = True
        for j in range(n_parts):
            a = part_order[j]
            part = parts[starts[a]:starts[a + 1]]
            sub_ok, _ = wc_search(part, d - 1, empty, table,
                                  all_guesses, lb, win, n_slots, consistent, tt, stats,
                                  codes, n_colours, repeats, swaps, masks, symmetry)
            if not sub_ok:
                if n_refuters:
                    _keep_refuter(part, refuters, refuter_len)
                ok = False
                break
        if ok:
            _wc_store(tt, use_tt, key, check, d, True, stats)
            return True, g
    _wc_store(tt, use_tt, key, check, d, False, stats)
    return False, -1


#: Refuting parts a worst-case node remembers (:func:`_keeps_together`).
_REFUTERS = 4


@njit(cache=True, inline="always")
def _keeps_together(row, refuters, refuter_len, win):
    """Whether the guess whose answers are ``row`` puts all the secrets of one of the
    remembered refuting parts in the same part (not the win): that part then holds
    a set already proven too big for the guesses left, and so is too big itself
    (with any guesses: a tree for the bigger set solves the smaller one). Costs a
    read per remembered secret, where splitting costs one per secret. Measured beside
    the transposition cutoff (:func:`_wc_known_refuted`; ``solve GAME --objective
    worst-case --jobs 1``, states): p4c7b 42,580 -> 31,636, p4c6b 63,173 -> 56,483,
    p3c10nb 23,384 -> 19,496 (search 2.3-2.4 -> 1.8-1.9 s); black-and-white games
    within noise (bulls-and-cows 3,737 -> 3,716 states)."""
    for k in range(len(refuter_len)):
        size = refuter_len[k]
        if size == 0:
            continue
        a = row[refuters[k, 0]]
        if a == win:
            continue
        together = True
        for j in range(1, size):
            if row[refuters[k, j]] != a:
                together = False
                break
        if together:
            return True
    return False


@njit(cache=True, inline="always")
def _keep_refuter(part, refuters, refuter_len):
    """Remember ``part`` as refuting, in a free slot or in place of the biggest one
    remembered, if it is smaller."""
    slot = 0
    if len(refuter_len) == 0:
        return
    for k in range(1, len(refuter_len)):
        if refuter_len[slot] == 0:
            break
        if refuter_len[k] == 0 or refuter_len[k] > refuter_len[slot]:
            slot = k
    if refuter_len[slot] != 0 and refuter_len[slot] <= len(part):
        return
    refuters[slot, :len(part)] = part
    refuter_len[slot] = len(part)


@njit(cache=True, inline="always")
def _wc_known_refuted(parts, starts, part_order, n_parts, d, tt, codes, n_colours, normal,
                      work):
    """Whether the table already holds one of a guess's parts as infeasible within
    ``d`` guesses: the enhanced transposition cutoff of the worst case. Asked before
    any part is searched, it spares the search of the bigger parts ahead of the one
    known to fail (they may be feasible, or infeasible only after a long search), at
    the cost of hashing the parts. Measured on the 2-core machine beside two other
    searches, ``solve GAME --objective worst-case --jobs 1`` (states; search
    seconds, 3 runs each): p4c7b 57,390 -> 42,580 (1.65-1.91 -> 1.28-1.48 s), p4c6b
    76,954 -> 63,173 (2.05-2.16 -> 1.70-1.94 s), p6c3b consistent 900,629 -> 818,475
    (2.66-3.05 -> 2.54-2.61 s); black-and-white games within noise (bulls-and-cows
    3,767 -> 3,737 states). Asked only once the biggest part is found feasible, it
    saved almost nothing (p4c7b 57,371 states): the savings are bigger parts not
    yet in the table."""
    for j in range(n_parts):
        a = part_order[j]
        if starts[a + 1] - starts[a] < 3:
            continue
        ckey, ccheck = _state_hash(parts[starts[a]:starts[a + 1]], 0, 0, codes, n_colours,
                                   normal, work)
        entry = _tt_find(tt, ckey, ccheck)
        if entry >= 0 and d <= (entry & 0xFF):
            return True
    return False


@njit(cache=True, inline="always")
def _counting_cap(lb, d, n):
    """The most secrets, up to ``n``, that ``d`` guesses can tell apart (at least 1)."""
    cap = 1
    while cap < n and lb[d, cap + 1] < INF:
        cap += 1
    return cap


@njit(cache=True, inline="always")
def _wc_store(tt, use_tt, key, check, d, feasible, stats):
    """Record that ``S`` is feasible within ``d`` (or not), keeping what was known."""
    if not use_tt:
        return
    feasible_from = 0
    infeasible_to = 0
    old = _tt_find(tt, key, check)
    if old >= 0:
        feasible_from = (old >> 8) & 0xFF
        infeasible_to = old & 0xFF
    if feasible:
        if feasible_from == 0 or d < feasible_from:
            feasible_from = d
    elif d > infeasible_to:
        infeasible_to = d
    _tt_put(tt, key, check, (feasible_from << 8) | infeasible_to, stats)


@njit(cache=True)
def wc_pick(S, d, table, all_guesses, lb, win, n_slots, consistent, tt, stats, codes,
            n_colours, repeats, swaps, masks, symmetry):
    """A guess that keeps ``S`` within ``d`` guesses, chosen for a small total.

    Guesses are tried in order of their balanced-tree bound on the total
    (``|S| + sum LB[d-1, |part|]``, consistent guesses first on ties); the first
    whose parts are all feasible within ``d - 1`` is returned (-1 if none).
    """
    n = len(S)
    if n == 1:
        return S[0]
    in_s = _in_set(S, table.shape[1])
    empty = np.empty(0, dtype=np.int64)
    guesses, _ = _candidates(S, in_s, empty, all_guesses, consistent, codes, n_colours,
                             repeats, swaps, masks, symmetry)
    m = len(guesses)
    order_key = np.empty(m, dtype=np.int64)
    cnt = np.zeros(n_slots, dtype=np.int64)
    seen = np.empty(n_slots, dtype=np.int64)
    sub = _columns(table, S)
    for k in range(m):
        n_seen = _score(table, sub, guesses[k], S, cnt, seen, n, win)
        stats[2] += 1
        biggest, total = _drain_parts(cnt, seen, n_seen, win, lb[d - 1])
        total += n
        if biggest == n or total >= INF:
            order_key[k] = -1
        else:
            order_key[k] = total * 2 + (0 if in_s[guesses[k]] else 1)
    order = np.argsort(order_key, kind="mergesort")
    for idx in order:
        if _stopped(stats):
            return -1
        if order_key[idx] < 0:
            continue
        g = guesses[idx]
        parts, starts = _split(table[g], S, n_slots)
        ok = True
        for a in range(n_slots):
            if a == win or starts[a + 1] == starts[a]:
                continue
            sub_ok, _ = wc_search(parts[starts[a]:starts[a + 1]], d - 1, empty, table,
                                  all_guesses, lb, win, n_slots, consistent, tt, stats, codes,
                                  n_colours, repeats, swaps, masks, symmetry)
            if not sub_ok:
                ok = False
                break
        if ok:
            return g
    return -1
