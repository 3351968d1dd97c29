"""The ``match`` command (seed 000: each hides a code, fewer guesses wins) and the
coach of ``play`` and ``challenge``."""

import io
import random
import sys

import pytest

from optimal_mm import Game
from optimal_mm.cli import main
from optimal_mm.player import Codebreaker, Codemaker, Match, load_shipped_strategy


def run(monkeypatch, capsys, argv, stdin):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def computer_secret(spec, seed):
    """The secret ``match --seed`` draws (the same Codemaker and Random)."""
    return Codemaker(Game.from_spec(spec), random.Random(seed)).reveal()


def answers_to_tree(game, secret, rounds):
    """The person's honest answers to the shipped tree's guesses against ``secret``."""
    path = load_shipped_strategy(game).path_for(secret)
    return [game.answer_str(game.score(g, secret)) for g in path][:rounds], len(path)


@pytest.mark.parametrize("spec", ["mastermind", "bulls-and-cows"])
def test_person_wins_by_guessing_first(monkeypatch, capsys, spec):
    game = Game.from_spec(spec)
    mine = game.code_str(game.n_codes - 1)
    secret = computer_secret(spec, 5)
    answers, needed = answers_to_tree(game, mine, 2)
    assert needed > 2  # the tree needs more than two guesses for this secret
    wrong = next(c for c in (game.code_str(0), game.code_str(1)) if c != secret)
    lines = [wrong, answers[0], secret, answers[1]]
    code, out, err = run(monkeypatch, capsys, ["match", spec, "--seed", "5"],
                         "\n".join(lines) + "\n")
    assert code == 0, err
    assert f"You win: you found {secret} in 2 guesses; I had not found yours after 2 guesses." \
        in out


def test_computer_wins_and_draw(monkeypatch, capsys, mastermind):
    secret = computer_secret("mastermind", 11)
    mine = "4321"
    answers, needed = answers_to_tree(mastermind, mine, 10)
    wrong = [c for c in ("1111", "2222", "3333", "4444", "5555", "6666") if c != secret]
    lines = [x for pair in zip(wrong, answers) for x in pair]
    code, out, err = run(monkeypatch, capsys, ["match", "mastermind", "--seed", "11"],
                         "\n".join(lines) + "\n")
    assert code == 0, err
    assert (f"I win: I found {mine} in {needed} guesses; you had not found my secret "
            f"{secret} after {needed} guesses.") in out
    # The person finds it in the round the computer does: a draw.
    lines[2 * (needed - 1)] = secret
    code, out, err = run(monkeypatch, capsys, ["match", "mastermind", "--seed", "11"],
                         "\n".join(lines[:2 * needed]) + "\n")
    assert code == 0, err
    assert f"Draw: we both needed {needed} guesses." in out


def test_match_conflict_fix_quit_and_end_of_input(monkeypatch, capsys, mastermind):
    secret = computer_secret("mastermind", 2)
    wrong = "1111" if secret != "1111" else "2222"
    first = load_shipped_strategy(mastermind).root.next["0B0W"].guess
    lines = [wrong, "0B0W", wrong, "0B0W", "fix 1 1B0W", "0B0W"]
    code, out, err = run(monkeypatch, capsys, ["match", "mastermind", "--seed", "2"],
                         "\n".join(lines) + "\n")
    assert code == 1 and "end of input in round" in err and secret in err
    assert f"#1 1123=0B0W and #2 {first}=0B0W contradict each other" in out
    assert "Corrected: 1123 1B0W" in out
    code, out, _ = run(monkeypatch, capsys, ["match", "mastermind", "--seed", "2"], "quit\n")
    assert code == 0 and f"my secret was {secret}" in out


def test_match_state_machine():
    game = Game.from_spec("p2c3")
    match = Match(game, random.Random(3), Codebreaker(game, chooser=lambda s, d: int(s[0])))
    assert match.person_to_play and match.round == 1 and match.result is None
    with pytest.raises(RuntimeError):
        match.computer_guess()
    with pytest.raises(RuntimeError):
        match.tell("0 0")
    match.person_guess(match.maker.reveal())
    assert match.result is None  # the round is not over: the computer still guesses
    with pytest.raises(RuntimeError):
        match.person_guess("11")
    guess = match.computer_guess()
    match.tell(game.score(guess, "33"))
    assert match.result == ("draw" if guess == "33" else "person")


def test_challenge_coach(monkeypatch, capsys):
    secret = computer_secret("mastermind", 4)
    code, out, err = run(monkeypatch, capsys, ["challenge", "mastermind", "--seed", "4",
                                               "--coach"], f"1123\n1234\n{secret}\n")
    assert code == 0, err
    coach = [line for line in out.splitlines() if line.startswith("  coach:")]
    assert len(coach) == 3
    assert coach[0] == "  coach: guess 1 1123 (1296 left): lost +0.0000 expected, +0 worst case"
    assert coach[1].startswith("  coach: guess 2 1234 (")


def test_play_coach_grades_the_computer(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["play", "mastermind", "--secret", "4321",
                                               "--coach"], "")
    assert code == 0, err
    coach = [line for line in out.splitlines() if line.startswith("  coach:")]
    guesses = [line for line in out.splitlines() if line.startswith("Guess ")]
    assert len(coach) == len(guesses)
    assert all("lost +0.0000 expected" in line for line in coach)  # the optimal tree


NO_COACH = "--time-limit is for --coach"


@pytest.mark.parametrize("argv, words", [
    (["play", "mastermind", "--secret", "4321", "--time-limit", "2"], NO_COACH),
    (["challenge", "mastermind", "--time-limit", "2"], NO_COACH),
    (["play", "p30c2b", "--secret", "1" * 30, "--time-limit", "2"], NO_COACH),
    (["play", "p30c2b", "--secret", "1" * 30, "--coach"], "which the coin-weighing strategy"),
])
def test_coach_options_without_a_coach_are_refused(monkeypatch, capsys, argv, words):
    """--time-limit only sets the coach's search, and the large-game strategies have no
    coach: each is refused in one line rather than ignored (before, both were)."""
    code, out, err = run(monkeypatch, capsys, argv, "")
    assert code == 2 and "Guess" not in out and "Found" not in out
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_the_coach_takes_its_time_limit(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["play", "mastermind", "--secret", "4321",
                                               "--coach", "--time-limit", "5"], "")
    assert code == 0 and "  coach: guess 1 " in out, err
