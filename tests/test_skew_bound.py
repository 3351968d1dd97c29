"""The skew-aware lower bound of black-only games (:mod:`optimal_mm._skew_bound`).

It must never exceed the optimum: checked against a plain-Python minimisation over
every tree (its own scoring and recursion, nothing shared with the package) on the
states of tiny games, and through the search, whose values on the black-only games
of the optimal table must stay those recorded in ``results/optimal_table.json``.
Its inner minimum (a Lagrangian dual) is checked against the exact minimum over every
vector of part sizes.
"""

import itertools
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from optimal_mm import Game
from optimal_mm import _skew_bound
from optimal_mm._search_arrays import INF, NO_CAP, lower_bound_table
from optimal_mm.search import solve

from brute import parts_by_answer

TABLE = Path(__file__).resolve().parent.parent / "results" / "optimal_table.json"


def _exact_parts_minimum(need, budget, parts, row):
    """``min sum_k row[m_k]`` over ``sum m_k = need``, ``sum k m_k <= budget``."""
    best = INF
    for rest in itertools.product(range(need + 1), repeat=parts - 1):
        m0 = need - sum(rest)
        if m0 < 0 or sum((k + 1) * m for k, m in enumerate(rest)) > budget:
            continue
        best = min(best, int(row[m0]) + sum(int(row[m]) for m in rest))
    return best


@pytest.mark.parametrize("r, parts, cap", [(3, 3, NO_CAP), (4, 4, NO_CAP), (4, 4, 3),
                                           (5, 5, 3), (3, 3, 4)])
def test_dual_is_below_the_exact_minimum(r, parts, cap):
    # Weak duality: never above the exact constrained minimum; at budget "plenty" it
    # is the unconstrained (balanced) minimum; and it does bind when blacks are few.
    row = lower_bound_table(40, r)[cap]
    q = np.lcm.reduce(np.arange(1, parts, dtype=np.int64))
    values, sizes = np.empty(130, dtype=np.int64), np.empty(130, dtype=np.int64)
    n_groups = _skew_bound._marginal_groups(row, 40, values, sizes)
    ptr, used = np.empty(parts, dtype=np.int64), np.empty(parts, dtype=np.int64)
    capacity = int(sizes[:n_groups].sum())
    binding = 0
    for need in range(1, 13 if parts < 5 else 9):
        for budget in range(0, need * (parts - 1) + 1, 1 if parts < 4 else 2):
            dual = _skew_bound._parts_minimum(need, budget, parts, q, values, sizes,
                                              n_groups, capacity, ptr, used)
            exact = _exact_parts_minimum(need, budget, parts, row)
            assert dual <= exact
            assert (dual >= INF) == (exact >= INF)
            free = _exact_parts_minimum(need, need * parts, parts, row)
            assert dual >= free or dual >= INF
            binding += free < dual < INF
    assert binding > 0


def _rows(rng):
    """Bound rows to try the dual on: the balanced-tree rows under several caps, and
    random convex rows (non-decreasing increments, some of them repeated, one of them
    a weighted depth as the fewest-at-worst cost has), and one whose 40 increments all
    differ, too many breakpoints for the search to list."""
    rows = [lower_bound_table(40, r)[cap] for r in (3, 4, 6) for cap in (3, 4, NO_CAP)]
    rows.append(np.concatenate(([0], np.cumsum(np.arange(1, 41)))).astype(np.int64))
    for _ in range(12):
        steps = np.sort(rng.choice([1, 2, 3, 4, 5, 7, 1000], size=40))
        rows.append(np.concatenate(([0], np.cumsum(steps))).astype(np.int64))
    return rows


@pytest.mark.parametrize("parts", [2, 3, 4, 5, 6])
def test_dual_search_finds_the_dual_maximum(parts):
    # The search over lam = j / Q reads the slope H(j + 1) - H(j) off one merge at j:
    # it must be that difference exactly, for every j up to past the last breakpoint,
    # and the bound returned must be the maximum of H over all those j, rounded up.
    q = int(np.lcm.reduce(np.arange(1, parts, dtype=np.int64)))
    values, sizes = np.empty(130, dtype=np.int64), np.empty(130, dtype=np.int64)
    ptr, used = np.empty(parts, dtype=np.int64), np.empty(parts, dtype=np.int64)
    rng = np.random.default_rng(parts)
    checked = 0
    for row in _rows(rng):
        n_groups = _skew_bound._marginal_groups(row, 40, values, sizes)
        capacity = int(sizes[:n_groups].sum())
        spread = int(values[n_groups - 1] - values[0] + 1)
        for need, budget in rng.integers(1, 30, size=(6, 2)):
            need, budget = int(need), int(budget) * (parts - 1) // 2
            if _skew_bound._least_blacks(need, parts, capacity) not in range(budget + 1):
                continue
            js = sorted(set(range(0, min(spread * q, 400) + 2))
                        | set(int(x) for x in rng.integers(0, spread * q + 2, size=50)))
            h = {j: _skew_bound._dual(j, q, need, budget, parts, values, sizes, n_groups,
                                      ptr, used) for j in js}
            for j in js:
                if j + 1 in h:
                    assert h[j + 1][0] - h[j][0] == h[j][1], (parts, need, budget, j)
            best = max(v for v, _ in h.values())
            got = _skew_bound._parts_minimum(need, budget, parts, q, values, sizes,
                                             n_groups, capacity, ptr, used)
            assert got == -((-best) // q)
            checked += 1
    assert checked > 20


def _answer(guess, secret):
    return sum(g == s for g, s in zip(guess, secret))


def _plain_values(spec):
    """``value(S, d)`` by plain minimisation over every tree (``INF`` when impossible)."""
    game = Game.from_spec(spec)
    codes = [tuple(int(c) for c in game.codes[i]) for i in range(game.n_codes)]
    n = len(codes)

    def score(g, s):
        return _answer(codes[g], codes[s])

    @lru_cache(maxsize=None)
    def value(secrets, d):
        if len(secrets) == 1:
            return 1 if d >= 1 else INF
        if d <= 1:
            return INF
        best = INF
        for g in range(n):
            parts = parts_by_answer(score, g, secrets)
            if len(parts) == 1 and g not in secrets:
                continue  # no information
            total = len(secrets) + sum(value(tuple(p), d - 1) for p in parts.values())
            best = min(best, total)
        return best

    return game, value


def _states(game, rng, count):
    """Sets of secrets consistent with random histories of one to three guesses."""
    table = game.answer_table()
    out = []
    for _ in range(count):
        S = np.arange(game.n_codes)
        for _ in range(rng.integers(1, 4)):
            g = rng.integers(game.n_codes)
            S = S[table[g, S] == table[g, rng.choice(S)]]
        if len(S) >= 3:
            out.append(np.ascontiguousarray(S, dtype=np.int64))
    return out


@pytest.mark.parametrize("spec", ["p2c4b", "p3c4nb", "p2c5b", "p4c4n",
                                  pytest.param("p3c3b", marks=pytest.mark.slow)])
def test_never_above_the_plain_optimum(spec):
    # p4c4n: a permutation game, whose black-and-white answers are its blacks'.
    # On the whole game and on states met after random histories, under every cap:
    # the bound never exceeds the least total, is infeasible only where the state is,
    # and the worst-case test never rejects a state that is feasible.
    game, value = _plain_values(spec)
    r = len(game.possible_answers) - 1
    lb = lower_bound_table(game.n_codes, r)
    codes = np.ascontiguousarray(game.codes)
    states = [np.arange(game.n_codes, dtype=np.int64)]
    states += _states(game, np.random.default_rng(14), 60)
    above_balanced = 0
    for S in states:
        for d in (2, 3, 4, 5, NO_CAP):
            exact = value(tuple(int(x) for x in S), min(d, 12))
            child = lb[d - 1] if d < NO_CAP else lb[NO_CAP]
            bound = _skew_bound.skew_bound(S, codes, game.colours, child, False)
            assert bound <= exact, (spec, S, d)
            if exact < INF:
                cap = max(int(np.sum(child[1:len(S) + 1] < INF)), 1)
                assert _skew_bound.skew_feasible(S, codes, game.colours, cap, False)
            above_balanced += bound > lb[d, len(S)]
    assert above_balanced > 0  # it is stronger somewhere


def test_consistent_bound_below_the_consistent_optimum():
    # Only secrets as guesses: the bound with w = 1 against a plain minimisation that
    # guesses only secrets.
    game = Game.from_spec("p3c3b")
    codes = [tuple(int(c) for c in game.codes[i]) for i in range(game.n_codes)]

    @lru_cache(maxsize=None)
    def value(secrets):
        if len(secrets) == 1:
            return 1
        best = INF
        for g in secrets:
            parts = parts_by_answer(lambda g, s: _answer(codes[g], codes[s]), g, secrets)
            best = min(best, len(secrets) + sum(value(tuple(p)) for p in parts.values()))
        return best

    lb = lower_bound_table(game.n_codes, len(game.possible_answers) - 1)
    stronger = 0
    for S in [np.arange(27, dtype=np.int64)] + _states(game, np.random.default_rng(3), 80):
        bound = _skew_bound.skew_bound(S, np.ascontiguousarray(game.codes), game.colours,
                                       lb[NO_CAP], True)
        assert bound <= value(tuple(int(x) for x in S))
        stronger += bound > lb[NO_CAP, len(S)]
    assert stronger > 0


def _blacks_decide(spec: str) -> bool:
    """Black-only scoring, or a permutation game (``pPcPn``): where the search uses
    the skew-aware bound."""
    game = Game.from_spec(spec)
    return game.scoring == "black" or (not game.repeats and game.colours == game.pegs)


def _fast_black_only_entries(limit_states):
    """The solved black-only entries whose search counted at most ``limit_states``
    states. Only entries searched whole: one that read tasks back from a checkpoint
    (``resumed_tasks``) or stopped at a floor from another entry (``floor``) counted
    the states of its last run only, and a solve from nothing takes far longer
    (p5c7nb's total within 8 with any guesses: 29,263 states read back in 0.7 s,
    hours from nothing)."""
    entries = json.loads(TABLE.read_text())["entries"]
    return sorted(k for k, e in entries.items()
                  if e["status"] == "solved" and _blacks_decide(e["spec"])
                  and e["objective"] in ("expected", "worst-case", "fewest-at-worst",
                                         "worst-then-expected")
                  and not e.get("resumed_tasks") and not e.get("floor")
                  and e.get("states") and e["states"] <= limit_states and e["codes"] >= 20)


@pytest.mark.parametrize("key", _fast_black_only_entries(3000))
def test_table_values_unchanged(key):
    entry = json.loads(TABLE.read_text())["entries"][key]
    spec, guesses, objective = key.split("/")
    assert solve(Game.from_spec(spec), objective, guesses, jobs=1).value == entry["value"]


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(set(_fast_black_only_entries(400_000))
                                       - set(_fast_black_only_entries(3000))))
def test_table_values_unchanged_bigger(key):
    entry = json.loads(TABLE.read_text())["entries"][key]
    spec, guesses, objective = key.split("/")
    assert solve(Game.from_spec(spec), objective, guesses, jobs=1).value == entry["value"]


@pytest.mark.parametrize("spec", ["p4c4b", "p3c6nb", "p6c6n"])
def test_search_cuts_with_it(spec):
    # A budget between the balanced-tree bound and the skew-aware bound: the search
    # answers at least the budget without expanding the state (no state counted),
    # and with a budget above the optimum it still finds the exact value.
    from optimal_mm.search_context import _Context

    game = Game.from_spec(spec)
    ctx = _Context(game, False, 100_000)
    S = np.arange(game.n_codes, dtype=np.int64)
    skew = _skew_bound.skew_bound(S, np.ascontiguousarray(game.codes), game.colours,
                                  ctx.lb[NO_CAP], False)
    assert skew > ctx.lb[NO_CAP, len(S)]
    value, guess = ctx.exp(S, skew, NO_CAP)
    assert value >= skew and guess == -1 and ctx.counters[0] == 0
    exact, guess = ctx.exp(S, INF, NO_CAP)
    assert skew <= exact < INF and guess >= 0


def test_worst_case_refuted_without_expanding():
    # A black-only state whose parts cannot fit the counting bound within its black
    # budget, though the counting bound alone allows its size.
    from optimal_mm.search_context import _Context

    game = Game.from_spec("p4c4b")
    ctx = _Context(game, False, 100_000)
    codes = np.ascontiguousarray(game.codes)
    refuted = 0
    for d in (2, 3, 4):
        cap = max(int(np.sum(ctx.lb[d - 1][1:game.n_codes + 1] < INF)), 1)
        for S in _states(game, np.random.default_rng(d), 200):
            if ctx.lb[d, len(S)] >= INF or _skew_bound.skew_feasible(S, codes, game.colours,
                                                                     cap, False):
                continue
            before = int(ctx.counters[0])
            assert not ctx.wc(S, d)
            assert int(ctx.counters[0]) == before
            refuted += 1
    assert refuted > 0


def test_constant_positions_raise_the_bound():
    # Secrets that differ at one position only (the other two settled): each guess
    # tests one colour there, whatever it holds elsewhere, so the optimum is the
    # linear 1 + 2 + ... + 6. Counting the settled positions' blacks would leave the
    # balanced bound; without them the bound rises, and stays below the optimum.
    game, value = _plain_values("p3c8nb")
    codes = np.ascontiguousarray(game.codes)
    S = np.array(sorted(i for i in range(game.n_codes)
                        if tuple(codes[i, :2]) == (0, 1)), dtype=np.int64)
    assert len(S) == 6
    assert _skew_bound.position_blacks(S, codes, game.colours) == (1, 1, 2)
    # A guessed secret leaves labels 0 .. P' - 1 = {0}, sharing B'_S - P' = 0 blacks;
    # another guess may miss a settled position: labels {0, 1}, sharing B' = 1.
    assert _skew_bound._labels(3, 2, 1, 1, 1) == (1, 0)
    assert _skew_bound._labels(3, 2, 0, 1, 1) == (2, 1)
    assert _skew_bound._labels(3, 0, 0, 5, 4) == (3, 5)  # none settled: as before
    lb = lower_bound_table(game.n_codes, len(game.possible_answers) - 1)
    bound = _skew_bound.skew_bound(S, codes, game.colours, lb[NO_CAP], False)
    exact = value(tuple(int(x) for x in S), 12)
    assert exact == 21
    assert lb[NO_CAP, 6] < bound <= exact
