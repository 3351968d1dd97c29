"""Static (non-adaptive) play: ``optimal-mm solve GAME --objective static``."""

import itertools
import json

import pytest

from optimal_mm.cli import main
from optimal_mm.errors import InvalidTreeError, TooLargeError
from optimal_mm.game import Game
from optimal_mm.static import StaticSolution, counting_bound, solve_static

# OEIS A303735, the metric dimension of the hypercube Q_n, n = 1..13:
# the static value of two-colour black-peg Mastermind with n pegs.
A303735 = [1, 2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 8, 8]


def _resolves(game, questions) -> bool:
    table = game.answer_table()
    rows = table[list(questions)].T
    return len({tuple(r) for r in rows}) == game.n_codes


@pytest.mark.parametrize("pegs", range(1, 7))
def test_two_colour_black_peg_values_are_the_hypercube_metric_dimension(pegs):
    solution = solve_static(Game.from_spec(f"p{pegs}c2b"))
    assert solution.size == A303735[pegs - 1]
    assert solution.validate() == 2**pegs and solution.optimal


@pytest.mark.slow
@pytest.mark.parametrize("pegs", [7, 8])
def test_two_colour_black_peg_values_slow(pegs):
    solution = solve_static(Game.from_spec(f"p{pegs}c2b"))
    assert solution.size == A303735[pegs - 1]


@pytest.mark.parametrize("spec", ["p2c3b", "p3c2b", "p2c4", "p2c3"])
def test_minimality_against_brute_force_over_all_subsets(spec):
    game = Game.from_spec(spec)
    size = solve_static(game).size
    codes = range(game.n_codes)
    assert any(_resolves(game, s) for s in itertools.combinations(codes, size))
    assert not any(_resolves(game, s) for s in itertools.combinations(codes, size - 1))


@pytest.mark.parametrize("spec", ["p3c3b", "p5c2b", "p2c4b", "p3c4"])
def test_symmetry_reduction_keeps_the_value_and_visits_fewer_nodes(spec):
    game = Game.from_spec(spec)
    with_symmetry = solve_static(game)
    without = solve_static(game, symmetric=False)
    assert with_symmetry.size == without.size
    assert with_symmetry.nodes <= without.nodes
    assert _resolves(game, with_symmetry.questions)


def test_counting_bound_and_size_limit():
    assert counting_bound(Game.from_spec("p6c2b")) == 3          # 7**3 >= 64 > 7**2
    with pytest.raises(TooLargeError, match="p4c8 has more"):
        solve_static(Game.from_spec("p4c8"))


def test_validate_rejects_too_few_questions():
    game = Game.from_spec("p4c2b")
    good = solve_static(game)
    with pytest.raises(InvalidTreeError, match="ambiguous"):
        StaticSolution(game, good.questions[:-1]).validate()


def test_cli_writes_questions_and_lookup(tmp_path, capsys):
    out = tmp_path / "static.json"
    assert main(["solve", "p5c2b", "--objective", "static", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "static: 4 questions, optimal (proven)" in printed
    data = json.loads(out.read_text())
    game = Game.from_spec("p5c2b")
    assert data["size"] == len(data["questions"]) == 4
    assert data["command"] == "optimal-mm solve p5c2b --objective static"
    assert len(data["lookup"]) == game.n_codes
    for answers, secret in data["lookup"].items():
        got = [game.answer_str(game.score(q, secret)) for q in data["questions"]]
        assert " ".join(got) == answers


def test_cli_refuses_large_games_in_one_line(capsys):
    assert main(["solve", "p4c8", "--objective", "static", "-o", "-"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_doctests():
    import doctest

    from optimal_mm import static
    result = doctest.testmod(static)
    assert result.attempted and not result.failed


def test_shipped_static_values_hold():
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "results" / "largen.json"
    if not path.exists():
        pytest.skip("results/largen.json not generated")
    rows = json.loads(path.read_text()).get("static", [])
    assert rows
    for row in rows:
        game = Game.from_spec(row["game"])
        questions = [game.code_index(q) for q in row["questions"]]
        assert len(questions) == row["static"] and _resolves(game, questions)
        if "A303735" in row:
            assert row["static"] == row["A303735"] == A303735[game.pegs - 1]
        if game.n_codes <= 64 and row["nodes"] < 1000:
            assert solve_static(game).size == row["static"]


def test_json_round_trip_and_tampering(tmp_path):
    solution = solve_static(Game.from_spec("p3c3b"))
    path = tmp_path / "s.json"
    solution.save(path, command="test")
    again = StaticSolution.load(path)
    assert again.questions == solution.questions and again.optimal
    data = json.loads(path.read_text())
    secret_key = next(iter(data["lookup"]))
    data["lookup"][secret_key] = "111" if data["lookup"][secret_key] != "111" else "222"
    with pytest.raises(InvalidTreeError, match="lookup"):
        StaticSolution.from_dict(data)
    with pytest.raises(InvalidTreeError, match="not a static solution"):
        StaticSolution.from_dict({"format": "other"})


def test_shipped_p9c2b_solution_holds():
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "results" / "p9c2b-static.json"
    if not path.exists():
        pytest.skip("results/p9c2b-static.json not generated")
    solution = StaticSolution.load(path)           # checks the lookup against the questions
    assert solution.size == A303735[8] and solution.optimal
    assert solution.proof[-2].startswith(f"{A303735[8] - 1} questions impossible")
