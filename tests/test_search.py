"""Exact search: published optima reproduced, proofs, trees that replay, invariance.

Sources of the values are shared/REFERENCE.md: Knuth 1977 (Mastermind worst case),
Koyama and Lai 1993 (Mastermind expected), Goddard 2003/2004 (small games, p2cC),
Jager and Peczarski 2009/2015 (p3cC, p4c5, p4c7, Bulls and Cows worst case),
Tanaka 1996 (Bulls and Cows expected), Ville 2013 (p4c7 expected).
"""

import numpy as np
import pytest

from optimal_mm import Game, TooLargeError
from optimal_mm import _search
from optimal_mm.cli import main
from optimal_mm import search_parts
from optimal_mm.search import Solver, solve
from optimal_mm.symmetry import orbit_representatives
from optimal_mm.tree import Strategy


def _wc(spec, **kw):
    sol = solve(Game.from_spec(spec), "worst-case", jobs=1, **kw)
    sol.strategy.validate()
    assert sol.strategy.declared.max == sol.value
    return sol


def _exp(spec, cap=None, **kw):
    sol = solve(Game.from_spec(spec), "expected", max_guesses=cap, jobs=kw.pop("jobs", 1), **kw)
    stats = sol.strategy.validate()
    assert stats.total == sol.value
    if cap is not None:
        assert stats.max <= cap
    return sol


def test_mastermind_worst_case_is_five_and_four_impossible():
    # Knuth 1977: 5 guesses always suffice, 4 do not.
    sol = _wc("mastermind")
    assert sol.value == 5 and sol.strategy.optimal
    assert any(line.startswith("4 guesses: impossible") for line in sol.proof)
    capped = solve(Game.from_spec("mastermind"), "worst-case", max_guesses=4, jobs=1)
    assert capped.strategy is None


@pytest.mark.parametrize("colours", range(2, 9))
def test_two_pegs_worst_case(colours):
    # Goddard 2004: p2cC needs floor(C/2) + 2 guesses in the worst case.
    assert _wc(f"p2c{colours}").value == colours // 2 + 2


@pytest.mark.parametrize("spec, value", [("p3c5", 5), ("p3c6", 5), ("p4c5", 5)])
def test_small_worst_cases(spec, value):
    # Jager and Peczarski 2009: p3cC = floor((C-1)/3) + 4 for C >= 5; p4c5 = 5.
    assert _wc(spec).value == value


@pytest.mark.parametrize("spec, total", [
    ("p2c2", 8), ("p2c3", 21), ("p2c4", 45), ("p2c5", 81),
    ("p3c2", 18), ("p3c3", 73), ("p3c4", 206), ("p3c5", 451),
    ("p4c2", 44), ("p4c3", 246), ("p4c4", 905),
    ("p5c2", 97), ("p5c3", 816), ("p6c2", 224), ("p7c2", 496),
])
def test_goddard_expected_totals(spec, total):
    # Goddard 2003/2004, optimal expected totals for small games.
    assert _exp(spec).value == total


def test_mastermind_expected_5625_and_5626_within_five():
    # Koyama and Lai 1993: 5625 without a cap, 5626 within 5 guesses; so every
    # optimal tree needs a sixth guess for some secret.
    free = _exp("mastermind")
    assert free.value == 5625 and free.strategy.declared.max == 6
    assert _exp("mastermind", cap=5).value == 5626


def test_impossible_cap_is_reported():
    sol = solve(Game.from_spec("p3c4"), "expected", max_guesses=2, jobs=1)
    assert sol.strategy is None and sol.value is None


@pytest.mark.parametrize("spec", ["p3c3", "p3c4n", "p3c4b", "p2c5", "p4c4nb"])
@pytest.mark.parametrize("guesses", ["any", "consistent"])
def test_symmetry_and_jobs_do_not_change_values(spec, guesses):
    game = Game.from_spec(spec)
    results = set()
    for symmetry in (True, False):
        for jobs in (1, 2):
            wc = solve(game, "worst-case", guesses, jobs=jobs, symmetry=symmetry)
            ex = solve(game, "expected", guesses, jobs=jobs, symmetry=symmetry)
            for sol in (wc, ex):
                sol.strategy.validate()
                assert sol.strategy.guesses == guesses
            results.add((wc.value, ex.value))
    assert len(results) == 1


def test_same_tree_for_any_number_of_jobs():
    game = Game.from_spec("p3c4")
    one = solve(game, "expected", jobs=1).strategy
    two = solve(game, "expected", jobs=2).strategy
    assert one.root.to_dict() == two.root.to_dict()


def test_consistent_trees_only_play_possible_codes():
    sol = solve(Game.from_spec("p3c4"), "expected", "consistent", jobs=1)
    sol.strategy.validate()  # raises on an inconsistent guess in a consistent tree
    free = solve(Game.from_spec("p3c4"), "expected", jobs=1)
    assert sol.value >= free.value


def test_worst_then_expected_is_between():
    game = Game.from_spec("p3c5")
    both = solve(game, "worst-then-expected", jobs=1)
    free = solve(game, "expected", jobs=1)
    wc = solve(game, "worst-case", jobs=1)
    assert both.strategy.declared.max == wc.value
    assert free.value <= both.value <= wc.strategy.declared.total


def test_lower_bound_table_is_sound_for_small_sets():
    # With r = 13 non-winning answers: one secret at depth 1, then up to 13 at depth 2.
    lb = _search.lower_bound_table(200, 13, 5)
    assert [lb[5, n] for n in (1, 2, 3, 14)] == [1, 3, 5, 27]
    assert lb[5, 15] == 27 + 3
    assert lb[1, 2] >= _search.INF  # two secrets cannot be told apart in one guess
    assert lb[2, 14] < _search.INF and lb[2, 15] >= _search.INF  # the counting bound


def test_root_orbits():
    mm = Game.from_spec("mastermind")
    assert [mm.code_str(i) for i in orbit_representatives(mm, [])] == \
        ["1111", "1112", "1122", "1123", "1234"]
    bc = Game.from_spec("bulls-and-cows")
    assert len(orbit_representatives(bc, [])) == 1
    # Every representative after 1123 stands for guesses with identical part sizes.
    g1 = mm.code_index("1123")
    table = mm.answer_table()
    part = np.flatnonzero(table[g1] == mm.encode_answer(1, 1))
    reps = orbit_representatives(mm, [g1], secrets=part)
    assert 0 < len(reps) < mm.n_codes
    sizes = {tuple(sorted(np.bincount(table[g, part], minlength=25))) for g in range(mm.n_codes)}
    rep_sizes = {tuple(sorted(np.bincount(table[g, part], minlength=25))) for g in reps}
    assert rep_sizes == sizes


def test_too_big_refused_up_front():
    with pytest.raises(TooLargeError, match="codes"):
        Solver(Game.from_spec("p6c9"))


def test_solve_cli(tmp_path, capsys):
    out = tmp_path / "p3c4.json"
    assert main(["solve", "p3c4", "--objective", "expected", "--jobs", "1", "--stats",
                 "-o", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "optimal total: 206" in text and "states" in text
    tree = Strategy.load(out)
    assert tree.validate().total == 206 and tree.optimal and tree.objective == "expected"
    assert main(["verify", str(out)]) == 0


def test_solve_cli_impossible_cap(capsys, tmp_path):
    assert main(["solve", "p3c4", "--max-guesses", "3", "--jobs", "1", "-o",
                 str(tmp_path / "t.json"), "--quiet"]) == 1
    assert "impossible within 3 guesses" in capsys.readouterr().out
    assert not (tmp_path / "t.json").exists()


@pytest.mark.parametrize("argv", [
    ["solve", "p4c99"], ["solve", "p7c9"], ["solve", "p3c4", "--max-guesses", "0"],
])
def test_solve_cli_bad_input(argv, capsys):
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_p4c7_worst_case_six():
    # Jager and Peczarski 2009: p4c7 needs 6, and 5 is impossible.
    sol = solve(Game.from_spec("p4c7"), "worst-case", jobs=2)
    assert sol.value == 6 and any(line.startswith("5 guesses: impossible") for line in sol.proof)
    sol.strategy.validate()


def test_bulls_and_cows_worst_case_seven():
    # Jager and Peczarski 2015: Bulls and Cows needs 7; 6 is impossible.
    sol = solve(Game.from_spec("bulls-and-cows"), "worst-case", jobs=2)
    assert sol.value == 7 and any(line.startswith("6 guesses: impossible") for line in sol.proof)
    sol.strategy.validate()


@pytest.mark.slow
def test_bulls_and_cows_expected():
    # Tanaka 1996: 26274.
    assert _exp("bulls-and-cows", jobs=2).value == 26274


def test_p4c7_expected():
    # Ville 2013: 11228.
    assert _exp("p4c7", jobs=2).value == 11228


def test_mastermind_consistent_only():
    # Super Master Mind's optimal-strategy page: 5660 (first guess 1233); our search
    # confirms the total (its first guess, 1123, ties). With consistent guesses only,
    # 5 guesses no longer suffice in the worst case: 6 do (this project's proof;
    # results/optimal_trees.md).
    sol = _exp("mastermind", guesses="consistent", jobs=1)
    assert sol.strategy.guesses == "consistent" and sol.value == 5660
    assert sol.strategy.validate().total == 5660
    wc = solve(Game.from_spec("mastermind"), "worst-case", "consistent", jobs=1)
    assert wc.value == 6 and any(line.startswith("5 guesses: impossible") for line in wc.proof)
    assert wc.strategy.validate().max == 6


def test_p3c5_consistent_only():
    # Super Master Mind's optimal-strategy page: 455 with consistent guesses only.
    sol = _exp("p3c5", guesses="consistent", jobs=1)
    assert sol.value == 455 and sol.strategy.validate().total == 455


@pytest.mark.parametrize("spec, guesses, cap, total", [
    ("p3c5", "any", None, 451),  # Goddard 2003/2004
    ("p4c4", "any", None, 905),  # Goddard 2003/2004
    ("mastermind", "any", 5, 5626),  # Koyama and Lai 1993
    ("p3c5", "consistent", None, None),
])
def test_split_parts_keep_value_and_tree(monkeypatch, spec, guesses, cap, total):
    # Big parts of the first guess are split by their own guesses into tasks; with a
    # low threshold every part is: same value as the unsplit search, same tree for
    # one job or two, every tree replays.
    game = Game.from_spec(spec)
    plain = solve(game, "expected", guesses, max_guesses=cap, jobs=1)
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 8)
    trees = []
    for jobs in (1, 2):
        sol = solve(game, "expected", guesses, max_guesses=cap, jobs=jobs)
        assert sol.value == plain.value == (total or plain.value)
        assert sol.strategy.validate().total == sol.value
        trees.append(sol.strategy.root.to_dict())
    assert trees[0] == trees[1]
