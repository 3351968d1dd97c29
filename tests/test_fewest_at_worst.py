"""``fewest-at-worst``: the fewest secrets at the optimal worst case, then the least total.

The search's answer is compared with a plain-Python minimisation over every tree of
tiny games (its own scoring, its own recursion: nothing shared with the package),
and with the package's other objectives on bigger games: the same ``t*`` as the
worst case, and never more secrets at depth ``t*`` than the trees of
``worst-case`` and ``worst-then-expected``.
"""

import itertools
from functools import lru_cache

import numpy as np
import pytest

from optimal_mm import Game, InvalidGameError
from optimal_mm.cli import main
from optimal_mm.search import Solver, cap_weight, solve
from optimal_mm.search_context import _Context
from optimal_mm.tree import Strategy

from brute import parts_by_answer


def _answer(guess, secret, black_only):
    black = sum(g == s for g, s in zip(guess, secret))
    if black_only:
        return black, 0
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return black, common - black


def brute_force(pegs, colours, repeats, black_only, consistent):
    """``(t*, (secrets at depth t*, total))``, least over every tree, by dynamic
    programming over the sets of secrets still possible (exact: the cost of a tree
    is the sum of its subtrees' costs, and pairs add and compare term by term)."""
    within = brute_force_within(pegs, colours, repeats, black_only, consistent)
    t = next(d for d in itertools.count(1) if within(d) is not None)
    return t, within(t)


def brute_force_within(pegs, colours, repeats, black_only, consistent):
    """The function of ``d``: ``(secrets at depth d, total)``, least over every tree
    within ``d`` guesses, or None when there is none."""
    codes = (list(itertools.product(range(colours), repeat=pegs)) if repeats
             else list(itertools.permutations(range(colours), pegs)))
    n = len(codes)
    answers = [[_answer(g, s, black_only) for s in codes] for g in codes]

    @lru_cache(maxsize=None)
    def best(secrets, d):
        if d == 0:
            return None
        result = None
        for g in (secrets if consistent else range(n)):
            parts = parts_by_answer(lambda g, s: answers[g][s], g, secrets)
            if any(len(p) == len(secrets) for p in parts.values()):
                continue  # no information
            at_cap, total = (1 if g in secrets and d == 1 else 0), len(secrets)
            for p in parts.values():
                sub = best(tuple(p), d - 1)
                if sub is None:
                    break
                at_cap, total = at_cap + sub[0], total + sub[1]
            else:
                if result is None or (at_cap, total) < result:
                    result = (at_cap, total)
        return result

    everything = tuple(range(n))
    return lambda d: best(everything, d)


@pytest.mark.parametrize("spec, guesses", [
    ("p2c3", "any"), ("p3c2", "any"), ("p2c4", "any"), ("p3c3n", "any"), ("p2c4n", "any"),
    ("p3c2b", "any"), ("p2c3b", "any"), ("p2c4", "consistent"), ("p3c3n", "consistent"),
    ("p2c4nb", "any"), ("p3c4nb", "any"),  # twin guesses (test_twins.py)
])
def test_matches_brute_force(spec, guesses):
    game = Game.from_spec(spec)
    t, (at_cap, total) = brute_force(game.pegs, game.colours, game.repeats, game.black_only,
                                     guesses == "consistent")
    sol = solve(game, "fewest-at-worst", guesses, jobs=1)
    stats = sol.strategy.validate()
    assert (sol.value, stats.total, stats.max) == (at_cap, total, t)
    assert stats.at_worst == at_cap and stats.depth_counts[t - 1] == at_cap
    tree = sol.strategy
    assert (tree.objective, tree.max_guesses, tree.optimal) == ("fewest-at-worst", t, True)


@pytest.mark.parametrize("spec", ["mastermind", "p3c5", "p4c4n", "p5c3"])
def test_against_the_other_objectives(spec):
    game = Game.from_spec(spec)
    fewest = solve(game, "fewest-at-worst", jobs=1)
    worst = solve(game, "worst-case", jobs=1)
    capped = solve(game, "worst-then-expected", jobs=1)
    stats = fewest.strategy.validate()
    assert fewest.max_guesses == stats.max == worst.value
    assert fewest.value == stats.at_worst
    assert fewest.value <= worst.strategy.validate().at_worst
    assert fewest.value <= capped.strategy.validate().at_worst
    # The least total within t* is a lower bound; it is met when the counts agree.
    assert stats.total >= capped.value
    if fewest.value == capped.strategy.validate().at_worst:
        assert stats.total == capped.value


def test_the_weight_is_part_of_the_table_key():
    # One context serves both costs in turn: a stored weighted value must never be
    # read back as a total, nor the reverse.
    game = Game.from_spec("p3c4")
    cap = solve(game, "worst-case", jobs=1).value
    secrets = np.arange(game.n_codes, dtype=np.int64)
    shared = _Context(game, False, 100_000)
    weight = cap_weight(game, cap)
    lexicographic, _ = shared.exp(secrets, 1 << 40, cap, None, weight)
    total, _ = shared.exp(secrets, 1 << 40, cap)
    assert total == _Context(game, False, 100_000).exp(secrets, 1 << 40, cap)[0]
    assert lexicographic == _Context(game, False, 100_000).exp(secrets, 1 << 40, cap, None,
                                                               weight)[0]
    at_cap, rest = divmod(int(lexicographic), weight)
    assert rest >= total and at_cap >= 1


def test_checkpoint_resume_gives_the_same_tree(tmp_path):
    game = Game.from_spec("p3c4")
    first = Solver(game, jobs=1, checkpoint=tmp_path).solve("fewest-at-worst")
    again = Solver(game, jobs=1, checkpoint=tmp_path).solve("fewest-at-worst")
    assert again.resumed > 0
    assert again.value == first.value
    assert again.strategy.root.to_dict() == first.strategy.root.to_dict()


def test_cli(tmp_path, capsys):
    out = tmp_path / "p3c4.json.gz"
    assert main(["solve", "p3c4", "--objective", "fewest-at-worst", "--jobs", "1", "-o",
                 str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    tree = Strategy.load(out)
    stats = tree.validate()
    assert f"fewest at the worst case: {stats.at_worst} secrets need all {stats.max}" in text
    assert tree.objective == "fewest-at-worst" and tree.optimal
    assert main(["verify", str(out)]) == 0
    assert f"(for {stats.at_worst} secrets)" in capsys.readouterr().out


@pytest.mark.parametrize("spec, guesses", [
    ("p2c3", "any"), ("p3c2", "any"), ("p2c4", "any"), ("p3c3n", "any"), ("p3c2b", "any"),
    ("p2c4", "consistent"), ("p3c3n", "consistent"),
])
def test_a_cap_given_matches_brute_force(spec, guesses):
    # Given a cap T, the fewest secrets at T among the trees within T: t* itself (the
    # same answer as without a cap, the worst case not searched), one above (0: a
    # tree within t* exists), one below (no tree).
    game = Game.from_spec(spec)
    within = brute_force_within(game.pegs, game.colours, game.repeats, game.black_only,
                                guesses == "consistent")
    t = solve(game, "worst-case", guesses, jobs=1).value
    for cap in (t - 1, t, t + 1):
        sol = solve(game, "fewest-at-worst", guesses, max_guesses=cap, jobs=1)
        if within(cap) is None:
            assert cap < t and sol.value is None and sol.strategy is None
            continue
        stats = sol.strategy.validate()
        assert (sol.value, stats.total) == within(cap)
        assert sol.max_guesses == sol.strategy.max_guesses == cap
        assert stats.max <= cap and (stats.max == cap) == (sol.value > 0)
        assert ("is the optimal worst case" in sol.proof[-1]) == (cap == t)
        assert all("worst case within" not in line for line in sol.proof)
    whole = solve(game, "fewest-at-worst", guesses, jobs=1)
    given = solve(game, "fewest-at-worst", guesses, max_guesses=t, jobs=1)
    assert given.strategy.root.to_dict() == whole.strategy.root.to_dict()


def test_a_cap_given_shares_the_checkpoint(tmp_path):
    # The tasks carry their cap and weight, so a run given t* reads the tasks of a
    # run that found it, and computes none again.
    game = Game.from_spec("p3c4")
    first = Solver(game, jobs=1, checkpoint=tmp_path).solve("fewest-at-worst")
    given = Solver(game, jobs=1, checkpoint=tmp_path)
    again = given.solve("fewest-at-worst", first.max_guesses)
    assert again.resumed > 0 and given.checkpoint.stored == 0
    assert again.value == first.value
    assert again.strategy.root.to_dict() == first.strategy.root.to_dict()


def test_cli_with_a_cap(tmp_path, capsys):
    out = tmp_path / "p3c4.json.gz"
    assert main(["solve", "p3c4", "--objective", "fewest-at-worst", "--max-guesses", "4",
                 "--jobs", "1", "-o", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    stats = Strategy.load(out).validate()
    assert (f"fewest at 4 guesses: {stats.at_worst} secrets need all 4 guesses" in text
            and "4 is the optimal worst case" in text)
    assert main(["solve", "p3c4", "--objective", "fewest-at-worst", "--max-guesses", "5",
                 "--jobs", "1", "-o", str(out), "--quiet"]) == 0
    assert "0 secrets need all 5 guesses" in capsys.readouterr().out
    assert Strategy.load(out).max_guesses == 5
    out.unlink()
    assert main(["solve", "p3c4", "--objective", "fewest-at-worst", "--max-guesses", "3",
                 "--jobs", "1", "-o", str(out), "--quiet"]) == 1
    assert "impossible within 3 guesses" in capsys.readouterr().out and not out.exists()


def test_worst_then_expected_has_no_cap_of_its_own(capsys):
    with pytest.raises(InvalidGameError, match="sets its own cap"):
        solve(Game.from_spec("p2c3"), "worst-then-expected", max_guesses=3, jobs=1)
    assert main(["solve", "p2c3", "--objective", "worst-then-expected", "--max-guesses",
                 "3", "-o", "-", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "worst-then-expected sets its own cap" in err
