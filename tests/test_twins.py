"""Twin guesses: where the blacks decide, two guesses with the same colour at each
position, or at a position two colours that no secret has there, split a state
alike; a node scores and tries only the first of them
(:func:`optimal_mm._search_guesses._twin`).

Checked on states met in play of black-only games without repeats: every code has
a guess kept before or at it that gives every secret the same answer (nothing is
lost), the kept guesses are exactly the first of each pattern in order (the
pattern computed here from the secrets' colours), the secrets all stay, and the
games where a guess has no colour to spare or repeats already merge such guesses
are left alone. Whole small games where the search meets twins give brute force's
values (``test_fewest_at_worst.py``, ``test_wc_cutoffs.py``).
"""

from __future__ import annotations

import numpy as np
import pytest

from optimal_mm import Game, _search_guesses
from optimal_mm.search_context import _Context

from play_states import states_in_play


def _pattern(code, alive):
    """A code's colour at each position where some secret has it, else None."""
    return tuple(int(c) if int(c) in alive[p] else None for p, c in enumerate(code))


@pytest.mark.parametrize("spec", ["p3c7nb", "p4c6nb", "p4c8nb"])
def test_the_first_guess_of_each_pattern_stays_and_splits_for_its_twins(spec):
    game = Game.from_spec(spec)
    ctx = _Context(game, False, 1000)
    codes, n_colours = ctx.rules[0], ctx.rules[1]
    table = game.answer_table()
    guesses = np.arange(game.n_codes, dtype=np.int64)
    rng = np.random.default_rng(5)
    dropped = 0
    for S in states_in_play(game, rng, 40, max_history=4):
        kept = _search_guesses._without_twins(guesses, S, codes, n_colours)
        alive = [set(codes[S, p].tolist()) for p in range(game.pegs)]
        first = {}
        for g in range(game.n_codes):
            first.setdefault(_pattern(codes[g], alive), g)
        assert kept.tolist() == sorted(first.values())
        assert set(S.tolist()) <= set(kept.tolist())
        for g in range(game.n_codes):
            twin = first[_pattern(codes[g], alive)]
            assert twin <= g and np.array_equal(table[twin, S], table[g, S])
        dropped += game.n_codes - len(kept)
    assert dropped > 0


def test_a_guess_list_in_another_order_keeps_its_own_first():
    game = Game.from_spec("p4c8nb")
    ctx = _Context(game, False, 1000)
    codes, n_colours = ctx.rules[0], ctx.rules[1]
    S = states_in_play(game, np.random.default_rng(3), 8, max_history=4)[0]
    backwards = np.arange(game.n_codes, dtype=np.int64)[::-1].copy()
    kept = _search_guesses._without_twins(backwards, S, codes, n_colours)
    alive = [set(codes[S, p].tolist()) for p in range(game.pegs)]
    first = {}
    for g in backwards.tolist():
        first.setdefault(_pattern(codes[g], alive), g)
    assert kept.tolist() == sorted(first.values(), reverse=True)


@pytest.mark.parametrize("spec, consistent, applies", [
    ("p4c8nb", False, True), ("p3c5nb", False, True),
    ("p4c8nb", True, False),  # a node's guesses are its secrets
    ("p4c6b", False, False),  # repeats: each position's colour classes merge them
    ("p5c5nb", False, False), ("p4c4nb", False, False),  # no colour to spare
    ("p4c8n", False, False),  # whites see colours anywhere
])
def test_twins_apply_where_the_blacks_decide_and_colours_spare(spec, consistent, applies):
    game = Game.from_spec(spec)
    ctx = _Context(game, consistent, 1000)
    codes, n_colours, repeats = ctx.rules[0], ctx.rules[1], ctx.rules[2]
    assert bool(_search_guesses._twins_apply(codes, n_colours, game.n_answer_slots,
                                             repeats, consistent)) is applies


def test_no_twins_where_a_patterns_key_would_not_fit_an_int64():
    # (colours + 1) ** pegs keys: 22 ** 14 is above 2 ** 62, 22 ** 13 below
    for pegs, applies in ((13, True), (14, False)):
        codes = np.zeros((1, pegs), dtype=np.int8)
        assert bool(_search_guesses._twins_apply(codes, 21, pegs + 1, False, False)) is applies
