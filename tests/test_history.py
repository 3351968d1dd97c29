"""Answer histories: unknown answers, the smallest conflicting set, correcting an
answer (optimal_mm.history, Codebreaker.correct, play's 'fix')."""

import io
import itertools
import random
import sys

import pytest

from optimal_mm import Game
from optimal_mm.cli import main
from optimal_mm.errors import InconsistentAnswersError, InvalidAnswerError, InvalidCodeError
from optimal_mm.history import (EXACT_CONFLICT_TURNS, Turn, check_history, consistent_secrets,
                                parse_history, smallest_conflict, turn_text)
from optimal_mm.player import Codebreaker, load_shipped_strategy


def fits(game, turns, secret):
    """Whether ``secret`` gives every known answer (scored one by one, not by masks)."""
    return all(t.answer is None or game.score(t.guess, secret) == t.answer for t in turns)


def satisfiable(game, turns):
    return any(fits(game, turns, s) for s in range(game.n_codes))


def test_parse_and_write_round_trip(mastermind):
    turns = parse_history(mastermind, "1123=1B1W, 3456=?  2211=20")
    assert turns == [Turn("1123", mastermind.parse_answer("1B1W")), Turn("3456", None),
                     Turn("2211", mastermind.parse_answer("2B0W"))]
    text = " ".join(turn_text(mastermind, t) for t in turns)
    assert text == "1123=1B1W 3456=? 2211=2B0W"
    assert parse_history(mastermind, text) == turns
    assert parse_history(mastermind, "") == []


@pytest.mark.parametrize("text,error,needle", [
    ("1123", InvalidAnswerError, "'1123'"),
    ("1123=", InvalidAnswerError, "'1123='"),
    ("1173=1B", InvalidCodeError, "1173"),
    ("1123=5B", InvalidAnswerError, "5B"),
])
def test_parse_errors_quote_the_input(mastermind, text, error, needle):
    with pytest.raises(error, match=needle):
        parse_history(mastermind, text)


def test_unknown_answers_keep_every_secret(mastermind):
    known = parse_history(mastermind, "1123=1B1W")
    with_unknown = parse_history(mastermind, "1123=1B1W 3456=? 1111=?")
    assert list(consistent_secrets(mastermind, with_unknown)) == \
        list(consistent_secrets(mastermind, known))
    assert len(check_history(mastermind, with_unknown)) == len(consistent_secrets(mastermind,
                                                                                   known))


@pytest.mark.parametrize("spec", ["p2c3", "p3c3", "p3c4n"])
def test_smallest_conflict_is_a_minimum_unsatisfiable_subset(spec):
    game = Game.from_spec(spec)
    rng = random.Random(spec)
    checked = 0
    while checked < 25:
        turns = [Turn(game.code_str(rng.randrange(game.n_codes)),
                      rng.choice(game.possible_answers) if rng.random() > 0.1 else None)
                 for _ in range(rng.randrange(2, 7))]
        turns = [t for t in turns if t.answer != game.win]
        conflict = smallest_conflict(game, turns)
        if conflict is None:
            assert satisfiable(game, turns)
            continue
        checked += 1
        assert not satisfiable(game, [turns[i] for i in conflict])
        assert all(turns[i].answer is not None for i in conflict)
        # No smaller set of answers conflicts (checked by scoring, not by masks).
        for size in range(1, len(conflict)):
            for subset in itertools.combinations(range(len(turns)), size):
                assert satisfiable(game, [turns[i] for i in subset])


def test_long_history_gets_a_minimal_conflict(mastermind):
    turns = parse_history(mastermind, "1123=1B1W 1415=0B0W " + "6666=? " * EXACT_CONFLICT_TURNS
                          + "2366=0B0W 2222=1B0W")
    assert len([t for t in turns if t.answer is not None]) == 4
    conflict = smallest_conflict(mastermind, turns)
    assert not satisfiable(mastermind, [turns[i] for i in conflict])
    known = [Turn(f"{i}{i}{i}{i}", 0) for i in range(1, 7)] * 3  # 18 answers, none unknown
    conflict = smallest_conflict(mastermind, known)
    assert not satisfiable(mastermind, [known[i] for i in conflict])
    for i in conflict:  # minimal: dropping any one leaves a secret
        assert satisfiable(mastermind, [known[j] for j in conflict if j != i])


def test_codebreaker_names_the_conflict_and_corrects(mastermind):
    breaker = Codebreaker(mastermind, load_shipped_strategy(mastermind))
    breaker.tell("1B1W")          # 1123
    breaker.tell("0B0W")          # 1415
    guess = breaker.next_guess()  # the tree's third guess
    assert not set("145") & set(guess)
    # Not 1, 4 or 5 (1415=0B0W), and none of the third guess's colours either: all
    # six colours excluded by answers #2 and #3 alone.
    assert set("145") | set(guess) == set("123456")
    with pytest.raises(InconsistentAnswersError, match="#2 1415=0B0W and #3") as caught:
        breaker.tell("0B0W")
    assert caught.value.conflict == (1, 2)
    assert breaker.guesses == 2  # nothing recorded
    breaker.correct(0, "0B2W")
    assert breaker.history[0] == Turn("1123", mastermind.parse_answer("0B2W"))
    assert breaker.remaining == len(consistent_secrets(mastermind, breaker.history))
    # 3 pegs of 1123 in place put a 1 in the secret; 1415=0B0W says there is none.
    with pytest.raises(InconsistentAnswersError, match="#1 1123=3B0W and #2 1415=0B0W"):
        breaker.correct(0, "3B0W")
    assert breaker.history[0].answer == mastermind.parse_answer("0B2W")  # unchanged
    with pytest.raises(IndexError):
        breaker.correct(5, "0B0W")
    with pytest.raises(InvalidAnswerError, match="ended the game"):
        breaker.correct(0, "4B0W")


def test_correcting_back_to_the_tree_follows_it_again(mastermind):
    strategy = load_shipped_strategy(mastermind)
    breaker = Codebreaker(mastermind, strategy)
    breaker.tell("1B1W")
    breaker.correct(0, "0B1W")
    assert breaker.on_tree and breaker.next_guess() == strategy.root.next["0B1W"].guess


def run(monkeypatch, capsys, argv, stdin):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_play_fix_command(monkeypatch, capsys, mastermind):
    strategy = load_shipped_strategy(mastermind)
    after_fix = strategy.root.next["0B2W"].guess
    lines = ["1B1W", "fix", "fix 9 1B1W", "fix 1 0B2W", "0B0W", "fix 2 0B1W"]
    code, out, err = run(monkeypatch, capsys, ["play", "mastermind"],
                         "\n".join(lines) + "\nquit\n")
    assert code == 0, err
    assert "Write 'fix N ANSWER'" in out
    assert "no answer #9 to correct" in out
    assert "Corrected: 1123 0B2W" in out
    # Back on the optimal tree's branch for the corrected answer.
    assert f"Guess 2: {after_fix}" in out
    third = strategy.root.next["0B2W"].next["0B1W"].guess
    assert out.index(f"Corrected: {after_fix} 0B1W") < out.rindex(f"Guess 3: {third}")


def test_play_conflict_offers_fix(monkeypatch, capsys, mastermind):
    second = load_shipped_strategy(mastermind).root.next["0B0W"].guess
    assert not set("123") & set(second) and set(second) | set("123") == set("123456")
    code, out, err = run(monkeypatch, capsys, ["play", "mastermind"], "0B0W\n0B0W\nquit\n")
    assert code == 0, err
    assert f"#1 1123=0B0W and #2 {second}=0B0W contradict each other" in out
    assert "'fix N ANSWER' to correct answer 1," in out
