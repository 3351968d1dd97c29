"""The one step every brute force of the tests repeats: split the secrets by their
answer to a guess.

The brute forces (of the worst case, the total, the fewest at the worst depth, the
skew-aware bound, the checkpoint report's parts beyond the cap) check the search
against the game's rules and nothing of the search's; each scores a pair its own
way (:meth:`Game.score`, the answer table, a scoring function of the test's own),
so the scoring comes in as a function.
"""

from __future__ import annotations


def parts_by_answer(answer, guess, secrets) -> dict:
    """``{answer: [secrets]}``: the ``secrets`` other than ``guess`` itself, grouped by
    ``answer(guess, secret)``, each group in the order of ``secrets`` (the guess, when
    it is one of them, is found: it needs no part).

    >>> parts_by_answer(lambda g, s: abs(g - s), 2, [0, 1, 2, 3, 4])
    {2: [0, 4], 1: [1, 3]}
    """
    parts = {}
    for s in secrets:
        if s != guess:
            parts.setdefault(answer(guess, s), []).append(s)
    return parts
