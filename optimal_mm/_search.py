"""The compiled core of the exact search (numba): one recursion, two objectives.

A *state* is the sorted int64 array ``S`` of secrets still possible; its value
depends on ``S`` alone (and on the number of guesses left, ``d``), never on the path
that led to it. Both objectives expand a state the same way: for every candidate
guess, split ``S`` into parts by answer, bound each part from below, try the
guesses most promising by that bound first, and recurse into the parts.

Expected case (``exp_search``)
    ``value(S)`` is the least sum, over the secrets of ``S``, of the guesses needed
    to find each from here, counting this node's guess and the final all-black one.
    A guess ``g`` costs ``|S| + sum(value(part))`` over the parts whose answer is not
    all black. The search is *fail-soft branch and bound*: called with a budget
    ``beta`` it returns the exact value when that is below ``beta``, and otherwise
    some lower bound that is at least ``beta``.

Worst case (``wc_search``)
    ``feasible(S, d)``: can every secret of ``S`` be found within ``d`` guesses? True
    when some guess leaves every part feasible within ``d - 1``.

Lower bounds (both objectives), for ``n`` secrets, ``r`` possible answers other than
all black, and ``d`` guesses left:

* *Counting bound.* A node finds at most one secret (its own guess) and has at most
  ``r`` children, so at most ``r**(k-1)`` nodes sit at depth ``k``, and at most
  ``1 + r + ... + r**(d-1)`` secrets can be told apart within ``d`` guesses. More
  than that is infeasible.
* *Balanced-tree bound.* Filling depths greedily (one secret at depth 1, ``r`` at
  depth 2, ``r**2`` at depth 3, ...) gives the least conceivable total ``LB[d, n]``
  (``2n - 1`` for ``2 <= n <= r + 1``). Per guess, ``|S| + sum(LB[d-1, |part|])``
  bounds its cost from below: that is the order in which guesses are tried and the
  cut that skips them.
* *Exact small parts.* One secret costs 1; two secrets cost 3 (guess one of them).
  When every part of a guess has at most two secrets, its bound is its exact cost;
  if that equals ``LB[d, n]`` nothing can beat it and the node is closed at once.
  In the worst case this is the exact two-guess test: ``d = 2`` is feasible iff some
  guess splits ``S`` into singletons.

Transposition table: states are keyed by two independent 64-bit hashes of the
sorted secret indices (one as the dictionary key, 32 bits of the other stored and
checked), together with the guesses left. Distinct states collide with probability
about ``m**2 / 2**97`` for ``m`` stored states: far below any hardware error rate,
but it is a hash, and the proof is exact up to that event.

Statistics (``stats`` array): 0 states expanded, 1 table hits, 2 guesses evaluated
(partitions computed), 3 table entries stored; item 4 is an input, the table's
capacity in entries: when it is full, new states are no longer stored (the search
stays correct, only slower), so memory stays bounded.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

INF = 1 << 40
NO_CAP = 64  # "guesses left" when there is no cap; deep enough for any game searched
_MASK32 = 0xFFFFFFFF


def new_table():
    """An empty transposition table (numba typed dict int64 -> int64)."""
    return Dict.empty(key_type=types.int64, value_type=types.int64)


def lower_bound_table(n_max: int, r: int, d_max: int = NO_CAP) -> np.ndarray:
    """``LB[d, n]``: least conceivable total for ``n`` secrets within ``d`` guesses.

    ``INF`` where the counting bound says ``n`` secrets cannot be told apart.
    """
    lb = np.full((d_max + 1, n_max + 1), INF, dtype=np.int64)
    lb[:, 0] = 0
    for d in range(1, d_max + 1):
        found, total, width = 0, 0, 1
        for level in range(1, d + 1):
            for _ in range(min(width, n_max - found)):
                found += 1
                total += level
                lb[d, found] = total
            if found == n_max:
                break
            width = min(width * r, n_max)
    return lb


@njit(cache=True, inline="always")
def _hash(S, d):
    h1 = np.int64(-3750763034362895579) ^ (d * np.int64(0x100000001B3))
    h2 = np.int64(len(S)) * np.int64(-7046029254386353131)
    for x in S:
        h1 = (h1 ^ x) * np.int64(1099511628211)
        h2 = (h2 + x + 1) * np.int64(-4658895280553007687)
        h2 ^= (h2 >> 29)
    return h1, (h2 >> 17) & 0xFFFFFFFF


@njit(cache=True)
def _partition_counts(table, guesses, S, n_slots, stats):
    counts = np.zeros((len(guesses), n_slots), dtype=np.int64)
    for k in range(len(guesses)):
        row = table[guesses[k]]
        for x in S:
            counts[k, row[x]] += 1
    stats[2] += len(guesses)
    return counts


@njit(cache=True)
def _split(row, S, n_slots):
    """Parts of ``S`` by answer: (sorted secrets grouped by answer, start offsets)."""
    counts = np.zeros(n_slots + 1, dtype=np.int64)
    for x in S:
        counts[row[x] + 1] += 1
    for a in range(n_slots):
        counts[a + 1] += counts[a]
    pos = counts[:-1].copy()
    out = np.empty(len(S), dtype=np.int64)
    for x in S:
        a = row[x]
        out[pos[a]] = x
        pos[a] += 1
    return out, counts


@njit(cache=True)
def _in_set(S, n_codes):
    mask = np.zeros(n_codes, dtype=np.bool_)
    for x in S:
        mask[x] = True
    return mask


@njit(cache=True)
def _live_guesses(all_guesses, codes, S, n_colours, repeats):
    """Guesses that differ from every other kept guess by more than dead colours.

    A *dead* colour is in no secret of ``S``: it never scores, so swapping two dead
    colours in a guess leaves its partition unchanged (the swap fixes ``S``). With
    repeats, every dead peg may as well be the smallest dead colour; without, the
    dead pegs, read left to right, may as well be the smallest dead colours in
    increasing order. Only guesses in that canonical form are kept.
    """
    present = np.zeros(n_colours, dtype=np.bool_)
    for x in S:
        for c in codes[x]:
            present[c] = True
    dead = np.empty(n_colours, dtype=np.int64)
    n_dead = 0
    for c in range(n_colours):
        if not present[c]:
            dead[n_dead] = c
            n_dead += 1
    if n_dead <= 1:
        return all_guesses
    out = np.empty(len(all_guesses), dtype=np.int64)
    m = 0
    for g in all_guesses:
        j = 0
        ok = True
        for c in codes[g]:
            if present[c]:
                continue
            if repeats:
                if c != dead[0]:
                    ok = False
                    break
            else:
                if c != dead[j]:
                    ok = False
                    break
                j += 1
        if ok:
            out[m] = g
            m += 1
    return out[:m]


@njit(cache=True)
def _candidates(S, top_guesses, all_guesses, consistent, codes, n_colours, repeats):
    """The guesses to try at state ``S``: the caller's ``top_guesses`` if any (symmetry
    representatives), else the secrets themselves (consistent guesses only), else
    every code that differs from the others by more than dead colours."""
    if len(top_guesses):
        return top_guesses
    if consistent:
        return S
    return _live_guesses(all_guesses, codes, S, n_colours, repeats)


# ---------------------------------------------------------------------------
# Expected case
# ---------------------------------------------------------------------------
@njit(cache=True)
def exp_search(S, beta, d, top_guesses, table, all_guesses, lb, win, n_slots,
               consistent, tt, stats, codes, n_colours, repeats):
    """Fail-soft branch and bound on the total; returns ``(value, best_guess)``.

    ``value`` is exact when below ``beta`` (``best_guess`` then achieves it), else a
    lower bound >= ``beta`` (``best_guess`` is -1). ``top_guesses`` (may be empty)
    restricts this node's guesses (symmetry representatives computed by the
    caller); deeper nodes use ``all_guesses``, or their own secrets when
    ``consistent``. ``d`` is the number of guesses left (``NO_CAP`` for none).
    """
    n = len(S)
    if n == 0:
        return 0, -1
    if d <= 0:
        return INF, -1
    if n == 1:
        return 1, S[0]
    if d == 1:
        return INF, -1
    if n == 2:
        return 3, S[0]
    bound = lb[d, n]
    if bound >= beta:
        return bound, -1
    use_tt = len(top_guesses) == 0
    key = np.int64(0)
    check = np.int64(0)
    if use_tt:
        key, check = _hash(S, d)
        if key in tt:
            entry = tt[key]
            if (entry >> 32) == check:
                stats[1] += 1
                value = (entry & _MASK32) >> 1
                if entry & 1:
                    return value, -2  # exact, guess not stored
                if value >= beta:
                    return value, -1
                if value > bound:
                    bound = value
    stats[0] += 1
    child_d = d if d >= NO_CAP else d - 1
    guesses = _candidates(S, top_guesses, all_guesses, consistent, codes, n_colours, repeats)
    in_s = _in_set(S, table.shape[1])
    if len(top_guesses) == 0 and bound == 2 * n - 1 and bound < beta:
        # Small state: a secret that splits the others into singletons is optimal
        # (cost 2n - 1). Try the secrets first; if none does, every tree costs at
        # least 2n (no secret at depth 1, or a part of two or more below it).
        pc = np.zeros(n_slots, dtype=np.int64)
        for g in S:
            row = table[g]
            for a in range(n_slots):
                pc[a] = 0
            perfect = True
            for x in S:
                a = row[x]
                pc[a] += 1
                if pc[a] > 1:
                    perfect = False
                    break
            if perfect:
                stats[2] += 1
                _store(tt, use_tt, key, check, bound, True, stats)
                return bound, g
        stats[2] += n
        bound = 2 * n
        if bound >= beta:
            _store(tt, use_tt, key, check, bound, False, stats)
            return bound, -1
    counts = _partition_counts(table, guesses, S, n_slots, stats)
    m = len(guesses)
    qb = np.empty(m, dtype=np.int64)
    order_key = np.empty(m, dtype=np.int64)
    for k in range(m):
        g = guesses[k]
        total = n
        biggest = 0
        exact = True
        for a in range(n_slots):
            c = counts[k, a]
            if c == 0 or a == win:
                continue
            total += lb[child_d, c]
            if c > biggest:
                biggest = c
            if c > 2:
                exact = False
        if biggest == n:  # no information: the guess is wasted
            total = INF
        qb[k] = total
        if exact and total == bound and total < beta:
            # Every part is solved exactly by its bound and nothing beats the bound.
            _store(tt, use_tt, key, check, total, True, stats)
            return total, g
        order_key[k] = min(total, INF) * 2 + (0 if in_s[g] else 1)
    order = np.argsort(order_key, kind="mergesort")
    best = beta
    best_guess = -1
    # Fail-soft: while no guess beats beta, the least lower bound proven for any guess
    # (a refuted guess's partial sum, or the balanced bound of the first guess never
    # tried: the order makes it the least of the rest). It is returned on failure,
    # a lower bound at least beta and often well above, which lets the caller cut
    # sooner and the table keep a stronger bound.
    fail_low = INF
    for idx in order:
        if qb[idx] >= best:
            if best_guess < 0 and qb[idx] < fail_low:
                fail_low = qb[idx]
            break
        g = guesses[idx]
        parts, starts = _split(table[g], S, n_slots)
        # Smallest parts first: they are solved exactly at little cost, and what
        # they exceed their bounds by tightens the budget of the big parts, which
        # then fail soon (measured: several times fewer guesses evaluated than
        # largest first on mastermind).
        sizes = np.empty(n_slots, dtype=np.int64)
        size_key = np.empty(n_slots, dtype=np.int64)
        for a in range(n_slots):
            sizes[a] = starts[a + 1] - starts[a] if a != win else 0
            size_key[a] = sizes[a] if sizes[a] > 0 else INF
        part_order = np.argsort(size_key, kind="mergesort")
        acc = n
        rem = qb[idx] - n
        failed = False
        for a in part_order:
            c = sizes[a]
            if c == 0:
                break
            rem -= lb[child_d, c]
            part = parts[starts[a]:starts[a + 1]]
            budget = best - acc - rem
            v, _ = exp_search(part, budget, child_d, top_guesses[:0], table, all_guesses, lb,
                              win, n_slots, consistent, tt, stats, codes, n_colours, repeats)
            acc += v
            if acc + rem >= best:
                failed = True
                break
        if failed:
            if best_guess < 0 and acc + rem < fail_low:
                fail_low = acc + rem
        else:
            best = acc
            best_guess = g
            if best <= bound:
                break
    if best_guess < 0:
        if fail_low < beta:  # cannot happen: every bound above was at least beta
            fail_low = beta
        _store(tt, use_tt, key, check, fail_low, False, stats)
        return fail_low, -1
    _store(tt, use_tt, key, check, best, True, stats)
    return best, best_guess


@njit(cache=True, inline="always")
def _store(tt, use_tt, key, check, value, exact, stats):
    if not use_tt or value >= (1 << 30) or len(tt) >= stats[4]:
        return
    if key in tt:
        old = tt[key]
        if (old >> 32) == check and (old & 1) and not exact:
            return
    tt[key] = (check << 32) | (value << 1) | (1 if exact else 0)
    stats[3] += 1


@njit(cache=True)
def _perfect(row, S, seen):
    """Whether the guess with answer row ``row`` gives every secret of ``S`` its own answer."""
    for a in range(len(seen)):
        seen[a] = False
    for x in S:
        a = row[x]
        if seen[a]:
            return False
        seen[a] = True
    return True


@njit(cache=True)
def _two_guess_test(S, table, all_guesses, consistent, n_slots, stats):
    """The exact two-guess test: ``S`` is solvable within 2 guesses iff some guess
    gives every secret a different answer (the secrets first, for an early hit)."""
    seen = np.zeros(n_slots, dtype=np.bool_)
    stats[0] += 1
    for g in S:
        stats[2] += 1
        if _perfect(table[g], S, seen):
            return True, g
    if consistent:
        return False, -1
    for g in all_guesses:
        stats[2] += 1
        if _perfect(table[g], S, seen):
            return True, g
    return False, -1


# ---------------------------------------------------------------------------
# Worst case
# ---------------------------------------------------------------------------
@njit(cache=True)
def wc_search(S, d, top_guesses, table, all_guesses, lb, win, n_slots, consistent,
              tt, stats, codes, n_colours, repeats):
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
    if d == 2 and len(top_guesses) == 0:
        return _two_guess_test(S, table, all_guesses, consistent, n_slots, stats)
    use_tt = len(top_guesses) == 0
    key = np.int64(0)
    check = np.int64(0)
    if use_tt:
        key, check = _hash(S, 0)
        if key in tt:
            entry = tt[key]
            if (entry >> 32) == check:
                feasible_from = (entry >> 8) & 0xFF  # least d known feasible (0: none)
                infeasible_to = entry & 0xFF  # greatest d known infeasible
                if feasible_from and d >= feasible_from:
                    stats[1] += 1
                    return True, -2
                if d <= infeasible_to:
                    stats[1] += 1
                    return False, -1
    stats[0] += 1
    guesses = _candidates(S, top_guesses, all_guesses, consistent, codes, n_colours, repeats)
    in_s = _in_set(S, table.shape[1])
    counts = _partition_counts(table, guesses, S, n_slots, stats)
    m = len(guesses)
    order_key = np.empty(m, dtype=np.int64)
    for k in range(m):
        biggest = 0
        total = 0
        for a in range(n_slots):
            c = counts[k, a]
            if c == 0 or a == win:
                continue
            total += c * c
            if c > biggest:
                biggest = c
        g = guesses[k]
        if biggest == n or lb[d - 1, biggest] >= INF:
            order_key[k] = -1
            continue
        if biggest <= 1:
            # Every part is a singleton: found within two guesses, or one.
            _wc_store(tt, use_tt, key, check, d, True, stats)
            return True, g
        order_key[k] = (biggest * (n * n + 1) + total) * 2 + (0 if in_s[g] else 1)
    order = np.argsort(order_key, kind="mergesort")
    for idx in order:
        if order_key[idx] < 0:
            continue
        g = guesses[idx]
        parts, starts = _split(table[g], S, n_slots)
        sizes = np.empty(n_slots, dtype=np.int64)
        for a in range(n_slots):
            sizes[a] = starts[a + 1] - starts[a] if a != win else 0
        part_order = np.argsort(-sizes, kind="mergesort")
        ok = True
        for a in part_order:
            if sizes[a] == 0:
                break
            sub_ok, _ = wc_search(parts[starts[a]:starts[a + 1]], d - 1, top_guesses[:0],
                                  table, all_guesses, lb, win, n_slots, consistent, tt, stats,
                                  codes, n_colours, repeats)
            if not sub_ok:
                ok = False
                break
        if ok:
            _wc_store(tt, use_tt, key, check, d, True, stats)
            return True, g
    _wc_store(tt, use_tt, key, check, d, False, stats)
    return False, -1


@njit(cache=True, inline="always")
def _wc_store(tt, use_tt, key, check, d, feasible, stats):
    if not use_tt or len(tt) >= stats[4]:
        return
    feasible_from = 0
    infeasible_to = 0
    if key in tt:
        old = tt[key]
        if (old >> 32) == check:
            feasible_from = (old >> 8) & 0xFF
            infeasible_to = old & 0xFF
    if feasible:
        if feasible_from == 0 or d < feasible_from:
            feasible_from = d
    elif d > infeasible_to:
        infeasible_to = d
    tt[key] = (check << 32) | (feasible_from << 8) | infeasible_to
    stats[3] += 1


@njit(cache=True)
def wc_pick(S, d, table, all_guesses, lb, win, n_slots, consistent, tt, stats, codes,
            n_colours, repeats):
    """A guess that keeps ``S`` within ``d`` guesses, chosen for a small total.

    Guesses are tried in order of their balanced-tree bound on the total
    (``|S| + sum LB[d-1, |part|]``, consistent guesses first on ties); the first
    whose parts are all feasible within ``d - 1`` is returned (-1 if none).
    """
    n = len(S)
    if n == 1:
        return S[0]
    guesses = S if consistent else _live_guesses(all_guesses, codes, S, n_colours,
                                                 repeats)
    in_s = _in_set(S, table.shape[1])
    counts = _partition_counts(table, guesses, S, n_slots, stats)
    m = len(guesses)
    order_key = np.empty(m, dtype=np.int64)
    for k in range(m):
        total = n
        biggest = 0
        for a in range(n_slots):
            c = counts[k, a]
            if c == 0 or a == win:
                continue
            total += lb[d - 1, c]
            if c > biggest:
                biggest = c
        if biggest == n or total >= INF:
            order_key[k] = -1
        else:
            order_key[k] = total * 2 + (0 if in_s[guesses[k]] else 1)
    order = np.argsort(order_key, kind="mergesort")
    empty = np.empty(0, dtype=np.int64)
    for idx in order:
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
                                  n_colours, repeats)
            if not sub_ok:
                ok = False
                break
        if ok:
            return g
    return -1
