"""The worst case's block scoring (``_wc_keys_blocked``, ``_two_guess_blocked``)
against the guess-at-a-time loops it replaces on big answer tables.

The search takes the block kernels only from 8,192 codes on (``_SCAN_CODES``), where
its tables are large; here both are called directly on random sets of small games
and must agree exactly: the same order key for every guess, the same guess that
splits a set into singletons, the same count of guesses evaluated, and the same
answer to the two-guess test.
"""

from __future__ import annotations

import numpy as np
import pytest

from optimal_mm import Game, _search_guesses, _search_wc
from optimal_mm._search_arrays import INF, new_stats
from optimal_mm.search_context import _context


def _random_sets(game, rng, count):
    """Sets of every kind: random subsets, and the secrets left after a few guesses."""
    table = game.answer_table()
    out = []
    while len(out) < count:
        if rng.random() < 0.5:
            size = int(rng.integers(3, min(120, game.n_codes)))
            S = np.sort(rng.choice(game.n_codes, size=size, replace=False))
        else:
            S = np.arange(game.n_codes)
            for _ in range(int(rng.integers(1, 3))):
                row = table[int(rng.integers(game.n_codes)), S]
                answers = np.unique(row)
                S = S[row == answers[int(rng.integers(len(answers)))]]
        if len(S) >= 3:
            out.append(S.astype(np.int64))
    return out


@pytest.mark.parametrize("spec", ["p4c6", "p4c7", "p4c5b", "p4c6n", "p3c5"])
def test_block_scoring_agrees_with_guess_at_a_time(spec):
    game = Game.from_spec(spec)
    ctx = _context(game, False, 1 << 10)
    rng = np.random.default_rng(sum(map(ord, spec)))
    for S in _random_sets(game, rng, 25):
        n = len(S)
        in_s = np.zeros(game.n_codes, dtype=np.bool_)
        in_s[S] = True
        guesses = ctx.all_guesses.copy()
        if rng.random() < 0.5:  # the order of the guesses is the caller's
            rng.shuffle(guesses)
        for d in (2, 3, 4):
            if ctx.lb[d, n] >= INF:
                continue
            cap = 1
            while cap < n and ctx.lb[d - 1, cap + 1] < INF:
                cap += 1
            answers = []
            for kernel in (_search_wc._wc_keys, _search_wc._wc_keys_blocked):
                keys = np.full(len(guesses), -7, dtype=np.int64)
                stats = new_stats()
                found = kernel(S, guesses, ctx.table, cap, ctx.lb[d - 1], ctx.win,
                               ctx.n_slots, in_s, keys, stats)
                end = len(guesses) if found < 0 else found + 1
                answers.append((found, keys[:end].tolist(), stats.tolist()))
            assert answers[0] == answers[1], (spec, n, d)


@pytest.mark.parametrize("spec", ["p4c6", "p4c7", "p4c5b", "p3c5"])
@pytest.mark.parametrize("consistent", [False, True])
def test_block_two_guess_test_agrees(spec, consistent):
    game = Game.from_spec(spec)
    ctx = _context(game, consistent, 1 << 10)
    rng = np.random.default_rng(len(spec) + consistent)
    sets = [S[:int(rng.integers(3, 14))] for S in _random_sets(game, rng, 60)]
    outcomes = set()
    for S in sets:
        S = np.sort(S)
        guesses = S if consistent else ctx.all_guesses
        stats = new_stats()
        old, _ = _search_guesses._two_guess_test(S, guesses, ctx.table, ctx.n_slots, stats)
        new, g = _search_wc._two_guess_blocked(S, ctx.table, ctx.n_slots, consistent, stats)
        assert old == new, (spec, S.tolist())
        if new:  # the guess returned does separate the secrets
            assert len(np.unique(ctx.table[g, S])) == len(S)
            assert not consistent or g in S
        outcomes.add(new)
    assert outcomes == {True, False}  # both answers were put to the test
