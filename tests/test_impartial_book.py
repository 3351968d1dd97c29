"""Every value the book states for its four impartial games.

Source: the chapter on Sprague-Grundy numbers (games 16 to 19) of Jacques
Arsac's *Programming games and puzzles* (Russian edition), in
``shared/seeds/003_8090d1d044ad5148.txt``; each test quotes the claim it checks.
"""

import pytest

from optimal_mm.impartial import GrundySolver, find_game, solve_position, solver_for
from optimal_mm.impartial.book_cards import BookCardPlayer, book_values
from optimal_mm.impartial.tables import value_table


@pytest.fixture(scope="module")
def cards():
    game = find_game("cards")
    return game, solver_for(game)


# ------------------------------------------------------------ game 16
def test_subtraction_first_values():
    # Seed: "SG(0) = 0", "SG(1) = 1", "SG(2) = 2", "SG(3) = 3, SG(4) = 4, SG(5) = 5,
    # SG(6) = 6", "SG(7) = 0", "SG(8) = 1".
    solver = GrundySolver(find_game("subtraction"), use_theorems=False)
    assert [solver.value(p) for p in range(9)] == [0, 1, 2, 3, 4, 5, 6, 0, 1]


@pytest.mark.parametrize("use_theorems", [False, True])
def test_subtraction_law_p_mod_7(use_theorems):
    # Seed: "SG(p) = остаток от деления p на 7" (p mod 7), by search and by the period.
    game = find_game("subtraction")
    solver = game.solver(use_theorems=use_theorems)
    assert all(solver.value(p) == p % 7 for p in range(300))


def test_subtraction_win_by_leaving_multiples_of_7():
    # Seed: "вам нужно оставлять вашему противнику число спичек ... кратное 7".
    game = find_game("subtraction")
    for heap in range(1, 100):
        moves = [int(m) for m in solve_position(game, str(heap)).winning_moves]
        assert moves == ([] if heap % 7 == 0 else [heap - heap % 7])


# ------------------------------------------------------------ game 17
def test_date_values_quoted():
    # Seed: 31 December has value 0; "значение 1 дате 30 декабря, значение 2 дате
    # 29 декабря"; "31 октября получает 1, 31 августа 2".
    solver = GrundySolver(find_game("date"))
    assert solver.value((31, 12)) == 0
    assert solver.value((30, 12)) == 1
    assert solver.value((29, 12)) == 2
    assert solver.value((31, 10)) == 1
    assert solver.value((31, 8)) == 2


def test_date_december_and_31sts_count_down():
    # Seed: "и т. д." -- each earlier December day, and each earlier 31st, one more.
    solver = GrundySolver(find_game("date"))
    assert [solver.value((d, 12)) for d in range(31, 0, -1)] == list(range(31))
    assert [solver.value((31, m)) for m in (12, 10, 8, 7, 5, 3, 1)] == list(range(7))


@pytest.mark.parametrize("leap", [False, True])
def test_date_winning_positions_one_relation(leap):
    # Seed: the winning dates satisfy a simple day-month relation, and the calendar
    # "никак не сказывается" on it. Each month gets exactly one, and they are
    # mutually unreachable (an equivalence class containing 31.12).
    game = find_game("date", leap=leap)
    solver = GrundySolver(game)
    zero = [d for d in game.dates() if solver.value(d) == 0]
    assert (31, 12) in zero
    assert sorted({m for _, m in zero}) == list(range(1, 13))
    assert len({d for d, _ in zero}) == 12
    assert len({d - m for d, m in zero}) == 1
    table = value_table(game)
    assert any("day - month = 19" in note for note in table.notes)


# ------------------------------------------------------------ game 18
def test_cards_with_all_values_reach_50_modulo_7():
    # Seed: "Сначала попытайтесь достичь 50 с точностью до кратного 7".
    values = book_values(range(1, 7))
    assert all(values[t] == (50 - t) % 7 for t in range(51))


def test_cards_values_once_the_aces_are_gone():
    # Seed: after ace, ace, 6, ace, 6, ace (total 16) "SG(50) = 0, SG(49) = 0",
    # "SG(48) = 1", "SG(47) = 1".
    values = book_values({2, 3, 4, 5, 6})
    assert (values[50], values[49], values[48], values[47]) == (0, 0, 1, 1)


def test_cards_zero_positions_listed():
    # Seed: "положения, имеющие нулевое SG, -- это 42 41 34 33 26 25 18 17".
    values = book_values({2, 3, 4, 5, 6})
    assert [t for t in range(48, 16, -1) if values[t] == 0] == [42, 41, 34, 33, 26, 25, 18, 17]


def test_cards_book_example_game_and_its_move(cards):
    # Seed: "Я беру туза, компьютер тоже. Сумма 2. ... беру 6. Компьютер берет туза.
    # Сумма 9. ... снова беру 6. Компьютер берет последнего туза. Сумма 16", leaving
    # "2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6"; "я могу взять 2, чтобы достичь 18".
    game, solver = cards
    position = game.start()
    for card in ("1", "1", "6", "1", "6", "1"):
        position = game.parse_move(position, card)
    assert game.format(position) == "16:0,4,4,4,4,2"
    assert BookCardPlayer(game).choose_card(position) == 2
    # The exact solution agrees that taking the 2 wins.
    assert "18:0,3,4,4,4,2" in solve_position(game, position, solver=solver).winning_moves


def test_cards_exact_values_at_the_top_agree_with_the_book(cards):
    # Seed: SG(50) = SG(49) = 0, SG(48) = SG(47) = 1 with no aces left also holds
    # for the exact values, counts included.
    game, solver = cards
    counts = (0, 4, 4, 4, 4, 2)
    assert [solver.value((t, counts)) for t in (50, 49, 48, 47)] == [0, 0, 1, 1]


def test_cards_book_player_takes_fewest_copies_when_no_zero(cards):
    # Seed: "Если он не может достичь выигрывающего положения, он берет карту,
    # оставшуюся в наименьшем количестве экземпляров".
    game, _ = cards
    position = game.parse("18:0,3,4,4,4,2")     # zero totals 25, 26 are out of reach
    player = BookCardPlayer(game)
    assert player.book_zero_cards(position) == []
    assert player.choose_card(position) == 6


# ------------------------------------------------------------ game 19
def test_nim_single_heap_value_is_its_size():
    # Seed: "SG(0) = 0 ... вследствие чего SG(n) = n".
    solver = GrundySolver(find_game("nim"), use_theorems=False)
    assert [solver.value((n,)) for n in range(20)] == list(range(20))


@pytest.mark.parametrize("heaps", ["1,1", "5,5", "1,2,3", "1,4,5"])
def test_nim_winning_positions_quoted(heaps):
    # Seed: two equal heaps, and "1, 2, 3", "1, 4, 5" are winning positions to leave.
    game = find_game("nim")
    solver = GrundySolver(game, use_theorems=False)
    assert solver.value(game.parse(heaps)) == 0


def test_nim_bouton_rule_by_search():
    # Seed: Bouton (1902): a position wins (for the player who leaves it) exactly when
    # every binary digit has an even number of ones among the heaps.
    game = find_game("nim")
    solver = GrundySolver(game, use_theorems=False)
    for a in range(8):
        for b in range(8):
            for c in range(8):
                even = all(((a >> k & 1) + (b >> k & 1) + (c >> k & 1)) % 2 == 0
                           for k in range(3))
                assert (solver.value((a, b, c)) == 0) == even


# ------------------------------------------------------ results/impartial
def test_results_file_agrees_with_the_library(cards):
    # results/impartial.json (scripts/impartial_tables.py) against a fresh solve.
    import json
    from pathlib import Path

    from optimal_mm.impartial.book_cards import compare_with_exact

    doc = json.loads((Path(__file__).parents[1] / "results" / "impartial.json").read_text())
    game, solver = cards
    start = game.start()
    assert doc["cards"]["start"]["winning_first_cards"] == [
        v for v in game.playable(start) if solver.value(game.take(start, v)) == 0]
    comparison = compare_with_exact(game, solver)
    assert doc["cards"]["comparison"]["book_misses"] == len(comparison.book_misses)
    assert doc["cards"]["comparison"]["won_positions"] == comparison.won_positions
    date = find_game("date")
    date_solver = solver_for(date)
    assert doc["date"]["common"]["winning_dates"] == [
        date.format(d) for d in date.dates() if date_solver.value(d) == 0]
    assert doc["subtraction"]["heap_of_a_million"]["value"] == 10**6 % 7
