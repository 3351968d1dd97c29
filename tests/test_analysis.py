"""Information tables and the `strategy` / `analyze` commands."""

import gzip
import json
import math

import numpy as np
import pytest

from optimal_mm import InvalidAnswerError, InvalidCodeError, Strategy
from optimal_mm.analysis import best_guesses, partition_table, remaining_after
from optimal_mm.cli import main

# shared/REFERENCE.md, information table for Bulls and Cows (p4c10n).
FIRST_SPLIT = {"0B0W": 360, "0B1W": 1440, "0B2W": 1260, "0B3W": 264, "0B4W": 9,
               "1B0W": 480, "1B1W": 720, "1B2W": 216, "1B3W": 8, "2B0W": 180,
               "2B1W": 72, "2B2W": 6, "3B0W": 24, "4B0W": 1}
SECOND_SPLIT = [54, 378, 369, 91, 6, 126, 222, 83, 6, 57, 31, 5, 11, 1]


def test_first_guess_table(bulls):
    table = partition_table(bulls, "0123", remaining_after(bulls, []))
    assert {r.key: r.count for r in table.rows} == FIRST_SPLIT
    assert [r.key for r in table.rows] == list(FIRST_SPLIT)  # answer order
    assert round(table.entropy, 2) == 2.77
    row = table.rows[1]
    assert row.probability == pytest.approx(1440 / 5040)
    assert row.bits_left == pytest.approx(math.log2(1440))
    assert row.bits_gained == pytest.approx(math.log2(5040) - math.log2(1440))
    assert table.consistent


def test_second_guess_table_and_best(bulls):
    left = remaining_after(bulls, [("0123", bulls.parse_answer("0B1W"))])
    assert len(left) == 1440
    table = partition_table(bulls, "4561", left)
    assert [r.count for r in table.rows] == SECOND_SPLIT
    assert round(table.entropy, 3) == 2.859
    best = best_guesses(bulls, left, 5)
    # "the most any second guess gives there"
    assert round(best[0].entropy, 3) == 2.859
    assert table.entropy == pytest.approx(best[0].entropy, abs=1e-12)
    assert all(b.entropy <= best[0].entropy + 1e-12 for b in best)


def test_best_guesses_ties_prefer_consistent_then_lower(mastermind):
    left = remaining_after(mastermind, [("1122", "1B0W")])
    best = best_guesses(mastermind, left, 40)
    keys = [(-round(b.entropy, 9), not b.consistent, mastermind.code_index(b.guess))
            for b in best]
    assert keys == sorted(keys)


def test_remaining_after(mastermind):
    assert len(remaining_after(mastermind, [])) == 1296
    left = remaining_after(mastermind, [("1111", 4 * 5), ("2222", 0)])  # ids and text
    assert mastermind.code_str(left[0]) == "1111" and len(left) == 1
    assert len(remaining_after(mastermind, [("1111", "4B"), ("2222", "1B")])) == 0
    with pytest.raises(InvalidCodeError):
        remaining_after(mastermind, [("1117", "0B")])
    with pytest.raises(InvalidAnswerError):
        remaining_after(mastermind, [("1111", "3B1W")])


def test_black_only_table():
    from optimal_mm import Game
    game = Game.from_spec("p3c5b")
    table = partition_table(game, "123", np.arange(game.n_codes))
    assert [r.key for r in table.rows] == ["0B", "1B", "2B", "3B"]
    assert sum(r.count for r in table.rows) == 125


# ---------------------------------------------------------------------- CLI
def test_cli_strategy(tmp_path, capsys):
    out = tmp_path / "knuth.json.gz"
    assert main(["strategy", "mastermind", "--heuristic", "knuth", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "total 5801" in text and "1122" in text and " s" in text
    doc = json.loads(gzip.decompress(out.read_bytes()))
    assert doc["objective"] == "knuth" and doc["stats"]["total"] == 5801
    assert Strategy.load(out).validate().total == 5801


def test_cli_strategy_options(capsys):
    assert main(["strategy", "p3c4n", "--heuristic", "random-consistent", "--seed", "2",
                 "--first", "321", "--move-time", "5"]) == 0
    assert "first guess 321" in capsys.readouterr().out


def test_cli_strategy_consistent(tmp_path, capsys):
    out = tmp_path / "entropy.json"
    assert main(["strategy", "p4c4b", "--heuristic", "entropy", "--consistent",
                 "-o", str(out)]) == 0
    assert "entropy (consistent guesses)" in capsys.readouterr().out
    tree = Strategy.load(out)
    assert tree.guesses == "consistent" and tree.meta["consistent"] is True
    tree.validate()  # refuses a guess its node's answers have ruled out


def test_cli_analyze(capsys):
    for answer in ("0B1W", "01", "0 1"):
        assert main(["analyze", "bulls-and-cows", "4561", "--after", f"0123={answer}",
                     "--best", "3"]) == 0
        text = capsys.readouterr().out
        assert "1440" in text and "2.859" in text and "378" in text
        assert "bits gained" in text and "probability" in text
        assert text.count("2.859") >= 4  # the table's entropy and three best guesses


@pytest.mark.parametrize("argv, needle", [
    (["analyze", "nosuchgame", "1234"], "nosuchgame"),
    (["analyze", "mastermind", "1237"], "1237"),
    (["analyze", "mastermind", "1234", "--after", "1234=3B1W"], "3B1W"),
    (["analyze", "mastermind", "1234", "--after", "1234"], "1234"),
    (["analyze", "mastermind", "1234", "--after", "1111=4B", "--after", "2222=1B"],
     "#1 1111=4B0W won the game: no turn can follow it"),
    (["analyze", "mastermind", "1234", "--after", "1111=0B1W"], "no secret"),
    (["analyze", "mastermind"], "GUESS"),
    (["strategy", "mastermind", "--heuristic", "nosuch"], "nosuch"),
    (["strategy", "mastermind", "--heuristic", "knuth", "--first", "11"], "11"),
    (["strategy", "p4c99", "--heuristic", "knuth"], "99"),
    (["strategy", "mastermind", "--heuristic", "logik", "--consistent"], "logik"),
])
def test_cli_bad_input(capsys, argv, needle):
    assert main(argv) != 0
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and needle in err
    assert "Traceback" not in captured.err
