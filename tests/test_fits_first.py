"""A capped search with no budget asks the worst case first whether a part fits.

Under a cap, a part that no tree solves within the guesses left costs the expected
search every guess at every node to find out (no total bounds it), where the
worst-case search refutes it with its own cuts: p5c6b's 166 secrets after 11111
12222 21123 13334, 5 guesses left, 258 s against 2 s. So
:meth:`search._Context.exp` asks :meth:`search._Context.fits` first when it has no
budget (:data:`search.UNBUDGETED`), and :meth:`search.Solver._second_guess_rounds`
races no guess on a part that fits nowhere. Neither changes a value or a tree:
checked here against the search with the question never asked.
"""

from __future__ import annotations

import numpy as np
import pytest

from optimal_mm import Game, kernels, search
from optimal_mm.search import INF, NO_CAP, UNBUDGETED, Solver, _context


@pytest.fixture()
def kernel_calls(monkeypatch):
    """The sizes of the parts the compiled expected search is called on."""
    calls = []
    real = kernels.exp_search

    def counted(S, *args):
        calls.append(len(S))
        return real(S, *args)

    monkeypatch.setattr(kernels, "exp_search", counted)
    return calls


def test_a_part_that_fits_nowhere_costs_no_expected_search(kernel_calls):
    game = Game.from_spec("mastermind")
    ctx = _context(game, False, 100_003)
    every = np.arange(game.n_codes, dtype=np.int64)
    assert not ctx.fits(every, 4) and ctx.fits(every, 5) and ctx.fits(every, NO_CAP)
    assert ctx.exp(every, INF, 4) == (INF, -1)
    assert ctx.exp(every, UNBUDGETED, 4) == (INF, -1)
    assert kernel_calls == []
    # With a budget the expected search runs as before (it fails soon on its own)
    value, guess = ctx.exp(every, 6000, 4)
    assert kernel_calls == [game.n_codes] and value >= 6000 and guess == -1
    # A part that fits: the same exact value and guess as the search alone
    assert ctx.exp(every, INF, 5)[0] == 5626
    assert kernel_calls == [game.n_codes] * 2


@pytest.mark.parametrize("spec, objective, guesses, split, chain", [
    ("p5c5nb", "fewest-at-worst", "consistent", 30, None),  # a part beyond the cap
    ("p4c5nb", "fewest-at-worst", "any", 30, 4),
    ("mastermind", "worst-then-expected", "any", 60, None),
])
def test_the_question_changes_no_value_or_tree(monkeypatch, spec, objective, guesses,
                                                split, chain):
    monkeypatch.setattr(search, "SPLIT_SECRETS", split)
    options = {"chain_secrets": chain} if chain else {}
    game = Game.from_spec(spec)
    asked = Solver(game, guesses, jobs=1, **options).solve(objective)
    with monkeypatch.context() as patch:
        patch.setattr(search._Context, "fits", lambda self, S, d, top=None: True)
        never = Solver(game, guesses, jobs=1, **options).solve(objective)
    assert asked.value == never.value
    assert asked.strategy.root.to_dict() == never.strategy.root.to_dict()


def test_a_big_part_that_fits_nowhere_races_no_rival(monkeypatch):
    """Mastermind's 40 secrets after 1123 2B1W, its first second guess's parts beyond
    the cap: with 3 guesses left no tree fits (though 94 guesses have bounds within
    it), so no rival is searched; with 4 the race runs, to the part's optimum."""
    game = Game.from_spec("mastermind")
    solver = Solver(game, jobs=1)
    first = game.code_index("1123")
    (part,) = [p for a, p in solver.first_guess_parts(first)
               if game.answer_str(int(a)) == "2B1W"]
    raced = []  # the parts' sizes of the rivals searched
    rival = search._rival

    def watched(*args):
        raced.append(args[8])
        return rival(*args)

    monkeypatch.setattr(search, "_rival", watched)
    beyond = {0: (INF, None)}  # the first second guess's parts: none within the cap
    with solver._session("expected", 5):
        plan = solver.exp_second_guesses((first,), part, 3, 0)
        assert len(plan) == 94 and not solver._ctx.fits(part, 3)
        assert solver._split_part((first,), part, plan, beyond, 3, 0) == (INF, None)
        assert raced == []
        plan = solver.exp_second_guesses((first,), part, 4, 0)
        value, (guess, subtrees) = solver._split_part((first,), part, plan, beyond, 4, 0)
    assert raced and set(raced) <= {len(part)} and value < INF
    assert value == solve_part(game, part, 4)


def solve_part(game, part, d):
    """The least total of ``part`` within ``d`` guesses, by the compiled search alone."""
    ctx = _context(game, False, 100_003)
    value, _ = ctx.exp(np.asarray(part, dtype=np.int64), INF, d)
    return int(value)
