"""States keyed by their normal form.

With black-only scoring a black is a position where guess and secret agree, so
renaming each position's colours on its own and permuting the positions keeps every
answer, and with repeats every code maps to a code. The transposition table keys
such a state by an image of it under one of these maps
(:func:`optimal_mm._search_keys._normal_form`), shared by many symmetric states. These
tests check that the image is in the state's orbit, and that values found through
the shared keys equal those of a search that keys every state by itself (symmetry
off) and those of symmetric images of the state.

Every other game keys its states by their image under one colour permutation and
one position permutation, the symmetries of every game
(:func:`optimal_mm._search_keys._global_form`); the same checks apply.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from optimal_mm import Game, _search_keys
from optimal_mm._search_arrays import INF, NO_CAP
from optimal_mm.search_context import _context


def blacks(game: Game, a: int, b: int) -> int:
    return int(np.sum(game.codes[a] == game.codes[b]))


def random_state(game: Game, rng: random.Random, size: int) -> np.ndarray:
    """The secrets left after a guess or two, cut to at most ``size``."""
    secret = rng.randrange(game.n_codes)
    left = np.arange(game.n_codes)
    for _ in range(rng.choice((1, 2))):
        g = rng.randrange(game.n_codes)
        left = left[[game.score(g, s) == game.score(g, secret) for s in left]]
    if len(left) > size:
        left = np.sort(np.array(rng.sample(list(left), size)))
    return left.astype(np.int64)


def apply_symmetry(game: Game, S, positions, colours) -> np.ndarray:
    """The image of ``S`` when position p moves to ``positions[p]`` and colour c at
    position p becomes ``colours[p][c]``."""
    P, C = game.pegs, game.colours
    out = []
    for s in S:
        image = [0] * P
        for p in range(P):
            image[positions[p]] = colours[p][game.codes[s, p]]
        out.append(sum(c * C ** (P - 1 - q) for q, c in enumerate(image)))
    return np.array(sorted(out), dtype=np.int64)


def random_symmetry(game: Game, rng: random.Random):
    positions = list(range(game.pegs))
    rng.shuffle(positions)
    colours = []
    for _ in range(game.pegs):
        perm = list(range(game.colours))
        rng.shuffle(perm)
        colours.append(perm)
    return positions, colours


def orbit_invariant(game: Game, S) -> tuple:
    """What every map of the group keeps: the multiset of each position's colour
    counts (as a sorted profile), and the multiset of pairwise blacks."""
    profiles = sorted(tuple(sorted(np.bincount(game.codes[S, p], minlength=game.colours),
                                   reverse=True)) for p in range(game.pegs))
    pairs = sorted(blacks(game, a, b) for a, b in itertools.combinations(S.tolist(), 2))
    return tuple(profiles), tuple(pairs)


def documented_map(game: Game, S):
    """The map the normal form is documented to apply: each position's colours
    ranked by their count in ``S`` (ties: the lower colour first), the positions by
    their ranked counts, greatest first (ties: the lower position first)."""
    counts = [np.bincount(game.codes[S, p], minlength=game.colours).tolist()
              for p in range(game.pegs)]
    colours = []
    for p in range(game.pegs):
        order = sorted(range(game.colours), key=lambda c: (-counts[p][c], c))
        colours.append({c: r for r, c in enumerate(order)})
    profile = [sorted(counts[p], reverse=True) for p in range(game.pegs)]
    by_profile = sorted(range(game.pegs), key=lambda p: ([-x for x in profile[p]], p))
    positions = {p: q for q, p in enumerate(by_profile)}
    return positions, colours


@pytest.mark.parametrize("spec", ["p3c4b", "p4c3b", "p3c5b"])
def test_the_normal_form_is_an_image_of_the_state(spec):
    game = Game.from_spec(spec)
    codes = game.codes
    rng = random.Random(spec)
    for _ in range(40):
        S = random_state(game, rng, 12)
        T = _search_keys._normal_form(S, codes, game.colours)
        assert len(T) == len(S) and np.all(np.diff(T) > 0)
        assert np.array_equal(T, apply_symmetry(game, S, *documented_map(game, S)))
        assert orbit_invariant(game, T) == orbit_invariant(game, S)
        positions, colours = random_symmetry(game, rng)
        U = apply_symmetry(game, S, positions, colours)
        assert orbit_invariant(game, U) == orbit_invariant(game, S)


@pytest.mark.parametrize("spec", ["p3c4b", "p4c3b", "p3c4", "p3c5n", "p3c5nb"])
@pytest.mark.parametrize("consistent", [False, True])
def test_values_through_shared_keys_match_a_search_without_them(spec, consistent):
    """Expected and worst-case values of random states: one context keys states by
    their image (symmetry on), the other by themselves (symmetry off, which also
    drops every other symmetry cut). With repeats, a symmetric image of the state
    (each position's colours renamed on its own under black-only scoring, all by one
    renaming otherwise) has the same values too."""
    game = Game.from_spec(spec)
    on = _context(game, consistent, 1 << 16, True)
    off = _context(game, consistent, 1 << 16, False)
    rng = random.Random(f"{spec}/{consistent}")
    for _ in range(12):
        S = random_state(game, rng, 16)
        if len(S) < 3:
            continue
        value, _ = on.exp(S, INF, NO_CAP)
        assert value == off.exp(S, INF, NO_CAP)[0]
        worst = next(d for d in range(1, 20) if on.wc(S, d))
        assert not off.wc(S, worst - 1) and off.wc(S, worst)
        if game.repeats:
            positions, colours = random_symmetry(game, rng)
            if not game.black_only:
                colours = [colours[0]] * game.pegs
            U = apply_symmetry(game, S, positions, colours)
            assert on.exp(U, INF, NO_CAP)[0] == value
            assert on.wc(U, worst) and not on.wc(U, worst - 1)


def test_which_form_keys_a_game():
    """Per-position renamings for black-only games with repeats, one global renaming
    for the others (under black-and-white scoring from 12 secrets on with repeats,
    from 6 without; a permutation game as its black-only twin), none with symmetry
    off."""
    for spec, form in [("p4c6b", 1), ("p4c6", 3), ("p4c8nb", 2), ("p4c10n", 4),
                       ("p6c6n", 2), ("p6c6nb", 2)]:
        game = Game.from_spec(spec)
        ctx = _context(game, False, 1 << 10, True)
        args = (ctx.n_slots, game.codes, game.colours, game.repeats)
        assert _search_keys._normalises(*args, True) == form
        assert _search_keys._normalises(*args, False) == 0


def global_map(game: Game, S):
    """The map the global form is documented to apply: colours ranked by their count
    over all pegs of ``S``, then by their counts at the positions, sorted, compared
    left to right (ties: the lower colour); positions by their counts of the ranked
    colours, greatest first (ties: the lower position); then colours of equal count
    ranked again by their counts at the positions in that order (ties: as ranked
    before), and the positions again."""
    total = np.bincount(game.codes[S].ravel(), minlength=game.colours).tolist()
    at = [[int(np.sum(game.codes[S, p] == c)) for p in range(game.pegs)]
          for c in range(game.colours)]
    order = sorted(range(game.colours),
                   key=lambda c: (-total[c], [-x for x in sorted(at[c], reverse=True)], c))

    def positions(order):
        return sorted(range(game.pegs), key=lambda p: ([-at[c][p] for c in order], p))

    first = positions(order)
    before = {c: i for i, c in enumerate(order)}
    order = sorted(order, key=lambda c: (-total[c], [-at[c][p] for p in first], before[c]))
    by_counts = positions(order)
    rank = {c: r for r, c in enumerate(order)}
    return {p: q for q, p in enumerate(by_counts)}, [rank] * game.pegs


def global_keys(game: Game, S, positions, colours) -> np.ndarray:
    """Mixed-radix keys (not indices: without repeats they differ) of the image."""
    P, C = game.pegs, game.colours
    out = []
    for s in S:
        image = [0] * P
        for p in range(P):
            image[positions[p]] = colours[p][int(game.codes[s, p])]
        out.append(sum(c * C ** (P - 1 - q) for q, c in enumerate(image)))
    return np.array(sorted(out), dtype=np.int64)


@pytest.mark.parametrize("spec", ["p3c4", "p3c5n", "p3c5nb", "p4c4", "p4c4n", "p5c5nb"])
def test_the_global_form_is_an_image_of_the_state(spec):
    game = Game.from_spec(spec)
    rng = random.Random(spec)
    for _ in range(40):
        S = random_state(game, rng, 12)
        T = _search_keys._global_form(S, game.codes, game.colours)
        assert len(T) == len(S) and np.all(np.diff(T) > 0)
        assert np.array_equal(T, global_keys(game, S, *global_map(game, S)))


def test_the_state_hash_is_a_hash_of_the_set():
    """Keys hash a state as a set of secrets: the order of its elements does not
    matter, its size, guesses left and cap weight do, and the key is never 0 (an
    empty slot); two independent hashes (key and check) tell sets apart."""
    rng = random.Random(7)
    seen = {}
    for _ in range(300):
        S = np.array(sorted(rng.sample(range(5000), rng.randint(1, 40))), dtype=np.int64)
        key, check = _search_keys._hash(S, 5, 0)
        shuffled = S.copy()
        rng.shuffle(shuffled)
        assert _search_keys._hash(shuffled, 5, 0) == (key, check)
        assert key != 0 and 0 <= check < 1 << 32
        assert _search_keys._hash(S, 4, 0) != (key, check)
        assert _search_keys._hash(S, 5, 1) != (key, check)
        assert seen.setdefault((key, check), S.tobytes()) == S.tobytes()  # no collision


def inverse_state(game: Game, S) -> np.ndarray:
    """The codes of ``S`` inverted (a permutation game: colour ``p`` at position ``x``
    where the code has colour ``x`` at position ``p``), as code indices."""
    index = {tuple(int(c) for c in code): i for i, code in enumerate(game.codes)}
    out = []
    for s in S:
        inverse = [0] * game.pegs
        for p, x in enumerate(game.codes[s]):
            inverse[int(x)] = p
        out.append(index[tuple(inverse)])
    return np.array(sorted(out), dtype=np.int64)


@pytest.mark.parametrize("spec", ["p5c5nb", "p6c6n"])
def test_a_permutation_game_keys_a_state_and_its_inverse_alike(spec):
    """Inverting every code keeps every answer of a permutation game, so the value
    of a state is its inverse's; the two get one key wherever the orientation test
    tells them apart (the test is antisymmetric), from ``_INVERSE_SECRETS`` secrets
    on, and an inverse's key is that of the global form of the inverted codes."""
    game = Game.from_spec(spec)
    codes = np.ascontiguousarray(game.codes)
    ctx = _context(game, False, 1 << 10, True)
    normal = _search_keys._normalises(ctx.n_slots, codes, game.colours, game.repeats, True)
    work = _search_keys._form_work(game.pegs, game.colours)
    a, b = 0, 1
    assert blacks(game, a, b) == blacks(game, *inverse_state(game, [a, b]))
    rng = random.Random(spec)
    told = 0
    for _ in range(60):
        S = random_state(game, rng, 20)
        inv = inverse_state(game, S)
        side = _search_keys._orientation(S, codes, work)
        assert _search_keys._orientation(inv, codes, work) == -side
        if len(S) < _search_keys._INVERSE_SECRETS or side == 0:
            continue
        told += 1
        key = _search_keys._state_hash(S, 3, 0, codes, game.colours, normal, work)
        assert key == _search_keys._state_hash(inv, 3, 0, codes, game.colours, normal, work)
        keyed = inv if side > 0 else S
        rank, pos = _search_keys._global_map(keyed, codes, game.colours, work)
        assert key == _search_keys._image_hash(keyed, 3, 0, codes, game.colours, rank, pos)
    assert told > 0


def test_inverse_states_have_equal_values():
    """What the keys rely on, checked by the search with symmetry off."""
    game = Game.from_spec("p4c4n")
    off = _context(game, False, 1 << 12, False)
    rng = random.Random(3)
    for _ in range(15):
        S = random_state(game, rng, 12)
        if len(S) >= 3:
            inv = inverse_state(game, S)
            assert off.exp(S, INF, NO_CAP)[0] == off.exp(inv, INF, NO_CAP)[0]


@pytest.mark.parametrize("spec", ["p5c5n", "p6c6n"])
def test_a_permutation_game_searches_as_its_black_only_twin(spec):
    """Its whites are the pegs less the blacks, so black-and-white scoring splits as
    black-only scoring does; with the twin's keys and skew-aware bound the expected
    case's search is the twin's own, state for state."""
    from optimal_mm import search
    from optimal_mm import search_context

    def fresh(s):  # a new transposition table: the states counted are the search's own
        search_context._CONTEXTS.clear()
        return search.solve(Game.from_spec(s), "expected", jobs=1)

    plain, twin = fresh(spec), fresh(spec + "b")
    assert plain.value == twin.value
    assert plain.stats.states == twin.stats.states
    assert plain.stats.guesses == twin.stats.guesses
