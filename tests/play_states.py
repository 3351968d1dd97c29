"""States a search meets: the sets of secrets that random histories leave (random
subsets would almost never have the symmetry, or the twin guesses, of a real one)."""

from __future__ import annotations

import numpy as np


def states_in_play(game, rng, count, max_history=2):
    """The states of at least 3 secrets among ``count`` random histories of 1 to
    ``max_history`` guesses, each answered as a random secret left would answer
    (``rng``: a numpy ``Generator``)."""
    table = game.answer_table()
    out = []
    for _ in range(count):
        S = np.arange(game.n_codes)
        for _ in range(rng.integers(1, max_history + 1)):
            g = rng.integers(game.n_codes)
            secret = rng.choice(S)
            S = S[table[g, S] == table[g, secret]]
        if len(S) >= 3:
            out.append(np.ascontiguousarray(S, dtype=np.int64))
    return out
