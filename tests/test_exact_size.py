"""Exact search above 12,000 codes: refused only when its memory plan does not fit.

The old fixed cap (12,000 codes) kept out p5c7 (16,807 codes, a 269 MiB answer
table) and Logik, p5c8 (32,768 codes, 1.0 GiB); now only the memory decides
(docs/LOGIK.md). No test here searches p5c8 itself.
"""

from __future__ import annotations

import pytest

from optimal_mm import Game, TooLargeError
from optimal_mm.cli import main
from optimal_mm.search import PROCESS_BYTES, Solver, check_feasible


def test_game_above_the_old_cap_is_searched_when_it_fits():
    game = Game.from_spec("p5c7")
    assert game.n_codes > 12_000
    limit = 2 * (game.table_bytes() + PROCESS_BYTES)
    solver = Solver(game, jobs=1, memory_limit=limit)
    # The answer table is built whatever TABLE_BYTES_LIMIT says for the heuristics.
    assert solver._ctx.table.shape == (game.n_codes, game.n_codes) and game.has_table()
    sol = solver.worst_case(3)
    # 3 guesses tell at most 1 + 19 + 19**2 secrets apart (20 answers, one a win).
    assert not sol.feasible and "counting bound" in sol.proof[0]


def test_refused_with_the_memory_it_needs():
    game = Game.from_spec("p5c7")
    with pytest.raises(TooLargeError, match="answer table") as err:
        check_feasible(game, memory_limit=game.table_bytes())
    assert "16,807 codes" in str(err.value) and "memory limit" in str(err.value)
    # Two workers and the parent hold a table each: the plan, not one table, is refused.
    one = game.table_bytes() + PROCESS_BYTES
    check_feasible(game, memory_limit=one)
    with pytest.raises(TooLargeError, match="3 processes"):
        Solver(game, jobs=2, memory_limit=one)


def test_cli_refuses_logik_in_one_line_naming_the_memory(capsys):
    assert main(["solve", "logik", "--objective", "worst-case", "--memory-limit", "500M",
                 "-o", "-"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "32,768 codes" in captured.err and "1.0 GiB answer table" in captured.err
    assert "500.0 MiB" in captured.err and "Traceback" not in captured.err


def test_without_a_limit_this_machines_memory_decides():
    # p6c9: 531,441 codes, a 263 GiB answer table, more than any test machine has.
    with pytest.raises(TooLargeError, match="531,441 codes"):
        Solver(Game.from_spec("p6c9"))
