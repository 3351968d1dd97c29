"""The compiled core of the exact search (numba): one recursion, three costs.

A *state* is the sorted int64 array ``S`` of secrets still possible; its value
depends on ``S`` alone (and on the number of guesses left, ``d``), never on the path
that led to it. Every objective expands a state the same way: for every candidate
guess, split ``S`` into parts by answer, bound each part from below, try the
guesses most promising by that bound first, and recurse into the parts.

Expected case (``exp_search``)
    ``value(S)`` is the least sum, over the secrets of ``S``, of the guesses needed
    to find each from here, counting this node's guess and the final all-black one.
    A guess ``g`` costs ``|S| + sum(value(part))`` over the parts whose answer is not
    all black. The search is *fail-soft branch and bound*: called with a budget
    ``beta`` it returns the exact value when that is below ``beta``, and otherwise
    some lower bound that is at least ``beta``.

Fewest secrets at the cap (``exp_search`` under a lexicographic cost)
    With a cap of ``d`` guesses, a secret found by the last guess allowed costs
    ``w`` more than its guesses, where ``w`` exceeds every total of the game within
    the cap; the least such cost is then the least number of secrets at the cap,
    and among the trees with that number the least total. The cost is still a sum
    over the secrets, so the same search finds it: only the lower-bound table
    changes (:func:`~optimal_mm._search_arrays.lower_bound_table` with
    ``cap_weight=w``, which adds ``w`` times the fewest secrets that cannot be placed
    above the cap), and with it the exact costs of one and two secrets, read from
    the table. The weight (:func:`_cap_weight`) is part of every transposition-table
    key, so the two costs never share an entry. Every shortcut below that states a
    cost of ``2n - 1`` or ``2n`` applies only where the table adds no weight, and
    the weighted cost is never below the total, so they stay exact.

Worst case (:func:`~optimal_mm._search_wc.wc_search`)
    ``feasible(S, d)``: can every secret of ``S`` be found within ``d`` guesses? True
    when some guess leaves every part feasible within ``d - 1``
    (:mod:`optimal_mm._search_wc`).

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
  cut that skips them. In a small state (every part's bound ``2c - 1``) the bound of
  a guess with ``k`` parts is ``3n - 2[g in S] - k``: only the number of parts
  counts, found with a bit mask of the answers.
* *Exact small parts.* One secret costs 1; two secrets cost 3 (guess one of them).
  When every part of a guess has at most two secrets, its bound is its exact cost;
  if that equals ``LB[d, n]`` nothing can beat it and the node is closed at once.
  In the worst case this is the exact two-guess test: ``d = 2`` is feasible iff some
  guess splits ``S`` into singletons.
* *Skew-aware bound* (black-only scoring, :mod:`optimal_mm._skew_bound`). A guess
  earns at most ``sum_p F_p`` blacks over ``S`` (``F_p`` the count of the most
  frequent colour at position ``p``), which keeps most secrets in the parts of few
  blacks: the least total of parts within that budget raises the node's bound before
  it is expanded, and in the worst case a state whose parts cannot fit the counting
  bound within the budget is infeasible at once. Positions where every secret of
  ``S`` has the same colour are left out of the budget and of the labels: they move
  every answer alike and split nothing.
* *Colour-overlap filter and bound* (black-and-white scoring,
  :mod:`optimal_mm._overlap`). Blacks plus whites depends on the colour multisets of
  guess and secret alone, so one partition per multiset bounds the parts of every
  guess of that multiset: the secrets sharing ``k`` colours with it fill at most
  ``k + 1`` answers. The worst case drops the multisets with a part necessarily
  above the counting bound (a state where all are dropped is infeasible at once);
  the expected case raises the node's bound to the least over the multisets, and
  skips the partition of a guess whose multiset's bound already fails the budget.
* *Enhanced transposition cutoff* (expected case, any guesses). Before a guess is
  searched, each of its parts' bounds is raised to what the transposition table
  already holds for that set (reached before by another order of guesses): a guess
  whose raised sum fails is skipped without solving any part, and the others search
  with tighter budgets. The part's key is handed down to its own node, which would
  make it again.
* *Null-window probes* (expected case, nodes of :data:`_PROBE_SECRETS` secrets or
  more, once a budget is set). Before a guess's parts are searched in turn against
  what the budget leaves them, each part of three or more secrets is searched with
  the narrowest budget, its bound plus one: cheap, and either it is solved at its
  bound or its fail-soft value is a better bound. Most guesses tried against a
  budget fail, and the raised sum refutes them before any part is searched with a
  wide budget (measured, ``--jobs 1``: Bulls and Cows 34.4 -> 26.4 s, p6c3b
  36.1 -> 29.0 s, p4c7 3.66 -> 3.09 s, guesses evaluated 2 to 4 times fewer; the
  same values). The root of a search does the same in Python
  (:func:`optimal_mm.search_tasks._exp_guess_task`), where it first paid off.

Infeasible states under a cap. A state that its guesses left cannot solve costs
``INF``, more than an entry of the transposition table holds: it is kept as the
greatest bound an entry holds (:data:`~optimal_mm._search_table._VALUE_CAP`,
:func:`_store`), so that the next
visit under a smaller budget ends at the table. Black-only games meet such states
everywhere below a tight cap (few answers, skewed parts): measured on the 2-core
machine with ``solve GAME --objective fewest-at-worst --jobs 1 --stats``, states
expanded before -> after: p3c9nb 18,571,226 -> 297,356 (609 -> 47 s), p3c10b
324,149 -> 4,239 (9.8 -> 0.3 s), p3c9b 41,492 -> 2,311, p4c7nb 548,143 -> 484,305;
``worst-then-expected`` p5c4b 13,237 -> 9,468; black-and-white games about the same
(p4c7's fewest-at-worst 838,037 both, p4c8's total within 6 893,541 -> 891,371).
The same values. To learn that a state fits nowhere, though, this search must try
every guess at every node below it when it has no budget (no total bounds such a
state), where the worst case refutes it with its own cuts: so under a cap a node
with no budget asks :func:`~optimal_mm._search_wc.wc_search` first, with the worst
case's own bounds and table (``wc_lb, wc_tt``), and costs ``INF`` at once where the
answer is no (mastermind's total within 5, asked at every such node rather than at
the root alone: 15,920 -> 8,687 states, the worst case's included).

Where the pieces are. This module holds the expected case (:func:`exp_search`) and
the extraction of its tree (:func:`exp_tree_nodes`); the others are one concept
each, and import one way:

* :mod:`optimal_mm._search_keys`: how a state is keyed, by hashes of its image under
  the game's symmetry;
* :mod:`optimal_mm._search_table`: the transposition table, and the stop test;
* :mod:`optimal_mm._search_guesses`: a node's guesses (partitions, symmetry
  classes, the order they are tried, the two-guess test);
* :mod:`optimal_mm._search_wc`: the worst case;
* :mod:`optimal_mm._skew_bound` and :mod:`optimal_mm._overlap`: the bounds of
  black-only and black-and-white scoring; :mod:`optimal_mm._search_arrays`: the
  arrays the kernels take, built with numpy alone.

Statistics (``stats`` array, :data:`~optimal_mm._search_arrays.STATS`): 0 states
expanded, 1 table hits, 2 guesses evaluated (partitions computed), 3 table entries
stored, 4 guesses cut by the remembered refuting parts. Its last slot, ``STOP``, is
how Ctrl-C reaches a kernel that runs for hours (:mod:`optimal_mm.stopping`,
:func:`~optimal_mm._search_table._stopped`).
"""

from __future__ import annotations

import numpy as np

from ._numba import njit, trailing_zeros
from ._search_arrays import (  # noqa: F401  (the kernels' inputs, re-exported)
    INF, MASK_COLOURS, NO_CAP, STOP, STOP_SIGNALS, UNBUDGETED, code_masks, colour_swaps,
    lower_bound_table, new_stats, new_table, position_swaps)
from ._overlap import overlap_applies, overlap_bound
from ._search_guesses import (
    _candidates, _columns, _in_set, _lazy_candidates, _orbit_guesses, _orbits, _parts_by_size,
    _pop_min, _popcount, _split, _twin, _twin_table, _twins_apply)
from ._search_keys import _blacks_decide, _form_work, _normalises, _state_hash
from ._search_small import _WORKED_OUT, _worked_out
from ._search_table import _VALUE_CAP, _stopped, _tt_find, _tt_put
from ._search_wc import wc_search
from ._skew_bound import skew_bound

#: Nodes of this many secrets or more probe a guess's parts before searching them
#: against the budget (expected case; see the module docstring).
_PROBE_SECRETS = 30


#: Games of at most this many answer slots (7 pegs or fewer) have the expected
#: search score a guess in two lanes of counts, the answers met marked in the bits
#: of an int64. Counted in one lane, two secrets in a row with the same answer made
#: the second count wait on the first, the wait that bound the loop; and the counts
#: were read back either at every slot or, for fewer secrets than slots, at a list
#: of the answers met, made with a branch on each secret (p7c7n has 64 slots, of
#: which 7 are answers). One of p7c7n's small parts (248 secrets after 1234567
#: 1342675 2135647, 28,639 states before and after) took 6.2 to 7.0 s of processor
#: time so, and 4.0 to 5.0 s in two lanes, marked (``python
#: scripts/time_checkpoint_task.py results/checkpoints/p7c7n-expected task-f1b1401a``,
#: three runs each, alternating with a checkout from before, 2026-12-07, on a
#: 2-core AMD EPYC VM beside a table run); one of 246 secrets (task-85a583b3), 436 s
#: and 270 s. One lane, marked, took about 30 % less than before, where two took
#: 40 %; four lanes gained nothing over two, and the same code as a function that
#: numba inlines took 20 % more than written in the node.
MARKED_SLOTS = 64


@njit(cache=True, inline="always")
def _cap_weight(lb):
    """The extra cost of a secret found by the last guess allowed, under the cost
    that the lower-bound table ``lb`` describes: 0 for the total, ``w`` for the
    lexicographic cost of ``fewest-at-worst`` (one secret with one guess left costs
    ``lb[1, 1] = 1 + w``)."""
    return lb[1, 1] - 1


#: The expected case's colour-overlap bound runs at states of this many secrets or
#: more (below, scoring every guess costs little more than the bound).
_OVERLAP_SECRETS = 15


@njit(cache=True)
def exp_search(S, beta, d, top_guesses, wc_lb, wc_tt, table, all_guesses, lb, win, n_slots,
               consistent, tt, stats, codes, n_colours, repeats, swaps, masks, symmetry):
    """Fail-soft branch and bound on the total; returns ``(value, best_guess)``.

    ``value`` is exact when below ``beta`` (``best_guess`` then achieves it), else a
    lower bound >= ``beta`` (``best_guess`` is -1). ``top_guesses`` (may be empty)
    restricts this node's guesses (symmetry representatives computed by the
    caller); deeper nodes use ``all_guesses``, or their own secrets when
    ``consistent``, cut by the colour classes of their state. ``d`` is the number of
    guesses left (``NO_CAP`` for none). The cost is the one ``lb`` describes: the
    total, or the lexicographic cost of the fewest secrets at the cap (see the
    module docstring). ``wc_lb, wc_tt`` are the worst-case search's bounds and table
    (:func:`~optimal_mm._search_wc.wc_search`), which a node under a cap with no budget
    asks whether its state fits at all; an empty ``wc_lb`` asks nothing. The recursion
    itself is :func:`_exp_node`.
    """
    return _exp_node(S, beta, d, top_guesses, wc_lb, wc_tt, table, all_guesses, lb, win,
                     n_slots, consistent, tt, stats, codes, n_colours, repeats, swaps,
                     masks, symmetry, np.int64(0), np.int64(0))


@njit(cache=True)
def _exp_node(S, beta, d, top_guesses, wc_lb, wc_tt, table, all_guesses, lb, win, n_slots,
              consistent, tt, stats, codes, n_colours, repeats, swaps, masks, symmetry,
              key, check):
    """:func:`exp_search` of the state ``S``, whose table key and check
    (:func:`~optimal_mm._search_keys._state_hash`) are ``key, check`` when the caller
    has them (``key`` 0: not yet made). A node of any guesses keys every part of every
    guess it tries, to raise the part's bound from the table before searching it, and
    the part's own node would key it again (twice when it is probed first); the key, a
    form of the state under the game's symmetries, is the greatest single cost of a
    black-only node (40 % of the processor time of ``solve p4c8nb --objective
    fewest-at-worst --guesses consistent --jobs 1`` by ``perf``), so it is made once
    and handed down (that search, keys handed down, every part keyed as before: 71.1
    and 72.3 s -> 66.7 and 69.2 s, interleaved; the same states). The node's head, what
    it returns without searching, is :func:`_settled`, which its parent asks first of
    each part: a part that the table or its bound decides is settled without the
    call.
    """
    n = len(S)
    # With ``top_guesses`` the node's value is the least over those guesses only
    # (a second guess's own task passes one), so it is not stored; but the table
    # is read: the state's bound bounds any guesses' least, and its exact value,
    # where the caller wants the guess (the tree build), ends the search at the
    # first guess that meets it (``known``), the guess the search would have
    # settled on anyway (the first in its order to meet the optimum): the same
    # trees, p4c8n's expected case from 51,856 states to 25,541 (its rival second
    # guesses are such nodes), p4c7's from 420,805 to 346,168 (``--jobs 1``).
    top = len(top_guesses) > 0
    use_tt = not top
    normal = _normalises(n_slots, codes, n_colours, repeats, symmetry)
    work = _form_work(codes.shape[1], n_colours)
    cap_weight = _cap_weight(lb)
    value, guess, key, check, entry = _settled(S, beta, d, lb[d, n], key, check, tt,
                                               table, codes, n_colours, normal, work,
                                               cap_weight, use_tt, consistent)
    if value >= 0:
        if entry >= 0:
            stats[1] += 1
        return value, guess
    if beta >= UNBUDGETED and d < NO_CAP and n >= 3 and wc_lb.shape[0] > 0:
        # No budget under a cap: ask the worst case first whether S fits at all
        # (its first guess among ``top_guesses`` if given). A state that fits nowhere
        # costs this search every guess at every node below to find out, since no
        # total bounds it, where the worst case refutes it with its own cuts and
        # keeps the answer in its table. With a budget it is not asked: the search
        # then mostly fails soon on its own, and the worst case's proof that a state
        # does fit (a whole tree) costs about as much as the search itself.
        fits, _ = wc_search(S, d, top_guesses, table, all_guesses, wc_lb, win, n_slots,
                            consistent, wc_tt, stats, codes, n_colours, repeats, swaps,
                            masks, symmetry)
        if _stopped(stats):
            return beta, -1
        if not fits:
            _store(tt, use_tt, key, check, np.int64(INF), False, stats)
            return np.int64(INF), -1
    bound = lb[d, n]
    known = np.int64(-1)  # none
    if entry >= 0:  # below the budget (else settled): an exact value only if ``top``
        stats[1] += 1
        if entry & 1:
            known = entry >> 1
        elif (entry >> 1) > bound:
            bound = entry >> 1
    child_d = d if d >= NO_CAP else d - 1
    if _blacks_decide(n_slots, codes, n_colours, repeats):  # the skew-aware bound
        skew = skew_bound(S, codes, n_colours, lb[child_d], consistent)
        if skew > bound:
            bound = skew
            if bound >= beta:
                _store(tt, use_tt, key, check, bound, False, stats)
                return bound, -1
    # Black-and-white scoring: the colour-overlap bound, per multiset of guesses.
    overlap = not top and n >= _OVERLAP_SECRETS and overlap_applies(n_slots, codes.shape[1],
                                                                  masks)
    multiset_bound = np.empty(masks.shape[0] if overlap else 0, dtype=np.int64)
    if overlap:
        ob = overlap_bound(S, table, masks, lb[child_d], codes.shape[1], multiset_bound)
        if ob > bound:
            bound = ob
            if bound >= beta:
                _store(tt, use_tt, key, check, bound, False, stats)
                return bound, -1
    if _stopped(stats):
        return beta, -1
    stats[0] += 1
    in_s = _in_set(S, table.shape[1])
    lazy = _lazy_candidates(swaps, n_colours, consistent, top_guesses, symmetry)
    if lazy:  # the secrets now, the other codes only if no secret closes the node
        guesses = np.empty(len(all_guesses), dtype=np.int64)
        orbits = _orbits(S, in_s, codes, n_colours, repeats, swaps)
        m, n_secrets = _orbit_guesses(S, in_s, all_guesses, consistent, codes, n_colours,
                                      repeats, swaps, masks, orbits, 0, 1, guesses, 0)
    else:
        guesses, n_secrets = _candidates(S, in_s, top_guesses, all_guesses, consistent,
                                         codes, n_colours, repeats, swaps, masks, symmetry)
        m = len(guesses)
    m_max = len(guesses)
    # Where the blacks decide, guesses that agree with the secrets at the same
    # positions are twins: only the first is scored and tried (_twin).
    if _twins_apply(codes, n_colours, n_slots, repeats, consistent):
        alive, met = _twin_table(S, codes, n_colours, m_max)
    else:
        alive = met = np.empty(0, dtype=np.int64)
    twins = len(met) > 0
    # With every secret tried and none splitting the rest into singletons (cost
    # 2n - 1), every guess costs at least 2n: a secret leaves a part of two or more
    # (each costs at least one more than its size), any other code finds nothing
    # at this node.
    lift = not top and bound == 2 * n - 1
    qb = np.empty(m_max, dtype=np.int64)
    order_key = np.empty(m_max, dtype=np.int64)
    cnt = np.zeros(n_slots, dtype=np.int64)
    seen = np.empty(n_slots, dtype=np.int64)
    lb_child = lb[child_d]
    # With consistent guesses (every guess a secret), the secrets' columns only, and
    # each secret's column number.
    narrow = consistent and not top
    sub = _columns(table, S, narrow)
    use_sub = sub.shape[0] > 0
    column = np.empty(table.shape[1] if narrow and use_sub else 0, dtype=np.int32)
    if len(column):  # set, and read, at the secrets only
        for j in range(n):
            column[S[j]] = j
    # A small state (every part's bound 2c - 1) with answers that fit a bit mask
    # is scored by counting its parts alone.
    few = n_slots <= 63 and lb_child[n] == 2 * n - 1
    scan_slots = n_slots <= n
    marked = n_slots <= MARKED_SLOTS
    lanes = np.zeros(2 * MARKED_SLOTS if marked else 0, dtype=np.int64)
    not_win = ~(np.int64(1) << win)
    k = -1
    while k + 1 < m or (lazy and k + 1 == n_secrets):
        k += 1
        if k == n_secrets:
            if lazy:
                m, _ = _orbit_guesses(S, in_s, all_guesses, consistent, codes, n_colours,
                                      repeats, swaps, masks, orbits, 1, 2, guesses, n_secrets)
                lazy = False
                if k >= m:
                    break
            if lift:
                bound = 2 * n
                if bound >= beta:
                    _store(tt, use_tt, key, check, bound, False, stats)
                    return bound, -1
        g = guesses[k]
        if twins and _twin(g, codes, n_colours, alive, met):
            qb[k] = np.int64(INF)  # as a wasted guess: its first twin stands for it
            order_key[k] = np.int64(INF) * 2 + 1
            continue
        if overlap and multiset_bound[masks[g, 2]] >= beta:
            # Its multiset's bound already fails: no partition needed.
            qb[k] = multiset_bound[masks[g, 2]]
            order_key[k] = qb[k] * 2 + (0 if in_s[g] else 1)
            continue
        stats[2] += 1
        by_sub = use_sub and (not narrow or in_s[g])
        gc = column[g] if narrow and by_sub else g  # its column of ``sub``
        if few:
            # Every part size c has LB = 2c - 1, so the bound depends only on how
            # many parts there are: |S| + 2 (|S| - [g in S]) - parts.
            mask = np.int64(0)
            if by_sub:
                for j in range(n):
                    mask |= np.int64(1) << sub[j, gc]
            else:
                for j in range(n):
                    mask |= np.int64(1) << table[g, S[j]]
            secret = 1 if in_s[g] else 0
            n_parts = _popcount(mask & not_win)
            total = 3 * n - 2 * secret - n_parts
            # At 2n or less the parts are singletons and at most one pair: exact.
            exact = total <= 2 * n
            biggest = n if secret == 0 and n_parts == 1 else 0
        elif marked:
            # Count in two lanes (even secrets, odd secrets) and mark each answer met
            # in a bit of ``marks``, all branch-free; then read back, and zero, the
            # counts of the answers marked alone (see MARKED_SLOTS).
            marks = np.int64(0)
            j = 0
            if by_sub:
                while j + 2 <= n:
                    a = sub[j, gc]
                    a2 = sub[j + 1, gc]
                    lanes[a] += 1
                    lanes[MARKED_SLOTS + a2] += 1
                    marks |= (np.int64(1) << a) | (np.int64(1) << a2)
                    j += 2
                if j < n:
                    a = sub[j, gc]
                    lanes[a] += 1
                    marks |= np.int64(1) << a
            else:
                while j + 2 <= n:
                    a = table[g, S[j]]
                    a2 = table[g, S[j + 1]]
                    lanes[a] += 1
                    lanes[MARKED_SLOTS + a2] += 1
                    marks |= (np.int64(1) << a) | (np.int64(1) << a2)
                    j += 2
                if j < n:
                    a = table[g, S[j]]
                    lanes[a] += 1
                    marks |= np.int64(1) << a
            lanes[win] = 0
            lanes[MARKED_SLOTS + win] = 0
            marks &= not_win
            total = n
            biggest = 0
            exact = True
            while marks != 0:
                slot = trailing_zeros(marks)
                marks &= marks - 1
                c = lanes[slot] + lanes[MARKED_SLOTS + slot]
                lanes[slot] = 0
                lanes[MARKED_SLOTS + slot] = 0
                total += lb_child[c]
                if c > biggest:
                    biggest = c
                if c > 2:
                    exact = False
        else:
            # Count the parts (branch-free), then read the counts: every answer slot
            # when there are fewer slots than secrets, else the answers met.
            n_seen = 0
            if scan_slots:
                if by_sub:
                    for j in range(n):
                        cnt[sub[j, gc]] += 1
                else:
                    for j in range(n):
                        cnt[table[g, S[j]]] += 1
                n_seen = n_slots
            elif by_sub:
                for j in range(n):
                    a = sub[j, gc]
                    if cnt[a] == 0:
                        seen[n_seen] = a
                        n_seen += 1
                    cnt[a] += 1
            else:
                for j in range(n):
                    a = table[g, S[j]]
                    if cnt[a] == 0:
                        seen[n_seen] = a
                        n_seen += 1
                    cnt[a] += 1
            total = n
            biggest = 0
            exact = True
            for j in range(n_seen):
                a = j if scan_slots else seen[j]
                c = cnt[a]
                if c == 0:
                    continue
                cnt[a] = 0
                if a == win:
                    continue
                total += lb_child[c]
                if c > biggest:
                    biggest = c
                if c > 2:
                    exact = False
        if biggest == n:  # no information: the guess is wasted
            total = np.int64(INF)
        qb[k] = total
        if exact and total == bound and total < beta:
            # Every part is solved exactly by its bound and nothing beats the bound.
            _store(tt, use_tt, key, check, total, True, stats)
            return total, g
        order_key[k] = min(total, INF) * 2 + (0 if in_s[g] else 1)
    best = beta
    best_guess = -1
    # Fail-soft: while no guess beats beta, the least lower bound proven for any guess
    # (a refuted guess's partial sum, or the balanced bound of the first guess never
    # tried: the order makes it the least of the rest). It is returned on failure,
    # a lower bound at least beta and often well above, which lets the caller cut
    # sooner and the table keep a stronger bound.
    fail_low = np.int64(INF)
    part_order = np.empty(n_slots, dtype=np.int64)
    part_lb = np.empty(n_slots, dtype=np.int64)
    part_key = np.zeros(n_slots, dtype=np.int64)  # 0: not keyed (under 3 secrets)
    part_check = np.zeros(n_slots, dtype=np.int64)
    empty = top_guesses[:0]
    # Enhanced transposition cutoff: before a guess is searched, each part's bound is
    # raised to what the table already holds for it (a bound or an exact value from
    # another path to the same set), at the cost of hashing the part. A guess whose
    # raised sum fails is skipped without solving its small parts; the others search
    # with tighter budgets (measured: p4c8 expected 37.4 -> 32.1 s of processor time,
    # p4c7 5.07 -> 4.76 s, the same values and trees). Only where any code may be
    # guessed: a node of consistent guesses scores its own few secrets, so keying
    # every part of every guess it pops costs more than the cuts save, while its
    # parts still meet the table when they are searched (``solve GAME --jobs 1
    # --guesses consistent``, search time: p4c8nb expected 52.9 -> 37.8 s,
    # fewest-at-worst 63.6 -> 50.8 s; p4c7 expected 0.32 s and bulls-and-cows 0.44 s
    # both ways; with any guesses it pays: p4c7nb fewest-at-worst 24.3 s with it,
    # 27.3 s without).
    etc = not consistent
    order = np.empty(m, dtype=np.int64)
    pick = np.zeros(3, dtype=np.int64)
    keys = order_key[:m]
    while True:
        if _stopped(stats):
            return beta, -1
        # Keys below twice the best total are popped in order; the rest fail.
        idx = _pop_min(keys, order, pick, min(best, INF + 1) * 2)
        if idx < 0:
            break
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
        n_parts = _parts_by_size(starts, win, part_order, False)
        raised = n
        for j in range(n_parts):
            a = part_order[j]
            c = starts[a + 1] - starts[a]
            pb = lb_child[c]
            part_key[j] = 0
            if etc and c >= 3 and pb < INF:
                ckey, ccheck = _state_hash(parts[starts[a]:starts[a + 1]], child_d,
                                           cap_weight, codes, n_colours, normal, work)
                part_key[j], part_check[j] = ckey, ccheck
                entry = _tt_find(tt, ckey, ccheck)
                if entry >= 0 and (entry >> 1) > pb:
                    pb = entry >> 1
            part_lb[j] = pb
            raised = min(raised + pb, INF)
        if raised >= best:
            if best_guess < 0 and raised < fail_low:
                fail_low = raised
            continue
        if best < INF and n >= _PROBE_SECRETS:
            for j in range(n_parts):
                pb = part_lb[j]
                a = part_order[j]
                c = starts[a + 1] - starts[a]
                if c < 3 or pb >= INF:
                    continue
                part = parts[starts[a]:starts[a + 1]]
                v, _, ckey, ccheck, entry = _settled(part, pb + 1, child_d, lb_child[c],
                                                     part_key[j], part_check[j], tt, table,
                                                     codes, n_colours, normal, work,
                                                     cap_weight, True, consistent)
                if v >= 0 and entry >= 0:
                    stats[1] += 1
                part_key[j], part_check[j] = ckey, ccheck
                if v < 0:
                    v, _ = _exp_node(part, pb + 1, child_d, empty, wc_lb, wc_tt, table,
                                     all_guesses, lb, win, n_slots, consistent, tt, stats,
                                     codes, n_colours, repeats, swaps, masks, symmetry,
                                     ckey, ccheck)
                if v > pb:
                    part_lb[j] = v
                    raised = min(raised + v - pb, INF)
                    if raised >= best:
                        break
            if raised >= best:
                if best_guess < 0 and raised < fail_low:
                    fail_low = raised
                continue
        acc = n
        rem = raised - n
        failed = False
        for j in range(n_parts):
            a = part_order[j]
            c = starts[a + 1] - starts[a]
            rem -= part_lb[j]
            part = parts[starts[a]:starts[a + 1]]
            budget = best - acc - rem
            v, _, ckey, ccheck, entry = _settled(part, budget, child_d, lb_child[c],
                                                 part_key[j], part_check[j], tt, table,
                                                 codes, n_colours, normal, work, cap_weight,
                                                 True, consistent)
            if v >= 0 and entry >= 0:
                stats[1] += 1
            if v < 0:
                v, _ = _exp_node(part, budget, child_d, empty, wc_lb, wc_tt, table,
                                 all_guesses, lb, win, n_slots, consistent, tt, stats, codes,
                                 n_colours, repeats, swaps, masks, symmetry, ckey, ccheck)
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
            if best <= bound or best <= known:
                break
    if best_guess < 0:
        if fail_low < bound:  # the node's own bound may be the stronger
            fail_low = bound
        if fail_low < beta:  # cannot happen: every bound above was at least beta
            fail_low = beta
        _store(tt, use_tt, key, check, fail_low, False, stats)
        return fail_low, -1
    _store(tt, use_tt, key, check, best, True, stats)
    return best, best_guess


@njit(cache=True, inline="always")
def _settled(S, beta, d, bound, key, check, tt, table, codes, n_colours, normal, work,
             cap_weight, exact_ends, consistent):
    """The head of :func:`_exp_node`: what the node of ``S`` with ``beta`` and ``d``
    guesses left (``bound``: its lower bound, ``lb[d, len(S)]``) returns at once,
    without searching, as its value and guess, or value -1 when it must search; with
    the state's key and check (made here if ``key`` is 0, to hand down) and its entry
    in the table (-1: not read or none). The guess is the first secret for one or two
    secrets, a secret that achieves the value for three to six worked out (below
    ``beta``), -2 for an exact value of the table (``exact_ends``: a node whose
    guesses are restricted reads exact values as bounds, and searches its three to
    six secrets), else -1. A value settled with an entry is a table hit, which the
    caller counts.

    Three to six secrets (:data:`~optimal_mm._search_small._WORKED_OUT`) with more
    guesses left than secrets are worked out, not keyed
    (:mod:`~optimal_mm._search_small`): no secret reaches the last guess, so no
    weight; where any code may be guessed, only a total of ``2c - 1`` or ``2c`` (a
    code that is not a secret costs ``2c`` at the least, a secret leaving a part of
    three or more ``2c + 1``). The key would cost more than the answer: ``solve
    p4c8nb --objective expected --guesses consistent --jobs 1`` met the table 31.6
    million times, 4.9 million of them for three secrets and 5.9 million for four;
    JIT builds interleaved, a table run beside them on the 2-core Intel Xeon VM:
    three, 66.1 / 62.8 -> 57.4 / 55.8 s of search (p4c7's total 5.3 -> 4.8 s); four
    as well, 64.3 / 56.4 -> 50.8 / 53.3 s (p4c10's consistent total 23.0 / 25.5 /
    24.6 -> 25.0 / 24.6 / 20.9 s, within that machine's noise); the same trees.
    Five and six: see :data:`~optimal_mm._search_small._WORKED_OUT`.

    A parent asks it of each part before the call, and settles so the parts that the
    table or their bounds decide. Most are: ``solve p4c8nb --objective expected
    --guesses consistent --jobs 1`` meets the table 31.6 million times for 1.8
    million states searched, and each call costs a node's set-up (its scratch
    arrays, numba's reference counts). Measured there, JIT builds interleaved, the
    same states and trees: 37.4 -> 31.4 s of search; its fewest-at-worst 52.5 ->
    44.0 s; within noise where any code may be guessed (p4c7nb fewest-at-worst 21.1
    / 20.9 s, p4c7 expected 2.5 / 2.6 s) or the table is met less (bulls-and-cows
    consistent 0.45 s). Its arrays are few on purpose: numba counts a reference to
    each array argument of an inlined function, on each of its 30 million calls
    there, so the bound comes as a number and the caller counts the hit (no ``lb``,
    no ``stats``: 30.1 -> 28.8 s, the median of two interleaved runs each)."""
    c = len(S)
    entry = np.int64(-1)  # not read
    if c == 0:
        return 0, -1, key, check, entry
    if d <= 0 or (d == 1 and c >= 2):
        return INF, -1, key, check, entry
    # One secret costs 1, two cost 3 (guess one of them), plus the weight of the
    # secret found by the last guess allowed, if any: the table's cells are exact.
    if c < 3:
        return bound, S[0], key, check, entry
    if bound >= beta:
        return bound, -1, key, check, entry
    if c <= _WORKED_OUT and d > c and exact_ends:
        # Three to six secrets, no secret reaching the last guess: the best secret to
        # guess first (:mod:`~optimal_mm._search_small`), cheaper than the key the
        # state would need to meet the table. Where any code may be guessed, only a
        # total of 2c - 1 or 2c is settled so (a guess that is not a secret costs 2c
        # at the least), else the node searches as before.
        v, g = _worked_out(table, S)
        if consistent or v <= 2 * c:
            return v, (g if v < beta else -1), key, check, entry
    if key == 0:
        key, check = _state_hash(S, d, cap_weight, codes, n_colours, normal, work)
    entry = _tt_find(tt, key, check)
    if entry >= 0:
        value = entry >> 1
        if entry & 1 and exact_ends:
            return value, -2, key, check, entry
        if value >= beta:
            return value, -1, key, check, entry
    return -1, -1, key, check, entry


@njit(cache=True, inline="always")
def _store(tt, use_tt, key, check, value, exact, stats):
    """Store an expected-case result; an exact value is never overwritten by a bound.
    A value the payload cannot hold (INF, the mark of a state that its guesses left
    cannot solve, or a big weighted cost) is kept as the bound
    :data:`~optimal_mm._search_table._VALUE_CAP`: the next visit of an infeasible state
    under a cap then fails at once instead of searching it again."""
    if not use_tt:
        return
    if value >= _VALUE_CAP:
        value = _VALUE_CAP
        exact = False
    old = _tt_find(tt, key, check)
    if old >= 0 and (old & 1) and not exact:
        return
    _tt_put(tt, key, check, (value << 1) | (1 if exact else 0), stats)


@njit(cache=True)
def exp_tree_nodes(S, d, value, top_guesses, wc_lb, wc_tt, table, all_guesses, lb, win,
                   n_slots, consistent, tt, stats, codes, n_colours, repeats, swaps, masks,
                   symmetry):
    """An optimal subtree of the feasible state ``S`` (``d`` guesses left) as three
    arrays over its nodes in depth-first order, children by increasing answer:
    ``(guess, parent, answer)`` (the root's parent and answer are -1). Empty arrays
    when a node has no guess within its budget (the caller's error).

    It reads what :func:`exp_search` left in the table ``tt`` and picks, at each
    node of three or more secrets, the first guess in index order that meets the
    node's optimum among its candidates (``top_guesses`` at the root if given, else
    one per class of the node's own symmetry,
    :func:`~optimal_mm._search_guesses._candidates`): the search for the optimum runs
    with budget ``value + 1`` (``value``, the root's cost when known, else -1 to read
    it from the table), which cuts every worse guess at its bound. A node of one or two
    secrets guesses its first. The same choices as the node-by-node build in Python
    (``search_context._Context.exp_tree``), without a Python call per node.
    """
    no_guess = np.empty(0, dtype=np.int64)
    no_budget = np.int64(INF)
    cap_nodes = 2 * len(S)  # a node that guesses a secret or splits: 2n - 1 at most
    guess = np.empty(cap_nodes, dtype=np.int64)
    parent = np.empty(cap_nodes, dtype=np.int64)
    answer = np.empty(cap_nodes, dtype=np.int64)
    # The stack of nodes still to build: their secrets, parent, answer, guesses left.
    stack_sets = [S]
    stack_info = [(np.int64(-1), np.int64(-1), np.int64(d))]
    n_nodes = 0
    while len(stack_sets) > 0:
        if _stopped(stats):
            return no_guess, no_guess, no_guess
        T = stack_sets.pop()
        par, ans, left = stack_info.pop()
        if len(T) <= 2:
            g = T[0]
        else:
            if n_nodes == 0 and len(top_guesses) > 0:
                guesses = top_guesses
            elif not symmetry:
                guesses = T if consistent else all_guesses
            else:
                in_s = _in_set(T, table.shape[1])
                reps, _ = _candidates(T, in_s, no_guess, all_guesses, consistent, codes,
                                      n_colours, repeats, swaps, masks, symmetry)
                guesses = np.sort(reps)
            v = value if n_nodes == 0 else -1
            if v < 0:
                v, _ = exp_search(T, no_budget, left, no_guess, wc_lb, wc_tt, table,
                                  all_guesses, lb, win, n_slots, consistent, tt, stats, codes,
                                  n_colours, repeats, swaps, masks, symmetry)
            budget = v + 1 if v < no_budget else no_budget
            _, g = exp_search(T, budget, left, guesses, wc_lb, wc_tt, table, all_guesses, lb,
                              win, n_slots, consistent, tt, stats, codes, n_colours, repeats,
                              swaps, masks, symmetry)
            if g < 0:
                return no_guess, no_guess, no_guess
        if n_nodes == len(guess):  # only a tree with idle guesses outgrows 2n - 1
            guess = _grown(guess)
            parent = _grown(parent)
            answer = _grown(answer)
        guess[n_nodes] = g
        parent[n_nodes] = par
        answer[n_nodes] = ans
        me = np.int64(n_nodes)
        n_nodes += 1
        parts, starts = _split(table[g], T, n_slots)
        child_left = left if left >= NO_CAP else left - 1
        for a in range(n_slots - 1, -1, -1):  # pushed last first: popped by answer
            if a != win and starts[a + 1] > starts[a]:
                stack_sets.append(parts[starts[a]:starts[a + 1]].copy())
                stack_info.append((me, np.int64(a), np.int64(child_left)))
    return guess[:n_nodes], parent[:n_nodes], answer[:n_nodes]


@njit(cache=True)
def _grown(a):
    """``a`` in an array twice as long (its first ``len(a)`` items kept)."""
    out = np.empty(2 * len(a) + 1, dtype=a.dtype)
    out[:len(a)] = a
    return out
