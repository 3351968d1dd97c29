"""Rules of the games: specs, codes, answers and scoring."""

import numpy as np
import pytest

from optimal_mm import (Game, InvalidAnswerError, InvalidCodeError, InvalidGameError,
                        TooLargeError)
from optimal_mm import _kernels
from optimal_mm.game import partition_counts


@pytest.mark.parametrize("spec, pegs, colours, repeats, scoring, n", [
    ("mastermind", 4, 6, True, "black-white", 1296),
    ("bulls-and-cows", 4, 10, False, "black-white", 5040),
    ("logik", 5, 8, True, "black-white", 32768),
    ("p4c10n", 4, 10, False, "black-white", 5040),
    ("p3c5b", 3, 5, True, "black", 125),
    ("p4c8nb", 4, 8, False, "black", 1680),
])
def test_specs(spec, pegs, colours, repeats, scoring, n):
    g = Game.from_spec(spec)
    assert (g.pegs, g.colours, g.repeats, g.scoring, g.n_codes) == (
        pegs, colours, repeats, scoring, n)
    assert Game.from_spec(g.spec) == g
    assert len(g.codes) == n


@pytest.mark.parametrize("spec", ["p0c6", "p1025c6", "p4c1", "p4c1025", "p5c4n", "q4c6", "",
                                  "p4c6x"])
def test_bad_specs(spec):
    with pytest.raises(InvalidGameError) as info:
        Game.from_spec(spec)
    assert "\n" not in str(info.value)


def test_alphabets():
    assert Game.from_spec("mastermind").alphabet == "123456"
    assert Game.from_spec("p4c10n").alphabet == "0123456789"
    assert Game.from_spec("p2c36").alphabet.endswith("XYZ")
    with pytest.raises(InvalidGameError):
        Game(4, 6, alphabet="12345")
    with pytest.raises(InvalidGameError):
        Game(4, 6, alphabet="112345")


# Scoring examples from the games' own descriptions (shared/REFERENCE.md).
@pytest.mark.parametrize("spec, guess, secret, black, white", [
    ("mastermind", "1123", "4221", 1, 1),
    ("mastermind", "6112", "1622", 1, 2),
    ("bulls-and-cows", "2310", "3219", 1, 2),
    ("mastermind", "1122", "2211", 0, 4),
    ("mastermind", "1234", "1234", 4, 0),
])
def test_scoring_examples(spec, guess, secret, black, white):
    g = Game.from_spec(spec)
    assert g.decode_answer(g.score(guess, secret)) == (black, white)
    assert g.decode_answer(g.score(secret, guess)) == (black, white)


def test_code_round_trip(mastermind, bulls):
    for g in (mastermind, bulls):
        for i in (0, 1, 17, g.n_codes - 1):
            assert g.code_index(g.code_str(i)) == i
    assert mastermind.code_str(0) == "1111"
    assert bulls.code_str(0) == "0123"


@pytest.mark.parametrize("code, fragment", [
    ("112", "has 3 symbols"), ("11234", "has 5 symbols"), ("1127", "outside the alphabet"),
])
def test_bad_codes(mastermind, code, fragment):
    with pytest.raises(InvalidCodeError, match=fragment):
        mastermind.parse_code(code)


def test_repeat_refused_without_repeats(bulls):
    with pytest.raises(InvalidCodeError, match="repeats"):
        bulls.parse_code("1123")


def test_parse_answers(mastermind):
    g = mastermind
    for text in ("2 1", "2B1W", "21", "2,1", "2b 1w"):
        assert g.decode_answer(g.parse_answer(text)) == (2, 1)
    assert g.decode_answer(g.parse_answer("3W")) == (0, 3)
    for bad in ("3 1", "5 0", "x", "2 2 2", "", "4"):
        with pytest.raises(InvalidAnswerError):
            g.parse_answer(bad)
    b = Game.from_spec("p4c6b")
    assert b.parse_answer("2") == 2
    with pytest.raises(InvalidAnswerError):
        b.parse_answer("2 1")


def test_possible_answers(mastermind):
    assert len(mastermind.possible_answers) == 14  # 15 (b, w) with b + w <= 4, less 3B1W
    assert mastermind.encode_answer(3, 1) not in mastermind.possible_answers


def _small_games():
    """Every game of 1 to 12 pegs and 2 to 10 colours, each rule, of at most 4096 codes
    (168 games)."""
    for p in range(1, 13):
        for c in range(2, 11):
            for rule in ("", "n", "b", "nb"):
                if "n" in rule and c < p:
                    continue  # no such game: too few colours for distinct pegs
                game = Game.from_spec(f"p{p}c{c}{rule}")
                if 0 < game.n_codes <= 4096:
                    yield game


def test_counting_answers_are_the_exact_ones():
    """What big games use instead of the answer table (``_counting_allows``) is the
    set of answers that occur, in every game small enough to read them off its table:
    a superset would weaken the lower bounds (and it was one, in two-colour and
    permutation black-only games), a subset would make them wrong."""
    games = list(_small_games())
    assert len(games) == 168
    for game in games:
        exact = set(game.possible_answers)  # read off the answer table
        counted = {a for a in range(game.n_answer_slots)
                   if game._counting_allows(*game.decode_answer(a))}
        assert counted == exact, game.spec


def test_big_games_count_their_answers():
    """Above 4096 codes the answers come from counting alone (nothing enumerated)."""
    assert [Game.from_spec("p7c7nb").answer_str(a)
            for a in Game.from_spec("p7c7nb").possible_answers] == [
        "0B", "1B", "2B", "3B", "4B", "5B", "7B"]
    assert len(Game.from_spec("p7c7n").possible_answers) == 7  # b + w = 7, never 6B1W
    # b + w <= 13 with w even: 14 + 12 + ... + 2
    assert len(Game.from_spec("p13c2").possible_answers) == sum(range(2, 15, 2))


@pytest.mark.parametrize("spec", ["p3c4", "p4c5n", "p3c5b", "p2c6nb", "p1c3"])
def test_kernels_agree_with_reference(spec):
    g = Game.from_spec(spec)
    table = g.answer_table()
    assert np.array_equal(table, _kernels.score_table_reference(g.codes, g.colours, g.black_only))
    rng = np.random.default_rng(1)
    guesses = rng.integers(0, g.n_codes, 20)
    secrets = np.sort(rng.choice(g.n_codes, min(40, g.n_codes), replace=False))
    fast = _kernels.partition_counts(table, guesses, secrets, g.n_answer_slots)
    ref = _kernels.partition_counts_reference(table, guesses, secrets, g.n_answer_slots)
    onfly = _kernels.partition_counts_codes(g.codes, guesses, secrets, g.colours,
                                            g.black_only, g.n_answer_slots)
    assert np.array_equal(fast, ref) and np.array_equal(onfly, ref)
    # Spot-check the table against the pure-Python scorer.
    for i, j in zip(guesses[:5], secrets[:5]):
        assert table[i, j] == g.score(int(i), int(j))


def test_bulls_first_guess_partition(bulls):
    # shared/REFERENCE.md: first guess 0123 on Bulls and Cows.
    counts = partition_counts(bulls, [bulls.code_index("0123")], np.arange(bulls.n_codes))[0]
    got = {bulls.decode_answer(a): int(c) for a, c in enumerate(counts) if c}
    assert got == {(0, 0): 360, (0, 1): 1440, (0, 2): 1260, (0, 3): 264, (0, 4): 9,
                   (1, 0): 480, (1, 1): 720, (1, 2): 216, (1, 3): 8, (2, 0): 180,
                   (2, 1): 72, (2, 2): 6, (3, 0): 24, (4, 0): 1}


# ---------------------------------------------------------------- any size
@pytest.mark.parametrize("spec, pegs, colours", [
    ("p1024c2b", 1024, 2), ("p256c256b", 256, 256), ("p12c12", 12, 12), ("p1024c1024", 1024, 1024),
])
def test_big_games_are_rules_only(spec, pegs, colours):
    g = Game.from_spec(spec)
    assert (g.pegs, g.colours) == (pegs, colours)
    assert not g.is_enumerable and not g.has_table()
    assert g.n_codes == colours**pegs
    for lazy in (lambda: g.codes, g.answer_table, lambda: g.answers(0)):
        with pytest.raises(TooLargeError):
            lazy()
    assert "codes" not in g.__dict__


@pytest.mark.parametrize("spec, enumerable", [
    ("p8c8", True), ("p9c9", False), ("p15c2", True), ("p16c2", False), ("p16c2b", True),
    ("p2c256", True), ("p2c257", False), ("p255c2b", False),
])
def test_is_enumerable(spec, enumerable):
    g = Game.from_spec(spec)
    assert g.is_enumerable is enumerable
    if not enumerable:
        with pytest.raises(TooLargeError, match=spec):
            g.codes


def test_alphabet_only_up_to_36_colours():
    assert Game.from_spec("p2c36").alphabet == "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert Game.from_spec("p2c37").alphabet is None
    with pytest.raises(InvalidGameError, match="no alphabet"):
        Game(2, 40, alphabet="x" * 40)


def test_number_codes_round_trip():
    g = Game.from_spec("p3c256b")
    assert g.parse_code("3,1,256") == (2, 0, 255)
    assert g.parse_code(" 3, 1 ,256 ") == (2, 0, 255)
    rng = np.random.default_rng(3)
    for _ in range(20):
        colours = tuple(int(c) for c in rng.integers(0, 256, 3))
        assert g.parse_code(g.format_code(colours)) == colours
    for bad, fragment in [("3,1", "has 2 colour numbers"), ("0,1,2", "'0'"),
                          ("1,2,257", "'257'"), ("1,x,2", "'x'"), ("123", "has 1")]:
        with pytest.raises(InvalidCodeError, match=fragment) as info:
            g.parse_code(bad)
        assert repr(bad) in str(info.value)
    no_repeats = Game.from_spec("p3c100n")
    with pytest.raises(InvalidCodeError, match="repeats"):
        no_repeats.parse_code("7,8,7")


def test_format_code_inverts_parse_code_with_alphabets(mastermind, bulls):
    for g in (mastermind, bulls, Game.from_spec("p12c12")):
        rng = np.random.default_rng(g.pegs)
        for _ in range(10):
            colours = tuple(int(c) for c in rng.permutation(g.colours)[:g.pegs])
            assert g.parse_code(g.format_code(colours)) == colours


def test_long_codes_without_enumeration():
    g = Game.from_spec("p1024c2b")
    secret = g.parse_code("12" * 512)
    assert len(secret) == 1024
    assert g.score_colours(secret, secret) == g.win == 1024
    assert g.score_colours((0,) * 1024, secret) == 512
    assert g.answer_str(g.parse_answer("700")) == "700B"
    with pytest.raises(InvalidAnswerError):
        g.parse_answer("1025")


@pytest.mark.parametrize("spec", ["p4c6", "p3c5b", "p4c6n", "p3c4nb"])
def test_score_colours_agrees_with_table(spec):
    g = Game.from_spec(spec)
    table = g.answer_table()
    rng = np.random.default_rng(7)
    for i, j in rng.integers(0, g.n_codes, (50, 2)):
        assert g.score_colours(g.code_colours(i), g.code_colours(j)) == table[i, j]


def test_big_black_white_answers():
    g = Game.from_spec("p256c256")
    guess = tuple(range(256))
    secret = tuple(range(1, 256)) + (0,)
    assert g.decode_answer(g.score_colours(guess, secret)) == (0, 256)
    assert g.decode_answer(g.parse_answer("100 30")) == (100, 30)
    assert g.answer_str(g.encode_answer(254, 2)) == "254B2W"
    assert g.is_possible_answer(g.encode_answer(254, 2))
    assert not g.is_possible_answer(g.encode_answer(255, 1))
    with pytest.raises(InvalidAnswerError, match="'255 1'"):
        g.parse_answer("255 1")
    # Two digits read as black and white only where no count has two digits.
    assert g.decode_answer(g.parse_answer("21 0")) == (21, 0)
    with pytest.raises(InvalidAnswerError):
        g.parse_answer("21")


def test_unpickled_games_share_one_instance_and_its_caches():
    """A worker receives its game with every task: the same rules give back the same
    instance, whose codes are built once; other rules give their own game."""
    import pickle

    bc = Game.from_spec("bulls-and-cows")
    first = pickle.loads(pickle.dumps(bc))
    assert first == bc and first is not bc
    codes = first.codes
    again = pickle.loads(pickle.dumps(bc))
    assert again is first and again.codes is codes
    other = pickle.loads(pickle.dumps(Game.from_spec("p4c10nb")))
    assert other != first and other.scoring == "black" and other.alphabet == "0123456789"
    assert other.codes.tolist() == codes.tolist()
    # The alphabet is part of the rules: a renamed game is not the one kept.
    renamed = pickle.loads(pickle.dumps(Game.from_spec("p4c10n", alphabet="ABCDEFGHIJ")))
    assert renamed.alphabet == "ABCDEFGHIJ" and renamed.code_str(0) == "ABCD"
    assert pickle.loads(pickle.dumps(bc)).alphabet == "0123456789"


def test_doctests():
    import doctest

    from optimal_mm import game

    result = doctest.testmod(game)
    assert result.attempted and not result.failed
