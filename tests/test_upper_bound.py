"""The expected search's first batch as a strategy: an upper bound, not a proof."""

import pytest

from optimal_mm import search_parts
from optimal_mm.game import Game
from optimal_mm.search import Solver, solve
from optimal_mm.tree import Strategy

from script_loader import load_script


@pytest.mark.parametrize("spec, guesses, split", [
    ("mastermind", "any", 400),   # no part is big: the batch is the first guess solved
    ("mastermind", "any", 100),   # 256 and 276 secrets split by their second guesses
    ("p3c5", "consistent", 8),
])
def test_first_batch_tree_bounds_the_optimum(monkeypatch, tmp_path, spec, guesses, split):
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", split)
    game = Game.from_spec(spec)
    exact = solve(game, "expected", guesses, jobs=1)
    bound = Solver(game, guesses, jobs=1).expected_upper_bound()
    # A complete strategy that replays every secret, whose total is the value.
    stats = bound.strategy.validate()
    assert stats.secrets == game.n_codes and stats.total == bound.value
    assert bound.strategy.optimal is False
    assert "upper bound" in bound.proof[0]
    # Never below the proven optimum; equal to it when nothing was split, since the
    # first guess tried is then solved exactly (and mastermind's is optimal).
    assert bound.value >= exact.value
    if split == 400:
        assert bound.value == exact.value
        assert bound.strategy.root.guess == exact.strategy.root.guess
    # Written and read back as a tree file, flagged as not optimal.
    path = tmp_path / "bound.json"
    bound.strategy.save(path)
    again = Strategy.load(path)
    assert again.optimal is False and again.validate().total == bound.value


def test_first_batch_shares_the_checkpoint_with_the_exact_run(monkeypatch, tmp_path):
    # The exact run's first batch is the same tasks: run the bound first, then the
    # exact search resumes from its checkpoint entries.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 100)
    game = Game.from_spec("mastermind")
    bound = Solver(game, "any", jobs=1, checkpoint=tmp_path).expected_upper_bound()
    saved = len(list(tmp_path.glob("*.json")))
    assert bound.resumed == 0 and saved > len(bound.strategy.root.next)  # big parts split
    exact = Solver(game, "any", jobs=1, checkpoint=tmp_path).expected()
    assert exact.resumed == saved
    assert exact.value <= bound.value


def test_first_guess_can_be_given():
    game = Game.from_spec("p3c4")
    bound = Solver(game, "any", jobs=1).expected_upper_bound(first="123")
    assert bound.strategy.root.guess == "123"
    assert bound.strategy.validate().total == bound.value


def test_script_writes_a_verified_tree_and_refuses_bad_input(tmp_path, capsys):
    script = load_script("expected_upper_bound")
    out = tmp_path / "p3c4.json.gz"
    assert script.main(["p3c4", "--jobs", "1", "--quiet", "-o", str(out)]) == 0
    tree = Strategy.load(out)
    assert tree.optimal is False and tree.validate().secrets == 64
    assert "not proven optimal" in capsys.readouterr().out
    # Bad input: one line on stderr, exit 2, nothing written.
    for argv in (["p3cx", "-o", str(tmp_path / "a.json")],
                 ["p3c4", "--first", "1234", "-o", str(tmp_path / "b.json")],
                 ["p3c4", "-o", str(tmp_path / "no" / "c.json")],
                 # had failed only once started, on the pool: refused by the memory guard
                 ["p3c4", "--jobs", str(10 ** 20), "-o", str(tmp_path / "d.json")],
                 ["p3c4", "--memory-limit", "lots", "-o", str(tmp_path / "e.json")]):
        assert script.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("expected_upper_bound.py: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p3c4.json.gz"]
