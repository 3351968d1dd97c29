"""Heuristic strategies: published totals, validity on every kind of game, options."""


import numpy as np
import pytest

from optimal_mm import Game, InvalidCodeError, Strategy
from optimal_mm.errors import InvalidOptionError, OptimalMMError, UnknownHeuristicError
from optimal_mm.heuristics import (HEURISTICS, build_strategy, make_chooser,
                                   pattern_representatives)


def test_knuth_reproduces_published_figures(mastermind):
    # Knuth 1977, "The computer as Master Mind"; the figures as given in
    # shared/REFERENCE.md: first guess 1122, minimise the largest part, prefer a
    # guess that may be the secret, then the lowest code -> total 5801, max 5,
    # depth counts 1/6/62/533/694.
    tree = build_strategy(mastermind, "knuth", first="1122")
    stats = tree.validate()
    assert tree.root.guess == "1122"
    assert (stats.total, stats.max, stats.depth_counts) == (5801, 5, (1, 6, 62, 533, 694))


def test_knuth_rule_picks_1122_by_itself(mastermind):
    # Unforced, the rule scores every first guess: 1122 has the smallest largest
    # part (256 secrets) and the lowest index among such codes, so first=None plays
    # 1122 and builds the very same tree as first="1122".
    forced = build_strategy(mastermind, "knuth", first="1122")
    natural = build_strategy(mastermind, "knuth")
    assert natural.root.guess == "1122"
    assert natural.root.to_dict() == forced.root.to_dict()


@pytest.mark.parametrize("name, first, total", [
    # shared/REFERENCE.md (Kooi 2005, Irving 1979, Neuwirth 1982); tie-break as ours.
    ("most-parts", "1123", 5668),
    ("expected-size", "1123", 5696),
    ("entropy", "1234", 5722),
])
def test_other_published_heuristics(mastermind, name, first, total):
    tree = build_strategy(mastermind, name)
    assert tree.root.guess == first
    assert tree.validate().total == total


@pytest.mark.parametrize("spec", ["p3c3", "p2c5", "p3c4n", "p4c5n", "p3c4b", "p4c5nb", "p1c4"])
@pytest.mark.parametrize("name", HEURISTICS)
def test_every_heuristic_validates_on_small_games(spec, name):
    game = Game.from_spec(spec)
    tree = build_strategy(game, name, seed=3)
    stats = tree.validate()
    assert stats.secrets == game.n_codes
    assert tree.objective == name and tree.optimal is False
    assert tree.guesses == ("consistent" if name.endswith("consistent") else "any")
    assert tree.meta["solver"].startswith("optimal_mm ")
    # The document round-trips through the interchange format.
    again = Strategy.from_dict(tree.to_dict())
    assert again.validate() == stats


@pytest.mark.parametrize("name", HEURISTICS)
def test_every_heuristic_validates_on_mastermind(mastermind, name):
    stats = build_strategy(mastermind, name).validate()
    assert stats.secrets == 1296 and stats.total >= 5625  # 5625 is optimal (Koyama-Lai)


@pytest.mark.parametrize("name", HEURISTICS)
def test_first_guess_is_forced(name):
    game = Game.from_spec("p3c4")
    tree = build_strategy(game, name, first="344")
    tree.validate()
    assert tree.root.guess == "344"
    choose = make_chooser(game, name, first="344")
    all_codes = np.arange(game.n_codes, dtype=np.int64)
    assert game.code_str(choose(all_codes, 1)) == "344"
    # Only at the root: later depths, or a partial set, follow the rule.
    assert game.code_str(choose(all_codes[:5], 1)) != "344"


def test_random_consistent_is_deterministic():
    game = Game.from_spec("p4c5")
    a = build_strategy(game, "random-consistent", seed=7)
    b = build_strategy(game, "random-consistent", seed=7)
    c = build_strategy(game, "random-consistent", seed=8)
    assert a.root.to_dict() == b.root.to_dict()
    assert a.root.to_dict() != c.root.to_dict()
    # A live game reaches a node with the same set, perhaps in another order,
    # perhaps at another depth: it plays the same code.
    choose = make_chooser(game, "random-consistent", seed=7)
    secrets = np.arange(0, game.n_codes, 7, dtype=np.int64)
    pick = choose(secrets, 3)
    assert pick in secrets
    assert choose(secrets[::-1].copy(), 3) == pick == choose(secrets, 5)


SCORING = ("knuth", "entropy", "most-parts", "expected-size")


@pytest.mark.parametrize("spec", ["p3c4", "p4c5nb", "p4c4b"])
@pytest.mark.parametrize("name", SCORING)
def test_a_scoring_heuristic_restricted_to_consistent_guesses(spec, name):
    game = Game.from_spec(spec)
    tree = build_strategy(game, name, consistent=True)
    # validate() refuses a consistent-guesses tree with a guess its node's answers
    # have ruled out: every guess below the root is one of its node's secrets.
    stats = tree.validate()
    assert tree.guesses == "consistent" and tree.meta["consistent"] is True
    assert stats.secrets == game.n_codes
    free = build_strategy(game, name)
    assert free.guesses == "any" and free.meta["consistent"] is False
    # The first guess scores every pattern either way (every code is possible then).
    assert tree.root.guess == free.root.guess


def test_the_restriction_picks_among_the_secrets_only(mastermind):
    secrets = np.array([1, 2, 7, 43, 258, 1000])
    guess = make_chooser(mastermind, "knuth", consistent=True)(secrets, 3)
    assert guess in secrets
    with pytest.raises(InvalidOptionError, match="logik"):
        make_chooser(mastermind, "logik", consistent=True)


def test_shortcuts_and_consistency(mastermind):
    for name in HEURISTICS:
        choose = make_chooser(mastermind, name)
        assert choose(np.array([900, 17]), 4) == 17
        assert choose(np.array([5]), 6) == 5
    first = make_chooser(mastermind, "first-consistent")
    assert first(np.array([40, 30, 50]), 2) == 30


def test_pattern_representatives():
    mm = Game.from_spec("mastermind")
    assert len(pattern_representatives(mm)) == 15  # Bell(4) restricted-growth codes
    assert [Game.from_spec("p4c10n").code_str(i)
            for i in pattern_representatives(Game.from_spec("p4c10n"))] == ["0123"]
    assert len(pattern_representatives(Game.from_spec("p3c2"))) == 4  # 111 112 121 122


def test_root_shortcut_matches_full_scoring(mastermind):
    # Scoring only the pattern representatives at the root chooses what scoring
    # every code would.
    from optimal_mm.game import partition_counts
    from optimal_mm.heuristics import _pick, partition_keys

    everything = np.arange(mastermind.n_codes, dtype=np.int64)
    for name in ("knuth", "entropy", "most-parts", "expected-size"):
        keys = partition_keys(name, partition_counts(mastermind, everything, everything), 1296)
        full = _pick(keys, everything, everything)
        assert make_chooser(mastermind, name)(everything, 1) == full


@pytest.mark.parametrize("name", ["entropy", "knuth", "logik"])
def test_a_move_cut_by_the_clock_is_reported(name):
    # p6c7 (117,649 codes, no answer table): with a tiny budget every scoring move,
    # the first included, plays the best of what it scored and says it was cut.
    game = Game.from_spec("p6c7")
    choose = make_chooser(game, name, move_time=1e-6)
    everything = np.arange(game.n_codes, dtype=np.int64)
    g = choose(everything, 1)
    assert choose.last_move.cut_short is (name != "logik")  # logik opens with 112233
    answers = game.answers(g, everything)
    part = everything[answers == np.bincount(answers).argmax()]
    g2 = choose(part, 2)
    move = choose.last_move
    assert 0 <= g2 < game.n_codes
    if name == "logik" and len(part) >= 2000:
        assert g2 == part[0] and not move.cut_short   # first consistent: nothing to cut
    else:
        assert move.cut_short and 1 <= move.scored < move.candidates
        assert "cut short" in move.describe()


def test_uncut_moves_say_so(mastermind):
    choose = make_chooser(mastermind, "knuth")
    everything = np.arange(mastermind.n_codes, dtype=np.int64)
    choose(everything, 1)
    assert not choose.last_move.cut_short
    assert choose.last_move.scored == choose.last_move.candidates == 15  # 15 patterns


def test_big_root_ranks_patterns_before_scoring():
    # p8c8's root: 4,140 colour patterns, each scored against 16.8 million codes; a
    # tight budget still plays a pattern ranked good on a sample, not the first one.
    from optimal_mm.heuristics import pattern_representatives

    game = Game.from_spec("p7c7")
    reps = pattern_representatives(game)
    choose = make_chooser(game, "entropy", move_time=1e-6)
    g = choose(np.arange(game.n_codes, dtype=np.int64), 1)
    assert choose.last_move.cut_short and g in reps and g != reps[0]
    assert len(set(game.code_colours(g))) >= 4


def test_unknown_heuristic_and_bad_first(mastermind):
    with pytest.raises(UnknownHeuristicError) as info:
        make_chooser(mastermind, "minimax")
    message = str(info.value)
    assert "'minimax'" in message and "knuth" in message and "\n" not in message
    assert isinstance(info.value, OptimalMMError) and isinstance(info.value, ValueError)
    with pytest.raises(InvalidCodeError):
        build_strategy(mastermind, "knuth", first="1127")


@pytest.mark.slow
@pytest.mark.parametrize("name", HEURISTICS)
def test_bulls_and_cows_trees(bulls, name):
    stats = build_strategy(bulls, name).validate()
    assert stats.secrets == 5040 and stats.total >= 26274  # optimal: Tanaka 1996


# ------------------------------------------------------------ the Logik rule
def test_logik_rule_on_mastermind(mastermind):
    # Seed 002: open 1122; first consistent code while >= 2000 remain (never in
    # Mastermind after 1122: the largest part has 256); then Knuth's minimax over
    # all 1296 codes, a possible secret first, then the lowest code: Knuth's rule.
    logik = build_strategy(mastermind, "logik")
    knuth = build_strategy(mastermind, "knuth", first="1122")
    assert logik.root.guess == "1122"
    assert logik.validate().total == knuth.validate().total == 5801
    assert logik.root.to_dict() == knuth.root.to_dict()


def test_logik_plays_first_consistent_above_the_threshold():
    from optimal_mm.heuristics import LOGIK_THRESHOLD

    game = Game.from_spec("p5c8")
    choose = make_chooser(game, "logik")
    everything = np.arange(game.n_codes, dtype=np.int64)
    first = choose(everything, 1)
    assert game.code_str(first) == "11223"
    answers = game.answers(first, everything)
    big = everything[answers == np.bincount(answers).argmax()]
    assert len(big) >= LOGIK_THRESHOLD and choose(big, 2) == big[0]
    small = big[:LOGIK_THRESHOLD - 1]
    g = choose(small, 3)
    assert g in small    # minimax among the remaining codes only (p5c8 has > 2000 codes)
