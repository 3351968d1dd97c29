"""The bounded search for a tree within D guesses (optimal_mm.within, `within`)."""

import gzip
import json

import numpy as np
import pytest

from optimal_mm.cli import main
from optimal_mm.errors import InvalidOptionError
from optimal_mm.game import Game
from optimal_mm.search import first_guess_classes, solve, subtree_within
from optimal_mm.symmetry import orbit_representatives
from optimal_mm.within import WithinStats, _Beam, find_within

SMALL = ["p2c4", "p3c3", "p3c4b", "p3c5nb", "p2c5b"]


@pytest.mark.parametrize("spec", SMALL)
@pytest.mark.parametrize("guesses", ["any", "consistent"])
def test_exact_at_the_root_finds_a_tree_at_t_star_and_none_below(spec, guesses):
    game = Game.from_spec(spec)
    t = solve(game, "worst-case", guesses).value
    tree = find_within(game, t, exact=10**6, guesses=guesses)
    assert tree is not None and tree.validate().max <= t and tree.guesses == guesses
    assert find_within(game, t - 1, exact=10**6, guesses=guesses) is None


@pytest.mark.parametrize("spec, guesses", [("p3c5b", "any"), ("p3c5b", "consistent"),
                                           ("mastermind", "any"), ("p4c5nb", "any")])
def test_the_beam_over_big_nodes_builds_a_valid_tree_within_the_depth(spec, guesses):
    game = Game.from_spec(spec)
    t = solve(game, "worst-case", guesses).value
    stats = WithinStats()
    tree = find_within(game, t + 1, exact=20, guesses=guesses, stats=stats)
    # The beam searched the big nodes, the exact search the small ones.
    assert stats.beam > 0 and stats.exact > 0 and stats.tried >= stats.beam
    assert tree is not None
    replay = tree.validate()  # every secret, guess by guess (consistency too)
    assert replay.max <= t + 1 and replay.secrets == game.n_codes
    assert not tree.optimal and tree.max_guesses == t + 1


def test_whatever_the_beam_returns_it_never_beats_the_proven_optimum():
    # A tree below t* would contradict the exact search's refutation.
    game = Game.from_spec("p3c6b")
    t = solve(game, "worst-case").value
    for breadth in (1, 2, 5):
        assert find_within(game, t - 1, breadth=breadth, exact=30) is None


def test_subtree_within_decides_a_part_exactly():
    game = Game.from_spec("p2c3")
    assert subtree_within(game, range(9), 2) is None
    g, children = subtree_within(game, range(9), 3)
    assert 0 <= g < 9 and sum(1 for _ in children) >= 1


@pytest.mark.parametrize("kwargs", [{"breadth": 0}, {"exact": -1}, {"guesses": "some"},
                                    {"breadth": 1.5}])
def test_bad_options_are_one_line_errors(kwargs):
    with pytest.raises(InvalidOptionError):
        find_within(Game.from_spec("p2c3"), 3, **kwargs)


def test_cli_writes_a_tree_and_exits_0(tmp_path, capsys):
    out = tmp_path / "t.json.gz"
    assert main(["within", "p3c5b", "8", "--exact", "20", "--quiet", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "a tree within 8 guesses" in text and "found and validated" in text
    doc = json.loads(gzip.open(out).read())
    assert doc["max_guesses"] == 8 and doc["objective"] == "worst-case"
    assert doc["optimal"] is False and doc["stats"]["max"] <= 8
    assert doc["meta"]["method"] == "within" and doc["meta"]["exact"] == 20
    assert main(["verify", str(out)]) == 0


def test_cli_none_found_exits_1_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "t.json"
    # Decided at the root by the exact search: a proof that 6 do not suffice.
    assert main(["within", "p3c5b", "6", "--quiet", "-o", str(out)]) == 1
    assert "no tree within 6 guesses exists" in capsys.readouterr().out
    # Not decided at the root: says it proves nothing.
    assert main(["within", "p3c5b", "6", "--exact", "20", "--quiet", "-o", str(out)]) == 1
    assert "this proves nothing" in capsys.readouterr().out
    assert not out.exists()


@pytest.mark.parametrize("depth, proof", [
    ("1", "no tree within 1 guess exists (the counting bound: 1296 secrets, 14 answers)"),
    ("3", "no tree within 3 guesses exists (the counting bound: 1296 secrets, 14 answers)"),
    ("4", "no tree within 4 guesses exists (the counting bound cuts every first guess)"),
])
def test_cli_says_which_proof_rules_out_a_depth(tmp_path, capsys, depth, proof):
    """Mastermind (1296 secrets, over --exact) within 3 is out by the counting bound
    at the root (before, this said the exact search had decided the game); within 4
    every first guess leaves a part too big for 3 more guesses (before, "this proves
    nothing; 0 guesses tried")."""
    out = tmp_path / "t.json"
    assert main(["within", "mastermind", depth, "--quiet", "-o", str(out)]) == 1
    text = capsys.readouterr().out
    assert proof in text and "proves nothing" not in text and not out.exists()
    # The counting bound agrees: no first guess of mastermind leaves parts of at most
    # 3-guess size when 4 are allowed (every largest part is 256 or more).
    if depth == "4":
        from optimal_mm.analysis import best_guesses
        game = Game.from_spec("mastermind")
        assert min(g.largest for g in best_guesses(game, np.arange(1296), 1296)) >= 256


@pytest.mark.parametrize("argv, words", [
    (["within", "p3c5b", "0"], "depth must be"),
    (["within", "p3c5b", "5", "--breadth", "0"], "breadth must be"),
    (["within", "p9c9", "5"], "p9c9"),
    (["within", "p3c5b", "5", "-o", "/nonexistent/dir/t.json"], "/nonexistent/dir"),
])
def test_cli_bad_input_is_one_line_and_status_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "Traceback" not in err[0]


def test_doctests():
    import doctest

    from optimal_mm import within

    result = doctest.testmod(within)
    assert result.attempted >= 2 and result.failed == 0
    finder = doctest.DocTestFinder()
    from optimal_mm import search

    runner = doctest.DocTestRunner()
    for name in ("subtree_within", "worst_case_order"):
        for test in finder.find(getattr(search, name), name, globs=vars(search).copy()):
            runner.run(test)
    assert runner.tries >= 5 and runner.failures == 0


def test_the_beam_tries_one_guess_per_class_of_the_exact_search():
    # p4c4b (black-only, repeats): the colour and position orbits leave 5 first
    # guesses, the per-position renamings one; the beam ranks the classes the exact
    # search tries (three equivalent first guesses would fail or work alike).
    game = Game.from_spec("p4c4b")
    t = solve(game, "worst-case").value
    codes = np.arange(game.n_codes)
    beam = _Beam(game, False, 3, 20, 0, None, "first")
    assert len(beam.ranked((), codes, t)) == len(first_guess_classes(game, False)) == 1
    assert len(orbit_representatives(game, [])) == 5
    lines = []
    tree = find_within(game, t + 1, breadth=3, exact=20, report=lines.append)
    assert tree is not None and tree.validate().max <= t + 1
    assert [line for line in lines if not line.startswith(" ")] == [
        f"256 secrets, {t + 1} guesses left: {tree.root.guess} (choice 1) works"]
