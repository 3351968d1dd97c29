"""The consistent-guess player: every guess agrees with every answer, any game size."""

import random

import numpy as np
import pytest

from optimal_mm import Game
from optimal_mm.consistent import ConsistentCodebreaker, answer_matrix, best_on_sample
from optimal_mm.errors import InconsistentAnswersError, InvalidAnswerError

pytest.importorskip("ortools")


def play(game, secret, **options):
    breaker = ConsistentCodebreaker(game, **options)
    while not breaker.solved:
        guess = game.parse_code(breaker.next_guess())
        # Every guess agrees with every answer so far: it could be the secret.
        for turn in breaker.history:
            assert game.score_colours(game.parse_code(turn.guess), guess) == turn.answer
        breaker.tell(game.score_colours(guess, secret))
        assert breaker.guesses <= 60
    return breaker


@pytest.mark.parametrize("spec", ["p3c3", "p4c6", "p4c6n", "p3c4b", "p5c5nb", "p2c2"])
def test_finds_every_secret_of_small_games(spec):
    game = Game.from_spec(spec)
    # The first and last codes and a seeded spread in between.
    spread = random.Random(spec).sample(range(game.n_codes), min(6, game.n_codes))
    picks = {0, game.n_codes - 1} | set(spread)
    for i in sorted(picks):
        secret = game.code_colours(i)
        breaker = play(game, secret, sample_size=4, move_time=30, seed=i)
        assert breaker.secret == game.format_code(secret)


@pytest.mark.parametrize("spec", ["p12c12", "p11c11n", "p20c2b", "p7c14"])
def test_plays_games_too_big_to_list(spec):
    game = Game.from_spec(spec)
    rng = random.Random(spec)
    secret = tuple(rng.sample(range(game.colours), game.pegs) if not game.repeats
                   else [rng.randrange(game.colours) for _ in range(game.pegs)])
    breaker = play(game, secret, sample_size=3, move_time=30)
    assert not game.is_enumerable or spec == "p20c2b"
    assert breaker.secret == game.format_code(secret)
    assert breaker.remaining is None
    assert breaker.last_move is not None and breaker.last_move.scored >= 1


def test_seeded_games_replay():
    game = Game.from_spec("p4c6")
    secret = game.parse_code("1234")
    options = dict(seed=5, move_time=30, sample_size=6)
    first = [t.guess for t in play(game, secret, **options).history]
    again = [t.guess for t in play(game, secret, **options).history]
    assert first == again


def test_contradictory_answer_refused_and_state_kept():
    game = Game.from_spec("p4c6")
    breaker = ConsistentCodebreaker(game, seed=2, move_time=30)
    first = breaker.next_guess()
    breaker.tell(game.encode_answer(0, 0))
    second = breaker.next_guess()
    # An answer to the second guess that no code gives together with the first answer.
    codes = game.codes
    kept = codes[game.answers(game.code_index(first)) == game.encode_answer(0, 0)]
    given = {game.score_colours(game.parse_code(second), tuple(c)) for c in kept}
    impossible = next(a for a in game.possible_answers if a not in given)
    with pytest.raises(InconsistentAnswersError, match=second):
        breaker.tell(impossible)
    assert breaker.guesses == 1 and breaker.next_guess() == second
    with pytest.raises(InvalidAnswerError):
        breaker.tell("3 1")
    assert breaker.undo().guess == first and breaker.guesses == 0


def test_tiny_move_time_is_reported_as_cut():
    game = Game.from_spec("p16c16")
    breaker = ConsistentCodebreaker(game, move_time=1e-6, sample_size=50)
    secret = tuple(range(16))
    breaker.tell(game.score_colours(game.parse_code(breaker.next_guess()), secret))
    guess = game.parse_code(breaker.next_guess())
    assert len(guess) == 16
    assert breaker.last_move.cut_short and breaker.last_move.scored < 50
    assert "cut short" in breaker.last_move.describe()


def test_answer_matrix_agrees_with_the_rules():
    for spec in ("p4c6", "p3c5b", "p5c3"):
        game = Game.from_spec(spec)
        rng = np.random.default_rng(1)
        a = rng.integers(0, game.colours, (7, game.pegs))
        b = rng.integers(0, game.colours, (5, game.pegs))
        m = answer_matrix(game, a, b)
        for i in range(7):
            for j in range(5):
                assert m[i, j] == game.score_colours(tuple(a[i]), tuple(b[j]))


def test_best_on_sample_splits_best():
    game = Game.from_spec("p2c3")
    sample = [(0, 0), (0, 1), (1, 0), (1, 2)]
    best = best_on_sample(game, sample)
    parts = answer_matrix(game, np.array([best]), np.array(sample))[0]
    assert len(set(parts.tolist())) == 4   # splits the sample into singletons


def test_doctests():
    import doctest

    from optimal_mm import consistent

    result = doctest.testmod(consistent)
    assert result.attempted and not result.failed


def test_ctrl_c_after_a_constraint_solve_is_still_a_keyboard_interrupt():
    # CP-SAT catches SIGINT during a solve unless told not to, and afterwards leaves
    # the system default (end the process) where Python's handler was: a Ctrl-C
    # after the first guess of a big game then killed the player with no clean stop.
    # In a fresh process, so that nothing this test run did can mask it.
    import subprocess
    import sys

    script = (
        "import signal, time\n"
        "from optimal_mm import Game\n"
        "from optimal_mm.consistent import ConsistentCodebreaker\n"
        "game = Game.from_spec('p12c12')\n"
        "breaker = ConsistentCodebreaker(game, seed=1, sample_size=3)\n"
        "guess = game.parse_code(breaker.next_guess())\n"
        "breaker.tell(game.score_colours(guess, tuple(range(12))))\n"
        "breaker.next_guess()\n"
        "try:\n"
        "    signal.raise_signal(signal.SIGINT)\n"
        "    time.sleep(5)\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt')\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "KeyboardInterrupt"


def test_fallback_guesses_never_repeat_and_replay(monkeypatch):
    # A solver that never finds a code in time: every move falls back on a random code.
    # The fallback was drawn from a generator seeded the same way each move, so
    # that from the first such move on the same code was played again and again.
    from optimal_mm import consistent

    monkeypatch.setattr(consistent, "_solve", lambda *args: (None, False))
    game = Game.from_spec("p8c8")
    secret = game.parse_code("12345678")

    def guesses(seed):
        breaker = ConsistentCodebreaker(game, move_time=1e-3, seed=seed)
        played = []
        for _ in range(12):
            played.append(breaker.next_guess())
            # (Before the first answer every code is consistent: no solver is needed.)
            assert "random code" in breaker.last_move.note or not breaker.history
            breaker.tell(game.score_colours(game.parse_code(played[-1]), secret))
        return played

    played = guesses(3)
    assert len(set(played)) == len(played)
    assert guesses(3) == played


def test_fallback_guess_is_never_played_and_comes_closest():
    from optimal_mm.consistent import fallback_guess

    game = Game.from_spec("p3c3")
    secret = (2, 1, 0)
    rng = random.Random(7)
    pairs = []
    for _ in range(4):
        guess = fallback_guess(game, pairs, rng)
        assert guess not in [g for g, _ in pairs]
        # 256 draws of 27 codes see every code: the one played agrees with every answer.
        assert all(game.score_colours(g, guess) == a for g, a in pairs)
        if guess == secret:
            break
        pairs.append((guess, game.score_colours(guess, secret)))
    # Every code but one played: the one left is drawn (or found) and played.
    every = [game.code_colours(i) for i in range(game.n_codes)]
    left = every[5]
    played = [(c, game.score_colours(c, left)) for c in every if c != left]
    assert fallback_guess(game, played, random.Random(1)) == left
    assert fallback_guess(game, played, random.Random(1), draws=1) == left
