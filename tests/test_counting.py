"""Histories up to symmetry: Burnside's count against brute-force orbits, the group
that preserves each scoring, the survey's figures and the ``symmetry`` command."""

import doctest
import itertools
import json
from math import comb

import numpy as np
import pytest

from optimal_mm import Game, counting
from optimal_mm.cli import main
from optimal_mm.counting import SymmetryGroup, count_histories
from optimal_mm.errors import InvalidOptionError
from optimal_mm.symmetry import orbit_representatives

from processes import fresh_python


def code_permutations(game, per_position):
    """Every element of the group as a permutation of code indices (``-1`` where an
    image is not a code of the game), listed element by element: position
    permutations with one colour renaming, or one per position."""
    codes = game.codes.astype(np.int64)
    pegs, colours = game.pegs, game.colours
    lookup = np.full(colours**pegs, -1, dtype=np.int64)
    weights = colours ** np.arange(pegs - 1, -1, -1)
    lookup[codes @ weights] = np.arange(game.n_codes)
    colour_perms = [np.array(s) for s in itertools.permutations(range(colours))]
    renamings = (itertools.product(colour_perms, repeat=pegs) if per_position
                 else ([s] * pegs for s in colour_perms))
    renamings = list(renamings)
    out = []
    for pi in itertools.permutations(range(pegs)):
        for sigmas in renamings:
            image = np.empty_like(codes)
            for i in range(pegs):
                image[:, pi[i]] = sigmas[i][codes[:, i]]
            out.append(lookup[image @ weights])
    return out


def brute_force_orbits(game, depth, perms):
    """Orbits of the histories of ``depth`` (guess, answer) pairs, by listing every
    history with its answers and taking the least image under every element."""
    n, answers = game.n_codes, len(game.possible_answers)
    base = n * answers
    histories = np.arange(base**depth, dtype=np.int64)
    digits = [(histories // base**k) % base for k in range(depth)]
    least = histories.copy()
    for perm in perms:
        image = np.zeros_like(histories)
        for k, digit in enumerate(digits):
            guess, answer = digit // answers, digit % answers
            image += (perm[guess] * answers + answer) * base**k
        np.minimum(least, image, out=least)
    return len(np.unique(least))


CASES = [("p2c3", 1), ("p2c3", 2), ("p2c3", 3), ("p3c2", 3), ("p2c2", 4), ("p2c4n", 2),
         ("p3c3n", 2), ("p2c3b", 2), ("p3c2b", 3), ("p3c3b", 2), ("p3c4nb", 2)]


@pytest.mark.parametrize("spec, depth", CASES)
def test_burnside_matches_brute_force(spec, depth):
    game = Game.from_spec(spec)
    group = SymmetryGroup.of(game)
    perms = code_permutations(game, group.per_position)
    assert len(perms) == group.order
    count = count_histories(game, depth)
    assert count.histories == (game.n_codes * len(game.possible_answers)) ** depth
    assert count.orbits == brute_force_orbits(game, depth, perms)


@pytest.mark.parametrize("spec", ["p2c3", "p3c3n", "p3c3b", "p3c4nb", "p2c4"])
def test_group_preserves_the_scoring(spec):
    game = Game.from_spec(spec)
    table = game.answer_table()
    perms = code_permutations(game, SymmetryGroup.of(game).per_position)
    for perm in perms:
        assert (perm >= 0).all()
        assert len(np.unique(perm)) == game.n_codes
        assert np.array_equal(table[np.ix_(perm, perm)], table)


def test_per_position_renamings_break_the_other_scorings():
    # Black-white scoring: renaming one position's colours changes some white count.
    game = Game.from_spec("p2c3")
    table = game.answer_table()
    assert any(not np.array_equal(table[np.ix_(p, p)], table)
               for p in code_permutations(game, per_position=True))
    # Without repeats: it makes codes that repeat a colour, outside the game.
    game = Game.from_spec("p3c3nb")
    assert any((p < 0).any() for p in code_permutations(game, per_position=True))
    assert SymmetryGroup.of(game).name == "S3 x S3"


def test_first_guess_classes_agree_with_the_search(mastermind, bulls):
    for game in (mastermind, bulls, Game.from_spec("p5c4"), Game.from_spec("p4c8n")):
        count = count_histories(game, 1)
        assert count.guess_orbits == len(orbit_representatives(game, []))
        assert count.orbits == len(game.possible_answers) * count.guess_orbits


@pytest.mark.parametrize("spec", ["p3c5b", "p4c3b", "p2c6b"])
def test_wreath_product_closed_form(spec):
    # Renaming each position's colours apart makes a D-tuple of codes a multiset of
    # P columns, each a D-tuple of colours up to renaming (a set partition of the D
    # rows into at most C blocks): C(B + P - 1, P) orbits, B = sum of S(D, k), k <= C.
    game = Game.from_spec(spec)

    def stirling2(n, k):
        if n == k:
            return 1
        if k == 0 or k > n:
            return 0
        return k * stirling2(n - 1, k) + stirling2(n - 1, k - 1)

    for depth in range(1, 6):
        blocks = sum(stirling2(depth, k) for k in range(min(depth, game.colours) + 1))
        assert (SymmetryGroup.of(game).orbits_of_tuples(depth)
                == comb(blocks + game.pegs - 1, game.pegs))


def test_survey_figures(mastermind):
    # D. Pawlik, A. Zabłocki, "Rozważmy Masterminda" (Delta; seeds/004): the states at
    # depth 3 number (1296 * 14)**3, "about 5.9 trillion", and renaming colours and/or
    # positions leaves "about 415 million", "over 10000 times" fewer.
    count = count_histories(mastermind, 3)
    assert count.answers == 14
    assert count.histories == (1296 * 14) ** 3
    assert count.histories // 10**11 == 59          # 5.97 trillion, written 5.9
    assert round(count.orbits / 10**6) == 415
    assert count.ratio > 10_000


def test_doctests():
    result = doctest.testmod(counting)
    assert result.attempted and not result.failed


def test_bad_depth():
    with pytest.raises(InvalidOptionError, match="-1"):
        count_histories(Game.from_spec("p2c3"), -1)


def test_cli_table_and_json(capsys):
    assert main(["symmetry", "mastermind", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "S6 x S4" in out and "17,280" in out
    assert "5,973,090,729,984" in out and "414,988,840" in out
    assert main(["symmetry", "p3c5b", "--depth", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["depth"] for d in data["depths"]] == [1, 2]
    assert data["depths"][1]["group"] == "S5 wr S3"
    assert data["depths"][1]["orbits"] == count_histories(Game.from_spec("p3c5b"), 2).orbits


@pytest.mark.parametrize("argv, needle", [(["symmetry", "mastermind", "--depth", "0"], "got 0"),
                                          (["symmetry", "p9z", "--depth", "1"], "'p9z'")])
def test_cli_errors(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and needle in err


def test_shipped_table_matches_the_library():
    # results/symmetry.json is written by scripts/symmetry_table.py.
    from pathlib import Path
    doc = json.loads((Path(__file__).parent.parent / "results" / "symmetry.json").read_text())
    game = Game.from_spec(doc["game"])
    for row in doc["histories"]:
        assert row == count_histories(game, row["depth"]).to_dict()
    assert doc["search_levels"]["first_guesses"]["with"] == len(orbit_representatives(game, []))


def test_cli_builds_only_the_invoked_commands_parser():
    # Running one command imports only its own module (start-up of small games);
    # the full parser, for --help, still lists every command.
    out = fresh_python(
        "import sys; from optimal_mm.cli import main, build_parser; "
        "main(['symmetry', 'p2c3', '--depth', '1']); "
        "print(sorted(m for m in sys.modules if m.startswith('optimal_mm.cli.'))); "
        "print(build_parser().format_help())")
    assert "['optimal_mm.cli.symmetry_cmds']" in out
    for command in ("solve", "strategy", "analyze", "verify", "play", "symmetry"):
        assert command in out.split("['optimal_mm.cli.symmetry_cmds']")[1]
