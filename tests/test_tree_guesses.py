"""The tree tries one guess per class of equivalent guesses (``_Context._tree_guesses``)
and the state's value as budget, and must choose exactly the guesses it chose when it
tried every guess allowed with no budget: the representatives are the least codes of
their classes, and the choice (the first in order that meets the optimum) does not
depend on the budget above the optimum.
"""

from __future__ import annotations

import pytest

from optimal_mm import Game, search
from optimal_mm.search import INF, solve


def _every_guess(self, S):
    return S if self.consistent else self.all_guesses


_plain_tree = search._Context.exp_tree


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
    monkeypatch.setattr(search._Context, "_tree_guesses", _every_guess)
    monkeypatch.setattr(search._Context, "exp_tree",
                        lambda self, S, d, top=None, weight=0, value=None:
                        _plain_tree(self, S, d, top, weight, INF))
    before = solve(game, objective, guesses, jobs=1, table_entries=70_002)
    assert now.value == before.value
    assert now.strategy.root.to_dict() == before.strategy.root.to_dict()
