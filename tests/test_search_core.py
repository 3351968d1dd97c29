"""The compiled search core: the invariants its speed-ups rely on.

Each speed-up of :mod:`optimal_mm._search` rests on a claim that can fail: the
answer table is symmetric (guesses are scored against copied rows), the colour
classes found at a node keep one guess per orbit (no value is lost), the small-state
scoring by number of parts equals the balanced-tree bound, and the transposition
table changes speed, never values.
"""

import os
import sys

import numpy as np
import pytest

from optimal_mm import Game
from optimal_mm import _search, _search_guesses, _search_keys, _search_small, _search_table
from optimal_mm._search_arrays import NO_CAP, UNBUDGETED, new_stats
from optimal_mm.game import partition_counts
from optimal_mm.search import first_guess_classes, node_guess_classes, solve
from optimal_mm.search_context import _Context, _NO_WC
from optimal_mm.search_costs import cap_weight
from optimal_mm.symmetry import orbit_representatives

from brute import parts_by_answer
from play_states import states_in_play as _states

KINDS = ["p3c4", "p3c5n", "p3c4b", "p4c3", "p4c5nb", "p2c6"]


@pytest.mark.parametrize("spec", KINDS + ["bulls-and-cows"])
def test_answer_table_is_symmetric(spec):
    table = Game.from_spec(spec).answer_table()
    assert np.array_equal(table, table.T)


@pytest.mark.parametrize("spec", KINDS)
def test_node_symmetry_keeps_every_partition(spec):
    # Every guess has a representative among the candidates with the same part sizes
    # (a necessary condition of "one guess per orbit"), and dead or interchangeable
    # colours do cut the candidates somewhere.
    game = Game.from_spec(spec)
    ctx = _Context(game, False, 1000)
    table = game.answer_table()
    rng = np.random.default_rng(7)
    cut = 0
    for S in _states(game, rng, 40):
        in_s = np.zeros(game.n_codes, dtype=np.bool_)
        in_s[S] = True
        cands, n_secrets = _search_guesses._candidates(S, in_s, S[:0], ctx.all_guesses, False,
                                                       *ctx.rules)
        assert set(cands[:n_secrets]) <= set(S) and not in_s[cands[n_secrets:]].any()

        def shapes(guesses):
            return {tuple(sorted(np.bincount(table[g, S], minlength=game.n_answer_slots)))
                    for g in guesses}
        assert shapes(cands) == shapes(range(game.n_codes))
        cut += len(cands) < game.n_codes
    assert cut > 0


@pytest.mark.parametrize("spec", KINDS)
def test_node_symmetry_keeps_values(spec):
    # Exact values of states met in play, with and without the reduction at the node.
    game = Game.from_spec(spec)
    on = _Context(game, False, 100_000, symmetry=True)
    off = _Context(game, False, 100_000, symmetry=False)
    rng = np.random.default_rng(11)
    for S in _states(game, rng, 25):
        v_on, g_on = on.exp(S, _search.INF, _search.NO_CAP)
        v_off, _ = off.exp(S, _search.INF, _search.NO_CAP)
        assert v_on == v_off and g_on != -1  # -2: exact, from the table
        for d in (2, 3):
            assert on.wc(S, d) == off.wc(S, d)


def test_small_table_changes_nothing_but_speed():
    game = Game.from_spec("p3c5")
    big = solve(game, "expected", jobs=1)
    tiny = solve(game, "expected", jobs=1, table_entries=16)
    none = solve(game, "expected", jobs=1, table_entries=0)
    assert big.value == tiny.value == none.value == 451  # Goddard 2003/2004
    assert tiny.stats.stored <= 16 * 3 and none.stats.stored == 0
    assert solve(game, "worst-case", jobs=1, table_entries=16).value == 5


@pytest.mark.parametrize("spec, runs", [
    # (mastermind: 14 s, in the slow tier; p4c5b's caps and weights, in the default
    # tier, fail a blind key alike)
    pytest.param("mastermind", [(5, False), (NO_CAP, False), (6, True), (5, True),
                                (6, False)], marks=pytest.mark.slow),
    ("p4c5b", [(10, True), (8, True), (9, True), (7, False), (8, False)]),
])
def test_one_table_serves_every_cap_and_cost(spec, runs):
    """A state's key holds the guesses left and the cost's weight: one expected-case
    table, filled by searches under other caps and costs, in either order, gives each
    search the value of a fresh table. (A key blind to the guesses left would not:
    mastermind within 5 after the uncapped search would read 5625 for 5626. The key
    code once gave such keys where it was inlined into a prototype kernel:
    docs/HISTORY.md, the thirty-ninth sitting.)"""
    game = Game.from_spec(spec)
    S = np.arange(game.n_codes, dtype=np.int64)
    fresh = {}
    for d, weighted in runs:
        weight = cap_weight(game, d) if weighted else 0
        fresh[d, weighted] = _Context(game, False, 100_000).exp(S, UNBUDGETED, d,
                                                                weight=weight)[0]
    for order in (runs, runs[::-1]):
        shared = _Context(game, False, 100_000)
        for d, weighted in order:
            weight = cap_weight(game, d) if weighted else 0
            assert shared.exp(S, UNBUDGETED, d, weight=weight)[0] == fresh[d, weighted]
    for weighted in (False, True):  # the caps give different values: a blind key fails
        assert len({v for (d, w), v in fresh.items() if w == weighted}) > 1


def test_transposition_table_round_trip():
    tt = _search.new_table(100)
    stats = new_stats()
    keys = np.random.default_rng(3).integers(1, 2**62, size=300)
    for i, key in enumerate(keys[:100]):
        _search_table._tt_put(tt, key, i, 2 * i + 1, stats)
    assert stats[3] == 100
    for i, key in enumerate(keys[:100]):
        assert _search_table._tt_find(tt, key, i) == 2 * i + 1
        assert _search_table._tt_find(tt, key, i + 1) == -1  # another check: another state
    _search_table._tt_put(tt, keys[5], 5, 7, stats)  # an update takes no new entry
    assert _search_table._tt_find(tt, keys[5], 5) == 7 and stats[3] == 100
    for key in keys[100:200]:  # full: emptied by the next new state, then filled again
        _search_table._tt_put(tt, key, 0, 1, stats)
    assert stats[3] == 200 and tt[3][0] == 100
    assert _search_table._tt_find(tt, keys[5], 5) == -1  # the first hundred are gone
    assert all(_search_table._tt_find(tt, key, 0) == 1 for key in keys[100:200])
    _search_table._tt_put(tt, keys[200], 0, 1, stats)
    assert tt[3][0] == 1 and _search_table._tt_find(tt, keys[200], 0) == 1
    assert _search_table._tt_find(tt, keys[150], 0) == -1
    empty = _search.new_table(0)  # a table of no entries stores nothing
    _search_table._tt_put(empty, keys[0], 0, 1, stats)
    assert empty[3][0] == 0 and _search_table._tt_find(empty, keys[0], 0) == -1


def _anon_kib():
    """This process's resident anonymous memory (Linux), in KiB."""
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("RssAnon:"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self")
def test_a_new_table_is_zero_private_and_untouched_whatever_the_heap():
    """A table is allocated at its full size but must cost only the pages a search
    writes (``new_table``): even after freeing a mapped block has raised glibc's
    mmap threshold and a table was freed, when ``np.zeros`` took the next table's
    arrays from the heap and wrote zeros over them (15.8 MiB more resident, 35 ms),
    and a forked child's writes stay its own."""
    for _ in range(2):  # freeing a mapped block raises the threshold to its size
        block = np.ones(31 << 20, dtype=np.uint8)
        del block
    table = _search.new_table(8_000_000)
    del table  # its arrays go back to the heap, where np.zeros would reuse them
    before = _anon_kib()
    tt = _search.new_table(8_000_000)
    slots, links, heads, meta = tt
    assert slots.shape == (8_000_000, 2) and links.shape == (8_000_000,)
    assert (slots.dtype, links.dtype, heads.dtype) == (np.int64, np.int32, np.int32)
    assert all(a.flags.writeable and a.flags.c_contiguous for a in tt)
    assert _anon_kib() - before < 4 << 10  # no zeros written over the heap
    assert not slots[::4096].any() and not heads[::4096].any()
    pid = os.fork()
    if pid == 0:  # the child writes into its copy
        slots[5, 0] = links[7] = 9
        os._exit(0)
    assert os.waitpid(pid, 0)[1] == 0
    assert slots[5, 0] == 0 and links[7] == 0
    stats = new_stats()  # and the kernels take it as any table
    _search_table._tt_put(tt, np.int64(12345), 6, 13, stats)
    assert _search_table._tt_find(tt, np.int64(12345), 6) == 13 and stats[3] == 1


def test_popcount():
    for x in [0, 1, 2**62 - 1, 0b1011, 2**40 + 2**3]:
        assert _search_guesses._popcount(np.int64(x)) == bin(x).count("1")


def test_code_masks():
    game = Game.from_spec("p4c6")
    masks = _search.code_masks(game.codes, game.colours)
    code = game.code_index("3151")  # colours 2, 0, 4 in order of first appearance
    assert masks[code, 0] == 0b10101
    pair = {(a, b): i for i, (a, b) in enumerate(
        (a, b) for a in range(6) for b in range(a + 1, 6))}
    inverted = {p for (a, b), p in pair.items() if masks[code, 1] >> p & 1}
    assert inverted == {pair[(0, 2)]}  # 0 first appears after 2; 4 after both


@pytest.mark.parametrize("spec", [
    pytest.param("p3c5b", marks=pytest.mark.slow),  # 10 to 12 s; the others, the same rule
    "p2c6b", "p4c3b"])
def test_position_classes_black_only(spec):
    # Black-only scoring with repeats: a renaming of one position's colours keeps every
    # answer, so per-position classes are exact; values equal the unreduced search.
    game = Game.from_spec(spec)
    table = game.answer_table()
    ctx = _Context(game, False, 1000)
    swaps = ctx.rules[3]
    pairs = game.colours * (game.colours - 1) // 2
    assert swaps.shape[0] == pairs * (1 + game.pegs)
    for row in swaps[pairs:]:  # each per-position swap is an automorphism of the scores
        assert np.array_equal(table[np.ix_(row, row)], table)
    rng = np.random.default_rng(5)
    for S in _states(game, rng, 20):
        in_s = np.zeros(game.n_codes, dtype=np.bool_)
        in_s[S] = True
        root = _search_guesses._position_classes(S, in_s, game.codes, game.colours, swaps)
        for i in range(game.pegs):  # colours in no secret at position i: one class
            dead = sorted(set(range(game.colours)) - set(game.codes[S, i]))
            assert all(root[i, c] == dead[0] for c in dead)
    for objective in ("worst-case", "expected"):
        on = solve(game, objective, jobs=1)
        off = solve(game, objective, jobs=1, symmetry=False)
        assert on.value == off.value
        on.strategy.validate()


@pytest.mark.parametrize("spec", ["p3c4b", "p4c3b", "p2c6b"])
def test_black_only_with_repeats_has_one_first_guess_class(spec):
    # Renaming each position's colours apart keeps every black-only answer and maps
    # any code to any other: every first guess splits the secrets alike (the same
    # part sizes), and the search tries one, with the values of the unreduced search,
    # which tries every code.
    game = Game.from_spec(spec)
    codes = np.arange(game.n_codes)
    sizes = np.sort(partition_counts(game, codes, codes), axis=1)
    assert (sizes == sizes[0]).all()
    assert len(orbit_representatives(game, [])) > 1  # the plain renamings leave more
    for consistent in (False, True):
        assert len(first_guess_classes(game, consistent)) == 1
    assert len(first_guess_classes(game, False, symmetry=False)) == game.n_codes
    for objective in ("fewest-at-worst", "worst-then-expected"):
        on = solve(game, objective, jobs=1)
        off = solve(game, objective, jobs=1, symmetry=False)
        assert on.value == off.value and on.strategy.root.guess == game.code_str(0)
        assert "(1 first-guess class refuted)" in "\n".join(on.proof)
        on.strategy.validate()


@pytest.mark.parametrize("spec", ["p3c4b", "p4c3b", "p3c5", "p4c5nb"])
def test_node_guess_classes_cover_every_guess_of_the_node(spec):
    # At a node after one guess, every code splits the node's secrets into parts of
    # the same sizes as one of the classes' guesses (so the classes lose nothing),
    # no more classes than the colour and position orbits there, and with black-only
    # scoring and repeats as few as the search's per-position renamings leave.
    game = Game.from_spec(spec)
    table = game.answer_table()
    codes = np.arange(game.n_codes)
    for first in first_guess_classes(game, False):
        for a in np.unique(table[first]):
            part = codes[table[first] == a]
            if len(part) < 3 or a == game.win:
                continue
            for consistent in (False, True):
                reps = node_guess_classes(game, (int(first),), part, consistent)
                pool = part if consistent else codes
                orbits = orbit_representatives(game, [int(first)], secrets=part,
                                               candidates=part if consistent else None)
                assert 1 <= len(reps) <= len(orbits)
                assert np.isin(reps, pool).all()
                shapes = {tuple(np.sort(partition_counts(game, [g], part)[0]))
                          for g in reps}
                every = np.sort(partition_counts(game, pool, part), axis=1)
                assert {tuple(row) for row in every} <= shapes


@pytest.mark.parametrize("spec", ["mastermind", "p3c5n", "p4c5nb", "p3c4"])
def test_other_games_first_guess_classes_are_the_colour_and_position_orbits(spec):
    game = Game.from_spec(spec)
    assert np.array_equal(first_guess_classes(game, False), orbit_representatives(game, []))


@pytest.mark.parametrize("spec", ["p3c5", "p4c4", "p4c3b"])
def test_transposition_cutoff_keeps_the_tree(spec):
    # The enhanced transposition cutoff skips a guess when the table's bounds on its
    # parts already fail the budget. It must change neither the value nor the guess
    # chosen at any node: the tree with a full table (cutoffs) equals the tree with
    # no table (none), and the full table searches fewer states.
    game = Game.from_spec(spec)
    full = solve(game, "expected", jobs=1)
    bare = solve(game, "expected", jobs=1, table_entries=0)
    assert full.value == bare.value
    assert full.strategy.root.to_dict() == bare.strategy.root.to_dict()
    assert full.stats.states < bare.stats.states


@pytest.mark.parametrize("spec, consistent", [("p3c5b", False), ("p3c4b", True)])
def test_an_infeasible_state_is_kept_as_a_bound(spec, consistent):
    # A state that the guesses left cannot solve costs INF, which no entry can hold:
    # it is kept as the greatest bound an entry holds, so that the next visit under
    # any budget up to that bound ends at the table, and the value is unchanged.
    # (The expected search alone: with no budget it asks the worst case first, and
    # then searches nothing, as the last lines check.)
    from optimal_mm import kernels

    game = Game.from_spec(spec)
    t = solve(game, "worst-case", guesses="consistent" if consistent else "any",
              jobs=1).value
    ctx = _Context(game, consistent, 1 << 16)
    S = np.arange(game.n_codes, dtype=np.int64)
    assert not ctx.wc(S, t - 1) and ctx.lb[t - 1, len(S)] < _search.INF  # counting allows it

    def kernel(beta, d):  # the expected search alone, asking the worst case nothing
        return ctx._run(kernels.exp_search, (S, beta, d, ctx._top(None), *_NO_WC),
                        ctx.bounds(0), ctx.exp_tt)

    value, guess = kernel(_search.INF, t - 1)
    assert value >= _search.INF and guess == -1
    states = int(ctx.counters[0])
    assert states > 0
    for beta in (_search_table._VALUE_CAP, 10 ** 6):
        value, guess = kernel(beta, t - 1)
        assert value >= beta and guess == -1
    assert int(ctx.counters[0]) == states  # answered by the table: nothing searched
    assert kernel(_search.INF, t)[0] < _search.INF  # within t: solved
    fresh = _Context(game, consistent, 1 << 16)
    assert fresh.exp(S, _search.INF, t - 1) == (_search.INF, -1)
    # The worst case said no: the expected table holds that answer alone
    assert int(fresh.exp_tt[3][0]) == 1


@pytest.mark.parametrize("seed", range(4))
def test_guesses_pop_in_order_of_key_then_index(seed):
    """The node's guess order (:func:`_search_guesses._pop_min`): the first picks scan, the
    rest come from a heap, and together they give the keys in increasing order, ties
    by index, exactly as a stable sort would; keys at or above the limit are held
    back, and only the least of them is returned, once, when the rest is spent."""
    rng = np.random.default_rng(seed)
    m = 40 + 20 * seed
    keys = rng.integers(0, 30, m).astype(np.int64)  # many ties
    limit = np.int64(40) if seed % 2 else np.int64(2 * 17)
    expected = [int(k) for k in np.argsort(keys, kind="stable")]
    below = [k for k in expected
             if keys[k] < limit or expected.index(k) < _search_guesses._SCANS]
    held = [k for k in expected if k not in below]
    work, order, pick = keys.copy(), np.empty(m, dtype=np.int64), np.zeros(3, dtype=np.int64)
    popped = []
    while True:
        k = _search_guesses._pop_min(work, order, pick, limit)
        if k < 0:
            break
        popped.append(int(k))
    assert popped == below + held[:1]
    # Without a limit (the worst case's use) every index comes back, in order.
    work, pick = keys.copy(), np.zeros(3, dtype=np.int64)
    popped = []
    while (k := _search_guesses._pop_min(work, order, pick, _search_guesses._TAKEN)) >= 0:
        popped.append(int(k))
    assert popped == expected


def _total_guessing(table, S, guess) -> int:
    """The least total of the secrets ``S`` when ``guess`` (one of them) comes first
    and every later guess is a secret left (no cap): brute force, one answer at a
    time."""
    parts = parts_by_answer(lambda g, s: int(table[g, s]), guess, S)
    return len(S) + sum(min(_total_guessing(table, p, g) for g in p)
                        for p in parts.values())


@pytest.mark.parametrize("spec", ["p3c4b", "p4c5nb", "p2c5", "p3c6n"])
def test_three_to_six_secrets_are_worked_out_exactly(spec):
    """:func:`_search_small._worked_out` gives the least total of three to six
    secrets with the secrets as guesses, and the first secret that achieves it
    (brute force over every secret first), on random sets of each size, each size
    meeting several totals."""
    game = Game.from_spec(spec)
    table = game.answer_table()
    rng = np.random.default_rng(11)
    values = set()
    for _ in range(400):
        size = int(rng.integers(3, _search_small._WORKED_OUT + 1))
        S = np.sort(rng.choice(game.n_codes, size, replace=False)).astype(np.int64)
        totals = [_total_guessing(table, list(S), int(g)) for g in S]
        v, g = _search_small._worked_out(table, S)
        assert v == min(totals) and g == S[totals.index(min(totals))]
        values.add((size, int(v)))
    for size in range(3, _search_small._WORKED_OUT + 1):
        assert len({v for s, v in values if s == size}) >= 2


@pytest.mark.parametrize("spec, consistent", [("p3c4b", True), ("p4c5nb", True),
                                              ("p3c5", False), ("p4c4", True)])
def test_a_settled_state_has_its_searched_value(spec, consistent):
    """The head of a node (:func:`_search._settled`, which parents also ask of each
    part before the call) returns without searching only what a search would prove:
    for states met in play, under budgets around their bounds and with several
    guesses left, a value below the budget is the state's optimum (found by a
    search of its own, from an empty table), one at or above it is a lower bound of
    the optimum; one or two secrets come with the first as the guess, three to six
    (with more guesses left than secrets; where any code may be guessed, only a
    total of 2n - 1 or 2n) with a secret that achieves the value, an exact entry of
    the table with -2, and a node of restricted guesses reads that entry as a
    bound. Where it does not settle, the key it made is the state's."""
    game = Game.from_spec(spec)
    ctx = _Context(game, consistent, 1 << 16)
    rng = np.random.default_rng(5)
    states = _states(game, rng, 60, max_history=3)
    for S in states[::3]:  # exact values in the table for some of them
        ctx.exp(S, _search.INF, _search.NO_CAP)
    states += [S[:k] for S in states[:4] for k in (1, 2)]  # settled by their size
    states += [S[i:i + k] for S in states[:12] if len(S) >= 5 for i in (0, 1)
               for k in (3, 4, 5, 6)]  # worked out, not keyed
    codes, n_colours, repeats, _, _, symmetry = ctx.rules
    normal = _search_keys._normalises(ctx.n_slots, codes, n_colours, repeats, symmetry)
    work = _search_keys._form_work(codes.shape[1], n_colours)
    lb, tt = ctx.lb, ctx.exp_tt
    weight = _search._cap_weight(lb)
    kinds = set()
    for S in states:
        for d in (1, 2, 3, _search.NO_CAP):
            optimum = _Context(game, consistent, 1 << 16).exp(S, _search.INF, d)[0]
            bound = int(lb[d, len(S)])
            for beta in {min(bound + extra, _search.INF) for extra in (0, 1, 4, _search.INF)}:
                for exact_ends in (True, False):
                    v, guess, key, check, entry = _search._settled(
                        S, beta, d, bound, 0, 0, tt, ctx.table, codes, n_colours, normal,
                        work, weight, exact_ends, consistent)
                    if v < 0:
                        kinds.add("searched")
                        assert (key, check) == _search_keys._state_hash(
                            S, d, weight, codes, n_colours, normal, work)
                        if entry >= 0 and entry & 1:  # read as a bound: below beta
                            kinds.add("exact read as bound")
                            assert not exact_ends and entry >> 1 == optimum < beta
                        continue
                    if v < beta:
                        assert v == optimum
                    else:
                        assert beta <= v <= optimum
                    if len(S) <= 2 and d >= len(S):
                        kinds.add("small")
                        assert guess == S[0] and v == optimum
                    elif guess >= 0:  # worked out, not searched
                        assert 3 <= len(S) <= _search_small._WORKED_OUT and d > len(S)
                        assert exact_ends and v < beta
                        assert consistent or v <= 2 * len(S)
                        kinds.add(("three", "four", "five", "six")[len(S) - 3])
                        assert guess in S and v == _total_guessing(ctx.table, S, guess)
                    elif guess == -2:
                        kinds.add("exact")
                        assert exact_ends and v == optimum == entry >> 1 and entry & 1
                    else:
                        kinds.add("bound")
                        assert guess == -1 and v >= beta
                        assert entry < 0 or v == entry >> 1  # a hit: the entry's value
    # Where any code may be guessed, four to six secrets are searched unless a
    # secret guessed first gives 2n - 1 or 2n, which need not occur here.
    more = {"four", "five", "six"}
    required = {"searched", "exact read as bound", "small", "three", "exact", "bound"}
    required |= more if consistent else set()
    assert required <= kinds <= required | more


@pytest.mark.parametrize("spec", ["p4c5nb", "p3c4", "bulls-and-cows"])
def test_the_columns_a_node_scores_from_are_the_tables(spec):
    """:func:`_search_guesses._columns` copies row ``j`` = ``table[S[j]]`` (every code's
    column, where guesses may be any code), or, ``narrow``, the secrets' columns only
    in the order of ``S`` (consistent guesses: column ``i`` is guess ``S[i]``); a
    state too big for the copy gets no rows, and the node then reads the table."""
    game = Game.from_spec(spec)
    table = game.answer_table()
    rng = np.random.default_rng(3)
    for S in _states(game, rng, 12, max_history=2):
        wide = _search_guesses._columns(table, S)
        narrow = _search_guesses._columns(table, S, True)
        if len(S) * table.shape[1] <= _search_guesses._COLUMNS_BYTES:
            assert np.array_equal(wide, table[S])
        else:
            assert wide.shape == (0, table.shape[1])
        if len(S) ** 2 <= _search_guesses._COLUMNS_BYTES:
            assert np.array_equal(narrow, table[np.ix_(S, S)])
        else:
            assert narrow.shape == (0, len(S))
    everything = np.arange(game.n_codes, dtype=np.int64)
    too_big = game.n_codes ** 2 > _search_guesses._COLUMNS_BYTES
    assert _search_guesses._columns(table, everything, True).shape[0] == (0 if too_big else
                                                                          game.n_codes)


@pytest.mark.parametrize("consistent, total", [(False, 5625), (True, 5660)])
def test_a_root_scored_from_the_table_itself_keeps_the_published_totals(consistent, total):
    # Mastermind's 1,296 codes are too many to copy their rows (_COLUMNS_BYTES), so the
    # root node, searched by the kernel itself, scores every guess from the answer
    # table; the nodes below score from the copy. Both ways count the parts in lanes
    # and mark the answers met (_search.MARKED_SLOTS). Koyama and Lai 1993: 5625;
    # consistent guesses only, 5660: a public strategy page (REFERENCE.md).
    game = Game.from_spec("mastermind")
    assert game.n_codes ** 2 > _search_guesses._COLUMNS_BYTES
    assert game.n_answer_slots <= _search.MARKED_SLOTS
    value, _ = _Context(game, consistent, 200_003).exp(np.arange(game.n_codes), _search.INF,
                                                      _search.NO_CAP)
    assert value == total
