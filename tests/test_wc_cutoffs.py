"""The worst-case search's cutoffs keep its answers exact.

Two cutoffs skip a guess without searching it through: the transposition table's
(a part already known infeasible) and, with any guesses, the remembered refuting
parts (a part that holds a set already proven too big is too big itself: a tree
for the bigger set would solve the smaller one). Both are checked here against a
brute-force minimax written independently of the package, on positions of
black-only games (where the refuting parts are most often kept together) and of a
black-and-white one, with any and with consistent guesses. With consistent guesses
the second cutoff would be wrong (a superset allows guesses the part did not), so
the search does not use it there: the last test shows a set of p3c3b that needs more
consistent guesses than a superset of it.
"""

from __future__ import annotations

import contextlib
import random
import zlib
from functools import lru_cache

import pytest

from optimal_mm import Game
from optimal_mm.advice import Advisor
from optimal_mm.history import Turn


def brute_worst(game: Game, secrets, consistent: bool) -> int:
    """The fewest guesses that always find a secret of ``secrets``, by minimax over
    every guess (the secrets themselves, with ``consistent``)."""
    n = game.n_codes
    answers = [[game.score(g, s) for s in range(n)] for g in range(n)]
    win = answers[0][0]

    @lru_cache(maxsize=None)
    def value(state: frozenset) -> int:
        if len(state) <= 1:
            return len(state)
        best = None
        for g in (sorted(state) if consistent else range(n)):
            parts = {}
            for s in state:
                a = answers[g][s]
                if a != win:
                    parts.setdefault(a, []).append(s)
            if len(parts) == 1 and g not in state and len(next(iter(parts.values()))) == len(state):
                continue  # no information
            worst = max((value(frozenset(p)) for p in parts.values()), default=0)
            cost = 1 + worst
            if best is None or cost < best:
                best = cost
        return best

    return value(frozenset(int(s) for s in secrets))


def positions(game: Game, count: int, seed: int):
    """Histories of one or two random guesses against a random secret that leave
    at least 6 secrets."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        secret = rng.randrange(game.n_codes)
        turns, left = [], list(range(game.n_codes))
        for _ in range(rng.choice((1, 2))):
            g = rng.randrange(game.n_codes)
            a = game.score(g, secret)
            turns.append(Turn(game.code_str(g), a))
            left = [s for s in left if game.score(g, s) == a]
        if len(left) >= 6:
            found.append((turns, left))
    return found


@pytest.mark.parametrize("spec, guesses", [("p3c4b", "any"), ("p4c3b", "any"),
                                           ("p3c4b", "consistent"), ("p4c3b", "consistent"),
                                           ("p3c4", "any")])
def test_worst_case_values_match_brute_force(spec, guesses):
    game = Game.from_spec(spec)
    advisor = Advisor(game, guesses, time_limit=None, strategy=None)
    for turns, left in positions(game, 6, seed=zlib.crc32(f"{spec}/{guesses}".encode())):
        advice = advisor.advise(turns, "worst-case")
        assert advice.proven
        assert advice.value == brute_worst(game, left, guesses == "consistent"), (
            spec, guesses, [(t.guess, t.answer) for t in turns])


@pytest.mark.parametrize("spec", ["p3c3b", "p2c5b", "p3c4nb",  # twins: test_twins.py
                                  pytest.param("p3c4b", marks=pytest.mark.slow)])
@pytest.mark.parametrize("guesses", ["any", "consistent"])
def test_whole_small_games_match_brute_force(spec, guesses):
    from optimal_mm.search import solve

    game = Game.from_spec(spec)
    sol = solve(game, "worst-case", guesses=guesses, jobs=1)
    assert sol.value == brute_worst(game, range(game.n_codes), guesses == "consistent")


def test_a_superset_can_need_fewer_consistent_guesses():
    """{312, 321, 111} of p3c3b: no code of the set tells the other two apart, so
    three consistent guesses are needed; 113 (added as a possible secret) tells all
    four apart at once, two guesses. With any guesses a superset never needs fewer."""
    game = Game.from_spec("p3c3b")
    part = [game.code_index(c) for c in ("312", "321", "111")]
    bigger = part + [game.code_index("113")]
    assert brute_worst(game, part, True) == 3 and brute_worst(game, bigger, True) == 2
    assert brute_worst(game, part, False) <= brute_worst(game, bigger, False)


def test_refuter_cuts_are_counted_on_their_own(tmp_path):
    """A guess dropped by a remembered refuting part reads no table and computes no
    partition: it is counted as a cut of its own (``--stats`` names it), never as a
    table hit. The cut is off with consistent guesses, so none is counted there."""
    from optimal_mm.cli import main
    from optimal_mm.search import solve

    game = Game.from_spec("p3c6b")
    cut = solve(game, "worst-case", guesses="any", jobs=1)
    assert cut.stats.refuter_cuts > 0
    assert solve(game, "worst-case", guesses="consistent", jobs=1).stats.refuter_cuts == 0
    out = tmp_path / "out.txt"
    with open(out, "w") as f, contextlib.redirect_stdout(f):
        assert main(["solve", "p3c6b", "--objective", "worst-case", "--jobs", "1", "--stats",
                     "--quiet", "-o", str(tmp_path / "t.json")]) in (0, None)
    assert f"guesses cut by refuting parts {cut.stats.refuter_cuts:,}" in out.read_text()
