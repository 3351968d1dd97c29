"""``optimal-mm impartial solve|table|play`` through ``optimal_mm.cli.main`` and a real pipe."""

import io
import json
import os
import subprocess
import sys

import networkx as nx
import pytest

from optimal_mm.cli import main
from optimal_mm.impartial import find_game, solver_for


def run(monkeypatch, capsys, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ solve
@pytest.mark.parametrize("game,position,value,wins,moves", [
    ("subtraction", "37", 2, True, ["35"]),
    ("subtraction", "1000000", 1, True, ["999999"]),
    ("subtraction", "42", 0, False, []),
    ("date", None, None, True, ["20.1"]),
    ("date", "20.1", 0, False, []),
    ("nim", "3,4,5", 2, True, ["1,4,5"]),
    ("cards", "16:0,4,4,4,4,2", 1, True,
     ["18:0,3,4,4,4,2", "19:0,4,3,4,4,2", "20:0,4,4,3,4,2"]),
])
def test_solve_json(monkeypatch, capsys, game, position, value, wins, moves):
    argv = ["impartial", "solve", game] + ([position] if position else []) + ["--json"]
    code, out, err = run(monkeypatch, capsys, argv)
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc) == ["game", "position", "value", "wins", "winning_moves"]
    assert doc["game"] == game
    assert doc["position"] == (position or "start")
    if value is not None:
        assert doc["value"] == value
    assert doc["wins"] is wins and doc["winning_moves"] == moves


def test_solve_start_positions(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["impartial", "solve", "cards", "--json"])
    doc = json.loads(out)
    assert doc["position"] == "0:4,4,4,4,4,4"
    game = find_game("cards")
    solver = solver_for(game)
    assert doc["winning_moves"] == [game.format(p) for p in game.moves(game.start())
                                    if solver.value(p) == 0]


def test_solve_text_and_options(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys,
                       ["impartial", "solve", "subtraction", "10", "--moves", "1,3,4"])
    assert code == 0
    assert "subtraction 10: Sprague-Grundy value" in out and "1, 3 or 4" in out
    code, out, _ = run(monkeypatch, capsys, ["impartial", "solve", "nim", "1,1,1", "--misere"])
    assert "misère value 0; the player to move loses" in out
    # The header states the rule, then that misère play turns it round
    assert out.splitlines()[0].endswith(
        "taking the last match wins; played misère instead: the last mover loses")
    code, out, _ = run(monkeypatch, capsys,
                       ["impartial", "solve", "date", "29.2", "--leap", "--json"])
    assert json.loads(out)["position"] == "29.2"


# A position with no move ends the game: the text says so rather than describing
# moves that do not exist, and agrees with the JSON (no winning move; in misère
# play the player to move has won, since the last mover loses).
@pytest.mark.parametrize("argv,who,rest,wins", [
    (["subtraction", "0", "--misere"], "misère value 1; the player to move wins",
     "no move is left: the player to move wins, having no move (the last mover loses)",
     True),
    (["subtraction", "0"], "Sprague-Grundy value 0; the player to move loses",
     "no move is left: the player to move loses", False),
    (["nim", "0,0"], "Sprague-Grundy value 0; the player to move loses",
     "no move is left: the player to move loses", False),
    (["date", "31.12"], "Sprague-Grundy value 0; the player to move loses",
     "no move is left: the player to move loses", False),
])
def test_solve_position_without_moves(monkeypatch, capsys, argv, who, rest, wins):
    code, out, _ = run(monkeypatch, capsys, ["impartial", "solve"] + argv)
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == f"{argv[0]} {argv[1]}: {who}"
    assert lines[2] == rest
    assert "every move" not in out
    code, out, _ = run(monkeypatch, capsys, ["impartial", "solve"] + argv + ["--json"])
    doc = json.loads(out)
    assert doc["wins"] is wins and doc["winning_moves"] == []


def test_solve_losing_position_with_moves(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["impartial", "solve", "nim", "1,1"])
    assert out.splitlines()[2] == ("no winning move: every move leaves a position "
                                   "of non-zero value")


def test_solve_writes_graph(monkeypatch, capsys, tmp_path):
    path = tmp_path / "moves.graphml"
    code, out, _ = run(monkeypatch, capsys,
                       ["impartial", "solve", "nim", "1,2", "--graph", str(path)])
    assert code == 0 and f"wrote {path}" in out
    graph = nx.read_graphml(path)
    assert graph.number_of_nodes() == 6
    assert graph.nodes["1,1"]["value"] == 0


@pytest.mark.parametrize("argv,quoted", [
    (["solve", "chess"], "'chess'"),
    (["solve", "date", "31.2"], "'31.2'"),
    (["solve", "date", "20/1"], "'20/1'"),
    (["solve", "nim", "3,x"], "'3,x'"),
    (["solve", "cards", "0:4,4,4"], "'0:4,4,4'"),
    (["solve", "subtraction", "ten"], "'ten'"),
    (["solve", "subtraction", "--moves", "0-3"], "'0-3'"),
    (["solve", "sum"], "no starting position"),
    (["solve", "date", "--moves", "1,2"], "--moves"),
    (["solve", "nim", "--leap"], "--leap"),
    (["solve", "cards", "--graph", "g.png"], "'g.png'"),
    (["solve", "nim", "9,9,9,9", "--graph", "g.dot"], "more than 5000 positions"),
    (["table", "sum"], "no table"),
    (["table", "date", "--up-to", "4"], "--up-to"),
    (["table", "nim", "3,4"], "'3,4'"),
    (["table", "cards", "0:9,4,4,4,4,4"], "'0:9,4,4,4,4,4'"),
    (["table", "subtraction", "--up-to", "99999999"], "99999999"),
    (["play", "date", "31.2"], "'31.2'"),
    (["play", "nim", "--player", "book"], "--player book"),
    (["play", "cards", "--player", "book", "--misere"], "--player book"),
    (["play", "chess"], "'chess'"),
])
def test_bad_input_one_line(monkeypatch, capsys, tmp_path, argv, quoted):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(monkeypatch, capsys, ["impartial"] + argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("optimal-mm impartial: error: ")
    assert quoted in err
    assert "Traceback" not in err
    assert os.listdir(tmp_path) == []          # no file, not even half a one


def test_argparse_rejects_bad_choices(monkeypatch, capsys):
    for argv in (["impartial", "play", "nim", "--first", "nobody"],
                 ["impartial", "play", "nim", "--player", "random"],
                 ["impartial", "table", "nim", "--up-to", "x"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        assert "invalid" in capsys.readouterr().err


# ------------------------------------------------------------------ table
def test_table_text_and_json(monkeypatch, capsys, tmp_path):
    code, out, _ = run(monkeypatch, capsys, ["impartial", "table", "subtraction", "--up-to", "14"])
    assert code == 0
    assert "SG(p) = p mod 7" in out
    assert "heaps that lose for the player to move: 0, 7, 14" in out
    path = tmp_path / "cards.json"
    code, out, _ = run(monkeypatch, capsys,
                       ["impartial", "table", "cards", "16:0,4,4,4,4,2", "-o", str(path)])
    assert code == 0 and "book zero totals: 50 49 42 41 34 33 26 25 18 17" in out
    doc = json.loads(path.read_text())
    assert doc["game"] == "cards" and doc["columns"] == ["total", "book", "exact"]
    code, out, _ = run(monkeypatch, capsys, ["impartial", "table", "date", "--json"])
    doc = json.loads(out)
    assert len(doc["rows"]) == 31 and doc["rows"][30][2] is None    # no 31 February
    assert doc["rows"][19][1] == 0                                   # 20.1


# ------------------------------------------------------------------- play
def test_play_human_wins_with_the_book_rule(monkeypatch, capsys):
    # Leave multiples of 7: 10 -> 7, then answer k with 7 - k.
    lines = ["3"]
    code, out, err = run(monkeypatch, capsys, ["impartial", "play", "subtraction", "10"],
                         stdin="3\n")
    # The computer's reply is seeded; answer whatever it leaves with the rule.
    assert code == 1 and "end of input" in err
    left = int(out.rsplit("leaving ", 1)[1].split(".")[0])
    lines.append(str(left % 7))
    code, out, err = run(monkeypatch, capsys, ["impartial", "play", "subtraction", "10"],
                         stdin="\n".join(lines) + "\n")
    assert code == 0, err
    assert "You win" in out


def test_play_refuses_bad_moves_and_asks_again(monkeypatch, capsys):
    stdin = "31.2\n20/1\n15.1\n20.3\n25.2\nquit\n"
    code, out, err = run(monkeypatch, capsys,
                         ["impartial", "play", "date", "20.2", "--first", "human"], stdin)
    assert code == 0 and err == ""
    assert "'31.2' is not a date: February has 28 days; try again." in out
    assert "a date is written day.month" in out
    assert "no move leads from 20.2 to 15.1" in out
    assert "You move to 20.3." in out
    assert "Stopped at" in out


def test_play_computer_first_wins_from_start(monkeypatch, capsys):
    # The computer names 20.1 and wins whatever the person does: here the person
    # tries every date in calendar order (the illegal ones are refused).
    game = find_game("date")
    stdin = "\n".join(game.format(d) for d in game.dates()) + "\n"
    code, out, err = run(monkeypatch, capsys,
                         ["impartial", "play", "date", "--first", "computer"], stdin)
    assert code == 0, err
    assert "I move to 20.1." in out
    assert "I win: no move is left for you at 31.12" in out
    assert "try again" in out


def test_play_book_player_cards(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys,
                       ["impartial", "play", "cards", "16:0,4,4,4,4,2", "--player", "book"],
                       "x\n9\n2\nquit\n")
    assert "a card must be a whole number, got 'x'; try again." in out
    assert "You take a 2: total 18" in out
    assert "I take a 6: total 24" in out        # no zero within reach: fewest copies


def test_play_misere_and_over_at_once(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["impartial", "play", "subtraction", "0"])
    assert code == 0 and "I win: no move is left for you at 0 (0 moves)." in out
    code, out, _ = run(monkeypatch, capsys,
                       ["impartial", "play", "subtraction", "0", "--misere"])
    assert code == 0 and "You win" in out


def test_play_seed_is_repeatable(monkeypatch, capsys):
    argv = ["impartial", "play", "nim", "2,2", "--first", "human", "--seed", "5"]
    outs = [run(monkeypatch, capsys, argv, "1,2\n")[1] for _ in range(2)]
    assert outs[0] == outs[1]


def test_play_through_a_pipe():
    proc = subprocess.run(
        [sys.executable, "-m", "optimal_mm", "impartial", "play", "subtraction", "9",
         "--first", "human"],
        input="9\n2\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1                      # input ended before the game did
    assert "you may take 1 to 6 matches, not '9'; try again." in proc.stdout
    assert "9> 2" in proc.stdout                     # piped input is echoed
    assert "You take 2 matches, leaving 7." in proc.stdout
    assert proc.stderr.strip().startswith("optimal-mm impartial play: end of input")
    assert "Traceback" not in proc.stderr
