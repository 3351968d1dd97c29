"""Answer notations: black-white and the Logik program's total-exact."""

import pytest

from optimal_mm import Game
from optimal_mm.errors import InvalidAnswerError, InvalidOptionError
from optimal_mm.notation import ANSWER_ORDERS, answer_hint, check_order, format_answer, parse_answer


@pytest.mark.parametrize("spec", ["p4c6", "p6c7", "p5c8", "p3c5b", "p12c12"])
def test_round_trip_every_answer(spec):
    game = Game.from_spec(spec)
    for order in ANSWER_ORDERS:
        for answer in game.possible_answers:
            assert parse_answer(game, format_answer(game, answer, order), order) == answer


def test_total_exact_reads_total_then_in_place():
    g = Game.from_spec("p6c7")
    # Seed 002: "počet uhádnutých farieb a počet uhádnutých farieb aj pozícií";
    # the game ends on "6 6".
    assert g.decode_answer(parse_answer(g, "3 1", "total-exact")) == (1, 2)
    assert parse_answer(g, "6 6", "total-exact") == g.win
    assert parse_answer(g, "31", "total-exact") == parse_answer(g, "3,1", "total-exact")
    for bad in ("1 2", "7 0", "x", "3", "6 5", "1 1 1"):
        with pytest.raises(InvalidAnswerError) as info:
            parse_answer(g, bad, "total-exact")
        assert repr(bad) in str(info.value)


def test_black_only_and_unknown_orders():
    g = Game.from_spec("p3c5b")
    assert parse_answer(g, "2", "total-exact") == 2
    assert format_answer(g, 2, "total-exact") == "2B"
    with pytest.raises(InvalidOptionError, match="'exact-total'"):
        check_order("exact-total")
    assert "in total" in answer_hint(Game.from_spec("p4c6"), "total-exact")


@pytest.mark.parametrize("module", ["notation", "heuristics", "player"])
def test_doctests(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"optimal_mm.{module}"))
    assert result.attempted and not result.failed
