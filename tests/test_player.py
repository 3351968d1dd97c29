"""Playing against a person: Codebreaker, Codemaker, and the play/challenge commands."""

import gzip
import io
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from optimal_mm import Game, InvalidAnswerError, InvalidCodeError, InvalidTreeError
from optimal_mm.cli import main
from optimal_mm.errors import InconsistentAnswersError
from optimal_mm.game import partition_counts
from optimal_mm.player import (Codebreaker, Codemaker, describe_answer,
                               load_shipped_strategy)
from optimal_mm.tree import Strategy, grow

SMALL_GAMES = ["p2c3", "p3c3", "p3c4n", "p3c3b"]


def first_consistent(secrets, depth):
    """Stand-in chooser: play the first code still possible (always makes progress)."""
    return int(secrets[0])


def make_minimax(game):
    """Stand-in chooser: the guess (any code) whose largest part is smallest."""
    every = np.arange(game.n_codes, dtype=np.int64)

    def choose(secrets, depth):
        if len(secrets) == 1:
            return int(secrets[0])
        worst = partition_counts(game, every, secrets).max(axis=1)
        return int(every[np.argmin(worst)])
    return choose


def tree_for(game, choose=first_consistent):
    strategy = Strategy(game, grow(game, choose), guesses="consistent",
                        objective="first-consistent")
    strategy.validate()
    return strategy


def play_out(breaker, secret):
    """Let ``breaker`` guess ``secret``, answering honestly; returns its guesses."""
    game = breaker.game
    guesses = []
    while not breaker.solved:
        guess = breaker.next_guess()
        guesses.append(guess)
        breaker.tell(game.score(guess, secret))
        assert len(guesses) <= game.n_codes
    return guesses


# ------------------------------------------------------------ Codebreaker
@pytest.mark.parametrize("spec", SMALL_GAMES)
def test_codebreaker_follows_tree_for_every_secret(spec):
    game = Game.from_spec(spec)
    strategy = tree_for(game)

    def never(secrets, depth):
        raise AssertionError("a chooser was asked while a tree covers the game")

    for s in range(game.n_codes):
        secret = game.code_str(s)
        breaker = Codebreaker(game, strategy, chooser=never)
        assert play_out(breaker, secret) == strategy.path_for(secret)
        assert breaker.secret == secret
        assert breaker.guesses == len(breaker.history) == len(strategy.path_for(secret))
        assert breaker.history[-1].answer == game.win


@pytest.mark.parametrize("spec", SMALL_GAMES)
def test_codebreaker_with_chooser_finds_every_secret(spec):
    game = Game.from_spec(spec)
    depths = []
    minimax = make_minimax(game)

    def choose(secrets, depth):
        depths.append((depth, len(secrets)))
        return minimax(secrets, depth)

    for s in range(game.n_codes):
        breaker = Codebreaker(game, chooser=choose)
        assert breaker.remaining == game.n_codes
        play_out(breaker, game.code_str(s))
        assert breaker.solved and breaker.secret == game.code_str(s)
    assert depths[0] == (1, game.n_codes)
    assert all(d >= 1 for d, _ in depths)


def test_codebreaker_counts_and_remaining():
    game = Game.from_spec("p2c3")
    breaker = Codebreaker(game, chooser=first_consistent)
    assert breaker.next_guess() == "11" == breaker.next_guess()
    breaker.tell("0 0")
    assert breaker.remaining == 4 and breaker.secret is None
    assert sorted(breaker.remaining_secrets) == ["22", "23", "32", "33"]
    breaker.tell("0B0W")
    assert breaker.remaining == 1 and breaker.secret == "33" and not breaker.solved
    assert breaker.next_guess() == "33"
    breaker.tell("2B0W")
    assert breaker.solved and breaker.guesses == 3
    with pytest.raises(RuntimeError):
        breaker.next_guess()


def test_inconsistent_answer_leaves_state_for_reentry():
    game = Game.from_spec("p3c3")
    breaker = Codebreaker(game, chooser=first_consistent)
    assert breaker.next_guess() == "111"
    breaker.tell("0 0")                      # secrets over {2, 3}
    guess = breaker.next_guess()
    before = (breaker.remaining, list(breaker.history), guess)
    with pytest.raises(InconsistentAnswersError) as info:
        breaker.tell("1 2")                  # 222 against codes over {2, 3}: never 1B2W
    assert "111 0B0W" in str(info.value) and "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)
    assert (breaker.remaining, list(breaker.history), breaker.next_guess()) == before
    breaker.tell(game.score(guess, "233"))   # the corrected answer is accepted
    assert breaker.guesses == 2


def test_winning_claim_for_impossible_guess_is_inconsistent():
    game = Game.from_spec("p2c3")
    plan = {1: "11", 2: "12"}
    breaker = Codebreaker(game, chooser=lambda s, d: game.code_index(plan[d]))
    breaker.tell("0 0")                      # 11 and 12 can no longer be the secret
    assert breaker.next_guess() == "12"
    with pytest.raises(InconsistentAnswersError):
        breaker.tell("2 0")
    assert not breaker.solved and breaker.remaining == 4


def test_missing_tree_branch_is_inconsistent():
    game = Game.from_spec("p3c3")
    strategy = tree_for(game)
    key = sorted(strategy.root.next)[0]
    del strategy.root.next[key]
    breaker = Codebreaker(game, strategy)
    with pytest.raises(InconsistentAnswersError) as info:
        breaker.tell(key)
    assert "tree" in str(info.value)
    assert breaker.guesses == 0 and breaker.remaining == game.n_codes


def test_undo():
    game = Game.from_spec("p3c3")
    strategy = tree_for(game)
    breaker = Codebreaker(game, strategy)
    first = breaker.next_guess()
    breaker.tell("0 0")
    second = breaker.next_guess()
    breaker.tell(game.score(second, "333"))
    turn = breaker.undo()
    assert turn.guess == second and breaker.guesses == 1
    assert breaker.next_guess() == second
    breaker.undo()
    assert breaker.remaining == game.n_codes and breaker.next_guess() == first
    with pytest.raises(IndexError):
        breaker.undo()
    assert play_out(breaker, "333") == strategy.path_for("333")


@pytest.mark.parametrize("text", ["3 1", "3B1W", "31", "5 0", "banana", "", "1 2 3", "-1"])
def test_impossible_answers_refused(mastermind, text):
    breaker = Codebreaker(mastermind, chooser=first_consistent)
    with pytest.raises(InvalidAnswerError):
        breaker.tell(text)
    assert breaker.guesses == 0 and breaker.remaining == 1296


def test_impossible_answer_ids_refused(mastermind):
    breaker = Codebreaker(mastermind, chooser=first_consistent)
    for answer in (mastermind.encode_answer(3, 1), 99, -1):
        with pytest.raises(InvalidAnswerError):
            breaker.tell(answer)
    assert breaker.guesses == 0


def test_black_only_answers():
    game = Game.from_spec("p3c3b")
    breaker = Codebreaker(game, chooser=first_consistent)
    breaker.tell("1")
    breaker.tell("0B")
    with pytest.raises(InvalidAnswerError):
        breaker.tell("1 1")
    assert breaker.guesses == 2


def test_tree_for_another_game_refused():
    strategy = tree_for(Game.from_spec("p2c3"))
    with pytest.raises(InvalidTreeError, match="p2c3"):
        Codebreaker(Game.from_spec("p3c3"), strategy)
    with pytest.raises(InvalidTreeError, match="alphabet"):
        Codebreaker(Game(2, 3, alphabet="abc"), strategy)


def test_describe_answer(mastermind, bulls):
    assert describe_answer(mastermind, mastermind.parse_answer("2 1")) == (
        "2 right colours in the right place, 1 right colour in the wrong place")
    assert describe_answer(mastermind, mastermind.win) == "all right: solved"
    assert describe_answer(bulls, bulls.parse_answer("0 2")) == "0 bulls, 2 cows"
    game = Game.from_spec("p3c3b")
    assert describe_answer(game, 1) == "1 in the right place"


def test_no_shipped_tree_for_odd_game():
    assert load_shipped_strategy(Game.from_spec("p2c3")) is None


# -------------------------------------------------------------- Codemaker
def test_codemaker_scoring_and_counting(mastermind):
    maker = Codemaker(mastermind, random.Random(0), secret="4221")
    assert maker.guess("1123") == mastermind.score("1123", "4221")
    with pytest.raises(InvalidCodeError):
        maker.guess("1127")
    with pytest.raises(InvalidCodeError):
        maker.guess("12")
    assert maker.guesses == 1 and not maker.solved
    assert maker.guess(" 4221 ") == mastermind.win
    assert maker.solved and maker.guesses == 2 and maker.reveal() == "4221"
    with pytest.raises(RuntimeError):
        maker.guess("1111")


def test_codemaker_draws_with_the_given_rng_only(bulls):
    random.seed(12345)
    state = random.getstate()
    secrets = [Codemaker(bulls, random.Random(seed)).reveal() for seed in range(20)]
    assert random.getstate() == state
    assert secrets == [Codemaker(bulls, random.Random(seed)).reveal() for seed in range(20)]
    assert len(set(secrets)) > 1
    for s in secrets:
        bulls.parse_code(s)                  # legal: four distinct digits


def test_codemaker_for_huge_game():
    game = Game.from_spec("p10c36")          # far too many codes to enumerate
    maker = Codemaker(game, random.Random(7))
    secret = maker.reveal()
    assert len(secret) == 10
    assert maker.guess(secret) == game.win


@pytest.mark.parametrize("spec", SMALL_GAMES)
def test_codebreaker_against_codemaker(spec):
    game = Game.from_spec(spec)
    rng = random.Random(3)
    for _ in range(5):
        maker = Codemaker(game, rng)
        breaker = Codebreaker(game, chooser=make_minimax(game))
        while not breaker.solved:
            breaker.tell(maker.guess(breaker.next_guess()))
        assert maker.solved and breaker.secret == maker.reveal()
        assert breaker.guesses == maker.guesses


# -------------------------------------------------------------------- CLI
def run(monkeypatch, capsys, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def p3c3_tree(tmp_path_factory):
    game = Game.from_spec("p3c3")
    strategy = tree_for(game)
    path = tmp_path_factory.mktemp("trees") / "p3c3.json.gz"
    strategy.save(path)
    return strategy, str(path)


def assert_one_line_error(code, err):
    assert code != 0
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_play_secret(monkeypatch, capsys, p3c3_tree):
    strategy, path = p3c3_tree
    code, out, err = run(monkeypatch, capsys,
                         ["play", "p3c3", "--tree", path, "--secret", "231"], stdin="x\n")
    assert code == 0 and err == ""
    lines = out.strip().splitlines()
    assert lines[0].startswith("Strategy: tree")
    moves = strategy.path_for("231")
    assert [line.split()[2] for line in lines[1:-1]] == moves
    assert lines[-2].endswith("3B0W")
    assert lines[-1] == f"Found 231 in {len(moves)} guesses."
    assert sys.stdin.read() == "x\n"         # stdin was not read


def test_play_secret_with_heuristic(monkeypatch, capsys):
    pytest.importorskip("optimal_mm.heuristics")
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--secret", "312"])
    assert code == 0, err
    assert "knuth" in out.splitlines()[0]
    assert out.strip().splitlines()[-1].startswith("Found 312 in ")
    code, out, err = run(monkeypatch, capsys,
                         ["play", "p3c3", "--heuristic", "entropy", "--secret", "312"])
    assert code == 0 and "entropy" in out.splitlines()[0]


def test_play_default_falls_back_to_knuth(monkeypatch, capsys):
    from optimal_mm.cli import play_cmds

    asked = []

    def fake(game, name, seed, move_time):
        asked.append(name)
        return Codebreaker(game, chooser=first_consistent)

    monkeypatch.setattr(play_cmds, "heuristic_codebreaker", fake)
    code, out, err = run(monkeypatch, capsys, ["play", "p2c3", "--secret", "23"])
    assert code == 0 and asked == [None]
    assert "the knuth heuristic; no tree is shipped for p2c3" in out


def answers_for(strategy, secret, forms=("{b} {w}", "{b}B{w}W", "{b}{w}")):
    game = strategy.game
    out = []
    for i, guess in enumerate(strategy.path_for(secret)):
        b, w = game.decode_answer(game.score(guess, secret))
        out.append(forms[i % len(forms)].format(b=b, w=w))
    return out


def test_play_interactive(monkeypatch, capsys, p3c3_tree):
    strategy, path = p3c3_tree
    answers = answers_for(strategy, "132")
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--tree", path],
                         stdin="\n".join(answers) + "\n")
    assert code == 0 and err == ""
    assert f"Solved: your secret is 132, found in {len(answers)} guesses." in out
    for i, guess in enumerate(strategy.path_for("132"), 1):
        assert f"Guess {i}: {guess}" in out


def test_play_interactive_bad_then_inconsistent_then_good(monkeypatch, capsys, p3c3_tree):
    strategy, path = p3c3_tree
    game = strategy.game
    answers = answers_for(strategy, "333")
    first, second = strategy.path_for("333")[:2]
    # An answer to the second guess that no code agreeing with the first answer gives.
    agree = [s for s in range(game.n_codes)
             if game.score(first, s) == game.score(first, "333")]
    given = {game.score(second, s) for s in agree}
    wrong = next(a for a in game.possible_answers if a not in given)
    lines = ["2 1", "hello", answers[0], game.answer_str(wrong), answers[1]] + answers[2:]
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--tree", path],
                         stdin="\n".join(lines) + "\n")
    assert code == 0, err
    assert "can never occur" in out
    assert "malformed answer 'hello'" in out
    assert "contradict" in out and f"Enter your answer to {second} again" in out
    assert "Solved: your secret is 333" in out
    assert "Traceback" not in out + err


def test_play_interactive_undo(monkeypatch, capsys, p3c3_tree):
    strategy, path = p3c3_tree
    answers = answers_for(strategy, "222", forms=("{b}{w}",))
    lines = ["undo", answers[0], "undo"] + answers
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--tree", path],
                         stdin="\n".join(lines) + "\n")
    assert code == 0, err
    assert "Nothing to take back" in out and "Took back" in out
    assert f"found in {len(answers)} guesses" in out


def test_play_black_only(monkeypatch, capsys):
    game = Game.from_spec("p3c3b")
    strategy = tree_for(game)
    answers = [str(game.score(g, "321")) for g in strategy.path_for("321")]

    from optimal_mm.cli import play_cmds
    monkeypatch.setattr(play_cmds, "load_shipped_strategy", lambda g: strategy)
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3b"], stdin="\n".join(answers))
    assert code == 0, err
    assert "shipped tree" in out and "Solved: your secret is 321" in out


def test_play_quit_and_eof(monkeypatch, capsys, p3c3_tree):
    _, path = p3c3_tree
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--tree", path],
                         stdin="0 0\nquit\n")
    assert code == 0 and "Stopped after 1 guess" in out
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--tree", path], stdin="0 0\n")
    assert code == 1
    assert_one_line_error(code, err)
    assert "end of input" in err


def test_challenge(monkeypatch, capsys):
    game = Game.from_spec("mastermind")
    secret = Codemaker(game, random.Random(5)).reveal()
    wrong = "1111" if secret != "1111" else "2222"
    code, out, err = run(monkeypatch, capsys, ["challenge", "mastermind", "--seed", "5"],
                         stdin=f"{wrong}\n1234567\n12a4\n\n{secret}\n")
    assert code == 0 and err == ""
    answer = game.answer_str(game.score(wrong, secret))
    assert f"  {answer}  (" in out
    assert "has 7 symbols" in out and "outside the alphabet" in out
    assert f"Solved in 2 guesses: the secret was {secret}." in out


def test_challenge_quit_and_eof(monkeypatch, capsys):
    secret = Codemaker(Game.from_spec("p4c10n"), random.Random(9)).reveal()
    code, out, err = run(monkeypatch, capsys, ["challenge", "bulls-and-cows", "--seed", "9"],
                         stdin="0123\nquit\n")
    assert code == 0 and f"The secret was {secret} (you made 1 guess)." in out
    assert "bull" in out
    code, out, err = run(monkeypatch, capsys, ["challenge", "p4c10n", "--seed", "9"],
                         stdin="0123\n0011\n")
    assert "repeats a colour" in out
    assert_one_line_error(code, err)
    assert secret in err


@pytest.mark.parametrize("argv", [
    ["play", "nosuchgame", "--secret", "1234"],
    ["challenge", "p0c3"],
    ["play", "mastermind", "--secret", "1237"],
    ["play", "mastermind", "--secret", "12"],
    ["play", "bulls-and-cows", "--secret", "1123"],
    ["play", "mastermind", "--tree", "/nonexistent/tree.json"],
    ["play", "mastermind", "--heuristic", "nosuch", "--secret", "1234"],
])
def test_bad_input_one_line(monkeypatch, capsys, argv):
    code, out, err = run(monkeypatch, capsys, argv)
    assert code == 2
    assert_one_line_error(code, err)


def test_play_takes_the_game_from_the_tree(monkeypatch, capsys, p3c3_tree):
    """``play --tree FILE`` without a game plays the tree's game (before, it asked
    for the number of positions as if no tree were given)."""
    strategy, path = p3c3_tree
    code, out, err = run(monkeypatch, capsys, ["play", "--tree", path, "--secret", "231"])
    assert code == 0 and err == ""
    assert out.strip().splitlines()[-1] == f"Found 231 in {len(strategy.path_for('231'))} guesses."


@pytest.mark.parametrize("command", [["play"], ["play", "p3c3"], ["match", "p3c3"]])
def test_a_broken_tree_is_refused_before_the_game_naming_its_file(monkeypatch, capsys,
                                                                   p3c3_tree, tmp_path,
                                                                   command):
    """The tree is replayed first: one whose declared stats lie, or which loses a
    secret, is refused in one line that names the file (as ``verify`` does), before
    a guess is made."""
    doc = json.loads(gzip.open(p3c3_tree[1]).read())
    doc["stats"]["total"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, out, err = run(monkeypatch, capsys, [*command, "--tree", str(bad)], stdin="quit\n")
    assert code == 2 and "Guess" not in out
    assert_one_line_error(code, err)
    assert str(bad) in err and "total" in err


def test_tree_for_another_game_cli(monkeypatch, capsys, p3c3_tree):
    _, path = p3c3_tree
    code, out, err = run(monkeypatch, capsys, ["play", "p3c4", "--tree", path])
    assert code == 2
    assert_one_line_error(code, err)
    assert "p3c3" in err and "p3c4" in err


def test_broken_tree_file_cli(monkeypatch, capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "optimal-mm-strategy", "version": 1')
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--tree", str(bad)])
    assert_one_line_error(code, err)


def test_tree_and_heuristic_exclusive(monkeypatch, capsys, p3c3_tree):
    with pytest.raises(SystemExit) as info:
        run(monkeypatch, capsys, ["play", "p3c3", "--tree", p3c3_tree[1], "--heuristic", "knuth"])
    assert info.value.code == 2


def test_play_bulls_and_cows_replays_the_shipped_tree(monkeypatch, capsys):
    # The shipped tree is Tanaka's optimum (26274, test_results checks it); every
    # secret is found within its 7 guesses.
    code, out, err = run(monkeypatch, capsys, ["play", "bulls-and-cows", "--secret", "9876"])
    assert code == 0, err
    assert "shipped tree for bulls-and-cows" in out and "at most 7 guesses" in out
    found = [line for line in out.splitlines() if line.startswith("Found 9876 in ")]
    assert found and int(found[0].split()[3]) <= 7


# ------------------------------------------------------- any size, seed 002
def test_play_asks_for_positions_and_colours(monkeypatch, capsys):
    # Seed 002: the user gives the number of positions and colours first.
    code, out, err = run(monkeypatch, capsys, ["play", "--secret", "231"],
                         stdin="x\n\n3 1\n3\n3\n")
    assert code == 0, err
    assert "not 'x'" in out and "colours must be 2..1024" in out
    # 'x' is refused at once, before the number of colours is asked for
    assert out.index("not 'x'") < out.index("Number of colours>")
    assert out.strip().splitlines()[-1].startswith("Found 231 in ")
    code, out, err = run(monkeypatch, capsys, ["play"], stdin="4\n")
    assert code == 1 and "before the game was chosen" in err


def test_play_total_exact_answers(monkeypatch, capsys, p3c3_tree):
    strategy, path = p3c3_tree
    game = strategy.game
    secret = "132"
    lines = []
    for guess in strategy.path_for(secret):
        b, w = game.decode_answer(game.score(guess, secret))
        lines.append(f"{b + w} {b}")
    code, out, err = run(monkeypatch, capsys,
                         ["play", "p3c3", "--tree", path, "--answers", "total-exact"],
                         stdin="2 3\n" + "\n".join(lines) + "\n")
    assert code == 0, err
    assert "colours right in total" in out and "is impossible" in out
    assert f"your secret is {secret}" in out


def test_play_secret_prints_total_exact(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--heuristic", "logik",
                                               "--answers", "total-exact", "--secret", "312"])
    assert code == 0, err
    assert out.strip().splitlines()[1].startswith("Guess 1: 112  ")
    assert out.strip().splitlines()[-2].endswith("3 3")


def test_play_reports_cut_moves(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["play", "p6c7", "--heuristic", "entropy",
                                               "--move-time", "0.000001", "--secret", "123456"])
    assert code == 0, err
    assert "move cut short" in out.splitlines()[1]
    assert out.strip().splitlines()[-1].startswith("Found 123456 in ")


@pytest.mark.parametrize("argv, secret", [
    (["play", "p12c12", "--move-time", "5"], "0123456789AB"),
    (["play", "p3c3", "--heuristic", "cp-sat"], "231"),
    pytest.param(["play", "p6c40", "--move-time", "5"], "40,1,17,1,2,3",
                 marks=pytest.mark.slow),
])
def test_play_with_the_constraint_solver(monkeypatch, capsys, argv, secret):
    pytest.importorskip("ortools")
    code, out, err = run(monkeypatch, capsys, argv + ["--secret", secret, "--seed", "3"])
    assert code == 0, err
    assert "CP-SAT" in out.splitlines()[0]
    assert out.strip().splitlines()[-1].startswith(f"Found {secret} in ")


@pytest.mark.slow
def test_play_p64c2b_from_the_command_line(monkeypatch, capsys):
    secret = "".join(random.Random(64).choice("12") for _ in range(64))
    code, out, err = run(monkeypatch, capsys, ["play", "p64c2b", "--secret", secret])
    assert code == 0, err
    assert out.strip().splitlines()[-1].startswith(f"Found {secret} in ")


def test_unknown_player_named_in_one_line(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["play", "p3c3", "--heuristic", "nope",
                                               "--secret", "111"])
    assert_one_line_error(code, err)
    assert "'nope'" in err and "cp-sat" in err


def test_play_names_the_guess_rule_of_its_tree(monkeypatch, capsys):
    # A tree optimal among consistent-guess strategies says so; an any-guess one does not.
    results = Path(__file__).resolve().parent.parent / "results" / "trees"
    for name, rule in (("mastermind-expected-consistent", True), ("mastermind-expected", False)):
        code, out, err = run(monkeypatch, capsys, ["play", "mastermind", "--secret", "1234",
                                                   "--tree", str(results / f"{name}.json.gz")])
        assert code == 0, err
        header = out.splitlines()[0]
        assert ("with consistent guesses only" in header) == rule, header
        assert "proved optimal" in header
