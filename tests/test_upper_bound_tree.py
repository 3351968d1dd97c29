"""A complete tree known before the search is its best so far until it builds a
better one (search.UpperBound, ``solve --upper-bound-tree``).

Under a cap, a part split by its own guesses whose first guess keeps no tree within
the guesses left has no tree until its race finds one, and a run stopped before
then had nothing to report: p6c7nb's fewest at 8 and p5c6b's total within 9 ran
for 20 and 15 minutes and left their table cells without an upper bound, although
a tree within the cap (the worst case's own) bounds both. Checked on mastermind
within 5 guesses, where the same happens with parts of 60 secrets or more big and
20 to 59 split by their own guesses; the tree given changes no task and no answer.
"""

from __future__ import annotations

import json

import pytest

from optimal_mm import Game, search_expected, search_parts
from optimal_mm.errors import InvalidOptionError
from optimal_mm.progress import Progress
from optimal_mm.search import Solver, UpperBound, solve
from optimal_mm.search_costs import CappedCost, cap_weight
from optimal_mm.tree import Stats, Strategy


@pytest.fixture
def split_small(monkeypatch):
    """Mastermind's parts of 60 secrets or more are big (split by second guesses)."""
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)


@pytest.fixture(scope="module")
def worst_tree():
    """Mastermind's worst-case tree: within 5 guesses, so within every cap here."""
    return solve(Game.from_spec("mastermind"), "worst-case", jobs=1).strategy


class Recorder(Progress):
    """Records the bests told and stops the search (KeyboardInterrupt) as the first
    race of a part's rival guesses begins, if ``stop``."""

    def __init__(self, stop=False):
        self.stop, self.bests, self.raced = stop, [], False

    def phase(self, label, total, done=0):
        if "rivals of" in label:
            self.raced = True
            if self.stop:
                raise KeyboardInterrupt

    def update(self, best=None, bound=None):
        if isinstance(best, CappedCost):
            self.bests.append((best.at_cap, best.total))
        elif best is not None:
            self.bests.append((0, best))


def _mastermind(entries, **options):
    # A table size of its own: a fresh transposition table, so runs compare
    return Solver(Game.from_spec("mastermind"), jobs=1, table_entries=entries,
                  chain_secrets=20, **options)


def _pair(stats: Stats, cap: int) -> tuple[int, int]:
    return stats.depth_counts[cap - 1] if len(stats.depth_counts) >= cap else 0, stats.total


def test_a_known_tree_is_the_best_while_the_search_has_none(split_small, worst_tree):
    # Without it, the run stopped as the first race begins has no tree at all
    stopped = _mastermind(70_001, progress=Recorder(stop=True))
    with pytest.raises(KeyboardInterrupt):
        stopped.fewest_at_worst(5)
    assert stopped.best_so_far() is None

    given = UpperBound(worst_tree, "the worst case's tree")
    progress = Recorder(stop=True)
    stopped = _mastermind(70_002, progress=progress)
    with pytest.raises(KeyboardInterrupt):
        stopped.fewest_at_worst(5, ceiling=given)
    best = stopped.best_so_far()
    assert best.root.to_dict() == worst_tree.root.to_dict()
    assert best.validate() == best.declared and not best.optimal
    assert best.objective == "fewest-at-worst" and best.max_guesses == 5
    assert "the worst case's tree" in best.meta["upper_bound"]
    assert progress.bests == [_pair(best.declared, 5)]  # told as the search starts


def test_the_search_proves_the_same_and_its_bests_fall_from_the_tree(split_small,
                                                                     worst_tree):
    plain = _mastermind(70_003).fewest_at_worst(5)
    progress = Recorder()
    solver = _mastermind(70_004, progress=progress)
    sol = solver.fewest_at_worst(5, ceiling=UpperBound(worst_tree, "its tree"))
    assert progress.raced
    assert sol.value == plain.value and sol.proof == plain.proof
    assert sol.strategy.root.to_dict() == plain.strategy.root.to_dict()
    assert sol.stats.states == plain.stats.states  # the same work
    optimum = _pair(sol.strategy.declared, 5)
    assert progress.bests[0] == _pair(worst_tree.validate(), 5) > optimum
    assert progress.bests[-1] == optimum
    assert progress.bests == sorted(progress.bests, reverse=True)
    assert solver.best_so_far().root.to_dict() == sol.strategy.root.to_dict()


def test_a_tree_of_the_search_that_costs_less_takes_over(split_small, worst_tree):
    # The expected case without a cap: the first batch's tree (each big part under
    # its first second guess) already costs less than the worst-case tree's total.
    solver = _mastermind(70_005, progress=Recorder(stop=True))
    with pytest.raises(KeyboardInterrupt):
        solver.expected(ceiling=UpperBound(worst_tree, "its tree"))
    best = solver.best_so_far()
    assert "upper_bound" in best.meta and "tree given" not in best.meta["upper_bound"]
    assert best.validate().total < worst_tree.validate().total


def test_the_checkpoint_is_the_same_with_or_without_it(tmp_path, worst_tree):
    game = Game.from_spec("mastermind")
    first = Solver(game, jobs=1, checkpoint=tmp_path, chain_secrets=20,
                   table_entries=70_006)
    sol = first.worst_then_expected(ceiling=worst_tree)  # a bare tree: the caller's
    assert first.checkpoint.stored > 0
    again = Solver(game, jobs=1, checkpoint=tmp_path, chain_secrets=20,
                   table_entries=70_007)
    assert again.worst_then_expected().value == sol.value == 5626
    assert again.checkpoint.stored == 0  # every task read back


def test_an_optimum_above_the_tree_given_is_a_broken_invariant(monkeypatch, worst_tree):
    # A replayed tree is a real tree, so the optimum is at most its cost; were the
    # search to prove more, it would have missed a tree: it says so, never answers.
    real = UpperBound.fitted

    def cheaper(self, *args):  # its stats as if every secret were found 1 guess sooner
        fitted = real(self, *args)
        fitted.declared = Stats.from_counts(fitted.declared.depth_counts[1:])
        return fitted

    monkeypatch.setattr(UpperBound, "fitted", cheaper)
    with pytest.raises(AssertionError, match="the tree given"):
        solve(Game.from_spec("mastermind"), "expected", jobs=1, ceiling=worst_tree)


@pytest.mark.parametrize("spec, guesses, cap, words", [
    ("p4c5", "any", 5, "is a tree of p4c6, not p4c5"),
    ("mastermind", "any", 4, "over this search's cap of 4"),
    ("mastermind", "consistent", None, "fails replay under consistent guesses"),
])
def test_a_tree_that_breaks_the_search_rules_is_refused(worst_tree, spec, guesses, cap,
                                                       words):
    with pytest.raises(InvalidOptionError, match=words):
        UpperBound(worst_tree, "a tree").fitted(Game.from_spec(spec), guesses,
                                                "expected", cap)


def test_a_worst_case_search_takes_none(worst_tree):
    with pytest.raises(InvalidOptionError, match="not worst-case"):
        solve(Game.from_spec("mastermind"), "worst-case", jobs=1, ceiling=worst_tree)


def test_the_capped_cost_is_the_tree_s(worst_tree):
    # fewest-at-worst's cost counts the secrets at the cap by the weight
    game = Game.from_spec("mastermind")
    fitted = UpperBound(worst_tree).fitted(game, "any", "fewest-at-worst", 5)
    at_cap, total = _pair(fitted.declared, 5)
    assert at_cap > 0 and fitted.max_guesses == 5
    assert search_expected._tree_cost(fitted.declared, 5, cap_weight(game, 5)) == (
        at_cap * cap_weight(game, 5) + total)


def _cli(capsys, *argv):
    from optimal_mm.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_takes_an_upper_bound_tree(tmp_path, capsys):
    known = tmp_path / "p3c4-worst.json"
    assert _cli(capsys, "solve", "p3c4", "--quiet", "-o", known)[0] == 0
    out = tmp_path / "p3c4.json"
    code, text, err = _cli(capsys, "solve", "p3c4", "--objective", "worst-then-expected",
                           "--upper-bound-tree", known, "-o", out, "--progress-interval",
                           0)
    assert code == 0 and "optimal total: " in text
    assert f"the tree given ({known}), the best so far" in err
    plain = solve(Game.from_spec("p3c4"), "worst-then-expected", jobs=1)
    assert json.loads(out.read_text())["stats"]["total"] == plain.value


@pytest.mark.parametrize("argv, message", [
    (("--upper-bound-tree", "KNOWN"), "not worst-case"),
    (("--objective", "static", "--upper-bound-tree", "KNOWN"),
     "--upper-bound-tree does not apply"),
    (("--objective", "expected", "--max-guesses", 2, "--upper-bound-tree", "KNOWN"),
     "over this search's cap of 2"),
    (("--objective", "expected", "--upper-bound-tree", "MISSING"), "cannot read"),
    (("--objective", "expected", "--upper-bound-tree", "LYING"), "stats mismatch"),
    (("--objective", "expected", "--lower-bound-tree", "LYING"), "stats mismatch"),
])
def test_a_bad_upper_bound_tree_is_one_line(tmp_path, capsys, argv, message):
    known = tmp_path / "known.json"
    assert _cli(capsys, "solve", "p3c4", "--quiet", "-o", known)[0] == 0
    lying = tmp_path / "lying.json"  # a tree whose declared stats its replay denies
    doc = json.loads(known.read_text())
    doc["stats"]["total"] -= 1
    lying.write_text(json.dumps(doc))
    paths = {"KNOWN": known, "MISSING": tmp_path / "missing.json", "LYING": lying}
    out = tmp_path / "t.json"
    code, _, err = _cli(capsys, "solve", "p3c4", "--quiet", "-o", out,
                        *[paths.get(a, a) for a in argv])
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert err.startswith("optimal-mm solve: error: ") and not out.exists()
    if "LYING" in argv:  # named as verify names it
        assert f"{str(lying)!r}: " in err


def test_a_known_tree_must_replay(tmp_path):
    # A tree file that breaks the rules (a missing branch) is refused as it loads
    tree = solve(Game.from_spec("p2c3"), "expected", jobs=1).strategy
    doc = tree.to_dict()
    doc["root"]["next"].pop(next(iter(doc["root"]["next"])))
    with pytest.raises(Exception, match="missing branch"):
        UpperBound(Strategy.from_dict(doc)).fitted(Game.from_spec("p2c3"), "any",
                                                   "expected", None)
