"""The large-n strategies of seed 004: detecting matrices, coin weighing, blocks."""

import doctest
import io
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from optimal_mm.cli import main
from optimal_mm.errors import (InconsistentAnswersError, InvalidAnswerError, InvalidGameError,
                               UnknownHeuristicError)
from optimal_mm.game import Game
from optimal_mm.largen import (STRATEGIES, BlackPegOracle, Blocks, CoinWeighing,
                               LargeCodebreaker, play, strategy_for)
from optimal_mm import largen
from optimal_mm.largen import blocks as blocks_mod
from optimal_mm.largen import coin_weighing, oracle, weighing
from optimal_mm.largen import strategy as strategy_mod
from optimal_mm.largen.weighing import (SEED_WEIGHINGS, DetectingMatrix, cover,
                                        lindstrom_family, seed_family, total_family,
                                        weighings_needed)

from script_loader import load_script


# ------------------------------------------------------------ detecting matrices
@pytest.mark.parametrize("family", [total_family, lindstrom_family, seed_family])
def test_small_matrices_are_detecting_by_brute_force(family):
    small = [m for m in family(4096) if m.n_coins <= 14]
    assert len(small) >= 2
    for m in small:
        assert m.is_detecting(), m.shape


def test_with_the_total_2k_minus_1_weighings_find_k_2k_minus_1_coins_and_one_more():
    # Lindstrom 1964/65, Cantor and Mills 1966: 2^k - 1 weighings for k 2^(k-1) coins;
    # with the total told for free (two-colour Mastermind's first question), one more
    for k, m in enumerate(total_family(4096)):
        assert m.shape == (2**k - 1, k * 2**(k - 1) + 1 if k else 1)
    assert weighings_needed(1024, total_known=True) == 2**8 - 1


def test_the_seeds_five_coins_in_four_weighings():
    # seed 004: A+D+E, B+D+E, C+E, A+B+C+D+E tell five coins apart
    assert DetectingMatrix(SEED_WEIGHINGS).is_detecting()
    assert not DetectingMatrix(SEED_WEIGHINGS[:3]).is_detecting()


def test_doubling_shapes_and_decoding_of_large_matrices():
    family = lindstrom_family(4096)
    for small, big in zip(family, family[1:]):
        m, n = small.shape
        assert big.shape == (2 * m + 1, 2 * n + m)
    rng = np.random.default_rng(12)
    for m in family[-3:] + seed_family(4096)[-2:] + total_family(4096)[-3:]:
        for _ in range(5):
            x = rng.integers(0, 2, m.n_coins)
            total = int(x.sum()) if m.needs_total else None
            assert m.decode(m.matrix.astype(np.int64) @ x, total).tolist() == x.tolist()


def test_decode_refuses_sums_no_vector_gives():
    m = lindstrom_family()[2]
    sums = m.matrix.astype(np.int64) @ np.ones(m.n_coins, dtype=np.int64)
    sums[0] += 1
    with pytest.raises(InconsistentAnswersError):
        m.decode(sums)


@pytest.mark.parametrize("n", [1, 2, 5, 10, 37, 100, 1024])
def test_cover_blocks_tile_the_coins(n):
    for total_known in (False, True):
        blocks = cover(n, total_known)
        start = 0
        for b in blocks:
            assert b.start == start and 1 <= b.width <= b.detector.n_coins
            start += b.width
        assert start == n


def test_weighings_grow_like_2n_over_log_n():
    # seed 004 (and Erdos-Renyi): about 2n / log2 n weighings; never more than naive
    for n in range(2, 200):
        assert weighings_needed(n, total_known=True) <= n - 1
    for n in (64, 256, 1024, 4096):
        ratio = weighings_needed(n, total_known=True) / (2 * n / math.log2(n))
        assert 1.0 <= ratio < 1.6, (n, ratio)


# ------------------------------------------------------------ coin weighing
@pytest.mark.parametrize("pegs", range(4, 13))
def test_coin_weighing_finds_every_secret_within_its_bound(pegs):
    bound = coin_weighing.guess_bound(pegs)
    assert bound <= pegs + 1                    # never worse than the naive walk
    fixed = coin_weighing.non_adaptive_questions(pegs)
    worst = 0
    for secret in itertools.product((0, 1), repeat=pegs):
        record = play(CoinWeighing(pegs, 2), BlackPegOracle(secret).ask)
        assert record.secret.tolist() == list(secret)
        worst = max(worst, record.guesses)
        # non-adaptive: every question but the last comes from the fixed list, in order
        asked = record.questions[:record.known_after]
        assert all(np.array_equal(q, f) for q, f in zip(asked, fixed))
    assert worst <= bound


def test_coin_weighing_plays_1024_pegs():
    rng = np.random.default_rng(1024)
    secret = rng.integers(0, 2, 1024)
    record = play(CoinWeighing(1024, 2), BlackPegOracle(secret).ask)
    assert record.secret.tolist() == secret.tolist()
    assert record.guesses <= coin_weighing.guess_bound(1024) < 1024 / 3


def test_lying_answers_are_reported():
    def liar(question):
        return int(question.sum() % 3)
    with pytest.raises(InconsistentAnswersError):
        play(CoinWeighing(12, 2), liar)
    with pytest.raises(InconsistentAnswersError):
        play(Blocks(6, 6), liar)


# ------------------------------------------------------------ blocks
@pytest.mark.parametrize("pegs", [4, 5])
def test_blocks_finds_every_secret_within_its_bound(pegs):
    bound = blocks_mod.guess_bound(pegs, pegs)
    worst = 0
    for secret in itertools.product(range(pegs), repeat=pegs):
        record = play(Blocks(pegs, pegs), BlackPegOracle(secret).ask)
        assert record.secret.tolist() == list(secret)
        worst = max(worst, record.guesses)
    assert worst <= bound


def test_blocks_plays_256_pegs_and_colours_in_n_log_log_n():
    rng = np.random.default_rng(256)
    n = 256
    for _ in range(2):
        secret = rng.integers(0, n, n)
        record = play(Blocks(n, n), BlackPegOracle(secret).ask)
        assert record.secret.tolist() == secret.tolist()
        # O(n log log n): a constant of 3 in front of n log2 log2 n (3 bits here)
        assert record.guesses < 3 * n * math.log2(math.log2(n))


def test_blocks_with_one_colour_everywhere_and_other_colour_counts():
    for pegs, colours in [(16, 16), (9, 4), (7, 30)]:
        for secret in (np.full(pegs, colours - 1), np.arange(pegs) % colours):
            record = play(Blocks(pegs, colours), BlackPegOracle(secret).ask)
            assert record.secret.tolist() == secret.tolist()


# ------------------------------------------------------------ registry and CLI
def test_strategy_for_refuses_games_it_does_not_play():
    assert set(STRATEGIES) == {"coin-weighing", "blocks"}
    with pytest.raises(InvalidGameError, match="pNc2b"):
        strategy_for("coin-weighing", 8, 3)
    with pytest.raises(InvalidGameError, match="black-peg"):
        strategy_for("blocks", 8, 8, black_only=False)
    with pytest.raises(UnknownHeuristicError, match="'weigh'"):
        strategy_for("weigh", 8, 2)


def _secret_text(game, colours):
    return game.format_code(colours)


@pytest.mark.parametrize("spec,name", [("p64c2b", "coin-weighing"), ("p1024c2b", "coin-weighing"),
                                       ("p256c256b", "blocks"), ("p12c12b", "blocks")])
def test_cli_plays_to_the_secret(spec, name, capsys):
    game = Game.from_spec(spec)
    rng = np.random.default_rng(game.pegs)
    secret = _secret_text(game, rng.integers(0, game.colours, game.pegs))
    assert main(["play", spec, "--heuristic", name, "--secret", secret]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"Strategy: the {name} strategy")
    assert out[-2].endswith(f"{game.pegs}B") and secret in out[-2]
    assert out[-1].startswith(f"Found {secret} in ")


@pytest.mark.parametrize("spec,name", [("p64c2b", "coin-weighing"), ("p256c256b", "blocks")])
def test_cli_default_for_games_too_big_to_list_is_the_theorys_strategy(spec, name, capsys):
    game = Game.from_spec(spec)
    assert not game.is_enumerable
    rng = np.random.default_rng(game.pegs + 1)
    secret = _secret_text(game, rng.integers(0, game.colours, game.pegs))
    assert main(["play", spec, "--secret", secret]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"Strategy: the {name} strategy") and "too big to list" in out[0]
    assert out[-1].startswith(f"Found {secret} in ")


@pytest.mark.parametrize("spec,name", [("p8c8", "blocks"), ("p8c3b", "coin-weighing"),
                                       ("p6c2", "coin-weighing")])
def test_cli_refuses_other_games_in_one_line(spec, name, capsys):
    assert main(["play", spec, "--heuristic", name, "--secret", "1" * int(spec[1])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--heuristic {name} plays only" in err


def test_cli_interactive_reads_black_pegs(monkeypatch, capsys):
    game = Game.from_spec("p6c2b")
    secret = (1, 0, 0, 1, 1, 0)
    answers = []
    for q in coin_weighing.non_adaptive_questions(6) + [np.array(secret)]:
        answers.append(f"{game.score_colours(tuple(q), secret)}\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("oops\n" + "".join(answers)))
    assert main(["play", "p6c2b", "--heuristic", "coin-weighing"]) == 0
    out = capsys.readouterr().out
    assert "try again" in out and f"Found {game.format_code(secret)}" in out


def test_cli_interactive_quit_and_end_of_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("3\nquit\n"))
    assert main(["play", "p6c6b", "--heuristic", "blocks"]) == 0
    assert "Stopped after 1 guess" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n"))
    assert main(["play", "p6c6b", "--heuristic", "blocks"]) == 1
    assert "end of input" in capsys.readouterr().err


# ------------------------------------------------------------ answers that contradict
def test_a_refused_answer_leaves_the_game_as_it_was():
    game = LargeCodebreaker(CoinWeighing(4, 2))
    game.tell(2)
    with pytest.raises(InconsistentAnswersError, match="guesses 1 and 2 contradict") as caught:
        game.tell(0)                   # one peg changed: the answer moves by exactly 1
    assert caught.value.conflict == (0, 1)
    assert game.answers == [2] and game.next_guess().tolist() == [1, 0, 0, 0]
    with pytest.raises(InvalidAnswerError):
        game.tell(5)
    game.tell(1)
    assert game.answers == [2, 1]


def test_undo_and_correct_replay_the_answers():
    game = LargeCodebreaker(Blocks(4, 4))          # secret 4133: [3, 0, 2, 2]
    for answer in [1, 1, 0, 1, 1, 2, 1, 0]:
        game.tell(answer)
    assert game.secret.tolist() == [3, 0, 2, 2]
    assert game.undo() == 0 and game.secret is None and game.guesses == 7
    # position 3 of colour 2 instead: the blocks after it are asked anew
    assert game.correct(3, 2) == 2
    assert game.answers == [1, 1, 0, 2, 1] and game.next_guess().tolist() == [2, 1, 0, 2]
    with pytest.raises(InvalidAnswerError, match="ended the game"):
        game.correct(0, 4)
    with pytest.raises(InconsistentAnswersError):
        game.correct(2, 1)                         # then no peg has colour 1: nothing changes
    assert game.answers == [1, 1, 0, 2, 1]


def test_an_all_black_answer_must_agree_with_the_earlier_ones():
    game = LargeCodebreaker(CoinWeighing(4, 2))
    game.tell(1)
    with pytest.raises(InconsistentAnswersError, match="if guess 2 is the secret") as caught:
        game.tell(4)                               # 2111 scores 3 against 1111, not 1
    assert caught.value.conflict == (0, 1) and not game.solved


@pytest.mark.parametrize("seed", range(30))
def test_a_wrong_answer_is_always_found_and_mended(seed):
    # a person who errs once, then mends the answer when told of a contradiction,
    # always ends with the true secret
    rng = np.random.default_rng(seed)
    for strategy in (CoinWeighing(6, 2), Blocks(5, 5)):
        secret = rng.integers(0, strategy.colours, strategy.pegs)
        oracle = BlackPegOracle(secret)
        game = LargeCodebreaker(strategy)
        lie_at = int(rng.integers(0, 6))
        wrong = None
        while not game.solved:
            truth = oracle.ask(game.next_guess())
            answer = truth
            if game.guesses == lie_at and wrong is None:
                wrong = int(rng.choice([a for a in range(strategy.pegs) if a != truth]))
                answer = wrong
            try:
                game.tell(answer)
            except InconsistentAnswersError:
                if answer == truth:                 # the lie was kept: mend it
                    game.correct(lie_at, oracle.ask(game.questions[lie_at]))
                continue
        assert game.secret.tolist() == secret.tolist()


# The ordinary players refuse contradictory answers and ask again (docs/COMMANDS.md,
# "answers that no secret satisfies together are reported with the chance to re-enter
# the last one"); so do the large-game strategies.
def _play_large(monkeypatch, capsys, spec, name, lines):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", spec, "--heuristic", name])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_coin_weighing_reports_a_contradiction_and_asks_again(monkeypatch, capsys):
    code, out, err = _play_large(monkeypatch, capsys, "p4c2b", "coin-weighing",
                                 ["2", "0", "1", "3", "1", "4"])
    assert code == 0, err
    assert ("  The answers to guesses 1 and 2 contradict each other: guess 2 changes 1 peg "
            "of guess 1, so its answer must be 1 or 3, not 0.\n") in out
    assert ("  Enter your answer to 2111 again, 'fix 1 ANSWER' to correct your answer to "
            "guess 1, or 'undo' to take back the last one.\nYour answer> 1\n") in out
    assert "Found 1212 in 5 guesses" in out
    code, out, err = _play_large(monkeypatch, capsys, "p4c2b", "coin-weighing", ["2", "0"])
    assert code == 1 and "contradict each other" in out and "error" not in err


def test_cli_coin_weighing_contradiction_found_late_offers_undo(monkeypatch, capsys):
    code, out, err = _play_large(monkeypatch, capsys, "p4c2b", "coin-weighing",
                                 ["2", "1", "3", "3", "2", "undo", "1", "4"])
    assert code == 0, err
    assert ("  The answers so far contradict each other: those to guesses 1 to 4 leave only "
            "one secret, guess 5, so its answer must be 4, not 2.\n") in out
    assert "or 'undo' to take back the last one." in out
    assert "  Took back 3B to 1121.\nGuess 4: 1121\n" in out
    assert "Found 1212 in 5 guesses" in out


def test_cli_blocks_reports_a_contradiction_and_asks_again(monkeypatch, capsys):
    code, out, err = _play_large(monkeypatch, capsys, "p4c4b", "blocks", ["2"] * 8)
    assert code == 1 and "error" not in err and "end of input" in err
    message = ("  The answers to guesses 1 to 4 contradict each other: guess 1 scored 2, so 2 "
               "pegs of the secret have the colour of guess 1, but guesses 2 to 4 leave room "
               "for only 1.\n")
    assert out.count(message) == 5                 # each answer to guess 4 again is refused
    assert "Guess 5" not in out and "or 'undo' to take back the last one." in out


def test_cli_blocks_fix_mends_an_earlier_answer(monkeypatch, capsys):
    code, out, err = _play_large(monkeypatch, capsys, "p4c4b", "blocks",
                                 ["2", "1", "0", "fix 1 1", "0", "1", "1", "2", "1", "0", "4"])
    assert code == 0, err
    assert ("  The answers to guesses 1 and 3 contradict each other: guess 3 changes 1 peg "
            "of guess 1, so its answer must be 1, 2 or 3, not 0.\n") in out
    assert "  Corrected: 1111 1B.\nGuess 3: 1211\n" in out
    assert "Found 4133 in 9 guesses" in out


# ------------------------------------------------------------ doctests, results, benchmark
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("module", [largen, weighing, oracle, coin_weighing, blocks_mod,
                                    strategy_mod])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_shipped_largen_results_hold():
    path = ROOT / "results" / "largen.json"
    if not path.exists():
        pytest.skip("results/largen.json not generated")
    doc = json.loads(path.read_text())
    assert doc["command"].startswith("python scripts/bench_largen.py")
    for row in doc["rows"]:
        n = row["n"]
        assert row["coin-weighing"]["max"] <= coin_weighing.guess_bound(n)
        assert row["blocks"]["max"] <= blocks_mod.guess_bound(n, n)
        assert row["2n/log2n"] == round(2 * n / math.log2(n), 1)


def test_benchmark_script_writes_table_and_json(tmp_path):
    bench = load_script("bench_largen")
    assert bench.main(["--results", str(tmp_path), "--sizes", "8", "32", "--secrets", "2",
                       "--consistent-max-pegs", "0"]) == 0
    doc = json.loads((tmp_path / "largen.json").read_text())
    assert [r["n"] for r in doc["rows"]] == [8, 32]
    table = (tmp_path / "largen.md").read_text()
    assert "| 32 | 12.8 | 74.3 |" in table
    # Installed, but asked to play no size here: said so (before, "was not installed")
    assert "played none of these sizes" in table and "not installed" not in table


@pytest.mark.parametrize("seed", range(20))
def test_random_lies_never_escape_as_other_errors(seed):
    rng = np.random.default_rng(seed)
    for strategy in (CoinWeighing(10, 2), Blocks(7, 7)):
        oracle = BlackPegOracle(rng.integers(0, strategy.colours, strategy.pegs))
        lie_at = int(rng.integers(1, 12))

        def ask(question):
            answer = oracle.ask(question)
            return int(rng.integers(0, strategy.pegs + 1)) if oracle.questions == lie_at \
                else answer
        try:
            record = play(strategy, ask)
        except InconsistentAnswersError:
            continue
        assert record.answers[-1] == strategy.pegs      # else play() must have refused
