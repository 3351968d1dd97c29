"""The generic solver, the periodic shortcut, the XOR theorems, misère play, tables, export."""

import doctest
import importlib
import json
import random
import sys

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optimal_mm.errors import InvalidOptionError, OptimalMMError, TooLargeError
from optimal_mm.impartial import (CyclicGameError, GrundySolver, ImpartialGame,
                                  InvalidPositionError, find_game, mex, solve_position,
                                  solver_for)
from optimal_mm.impartial.export import graph_format, move_graph, to_dot, write_graph, write_json
from optimal_mm.impartial.periodic import EventuallyPeriodic, find_period, first_values
from optimal_mm.impartial.players import ExactPlayer, Match
from optimal_mm.impartial.tables import value_table

MODULES = ["__init__", "game", "grundy", "periodic", "subtraction", "date", "cards", "nim",
           "sums", "book_cards", "solution", "players", "tables", "export"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module("optimal_mm.impartial" + ("" if name == "__init__"
                                                               else "." + name))
    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_mex():
    assert mex([]) == 0
    assert mex([0, 1, 3]) == 2
    assert mex(iter([5, 0, 1, 2, 4, 3])) == 6


# ---------------------------------------------------------------- search
class Cycle(ImpartialGame):
    """a -> b -> c -> a, and c -> end: not acyclic."""

    name = "cycle"
    GRAPH = {"a": ["b"], "b": ["c"], "c": ["a", "end"], "end": []}

    def moves(self, position):
        return self.GRAPH[position]

    def format(self, position):
        return position


def test_cycle_is_reported():
    with pytest.raises(CyclicGameError, match="cycle through 'a'"):
        GrundySolver(Cycle()).value("a")
    assert issubclass(CyclicGameError, OptimalMMError)


def test_no_recursion_on_long_paths():
    # A heap of 50,000 by plain search: a path of 50,000 moves, far past the
    # recursion limit, which is left as it is (a million: the slow test below).
    limit = sys.getrecursionlimit()
    solver = GrundySolver(find_game("subtraction"), use_theorems=False)
    assert solver.value(50_000) == 50_000 % 7
    assert solver.positions_stored() == 50_001
    assert sys.getrecursionlimit() == limit


def test_position_limit():
    solver = GrundySolver(find_game("subtraction"), use_theorems=False, max_positions=100)
    with pytest.raises(TooLargeError, match="more than 100 positions"):
        solver.value(1000)


def test_heap_of_a_million_by_period():
    # Moves 1 to 6: value p mod 7; the winning move leaves a multiple of 7.
    solution = solve_position(find_game("subtraction"), "1000000")
    assert solution.value == 10**6 % 7 == 1
    assert solution.winning_moves == ("999999",)
    # Other move sets, checked against the values streamed from heap 0 with only
    # a window kept (the period is a proof; this checks its bookkeeping).
    for moves in [(2, 5, 7), (1, 4), (3, 4, 6, 10)]:
        seq = EventuallyPeriodic.of_subtraction(moves)
        window = first_values(moves, max(moves), 0)
        for n in range(max(moves), 20_001):
            window = window[1:] + [mex(window[len(window) - s] for s in moves)]
            assert seq[n] == window[-1]


def test_remoteness_of_a_long_heap():
    # Win: take to a multiple of 7, then answer each move k with 7 - k.
    solver = find_game("subtraction").solver()
    assert solver.remoteness(100_000) == 2 * (100_000 // 7) + 1


@pytest.mark.slow
def test_heap_of_a_million_by_plain_search():
    solver = GrundySolver(find_game("subtraction"), use_theorems=False)
    assert solver.value(10**6) == 1
    assert solver.remoteness(10**6) == 2 * (10**6 // 7) + 1


@pytest.mark.parametrize("moves", ["1-6", "1,3,4", "2,5,7", "1,4", "3,5,8,9", "2"])
@pytest.mark.parametrize("misere", [False, True])
def test_period_matches_search(moves, misere):
    game = find_game("subtraction", moves=moves)
    fast = game.solver(misere=misere)
    slow = GrundySolver(game, misere=misere, use_theorems=False)
    for n in range(400):
        assert fast.value(n) == slow.value(n)
        assert fast.remoteness(n) == slow.remoteness(n)
    mu, lam = find_period(game.moves_allowed, 1 if misere else 0)
    values = first_values(game.moves_allowed, mu + 3 * lam, 1 if misere else 0)
    assert values[mu:mu + lam] == values[mu + lam:mu + 2 * lam]


def test_remoteness_of_subtraction():
    # From 7 every move loses; the loser delays: 7 -> 6 -> 0 is two moves either way.
    solver = GrundySolver(find_game("subtraction"))
    assert [solver.remoteness(n) for n in range(9)] == [0, 1, 1, 1, 1, 1, 1, 2, 3]


# --------------------------------------------------------- XOR theorems
nim_heaps = st.lists(st.integers(0, 6), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(nim_heaps)
def test_nim_xor_equals_search(heaps):
    game = find_game("nim")
    position = tuple(heaps)
    by_search = GrundySolver(game, use_theorems=False).value(position)
    xor = 0
    for h in heaps:
        xor ^= h
    assert by_search == xor == GrundySolver(game).value(position)


def _random_part(rng):
    kind = rng.choice(["subtraction", "date", "cards", "nim"])
    if kind == "subtraction":
        return f"subtraction:{rng.randint(0, 30)}"
    if kind == "date":
        return f"date:{rng.randint(1, 28)}.{rng.randint(9, 12)}"
    if kind == "cards":
        counts = [rng.randint(0, 2) for _ in range(6)]
        return f"cards:{rng.randint(38, 50)}:{','.join(map(str, counts))}"
    return "nim:" + ",".join(str(rng.randint(0, 4)) for _ in range(rng.randint(1, 2)))


@pytest.mark.parametrize("seed", range(12))
def test_sum_xor_equals_search(seed):
    rng = random.Random(seed)
    game = find_game("sum", moves=rng.choice(["1-6", "1,3,4", "2,5"]))
    position = game.parse("+".join(_random_part(rng) for _ in range(rng.randint(2, 3))))
    by_theorem = GrundySolver(game).value(position)
    by_search = GrundySolver(game, use_theorems=False)
    assert by_search.value(position) == by_theorem
    # And so the winning moves are the same.
    assert by_search.winning_moves(position) == GrundySolver(game).winning_moves(position)


# ---------------------------------------------------------------- misère
def test_misere_nim_rule_by_search():
    # Bouton's misère rule (NimGame.misere_wins_by_rule) against the search.
    game = find_game("nim")
    solver = GrundySolver(game, misere=True)
    for heaps in [(a, b, c) for a in range(6) for b in range(6) for c in range(6)] + [(1,), (0,)]:
        assert solver.wins(heaps) == game.misere_wins_by_rule(heaps)


def test_misere_subtraction_losing_heaps():
    # With moves 1..6 under misère play, the heaps of 1 mod 7 lose.
    solver = find_game("subtraction").solver(misere=True)
    assert [n for n in range(30) if not solver.wins(n)] == [1, 8, 15, 22, 29]
    assert solver.wins(0)


def test_misere_sum_is_not_xor():
    # Two heaps of one: normal play loses (1 XOR 1 = 0), misère play wins.
    game = find_game("sum")
    position = game.parse("nim:1+subtraction:1")
    assert GrundySolver(game).value(position) == 0
    assert GrundySolver(game, misere=True).wins(position)


def test_misere_table_note_holds():
    table = value_table(find_game("nim"), up_to=6, misere=True)
    for row in table.rows:
        a = row[0]
        for b, value in enumerate(row[1:]):
            assert (value == 0) == ((a == b and a >= 2) or a + b == 1)


# ------------------------------------------------------- games and rules
@pytest.mark.parametrize("name,text", [
    ("subtraction", "37"), ("date", "20.1"), ("date", "start"), ("date", "29.2"),
    ("nim", "3,0,5"), ("cards", "0:4,4,4,4,4,4"), ("cards", "16:0,4,4,4,4,2"),
    ("sum", "subtraction:9+nim:3,4+date:20.1+cards:40:1,1,1,1,1,1"),
])
def test_notation_round_trip(name, text):
    game = find_game(name, leap=True) if name in ("date", "sum") else find_game(name)
    assert game.format(game.parse(text)) == text
    for child in game.moves(game.parse(text)):
        assert game.parse(game.format(child)) == child


@pytest.mark.parametrize("name,text", [
    ("subtraction", "-1"), ("subtraction", "x"), ("subtraction", ""),
    ("date", "31.2"), ("date", "30.2"), ("date", "31.4"), ("date", "0.1"), ("date", "1.13"),
    ("date", "20"), ("date", "a.b"),
    ("nim", "3,,4"), ("nim", "3;4"), ("nim", "-1"),
    ("cards", "0:4,4,4,4,4"), ("cards", "51:0,0,0,0,0,0"), ("cards", "0:5,4,4,4,4,4"),
    ("cards", "x:4,4,4,4,4,4"), ("cards", "4,4,4,4,4,4"),
    ("sum", "nim3,4"), ("sum", "chess:1"), ("sum", ""), ("sum", "nim:3+date:31.2"),
])
def test_bad_positions(name, text):
    with pytest.raises(InvalidPositionError) as info:
        find_game(name).parse(text)
    assert repr(text) in str(info.value) or repr(text.split(":")[-1]) in str(info.value) \
        or "'31.2'" in str(info.value)


def test_leap_year():
    game = find_game("date", leap=True)
    assert game.format(game.parse("29.2")) == "29.2"
    assert (29, 3) in game.moves((29, 2))
    assert (29, 2) in game.moves((29, 1))
    assert (29, 2) not in find_game("date").moves((29, 1))


def test_date_moves():
    game = find_game("date")
    moves = game.moves((30, 1))
    assert (31, 1) in moves and (30, 3) in moves and (30, 2) not in moves
    assert game.moves((31, 12)) == []
    assert len(game.moves("start")) == 31


@pytest.mark.parametrize("moves", ["0", "1-", "3-1", "a", "1,1001", ""])
def test_bad_move_sets(moves):
    with pytest.raises(InvalidOptionError, match="--moves"):
        find_game("subtraction", moves=moves)


def test_options_that_do_not_apply():
    with pytest.raises(InvalidOptionError, match="--leap"):
        find_game("nim", leap=True)
    with pytest.raises(InvalidOptionError, match="--moves"):
        find_game("cards", moves="1-3")


# ---------------------------------------------------------------- players
def test_exact_player_against_itself_follows_values():
    # The side to move from a non-zero position wins every game; the loser's moves
    # keep the game as long as possible (remoteness says how long).
    for name, text in [("subtraction", "40"), ("date", "start"), ("nim", "3,4,5"),
                       ("cards", "30:1,2,1,2,1,1")]:
        game = find_game(name)
        position = game.parse(text)
        player = ExactPlayer(game, rng=random.Random(1))
        solver = player.solver
        match = Match(game, position, player, human_first=False)
        moves = 0
        while not match.over:
            match.to_move = "computer"
            match.computer_move()
            moves += 1
        assert moves == solver.remoteness(position)
        assert (moves % 2 == 1) == solver.wins(position)


def test_losing_computer_delays():
    # At 14 (value 0) every move loses; the computer picks a move of greatest
    # remoteness, and with any seed it is one of them.
    game = find_game("subtraction")
    solver = game.solver()
    best = max(solver.remoteness(c) for c in game.moves(14))
    for seed in range(5):
        choice = ExactPlayer(game, rng=random.Random(seed)).choose(14)
        assert solver.remoteness(choice) == best


# ---------------------------------------------------------------- export
def test_move_graph_values_match_solver(tmp_path):
    game = find_game("date")
    graph = move_graph(game, "25.10")
    solver = solver_for(game)
    for name, data in graph.nodes(data=True):
        assert data["value"] == solver.value(game.parse(name))
    for a, b in graph.edges():
        assert game.parse(b) in game.moves(game.parse(a))
    path = tmp_path / "g.graphml"
    write_graph(graph, path)
    back = nx.read_graphml(path)
    assert set(back.nodes) == set(graph.nodes)
    assert set(back.edges) == set(graph.edges)
    assert back.nodes["31.12"]["value"] == 0
    dot = tmp_path / "g.dot"
    write_graph(graph, dot)
    assert dot.read_text() == to_dot(graph)
    assert '"31.12" [label="31.12\\nSG 0", peripheries="2"];' in dot.read_text()


def test_move_graph_limits():
    with pytest.raises(TooLargeError, match="more than 50 positions"):
        move_graph(find_game("cards"), max_positions=50)
    with pytest.raises(InvalidOptionError, match="'g.png'"):
        graph_format("g.png")


def test_table_json_round_trip(tmp_path):
    table = value_table(find_game("cards"), "16:0,4,4,4,4,2")
    path = tmp_path / "t.json"
    write_json(table.to_dict(), path)
    doc = json.loads(path.read_text())
    assert doc["columns"] == ["total", "book", "exact"]
    assert doc["rows"][0] == [50, 0, 0] and doc["rows"][-1][0] == 16
    assert doc == json.loads(json.dumps(table.to_dict()))


def test_tables_refuse_what_does_not_apply():
    with pytest.raises(InvalidOptionError, match="no table"):
        value_table(find_game("sum"))
    with pytest.raises(InvalidOptionError, match="--up-to"):
        value_table(find_game("date"), up_to=3)
    with pytest.raises(InvalidPositionError, match="takes no position"):
        value_table(find_game("nim"), "3,4")
    with pytest.raises(TooLargeError):
        value_table(find_game("subtraction"), up_to=10**6)
