"""A capped search with no budget asks the worst case first whether a part fits.

Under a cap, a part that no tree solves within the guesses left costs the expected
search every guess at every node to find out (no total bounds it), where the
worst-case search refutes it with its own cuts: p5c6b's 166 secrets after 11111
12222 21123 13334, 5 guesses left, 258 s against 2 s. So every node of the compiled
expected search with no budget (:data:`search.UNBUDGETED`) asks the worst-case kernel
first (its table handed in by :meth:`search_context._Context.exp`), and
:meth:`search.Solver._second_guess_rounds` races no guess on a part that fits
nowhere. Neither changes a value or a tree: checked here against the search with the
question never asked (``ask_fits`` off).
"""

from __future__ import annotations

import numpy as np
import pytest

from optimal_mm import Game, search_context, search_parts, search_tasks
from optimal_mm.search import INF, NO_CAP, UNBUDGETED, Solver
from optimal_mm.search_context import _context


def fresh_context(spec, ask=True):
    """A context of its own (``_context`` shares one per game), its tables empty."""
    ctx = search_context._Context(Game.from_spec(spec), False, 100_003)
    ctx.ask_fits = ask
    return ctx


def expanded(ctx, *call):
    """``(ctx.exp(*call), states expanded)``: by both kernels, the worst case's
    states included."""
    before = int(ctx.counters[0])
    result = ctx.exp(*call)
    return result, int(ctx.counters[0]) - before


def part_2b1w(ctx):
    """Mastermind's 40 secrets after 1123 2B1W: no tree keeps them within 3 guesses,
    though 94 guesses have bounds within it."""
    game = ctx.game
    every = np.arange(game.n_codes, dtype=np.int64)
    (part,) = [p for a, p in ctx.split(game.code_index("1123"), every)
               if game.answer_str(int(a)) == "2B1W"]
    return part


def test_a_state_that_fits_nowhere_costs_no_expected_search():
    ctx = fresh_context("mastermind")
    part = part_2b1w(ctx)
    assert not ctx.fits(part, 3) and ctx.fits(part, 4) and ctx.fits(part, NO_CAP)
    # Asked and answered (the worst case's table holds it now): nothing expanded
    for beta in (INF, UNBUDGETED):
        assert expanded(ctx, part, beta, 3) == ((INF, -1), 0)
    # Asked afresh: the worst case's few states, where the search alone expands
    # hundreds to find out
    asked, never = fresh_context("mastermind"), fresh_context("mastermind", ask=False)
    (v1, g1), s1 = expanded(asked, part, INF, 3)
    (v2, g2), s2 = expanded(never, part, INF, 3)
    assert v1 == v2 == INF and g1 == g2 == -1 and 0 < s1 < s2 / 5, (s1, s2)
    # A state that fits: the same exact value and guess
    assert asked.exp(part, INF, 4) == never.exp(part, INF, 4) == ctx.exp(part, INF, 4)
    # With a budget the worst case is not asked (its table stays empty): the
    # expected search fails soon on its own
    budgeted = fresh_context("mastermind")
    value, guess = budgeted.exp(part, 150, 3)
    assert value >= 150 and guess == -1 and budgeted.wc_tt[3][0] == 0


def test_nodes_below_the_root_ask_too():
    """Mastermind's whole game within 5 with no budget: under some first guesses
    parts fit nowhere, and below the root the question cuts the search (states
    expanded, the worst case's included, against the search never asking)."""
    asked, never = fresh_context("mastermind"), fresh_context("mastermind", ask=False)
    every = np.arange(asked.game.n_codes, dtype=np.int64)
    top = [asked.game.code_index(c) for c in ("1111", "1112", "1122", "1123", "1234")]
    (v1, g1), s1 = expanded(asked, every, INF, 5, top)
    (v2, g2), s2 = expanded(never, every, INF, 5, top)
    assert (v1, g1) == (v2, g2) == (5626, asked.game.code_index("1123"))
    assert s1 < 0.8 * s2, (s1, s2)


@pytest.mark.parametrize("spec, objective, guesses, split, chain", [
    ("p5c5nb", "fewest-at-worst", "consistent", 30, None),  # a part beyond the cap
    ("p4c5nb", "fewest-at-worst", "any", 30, 4),
    ("mastermind", "worst-then-expected", "any", 60, None),
])
def test_the_question_changes_no_value_or_tree(monkeypatch, spec, objective, guesses,
                                                split, chain):
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", split)
    options = {"chain_secrets": chain} if chain else {}
    game = Game.from_spec(spec)
    asked = Solver(game, guesses, jobs=1, **options).solve(objective)
    with monkeypatch.context() as patch:
        patch.setattr(search_context._Context, "fits", lambda self, S, d, top=None: True)
        patch.setattr(search_context._Context, "_wc_args", lambda self, d: search_context._NO_WC)
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
    rival = search_tasks._rival

    def watched(*args):
        raced.append(args[8])
        return rival(*args)

    monkeypatch.setattr(search_tasks, "_rival", watched)
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
