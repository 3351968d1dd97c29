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

Worst case (``wc_search``)
    ``feasible(S, d)``: can every secret of ``S`` be found within ``d`` guesses? True
    when some guess leaves every part feasible within ``d - 1``. A guess is dropped
    while it is being scored, as soon as one of its parts outgrows the counting
    bound of ``d - 1`` guesses (proving a state infeasible means dropping every
    guess, and most go at the first few secrets). On big answer tables (Logik's
    1 GiB) guesses are scored in blocks along the secrets' rows rather than one at a
    time along their own (:func:`_wc_keys_blocked`): the same keys, a few times
    faster, since a guess's row is then fetched from memory a line per secret.

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

Symmetry at every node: two colours are *interchangeable* in ``S`` when swapping
them maps ``S`` onto itself (tested directly, pair by pair, with a precomputed
table of the swaps). Interchangeable colours fall into classes; renaming colours
within a class fixes ``S`` and maps a guess's partition onto the partition of its
image, so only one guess per orbit is tried: the one whose class colours, read
left to right at their first occurrence, are the smallest of their class in
increasing order. Colours in no secret (*dead*) are interchangeable too, and with
repeats more: a dead peg never scores, so every dead peg may as well be the
smallest dead colour. This generalises the history stabilizer of the top two
levels (:mod:`optimal_mm.symmetry`) to every state, without knowing the history.
Black-only scoring with repeats has more symmetry: the colours of each position
may be renamed on their own (a black is a position where guess and secret agree).
There the classes are found per position too (:func:`_position_classes`), and the
group that leaves fewer guesses is used (turning the black-only tables from
minutes per game into seconds).

Guesses are evaluated secrets first, one partition at a time, so that a node
closes as soon as one guess meets the node's bound (a secret splitting the rest
into singletons costs ``2n - 1``, the least possible; when no secret does, ``2n``
is the least and a guess meeting it closes the node).

Black-only scoring with repeats has a far bigger group still: the colours of each
position may be renamed on their own and the positions permuted, whatever the
history. The transposition table keys such a state by an image of it under that
group (:func:`_normal_form`: colours ranked by their count at each position,
positions by those counts), shared by many symmetric states, so one search serves
them all: p4c7b's worst case with consistent guesses from 1,442,499 states to 629,
p4c6b's expected case from 44 s to 0.4 s, p8c3b's worst case with consistent
guesses (t* = 10) from hours without an end to under a second, every value of the
table's black-only games with repeats unchanged. Every other game keys its states
by their image under one colour permutation and one position permutation, the
symmetries every game has (:func:`_global_form`; under black-and-white scoring only
from :data:`_GLOBAL_FORM_SECRETS` secrets on with repeats, from
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

Transposition table: states are keyed by two independent hashes of the set of
secret indices (or of their image, above), a 64-bit key and a 32-bit check stored
beside the result, together with the guesses left. Each is a sum of the mixed words
of the elements (:func:`_fold`), so no sorted copy is made: the image is hashed as
it is computed, in scratch space allocated once per node (measured on the 2-core
machine, ``--jobs 1``, the expected case's median solve in one process, fresh
tables each time: p5c4 80 -> 72 ms, mastermind 76 -> 72 ms, p4c8n 341 -> 320 ms,
the same states). Distinct states collide with probability about
``m**2 / 2**97`` for ``m`` stored states: far below any hardware error rate, but it
is a hash, and the proof is exact up to that event. The table is a chained hash
over entries stored in order (:func:`new_table`); its capacity is fixed in
advance, and once it is full new states are no longer stored (the search stays
correct, only slower), so memory stays bounded. Under a cap, a state that its
guesses left cannot solve costs ``INF``, more than an entry holds: it is kept as the
greatest bound an entry holds (:data:`_VALUE_CAP`, :func:`_store`), so that the next
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
with no budget asks :func:`wc_search` first, with the worst case's own bounds and
table (``wc_lb, wc_tt``), and costs ``INF`` at once where the answer is no
(mastermind's total within 5, asked at every such node rather than at the root
alone: 15,920 -> 8,687 states, the worst case's included).

Statistics (``stats`` array, :data:`~optimal_mm._search_arrays.STATS`): 0 states
expanded, 1 table hits, 2 guesses evaluated (partitions computed), 3 table entries
stored, 4 guesses cut by the remembered refuting parts. Its last slot, ``STOP``, is
how Ctrl-C reaches a kernel that runs for hours (:mod:`optimal_mm.stopping`): once it
holds a stop signal (:func:`_stopped`), every node returns at once, before expanding
and before trying its next guess, and the table stores nothing more
(:func:`_tt_put`), so that what it holds stays exact and the call can be made again;
the values returned on the way out mean nothing, and the caller discards them.
"""

from __future__ import annotations

import numpy as np
from ._numba import njit

from ._search_arrays import (  # noqa: F401  (the kernels' inputs, re-exported)
    INF, MASK_COLOURS, NO_CAP, STOP, STOP_SIGNALS, UNBUDGETED, code_masks, colour_swaps,
    lower_bound_table, new_stats, new_table, position_swaps)
from ._overlap import overlap_applies, overlap_bound, overlap_keep, overlap_pass
from ._skew_bound import skew_bound, skew_feasible

_PAYLOAD_BITS = 31
#: Nodes of this many secrets or more probe a guess's parts before searching them
#: against the budget (expected case; see the module docstring).
_PROBE_SECRETS = 30
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
_PAYLOAD = (1 << _PAYLOAD_BITS) - 1
#: The greatest value an expected-case entry holds (its payload is the value and the
#: exact bit): greater values are stored as this bound (:func:`_store`).
_VALUE_CAP = (1 << (_PAYLOAD_BITS - 1)) - 1
_CHECK_SHIFT = _PAYLOAD_BITS
_SIGINT, _SIGTERM, _SIGALRM = STOP_SIGNALS


@njit(cache=True, inline="always")
def _stopped(stats):
    """Whether a stop signal has arrived since the kernel was called: each signal that
    arrives writes its number to the next byte of the ``STOP`` slot (zero until
    then), so one of its eight bytes holds the number of SIGINT, SIGTERM or SIGALRM
    (:data:`~optimal_mm._search_arrays.STOP_SIGNALS`)."""
    v = stats[STOP]
    if v == 0:
        return False
    for k in range(8):
        b = (v >> (8 * k)) & 0xFF
        if b == _SIGINT or b == _SIGTERM or b == _SIGALRM:
            return True
    return False


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
    guesses left, under the cost of :func:`_cap_weight` ``weight``."""
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


@njit(cache=True, inline="always")
def _cap_weight(lb):
    """The extra cost of a secret found by the last guess allowed, under the cost
    that the lower-bound table ``lb`` describes: 0 for the total, ``w`` for the
    lexicographic cost of ``fewest-at-worst`` (one secret with one guess left costs
    ``lb[1, 1] = 1 + w``)."""
    return lb[1, 1] - 1


@njit(cache=True, inline="always")
def _tt_find(tt, key, check):
    """The payload stored for the state ``(key, check)``, or -1."""
    slots, links, heads, meta = tt
    i = heads[key & (meta[1] - 1)]
    while i:
        if slots[i - 1, 0] == key and (slots[i - 1, 1] >> _CHECK_SHIFT) == check:
            return slots[i - 1, 1] & _PAYLOAD
        i = links[i - 1]
    return -1


@njit(cache=True, inline="always")
def _tt_put(tt, key, check, payload, stats):
    """Store ``payload`` for the state ``(key, check)``: over its old entry, else in a
    new one while the table has room (else the state is not stored). Nothing is
    stored once the search is stopped: the values on the way out are not exact."""
    if _stopped(stats):
        return
    slots, links, heads, meta = tt
    word = (check << _CHECK_SHIFT) | payload
    i = heads[key & (meta[1] - 1)]
    while i:
        if slots[i - 1, 0] == key and (slots[i - 1, 1] >> _CHECK_SHIFT) == check:
            slots[i - 1, 1] = word
            return
        i = links[i - 1]
    n = meta[0]
    if n >= len(slots):
        return
    slots[n, 0] = key
    slots[n, 1] = word
    meta[0] = n + 1
    stats[3] += 1
    if n + 1 > 2 * meta[1] and meta[1] < len(heads):
        _tt_rehash(slots, links, heads, meta, min(4 * meta[1], len(heads)))
    else:
        b = key & (meta[1] - 1)
        links[n] = heads[b]
        heads[b] = n + 1


@njit(cache=True)
def _tt_rehash(slots, links, heads, meta, buckets):
    """Spread the entries over ``buckets`` buckets (chains stay short as it fills)."""
    meta[1] = buckets
    heads[:buckets] = 0
    for i in range(meta[0]):
        b = slots[i, 0] & (buckets - 1)
        links[i] = heads[b]
        heads[b] = i + 1


#: The expected case's colour-overlap bound runs at states of this many secrets or
#: more (below, scoring every guess costs little more than the bound).
_OVERLAP_SECRETS = 15


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
    scoring with repeats; the rows of :func:`position_swaps` follow the colour swaps
    in ``swaps``). Colours in no secret at position ``i`` form one class there; two
    others share a class when a chain of swaps at position ``i``, each mapping ``S``
    onto itself, joins them."""
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
    with repeats, :func:`position_swaps`): more rows than colour pairs."""
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


# ---------------------------------------------------------------------------
# Expected case
# ---------------------------------------------------------------------------
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
    (:func:`wc_search`), which a node under a cap with no budget asks whether its
    state fits at all; an empty ``wc_lb`` asks nothing. The recursion itself is
    :func:`_exp_node`.
    """
    return _exp_node(S, beta, d, top_guesses, wc_lb, wc_tt, table, all_guesses, lb, win,
                     n_slots, consistent, tt, stats, codes, n_colours, repeats, swaps,
                     masks, symmetry, np.int64(0), np.int64(0))


@njit(cache=True)
def _exp_node(S, beta, d, top_guesses, wc_lb, wc_tt, table, all_guesses, lb, win, n_slots,
              consistent, tt, stats, codes, n_colours, repeats, swaps, masks, symmetry,
              key, check):
    """:func:`exp_search` of the state ``S``, whose table key and check
    (:func:`_state_hash`) are ``key, check`` when the caller has them (``key`` 0:
    not yet made). A node of any guesses keys every part of every guess it tries, to
    raise the part's bound from the table before searching it, and the part's own
    node would key it again (twice when it is probed first); the key, a form of the
    state under the game's symmetries, is the greatest single cost of a black-only
    node (40 % of the processor time of ``solve p4c8nb --objective fewest-at-worst
    --guesses consistent --jobs 1`` by ``perf``), so it is made once and handed down
    (that search, keys handed down, every part keyed as before: 71.1 and 72.3 s ->
    66.7 and 69.2 s, interleaved; the same states). The node's head, what it
    returns without searching, is :func:`_settled`, which its parent asks first of
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
    secrets, a secret that achieves the value for three or four worked out (below
    ``beta``), -2 for an exact value of the table (``exact_ends``: a node whose
    guesses are restricted reads exact values as bounds, and searches its three or
    four secrets), else -1. A value settled with an entry is a table hit, which the
    caller counts.

    Three secrets with four guesses or more left are worked out, not keyed: 5 if a
    secret tells the other two apart, else 6 (no secret reaches the last guess, so
    no weight; :func:`_three`); so are four with five guesses left where the guesses
    are the secrets (:func:`_four`), or, where any code may be guessed, where a
    secret guessed first gives a total of 7 or 8 (a code that is not a secret can
    do no better than 8). The key would cost more than the answer:
    ``solve p4c8nb --objective expected --guesses consistent --jobs 1`` met the
    table 31.6 million times, 4.9 million of them for three secrets and 5.9 million
    for four; JIT builds interleaved, a table run beside them on the 2-core Intel
    Xeon VM: three, 66.1 / 62.8 -> 57.4 / 55.8 s of search (p4c7's total 5.3 -> 4.8
    s); four as well, 64.3 / 56.4 -> 50.8 / 53.3 s (p4c10's consistent total 23.0 /
    25.5 / 24.6 -> 25.0 / 24.6 / 20.9 s, within that machine's noise); the same
    trees.

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
    if c == 3 and d >= 4 and exact_ends:
        # Three secrets: 5 if one of them, guessed, tells the other two apart (each
        # found with the second guess), else 6 (any secret guessed, then the pair),
        # whatever the guesses allowed, and no secret reaches the last guess. Cheaper
        # than the key, which the state would need to meet the table.
        v, g = _three(table, S[0], S[1], S[2])
        return v, (g if v < beta else -1), key, check, entry
    if c == 4 and d >= 5 and exact_ends:
        # Four: the best secret to guess first; where any code may be guessed, only
        # a total of 7 or 8 is settled so (a guess that is not a secret finds none of
        # them first: 8 at the least), else the node searches as before.
        v, g = _four(table, S)
        if consistent or v <= 8:
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
def _three(table, x, y, z):
    """The least total of three secrets and a secret that achieves it: 5 if one of
    them, guessed, tells the other two apart, else 6."""
    if table[x, y] != table[x, z]:
        return 5, x
    if table[y, x] != table[y, z]:
        return 5, y
    if table[z, x] != table[z, y]:
        return 5, z
    return 6, x


@njit(cache=True, inline="always")
def _four(table, S):
    """The least total of four secrets when every guess is one of the secrets left,
    and the first secret that achieves it: the secret guessed costs 1, a part of one
    secret 2, of two 5, of three 3 plus the three's own (:func:`_three`)."""
    best, best_g = 1 << 30, -1
    for i in range(4):
        x = S[i]
        o0, o1, o2 = S[(i + 1) % 4], S[(i + 2) % 4], S[(i + 3) % 4]
        a0, a1, a2 = table[x, o0], table[x, o1], table[x, o2]
        if a0 == a1 and a1 == a2:
            v = 1 + 3 + _three(table, o0, o1, o2)[0]
        elif a0 != a1 and a1 != a2 and a0 != a2:
            v = 1 + 2 + 2 + 2
        else:
            v = 1 + 2 + 5
        if v < best:
            best, best_g = v, x
    return best, best_g


@njit(cache=True, inline="always")
def _store(tt, use_tt, key, check, value, exact, stats):
    """Store an expected-case result; an exact value is never overwritten by a bound.
    A value the payload cannot hold (INF, the mark of a state that its guesses left
    cannot solve, or a big weighted cost) is kept as the bound :data:`_VALUE_CAP`:
    the next visit of an infeasible state under a cap then fails at once instead of
    searching it again."""
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


# ---------------------------------------------------------------------------
# Worst case
# ---------------------------------------------------------------------------
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
    :data:`_TAKEN` for a guess that cannot help (no split, a part too big for the
    guesses left ``lb_next``)."""
    if biggest == n or lb_next[biggest] >= INF:
        return _TAKEN
    return (biggest * (n * n + 1) + total) * 2 + (0 if in_s_g else 1)


@njit(cache=True, inline="always")
def _drain_parts(cnt, seen, n_seen, win, weight):
    """The largest part but the win and the sum of ``weight[size]`` over those parts,
    for the answers ``seen[:n_seen]`` counted in ``cnt`` by :func:`_score`; zeroes the
    counts it reads, so ``cnt`` is ready for the next guess."""
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
    at a time; a guess with a part above ``cap`` secrets is :data:`_TAKEN` as soon as
    the part outgrows it. Returns the index of the first guess that splits ``S`` into
    singletons (the keys after it are not computed), or -1.
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
    """:func:`_two_guess_test` for a big table (:data:`_SCAN_CODES`): the secrets first,
    each scored against the others, then every other code, in blocks read along the
    secrets' rows, a bit per answer (at most 64 answers). The same answer; the guess
    returned is the first that separates the secrets in that order (every code, not
    one per orbit, and counted so in the statistics)."""
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
    one per class of the node's own symmetry, :func:`_candidates`): the search for
    the optimum runs with budget ``value + 1`` (``value``, the root's cost when
    known, else -1 to read it from the table), which cuts every worse guess at
    its bound. A node of one or two secrets guesses its first. The same choices as
    the node-by-node build in Python (``search_context._Context.exp_tree``), without a
    Python call per node.
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
