"""The compiled tree build (``_search.exp_tree_nodes``) tries one guess per class of
equivalent guesses and the state's value as budget, and must choose exactly the
guesses of a node-by-node build in Python that tries every guess allowed with no
budget: the representatives are the least codes of their classes, and the choice
(the first in order that meets the optimum) does not depend on the budget above the
optimum.
"""

from __future__ import annotations

import pytest

from optimal_mm import Game, search_context
from optimal_mm.search import INF, NO_CAP, solve


def _reference_tree(ctx, S, d, top=None, weight=0, value=None):
    """The tree of ``S`` built node by node: at each node of three or more secrets,
    the guess the search picks among every guess allowed (``top`` at the root), with
    no budget; the node's children by :meth:`_Context.split`."""
    if len(S) <= 2:
        g = int(S[0])
    else:
        guesses = top if top is not None else (S if ctx.consistent else ctx.all_guesses)
        _, g = ctx.exp(S, INF, d, guesses, weight)
        assert g >= 0
    child_d = d if d >= NO_CAP else d - 1
    return (int(g), {a: _reference_tree(ctx, part, child_d, None, weight)
                     for a, part in ctx.split(g, S)})


@pytest.mark.parametrize("spec, guesses, objective", [
    ("mastermind", "any", "expected"),
    ("mastermind", "consistent", "expected"),
    ("p3c6b", "any", "expected"),        # black-only with repeats: per-position classes
    ("p4c5nb", "consistent", "expected"),
    ("p4c5n", "any", "expected"),
    ("p3c5", "any", "fewest-at-worst"),  # weighted cost, capped
    ("p4c4", "any", "worst-then-expected"),
])
def test_same_tree_as_trying_every_guess(monkeypatch, spec, guesses, objective):
    game = Game.from_spec(spec)
    now = solve(game, objective, guesses, jobs=1, table_entries=70_001)
    monkeypatch.setattr(search_context._Context, "exp_tree", _reference_tree)
    before = solve(game, objective, guesses, jobs=1, table_entries=70_002)
    assert now.value == before.value
    assert now.strategy.root.to_dict() == before.strategy.root.to_dict()
